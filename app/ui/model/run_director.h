// The app's runs, without drawing: what a click, a key or a script asks for (run the selected
// variant, the compare pair, the outcome counts, the optimisation ladder; open a trace; open the run
// an outcome came from) becomes jobs for the RunController's worker thread, and what comes back
// becomes the AppState: the current run and the compare sides, the badges, the outcome counts and
// the ladder, the status line. It also owns the start-up GPU probe and what follows from its answer
// (a GPU run falls back to the simulator, and says why), and which run is current when the
// selection changes (a variant shows its last run again).
//
// App (ui/shell/app.h) calls poll() and follow_selection() once per frame and turns the state's
// requests into the calls below; the tests drive it headless (tests/ui/run_director_test.cpp).
#pragma once

#include "runner/outcome.h"
#include "ui/core/app_state.h"
#include "ui/core/gpu_probe.h"
#include "ui/core/run_controller.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>

namespace synclab::ui {

class RunDirector {
  public:
    explicit RunDirector(AppState& state) : state_(state) {}
    RunDirector(const RunDirector&) = delete;
    RunDirector& operator=(const RunDirector&) = delete;

    // Starts the GPU probe (worker_path "": the synclab-gpu beside this executable) and takes the
    // current selection as seen.
    void start(const std::string& gpu_worker_path = "");

    // Once per frame: the probe's answer, then the runs that finished (or grew, live) since the last
    // call. Returns true when the GPU's availability became known or changed (the run panel shows it).
    bool poll();
    // Once per frame, after the views ran: a new selection shows its variant's last run (or none).
    void follow_selection();

    void start_run(bool both); // the selected variant; both: the compare pair
    void start_outcomes();     // the outcomes view's N runs: simulator, and GPU where there is one
    void start_ladder();       // the ladder view: every variant of the selected lesson, timed
    void open_outcome(const runner::OutcomeCount& outcome); // one run that produced it, traced
    void open_trace(const std::string& path);
    void save_trace(const std::string& path);
    void export_chrome(const std::string& path);
    void cancel();

    // The GPU run path gave up (a probe or a run said why): later GPU runs go to the simulator.
    void mark_gpu_unavailable(const std::string& reason);

    bool busy() const { return runs_.busy(); }
    // Finished jobs (runs, loaded files) so far, errors included: the scripted mode waits on it.
    uint64_t jobs_finished() const { return jobs_finished_; }
    // The last error from a job (e.g. a damaged .slt), "" when the last job succeeded.
    const std::string& last_job_error() const { return last_job_error_; }

  private:
    bool poll_gpu_probe();
    bool poll_runs();
    void fall_back_to_simulator();
    void accept_record(RunSlot slot, std::shared_ptr<const RunRecord> record);
    void accept_provisional(RunSlot slot, std::shared_ptr<const RunRecord> record);
    void focus_first_finding();

    AppState& state_;
    RunController runs_;
    GpuProbe gpu_probe_; // after runs_: destroyed first (joins the probe; the runs' worker after it)
    // Selection seen last frame (views change it directly).
    const scenario::Scenario* seen_scenario_ = nullptr;
    const scenario::Variant* seen_variant_ = nullptr;
    // The last record of every variant run this session ("scenario/variant"): going back to a
    // variant shows its last run again.
    std::map<std::string, std::shared_ptr<const RunRecord>> last_runs_;
    // "GPU unavailable (...): ran on the simulator": said before the next run's result, because the
    // result replaces the status line and the reason must not vanish with it.
    std::string fallback_note_;
    uint64_t jobs_finished_ = 0;
    bool outcomes_in_flight_ = false; // the batch runs_ holds is the outcomes view's
    bool ladder_in_flight_ = false;   // ... the ladder view's
    std::string last_job_error_;
};

} // namespace synclab::ui
