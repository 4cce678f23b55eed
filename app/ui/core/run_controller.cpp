// Index:
//   [SECTION] The worker
//   [SECTION] Jobs
#include "ui/core/run_controller.h"

#include "analysis/findings.h"
#include "gpu/client.h"
#include "trace/slt_file.h"
#include "ui/core/live_trace.h"

#include <algorithm>
#include <filesystem>

namespace synclab::ui {

namespace {
std::atomic<uint64_t> g_record_serial{0};
} // namespace

uint64_t next_record_serial() {
    return ++g_record_serial;
}

// [SECTION] The worker

RunController::~RunController() {
    cancel_ = true;
    waiting_.clear();
    if (worker_.joinable()) worker_.join();
}

void RunController::start(std::vector<RunJob> jobs) {
    ++requested_batch_;
    if (running_) {
        cancel_ = true;
        waiting_ = std::move(jobs);
        return;
    }
    launch(std::move(jobs), requested_batch_);
}

void RunController::cancel() {
    waiting_.clear();
    if (running_) cancel_ = true;
}

void RunController::launch(std::vector<RunJob> jobs, uint64_t batch) {
    if (jobs.empty()) return;
    cancel_ = false;
    progress_ = 0.0;
    worker_finished_ = false;
    running_ = true;
    worker_ = std::thread([this, jobs = std::move(jobs), batch] {
        const double n = double(jobs.size());
        for (size_t i = 0; i < jobs.size(); ++i) {
            const RunJob& job = jobs[i];
            {
                std::lock_guard lock(mutex_);
                what_ = job.what;
            }
            const std::function<void(double)> progress = [this, i, n](double f) {
                progress_ = (double(i) + f) / n;
            };
            RunDone done;
            done.slot = job.slot;
            const RunJob::Publish publish = [this, batch,
                                             slot = job.slot](std::shared_ptr<const RunRecord> r) {
                if (!r) return;
                RunDone p;
                p.slot = slot;
                p.record = std::move(r);
                p.provisional = true;
                std::lock_guard lock(mutex_);
                provisional_.emplace(batch, std::move(p)); // the newest wins: older ones were never shown
            };
            try {
                done.record =
                    job.live_work ? job.live_work(cancel_, progress, publish) : job.work(cancel_, progress);
            } catch (const std::exception& e) {
                done.error = (job.error_prefix.empty() ? job.what : job.error_prefix) + ": " + e.what();
            }
            progress_ = double(i + 1) / n;
            std::lock_guard lock(mutex_);
            provisional_.reset(); // the final record replaces it: never show a partial one after it
            mailbox_.emplace_back(batch, std::move(done));
        }
        worker_finished_ = true;
    });
}

std::vector<RunDone> RunController::poll() {
    std::vector<std::pair<uint64_t, RunDone>> arrived;
    const auto now = std::chrono::steady_clock::now();
    {
        std::lock_guard lock(mutex_);
        // A provisional record before the finals that arrived with it (it is older than they are;
        // the worker drops it when its final record lands), and only every kProvisionalInterval.
        if (provisional_ && now - last_provisional_ >= kProvisionalInterval) {
            arrived.push_back(std::move(*provisional_));
            provisional_.reset();
            last_provisional_ = now;
        }
        for (auto& m : mailbox_)
            arrived.push_back(std::move(m));
        mailbox_.clear();
    }
    if (running_ && worker_finished_) {
        worker_.join(); // already past its last statement: returns at once
        running_ = false;
    }
    if (!running_ && !waiting_.empty()) {
        std::vector<RunJob> next = std::move(waiting_);
        waiting_.clear();
        launch(std::move(next), requested_batch_);
    }
    std::vector<RunDone> out;
    for (auto& [batch, done] : arrived)
        if (batch == requested_batch_) out.push_back(std::move(done));
    return out;
}

std::string RunController::what() const {
    std::lock_guard lock(mutex_);
    return what_;
}

// [SECTION] Jobs

namespace {
void gpu_unavailable_record(RunRecord& record, const std::string& reason);
} // namespace

std::string run_label(const scenario::Scenario& scenario, const scenario::Variant& variant,
                      const Controls& controls) {
    const std::string how =
        controls.backend == "gpu" ? std::string("GPU") : sim::to_string(controls.schedule);
    std::string seeds = controls.reps > 1 ? "seeds " + std::to_string(controls.seed) + "-" +
                                                std::to_string(controls.seed + controls.reps - 1)
                                          : "seed " + std::to_string(controls.seed);
    return scenario.id + " / " + variant.id + " (" + how + ", " + seeds + ")";
}

runner::RunOptions run_options(const Controls& controls) {
    runner::RunOptions options;
    options.backend = controls.backend;
    options.schedule = controls.schedule;
    options.seed = controls.seed;
    options.reps = std::max<uint32_t>(controls.reps, 1);
    options.max_executions = std::max<uint64_t>(controls.max_executions, 1);
    options.replay = controls.replay;
    // The memory model and the exhaustive schedule are the simulator's (the runner refuses them for
    // the GPU, whose scheduling and memory are its own).
    if (controls.backend != "gpu") options.memory = controls.memory;
    if (controls.backend != "gpu") options.limits.warp_model = controls.warp_model;
    if (controls.backend != "gpu" && controls.max_steps) options.limits.max_steps = *controls.max_steps;
    if (controls.backend == "gpu" && options.schedule == sim::Schedule::Exhaustive)
        options.schedule = sim::Schedule::Random;
    if (controls.backend == "gpu") {
        options.gpu.untraced = true; // the hardware's own outcome is always shown (tracing perturbs)
        options.gpu.traced = controls.gpu_traced;
        options.gpu.live = controls.gpu_traced && controls.gpu_live; // live shows the traced launch
        options.gpu.timeout_s = std::clamp(controls.gpu_timeout_s, 0.05, 3600.0);
    }
    return options;
}

RunJob make_scenario_job(const scenario::Scenario& scenario, const scenario::Variant& variant,
                         const Controls& controls, RunSlot slot) {
    RunJob job;
    job.slot = slot;
    job.what = scenario.id + " / " + variant.id + (controls.backend == "gpu" ? " on the GPU" : "");
    const scenario::Scenario* s = &scenario; // catalog entries live as long as the process
    const scenario::Variant* v = &variant;
    // The student's parameter choices: a copy of the lesson with them applied, owned by the job.
    std::shared_ptr<const scenario::Scenario> chosen;
    if (const auto it = controls.params.find(scenario.id); it != controls.params.end() && !it->second.empty()) {
        chosen = std::make_shared<const scenario::Scenario>(scenario::with_params(scenario, it->second));
        s = chosen.get();
        v = chosen->find_variant(variant.id);
    }
    job.live_work = [s, v, controls, chosen](const std::atomic<bool>& cancel,
                                     const std::function<void(double)>& progress,
                                     const RunJob::Publish& provisional) {
        runner::RunOptions options = run_options(controls);
        options.cancel = &cancel;
        options.progress = progress;
        std::unique_ptr<LiveTrace> live;
        if (options.backend == "gpu" && options.gpu.live && provisional) {
            live = std::make_unique<LiveTrace>(live_skeleton(*s, *v, controls));
            options.gpu.on_events = [&live, &provisional](const std::vector<trace::Event>& events,
                                                          uint64_t seen, double elapsed_ms) {
                if (auto record = live->add(events, seen, elapsed_ms)) provisional(std::move(record));
            };
        }
        auto record = std::make_shared<RunRecord>();
        record->scenario_id = s->id;
        record->variant_id = v->id;
        record->label = run_label(*s, *v, controls);
        try {
            record->summary = runner::run_scenario(*s, *v, options);
        } catch (const gpu::Unavailable& e) {
            // Not a failure of the kernel: the GPU cannot be used here. The record says so (the App
            // then offers the simulator) rather than raising the error dialog.
            gpu_unavailable_record(*record, e.what());
        }
        options.cancel = nullptr; // the record outlives this job's cancel flag
        options.progress = nullptr;
        options.gpu.on_events = nullptr; // refers to this frame
        record->options = options;
        record->serial = next_record_serial();
        return std::shared_ptr<const RunRecord>(std::move(record));
    };
    return job;
}

namespace {

// The record of a GPU run that could not start (no driver, no device): status error with the reason,
// so that the App offers the simulator instead of raising the error dialog.
void gpu_unavailable_record(RunRecord& record, const std::string& reason) {
    record.gpu_unavailable = reason;
    record.summary = runner::RunSummary{};
    record.summary.status = trace::RunStatus::Error;
    record.summary.message = "GPU unavailable: " + reason;
    record.summary.traced = false;
    record.summary.trace.meta.status = trace::RunStatus::Error;
    record.summary.trace.meta.status_message = record.summary.message;
    record.summary.trace.meta.backend = "gpu";
}

} // namespace

RunJob make_outcomes_job(const scenario::Scenario& scenario, const scenario::Variant& variant,
                         const runner::RunOptions& options, RunSlot slot) {
    RunJob job;
    job.slot = slot;
    const bool gpu = options.backend == "gpu";
    job.what = scenario.id + " / " + variant.id + (gpu ? " on the GPU" : "") + ": outcomes";
    const scenario::Scenario* s = &scenario; // catalog entries live as long as the process
    const scenario::Variant* v = &variant;
    job.work = [s, v, options](const std::atomic<bool>& cancel, const std::function<void(double)>& progress) {
        runner::RunOptions o = options;
        o.cancel = &cancel;
        o.progress = progress;
        auto record = std::make_shared<RunRecord>();
        record->scenario_id = s->id;
        record->variant_id = v->id;
        Controls c;
        c.backend = o.backend;
        c.schedule = o.schedule;
        c.seed = o.seed;
        c.reps = o.reps;
        record->label = run_label(*s, *v, c);
        try {
            record->summary = runner::run_scenario(*s, *v, o);
        } catch (const gpu::Unavailable& e) {
            gpu_unavailable_record(*record, e.what());
        }
        o.cancel = nullptr; // the record outlives this job's cancel flag
        o.progress = nullptr;
        record->options = o;
        record->serial = next_record_serial();
        return std::shared_ptr<const RunRecord>(std::move(record));
    };
    return job;
}

RunJob make_ladder_job(const scenario::Scenario& scenario, const Controls& controls) {
    RunJob job;
    job.slot = RunSlot::Ladder;
    const bool gpu = controls.backend == "gpu";
    job.what = scenario.id + (gpu ? " on the GPU" : "") + ": ladder";
    job.error_prefix = "the ladder";
    const scenario::Scenario* s = &scenario; // catalog entries live as long as the process
    // The student's parameter choices (the run panel's): a copy of the lesson, owned by the job.
    std::shared_ptr<const scenario::Scenario> chosen;
    if (const auto it = controls.params.find(scenario.id); it != controls.params.end() && !it->second.empty()) {
        chosen = std::make_shared<const scenario::Scenario>(scenario::with_params(scenario, it->second));
        s = chosen.get();
    }
    job.work = [s, chosen, controls, gpu](const std::atomic<bool>& cancel,
                                          const std::function<void(double)>& progress) {
        runner::LadderOptions o;
        o.backend = controls.backend;
        // A median of fewer than 5 launches is one outlier away from wrong.
        o.reps = gpu ? std::max<uint32_t>(controls.reps, 5) : 1;
        o.gpu_timeout_s = controls.gpu_timeout_s;
        o.cancel = &cancel;
        o.progress = progress;
        auto record = std::make_shared<RunRecord>();
        // Each rung's heatmap peaks, taken from its run before the ladder lets the trace go.
        o.run = [s, &record](const scenario::Variant& v, const runner::RunOptions& ro) {
            runner::RunSummary r = runner::run_scenario(*s, v, ro);
            if (!r.trace.events.empty()) {
                ContentionIndex contention;
                contention.build(r.trace);
                const ThreadLatencies lat = thread_latencies(r.trace, s, r.final_buffers);
                record->ladder_heat[v.id] =
                    heat_peaks(contention, block_thread_grid(r.trace, lat), sm_warp_grid(r.trace, lat));
            }
            return r;
        };
        record->scenario_id = s->id;
        record->label = s->id + ": ladder";
        record->ladder = std::make_shared<const runner::Ladder>(runner::run_ladder(*s, o));
        record->serial = next_record_serial();
        return std::shared_ptr<const RunRecord>(std::move(record));
    };
    return job;
}

RunJob make_load_job(const std::string& path) {
    RunJob job;
    job.slot = RunSlot::Loaded;
    job.what = "opening " + std::filesystem::path(path).filename().string();
    job.error_prefix = "could not open the trace"; // TraceFileError's message names the file
    job.work = [path](const std::atomic<bool>&, const std::function<void(double)>& progress) {
        auto record = std::make_shared<RunRecord>();
        runner::RunSummary& s = record->summary;
        s.trace = trace::load_trace(path); // throws TraceFileError with the file's name and problem
        progress(0.5);
        const trace::RunMeta& m = s.trace.meta;
        s.findings = analysis::analyze(s.trace);
        s.status = m.status;
        s.message = m.status_message;
        s.reps_run = 1;
        s.wrong_outputs = m.wrong_outputs;
        s.checked_outputs = m.checked_outputs;
        s.reps_with_wrong_outputs = m.wrong_outputs > 0 ? 1 : 0;
        s.events = s.trace.events.size();
        s.thread_instructions = m.thread_instructions;
        s.warp_instructions = m.warp_instructions;
        s.elapsed_ms = m.elapsed_ms;
        record->scenario_id = m.scenario;
        record->variant_id = m.variant;
        record->options.backend = m.backend.empty() ? "sim" : m.backend;
        sim::parse_schedule(m.schedule, record->options.schedule);
        record->options.seed = m.seed;
        record->label = std::filesystem::path(path).filename().string();
        if (!m.scenario.empty()) record->label += " (" + m.scenario + " / " + m.variant + ")";
        record->serial = next_record_serial();
        return std::shared_ptr<const RunRecord>(std::move(record));
    };
    return job;
}

} // namespace synclab::ui
