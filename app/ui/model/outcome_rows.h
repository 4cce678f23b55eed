// What the outcomes view shows, without drawing it: which buffer a lesson's outcomes are counted in,
// the rows of the histogram table (the lesson's named outcomes, the forbidden ones, every counted
// one, each with the memory model's verdict), and the runner options of the view's runs.
#pragma once

#include "runner/outcome.h"
#include "runner/runner.h"
#include "scenario/scenario.h"
#include "ui/core/app_state.h"

#include <string>
#include <vector>

namespace synclab::ui {

// What the view counts for a lesson: its `[outcomes]` (buffer, records of `per`), else its first
// output's first element (`lesson_named` false), else nothing (no buffer).
struct OutcomeSubject {
    runner::HistogramRequest request;
    bool lesson_named = false;
};
OutcomeSubject outcome_subject(const scenario::Scenario& scenario);

// One row of the view: an outcome, what the lesson calls it, what the model says, and each side's
// count. Built fresh from the two histograms (cheap: a histogram holds few outcomes).
struct OutcomeRow {
    std::string outcome; // "1,0" (launch::format_values)
    std::string meaning; // the lesson's label in the shown language, "" where it names none
    // The memory model's verdict on it for this variant (forbidden or allowed), whether a side
    // counted it, and whether it differs from the reference's values (a weak outcome).
    runner::OutcomeVerdict verdict;
    uint64_t sim_count = 0, gpu_count = 0;
    double sim_share = 0, gpu_share = 0; // of that side's counted records, 0..1
    // A simulator run that produced it (its seed, or its exhaustive choices); null where the
    // simulator never gave it.
    const runner::OutcomeCount* sim_run = nullptr;
};

// The lesson's named outcomes first (in its order, counted or not), then the forbidden ones it
// names, then every other counted outcome, most frequent first (the simulator's order, then the
// GPU's). `sim` / `gpu` may be null.
std::vector<OutcomeRow> outcome_rows(const scenario::Scenario* scenario, const scenario::Variant* variant,
                                     const runner::Histogram* sim, const runner::Histogram* gpu,
                                     Language language);

// The runner options of the outcomes view's simulator runs (or, with gpu, the GPU's untraced
// launches): the run panel's controls with `runs` repetitions and the subject's histogram.
runner::RunOptions outcome_run_options(const Controls& controls, const OutcomeSubject& subject, uint32_t runs,
                                       bool gpu);

} // namespace synclab::ui
