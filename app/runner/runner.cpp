#include "runner/runner.h"

#include "gpu/gpu_run.h"
#include "ptx/instrument.h"
#include "ptx/parser.h"
#include "runner/kernel_notes.h"

#include <algorithm>
#include <chrono>
#include <mutex>
#include <stdexcept>

namespace synclab::runner {

namespace {

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

void copy_job_meta(trace::RunMeta& meta, const KernelJob& job, uint64_t seed) {
    meta.scenario = job.scenario_id;
    meta.variant = job.variant_id;
    meta.source_name = job.source_name;
    meta.source_text = job.source_text;
    meta.ptx_text = job.ptx_text;
    meta.seed = seed;
}

// Backend "gpu": untraced repetitions, then one traced launch (see runner.h).
RunSummary run_job_gpu(const KernelJob& job, const RunOptions& options) {
    RunSummary summary;
    summary.traced = options.gpu.traced;
    const auto t0 = std::chrono::steady_clock::now();
    gpu::SharedWorker& shared = gpu::shared_worker(gpu::find_worker(options.gpu.worker));
    std::lock_guard lock(shared.mutex);
    gpu::Worker& worker = shared.worker;
    summary.device = worker.start().device; // throws gpu::Unavailable: no driver, no device

    const uint32_t reps = options.gpu.untraced ? std::max<uint32_t>(options.reps, 1) : 0;
    const uint32_t steps = reps + (options.gpu.traced ? 1 : 0);
    gpu::LaunchOptions base;
    base.timeout_s = options.gpu.timeout_s;
    base.grace_s = options.gpu.grace_s;

    // Untraced: the hardware's own outcome, checked against the CPU reference, rep by rep.
    GpuSide& u = summary.gpu_untraced;
    std::vector<double> times;
    trace::RunMeta untraced_meta;
    for (uint32_t r = 0; r < reps; ++r) {
        if (options.cancel && options.cancel->load()) {
            u.status = trace::RunStatus::Cancelled;
            u.message = "cancelled";
            break;
        }
        const scenario::Inputs inputs = job.make_inputs(options.seed + r);
        gpu::LaunchOutcome o = gpu::launch(worker, *job.module, job.ptx_text, job.kernel, job.launch,
                                           inputs.buffers, inputs.args, base);
        u.ran = true;
        ++u.reps;
        if (r == 0) untraced_meta = o.trace.meta;
        if (o.status != trace::RunStatus::Ok) {
            u.status = o.status;
            u.message = o.message + (o.status == trace::RunStatus::Timeout && !options.gpu.traced
                                         ? " (run it traced to see where the threads are)"
                                         : "");
            break;
        }
        for (float ms : o.kernel_ms)
            times.push_back(ms);
        scenario::CheckResult check;
        if (job.check) check = job.check(inputs, o.buffers);
        u.wrong_outputs += check.wrong;
        u.checked_outputs += check.checked;
        if (check.wrong) ++u.reps_with_wrong_outputs;
        if (r == 0 || (check.wrong && u.reps_with_wrong_outputs == 1)) u.check_summary = check.summary;
        if (options.progress) options.progress(double(r + 1) / steps);
    }
    if (!times.empty()) {
        u.kernel_ms = median(times);
        u.kernel_ms_min = *std::min_element(times.begin(), times.end());
        u.kernel_ms_max = *std::max_element(times.begin(), times.end());
    }

    // Traced: the instrumented kernel, launched so that its trace holds whole blocks (a second
    // launch where the first overflowed: gpu::launch_traced); its trace gives the findings.
    GpuSide& t = summary.gpu_traced;
    bool coverage_note = false; // the traced run left blocks out: the headline says which
    if (options.gpu.traced && !(options.cancel && options.cancel->load())) {
        gpu::LaunchOptions traced = base;
        traced.traced = true;
        traced.buffer = options.gpu.live ? gpu::TraceBuffer::Mapped : gpu::TraceBuffer::Device;
        traced.live = options.gpu.live;
        if (options.gpu.live && options.gpu.on_events)
            traced.on_progress = [&](const gpu::Progress& p) {
                options.gpu.on_events(p.events, p.events_seen, p.elapsed_ms);
            };
        const scenario::Inputs inputs = job.make_inputs(options.seed);
        gpu::LaunchOutcome o;
        try {
            o = gpu::launch_traced(worker, *job.module, job.ptx_text, job.kernel, job.launch, inputs.buffers,
                                   inputs.args, traced, options.gpu.trace);
        } catch (const ptx::InstrumentError& e) {
            o.status = trace::RunStatus::Error;
            o.message = e.what();
            o.trace.meta.status = o.status;
            o.trace.meta.status_message = o.message;
        }
        if (o.status == trace::RunStatus::Timeout && !o.trace.events.empty()) {
            if (const std::string diagnosis = diagnose_hang(o.trace); !diagnosis.empty()) {
                o.message += "; " + diagnosis;
                o.trace.meta.status_message = o.message;
            }
        }
        t.ran = true;
        t.reps = 1;
        t.status = o.status;
        // What the buffer was and which blocks it holds whole, beside whatever went wrong.
        const bool left_out = !o.plan.recorded.empty() || !o.plan.partial.empty();
        if (o.status == trace::RunStatus::Ok)
            t.message = o.plan.summary;
        else
            t.message = o.message + (left_out ? "; " + o.plan.summary : "");
        coverage_note = o.status == trace::RunStatus::Ok && left_out;
        t.trace_buffer = gpu::to_string(traced.buffer);
        t.events = o.trace.events.size();
        t.dropped_events = o.dropped_events;
        t.partial_trace = o.partial_trace;
        if (!o.kernel_ms.empty()) t.kernel_ms = t.kernel_ms_min = t.kernel_ms_max = o.kernel_ms.back();
        if (o.status == trace::RunStatus::Ok && job.check) {
            const scenario::CheckResult check = job.check(inputs, o.buffers);
            t.wrong_outputs = check.wrong;
            t.checked_outputs = check.checked;
            t.reps_with_wrong_outputs = check.wrong ? 1 : 0;
            t.check_summary = check.summary;
            summary.expected_outputs = check.expected;
        }
        o.trace.meta.wrong_outputs = t.wrong_outputs;
        o.trace.meta.checked_outputs = t.checked_outputs;
        copy_job_meta(o.trace.meta, job, options.seed);
        // Nothing recorded (e.g. the worker was killed): no trace to analyse, so no findings.
        if (!o.trace.events.empty()) summary.findings = analysis::analyze(o.trace);
        summary.events = o.trace.events.size();
        summary.dropped_events = o.dropped_events;
        summary.trace = std::move(o.trace);
        summary.final_buffers = std::move(o.buffers);
        if (options.progress) options.progress(1.0);
    } else {
        summary.trace.meta = untraced_meta;
        summary.trace.meta.status = u.status;
        summary.trace.meta.status_message = u.message;
        summary.trace.meta.wrong_outputs = u.wrong_outputs;
        summary.trace.meta.checked_outputs = u.checked_outputs;
        copy_job_meta(summary.trace.meta, job, options.seed);
    }

    // The headline: the untraced side's outcome where it ran; a failure of either side wins.
    const GpuSide& head = u.ran ? u : t;
    summary.status = head.status;
    // (an ok traced side's message is its plan sentence, which the headline carries only where
    // blocks were left out: coverage_note below)
    summary.message = &head == &t && t.status == trace::RunStatus::Ok ? "" : head.message;
    if (t.ran && t.status != trace::RunStatus::Ok && u.ran) {
        // The traced run's message carries the diagnosis (where the threads wait): show it too.
        if (summary.status == trace::RunStatus::Ok) {
            summary.status = t.status;
            summary.message = "traced run: " + t.message;
        } else if (t.message != u.message) {
            summary.message += "; traced run: " + t.message;
        }
    }
    if (coverage_note)
        summary.message += (summary.message.empty() ? "" : "; ") + ("traced run: " + t.message);
    summary.reps_run = head.reps;
    summary.wrong_outputs = head.wrong_outputs;
    summary.checked_outputs = head.checked_outputs;
    summary.reps_with_wrong_outputs = head.reps_with_wrong_outputs;
    summary.check_summary = head.check_summary;
    summary.kernel_ms = head.kernel_ms;
    summary.elapsed_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return summary;
}

RunSummary run_job_sim(const KernelJob& job, const RunOptions& options);

} // namespace

std::string diagnose_hang(const trace::Trace& trace) {
    for (const analysis::Finding& f : analysis::find_deadlock(trace))
        if (f.kind == analysis::FindingKind::Deadlock) return f.message;
    return "";
}

RunSummary run_job(const KernelJob& job, const RunOptions& options) {
    RunSummary summary = options.backend == "gpu" ? run_job_gpu(job, options) : run_job_sim(job, options);
    const ptx::Function* kernel = job.module ? job.module->find_entry(job.kernel) : nullptr;
    if (summary.findings.empty() && kernel) summary.notes = compiled_kernel_notes(*kernel, job.source_text);
    return summary;
}

namespace {

uint64_t bytes_of(const std::vector<launch::Buffer>& buffers) {
    uint64_t n = 0;
    for (const launch::Buffer& b : buffers)
        n += b.bytes.size();
    return n;
}

RunSummary run_job_sim(const KernelJob& job, const RunOptions& options) {
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
        std::vector<launch::Buffer> buffers = inputs.buffers;
        sim::Options sim_options = options.limits;
        // The memory budget covers what the whole run holds: besides the simulator's state, its
        // trace and the buffers it writes, the inputs kept for the check and the repetition kept
        // so far.
        uint64_t expected_bytes = 0;
        for (const scenario::ExpectedOutput& e : summary.expected_outputs)
            expected_bytes += e.bytes.size();
        sim_options.held_by_caller_bytes = bytes_of(inputs.buffers) + bytes_of(summary.final_buffers) +
                                           expected_bytes +
                                           summary.trace.events.size() * sizeof(trace::Event) +
                                           summary.trace.threads.size() * sizeof(trace::ThreadInfo);
        sim_options.schedule = options.schedule;
        sim_options.seed = options.seed + r;
        sim_options.cancel = options.cancel;
        if (options.progress) sim_options.progress = [&, r](double f) { options.progress((r + f) / reps); };

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
        analysis::merge_findings(summary.findings, findings);
        ++summary.reps_run;
        summary.wrong_outputs += check.wrong;
        summary.checked_outputs += check.checked;
        if (check.wrong) ++summary.reps_with_wrong_outputs;
        summary.events += trace.events.size();
        summary.thread_instructions += result.thread_instructions;
        summary.warp_instructions += result.warp_instructions;
        summary.elapsed_ms += trace.meta.elapsed_ms;
        summary.dropped_events += trace.meta.dropped_events;
        summary.device = trace.meta.device;

        const bool interesting =
            check.wrong > 0 || !findings.empty() || result.status != trace::RunStatus::Ok;
        if (r == 0 || (interesting && !kept_interesting)) {
            summary.trace = std::move(trace);
            summary.check_summary = check.summary;
            summary.final_buffers = std::move(buffers);
            summary.expected_outputs = std::move(check.expected);
            summary.buffer_addresses = result.buffer_addresses;
            kept_interesting = interesting;
        }
        if (result.status != trace::RunStatus::Ok) {
            summary.status = result.status;
            summary.budget = result.budget;
            summary.message = result.message;
            break;
        }
    }
    // Merged over the repetitions: the most harmful first again.
    analysis::order_findings(summary.findings);
    return summary;
}

} // namespace

const ptx::Module& scenario_module(const scenario::Scenario& scenario) {
    return scenario.ptx_module();
}

namespace {

// `reference = "rr:VARIANT"`: the right outputs are what that variant leaves under the rr schedule
// with the same inputs, so each check runs it once on a copy of the inputs (untraced).
std::function<scenario::CheckResult(const scenario::Inputs&, const std::vector<launch::Buffer>&)>
round_robin_check(const scenario::Scenario& scenario, const sim::Options& limits) {
    const scenario::Variant* reference = scenario.find_variant(scenario.reference_variant);
    if (reference == nullptr)
        throw std::logic_error("scenario " + scenario.id + ": no reference variant " +
                               scenario.reference_variant);
    sim::Options o = limits;
    o.schedule = sim::Schedule::RoundRobin;
    o.seed = 1;
    o.record_trace = false;
    o.cancel = nullptr;
    o.progress = nullptr;
    const std::string what = "the rr run of variant '" + reference->id + "'";
    return [&scenario, reference, o, what](const scenario::Inputs& before,
                                           const std::vector<launch::Buffer>& after) {
        std::vector<launch::Buffer> expected = before.buffers;
        const sim::Result r = sim::simulate(scenario.ptx_module(), reference->kernel, scenario.launch,
                                            expected, before.args, o, nullptr);
        if (r.status != trace::RunStatus::Ok) {
            scenario::CheckResult none;
            none.summary = "outputs not checked: " + what + " ended with status " +
                           trace::to_string(r.status) + (r.message.empty() ? "" : " (" + r.message + ")");
            return none;
        }
        return scenario::compare_outputs(scenario, expected, after, what);
    };
}

} // namespace

RunSummary run_scenario(const scenario::Scenario& scenario, const scenario::Variant& variant,
                        const RunOptions& options) {
    KernelJob job;
    job.module = &scenario_module(scenario);
    job.kernel = variant.kernel;
    job.launch = scenario.launch;
    job.make_inputs = scenario.make_inputs;
    job.check =
        scenario.reference_variant.empty() ? scenario.check : round_robin_check(scenario, options.limits);
    job.scenario_id = scenario.id;
    job.variant_id = variant.id;
    job.source_name = scenario.source_file;
    job.source_text = std::string(scenario.cuda_source());
    job.ptx_text = std::string(scenario.ptx_source());
    return run_job(job, options);
}

} // namespace synclab::runner

namespace synclab::runner {

std::vector<analysis::FindingKind> finding_kinds(const RunSummary& summary) {
    std::vector<analysis::FindingKind> kinds;
    for (const analysis::Finding& f : summary.findings)
        if (std::find(kinds.begin(), kinds.end(), f.kind) == kinds.end()) kinds.push_back(f.kind);
    return kinds;
}

std::string finding_kind_list(const RunSummary& summary) {
    std::string out;
    for (analysis::FindingKind k : finding_kinds(summary))
        out += (out.empty() ? "" : ",") + std::string(analysis::to_string(k));
    return out;
}

VerdictCheck check_expectation(const scenario::Expectation& expect, const RunSummary& summary,
                               bool schedule_can_expose_wrong_outputs) {
    VerdictCheck v;
    auto fail = [&](std::string why) {
        v.pass = false;
        v.problems.push_back(std::move(why));
    };
    const std::vector<analysis::FindingKind> kinds = finding_kinds(summary);
    auto has = [&](analysis::FindingKind k) {
        return std::find(kinds.begin(), kinds.end(), k) != kinds.end();
    };
    if (expect.status != summary.status)
        fail("status " + std::string(trace::to_string(summary.status)) + ", expected " +
             trace::to_string(expect.status) + (summary.message.empty() ? "" : " (" + summary.message + ")"));
    for (analysis::FindingKind k : expect.must_find)
        if (!has(k)) fail("no '" + std::string(analysis::to_string(k)) + "' finding");
    for (analysis::FindingKind k : expect.must_not_find)
        if (has(k)) fail("unexpected '" + std::string(analysis::to_string(k)) + "' finding");
    // A claim about outputs needs outputs that were checked (a run that ended early checks none).
    if (expect.wrong_outputs != scenario::WrongOutputs::Unchecked && summary.status == trace::RunStatus::Ok &&
        summary.reps_run > 0 && summary.checked_outputs == 0)
        fail("no outputs were checked" + (summary.check_summary.empty() ? "" : ": " + summary.check_summary));
    if (expect.always_correct() && summary.wrong_outputs > 0)
        fail(std::to_string(summary.wrong_outputs) + " wrong outputs, expected none");
    if (expect.wrong_outputs_possible() && schedule_can_expose_wrong_outputs &&
        summary.reps_with_wrong_outputs == 0)
        fail("no wrong outputs in " + std::to_string(summary.reps_run) + " repetitions, expected some");
    return v;
}

} // namespace synclab::runner
