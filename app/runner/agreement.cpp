#include "runner/agreement.h"

#include "runner/outcome.h"

namespace synclab::runner {

namespace {

// The end for the comparison, and the text in the vocabulary of runner/outcome.h: "right",
// "wrong outputs (512 of 3072)", "hung (deadlock)", "stopped (step budget)", "refused".
Outcome make(trace::RunStatus status, uint64_t wrong, uint64_t checked, bool refused) {
    Outcome o;
    const RunOutcome outcome = run_outcome(status, wrong, checked, refused);
    o.text = to_string(outcome);
    switch (status) {
    case trace::RunStatus::Ok:
        o.end = Outcome::End::Completes;
        o.wrong_outputs = wrong > 0;
        if (wrong > 0) o.text += " (" + std::to_string(wrong) + " of " + std::to_string(checked) + ")";
        return o;
    case trace::RunStatus::Deadlock:
    case trace::RunStatus::Timeout:
        o.end = Outcome::End::Hangs;
        o.text += std::string(" (") + trace::to_string(status) + ")";
        return o;
    case trace::RunStatus::Budget: // a step budget: a spin that does not end (simulator_outcome)
        o.end = Outcome::End::Hangs;
        o.text += " (step budget)";
        return o;
    case trace::RunStatus::Error:
    case trace::RunStatus::Cancelled:
        break;
    }
    o.end = Outcome::End::Fails;
    return o;
}

} // namespace

Outcome simulator_outcome(const RunSummary& summary) {
    if (summary.status == trace::RunStatus::Budget && summary.budget != sim::Budget::Steps) {
        Outcome o;
        o.end = Outcome::End::Fails;
        o.text = "stopped (too big to simulate)";
        return o;
    }
    return make(summary.status, summary.wrong_outputs, summary.checked_outputs, launch_refused(summary));
}

Outcome gpu_outcome(const GpuSide& untraced) {
    return make(untraced.status, untraced.wrong_outputs, untraced.checked_outputs, false);
}

bool outcomes_agree(const Outcome& a, const Outcome& b) {
    if (a.end != b.end || a.end == Outcome::End::Fails) return false;
    return a.end == Outcome::End::Hangs || a.wrong_outputs == b.wrong_outputs;
}

} // namespace synclab::runner
