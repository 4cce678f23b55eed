// The optimisation ladder: every variant of one scenario run on one backend, each with its time and
// its ratio to the first variant (the lessons list the naive variant first), so that a student sees
// what each fix buys. Simulator: the cost model's modelled cycles of one run (RunSummary::
// modelled_cycles); GPU: the median CUDA-event kernel time of N untraced launches (the traced launch
// would perturb the timing it is meant to show). No ImGui: the CLI's `synclab ladder` and the app's
// Ladder view both call run_ladder().
#pragma once

#include "runner/runner.h"
#include "scenario/scenario.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace synclab::runner {

struct LadderOptions {
    std::string backend = "sim"; // "sim" | "gpu"
    uint32_t reps = 20;          // GPU: untraced launches per variant (the time is their median)
    sim::Schedule schedule = sim::Schedule::RoundRobin; // simulator: the one run's schedule
    uint64_t seed = 1;
    // Simulator: the modelled GPU's SM count (sim::Options::sm_count; 0 keeps its default). A ladder
    // compared with a real GPU models that GPU's SM count: blocks run in waves of what fits at once.
    uint32_t sm_count = 0;
    double gpu_timeout_s = 5;
    const std::atomic<bool>* cancel = nullptr;
    std::function<void(double fraction)> progress; // over all variants
    // Set by tests (and by callers that run variants their own way): one run of a variant.
    // Default: run_scenario.
    std::function<RunSummary(const scenario::Variant&, const RunOptions&)> run;
};

// One variant's rung.
struct LadderRung {
    std::string variant;
    std::string title; // the variant's English title
    trace::RunStatus status = trace::RunStatus::Ok;
    std::string message;        // why a rung has no time (a failed run, "not modelled")
    bool timed = false;         // `time` holds a measurement
    double time = 0;            // in Ladder::unit
    double time_min = 0, time_max = 0; // GPU: the spread over the launches (sim: = time)
    double ratio = 0;           // time / the first timed rung's time (0 where either is untimed)
    uint64_t wrong_outputs = 0; // the run's outputs checked against the reference
    uint64_t checked_outputs = 0;
};

struct Ladder {
    std::string scenario;
    scenario::ParamValues params; // the lesson parameters it ran with (Scenario::chosen)
    std::string backend; // "sim" | "gpu"
    std::string device;  // "SyncLab simulator", "NVIDIA H200"
    std::string unit;    // "cycles" (modelled) | "ms" (CUDA events)
    uint32_t reps = 1;   // runs per rung
    uint32_t sm_count = 0; // simulator: the modelled SMs (0 on the GPU: the device's own)
    std::vector<LadderRung> rungs; // the scenario's variants in lesson order
    std::string baseline;          // the variant the ratios are to ("" when none was timed)
    // Every simulator rung came back with 0 modelled cycles: the simulator this was built with has no
    // cost model, and the ladder says "not modelled" instead of drawing bars of nothing.
    bool not_modelled = false;
    bool cancelled = false;
    // The highest rung time (0 when none): bars are drawn to this scale.
    double max_time() const;
};

// Throws RequestError for a backend that is neither "sim" nor "gpu", or reps 0; gpu::Unavailable
// (through run_scenario) where the GPU cannot be used.
Ladder run_ladder(const scenario::Scenario& scenario, const LadderOptions& options);

// "12.5x faster", "1.0x (baseline)", "3.2x slower", "not timed".
std::string ratio_words(const LadderRung& rung, bool is_baseline);

} // namespace synclab::runner
