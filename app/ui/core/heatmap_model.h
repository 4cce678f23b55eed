// The heatmaps' data side (no ImGui, no GL): grids of cell values built from a trace, and what a
// hovered cell is. Three grids (HeatmapView draws them through HeatmapRenderer):
//   contention   rows: the hottest atomic addresses (the rest folded into one "other" row),
//                columns: time (where the trace is timed, the cycle each atomic completed: issue +
//                queueing + service; else event time), value: operations per cell or the deepest
//                queue an operation of the cell met on arrival;
//   block_thread rows: blocks, columns: threads of a block, value: the thread's atomic latency;
//   sm_warp      rows: SMs, columns: the warps an SM ran in launch order, value: the warp's mean
//                atomic latency.
// Latencies come from the lesson's [latency] cycles buffer where it has one (the kernel's own
// clock64() deltas: the hardware's cycles on the GPU, the modelled clock in the simulator), else from
// Trace::timing (the cost model), else there are none.
//
// Cost: ContentionIndex::build reads the trace once (O(events)); bin() for a zoom or pan reads a fine
// per-row histogram (O(rows x fine bins)) and, zoomed in past its resolution, only the events in
// view (a time-sorted index): a frame that changes nothing costs nothing (HeatmapView keeps its grid).
#pragma once

#include "launch/launch.h"
#include "scenario/scenario.h"
#include "trace/trace.h"

#include <cstdint>
#include <string>
#include <vector>

namespace synclab::ui {

// A cell with no data (no event, no thread): drawn as the background, not as the coldest colour.
constexpr float kNoData = -1.0f;

struct HeatGrid {
    uint32_t rows = 0, cols = 0;
    std::vector<float> values; // rows x cols, row-major; kNoData where there is nothing
    float min = 0, max = 0;    // over the cells with data (both 0 when none has)
    float min_positive = 0;    // the smallest value > 0 (the log scale's bottom)
    // Columns cover [x0, x1) of the column axis (contention: time; otherwise column indices).
    double x0 = 0, x1 = 0;
    // Folding of big launches: row r covers rows [r * row_fold, (r + 1) * row_fold) of the source
    // (blocks), column c likewise; 1 = unfolded.
    uint32_t row_fold = 1, col_fold = 1;
    bool empty() const { return rows == 0 || cols == 0; }
    bool has_data() const { return max > min || (max > 0 && min == max); }
    float at(uint32_t r, uint32_t c) const { return values[size_t(r) * cols + c]; }
    void finish(); // computes min / max / min_positive from values
};

// [SECTION] Contention: address x time

enum class ContentionValue : uint8_t { Operations, QueueDepth };

struct ContentionRow {
    trace::Space space = trace::Space::Global;
    uint32_t block = UINT32_MAX; // shared memory: its block (every block has its own window)
    uint64_t address = 0;
    uint64_t ops = 0;          // atomic operations on it in the whole trace
    uint32_t max_depth = 0;    // deepest queue ahead of one of them (0 without timing)
    uint32_t site = 0;         // the instruction that issued most of them
    bool other = false;        // the folded row: every address not among the hottest (its operations
                               // are drawn per address, the mean of the ones it folds)
    uint64_t addresses = 1;    // other: how many addresses it folds
};

class ContentionIndex {
  public:
    static constexpr uint32_t kFineBins = 16384;

    // Reads the atomic events (atom and red) of `trace`; at most `max_rows` rows: the hottest
    // addresses in address order, and where there are more, one last "other addresses" row.
    void build(const trace::Trace& trace, uint32_t max_rows = 32);

    const std::vector<ContentionRow>& rows() const { return rows_; }
    uint64_t events() const { return events_; }
    bool timed() const { return timed_; }        // times are modelled completion cycles (else event time)
    uint64_t t_begin() const { return t_begin_; } // first atomic's time
    // The time axis's 0: the run's first event (where timed, the cycle it was issued), as the
    // timeline's 0 is; at most t_begin().
    uint64_t t_origin() const { return t_origin_; }
    uint64_t t_end() const { return t_end_; }     // one past the last
    bool empty() const { return events_ == 0; }

    // The grid of [t0, t1) in `cols` columns (t0 < t1, within or beyond the extent).
    HeatGrid bin(double t0, double t1, uint32_t cols, ContentionValue value) const;
    // Whatever the zoom: the most atomics one row completes in a window of time, for windows of the
    // fine bins' width and every doubling of it up to the whole extent ((width, atomics) pairs,
    // widest last; empty without atomics), and the deepest queue one met.
    std::vector<std::pair<double, double>> ops_profile() const;
    uint32_t peak_depth() const;

  private:
    std::vector<ContentionRow> rows_;
    uint64_t events_ = 0;
    bool timed_ = false;
    uint64_t t_begin_ = 0, t_end_ = 0, t_origin_ = 0;
    uint32_t fine_bins_ = 0;           // <= kFineBins (fewer when the extent is shorter)
    double fine_width_ = 1;            // time per fine bin
    std::vector<uint32_t> fine_ops_;   // rows x fine_bins_
    std::vector<uint32_t> fine_depth_; // rows x fine_bins_: the deepest queue in the bin
    // The atomics sorted by time (12 bytes each; the trace is not kept): time, row, queue depth
    // (saturated at 65535).
    std::vector<uint64_t> times_;
    std::vector<uint16_t> row_of_;
    std::vector<uint16_t> depth_of_;
};

// [SECTION] Latency: block x thread, SM x warp

struct ThreadLatencies {
    std::vector<float> cycles; // per thread of the trace (Trace::threads order); kNoData where none
    std::vector<int32_t> sm;   // per thread: the SM the kernel recorded (or the trace's); -1 unknown
    std::string source;        // "g_cycles" (the buffer's name), "cost model", or "" (none)
    bool measured_sm = false;  // sm came from the lesson's sm buffer (%smid), not the trace's table
    bool any() const { return !source.empty(); }
};

// The elements of a buffer of `type`, as doubles.
std::vector<double> buffer_values(const launch::Buffer& buffer, launch::ElemType type);

// Per-thread atomic latency: the lesson's [latency] buffers in `final_buffers` where it has them
// (one element per thread), else each thread's mean latency over its timed atomics, else none.
// `scenario` may be null (a loaded trace).
ThreadLatencies thread_latencies(const trace::Trace& trace, const scenario::Scenario* scenario,
                                 const std::vector<launch::Buffer>& final_buffers);

// Rows: blocks (folded so that at most max_rows), columns: threads of a block.
HeatGrid block_thread_grid(const trace::Trace& trace, const ThreadLatencies& lat, uint32_t max_rows = 4096);

// Rows: SMs 0..highest seen; columns: the k-th warp an SM ran (in launch order); value: the mean of
// the warp's threads. `warp_ids` (out, optional): per cell, the global warp index (UINT32_MAX: none).
HeatGrid sm_warp_grid(const trace::Trace& trace, const ThreadLatencies& lat,
                      std::vector<uint32_t>* warp_ids = nullptr);

// [SECTION] One colour scale for the runs shown together

// What one run's maps reach, whatever the zoom, so that the runs shown together (compare mode's two,
// the variants of a ladder) share one colour scale: a fixed variant whose queue is a tenth of the
// broken one's is drawn a tenth as hot, never hot because it is the hottest of its own map.
struct HeatPeaks {
    bool timed = false;         // contention times are modelled cycles (else event time)
    std::vector<std::pair<double, double>> ops_profile; // contention: ContentionIndex::ops_profile
    float depth = 0;            // contention: the deepest queue
    bool latency = false;       // the latency grids have data
    float block_thread_lo = 0, block_thread_hi = 0;
    float sm_warp_lo = 0, sm_warp_hi = 0;
};
HeatPeaks heat_peaks(const ContentionIndex& contention, const HeatGrid& block_thread, const HeatGrid& sm_warp);

enum class HeatScale : uint8_t { Operations, QueueDepth, BlockThread, SmWarp };

// The colour map's [lo, hi] for `grid` drawn beside `others` (their peaks; contention counts only
// compare modelled cycles with modelled cycles). Counts (operations, depth) start at 0; latencies at
// their minimum (their spread is the point); a log scale at the smallest positive value. Operations
// per cell: the most another run completes on one row in a window as wide as this grid's columns
// (ops_at), so that equal rates get equal colours whatever the zoom. Every cell the same: the
// middle of the map, not its hot end.
struct ColourRange {
    float lo = 0, hi = 1;
};
// The most atomics a run completes on one row in a window of `width` (its ops profile: exact at the
// profile's widths, between them at most the wider window's count and the narrower's scaled up).
double ops_at(const std::vector<std::pair<double, double>>& profile, double width);
ColourRange colour_range(HeatScale scale, const HeatGrid& grid, const std::vector<HeatPeaks>& others, bool timed,
                         bool log_scale);

// [SECTION] Cells

// The cell under a point of the drawn grid: u, v in [0, 1) across the visible part of the grid
// (zoom: the visible fraction [u0, u1) x [v0, v1) of the whole); false outside.
struct CellHit {
    uint32_t row = 0, col = 0;
};
bool cell_at(const HeatGrid& grid, double u, double v, double u0, double u1, double v0, double v1, CellHit& hit);

// The time range of a contention column.
void column_time(const HeatGrid& grid, uint32_t col, double& from, double& to);

} // namespace synclab::ui
