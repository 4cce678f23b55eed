// Presenter compare's "the barrier, and without it": over the broken kernel's source, the correct
// run's barrier line(s) from the same source file, each with the nearest lines around it, lit in the
// grey of the barrier waits in the correct run's timeline, under the correct variant's name. The
// room sees the line that makes the correct run wait next to the lines that race without it.
// Nothing is shown when the correct run passed no barrier (a lesson whose fix is an atomic or a
// fence): the source column is then the broken kernel's alone.
#pragma once

#include "ui/core/app_state.h"

#include <imgui.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

struct ImFont;

namespace synclab::ui {

// The CUDA lines (1-based) where threads of `trace` arrived at a barrier, in line order, at most `max`.
std::vector<uint32_t> barrier_lines(const trace::Trace& trace, size_t max = 2);

// The lines an excerpt shows around `barriers` (1-based lines of `lines`): each barrier line with the
// nearest non-blank line before it and after it; in order, each once; lines past the text left out.
std::vector<uint32_t> excerpt_lines(const std::vector<std::string_view>& lines,
                                    const std::vector<uint32_t>& barriers);

class BarrierExcerpt {
  public:
    // The font for code (the App's monospace font; nullptr: the current font).
    void set_mono_font(ImFont* font) { mono_font_ = font; }
    // The height draw() takes for the correct run `correct` at the current font, 0 when there is
    // nothing to show (no run, no barrier, no source text).
    float height(const AppState& state, const RunRecord* correct);
    // Draws into the current window (its width): the variant's name, then the rows.
    void draw(const AppState& state, const RunRecord& correct);
    // Presenter compare's source column: where there is something to show, draws it in a child of
    // its own at the top of the current window, a separator under it, and opens a child for the rest
    // of the window (the broken kernel's source), which end_above() closes; returns whether it did.
    bool begin_above(const AppState& state, const RunRecord* correct);
    void end_above() { ImGui::EndChild(); }
    // The excerpt's child as last drawn by begin_above (screen x0, y0, x1, y1).
    ImVec4 rect() const { return rect_; }

  private:
    // The rows of the record seen last (scanning a trace's events once per record, not per frame).
    void update(const AppState& state, const RunRecord& correct);

    ImFont* mono_font_ = nullptr;
    uint64_t serial_ = UINT64_MAX;
    const trace::Trace* trace_ = nullptr;
    std::string text_;            // the CUDA source the lines come from
    std::vector<uint32_t> lines_; // the rows: 1-based lines of text_
    std::vector<uint32_t> barriers_;
    ImVec4 rect_{0, 0, 0, 0};
};

} // namespace synclab::ui
