#include "launch/launch.h"

#include <bit>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <sstream>

namespace synclab::launch {

namespace {

struct TypeName {
    const char* name;
    ElemType type;
};
// The first name of each type is its canonical spelling (to_string); the C names are aliases.
constexpr TypeName kTypeNames[] = {
    {"i8", ElemType::I8},   {"u8", ElemType::U8},      {"i16", ElemType::I16}, {"u16", ElemType::U16},
    {"i32", ElemType::I32}, {"int", ElemType::I32},    {"u32", ElemType::U32}, {"uint", ElemType::U32},
    {"i64", ElemType::I64}, {"u64", ElemType::U64},    {"f32", ElemType::F32}, {"float", ElemType::F32},
    {"f64", ElemType::F64}, {"double", ElemType::F64},
};

std::vector<std::string_view> split(std::string_view s, char sep) {
    std::vector<std::string_view> parts;
    size_t start = 0;
    while (true) {
        const size_t at = s.find(sep, start);
        parts.push_back(s.substr(start, at == std::string_view::npos ? std::string_view::npos : at - start));
        if (at == std::string_view::npos) return parts;
        start = at + 1;
    }
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

// Writes the whole number `value` as element `i`: integer types take its low bytes (two's
// complement, little-endian), float types its value (exact within the ranges parse checks).
void put_whole(std::vector<uint8_t>& bytes, ElemType t, uint64_t i, int64_t value) {
    if (is_float(t)) return put(bytes, t, i, static_cast<double>(value));
    std::memcpy(bytes.data() + i * elem_size(t), &value, elem_size(t));
}

// The whole numbers an element type holds exactly (random=LO..HI must stay inside them). Floats: the
// integers up to the mantissa's reach; u64: up to INT64_MAX, since LO and HI are 64-bit signed.
struct WholeRange {
    int64_t lo, hi;
};
WholeRange whole_range(ElemType t) {
    switch (t) {
    case ElemType::I8:
        return {INT8_MIN, INT8_MAX};
    case ElemType::U8:
        return {0, UINT8_MAX};
    case ElemType::I16:
        return {INT16_MIN, INT16_MAX};
    case ElemType::U16:
        return {0, UINT16_MAX};
    case ElemType::I32:
        return {INT32_MIN, INT32_MAX};
    case ElemType::U32:
        return {0, UINT32_MAX};
    case ElemType::I64:
        return {INT64_MIN, INT64_MAX};
    case ElemType::U64:
        return {0, INT64_MAX};
    case ElemType::F32:
        return {-(int64_t(1) << 24), int64_t(1) << 24};
    case ElemType::F64:
        return {-(int64_t(1) << 53), int64_t(1) << 53};
    }
    return {0, 0};
}

int64_t parse_whole(std::string_view text, const char* what) {
    const std::string s(text);
    errno = 0;
    char* end = nullptr;
    const long long v = std::strtoll(s.c_str(), &end, 10);
    if (s.empty() || std::isspace(static_cast<unsigned char>(s[0])) || errno == ERANGE || *end != '\0')
        throw SpecError(std::string(what) + " must be a whole number, got '" + s + "'");
    return v;
}

// "LO..HI" of random=LO..HI, checked against what `type` holds.
void parse_random_range(std::string_view text, ElemType type, BufferSpec& spec) {
    const size_t dots = text.find("..");
    if (dots == std::string_view::npos)
        throw SpecError("random=LO..HI needs two whole numbers, got 'random=" + std::string(text) + "'");
    spec.random_lo = parse_whole(text.substr(0, dots), "random=LO..HI: LO");
    spec.random_hi = parse_whole(text.substr(dots + 2), "random=LO..HI: HI");
    if (spec.random_lo > spec.random_hi)
        throw SpecError("random=LO..HI needs LO <= HI, got random=" + std::string(text));
    const WholeRange r = whole_range(type);
    if (spec.random_lo < r.lo || spec.random_hi > r.hi)
        throw SpecError("random=" + std::string(text) + " does not fit " + to_string(type) +
                        " (whole numbers " + std::to_string(r.lo) + ".." + std::to_string(r.hi) +
                        " are exact in it)");
}

uint64_t splitmix(uint64_t& state) {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

// One draw of random=LO..HI. The span is computed unsigned, so the full i64 range (span 2^64, which
// wraps to 0) takes the draw as it is. Plain `random` (0..99) is draw % 100, as it always was.
int64_t random_whole(const BufferSpec& spec, uint64_t& rng_state) {
    const uint64_t span = uint64_t(spec.random_hi) - uint64_t(spec.random_lo) + 1;
    const uint64_t draw = splitmix(rng_state);
    return static_cast<int64_t>(uint64_t(spec.random_lo) + (span == 0 ? draw : draw % span));
}

uint64_t parse_count(std::string_view text) {
    const std::string s(text);
    if (s.empty() || !std::isdigit(static_cast<unsigned char>(s[0])))
        throw SpecError("COUNT must be a whole number, got '" + s + "'");
    errno = 0;
    char* end = nullptr;
    const unsigned long long v = std::strtoull(s.c_str(), &end, 10);
    if (errno == ERANGE || *end != '\0') throw SpecError("COUNT must be a whole number, got '" + s + "'");
    if (v < 1 || v > kMaxBufferElements)
        throw SpecError("COUNT must be between 1 and " + std::to_string(kMaxBufferElements) + ", got " + s);
    return v;
}

double parse_number(std::string_view text, const char* what) {
    const std::string s(text);
    errno = 0;
    char* end = nullptr;
    const double v = std::strtod(s.c_str(), &end);
    if (s.empty() || errno == ERANGE || *end != '\0' || !std::isfinite(v))
        throw SpecError(std::string(what) + " must be a number, got '" + s + "'");
    return v;
}

} // namespace

std::string launch_problem(const Dim3& grid, const Dim3& block) {
    auto shape = [](const Dim3& d) {
        return std::to_string(d.x) + "x" + std::to_string(d.y) + "x" + std::to_string(d.z);
    };
    if (grid.x == 0 || grid.y == 0 || grid.z == 0 || block.x == 0 || block.y == 0 || block.z == 0)
        return "grid " + shape(grid) + ", block " + shape(block) + ": every dimension must be at least 1";
    // Each factor is at most 2^32 - 1, so a product of two fits in 64 bits; the third is checked.
    const uint64_t block_xy = uint64_t(block.x) * block.y;
    if (block_xy > kMaxThreadsPerBlock || block_xy * block.z > kMaxThreadsPerBlock)
        return "block " + shape(block) + " has more than " + std::to_string(kMaxThreadsPerBlock) +
               " threads; CUDA allows at most " + std::to_string(kMaxThreadsPerBlock);
    if (block.z > kMaxBlockZ) return "block " + shape(block) + ": the block's z dimension is at most 64";
    if (grid.x > kMaxGridX) return "grid " + shape(grid) + ": the grid's x dimension is at most 2147483647";
    if (grid.y > kMaxGridYZ || grid.z > kMaxGridYZ)
        return "grid " + shape(grid) + ": the grid's y and z dimensions are at most 65535";
    return "";
}

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

double element_value(const uint8_t* p, ElemType type) {
    const auto as = [p]<typename T>(T) {
        T v;
        std::memcpy(&v, p, sizeof v);
        return static_cast<double>(v);
    };
    switch (type) {
    case ElemType::I8:
        return as(int8_t{});
    case ElemType::U8:
        return as(uint8_t{});
    case ElemType::I16:
        return as(int16_t{});
    case ElemType::U16:
        return as(uint16_t{});
    case ElemType::I32:
        return as(int32_t{});
    case ElemType::U32:
        return as(uint32_t{});
    case ElemType::I64:
        return as(int64_t{});
    case ElemType::U64:
        return as(uint64_t{});
    case ElemType::F32:
        return as(float{});
    case ElemType::F64:
        return as(double{});
    }
    return 0;
}

const char* to_string(ElemType t) {
    for (const TypeName& n : kTypeNames)
        if (n.type == t) return n.name;
    return "?";
}

const char* ptx_type(ElemType t) {
    switch (t) {
    case ElemType::I8:
        return "s8";
    case ElemType::U8:
        return "u8";
    case ElemType::I16:
        return "s16";
    case ElemType::U16:
        return "u16";
    case ElemType::I32:
        return "s32";
    case ElemType::U32:
        return "u32";
    case ElemType::I64:
        return "s64";
    case ElemType::U64:
        return "u64";
    case ElemType::F32:
        return "f32";
    case ElemType::F64:
        return "f64";
    }
    return "";
}

bool is_float(ElemType t) {
    return t == ElemType::F32 || t == ElemType::F64;
}

std::string buffer_name(const Buffer& buffer, size_t index) {
    return buffer.name.empty() ? "buffer " + std::to_string(index) : buffer.name;
}

std::vector<trace::MemoryRegion> buffer_regions(const std::vector<Buffer>& buffers,
                                                const std::vector<uint64_t>& addresses) {
    std::vector<trace::MemoryRegion> regions;
    for (size_t i = 0; i < buffers.size() && i < addresses.size(); ++i) {
        if (buffers[i].bytes.empty()) continue;
        trace::MemoryRegion r;
        r.name = buffer_name(buffers[i], i);
        r.space = trace::Space::Global;
        r.base = addresses[i];
        r.bytes = buffers[i].bytes.size();
        if (buffers[i].type) {
            r.element_type = ptx_type(*buffers[i].type);
            r.element_size = elem_size(*buffers[i].type);
        }
        regions.push_back(std::move(r));
    }
    return regions;
}

bool is_buffer_spec(std::string_view text) {
    return text.starts_with("buf:");
}

BufferSpec parse_buffer_spec(std::string_view text) {
    constexpr const char* kForm = "a buffer is buf:TYPE:COUNT[:zero|iota|random|random=LO..HI|const=V]";
    if (!is_buffer_spec(text)) throw SpecError(kForm);
    const std::vector<std::string_view> parts = split(text, ':');
    if (parts.size() < 3 || parts.size() > 4) throw SpecError(kForm);
    BufferSpec spec;
    bool known = false;
    for (const TypeName& n : kTypeNames)
        if (parts[1] == n.name) spec.type = n.type, known = true;
    if (!known)
        throw SpecError("unknown element type '" + std::string(parts[1]) +
                        "' (i8 u8 i16 u16 i32 u32 i64 u64 f32 f64)");
    spec.count = parse_count(parts[2]);
    if (parts.size() == 4) {
        const std::string_view init = parts[3];
        if (init == "zero")
            spec.init = BufferSpec::Init::Zero;
        else if (init == "iota")
            spec.init = BufferSpec::Init::Iota;
        else if (init == "random")
            spec.init = BufferSpec::Init::Random;
        else if (init.starts_with("random=")) {
            spec.init = BufferSpec::Init::Random;
            parse_random_range(init.substr(7), spec.type, spec);
        } else if (init.starts_with("const=")) {
            spec.init = BufferSpec::Init::Const;
            spec.constant = parse_number(init.substr(6), "const");
            // An integer element holds whole numbers of its range only: 2.9 or 1e30 would be
            // truncated or undefined, not what the lesson meant.
            if (!is_float(spec.type)) {
                const WholeRange r = whole_range(spec.type);
                // (2^63 itself rounds to double(INT64_MAX): refused, as int64_t cannot hold it.)
                if (spec.constant != std::floor(spec.constant) || spec.constant < double(r.lo) ||
                    spec.constant > double(r.hi) || spec.constant >= 9223372036854775808.0)
                    throw SpecError("const=" + std::string(init.substr(6)) + " is not a whole number " +
                                    std::to_string(r.lo) + ".." + std::to_string(r.hi) + " (what " +
                                    to_string(spec.type) + " holds)");
            }
        } else {
            throw SpecError("unknown initialiser '" + std::string(init) +
                            "' (zero, iota, random, random=LO..HI, const=V)");
        }
    }
    return spec;
}

std::string to_string(const BufferSpec& spec) {
    std::string out = "buf:" + std::string(to_string(spec.type)) + ":" + std::to_string(spec.count);
    switch (spec.init) {
    case BufferSpec::Init::Zero:
        break;
    case BufferSpec::Init::Iota:
        out += ":iota";
        break;
    case BufferSpec::Init::Random:
        out += ":random";
        if (spec.random_lo != 0 || spec.random_hi != 99)
            out += "=" + std::to_string(spec.random_lo) + ".." + std::to_string(spec.random_hi);
        break;
    case BufferSpec::Init::Const: {
        std::ostringstream os;
        os << spec.constant;
        out += ":const=" + os.str();
        break;
    }
    }
    return out;
}

uint64_t buffer_rng_seed(uint64_t seed) {
    return seed * 0x9e3779b97f4a7c15ull + 17;
}

Buffer make_buffer(const BufferSpec& spec, std::string name, uint64_t& rng_state) {
    Buffer b;
    b.name = std::move(name);
    b.type = spec.type;
    b.bytes.assign(spec.count * elem_size(spec.type), 0);
    for (uint64_t e = 0; e < spec.count; ++e) {
        switch (spec.init) {
        case BufferSpec::Init::Zero:
            break;
        case BufferSpec::Init::Iota:
            put(b.bytes, spec.type, e, static_cast<double>(e));
            break;
        case BufferSpec::Init::Const:
            put(b.bytes, spec.type, e, spec.constant);
            break;
        case BufferSpec::Init::Random:
            put_whole(b.bytes, spec.type, e, random_whole(spec, rng_state));
            break;
        }
    }
    return b;
}

uint64_t parse_scalar_bits(std::string_view text, bool is_f32, bool is_f64) {
    if (is_f32) return std::bit_cast<uint32_t>(static_cast<float>(parse_number(text, "the value")));
    if (is_f64) return std::bit_cast<uint64_t>(parse_number(text, "the value"));
    const std::string s(text);
    errno = 0;
    char* end = nullptr;
    const long long v = std::strtoll(s.c_str(), &end, 0);
    if (s.empty() || errno == ERANGE || *end != '\0')
        throw SpecError("the value must be an integer, got '" + s + "'");
    return static_cast<uint64_t>(v);
}

namespace {

// One element of a buffer as text.
void print_value(std::ostream& os, const uint8_t* p, ElemType t) {
    auto print = [&]<class T>(T) {
        T v;
        std::memcpy(&v, p, sizeof v);
        if constexpr (sizeof(T) == 1)
            os << int(v);
        else
            os << v;
    };
    switch (t) {
    case ElemType::I8:
        print(int8_t{});
        break;
    case ElemType::U8:
        print(uint8_t{});
        break;
    case ElemType::I16:
        print(int16_t{});
        break;
    case ElemType::U16:
        print(uint16_t{});
        break;
    case ElemType::I32:
        print(int32_t{});
        break;
    case ElemType::U32:
        print(uint32_t{});
        break;
    case ElemType::I64:
        print(int64_t{});
        break;
    case ElemType::U64:
        print(uint64_t{});
        break;
    case ElemType::F32:
        print(float{});
        break;
    case ElemType::F64:
        print(double{});
        break;
    }
}

} // namespace

std::string format_buffer(const std::vector<uint8_t>& bytes, ElemType t, size_t per_line) {
    std::ostringstream os;
    const size_t n = bytes.size() / elem_size(t);
    for (size_t i = 0; i < n; ++i) {
        if (i % per_line == 0) os << (i ? "\n" : "") << "[" << i << "]";
        os << ' ';
        print_value(os, bytes.data() + i * elem_size(t), t);
    }
    os << "\n";
    return os.str();
}

std::string format_values(const std::vector<uint8_t>& bytes, ElemType t, size_t first, size_t count) {
    std::ostringstream os;
    const size_t n = bytes.size() / elem_size(t);
    for (size_t i = first; i < first + count && i < n; ++i) {
        if (i > first) os << ',';
        print_value(os, bytes.data() + i * elem_size(t), t);
    }
    return os.str();
}

const char* to_string(MemoryModel model) {
    return model == MemoryModel::Relaxed ? "relaxed" : "sc";
}

bool parse_memory_model(std::string_view text, MemoryModel& out) {
    if (text == "sc")
        out = MemoryModel::Sc;
    else if (text == "relaxed")
        out = MemoryModel::Relaxed;
    else
        return false;
    return true;
}

} // namespace synclab::launch
