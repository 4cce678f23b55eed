// Draws a HeatGrid through the heatmap shaders (shaders/heatmap.vert, .frag) into a texture of its
// own (an FBO), which the view shows with ImGui::Image: drawing happens while the frame is built,
// outside ImGui's renderer, so nothing depends on how the ImGui backend sets up its state, and the
// same path works on Mesa llvmpipe and on a real driver. The cells are one R32F texture, uploaded
// only when the grid changes. Every GL state it touches is put back (HOUSE_STYLE: a backend restores
// what it changes). Needs a current GL 3.3 core context (the Shell's).
#pragma once

#include "ui/core/heatmap_model.h"

#include <cstdint>
#include <string>

namespace synclab::ui {

struct HeatmapDraw {
    // The part of the grid in view, in grid fractions (u: columns, v: rows, v0 the top row).
    float u0 = 0, v0 = 0, u1 = 1, v1 = 1;
    float lo = 0, hi = 1;       // the colour scale's range
    bool log_scale = false;
    uint32_t empty_rgb = 0x202020; // RRGGBB of cells without data
};

class HeatmapRenderer {
  public:
    HeatmapRenderer() = default;
    ~HeatmapRenderer();
    HeatmapRenderer(const HeatmapRenderer&) = delete;
    HeatmapRenderer& operator=(const HeatmapRenderer&) = delete;

    // Compiles and links the shaders on first use; false (with error()) when they do not.
    bool ready();
    // The compile or link error with the driver's log and the shader file's name, "" when fine.
    const std::string& error() const { return error_; }

    // Uploads the grid's values (call when the grid changed; cheap to skip otherwise).
    void upload(const HeatGrid& grid);
    // Renders the uploaded grid at width x height pixels; returns the GL texture to show (0 when
    // not ready). Shown with ImGui::Image's default uvs, v0's row is at the top: the quad puts it at
    // the FBO's first texel row, which ImGui's uv (0, 0) reads.
    uint32_t render(int width, int height, const HeatmapDraw& draw);

    // The upload count, for tests that check re-uploads happen only on change.
    uint64_t uploads() const { return uploads_; }

  private:
    bool build_program();
    void release();

    struct Gl {
        uint32_t program = 0;
        uint32_t vao = 0;
        uint32_t cells = 0;   // R32F texture of the grid
        uint32_t fbo = 0;
        uint32_t target = 0;  // RGBA8 texture the FBO draws into
        int target_w = 0, target_h = 0;
        int cols = 0, rows = 0;
        int u_view = -1, u_cells = -1, u_stops = -1, u_range = -1, u_log = -1, u_empty = -1, u_cell_px = -1,
            u_grid_size = -1;
    } gl_;
    bool tried_ = false;
    std::string error_;
    uint64_t uploads_ = 0;
};

} // namespace synclab::ui
