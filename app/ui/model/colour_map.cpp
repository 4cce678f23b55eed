#include "ui/model/colour_map.h"

#include <algorithm>
#include <cmath>

namespace synclab::ui::heat {

namespace {
constexpr Rgb hex(uint32_t v) {
    return Rgb{float((v >> 16) & 0xff) / 255.0f, float((v >> 8) & 0xff) / 255.0f, float(v & 0xff) / 255.0f};
}
// Keep in step with the shader's use: u_stops[kStops] (shaders/heatmap.frag).
constexpr std::array<Rgb, kStops> kViridis = {hex(0x440154), hex(0x472d7b), hex(0x3b528b),
                                              hex(0x2c728e), hex(0x21918c), hex(0x28ae80),
                                              hex(0x5ec962), hex(0xaadc32), hex(0xfde725)};
constexpr float kLogFloor = 1e-6f;
} // namespace

const std::array<Rgb, kStops>& stops() {
    return kViridis;
}

Rgb colour(float t) {
    t = std::clamp(std::isfinite(t) ? t : 0.0f, 0.0f, 1.0f);
    const float x = t * float(kStops - 1);
    const int i = std::min(int(std::floor(x)), kStops - 2);
    const float f = x - float(i);
    const Rgb &a = kViridis[size_t(i)], &b = kViridis[size_t(i) + 1];
    return Rgb{a.r + (b.r - a.r) * f, a.g + (b.g - a.g) * f, a.b + (b.b - a.b) * f};
}

uint32_t colour_u32(float t) {
    const Rgb c = colour(t);
    const auto byte = [](float v) { return uint32_t(std::lround(std::clamp(v, 0.0f, 1.0f) * 255.0f)); };
    return 0xff000000u | (byte(c.b) << 16) | (byte(c.g) << 8) | byte(c.r);
}

float normalise(float v, float lo, float hi, bool log_scale) {
    if (!(hi > lo)) return 1.0f;
    float t;
    if (log_scale) {
        const float l = std::max(lo, kLogFloor);
        if (!(hi > l)) return 1.0f;
        t = (std::log(std::max(v, l)) - std::log(l)) / (std::log(hi) - std::log(l));
    } else {
        t = (v - lo) / (hi - lo);
    }
    return std::clamp(t, 0.0f, 1.0f);
}

float value_at(float t, float lo, float hi, bool log_scale) {
    t = std::clamp(t, 0.0f, 1.0f);
    if (log_scale) {
        const float l = std::max(lo, kLogFloor);
        if (!(hi > l)) return hi;
        return std::exp(std::log(l) + t * (std::log(hi) - std::log(l)));
    }
    return lo + t * (hi - lo);
}

} // namespace synclab::ui::heat
