// find_barrier_divergence: phases completed at different sites, warp-level divergence, threads left
// waiting for others that never arrive, and the legal patterns that must stay quiet.
#include "analysis/findings.h"
#include "trace_builder.h"

#include <gtest/gtest.h>

namespace synclab::analysis {
namespace {

using testing::dump;
using testing::TraceBuilder;
using V = std::vector<uint32_t>;

// Verdict: threads 0-127 at line 12 and 128-255 at line 15 complete one phase -> one finding; the
// split is at a warp boundary, so no warp-level finding.
TEST(analysis_barriers, HalfBlockAtDifferentSitesFound) {
    TraceBuilder b(1, 256);
    const uint16_t then_sync = b.site(12), else_sync = b.site(15);
    for (uint32_t t = 0; t < 256; ++t)
        b.arrive(t, t < 128 ? then_sync : else_sync);
    b.release(0).exit_all();
    const auto found = find_barrier_divergence(b.trace());
    ASSERT_EQ(found.size(), 1u) << dump(found);
    const Finding& f = found[0];
    EXPECT_EQ(f.kind, FindingKind::BarrierDivergence);
    EXPECT_EQ(f.lines, (V{12, 15}));
    EXPECT_EQ(f.sites, (V{then_sync, else_sync}));
    EXPECT_EQ(f.threads, (V{0, 128}));
    EXPECT_EQ(f.count, 1u);
    EXPECT_EQ(f.block, 0u);
    EXPECT_EQ(f.message,
              "barrier phase 0 of block 0 completed by threads waiting at different __syncthreads(): "
              "threads 0-127 at line 12, threads 128-255 at line 15");
}

// Verdict: the same divergent phase in 4 blocks -> one finding, count 4; lines ordered by line even
// when the later line arrives first.
TEST(analysis_barriers, SameSiteSetCountedOncePerPhase) {
    TraceBuilder b(4, 64);
    const uint16_t late = b.site(20), early = b.site(10);
    for (uint32_t block = 0; block < 4; ++block) {
        for (uint32_t t = 0; t < 64; ++t)
            b.arrive(b.thread(block, t), t < 32 ? late : early);
        b.release(block);
    }
    b.exit_all();
    const auto found = find_barrier_divergence(b.trace());
    ASSERT_EQ(found.size(), 1u) << dump(found);
    EXPECT_EQ(found[0].lines, (V{10, 20}));
    EXPECT_EQ(found[0].count, 4u);
    EXPECT_EQ(found[0].message,
              "barrier phase 0 of block 0 completed by threads waiting at different "
              "__syncthreads(): threads 32-63 at line 10, threads 0-31 at line 20 (4 such phases)");
}

// Verdict: `if (blockIdx.x > 0) __syncthreads(); else __syncthreads();` - each block uses one site
// -> nothing.
TEST(analysis_barriers, BlockUniformConditionNotFound) {
    TraceBuilder b(2, 64);
    const uint16_t first = b.site(12), other = b.site(15);
    b.barrier(0, first).barrier(1, other).barrier(0, first).barrier(1, other).exit_all();
    const auto found = find_barrier_divergence(b.trace());
    EXPECT_TRUE(found.empty()) << dump(found);
}

// Verdict: threads 128-255 exit early, 0-127 pass a barrier that completes without them -> nothing.
TEST(analysis_barriers, ExitedThreadsNotFlagged) {
    TraceBuilder b(1, 256);
    const uint16_t sync = b.site(12);
    for (uint32_t t = 128; t < 256; ++t)
        b.exit(t);
    b.barrier(0, sync).exit_all();
    const auto found = find_barrier_divergence(b.trace());
    EXPECT_TRUE(found.empty()) << dump(found);
}

// Verdict: even lanes at line 12, odd lanes at line 15 in one warp -> the phase finding and a
// warp-level finding naming warp 1 and the lanes.
TEST(analysis_barriers, WarpLevelDivergenceFound) {
    TraceBuilder b(1, 64);
    const uint16_t even = b.site(12), odd = b.site(15), sync = b.site(30);
    for (uint32_t t = 0; t < 32; ++t)
        b.arrive(t, sync);
    for (uint32_t t = 32; t < 64; ++t)
        b.arrive(t, t % 2 == 0 ? even : odd);
    b.release(0).exit_all();
    const auto found = find_barrier_divergence(b.trace());
    ASSERT_EQ(found.size(), 2u) << dump(found);
    // Sorted by lines: the warp finding {12, 15} before the phase finding {12, 15, 30}.
    EXPECT_EQ(found[0].lines, (V{12, 15}));
    EXPECT_EQ(found[0].threads, (V{32, 33}));
    EXPECT_EQ(found[0].count, 1u);
    EXPECT_EQ(found[0].message,
              "divergent threads in warp 1 of block 0 wait at different barriers in the same phase: "
              "lanes 0, 2, ..., 30 at line 12, lanes 1, 3, ..., 31 at line 15");
    EXPECT_EQ(found[1].lines, (V{12, 15, 30}));
    EXPECT_EQ(found[1].message,
              "barrier phase 0 of block 0 completed by threads waiting at different __syncthreads(): "
              "threads 32, 34, ..., 62 at line 12, threads 33, 35, ..., 63 at line 15, "
              "threads 0-31 at line 30");
}

// Verdict: deadlock/timeout with threads 0-127 waiting at line 12 while 128-255 spin at line 20 ->
// a finding naming both lines; with status Ok the same picture gives nothing.
TEST(analysis_barriers, WaitingForThreadsThatNeverArriveFound) {
    TraceBuilder b(1, 256);
    const uint16_t sync = b.site(12), spin = b.site(20);
    for (uint32_t t = 0; t < 128; ++t)
        b.arrive(t, sync).end(t, trace::ThreadEnd::AtBarrier, sync);
    for (uint32_t t = 128; t < 256; ++t)
        b.end(t, trace::ThreadEnd::Running, spin);
    b.status(trace::RunStatus::Timeout);
    const auto found = find_barrier_divergence(b.trace());
    ASSERT_EQ(found.size(), 1u) << dump(found);
    EXPECT_EQ(found[0].lines, (V{12, 20}));
    EXPECT_EQ(found[0].threads, (V{0, 128}));
    EXPECT_EQ(found[0].count, 1u);
    EXPECT_EQ(found[0].message,
              "in block 0, threads 0-127 wait at line 12 (barrier 0, phase 0) for threads that "
              "never arrive: threads 128-255 were still running at line 20");

    b.status(trace::RunStatus::Budget);
    const auto quiet = find_barrier_divergence(b.trace());
    EXPECT_TRUE(quiet.empty()) << dump(quiet);
}

// Verdict: threads waiting in the last phase while all the others exited is no divergence (the
// phase would complete); a deadlock whose waiters are only waiting on exited threads gives nothing.
TEST(analysis_barriers, WaitingOnlyOnExitedThreadsNotFlagged) {
    TraceBuilder b(1, 64);
    const uint16_t sync = b.site(12);
    for (uint32_t t = 32; t < 64; ++t)
        b.exit(t);
    for (uint32_t t = 0; t < 32; ++t)
        b.arrive(t, sync).end(t, trace::ThreadEnd::AtBarrier, sync);
    b.status(trace::RunStatus::Deadlock);
    const auto found = find_barrier_divergence(b.trace());
    EXPECT_TRUE(found.empty()) << dump(found);
}

// Verdict: an unrolled loop's two copies of the __syncthreads() at line 55 (PTX lines 296, 307)
// used by threads in different iterations -> found; both groups named by PTX line; the phases
// with copies {296, 307} and {296, 318} merge into one finding (same line set), count 2.
TEST(analysis_barriers, CopiesOfOneLineToldApartByPtxLine) {
    TraceBuilder b(1, 64);
    const uint16_t copy1 = b.site(55, 296), copy2 = b.site(55, 307), copy3 = b.site(55, 318);
    for (uint32_t t = 0; t < 64; ++t)
        b.arrive(t, t < 32 ? copy1 : copy2);
    b.release(0);
    for (uint32_t t = 0; t < 64; ++t)
        b.arrive(t, t < 32 ? copy1 : copy3);
    b.release(0).exit_all();
    const auto found = find_barrier_divergence(b.trace());
    ASSERT_EQ(found.size(), 1u) << dump(found);
    EXPECT_EQ(found[0].lines, (V{55}));
    EXPECT_EQ(found[0].sites, (V{copy1}));
    EXPECT_EQ(found[0].count, 2u);
    EXPECT_EQ(found[0].message,
              "barrier phase 0 of block 0 completed by threads waiting at different __syncthreads(): "
              "threads 0-31 at line 55 (PTX line 296), threads 32-63 at line 55 (PTX line 307) "
              "(2 such phases)");
}

// Verdict: producer/consumer on named barrier 1: warp 0 does bar.arrive at line 30 (no wait, no
// leave), warp 1 bar.sync at line 35 -> nothing (arrive-only arrivals are not compared).
TEST(analysis_barriers, ProducerConsumerNamedBarrierNotFlagged) {
    TraceBuilder b(1, 64);
    const uint16_t produce = b.site(30), consume = b.site(35);
    for (uint32_t round = 0; round < 2; ++round) {
        for (uint32_t t = 0; t < 32; ++t)
            b.arrive(t, produce, 1, /*waits=*/false);
        for (uint32_t t = 32; t < 64; ++t)
            b.arrive(t, consume, 1);
        b.release(0, 1);
    }
    b.exit_all();
    const auto found = find_barrier_divergence(b.trace());
    EXPECT_TRUE(found.empty()) << dump(found);
}

} // namespace
} // namespace synclab::analysis
