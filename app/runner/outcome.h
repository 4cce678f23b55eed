// One vocabulary for what a run did and what it meant, in one place, for every place that says it
// (the app's browser badges, run panel, status line, findings header, lesson panel, outcomes view,
// ladder and compare headers; the CLI's run text and table). Three separate things, never mixed:
//
// 1. The run's own outcome (RunOutcome): what the kernel did, whatever the lesson wanted.
//      right          it completed and every checked output is right
//      wrong outputs  it completed and some outputs are wrong
//      completed      it completed and no output was checked
//      hung           it never finished: a deadlock, or the GPU's watchdog stopped it at the timeout
//      stopped        a budget of the simulator stopped it (steps: a loop that may never end; events,
//                     memory, threads)
//      refused        the launch was refused before any thread ran (a cooperative grid too large to be
//                     resident at once: the driver's cudaErrorCooperativeLaunchTooLarge)
//      error          it failed otherwise (a fault, a trap)
//      cancelled      it was cancelled
//    A right outcome of a broken kernel is luck, not a virtue: the findings say why (the app colours a
//    right run with findings as a warning, ui/model/outcome_words.h).
// 2. Whether it matched the lesson (LessonMatch): "as expected" (the lesson's expectation held: a hang
//    of a variant that should hang is as expected) or "a surprise". A match is never "good": it sits
//    beside wrong outputs and hangs.
// 3. A memory model's verdict on one outcome of an outcome histogram (ModelVerdict): "forbidden" or
//    "allowed" by the model, and whether it was "seen" in the runs. An allowed outcome that was seen
//    and is not what the reference computes (a weak outcome: "flag seen, data stale") is a warning,
//    never good; a forbidden one that was seen is the model broken.
//
// English words here (the CLI's); ui/model/outcome_words.h gives them in English and Chinese, with colours.
#pragma once

#include "runner/runner.h"

#include <cstdint>

namespace synclab::runner {

// [SECTION] The run's own outcome

enum class RunOutcome : uint8_t { Right, WrongOutputs, Completed, Hung, Stopped, Refused, Error, Cancelled };

// Whether a run with status Error was refused before any thread ran: a traced run whose trace holds no
// thread at all (the simulator lays out the thread table once the launch is accepted; a traced GPU
// launch that was refused leaves none either). An untraced run cannot tell, and says "error".
bool launch_refused(const RunSummary& summary);

// From the parts: status, outputs, and (status Error) whether the launch was refused.
RunOutcome run_outcome(trace::RunStatus status, uint64_t wrong_outputs, uint64_t checked_outputs,
                       bool refused = false);
RunOutcome run_outcome(const RunSummary& summary);
// One side of a GPU run (no trace of its own to tell a refusal: "error").
RunOutcome run_outcome(const GpuSide& side);

// Whether the run's analysis found a bug: a finding about correctness (a race, a lost update, ...);
// contention is about speed, and a right run with only that is right, not right by luck.
bool found_a_bug(const RunSummary& summary);

// "right", "wrong outputs", "completed", "hung", "stopped", "refused", "error", "cancelled".
const char* to_string(RunOutcome outcome);

// Whether the kernel finished and left outputs to judge (right, wrong outputs, completed).
bool completed(RunOutcome outcome);

// [SECTION] Whether it matched the lesson

enum class LessonMatch : uint8_t { AsExpected, Surprise };

LessonMatch lesson_match(const VerdictCheck& verdict);
// "as expected", "a surprise".
const char* to_string(LessonMatch match);

// [SECTION] A memory model's verdict on an outcome

enum class ModelVerdict : uint8_t { Allowed, Forbidden };

// One outcome of a histogram as the vocabulary sees it.
struct OutcomeVerdict {
    ModelVerdict verdict = ModelVerdict::Allowed;
    bool seen = false; // it came out in at least one run
    bool weak = false; // it differs from what the reference computes (a stale flag, a lost value)
    // The model broken: a forbidden outcome that came out anyway.
    bool broken() const { return verdict == ModelVerdict::Forbidden && seen; }
};

// "forbidden", "allowed".
const char* to_string(ModelVerdict verdict);
// "forbidden, yet seen", "forbidden, not seen", "allowed, seen", "allowed, not seen".
std::string verdict_words(const OutcomeVerdict& verdict);

} // namespace synclab::runner
