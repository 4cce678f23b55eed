#include "runner/agreement.h"

namespace synclab::runner {

namespace {

Outcome make(trace::RunStatus status, uint64_t wrong, uint64_t checked) {
    Outcome o;
    switch (status) {
    case trace::RunStatus::Ok:
        o.end = Outcome::End::Completes;
        o.wrong_outputs = wrong > 0;
        o.text = wrong > 0
                     ? "completes, " + std::to_string(wrong) + " of " + std::to_string(checked) + " wrong"
                     : "completes, right";
        return o;
    case trace::RunStatus::Deadlock:
    case trace::RunStatus::Budget:
    case trace::RunStatus::Timeout:
        o.end = Outcome::End::Hangs;
        o.text = std::string("hangs (") + trace::to_string(status) + ")";
        return o;
    case trace::RunStatus::Error:
    case trace::RunStatus::Cancelled:
        break;
    }
    o.end = Outcome::End::Fails;
    o.text = trace::to_string(status);
    return o;
}

} // namespace

Outcome simulator_outcome(const RunSummary& summary) {
    if (summary.status == trace::RunStatus::Budget && summary.budget != sim::Budget::Steps) {
        Outcome o;
        o.end = Outcome::End::Fails;
        o.text = "too big to simulate (budget)";
        return o;
    }
    return make(summary.status, summary.wrong_outputs, summary.checked_outputs);
}

Outcome gpu_outcome(const GpuSide& untraced) {
    return make(untraced.status, untraced.wrong_outputs, untraced.checked_outputs);
}

bool outcomes_agree(const Outcome& a, const Outcome& b) {
    if (a.end != b.end || a.end == Outcome::End::Fails) return false;
    return a.end == Outcome::End::Hangs || a.wrong_outputs == b.wrong_outputs;
}

} // namespace synclab::runner
