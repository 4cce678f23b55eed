#include "cli/run_options.h"

#include "gpu/trace_plan.h"

#include <cctype>

namespace synclab::cli {

const std::vector<std::string> kRunValued = {"backend",      "schedule",  "seed",           "reps",
                                             "out",          "max-steps", "max-events",     "max-memory",
                                             "timeout",      "trace-buffer", "memory",      "max-executions",
                                             "histogram",    "per",       "warp-model"};
const std::vector<std::string> kRunFlags = {"json", "untraced", "live"};

sim::WarpModel warp_model_option(const Args& a, const std::string& backend) {
    sim::WarpModel model = sim::WarpModel::Its;
    const auto v = a.value("warp-model");
    if (!v) return model;
    if (backend == "gpu")
        throw UsageError("--warp-model picks how the simulator schedules a warp's lanes: it cannot go with "
                         "--backend gpu (the GPU schedules them itself)");
    if (!sim::parse_warp_model(*v, model))
        throw UsageError("--warp-model must be its or lockstep, got '" + *v + "'");
    return model;
}

uint64_t parse_bytes(const Args& a, const std::string& name, uint64_t fallback) {
    const auto v = a.value(name);
    if (!v) return fallback;
    std::string digits = *v;
    uint64_t unit = 1;
    if (!digits.empty()) {
        const char suffix = static_cast<char>(std::toupper(static_cast<unsigned char>(digits.back())));
        if (suffix == 'K' || suffix == 'M' || suffix == 'G') {
            unit = suffix == 'K' ? 1ull << 10 : suffix == 'M' ? 1ull << 20 : 1ull << 30;
            digits.pop_back();
        }
    }
    const uint64_t count =
        parse_uint(digits, "--" + name + " (bytes, or with K, M or G)", 1, (uint64_t(1) << 50) / unit);
    if (count * unit < (1ull << 20)) throw UsageError("--" + name + " must be at least 1M, got " + *v);
    return count * unit;
}

runner::RunOptions run_options(const Args& a) {
    runner::RunOptions o;
    o.backend = a.value_or("backend", "sim");
    if (o.backend != "sim" && o.backend != "gpu")
        throw UsageError("--backend must be 'sim' or 'gpu', got '" + o.backend + "'");
    if (o.backend == "sim")
        for (const char* gpu_only : {"untraced", "live", "timeout", "trace-buffer"})
            if (a.flag(gpu_only)) throw UsageError(std::string("--") + gpu_only + " needs --backend gpu");
    if (a.flag("untraced") && a.flag("live"))
        throw UsageError("--live shows the trace as it arrives: it cannot go with --untraced");
    o.gpu.traced = !a.flag("untraced");
    o.gpu.live = a.flag("live");
    o.gpu.timeout_s = a.double_or("timeout", 5, 0.05, 3600);
    o.gpu.trace.cap_bytes = a.uint_or("trace-buffer", gpu::kDefaultTraceCap >> 20, 1, uint64_t(1) << 24)
                            << 20;
    if (a.flag("untraced") && a.value("trace-buffer"))
        throw UsageError("--trace-buffer sizes the traced launch: it cannot go with --untraced");
    const std::string schedule = a.value_or("schedule", "random");
    if (!sim::parse_schedule(schedule, o.schedule))
        throw UsageError("--schedule must be rr, random, adversarial or exhaustive, got '" + schedule + "'");
    o.seed = a.uint_or("seed", 1, 0, UINT64_MAX / 2);
    o.reps = static_cast<uint32_t>(a.uint_or("reps", 1, 1, 100000));
    const bool exhaustive = o.schedule == sim::Schedule::Exhaustive;
    if (exhaustive && o.backend == "gpu")
        throw UsageError("--schedule exhaustive enumerates the simulator's executions: it cannot go with "
                         "--backend gpu (the GPU schedules its warps itself)");
    if (exhaustive && a.value("reps"))
        throw UsageError("--reps does not go with --schedule exhaustive: it runs every execution the model "
                         "allows once (bound: --max-executions N)");
    if (a.value("max-executions") && !exhaustive)
        throw UsageError("--max-executions bounds --schedule exhaustive: it needs --schedule exhaustive");
    o.max_executions = a.uint_or("max-executions", o.max_executions, 1, 1'000'000'000);
    if (const auto memory = a.value("memory")) {
        if (o.backend == "gpu")
            throw UsageError("--memory picks the simulator's memory model: it cannot go with --backend gpu "
                             "(the GPU has its own)");
        launch::MemoryModel model;
        if (!launch::parse_memory_model(*memory, model))
            throw UsageError("--memory must be sc or relaxed, got '" + *memory + "'");
        o.memory = model;
    }
    o.limits.warp_model = warp_model_option(a, o.backend);
    // Findings rather than a file: the simulator analyses shared memory as blocks finish and keeps
    // only what the whole-grid analyses need (a trace saved with --out keeps every event).
    o.analyse_as_it_runs = !a.value("out");
    if (a.value("per") && !a.value("histogram"))
        throw UsageError("--per N cuts the --histogram buffer into records: it needs --histogram BUFFER");
    o.histogram.per = static_cast<uint32_t>(a.uint_or("per", 0, 1, 1u << 24));
    o.limits.max_steps = a.uint_or("max-steps", o.limits.max_steps, 1000, UINT64_MAX / 2);
    o.limits.max_events = a.uint_or("max-events", o.limits.max_events, 1, UINT64_MAX / 64);
    o.limits.max_memory_bytes = parse_bytes(a, "max-memory", o.limits.max_memory_bytes);
    if (o.backend == "gpu")
        for (const char* sim_only : {"max-steps", "max-events", "max-memory"})
            if (a.value(sim_only))
                throw UsageError(std::string("--") + sim_only +
                                 " is a simulator budget: it needs --backend sim");
    return o;
}

scenario::ParamValues param_values(const Args& a) {
    scenario::ParamValues values;
    try {
        for (const std::string& text : a.values("param"))
            values.push_back(scenario::parse_param_text(text));
    } catch (const scenario::ParamError& e) {
        throw UsageError(e.what());
    }
    return values;
}

scenario::Scenario with_user_params(const scenario::Scenario& s, const scenario::ParamValues& values) {
    try {
        return scenario::with_params(s, values);
    } catch (const scenario::ParamError& e) {
        throw UsageError("--param: " + std::string(e.what()));
    }
}

} // namespace synclab::cli
