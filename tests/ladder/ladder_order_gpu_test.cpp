// ctest label `gpu`: the same comparison as ladder_order_test, against ladders measured here and now
// (skipped without a GPU): each recorded ladder's scenario and parameters, on this GPU (median of
// 20 untraced launches) and on the simulator modelling the recorded GPU's SM count; and this GPU's
// order against the file's (for the ladders still marked expected, the first check of that order).
#include "gpu/require_gpu.h"
#include "ladder/ladder_order.h"

#include <cstdio>

namespace synclab {
namespace {

TEST(LadderOrderGpu, SimulatorRanksTheVariantsAsThisGpuDoes) {
    REQUIRE_GPU();
    const testing::RecordedLadders recorded = testing::recorded_ladders();
    for (const testing::RecordedLadder& l : recorded.ladders) {
        runner::LadderOptions g;
        g.backend = "gpu";
        g.reps = 20;
        g.run = [&](const scenario::Variant& v, runner::RunOptions o) {
            o.gpu.worker = SYNCLAB_GPU_WORKER;
            return runner::run_scenario(l.scenario, v, o);
        };
        const runner::Ladder gpu = runner::run_ladder(l.scenario, g);
        runner::LadderOptions o;
        o.sm_count = recorded.sm_count; // the H200's; the comparison is only as good as this match
        const runner::Ladder sim = runner::run_ladder(l.scenario, o);
        for (const runner::LadderRung& r : gpu.rungs)
            std::printf("%s %s: GPU %.4f ms\n", l.what.c_str(), r.variant.c_str(), r.time);
        testing::expect_same_order(testing::rung_times(gpu), testing::rung_times(sim), recorded.tie_ratio, l.what);
        // And this GPU ranks them as the file says the H200 does (or is expected to: the atomics
        // ladder's order before anyone recorded it with the lesson's kernels).
        testing::expect_same_order(l.gpu_ms, testing::rung_times(gpu), recorded.tie_ratio,
                                   l.what + ", the file against this GPU");
    }
}

} // namespace
} // namespace synclab
