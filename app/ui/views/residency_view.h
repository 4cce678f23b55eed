// The Residency view: where and when the blocks of a simulator run were resident (Trace::residency,
// filled by the simulator's residency model). A row per SM, each block a bar from the tick it was
// admitted to the tick it retired (to the run's end when it never retired: a grid barrier's spinners);
// bars of blocks that waited for a slot in their own colour; the blocks that never became resident
// named as ranges in words under the rows ("blocks 64-4223 never started: no slot freed") and drawn
// as a red strip. A run without residency data (a GPU run, an older .slt) says so in one line.
//
// The model (ResidencyModel) is pure: no ImGui calls, so tests build it from a Trace without a
// context. Thousands of blocks stay readable and cheap: the model places each SM's blocks in slots
// (the most blocks resident on it at once) and the view draws a bar per block only when a slot gets
// a few pixels; otherwise each SM row becomes an occupancy strip (binned resident-block counts), and
// when the SMs themselves do not fit, adjacent SMs share a row.
#pragma once

#include "trace/trace.h"
#include "ui/core/app_state.h"

#include <imgui.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace synclab::ui {

// The view's colours (IM_COL32 packing, like theme.h); the GUI tests look for them by RRGGBB.
namespace residency_colour {
constexpr uint32_t pack(uint8_t r, uint8_t g, uint8_t b) {
    return uint32_t(r) | (uint32_t(g) << 8) | (uint32_t(b) << 16) | 0xFF000000u;
}
constexpr uint32_t kRan = pack(70, 150, 255);     // 4696FF: resident from the start, retired
constexpr uint32_t kWaited = pack(240, 200, 60);  // F0C83C: waited for a slot, then ran
constexpr uint32_t kStuck = pack(255, 110, 40);   // FF6E28: still resident when the run ended
constexpr uint32_t kNever = pack(230, 30, 30);    // E61E1E (theme::kDeadlock): never resident
} // namespace residency_colour

// A range of linear block indices, both ends included.
struct BlockRange {
    uint32_t first = 0, last = 0;
    uint32_t count() const { return last - first + 1; }
    bool operator==(const BlockRange&) const = default;
};

// One resident block on its SM: the slot is its lane in the SM's row (blocks resident at the same
// time get different slots).
struct ResidentBar {
    uint32_t block = 0;
    uint32_t slot = 0;
    uint64_t from = 0, to = 0; // ticks; to = the run's end when it never retired
    bool waited = false;
    bool retired = true;
};

struct ResidencySm {
    std::vector<ResidentBar> bars; // by admission tick
    uint32_t slots = 0;            // the most blocks resident on this SM at once
};

struct ResidencyModel {
    bool available = false; // the trace has a residency table
    uint32_t blocks = 0;
    uint64_t end = 1;       // the run's last tick + 1 (the time axis runs 0..end)
    std::vector<ResidencySm> sms;
    uint32_t max_slots = 0; // over the SMs
    double max_bars_per_slot = 0; // over the SMs: blocks per slot (a queue of blocks through one slot)
    uint32_t ran = 0, waited = 0, stuck = 0, never = 0; // blocks: retired without waiting, waited, still resident, never
    std::vector<BlockRange> never_started; // ascending
    std::vector<BlockRange> waited_ranges; // blocks that waited for a slot, ascending

    // Resident blocks per time bin over [t0, t1) for SMs [sm_first, sm_last]: bins equal spans.
    // A block counts in a bin where its bar overlaps it. Cost: bars x bins covered.
    std::vector<uint32_t> occupancy(uint32_t sm_first, uint32_t sm_last, uint64_t t0, uint64_t t1,
                                    uint32_t bins) const;
    // The bar under (sm, slot, tick), or null.
    const ResidentBar* bar_at(uint32_t sm, uint32_t slot, uint64_t tick) const;
};

ResidencyModel build_residency_model(const trace::Trace& trace);

// Ascending indices -> ranges of consecutive ones.
std::vector<BlockRange> block_ranges(const std::vector<uint32_t>& sorted_blocks);
// "64-4223" or "7"; ranges joined with ", ", at most `shown` of them, then "and N more" words in
// the language's pattern `more` ({0}: how many ranges left).
std::string range_words(const std::vector<BlockRange>& ranges, size_t shown, const char* more);

class ResidencyView {
  public:
    void draw(AppState& state);
    // Screen rectangles (x0, y0, x1, y1) drawn last frame (zero: none): the SM rows with their bars,
    // and the never-started strip and its words.
    ImVec4 rows_rect() const { return rows_rect_; }
    ImVec4 never_rect() const { return never_rect_; }
    // How the last frame drew the rows: 0 nothing, 1 a bar per block, 2 occupancy strips.
    int drawn_mode() const { return drawn_mode_; }
    uint32_t sms_per_row() const { return sms_per_row_; }

  private:
    void draw_legend(const AppState& state, bool occupancy_key);
    void draw_rows(const AppState& state, ImVec2 size);
    void draw_never(const AppState& state);

    uint64_t serial_ = 0;
    ResidencyModel model_;
    ImVec4 rows_rect_{0, 0, 0, 0}, never_rect_{0, 0, 0, 0};
    int drawn_mode_ = 0;
    uint32_t sms_per_row_ = 1;
};

} // namespace synclab::ui
