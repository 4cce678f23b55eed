// Runs kernels off the UI thread. The UI thread hands over a batch of jobs (one run, or the two runs
// of compare mode), polls each frame for finished records and reads progress from atomics; the
// worker thread never touches AppState or ImGui. Whatever a kernel does (deadlock, fault, a spin loop
// that eats the step budget) comes back as a record with that status and the trace so far.
//
// Threading contract:
//   - start/cancel/poll/busy/progress/what and the destructor are called from the UI thread only.
//   - Finished results go through a mutex-protected mailbox; progress and cancel are atomics.
//   - Starting a batch while one runs cancels the running one and queues the new one, which starts
//     on a later poll() once the worker has stopped: the UI thread never waits for a kernel.
//   - Live jobs (RunJob::live_work) may publish provisional records from the worker thread; poll()
//     hands out the newest one at most every kProvisionalInterval (older ones are dropped), so the
//     UI rebuilds a timeline index a few times per second at most, and never after the final one.
//   - Destruction cancels and joins (a cancelled simulation stops within a few thousand
//     instructions).
#pragma once

#include "ui/core/app_state.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace synclab::ui {

// Where a finished record goes.
enum class RunSlot : uint8_t {
    Current,      // a run of the selected variant
    CompareLeft,  // compare mode: the correct variant
    CompareRight, // compare mode: the selected one
    Loaded,       // a trace opened from a file
    OutcomesSim,  // the outcomes view: the simulator's histogram runs
    OutcomesGpu,  // the outcomes view: the GPU's untraced launches
    Ladder,       // the ladder view: every variant timed (RunRecord::ladder)
};

struct RunJob {
    RunSlot slot = RunSlot::Current;
    std::string what;         // shown beside the progress bar, e.g. "stencil / missing_barrier"
    std::string error_prefix; // starts RunDone::error ("" = `what`)
    // Runs on the worker thread. Exceptions become RunDone::error.
    std::function<std::shared_ptr<const RunRecord>(const std::atomic<bool>& cancel,
                                                   const std::function<void(double)>& progress)>
        work;
    // Instead of `work` when set (live GPU runs): may also call `provisional` with the partial record
    // of a kernel still running (RunRecord::provisional), from the worker thread, as often as it likes.
    using Publish = std::function<void(std::shared_ptr<const RunRecord>)>;
    std::function<std::shared_ptr<const RunRecord>(const std::atomic<bool>& cancel,
                                                   const std::function<void(double)>& progress,
                                                   const Publish& provisional)>
        live_work;
};

struct RunDone {
    RunSlot slot = RunSlot::Current;
    std::shared_ptr<const RunRecord> record; // null when the job threw
    std::string error;                       // the exception's message, after the job's error_prefix
    bool provisional = false;                // a live run's partial record; its final RunDone follows
};

class RunController {
  public:
    RunController() = default;
    ~RunController();
    RunController(const RunController&) = delete;
    RunController& operator=(const RunController&) = delete;

    void start(std::vector<RunJob> jobs);
    void cancel(); // the batch in flight ends with status "cancelled"; a queued batch is dropped
    std::vector<RunDone> poll();

    bool busy() const { return running_ || !waiting_.empty(); }
    double progress() const { return progress_.load(); } // 0..1 over the batch in flight
    std::string what() const;

    // poll() hands out a provisional record at most this often.
    static constexpr std::chrono::milliseconds kProvisionalInterval{250};

  private:
    void launch(std::vector<RunJob> jobs, uint64_t batch);

    std::thread worker_;
    bool running_ = false; // UI thread's view: a worker was launched and not joined
    std::atomic<bool> worker_finished_{false};
    std::atomic<bool> cancel_{false};
    std::atomic<double> progress_{0.0};
    uint64_t requested_batch_ = 0; // results of older batches are dropped
    std::vector<RunJob> waiting_;  // the batch to start once the worker has stopped

    mutable std::mutex mutex_; // guards what follows
    std::vector<std::pair<uint64_t, RunDone>> mailbox_;
    std::optional<std::pair<uint64_t, RunDone>> provisional_; // the newest one not handed out yet
    std::string what_;
    // UI thread only.
    std::chrono::steady_clock::time_point last_provisional_{};
};

// A new serial for a record (views cache per serial). Thread-safe.
uint64_t next_record_serial();

// "stencil / missing_barrier (random, seed 3)"; several repetitions say "seeds 3-7".
std::string run_label(const scenario::Scenario& scenario, const scenario::Variant& variant,
                      const Controls& controls);

// A job that runs one scenario variant with `controls` through runner::run_scenario. Backend "gpu"
// passes the GPU controls (traced or untraced only, live, timeout); where the GPU cannot be used the
// record says why (RunRecord::gpu_unavailable, status error) instead of throwing. With live on it is
// a live_work job whose provisional records come from a LiveTrace fed by GpuOptions::on_events.
RunJob make_scenario_job(const scenario::Scenario& scenario, const scenario::Variant& variant,
                         const Controls& controls, RunSlot slot);

// A job for the outcomes view: `options` (outcome_run_options: N runs with the histogram) through
// runner::run_scenario, into slot OutcomesSim or OutcomesGpu. A GPU that cannot be used ends as a
// record that says so (as make_scenario_job's).
RunJob make_outcomes_job(const scenario::Scenario& scenario, const scenario::Variant& variant,
                         const runner::RunOptions& options, RunSlot slot);

// A job for the ladder view: runner::run_ladder over every variant of `scenario` on the controls'
// backend (GPU: `reps` untraced launches each, at least 5), into slot Ladder (RunRecord::ladder).
// Throws (RunDone::error) where the GPU cannot be used.
RunJob make_ladder_job(const scenario::Scenario& scenario, const Controls& controls);

// A job that loads a .slt file and analyses it (a loaded trace shows like a run). A damaged file
// ends as RunDone::error with TraceFileError's message.
RunJob make_load_job(const std::string& path);

// The runner options for `controls` (backend, schedule, seed, reps, the simulator's memory model,
// the exhaustive bound or replay, and the GPU settings).
runner::RunOptions run_options(const Controls& controls);

} // namespace synclab::ui
