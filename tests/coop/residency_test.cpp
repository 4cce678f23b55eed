// The residency model (sim/residency.h): each per-SM limit decides where it is the smallest, and
// the cooperative-launch error says so in the driver's words and ours.
#include "sim/residency.h"

#include <gtest/gtest.h>

#include <vector>

namespace synclab::sim {
namespace {

TEST(Residency, ThreadsLimitA256ThreadBlockToEightPerSm) {
    const Residency r(256, 0, 32, 8);
    EXPECT_EQ(r.per_sm(), 8u);
    EXPECT_EQ(r.total(), 64u);
    EXPECT_EQ(r.limit(), Residency::Limit::Threads);
    EXPECT_EQ(r.explain(), "8 SMs x 8 blocks per SM, limited by threads per SM");
}

TEST(Residency, H200FiguresOfGpuFacts) {
    EXPECT_EQ(Residency(256, 0, 32, 132).total(), 1056u); // GPU_FACTS: 1,056 for a 256-thread kernel
    EXPECT_EQ(Residency(1024, 0, 32, 132).per_sm(), 2u);
}

TEST(Residency, SmallBlocksHitTheBlockLimit) {
    const Residency r(32, 0, 32, 8);
    EXPECT_EQ(r.per_sm(), 32u);
    EXPECT_EQ(r.limit(), Residency::Limit::Blocks);
}

TEST(Residency, PartialWarpsTakeWholeWarps) {
    // 48 threads take two warps: 2048 / 64 = 32 blocks, then the block limit (32) ties; 40 threads
    // on 1,024-thread SMs would be different, so check a case where whole warps matter: 33 threads.
    EXPECT_EQ(Residency(33, 0, 32, 1, SmLimits{2048, 64, 228 * 1024, 1024, 65536}).per_sm(), 32u);
    EXPECT_EQ(Residency(32, 0, 32, 1, SmLimits{2048, 64, 228 * 1024, 1024, 65536}).per_sm(), 64u);
}

TEST(Residency, SharedMemoryCountsTheDriversReservedKilobyte) {
    // 100 KB + 1 KB reserved per block: two fit in 228 KB.
    const Residency r(128, 100 * 1024, 32, 8);
    EXPECT_EQ(r.per_sm(), 2u);
    EXPECT_EQ(r.limit(), Residency::Limit::Shared);
    // 113 KB + 1 KB = 114 KB: exactly two; 114 KB + 1 KB: one.
    EXPECT_EQ(Residency(128, 113 * 1024, 32, 8).per_sm(), 2u);
    EXPECT_EQ(Residency(128, 114 * 1024, 32, 8).per_sm(), 1u);
}

TEST(Residency, RegistersLimitWhenAThreadNeedsMany) {
    // 64 registers x 256 threads = 16,384 per block: four fit in 65,536.
    const Residency r(256, 0, 64, 8);
    EXPECT_EQ(r.per_sm(), 4u);
    EXPECT_EQ(r.limit(), Residency::Limit::Registers);
    EXPECT_EQ(r.explain(), "8 SMs x 4 blocks per SM, limited by registers per SM");
}

TEST(Residency, CooperativeProblemInTheDriversWordsAndOurs) {
    const Residency r(256, 0, 32, 8);
    EXPECT_EQ(r.cooperative_problem(64, 256), "");
    const std::string p = r.cooperative_problem(10000, 256);
    EXPECT_EQ(p.find("too many blocks in cooperative launch: 10000 blocks of 256 threads, at most 64 fit at once "
                     "(8 SMs x 8 blocks per SM, limited by threads per SM)"),
              0u)
        << p;
    EXPECT_NE(p.find("cudaErrorCooperativeLaunchTooLarge"), std::string::npos) << p;
    EXPECT_NE(r.cooperative_problem(65, 256), "");
}

TEST(SmSlots, TheFirstWaveSpreadsAcrossSmsThenAFreedSlotIsTakenWhereItFreed) {
    SmSlots slots(3, 2);
    const uint32_t first[] = {0, 1, 2, 0, 1, 2}; // breadth first: block % 3 while every SM has room
    for (uint32_t want : first)
        EXPECT_EQ(slots.take(), want);
    EXPECT_EQ(slots.take(), UINT32_MAX); // 3 SMs x 2: full
    slots.release(1);
    EXPECT_EQ(slots.take(), 1u); // the only free slot
    slots.release(2);
    slots.release(0);
    EXPECT_EQ(slots.take(), 2u); // equal room: the first SM after the one handed out last (1)
    EXPECT_EQ(slots.take(), 0u);
    for (uint32_t sm = 0; sm < 3; ++sm)
        EXPECT_EQ(slots.used(sm), 2u) << sm;
}

// The simulator keeps fewer blocks in flight than 132 SMs hold (Options::max_resident_blocks, 16):
// each block retires before the next is admitted, and still the blocks visit every SM in turn, as
// the hardware's breadth-first hand-out would place them, instead of piling onto the first 16 (whose
// per-SM units, shared atomics, would then serve the whole launch).
TEST(SmSlots, FewBlocksInFlightStillVisitEverySm) {
    SmSlots slots(132, 8);
    std::vector<uint32_t> in_flight;
    for (uint32_t b = 0; b < 16; ++b)
        in_flight.push_back(slots.take());
    for (uint32_t b = 16; b < 264; ++b) {
        slots.release(in_flight[b % 16]);
        in_flight[b % 16] = slots.take();
        EXPECT_EQ(in_flight[b % 16], b % 132) << "block " << b;
    }
}

} // namespace
} // namespace synclab::sim
