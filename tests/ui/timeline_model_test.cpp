// The timeline model (app/ui/model/timeline_model.h): index, layout, preprocess (visible range, folding,
// clipping), finding arrows, hit testing, fit/focus, and one real simulator run.
//
// Index of this file
// [SECTION] Synthetic traces
// [SECTION] Index
// [SECTION] Layout
// [SECTION] Preprocess: visible range, folding, spans, bands
// [SECTION] Findings
// [SECTION] Hit testing, fit, focus
// [SECTION] A real run
#include "timeline_test_util.h"
#include "ui/model/timeline_model.h"

#include "runner/runner.h"
#include "scenario/scenario.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

namespace synclab::ui {
namespace {

using testing::Synth;
using trace::Event;
using trace::EventKind;
using trace::Space;

// [SECTION] Synthetic traces -------------------------------------------------------------------------

// A viewport over camera time [t0, t1] at `width` px showing every row.
Viewport view_of(double t0, double t1, float width, float height = 1e6f) {
    Viewport v;
    v.range = {t0, t1};
    v.width = width;
    v.y0 = 0;
    v.y1 = height;
    return v;
}

// Items of one layout row.
std::vector<EventItem> items_of(const TimelineFrame& frame, uint32_t row) {
    std::vector<EventItem> out;
    for (const EventItem& e : frame.events)
        if (e.row == row) out.push_back(e);
    return out;
}

// One thread with events at the given times (stores at site 1).
trace::Trace single_thread(const std::vector<uint64_t>& times) {
    Synth s(1, 1);
    const uint16_t site = s.site(7);
    for (uint64_t t : times)
        s.store(t, 0, site, 0);
    return s.trace();
}

// The first row of a kind in a layout.
uint32_t first_row(const TimelineLayout& layout, RowKind kind) {
    for (uint32_t r = 0; r < layout.rows.size(); ++r)
        if (layout.rows[r].kind == kind) return r;
    return kNoRow;
}

// [SECTION] Index ------------------------------------------------------------------------------------

TEST(TimelineIndex, EmptyTraceHasNoRowsAndAnEmptyFrame) {
    trace::Trace empty;
    TimelineIndex index(empty);
    EXPECT_TRUE(index.empty());
    EXPECT_TRUE(index.blocks().empty());
    const TimelineLayout layout = layout_rows(index, TimelineExpansion::initial(index), RowMetrics{});
    EXPECT_TRUE(layout.rows.empty());
    EXPECT_EQ(layout.height, 0);
    TimelineFrame frame;
    preprocess(index, layout, view_of(0, 1, 800), frame);
    EXPECT_TRUE(frame.events.empty());
    EXPECT_EQ(frame.first_row, frame.last_row);
    const TimeRange fit = fit_range(index);
    EXPECT_EQ(fit.t0, 0);
    EXPECT_EQ(fit.t1, 1);
    EXPECT_EQ(hit_test(frame, layout, 10, 10).what, Hit::What::None);
}

TEST(TimelineIndex, ThreadsWithoutEventsStillGetRows) {
    Synth s(2, 40);
    trace::Trace& t = s.trace();
    TimelineIndex index(t);
    ASSERT_EQ(index.blocks().size(), 2u);
    ASSERT_EQ(index.warps().size(), 4u); // 40 threads: a full warp and one of 8 lanes
    EXPECT_EQ(index.warps()[1].lane_count, 8u);
    EXPECT_TRUE(index.empty());
}

TEST(TimelineIndex, RowsAreOrderedByBlockWarpLaneWhateverTheTableOrder) {
    Synth s(3, 64);
    trace::Trace& t = s.trace();
    std::mt19937 rng(7);
    std::shuffle(t.threads.begin(), t.threads.end(), rng);
    TimelineIndex index(t);
    ASSERT_EQ(index.blocks().size(), 3u);
    ASSERT_EQ(index.warps().size(), 6u);
    ASSERT_EQ(index.thread_rows().size(), 192u);
    for (uint32_t slot = 0; slot < 192; ++slot) {
        const trace::ThreadInfo& info = t.threads[index.thread_rows()[slot].thread];
        EXPECT_EQ(info.block, slot / 64);
        EXPECT_EQ(info.warp, (slot % 64) / 32);
        EXPECT_EQ(info.lane, slot % 32);
        EXPECT_EQ(index.thread_slot(index.thread_rows()[slot].thread), slot);
    }
    EXPECT_EQ(index.block_slot(2), 2u);
    EXPECT_EQ(index.block_slot(9), kNoRow);
}

TEST(TimelineIndex, EachRowHoldsItsEventsInTimeOrder) {
    Synth s(2, 64);
    const uint16_t site = s.site(3);
    // Warp 0 and warp 1 of block 0 interleave; block 1 runs later.
    for (uint64_t time = 0; time < 10; ++time) {
        s.store(time, s.thread(0, time % 2 ? 33 : 1), site, 4 * time);
        s.store(time, s.thread(0, 2), site, 4 * time); // same tick: trace order kept
    }
    s.load(20, s.thread(1, 5), site, 0);
    TimelineIndex index(s.trace());
    EXPECT_EQ(index.block_events().row(0).size(), 20u);
    EXPECT_EQ(index.block_events().row(1).size(), 1u);
    EXPECT_EQ(index.warp_events().row(0).size(), 15u);
    EXPECT_EQ(index.warp_events().row(1).size(), 5u);
    EXPECT_EQ(index.thread_events().row(2).size(), 10u); // thread 2 of block 0
    for (size_t r = 0; r < index.warp_events().rows(); ++r) {
        const auto row = index.warp_events().row(r);
        EXPECT_TRUE(std::is_sorted(row.begin(), row.end())) << "row " << r; // stable: trace order
    }
    EXPECT_EQ(index.time_begin(), 0u);
    EXPECT_EQ(index.time_end(), 20u);
}

TEST(TimelineIndex, UnsortedEventsAreSortedPerRow) {
    Synth s(1, 2);
    const uint16_t site = s.site(3);
    s.store(30, 0, site, 0);
    s.store(10, 0, site, 0);
    s.store(20, 1, site, 0);
    TimelineIndex index(s.trace());
    const auto row = index.thread_events().row(0);
    ASSERT_EQ(row.size(), 2u);
    EXPECT_EQ(index.event_time(row[0]), 10u);
    EXPECT_EQ(index.event_time(row[1]), 30u);
    EXPECT_EQ(index.time_begin(), 10u);
    EXPECT_EQ(index.time_end(), 30u);
}

TEST(TimelineIndex, BarrierWaitsPerThreadWarpAndBlock) {
    Synth s(1, 64);
    const uint16_t bar = s.site(12, "bar.sync 0");
    // Lanes 0-3 of warp 0 and lane 32 of warp 1 arrive at 10..14, all leave at 20.
    for (uint32_t t : {0u, 1u, 2u, 3u, 32u})
        s.arrive(10 + (t % 32) + (t / 32) * 4, t, bar, 0);
    for (uint32_t t : {0u, 1u, 2u, 3u, 32u})
        s.leave(20, t, bar, 0);
    // A second phase for thread 0 only.
    s.arrive(30, 0, bar, 1);
    s.leave(35, 0, bar, 1);
    TimelineIndex index(s.trace());
    const auto t0 = index.thread_waits().row(index.thread_slot(0));
    ASSERT_EQ(t0.size(), 2u);
    EXPECT_EQ(t0[0].t0, 10u);
    EXPECT_EQ(t0[0].t1, 20u);
    EXPECT_EQ(t0[1].t0, 30u);
    EXPECT_EQ(t0[1].t1, 35u);
    EXPECT_EQ(t0[1].phase, 1u);
    const auto w0 = index.warp_waits().row(0);
    ASSERT_EQ(w0.size(), 2u);
    EXPECT_EQ(w0[0].t0, 10u); // first arrive of the warp's lanes
    EXPECT_EQ(w0[0].t1, 20u); // last leave
    EXPECT_EQ(w0[0].threads, 4u);
    const auto b0 = index.block_waits().row(0);
    ASSERT_EQ(b0.size(), 2u);
    EXPECT_EQ(b0[0].threads, 5u);
    EXPECT_EQ(b0[0].t1, 20u);
}

TEST(TimelineIndex, ThreadsLeftWaitingGetOpenWaitsToTheEnd) {
    Synth s(1, 32);
    const uint16_t bar = s.site(12, "bar.sync 0");
    const uint16_t st = s.site(13);
    s.arrive(5, 0, bar, 0);
    s.store(9, 1, st, 0);
    s.exit(50, 1);
    s.end_waiting(0, bar);
    TimelineIndex index(s.trace());
    EXPECT_TRUE(index.deadlocked());
    EXPECT_TRUE(index.blocks()[0].waiting);
    EXPECT_TRUE(index.warps()[0].waiting);
    const auto w = index.thread_waits().row(index.thread_slot(0));
    ASSERT_EQ(w.size(), 1u);
    EXPECT_TRUE(w[0].open);
    EXPECT_EQ(w[0].t0, 5u);
    EXPECT_EQ(w[0].t1, 50u); // the end of the trace
    EXPECT_TRUE(index.warp_waits().row(0)[0].open);

    const TimelineLayout layout = layout_rows(index, TimelineExpansion::initial(index), RowMetrics{});
    TimelineFrame frame;
    preprocess(index, layout, view_of(0, 60, 600), frame);
    ASSERT_EQ(frame.markers.size(), 2u);          // block row and warp row
    EXPECT_NEAR(frame.markers[0].x, 450.f, 1e-3); // camera time 45 = trace time 50
}

// A lane stuck at a barrier its warp never executed (its warp-mate went elsewhere: an aligned barrier
// waits for every running lane to be at it) has no arrival there. Its wait is at its end site, from
// its last event on, and labelled with that barrier's line, not with the barrier it passed before
// (grid_sync's hand-made barrier: "line 71" beside a finding at line 79).
TEST(TimelineIndex, AWaitNoArrivalRecordsIsAtTheThreadsEndSite) {
    Synth s(1, 32);
    const uint16_t first = s.site(71, "bar.sync 0");
    const uint16_t spin = s.site(75, "ld.volatile.global.u32 %r8, [%rd1]");
    const uint16_t second = s.site(79, "bar.sync 0");
    for (uint32_t t : {0u, 1u}) {
        s.arrive(10, t, first, 0);
        s.leave(20, t, first, 0);
    }
    s.load(30, 0, spin, 64);
    s.load(90, 0, spin, 64);
    s.end_waiting(1, second); // thread 1 waits at line 79, thread 0 spins at line 75
    TimelineIndex index(s.trace());
    const auto waits = index.thread_waits().row(index.thread_slot(1));
    ASSERT_EQ(waits.size(), 2u);
    EXPECT_FALSE(waits[0].open);
    EXPECT_EQ(waits[0].site, first);
    EXPECT_TRUE(waits[1].open);
    EXPECT_EQ(waits[1].site, second) << "the wait the run ended in is at the thread's end site";
    EXPECT_EQ(waits[1].barrier, kUnrecordedBarrier);
    EXPECT_EQ(waits[1].arrive, kNoEvent);
    EXPECT_EQ(waits[1].t0, 20u) << "from its last event on";
    EXPECT_EQ(waits[1].t1, 90u);
    EXPECT_EQ(index.warp_waits().row(0).back().site, second);

    // Both waits labelled: they meet end to end, and each keeps its own line.
    const TimelineLayout layout = layout_rows(index, TimelineExpansion::initial(index), RowMetrics{});
    TimelineFrame frame;
    preprocess(index, layout, view_of(0, 80, 800), frame);
    std::vector<uint32_t> labelled;
    for (const SpanItem& item : frame.waits)
        if (item.one_site && layout.rows[item.row].kind == RowKind::Warp)
            labelled.push_back(index.trace().sites[index.warp_waits().spans[item.span].site].source_line);
    EXPECT_EQ(labelled, (std::vector<uint32_t>{71, 79}));

    // The deadlock's marks are where the threads are at the end: thread 1 where its wait starts,
    // thread 0 at its spinning load; neither at the barrier of line 71.
    analysis::Finding dead;
    dead.kind = analysis::FindingKind::Deadlock;
    dead.threads = {1, 0};
    const FindingEvents r = resolve_finding(index, dead);
    ASSERT_EQ(r.others.size(), 2u);
    EXPECT_EQ(index.trace().events[r.others[0]].time, 20u);
    EXPECT_EQ(index.trace().events[r.others[1]].site, spin);
    EXPECT_EQ(index.trace().events[r.others[1]].time, 90u);
}

TEST(TimelineIndex, PhaseBandsFollowReleases) {
    Synth s(1, 2);
    const uint16_t bar = s.site(12, "bar.sync 0");
    const uint16_t st = s.site(13);
    s.store(0, 0, st, 0);
    s.arrive(10, 0, bar, 0);
    s.arrive(12, 1, bar, 0);
    s.leave(20, 0, bar, 0);
    s.leave(21, 1, bar, 0);
    s.arrive(30, 0, bar, 1);
    s.arrive(31, 1, bar, 1);
    s.leave(40, 0, bar, 1);
    s.leave(40, 1, bar, 1);
    s.store(60, 1, st, 0);
    TimelineIndex index(s.trace());
    const auto& bands = index.blocks()[0].bands;
    ASSERT_EQ(bands.size(), 3u);
    EXPECT_EQ(bands[0].t0, 0u);
    EXPECT_EQ(bands[0].t1, 21u); // last release of phase 0
    EXPECT_EQ(bands[1].t0, 20u); // first release of phase 0
    EXPECT_EQ(bands[1].t1, 40u);
    EXPECT_EQ(bands[2].t0, 40u);
    EXPECT_EQ(bands[2].t1, 60u); // the block's last event
    EXPECT_EQ(bands[2].phase, 2u);
}

// [SECTION] Layout -----------------------------------------------------------------------------------

TEST(TimelineLayout, BlocksWarpsAndExpandedLanes) {
    Synth s(2, 64);
    TimelineIndex index(s.trace());
    TimelineExpansion x = TimelineExpansion::initial(index);
    ASSERT_TRUE(x.block_open(0));
    ASSERT_TRUE(x.block_open(1));
    RowMetrics m{20, 10, 5, 1};
    TimelineLayout layout = layout_rows(index, x, m);
    ASSERT_EQ(layout.rows.size(), 6u); // block, warp, warp, block, warp, warp
    EXPECT_EQ(layout.rows[0].kind, RowKind::Block);
    EXPECT_EQ(layout.rows[1].kind, RowKind::Warp);
    EXPECT_EQ(layout.rows[1].y, 21.f);
    EXPECT_EQ(layout.rows[3].kind, RowKind::Block);
    EXPECT_EQ(layout.rows[3].slot, 1u);
    EXPECT_EQ(layout.rows[3].y, 43.f);
    EXPECT_EQ(layout.height, 85.f); // no gap after the last row

    x.toggle_warp(1); // block 0, warp 1: 32 lanes
    layout = layout_rows(index, x, m);
    ASSERT_EQ(layout.rows.size(), 38u);
    EXPECT_EQ(layout.rows[3].kind, RowKind::Thread);
    EXPECT_EQ(layout.rows[3].slot, 32u);
    EXPECT_EQ(layout.rows[34].slot, 63u);
    EXPECT_EQ(layout.rows[35].kind, RowKind::Block);
    EXPECT_EQ(layout.lane_row[40], 11u);
    EXPECT_EQ(layout.block_extent[0].first, 0.f);
    EXPECT_EQ(layout.block_extent[0].second, layout.rows[34].bottom());
    // The deepest visible row of a thread: lane, else warp.
    EXPECT_EQ(layout.row_of_thread(index, s.thread(0, 40)), 11u);
    EXPECT_EQ(layout.row_of_thread(index, s.thread(0, 3)), 1u);
    EXPECT_EQ(layout.row_of_thread(index, s.thread(1, 3)), 36u);

    x.toggle_block(1); // closed: its threads show on the block row
    layout = layout_rows(index, x, m);
    EXPECT_EQ(layout.rows.size(), 36u);
    EXPECT_EQ(layout.row_of_thread(index, s.thread(1, 40)), 35u);
    EXPECT_EQ(layout.warp_row[3], kNoRow);

    // Visible-row search at the edges.
    const auto [a, b] = layout.rows_in(0, 1);
    EXPECT_EQ(a, 0u);
    EXPECT_EQ(b, 1u);
    const auto [c, d] = layout.rows_in(20.5f, 21.5f); // the gap after row 0, then row 1
    EXPECT_EQ(c, 1u);
    EXPECT_EQ(d, 2u);
    const auto [e, f] = layout.rows_in(1000, 2000);
    EXPECT_EQ(e, f);
    EXPECT_EQ(layout.row_at(20.5f), kNoRow);
    EXPECT_EQ(layout.row_at(21.f), 1u);
    EXPECT_EQ(layout.row_at(-1.f), kNoRow);
}

// A pinned lane gets its own row under its closed warp, and nothing else of that warp does; a pin in
// a closed block shows nothing (the block row stands for all its threads).
TEST(TimelineLayout, PinnedLanesShowUnderClosedWarps) {
    Synth s(2, 64);
    TimelineIndex index(s.trace());
    TimelineExpansion x = TimelineExpansion::initial(index);
    RowMetrics m{20, 10, 5, 1};
    x.pin_lane(index.thread_slot(s.thread(0, 35)));
    x.pin_lane(index.thread_slot(s.thread(0, 3)));
    TimelineLayout layout = layout_rows(index, x, m);
    ASSERT_EQ(layout.rows.size(), 8u); // block, warp, lane 3, warp, lane 35, block, warp, warp
    EXPECT_EQ(layout.rows[2].kind, RowKind::Thread);
    EXPECT_EQ(layout.rows[2].slot, index.thread_slot(s.thread(0, 3)));
    EXPECT_EQ(layout.rows[4].slot, index.thread_slot(s.thread(0, 35)));
    EXPECT_EQ(layout.row_of_thread(index, s.thread(0, 35)), 4u);
    EXPECT_EQ(layout.row_of_thread(index, s.thread(0, 36)), 3u); // not pinned: its warp's row
    // Opening the warp shows all its lanes once (the pinned one not twice).
    x.toggle_warp(1);
    layout = layout_rows(index, x, m);
    EXPECT_EQ(layout.rows.size(), 8u - 1 + 32);
    x.clear_pins();
    x.toggle_block(0);
    x.pin_lane(index.thread_slot(s.thread(0, 3)));
    layout = layout_rows(index, x, m);
    EXPECT_EQ(layout.rows.size(), 4u); // block 0 closed (no lane row); block 1 and its two warps
}

// Two pinned lanes far apart in one block (lane 0 of warp 0 and lane 255 of warp 7): the warps
// between them fold into one thin row, so that the two lanes' rows come close; the warps around the
// story stay, and unfolding brings every row back.
TEST(TimelineLayout, FoldsTheWarpsBetweenFarApartPins) {
    Synth s(2, 256);
    TimelineIndex index(s.trace());
    TimelineExpansion x = TimelineExpansion::initial(index); // both blocks open, lanes closed
    const RowMetrics m{20, 10, 5, 1};
    x.pin_lane(index.thread_slot(s.thread(0, 255)));
    x.pin_lane(index.thread_slot(s.thread(0, 0)));
    const TimelineLayout unfolded = layout_rows(index, x, m);
    const float apart = unfolded.rows[unfolded.row_of_thread(index, s.thread(0, 255))].y -
                        unfolded.rows[unfolded.row_of_thread(index, s.thread(0, 0))].y;

    x.fold_between_pins(index);
    const TimelineLayout layout = layout_rows(index, x, m);
    // block 0, warp 0, lane 0, (the fold: warps 1-6), warp 7, lane 255; block 1 and its 8 warps
    ASSERT_EQ(layout.rows.size(), 5u + 9u);
    ASSERT_EQ(layout.folds.size(), 1u);
    const TimelineFold& fold = layout.folds[0];
    EXPECT_EQ(fold.first_warp, 1u);
    EXPECT_EQ(fold.warps, 6u);
    EXPECT_EQ(fold.blocks, 0u);
    EXPECT_EQ(fold.height, m.thread_height);
    const uint32_t first = layout.row_of_thread(index, s.thread(0, 0));
    const uint32_t second = layout.row_of_thread(index, s.thread(0, 255));
    ASSERT_EQ(first, 2u);
    ASSERT_EQ(second, 4u);
    EXPECT_EQ(layout.rows[3].kind, RowKind::Warp); // warp 7, right under the fold
    EXPECT_EQ(index.warps()[layout.rows[3].slot].warp, 7u);
    EXPECT_FLOAT_EQ(fold.y, layout.rows[first].bottom() + m.gap);
    EXPECT_FLOAT_EQ(layout.rows[3].y, fold.bottom() + m.gap);
    EXPECT_LT(layout.rows[second].y - layout.rows[first].y, apart / 3);
    EXPECT_EQ(layout.fold_at(fold.y + 1), &layout.folds[0]);
    EXPECT_EQ(layout.row_at(fold.y + 1), kNoRow);
    EXPECT_EQ(layout.row_of_thread(index, s.thread(0, 100)), layout.block_row[0]); // in a folded warp
    // The block's extent (its barrier bands) still covers the fold.
    EXPECT_FLOAT_EQ(layout.block_extent[0].second, layout.rows[second].bottom());

    x.unfold(fold);
    const TimelineLayout back = layout_rows(index, x, m);
    EXPECT_TRUE(back.folds.empty());
    EXPECT_EQ(back.rows.size(), unfolded.rows.size());
}

// Pinned lanes in blocks far apart (0 and 9): the warps of block 0 after the pinned one and the
// blocks between fold into one row; the pinned lanes' blocks and warps keep their rows.
TEST(TimelineLayout, FoldsTheBlocksBetweenPinsInDifferentBlocks) {
    Synth s(12, 64);
    TimelineIndex index(s.trace());
    TimelineExpansion x = TimelineExpansion::initial(index); // only block 0 open (12 blocks)
    const RowMetrics m{20, 10, 5, 1};
    x.toggle_block(9);
    x.pin_lane(index.thread_slot(s.thread(0, 0)));
    x.pin_lane(index.thread_slot(s.thread(9, 0)));
    x.fold_between_pins(index);
    const TimelineLayout layout = layout_rows(index, x, m);
    ASSERT_EQ(layout.folds.size(), 1u);
    const TimelineFold& fold = layout.folds[0];
    EXPECT_EQ(fold.first_warp, 1u); // warp 1 of block 0
    EXPECT_EQ(fold.warps, 1u);
    EXPECT_EQ(fold.first_block, 1u); // blocks 1-8
    EXPECT_EQ(fold.blocks, 8u);
    EXPECT_EQ(layout.block_row[4], kNoRow);
    // block 0, warp 0, lane 0, (the fold), block 9, warp 0, lane 0, warp 1, blocks 10, 11
    EXPECT_EQ(layout.rows.size(), 3u + 4u + 2u);
    const uint32_t a = layout.row_of_thread(index, s.thread(0, 0));
    const uint32_t b = layout.row_of_thread(index, s.thread(9, 0));
    EXPECT_EQ(b - a, 3u); // lane 0, block 9, warp 0, lane 0
    EXPECT_FLOAT_EQ(layout.rows[a + 1].y - layout.rows[a].bottom(), m.thread_height + 2 * m.gap);
    EXPECT_EQ(layout.row_of_thread(index, s.thread(5, 3)), kNoRow); // in a folded block

    // One pin: nothing to bring together, nothing folded.
    x.clear_pins();
    x.pin_lane(index.thread_slot(s.thread(0, 0)));
    x.fold_between_pins(index);
    EXPECT_TRUE(layout_rows(index, x, m).folds.empty());
}

// [SECTION] Preprocess: visible range, folding, spans, bands ----------------------------------------

TEST(TimelinePreprocess, VisibleRangeAtTheEdges) {
    std::vector<uint64_t> times;
    for (uint64_t t = 0; t < 100; ++t)
        times.push_back(t);
    trace::Trace t = single_thread(times);
    TimelineIndex index(t);
    const TimelineLayout layout = layout_rows(index, TimelineExpansion::initial(index), RowMetrics{});
    const uint32_t row = first_row(layout, RowKind::Block);
    TimelineFrame frame;

    preprocess(index, layout, view_of(10, 20, 1000), frame); // 100 px per tick
    auto items = items_of(frame, row);
    ASSERT_EQ(items.size(), 11u);
    EXPECT_EQ(index.event_time(items.front().event), 10u);
    EXPECT_EQ(index.event_time(items.back().event), 20u);
    EXPECT_FLOAT_EQ(items.front().x0, 0.f);
    EXPECT_FLOAT_EQ(items.back().x0, 1000.f);

    preprocess(index, layout, view_of(-50, 5, 550), frame); // before the start
    items = items_of(frame, row);
    ASSERT_EQ(items.size(), 6u);
    EXPECT_EQ(index.event_time(items.front().event), 0u);

    preprocess(index, layout, view_of(99, 300, 2010), frame); // the last event on the left edge
    items = items_of(frame, row);
    ASSERT_EQ(items.size(), 1u);
    EXPECT_EQ(index.event_time(items[0].event), 99u);

    preprocess(index, layout, view_of(100.5, 300, 2000), frame); // past the end
    EXPECT_TRUE(items_of(frame, row).empty());
    preprocess(index, layout, view_of(-300, -0.5, 2000), frame); // before the start
    EXPECT_TRUE(items_of(frame, row).empty());
}

TEST(TimelinePreprocess, ZeroWidthRangeOrZeroPixelsGiveNothing) {
    trace::Trace t = single_thread({1, 2, 3});
    TimelineIndex index(t);
    const TimelineLayout layout = layout_rows(index, TimelineExpansion::initial(index), RowMetrics{});
    TimelineFrame frame;
    preprocess(index, layout, view_of(2, 2, 800), frame);
    EXPECT_TRUE(frame.events.empty());
    preprocess(index, layout, view_of(3, 1, 800), frame);
    EXPECT_TRUE(frame.events.empty());
    preprocess(index, layout, view_of(0, 4, 0), frame);
    EXPECT_TRUE(frame.events.empty());
    Viewport no_height = view_of(0, 4, 800);
    no_height.y1 = no_height.y0;
    preprocess(index, layout, no_height, frame);
    EXPECT_TRUE(frame.events.empty());
}

TEST(TimelinePreprocess, OneEventTrace) {
    trace::Trace t = single_thread({1234});
    TimelineIndex index(t);
    const TimeRange fit = fit_range(index);
    EXPECT_LT(fit.t0, 0);
    EXPECT_GT(fit.t1, 0);
    const TimelineLayout layout = layout_rows(index, TimelineExpansion::initial(index), RowMetrics{});
    TimelineFrame frame;
    preprocess(index, layout, view_of(fit.t0, fit.t1, 800), frame);
    const auto items = items_of(frame, first_row(layout, RowKind::Block));
    ASSERT_EQ(items.size(), 1u);
    EXPECT_EQ(items[0].count, 1u);
    EXPECT_NEAR(items[0].x0, 400.f, 1e-3); // centred
}

TEST(TimelinePreprocess, EventsInOnePixelFoldIntoOneItemWithTheirCount) {
    std::vector<uint64_t> times;
    for (uint64_t t = 0; t < 1000; ++t)
        times.push_back(t);
    trace::Trace t = single_thread(times);
    TimelineIndex index(t);
    const TimelineLayout layout = layout_rows(index, TimelineExpansion::initial(index), RowMetrics{});
    TimelineFrame frame;
    preprocess(index, layout, view_of(0, 10000, 10), frame); // 1000 events in 1 px
    const auto items = items_of(frame, first_row(layout, RowKind::Block));
    ASSERT_EQ(items.size(), 1u);
    EXPECT_EQ(items[0].count, 1000u);
    EXPECT_EQ(items[0].event, 0u);
    EXPECT_EQ(items[0].last, 999u);
    EXPECT_FALSE(items[0].uniform); // too many to check: drawn as folded
}

TEST(TimelinePreprocess, OneWarpInstructionAtOneTickIsAUniformFold) {
    Synth s(1, 32);
    const uint16_t st = s.site(4);
    for (uint32_t lane = 0; lane < 32; ++lane)
        s.store(7, lane, st, 4 * lane);
    for (uint32_t lane = 0; lane < 31; ++lane)
        s.store(8, lane, st, 4 * lane);
    s.load(8, 31, st, 0); // one lane of the next tick does something else
    TimelineIndex index(s.trace());
    const TimelineLayout layout = layout_rows(index, TimelineExpansion::initial(index), RowMetrics{});
    TimelineFrame frame;
    preprocess(index, layout, view_of(0, 20, 2000), frame); // 100 px per tick
    const auto items = items_of(frame, first_row(layout, RowKind::Warp));
    ASSERT_EQ(items.size(), 2u);
    EXPECT_EQ(items[0].count, 32u);
    EXPECT_TRUE(items[0].uniform);
    EXPECT_EQ(items[0].kind, EventKind::Store);
    EXPECT_EQ(items[1].count, 32u);
    EXPECT_FALSE(items[1].uniform);
}

TEST(TimelinePreprocess, EventsWiderApartStaySeparate) {
    trace::Trace t = single_thread({0, 10, 20, 21, 40});
    TimelineIndex index(t);
    const TimelineLayout layout = layout_rows(index, TimelineExpansion::initial(index), RowMetrics{});
    TimelineFrame frame;
    preprocess(index, layout, view_of(0, 40, 400), frame); // 10 px per tick, fold under 3 px
    const auto items = items_of(frame, first_row(layout, RowKind::Block));
    ASSERT_EQ(items.size(), 5u);
    EXPECT_EQ(items[0].count, 1u);
    EXPECT_EQ(items[2].count, 1u);
    EXPECT_FLOAT_EQ(items[2].x0, 200.f);
    preprocess(index, layout, view_of(0, 40, 100), frame); // 2.5 px per tick: 20 and 21 fold
    const auto folded = items_of(frame, first_row(layout, RowKind::Block));
    ASSERT_EQ(folded.size(), 4u);
    EXPECT_EQ(folded[2].count, 2u);
    EXPECT_FLOAT_EQ(folded[2].x0, 50.f);
    EXPECT_FLOAT_EQ(folded[2].x1, 52.5f);
    EXPECT_TRUE(folded[2].uniform);
}

TEST(TimelinePreprocess, FoldsChainAndCountsAddUpToTheVisibleEvents) {
    // Random gaps over a long row; the items must partition the visible events.
    std::mt19937_64 rng(3);
    std::vector<uint64_t> times{0}; // camera time == trace time
    uint64_t time = 0;
    for (int i = 0; i < 200000; ++i) {
        time += rng() % 4 == 0 ? rng() % 400 : rng() % 3;
        times.push_back(time);
    }
    trace::Trace t = single_thread(times);
    TimelineIndex index(t);
    const TimelineLayout layout = layout_rows(index, TimelineExpansion::initial(index), RowMetrics{});
    const uint32_t row = first_row(layout, RowKind::Block);
    TimelineFrame frame;
    for (const auto& [t0, t1, width] :
         {std::tuple{0.0, double(time), 1500.f}, std::tuple{1000.0, 9000.0, 1200.f},
          std::tuple{5000.0, 5100.0, 1000.f}}) {
        Viewport v = view_of(t0, t1, width);
        preprocess(index, layout, v, frame);
        const auto items = items_of(frame, row);
        uint64_t counted = 0;
        for (size_t i = 0; i < items.size(); ++i) {
            counted += items[i].count;
            if (i > 0) {
                EXPECT_GE(items[i].x0 - items[i - 1].x1, v.fold_px) << "items " << i - 1 << " and " << i;
            }
        }
        const double margin = v.fold_px / v.px_per_time();
        const uint64_t lo = index.ceil_trace_time(t0 - margin);
        const uint64_t visible = uint64_t(std::count_if(
            times.begin(), times.end(), [&](uint64_t x) { return x >= lo && double(x) <= t1 + margin; }));
        // Every visible event is in an item; the last item's chain may reach a little past t1.
        EXPECT_GE(counted, visible);
        EXPECT_LE(counted, visible + 2000);
        EXPECT_LE(items.size(), size_t(width / v.fold_px) + 2) << "items must be bounded by pixels";
    }
}

// The fold rule with plain linear searches: preprocess() must give exactly these items (its searches
// gallop over the coarse time array, the part most likely to be off by one).
std::vector<EventItem> reference_fold(const TimelineIndex& index, std::span<const uint32_t> items,
                                      const Viewport& v) {
    const auto& events = index.trace().events;
    auto time = [&](size_t p) { return events[items[p]].time; };
    auto seek = [&](size_t from, uint64_t target) {
        while (from < items.size() && time(from) < target)
            ++from;
        return from;
    };
    auto x_of = [&](size_t p) { return v.x_of(index.to_camera(time(p))); };
    const double margin = double(v.fold_px) / v.px_per_time();
    std::vector<EventItem> out;
    size_t i = seek(0, index.ceil_trace_time(v.range.t0 - margin));
    while (i < items.size() && index.to_camera(time(i)) <= v.range.t1 + margin) {
        size_t j = seek(i + 1, index.ceil_trace_time(v.time_at(x_of(i) + v.fold_px)));
        while (j < items.size() && x_of(j) - x_of(j - 1) < v.fold_px && x_of(j) <= v.width + v.fold_px)
            j = seek(j + 1, index.ceil_trace_time(v.time_at(x_of(j) + v.fold_px)));
        EventItem item;
        item.event = items[i];
        item.last = items[j - 1];
        item.count = uint32_t(j - i);
        out.push_back(item);
        i = j;
    }
    return out;
}

TEST(TimelinePreprocess, MatchesALinearScanOverManyViews) {
    std::mt19937_64 rng(11);
    std::vector<uint64_t> times{0};
    uint64_t time = 0;
    for (int i = 0; i < 50000; ++i) {
        const uint64_t r = rng() % 100;
        time += r < 50 ? 0 : r < 90 ? rng() % 5 : rng() % 2000; // ties, small and large gaps
        times.push_back(time);
    }
    trace::Trace t = single_thread(times);
    TimelineIndex index(t);
    const TimelineLayout layout = layout_rows(index, TimelineExpansion::initial(index), RowMetrics{});
    const uint32_t row = first_row(layout, RowKind::Block);
    TimelineFrame frame;
    for (int k = 0; k < 300; ++k) {
        const double length = std::pow(10.0, double(rng() % 700) / 100.0); // 1 .. 1e7 time units
        const double t0 = double(rng() % (time + 1)) - length / 2;
        const Viewport v = view_of(t0, t0 + length, float(200 + rng() % 1800));
        preprocess(index, layout, v, frame);
        const auto got = items_of(frame, row);
        const auto want = reference_fold(index, index.block_events().row(0), v);
        ASSERT_EQ(got.size(), want.size())
            << "view " << k << ": [" << v.range.t0 << ", " << v.range.t1 << "]";
        for (size_t i = 0; i < got.size(); ++i) {
            ASSERT_EQ(got[i].event, want[i].event) << "view " << k << " item " << i;
            ASSERT_EQ(got[i].count, want[i].count) << "view " << k << " item " << i;
            ASSERT_EQ(got[i].last, want[i].last) << "view " << k << " item " << i;
        }
    }
}

TEST(TimelinePreprocess, WaitSpansAreClippedToTheView) {
    Synth s(1, 1);
    const uint16_t bar = s.site(12, "bar.sync 0");
    s.arrive(10, 0, bar, 0);
    s.leave(20, 0, bar, 0);
    TimelineIndex index(s.trace());
    const TimelineLayout layout = layout_rows(index, TimelineExpansion::initial(index), RowMetrics{});
    TimelineFrame frame;
    preprocess(index, layout, view_of(5, 10, 500), frame); // camera 5..10 = trace 15..20: right part
    const uint32_t warp = first_row(layout, RowKind::Warp);
    auto span = std::find_if(frame.waits.begin(), frame.waits.end(),
                             [&](const SpanItem& s) { return s.row == warp; });
    ASSERT_NE(span, frame.waits.end());
    EXPECT_FLOAT_EQ(span->x0, -1.f);
    EXPECT_FLOAT_EQ(span->x1, 500.f);
    preprocess(index, layout, view_of(-10, 2, 1200), frame); // left part of the span
    span = std::find_if(frame.waits.begin(), frame.waits.end(),
                        [&](const SpanItem& s) { return s.row == warp; });
    ASSERT_NE(span, frame.waits.end());
    EXPECT_FLOAT_EQ(span->x0, 1000.f);
    EXPECT_FLOAT_EQ(span->x1, 1201.f);
    preprocess(index, layout, view_of(11, 30, 1000), frame); // after it
    EXPECT_TRUE(frame.waits.empty());
}

TEST(TimelinePreprocess, OnlyRowsOnScreenAreVisited) {
    Synth s(4, 64);
    const uint16_t st = s.site(4);
    for (uint32_t b = 0; b < 4; ++b)
        for (uint32_t t = 0; t < 64; ++t)
            s.store(b * 100 + t, s.thread(b, t), st, 4 * t);
    TimelineIndex index(s.trace());
    TimelineExpansion x = TimelineExpansion::initial(index); // 4 blocks: only block 0 open
    const TimelineLayout layout = layout_rows(index, x, RowMetrics{20, 20, 20, 0});
    ASSERT_EQ(layout.rows.size(), 6u); // block 0, 2 warps, blocks 1-3
    TimelineFrame frame;
    Viewport v = view_of(0, 400, 800);
    v.y0 = 30;
    v.y1 = 70; // rows 1-3
    preprocess(index, layout, v, frame);
    EXPECT_EQ(frame.first_row, 1u);
    EXPECT_EQ(frame.last_row, 4u);
    for (const EventItem& e : frame.events) {
        EXPECT_GE(e.row, 1u);
        EXPECT_LT(e.row, 4u);
    }
}

TEST(TimelinePreprocess, PhaseBandsCoverTheBlocksRowsAndNarrowOnesMerge) {
    Synth s(1, 1);
    const uint16_t bar = s.site(12, "bar.sync 0");
    for (uint32_t phase = 0; phase < 100; ++phase) {
        s.arrive(10 * phase + 5, 0, bar, phase);
        s.leave(10 * phase + 10, 0, bar, phase);
    }
    TimelineIndex index(s.trace());
    ASSERT_EQ(index.blocks()[0].bands.size(), 101u);
    const TimelineLayout layout =
        layout_rows(index, TimelineExpansion::initial(index), RowMetrics{20, 20, 20, 0});
    TimelineFrame frame;
    preprocess(index, layout, view_of(0, 100, 1000), frame); // 100 px per phase
    ASSERT_GE(frame.bands.size(), 10u);
    EXPECT_EQ(frame.bands[0].phase, 0u);
    EXPECT_EQ(frame.bands[1].phase, 1u);
    EXPECT_EQ(frame.bands[0].y0, 0.f);
    EXPECT_EQ(frame.bands[0].y1, 40.f);
    preprocess(index, layout, view_of(0, 1000, 100), frame); // 1 px per phase
    EXPECT_LE(frame.bands.size(), 60u);
    uint32_t phases = 0;
    for (const BandItem& b : frame.bands)
        phases += b.count;
    EXPECT_GE(phases, 100u);
}

// [SECTION] Findings ---------------------------------------------------------------------------------

// Block 0 of 64 threads: thread 3 writes s[3] (line 10), thread 40 reads it (line 11); distractors:
// other threads and blocks touching the same address, and thread 3 writing it again later.
struct RaceFixture {
    Synth s{2, 64};
    uint32_t store_event = 0, load_event = 0;
    analysis::Finding finding;
    RaceFixture() {
        const uint16_t st = s.site(10, "st.shared.u32 [%r1], %r2");
        const uint16_t ld = s.site(11, "ld.shared.u32 %r3, [%r4]");
        s.store(1, s.thread(1, 3), st, 12); // same thread index, other block
        s.store(2, s.thread(0, 3), st, 16); // other address
        store_event = s.store(5, s.thread(0, 3), st, 12);
        s.load(6, s.thread(0, 41), ld, 12); // other thread
        load_event = s.load(9, s.thread(0, 40), ld, 12);
        s.store(30, s.thread(0, 3), st, 12); // after the read
        finding.kind = analysis::FindingKind::Race;
        finding.hazard = analysis::Hazard::RAW;
        finding.space = Space::Shared;
        finding.lines = {10, 11};
        finding.sites = {st, ld};
        finding.threads = {s.thread(0, 3), s.thread(0, 40)};
        finding.address = 12;
        finding.block = 0;
    }
};

TEST(TimelineFindings, RaceResolvesToTheTwoAccesses) {
    RaceFixture f;
    TimelineIndex index(f.s.trace());
    const FindingEvents r = resolve_finding(index, f.finding);
    ASSERT_TRUE(r.has_pair());
    EXPECT_EQ(r.first, f.store_event);
    EXPECT_EQ(r.second, f.load_event);

    const TimelineLayout layout = layout_rows(index, TimelineExpansion::initial(index), RowMetrics{});
    const std::vector<analysis::Finding> findings{f.finding};
    const FindingMarks marks = finding_marks(index, layout, findings, {r});
    ASSERT_EQ(marks.arrows.size(), 1u);
    EXPECT_EQ(marks.arrows[0].from.row, layout.warp_row[0]);
    EXPECT_EQ(marks.arrows[0].to.row, layout.warp_row[1]);
    EXPECT_EQ(marks.arrows[0].from.time, 4.0); // camera time: trace time - first event's (1)
    EXPECT_EQ(marks.arrows[0].to.time, 8.0);
    EXPECT_TRUE(finding_marks(index, layout, findings, {r}, 1).arrows.empty()); // only finding 1: none
}

TEST(TimelineFindings, RaceOnOneLineUsesTheSameSiteForBoth) {
    Synth s(1, 64);
    const uint16_t st = s.site(10);
    const uint32_t a = s.store(3, 1, st, 8);
    const uint32_t b = s.store(4, 2, st, 8);
    analysis::Finding f;
    f.kind = analysis::FindingKind::Race;
    f.hazard = analysis::Hazard::WAW;
    f.lines = {10};
    f.sites = {st};
    f.threads = {1, 2};
    f.address = 8;
    TimelineIndex index(s.trace());
    const FindingEvents r = resolve_finding(index, f);
    EXPECT_EQ(r.first, a);
    EXPECT_EQ(r.second, b);
}

TEST(TimelineFindings, AWiderAccessTouchesTheAddress) {
    Synth s(1, 64);
    const uint16_t st = s.site(10);
    const uint16_t ld = s.site(11);
    const uint32_t a = s.access(EventKind::Store, 3, 1, st, 8, Space::Shared, 8); // bytes 8..15
    const uint32_t b = s.load(4, 2, ld, 12);
    analysis::Finding f;
    f.lines = {10, 11};
    f.sites = {st, ld};
    f.threads = {1, 2};
    f.address = 12;
    TimelineIndex index(s.trace());
    const FindingEvents r = resolve_finding(index, f);
    EXPECT_EQ(r.first, a);
    EXPECT_EQ(r.second, b);
}

TEST(TimelineFindings, ArrowsFollowCollapsedRows) {
    RaceFixture f;
    TimelineIndex index(f.s.trace());
    TimelineExpansion x = TimelineExpansion::initial(index);
    x.toggle_block(0); // closed: both ends on the block row
    const TimelineLayout closed = layout_rows(index, x, RowMetrics{});
    const std::vector<analysis::Finding> findings{f.finding};
    const std::vector<FindingEvents> resolved{resolve_finding(index, f.finding)};
    FindingMarks marks = finding_marks(index, closed, findings, resolved);
    ASSERT_EQ(marks.arrows.size(), 1u);
    EXPECT_EQ(marks.arrows[0].from.row, closed.block_row[0]);
    EXPECT_EQ(marks.arrows[0].to.row, closed.block_row[0]);
    x.toggle_block(0);
    x.toggle_warp(1); // lanes of warp 1: the reader's lane row
    const TimelineLayout open = layout_rows(index, x, RowMetrics{});
    marks = finding_marks(index, open, findings, resolved);
    ASSERT_EQ(marks.arrows.size(), 1u);
    EXPECT_EQ(marks.arrows[0].to.row, open.lane_row[index.thread_slot(f.finding.threads[1])]);
}

TEST(TimelineFindings, FocusFramesBothEvents) {
    RaceFixture f;
    TimelineIndex index(f.s.trace());
    const FindingEvents r = resolve_finding(index, f.finding);
    const TimeRange focus = focus_range(index, r, 0.5, 1);
    const double a = index.to_camera(index.event_time(r.first));
    const double b = index.to_camera(index.event_time(r.second));
    EXPECT_LT(focus.t0, a);
    EXPECT_GT(focus.t1, b);
    EXPECT_NEAR(focus.length(), 2 * (b - a), 1e-9);
    // Wider than the events: centred on them, but never before the run's first event (camera 0).
    const TimeRange wide = focus_range(index, r, 0.5, 100);
    EXPECT_NEAR(wide.length(), 100, 1e-9);
    EXPECT_NEAR(wide.t0, std::max(0.0, (a + b) / 2 - 50), 1e-9);
    EXPECT_GE(wide.t0, 0.0);
    const TimeRange far = focus_range(index, r, 0.5, 4 * (a + b) + 8);
    EXPECT_EQ(far.t0, 0.0) << "a finding near the start is shown from 0, not from before the run";
    EXPECT_GT(far.t1, b);
    const TimeRange none = focus_range(index, FindingEvents{});
    EXPECT_EQ(none.t0, fit_range(index).t0);
}

TEST(TimelineFindings, DivergenceAndDeadlockMarkTheArrivals) {
    Synth s(1, 64);
    const uint16_t bar_a = s.site(20, "bar.sync 0");
    const uint16_t bar_b = s.site(24, "bar.sync 0");
    const uint32_t a = s.arrive(3, 0, bar_a, 0);
    const uint32_t b = s.arrive(4, 33, bar_b, 0);
    s.end_waiting(0, bar_a);
    s.end_waiting(33, bar_b);
    analysis::Finding div;
    div.kind = analysis::FindingKind::BarrierDivergence;
    div.space = Space::Other;
    div.lines = {20, 24};
    div.sites = {bar_a, bar_b};
    div.threads = {0, 33};
    TimelineIndex index(s.trace());
    FindingEvents r = resolve_finding(index, div);
    ASSERT_EQ(r.others.size(), 2u);
    EXPECT_EQ(r.others[0], a);
    EXPECT_EQ(r.others[1], b);
    analysis::Finding dead = div;
    dead.kind = analysis::FindingKind::Deadlock;
    r = resolve_finding(index, dead);
    ASSERT_EQ(r.others.size(), 2u);
    const TimelineLayout layout = layout_rows(index, TimelineExpansion::initial(index), RowMetrics{});
    const FindingMarks marks = finding_marks(index, layout, {div, dead}, {resolve_finding(index, div), r});
    EXPECT_EQ(marks.points.size(), 4u);
    EXPECT_TRUE(marks.arrows.empty());
}

// [SECTION] Hit testing, fit, focus ------------------------------------------------------------------

TEST(TimelineHitTest, NearestItemWithinRadius) {
    trace::Trace t = single_thread({0, 10, 20});
    TimelineIndex index(t);
    const TimelineLayout layout =
        layout_rows(index, TimelineExpansion::initial(index), RowMetrics{20, 20, 20, 0});
    TimelineFrame frame;
    preprocess(index, layout, view_of(0, 20, 200), frame); // events at x 0, 100, 200
    const float y = layout.rows[first_row(layout, RowKind::Block)].y + 5;
    Hit hit = hit_test(frame, layout, 103, y, 4);
    ASSERT_EQ(hit.what, Hit::What::Event);
    EXPECT_EQ(frame.events[hit.item].event, 1u);
    hit = hit_test(frame, layout, 150, y, 4);
    EXPECT_EQ(hit.what, Hit::What::None);
    EXPECT_EQ(hit.row, first_row(layout, RowKind::Block));
    hit = hit_test(frame, layout, 100, 1000, 4); // below the rows
    EXPECT_EQ(hit.what, Hit::What::None);
    EXPECT_EQ(hit.row, kNoRow);
}

TEST(TimelineHitTest, WaitSpanUnderTheMouse) {
    Synth s(1, 1);
    const uint16_t bar = s.site(12, "bar.sync 0");
    s.arrive(0, 0, bar, 0);
    s.leave(100, 0, bar, 0);
    TimelineIndex index(s.trace());
    const TimelineLayout layout =
        layout_rows(index, TimelineExpansion::initial(index), RowMetrics{20, 20, 20, 0});
    TimelineFrame frame;
    preprocess(index, layout, view_of(0, 100, 1000), frame);
    const Hit hit = hit_test(frame, layout, 500, 25, 4); // the warp row, mid-span
    ASSERT_EQ(hit.what, Hit::What::Wait);
    EXPECT_EQ(frame.waits[hit.item].row, 1u);
}

TEST(TimelineCameraMath, FitAndZoom) {
    trace::Trace t = single_thread({100, 1100});
    TimelineIndex index(t);
    const TimeRange fit = fit_range(index, 0.1);
    EXPECT_DOUBLE_EQ(fit.t0, 0) << "the axis starts at the first event";
    EXPECT_DOUBLE_EQ(fit.t1, 1200);
    const TimeRange z = zoom_range({0, 100}, 25, 0.5);
    EXPECT_DOUBLE_EQ(z.t0, 12.5);
    EXPECT_DOUBLE_EQ(z.t1, 62.5);
    const TimeRange tiny = zoom_range({0, 1}, 0.5, 1e-9, 0.01);
    EXPECT_NEAR(tiny.length(), 0.01, 1e-12);
}

// [SECTION] A real run -------------------------------------------------------------------------------

// A lost update's numbered marks on one row, two ticks apart at presenter zoom: 1 and 3 must not
// cover each other (they read "13" in lost_update's presenter screenshot); marks far apart stay put.
TEST(TimelineStoryMarks, MarksOfOneRowAreSpreadApart) {
    const std::vector<float> x = spread_marks({100, 103}, 17);
    ASSERT_EQ(x.size(), 2u);
    EXPECT_EQ(x[0], 100);
    EXPECT_EQ(x[1], 117);
    EXPECT_EQ(spread_marks({100, 300}, 17), (std::vector<float>{100, 300}));
    // Drawn out of order: placed by position (the earlier event keeps its place).
    EXPECT_EQ(spread_marks({105, 100, 101}, 10), (std::vector<float>{120, 100, 110}));
    EXPECT_TRUE(spread_marks({}, 10).empty());
}

TEST(TimelineRealRun, StencilMissingBarrierArrowsLandOnTheFindingsLines) {
    const scenario::Scenario* s = scenario::find_scenario("stencil");
    ASSERT_NE(s, nullptr);
    const scenario::Variant* v = s->find_variant("missing_barrier");
    ASSERT_NE(v, nullptr);
    runner::RunOptions opts;
    opts.schedule = sim::Schedule::Adversarial;
    const runner::RunSummary run = runner::run_scenario(*s, *v, opts);
    const trace::Trace& trace = run.trace;
    ASSERT_FALSE(trace.events.empty());

    TimelineIndex index(trace);
    size_t events = 0;
    for (size_t r = 0; r < index.thread_events().rows(); ++r)
        events += index.thread_events().row(r).size();
    EXPECT_EQ(events, trace.events.size());

    size_t races = 0;
    for (const analysis::Finding& f : run.findings) {
        if (f.kind != analysis::FindingKind::Race) continue;
        ++races;
        const FindingEvents r = resolve_finding(index, f);
        ASSERT_TRUE(r.has_pair()) << f.message;
        const Event& a = trace.events[r.first];
        const Event& b = trace.events[r.second];
        EXPECT_EQ(a.thread, f.threads[0]) << f.message;
        EXPECT_EQ(b.thread, f.threads[1]) << f.message;
        EXPECT_TRUE(analysis::at_finding_line(trace, f, a.site))
            << f.message << ": first access at line " << analysis::line_of(trace, a.site);
        EXPECT_TRUE(analysis::at_finding_line(trace, f, b.site))
            << f.message << ": second access at line " << analysis::line_of(trace, b.site);
        EXPECT_LE(a.time, b.time) << f.message;
        EXPECT_TRUE(a.writes_memory() || b.writes_memory()) << f.message;
        EXPECT_EQ(trace.threads[a.thread].block, f.block);
        EXPECT_EQ(trace.threads[b.thread].block, f.block);
    }
    EXPECT_GT(races, 0u) << "the adversarial schedule must expose the stencil's race";

    // The arrows land on visible rows, and a fit frame draws a bounded number of items.
    const TimelineLayout layout = layout_rows(index, TimelineExpansion::initial(index), RowMetrics{});
    std::vector<FindingEvents> resolved;
    for (const analysis::Finding& f : run.findings)
        resolved.push_back(resolve_finding(index, f));
    const FindingMarks marks = finding_marks(index, layout, run.findings, resolved);
    EXPECT_EQ(marks.arrows.size(), races);
    TimelineFrame frame;
    const TimeRange fit = fit_range(index);
    preprocess(index, layout, view_of(fit.t0, fit.t1, 1400, 900), frame);
    EXPECT_FALSE(frame.events.empty());
    EXPECT_LE(frame.events.size(), size_t(frame.last_row - frame.first_row) * (1400 / 3 + 2));
}

// half_block: threads 0-127 wait at the barrier on line 70 while 128-255 wait at line 71, and the
// block's phase completes with both. The block row's span of that phase knows both lines (it is
// drawn outlined and labelled "line 70 | 71"); a warp's span, all its lanes at one line, does not.
TEST(TimelineRealRun, APhaseCompletedAtTwoBarrierLinesIsMixedOnTheBlockRow) {
    const scenario::Scenario* s = scenario::find_scenario("divergent_barrier");
    ASSERT_NE(s, nullptr);
    const scenario::Variant* v = s->find_variant("half_block");
    ASSERT_NE(v, nullptr);
    const runner::RunSummary run = runner::run_scenario(*s, *v, runner::RunOptions{});
    const trace::Trace& trace = run.trace;
    TimelineIndex index(trace);
    ASSERT_FALSE(index.blocks().empty());
    for (uint32_t block = 0; block < index.blocks().size(); ++block) {
        bool mixed_block_span = false;
        for (const WaitSpan& w : index.block_waits().row(block)) {
            if (!w.mixed()) continue;
            const uint32_t a = trace.source_line(trace.events[w.arrive]);
            const uint32_t b = trace.source_line(trace.events[w.other_arrive]);
            EXPECT_NE(a, b) << "block " << block << ": a mixed phase names two different lines";
            mixed_block_span = true;
        }
        EXPECT_TRUE(mixed_block_span) << "block " << block;
    }
    for (uint32_t w = 0; w < index.blocks()[0].warp_count; ++w)
        for (const WaitSpan& span : index.warp_waits().row(index.blocks()[0].first_warp + w))
            EXPECT_FALSE(span.mixed()) << "warp " << w << " waits at one line only";
}

// The hand-made grid barrier: thread 0 of each resident block spins at line 75 and its warp-mates
// wait at the __syncthreads() of line 79, which their warp never executes (no arrival is recorded).
// Every wait the run ends in is labelled with the line the deadlock finding names for that thread,
// and the finding's marks lie on no earlier barrier than that.
TEST(TimelineRealRun, TheWaitsARunEndsInAreAtTheLinesTheDeadlockNames) {
    const scenario::Scenario* s = scenario::find_scenario("grid_sync");
    ASSERT_NE(s, nullptr);
    const runner::RunSummary run =
        runner::run_scenario(*s, *s->find_variant("handmade_grid_barrier_oversubscribed"), runner::RunOptions{});
    ASSERT_EQ(run.status, trace::RunStatus::Deadlock);
    const trace::Trace& trace = run.trace;
    TimelineIndex index(trace);
    uint32_t checked = 0;
    for (uint32_t slot = 0; slot < index.thread_rows().size(); ++slot) {
        const trace::ThreadInfo& info = trace.threads[index.thread_rows()[slot].thread];
        if (info.end != trace::ThreadEnd::AtBarrier) continue;
        const auto waits = index.thread_waits().row(slot);
        ASSERT_FALSE(waits.empty());
        ASSERT_TRUE(waits.back().open);
        EXPECT_EQ(trace.sites[waits.back().site].source_line, trace.sites[info.end_site].source_line);
        EXPECT_EQ(trace.sites[waits.back().site].source_line, 79u);
        ++checked;
    }
    EXPECT_GT(checked, 0u);
    const auto deadlock = std::find_if(run.findings.begin(), run.findings.end(), [](const analysis::Finding& f) {
        return f.kind == analysis::FindingKind::Deadlock;
    });
    ASSERT_NE(deadlock, run.findings.end());
    // A waiting thread's mark is where its final wait (at line 79) starts, not its arrival at 71.
    const std::vector<uint32_t> marks = resolve_finding(index, *deadlock).others;
    ASSERT_FALSE(marks.empty());
    for (uint32_t e : marks) {
        const trace::Event& mark = trace.events[e];
        if (trace.threads[mark.thread].end != trace::ThreadEnd::AtBarrier) continue;
        const auto waits = index.thread_waits().row(index.thread_slot(mark.thread));
        ASSERT_FALSE(waits.empty());
        EXPECT_EQ(waits.back().t0, mark.time) << "thread " << mark.thread;
        EXPECT_NE(mark.kind, trace::EventKind::BarrierArrive) << "no arrival at 79 is recorded";
    }
}

// plain_increment: the selected lost update resolves to the four events that lost it: two loads of
// the counter, then two stores, one thread's read-modify-write inside the other's.
TEST(TimelineRealRun, ALostUpdateShowsItsLoadLoadStoreStoreInterleaving) {
    const scenario::Scenario* s = scenario::find_scenario("lost_update");
    ASSERT_NE(s, nullptr);
    const runner::RunSummary run =
        runner::run_scenario(*s, *s->find_variant("plain_increment"), runner::RunOptions{});
    TimelineIndex index(run.trace);
    bool checked = false;
    for (const analysis::Finding& f : run.findings) {
        if (f.kind != analysis::FindingKind::LostUpdate) continue;
        const FindingEvents r = resolve_finding(index, f);
        ASSERT_EQ(r.steps.size(), 4u) << f.message;
        const auto& ev = run.trace.events;
        EXPECT_EQ(ev[r.steps[0]].kind, EventKind::Load);
        EXPECT_EQ(ev[r.steps[1]].kind, EventKind::Load);
        EXPECT_EQ(ev[r.steps[2]].kind, EventKind::Store);
        EXPECT_EQ(ev[r.steps[3]].kind, EventKind::Store);
        EXPECT_NE(ev[r.steps[0]].thread, ev[r.steps[1]].thread);
        EXPECT_NE(ev[r.steps[2]].thread, ev[r.steps[3]].thread);
        for (size_t i = 1; i < 4; ++i)
            EXPECT_LE(ev[r.steps[i - 1]].time, ev[r.steps[i]].time);
        checked = true;
    }
    EXPECT_TRUE(checked) << "plain_increment has a lost_update finding";
}

} // namespace
} // namespace synclab::ui
