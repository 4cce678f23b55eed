// The heatmaps' colour map (no ImGui, no GL): one table of stops, cold to hot, that the fragment
// shader receives as a uniform array and the legend and the GUI tests read here, so the three always
// agree. The stops are viridis's (perceptually uniform, readable by the colour-blind, and its dark
// end is not the theme's background, which marks cells without data).
#pragma once

#include <array>
#include <cstdint>

namespace synclab::ui::heat {

struct Rgb {
    float r = 0, g = 0, b = 0; // 0..1
};

constexpr int kStops = 9;
const std::array<Rgb, kStops>& stops();

// The colour at t in [0, 1] (clamped), interpolated between stops as the shader does.
Rgb colour(float t);
// The same packed as ImGui's IM_COL32 (0xAABBGGRR), opaque.
uint32_t colour_u32(float t);

// Where v lies in [lo, hi], 0..1 (clamped), on a linear or a log scale (log: lo is raised to a tiny
// positive number). A range with hi <= lo (every cell the same) gives 1: the data is all "hot".
float normalise(float v, float lo, float hi, bool log_scale);
// The inverse, for the legend's tick labels.
float value_at(float t, float lo, float hi, bool log_scale);

} // namespace synclab::ui::heat
