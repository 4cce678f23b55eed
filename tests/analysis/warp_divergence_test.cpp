// find_barrier_divergence, rule (d): a warp executing an aligned barrier (bar.sync) while some of
// its live lanes are elsewhere ("Divergent thread(s) in warp"). Blocks of 100 threads: warps 0-2
// are full, warp 3 has lanes 0-3. Each case comes with a near-twin that must stay silent, and the
// lanes are ordered both ways the simulators and a GPU may record them.
#include "analysis/findings.h"
#include "trace_builder.h"

#include <gtest/gtest.h>

namespace synclab::analysis {
namespace {

using testing::dump;
using testing::TraceBuilder;
using trace::Space;
using trace::ThreadEnd;
using V = std::vector<uint32_t>;

constexpr uint32_t kBlock = 100;

// `if (threadIdx.x < 20) __syncthreads(); g_out[t] = ...;` in the order both simulators record it:
// threads 0-19 arrive at line 15 and wait, the others store at line 16 and exit, then the phase
// completes and 0-19 store and exit. `sync_text` is the barrier's PTX.
TraceBuilder partial_warp(const std::string& sync_text = "bar.sync 0", uint32_t at_barrier = 20) {
    TraceBuilder b(1, kBlock);
    const uint16_t sync = b.site(15, 0, sync_text), store = b.site(16);
    for (uint32_t t = 0; t < at_barrier; ++t)
        b.arrive(t, sync);
    for (uint32_t t = at_barrier; t < kBlock; ++t)
        b.store(t, store, 0x1000 + 4 * t, 4, Space::Global).exit(t);
    b.release(0);
    for (uint32_t t = 0; t < at_barrier; ++t)
        b.store(t, store, 0x1000 + 4 * t, 4, Space::Global).exit(t);
    return b;
}

// Verdict: lanes 0-19 of warp 0 execute the barrier while lanes 20-31 skip it and go on -> one
// finding naming the warp, both sides and both lines; warps 1-3 never arrive as a whole (no warp
// of theirs is split) and add nothing.
TEST(analysis_warp_divergence, PartOfAWarpAtABarrierFound) {
    const TraceBuilder b = partial_warp();
    const auto found = find_barrier_divergence(b.trace());
    ASSERT_EQ(found.size(), 1u) << dump(found);
    const Finding& f = found[0];
    EXPECT_EQ(f.kind, FindingKind::BarrierDivergence);
    EXPECT_EQ(f.lines, (V{15, 16}));
    EXPECT_EQ(f.threads, (V{0, 20}));
    EXPECT_EQ(f.count, 1u);
    EXPECT_EQ(f.block, 0u);
    EXPECT_EQ(f.message, "divergent threads in warp 0 of block 0: lanes 0-19 execute the __syncthreads() at "
                         "line 15 while the warp's other live lanes are elsewhere: lanes 20-31 skip it and "
                         "go on to line 16");
}

// Verdict (near-twin): `if (threadIdx.x < 32)`: warp 0 arrives whole, the other warps skip it ->
// nothing (a block-level matter the warp rule does not judge).
TEST(analysis_warp_divergence, WholeWarpAtABarrierNotFlagged) {
    const TraceBuilder b = partial_warp("bar.sync 0", 32);
    const auto found = find_barrier_divergence(b.trace());
    EXPECT_TRUE(found.empty()) << dump(found);
}

// Verdict: the rule holds for aligned barriers only: barrier.sync.aligned and a guarded bar.sync
// count, barrier.sync (not aligned: may be reached divergently) and bar.warp.sync do not.
TEST(analysis_warp_divergence, AlignedBarriersOnly) {
    for (const char* text : {"barrier.sync.aligned 0", "@%p1 bar.sync 0", "bar.sync 0, 64"}) {
        const auto found = find_barrier_divergence(partial_warp(text).trace());
        EXPECT_EQ(found.size(), 1u) << text << ": " << dump(found);
    }
    for (const char* text : {"barrier.sync 0", "bar.warp.sync -1", ""}) {
        const auto found = find_barrier_divergence(partial_warp(text).trace());
        EXPECT_TRUE(found.empty()) << text << ": " << dump(found);
    }
}

// `if ((threadIdx.x & 31) >= 24) { s[t] = ...; __syncthreads(); ... = s[t ^ 1]; } else g_out[t] = ...;`
// Every warp's lanes 24-31 store into shared (line 20) and arrive (line 21); lanes 0-23 store to
// global (line 25) and exit; then the phase completes. Warp 3 (lanes 0-3) has no lane >= 24.
TEST(analysis_warp_divergence, UpperLanesAtABarrierFoundInEveryWarp) {
    TraceBuilder b(1, kBlock);
    const uint16_t fill = b.site(20), sync = b.sync_site(21), read = b.site(22), other = b.site(25);
    for (uint32_t t = 0; t < kBlock; ++t) {
        if (t % 32 >= 24) b.store(t, fill, 4 * t).arrive(t, sync);
    }
    for (uint32_t t = 0; t < kBlock; ++t) {
        if (t % 32 < 24) b.store(t, other, 0x1000 + 4 * t, 4, Space::Global).exit(t);
    }
    b.release(0);
    for (uint32_t t = 0; t < kBlock; ++t) {
        if (t % 32 >= 24) b.load(t, read, 4 * (t ^ 1)).exit(t);
    }
    const auto found = find_barrier_divergence(b.trace());
    ASSERT_EQ(found.size(), 1u) << dump(found);
    EXPECT_EQ(found[0].lines, (V{21, 25}));
    EXPECT_EQ(found[0].threads, (V{24, 0}));
    EXPECT_EQ(found[0].count, 3u) << "warps 0, 1 and 2";
    EXPECT_EQ(found[0].message,
              "divergent threads in warp 0 of block 0: lanes 24-31 execute the __syncthreads() at line 21 "
              "while the warp's other live lanes are elsewhere: lanes 0-23 skip it and go on to line 25 "
              "(3 such warp phases)");
}

// `if ((threadIdx.x & 31) >= 24) return; ... __syncthreads(); ...`, in both orders: the returning
// lanes exit first (they run first), or the lanes at the barrier arrive first and the others
// exit with no other event (lowest PC first, a GPU's order). Both: part of each warp reaches the
// barrier, the other lanes exit without reaching it (the same PTX as a barrier inside
// `if (lane < 24)`). Near-twin: the returning lanes store before they exit, after the warp's
// arrival -> they were live elsewhere.
TEST(analysis_warp_divergence, LanesThatReturnBeforeTheirWarpsBarrierAreFlagged) {
    for (const int order : {0, 1, 2}) {
        TraceBuilder b(1, kBlock);
        b.site(45); // site 0: the kernel's ret, where the builder's exits are
        const uint16_t sync = b.sync_site(30), store = b.site(31), early = b.site(28);
        auto returning = [&] {
            for (uint32_t t = 0; t < kBlock; ++t) {
                if (t % 32 < 24) continue;
                if (order == 2) b.store(t, early, 0x2000 + 4 * t, 4, Space::Global);
                b.exit(t);
            }
        };
        if (order == 0) returning();
        for (uint32_t t = 0; t < kBlock; ++t) {
            if (t % 32 < 24) b.arrive(t, sync);
        }
        if (order != 0) returning();
        b.release(0);
        for (uint32_t t = 0; t < kBlock; ++t) {
            if (t % 32 < 24) b.store(t, store, 0x1000 + 4 * t, 4, Space::Global).exit(t);
        }
        const auto found = find_barrier_divergence(b.trace());
        if (order < 2) {
            ASSERT_EQ(found.size(), 1u) << "order " << order << ": " << dump(found);
            EXPECT_EQ(found[0].lines, (V{30, 45})) << "the barrier, then where the others exit";
            EXPECT_EQ(found[0].count, 3u);
            EXPECT_EQ(found[0].message,
                      "divergent threads in warp 0 of block 0: lanes 0-23 execute the __syncthreads() at line 30 "
                      "while the warp's other lanes never reach it: lanes 24-31 exit without reaching it (line "
                      "45); every thread of the block must reach it (a GPU does not wait for exited "
                      "lanes, so it may seem to work) (3 such warp phases)")
                << "order " << order;
            continue;
        }
        ASSERT_EQ(found.size(), 1u) << dump(found);
        EXPECT_EQ(found[0].lines, (V{30, 28})) << "the barrier first, then where the others went";
        EXPECT_EQ(found[0].count, 3u);
    }
}

// Verdict: whole warps that return before the barrier (exit_before_barrier: threads 64-99 return)
// and a block-uniform condition (block 1 skips the barrier) -> nothing.
TEST(analysis_warp_divergence, WholeWarpsReturningAndUniformConditionsNotFlagged) {
    TraceBuilder b(2, kBlock);
    const uint16_t sync = b.sync_site(40), store = b.site(41);
    for (uint32_t t = 64; t < kBlock; ++t)
        b.exit(t);
    b.barrier(0, sync);
    for (uint32_t t = 0; t < kBlock; ++t)
        b.store(b.thread(1, t), store, 0x1000 + 4 * t, 4, Space::Global);
    b.exit_all();
    const auto found = find_barrier_divergence(b.trace());
    EXPECT_TRUE(found.empty()) << dump(found);
}

// Verdict: a hung run (status Timeout): lanes 0-15 of warp 0 wait at line 15 while lanes 16-31
// spin at line 40 -> the stuck-phase finding (c) and the warp finding (d), naming the spinners.
TEST(analysis_warp_divergence, LanesStillRunningWhenARunHangsFound) {
    TraceBuilder b(1, 32);
    const uint16_t sync = b.sync_site(15), spin = b.site(40);
    for (uint32_t t = 0; t < 16; ++t)
        b.arrive(t, sync).end(t, ThreadEnd::AtBarrier, sync);
    for (uint32_t t = 16; t < 32; ++t)
        b.end(t, ThreadEnd::Running, spin);
    b.status(trace::RunStatus::Timeout);
    const auto found = find_barrier_divergence(b.trace());
    ASSERT_EQ(found.size(), 2u) << dump(found);
    const auto warp = std::find_if(found.begin(), found.end(), [](const Finding& f) {
        return f.message.starts_with("divergent threads in warp");
    });
    ASSERT_NE(warp, found.end()) << dump(found);
    EXPECT_EQ(warp->lines, (V{15, 40}));
    EXPECT_EQ(warp->message,
              "divergent threads in warp 0 of block 0: lanes 0-15 execute the __syncthreads() at "
              "line 15 while the warp's other live lanes are elsewhere: lanes 16-31 were still "
              "running at line 40");
}

// Verdict: the skipped barrier in 3 blocks -> one finding, count 3; the threads of a block whose
// history is partial are not looked at (a fourth block, partial, adds nothing).
TEST(analysis_warp_divergence, SamePatternCountedOncePerWarpPhase) {
    TraceBuilder b(4, 32);
    const uint16_t sync = b.sync_site(15), store = b.site(16);
    for (uint32_t block = 0; block < 4; ++block) {
        for (uint32_t t = 0; t < 20; ++t)
            b.arrive(b.thread(block, t), sync);
        for (uint32_t t = 20; t < 32; ++t)
            b.store(b.thread(block, t), store, 0x1000 + 4 * t, 4, Space::Global).exit(b.thread(block, t));
        b.release(block);
    }
    b.exit_all();
    b.history(3, trace::BlockHistory::Partial);
    const auto found = find_barrier_divergence(b.trace());
    ASSERT_EQ(found.size(), 1u) << dump(found);
    EXPECT_EQ(found[0].count, 3u);
    EXPECT_TRUE(found[0].message.ends_with("(3 such warp phases)")) << found[0].message;
}

} // namespace
} // namespace synclab::analysis
