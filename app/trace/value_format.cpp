#include "trace/value_format.h"

#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace synclab::trace {

namespace {

constexpr std::array<std::string_view, 18> kTypes = {"f16x2", "bf16", "f16", "f32", "f64", "s8",
                                                     "s16",   "s32",  "s64", "u8",  "u16", "u32",
                                                     "u64",   "b8",   "b16", "b32", "b64", "pred"};

// Shortest text that reads back as the same float, with ".0" on whole numbers ("6.0", "0.1").
std::string float_text(float f) {
    if (std::isnan(f)) return "nan";
    if (std::isinf(f)) return f < 0 ? "-inf" : "inf";
    char buf[64];
    const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, f);
    std::string out(buf, ec == std::errc() ? end : buf);
    if (out.find_first_of(".en") == std::string::npos) out += ".0";
    return out;
}

// IEEE half precision to float (subnormals, infinities and NaN included).
float half_to_float(uint16_t h) {
    const uint32_t sign = (h >> 15) & 1, exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
    float magnitude = 0;
    if (exponent == 0)
        magnitude = std::ldexp(float(mantissa), -24);
    else if (exponent == 31)
        magnitude = mantissa == 0 ? INFINITY : NAN;
    else
        magnitude = std::ldexp(float(mantissa | 0x400), int(exponent) - 25);
    return sign ? -magnitude : magnitude;
}

std::string hex_text(uint32_t value, int digits) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%0*x", digits, value);
    return buf;
}

} // namespace

std::string_view value_type(std::string_view instruction) {
    const size_t end = instruction.find_first_of(" \t");
    const std::string_view opcode = instruction.substr(0, end);
    std::string_view found;
    // The last dotted part that is a type (atom.global.add.u32: "u32").
    size_t start = 0;
    while (start <= opcode.size()) {
        const size_t dot = opcode.find('.', start);
        const std::string_view part =
            opcode.substr(start, dot == std::string_view::npos ? opcode.npos : dot - start);
        for (std::string_view t : kTypes)
            if (part == t) found = t;
        if (dot == std::string_view::npos) break;
        start = dot + 1;
    }
    return found;
}

std::string format_value(std::string_view instruction, uint32_t value, uint32_t size_bytes) {
    const std::string_view type = value_type(instruction);
    const std::string low = " (low 32 bits)";
    if (type == "f32") return float_text(std::bit_cast<float>(value));
    if (type == "f16") return float_text(half_to_float(uint16_t(value)));
    if (type == "bf16") return float_text(std::bit_cast<float>(value << 16));
    if (type == "f16x2")
        return float_text(half_to_float(uint16_t(value))) + ", " +
               float_text(half_to_float(uint16_t(value >> 16)));
    if (type == "pred") return value != 0 ? "true" : "false";
    if (type == "s8") return std::to_string(int8_t(value));
    if (type == "s16") return std::to_string(int16_t(value));
    if (type == "s32") return std::to_string(int32_t(value));
    if (type == "u8") return std::to_string(uint8_t(value));
    if (type == "u16") return std::to_string(uint16_t(value));
    if (type == "u32") return std::to_string(value);
    if (type == "b8") return hex_text(value & 0xff, 2);
    if (type == "b16") return hex_text(value & 0xffff, 4);
    if (type == "b32") return hex_text(value, 8);
    if (type == "u64" || type == "s64") return std::to_string(value) + low;
    if (type == "b64" || type == "f64") return hex_text(value, 8) + low;
    return std::to_string(value) + " (" + hex_text(value, 1) + ")" + (size_bytes > 4 ? low : "");
}

std::string event_value(const Trace& trace, const Event& event) {
    if (event.site >= trace.sites.size()) return format_value("", event.value, event.size());
    return format_value(trace.sites[event.site].text, event.value, event.size());
}

} // namespace synclab::trace
