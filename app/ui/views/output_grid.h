// The output grid: a run's checked outputs (RunSummary::final_buffers of the kept repetition) drawn as
// a grid of cells, wrong ones in theme::kWrongOutput, right ones neutral, wrapped at 64 (or, in a
// narrow panel, 32) per row so that warp edges line up in columns. Hovering a cell shows its index,
// the value it got and the value the reference expected; clicking one explains where its value came
// from (analysis::explain_output) into AppState::provenance, which the source view and the timeline
// mark, and the explanation is shown under the grid.
//
// Large outputs: only the visible rows are drawn (a frame costs the cells on screen, not the
// output's size), and past kMaxGridRows rows each cell stands for a power of two of elements (red
// when any of them is wrong); the - / + buttons zoom out and back in the same way.
//
// Index
//   [SECTION] Pure part: outputs, layout, words (no ImGui)
//   [SECTION] The view
#pragma once

#include "analysis/provenance.h"
#include "ui/core/app_state.h"
#include "ui/model/value_format.h"

#include <imgui.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace synclab::ui {

// [SECTION] Pure part: outputs, layout, words (no ImGui) -------------------------------------------

// One checked output of a run, element by element: right means bytewise equal to the reference's
// value (RunSummary::expected_outputs), as the runner's check counts it.
struct GridOutput {
    std::string name; // "g_out"
    launch::ElemType type = launch::ElemType::U32;
    uint64_t count = 0;          // elements checked (the reference's)
    size_t buffer = SIZE_MAX;    // index into final_buffers (SIZE_MAX: the run gave none back)
    size_t expected = SIZE_MAX;  // index into expected_outputs
    std::vector<uint64_t> wrong; // bit i: element i is wrong (a missing element is wrong)
    uint64_t wrong_count = 0;
    uint64_t first_wrong = UINT64_MAX;

    bool is_wrong(uint64_t i) const { return i < count && ((wrong[i / 64] >> (i % 64)) & 1u) != 0; }
    // Whether any element of [begin, end) is wrong.
    bool any_wrong(uint64_t begin, uint64_t end) const;
    // Wrong elements in [begin, end).
    uint64_t wrong_in(uint64_t begin, uint64_t end) const;
};

// The checked outputs of a summary, in the order of expected_outputs; empty when nothing was checked.
std::vector<GridOutput> grid_outputs(const runner::RunSummary& summary);

// Rows past this make each cell stand for several elements.
constexpr uint64_t kMaxGridRows = 2048;
constexpr uint64_t kSmallOutput = 256;

// How elements map to cells and cells to rows. A cell holds `per_cell` consecutive elements (a
// power of two); row r holds cells [r * columns, (r + 1) * columns).
struct GridLayout {
    uint32_t columns = 64;
    uint64_t per_cell = 1;
    uint64_t cells = 0, rows = 0;
    float pitch = 8; // pixels from one cell to the next (the cell plus its gap)

    uint64_t per_row() const { return uint64_t(columns) * per_cell; }
    uint64_t cell_of(uint64_t element) const { return element / per_cell; }
    uint64_t row_of(uint64_t element) const { return cell_of(element) / columns; }
    // Elements [first, last) of a cell, clipped to `count`.
    uint64_t first(uint64_t cell) const { return cell * per_cell; }
    uint64_t last(uint64_t cell, uint64_t count) const { return std::min(count, (cell + 1) * per_cell); }
};

// The layout of `count` elements in `width` pixels: 64 columns where each cell then gets at least
// `min_pitch` pixels, else 32 (a warp per row); a small output (at most kSmallOutput elements: a few
// warps' worth) always 32, so that its cells come out twice as big rather than half a row of specks.
// The pitch is what the width gives, at most `max_pitch`. Each cell holds the fewest elements (a power of two) that keep the rows at most
// kMaxGridRows, times 2^zoom_out (the student zoomed out; stops at one row).
GridLayout grid_layout(uint64_t count, float width, float min_pitch, float max_pitch, uint32_t zoom_out = 0);

// The cell under a point (x, y in pixels from the grid's top-left corner), nullopt outside the cells.
std::optional<uint64_t> cell_at(const GridLayout& layout, float x, float y);

// "g_out: 16,384 elements, 331 wrong · 64 per row" ("... · 64 cells per row, 8 elements per cell"
// when aggregated; no row width for an output of one row).
std::string grid_caption(const GridOutput& output, const GridLayout& layout, Language language);

// The hover text of a cell: "g_out[1234]: got 12.0, expected 13.0 · wrong"; for a cell of several
// elements "g_out[1024..1031]: 2 of 8 wrong; first g_out[1027]: got 12.0, expected 13.0".
std::string cell_hover_text(const runner::RunSummary& summary, const GridOutput& output,
                            const GridLayout& layout, uint64_t cell, Language language);

// "g_out[32]" and back (ProvenanceMarks::output names the element explained).
std::string element_name(const GridOutput& output, uint64_t index);
bool parse_element_name(std::string_view text, std::string& name, uint64_t& index);

// Element `index` of `output` explained: analysis::explain_output on the record's trace at the
// element's global address (buffer_addresses[b] + index * element size), as the marks the views show
// (event indices, their CUDA lines, analysis::describe()). Without buffer addresses (a GPU run, a
// loaded trace) or outside the output, only serial, output and a text saying why.
// An explained output in words, in the shown language (analysis::describe() with ui_text's patterns).
std::string provenance_text(const trace::Trace& trace, const analysis::OutputProvenance& provenance,
                            Language language);

ProvenanceMarks explain_element(const RunRecord& record, const GridOutput& output, uint64_t index,
                                Language language);

// [SECTION] The view ------------------------------------------------------------------------------

class OutputGrid {
  public:
    // Draws into the current window. Writes state.provenance (a click on a cell) only.
    void draw(AppState& state);
    // Last frame's cells (screen x0, y0, x1, y1; zero when none were drawn), for the layout regions.
    ImVec4 cells_rect() const { return cells_rect_; }

  private:
    void refresh(const RunRecord& record);
    void draw_cells(AppState& state, const RunRecord& record, const GridOutput& output,
                    const GridLayout& layout, float height);

    uint64_t serial_ = 0; // the record outputs_ were made for
    std::vector<GridOutput> outputs_;
    size_t shown_ = 0;      // which of outputs_ is drawn
    uint32_t zoom_out_ = 0; // the - / + buttons
    // Scrolling to a row: the first wrong one of a new record, the explained one of a new explanation.
    // Applied for a few frames, because a child that has just appeared clamps the first attempt.
    uint64_t scroll_row_ = 0;
    int scroll_frames_ = 0;
    std::string seen_explained_; // ProvenanceMarks::output last scrolled to
    ImVec4 cells_rect_{};
};

} // namespace synclab::ui
