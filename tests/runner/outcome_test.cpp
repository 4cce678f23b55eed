// The vocabulary's mapping (runner/outcome.h): a run's status and outputs to its own outcome, a
// verdict to "as expected" / "a surprise", a histogram outcome to the model's verdict words.
#include "runner/outcome.h"

#include <gtest/gtest.h>

namespace synclab {
namespace {

using runner::RunOutcome;
using trace::RunStatus;

TEST(RunOutcome, EachStatusAndItsOutputs) {
    EXPECT_EQ(runner::run_outcome(RunStatus::Ok, 0, 16), RunOutcome::Right);
    EXPECT_EQ(runner::run_outcome(RunStatus::Ok, 3, 16), RunOutcome::WrongOutputs);
    EXPECT_EQ(runner::run_outcome(RunStatus::Ok, 0, 0), RunOutcome::Completed);
    EXPECT_EQ(runner::run_outcome(RunStatus::Deadlock, 0, 0), RunOutcome::Hung);
    EXPECT_EQ(runner::run_outcome(RunStatus::Timeout, 0, 0), RunOutcome::Hung);
    EXPECT_EQ(runner::run_outcome(RunStatus::Budget, 0, 0), RunOutcome::Stopped);
    EXPECT_EQ(runner::run_outcome(RunStatus::Error, 0, 0), RunOutcome::Error);
    EXPECT_EQ(runner::run_outcome(RunStatus::Error, 0, 0, true), RunOutcome::Refused);
    EXPECT_EQ(runner::run_outcome(RunStatus::Cancelled, 0, 0), RunOutcome::Cancelled);
    EXPECT_TRUE(runner::completed(RunOutcome::WrongOutputs));
    EXPECT_FALSE(runner::completed(RunOutcome::Hung));
}

// Refused: status error, traced, and not one thread in the trace (the launch never started).
TEST(RunOutcome, ARefusalIsAnErrorBeforeAnyThread) {
    runner::RunSummary s;
    s.status = RunStatus::Error;
    EXPECT_TRUE(runner::launch_refused(s));
    EXPECT_EQ(runner::run_outcome(s), RunOutcome::Refused);
    s.trace.threads.resize(32);
    EXPECT_FALSE(runner::launch_refused(s)) << "threads ran: a fault, not a refusal";
    s.trace.threads.clear();
    s.traced = false;
    EXPECT_FALSE(runner::launch_refused(s)) << "untraced: nothing tells";
    s.traced = true;
    s.status = RunStatus::Deadlock;
    EXPECT_FALSE(runner::launch_refused(s));
}

TEST(RunOutcome, ContentionIsNoBug) {
    runner::RunSummary s;
    analysis::Finding f;
    f.kind = analysis::FindingKind::Contention;
    s.findings.push_back(f);
    EXPECT_FALSE(runner::found_a_bug(s));
    f.kind = analysis::FindingKind::Race;
    s.findings.push_back(f);
    EXPECT_TRUE(runner::found_a_bug(s));
    s.traced = false;
    EXPECT_FALSE(runner::found_a_bug(s)) << "untraced: nothing was analysed";
}

TEST(RunOutcome, TheWordsTheCliPrints) {
    EXPECT_STREQ(runner::to_string(RunOutcome::WrongOutputs), "wrong outputs");
    EXPECT_STREQ(runner::to_string(RunOutcome::Refused), "refused");
    EXPECT_STREQ(runner::to_string(runner::lesson_match({true, {}})), "as expected");
    EXPECT_STREQ(runner::to_string(runner::lesson_match({false, {"status ok, expected deadlock"}})), "a surprise");
}

TEST(OutcomeVerdict, ForbiddenAllowedAndSeen) {
    using runner::ModelVerdict;
    EXPECT_EQ(runner::verdict_words({ModelVerdict::Forbidden, true, true}), "forbidden, yet seen");
    EXPECT_EQ(runner::verdict_words({ModelVerdict::Forbidden, false, false}), "forbidden, not seen");
    EXPECT_EQ(runner::verdict_words({ModelVerdict::Allowed, true, true}), "allowed, seen");
    EXPECT_EQ(runner::verdict_words({ModelVerdict::Allowed, false, false}), "allowed, not seen");
    EXPECT_TRUE((runner::OutcomeVerdict{ModelVerdict::Forbidden, true, false}).broken());
    EXPECT_FALSE((runner::OutcomeVerdict{ModelVerdict::Allowed, true, true}).broken());
}

} // namespace
} // namespace synclab
