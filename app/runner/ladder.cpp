#include "runner/ladder.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace synclab::runner {

double Ladder::max_time() const {
    double m = 0;
    for (const LadderRung& r : rungs)
        if (r.timed) m = std::max(m, std::max(r.time, r.time_max));
    return m;
}

namespace {

RunOptions rung_options(const LadderOptions& o) {
    RunOptions r;
    r.backend = o.backend;
    r.schedule = o.schedule;
    r.seed = o.seed;
    r.cancel = o.cancel;
    if (o.sm_count != 0) r.limits.sm_count = o.sm_count;
    if (o.backend == "gpu") {
        // Untraced launches only: the traced launch's instrumentation would be timed too.
        r.reps = o.reps;
        r.gpu.untraced = true;
        r.gpu.traced = false;
        r.gpu.timeout_s = o.gpu_timeout_s;
    } else {
        // The cost model is deterministic for one schedule and seed: one run is the measurement.
        r.reps = 1;
    }
    return r;
}

} // namespace

Ladder run_ladder(const scenario::Scenario& scenario, const LadderOptions& options) {
    if (options.backend != "sim" && options.backend != "gpu")
        throw RequestError("ladder: backend must be 'sim' or 'gpu', got '" + options.backend + "'");
    if (options.reps == 0) throw RequestError("ladder: reps must be at least 1");
    if (scenario.variants.empty())
        throw RequestError("ladder: scenario '" + scenario.id + "' has no variants");

    Ladder ladder;
    ladder.scenario = scenario.id;
    ladder.params = scenario.chosen;
    ladder.backend = options.backend;
    const bool gpu = options.backend == "gpu";
    ladder.unit = gpu ? "ms" : "cycles";
    ladder.reps = gpu ? options.reps : 1;
    ladder.device = gpu ? "GPU" : "SyncLab simulator";

    const RunOptions base = rung_options(options);
    ladder.sm_count = gpu ? 0 : base.limits.sm_count;
    const size_t n = scenario.variants.size();
    bool any_sim_cycles = false;
    for (size_t i = 0; i < n; ++i) {
        const scenario::Variant& v = scenario.variants[i];
        if (options.cancel && options.cancel->load()) {
            ladder.cancelled = true;
            break;
        }
        RunOptions o = base;
        if (options.progress)
            o.progress = [&, i](double f) { options.progress((double(i) + f) / double(n)); };
        const RunSummary s = options.run ? options.run(v, o) : run_scenario(scenario, v, o);
        LadderRung rung;
        rung.variant = v.id;
        rung.title = v.en.title;
        rung.status = s.status;
        rung.wrong_outputs = s.wrong_outputs;
        rung.checked_outputs = s.checked_outputs;
        if (!s.device.empty()) ladder.device = s.device;
        if (s.status == trace::RunStatus::Cancelled) ladder.cancelled = true;
        if (s.status != trace::RunStatus::Ok) {
            rung.message = std::string(trace::to_string(s.status)) + (s.message.empty() ? "" : ": " + s.message);
        } else if (gpu) {
            rung.timed = s.kernel_ms > 0;
            rung.time = s.kernel_ms;
            rung.time_min = s.gpu_untraced.ran ? s.gpu_untraced.kernel_ms_min : s.kernel_ms;
            rung.time_max = s.gpu_untraced.ran ? s.gpu_untraced.kernel_ms_max : s.kernel_ms;
            if (!rung.timed) rung.message = "no kernel time came back";
        } else {
            // RunSummary::modelled_cycles is the kept repetition's RunMeta::modelled_cycles; a runner
            // that does not copy it yet still left it in the trace.
            const uint64_t cycles = s.modelled_cycles ? s.modelled_cycles : s.trace.meta.modelled_cycles;
            any_sim_cycles = any_sim_cycles || cycles > 0;
            rung.timed = cycles > 0;
            rung.time = rung.time_min = rung.time_max = double(cycles);
            if (!rung.timed) rung.message = "not modelled (this simulator has no cost model: 0 cycles)";
        }
        ladder.rungs.push_back(std::move(rung));
        if (ladder.cancelled) break;
    }
    ladder.not_modelled = !gpu && !any_sim_cycles && !ladder.rungs.empty();

    // Ratios to the first variant (the naive one); where it has no time, to the first that has.
    const LadderRung* base_rung = nullptr;
    for (const LadderRung& r : ladder.rungs)
        if (r.timed) {
            base_rung = &r;
            break;
        }
    if (base_rung) {
        ladder.baseline = base_rung->variant;
        const double t0 = base_rung->time;
        for (LadderRung& r : ladder.rungs)
            if (r.timed) r.ratio = r.time / t0;
    }
    return ladder;
}

std::string ratio_words(const LadderRung& rung, bool is_baseline) {
    if (!rung.timed || rung.ratio <= 0) return "not timed";
    if (is_baseline) return "1.0x (baseline)";
    char buf[64];
    // Within 5% of the baseline is no change worth a word: the GPU's run-to-run noise is about that.
    if (std::fabs(rung.ratio - 1.0) < 0.05)
        std::snprintf(buf, sizeof buf, "%.2fx (about the same)", 1.0 / rung.ratio);
    else if (rung.ratio < 1.0)
        std::snprintf(buf, sizeof buf, "%.1fx faster", 1.0 / rung.ratio);
    else
        std::snprintf(buf, sizeof buf, "%.1fx slower", rung.ratio);
    return buf;
}

} // namespace synclab::runner
