#include "runner/runner.h"

#include "analysis/streamed.h"
#include "gpu/gpu_run.h"
#include "ptx/instrument.h"
#include "ptx/parser.h"
#include "runner/kernel_notes.h"

#include <algorithm>
#include <chrono>
#include <mutex>
#include <optional>
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
    summary.memory = launch::MemoryModel::Relaxed; // the hardware's own: PTX's relaxed model
    if (options.histogram.wanted()) {
        summary.histogram.emplace();
        summary.histogram->request = options.histogram;
    }
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
    // (the traced launch too: the instrumented kernel writes the same host-mapped memory, though
    // only the untraced launches' CPU observations are counted)
    base.host_reader = job.host_reader.request();
    if (job.host_reader.enabled) summary.host_reader.emplace();

    // Untraced: the hardware's own outcome, checked against the CPU reference, rep by rep.
    GpuSide& u = summary.gpu_untraced;
    std::vector<double> times;
    trace::RunMeta untraced_meta;
    std::vector<launch::Buffer> untraced_buffers;
    std::vector<scenario::ExpectedOutput> untraced_expected;
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
        for (const gpu::HostReaderLaunch& l : o.host_reader)
            add_launch(*summary.host_reader, job.host_reader, l);
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
        const bool keep = r == 0 || (check.wrong && u.reps_with_wrong_outputs == 1);
        if (keep) u.check_summary = check.summary;
        // The untraced launch's outputs are the hardware's own outcome (the traced one's timing is
        // perturbed), so only these are counted.
        if (summary.histogram) count_outcomes(*summary.histogram, o.buffers, options.seed + r, {}, check.expected);
        // The kept launch's buffers (the first with wrong outputs, else the first): what an untraced
        // run's outputs were, e.g. the value a lost-update counter ended at (lessons' claims).
        if (keep) {
            untraced_buffers = std::move(o.buffers);
            untraced_expected = std::move(check.expected);
        }
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
        // Analysed as the events arrive (not live: the app's live view wants every event).
        std::optional<analysis::StreamedAnalysis> streamed;
        if (options.analyse_as_it_runs && !options.gpu.live)
            traced.block_sink = &streamed.emplace(analysis::StreamedAnalysis::spare_cores(),
                                                  analysis::StreamedAnalysis::spare_cores());
        const scenario::Inputs inputs = job.make_inputs(options.seed);
        const auto traced_t0 = std::chrono::steady_clock::now();
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
        // The CPU reader's observations of the traced launch count only where no untraced one ran.
        if (summary.host_reader && summary.host_reader->launches == 0)
            for (const gpu::HostReaderLaunch& l : o.host_reader)
                add_launch(*summary.host_reader, job.host_reader, l);
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
        // (the kept trace's: a launch that faulted into device memory was traced again into mapped)
        t.trace_buffer =
            gpu::to_string(o.plan.first_fault.empty() ? traced.buffer : gpu::TraceBuffer::Mapped);
        t.events = o.trace.events.size() + o.analysed_and_dropped;
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
        const auto analysis_t0 = std::chrono::steady_clock::now();
        t.launch_and_transfer_ms = std::chrono::duration<double, std::milli>(analysis_t0 - traced_t0).count();
        t.streamed_events = o.streamed_events;
        t.worker_ms = o.worker_ms;
        t.take_ms = o.take_ms;
        t.worker_phases = o.worker_phases;
        if (streamed) streamed->finish();
        if (!o.trace.events.empty() || o.streamed_events) {
            analysis::Options analysis_options;
            analysis_options.streamed = streamed ? &*streamed : nullptr;
            summary.findings = analysis::analyze(o.trace, analysis_options);
        }
        t.analysis_ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - analysis_t0).count();
        summary.events = o.trace.events.size() + o.analysed_and_dropped;
        summary.analysed_and_dropped = o.analysed_and_dropped;
        summary.dropped_events = o.dropped_events;
        summary.trace = std::move(o.trace);
        summary.final_buffers = std::move(o.buffers);
        if (options.progress) options.progress(1.0);
    } else {
        summary.trace.meta = untraced_meta;
        summary.final_buffers = std::move(untraced_buffers);
        summary.expected_outputs = std::move(untraced_expected);
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

void count_outcomes(Histogram& h, const std::vector<launch::Buffer>& buffers, uint64_t seed,
                    const std::vector<uint32_t>& choices, const std::vector<scenario::ExpectedOutput>& expected) {
    const HistogramRequest& q = h.request;
    const launch::Buffer* buffer = nullptr;
    std::string names;
    for (const launch::Buffer& b : buffers) {
        if (b.name == q.buffer) buffer = &b;
        names += (names.empty() ? "" : ", ") + b.name;
    }
    if (buffer == nullptr)
        throw RequestError("histogram: no buffer '" + q.buffer + "' (buffers: " +
                           (names.empty() ? "none" : names) + ")");
    const size_t size = launch::elem_size(q.type);
    if (buffer->bytes.size() % size != 0)
        throw RequestError("histogram: buffer '" + q.buffer + "' holds " + std::to_string(buffer->bytes.size()) +
                           " bytes, not a whole number of " + launch::to_string(q.type) + " elements");
    const size_t elements = buffer->bytes.size() / size;
    if (elements == 0) throw RequestError("histogram: buffer '" + q.buffer + "' is empty");
    if (q.per > 0 && elements % q.per != 0)
        throw RequestError("histogram: records of " + std::to_string(q.per) + " elements do not divide buffer '" +
                           q.buffer + "' (" + std::to_string(elements) + " elements)");
    const size_t per = q.per > 0 ? q.per : elements;
    size_t records = elements / per;
    if (q.limit > 0) records = std::min<size_t>(records, q.limit);
    // The right values of the whole buffer, where the check computed them (a check of part of it
    // cannot say which record is which).
    const std::vector<uint8_t>* right = nullptr;
    for (const scenario::ExpectedOutput& e : expected)
        if (e.name == q.buffer && e.bytes.size() == buffer->bytes.size()) right = &e.bytes;
    size_t last = SIZE_MAX; // the previous record's outcome: runs of equal records are common
    for (size_t r = 0; r < records; ++r) {
        std::string text = launch::format_values(buffer->bytes, q.type, r * per, per);
        size_t i = last != SIZE_MAX && h.outcomes[last].outcome == text ? last : SIZE_MAX;
        for (size_t k = 0; i == SIZE_MAX && k < h.outcomes.size(); ++k)
            if (h.outcomes[k].outcome == text) i = k;
        if (i == SIZE_MAX) {
            OutcomeCount c;
            c.outcome = std::move(text);
            c.seed = seed;
            c.choices = choices;
            h.outcomes.push_back(std::move(c));
            i = h.outcomes.size() - 1;
        }
        ++h.outcomes[i].count;
        if (right != nullptr &&
            !std::equal(buffer->bytes.begin() + std::ptrdiff_t(r * per * size),
                        buffer->bytes.begin() + std::ptrdiff_t((r + 1) * per * size),
                        right->begin() + std::ptrdiff_t(r * per * size)))
            ++h.outcomes[i].wrong;
        last = i;
    }
    h.records += records;
    ++h.runs;
}

void order_outcomes(Histogram& h) {
    std::stable_sort(h.outcomes.begin(), h.outcomes.end(), [](const OutcomeCount& a, const OutcomeCount& b) {
        return a.count != b.count ? a.count > b.count : a.outcome < b.outcome;
    });
}

std::string diagnose_hang(const trace::Trace& trace) {
    for (const analysis::Finding& f : analysis::find_deadlock(trace))
        if (f.kind == analysis::FindingKind::Deadlock) return f.message;
    return "";
}

RunSummary run_job(const KernelJob& job, const RunOptions& options) {
    const bool gpu = options.backend == "gpu";
    if (gpu && options.schedule == sim::Schedule::Exhaustive)
        throw RequestError("schedule exhaustive enumerates the simulator's executions: it needs backend sim");
    if (gpu && options.memory)
        throw RequestError("the memory model is the simulator's (sc or relaxed): the GPU has its own, so it "
                           "needs backend sim");
    if (options.replay && options.schedule != sim::Schedule::Exhaustive)
        throw RequestError("a replay names an execution of schedule exhaustive: it needs that schedule");
    if (options.schedule == sim::Schedule::Exhaustive && options.max_executions == 0)
        throw RequestError("schedule exhaustive needs a bound of at least one execution (max executions)");
    if (options.histogram.wanted()) {
        // An unknown buffer or records that do not fit it: said before anything runs.
        Histogram probe;
        probe.request = options.histogram;
        count_outcomes(probe, job.make_inputs(options.seed).buffers, 0, {});
    }
    RunSummary summary = gpu ? run_job_gpu(job, options) : run_job_sim(job, options);
    if (summary.histogram) order_outcomes(*summary.histogram);
    const ptx::Function* kernel = job.module ? job.module->find_entry(job.kernel) : nullptr;
    if (summary.findings.empty() && kernel) summary.notes = compiled_kernel_notes(*kernel, job.source_text);
    if (job.host_reader.enabled) {
        if (summary.host_reader) {
            summary.notes.push_back(gpu_note(job.host_reader, *summary.host_reader));
            for (const std::string& problem : check_host_reader(job.host_reader, *summary.host_reader))
                summary.notes.push_back("CPU reader: " + problem);
        } else if (!gpu) {
            summary.notes.push_back("CPU reader: " + simulator_note(job.host_reader));
        }
    }
    return summary;
}

namespace {

uint64_t bytes_of(const std::vector<launch::Buffer>& buffers) {
    uint64_t n = 0;
    for (const launch::Buffer& b : buffers)
        n += b.bytes.size();
    return n;
}

// What a simulated run adds to the summary, the same for a repetition of the seed loop and for an
// execution of an exhaustive exploration: checked, analysed, findings merged, outcomes counted, and
// the first interesting one kept (see RunSummary::trace).
class SimRuns {
  public:
    SimRuns(const KernelJob& job, const RunOptions& options, RunSummary& summary) : job_(job), s_(summary) {
        if (options.histogram.wanted()) {
            s_.histogram.emplace();
            s_.histogram->request = options.histogram;
        }
    }

    // The memory budget covers what the whole run holds: besides the simulator's state, its trace
    // and the buffers it writes, the inputs kept for the check and the repetition kept so far.
    uint64_t held_bytes(const scenario::Inputs& inputs) const {
        uint64_t expected_bytes = 0;
        for (const scenario::ExpectedOutput& e : s_.expected_outputs)
            expected_bytes += e.bytes.size();
        return bytes_of(inputs.buffers) + bytes_of(s_.final_buffers) + expected_bytes +
               s_.trace.events.size() * sizeof(trace::Event) +
               s_.trace.threads.size() * sizeof(trace::ThreadInfo);
    }

    // One run: returns false where it ended with a non-ok status (the summary takes it; no more runs).
    bool add(const sim::Result& result, const scenario::Inputs& inputs, std::vector<launch::Buffer>& buffers,
             trace::Trace& trace, uint64_t seed, const analysis::StreamedAnalysis* streamed) {
        trace.meta.scenario = job_.scenario_id;
        trace.meta.variant = job_.variant_id;
        trace.meta.source_name = job_.source_name;
        trace.meta.source_text = job_.source_text;
        trace.meta.ptx_text = job_.ptx_text;

        scenario::CheckResult check;
        if (job_.check && result.status == trace::RunStatus::Ok) check = job_.check(inputs, buffers);
        trace.meta.wrong_outputs = check.wrong;
        trace.meta.checked_outputs = check.checked;

        analysis::Options analysis_options;
        analysis_options.streamed = streamed;
        const std::vector<analysis::Finding> findings = analysis::analyze(trace, analysis_options);
        analysis::merge_findings(s_.findings, findings);
        ++s_.reps_run;
        s_.wrong_outputs += check.wrong;
        s_.checked_outputs += check.checked;
        if (check.wrong) ++s_.reps_with_wrong_outputs;
        s_.events += trace.events.size() + result.dropped_events;
        s_.analysed_and_dropped += result.dropped_events;
        s_.thread_instructions += result.thread_instructions;
        s_.warp_instructions += result.warp_instructions;
        s_.elapsed_ms += trace.meta.elapsed_ms;
        s_.dropped_events += trace.meta.dropped_events;
        s_.device = trace.meta.device;
        // Only a finished run's buffers are an outcome (a stopped one's are half written).
        if (s_.histogram && result.status == trace::RunStatus::Ok) {
            std::vector<uint32_t> choices;
            for (const auto& [offered, taken] : result.choices)
                choices.push_back(taken);
            count_outcomes(*s_.histogram, buffers, seed, choices, check.expected);
        }

        const bool interesting = check.wrong > 0 || !findings.empty() || result.status != trace::RunStatus::Ok;
        if (s_.reps_run == 1 || (interesting && !kept_interesting_)) {
            s_.trace = std::move(trace);
            s_.modelled_cycles = result.modelled_cycles; // the kept repetition's (cost model)
            s_.check_summary = check.summary;
            s_.final_buffers = std::move(buffers);
            s_.expected_outputs = std::move(check.expected);
            s_.buffer_addresses = result.buffer_addresses;
            kept_interesting_ = interesting;
        }
        if (result.status != trace::RunStatus::Ok) {
            s_.status = result.status;
            s_.budget = result.budget;
            s_.message = result.message;
            return false;
        }
        return true;
    }

  private:
    const KernelJob& job_;
    RunSummary& s_;
    bool kept_interesting_ = false;
};

sim::Options base_sim_options(const KernelJob& job, const RunOptions& options) {
    sim::Options o = options.limits;
    o.schedule = options.schedule;
    o.memory = options.memory.value_or(job.memory);
    o.cancel = options.cancel;
    return o;
}

// Schedule exhaustive: every execution the model allows, from the inputs of options.seed, up to
// options.max_executions.
void explore_job(const KernelJob& job, const RunOptions& options, RunSummary& summary) {
    SimRuns runs(job, options, summary);
    const scenario::Inputs inputs = job.make_inputs(options.seed);
    sim::Options sim_options = base_sim_options(job, options);
    sim_options.seed = options.seed;
    sim_options.held_by_caller_bytes = bytes_of(inputs.buffers);
    sim::ExploreOptions bound;
    bound.max_executions = options.max_executions;
    bool stopped_by_run = false;
    const sim::Exploration e = sim::explore(
        *job.module, job.kernel, job.launch, inputs.buffers, inputs.args, sim_options, bound,
        [&](const sim::Result& result, const std::vector<launch::Buffer>& after, trace::Trace* trace) {
            std::vector<launch::Buffer> buffers = after;
            trace::Trace empty;
            const bool go_on = runs.add(result, inputs, buffers, trace ? *trace : empty, options.seed, nullptr);
            // The bound is not known to be reached before the end: progress is the share of it used.
            if (options.progress)
                options.progress(std::min(1.0, double(summary.reps_run) / double(options.max_executions)));
            if (!go_on) stopped_by_run = true;
            return go_on && !(options.cancel && options.cancel->load());
        });
    summary.exploration.ran = true;
    summary.exploration.complete = e.complete;
    summary.exploration.executions = e.executions;
    summary.exploration.bound = e.bound;
    if (stopped_by_run) return; // the run's own status (deadlock, error, ...) says why
    if (options.cancel && options.cancel->load() && !e.complete) {
        summary.status = trace::RunStatus::Cancelled;
        summary.message = "cancelled after " + std::to_string(e.executions) + " executions";
        return;
    }
    if (!e.complete && summary.status == trace::RunStatus::Ok) {
        summary.status = trace::RunStatus::Budget;
        summary.message = "the exhaustive exploration stopped at its bound of " + std::to_string(e.bound) +
                          " executions before it had run every execution the model allows (raise it: "
                          "--max-executions N)" +
                          (e.stopped.empty() ? "" : "; " + e.stopped);
    }
}

RunSummary run_job_sim(const KernelJob& job, const RunOptions& options) {
    RunSummary summary;
    summary.memory = options.memory.value_or(job.memory);
    if (options.schedule == sim::Schedule::Exhaustive && !options.replay) {
        explore_job(job, options, summary);
        analysis::order_findings(summary.findings);
        return summary;
    }
    SimRuns runs(job, options, summary);
    // A replayed execution is one run, whatever reps says.
    const uint32_t reps = options.replay ? 1 : std::max<uint32_t>(options.reps, 1);
    for (uint32_t r = 0; r < reps; ++r) {
        if (options.cancel && options.cancel->load()) {
            summary.status = trace::RunStatus::Cancelled;
            summary.message = "cancelled";
            break;
        }
        scenario::Inputs inputs = job.make_inputs(options.seed + r);
        std::vector<launch::Buffer> buffers = inputs.buffers;
        sim::Options sim_options = base_sim_options(job, options);
        sim_options.held_by_caller_bytes = runs.held_bytes(inputs);
        sim_options.seed = options.seed + r;
        if (options.replay) sim_options.choices = *options.replay;
        if (options.progress) sim_options.progress = [&, r](double f) { options.progress((r + f) / reps); };

        trace::Trace trace;
        std::optional<analysis::StreamedAnalysis> streamed;
        if (options.analyse_as_it_runs) sim_options.block_sink = &streamed.emplace();
        const sim::Result result =
            sim::simulate(*job.module, job.kernel, job.launch, buffers, inputs.args, sim_options, &trace);
        if (streamed) streamed->finish();
        if (!runs.add(result, inputs, buffers, trace, options.seed + r, streamed ? &*streamed : nullptr)) break;
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
        const sim::Result r = sim::simulate(scenario.ptx_module(), reference->kernel, reference->launch,
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
    job.launch = variant.launch; // the lesson's launch, with the variant's grid and cooperative flag
    job.make_inputs = scenario.make_inputs;
    job.check =
        scenario.reference_variant.empty() ? scenario.check : round_robin_check(scenario, options.limits);
    job.scenario_id = scenario.id;
    job.variant_id = variant.id;
    job.source_name = scenario.source_file;
    job.source_text = std::string(scenario.cuda_source());
    job.ptx_text = std::string(scenario.ptx_source());
    job.memory = scenario.memory;
    job.host_reader = host_reader_job(scenario, variant);
    RunOptions o = options;
    // The lesson's own step budget (`max_steps`), unless the caller moved it from the default.
    if (scenario.max_steps != 0 && o.limits.max_steps == sim::Options{}.max_steps)
        o.limits.max_steps = scenario.max_steps;
    if (o.histogram.wanted()) {
        // The lesson's buffer declaration gives the elements' type.
        for (const scenario::BufferDecl& b : scenario.buffers)
            if (b.name == o.histogram.buffer) o.histogram.type = b.spec.type;
    }
    return run_job(job, o);
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
