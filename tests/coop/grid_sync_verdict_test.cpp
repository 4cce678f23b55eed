// The grid_sync lesson's verdicts in the simulator over seeds 1-10 and every schedule, with the
// words each variant must show: the correct cooperative launch is right, the oversized one is
// refused before it runs, the oversubscribed hand-made barrier deadlocks naming the blocks that
// spin, where, and those that never started.
#include "runner/runner.h"
#include "scenario/scenario.h"
#include "sim/simulator.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace synclab {
namespace {

const scenario::Scenario& lesson() {
    const scenario::Scenario* s = scenario::find_scenario("grid_sync");
    if (!s) throw std::runtime_error("no grid_sync lesson in the catalog");
    return *s;
}

const scenario::Variant& variant(const std::string& id) {
    const scenario::Variant* v = lesson().find_variant(id);
    if (!v) throw std::runtime_error("no variant " + id);
    return *v;
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

runner::RunSummary run(const std::string& id, sim::Schedule schedule, uint64_t seed) {
    runner::RunOptions o;
    o.schedule = schedule;
    o.seed = seed;
    return runner::run_scenario(lesson(), variant(id), o);
}

constexpr sim::Schedule kSchedules[] = {sim::Schedule::RoundRobin, sim::Schedule::Random, sim::Schedule::Adversarial};

TEST(GridSyncVerdict, VariantLaunchesComeFromTheLessonFile) {
    EXPECT_TRUE(variant("cooperative_launch").launch.cooperative);
    EXPECT_EQ(variant("cooperative_launch").launch.grid.x, 64u);
    EXPECT_TRUE(variant("too_many_blocks").launch.cooperative);
    EXPECT_EQ(variant("too_many_blocks").launch.grid.x, 4224u);
    EXPECT_FALSE(variant("handmade_grid_barrier_oversubscribed").launch.cooperative);
    EXPECT_EQ(variant("handmade_grid_barrier_oversubscribed").launch.grid.x, 4224u);
}

TEST(GridSyncVerdict, CooperativeLaunchIsRightOnEverySeed) {
    for (sim::Schedule s : kSchedules)
        for (uint64_t seed = 1; seed <= 10; ++seed) {
            const runner::RunSummary r = run("cooperative_launch", s, seed);
            ASSERT_EQ(r.status, trace::RunStatus::Ok) << sim::to_string(s) << " " << seed << ": " << r.message;
            EXPECT_EQ(r.wrong_outputs, 0u);
            EXPECT_EQ(r.checked_outputs, 16384u);
            EXPECT_TRUE(r.findings.empty()) << r.findings.front().message;
        }
}

TEST(GridSyncVerdict, TooManyBlocksIsRefusedBeforeAnythingRuns) {
    for (uint64_t seed = 1; seed <= 10; ++seed) {
        const runner::RunSummary r = run("too_many_blocks", sim::Schedule::Random, seed);
        ASSERT_EQ(r.status, trace::RunStatus::Error) << r.message;
        EXPECT_TRUE(contains(r.message, "too many blocks in cooperative launch: 4224 blocks of 256 threads, at most "
                                        "64 fit at once (8 SMs x 8 blocks per SM, limited by threads per SM)"))
            << r.message;
        EXPECT_TRUE(r.findings.empty());
    }
}

TEST(GridSyncVerdict, OversubscribedHandmadeBarrierDeadlocksNamingSpinnersAndTheNeverStarted) {
    for (sim::Schedule s : kSchedules)
        for (uint64_t seed = 1; seed <= 10; ++seed) {
            const runner::RunSummary r = run("handmade_grid_barrier_oversubscribed", s, seed);
            const std::string where = std::string(sim::to_string(s)) + " seed " + std::to_string(seed);
            ASSERT_EQ(r.status, trace::RunStatus::Deadlock) << where << ": " << r.message;
            EXPECT_TRUE(contains(r.message, "thread 0 spins at 'ld.volatile.global.u32")) << r.message;
            EXPECT_TRUE(contains(r.message, "grid_sync.cu:75")) << r.message;
            EXPECT_TRUE(contains(r.message, "Blocks 64-4223 never started: no slot freed")) << r.message;
            const auto deadlock = std::find_if(r.findings.begin(), r.findings.end(), [](const analysis::Finding& f) {
                return f.kind == analysis::FindingKind::Deadlock;
            });
            ASSERT_NE(deadlock, r.findings.end()) << where;
            EXPECT_TRUE(contains(deadlock->message, "blocks 64-4223 never started: no slot freed")) << deadlock->message;
            EXPECT_TRUE(contains(deadlock->message, "line 75")) << deadlock->message;
            // Both say where threads 1-31 are: parked at the block barrier behind thread 0's spin,
            // like the other warps (not "still running").
            EXPECT_TRUE(contains(r.message, "threads 1-255 wait at 'bar.sync 0'")) << r.message;
            EXPECT_TRUE(contains(deadlock->message, "threads 1-255 wait at line 79")) << deadlock->message;
            EXPECT_FALSE(contains(deadlock->message, "were still running at line 79")) << deadlock->message;
        }
}

} // namespace
} // namespace synclab
