// The timeline's data model: pure (no ImGui, no GL), unit-tested, and the part of a frame that must
// be fast. Tracy's split: the index is built once per trace, preprocess() turns (index, layout,
// viewport) into a short list of draw items for what is on screen, and the view only draws those.
//
// Index of this file
// [SECTION] Time: camera time vs trace time
// [SECTION] TimelineIndex: rows (block -> warp -> lane), per-row events, barrier waits, phase bands
// [SECTION] Layout: visible rows and their y positions
// [SECTION] Preprocess: draw items for one frame
// [SECTION] Findings: the events behind a finding, race arrows, markers
// [SECTION] Hit testing, fit and focus
//
// Time convention: the camera (TimelineCamera::t0/t1) holds time relative to the trace's first event
// ("camera time"), never raw trace time. GPU timestamps are absolute nanoseconds (~1.7e18), which a
// double cannot hold to the nanosecond, and compare mode shares one camera between two traces that
// started at unrelated absolute times; relative time fixes both.
#pragma once

#include "analysis/findings.h"
#include "trace/trace.h"
#include "ui/model/warp_collectives.h"

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace synclab::ui {

constexpr uint32_t kNoEvent = UINT32_MAX;
constexpr uint32_t kNoRow = UINT32_MAX;

// [SECTION] Time: camera time vs trace time ---------------------------------------------------------

struct TimeRange {
    double t0 = 0, t1 = 1; // camera time (relative to the trace's first event)
    bool valid() const { return t1 > t0; }
    double length() const { return t1 - t0; }
};

// [SECTION] TimelineIndex ---------------------------------------------------------------------------

// Event indices grouped by row (compressed rows: row r owns items[offsets[r] .. offsets[r+1])), each
// row sorted by time, stable (ties keep the trace's order). `coarse` holds every kCoarseStride-th
// item's time (row r's from coarse_offsets[r]) so that a time search runs over that small contiguous
// array and reads the 32-byte events only for its last few probes: the events of a 10 M trace do not
// fit in a cache, and a frame makes thousands of searches.
struct RowEvents {
    static constexpr size_t kCoarseStride = 16;
    std::vector<uint32_t> offsets;        // rows + 1 entries
    std::vector<uint32_t> items;          // indices into Trace::events
    std::vector<uint32_t> coarse_offsets; // rows + 1 entries
    std::vector<uint64_t> coarse;
    std::span<const uint32_t> row(size_t r) const {
        return {items.data() + offsets[r], items.data() + offsets[r + 1]};
    }
    std::span<const uint64_t> coarse_row(size_t r) const {
        return {coarse.data() + coarse_offsets[r], coarse.data() + coarse_offsets[r + 1]};
    }
    size_t rows() const { return offsets.empty() ? 0 : offsets.size() - 1; }
};

// The `barrier` of a wait no arrival records: a lane stuck at a barrier instruction that its warp
// never executed (an aligned barrier waits for every running lane of the warp to be at it; lanes at
// different instructions wait for each other forever, and no arrive event is written).
constexpr uint32_t kUnrecordedBarrier = UINT32_MAX;

// A thread (or warp, or block) waiting at a barrier: from arrival to release, in trace time.
struct WaitSpan {
    uint64_t t0 = 0, t1 = 0;    // first arrive .. last leave (open: the end of the trace)
    uint32_t arrive = kNoEvent; // an arrive event (thread rows: its own; warp/block rows: the first);
                                // kNoEvent for an unrecorded wait
    uint32_t phase = 0;         // the barrier's phase number (Event::value); unrecorded: `site`
    uint32_t barrier = 0;       // barrier id (Event::address), or kUnrecordedBarrier
    uint32_t threads = 1;       // threads that waited in this phase (warp/block rows: lanes involved)
    bool open = false;          // never released: the run ended with the thread(s) still waiting
    // Warp/block rows: an arrival of this phase at another barrier instruction than `arrive`'s (the
    // phase was completed at different lines: barrier divergence), else kNoEvent.
    uint32_t other_arrive = kNoEvent;
    // The barrier instruction waited at (the label's line): the arrival's site, or for a wait left
    // open at the end of the run, the thread's end site (ThreadInfo::end_site), which is where the
    // deadlock finding says it waits too. An unrecorded wait starts at the thread's last event.
    uint32_t site = 0;
    bool mixed() const { return other_arrive != kNoEvent; }
};

// Wait spans grouped by row, sorted by t0; max_end[i] is the largest t1 of the row's spans up to i
// (spans of a warp may overlap when lanes use different barriers), so that the first span reaching
// into the view is found by binary search.
struct RowSpans {
    std::vector<uint32_t> offsets;
    std::vector<WaitSpan> spans;
    std::vector<uint64_t> max_end;
    std::span<const WaitSpan> row(size_t r) const {
        return {spans.data() + offsets[r], spans.data() + offsets[r + 1]};
    }
};

// Barrier phase k of one block: from the block's first release of phase k-1 (or its first event) to
// its last release of phase k. The last band runs from the final release to the block's last event
// (or the end of the trace if threads of the block still wait). Bands may overlap by the release.
struct PhaseBand {
    uint64_t t0 = 0, t1 = 0; // trace time
    uint32_t phase = 0;      // ordinal of the phase in the block (0, 1, ...)
};

struct BlockRowInfo {
    uint32_t block = 0;      // linear block index
    uint32_t first_warp = 0; // warp slot of its first warp
    uint32_t warp_count = 0;
    uint32_t threads = 0;
    bool waiting = false;         // some thread of the block still waits at a barrier at the end
    std::vector<PhaseBand> bands; // sorted by t1; empty when the block passed no barrier
};

struct WarpRowInfo {
    uint32_t block_slot = 0;
    uint32_t warp = 0;       // warp index inside the block
    uint32_t first_lane = 0; // thread-row slot of its first lane
    uint32_t lane_count = 0;
    bool waiting = false;
};

struct ThreadRowInfo {
    uint32_t thread = 0; // index into Trace::threads
    uint32_t warp_slot = 0;
    bool waiting = false; // ThreadInfo::end == AtBarrier
};

// Built once per trace (the view caches it per RunRecord::serial). Holds a pointer to the trace,
// which must outlive the index. Cost: O(events + threads log threads) time, 3 x 4.5 bytes per event.
class TimelineIndex {
  public:
    TimelineIndex() = default;
    explicit TimelineIndex(const trace::Trace& trace);

    const trace::Trace& trace() const { return *trace_; }
    bool empty() const { return trace_ == nullptr || trace_->events.empty(); }

    // Trace time of the first and last event (0, 0 when empty); camera time is time - begin.
    uint64_t time_begin() const { return time_begin_; }
    uint64_t time_end() const { return time_end_; }
    double to_camera(uint64_t t) const { return double(int64_t(t - time_begin_)); }
    // The smallest trace time >= camera time `c` (clamped to the trace's range of uint64).
    uint64_t ceil_trace_time(double c) const;
    uint64_t event_time(uint32_t event) const { return trace_->events[event].time; }

    const std::vector<BlockRowInfo>& blocks() const { return blocks_; }
    const std::vector<WarpRowInfo>& warps() const { return warps_; }
    const std::vector<ThreadRowInfo>& thread_rows() const { return thread_rows_; }
    // Thread-row slot of a trace thread (kNoRow if it is not in the thread table).
    uint32_t thread_slot(uint32_t thread) const {
        return thread < slot_of_thread_.size() ? slot_of_thread_[thread] : kNoRow;
    }
    uint32_t warp_slot_of_thread(uint32_t thread) const;
    uint32_t block_slot_of_thread(uint32_t thread) const;
    uint32_t block_slot(uint32_t block) const; // slot of a linear block index (kNoRow if absent)

    const RowEvents& block_events() const { return block_events_; }
    const RowEvents& warp_events() const { return warp_events_; }
    const RowEvents& thread_events() const { return thread_events_; }
    const RowSpans& block_waits() const { return block_waits_; }
    const RowSpans& warp_waits() const { return warp_waits_; }
    const RowSpans& thread_waits() const { return thread_waits_; }

    bool deadlocked() const { return deadlocked_; } // some thread still waits at a barrier at the end
    // Shuffles, votes and __syncwarp grouped into one mark per warp execution (by warp slot).
    const CollectiveIndex& collectives() const { return collectives_; }

  private:
    void build_rows();
    void build_events();
    void build_waits();
    void build_bands();

    const trace::Trace* trace_ = nullptr;
    uint64_t time_begin_ = 0, time_end_ = 0;
    std::vector<BlockRowInfo> blocks_;
    std::vector<WarpRowInfo> warps_;
    std::vector<ThreadRowInfo> thread_rows_;
    std::vector<uint32_t> slot_of_thread_;
    RowEvents block_events_, warp_events_, thread_events_;
    RowSpans block_waits_, warp_waits_, thread_waits_;
    bool deadlocked_ = false;
    CollectiveIndex collectives_;
};

// [SECTION] Layout ----------------------------------------------------------------------------------

enum class RowKind : uint8_t { Block, Warp, Thread };

struct TimelineFold;

// Which rows are open. Entries past the end of a vector count as collapsed.
// A pinned lane is shown under its warp even when the warp is closed: focusing a finding pins its
// threads, so the two accesses get rows of their own ("thread 192 · lane 0") without 32 lane rows
// per warp pushing the rest of the block off screen (a debugger's "pinned threads").
// A folded warp or block is left out of the rows; each run of them is one thin fold row instead
// (TimelineFold). Focusing a finding whose threads lie further apart than the view is tall (thread 0
// and thread 255 of one block, or blocks 0 and 9) folds what lies between them (fold_between_pins),
// so that both threads' rows, and the arrow between them, are in sight at once.
struct TimelineExpansion {
    std::vector<uint8_t> blocks;        // by block slot: show its warp rows
    std::vector<uint8_t> warps;         // by warp slot: show its lane rows
    std::vector<uint8_t> pinned;        // by thread-row slot: show this lane's row even under a closed warp
    std::vector<uint8_t> folded_blocks; // by block slot: left out, in a fold row
    std::vector<uint8_t> folded_warps;  // by warp slot: left out (its lanes too), in a fold row
    bool block_open(uint32_t slot) const { return slot < blocks.size() && blocks[slot]; }
    bool warp_open(uint32_t slot) const { return slot < warps.size() && warps[slot]; }
    bool lane_pinned(uint32_t slot) const { return slot < pinned.size() && pinned[slot]; }
    bool block_folded(uint32_t slot) const { return slot < folded_blocks.size() && folded_blocks[slot]; }
    bool warp_folded(uint32_t slot) const { return slot < folded_warps.size() && folded_warps[slot]; }
    void toggle_block(uint32_t slot);
    void toggle_warp(uint32_t slot);
    void pin_lane(uint32_t slot);
    void clear_pins() { pinned.clear(); }
    void clear_folds() {
        folded_blocks.clear();
        folded_warps.clear();
    }
    // Folds the rows that lie between the first pinned lane's warp and the last pinned lane and
    // tell nothing of the pinned threads' story: the warps without a pinned lane of a block that
    // has one, and the blocks without any. The pinned lanes, their warps and their blocks' rows stay.
    // Fewer than two pinned lanes: nothing is folded. Replaces earlier folds.
    void fold_between_pins(const TimelineIndex& index);
    // Shows the rows of `fold` again (a click on its label).
    void unfold(const TimelineFold& fold);
    // The usual start: every block open when there are few, else only the first; lanes closed.
    static TimelineExpansion initial(const TimelineIndex& index, uint32_t open_blocks_up_to = 2);
};

// Row heights in pixels (the view scales them with the font size).
struct RowMetrics {
    float block_height = 20;
    float warp_height = 18;
    float thread_height = 14;
    float gap = 1; // between rows
    bool operator==(const RowMetrics&) const = default;
};

struct TimelineRow {
    RowKind kind = RowKind::Block;
    uint32_t slot = 0;       // block, warp or thread-row slot in the index
    float y = 0, height = 0; // layout coordinates (0 = top of the first row)
    float bottom() const { return y + height; }
};

// Folded rows that follow one another, drawn as one thin row between the rows around it (it has no
// events of its own): the last warps of one block, then the blocks after it (either may be none).
struct TimelineFold {
    uint32_t first_warp = 0, warps = 0;   // warp slots [first_warp, first_warp + warps)
    uint32_t first_block = 0, blocks = 0; // block slots [first_block, first_block + blocks)
    float y = 0, height = 0;              // layout coordinates, as a row's
    float bottom() const { return y + height; }
};

struct TimelineLayout {
    std::vector<TimelineRow> rows;   // top to bottom
    std::vector<TimelineFold> folds; // top to bottom, between the rows
    float height = 0;                // total height, gaps included
    std::vector<uint32_t> block_row; // by block slot: its row
    std::vector<uint32_t> warp_row;  // by warp slot: its row, or kNoRow when its block is closed
    std::vector<uint32_t> lane_row;  // by thread-row slot: its row, or kNoRow when hidden
    std::vector<std::pair<float, float>> block_extent; // by block slot: y range of it and its open rows

    // Rows that intersect [y0, y1): [first, last).
    std::pair<uint32_t, uint32_t> rows_in(float y0, float y1) const;
    // The row under y, or kNoRow.
    uint32_t row_at(float y) const;
    // The deepest visible row that shows `thread` (its lane, else its warp, else its block); kNoRow
    // when its block is folded.
    uint32_t row_of_thread(const TimelineIndex& index, uint32_t thread) const;
    // The fold under y, or nullptr.
    const TimelineFold* fold_at(float y) const;
};

// The rows of the open blocks, warps and pinned lanes, top to bottom; a run of folded warps (of one
// block) or folded blocks takes one fold of a lane row's height instead.
TimelineLayout layout_rows(const TimelineIndex& index, const TimelineExpansion& expansion,
                           const RowMetrics& metrics);

// [SECTION] Preprocess ------------------------------------------------------------------------------

struct Viewport {
    TimeRange range;      // visible camera time
    float width = 0;      // pixels of the time axis
    float y0 = 0, y1 = 0; // visible layout y range (scroll .. scroll + height)
    float fold_px = 3;    // items closer than this fold into one
    double px_per_time() const { return range.valid() ? width / range.length() : 0; }
    float x_of(double camera_time) const { return float((camera_time - range.t0) * px_per_time()); }
    double time_at(float x) const { return range.t0 + double(x) / px_per_time(); }
};

// One mark: a single event (count 1, x1 == x0) or a folded run of `count` events of one row between
// x0 and x1 (pixels from the left of the time axis). `kind` is the first event's kind; `uniform` says
// every folded event has that kind (checked only for runs of up to kUniformScan events, e.g. the
// 32 lanes of one warp instruction at one tick, so the check stays bounded by pixels).
struct EventItem {
    float x0 = 0, x1 = 0;
    uint32_t row = 0;   // layout row
    uint32_t event = 0; // first event (trace index)
    uint32_t last = 0;  // last event of the run
    uint32_t count = 1;
    trace::EventKind kind = trace::EventKind::Load;
    bool uniform = true;
};
constexpr uint32_t kUniformScan = 64;

struct SpanItem {
    float x0 = 0, x1 = 0; // clipped to [-1, width + 1]
    uint32_t row = 0;
    uint32_t span = 0;  // index into the row level's RowSpans::spans (first span of a merged run)
    uint32_t count = 1; // spans merged because they were closer than a pixel
    bool open = false;  // any of them never released
    bool one_site = true; // every span merged into it waits at the same barrier instruction (one label)
};

struct BandItem {
    float x0 = 0, x1 = 0; // clipped to [-1, width + 1]
    float y0 = 0, y1 = 0; // layout y of the block's rows, clipped to the viewport
    uint32_t block_slot = 0;
    uint32_t phase = 0; // ordinal of the first band
    uint32_t count = 1; // bands merged because narrower than 2 px (draw as one neutral band)
};

// A warp collective on its warp's row: one CollectiveMark, or `count` of them closer than fold_px.
struct CollectiveItem {
    float x0 = 0, x1 = 0; // clipped to [-1, width + 1]
    uint32_t row = 0;
    uint32_t mark = 0;  // index into TimelineIndex::collectives() (the first of a merged run)
    uint32_t count = 1;
};

enum class MarkerKind : uint8_t { Deadlock, Divergence };

struct MarkerItem {
    float x = 0;
    uint32_t row = 0;
    MarkerKind kind = MarkerKind::Deadlock;
    uint32_t event = kNoEvent;
};

// The draw list of one frame. Items are grouped by row, rows top to bottom, x ascending in a row.
struct TimelineFrame {
    uint32_t first_row = 0, last_row = 0; // visible rows [first, last)
    std::vector<EventItem> events;
    std::vector<SpanItem> waits;
    std::vector<BandItem> bands;
    std::vector<MarkerItem> markers; // deadlock markers at the end of waiting rows
    std::vector<CollectiveItem> collectives; // warp rows only
    void clear();
};

// Emits the items on screen. Cost: O(log n) per item, items <= visible rows x width / fold_px.
// An invalid range, zero width or an empty trace give an empty frame. `out` is reused (no
// allocations once warm).
void preprocess(const TimelineIndex& index, const TimelineLayout& layout, const Viewport& view,
                TimelineFrame& out);

// A row's events (from its level's lists: block, warp or lane) and its level's wait spans (the row's
// own spans are row_spans_level(index, row.kind).row(row.slot)).
std::span<const uint32_t> row_events(const TimelineIndex& index, const TimelineRow& row);
const RowEvents& row_events_level(const TimelineIndex& index, RowKind kind);
const RowSpans& row_spans_level(const TimelineIndex& index, RowKind kind);

// [SECTION] Findings ---------------------------------------------------------------------------------

// The events a finding is about. Race / LostUpdate: `first` and `second` are the two accesses
// (threads[0] at sites[0], threads[1] at sites[1], both touching `address`; shared memory: in the
// finding's block), the closest such pair with first before second. BarrierDivergence: the example
// threads' arrivals at the finding's lines. Deadlock: where each example thread is at the end (its
// arrival at its end site, else its last event: it spins, or waits at a barrier that recorded no
// arrival).
struct FindingEvents {
    uint32_t first = kNoEvent;
    uint32_t second = kNoEvent;
    std::vector<uint32_t> others; // divergence / deadlock arrivals
    // LostUpdate: the interleaving that lost an update, in time order: thread A's load, B's load,
    // A's store, B's store (in whatever order they ran); empty when the trace shows none.
    std::vector<uint32_t> steps;
    bool has_pair() const { return first != kNoEvent && second != kNoEvent; }
};
FindingEvents resolve_finding(const TimelineIndex& index, const analysis::Finding& finding);

struct ArrowEnd {
    uint32_t row = kNoRow; // layout row showing the thread
    double time = 0;       // camera time
    uint32_t event = kNoEvent;
};

struct FindingArrow {
    uint32_t finding = 0; // index into the findings
    analysis::FindingKind kind = analysis::FindingKind::Race;
    ArrowEnd from, to; // first access -> second access
};

struct FindingPoint {
    uint32_t finding = 0;
    analysis::FindingKind kind = analysis::FindingKind::BarrierDivergence;
    ArrowEnd at;
};

struct FindingMarks {
    std::vector<FindingArrow> arrows; // races (and lost updates)
    std::vector<FindingPoint> points; // divergent / deadlocked arrivals
};

// Marks for `findings` (resolved[i] = resolve_finding(index, findings[i])), mapped onto the layout.
// only >= 0: that finding alone. Arrows whose threads have no visible row are left out.
FindingMarks finding_marks(const TimelineIndex& index, const TimelineLayout& layout,
                           const std::vector<analysis::Finding>& findings,
                           const std::vector<FindingEvents>& resolved, int only = -1);

// [SECTION] Hit testing, fit and focus --------------------------------------------------------------

struct Hit {
    enum class What : uint8_t { None, Event, Wait, Collective } what = What::None;
    uint32_t item = 0; // index into frame.events, frame.waits or frame.collectives
    uint32_t row = kNoRow;
};

// The item under (x, y) (x: pixels from the time axis' left, y: layout y): the nearest event mark of
// the row at y within `radius` px (a folded item counts from x0 to x1), else a warp collective within
// `radius` px, else a wait span containing x. A warp row's collective wins over its event ticks (the
// ticks of its lanes' WarpCollective events are the same instruction, and the mark says more).
Hit hit_test(const TimelineFrame& frame, const TimelineLayout& layout, float x, float y, float radius = 4);

// The whole trace from its first event (camera time 0) with twice `margin` (a fraction of its length)
// after its last; [0, 1] when empty, [-1, 1] when all its events are at one time.
TimeRange fit_range(const TimelineIndex& index, double margin = 0.02);
// A range around a finding's events (margin: fraction of their distance, at least min_width
// camera-time units wide in all); the fit range when the finding has no events.
TimeRange focus_range(const TimelineIndex& index, const FindingEvents& events, double margin = 0.5,
                      double min_width = 40);
// Zoom keeping camera time `anchor` at the same screen position; factor < 1 zooms in.
TimeRange zoom_range(const TimeRange& range, double anchor, double factor, double min_width = 1e-3);

// Numbered marks on one row (the 1-4 of a lost update's story, a few ticks apart): centres x, in
// drawing order, moved right where needed so that each is at least `gap` px right of any earlier one
// that it would overlap; the view draws a leader from the event to a moved mark. Returns the centres.
std::vector<float> spread_marks(std::vector<float> x, float gap);

} // namespace synclab::ui
