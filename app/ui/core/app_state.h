// State shared by the app's views. Views read it and write requests; only the App (app.cpp) acts on
// requests (starting runs, opening files), after all views have drawn, so views stay small and never
// run kernels themselves (ImGui's immediate-mode habit: draw from state, ask through flags).
#pragma once

#include "runner/ladder.h"
#include "runner/outcome.h"
#include "runner/runner.h"
#include "scenario/scenario.h"
#include "trace/naming.h"
#include "ui/core/heatmap_model.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace synclab::ui {

// The app's languages are the trace layer's, whose names of threads and memory the views show.
using Language = trace::Language;

// One finished run (or a loaded .slt), immutable once published: views hold shared_ptrs to it.
struct RunRecord {
    std::string scenario_id; // "" for a loaded trace without a scenario
    std::string variant_id;
    std::string label; // e.g. "stencil / missing_barrier  (random, seed 3)" or a file name
    runner::RunOptions options;
    runner::RunSummary summary; // trace + findings + outputs
    uint64_t serial = 0;        // increases with every new record (views cache per serial)
    // A live GPU run still going: the partial trace so far (no findings, no outputs yet), shown on
    // the timeline until the final record replaces it. Never a lesson's result or a badge.
    bool provisional = false;
    uint64_t live_events_seen = 0; // provisional: events the kernel has written so far
    double live_elapsed_ms = 0;    // provisional: time since the traced launch started
    // A ladder job's result (RunSlot::Ladder); summary is then empty.
    std::shared_ptr<const runner::Ladder> ladder;
    // With it, each rung's heatmap peaks (variant -> HeatPeaks): the variants of a ladder are shown
    // together, so their heatmaps share one colour scale.
    std::map<std::string, HeatPeaks> ladder_heat;
    // Backend "gpu" that could not run at all: why ("no NVIDIA driver found (...)"); the summary's
    // status is then Error with the same reason. "" otherwise.
    std::string gpu_unavailable;
};

// What a variant's last run showed, for its badge in the scenario browser (ui/model/outcome_words.h): whether
// it matched the lesson (the badge's shape) and the run's own outcome (its colour). Two separate things:
// a hang of a variant that should hang is as expected, and a hang.
struct Badge {
    bool ran = false;
    runner::LessonMatch match = runner::LessonMatch::AsExpected;
    runner::RunOutcome outcome = runner::RunOutcome::Completed;
    bool findings = false; // its analysis found a bug (runner::found_a_bug: a right run with one is luck)
    bool as_expected() const { return ran && match == runner::LessonMatch::AsExpected; }
};

// The visible time range and vertical scroll of a timeline. Compare mode gives both timelines the
// same camera, which is what synchronises zoom and pan.
struct TimelineCamera {
    double t0 = 0, t1 = 1;     // visible time range (trace time units)
    float scroll_y = 0;        // pixels scrolled down
    bool fit_requested = true; // fit to the whole trace on the next frame
    // A range to zoom to on the next frame (e.g. a clicked finding); ignored when t1 <= t0.
    double focus_t0 = 0, focus_t1 = 0;
};

// Cross-view highlighting.
struct Selection {
    int selected_finding = -1;           // index into the current record's findings
    // Lines of the kernel's own source file (trace::Site::kernel_file_line: a line of a helper in a
    // header stands as the line that calls it), as the source view shows them.
    std::vector<uint32_t> finding_lines; // lines of the selected finding (highlighted in the source)
    uint32_t hovered_line = 0;           // line of the event under the mouse (0: none)
    uint32_t hovered_site = UINT32_MAX;  // PTX instruction of the event under the mouse
};

// The playhead: stepping through a recorded run (PlaybackBar moves it), for the views that follow it.
struct Playhead {
    bool active = false;          // the student is stepping (the bar's first step turns it on)
    uint64_t serial = 0;          // RunRecord::serial of the record it steps through
    double camera_time = 0;       // the timeline draws a vertical line here
    std::vector<uint32_t> events; // the warp instruction just passed (trace indices), marked on the timeline
    std::vector<uint32_t> lines;  // each warp's current line of the kernel's file, lit in the source view
    uint32_t line = 0;            // the CUDA line of the instruction just passed (0: none)
    bool on(uint64_t record_serial) const { return active && serial == record_serial; }
};

// A wrong output explained: the output grid sets it from analysis::explain_output when a cell is
// clicked; the timeline marks the events (the store that left the value, its thread's stale loads and
// the stores they raced with), the source view lights their lines. Trace event indices.
struct ProvenanceMarks {
    uint64_t serial = 0;                 // RunRecord::serial it belongs to (0: none)
    std::string output;                  // "g_out[32]"
    uint32_t final_store = UINT32_MAX;   // the store that left the value
    std::vector<uint32_t> stale_loads;   // loads of that store's thread that read a stale value
    std::vector<uint32_t> racing_stores; // the racing store of each stale load (same order)
    std::vector<uint32_t> lines;         // CUDA lines of all of them, sorted, unique
    std::string text;                    // analysis::describe(), for the panel
    bool on(uint64_t record_serial) const { return serial != 0 && serial == record_serial; }
};

// Things views ask the App to do; the App clears them after acting.
struct Requests {
    bool run = false;       // run the selected variant with `controls`
    bool cancel = false;    // cancel the run in progress
    bool run_both = false;  // compare mode: run the scenario's first (correct) variant and the selected one
    int focus_finding = -1; // zoom the timeline to this finding and highlight its lines
    int step_playhead = 0;  // move the playhead this many warp instructions (the playback bar does)
    // Open (block, warp in block) and its lane rows on the timeline that shows the current record.
    std::optional<std::pair<uint32_t, uint32_t>> open_warp;
    std::string open_trace; // path of a .slt to open
    std::string save_trace; // path to save the current trace to
    std::string export_chrome; // path to write Chrome JSON to
    std::string save_png;      // path to save a PNG of the window to
    bool run_outcomes = false; // the outcomes view: N runs of the selected variant, histogram counted
    // The outcomes view: open one run that produced this outcome of the simulator's histogram on the
    // timeline (its seed re-run traced, or its exhaustive execution replayed).
    std::optional<runner::OutcomeCount> open_outcome;
    bool run_ladder = false; // the ladder view: every variant of the selected lesson, timed
};

// Run controls (what the next run uses).
struct Controls {
    sim::Schedule schedule = sim::Schedule::Random;
    uint64_t seed = 1;
    uint32_t reps = 1;
    std::string backend = "sim";
    // Backend "gpu" only (runner::GpuOptions).
    bool gpu_traced = true;   // also one traced launch (events, findings); false: untraced only
    bool gpu_live = false;    // the traced launch streams its events to the timeline as it runs
    double gpu_timeout_s = 5; // per launch; a kernel still running then is stopped (timeout)
    // The simulator's memory model; unset: the lesson's own (Scenario::memory). The App unsets it when
    // another lesson is selected.
    std::optional<launch::MemoryModel> memory;
    // How the simulator schedules a warp's lanes (sim::WarpModel): its splits them, lockstep never.
    sim::WarpModel warp_model = sim::WarpModel::Its;
    // The simulator's step budget (thread-instructions; a run past it stops with status budget); unset:
    // the lesson's own (`max_steps` in lesson.toml), else the simulator's default.
    std::optional<uint64_t> max_steps;
    uint64_t max_executions = 100'000; // schedule exhaustive: the bound
    // Schedule exhaustive: run only the execution these choices name (runner::RunOptions::replay).
    std::optional<std::vector<uint32_t>> replay;
    // Lesson parameters the student picked (the run panel), by lesson id; a parameter not here keeps
    // its default (scenario::with_params).
    std::map<std::string, scenario::ParamValues> params;
};

// The outcomes view's runs: the outcome histogram of one variant over `runs` runs, on the simulator
// and (where there is one) the GPU. Written by the App when the runs come back.
struct OutcomeRuns {
    uint32_t runs = 200;       // N, the view's input
    std::string scenario_id;   // what sim and gpu are of ("" = nothing run yet)
    std::string variant_id;
    std::shared_ptr<const RunRecord> sim; // summary.histogram: the simulator's outcomes
    std::shared_ptr<const RunRecord> gpu; // the GPU's untraced launches' outcomes (null: not run)
    bool running = false;      // an outcomes batch is in flight
    double fraction = 0;       // its progress, 0..1
    std::string error;         // a job that threw (e.g. the histogram's buffer), "" = none
};

// The ladder view's run: every variant of one lesson timed on the run panel's backend. Written by the
// App when it comes back.
struct LadderRuns {
    std::shared_ptr<const runner::Ladder> result; // null: not run yet
    std::map<std::string, HeatPeaks> heat;        // its rungs' heatmap peaks (RunRecord::ladder_heat)
    bool running = false;
    double fraction = 0;
    std::string error; // a ladder that threw (e.g. the GPU could not be used), "" = none
};

// Whether the GPU backend can be used here, as the start-up probe found (app.cpp).
struct GpuStatus {
    bool probing = true; // the probe has not answered yet
    bool available = false;
    std::string device; // "NVIDIA H200"
    std::string reason; // why not: "no NVIDIA driver found (...)"
};

// Progress of the run in flight (written by the App from the worker's atomics each frame).
struct RunProgress {
    bool running = false;
    double fraction = 0;
    std::string what; // "stencil / missing_barrier"
};

enum class View : uint8_t { Lesson, Source, Timeline, Findings, Outcomes, Heatmap, Ladder, Residency };

struct AppState {
    const scenario::Scenario* scenario = nullptr;
    const scenario::Variant* variant = nullptr;
    Language language = Language::En;
    bool cjk_font = false;            // a CJK font was found (else Chinese is disabled)
    std::string cjk_hint;             // e.g. "install fonts-wqy-microhei for 简体中文"
    bool presenter = false;           // large fonts, high contrast, no chrome, keyboard only
    bool show_help = false;           // the keyboard help overlay
    bool compare = false;             // two variants side by side
    bool show_ptx = false;            // PTX beside the CUDA source
    // Ask for a prediction before each run (the lesson hides what a variant does until the student
    // answered or ran it); a teacher may turn it off, e.g. for a talk (settings.ini, --no-predict).
    bool predict = true;
    View focus_view = View::Timeline; // the view a script or key put in front

    Controls controls;
    GpuStatus gpu;
    RunProgress progress;
    std::shared_ptr<const RunRecord> current;       // what the views show
    std::shared_ptr<const RunRecord> compare_left;  // compare mode: usually the correct variant
    std::shared_ptr<const RunRecord> compare_right; // compare mode: usually the broken one
    std::map<std::string, Badge> badges;            // "scenario/variant" -> last run's badge
    std::string error;  // a readable error to show (e.g. a damaged .slt), "" = none
    std::string status; // one-line status ("saved trace to x.slt")

    Selection selection;
    Playhead playhead;
    ProvenanceMarks provenance;
    TimelineCamera camera; // the main timeline (and both in compare mode)
    OutcomeRuns outcomes;
    LadderRuns ladder;
    Requests requests;
};

// The lesson text in the chosen language (falls back to English when no CJK font is available).
inline const scenario::LessonText& lesson_text(const AppState& s, const scenario::LessonText& en,
                                               const scenario::LessonText& zh) {
    return s.language == Language::Zh && s.cjk_font ? zh : en;
}

} // namespace synclab::ui
