// Simulator vs GPU agreement (runner/agreement.h), as `synclab table --backend gpu` reports it.
#include "runner/agreement.h"

#include <gtest/gtest.h>

namespace synclab::runner {
namespace {

RunSummary sim_run(trace::RunStatus status, uint64_t wrong, uint64_t checked = 100) {
    RunSummary s;
    s.status = status;
    s.wrong_outputs = wrong;
    s.checked_outputs = checked;
    return s;
}

GpuSide gpu_run(trace::RunStatus status, uint64_t wrong, uint64_t checked = 100) {
    GpuSide g;
    g.ran = true;
    g.status = status;
    g.wrong_outputs = wrong;
    g.checked_outputs = checked;
    return g;
}

using trace::RunStatus;

TEST(Agreement, OutcomesInWords) {
    EXPECT_EQ(simulator_outcome(sim_run(RunStatus::Ok, 0)).text, "right");
    EXPECT_EQ(simulator_outcome(sim_run(RunStatus::Ok, 512, 1024)).text, "wrong outputs (512 of 1024)");
    EXPECT_EQ(simulator_outcome(sim_run(RunStatus::Deadlock, 0)).text, "hung (deadlock)");
    EXPECT_EQ(gpu_outcome(gpu_run(RunStatus::Timeout, 0)).text, "hung (timeout)");
}

TEST(Agreement, HangsAgreeWithHangsWhateverTheirCause) {
    EXPECT_TRUE(outcomes_agree(simulator_outcome(sim_run(RunStatus::Deadlock, 0)),
                               gpu_outcome(gpu_run(RunStatus::Timeout, 0))));
    // A spin loop that the step budget ends is a hang too; a run too big for the event or memory
    // budget says nothing either way.
    RunSummary spin = sim_run(RunStatus::Budget, 0);
    spin.budget = sim::Budget::Steps;
    EXPECT_TRUE(outcomes_agree(simulator_outcome(spin), gpu_outcome(gpu_run(RunStatus::Timeout, 0))));
    for (sim::Budget big : {sim::Budget::Events, sim::Budget::Memory, sim::Budget::Threads}) {
        RunSummary too_big = sim_run(RunStatus::Budget, 0);
        too_big.budget = big;
        EXPECT_EQ(simulator_outcome(too_big).text, "stopped (too big to simulate)");
        EXPECT_FALSE(outcomes_agree(simulator_outcome(too_big), gpu_outcome(gpu_run(RunStatus::Timeout, 0))));
        EXPECT_FALSE(outcomes_agree(simulator_outcome(too_big), gpu_outcome(gpu_run(RunStatus::Ok, 0))));
    }
    EXPECT_FALSE(outcomes_agree(simulator_outcome(sim_run(RunStatus::Deadlock, 0)),
                                gpu_outcome(gpu_run(RunStatus::Ok, 0))));
}

TEST(Agreement, CompletedRunsAgreeOnWhetherOutputsCameOutWrong) {
    EXPECT_TRUE(
        outcomes_agree(simulator_outcome(sim_run(RunStatus::Ok, 3)), gpu_outcome(gpu_run(RunStatus::Ok, 99))))
        << "rates differ, but both are wrong";
    EXPECT_TRUE(
        outcomes_agree(simulator_outcome(sim_run(RunStatus::Ok, 0)), gpu_outcome(gpu_run(RunStatus::Ok, 0))));
    EXPECT_FALSE(
        outcomes_agree(simulator_outcome(sim_run(RunStatus::Ok, 0)), gpu_outcome(gpu_run(RunStatus::Ok, 7))));
}

TEST(Agreement, AFailedRunAgreesWithNothing) {
    EXPECT_FALSE(outcomes_agree(simulator_outcome(sim_run(RunStatus::Error, 0)),
                                gpu_outcome(gpu_run(RunStatus::Error, 0))));
}

} // namespace
} // namespace synclab::runner
