#include "cli/kernel_args.h"

#include "cli/args.h"

#include <bit>
#include <cstring>
#include <sstream>

namespace synclab::cli {

namespace {

struct TypeName {
    const char* name;
    ElemType type;
};
constexpr TypeName kTypeNames[] = {
    {"i8", ElemType::I8},   {"u8", ElemType::U8},      {"i16", ElemType::I16}, {"u16", ElemType::U16},
    {"i32", ElemType::I32}, {"int", ElemType::I32},    {"u32", ElemType::U32}, {"uint", ElemType::U32},
    {"i64", ElemType::I64}, {"u64", ElemType::U64},    {"f32", ElemType::F32}, {"float", ElemType::F32},
    {"f64", ElemType::F64}, {"double", ElemType::F64},
};

std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> parts;
    std::string cur;
    for (char c : s) {
        if (c == sep) {
            parts.push_back(cur);
            cur.clear();
        } else {
            cur += c;
        }
    }
    parts.push_back(cur);
    return parts;
}

// Writes `value` (an integer or float as double) as element `i` of the buffer.
void put(std::vector<uint8_t>& bytes, ElemType t, uint64_t i, double value) {
    uint8_t* p = bytes.data() + i * elem_size(t);
    switch (t) {
    case ElemType::F32: {
        const float f = static_cast<float>(value);
        std::memcpy(p, &f, 4);
        break;
    }
    case ElemType::F64:
        std::memcpy(p, &value, 8);
        break;
    default: {
        const int64_t v = static_cast<int64_t>(value);
        std::memcpy(p, &v, elem_size(t)); // little-endian: the low bytes
        break;
    }
    }
}

uint64_t splitmix(uint64_t& state) {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

} // namespace

uint32_t elem_size(ElemType t) {
    switch (t) {
    case ElemType::I8:
    case ElemType::U8:
        return 1;
    case ElemType::I16:
    case ElemType::U16:
        return 2;
    case ElemType::I32:
    case ElemType::U32:
    case ElemType::F32:
        return 4;
    default:
        return 8;
    }
}

const char* to_string(ElemType t) {
    for (const TypeName& n : kTypeNames)
        if (n.type == t) return n.name;
    return "?";
}

ArgSpec parse_arg_spec(const std::string& text, size_t position) {
    const std::string where = "--arg #" + std::to_string(position + 1) + " ('" + text + "')";
    ArgSpec spec;
    if (text.rfind("buf:", 0) != 0) {
        if (text.empty()) throw UsageError(where + ": empty value");
        spec.scalar_text = text;
        return spec;
    }
    spec.is_buffer = true;
    const std::vector<std::string> parts = split(text, ':');
    if (parts.size() < 3 || parts.size() > 4)
        throw UsageError(where + ": a buffer is buf:TYPE:COUNT[:zero|iota|random|const=V]");
    bool known = false;
    for (const TypeName& n : kTypeNames)
        if (parts[1] == n.name) spec.buffer.type = n.type, known = true;
    if (!known)
        throw UsageError(where + ": unknown element type '" + parts[1] +
                         "' (i8 u8 i16 u16 i32 u32 i64 u64 f32 f64)");
    spec.buffer.count = parse_uint(parts[2], where + " COUNT", 1, uint64_t(1) << 28);
    if (parts.size() == 4) {
        const std::string& init = parts[3];
        if (init == "zero")
            spec.buffer.init = BufferSpec::Init::Zero;
        else if (init == "iota")
            spec.buffer.init = BufferSpec::Init::Iota;
        else if (init == "random")
            spec.buffer.init = BufferSpec::Init::Random;
        else if (init.rfind("const=", 0) == 0) {
            spec.buffer.init = BufferSpec::Init::Const;
            spec.buffer.constant = parse_double(init.substr(6), where + " const");
        } else {
            throw UsageError(where + ": unknown initialiser '" + init + "' (zero, iota, random, const=V)");
        }
    }
    return spec;
}

scenario::Inputs build_inputs(const ptx::Function& fn, const std::vector<ArgSpec>& specs, uint64_t seed) {
    if (specs.size() != fn.params.size())
        throw UsageError("kernel " + fn.name + " takes " + std::to_string(fn.params.size()) +
                         " parameters, but " + std::to_string(specs.size()) + " --arg were given");
    scenario::Inputs inputs;
    uint64_t rng = seed * 0x9e3779b97f4a7c15ull + 17;
    for (size_t i = 0; i < specs.size(); ++i) {
        const ArgSpec& s = specs[i];
        const ptx::Param& p = fn.params[i];
        const std::string where = "--arg #" + std::to_string(i + 1) + " (parameter " + p.name + ")";
        if (s.is_buffer) {
            if (p.size != 8)
                throw UsageError(where + " is a " + std::to_string(p.size) + "-byte scalar, not a pointer");
            sim::Buffer b;
            b.name = "arg" + std::to_string(i);
            b.bytes.assign(s.buffer.count * elem_size(s.buffer.type), 0);
            for (uint64_t e = 0; e < s.buffer.count; ++e) {
                switch (s.buffer.init) {
                case BufferSpec::Init::Zero:
                    break;
                case BufferSpec::Init::Iota:
                    put(b.bytes, s.buffer.type, e, static_cast<double>(e));
                    break;
                case BufferSpec::Init::Const:
                    put(b.bytes, s.buffer.type, e, s.buffer.constant);
                    break;
                case BufferSpec::Init::Random:
                    // Small integers (0..99), exact in every element type, so float sums stay exact.
                    put(b.bytes, s.buffer.type, e, static_cast<double>(splitmix(rng) % 100));
                    break;
                }
            }
            inputs.args.push_back(sim::KernelArg::pointer(static_cast<uint32_t>(inputs.buffers.size())));
            inputs.buffers.push_back(std::move(b));
            continue;
        }
        uint64_t bits = 0;
        if (p.type == ptx::Type::F32)
            bits = std::bit_cast<uint32_t>(static_cast<float>(parse_double(s.scalar_text, where)));
        else if (p.type == ptx::Type::F64)
            bits = std::bit_cast<uint64_t>(parse_double(s.scalar_text, where));
        else
            bits = static_cast<uint64_t>(parse_int(s.scalar_text, where));
        inputs.args.push_back(sim::KernelArg::scalar(bits));
    }
    return inputs;
}

std::string format_buffer(const std::vector<uint8_t>& bytes, ElemType t, size_t per_line) {
    std::ostringstream os;
    const size_t n = bytes.size() / elem_size(t);
    for (size_t i = 0; i < n; ++i) {
        if (i % per_line == 0) os << (i ? "\n" : "") << "[" << i << "]";
        const uint8_t* p = bytes.data() + i * elem_size(t);
        os << ' ';
        switch (t) {
        case ElemType::I8:
            os << int(int8_t(p[0]));
            break;
        case ElemType::U8:
            os << int(p[0]);
            break;
        case ElemType::I16: {
            int16_t v;
            std::memcpy(&v, p, 2);
            os << v;
            break;
        }
        case ElemType::U16: {
            uint16_t v;
            std::memcpy(&v, p, 2);
            os << v;
            break;
        }
        case ElemType::I32: {
            int32_t v;
            std::memcpy(&v, p, 4);
            os << v;
            break;
        }
        case ElemType::U32: {
            uint32_t v;
            std::memcpy(&v, p, 4);
            os << v;
            break;
        }
        case ElemType::I64: {
            int64_t v;
            std::memcpy(&v, p, 8);
            os << v;
            break;
        }
        case ElemType::U64: {
            uint64_t v;
            std::memcpy(&v, p, 8);
            os << v;
            break;
        }
        case ElemType::F32: {
            float v;
            std::memcpy(&v, p, 4);
            os << v;
            break;
        }
        case ElemType::F64: {
            double v;
            std::memcpy(&v, p, 8);
            os << v;
            break;
        }
        }
    }
    os << "\n";
    return os.str();
}

} // namespace synclab::cli
