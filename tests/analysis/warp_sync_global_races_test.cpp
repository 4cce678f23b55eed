// Warp edges in the global-memory race analysis: __syncwarp() orders global memory between its
// member lanes as it does shared memory (warp_sync_races_test.cpp), through every form of the
// shadow state (an inline reader, a reader set, a split word, with a SyncOrder beside), and only
// within the epoch and warp of its members; a race between two lanes of one warp says so.
#include "analysis/findings.h"
#include "trace_builder.h"

#include <gtest/gtest.h>

namespace synclab::analysis {
namespace {

using testing::dump;
using testing::TraceBuilder;
using trace::Space;
using V = std::vector<uint32_t>;

constexpr uint32_t kAll = 0xffffffffu;

TEST(analysis_warp_sync_global, RaceBetweenLanesOfOneWarpNamesTheWarpAndTheLanes) {
    TraceBuilder b(1, 64);
    const uint16_t write = b.site(5), read = b.site(7);
    b.store(37, write, 0x1000, 4, Space::Global).load(53, read, 0x1000, 4, Space::Global).exit_all();
    const auto found = find_global_races(b.trace());
    ASSERT_EQ(found.size(), 1u) << dump(found);
    EXPECT_EQ(found[0].text,
              "RAW hazard on global address 0x1000: block 0 thread 53 (warp 1, lane 21) at line 7 "
              "reads a value block 0 thread 37 (warp 1, lane 5) wrote at line 5 within a warp: "
              "no __syncwarp() between them");
}

TEST(analysis_warp_sync_global, SyncwarpOrdersRawWarAndWawBetweenItsMembers) {
    for (const bool with_fence : {false, true}) { // a fence gives the analysis a SyncOrder too
        TraceBuilder b(1, 32);
        const uint16_t write = b.site(5), sync = b.site(6), read = b.site(7), write2 = b.site(8);
        b.store(5, write, 0x1010, 4, Space::Global).load(9, b.site(4), 0x1020, 4, Space::Global);
        if (with_fence) b.fence(5, b.site(3));
        b.warp_sync(0, 0, kAll, sync)
            .load(21, read, 0x1010, 4, Space::Global)
            .store(30, write2, 0x1010, 4, Space::Global) // after lane 21's read with no sync between: a WAR
            .store(30, write2, 0x1020, 4, Space::Global)
            .exit_all();
        const auto found = find_global_races(b.trace());
        ASSERT_EQ(found.size(), 1u) << "fence " << with_fence << "\n" << dump(found);
        EXPECT_EQ(found[0].hazard, Hazard::WAR);
        EXPECT_EQ(found[0].threads, (V{21, 30}));
    }
}

TEST(analysis_warp_sync_global, AWriteAfterTheWritersLastSyncIsNotOrdered) {
    // The write's own sync count must be kept: it came after the meeting, so the meeting does not
    // order it before lane 21's read.
    TraceBuilder b(1, 32);
    const uint16_t write = b.site(5), sync = b.site(6), read = b.site(7);
    b.warp_sync(0, 0, kAll, sync)
        .store(5, write, 0x1010, 4, Space::Global)
        .load(21, read, 0x1010, 4, Space::Global)
        .exit_all();
    const auto found = find_global_races(b.trace());
    ASSERT_EQ(found.size(), 1u) << dump(found);
    EXPECT_EQ(found[0].hazard, Hazard::RAW);
}

TEST(analysis_warp_sync_global, ReaderSetsKeepEachReadersSyncCount) {
    // Lanes 1..8 read one word after a first sync (an inline reader, then a reader set); lane 20
    // overwrites it. With a second sync between, nothing races; without it, all eight reads do,
    // since they came after the only meeting.
    for (const bool second_sync : {false, true}) {
        TraceBuilder b(1, 32);
        const uint16_t sync = b.site(6), read = b.site(7), write = b.site(8);
        b.warp_sync(0, 0, kAll, sync);
        for (uint32_t lane = 1; lane <= 8; ++lane)
            b.load(lane, read, 0x1040, 4, Space::Global);
        if (second_sync) b.warp_sync(0, 0, kAll, sync);
        b.store(20, write, 0x1040, 4, Space::Global).exit_all();
        const auto found = find_global_races(b.trace());
        if (second_sync) {
            EXPECT_TRUE(found.empty()) << dump(found);
            continue;
        }
        ASSERT_EQ(found.size(), 1u) << dump(found);
        EXPECT_EQ(found[0].hazard, Hazard::WAR);
        EXPECT_EQ(found[0].count, 8u);
    }
}

TEST(analysis_warp_sync_global, AWholeBlockOfSyncedReadersKeepsEachCount) {
    // All 256 threads of a block read one word after their warps' syncs, in reverse order (more
    // synced readers than the short list holds); then lane 20 of warp 0 writes it. Warp 0 syncs
    // again first in one case: only the 224 readers of the other warps race then.
    for (const bool second_sync : {false, true}) {
        TraceBuilder b(1, 256);
        const uint16_t sync = b.site(6), read = b.site(7), write = b.site(8);
        for (uint32_t warp = 0; warp < 8; ++warp)
            b.warp_sync(0, warp, kAll, sync);
        for (uint32_t t = 256; t-- > 0;)
            b.load(t, read, 0x1040, 4, Space::Global);
        if (second_sync) b.warp_sync(0, 0, kAll, sync);
        b.store(20, write, 0x1040, 4, Space::Global).exit_all();
        const auto found = find_global_races(b.trace());
        ASSERT_EQ(found.size(), 1u) << dump(found);
        EXPECT_EQ(found[0].count, second_sync ? 224u : 255u);
    }
}

TEST(analysis_warp_sync_global, AMaskOfHalfTheWarpOrdersOnlyItsReaders) {
    TraceBuilder b(1, 32);
    const uint16_t sync = b.site(6), read = b.site(7), write = b.site(8);
    b.load(3, read, 0x1040, 4, Space::Global)
        .load(4, read, 0x1040, 4, Space::Global)
        .load(20, read, 0x1040, 4, Space::Global) // not a member of the sync below
        .warp_sync(0, 0, 0x0000ffffu, sync)
        .store(9, write, 0x1040, 4, Space::Global)
        .exit_all();
    const auto found = find_global_races(b.trace());
    ASSERT_EQ(found.size(), 1u) << dump(found);
    EXPECT_EQ(found[0].hazard, Hazard::WAR);
    EXPECT_EQ(found[0].count, 1u);
    EXPECT_EQ(found[0].threads, (V{20, 9}));
}

TEST(analysis_warp_sync_global, ByteAccessesOfASplitWordAreOrderedToo) {
    TraceBuilder b(1, 32);
    const uint16_t write = b.site(5), sync = b.site(6), read = b.site(7);
    b.store(5, write, 0x1011, 1, Space::Global)
        .warp_sync(0, 0, kAll, sync)
        .load(21, read, 0x1010, 4, Space::Global)
        .store(21, write, 0x1012, 2, Space::Global)
        .exit_all();
    const auto found = find_global_races(b.trace());
    EXPECT_TRUE(found.empty()) << dump(found);
}

TEST(analysis_warp_sync_global, ASyncOrdersNothingForOtherWarpsOrBlocks) {
    TraceBuilder b(2, 64);
    const uint16_t write = b.site(5), sync = b.site(6), read = b.site(7), read2 = b.site(9);
    b.store(b.thread(0, 5), write, 0x1010, 4, Space::Global)
        .warp_sync(0, 0, kAll, sync)
        .warp_sync(0, 1, kAll, sync)
        .warp_sync(1, 0, kAll, sync)
        .load(b.thread(0, 37), read, 0x1010, 4, Space::Global) // another warp of the block
        .load(b.thread(1, 5), read2, 0x1010, 4, Space::Global) // another block
        .exit_all();
    const auto found = find_global_races(b.trace());
    ASSERT_EQ(found.size(), 2u) << dump(found);
    for (const Finding& f : found)
        EXPECT_EQ(f.text.find("within a warp"), std::string::npos) << f.text;
}

TEST(analysis_warp_sync_global, AnOlderEpochsReadersLoseTheirSyncCounts) {
    // Lane 5 reads in epoch 0 after a sync; a block barrier; lane 6 reads in epoch 1 (the group
    // moves to epoch 1); lane 7 writes with no sync after lane 6's read: a WAR with lane 6 only
    // (lane 5's read is ordered by the barrier).
    TraceBuilder b(1, 32);
    const uint16_t sync = b.site(6), read = b.site(7), write = b.site(8), bar = b.site(9);
    b.warp_sync(0, 0, kAll, sync)
        .load(5, read, 0x1040, 4, Space::Global)
        .barrier(0, bar)
        .load(6, read, 0x1040, 4, Space::Global)
        .store(7, write, 0x1040, 4, Space::Global)
        .exit_all();
    const auto found = find_global_races(b.trace());
    ASSERT_EQ(found.size(), 1u) << dump(found);
    EXPECT_EQ(found[0].count, 1u);
    EXPECT_EQ(found[0].threads, (V{6, 7}));
}

} // namespace
} // namespace synclab::analysis
