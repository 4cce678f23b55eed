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
//   - Destruction cancels and joins (a cancelled simulation stops within a few thousand
//     instructions).
#pragma once

#include "ui/app_state.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
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
};

struct RunJob {
    RunSlot slot = RunSlot::Current;
    std::string what;         // shown beside the progress bar, e.g. "stencil / missing_barrier"
    std::string error_prefix; // starts RunDone::error ("" = `what`)
    // Runs on the worker thread. Exceptions become RunDone::error.
    std::function<std::shared_ptr<const RunRecord>(const std::atomic<bool>& cancel,
                                                   const std::function<void(double)>& progress)>
        work;
};

struct RunDone {
    RunSlot slot = RunSlot::Current;
    std::shared_ptr<const RunRecord> record; // null when the job threw
    std::string error;                       // the exception's message, after the job's error_prefix
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
    std::string what_;
};

// A new serial for a record (views cache per serial). Thread-safe.
uint64_t next_record_serial();

// "stencil / missing_barrier (random, seed 3)"; several repetitions say "seeds 3-7".
std::string run_label(const scenario::Scenario& scenario, const scenario::Variant& variant,
                      const Controls& controls);

// A job that runs one scenario variant with `controls` through runner::run_scenario.
RunJob make_scenario_job(const scenario::Scenario& scenario, const scenario::Variant& variant,
                         const Controls& controls, RunSlot slot);

// A job that loads a .slt file and analyses it (a loaded trace shows like a run). A damaged file
// ends as RunDone::error with TraceFileError's message.
RunJob make_load_job(const std::string& path);

} // namespace synclab::ui
