// Private to the PTX parser (app/ptx/parser*.cpp, decode_*.cpp): the Parser class and the state it
// works on, declared once. Users include ptx/parser.h.
//
// Design notes
// - The whole text is tokenised first (tokens are views into the text); the parser then walks the
//   token vector once. Forward label references and shared-memory offsets are fixed up when a
//   function's closing brace is reached (parser_layout.cpp).
// - Every path either produces IR or throws ParseError: unknown opcodes, modifiers and directives are
//   errors, never skipped. The only things skipped are `.section` blocks (debug data), `.pragma`,
//   cache hints and performance directives, none of which change what a kernel computes.
// - Names are function-scoped with nested `{ }` blocks (nvcc declares `%temp` in sibling blocks);
//   labels are function-wide.
//
// Where the Parser's members live
//   parser.cpp            entry point, ParseError, token cursor and errors, module level
//   parser_variables.cpp  variable declarations and initialisers (module and function scope)
//   parser_function.cpp   functions: signature, parameters, body, .reg, .loc
//   parser_statement.cpp  one instruction statement: guard, operands split, dispatch, modifier helpers
//   parser_operands.cpp   operand forms (registers, immediates, addresses, vectors) and slot checks
//   decode_data.cpp       mov cvt cvta ld st selp
//   decode_arith.cpp      arithmetic, logic, bit manipulation, setp
//   decode_atomics.cpp    atom red, membar/fence
//   decode_control.cpp    bar/barrier, bar.warp.sync, vote, shfl, activemask, bra, ret/exit, ...
//   parser_layout.cpp     function finish: labels, shared and local layout
//   parser_tables.cpp     name tables (types, spaces, scopes, special registers, performance
//                         directives) and literals
//
// Index
//   [SECTION] Limits
//   [SECTION] Tables and literals (parser_tables.cpp)
//   [SECTION] Names and scopes
//   [SECTION] Statements, modifiers, parsed operands
//   [SECTION] Parser
#pragma once

#include "ptx/ir.h"
#include "ptx/lexer.h"
#include "ptx/parser.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace synclab::ptx::detail {

// =================================================================================================
// [SECTION] Limits
// =================================================================================================

constexpr uint32_t kMaxInstructions = 65535;    // per function (the simulator keeps 16-bit pcs)
constexpr uint32_t kMaxRegisters = 1u << 18;    // per function; guards against `%r<999999999>`
constexpr uint64_t kMaxBytes = 1ull << 30;      // any variable, parameter list or memory layout
constexpr uint64_t kMaxInitBytes = 16ull << 20; // initialised module variables
constexpr uint32_t kMaxFileIndex = 65535;       // .file / .loc file numbers
constexpr size_t kMaxOperands = 8;              // more than any accepted instruction has
constexpr size_t kMaxModifiers = 12;            // dotted parts of one opcode
constexpr int kMaxInitDepth = 8;                // nesting of `{ }` in an initialiser

// =================================================================================================
// [SECTION] Tables and literals (parser_tables.cpp)
// =================================================================================================

std::optional<Type> type_from_name(std::string_view name); // "u32" -> Type::U32
// PTX types that exist but that the simulator does not model; named in error messages.
bool is_unsupported_type_name(std::string_view name);
std::optional<Space> space_from_name(std::string_view name);        // "global", "shared::cta", ...
std::optional<MemScope> scope_from_name(std::string_view name);     // "cta", "cluster", "gpu", "sys"
std::optional<SpecialReg> special_from_name(std::string_view name); // "%tid.x" -> SpecialReg::TidX
// Reserved PTX special-register names that the simulator does not provide.
bool is_unsupported_special(std::string_view name);

// A tuning directive between a function's signature and its body (.maxntid 256, 1, 1; .noreturn):
// accepted and ignored, it does not change what the kernel computes.
struct PerformanceDirective {
    std::string_view name; // with the dot
    bool numbers;          // followed by a comma-separated list of integers
};
const PerformanceDirective* find_performance_directive(std::string_view name); // nullptr: not one

inline bool is_int(Type t) {
    return t != Type::None && t != Type::Pred && !is_float(t);
}
inline bool is_bits(Type t) {
    return t == Type::B8 || t == Type::B16 || t == Type::B32 || t == Type::B64;
}
inline bool is_unsigned(Type t) {
    return t == Type::U8 || t == Type::U16 || t == Type::U32 || t == Type::U64;
}

inline uint64_t align_up(uint64_t value, uint64_t align) {
    return align <= 1 ? value : (value + align - 1) / align * align;
}

// Floating-point rounding modifiers (arithmetic and cvt).
inline constexpr std::pair<std::string_view, Rounding> kRoundings[] = {
    {"rn", Rounding::Nearest},
    {"rz", Rounding::Zero},
    {"rm", Rounding::Down},
    {"rp", Rounding::Up},
};

// An integer or floating-point literal as written (the sign is a separate '-' token).
struct Literal {
    enum class Kind : uint8_t { Int, F32Bits, F64Bits, Decimal } kind = Kind::Int;
    bool negative = false;
    uint64_t bits = 0;  // Int: magnitude; F32Bits/F64Bits: the IEEE bits
    double value = 0.0; // Decimal
};

// Integer magnitude: decimal, 0x hex, 0b binary, leading-0 octal, optional U suffix.
std::optional<uint64_t> parse_int_magnitude(std::string_view s);
// Returns nullopt for a malformed or out-of-range literal.
std::optional<Literal> parse_literal(std::string_view s, bool negative);
// The immediate's bits for an operand of type `type`, or an error message (see parser_tables.cpp).
std::optional<uint64_t> encode_literal(const Literal& lit, Type type, std::string* error);

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
    Type type = Type::None;
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

struct Label {
    uint32_t instr = 0; // the instruction it stands before
    uint32_t line = 0;  // where it is defined
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

// One .loc as its inlining chain needs it: the position, the function it is in (a .debug_str label
// and offset; empty for the function being parsed), and the record of the position it was
// inlined at.
constexpr uint32_t kNoLoc = UINT32_MAX;
struct LocRecord {
    LocKey at;
    std::string_view label; // `function_name LABEL[+offset]`; "" when the .loc names none
    uint64_t offset = 0;
    uint32_t parent = kNoLoc; // FunctionState::locs index of the inlined_at position
};
constexpr size_t kMaxInlineDepth = 64; // chains longer than this are cut (a malformed file's loops)

// An instruction's chain before names and files are known (the .debug_str section and the .file
// directives come after the functions): positions innermost first, the last in the function itself.
struct RawPosition {
    uint32_t file = 0, line = 0;
    std::string_view label;
    uint64_t offset = 0;
};
struct PendingChains {
    size_t function = 0;                          // Module::functions index
    std::vector<std::vector<RawPosition>> chains; // Instruction::inlined - 1 indexes them until resolved
};

// Everything about the function being parsed.
struct FunctionState {
    Function fn;
    Scope names;
    std::unordered_map<std::string_view, Label> labels;
    std::vector<LabelRef> label_refs;
    std::vector<SharedVar> shared; // function-scope .shared, in declaration order
    std::vector<SharedRef> shared_refs;
    uint64_t local_bytes = 0;
    uint64_t param_bytes = 0;
    uint64_t return_param_bytes = 0;
    uint64_t call_param_bytes = 0;
    SourcePos loc;                // current .loc (its own position, however deep it was inlined)
    uint32_t loc_record = kNoLoc; // locs index of the current .loc when inlined, else kNoLoc
    std::vector<LocRecord> locs;  // the inlined .locs and the positions they were inlined at
    std::unordered_map<LocKey, uint32_t, LocKeyHash> loc_latest; // a position -> its latest locs record
    std::unordered_map<uint32_t, uint32_t> chain_of_record;      // locs index -> pending chain index + 1
    std::vector<std::vector<RawPosition>> chains;                // this function's pending chains
};

// =================================================================================================
// [SECTION] Statements, modifiers, parsed operands
// =================================================================================================

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

    // A modifier family is a table of {spelling, value} pairs (e.g. kRoundings).
    // take_all: takes every part the table names, in table order; `out` = the value of the last one
    // taken. Returns how many were taken (more than one is an error the caller words).
    template <typename Table, typename T> int take_all(const Table& table, T& out) {
        int taken = 0;
        for (const auto& [name, value] : table) {
            if (take(name)) {
                out = value;
                ++taken;
            }
        }
        return taken;
    }
    // take_first: takes only the first table entry (in table order) that is a part; false when none
    // is (any other entry present stays for check_leftovers to name).
    template <typename Table, typename T> bool take_first(const Table& table, T& out) {
        for (const auto& [name, value] : table) {
            if (take(name)) {
                out = value;
                return true;
            }
        }
        return false;
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
// [SECTION] Parser
// =================================================================================================

// One parse of one module. Members are grouped by the file that defines them.
class Parser {
  public:
    Parser(std::string_view text, const std::string& source_name)
        : text_(text), source_name_(source_name), tokens_(tokenize(text, source_name)) {}

    Module run();

  private:
    // --- token cursor (parser.cpp) ---
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

    // --- errors (parser.cpp) ---
    [[noreturn]] void fail(uint32_t line, const std::string& what) const;
    [[noreturn]] void fail_at(const Token& token, const std::string& what) const { fail(token.line, what); }
    std::string line_text(uint32_t line) const;
    std::string join_tokens(size_t begin, size_t end) const;

    // --- module level (parser.cpp) ---
    void parse_module_statement();
    void parse_linkage_declaration();
    void skip_section();
    void parse_file_directive();
    void parse_pragma();
    void declare_module_name(const Token& at, std::string_view name, const Symbol& symbol);

    // --- variables (parser_variables.cpp) ---
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
    uint32_t expect_align(const Token& directive);
    SharedVar shared_var(const VarDecl& decl, bool is_extern, const Token& at) const;
    void parse_module_variable(const Token& space_token, bool is_extern);
    void parse_function_variable(FunctionState& st, const Token& space_token, bool is_extern);

    // --- functions (parser_function.cpp; finish_function: parser_layout.cpp) ---
    void parse_function(const Token& kind_token, bool is_extern);
    void parse_param_list(FunctionState& st, bool is_return);
    void parse_performance_directives();
    void parse_body(FunctionState& st);
    void parse_reg_decl(FunctionState& st);
    Type take_register_type();
    void declare_register(FunctionState& st, const Token& at, std::string_view name, Type type);
    void declare_local_name(FunctionState& st, const Token& at, std::string_view name, const Symbol& symbol);
    void parse_loc(FunctionState* st);
    uint32_t pending_chain(FunctionState& st); // the current .loc's chain (Instruction::inlined), 0 if none
    void parse_debug_str();                    // `.section .debug_str { LABEL: .b8 ... }`
    void resolve_inlining();                   // at the module's end: names, files, toolkit frames
    void finish_function(FunctionState& st);

    // --- statements, dispatch, shared modifier helpers (parser_statement.cpp) ---
    void parse_instruction(FunctionState& st);
    void decode(Instruction& inst, Modifiers& mods);
    Type take_type(Modifiers& mods, bool required = true);
    std::optional<Space> take_space(Modifiers& mods);
    std::optional<MemScope> take_scope(Modifiers& mods);
    enum class HintKind : uint8_t { Load, Store, Atomic };
    bool take_cache_hints(Modifiers& mods, HintKind kind);
    void check_policy_operand(size_t index);
    // vote/shfl: only the .sync forms exist on sm_70+ (the old ones are refused with the fix).
    void require_sync(Modifiers& mods, const char* family) const;
    void check_leftovers(const Modifiers& mods) const;
    [[noreturn]] void fail_part(const char* what,
                                std::string_view part) const; // "<what> '.<part>' in '<op>'"
    void check_vector_operand(const Instruction& inst, uint8_t slot) const;

    // --- operands (parser_operands.cpp) ---
    const Symbol* lookup(std::string_view name) const;
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
    void check_address_space(const Instruction& inst, Space sym_space, std::string_view name) const;
    void expect_operands(size_t min, size_t max) const;
    std::pair<Range, std::optional<Range>> split_bar(Range r) const;

    // --- instruction families (decode_*.cpp), one per opcodes.h Decoder ---
    void decode_mov(Instruction& inst, Modifiers& mods);                // decode_data.cpp
    void decode_cvt(Instruction& inst, Modifiers& mods);                //
    void decode_cvta(Instruction& inst, Modifiers& mods);
    void decode_isspacep(Instruction& inst, Modifiers& mods);               //
    void decode_ld_st(Instruction& inst, Modifiers& mods, bool load);   //
    void decode_selp(Instruction& inst, Modifiers& mods);               //
    void decode_arith(Instruction& inst, Modifiers& mods);              // decode_arith.cpp
    void decode_logic(Instruction& inst, Modifiers& mods);              //
    void decode_bits(Instruction& inst, Modifiers& mods);               //
    void decode_setp(Instruction& inst, Modifiers& mods);               //
    void decode_atom_red(Instruction& inst, Modifiers& mods, bool red); // decode_atomics.cpp
    void decode_fence(Instruction& inst, Modifiers& mods);              //
    void decode_bar(Instruction& inst, Modifiers& mods);                // decode_control.cpp
    void decode_vote(Instruction& inst, Modifiers& mods);               //
    void decode_shfl(Instruction& inst, Modifiers& mods);               //
    void decode_redux(Instruction& inst, Modifiers& mods);              //
    void decode_match(Instruction& inst, Modifiers& mods);              //
    void decode_elect(Instruction& inst, Modifiers& mods);              //
    void decode_bar_red(Instruction& inst, Modifiers& mods);            //
    void decode_control(Instruction& inst, Modifiers& mods);            //

    std::string_view text_;
    const std::string& source_name_;
    std::vector<Token> tokens_;
    size_t pos_ = 0;

    Module module_;
    NameMap<Symbol> module_names_;
    std::vector<SharedVar> module_shared_;

    // Current function and instruction being decoded (null outside them): errors quote its text.
    FunctionState* fn_ = nullptr;
    const Stmt* stmt_ = nullptr;
    uint32_t max_source_file_ = 0;
    // Inlining chains waiting for the .debug_str names and the .file names (resolve_inlining).
    std::vector<PendingChains> pending_chains_;
    std::vector<uint8_t> debug_str_;                              // the .debug_str section's bytes
    std::unordered_map<std::string_view, uint64_t> debug_labels_; // its labels -> byte offsets
};

} // namespace synclab::ptx::detail
