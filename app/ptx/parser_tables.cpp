// PTX parser: name tables (types, state spaces, scopes, special registers, performance directives)
// and literals (integer,
// hex float and decimal spellings, and their encoding for an operand's type).
//
// Index
//   [SECTION] Tables: types, spaces, scopes, special registers
//   [SECTION] Literals
#include "ptx/parser_impl.h"

#include <bit>
#include <charconv>

namespace synclab::ptx::detail {

// =================================================================================================
// [SECTION] Tables: types, spaces, scopes, special registers, performance directives
// =================================================================================================

namespace {

// The enumerators First..Last of E by their spelling in ir.cpp's to_string, so that the parser
// reads exactly the names the IR prints (Last: E's last enumerator).
template <typename E, E First, E Last> std::optional<E> from_spelling(std::string_view name) {
    constexpr size_t kCount = static_cast<size_t>(Last) - static_cast<size_t>(First) + 1;
    static const auto kTable = [] {
        std::array<std::pair<std::string_view, E>, kCount> table{};
        for (size_t i = 0; i < kCount; ++i) {
            const auto value = static_cast<E>(static_cast<size_t>(First) + i);
            table[i] = {to_string(value), value};
        }
        return table;
    }();
    for (const auto& [spelling, value] : kTable) {
        if (spelling == name) return value;
    }
    return std::nullopt;
}

} // namespace

std::optional<Type> type_from_name(std::string_view name) {
    return from_spelling<Type, Type::Pred, Type::F64>(name); // every type but None
}

// PTX types that exist but that the simulator does not model; named in error messages.
bool is_unsupported_type_name(std::string_view name) {
    static constexpr std::string_view kNames[] = {
        "f16x2", "bf16",  "bf16x2", "b128", "tf32", "e4m3",  "e5m2",  "e4m3x2", "e5m2x2", "e2m1",   "e2m3",
        "e3m2",  "ue8m0", "b1",     "s4",   "u4",   "s16x2", "u16x2", "e2m1x2", "e2m3x2", "e3m2x2",
    };
    return std::find(std::begin(kNames), std::end(kNames), name) != std::end(kNames);
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
    return from_spelling<SpecialReg, SpecialReg::TidX, SpecialReg::Envreg31>(name);
}

const PerformanceDirective* find_performance_directive(std::string_view name) {
    static constexpr PerformanceDirective kDirectives[] = {
        {".maxntid", true},        {".reqntid", true},   {".minnctapersm", true},
        {".maxnctapersm", true},   {".maxnreg", true},   {".reqnctapercluster", true},
        {".maxclusterrank", true}, {".noreturn", false}, {".explicitcluster", false},
    };
    for (const PerformanceDirective& directive : kDirectives) {
        if (directive.name == name) return &directive;
    }
    return nullptr;
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

// =================================================================================================
// [SECTION] Literals
// =================================================================================================

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
    // 0f + 8 hex digits: the bits of an .f32; 0d + 16 hex digits: the bits of an .f64.
    const bool f32_bits = s.size() == 10 && s[0] == '0' && (s[1] == 'f' || s[1] == 'F');
    const bool f64_bits = s.size() == 18 && s[0] == '0' && (s[1] == 'd' || s[1] == 'D');
    if (f32_bits || f64_bits) {
        lit.kind = f32_bits ? Literal::Kind::F32Bits : Literal::Kind::F64Bits;
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

namespace {

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

} // namespace

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

} // namespace synclab::ptx::detail
