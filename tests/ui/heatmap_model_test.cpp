// The heatmaps' data side: contention binning (rows, folding, time ranges, zoom, both binning paths,
// queue depth), per-thread latencies (cost model and [latency] buffers), the block x thread and SM x
// warp grids, hovering, and the colour map the shader and legend share. Synthetic traces with chosen
// Trace::timing: every expected value below is counted from the events the test made.
#include "ui/model/colour_map.h"
#include "ui/core/heatmap_model.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <map>
#include <random>

namespace {

using namespace synclab;
using synclab::ui::ContentionIndex;
using synclab::ui::ContentionValue;
using synclab::ui::HeatGrid;
using synclab::ui::kNoData;

trace::Trace launch(uint32_t blocks, uint32_t threads) {
    trace::Trace t;
    t.threads = trace::thread_layout(trace::Dim3{blocks, 1, 1}, trace::Dim3{threads, 1, 1});
    t.meta.backend = "sim";
    return t;
}

// Appends an atomic (and its timing, when `timed`).
void atomic(trace::Trace& t, uint32_t thread, uint64_t address, uint64_t time, bool timed = false,
            uint32_t latency = 0, uint32_t depth = 0, trace::Space space = trace::Space::Global) {
    trace::Event e;
    e.kind = trace::EventKind::Atomic;
    e.thread = thread;
    e.address = address;
    e.time = time;
    e.flags = trace::make_flags(space, 4);
    t.events.push_back(e);
    if (timed) t.timing.push_back(trace::EventTiming{time, latency, depth});
}

void load(trace::Trace& t, uint32_t thread, uint64_t address, uint64_t time) {
    trace::Event e;
    e.kind = trace::EventKind::Load;
    e.thread = thread;
    e.address = address;
    e.time = time;
    e.flags = trace::make_flags(trace::Space::Global, 4);
    t.events.push_back(e);
}

float sum(const HeatGrid& g) {
    float s = 0;
    for (float v : g.values)
        if (v > 0) s += v;
    return s;
}

TEST(ContentionIndex, OneRowPerAddressInAddressOrderCountedPerTimeBin) {
    trace::Trace t = launch(1, 64);
    // 0x200: 10 ops at times 0..9; 0x100: 3 ops at 50, 51, 99; a load that must not count.
    for (uint32_t i = 0; i < 10; ++i)
        atomic(t, i, 0x200, i);
    load(t, 5, 0x100, 20);
    atomic(t, 1, 0x100, 50);
    atomic(t, 2, 0x100, 51);
    atomic(t, 3, 0x100, 99);
    ContentionIndex idx;
    idx.build(t);
    ASSERT_EQ(idx.rows().size(), 2u);
    EXPECT_EQ(idx.rows()[0].address, 0x100u);
    EXPECT_EQ(idx.rows()[0].ops, 3u);
    EXPECT_EQ(idx.rows()[1].address, 0x200u);
    EXPECT_EQ(idx.events(), 13u);
    EXPECT_FALSE(idx.timed());
    EXPECT_EQ(idx.t_begin(), 0u);
    EXPECT_EQ(idx.t_end(), 100u);

    const HeatGrid g = idx.bin(0, 100, 10, ContentionValue::Operations);
    ASSERT_EQ(g.rows, 2u);
    ASSERT_EQ(g.cols, 10u);
    EXPECT_EQ(g.at(1, 0), 10.0f); // 0x200, times 0-9
    EXPECT_EQ(g.at(0, 5), 2.0f);  // 0x100, times 50-59
    EXPECT_EQ(g.at(0, 9), 1.0f);
    EXPECT_EQ(g.at(0, 0), kNoData); // nothing happened there
    EXPECT_EQ(g.max, 10.0f);
    EXPECT_EQ(sum(g), 13.0f);
}

// Untimed: the origin is the first event of any kind, also one before the first atomic.
TEST(ContentionIndex, TheTimeAxisStartsAtTheRunsFirstEvent) {
    trace::Trace t = launch(1, 32);
    load(t, 0, 0x100, 825);
    atomic(t, 1, 0x8, 900);
    atomic(t, 2, 0x8, 950);
    ContentionIndex idx;
    idx.build(t);
    EXPECT_EQ(idx.t_begin(), 900u);
    EXPECT_EQ(idx.t_origin(), 825u);
}

TEST(ContentionIndex, ZoomRebinsOnlyTheRangeInView) {
    trace::Trace t = launch(1, 32);
    for (uint32_t i = 0; i < 100; ++i)
        atomic(t, i % 32, 0x40, i * 10); // times 0, 10, ..., 990
    ContentionIndex idx;
    idx.build(t);
    const HeatGrid g = idx.bin(200, 300, 5, ContentionValue::Operations); // times 200..290: 10 ops
    EXPECT_EQ(sum(g), 10.0f);
    for (uint32_t c = 0; c < 5; ++c)
        EXPECT_EQ(g.at(0, c), 2.0f) << "column " << c;
    double from = 0, to = 0;
    ui::column_time(g, 2, from, to);
    EXPECT_DOUBLE_EQ(from, 240);
    EXPECT_DOUBLE_EQ(to, 260);
    // Beyond the extent: nothing, and no crash.
    EXPECT_FALSE(idx.bin(5000, 6000, 8, ContentionValue::Operations).has_data());
}

TEST(ContentionIndex, TheHottestAddressesKeepTheirRowsTheRestFold) {
    trace::Trace t = launch(4, 64);
    uint64_t time = 0;
    // Address a gets a+1 operations for a in 0..9: the hottest are 9, 8, 7.
    for (uint64_t a = 0; a < 10; ++a)
        for (uint64_t k = 0; k <= a; ++k)
            atomic(t, uint32_t(k), 0x1000 + a * 4, time++);
    ContentionIndex idx;
    idx.build(t, 4);
    ASSERT_EQ(idx.rows().size(), 4u);
    EXPECT_EQ(idx.rows()[0].address, 0x1000u + 7 * 4);
    EXPECT_EQ(idx.rows()[1].address, 0x1000u + 8 * 4);
    EXPECT_EQ(idx.rows()[2].address, 0x1000u + 9 * 4);
    EXPECT_TRUE(idx.rows()[3].other);
    EXPECT_EQ(idx.rows()[3].addresses, 7u);
    EXPECT_EQ(idx.rows()[3].ops, 1u + 2 + 3 + 4 + 5 + 6 + 7);
    // The folded row counts per address (28 operations over 7 addresses), comparable with a row of
    // one address; its queue depth stays the deepest of them.
    const HeatGrid g = idx.bin(double(idx.t_begin()), double(idx.t_end()), 1, ContentionValue::Operations);
    EXPECT_EQ(g.at(3, 0), 4.0f);
    EXPECT_EQ(g.at(2, 0), 10.0f);
}

TEST(ContentionIndex, SharedAddressesAreOnePerBlock) {
    trace::Trace t = launch(2, 32);
    atomic(t, 0, 0x10, 1, false, 0, 0, trace::Space::Shared);  // block 0
    atomic(t, 1, 0x10, 2, false, 0, 0, trace::Space::Shared);  // block 0
    atomic(t, 40, 0x10, 3, false, 0, 0, trace::Space::Shared); // block 1: another memory
    atomic(t, 40, 0x10, 4);                                    // global 0x10: another again
    ContentionIndex idx;
    idx.build(t);
    ASSERT_EQ(idx.rows().size(), 3u);
    EXPECT_EQ(idx.rows()[0].space, trace::Space::Global);
    EXPECT_EQ(idx.rows()[1].block, 0u);
    EXPECT_EQ(idx.rows()[1].ops, 2u);
    EXPECT_EQ(idx.rows()[2].block, 1u);
}

TEST(ContentionIndex, TimedTracesUseCompletionCyclesAndShowQueueDepth) {
    trace::Trace t = launch(1, 32);
    // (issue, latency, depth): completions at 340, 140, 510, 540, out of trace order.
    atomic(t, 0, 0x8, 300, true, 40, 0);
    atomic(t, 1, 0x8, 100, true, 40, 7);
    atomic(t, 2, 0x8, 110, true, 400, 3);
    atomic(t, 3, 0x8, 500, true, 40, 1);
    ContentionIndex idx;
    idx.build(t);
    EXPECT_TRUE(idx.timed());
    EXPECT_EQ(idx.t_begin(), 140u);
    EXPECT_EQ(idx.t_end(), 541u);
    // The time axis starts at the run's first event (issued at cycle 100), as the timeline's does:
    // the view labels it 0 and the first completion 40, never "140" at its left end.
    EXPECT_EQ(idx.t_origin(), 100u);
    EXPECT_EQ(idx.rows()[0].max_depth, 7u);
    const HeatGrid d = idx.bin(140, 540, 4, ContentionValue::QueueDepth);
    EXPECT_EQ(d.at(0, 0), 7.0f);    // 140
    EXPECT_EQ(d.at(0, 1), kNoData); // 240-339: no atomic completed
    EXPECT_EQ(d.at(0, 2), 0.0f);    // 340: an atomic with nothing queued ahead
    EXPECT_EQ(d.at(0, 3), 3.0f);    // 510 (540 is past the range)
    const HeatGrid ops = idx.bin(140, 540, 4, ContentionValue::Operations);
    EXPECT_EQ(ops.at(0, 0), 1.0f);
    EXPECT_EQ(ops.at(0, 3), 1.0f);
    EXPECT_EQ(sum(ops), 3.0f);
}

// Over kExactLimit events in view the fine histogram bins them: totals are kept, and a burst lands
// in its column.
TEST(ContentionIndex, ManyEventsBinFromTheFineHistogram) {
    trace::Trace t = launch(8, 256);
    std::mt19937 rng(7);
    const uint32_t n = 600'000;
    uint64_t burst = 0;
    for (uint32_t i = 0; i < n; ++i) {
        const uint64_t time = i;
        // Every 4th op goes to the hot address; times 300000-300999 are all hot.
        const bool hot = (i % 4 == 0) || (time >= 300000 && time < 301000);
        burst += time >= 300000 && time < 301000;
        atomic(t, rng() % 2048, hot ? 0x0 : 0x100 + (rng() % 8) * 4, time);
    }
    ContentionIndex idx;
    idx.build(t);
    const HeatGrid g = idx.bin(0, n, 600, ContentionValue::Operations);
    EXPECT_FLOAT_EQ(sum(g), float(n));
    // Column 300 holds times 300000-300999: all 1000 on the hot row (fine bins are ~37 ticks wide,
    // so its edges may shift by one fine bin).
    EXPECT_NEAR(g.at(0, 300), 1000.0f, 80.0f);
    EXPECT_NEAR(g.at(0, 100), 250.0f, 60.0f);
    EXPECT_EQ(burst, 1000u);
    // Zoomed in far enough, the same column is counted exactly.
    const HeatGrid z = idx.bin(300000, 301000, 10, ContentionValue::Operations);
    EXPECT_FLOAT_EQ(z.at(0, 0), 100.0f);
}

// Many events over a short span (one fine bin per time unit): the fine histogram is exact.
TEST(ContentionIndex, ManyEventsOverAShortSpanBinExactly) {
    trace::Trace t = launch(4, 256);
    std::mt19937 rng(3);
    const uint32_t n = 400'000, span = 3'000;
    std::map<std::pair<uint64_t, uint32_t>, float> naive; // (address, column) -> ops
    for (uint32_t i = 0; i < n; ++i) {
        const uint64_t time = rng() % span, address = (rng() % 5) * 4;
        atomic(t, rng() % 1024, address, time);
    }
    ContentionIndex idx;
    idx.build(t);
    ASSERT_EQ(idx.rows().size(), 5u);
    // Columns 7 time units wide, boundaries not on multiples of anything the data has.
    const double t0 = 13, t1 = 13 + 7 * 400;
    for (const trace::Event& e : t.events)
        if (double(e.time) >= t0 && double(e.time) < t1)
            naive[{e.address, uint32_t((double(e.time) - t0) / 7)}] += 1;
    const HeatGrid g = idx.bin(t0, t1, 400, ContentionValue::Operations);
    for (uint32_t r = 0; r < g.rows; ++r)
        for (uint32_t c = 0; c < g.cols; ++c) {
            const auto it = naive.find({idx.rows()[r].address, c});
            EXPECT_EQ(g.at(r, c), it == naive.end() ? kNoData : it->second) << "row " << r << " column " << c;
        }
}

// [latency]

scenario::Scenario latency_lesson() {
    scenario::Scenario s;
    s.id = "timed";
    scenario::BufferDecl c;
    c.name = "g_cycles";
    c.spec.type = launch::ElemType::U64;
    scenario::BufferDecl m;
    m.name = "g_smid";
    m.spec.type = launch::ElemType::U32;
    s.buffers = {c, m};
    s.latency.cycles_buffer = "g_cycles";
    s.latency.sm_buffer = "g_smid";
    return s;
}

template <typename T> launch::Buffer buffer(const std::string& name, const std::vector<T>& values) {
    launch::Buffer b;
    b.name = name;
    b.bytes.resize(values.size() * sizeof(T));
    std::memcpy(b.bytes.data(), values.data(), b.bytes.size());
    return b;
}

TEST(Latency, CostModelMeanPerThread) {
    trace::Trace t = launch(2, 4);
    atomic(t, 0, 0x0, 1, true, 100);
    atomic(t, 0, 0x0, 2, true, 300); // thread 0: mean 200
    atomic(t, 5, 0x0, 3, true, 50);
    load(t, 6, 0x0, 4);
    t.timing.push_back(trace::EventTiming{4, 999, 0}); // a load: not an atomic's latency
    const ui::ThreadLatencies lat = ui::thread_latencies(t, nullptr, {});
    EXPECT_EQ(lat.source, "cost model");
    EXPECT_EQ(lat.cycles[0], 200.0f);
    EXPECT_EQ(lat.cycles[5], 50.0f);
    EXPECT_EQ(lat.cycles[6], kNoData);
    const HeatGrid g = ui::block_thread_grid(t, lat);
    ASSERT_EQ(g.rows, 2u);
    ASSERT_EQ(g.cols, 4u);
    EXPECT_EQ(g.at(0, 0), 200.0f);
    EXPECT_EQ(g.at(1, 1), 50.0f);
    EXPECT_EQ(g.at(1, 2), kNoData);
    EXPECT_EQ(g.min, 50.0f);
    EXPECT_EQ(g.max, 200.0f);
}

TEST(Latency, TheLessonsBuffersWinOverTheCostModel) {
    trace::Trace t = launch(2, 64); // 2 warps per block
    atomic(t, 0, 0x0, 1, true, 7);  // the cost model says 7; the kernel measured otherwise
    std::vector<uint64_t> cycles(128);
    std::vector<uint32_t> sm(128);
    for (uint32_t i = 0; i < 128; ++i) {
        cycles[i] = 1000 + i;             // warp w's mean: 1000 + 32w + 15.5
        sm[i] = (i / 64) == 0 ? 3u : 1u;  // block 0 on SM 3, block 1 on SM 1
    }
    const scenario::Scenario s = latency_lesson();
    const ui::ThreadLatencies lat =
        ui::thread_latencies(t, &s, {buffer("g_cycles", cycles), buffer("g_smid", sm)});
    EXPECT_EQ(lat.source, "g_cycles");
    EXPECT_TRUE(lat.measured_sm);
    EXPECT_EQ(lat.cycles[0], 1000.0f);
    EXPECT_EQ(lat.sm[64], 1);
    std::vector<uint32_t> ids;
    const HeatGrid g = ui::sm_warp_grid(t, lat, &ids);
    ASSERT_EQ(g.rows, 4u); // SMs 0..3 (0 and 2 ran nothing)
    ASSERT_EQ(g.cols, 2u); // each busy SM ran 2 warps
    EXPECT_EQ(g.at(0, 0), kNoData);
    EXPECT_FLOAT_EQ(g.at(3, 0), 1015.5f);      // block 0 warp 0
    EXPECT_FLOAT_EQ(g.at(3, 1), 1047.5f);      // block 0 warp 1
    EXPECT_FLOAT_EQ(g.at(1, 0), 1000 + 64 + 15.5f);
    EXPECT_EQ(ids[3 * 2 + 1], 1u);             // global warp 1
    EXPECT_EQ(ids[1 * 2 + 1], 3u);             // block 1 warp 1
}

TEST(Latency, NoneWithoutBuffersOrTiming) {
    trace::Trace t = launch(1, 32);
    atomic(t, 0, 0x0, 1);
    const ui::ThreadLatencies lat = ui::thread_latencies(t, nullptr, {});
    EXPECT_FALSE(lat.any());
    EXPECT_TRUE(ui::block_thread_grid(t, lat).empty());
    EXPECT_TRUE(ui::sm_warp_grid(t, lat).empty());
}

TEST(Latency, ManyBlocksFoldIntoRows) {
    trace::Trace t = launch(10, 2);
    for (uint32_t i = 0; i < 20; ++i)
        atomic(t, i, 0x0, i, true, 10 * (i / 2)); // block b: latency 10b
    const ui::ThreadLatencies lat = ui::thread_latencies(t, nullptr, {});
    const HeatGrid g = ui::block_thread_grid(t, lat, 4);
    EXPECT_EQ(g.row_fold, 3u);
    EXPECT_EQ(g.rows, 4u);
    EXPECT_FLOAT_EQ(g.at(0, 0), 10.0f); // blocks 0-2: 0, 10, 20
    EXPECT_FLOAT_EQ(g.at(3, 1), 90.0f); // block 9 alone
}

TEST(Cells, HoverFindsTheCellInTheZoomedWindow) {
    HeatGrid g;
    g.rows = 4;
    g.cols = 10;
    g.values.assign(40, 0);
    ui::CellHit hit;
    ASSERT_TRUE(ui::cell_at(g, 0.0, 0.0, 0, 1, 0, 1, hit));
    EXPECT_EQ(hit.row, 0u);
    EXPECT_EQ(hit.col, 0u);
    ASSERT_TRUE(ui::cell_at(g, 0.999, 0.999, 0, 1, 0, 1, hit));
    EXPECT_EQ(hit.row, 3u);
    EXPECT_EQ(hit.col, 9u);
    // The right half in view: the middle of the picture is column 7.
    ASSERT_TRUE(ui::cell_at(g, 0.5, 0.1, 0.5, 1.0, 0.5, 1.0, hit));
    EXPECT_EQ(hit.col, 7u);
    EXPECT_EQ(hit.row, 2u);
    EXPECT_FALSE(ui::cell_at(g, 1.0, 0.5, 0, 1, 0, 1, hit));
    EXPECT_FALSE(ui::cell_at(g, -0.01, 0.5, 0, 1, 0, 1, hit));
    EXPECT_FALSE(ui::cell_at(g, 0.5, 0.5, 0.9, 1.4, 0, 1, hit)); // panned past the grid's end
}

TEST(ColourMap, EndsAreTheStopsAndScalesPlaceValues) {
    using namespace synclab::ui::heat;
    const Rgb hot = colour(1.0f), cold = colour(0.0f);
    EXPECT_FLOAT_EQ(hot.r, stops().back().r);
    EXPECT_FLOAT_EQ(cold.b, stops().front().b);
    EXPECT_EQ(colour_u32(1.0f), 0xff25e7fdu); // #fde725 as IM_COL32
    // Brightness rises along the map (perceptual order: a hotter cell never looks darker).
    float last = -1;
    for (int i = 0; i <= 16; ++i) {
        const Rgb c = colour(float(i) / 16);
        const float luma = 0.2126f * c.r + 0.7152f * c.g + 0.0722f * c.b;
        EXPECT_GT(luma, last) << "t = " << i / 16.0;
        last = luma;
    }
    EXPECT_FLOAT_EQ(normalise(50, 0, 100, false), 0.5f);
    EXPECT_NEAR(normalise(1000, 100, 100000, true), 1.0f / 3.0f, 1e-5);
    EXPECT_FLOAT_EQ(normalise(5, 5, 5, false), 1.0f); // all the same: all hot
    EXPECT_FLOAT_EQ(normalise(-3, 0, 10, false), 0.0f);
    EXPECT_NEAR(value_at(1.0f / 3.0f, 100, 100000, true), 1000.0f, 0.5f);
}

// [SECTION] One colour scale for the runs shown together

using synclab::ui::ColourRange;
using synclab::ui::HeatPeaks;
using synclab::ui::HeatScale;

HeatGrid grid_of(std::vector<float> values, double x0 = 0, double x1 = 0) {
    HeatGrid g;
    g.rows = 1;
    g.cols = uint32_t(values.size());
    g.values = std::move(values);
    g.x0 = x0;
    g.x1 = x1 ? x1 : g.cols;
    g.finish();
    return g;
}

// A run alone is drawn on its own range; beside a hotter run, on that run's: the fixed variant's
// deepest queue of 10 is a tenth of the way up a scale that the broken one's 100 tops.
TEST(SharedScale, QueueDepthAndLatencyTakeTheRangeOfEveryRunShown) {
    const HeatGrid fixed = grid_of({2, 10, 5});
    EXPECT_EQ(synclab::ui::colour_range(HeatScale::QueueDepth, fixed, {}, true, false).hi, 10.0f);
    HeatPeaks broken;
    broken.timed = true;
    broken.depth = 100;
    const ColourRange r = synclab::ui::colour_range(HeatScale::QueueDepth, fixed, {broken}, true, false);
    EXPECT_EQ(r.lo, 0.0f);
    EXPECT_EQ(r.hi, 100.0f);
    // Latencies: from the lowest of all to the highest of all.
    broken.latency = true;
    broken.block_thread_lo = 50;
    broken.block_thread_hi = 9000;
    const HeatGrid lat = grid_of({300, 800, 600});
    const ColourRange l = synclab::ui::colour_range(HeatScale::BlockThread, lat, {broken}, true, false);
    EXPECT_EQ(l.lo, 50.0f);
    EXPECT_EQ(l.hi, 9000.0f);
    // A run without latencies adds nothing to a latency scale.
    HeatPeaks none;
    EXPECT_EQ(synclab::ui::colour_range(HeatScale::BlockThread, lat, {none}, true, false).hi, 800.0f);
}

// Operations per cell depend on the cell's width: another run's count is its busiest window as wide
// as this grid's columns, so equal rates look alike whatever each map's time span.
TEST(SharedScale, OperationsCompareAtThisGridsColumnWidth) {
    trace::Trace t = launch(1, 64);
    // 64 atomics on one address, one per 10 cycles (timed), then a burst of 32 at one cycle.
    for (uint32_t i = 0; i < 64; ++i)
        atomic(t, i, 0x1000, 10 * i, true, 0, 0);
    for (uint32_t i = 0; i < 32; ++i)
        atomic(t, i, 0x1000, 1000, true, 0, 0);
    ContentionIndex idx;
    idx.build(t);
    const HeatPeaks p = synclab::ui::heat_peaks(idx, HeatGrid{}, HeatGrid{});
    ASSERT_FALSE(p.ops_profile.empty());
    EXPECT_EQ(p.ops_profile.back().second, 96.0) << "the widest window holds every atomic";
    // A window of 1 cycle holds the burst; windows grow, counts never shrink.
    EXPECT_GE(synclab::ui::ops_at(p.ops_profile, 1.0), 32.0);
    for (size_t i = 1; i < p.ops_profile.size(); ++i)
        EXPECT_GE(p.ops_profile[i].second, p.ops_profile[i - 1].second);
    // The other map's columns are 100 cycles wide: the scale reaches at least the burst.
    const HeatGrid mine = grid_of({1, 2, 3}, 0, 300);
    const ColourRange r = synclab::ui::colour_range(HeatScale::Operations, mine, {p}, true, false);
    EXPECT_GE(r.hi, 32.0f);
    EXPECT_LE(r.hi, 96.0f);
    // Event time and modelled cycles are different clocks: an untimed run's counts are left out.
    EXPECT_EQ(synclab::ui::colour_range(HeatScale::Operations, mine, {p}, false, false).hi, 3.0f);
}

TEST(SharedScale, OpsAtIsExactAtTheProfilesWidthsAndBoundedBetween) {
    const std::vector<std::pair<double, double>> profile = {{1, 4}, {2, 6}, {4, 7}};
    EXPECT_EQ(synclab::ui::ops_at(profile, 1), 4.0);
    EXPECT_EQ(synclab::ui::ops_at(profile, 2), 6.0);
    EXPECT_EQ(synclab::ui::ops_at(profile, 0.5), 2.0);
    EXPECT_EQ(synclab::ui::ops_at(profile, 3), std::min(6.0 * 1.5, 7.0));
    EXPECT_EQ(synclab::ui::ops_at(profile, 100), 7.0);
    EXPECT_EQ(synclab::ui::ops_at({}, 5), 0.0);
}

} // namespace
