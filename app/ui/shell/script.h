// The scripted mode: command-line options that drive the ordinary App (same views, same layout, same
// frame loop) through a few steps — select, open, run, focus, settle, screenshot, quit — for the GUI
// tests and for preparing talks. Nothing renders differently because a script is driving.
//
//   synclab-app [--lessons DIR] [--scenario ID [--variant ID]]
//               [--schedule rr|random|adversarial|exhaustive] [--seed N] [--reps N] [--memory sc|relaxed]
//               [--warp-model its|lockstep] [--param NAME=CHOICE ...] [--max-steps N] [--max-executions N]
//               [--backend sim|gpu [--untraced] [--live] [--gpu-timeout S]]
//               [--open FILE.slt] [--run] [--compare] [--view lesson|source|timeline|findings|outcomes|heatmap|ladder]
//               [--focus-finding N] [--open-warp B.W] [--explain-output N|first] [--tap KEY[,KEY...]] [--wait-finding N]
//               [--presenter] [--lang en|zh] [--no-predict]
//               [--ptx] [--keys]
//               [--size WxH] [--frames N] [--timeout SECONDS] [--settings FILE.ini]
//               [--screenshot OUT.png] [--layout OUT.json] [--quit]
//
// The run's options (--schedule ... --max-steps, --backend, --untraced, --live) are those of `synclab run`,
// parsed and checked by its grammar (cli/run_options.h) with its messages. --lessons DIR loads the lesson
// folders in DIR as `synclab run --lessons DIR` does, so that --scenario may name them; a broken lesson is
// not a usage error: the app starts with the built-in lessons and a dialog names the file and line.
//
// --backend gpu waits for the app's GPU probe before it runs. Where the GPU cannot be used the app
// falls back to the simulator (as it does for a user): the run happens there, the status line and
// stderr say "GPU unavailable: <why>; running on the simulator", and the exit code stays 0. (The
// scripted mode's --timeout is its patience with a run; the kernel's watchdog is --gpu-timeout.)
//
// Steps, in this order: open the file and wait for it; run (--compare: both variants, --run implied) and wait
// (at most --timeout seconds); focus finding N; explain output element N; tap the --tap keys (all at once,
// each a press and its release with no time between, through the shell's key queue as a clicker's would go)
// and wait until the app has seen them (and until the runs they started, e.g. by C or Space, are in);
// with --wait-finding N, wait (at most --timeout seconds) until finding N is selected, by keys from
// outside (xdotool, a clicker: the GUI test of real key taps), after printing "waiting for finding N" on
// stdout; render --frames frames so the layout settles; save
// the screenshot and the layout; quit if asked (else the app stays open for interactive use). A
// failed step still takes the screenshot and the layout (they show what went wrong), then quits
// with exit code 1 when --quit was given.
//
// Exit codes: 0 done; 1 a step failed (run timed out, no finding N, PNG not written); 2 bad
// arguments; 3 no display or no OpenGL 3.3.
#pragma once

#include "ui/core/app_state.h"
#include "ui/model/lesson_library.h"

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace synclab::ui {

class App;
class Shell;

constexpr int kExitStepFailed = 1;
constexpr int kExitUsage = 2;
constexpr int kExitNoDisplay = 3;

struct ScriptOptions {
    bool any = false; // some option was given: scripted mode (settings neither read nor written)
    std::string scenario, variant;
    std::optional<sim::Schedule> schedule;
    std::optional<uint64_t> seed;
    std::optional<uint32_t> reps;
    std::string backend; // "" = the app's default (sim)
    bool untraced = false;
    bool live = false;
    std::optional<double> gpu_timeout_s;
    std::string open;
    bool run = false;
    bool compare = false;
    std::optional<launch::MemoryModel> memory; // --memory sc|relaxed (default: the lesson's)
    std::optional<sim::WarpModel> warp_model;  // --warp-model its|lockstep
    std::optional<uint64_t> max_steps;         // --max-steps N (default: the lesson's budget)
    std::optional<uint64_t> max_executions;    // --max-executions N (schedule exhaustive's bound)
    scenario::ParamValues params;              // --param NAME=CHOICE, for the selected lesson
    std::string lessons_dir;                   // --lessons DIR
    std::string lessons_error;                 // DIR did not load: "FILE:LINE: message" (a dialog says it)
    bool run_outcomes = false;           // --run-outcomes: the outcomes view's N runs, and wait
    std::optional<uint32_t> outcomes_runs; // --outcomes-runs N
    int open_outcome = -1;               // --open-outcome K: then open row K's simulator run, and wait
    std::optional<View> view;
    std::optional<uint8_t> heatmap_mode; // --heatmap: a HeatmapMode
    bool heatmap_log = false;            // --heatmap-log
    bool run_ladder = false;             // --run-ladder: the ladder view's ladder, and wait
    int focus_finding = -1;
    int step = 0; // --step N: warp instructions to move the playhead after the run
    std::optional<std::pair<uint32_t, uint32_t>> open_warp; // --open-warp B.W: (block, warp in block)
    // --explain-output N|first: after the run, explain element N of the first checked output (or
    // its first wrong element) as a click on its cell in the output grid does.
    std::optional<uint64_t> explain_output;
    static constexpr uint64_t kFirstWrong = UINT64_MAX;
    std::vector<int> taps; // --tap: GLFW key codes, in order
    int wait_finding = -1; // --wait-finding N
    bool presenter = false;
    std::optional<Language> language;
    bool no_predict = false; // --no-predict: no prediction asked before a run (the variant's text shows)
    bool ptx = false;
    bool keys = false; // show the key help overlay
    int width = 0, height = 0;
    int frames = 4;
    double timeout_s = 120;
    std::string screenshot;
    std::string layout;
    std::string settings; // read and write this settings file (a script otherwise uses none)
    bool quit = false;
};

struct ParsedArgs {
    enum class What : uint8_t { Run, Help, Version, Error } what = What::Run;
    ScriptOptions options;
    std::string error; // What::Error: one line, e.g. "unknown scenario 'x' (scenarios: ...)"
    // --lessons DIR that loaded: the built-in lessons and DIR's, for install_lessons() before the App
    // starts (null without --lessons, or when DIR did not load).
    std::shared_ptr<LessonLibrary> lessons;
};

// The GLFW key code of a --tap key name ("]" or "rbracket", "[" or "lbracket", "pagedown", "pageup", "space",
// "tab", "esc", "left", "right", "up", "down", "f1", a letter or a digit); -1 if there is none.
int tap_key_code(const std::string& name);

// Parses argv[1..]; checks scenario and variant ids against the catalog and the --lessons folder, and
// --param against the lesson (no window needed).
ParsedArgs parse_app_args(const std::vector<std::string>& args);
const char* app_usage();

class Script {
  public:
    explicit Script(ScriptOptions options) : options_(std::move(options)) {}

    // After App::init(), before the first frame: selection, language, presenter mode, view.
    void start(App& app);
    // After App::frame() (the views have drawn and requests were handled): the next step.
    void after_frame(App& app, Shell& shell);
    // After the shell rendered, before present(): the screenshot and the layout file.
    void after_render(App& app, Shell& shell);

    bool finished() const { return finished_; }                    // quit now (with exit_code())
    bool done() const { return finished_ || step_ == Step::Idle; } // every step has run
    int exit_code() const { return exit_code_; }

  private:
    enum class Step : uint8_t {
        Open,
        WaitOpen,
        WaitGpu,
        Run,
        WaitRun,
        Outcomes,
        WaitOutcomes,
        Ladder,
        WaitLadder,
        OpenOutcome,
        WaitOpenOutcome,
        Focus,
        Tap,
        WaitTap,
        WaitFinding,
        Settle,
        Shoot,
        Idle
    };
    void fail(const std::string& message);
    bool explain(AppState& state); // --explain-output; false (after fail()) when there is nothing to explain
    bool waited_too_long(App& app, const char* what);

    ScriptOptions options_;
    Step step_ = Step::Open;
    uint64_t jobs_before_ = 0;
    std::chrono::steady_clock::time_point wait_start_;
    int settle_frames_ = 0;
    bool finished_ = false;
    int exit_code_ = 0;
};

} // namespace synclab::ui
