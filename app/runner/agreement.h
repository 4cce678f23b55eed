// Does the simulator's outcome agree with the hardware's? `synclab table --backend gpu` asks it of
// every variant: both complete or both hang, and both give wrong outputs or neither does. (Rates are
// not compared: a schedule is not a GPU.)
#pragma once

#include "runner/runner.h"

#include <string>

namespace synclab::runner {

struct Outcome {
    enum class End : uint8_t { Completes, Hangs, Fails } end = End::Completes;
    bool wrong_outputs = false;
    std::string text; // "right", "wrong outputs (512 of 3072)", "hung (deadlock)" (runner/outcome.h's words)
};

// The simulator's outcome over a summary's repetitions: deadlock, a step budget (a spin that never
// ends) and a timeout hang; an error, a cancelled run, and a run too big to simulate whole (event,
// memory or thread budget) fail: they say nothing about the kernel.
Outcome simulator_outcome(const RunSummary& summary);

// The GPU's own outcome: its untraced launches (a watchdog timeout hangs).
Outcome gpu_outcome(const GpuSide& untraced);

// Same end, and (for runs that complete) wrong outputs on both sides or on neither.
bool outcomes_agree(const Outcome& a, const Outcome& b);

} // namespace synclab::runner
