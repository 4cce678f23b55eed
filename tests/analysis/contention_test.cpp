// The contention finding over synthetic traces (trace_builder.h): when it fires and when it stays
// silent, what its message says, and the statistics it rests on.
#include "analysis/findings.h"
#include "trace_builder.h"

#include <gtest/gtest.h>

namespace synclab::analysis {
namespace {

using testing::TraceBuilder;

bool has(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// Every thread of `blocks` x `threads` does one atomicAdd at `address`; with timing, the i-th waits
// behind i others and takes 100 + 10 i cycles.
TraceBuilder counter(uint32_t blocks, uint32_t threads, bool timed, trace::Space space = trace::Space::Global,
                     uint64_t address = 0x1000) {
    TraceBuilder b(blocks, threads);
    const uint16_t site = b.site(12, 40, "atom.global.add.u32 %r1, [%rd2], 1");
    uint32_t i = 0;
    for (uint32_t blk = 0; blk < blocks; ++blk)
        for (uint32_t t = 0; t < threads; ++t, ++i) {
            b.atomic(b.thread(blk, t), site, address, 4, space);
            if (timed)
                b.timed(100 + 10 * (space == trace::Space::Shared ? t : i),
                        space == trace::Space::Shared ? t : i);
        }
    b.exit_all();
    if (timed) b.mutable_trace().timing.resize(b.trace().events.size());
    return b;
}

TEST(AnalysisContention, OneAddressFiresWithQueueAndLatencies) {
    const TraceBuilder b = counter(4, 256, true);
    const std::vector<Finding> found = find_contention(b.trace());
    ASSERT_EQ(found.size(), 1u) << testing::dump(found);
    const Finding& f = found[0];
    EXPECT_EQ(f.kind, FindingKind::Contention);
    EXPECT_EQ(f.space, trace::Space::Global);
    EXPECT_EQ(f.count, 1024u);
    EXPECT_EQ(f.harmful, 0u);
    EXPECT_EQ(f.lines, std::vector<uint32_t>{12});
    EXPECT_TRUE(
        has(f.message,
            "1,024 atomicAdds from 32 warps (1,024 threads) queued on global address 0x1000 (line 12)"))
        << f.message;
    EXPECT_TRUE(has(f.message, "up to 1,023 waiting")) << f.message;
    // Latencies 100 + 10 i for i = 0..1023: the median is element 512.
    EXPECT_TRUE(has(f.message, "median 5,220 cycles")) << f.message;
    // analyze() reports it too, after every correctness finding.
    const std::vector<Finding> all = analyze(b.trace());
    ASSERT_FALSE(all.empty());
    EXPECT_EQ(all.back().kind, FindingKind::Contention);
}

TEST(AnalysisContention, GpuTraceCountsOnly) {
    const TraceBuilder b = counter(4, 256, false);
    const std::vector<Finding> found = find_contention(b.trace());
    ASSERT_EQ(found.size(), 1u);
    EXPECT_TRUE(has(found[0].message, "counts only")) << found[0].message;
    EXPECT_FALSE(has(found[0].message, "cycles")) << found[0].message;
    const ContentionStats s = contention_stats(b.trace());
    EXPECT_FALSE(s.timed);
    EXPECT_EQ(s.hottest.at(0).max_depth, 0u);
}

TEST(AnalysisContention, GpuTraceNeedsABiggerPileUp) {
    // 512 untimed atomics from 16 warps: no queue to show, too few to be sure.
    EXPECT_TRUE(find_contention(counter(2, 256, false).trace()).empty());
    EXPECT_EQ(find_contention(counter(4, 256, false).trace()).size(), 1u);
}

TEST(AnalysisContention, SilentBelowTheThresholds) {
    // Too few atomics.
    EXPECT_TRUE(find_contention(counter(1, 200, true).trace()).empty());
    // Enough atomics, but a shallow queue (each waits behind at most 9 others).
    TraceBuilder shallow(4, 256);
    const uint16_t site = shallow.site(7, 0, "atom.global.add.u32 %r1, [%rd2], 1");
    for (uint32_t t = 0; t < 1024; ++t)
        shallow.atomic(t, site, 0x40, 4, trace::Space::Global).timed(500, t % 10);
    EXPECT_TRUE(find_contention(shallow.trace()).empty());
    // Many atomics from one warp only (its lanes loop): the programmer can merge those.
    TraceBuilder one_warp(1, 32);
    const uint16_t s2 = one_warp.site(9, 0, "atom.global.add.u32 %r1, [%rd2], 1");
    for (uint32_t r = 0; r < 20; ++r)
        for (uint32_t t = 0; t < 32; ++t)
            one_warp.atomic(t, s2, 0x80, 4, trace::Space::Global).timed(500, r * 32 + t);
    EXPECT_TRUE(find_contention(one_warp.trace()).empty());
}

TEST(AnalysisContention, SharedCountsPerBlock) {
    // 8 blocks x 64 threads on one shared counter: 512 atomics, but 64 per block's copy: silent.
    EXPECT_TRUE(find_contention(counter(8, 64, true, trace::Space::Shared, 0).trace()).empty());
    // 2 blocks x 512: each copy takes 512 from 16 warps, queued up to 511 deep.
    const std::vector<Finding> found =
        find_contention(counter(2, 512, true, trace::Space::Shared, 0).trace());
    ASSERT_EQ(found.size(), 1u);
    EXPECT_EQ(found[0].space, trace::Space::Shared);
    EXPECT_TRUE(has(found[0].message, "__shared__ address 0x0 (in each of 2 blocks)")) << found[0].message;
    EXPECT_TRUE(has(found[0].message, "up to 511 waiting")) << found[0].message;
}

TEST(AnalysisContention, PartialBlocksAreLeftOut) {
    TraceBuilder b = counter(4, 256, true);
    for (uint32_t blk = 1; blk < 4; ++blk)
        b.history(blk, trace::BlockHistory::Partial);
    // 256 atomics of block 0 remain, from 8 warps, queued up to 255 deep: still hot.
    const ContentionStats s = contention_stats(b.trace());
    EXPECT_EQ(s.atomics, 256u);
    b.history(0, trace::BlockHistory::Partial);
    EXPECT_EQ(contention_stats(b.trace()).atomics, 0u);
    EXPECT_TRUE(find_contention(b.trace()).empty());
}

TEST(AnalysisContention, StatsPercentilesAndOrder) {
    TraceBuilder b(4, 256);
    const uint16_t hot = b.site(20, 0, "atom.global.add.u32 %r1, [%rd2], 1");
    const uint16_t cold = b.site(21, 0, "atom.global.exch.b32 %r1, [%rd3], 1");
    for (uint32_t t = 0; t < 1000; ++t)
        b.atomic(t, hot, 0x100, 4, trace::Space::Global).timed(t + 1, t);
    for (uint32_t t = 0; t < 10; ++t)
        b.atomic(t, cold, 0x200, 4, trace::Space::Global).timed(7, 0);
    const ContentionStats s = contention_stats(b.trace());
    EXPECT_TRUE(s.timed);
    EXPECT_EQ(s.atomics, 1010u);
    EXPECT_EQ(s.addresses, 2u);
    ASSERT_EQ(s.hottest.size(), 2u);
    const HotAddress& h = s.hottest[0];
    EXPECT_EQ(h.address, 0x100u);
    EXPECT_EQ(h.p50, 501u);
    EXPECT_EQ(h.p90, 901u);
    EXPECT_EQ(h.p99, 991u);
    EXPECT_EQ(h.max_depth, 999u);
    EXPECT_DOUBLE_EQ(h.mean_depth, 499.5);
    EXPECT_EQ(h.warps, 32u);
    EXPECT_EQ(h.threads, 1000u);
    EXPECT_TRUE(h.hot);
    EXPECT_FALSE(s.hottest[1].hot);
}

TEST(AnalysisContention, ManyHotAddressesAtOneLineAreOneFinding) {
    TraceBuilder b(8, 256);
    const uint16_t site = b.site(14, 0, "red.global.add.u32 [%rd2], 1");
    for (uint32_t t = 0; t < 2048; ++t)
        b.reduction(t, site, 0x1000 + 4 * (t % 4), 4, trace::Space::Global).timed(1000, t / 4);
    const std::vector<Finding> found = find_contention(b.trace());
    ASSERT_EQ(found.size(), 1u) << testing::dump(found);
    EXPECT_TRUE(has(found[0].message, "512 atomicAdds")) << found[0].message;
    EXPECT_TRUE(has(found[0].message, "3 more addresses at the same line took 1,536 more"))
        << found[0].message;
}

} // namespace
} // namespace synclab::analysis
