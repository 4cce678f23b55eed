// PTX intermediate representation, decoded once by the parser so that the simulator never touches
// text while it runs: opcodes and types are enums, registers are slot numbers, labels are
// instruction indices, shared/local/param symbols are byte offsets.
//
// Operand conventions (ops[] index by opcode; unused entries have Kind::None):
//   arithmetic, logic, cvt, cvta, mov, selp, ...   ops[0]=d  ops[1]=a  ops[2]=b  ops[3]=c
//   setp       ops[0]=p  ops[1]=q (the "|q" half, else None)  ops[2]=a  ops[3]=b  ops[4]=c (combining
//              predicate of setp.CMP.BOOL, may be negated)
//   ld         ops[0]=d (Reg, or Vector)      ops[1]=Address
//   st         ops[0]=Address                 ops[1]=value (Reg/Imm, or Vector)
//   atom       ops[0]=d  ops[1]=Address  ops[2]=b  ops[3]=c (cas only)
//   red        ops[0]=Address  ops[1]=b
//   bar        ops[0]=barrier id (Imm or Reg)  ops[1]=thread count (Imm/Reg, or None = whole block)
//   membar     no operands (scope in Instruction::scope)
//   bra        Instruction::target = index of the destination instruction
//   vote       ops[0]=d  ops[1]=a (predicate, may be negated)  ops[2]=membermask
//   shfl       ops[0]=d  ops[1]=p-out (or None)  ops[2]=a  ops[3]=b (lane/delta)  ops[4]=c (clamp)
//              ops[5]=membermask
//   bar.warp.sync (Op::WarpSync)  ops[0]=membermask
//   bar.red    (Op::Bar, mod::kRed; atom_op = Add for .popc.u32, And / Or for .pred)
//              ops[0]=barrier id  ops[1]=thread count (or None)  ops[2]=d  ops[3]=c (predicate, may be
//              negated)
//   redux      ops[0]=d  ops[1]=a  ops[2]=membermask (atom_op: Add Min Max And Or Xor; type U32/S32/B32)
//   match      ops[0]=d  ops[1]=p-out (all only, or None)  ops[2]=a  ops[3]=membermask
//              (vote = Any or All: the mode; type B32 or B64)
//   elect      ops[0]=d (or None for '_')  ops[1]=p-out (or None)  ops[2]=membermask
#pragma once

#include "ptx/opcodes.h"
#include "trace/trace.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace synclab::ptx {

struct Module;

const char* to_string(Op op);

enum class Type : uint8_t {
    None,
    Pred,
    B8,
    B16,
    B32,
    B64,
    U8,
    U16,
    U32,
    U64,
    S8,
    S16,
    S32,
    S64,
    F16,
    F32,
    F64,
};
const char* to_string(Type type);
uint32_t type_size(Type type); // bytes (Pred: 1, None: 0)
bool is_signed(Type type);     // S*
bool is_float(Type type);      // F*

enum class Space : uint8_t { Generic, Global, Shared, Local, Param, Const };
const char* to_string(Space space);

enum class Cmp : uint8_t {
    None,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Lo,
    Ls,
    Hi,
    Hs,
    Equ,
    Neu,
    Ltu,
    Leu,
    Gtu,
    Geu,
    Num,
    Nan
};
enum class BoolOp : uint8_t { None, And, Or, Xor };
enum class AtomOp : uint8_t { None, Add, Min, Max, Inc, Dec, And, Or, Xor, Exch, Cas };
enum class VoteMode : uint8_t { None, All, Any, Uni, Ballot };
enum class ShflMode : uint8_t { None, Up, Down, Bfly, Idx };
enum class MemOrder : uint8_t { Weak, Volatile, Relaxed, Acquire, Release, AcqRel, Sc };
enum class MemScope : uint8_t { None, Cta, Cluster, Gpu, Sys };

// Modifier bits in Instruction::mods.
namespace mod {
constexpr uint16_t kLo = 1u << 0;          // mul.lo / mad.lo (default for integer mul)
constexpr uint16_t kHi = 1u << 1;          // mul.hi / mad.hi
constexpr uint16_t kWide = 1u << 2;        // mul.wide / mad.wide: d is twice the width of Instruction::type
constexpr uint16_t kSat = 1u << 3;         // .sat (integer add/sub, float clamp to [0,1])
constexpr uint16_t kFtz = 1u << 4;         // flush denormals (ignored by the simulator)
constexpr uint16_t kUni = 1u << 5;         // bra.uni
constexpr uint16_t kToSpace = 1u << 6;     // cvta.to.SPACE (generic -> space); else space -> generic
constexpr uint16_t kAligned = 1u << 7;     // bar.sync, barrier.sync.aligned (all lanes of a warp together)
constexpr uint16_t kArrive = 1u << 8;      // bar.arrive (no wait)
constexpr uint16_t kRoundInt = 1u << 9;    // cvt.rni/.rzi/.rmi/.rpi (float -> float rounding to integer)
constexpr uint16_t kCc = 1u << 10;         // .cc / addc: unsupported, kept to report
constexpr uint16_t kShiftRight = 1u << 11; // shf.r (else shf.l)
constexpr uint16_t kClamp = 1u << 12;      // shf.clamp (else .wrap)
constexpr uint16_t kShiftAmt = 1u << 13;   // bfind.shiftamt
constexpr uint16_t kRed = 1u << 14;        // bar.red / barrier.red: the barrier also reduces a predicate
} // namespace mod

// Rounding requested on cvt/arith (.rn .rz .rm .rp and the integer variants .rni ...).
enum class Rounding : uint8_t { Default, Nearest, Zero, Down, Up };

enum class SpecialReg : uint8_t {
    TidX,
    TidY,
    TidZ,
    NtidX,
    NtidY,
    NtidZ,
    CtaidX,
    CtaidY,
    CtaidZ,
    NctaidX,
    NctaidY,
    NctaidZ,
    LaneId,
    WarpId,
    NWarpId,
    SmId,
    NSmId,
    GridId,
    Clock,
    Clock64,
    GlobalTimer,
    GlobalTimerLo,
    LanemaskEq,
    LanemaskLt,
    LanemaskLe,
    LanemaskGt,
    LanemaskGe,
    DynamicSmemSize,
    // %envreg0..31: the driver's per-launch environment (read-only). Cooperative groups read their
    // grid-barrier workspace's address from %envreg1 (high 32 bits) and %envreg2 (low 32 bits).
    Envreg0,
    Envreg1,
    Envreg2,
    Envreg3,
    Envreg4,
    Envreg5,
    Envreg6,
    Envreg7,
    Envreg8,
    Envreg9,
    Envreg10,
    Envreg11,
    Envreg12,
    Envreg13,
    Envreg14,
    Envreg15,
    Envreg16,
    Envreg17,
    Envreg18,
    Envreg19,
    Envreg20,
    Envreg21,
    Envreg22,
    Envreg23,
    Envreg24,
    Envreg25,
    Envreg26,
    Envreg27,
    Envreg28,
    Envreg29,
    Envreg30,
    Envreg31,
};
inline bool is_envreg(SpecialReg reg) { return reg >= SpecialReg::Envreg0 && reg <= SpecialReg::Envreg31; }
inline uint32_t envreg_index(SpecialReg reg) {
    return static_cast<uint32_t>(reg) - static_cast<uint32_t>(SpecialReg::Envreg0);
}
const char* to_string(SpecialReg reg);

struct Operand {
    enum class Kind : uint8_t {
        None,
        Reg,     // reg = register slot
        Imm,     // imm = value bits (integers sign-extended to 64 bits; f32 as its 32 bits; f64 as 64 bits)
        Special, // special = SpecialReg
        Symbol,  // symbol = index into Module::globals (the symbol's address, in its own space)
        Address, // [reg + imm], [imm], or [symbol + imm]: reg = base slot or kNoReg, symbol or kNoSymbol
        Vector,  // vec[0..vec_count) register slots, e.g. {%f1, %f2}; kNoReg stands for "_" (sink)
    };
    static constexpr uint32_t kNoReg = 0xffffffffu;
    static constexpr uint32_t kNoSymbol = 0xffffffffu;

    Kind kind = Kind::None;
    bool negate = false; // "!%p" for predicate sources
    uint8_t vec_count = 0;
    SpecialReg special = SpecialReg::TidX;
    uint32_t reg = kNoReg;
    uint32_t symbol = kNoSymbol; // Module::globals index (Address and Symbol kinds)
    uint64_t imm = 0;            // immediate value, or the address offset
    uint32_t vec[4] = {kNoReg, kNoReg, kNoReg, kNoReg};
};

struct Instruction {
    Op op = Op::Mov;
    Type type = Type::None;       // the instruction's type (cvt: destination; setp: compared type)
    Type type2 = Type::None;      // cvt: source type; other ops: None
    Space space = Space::Generic; // ld/st/atom/red: state space; cvta: the non-generic space
    uint8_t vector = 1;           // ld/st .v2 / .v4 element count
    Cmp cmp = Cmp::None;
    BoolOp bool_op = BoolOp::None;
    AtomOp atom_op = AtomOp::None;
    VoteMode vote = VoteMode::None;
    ShflMode shfl = ShflMode::None;
    MemOrder order = MemOrder::Weak;
    MemScope scope = MemScope::None;
    Rounding rounding = Rounding::Default;
    uint16_t mods = 0;                // mod:: bits
    uint32_t guard = Operand::kNoReg; // guard predicate slot ("@%p" / "@!%p"), or kNoReg
    bool guard_negated = false;
    uint8_t operand_count = 0;
    Operand ops[6];
    uint32_t target = 0;      // bra: destination instruction index
    uint32_t ptx_line = 0;    // 1-based line of the instruction in the PTX text
    // Source position (see "Source positions" above Function): the instruction's own CUDA line,
    // inside whatever helper it was inlined from, and the calls that led there.
    uint32_t source_file = 0; // Module::files index of source_line's file; 0 = unknown
    uint32_t source_line = 0; // CUDA source line; 0 = unknown
    uint32_t inlined = 0;     // Function::inlined index of the calls source_line was inlined through;
                              // 0 = none (the kernel's own body)
};

struct Register {
    std::string name; // "%r5", "%p1", "%SP"
    Type type = Type::None;
};

// The ops[] slot of a warp collective's member mask (the layouts at the top of this file); the
// simulator and the instrumentation both read it from here.
inline uint32_t member_mask_slot(Op op) {
    switch (op) {
    case Op::WarpSync:
        return 0;
    case Op::Shfl:
        return 5;
    case Op::Match:
        return 3;
    default: // vote, redux, elect
        return 2;
    }
}

// Kernel parameter: ld.param addresses are byte offsets into the packed parameter buffer.
struct Param {
    std::string name;
    Type type = Type::None; // element type (.u64 for pointers)
    uint32_t offset = 0;    // byte offset in the parameter buffer (aligned to its alignment)
    uint32_t size = 0;      // bytes (arrays: .param .align 8 .b8 name[16] -> 16)
    uint32_t align = 0;
};

// A module-scope variable in .global or .const space (e.g. `__device__ unsigned counter;`); the
// runner assigns its address. Function- or module-scope .shared variables are not here: the parser
// lays them out and turns references into offsets in the block's shared window (Function::shared_*).
struct GlobalVar {
    std::string name;
    Space space = Space::Global;
    Type type = Type::None; // declared element type (`.u32 counter`; a struct or array of bytes: .b8)
    uint32_t size = 0;
    uint32_t align = 1;
    std::vector<uint8_t> init; // initial bytes (empty = zero)
};

// A .shared variable of a function's window as the parser laid it out (the module-scope ones the
// function uses, then its own): what a shared address is called ("s_tile" for
// "_ZZ14stencil_kernelPKfPfE6s_tile", trace/naming.h).
struct SharedSymbol {
    std::string name;       // the PTX symbol
    uint32_t offset = 0;    // in the block's shared window
    uint64_t size = 0;      // bytes; 0 for an `extern` array (as big as the launch's dynamic shared memory)
    Type type = Type::None; // declared element type (.b8 for most arrays)
    bool is_extern = false; // starts at Function::shared_dynamic_offset
};

// Source positions. nvcc's line info (`-lineinfo`) writes `.loc F L C` before instructions and, for
// code inlined from a `__device__` function, `.loc F L C, function_name LABEL, inlined_at F2 L2 C2`:
// position F:L is in the function LABEL names (a string of the PTX's .debug_str section), which was
// called at F2:L2 (itself given by an earlier .loc, perhaps inlined too). The parser follows such a
// chain and keeps the innermost position in the user's code as Instruction::source_file/line and the
// calls as Function::inlined: "line 20 in `warpReduce<64u, float>`, called from line 29". Positions
// in the CUDA toolkit's headers (is_toolkit_source: atomicAdd, __shfl_sync, cooperative groups,
// cuda::atomic_ref) are not followed: an atomicAdd is at the line that calls it.

// One call of an inlined function, as the parser resolved it.
struct InlinedCall {
    std::string function; // the called function as the source names it ("warpReduce<64u, float>");
                          // "" when the PTX does not name it (no .debug_str entry)
    uint32_t file = 0;    // Module::files index of the call
    uint32_t line = 0;    // the call's line
    bool operator==(const InlinedCall&) const = default;
};

// Whether a source position is inside the CUDA toolkit rather than the user's code: its file lies
// in a toolkit include tree ("/usr/local/cuda/include/...", ".../targets/x86_64-linux/include/...",
// ".../include/cccl/..."), or, for PTX whose .file paths were cut to base names
// (scripts/normalize_ptx.cmake), is one of the toolkit's device headers by name
// (sm_60_atomic_functions.hpp, device_atomic_functions.hpp, sm_30_intrinsics.hpp, ...); or the
// function holding it (demangled) is in the toolkit's namespaces (cuda::, cooperative_groups::,
// cub::, thrust::, nv::).
bool is_toolkit_source(std::string_view file, std::string_view demangled_function);

struct Function {
    std::string name;
    bool is_entry = false;
    std::vector<Param> params;
    uint32_t param_bytes = 0;
    std::vector<Register> registers; // slot i = registers[i]
    std::vector<Instruction> code;
    std::vector<std::string> text;      // text[i] = instruction i as written (one line, no trailing ';')
    uint32_t shared_static_bytes = 0;   // static .shared variables laid out from offset 0
    uint32_t shared_dynamic_offset = 0; // where `extern .shared` arrays start (aligned end of static)
    std::vector<SharedSymbol> shared_symbols; // its shared window's variables, by offset
    uint32_t local_bytes = 0;           // per-thread .local frame (__local_depot)
    uint32_t decl_line = 0;             // PTX line of the .entry / .func
    // Inlined calls (see "Source positions"), innermost first; Instruction::inlined indexes them.
    // inlined[0] is empty (not inlined); the others are distinct.
    std::vector<std::vector<InlinedCall>> inlined{{}};
    uint32_t source_file = 0; // Module::files index of the function's own body (where its
                              // outermost positions are); 0 = unknown
};

// The trace's site table of a function: one Site per instruction (PTX line, CUDA line, text, and
// where the line is: its file when it is not the function's own, the inlined calls), so that events
// name lines without the PTX at hand. Every runner builds its traces' sites with it. `module`
// names the files (Module::files); without it (nullptr) no file is named.
std::vector<trace::Site> site_table(const Function& function, const Module* module);
// One entry of that table: instruction `index`'s Site (an empty one past the end).
trace::Site site_of(const Function& function, const Module* module, size_t index);

// The trace's names for a function's shared window (trace::MemoryMap): one region per shared
// variable, named as the source names it ("s_tile"), its `extern` arrays as big as
// `dynamic_shared_bytes` (none when that is 0). Every runner fills its traces' maps with these.
// `placed_at`, parallel to Function::shared_symbols where given (empty: the parser's offsets), is
// where the runner's shared window really has each variable: the GPU's differ (ptx::kTraceParamShared).
std::vector<trace::MemoryRegion> shared_regions(const Function& function, uint32_t dynamic_shared_bytes,
                                                const std::vector<uint32_t>& placed_at = {});
// The region of a module-scope `.global` variable (a `__device__` variable) placed at `address`.
trace::MemoryRegion global_region(const GlobalVar& variable, uint64_t address);
// The regions of a launch of `function` besides its buffers (launch::buffer_regions): the module's
// `.global` variables at `global_addresses` (parallel to Module::globals, where the runner placed
// them; 0 or past the end: not placed, e.g. not in the module the GPU loaded) and the function's
// shared window (shared_regions). `.const` variables are left out: a `ld.const` names the constant
// bank, not a global address, on the GPU. Every runner fills its traces' maps with these.
// `shared_placed_at` as shared_regions' `placed_at`.
std::vector<trace::MemoryRegion> kernel_regions(const Module& module, const Function& function,
                                                uint32_t dynamic_shared_bytes,
                                                const std::vector<uint64_t>& global_addresses,
                                                const std::vector<uint32_t>& shared_placed_at = {});

struct Module {
    std::string version; // ".version 9.0" -> "9.0"
    std::string target;  // ".target sm_75" -> "sm_75"
    uint32_t address_size = 64;
    std::vector<std::string> files; // files[0] = "" (unknown); .file N "x" -> files[N] = "x"
    std::vector<GlobalVar> globals;
    std::vector<Function> functions; // entries and non-entry .func (calls are unsupported)

    const Function* find_entry(const std::string& name) const; // kernels only; nullptr otherwise
    std::vector<std::string> entry_names() const;
    // The kernel `name`, or a ParseError (ptx/parser.h) "<source_name>:<line>: ..." naming the kernels
    // that exist: line = the .func's declaration when `name` is a device function, else 0.
    const Function& require_entry(const std::string& name, const std::string& source_name = "<ptx>") const;
};

} // namespace synclab::ptx
