// The one list of PTX opcodes SyncLab knows (Spike's DECLARE_INSN discipline): every row feeds the
// Op enum, its PTX name, the parser's dispatch (which decoder reads the instruction) and the traits
// the simulator and the instrumenter ask about ("does it touch memory?", "is it a warp collective?").
// A new instruction is one row here plus its decoder case, its execution and its tests.
//
// Columns: X(Enum, "ptx name", Decoder, traits)
//   Decoder: the parser's family of the instruction (parser_statement.cpp dispatches on it; each
//            family is decoded in one place, decode_*.cpp).
//   traits:  trait:: bits below.
// Rows whose name holds a '.' (bar.warp.sync) are reached through their family's decoder, not by
// name; kAliases lists the other spellings that lead to a row (fence -> membar, barrier -> bar).
#pragma once

#include <cstdint>
#include <string_view>

namespace synclab::ptx {

namespace trait {
constexpr uint16_t kMemory = 1u << 0;     // reads or writes memory (ld st atom red)
constexpr uint16_t kAtomic = 1u << 1;     // indivisible read-modify-write (atom red)
constexpr uint16_t kFence = 1u << 2;      // orders memory (membar / fence)
constexpr uint16_t kBarrier = 1u << 3;    // block-level barrier (bar / barrier)
constexpr uint16_t kCollective = 1u << 4; // warp collective: its member lanes meet (bar.warp.sync vote shfl redux match elect)
constexpr uint16_t kBranch = 1u << 5;     // changes the PC (bra)
constexpr uint16_t kExit = 1u << 6;       // ends the thread (ret exit)
constexpr uint16_t kEvent = 1u << 7;      // produces a trace event (memory, fence, barrier, exit)
} // namespace trait

// The tables below are kept one row per line: easier to read and to diff than formatted.
// clang-format off
enum class Decoder : uint8_t { Mov, Cvt, Cvta, Isspacep, LdSt, Selp, Arith, Logic, Bits, Setp, AtomRed, Fence, Bar, Vote, Shfl, Redux, Match, Elect, Control };

#define SYNCLAB_PTX_OPCODES(X)                                                                   \
    /* data movement and conversion */                                                          \
    X(Mov,        "mov",           Mov,     0)                                                   \
    X(Cvt,        "cvt",           Cvt,     0)                                                   \
    X(Cvta,       "cvta",          Cvta,    0)                                                   \
    X(Isspacep,   "isspacep",      Isspacep, 0) /* p = is generic address a in the space */      \
    X(Ld,         "ld",            LdSt,    trait::kMemory | trait::kEvent)                      \
    X(St,         "st",            LdSt,    trait::kMemory | trait::kEvent)                      \
    X(Selp,       "selp",          Selp,    0)                                                   \
    /* integer and floating-point arithmetic (the type decides int vs float semantics) */       \
    X(Add,        "add",           Arith,   0)                                                   \
    X(Sub,        "sub",           Arith,   0)                                                   \
    X(Mul,        "mul",           Arith,   0)                                                   \
    X(Mad,        "mad",           Arith,   0)                                                   \
    X(Fma,        "fma",           Arith,   0)                                                   \
    X(Div,        "div",           Arith,   0)                                                   \
    X(Rem,        "rem",           Arith,   0)                                                   \
    X(Abs,        "abs",           Arith,   0)                                                   \
    X(Neg,        "neg",           Arith,   0)                                                   \
    X(Min,        "min",           Arith,   0)                                                   \
    X(Max,        "max",           Arith,   0)                                                   \
    X(Sqrt,       "sqrt",          Arith,   0)                                                   \
    X(Rsqrt,      "rsqrt",         Arith,   0)                                                   \
    X(Rcp,        "rcp",           Arith,   0)                                                   \
    X(Ex2,        "ex2",           Arith,   0)                                                   \
    X(Lg2,        "lg2",           Arith,   0)                                                   \
    X(Sin,        "sin",           Arith,   0)                                                   \
    X(Cos,        "cos",           Arith,   0)                                                   \
    X(Copysign,   "copysign",      Arith,   0)                                                   \
    /* logic and bit manipulation */                                                            \
    X(And,        "and",           Logic,   0)                                                   \
    X(Or,         "or",            Logic,   0)                                                   \
    X(Xor,        "xor",           Logic,   0)                                                   \
    X(Not,        "not",           Logic,   0)                                                   \
    X(Shl,        "shl",           Bits,    0)                                                   \
    X(Shr,        "shr",           Bits,    0)                                                   \
    X(Popc,       "popc",          Bits,    0)                                                   \
    X(Clz,        "clz",           Bits,    0)                                                   \
    X(Brev,       "brev",          Bits,    0)                                                   \
    X(Bfe,        "bfe",           Bits,    0)                                                   \
    X(Bfi,        "bfi",           Bits,    0)                                                   \
    X(Prmt,       "prmt",          Bits,    0)                                                   \
    X(Shf,        "shf",           Bits,    0) /* funnel shift (mod::kShiftRight, kClamp) */     \
    X(Bfind,      "bfind",         Bits,    0) /* most significant non-sign bit */              \
    /* comparison */                                                                            \
    X(Setp,       "setp",          Setp,    0)                                                   \
    /* atomics and memory ordering */                                                           \
    X(Atom,       "atom",          AtomRed, trait::kMemory | trait::kAtomic | trait::kEvent)     \
    X(Red,        "red",           AtomRed, trait::kMemory | trait::kAtomic | trait::kEvent)     \
    X(Membar,     "membar",        Fence,   trait::kFence | trait::kEvent)                       \
    /* synchronisation */                                                                       \
    X(Bar,        "bar",           Bar,     trait::kBarrier | trait::kEvent)                     \
    X(WarpSync,   "bar.warp.sync", Bar,     trait::kCollective)                                  \
    X(Vote,       "vote",          Vote,    trait::kCollective)                                  \
    X(Shfl,       "shfl",          Shfl,    trait::kCollective)                                  \
    X(Redux,      "redux",         Redux,   trait::kCollective) /* redux.sync: reduce a register */ \
    X(Match,      "match",         Match,   trait::kCollective) /* match.{any,all}.sync */          \
    X(Elect,      "elect",         Elect,   trait::kCollective) /* elect.sync (sm_90) */            \
    X(Activemask, "activemask",    Control, 0)                                                   \
    /* control flow */                                                                          \
    X(Bra,        "bra",           Control, trait::kBranch)                                      \
    X(Ret,        "ret",           Control, trait::kExit | trait::kEvent)                        \
    X(Exit,       "exit",          Control, trait::kExit | trait::kEvent)                        \
    X(Trap,       "trap",          Control, 0)                                                   \
    X(Nanosleep,  "nanosleep",     Control, 0)

enum class Op : uint8_t {
#define SYNCLAB_OP_ENUM(name, text, decoder, traits) name,
    SYNCLAB_PTX_OPCODES(SYNCLAB_OP_ENUM)
#undef SYNCLAB_OP_ENUM
};

struct OpInfo {
    std::string_view name; // PTX spelling
    Decoder decoder;
    uint16_t traits;
};

inline constexpr OpInfo kOpInfo[] = {
#define SYNCLAB_OP_INFO(name, text, decoder, traits) {text, Decoder::decoder, traits},
    SYNCLAB_PTX_OPCODES(SYNCLAB_OP_INFO)
#undef SYNCLAB_OP_INFO
};
inline constexpr size_t kOpCount = sizeof(kOpInfo) / sizeof(kOpInfo[0]);

constexpr const OpInfo& info(Op op) { return kOpInfo[static_cast<size_t>(op)]; }
constexpr bool has_trait(Op op, uint16_t t) { return (info(op).traits & t) != 0; }
constexpr bool is_memory_access(Op op) { return has_trait(op, trait::kMemory); }
constexpr bool is_atomic(Op op) { return has_trait(op, trait::kAtomic); }
constexpr bool is_fence(Op op) { return has_trait(op, trait::kFence); }
constexpr bool is_barrier(Op op) { return has_trait(op, trait::kBarrier); }
constexpr bool is_warp_collective(Op op) { return has_trait(op, trait::kCollective); }
constexpr bool is_exit(Op op) { return has_trait(op, trait::kExit); }
constexpr bool emits_event(Op op) { return has_trait(op, trait::kEvent); }

// Other PTX spellings of a row: membar and fence are one Op (the order and scope say which), and
// bar.* is barrier.*.aligned.
struct OpAlias {
    std::string_view name;
    Op op;
};
inline constexpr OpAlias kAliases[] = {{"fence", Op::Membar}, {"barrier", Op::Bar}};

// Real PTX opcodes outside SyncLab's subset: the parser says "unsupported", not "unknown".
// (`call` has a message of its own: inline the device function.)
inline constexpr std::string_view kUnsupportedOpcodes[] = {
    "addc",     "subc",     "madc",      "mul24",      "mad24",         "sad",           "fns",
    "dp4a",     "dp2a",     "testp",     "slct",       "set",           "cnot",          "lop3",
    "ldu",      "prefetch", "prefetchu", "tex",           "tld4",          "txq",
    "suld",     "sust",     "sured",     "suq",        "istypep",       "mbarrier",      "cp",
    "griddepcontrol", "wmma",      "mma",           "ldmatrix",
    "stmatrix", "movmatrix", "wgmma",    "tcgen05",    "applypriority", "discard",       "createpolicy",
    "getctarank", "multimem", "brx",     "brkpt",      "pmevent",       "setmaxnreg",    "alloca",
    "stackrestore", "stacksave", "tanh", "clusterlaunchcontrol", "szext", "bmsk",
};
// clang-format on

// The row an opcode's base name ("ld", "fence", ...) leads to; false when the name is not one of
// SyncLab's (then see kUnsupportedOpcodes).
constexpr bool op_from_name(std::string_view base, Op& out) {
    for (size_t i = 0; i < kOpCount; ++i)
        if (kOpInfo[i].name == base) {
            out = static_cast<Op>(i);
            return true;
        }
    for (const OpAlias& a : kAliases)
        if (a.name == base) {
            out = a.op;
            return true;
        }
    return false;
}

constexpr bool is_unsupported_opcode(std::string_view base) {
    for (std::string_view name : kUnsupportedOpcodes)
        if (name == base) return true;
    return false;
}

} // namespace synclab::ptx
