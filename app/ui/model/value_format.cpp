#include "ui/model/value_format.h"

#include <charconv>
#include <cstring>

namespace synclab::ui {

std::string element_text(const std::vector<uint8_t>& bytes, launch::ElemType type, uint64_t index) {
    const uint32_t size = launch::elem_size(type);
    if ((index + 1) * size > bytes.size()) return "";
    const uint8_t* p = bytes.data() + index * size;
    if (size <= 4) {
        uint32_t value = 0;
        std::memcpy(&value, p, size);
        return format_value(std::string("ld.") + launch::ptx_type(type), value, size);
    }
    char text[40];
    if (type == launch::ElemType::F64) {
        double d = 0;
        std::memcpy(&d, p, 8);
        const auto [end, ec] = std::to_chars(text, text + sizeof text, d);
        std::string out(text, ec == std::errc() ? end : text);
        if (out.find_first_of(".ein") == std::string::npos) out += ".0";
        return out;
    }
    uint64_t u = 0;
    std::memcpy(&u, p, 8);
    if (type == launch::ElemType::I64) return std::to_string(int64_t(u));
    return std::to_string(u);
}

} // namespace synclab::ui
