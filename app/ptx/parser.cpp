// PTX parser: tokens (lexer.h) -> ptx::Module (ir.h). See parser.h for the contract.
//
// Index
//   [SECTION] ParseError
//   [SECTION] Tables: types, spaces, scopes, special registers, opcodes
//   [SECTION] Literals
//   [SECTION] Names and scopes
//   [SECTION] Parser state, token cursor, errors
//   [SECTION] Module level
//   [SECTION] Variables and initialisers
//   [SECTION] Functions: signature, parameters, body, declarations
//   [SECTION] .loc and inlining
//   [SECTION] Statements: splitting, guard, modifiers
//   [SECTION] Operands
//   [SECTION] Instructions: dispatch and shared modifier helpers
//   [SECTION] Instructions: data movement (mov cvt cvta ld st selp)
//   [SECTION] Instructions: arithmetic and bit manipulation
//   [SECTION] Instructions: comparison, atomics, fences
//   [SECTION] Instructions: barriers, warp operations, control flow
//   [SECTION] Function finish: labels, shared layout
//   [SECTION] Entry point
//
// Design notes
// - The whole text is tokenised first (tokens are views into the text); the parser then walks the
//   token vector once. Forward label references and shared-memory offsets are fixed up when a
//   function's closing brace is reached.
// - Every path either produces IR or throws ParseError: unknown opcodes, modifiers and directives are
//   errors, never skipped. The only things skipped are `.section` blocks (debug data), `.pragma`,
//   cache hints and performance directives, none of which change what a kernel computes.
// - Names are function-scoped with nested `{ }` blocks (nvcc declares `%temp` in sibling blocks);
//   labels are function-wide.
#include "ptx/parser.h"

#include "ptx/lexer.h"

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cstring>
#include <limits>
#include <optional>
#include <unordered_map>
#include <utility>

namespace synclab::ptx {

// =================================================================================================
// [SECTION] ParseError
// =================================================================================================

namespace {

std::string format_error(const std::string& source_name, uint32_t line, const std::string& instruction,
                         const std::string& what) {
    std::string message = source_name + ":" + std::to_string(line) + ": " + what;
    if (!instruction.empty()) message += "\n    " + instruction;
    return message;
}

} // namespace

// what() = "<source>:<line>: <what>", followed by "\n    <instruction>" when there is one.
ParseError::ParseError(std::string source_name, uint32_t line, std::string instruction,
                       const std::string& what)
    : std::runtime_error(format_error(source_name, line, instruction, what)),
      source_name_(std::move(source_name)), line_(line), instruction_(std::move(instruction)) {}

namespace {

// =================================================================================================
// [SECTION] Tables: types, spaces, scopes, special registers, opcodes
// =================================================================================================

constexpr uint32_t kMaxInstructions = 65535;    // per function (the simulator keeps 16-bit pcs)
constexpr uint32_t kMaxRegisters = 1u << 18;    // per function; guards against `%r<999999999>`
constexpr uint64_t kMaxBytes = 1ull << 30;      // any variable, parameter list or memory layout
constexpr uint64_t kMaxInitBytes = 16ull << 20; // initialised module variables
constexpr uint32_t kMaxFileIndex = 65535;       // .file / .loc file numbers
constexpr size_t kMaxOperands = 8;              // more than any accepted instruction has
constexpr size_t kMaxModifiers = 12;            // dotted parts of one opcode
constexpr int kMaxInitDepth = 8;                // nesting of `{ }` in an initialiser

std::optional<Type> type_from_name(std::string_view name) {
    static constexpr std::pair<std::string_view, Type> kTypes[] = {
        {"pred", Type::Pred}, {"b8", Type::B8},   {"b16", Type::B16}, {"b32", Type::B32},
        {"b64", Type::B64},   {"u8", Type::U8},   {"u16", Type::U16}, {"u32", Type::U32},
        {"u64", Type::U64},   {"s8", Type::S8},   {"s16", Type::S16}, {"s32", Type::S32},
        {"s64", Type::S64},   {"f16", Type::F16}, {"f32", Type::F32}, {"f64", Type::F64},
    };
    for (const auto& [spelling, type] : kTypes) {
        if (spelling == name) return type;
    }
    return std::nullopt;
}

// PTX types that exist but that the simulator does not model; named in error messages.
bool is_unsupported_type_name(std::string_view name) {
    static constexpr std::string_view kNames[] = {
        "f16x2", "bf16",  "bf16x2", "b128", "tf32", "e4m3",  "e5m2",  "e4m3x2", "e5m2x2", "e2m1",   "e2m3",
        "e3m2",  "ue8m0", "b1",     "s4",   "u4",   "s16x2", "u16x2", "e2m1x2", "e2m3x2", "e3m2x2",
    };
    return std::find(std::begin(kNames), std::end(kNames), name) != std::end(kNames);
}

bool is_int(Type t) {
    return t != Type::None && t != Type::Pred && !is_float(t);
}
bool is_bits(Type t) {
    return t == Type::B8 || t == Type::B16 || t == Type::B32 || t == Type::B64;
}
bool is_unsigned(Type t) {
    return t == Type::U8 || t == Type::U16 || t == Type::U32 || t == Type::U64;
}

std::optional<Space> space_from_name(std::string_view name) {
    if (name == "global") return Space::Global;
    if (name == "shared" || name == "shared::cta") return Space::Shared;
    if (name == "local") return Space::Local;
    if (name == "param" || name == "param::entry" || name == "param::func") return Space::Param;
    if (name == "const") return Space::Const;
    return std::nullopt;
}

std::optional<MemScope> scope_from_name(std::string_view name) {
    if (name == "cta") return MemScope::Cta;
    if (name == "cluster") return MemScope::Cluster;
    if (name == "gpu") return MemScope::Gpu;
    if (name == "sys") return MemScope::Sys;
    return std::nullopt;
}

std::optional<SpecialReg> special_from_name(std::string_view name) {
    static constexpr std::pair<std::string_view, SpecialReg> kRegs[] = {
        {"%tid.x", SpecialReg::TidX},
        {"%tid.y", SpecialReg::TidY},
        {"%tid.z", SpecialReg::TidZ},
        {"%ntid.x", SpecialReg::NtidX},
        {"%ntid.y", SpecialReg::NtidY},
        {"%ntid.z", SpecialReg::NtidZ},
        {"%ctaid.x", SpecialReg::CtaidX},
        {"%ctaid.y", SpecialReg::CtaidY},
        {"%ctaid.z", SpecialReg::CtaidZ},
        {"%nctaid.x", SpecialReg::NctaidX},
        {"%nctaid.y", SpecialReg::NctaidY},
        {"%nctaid.z", SpecialReg::NctaidZ},
        {"%laneid", SpecialReg::LaneId},
        {"%warpid", SpecialReg::WarpId},
        {"%nwarpid", SpecialReg::NWarpId},
        {"%smid", SpecialReg::SmId},
        {"%nsmid", SpecialReg::NSmId},
        {"%gridid", SpecialReg::GridId},
        {"%clock", SpecialReg::Clock},
        {"%clock64", SpecialReg::Clock64},
        {"%globaltimer", SpecialReg::GlobalTimer},
        {"%globaltimer_lo", SpecialReg::GlobalTimerLo},
        {"%lanemask_eq", SpecialReg::LanemaskEq},
        {"%lanemask_lt", SpecialReg::LanemaskLt},
        {"%lanemask_le", SpecialReg::LanemaskLe},
        {"%lanemask_gt", SpecialReg::LanemaskGt},
        {"%lanemask_ge", SpecialReg::LanemaskGe},
        {"%dynamic_smem_size", SpecialReg::DynamicSmemSize},
    };
    for (const auto& [spelling, reg] : kRegs) {
        if (spelling == name) return reg;
    }
    return std::nullopt;
}

// Reserved PTX special-register names that the simulator does not provide.
bool is_unsupported_special(std::string_view name) {
    static constexpr std::string_view kPrefixes[] = {
        "%tid",
        "%ntid",
        "%ctaid",
        "%nctaid",
        "%envreg",
        "%pm",
        "%clock",
        "%cluster",
        "%nclusterid",
        "%is_explicit_cluster",
        "%total_smem_size",
        "%aggr_smem_size",
        "%reserved_smem",
        "%lanemask",
        "%globaltimer",
        "%current_graph_exec",
        "%dynamic_smem",
    };
    for (std::string_view prefix : kPrefixes) {
        if (name.substr(0, prefix.size()) == prefix) return true;
    }
    return false;
}

uint64_t align_up(uint64_t value, uint64_t align) {
    return align <= 1 ? value : (value + align - 1) / align * align;
}

// =================================================================================================
// [SECTION] Literals
// =================================================================================================

// An integer or floating-point literal as written (the sign is a separate '-' token).
struct Literal {
    enum class Kind : uint8_t { Int, F32Bits, F64Bits, Decimal } kind = Kind::Int;
    bool negative = false;
    uint64_t bits = 0;  // Int: magnitude; F32Bits/F64Bits: the IEEE bits
    double value = 0.0; // Decimal
};

// Integer magnitude: decimal, 0x hex, 0b binary, leading-0 octal, optional U suffix.
std::optional<uint64_t> parse_int_magnitude(std::string_view s) {
    if (!s.empty() && s.back() == 'U') s.remove_suffix(1);
    int base = 10;
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s.remove_prefix(2);
    } else if (s.size() > 2 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) {
        base = 2;
        s.remove_prefix(2);
    } else if (s.size() > 1 && s[0] == '0') {
        base = 8;
        s.remove_prefix(1);
    }
    if (s.empty()) return std::nullopt;
    uint64_t value = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value, base);
    if (ec != std::errc{} || end != s.data() + s.size()) return std::nullopt;
    return value;
}

// Returns nullopt for a malformed or out-of-range literal.
std::optional<Literal> parse_literal(std::string_view s, bool negative) {
    Literal lit;
    lit.negative = negative;
    const bool hex = s.size() > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    if (s.size() == 10 && s[0] == '0' && (s[1] == 'f' || s[1] == 'F')) {
        lit.kind = Literal::Kind::F32Bits;
        auto bits = parse_int_magnitude(std::string("0x").append(s.substr(2)));
        if (!bits) return std::nullopt;
        lit.bits = *bits;
        return lit;
    }
    if (s.size() == 18 && s[0] == '0' && (s[1] == 'd' || s[1] == 'D')) {
        lit.kind = Literal::Kind::F64Bits;
        auto bits = parse_int_magnitude(std::string("0x").append(s.substr(2)));
        if (!bits) return std::nullopt;
        lit.bits = *bits;
        return lit;
    }
    if (!hex && s.find_first_of(".eE") != std::string_view::npos) {
        lit.kind = Literal::Kind::Decimal;
        const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), lit.value);
        if (ec != std::errc{} || end != s.data() + s.size()) return std::nullopt;
        if (negative) lit.value = -lit.value;
        return lit;
    }
    auto magnitude = parse_int_magnitude(s);
    if (!magnitude) return std::nullopt;
    if (negative && *magnitude > (1ull << 63)) return std::nullopt;
    lit.bits = *magnitude;
    return lit;
}

double literal_as_double(const Literal& lit) {
    switch (lit.kind) {
    case Literal::Kind::F32Bits: {
        const double v = std::bit_cast<float>(static_cast<uint32_t>(lit.bits));
        return lit.negative ? -v : v;
    }
    case Literal::Kind::F64Bits: {
        const double v = std::bit_cast<double>(lit.bits);
        return lit.negative ? -v : v;
    }
    case Literal::Kind::Decimal:
        return lit.value;
    case Literal::Kind::Int:
        return lit.negative ? -static_cast<double>(lit.bits) : static_cast<double>(lit.bits);
    }
    return 0.0;
}

// The immediate's bits for an operand of type `type`, or an error message. Integers are stored
// sign-extended to 64 bits; .f32 as its 32 bits, .f64 as its 64 bits. Hex float literals (0f/0d)
// keep their exact bits when the widths match; decimal and integer literals in a float context are
// converted to that float type (PTX semantics: a constant takes the type of its use).
std::optional<uint64_t> encode_literal(const Literal& lit, Type type, std::string* error) {
    using K = Literal::Kind;
    if (type == Type::F32) {
        if (lit.kind == K::F32Bits) return lit.negative ? (lit.bits ^ 0x80000000u) : lit.bits;
        return std::bit_cast<uint32_t>(static_cast<float>(literal_as_double(lit)));
    }
    if (type == Type::F64) {
        if (lit.kind == K::F64Bits) return lit.negative ? (lit.bits ^ 0x8000000000000000ull) : lit.bits;
        return std::bit_cast<uint64_t>(literal_as_double(lit));
    }
    if (lit.kind == K::Decimal) {
        *error = type == Type::F16
                     ? "decimal literals are not supported for .f16 (write the bits as hex)"
                     : std::string("floating-point literal used with integer type .") + to_string(type);
        return std::nullopt;
    }
    if (lit.kind == K::F32Bits || lit.kind == K::F64Bits) {
        if (!is_bits(type) && type != Type::None) {
            *error = std::string("floating-point literal used with integer type .") + to_string(type);
            return std::nullopt;
        }
        if (lit.negative) {
            *error = "negated hex floating-point literal used with a bit type";
            return std::nullopt;
        }
        return lit.bits;
    }
    return lit.negative ? (~lit.bits + 1) : lit.bits;
}

// =================================================================================================
// [SECTION] Names and scopes
// =================================================================================================

struct StringHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};
template <typename V> using NameMap = std::unordered_map<std::string, V, StringHash, std::equal_to<>>;

// What a name refers to.
struct Symbol {
    enum class Kind : uint8_t { Register, Global, Shared, Local, Param, Function } kind = Kind::Register;
    bool module_scope = false; // Shared: module-scope variable (else function-scope)
    uint32_t index = 0;        // Register: slot; Global: Module::globals index; Shared: variable index
    uint64_t offset = 0;       // Local / Param: byte offset
};

// Function-scope names with nested blocks: an inner block may shadow, the same block may not redeclare.
class Scope {
  public:
    uint32_t depth() const { return static_cast<uint32_t>(marks_.size()); }
    void push() { marks_.push_back(undo_.size()); }
    void pop() {
        const size_t mark = marks_.empty() ? 0 : marks_.back();
        if (!marks_.empty()) marks_.pop_back();
        while (undo_.size() > mark) {
            Undo& undo = undo_.back();
            if (undo.previous) {
                map_[undo.name] = *undo.previous;
            } else {
                map_.erase(undo.name);
            }
            undo_.pop_back();
        }
    }
    const Symbol* find(std::string_view name) const {
        auto it = map_.find(name);
        return it == map_.end() ? nullptr : &it->second.symbol;
    }
    // False when `name` is already declared in the current block.
    bool declare(std::string_view name, const Symbol& symbol) {
        auto it = map_.find(name);
        if (it != map_.end() && it->second.depth == depth()) return false;
        Undo undo{std::string(name), std::nullopt};
        if (it != map_.end()) undo.previous = it->second;
        undo_.push_back(std::move(undo));
        map_[std::string(name)] = Binding{symbol, depth()};
        return true;
    }

  private:
    struct Binding {
        Symbol symbol;
        uint32_t depth = 0;
    };
    struct Undo {
        std::string name;
        std::optional<Binding> previous;
    };
    NameMap<Binding> map_;
    std::vector<Undo> undo_;
    std::vector<size_t> marks_;
};

struct SharedVar {
    std::string name;
    uint64_t size = 0;
    uint32_t align = 1;
    bool is_extern = false; // `.extern .shared ... name[]`: starts at Function::shared_dynamic_offset
};

// A reference to a shared variable in ops[slot] of code[instr]; its window offset is added when the
// function's shared layout is known (module-scope variables only count if the function uses them).
struct SharedRef {
    uint32_t instr = 0;
    uint8_t slot = 0;
    bool module_scope = false;
    uint32_t index = 0;
};

struct LabelRef {
    uint32_t instr = 0;
    std::string_view name;
    uint32_t line = 0;
};

struct LocKey {
    uint32_t file = 0, line = 0, column = 0;
    bool operator==(const LocKey&) const = default;
};
struct LocKeyHash {
    size_t operator()(const LocKey& k) const {
        return std::hash<uint64_t>{}((uint64_t{k.file} << 48) ^ (uint64_t{k.line} << 16) ^ k.column);
    }
};
struct SourcePos {
    uint32_t file = 0, line = 0;
};

// Everything about the function being parsed.
struct FunctionState {
    Function fn;
    Scope names;
    std::unordered_map<std::string_view, uint32_t> labels;     // name -> instruction index
    std::unordered_map<std::string_view, uint32_t> label_line; // name -> PTX line (duplicates)
    std::vector<LabelRef> label_refs;
    std::vector<SharedVar> shared; // function-scope .shared, in declaration order
    std::vector<SharedRef> shared_refs;
    uint64_t local_bytes = 0;
    uint64_t param_bytes = 0;
    uint64_t return_param_bytes = 0;
    uint64_t call_param_bytes = 0;
    SourcePos loc;                                               // current .loc (outermost)
    std::unordered_map<LocKey, SourcePos, LocKeyHash> loc_outer; // .loc -> its outermost location
};

struct Range {
    size_t begin = 0, end = 0; // token indices, end exclusive
    bool empty() const { return begin >= end; }
    size_t size() const { return end - begin; }
};

// One instruction statement: guard, opcode, operand token ranges, reconstructed text.
struct Stmt {
    uint32_t line = 0;
    std::string text;
    std::string_view opcode;
    std::array<Range, kMaxOperands> operands{};
    size_t operand_count = 0;
};

// The dotted parts of an opcode; handlers take the ones they understand, leftovers are errors.
class Modifiers {
  public:
    explicit Modifiers(std::string_view opcode) {
        size_t start = 0;
        bool first = true;
        while (start <= opcode.size()) {
            size_t dot = opcode.find('.', start);
            if (dot == std::string_view::npos) dot = opcode.size();
            std::string_view part = opcode.substr(start, dot - start);
            if (first) {
                base_ = part;
                first = false;
            } else if (count_ < kMaxModifiers) {
                parts_[count_++] = part;
            } else {
                overflow_ = true;
            }
            start = dot + 1;
        }
    }
    std::string_view base() const { return base_; }
    bool overflow() const { return overflow_; }
    size_t count() const { return count_; }
    std::string_view part(size_t i) const { return parts_[i]; }
    bool used(size_t i) const { return used_[i]; }
    void use(size_t i) { used_[i] = true; }

    bool take(std::string_view name) {
        for (size_t i = 0; i < count_; ++i) {
            if (!used_[i] && parts_[i] == name) {
                used_[i] = true;
                return true;
            }
        }
        return false;
    }
    // Whether an unused part equals `name` (does not take it).
    bool has(std::string_view name) const {
        for (size_t i = 0; i < count_; ++i) {
            if (!used_[i] && parts_[i] == name) return true;
        }
        return false;
    }
    std::optional<std::string_view> first_unused() const {
        for (size_t i = 0; i < count_; ++i) {
            if (!used_[i]) return parts_[i];
        }
        return std::nullopt;
    }

  private:
    std::string_view base_;
    std::array<std::string_view, kMaxModifiers> parts_{};
    std::array<bool, kMaxModifiers> used_{};
    size_t count_ = 0;
    bool overflow_ = false;
};

// An operand as parsed, before the instruction decides whether its form is acceptable in a slot.
struct Parsed {
    enum class Form : uint8_t {
        Reg,
        Imm,
        Special,
        GlobalSym,
        SpaceSym,
        Vector,
        Address,
        Sink
    } form = Form::Reg;
    Operand op;
    bool pred = false;                // Reg of type .pred
    Space sym_space = Space::Generic; // GlobalSym / SpaceSym / symbol-based Address: the symbol's space
    std::optional<SharedRef> shared;  // pending shared-window offset (instr/slot filled on use)
};

// =================================================================================================
// [SECTION] Parser state, token cursor, errors
// =================================================================================================

class Parser {
  public:
    Parser(std::string_view text, const std::string& source_name)
        : text_(text), source_name_(source_name), tokens_(tokenize(text, source_name)) {}

    Module run();

  private:
    // --- cursor ---
    const Token& peek(size_t ahead = 0) const { return tokens_[std::min(pos_ + ahead, tokens_.size() - 1)]; }
    const Token& take() {
        const Token& token = tokens_[pos_];
        if (pos_ + 1 < tokens_.size()) ++pos_;
        return token;
    }
    bool accept_punct(char c) {
        if (!peek().is_punct(c)) return false;
        take();
        return true;
    }
    void expect_punct(char c, const char* context);
    const Token& expect_word(const char* context);
    uint64_t expect_uint(const char* context, uint64_t max);
    static std::string describe(const Token& token);

    // --- errors ---
    [[noreturn]] void fail(uint32_t line, const std::string& what) const;
    [[noreturn]] void fail_at(const Token& token, const std::string& what) const { fail(token.line, what); }
    std::string line_text(uint32_t line) const;
    std::string join_tokens(size_t begin, size_t end) const;

    // --- module level ---
    void parse_module_statement();
    void parse_linkage_declaration();
    void skip_section();
    void parse_file_directive();
    void parse_pragma();

    // --- variables ---
    struct VarDecl {
        std::string_view name;
        uint32_t line = 0;
        Type type = Type::None;
        uint32_t align = 0;
        uint64_t size = 0;
        bool unsized = false;
        bool has_init = false;
        std::vector<uint8_t> init;
    };
    VarDecl parse_var_decl(const Token& space_token, bool allow_init);
    void parse_initializer(VarDecl& decl, Type elem_type, uint32_t elem_size, uint64_t capacity, int depth);
    void parse_init_scalar(VarDecl& decl, Type elem_type, uint32_t elem_size, uint64_t capacity);
    void declare_module_name(const Token& at, std::string_view name, const Symbol& symbol);
    void parse_module_variable(const Token& space_token, bool is_extern);

    // --- functions ---
    void parse_function(const Token& kind_token, bool is_extern);
    void parse_param_list(FunctionState& st, bool is_return);
    void parse_performance_directives();
    void parse_body(FunctionState& st);
    void parse_reg_decl(FunctionState& st);
    void parse_function_variable(FunctionState& st, const Token& space_token, bool is_extern);
    void declare_local_name(FunctionState& st, const Token& at, std::string_view name, const Symbol& symbol);
    void parse_loc(FunctionState* st);
    void finish_function(FunctionState& st);

    // --- statements ---
    void parse_instruction(FunctionState& st);
    const Symbol* lookup(std::string_view name) const;

    // --- operands ---
    Parsed parse_operand(Range r, Type imm_type);
    Parsed parse_name_operand(const Token& token);
    Parsed parse_address(Range r);
    Parsed parse_vector(Range r);
    Operand use(Instruction& inst, uint8_t slot, Parsed p);
    [[noreturn]] void fail_here(const std::string& what) const; // at the current instruction
    std::string operand_text(Range r) const { return join_tokens(r.begin, r.end); }

    // Slot helpers: parse operand `index` of the statement into ops[slot], checking its form.
    void dest(Instruction& inst, uint8_t slot, size_t index, bool allow_vector = false);
    void pred_dest(Instruction& inst, uint8_t slot, Range r);
    void src(Instruction& inst, uint8_t slot, size_t index, Type imm_type, bool allow_vector = false);
    void pred_src(Instruction& inst, uint8_t slot, size_t index, bool allow_negate);
    void mask_src(Instruction& inst, uint8_t slot, size_t index) { src(inst, slot, index, Type::B32); }
    void address(Instruction& inst, uint8_t slot, size_t index);
    void expect_operands(size_t min, size_t max) const;
    // vote/shfl: only the .sync forms exist on sm_70+ (the old ones are refused with the fix).
    void require_sync(Modifiers& mods, const char* family) const;
    std::pair<Range, std::optional<Range>> split_bar(Range r) const;

    // --- instruction families ---
    void decode(Instruction& inst, Modifiers& mods);
    Type take_type(Modifiers& mods, bool required = true);
    std::optional<Space> take_space(Modifiers& mods);
    std::optional<MemScope> take_scope(Modifiers& mods);
    enum class HintKind : uint8_t { Load, Store, Atomic };
    bool take_cache_hints(Modifiers& mods, HintKind kind);
    void check_leftovers(const Modifiers& mods) const;
    void check_vector_operand(const Instruction& inst, uint8_t slot) const;
    void check_address_space(const Instruction& inst, uint8_t slot, Range r) const;
    void decode_mov(Instruction& inst, Modifiers& mods);
    void decode_cvt(Instruction& inst, Modifiers& mods);
    void decode_cvta(Instruction& inst, Modifiers& mods);
    void decode_ld_st(Instruction& inst, Modifiers& mods, bool load);
    void decode_selp(Instruction& inst, Modifiers& mods);
    void decode_arith(Instruction& inst, Modifiers& mods);
    void decode_logic(Instruction& inst, Modifiers& mods);
    void decode_bits(Instruction& inst, Modifiers& mods);
    void decode_setp(Instruction& inst, Modifiers& mods);
    void decode_atom_red(Instruction& inst, Modifiers& mods, bool red);
    void decode_fence(Instruction& inst, Modifiers& mods);
    void decode_bar(Instruction& inst, Modifiers& mods);
    void decode_vote(Instruction& inst, Modifiers& mods);
    void decode_shfl(Instruction& inst, Modifiers& mods);
    void decode_control(Instruction& inst, Modifiers& mods);

    std::string_view text_;
    const std::string& source_name_;
    std::vector<Token> tokens_;
    size_t pos_ = 0;

    Module module_;
    NameMap<Symbol> module_names_;
    std::vector<SharedVar> module_shared_;
    std::vector<uint32_t> line_starts_; // built on the first error that needs a line's text

    // Current instruction being decoded (null outside instructions): errors quote its text.
    FunctionState* fn_ = nullptr;
    const Stmt* stmt_ = nullptr;
    uint32_t max_source_file_ = 0;
};

void Parser::expect_punct(char c, const char* context) {
    if (accept_punct(c)) return;
    fail_at(peek(), std::string("expected '") + c + "' " + context + ", found " + describe(peek()));
}

const Token& Parser::expect_word(const char* context) {
    if (peek().kind != TokenKind::Word)
        fail_at(peek(), std::string("expected ") + context + ", found " + describe(peek()));
    return take();
}

uint64_t Parser::expect_uint(const char* context, uint64_t max) {
    const Token& token = peek();
    if (token.kind != TokenKind::Number)
        fail_at(token, std::string("expected ") + context + ", found " + describe(token));
    auto value = parse_int_magnitude(token.text);
    if (!value)
        fail_at(token, std::string("malformed integer '") + std::string(token.text) + "' for " + context);
    if (*value > max)
        fail_at(token, std::string(context) + " " + std::string(token.text) + " is too large (at most " +
                           std::to_string(max) + ")");
    take();
    return *value;
}

std::string Parser::describe(const Token& token) {
    if (token.kind == TokenKind::End) return "end of input";
    std::string text(token.text.substr(0, 60));
    return "'" + text + "'";
}

// Inside an instruction the error names the instruction's line and text (cut to 200 characters: a
// missing ';' can make a "statement" run far).
void Parser::fail(uint32_t line, const std::string& what) const {
    if (stmt_ != nullptr) {
        const std::string& text = stmt_->text;
        throw ParseError(source_name_, stmt_->line, text.size() > 200 ? text.substr(0, 200) + " ..." : text,
                         what);
    }
    throw ParseError(source_name_, line, line_text(line), what);
}

// The source line, trimmed and with whitespace runs collapsed (for error messages).
std::string Parser::line_text(uint32_t line) const {
    size_t begin = 0;
    uint32_t current = 1;
    while (current < line) {
        const size_t nl = text_.find('\n', begin);
        if (nl == std::string_view::npos) return {};
        begin = nl + 1;
        ++current;
    }
    size_t end = text_.find('\n', begin);
    if (end == std::string_view::npos) end = text_.size();
    std::string out;
    bool space = false;
    for (size_t i = begin; i < end && out.size() < 200; ++i) {
        const auto byte = static_cast<unsigned char>(text_[i]);
        if (byte == ' ' || byte == '\t' || byte == '\r') {
            space = !out.empty();
            continue;
        }
        if (space) out += ' ';
        space = false;
        out += (byte < 0x20 || byte >= 0x7f) ? '?' : static_cast<char>(byte);
    }
    return out;
}

// Tokens [begin, end) as one line: single spaces where the source had whitespace or comments.
std::string Parser::join_tokens(size_t begin, size_t end) const {
    std::string out;
    for (size_t i = begin; i < end && i < tokens_.size(); ++i) {
        const Token& token = tokens_[i];
        if (token.kind == TokenKind::End) break;
        if (i != begin && token.space_before) out += ' ';
        out.append(token.text);
    }
    return out;
}

// =================================================================================================
// [SECTION] Module level
// =================================================================================================

Module Parser::run() {
    module_.files.assign(1, std::string());
    while (peek().kind != TokenKind::End)
        parse_module_statement();
    // Every source_file index used by an instruction has an entry (possibly "" when no .file named it).
    if (module_.files.size() <= max_source_file_) module_.files.resize(max_source_file_ + 1);
    return std::move(module_);
}

void Parser::parse_module_statement() {
    const Token& token = peek();
    if (token.is_punct(';')) {
        take();
        return;
    }
    if (token.kind != TokenKind::Directive) {
        if (token.kind == TokenKind::Word) {
            fail_at(token, "unexpected '" + std::string(token.text) +
                               "' at module scope (instructions must be inside a function body)");
        }
        fail_at(token, "unexpected " + describe(token) + " at module scope");
    }
    const std::string_view name = token.text;
    if (name == ".version") {
        take();
        const Token& v = peek();
        if (v.kind != TokenKind::Number)
            fail_at(v, "expected a version number after .version, found " + describe(v));
        module_.version = std::string(take().text);
    } else if (name == ".target") {
        take();
        module_.target = std::string(expect_word("a target architecture after .target").text);
        while (accept_punct(','))
            expect_word("a target option after ','"); // e.g. "debug", "texmode_*"
    } else if (name == ".address_size") {
        take();
        const uint64_t size = expect_uint("the address size", 64);
        if (size != 32 && size != 64) fail_at(token, ".address_size must be 32 or 64");
        module_.address_size = static_cast<uint32_t>(size);
    } else if (name == ".file") {
        parse_file_directive();
    } else if (name == ".section") {
        skip_section();
    } else if (name == ".pragma") {
        parse_pragma();
    } else if (name == ".loc") {
        parse_loc(nullptr);
    } else if (name == ".visible" || name == ".weak" || name == ".extern" || name == ".common" ||
               name == ".entry" || name == ".func" || name == ".global" || name == ".const" ||
               name == ".shared" || name == ".shared::cta" || name == ".local") {
        parse_linkage_declaration();
    } else if (name == ".maxntid" || name == ".reqntid" || name == ".minnctapersm" ||
               name == ".maxnctapersm" || name == ".maxnreg" || name == ".noreturn" ||
               name == ".explicitcluster" || name == ".reqnctapercluster" || name == ".maxclusterrank") {
        fail_at(token, "performance directive '" + std::string(name) + "' outside a function declaration");
    } else {
        fail_at(token, "unknown or unsupported directive '" + std::string(name) + "'");
    }
}

// `.file N "name" [, timestamp, size]`: files[N] = name.
void Parser::parse_file_directive() {
    const Token& directive = take();
    const uint64_t index = expect_uint("a file number after .file", kMaxFileIndex);
    const Token& name = peek();
    if (name.kind != TokenKind::String)
        fail_at(name, "expected a quoted file name after '.file " + std::to_string(index) + "'");
    take();
    while (accept_punct(','))
        expect_uint("a .file timestamp or size", std::numeric_limits<uint64_t>::max());
    if (index == 0) fail_at(directive, ".file number 0 is reserved (file numbers start at 1)");
    if (module_.files.size() <= index) module_.files.resize(index + 1);
    // The name as written between the quotes (PTX file names carry no escapes worth decoding).
    module_.files[index] = std::string(name.text.substr(1, name.text.size() - 2));
}

// `.section NAME { ... }`: debug data (DWARF), skipped by brace matching.
void Parser::skip_section() {
    const Token& directive = take();
    const Token& name = peek();
    if (name.kind != TokenKind::Directive && name.kind != TokenKind::Word)
        fail_at(name, "expected a section name after .section");
    take();
    if (!peek().is_punct('{'))
        fail_at(peek(), "expected '{' after '.section " + std::string(name.text) + "'");
    take();
    int depth = 1;
    while (depth > 0) {
        const Token& token = take();
        if (token.kind == TokenKind::End) fail_at(directive, "unterminated .section block (missing '}')");
        if (token.is_punct('{')) ++depth;
        if (token.is_punct('}')) --depth;
    }
}

// `.pragma "text";` (e.g. "nounroll"): a compiler hint, no effect on execution.
void Parser::parse_pragma() {
    take();
    do {
        if (peek().kind != TokenKind::String) fail_at(peek(), "expected a quoted string after .pragma");
        take();
    } while (accept_punct(','));
    expect_punct(';', "after .pragma");
}

// [.visible|.weak|.extern|.common]* then .entry/.func/.global/.const/.shared
void Parser::parse_linkage_declaration() {
    bool is_extern = false;
    while (true) {
        const Token& token = peek();
        if (token.is_directive(".extern")) {
            is_extern = true;
        } else if (!token.is_directive(".visible") && !token.is_directive(".weak") &&
                   !token.is_directive(".common")) {
            break;
        }
        take();
    }
    const Token& what = peek();
    if (what.is_directive(".entry") || what.is_directive(".func")) {
        take();
        parse_function(what, is_extern);
    } else if (what.is_directive(".global") || what.is_directive(".const") || what.is_directive(".shared") ||
               what.is_directive(".shared::cta")) {
        take();
        parse_module_variable(what, is_extern);
    } else if (what.is_directive(".local")) {
        fail_at(what, "module-scope .local variables are not supported");
    } else {
        fail_at(what, "expected .entry, .func or a variable declaration, found " + describe(what));
    }
}

void Parser::declare_module_name(const Token& at, std::string_view name, const Symbol& symbol) {
    auto [it, inserted] = module_names_.try_emplace(std::string(name), symbol);
    if (!inserted) fail_at(at, "'" + std::string(name) + "' is already declared in this module");
}

// =================================================================================================
// [SECTION] Variables and initialisers
// =================================================================================================

// After the state-space directive: [.align N] [.v2|.v4] .type name [dims] [= init] ;
Parser::VarDecl Parser::parse_var_decl(const Token& space_token, bool allow_init) {
    VarDecl decl;
    decl.line = space_token.line;
    uint32_t vector = 1;
    while (peek().kind == TokenKind::Directive) {
        const Token& token = take();
        const std::string_view d = token.text.substr(1);
        if (d == "align") {
            const uint64_t align = expect_uint("an alignment after .align", 1u << 16);
            if (align == 0 || (align & (align - 1)) != 0) fail_at(token, ".align must be a power of two");
            decl.align = static_cast<uint32_t>(align);
        } else if (d == "v2" || d == "v4") {
            vector = d == "v2" ? 2 : 4;
        } else if (d == "attribute") {
            // `.attribute(.managed)` (__managed__): the variable is still ordinary global memory here.
            expect_punct('(', "after .attribute");
            while (!peek().is_punct(')')) {
                if (!peek().is_directive(".managed"))
                    fail_at(peek(), "unsupported variable attribute " + describe(peek()));
                take();
                accept_punct(',');
            }
            take();
        } else if (auto type = type_from_name(d)) {
            if (decl.type != Type::None) fail_at(token, "two types in one variable declaration");
            decl.type = *type;
        } else if (d == "texref" || d == "samplerref" || d == "surfref") {
            fail_at(token, "texture/sampler/surface references are not supported");
        } else if (is_unsupported_type_name(d)) {
            fail_at(token, "unsupported type '." + std::string(d) + "' in a variable declaration");
        } else {
            fail_at(token, "unexpected '" + std::string(token.text) + "' in a variable declaration");
        }
    }
    if (decl.type == Type::None) fail_at(peek(), "missing type in variable declaration");
    if (decl.type == Type::Pred) fail_at(peek(), ".pred variables are not supported outside registers");
    const Token& name = expect_word("a variable name");
    decl.name = name.text;
    const uint32_t elem_size = type_size(decl.type) * vector;
    uint64_t count = 1;
    bool first_dim = true;
    while (accept_punct('[')) {
        if (peek().is_punct(']')) {
            if (!first_dim) fail_at(peek(), "only the first array dimension may be left empty");
            decl.unsized = true;
        } else {
            const uint64_t dim = expect_uint("an array size", kMaxBytes);
            if (dim != 0 && count > kMaxBytes / dim)
                fail_at(name, "variable '" + std::string(name.text) + "' is too large");
            count *= dim;
            if (count * elem_size > kMaxBytes)
                fail_at(name, "variable '" + std::string(name.text) + "' is too large");
        }
        expect_punct(']', "after the array size");
        first_dim = false;
    }
    if (accept_punct('=')) {
        if (!allow_init) fail_at(name, "variables in this state space cannot have an initialiser");
        decl.has_init = true;
        const uint64_t capacity = decl.unsized ? kMaxInitBytes : count * elem_size;
        if (capacity > kMaxInitBytes)
            fail_at(name, "initialised variable '" + std::string(name.text) + "' is too large");
        parse_initializer(decl, decl.type, type_size(decl.type), capacity, 0);
        if (decl.unsized) {
            count = (decl.init.size() + elem_size - 1) / elem_size;
            decl.unsized = false;
        }
        decl.init.resize(count * elem_size, 0);
    }
    decl.size = decl.unsized ? 0 : count * elem_size;
    if (decl.align == 0) decl.align = elem_size;
    expect_punct(';', "after the variable declaration");
    return decl;
}

// `= scalar` or `= {a, b, {c, d}}`; elements are little-endian, missing trailing ones are zero.
void Parser::parse_initializer(VarDecl& decl, Type elem_type, uint32_t elem_size, uint64_t capacity,
                               int depth) {
    if (!accept_punct('{')) {
        parse_init_scalar(decl, elem_type, elem_size, capacity);
        return;
    }
    if (depth >= kMaxInitDepth) fail_at(peek(), "initialiser nested too deeply");
    if (accept_punct('}')) return;
    do {
        if (peek().is_punct('{')) {
            parse_initializer(decl, elem_type, elem_size, capacity, depth + 1);
        } else {
            parse_init_scalar(decl, elem_type, elem_size, capacity);
        }
    } while (accept_punct(','));
    expect_punct('}', "to close the initialiser list");
}

void Parser::parse_init_scalar(VarDecl& decl, Type elem_type, uint32_t elem_size, uint64_t capacity) {
    const Token& first = peek();
    if (first.kind == TokenKind::Word) {
        fail_at(first, "address initialisers ('" + std::string(first.text) + "') are not supported");
    }
    const bool negative = accept_punct('-');
    const Token& number = peek();
    if (number.kind != TokenKind::Number)
        fail_at(number, "expected a number in the initialiser, found " + describe(number));
    take();
    auto lit = parse_literal(number.text, negative);
    if (!lit) fail_at(number, "malformed number '" + std::string(number.text) + "'");
    std::string error;
    auto bits = encode_literal(*lit, elem_type, &error);
    if (!bits) fail_at(number, error);
    if (decl.init.size() + elem_size > capacity) {
        fail_at(number, "too many initialisers for '" + std::string(decl.name) + "'");
    }
    for (uint32_t i = 0; i < elem_size; ++i)
        decl.init.push_back(static_cast<uint8_t>(*bits >> (8 * i)));
}

void Parser::parse_module_variable(const Token& space_token, bool is_extern) {
    const bool shared = space_token.text.starts_with(".shared");
    VarDecl decl = parse_var_decl(space_token, !shared);
    if (shared) {
        if (decl.unsized && !is_extern)
            fail_at(space_token, "shared array '" + std::string(decl.name) + "[]' needs a size or .extern");
        SharedVar var{std::string(decl.name), decl.size, decl.align, is_extern && decl.unsized};
        declare_module_name(
            space_token, decl.name,
            Symbol{Symbol::Kind::Shared, true, static_cast<uint32_t>(module_shared_.size()), 0});
        module_shared_.push_back(std::move(var));
        return;
    }
    if (is_extern) {
        fail_at(space_token, ".extern " + std::string(space_token.text) + " variable '" +
                                 std::string(decl.name) +
                                 "' is not supported (it has no definition in this module)");
    }
    if (decl.unsized)
        fail_at(space_token, "array '" + std::string(decl.name) + "[]' needs a size or an initialiser");
    GlobalVar var;
    var.name = std::string(decl.name);
    var.space = space_token.is_directive(".const") ? Space::Const : Space::Global;
    var.size = static_cast<uint32_t>(decl.size);
    var.align = decl.align;
    var.init = std::move(decl.init);
    declare_module_name(space_token, decl.name,
                        Symbol{Symbol::Kind::Global, true, static_cast<uint32_t>(module_.globals.size()), 0});
    module_.globals.push_back(std::move(var));
}

// =================================================================================================
// [SECTION] Functions: signature, parameters, body, declarations
// =================================================================================================

void Parser::parse_function(const Token& kind_token, bool is_extern) {
    FunctionState st;
    st.fn.is_entry = kind_token.is_directive(".entry");
    st.fn.decl_line = kind_token.line;
    st.names.push(); // parameter scope
    if (!st.fn.is_entry && peek().is_punct('(')) parse_param_list(st, true);
    const Token& name =
        expect_word(st.fn.is_entry ? "a kernel name after .entry" : "a function name after .func");
    st.fn.name = std::string(name.text);
    if (peek().is_punct('(')) parse_param_list(st, false);
    st.fn.param_bytes = static_cast<uint32_t>(st.param_bytes);
    parse_performance_directives();
    if (accept_punct(';')) {
        // A prototype (e.g. `.extern .func vprintf(...)`): nothing to run. Its name is known so that a
        // later definition or a call names it; calls themselves are rejected where they appear.
        if (!module_names_.contains(name.text))
            declare_module_name(name, name.text, Symbol{Symbol::Kind::Function, true, 0, 0});
        return;
    }
    if (is_extern) fail_at(name, ".extern function '" + st.fn.name + "' must not have a body");
    auto existing = module_names_.find(name.text);
    if (existing != module_names_.end() && existing->second.kind != Symbol::Kind::Function) {
        fail_at(name, "'" + st.fn.name + "' is already declared in this module");
    }
    for (const Function& f : module_.functions) {
        if (f.name == st.fn.name) fail_at(name, "function '" + st.fn.name + "' is defined twice");
    }
    if (existing == module_names_.end())
        declare_module_name(name, name.text, Symbol{Symbol::Kind::Function, true, 0, 0});
    if (!peek().is_punct('{'))
        fail_at(peek(), "expected '{' to start the body of '" + st.fn.name + "', found " + describe(peek()));
    parse_body(st);
    finish_function(st);
    module_.functions.push_back(std::move(st.fn));
}

// `( .param [.align N] .type name[N], ... )`. Input parameters are packed in order, each at its
// alignment (the explicit .align, else the element size). Return parameters of a .func get their
// own offsets from 0 (only st.param inside the never-executed .func refers to them).
void Parser::parse_param_list(FunctionState& st, bool is_return) {
    expect_punct('(', "to open the parameter list");
    if (accept_punct(')')) return;
    do {
        const Token& kind = peek();
        if (kind.is_directive(".reg") && !st.fn.is_entry) {
            take();
            const Token& type_token = peek();
            if (type_token.kind != TokenKind::Directive) fail_at(type_token, "expected a type after .reg");
            auto type = type_from_name(type_token.text.substr(1));
            if (!type)
                fail_at(type_token, "unsupported register type '" + std::string(type_token.text) + "'");
            take();
            const Token& reg = expect_word("a register name");
            const uint32_t slot = static_cast<uint32_t>(st.fn.registers.size());
            st.fn.registers.push_back(Register{std::string(reg.text), *type});
            declare_local_name(st, reg, reg.text, Symbol{Symbol::Kind::Register, false, slot, 0});
            continue;
        }
        if (!kind.is_directive(".param"))
            fail_at(kind, "expected .param in the parameter list, found " + describe(kind));
        take();
        Param param;
        bool after_ptr = false;
        while (peek().kind == TokenKind::Directive) {
            const Token& token = take();
            const std::string_view d = token.text.substr(1);
            if (d == "align") {
                const uint64_t align = expect_uint("an alignment after .align", 1u << 16);
                if (align == 0 || (align & (align - 1)) != 0) fail_at(token, ".align must be a power of two");
                if (!after_ptr) param.align = static_cast<uint32_t>(align); // after .ptr: pointee alignment
            } else if (d == "ptr") {
                after_ptr = true;
            } else if (after_ptr && space_from_name(d)) {
                // `.ptr .global`: where the pointer points; no effect on the parameter itself
            } else if (auto type = type_from_name(d)) {
                if (param.type != Type::None) fail_at(token, "two types in one parameter");
                param.type = *type;
            } else if (is_unsupported_type_name(d)) {
                fail_at(token, "unsupported parameter type '" + std::string(token.text) + "'");
            } else {
                fail_at(token, "unexpected '" + std::string(token.text) + "' in a parameter declaration");
            }
        }
        if (param.type == Type::None || param.type == Type::Pred)
            fail_at(peek(), "missing or invalid parameter type");
        const Token& name = expect_word("a parameter name");
        param.name = std::string(name.text);
        uint64_t count = 1;
        if (accept_punct('[')) {
            count = expect_uint("a parameter array size", kMaxBytes);
            expect_punct(']', "after the parameter array size");
        }
        const uint64_t size = count * type_size(param.type);
        if (param.align == 0) param.align = type_size(param.type);
        uint64_t& cursor = is_return ? st.return_param_bytes : st.param_bytes;
        const uint64_t offset = align_up(cursor, param.align);
        if (offset + size > kMaxBytes) fail_at(name, "parameter list is too large");
        cursor = offset + size;
        param.offset = static_cast<uint32_t>(offset);
        param.size = static_cast<uint32_t>(size);
        declare_local_name(st, name, name.text, Symbol{Symbol::Kind::Param, false, 0, offset});
        if (!is_return) st.fn.params.push_back(std::move(param));
    } while (accept_punct(','));
    expect_punct(')', "to close the parameter list");
}

// .maxntid / .reqntid / .minnctapersm / ... between the signature and the body: tuning hints for
// the real compiler, accepted and ignored (they do not change what the kernel computes).
void Parser::parse_performance_directives() {
    while (peek().kind == TokenKind::Directive) {
        const Token& token = peek();
        const std::string_view d = token.text;
        if (d == ".noreturn" || d == ".explicitcluster") {
            take();
        } else if (d == ".maxntid" || d == ".reqntid" || d == ".minnctapersm" || d == ".maxnctapersm" ||
                   d == ".maxnreg" || d == ".reqnctapercluster" || d == ".maxclusterrank") {
            take();
            do {
                expect_uint("a number after the performance directive", std::numeric_limits<uint32_t>::max());
            } while (accept_punct(','));
        } else if (d == ".pragma") {
            parse_pragma();
        } else {
            fail_at(token, "unexpected directive '" + std::string(d) + "' before the function body");
        }
    }
}

void Parser::declare_local_name(FunctionState& st, const Token& at, std::string_view name,
                                const Symbol& symbol) {
    if (!st.names.declare(name, symbol))
        fail_at(at, "'" + std::string(name) + "' is already declared in this scope");
}

void Parser::parse_body(FunctionState& st) {
    fn_ = &st;
    st.names.push(); // function body block
    take();          // '{'
    uint32_t depth = 1;
    while (true) {
        const Token& token = peek();
        if (token.kind == TokenKind::End) {
            fail(st.fn.decl_line, "missing '}' at the end of function '" + st.fn.name + "'");
        }
        if (token.is_punct('}')) {
            take();
            st.names.pop();
            if (--depth == 0) break;
            continue;
        }
        if (token.is_punct('{')) {
            take();
            st.names.push();
            ++depth;
            continue;
        }
        if (token.is_punct(';')) {
            take();
            continue;
        }
        if (token.kind == TokenKind::Directive) {
            const std::string_view d = token.text;
            if (d == ".reg") {
                parse_reg_decl(st);
            } else if (d == ".loc") {
                parse_loc(&st);
            } else if (d == ".pragma") {
                parse_pragma();
            } else if (d == ".shared" || d == ".shared::cta" || d == ".local" || d == ".param") {
                take();
                parse_function_variable(st, token, false);
            } else if (d == ".extern") {
                take();
                const Token& space = peek();
                if (!space.is_directive(".shared"))
                    fail_at(space, "only .extern .shared is supported inside a function");
                take();
                parse_function_variable(st, space, true);
            } else if (d == ".global" || d == ".const") {
                fail_at(token, "function-scope " + std::string(d) +
                                   " variables are not supported (declare them at module scope)");
            } else {
                fail_at(token,
                        "unexpected directive '" + std::string(d) + "' inside function '" + st.fn.name + "'");
            }
            continue;
        }
        if (token.kind == TokenKind::Word && peek(1).is_punct(':') && !token.text.starts_with("%")) {
            take();
            take();
            auto [it, inserted] = st.labels.try_emplace(token.text, static_cast<uint32_t>(st.fn.code.size()));
            if (!inserted) {
                fail_at(token, "duplicate label '" + std::string(token.text) + "' (first defined on line " +
                                   std::to_string(st.label_line[token.text]) + ")");
            }
            st.label_line[token.text] = token.line;
            continue;
        }
        if (token.kind == TokenKind::Word || token.is_punct('@')) {
            parse_instruction(st);
            continue;
        }
        fail_at(token, "unexpected " + describe(token) + " inside function '" + st.fn.name + "'");
    }
    fn_ = nullptr;
}

// `.reg .type %r<N>;` declares %r0..%r(N-1); `.reg .type a, b;` declares a list. One slot each.
void Parser::parse_reg_decl(FunctionState& st) {
    const Token& directive = take();
    const Token& type_token = peek();
    if (type_token.is_directive(".v2") || type_token.is_directive(".v4")) {
        fail_at(type_token, "vector registers (.reg .v2/.v4) are not supported");
    }
    if (type_token.kind != TokenKind::Directive)
        fail_at(type_token, "expected a type after .reg, found " + describe(type_token));
    auto type = type_from_name(type_token.text.substr(1));
    if (!type) fail_at(type_token, "unsupported register type '" + std::string(type_token.text) + "'");
    take();
    do {
        const Token& name = expect_word("a register name");
        if (accept_punct('<')) {
            const uint64_t count = expect_uint("a register count", kMaxRegisters);
            expect_punct('>', "after the register count");
            if (st.fn.registers.size() + count > kMaxRegisters)
                fail_at(directive, "too many registers in one function");
            std::string reg_name(name.text);
            const size_t prefix = reg_name.size();
            for (uint64_t i = 0; i < count; ++i) {
                reg_name.resize(prefix);
                reg_name += std::to_string(i);
                const uint32_t slot = static_cast<uint32_t>(st.fn.registers.size());
                declare_local_name(st, name, reg_name, Symbol{Symbol::Kind::Register, false, slot, 0});
                st.fn.registers.push_back(Register{reg_name, *type});
            }
        } else {
            if (st.fn.registers.size() + 1 > kMaxRegisters)
                fail_at(directive, "too many registers in one function");
            const uint32_t slot = static_cast<uint32_t>(st.fn.registers.size());
            declare_local_name(st, name, name.text, Symbol{Symbol::Kind::Register, false, slot, 0});
            st.fn.registers.push_back(Register{std::string(name.text), *type});
        }
    } while (accept_punct(','));
    expect_punct(';', "after the register declaration");
}

// Function-scope .shared (laid out when the function ends), .local (the per-thread frame, e.g.
// __local_depot) and .param (call-site arguments, only meaningful before the unsupported `call`).
void Parser::parse_function_variable(FunctionState& st, const Token& space_token, bool is_extern) {
    const Token& at = peek();
    VarDecl decl = parse_var_decl(space_token, false);
    const Token name_token{TokenKind::Word, false, decl.line, decl.name};
    if (space_token.text.starts_with(".shared")) {
        if (decl.unsized && !is_extern)
            fail_at(at, "shared array '" + std::string(decl.name) + "[]' needs a size or .extern");
        declare_local_name(st, name_token, decl.name,
                           Symbol{Symbol::Kind::Shared, false, static_cast<uint32_t>(st.shared.size()), 0});
        st.shared.push_back(
            SharedVar{std::string(decl.name), decl.size, decl.align, is_extern && decl.unsized});
        return;
    }
    if (decl.unsized) fail_at(at, "array '" + std::string(decl.name) + "[]' needs a size");
    uint64_t& cursor = space_token.is_directive(".local") ? st.local_bytes : st.call_param_bytes;
    const uint64_t offset = align_up(cursor, decl.align);
    if (offset + decl.size > kMaxBytes) fail_at(at, "function-scope variables are too large");
    cursor = offset + decl.size;
    const Symbol::Kind kind = space_token.is_directive(".local") ? Symbol::Kind::Local : Symbol::Kind::Param;
    declare_local_name(st, name_token, decl.name, Symbol{kind, false, 0, offset});
}

// =================================================================================================
// [SECTION] .loc and inlining
// =================================================================================================

// `.loc F L C [, function_name LABEL[+N]] [, inlined_at F2 L2 C2]*`
// The instruction's source position is the outermost call site: nvcc writes an inlining chain as a
// run of .loc lines, each naming the location it was inlined at, so every location maps to the
// outermost position recorded for its inlined_at location (or that location itself when unknown).
void Parser::parse_loc(FunctionState* st) {
    take();
    LocKey key;
    key.file = static_cast<uint32_t>(expect_uint("a file number after .loc", kMaxFileIndex));
    key.line =
        static_cast<uint32_t>(expect_uint("a line number in .loc", std::numeric_limits<uint32_t>::max()));
    key.column =
        static_cast<uint32_t>(expect_uint("a column number in .loc", std::numeric_limits<uint32_t>::max()));
    std::optional<LocKey> inlined_at;
    while (accept_punct(',')) {
        const Token& word = expect_word("function_name or inlined_at in .loc");
        if (word.text == "function_name") {
            expect_word("a label after function_name");
            if (accept_punct('+')) expect_uint("an offset", std::numeric_limits<uint64_t>::max());
        } else if (word.text == "inlined_at") {
            LocKey at;
            at.file = static_cast<uint32_t>(expect_uint("a file number after inlined_at", kMaxFileIndex));
            at.line = static_cast<uint32_t>(
                expect_uint("a line number after inlined_at", std::numeric_limits<uint32_t>::max()));
            at.column = static_cast<uint32_t>(
                expect_uint("a column number after inlined_at", std::numeric_limits<uint32_t>::max()));
            inlined_at = at;
        } else {
            fail_at(word, "unexpected '" + std::string(word.text) + "' in .loc");
        }
    }
    if (st == nullptr) return;
    SourcePos outer{key.file, key.line};
    if (inlined_at) {
        auto it = st->loc_outer.find(*inlined_at);
        outer = it != st->loc_outer.end() ? it->second : SourcePos{inlined_at->file, inlined_at->line};
    }
    st->loc_outer[key] = outer;
    st->loc = outer;
}

// =================================================================================================
// [SECTION] Statements: splitting, guard, modifiers
// =================================================================================================

const Symbol* Parser::lookup(std::string_view name) const {
    if (fn_ != nullptr) {
        if (const Symbol* symbol = fn_->names.find(name)) return symbol;
    }
    auto it = module_names_.find(name);
    return it == module_names_.end() ? nullptr : &it->second;
}

void Parser::parse_instruction(FunctionState& st) {
    const size_t begin = pos_;
    const uint32_t line = peek().line;
    // The statement runs to the next ';' (operands may span lines, e.g. a call's argument list).
    size_t end = begin;
    while (end < tokens_.size() && !tokens_[end].is_punct(';') && tokens_[end].kind != TokenKind::End)
        ++end;
    Stmt stmt;
    stmt.line = line;
    stmt.text = join_tokens(begin, end);
    stmt_ = &stmt;
    if (end >= tokens_.size() || tokens_[end].kind == TokenKind::End)
        fail(line, "missing ';' at the end of the instruction");

    Instruction inst;
    inst.ptx_line = line;
    inst.source_file = st.loc.file;
    inst.source_line = st.loc.line;
    max_source_file_ = std::max(max_source_file_, st.loc.file);

    size_t i = begin;
    if (tokens_[i].is_punct('@')) {
        ++i;
        if (tokens_[i].is_punct('!')) {
            inst.guard_negated = true;
            ++i;
        }
        const Token& guard = tokens_[i];
        if (guard.kind != TokenKind::Word || i >= end) fail(line, "expected a predicate register after '@'");
        const Symbol* symbol = lookup(guard.text);
        if (symbol == nullptr || symbol->kind != Symbol::Kind::Register) {
            fail(line, "guard '" + std::string(guard.text) + "' is not a declared register");
        }
        if (st.fn.registers[symbol->index].type != Type::Pred) {
            fail(line, "guard '" + std::string(guard.text) + "' is not a .pred register");
        }
        inst.guard = symbol->index;
        ++i;
    }
    if (i >= end || tokens_[i].kind != TokenKind::Word) fail(line, "expected an instruction");
    stmt.opcode = tokens_[i].text;
    ++i;

    // Split operands at top-level commas ('[' '{' '(' nest).
    if (i < end) {
        int depth = 0;
        size_t start = i;
        for (size_t k = i; k <= end; ++k) {
            const bool at_end = k == end;
            const Token& token = tokens_[k];
            if (!at_end && (token.is_punct('[') || token.is_punct('{') || token.is_punct('('))) ++depth;
            if (!at_end && (token.is_punct(']') || token.is_punct('}') || token.is_punct(')'))) --depth;
            if (at_end || (depth == 0 && token.is_punct(','))) {
                if (k == start) fail(line, "empty operand");
                if (stmt.operand_count == kMaxOperands) fail(line, "too many operands");
                stmt.operands[stmt.operand_count++] = Range{start, k};
                start = k + 1;
            }
        }
    }

    if (st.fn.code.size() >= kMaxInstructions) {
        fail(line, "function '" + st.fn.name + "' has more than " + std::to_string(kMaxInstructions) +
                       " instructions");
    }
    Modifiers mods(stmt.opcode);
    if (mods.overflow()) fail(line, "too many modifiers on '" + std::string(mods.base()) + "'");
    decode(inst, mods);
    st.fn.code.push_back(inst);
    st.fn.text.push_back(std::move(stmt.text));
    stmt_ = nullptr;
    pos_ = end + 1;
}

// =================================================================================================
// [SECTION] Operands
// =================================================================================================

void Parser::fail_here(const std::string& what) const {
    fail(stmt_ != nullptr ? stmt_->line : 0, what);
}

// A single word: register, special register, variable, parameter, or '_'.
Parsed Parser::parse_name_operand(const Token& token) {
    Parsed p;
    const std::string name(token.text);
    if (token.text == "_") {
        p.form = Parsed::Form::Sink;
        return p;
    }
    if (token.text.starts_with("%")) {
        if (auto special = special_from_name(token.text)) {
            p.form = Parsed::Form::Special;
            p.op.kind = Operand::Kind::Special;
            p.op.special = *special;
            return p;
        }
    }
    const Symbol* symbol = lookup(token.text);
    if (symbol == nullptr) {
        if (token.text.starts_with("%") && is_unsupported_special(token.text))
            fail(token.line, "unsupported special register '" + name + "'");
        if (token.text.starts_with("%")) fail(token.line, "register '" + name + "' is not declared");
        fail(token.line, "unknown name '" + name + "' (not a register, variable or parameter)");
    }
    switch (symbol->kind) {
    case Symbol::Kind::Register:
        p.form = Parsed::Form::Reg;
        p.op.kind = Operand::Kind::Reg;
        p.op.reg = symbol->index;
        p.pred = fn_->fn.registers[symbol->index].type == Type::Pred;
        return p;
    case Symbol::Kind::Global:
        p.form = Parsed::Form::GlobalSym;
        p.op.kind = Operand::Kind::Symbol;
        p.op.symbol = symbol->index;
        p.sym_space = module_.globals[symbol->index].space;
        return p;
    case Symbol::Kind::Shared:
        p.form = Parsed::Form::SpaceSym;
        p.op.kind = Operand::Kind::Imm;
        p.sym_space = Space::Shared;
        p.shared = SharedRef{0, 0, symbol->module_scope, symbol->index};
        return p;
    case Symbol::Kind::Local:
    case Symbol::Kind::Param:
        p.form = Parsed::Form::SpaceSym;
        p.op.kind = Operand::Kind::Imm;
        p.op.imm = symbol->offset;
        p.sym_space = symbol->kind == Symbol::Kind::Local ? Space::Local : Space::Param;
        return p;
    case Symbol::Kind::Function:
        fail(token.line, "'" + name + "' is a function; function addresses and calls are not supported");
    }
    fail(token.line, "unusable operand '" + name + "'");
}

// Any operand form; `imm_type` decides how a literal is encoded.
Parsed Parser::parse_operand(Range r, Type imm_type) {
    const Token& first = tokens_[r.begin];
    if (first.is_punct('[')) return parse_address(r);
    if (first.is_punct('{')) return parse_vector(r);
    if (first.is_punct('!')) {
        if (r.size() != 2 || tokens_[r.begin + 1].kind != TokenKind::Word)
            fail(first.line, "malformed operand '" + operand_text(r) + "'");
        Parsed p = parse_name_operand(tokens_[r.begin + 1]);
        if (p.form != Parsed::Form::Reg || !p.pred)
            fail(first.line, "'!' applies only to predicate registers: '" + operand_text(r) + "'");
        p.op.negate = true;
        return p;
    }
    if (first.kind == TokenKind::Word) {
        if (r.size() != 1) fail(first.line, "malformed operand '" + operand_text(r) + "'");
        return parse_name_operand(first);
    }
    const bool negative = first.is_punct('-');
    const size_t number_index = r.begin + (negative ? 1 : 0);
    if (number_index < r.end && tokens_[number_index].kind == TokenKind::Number &&
        number_index + 1 == r.end) {
        const Token& number = tokens_[number_index];
        auto lit = parse_literal(number.text, negative);
        if (!lit) fail(number.line, "malformed number '" + operand_text(r) + "'");
        std::string error;
        auto bits = encode_literal(*lit, imm_type, &error);
        if (!bits) fail(number.line, error + ": '" + operand_text(r) + "'");
        Parsed p;
        p.form = Parsed::Form::Imm;
        p.op.kind = Operand::Kind::Imm;
        p.op.imm = *bits;
        return p;
    }
    fail(first.line, "malformed operand '" + operand_text(r) + "'");
}

// [reg], [reg+imm], [reg+-imm], [reg-imm], [var], [var+imm], [imm]
Parsed Parser::parse_address(Range r) {
    const uint32_t line = tokens_[r.begin].line;
    const std::string text = operand_text(r);
    if (!tokens_[r.end - 1].is_punct(']') || r.size() < 3) fail(line, "malformed address '" + text + "'");
    size_t i = r.begin + 1;
    const size_t close = r.end - 1;
    Parsed p;
    p.form = Parsed::Form::Address;
    p.op.kind = Operand::Kind::Address;
    uint64_t base_offset = 0;
    const Token& base = tokens_[i];
    if (base.kind == TokenKind::Word) {
        Parsed b = parse_name_operand(base);
        switch (b.form) {
        case Parsed::Form::Reg:
            if (b.pred) fail(line, "predicate register used as an address: '" + text + "'");
            p.op.reg = b.op.reg;
            break;
        case Parsed::Form::GlobalSym:
            p.op.symbol = b.op.symbol;
            p.sym_space = b.sym_space;
            break;
        case Parsed::Form::SpaceSym:
            base_offset = b.op.imm;
            p.sym_space = b.sym_space;
            p.shared = b.shared;
            break;
        default:
            fail(line, "'" + std::string(base.text) + "' cannot be used as an address base");
        }
        ++i;
    } else if (base.kind != TokenKind::Number && !base.is_punct('-')) {
        fail(line, "malformed address '" + text + "'");
    }
    // Optional offset: after a base, '+' or '-' then [-]number; without a base, just [-]number.
    bool negative = false;
    bool has_offset = false;
    if (i < close) {
        if (i != r.begin + 1) {
            if (tokens_[i].is_punct('+')) {
                ++i;
            } else if (tokens_[i].is_punct('-')) {
                negative = true;
                ++i;
            } else {
                fail(line, "malformed address '" + text + "'");
            }
        }
        if (i < close && tokens_[i].is_punct('-')) {
            negative = !negative;
            ++i;
        }
        if (i + 1 != close || tokens_[i].kind != TokenKind::Number)
            fail(line, "malformed address '" + text + "'");
        auto magnitude = parse_int_magnitude(tokens_[i].text);
        if (!magnitude) fail(line, "malformed address offset in '" + text + "'");
        has_offset = true;
        p.op.imm = base_offset + (negative ? (~*magnitude + 1) : *magnitude);
    }
    if (!has_offset) p.op.imm = base_offset;
    if (i == r.begin + 1 && !has_offset) fail(line, "malformed address '" + text + "'");
    return p;
}

// {%a, %b[, %c, %d]} of non-predicate registers; '_' is a sink (kNoReg).
Parsed Parser::parse_vector(Range r) {
    const uint32_t line = tokens_[r.begin].line;
    const std::string text = operand_text(r);
    if (!tokens_[r.end - 1].is_punct('}')) fail(line, "malformed vector operand '" + text + "'");
    Parsed p;
    p.form = Parsed::Form::Vector;
    p.op.kind = Operand::Kind::Vector;
    size_t i = r.begin + 1;
    const size_t close = r.end - 1;
    while (true) {
        if (i >= close || tokens_[i].kind != TokenKind::Word)
            fail(line, "malformed vector operand '" + text + "'");
        if (p.op.vec_count == 4) fail(line, "vector operand has more than 4 elements: '" + text + "'");
        Parsed element = parse_name_operand(tokens_[i]);
        if (element.form == Parsed::Form::Sink) {
            p.op.vec[p.op.vec_count++] = Operand::kNoReg;
        } else if (element.form == Parsed::Form::Reg && !element.pred) {
            p.op.vec[p.op.vec_count++] = element.op.reg;
        } else {
            fail(line, "vector elements must be non-predicate registers or '_': '" + text + "'");
        }
        ++i;
        if (i == close) break;
        if (!tokens_[i].is_punct(',')) fail(line, "malformed vector operand '" + text + "'");
        ++i;
    }
    if (p.op.vec_count != 2 && p.op.vec_count != 4)
        fail(line, "vector operand must have 2 or 4 elements: '" + text + "'");
    return p;
}

// Stores the operand in ops[slot] and records a pending shared-window fixup.
Operand Parser::use(Instruction& inst, uint8_t slot, Parsed p) {
    inst.ops[slot] = p.op;
    inst.operand_count = std::max<uint8_t>(inst.operand_count, static_cast<uint8_t>(slot + 1));
    if (p.shared) {
        SharedRef ref = *p.shared;
        ref.instr = static_cast<uint32_t>(fn_->fn.code.size());
        ref.slot = slot;
        fn_->shared_refs.push_back(ref);
    }
    return p.op;
}

void Parser::require_sync(Modifiers& mods, const char* family) const {
    if (mods.take("sync")) return;
    fail(stmt_->line, "unsupported instruction '" + std::string(stmt_->opcode) + "' (" + family +
                          " without .sync is not supported on sm_70+; use " + family + ".sync)");
}

void Parser::expect_operands(size_t min, size_t max) const {
    const size_t n = stmt_->operand_count;
    if (n >= min && n <= max) return;
    std::string expected = std::to_string(min);
    if (max != min) expected += max == min + 1 ? " or " + std::to_string(max) : " to " + std::to_string(max);
    fail(stmt_->line, "'" + std::string(stmt_->opcode) + "' expects " + expected + " operand" +
                          (max == 1 ? "" : "s") + ", got " + std::to_string(n));
}

// "%r1|%p1" -> (%r1, %p1); "%r1" -> (%r1, none)
std::pair<Range, std::optional<Range>> Parser::split_bar(Range r) const {
    for (size_t i = r.begin; i < r.end; ++i) {
        if (tokens_[i].is_punct('|')) {
            if (i == r.begin || i + 1 == r.end)
                fail(stmt_->line, "malformed operand '" + operand_text(r) + "'");
            return {Range{r.begin, i}, Range{i + 1, r.end}};
        }
    }
    return {r, std::nullopt};
}

void Parser::dest(Instruction& inst, uint8_t slot, size_t index, bool allow_vector) {
    const Range r = stmt_->operands[index];
    Parsed p = parse_operand(r, inst.type);
    if (p.form == Parsed::Form::Vector && allow_vector) {
        use(inst, slot, p);
        return;
    }
    if (p.form != Parsed::Form::Reg) {
        fail_here(std::string("destination must be a register") + (allow_vector ? " or a vector" : "") +
                  ", got '" + operand_text(r) + "'");
    }
    if (p.pred)
        fail_here("destination '" + operand_text(r) + "' is a predicate register; expected a data register");
    use(inst, slot, p);
}

void Parser::pred_dest(Instruction& inst, uint8_t slot, Range r) {
    Parsed p = parse_operand(r, Type::Pred);
    if (p.form == Parsed::Form::Sink) {
        inst.operand_count = std::max<uint8_t>(inst.operand_count, static_cast<uint8_t>(slot + 1));
        return; // '_': no predicate written (ops[slot] stays None)
    }
    if (p.form != Parsed::Form::Reg || !p.pred || p.op.negate) {
        fail_here("expected a predicate register as destination, got '" + operand_text(r) + "'");
    }
    use(inst, slot, p);
}

// Register (non-predicate) or immediate; `allow_vector` for st values.
void Parser::src(Instruction& inst, uint8_t slot, size_t index, Type imm_type, bool allow_vector) {
    const Range r = stmt_->operands[index];
    Parsed p = parse_operand(r, imm_type);
    switch (p.form) {
    case Parsed::Form::Reg:
        if (p.pred) fail_here("predicate register '" + operand_text(r) + "' used as a data operand");
        break;
    case Parsed::Form::Imm:
        break;
    case Parsed::Form::Vector:
        if (!allow_vector) fail_here("unexpected vector operand '" + operand_text(r) + "'");
        break;
    case Parsed::Form::Special:
        fail_here("special register '" + operand_text(r) + "' can only be read with mov");
    case Parsed::Form::GlobalSym:
    case Parsed::Form::SpaceSym:
        fail_here("variable '" + operand_text(r) + "' can only be used in mov, cvta or an address");
    case Parsed::Form::Address:
        fail_here("unexpected address operand '" + operand_text(r) + "'");
    case Parsed::Form::Sink:
        fail_here("'_' is not allowed here");
    }
    use(inst, slot, p);
}

void Parser::pred_src(Instruction& inst, uint8_t slot, size_t index, bool allow_negate) {
    const Range r = stmt_->operands[index];
    Parsed p = parse_operand(r, Type::Pred);
    if (p.form != Parsed::Form::Reg || !p.pred)
        fail_here("expected a predicate register, got '" + operand_text(r) + "'");
    if (p.op.negate && !allow_negate)
        fail_here("'!' negation is not allowed here: '" + operand_text(r) + "'");
    use(inst, slot, p);
}

void Parser::address(Instruction& inst, uint8_t slot, size_t index) {
    const Range r = stmt_->operands[index];
    if (!tokens_[r.begin].is_punct('['))
        fail(stmt_->line, "expected an address '[...]', got '" + operand_text(r) + "'");
    Parsed p = parse_address(r);
    use(inst, slot, p);
    check_address_space(inst, slot, r);
}

// A variable named in an address must live in the instruction's state space (generic accesses may
// name .global/.const variables, whose addresses are also generic addresses).
void Parser::check_address_space(const Instruction& inst, uint8_t slot, Range r) const {
    const Operand& op = inst.ops[slot];
    const Token& base = tokens_[r.begin + 1];
    if (base.kind != TokenKind::Word) return;
    const Symbol* symbol = lookup(base.text);
    if (symbol == nullptr || symbol->kind == Symbol::Kind::Register) return;
    Space sym_space = Space::Global;
    switch (symbol->kind) {
    case Symbol::Kind::Global:
        sym_space = module_.globals[op.symbol].space;
        break;
    case Symbol::Kind::Shared:
        sym_space = Space::Shared;
        break;
    case Symbol::Kind::Local:
        sym_space = Space::Local;
        break;
    case Symbol::Kind::Param:
        sym_space = Space::Param;
        break;
    default:
        break;
    }
    const bool ok = inst.space == sym_space || (inst.space == Space::Generic &&
                                                (sym_space == Space::Global || sym_space == Space::Const));
    if (!ok) {
        fail(stmt_->line,
             "'" + std::string(base.text) + "' is a ." + to_string(sym_space) + " variable but '" +
                 std::string(stmt_->opcode) + "' accesses " +
                 (inst.space == Space::Generic ? std::string("generic memory (convert it with cvta first)")
                                               : "." + std::string(to_string(inst.space))));
    }
}

// =================================================================================================
// [SECTION] Instructions: dispatch and shared modifier helpers
// =================================================================================================

Type Parser::take_type(Modifiers& mods, bool required) {
    for (size_t i = 0; i < mods.count(); ++i) {
        if (mods.used(i)) continue;
        if (auto type = type_from_name(mods.part(i))) {
            mods.use(i);
            return *type;
        }
        if (is_unsupported_type_name(mods.part(i))) {
            fail(stmt_->line, "unsupported type '." + std::string(mods.part(i)) + "' in '" +
                                  std::string(stmt_->opcode) + "'");
        }
    }
    if (required) fail(stmt_->line, "missing type in '" + std::string(stmt_->opcode) + "'");
    return Type::None;
}

std::optional<Space> Parser::take_space(Modifiers& mods) {
    for (size_t i = 0; i < mods.count(); ++i) {
        if (mods.used(i)) continue;
        if (mods.part(i) == "shared::cluster") {
            fail(stmt_->line, "distributed shared memory (.shared::cluster) is not supported");
        }
        if (auto space = space_from_name(mods.part(i))) {
            mods.use(i);
            return space;
        }
    }
    return std::nullopt;
}

std::optional<MemScope> Parser::take_scope(Modifiers& mods) {
    for (size_t i = 0; i < mods.count(); ++i) {
        if (mods.used(i)) continue;
        if (auto scope = scope_from_name(mods.part(i))) {
            mods.use(i);
            return scope;
        }
    }
    return std::nullopt;
}

// Cache operators and eviction hints change performance only: accepted and ignored. Returns true
// when `.L2::cache_hint` asks for an extra cache-policy operand.
bool Parser::take_cache_hints(Modifiers& mods, HintKind kind) {
    bool policy_operand = false;
    for (size_t i = 0; i < mods.count(); ++i) {
        if (mods.used(i)) continue;
        const std::string_view part = mods.part(i);
        bool cache_op = false;
        if (kind == HintKind::Load) {
            cache_op =
                part == "ca" || part == "cg" || part == "cs" || part == "lu" || part == "cv" || part == "nc";
        } else if (kind == HintKind::Store) {
            cache_op = part == "wb" || part == "cg" || part == "cs" || part == "wt";
        }
        if (cache_op || part.starts_with("L1::") || part.starts_with("L2::")) {
            mods.use(i);
            if (part == "L2::cache_hint") policy_operand = true;
        }
    }
    return policy_operand;
}

void Parser::check_leftovers(const Modifiers& mods) const {
    if (auto part = mods.first_unused()) {
        if (is_unsupported_type_name(*part)) {
            fail(stmt_->line,
                 "unsupported type '." + std::string(*part) + "' in '" + std::string(stmt_->opcode) + "'");
        }
        if (type_from_name(*part)) {
            fail(stmt_->line, "more than one type in '" + std::string(stmt_->opcode) + "'");
        }
        fail(stmt_->line,
             "unsupported modifier '." + std::string(*part) + "' in '" + std::string(stmt_->opcode) + "'");
    }
}

void Parser::decode(Instruction& inst, Modifiers& mods) {
    const std::string_view base = mods.base();
    const uint32_t line = stmt_->line;
    if (!op_from_name(base, inst.op)) {
        if (base == "call") {
            fail(line, "unsupported instruction 'call' in function '" + fn_->fn.name +
                           "' (device function calls are not supported; inline the function)");
        }
        fail(line, std::string(is_unsupported_opcode(base) ? "unsupported" : "unknown") + " instruction '" +
                       std::string(base) + "'");
    }
    // The opcode table (opcodes.h) names the family; each decoder reads its operands and modifiers
    // (and may refine inst.op, e.g. bar.warp.sync).
    switch (info(inst.op).decoder) {
    case Decoder::Mov: decode_mov(inst, mods); break;
    case Decoder::Cvt: decode_cvt(inst, mods); break;
    case Decoder::Cvta: decode_cvta(inst, mods); break;
    case Decoder::LdSt: decode_ld_st(inst, mods, inst.op == Op::Ld); break;
    case Decoder::Selp: decode_selp(inst, mods); break;
    case Decoder::Arith: decode_arith(inst, mods); break;
    case Decoder::Logic: decode_logic(inst, mods); break;
    case Decoder::Bits: decode_bits(inst, mods); break;
    case Decoder::Setp: decode_setp(inst, mods); break;
    case Decoder::AtomRed: decode_atom_red(inst, mods, inst.op == Op::Red); break;
    case Decoder::Fence: decode_fence(inst, mods); break;
    case Decoder::Bar: decode_bar(inst, mods); break;
    case Decoder::Vote: decode_vote(inst, mods); break;
    case Decoder::Shfl: decode_shfl(inst, mods); break;
    case Decoder::Control: decode_control(inst, mods); break;
    }
    check_leftovers(mods);
}

void Parser::check_vector_operand(const Instruction& inst, uint8_t slot) const {
    const Operand& op = inst.ops[slot];
    if (inst.vector == 1 && op.kind == Operand::Kind::Vector) {
        fail(stmt_->line, "vector operand needs .v" + std::to_string(op.vec_count) + " on '" +
                              std::string(stmt_->opcode) + "'");
    }
    if (inst.vector > 1 && (op.kind != Operand::Kind::Vector || op.vec_count != inst.vector)) {
        fail(stmt_->line, "'" + std::string(stmt_->opcode) + "' needs a vector operand of " +
                              std::to_string(inst.vector) + " registers");
    }
}

// =================================================================================================
// [SECTION] Instructions: data movement (mov cvt cvta ld st selp)
// =================================================================================================

// mov.type d, a: a is a register, immediate, special register, or a variable (.global/.const ->
// Symbol, .shared/.local/.param -> Imm byte offset). mov.b64/.b32 also packs/unpacks vectors.
void Parser::decode_mov(Instruction& inst, Modifiers& mods) {
    inst.op = Op::Mov;
    inst.type = take_type(mods);
    expect_operands(2, 2);
    if (inst.type == Type::Pred) {
        pred_dest(inst, 0, stmt_->operands[0]);
        const Range r = stmt_->operands[1];
        Parsed p = parse_operand(r, Type::Pred);
        if (!(p.form == Parsed::Form::Imm || (p.form == Parsed::Form::Reg && p.pred)) || p.op.negate) {
            fail_here("mov.pred needs a predicate register or 0/1, got '" + operand_text(r) + "'");
        }
        use(inst, 1, p);
        return;
    }
    dest(inst, 0, 0, true);
    const Range r = stmt_->operands[1];
    Parsed p = parse_operand(r, inst.type);
    switch (p.form) {
    case Parsed::Form::Reg:
        if (p.pred) fail_here("predicate register '" + operand_text(r) + "' used as a data operand");
        break;
    case Parsed::Form::Imm:
    case Parsed::Form::Special:
    case Parsed::Form::GlobalSym:
    case Parsed::Form::SpaceSym:
    case Parsed::Form::Vector:
        break;
    case Parsed::Form::Address:
        fail_here("mov cannot read memory ('" + operand_text(r) + "'); use ld");
    case Parsed::Form::Sink:
        fail_here("'_' is not allowed here");
    }
    if (p.form == Parsed::Form::Vector && inst.ops[0].kind == Operand::Kind::Vector) {
        fail_here("mov cannot have vector operands on both sides");
    }
    use(inst, 1, p);
}

// cvt[.rnd][.ftz][.sat].dtype.atype d, a: type = destination, type2 = source.
void Parser::decode_cvt(Instruction& inst, Modifiers& mods) {
    inst.op = Op::Cvt;
    static constexpr std::pair<std::string_view, Rounding> kRound[] = {
        {"rn", Rounding::Nearest},
        {"rz", Rounding::Zero},
        {"rm", Rounding::Down},
        {"rp", Rounding::Up},
    };
    static constexpr std::pair<std::string_view, Rounding> kRoundInt[] = {
        {"rni", Rounding::Nearest},
        {"rzi", Rounding::Zero},
        {"rmi", Rounding::Down},
        {"rpi", Rounding::Up},
    };
    for (const auto& [name, rounding] : kRound) {
        if (mods.take(name)) {
            if (inst.rounding != Rounding::Default) fail(stmt_->line, "two rounding modifiers on cvt");
            inst.rounding = rounding;
        }
    }
    for (const auto& [name, rounding] : kRoundInt) {
        if (mods.take(name)) {
            if (inst.rounding != Rounding::Default) fail(stmt_->line, "two rounding modifiers on cvt");
            inst.rounding = rounding;
            inst.mods |= mod::kRoundInt;
        }
    }
    if (mods.take("ftz")) inst.mods |= mod::kFtz;
    if (mods.take("sat")) inst.mods |= mod::kSat;
    inst.type = take_type(mods);
    inst.type2 = take_type(mods, false);
    if (inst.type2 == Type::None) fail(stmt_->line, "cvt needs a destination and a source type");
    if (inst.type == Type::Pred || inst.type2 == Type::Pred)
        fail(stmt_->line, "cvt does not convert predicates");
    expect_operands(2, 2);
    dest(inst, 0, 0);
    src(inst, 1, 1, inst.type2);
}

// cvta.space.size d, a (space -> generic) and cvta.to.space.size d, a (generic -> space).
void Parser::decode_cvta(Instruction& inst, Modifiers& mods) {
    inst.op = Op::Cvta;
    if (mods.take("to")) inst.mods |= mod::kToSpace;
    auto space = take_space(mods);
    if (!space) fail(stmt_->line, "cvta needs a state space (.global, .shared, .local, .const or .param)");
    inst.space = *space;
    inst.type = take_type(mods);
    if (inst.type != Type::U32 && inst.type != Type::U64) fail(stmt_->line, "cvta size must be .u32 or .u64");
    expect_operands(2, 2);
    dest(inst, 0, 0);
    const Range r = stmt_->operands[1];
    Parsed p = parse_operand(r, inst.type);
    if (p.form == Parsed::Form::GlobalSym || p.form == Parsed::Form::SpaceSym) {
        if ((inst.mods & mod::kToSpace) != 0)
            fail_here("cvta.to takes a generic address, not the variable '" + operand_text(r) + "'");
        if (p.sym_space != inst.space) {
            fail_here("'" + operand_text(r) + "' is a ." + to_string(p.sym_space) + " variable, not ." +
                      to_string(inst.space));
        }
    } else if (p.form != Parsed::Form::Reg && p.form != Parsed::Form::Imm) {
        fail_here("cvta needs a register, immediate or variable, got '" + operand_text(r) + "'");
    } else if (p.pred) {
        fail_here("predicate register '" + operand_text(r) + "' used as an address");
    }
    use(inst, 1, p);
}

// ld{.weak|.volatile|.relaxed.scope|.acquire.scope}{.space}{cache hints}{.v2|.v4}.type d, [a]
// st{.weak|.volatile|.relaxed.scope|.release.scope}{.space}{cache hints}{.v2|.v4}.type [a], b
void Parser::decode_ld_st(Instruction& inst, Modifiers& mods, bool load) {
    inst.op = load ? Op::Ld : Op::St;
    const char* name = load ? "ld" : "st";
    if (mods.has("mmio")) fail(stmt_->line, std::string(name) + ".mmio is not supported");
    if (mods.has("async") || mods.has("bulk"))
        fail(stmt_->line, std::string("unsupported instruction '") + name + ".async'");
    int orders = 0;
    if (mods.take("weak")) {
        inst.order = MemOrder::Weak;
        ++orders;
    }
    if (mods.take("volatile")) {
        inst.order = MemOrder::Volatile;
        ++orders;
    }
    if (mods.take("relaxed")) {
        inst.order = MemOrder::Relaxed;
        ++orders;
    }
    if (mods.take(load ? "acquire" : "release")) {
        inst.order = load ? MemOrder::Acquire : MemOrder::Release;
        ++orders;
    }
    if (orders > 1) fail(stmt_->line, std::string("more than one memory-order qualifier on ") + name);
    if (mods.has(load ? "release" : "acquire") || mods.has("acq_rel") || mods.has("sc")) {
        fail(stmt_->line, std::string("invalid memory order for ") + name + " (" +
                              (load ? "ld takes .relaxed or .acquire" : "st takes .relaxed or .release") +
                              ")");
    }
    if (auto scope = take_scope(mods)) inst.scope = *scope;
    const bool strong =
        inst.order == MemOrder::Relaxed || inst.order == MemOrder::Acquire || inst.order == MemOrder::Release;
    if (strong && inst.scope == MemScope::None)
        fail(stmt_->line,
             std::string(name) + " with a memory order needs a scope (.cta, .cluster, .gpu or .sys)");
    if (!strong && inst.scope != MemScope::None)
        fail(stmt_->line,
             std::string("a scope on ") + name + " needs .relaxed or ." + (load ? "acquire" : "release"));
    if (auto space = take_space(mods)) inst.space = *space;
    const bool policy = take_cache_hints(mods, load ? HintKind::Load : HintKind::Store);
    if (mods.take("v2")) inst.vector = 2;
    if (mods.take("v4")) inst.vector = 4;
    if (mods.has("v8")) fail(stmt_->line, ".v8 vectors are not supported");
    inst.type = take_type(mods);
    if (inst.type == Type::Pred) fail(stmt_->line, std::string(name) + " cannot use .pred");
    const size_t count = policy ? 3 : 2;
    expect_operands(count, count);
    if (load) {
        dest(inst, 0, 0, true);
        check_vector_operand(inst, 0);
        address(inst, 1, 1);
    } else {
        address(inst, 0, 0);
        src(inst, 1, 1, inst.type, true);
        check_vector_operand(inst, 1);
    }
    if (policy) {
        // The cache-policy operand of .L2::cache_hint: checked, then dropped with the hint.
        Instruction scratch;
        src(scratch, 0, 2, Type::B64);
    }
}

// selp.type d, a, b, c: d = c ? a : b
void Parser::decode_selp(Instruction& inst, Modifiers& mods) {
    inst.op = Op::Selp;
    inst.type = take_type(mods);
    if (inst.type == Type::Pred) fail(stmt_->line, "selp does not take .pred (use and/or/xor on predicates)");
    expect_operands(4, 4);
    dest(inst, 0, 0);
    src(inst, 1, 1, inst.type);
    src(inst, 2, 2, inst.type);
    pred_src(inst, 3, 3, false);
}

// =================================================================================================
// [SECTION] Instructions: arithmetic and bit manipulation
// =================================================================================================

void Parser::decode_arith(Instruction& inst, Modifiers& mods) {
    struct Spec {
        std::string_view name;
        Op op;
        uint8_t operands; // including d
        bool int_ok, float_ok;
        bool rounding; // float .rn/.rz/.rm/.rp
        bool approx;   // .approx / .full accepted (no effect on the simulated result)
        bool sat;      // .sat
        bool lohi;     // integer .lo/.hi/.wide
    };
    static constexpr Spec kSpecs[] = {
        {"add", Op::Add, 3, true, true, true, false, true, false},
        {"sub", Op::Sub, 3, true, true, true, false, true, false},
        {"mul", Op::Mul, 3, true, true, true, false, true, true},
        {"mad", Op::Mad, 4, true, true, true, false, true, true},
        {"fma", Op::Fma, 4, false, true, true, false, true, false},
        {"div", Op::Div, 3, true, true, true, true, false, false},
        {"rem", Op::Rem, 3, true, false, false, false, false, false},
        {"abs", Op::Abs, 2, true, true, false, false, false, false},
        {"neg", Op::Neg, 2, true, true, false, false, false, false},
        {"min", Op::Min, 3, true, true, false, false, false, false},
        {"max", Op::Max, 3, true, true, false, false, false, false},
        {"sqrt", Op::Sqrt, 2, false, true, true, true, false, false},
        {"rsqrt", Op::Rsqrt, 2, false, true, false, true, false, false},
        {"rcp", Op::Rcp, 2, false, true, true, true, false, false},
        {"ex2", Op::Ex2, 2, false, true, false, true, false, false},
        {"lg2", Op::Lg2, 2, false, true, false, true, false, false},
        {"sin", Op::Sin, 2, false, true, false, true, false, false},
        {"cos", Op::Cos, 2, false, true, false, true, false, false},
        {"copysign", Op::Copysign, 3, false, true, false, false, false, false},
    };
    const Spec* spec = nullptr;
    for (const Spec& s : kSpecs) {
        if (s.name == mods.base()) spec = &s;
    }
    const std::string opname(spec->name);
    inst.op = spec->op;
    if (mods.has("cc")) fail(stmt_->line, "carry arithmetic ('" + opname + ".cc') is not supported");
    inst.type = take_type(mods);
    if (inst.type == Type::Pred) fail(stmt_->line, opname + " does not take .pred");
    const bool fp = is_float(inst.type);
    if (fp && !spec->float_ok)
        fail(stmt_->line, opname + " needs an integer type, not ." + to_string(inst.type));
    if (!fp && !spec->int_ok)
        fail(stmt_->line, opname + " needs a floating-point type, not ." + to_string(inst.type));
    if (fp) {
        static constexpr std::pair<std::string_view, Rounding> kRound[] = {
            {"rn", Rounding::Nearest},
            {"rz", Rounding::Zero},
            {"rm", Rounding::Down},
            {"rp", Rounding::Up},
        };
        if (spec->rounding) {
            for (const auto& [name, rounding] : kRound) {
                if (mods.take(name)) {
                    if (inst.rounding != Rounding::Default)
                        fail(stmt_->line, "two rounding modifiers on " + opname);
                    inst.rounding = rounding;
                }
            }
        }
        if (spec->approx && !mods.take("approx")) mods.take("full");
        if (mods.take("ftz")) inst.mods |= mod::kFtz;
        if (spec->sat && mods.take("sat")) inst.mods |= mod::kSat;
    } else {
        if (spec->lohi) {
            int forms = 0;
            if (mods.take("lo")) {
                inst.mods |= mod::kLo;
                ++forms;
            }
            if (mods.take("hi")) {
                inst.mods |= mod::kHi;
                ++forms;
            }
            if (mods.take("wide")) {
                inst.mods |= mod::kWide;
                ++forms;
                if (type_size(inst.type) > 4) fail(stmt_->line, opname + ".wide needs a 16- or 32-bit type");
            }
            if (forms > 1) fail(stmt_->line, opname + " takes one of .lo, .hi, .wide");
            if (forms == 0) inst.mods |= mod::kLo; // PTX requires one; .lo is what an omitted one means here
        }
        if (spec->sat && mods.take("sat")) {
            if (inst.type != Type::S32) fail(stmt_->line, opname + ".sat needs .s32");
            inst.mods |= mod::kSat;
        }
    }
    expect_operands(spec->operands, spec->operands);
    dest(inst, 0, 0);
    for (uint8_t i = 1; i < spec->operands; ++i)
        src(inst, i, i, inst.type);
}

// and/or/xor/not on .pred or .b16/.b32/.b64.
void Parser::decode_logic(Instruction& inst, Modifiers& mods) {
    const std::string_view base = mods.base();
    inst.type = take_type(mods);
    if (inst.type != Type::Pred && !is_bits(inst.type)) {
        fail(stmt_->line,
             std::string(base) + " needs .pred, .b16, .b32 or .b64, not ." + to_string(inst.type));
    }
    const size_t n = inst.op == Op::Not ? 2 : 3;
    expect_operands(n, n);
    if (inst.type == Type::Pred) {
        pred_dest(inst, 0, stmt_->operands[0]);
        for (uint8_t i = 1; i < n; ++i)
            pred_src(inst, i, i, false);
    } else {
        dest(inst, 0, 0);
        for (uint8_t i = 1; i < n; ++i)
            src(inst, i, i, inst.type);
    }
}

// shl shr popc clz brev bfe bfi prmt shf bfind
void Parser::decode_bits(Instruction& inst, Modifiers& mods) {
    const std::string_view base = mods.base();
    const std::string name(base);
    if (base == "shf") {
        // shf.{l,r}.{wrap,clamp}.b32 d, a, b, c: shift the 64-bit pair {b:a} by c, keep 32 bits.
        inst.op = Op::Shf;
        if (mods.take("r"))
            inst.mods |= mod::kShiftRight;
        else if (!mods.take("l"))
            fail(stmt_->line, "shf needs .l or .r");
        if (mods.take("clamp"))
            inst.mods |= mod::kClamp;
        else if (!mods.take("wrap"))
            fail(stmt_->line, "shf needs .wrap or .clamp");
    } else if (base == "bfind" && mods.take("shiftamt")) {
        inst.mods |= mod::kShiftAmt;
    }
    inst.type = take_type(mods);
    const Type t = inst.type;
    auto need = [&](bool ok, const char* types) {
        if (!ok) fail(stmt_->line, name + " needs " + types + ", not ." + to_string(t));
    };
    const bool b = t == Type::B32 || t == Type::B64;
    if (base == "shl" || base == "shr") {
        if (inst.op == Op::Shl) {
            need(is_bits(t) && t != Type::B8, ".b16, .b32 or .b64");
        } else {
            need(is_int(t) && type_size(t) >= 2, "a 16-, 32- or 64-bit integer type");
        }
        expect_operands(3, 3);
        dest(inst, 0, 0);
        src(inst, 1, 1, t);
        src(inst, 2, 2, Type::U32);
    } else if (base == "shf") {
        need(t == Type::B32, ".b32");
        expect_operands(4, 4);
        dest(inst, 0, 0);
        for (uint8_t i = 1; i < 4; ++i)
            src(inst, i, i, Type::B32);
    } else if (base == "bfind") {
        inst.op = Op::Bfind;
        need(t == Type::U32 || t == Type::U64 || t == Type::S32 || t == Type::S64,
             ".u32, .u64, .s32 or .s64");
        expect_operands(2, 2);
        dest(inst, 0, 0);
        src(inst, 1, 1, t);
    } else if (base == "popc" || base == "clz" || base == "brev") {
        need(b, ".b32 or .b64");
        expect_operands(2, 2);
        dest(inst, 0, 0);
        src(inst, 1, 1, t);
    } else if (base == "bfe") {
        inst.op = Op::Bfe;
        need(t == Type::U32 || t == Type::U64 || t == Type::S32 || t == Type::S64,
             ".u32, .u64, .s32 or .s64");
        expect_operands(4, 4);
        dest(inst, 0, 0);
        src(inst, 1, 1, t);
        src(inst, 2, 2, Type::U32);
        src(inst, 3, 3, Type::U32);
    } else if (base == "bfi") {
        // bfi.b f, a, b, c, d: ops[0]=f ops[1]=a (inserted bits) ops[2]=b (base) ops[3]=c (pos) ops[4]=d
        // (len)
        inst.op = Op::Bfi;
        need(b, ".b32 or .b64");
        expect_operands(5, 5);
        dest(inst, 0, 0);
        src(inst, 1, 1, t);
        src(inst, 2, 2, t);
        src(inst, 3, 3, Type::U32);
        src(inst, 4, 4, Type::U32);
    } else {
        inst.op = Op::Prmt;
        need(t == Type::B32, ".b32");
        for (std::string_view mode : {"f4e", "b4e", "rc8", "ecl", "ecr", "rc16"}) {
            if (mods.has(mode))
                fail(stmt_->line,
                     "prmt mode '." + std::string(mode) + "' is not supported (only the default mode)");
        }
        expect_operands(4, 4);
        dest(inst, 0, 0);
        for (uint8_t i = 1; i < 4; ++i)
            src(inst, i, i, Type::B32);
    }
}

// =================================================================================================
// [SECTION] Instructions: comparison, atomics, fences
// =================================================================================================

// setp.CMP[.BOOL][.ftz].type p[|q], a, b[, {!}c]
void Parser::decode_setp(Instruction& inst, Modifiers& mods) {
    inst.op = Op::Setp;
    static constexpr std::pair<std::string_view, Cmp> kCmps[] = {
        {"eq", Cmp::Eq},   {"ne", Cmp::Ne},   {"lt", Cmp::Lt},   {"le", Cmp::Le},   {"gt", Cmp::Gt},
        {"ge", Cmp::Ge},   {"lo", Cmp::Lo},   {"ls", Cmp::Ls},   {"hi", Cmp::Hi},   {"hs", Cmp::Hs},
        {"equ", Cmp::Equ}, {"neu", Cmp::Neu}, {"ltu", Cmp::Ltu}, {"leu", Cmp::Leu}, {"gtu", Cmp::Gtu},
        {"geu", Cmp::Geu}, {"num", Cmp::Num}, {"nan", Cmp::Nan},
    };
    for (const auto& [name, cmp] : kCmps) {
        if (mods.take(name)) {
            if (inst.cmp != Cmp::None) fail(stmt_->line, "two comparison operators on setp");
            inst.cmp = cmp;
        }
    }
    if (inst.cmp == Cmp::None) fail(stmt_->line, "setp needs a comparison operator (.eq, .lt, ...)");
    if (mods.take("and")) inst.bool_op = BoolOp::And;
    if (mods.take("or")) inst.bool_op = BoolOp::Or;
    if (mods.take("xor")) inst.bool_op = BoolOp::Xor;
    if (mods.take("ftz")) inst.mods |= mod::kFtz;
    inst.type = take_type(mods);
    if (inst.type == Type::Pred || inst.type == Type::None)
        fail(stmt_->line, "setp compares data types, not .pred");
    const bool unordered = inst.cmp >= Cmp::Equ;
    if (unordered && !is_float(inst.type))
        fail(stmt_->line, "unordered comparisons need a floating-point type");
    const bool unsigned_cmp =
        inst.cmp == Cmp::Lo || inst.cmp == Cmp::Ls || inst.cmp == Cmp::Hi || inst.cmp == Cmp::Hs;
    if (unsigned_cmp && is_float(inst.type))
        fail(stmt_->line, "unsigned comparisons (.lo .ls .hi .hs) need an integer type");
    if (is_bits(inst.type) && inst.cmp != Cmp::Eq && inst.cmp != Cmp::Ne) {
        fail(stmt_->line, "bit types (.b*) only compare with .eq or .ne");
    }
    const size_t n = inst.bool_op == BoolOp::None ? 3 : 4;
    expect_operands(n, n);
    auto [p, q] = split_bar(stmt_->operands[0]);
    pred_dest(inst, 0, p);
    if (q) pred_dest(inst, 1, *q);
    src(inst, 2, 1, inst.type);
    src(inst, 3, 2, inst.type);
    if (n == 4) pred_src(inst, 4, 3, true);
}

// atom{.sem}{.scope}{.space}.op.type d, [a], b{, c}   red{.sem}{.scope}{.space}.op.type [a], b
// Modifiers may come in any order (cuda headers write atom.add.acq_rel.cta.s32). Without .sem the
// order is .relaxed and without a scope it is .gpu (PTX defaults).
void Parser::decode_atom_red(Instruction& inst, Modifiers& mods, bool red) {
    inst.op = red ? Op::Red : Op::Atom;
    const std::string name = red ? "red" : "atom";
    if (mods.has("v2") || mods.has("v4") || mods.has("v8"))
        fail(stmt_->line, "vector " + name + " is not supported");
    static constexpr std::pair<std::string_view, AtomOp> kOps[] = {
        {"add", AtomOp::Add},   {"min", AtomOp::Min}, {"max", AtomOp::Max}, {"inc", AtomOp::Inc},
        {"dec", AtomOp::Dec},   {"and", AtomOp::And}, {"or", AtomOp::Or},   {"xor", AtomOp::Xor},
        {"exch", AtomOp::Exch}, {"cas", AtomOp::Cas},
    };
    for (const auto& [op_name, op] : kOps) {
        if (mods.take(op_name)) {
            if (inst.atom_op != AtomOp::None) fail(stmt_->line, "two operations on " + name);
            inst.atom_op = op;
        }
    }
    if (inst.atom_op == AtomOp::None) fail(stmt_->line, name + " needs an operation (.add, .cas, ...)");
    if (red && (inst.atom_op == AtomOp::Exch || inst.atom_op == AtomOp::Cas)) {
        fail(stmt_->line,
             "red has no ." + std::string(inst.atom_op == AtomOp::Exch ? "exch" : "cas") + " (use atom)");
    }
    static constexpr std::pair<std::string_view, MemOrder> kOrders[] = {
        {"relaxed", MemOrder::Relaxed}, {"acquire", MemOrder::Acquire}, {"release", MemOrder::Release},
        {"acq_rel", MemOrder::AcqRel},  {"sc", MemOrder::Sc},
    };
    inst.order = MemOrder::Relaxed;
    int orders = 0;
    for (const auto& [order_name, order] : kOrders) {
        if (mods.take(order_name)) {
            inst.order = order;
            ++orders;
        }
    }
    if (orders > 1) fail(stmt_->line, "more than one memory-order qualifier on " + name);
    if (red &&
        (inst.order == MemOrder::Acquire || inst.order == MemOrder::AcqRel || inst.order == MemOrder::Sc)) {
        fail(stmt_->line, "red takes .relaxed or .release only");
    }
    inst.scope = take_scope(mods).value_or(MemScope::Gpu);
    if (auto space = take_space(mods)) {
        if (*space != Space::Global && *space != Space::Shared)
            fail(stmt_->line, name + " works on .global, .shared or generic memory");
        inst.space = *space;
    }
    const bool policy = take_cache_hints(mods, HintKind::Atomic);
    if (mods.has("noftz")) fail(stmt_->line, name + ".noftz (half-precision atomics) is not supported");
    inst.type = take_type(mods);
    const Type t = inst.type;
    const uint32_t size = type_size(t);
    switch (inst.atom_op) {
    case AtomOp::Add:
        if (!(t == Type::U32 || t == Type::U64 || t == Type::S32 || t == Type::S64 || t == Type::F32 ||
              t == Type::F64)) {
            fail(stmt_->line, name + ".add needs .u32, .s32, .u64, .s64, .f32 or .f64");
        }
        break;
    case AtomOp::Inc:
    case AtomOp::Dec:
        if (t != Type::U32) fail(stmt_->line, name + ".inc/.dec need .u32");
        break;
    case AtomOp::Min:
    case AtomOp::Max:
        if (!(is_unsigned(t) || is_signed(t)) || size < 4)
            fail(stmt_->line, name + ".min/.max need .u32, .s32, .u64 or .s64");
        break;
    case AtomOp::And:
    case AtomOp::Or:
    case AtomOp::Xor:
    case AtomOp::Exch:
        if (!is_int(t) || size < 4)
            fail(stmt_->line, name + " bitwise and exchange operations need a 32- or 64-bit .b type");
        break;
    case AtomOp::Cas:
        if (!is_int(t) || size < 2) fail(stmt_->line, "atom.cas needs .b16, .b32 or .b64");
        break;
    case AtomOp::None:
        break;
    }
    const size_t extra = policy ? 1 : 0;
    if (red) {
        expect_operands(2 + extra, 2 + extra);
        address(inst, 0, 0);
        src(inst, 1, 1, t);
    } else {
        const size_t n = (inst.atom_op == AtomOp::Cas ? 4 : 3) + extra;
        expect_operands(n, n);
        dest(inst, 0, 0);
        address(inst, 1, 1);
        src(inst, 2, 2, t);
        if (inst.atom_op == AtomOp::Cas) src(inst, 3, 3, t);
    }
    if (policy) {
        Instruction scratch;
        src(scratch, 0, stmt_->operand_count - 1, Type::B64);
    }
}

// membar.{cta,gl,sys} (= fence.sc) and fence{.sc|.acq_rel}.scope, both as Op::Membar.
void Parser::decode_fence(Instruction& inst, Modifiers& mods) {
    inst.op = Op::Membar;
    const std::string base(mods.base());
    if (mods.has("proxy"))
        fail(stmt_->line,
             "unsupported instruction '" + std::string(stmt_->opcode) + "' (proxy fences are not supported)");
    if (base == "membar") {
        inst.order = MemOrder::Sc;
        if (mods.take("cta")) {
            inst.scope = MemScope::Cta;
        } else if (mods.take("gl")) {
            inst.scope = MemScope::Gpu;
        } else if (mods.take("sys")) {
            inst.scope = MemScope::Sys;
        } else {
            fail(stmt_->line, "membar needs .cta, .gl or .sys");
        }
    } else {
        if (mods.has("mbarrier_init") || mods.has("op_restrict") || mods.has("sync_restrict::shared::cta") ||
            mods.has("sync_restrict::shared::cluster")) {
            fail(stmt_->line, "unsupported instruction '" + std::string(stmt_->opcode) + "'");
        }
        inst.order = MemOrder::AcqRel; // PTX: fence without .sem is fence.acq_rel
        if (mods.take("sc")) {
            inst.order = MemOrder::Sc;
        } else {
            mods.take("acq_rel");
        }
        auto scope = take_scope(mods);
        if (!scope) fail(stmt_->line, "fence needs a scope (.cta, .cluster, .gpu or .sys)");
        inst.scope = *scope;
    }
    expect_operands(0, 0);
}

// =================================================================================================
// [SECTION] Instructions: barriers, warp operations, control flow
// =================================================================================================

// bar.sync / bar.arrive (aligned), barrier.sync[.aligned] / barrier.arrive[.aligned]: a{, b}
// bar.warp.sync membermask -> Op::WarpSync
void Parser::decode_bar(Instruction& inst, Modifiers& mods) {
    const bool legacy = mods.base() == "bar"; // bar.* is barrier.*.aligned
    if (legacy && mods.take("warp")) {
        if (!mods.take("sync")) fail(stmt_->line, "expected bar.warp.sync");
        inst.op = Op::WarpSync;
        expect_operands(1, 1);
        mask_src(inst, 0, 0);
        return;
    }
    inst.op = Op::Bar;
    if (mods.has("red"))
        fail(stmt_->line,
             "unsupported instruction '" + std::string(stmt_->opcode) +
                 "' (barrier reductions such as __syncthreads_count/_and/_or are not supported)");
    if (mods.has("cluster")) fail(stmt_->line, "cluster barriers are not supported");
    mods.take("cta");
    if (mods.take("arrive")) {
        inst.mods |= mod::kArrive;
    } else if (!mods.take("sync")) {
        fail(stmt_->line, std::string(mods.base()) + " needs .sync or .arrive");
    }
    if (legacy || mods.take("aligned")) inst.mods |= mod::kAligned;
    const bool arrive = (inst.mods & mod::kArrive) != 0;
    expect_operands(arrive ? 2 : 1, 2);
    const Range r = stmt_->operands[0];
    src(inst, 0, 0, Type::U32);
    if (inst.ops[0].kind == Operand::Kind::Imm && inst.ops[0].imm > 15) {
        fail(stmt_->line, "barrier id must be 0..15, got '" + operand_text(r) + "'");
    }
    if (stmt_->operand_count == 2) src(inst, 1, 1, Type::U32);
}

// vote.sync.{all,any,uni}.pred d, {!}a, membermask   vote.sync.ballot.b32 d, {!}a, membermask
void Parser::decode_vote(Instruction& inst, Modifiers& mods) {
    inst.op = Op::Vote;
    require_sync(mods, "vote");
    if (mods.take("all"))
        inst.vote = VoteMode::All;
    else if (mods.take("any"))
        inst.vote = VoteMode::Any;
    else if (mods.take("uni"))
        inst.vote = VoteMode::Uni;
    else if (mods.take("ballot"))
        inst.vote = VoteMode::Ballot;
    else
        fail(stmt_->line, "vote.sync needs .all, .any, .uni or .ballot");
    inst.type = take_type(mods);
    if (inst.vote == VoteMode::Ballot && inst.type != Type::B32)
        fail(stmt_->line, "vote.sync.ballot needs .b32");
    if (inst.vote != VoteMode::Ballot && inst.type != Type::Pred)
        fail(stmt_->line, "vote.sync.all/.any/.uni need .pred");
    expect_operands(3, 3);
    if (inst.vote == VoteMode::Ballot) {
        dest(inst, 0, 0);
    } else {
        pred_dest(inst, 0, stmt_->operands[0]);
    }
    pred_src(inst, 1, 1, true);
    mask_src(inst, 2, 2);
}

// shfl.sync.{up,down,bfly,idx}.b32 d[|p], a, b, c, membermask
void Parser::decode_shfl(Instruction& inst, Modifiers& mods) {
    inst.op = Op::Shfl;
    require_sync(mods, "shfl");
    if (mods.take("up"))
        inst.shfl = ShflMode::Up;
    else if (mods.take("down"))
        inst.shfl = ShflMode::Down;
    else if (mods.take("bfly"))
        inst.shfl = ShflMode::Bfly;
    else if (mods.take("idx"))
        inst.shfl = ShflMode::Idx;
    else
        fail(stmt_->line, "shfl.sync needs .up, .down, .bfly or .idx");
    inst.type = take_type(mods);
    if (inst.type != Type::B32) fail(stmt_->line, "shfl.sync needs .b32");
    expect_operands(5, 5);
    auto [d, p] = split_bar(stmt_->operands[0]);
    {
        Parsed parsed = parse_operand(d, Type::B32);
        if (parsed.form != Parsed::Form::Reg || parsed.pred)
            fail_here("destination must be a data register, got '" + operand_text(d) + "'");
        use(inst, 0, parsed);
    }
    if (p) pred_dest(inst, 1, *p);
    src(inst, 2, 1, Type::B32);
    src(inst, 3, 2, Type::B32);
    src(inst, 4, 3, Type::B32);
    mask_src(inst, 5, 4);
}

// activemask.b32 d; bra{.uni} label; ret; exit; trap; nanosleep.u32 t
void Parser::decode_control(Instruction& inst, Modifiers& mods) {
    const std::string_view base = mods.base();
    if (base == "activemask") {
        inst.op = Op::Activemask;
        inst.type = take_type(mods);
        if (inst.type != Type::B32) fail(stmt_->line, "activemask needs .b32");
        expect_operands(1, 1);
        dest(inst, 0, 0);
    } else if (base == "bra") {
        inst.op = Op::Bra;
        if (mods.take("uni")) inst.mods |= mod::kUni;
        expect_operands(1, 1);
        const Range r = stmt_->operands[0];
        const Token& label = tokens_[r.begin];
        if (r.size() != 1 || label.kind != TokenKind::Word || label.text.starts_with("%")) {
            fail(stmt_->line,
                 "bra needs a label, got '" + operand_text(r) + "' (indirect branches are not supported)");
        }
        fn_->label_refs.push_back(
            LabelRef{static_cast<uint32_t>(fn_->fn.code.size()), label.text, stmt_->line});
    } else if (base == "ret" || base == "exit" || base == "trap") {
        if (inst.op != Op::Trap && mods.take("uni")) inst.mods |= mod::kUni;
        expect_operands(0, 0);
    } else {
        inst.op = Op::Nanosleep;
        inst.type = take_type(mods);
        if (inst.type != Type::U32) fail(stmt_->line, "nanosleep needs .u32");
        expect_operands(1, 1);
        src(inst, 0, 0, Type::U32);
    }
}

// =================================================================================================
// [SECTION] Function finish: labels, shared layout
// =================================================================================================

// Resolves branch targets, lays out .shared and the .local frame, and patches shared offsets.
// Shared window layout: module-scope variables this function references (declaration order), then
// the function's own static variables (declaration order), each at its alignment from offset 0.
// `extern .shared` arrays all start at shared_dynamic_offset = static end rounded up to
// max(16, their alignment).
void Parser::finish_function(FunctionState& st) {
    Function& fn = st.fn;
    for (const LabelRef& ref : st.label_refs) {
        auto it = st.labels.find(ref.name);
        if (it == st.labels.end()) {
            throw ParseError(source_name_, ref.line, fn.text[ref.instr],
                             "unknown label '" + std::string(ref.name) + "'");
        }
        if (it->second >= fn.code.size()) {
            throw ParseError(source_name_, st.label_line[ref.name], line_text(st.label_line[ref.name]),
                             "label '" + std::string(ref.name) + "' is not followed by an instruction");
        }
        fn.code[ref.instr].target = it->second;
    }

    std::vector<bool> module_used(module_shared_.size(), false);
    for (const SharedRef& ref : st.shared_refs) {
        if (ref.module_scope) module_used[ref.index] = true;
    }
    std::vector<uint64_t> module_offset(module_shared_.size(), 0);
    std::vector<uint64_t> local_offset(st.shared.size(), 0);
    uint64_t cursor = 0;
    uint64_t dynamic_align = 16;
    auto place = [&](const SharedVar& var, uint64_t& offset) {
        if (var.is_extern) {
            dynamic_align = std::max<uint64_t>(dynamic_align, var.align);
            return;
        }
        offset = align_up(cursor, var.align);
        cursor = offset + var.size;
        if (cursor > kMaxBytes)
            throw ParseError(source_name_, fn.decl_line, "",
                             "shared memory of '" + fn.name + "' is too large");
    };
    for (size_t i = 0; i < module_shared_.size(); ++i) {
        if (module_used[i]) place(module_shared_[i], module_offset[i]);
    }
    for (size_t i = 0; i < st.shared.size(); ++i)
        place(st.shared[i], local_offset[i]);
    fn.shared_static_bytes = static_cast<uint32_t>(cursor);
    fn.shared_dynamic_offset = static_cast<uint32_t>(align_up(cursor, dynamic_align));
    for (const SharedRef& ref : st.shared_refs) {
        const SharedVar& var = ref.module_scope ? module_shared_[ref.index] : st.shared[ref.index];
        const uint64_t base = var.is_extern
                                  ? fn.shared_dynamic_offset
                                  : (ref.module_scope ? module_offset[ref.index] : local_offset[ref.index]);
        fn.code[ref.instr].ops[ref.slot].imm += base;
    }
    fn.local_bytes = static_cast<uint32_t>(st.local_bytes);
}

} // namespace

// =================================================================================================
// [SECTION] Entry point
// =================================================================================================

Module parse_module(std::string_view text, const std::string& source_name) {
    return Parser(text, source_name).run();
}

} // namespace synclab::ptx
