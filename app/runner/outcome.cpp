#include "runner/outcome.h"

#include "analysis/finding_kinds.h"

#include <algorithm>

namespace synclab::runner {

// [SECTION] The run's own outcome

bool launch_refused(const RunSummary& s) {
    return s.status == trace::RunStatus::Error && s.traced && s.trace.threads.empty();
}

RunOutcome run_outcome(trace::RunStatus status, uint64_t wrong_outputs, uint64_t checked_outputs, bool refused) {
    switch (status) {
    case trace::RunStatus::Ok:
        break;
    case trace::RunStatus::Deadlock:
    case trace::RunStatus::Timeout:
        return RunOutcome::Hung;
    case trace::RunStatus::Budget:
        return RunOutcome::Stopped;
    case trace::RunStatus::Error:
        return refused ? RunOutcome::Refused : RunOutcome::Error;
    case trace::RunStatus::Cancelled:
        return RunOutcome::Cancelled;
    }
    if (wrong_outputs > 0) return RunOutcome::WrongOutputs;
    return checked_outputs > 0 ? RunOutcome::Right : RunOutcome::Completed;
}

RunOutcome run_outcome(const RunSummary& s) {
    return run_outcome(s.status, s.wrong_outputs, s.checked_outputs, launch_refused(s));
}

RunOutcome run_outcome(const GpuSide& side) {
    return run_outcome(side.status, side.wrong_outputs, side.checked_outputs);
}

bool found_a_bug(const RunSummary& s) {
    return s.traced && std::any_of(s.findings.begin(), s.findings.end(), [](const analysis::Finding& f) {
               return !analysis::info(f.kind).performance;
           });
}

const char* to_string(RunOutcome outcome) {
    switch (outcome) {
    case RunOutcome::Right:
        return "right";
    case RunOutcome::WrongOutputs:
        return "wrong outputs";
    case RunOutcome::Completed:
        return "completed";
    case RunOutcome::Hung:
        return "hung";
    case RunOutcome::Stopped:
        return "stopped";
    case RunOutcome::Refused:
        return "refused";
    case RunOutcome::Error:
        return "error";
    case RunOutcome::Cancelled:
        return "cancelled";
    }
    return "error";
}

bool completed(RunOutcome outcome) {
    return outcome == RunOutcome::Right || outcome == RunOutcome::WrongOutputs || outcome == RunOutcome::Completed;
}

// [SECTION] Whether it matched the lesson

LessonMatch lesson_match(const VerdictCheck& verdict) {
    return verdict.pass ? LessonMatch::AsExpected : LessonMatch::Surprise;
}

const char* to_string(LessonMatch match) {
    return match == LessonMatch::AsExpected ? "as expected" : "a surprise";
}

// [SECTION] A memory model's verdict on an outcome

const char* to_string(ModelVerdict verdict) {
    return verdict == ModelVerdict::Forbidden ? "forbidden" : "allowed";
}

std::string verdict_words(const OutcomeVerdict& v) {
    if (v.verdict == ModelVerdict::Forbidden) return v.seen ? "forbidden, yet seen" : "forbidden, not seen";
    return v.seen ? "allowed, seen" : "allowed, not seen";
}

} // namespace synclab::runner
