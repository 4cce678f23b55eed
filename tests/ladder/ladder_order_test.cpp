// The simulator ranks the atomics lessons' variants as the H200 did (tests/ladder/data/
// h200_ladders.json, measured with scripts/gpu_session.sh ladder), modelling the H200's 132 SMs at
// the size parameters that make the GPU's time the atomics' rather than its launch overhead.
#include "ladder/ladder_order.h"

#include <gtest/gtest-spi.h>

namespace synclab {
namespace {

TEST(LadderOrder, SimulatorRanksTheVariantsAsTheH200Did) {
    const testing::RecordedLadders recorded = testing::recorded_ladders();
    ASSERT_GE(recorded.ladders.size(), 3u);
    for (const testing::RecordedLadder& l : recorded.ladders) {
        runner::LadderOptions o;
        o.sm_count = recorded.sm_count;
        const runner::Ladder sim = runner::run_ladder(l.scenario, o);
        for (const runner::LadderRung& r : sim.rungs)
            EXPECT_EQ(r.wrong_outputs, 0u) << l.what << " " << r.variant;
        testing::expect_same_order(l.gpu_ms, testing::rung_times(sim), recorded.tie_ratio, l.what);
    }
}

// The comparison itself can fail: a simulator that swapped two clearly different rungs is caught,
// and GPU ties are no claim either way.
TEST(LadderOrder, TheComparisonCatchesASwapAndIgnoresTies) {
    const std::map<std::string, double> gpu = {{"a", 1.0}, {"b", 0.5}, {"c", 0.48}};
    EXPECT_NONFATAL_FAILURE(testing::expect_same_order(gpu, {{"a", 10}, {"b", 20}, {"c", 5}}, 1.15, "swap"),
                            "slower than");
    testing::expect_same_order(gpu, {{"a", 30}, {"b", 10}, {"c", 11}}, 1.15, "tie"); // b, c: a tie
}

} // namespace
} // namespace synclab
