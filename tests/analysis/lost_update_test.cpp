// find_lost_updates: non-atomic read-modify-write of a global address by several threads.
#include "analysis/findings.h"
#include "trace_builder.h"

#include <gtest/gtest.h>

namespace synclab::analysis {
namespace {

using testing::dump;
using testing::TraceBuilder;
using trace::Space;
using V = std::vector<uint32_t>;

constexpr uint64_t kCounter = 0x1000;

// Verdict: 4 threads (2 blocks) RMW the counter at line 9; one RMW overlaps (block 0 thread 0's
// store lands between block 0 thread 1's load and store) -> one finding, count 4, 1 of 4 lost.
TEST(analysis_lost_updates, FoundWithOverlapCount) {
    TraceBuilder b(2, 2);
    const uint16_t load = b.site(9), store = b.site(9, 120);
    const uint32_t t0 = b.thread(0, 0), t1 = b.thread(0, 1), t2 = b.thread(1, 0), t3 = b.thread(1, 1);
    b.load(t0, load, kCounter, 4, Space::Global).load(t1, load, kCounter, 4, Space::Global);
    b.store(t0, store, kCounter, 4, Space::Global)
        .store(t1, store, kCounter, 4, Space::Global); // t0's update lost
    b.load(t2, load, kCounter, 4, Space::Global).store(t2, store, kCounter, 4, Space::Global);
    b.load(t3, load, kCounter, 4, Space::Global).store(t3, store, kCounter, 4, Space::Global);
    b.exit_all();
    const auto found = find_lost_updates(b.trace());
    ASSERT_EQ(found.size(), 1u) << dump(found);
    const Finding& f = found[0];
    EXPECT_EQ(f.kind, FindingKind::LostUpdate);
    EXPECT_EQ(f.space, Space::Global);
    EXPECT_EQ(f.lines, (V{9}));
    EXPECT_EQ(f.sites, (V{load}));
    EXPECT_EQ(f.count, 4u);
    EXPECT_EQ(f.address, kCounter);
    EXPECT_EQ(f.threads, (V{t1, t0}));
    EXPECT_EQ(f.lost, 1u);
    EXPECT_EQ(f.message,
              "lost update on global address 0x1000: threads read-modify-write it without an atomic (load "
              "line 9, store line 9) and nothing orders them; e.g. block 0 thread 1 overwrote the "
              "update of block 0 thread 0 (4 threads, 1 update lost)");
}

// Verdict: RMWs of one counter that never overlap in this run are still unordered (different
// blocks) -> reported with "no update lost in this run".
TEST(analysis_lost_updates, UnorderedButNotOverlappingStillReported) {
    TraceBuilder b(2, 1);
    const uint16_t load = b.site(9), store = b.site(10);
    for (uint32_t t = 0; t < 2; ++t)
        b.load(t, load, kCounter, 4, Space::Global).store(t, store, kCounter, 4, Space::Global);
    b.exit_all();
    const auto found = find_lost_updates(b.trace());
    ASSERT_EQ(found.size(), 1u) << dump(found);
    EXPECT_EQ(found[0].lines, (V{9, 10}));
    EXPECT_EQ(found[0].count, 2u);
    EXPECT_EQ(found[0].lost, 0u);
    EXPECT_EQ(found[0].message,
              "lost update on global address 0x1000: threads read-modify-write it without an atomic (load "
              "line 9, store line 10) and nothing orders them; e.g. block 0 thread 0 and block 1 "
              "thread 0 (2 threads, no update lost in this run)");
}

// Verdict: atomicAdd by every thread (and red.add) -> nothing.
TEST(analysis_lost_updates, AtomicIncrementsNotFlagged) {
    TraceBuilder b(4, 32);
    const uint16_t add = b.site(9), red = b.site(10);
    for (uint32_t t = 0; t < 128; ++t)
        b.atomic(t, add, kCounter, 4, Space::Global);
    for (uint32_t t = 0; t < 128; ++t)
        b.reduction(t, red, kCounter, 4, Space::Global);
    b.exit_all();
    const auto found = find_lost_updates(b.trace());
    EXPECT_TRUE(found.empty()) << dump(found);
}

// Verdict: a load then an atomic on the same address (no plain store) is no RMW -> nothing.
TEST(analysis_lost_updates, LoadThenAtomicIsNoRmw) {
    TraceBuilder b(2, 1);
    const uint16_t load = b.site(8), add = b.site(9);
    for (uint32_t t = 0; t < 2; ++t)
        b.load(t, load, kCounter, 4, Space::Global);
    for (uint32_t t = 0; t < 2; ++t)
        b.atomic(t, add, kCounter, 4, Space::Global);
    b.exit_all();
    const auto found = find_lost_updates(b.trace());
    EXPECT_TRUE(found.empty()) << dump(found);
}

// Verdict: in one block, thread 0's RMW, a barrier, then thread 1's RMW -> ordered, nothing. The
// same without the barrier -> found.
TEST(analysis_lost_updates, RmwOrderedByBarrierNotFlagged) {
    TraceBuilder ordered(1, 2);
    const uint16_t load = ordered.site(9), store = ordered.site(9), sync = ordered.site(10);
    ordered.load(0, load, kCounter, 4, Space::Global).store(0, store, kCounter, 4, Space::Global);
    ordered.barrier(0, sync);
    ordered.load(1, load, kCounter, 4, Space::Global).store(1, store, kCounter, 4, Space::Global);
    ordered.exit_all();
    const auto none = find_lost_updates(ordered.trace());
    EXPECT_TRUE(none.empty()) << dump(none);

    TraceBuilder racing(1, 2);
    racing.site(9);
    racing.site(9);
    racing.load(0, load, kCounter, 4, Space::Global).store(0, store, kCounter, 4, Space::Global);
    racing.load(1, load, kCounter, 4, Space::Global).store(1, store, kCounter, 4, Space::Global);
    racing.exit_all();
    const auto found = find_lost_updates(racing.trace());
    ASSERT_EQ(found.size(), 1u) << dump(found);
    EXPECT_EQ(found[0].count, 2u);
}

// Verdict: every thread updates its own element (x[i] = x[i] + 1) -> nothing.
TEST(analysis_lost_updates, PrivateElementsNotFlagged) {
    TraceBuilder b(2, 32);
    const uint16_t load = b.site(9), store = b.site(9);
    for (uint32_t t = 0; t < 64; ++t)
        b.load(t, load, 0x2000 + 4 * t, 4, Space::Global);
    for (uint32_t t = 0; t < 64; ++t)
        b.store(t, store, 0x2000 + 4 * t, 4, Space::Global);
    b.exit_all();
    const auto found = find_lost_updates(b.trace());
    EXPECT_TRUE(found.empty()) << dump(found);
}

// Verdict: a histogram with 4 bins, 8 threads per bin, all loads before all stores -> one finding
// over 4 addresses, count 32; every update but the last per bin overlapped: 7 x 4 = 28.
TEST(analysis_lost_updates, SeveralAddressesAggregatePerSitePair) {
    TraceBuilder b(1, 32);
    const uint16_t load = b.site(14), store = b.site(14);
    for (uint32_t t = 0; t < 32; ++t)
        b.load(t, load, 0x3000 + 4 * (t % 4), 4, Space::Global);
    for (uint32_t t = 0; t < 32; ++t)
        b.store(t, store, 0x3000 + 4 * (t % 4), 4, Space::Global);
    b.exit_all();
    const auto found = find_lost_updates(b.trace());
    ASSERT_EQ(found.size(), 1u) << dump(found);
    EXPECT_EQ(found[0].count, 32u);
    EXPECT_EQ(found[0].address, 0x3000u);
    EXPECT_EQ(found[0].lost, 28u);
    EXPECT_EQ(found[0].message,
              "lost update on global address 0x3000 and 3 other addresses: threads read-modify-write them "
              "without an atomic (load line 14, store line 14) and nothing orders them; e.g. block 0 "
              "thread 4 overwrote the update of block 0 thread 0 (32 threads, 28 updates lost)");
}

} // namespace
} // namespace synclab::analysis
