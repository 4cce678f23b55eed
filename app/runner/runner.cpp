#include "runner/runner.h"

#include "ptx/parser.h"

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>

namespace synclab::runner {

void merge_findings(std::vector<analysis::Finding>& into, const std::vector<analysis::Finding>& more) {
    for (const analysis::Finding& f : more) {
        bool merged = false;
        for (analysis::Finding& g : into)
            if (g.kind == f.kind && g.hazard == f.hazard && g.space == f.space && g.lines == f.lines) {
                g.count += f.count;
                merged = true;
                break;
            }
        if (!merged) into.push_back(f);
    }
}

RunSummary run_job(const KernelJob& job, const RunOptions& options) {
    RunSummary summary;
    const uint32_t reps = std::max<uint32_t>(options.reps, 1);
    bool kept_interesting = false;
    for (uint32_t r = 0; r < reps; ++r) {
        if (options.cancel && options.cancel->load()) {
            summary.status = trace::RunStatus::Cancelled;
            summary.message = "cancelled";
            break;
        }
        scenario::Inputs inputs = job.make_inputs(options.seed + r);
        std::vector<sim::Buffer> buffers = inputs.buffers;
        sim::Options sim_options = options.limits;
        sim_options.schedule = options.schedule;
        sim_options.seed = options.seed + r;
        sim_options.cancel = options.cancel;
        if (options.progress)
            sim_options.progress = [&, r](double f) { options.progress((r + f) / reps); };

        trace::Trace trace;
        const sim::Result result =
            sim::simulate(*job.module, job.kernel, job.launch, buffers, inputs.args, sim_options, &trace);
        trace.meta.scenario = job.scenario_id;
        trace.meta.variant = job.variant_id;
        trace.meta.source_name = job.source_name;
        trace.meta.source_text = job.source_text;
        trace.meta.ptx_text = job.ptx_text;

        scenario::CheckResult check;
        if (job.check && result.status == trace::RunStatus::Ok) check = job.check(inputs, buffers);
        trace.meta.wrong_outputs = check.wrong;
        trace.meta.checked_outputs = check.checked;

        const std::vector<analysis::Finding> findings = analysis::analyze(trace);
        merge_findings(summary.findings, findings);
        ++summary.reps_run;
        summary.wrong_outputs += check.wrong;
        summary.checked_outputs += check.checked;
        if (check.wrong) ++summary.reps_with_wrong_outputs;
        summary.events += trace.events.size();
        summary.thread_instructions += result.thread_instructions;
        summary.warp_instructions += result.warp_instructions;
        summary.elapsed_ms += trace.meta.elapsed_ms;

        const bool interesting = check.wrong > 0 || !findings.empty() || result.status != trace::RunStatus::Ok;
        if (r == 0 || (interesting && !kept_interesting)) {
            summary.trace = std::move(trace);
            summary.check_summary = check.summary;
            summary.final_buffers = std::move(buffers);
            kept_interesting = interesting;
        }
        if (result.status != trace::RunStatus::Ok) {
            summary.status = result.status;
            summary.message = result.message;
            break;
        }
    }
    return summary;
}

const ptx::Module& scenario_module(const scenario::Scenario& scenario) {
    static std::mutex mutex;
    static std::map<std::string, std::unique_ptr<ptx::Module>> cache;
    std::lock_guard lock(mutex);
    auto& slot = cache[scenario.source_file];
    if (!slot) {
        std::string name = scenario.source_file;
        if (name.size() > 3 && name.ends_with(".cu")) name = name.substr(0, name.size() - 3) + ".ptx";
        slot = std::make_unique<ptx::Module>(ptx::parse_module(scenario.ptx_source(), name));
    }
    return *slot;
}

RunSummary run_scenario(const scenario::Scenario& scenario, const scenario::Variant& variant,
                        const RunOptions& options) {
    KernelJob job;
    job.module = &scenario_module(scenario);
    job.kernel = variant.kernel;
    job.launch = scenario.launch;
    job.make_inputs = scenario.make_inputs;
    job.check = scenario.check;
    job.scenario_id = scenario.id;
    job.variant_id = variant.id;
    job.source_name = scenario.source_file;
    job.source_text = std::string(scenario.cuda_source());
    job.ptx_text = std::string(scenario.ptx_source());
    return run_job(job, options);
}

} // namespace synclab::runner

namespace synclab::runner {

std::vector<std::string> finding_kinds(const RunSummary& summary) {
    std::vector<std::string> kinds;
    for (const analysis::Finding& f : summary.findings) {
        const std::string k = analysis::to_string(f.kind);
        if (std::find(kinds.begin(), kinds.end(), k) == kinds.end()) kinds.push_back(k);
    }
    return kinds;
}

VerdictCheck check_expectation(const scenario::Expectation& expect, const RunSummary& summary,
                               bool schedule_can_expose_wrong_outputs) {
    VerdictCheck v;
    auto fail = [&](std::string why) {
        v.pass = false;
        v.problems.push_back(std::move(why));
    };
    const std::vector<std::string> kinds = finding_kinds(summary);
    auto has = [&](const std::string& k) { return std::find(kinds.begin(), kinds.end(), k) != kinds.end(); };
    if (expect.status != trace::to_string(summary.status))
        fail("status " + std::string(trace::to_string(summary.status)) + ", expected " + expect.status +
             (summary.message.empty() ? "" : " (" + summary.message + ")"));
    for (const std::string& k : expect.must_find)
        if (!has(k)) fail("no '" + k + "' finding");
    for (const std::string& k : expect.must_not_find)
        if (has(k)) fail("unexpected '" + k + "' finding");
    if (expect.always_correct && summary.wrong_outputs > 0)
        fail(std::to_string(summary.wrong_outputs) + " wrong outputs, expected none");
    if (expect.wrong_outputs_possible && schedule_can_expose_wrong_outputs && summary.reps_with_wrong_outputs == 0)
        fail("no wrong outputs in " + std::to_string(summary.reps_run) + " repetitions, expected some");
    return v;
}

} // namespace synclab::runner
