#include "cli/ladder_command.h"

#include "cli/args.h"
#include "gpu/client.h"
#include "scenario/scenario.h"

#include <algorithm>
#include <cstdio>
#include <iomanip>
#include <iostream>
#include <sstream>

namespace synclab::cli {

const char* const kLadderUsage =
    R"(  synclab ladder SCENARIO [--backend sim|gpu] [--reps N] [--schedule rr|random|adversarial]
              [--seed N] [--timeout S] [--sm-count N] [--param NAME=CHOICE ...] [--json]
      The optimisation ladder: every variant of SCENARIO timed, with its ratio to the first (naive)
      variant. Simulator (default): the cost model's modelled cycles of one run per variant (schedule
      rr unless --schedule); a simulator without the cost model says "not modelled". --backend gpu:
      the median CUDA-event kernel time of N untraced launches per variant (--reps, default 20).
      --param NAME=CHOICE: a lesson parameter (see 'synclab show SCENARIO'), the same for every variant.
      --sm-count N (simulator): the modelled GPU's SMs (default 8); blocks beyond what N SMs hold at
      once run in later waves. To compare with a GPU, model its count: --sm-count 132 for an H200,
      with a size parameter large enough that the GPU is not timing its launch overhead, e.g.
      'synclab ladder atomic_counter --param threads=1048576 --sm-count 132'.
)";

namespace {

std::string grouped(uint64_t v) {
    std::string s = std::to_string(v);
    for (int i = int(s.size()) - 3; i > 0; i -= 3)
        s.insert(size_t(i), ",");
    return s;
}

std::string time_text(const runner::Ladder& l, const runner::LadderRung& r) {
    if (!r.timed) return l.not_modelled ? "not modelled" : "-";
    if (l.unit == "cycles") return grouped(uint64_t(r.time)) + " cycles";
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.4f ms", r.time);
    return buf;
}

} // namespace

nlohmann::json ladder_json(const runner::Ladder& l) {
    nlohmann::json rungs = nlohmann::json::array();
    for (const runner::LadderRung& r : l.rungs) {
        nlohmann::json j = {{"variant", r.variant},
                            {"title", r.title},
                            {"status", trace::to_string(r.status)},
                            {"timed", r.timed},
                            {"time", r.time},
                            {"ratio", r.ratio},
                            {"speedup", r.timed && r.ratio > 0 ? 1.0 / r.ratio : 0.0},
                            {"wrong_outputs", r.wrong_outputs},
                            {"checked_outputs", r.checked_outputs},
                            {"message", r.message}};
        // The names the run JSON uses for the same measurement.
        if (l.unit == "cycles")
            j["modelled_cycles"] = uint64_t(r.time);
        else {
            j["kernel_ms"] = r.time;
            j["kernel_ms_min"] = r.time_min;
            j["kernel_ms_max"] = r.time_max;
        }
        rungs.push_back(std::move(j));
    }
    nlohmann::json params = nlohmann::json::object();
    for (const auto& [name, choice] : l.params)
        params[name] = choice;
    return {{"scenario", l.scenario}, {"params", params}, {"backend", l.backend}, {"device", l.device},
            {"unit", l.unit},         {"reps", l.reps},                 {"baseline", l.baseline},
            {"sm_count", l.sm_count},
            {"not_modelled", l.not_modelled}, {"cancelled", l.cancelled}, {"rungs", rungs}};
}

void print_ladder_text(std::ostream& out, const runner::Ladder& l) {
    std::string params;
    for (const auto& [name, choice] : l.params)
        params += (params.empty() ? " (" : ", ") + name + "=" + choice;
    if (!params.empty()) params += ")";
    out << "ladder: " << l.scenario << params << " on " << l.device << " ("
        << (l.unit == "cycles" ? "modelled cycles on " + std::to_string(l.sm_count) + " SMs, one run per variant"
                               : "median kernel time of " + std::to_string(l.reps) + " untraced launches")
        << ")\n";
    if (l.not_modelled)
        out << "not modelled: this simulator reports 0 modelled cycles (no cost model), so there is "
               "nothing to rank; use --backend gpu where there is a GPU\n";
    size_t w = 8;
    for (const runner::LadderRung& r : l.rungs)
        w = std::max(w, r.variant.size() + 2);
    out << std::left << std::setw(int(w)) << "variant" << std::setw(20) << "time" << std::setw(9) << "ratio"
        << std::setw(24) << "vs " + (l.baseline.empty() ? std::string("first") : l.baseline) << "outputs\n";
    const double top = l.max_time();
    for (const runner::LadderRung& r : l.rungs) {
        char ratio[24] = "-";
        if (r.timed && r.ratio > 0) std::snprintf(ratio, sizeof ratio, "%.3f", r.ratio);
        const std::string outputs = r.checked_outputs
                                        ? std::to_string(r.wrong_outputs) + "/" + std::to_string(r.checked_outputs) +
                                              " wrong"
                                        : "unchecked";
        out << std::left << std::setw(int(w)) << r.variant << std::setw(20) << time_text(l, r) << std::setw(9)
            << ratio << std::setw(24) << runner::ratio_words(r, r.variant == l.baseline) << outputs;
        if (r.timed && top > 0) out << "  " << std::string(size_t(std::max(1.0, 30.0 * r.time / top)), '#');
        out << "\n";
        if (!r.message.empty() && r.status != trace::RunStatus::Ok) out << "    ! " << r.message << "\n";
    }
    if (l.cancelled) out << "(cancelled before every variant ran)\n";
}

int cmd_ladder(const std::vector<std::string>& argv) {
    Args a(argv, "ladder", {"backend", "reps", "schedule", "seed", "timeout", "sm-count"}, {"json"}, {"param"});
    if (a.positional().size() != 1)
        throw UsageError("'ladder' needs exactly one SCENARIO (see 'synclab list'), got " +
                         std::to_string(a.positional().size()));
    const std::string& id = a.positional()[0];
    const scenario::Scenario* s = scenario::find_scenario(id);
    if (!s) {
        std::string ids;
        for (const scenario::Scenario& c : scenario::catalog())
            ids += (ids.empty() ? "" : ", ") + c.id;
        throw UsageError("unknown scenario '" + id + "' (scenarios: " + ids + ")");
    }
    runner::LadderOptions o;
    o.backend = a.value_or("backend", "sim");
    if (o.backend != "sim" && o.backend != "gpu")
        throw UsageError("--backend must be 'sim' or 'gpu', got '" + o.backend + "'");
    const bool gpu = o.backend == "gpu";
    if (!gpu && a.value("reps"))
        throw UsageError("--reps needs --backend gpu (the simulator's modelled cycles are the same every run "
                         "of one schedule and seed: one run per variant)");
    if (!gpu && a.value("timeout")) throw UsageError("--timeout needs --backend gpu");
    if (gpu && a.value("sm-count"))
        throw UsageError("--sm-count sets the simulator's modelled SMs: the GPU has its own");
    o.sm_count = uint32_t(a.uint_or("sm-count", 0, 1, 1024));
    if (gpu && a.value("schedule"))
        throw UsageError("--schedule is the simulator's: the GPU schedules its own warps");
    o.reps = uint32_t(a.uint_or("reps", 20, 1, 100000));
    o.seed = a.uint_or("seed", 1, 0, UINT64_MAX);
    o.gpu_timeout_s = a.double_or("timeout", 5, 0.05, 3600);
    if (const auto sched = a.value("schedule")) {
        if (!sim::parse_schedule(*sched, o.schedule) || o.schedule == sim::Schedule::Exhaustive)
            throw UsageError("--schedule must be rr, random or adversarial, got '" + *sched + "'");
    }
    // --param NAME=CHOICE: the lesson with those inputs (every variant runs on the same ones).
    scenario::ParamValues values;
    try {
        for (const std::string& text : a.values("param"))
            values.push_back(scenario::parse_param_text(text));
    } catch (const scenario::ParamError& e) {
        throw UsageError("--param: " + std::string(e.what()));
    }
    scenario::Scenario chosen;
    try {
        chosen = scenario::with_params(*s, values);
    } catch (const scenario::ParamError& e) {
        throw UsageError("--param: " + std::string(e.what()));
    }

    runner::Ladder ladder;
    try {
        ladder = runner::run_ladder(chosen, o);
    } catch (const runner::RequestError& e) {
        throw UsageError(e.what());
    } catch (const gpu::Unavailable& e) {
        throw InputError(std::string(e.what()) + ": use --backend sim (the simulator)");
    }
    if (a.flag("json"))
        std::cout << ladder_json(ladder).dump(2) << "\n";
    else
        print_ladder_text(std::cout, ladder);
    return kExitOk;
}

} // namespace synclab::cli
