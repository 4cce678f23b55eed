// Warp edges in happens-before: __syncwarp() (WarpSync events) orders shared memory between its
// member lanes, masks smaller than the warp order their members only, chains of syncs are
// transitive, shfl/vote order nothing; a race between two lanes of one warp says so.
#include "analysis/findings.h"
#include "trace_builder.h"

#include <gtest/gtest.h>

namespace synclab::analysis {
namespace {

using testing::dump;
using testing::TraceBuilder;
using V = std::vector<uint32_t>;

TEST(analysis_warp_sync, RaceBetweenLanesOfOneWarpNamesTheWarpAndTheLanes) {
    TraceBuilder b(1, 128);
    const uint16_t write = b.site(5), read = b.site(7);
    b.store(b.thread(0, 96 + 5), write, 0x30).load(b.thread(0, 96 + 21), read, 0x30).exit_all();
    const auto found = find_shared_races(b.trace());
    ASSERT_EQ(found.size(), 1u) << dump(found);
    EXPECT_EQ(found[0].hazard, Hazard::RAW);
    EXPECT_EQ(
        found[0].text,
        "RAW hazard on __shared__ address 0x30: block 0 thread 117 (warp 3, lane 21) at line 7 reads a "
        "value block 0 thread 101 (warp 3, lane 5) wrote at line 5 within a warp: no __syncwarp() between "
        "them");
}

TEST(analysis_warp_sync, RaceBetweenWarpsKeepsTheBarrierWording) {
    TraceBuilder b(1, 64);
    const uint16_t write = b.site(5), sync = b.site(6), read = b.site(7);
    b.store(b.thread(0, 5), write, 0x30)
        .warp_sync(0, 0, 0xffffffffu, sync)
        .warp_sync(0, 1, 0xffffffffu, sync)
        .load(b.thread(0, 37), read, 0x30)
        .exit_all();
    const auto found = find_shared_races(b.trace());
    ASSERT_EQ(found.size(), 1u) << dump(found);
    EXPECT_NE(
        found[0].text.find("block 0 thread 37 at line 7 reads a value block 0 thread 5 wrote at line 5 with no "
                           "barrier between them"),
        std::string::npos)
        << found[0].text;
}

TEST(analysis_warp_sync, SyncwarpOrdersRawWarAndWawBetweenItsMembers) {
    TraceBuilder b(1, 32);
    const uint16_t write = b.site(5), sync = b.site(6), read = b.site(7), write2 = b.site(8);
    b.store(5, write, 0x10)
        .load(9, b.site(4), 0x20) // read of 0x20 before the sync: lane 30 overwrites it after
        .warp_sync(0, 0, 0xffffffffu, sync)
        .load(21, read, 0x10)
        .store(30, write2, 0x10) // after lane 21's read, with no sync between them: a WAR
        .store(30, write2, 0x20)
        .exit_all();
    const auto found = find_shared_races(b.trace());
    ASSERT_EQ(found.size(), 1u) << dump(found);
    EXPECT_EQ(found[0].hazard, Hazard::WAR);
    EXPECT_EQ(found[0].threads, (V{21, 30}));
}

TEST(analysis_warp_sync, WithoutTheSyncEveryPairRaces) {
    TraceBuilder b(1, 32);
    const uint16_t write = b.site(5), read = b.site(7), write2 = b.site(8);
    b.store(5, write, 0x10).load(21, read, 0x10).store(30, write2, 0x10).exit_all();
    const auto found = find_shared_races(b.trace());
    // RAW 5->21, WAW 5->30, WAR 21->30.
    EXPECT_EQ(found.size(), 3u) << dump(found);
}

TEST(analysis_warp_sync, AMaskOfHalfTheWarpOrdersOnlyItsLanes) {
    TraceBuilder b(1, 32);
    const uint16_t write = b.site(5), sync = b.site(6), r1 = b.site(7), r2 = b.site(8);
    b.store(5, write, 0x10)
        .warp_sync(0, 0, 0x0000ffffu, sync)
        .load(9, r1, 0x10)  // lane 9 is a member: ordered
        .load(21, r2, 0x10) // lane 21 is not: a race
        .exit_all();
    const auto found = find_shared_races(b.trace());
    ASSERT_EQ(found.size(), 1u) << dump(found);
    EXPECT_EQ(found[0].threads, (V{5, 21}));
    EXPECT_NE(
        found[0].text.find("(warp 0, lane 21) at line 8 reads a value block 0 thread 5 (warp 0, lane 5) wrote "
                           "at line 5 within a warp: no __syncwarp() between them"),
        std::string::npos)
        << found[0].text;
}

TEST(analysis_warp_sync, ChainsOfSyncsAreTransitive) {
    TraceBuilder b(1, 32);
    const uint16_t write = b.site(5), s1 = b.site(6), s2 = b.site(7), early = b.site(8), read = b.site(9);
    // 5 -> {5,10} -> {10,21} -> 21: ordered. A read by 21 before the second sync is not.
    b.store(5, write, 0x10)
        .warp_sync(0, 0, (1u << 5) | (1u << 10), s1)
        .load(21, early, 0x10)
        .warp_sync(0, 0, (1u << 10) | (1u << 21), s2)
        .load(21, read, 0x10)
        .exit_all();
    const auto found = find_shared_races(b.trace());
    ASSERT_EQ(found.size(), 1u) << dump(found);
    EXPECT_EQ(found[0].sites, (V{write, early}));
}

TEST(analysis_warp_sync, ShuffleAndVoteOrderNothing) {
    TraceBuilder b(1, 32);
    const uint16_t write = b.site(5), shfl = b.site(6), vote = b.site(7), read = b.site(8);
    b.store(5, write, 0x10)
        .collective(trace::Collective::Shfl, 0, 0, 0xffffffffu, shfl, 0xffffffffu)
        .collective(trace::Collective::Vote, 0, 0, 0xffffffffu, vote, 0xffffffffu)
        .load(21, read, 0x10)
        .exit_all();
    EXPECT_EQ(find_shared_races(b.trace()).size(), 1u);
}

TEST(analysis_warp_sync, PartialLastWarpMeetsWithTheLanesThatExist) {
    TraceBuilder b(1, 40); // warp 1: lanes 0-7
    const uint16_t write = b.site(5), sync = b.site(6), read = b.site(7);
    b.store(b.thread(0, 32 + 2), write, 0x10)
        .warp_sync(0, 1, 0xffffffffu, sync) // events for lanes 0-7 only
        .load(b.thread(0, 32 + 6), read, 0x10)
        .exit_all();
    const auto found = find_shared_races(b.trace());
    EXPECT_TRUE(found.empty()) << dump(found);
}

TEST(analysis_warp_sync, AMeetingCountsOnceItsLastMemberIsSeen) {
    TraceBuilder b(1, 32);
    const uint16_t write = b.site(5), sync = b.site(6), read = b.site(7);
    // Lane 21's sync event comes before lane 5's (the order a GPU trace may show): until lane 5's is
    // seen the meeting is incomplete, so the read between them is not taken as ordered.
    b.store(5, write, 0x10)
        .warp_sync(0, 0, (1u << 5) | (1u << 21), sync, 1u << 21)
        .load(21, read, 0x10)
        .warp_sync(0, 0, (1u << 5) | (1u << 21), sync, 1u << 5)
        .load(21, read, 0x10)
        .exit_all();
    const auto found = find_shared_races(b.trace());
    ASSERT_EQ(found.size(), 1u) << dump(found);
    EXPECT_EQ(found[0].count, 1u) << "only the read before the meeting completed";
}

TEST(analysis_warp_sync, AFullMeetingThenAPartialOneKeepsEachLanesKnowledge) {
    // After a full-warp sync all lanes know the same; a later {5, 21} sync teaches lanes 5 and 21
    // only. Lane 5's write after the first sync is ordered before lane 21's read, not lane 9's.
    TraceBuilder b(1, 32);
    const uint16_t write = b.site(5), s1 = b.site(6), s2 = b.site(7), r21 = b.site(8), r9 = b.site(9);
    b.warp_sync(0, 0, 0xffffffffu, s1)
        .store(5, write, 0x10)
        .warp_sync(0, 0, (1u << 5) | (1u << 21), s2)
        .load(21, r21, 0x10)
        .load(9, r9, 0x10)
        .exit_all();
    const auto found = find_shared_races(b.trace());
    ASSERT_EQ(found.size(), 1u) << dump(found);
    EXPECT_EQ(found[0].threads, (V{5, 9}));
}

TEST(analysis_warp_sync, LanesThatExitedLeaveTheOthersOrdered) {
    // Lane 3 exits early; the rest of the warp keeps syncing (a mask without lane 3) and stays
    // ordered. The warp's clocks go only once every lane has exited.
    TraceBuilder b(1, 32);
    const uint16_t sync = b.site(6), write = b.site(7), read = b.site(8);
    b.warp_sync(0, 0, 0xffffffffu, sync)
        .exit(3)
        .store(5, write, 0x10)
        .warp_sync(0, 0, ~(1u << 3), sync)
        .load(21, read, 0x10)
        .exit_all();
    const auto found = find_shared_races(b.trace());
    EXPECT_TRUE(found.empty()) << dump(found);
}

} // namespace
} // namespace synclab::analysis
