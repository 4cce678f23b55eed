// Index:
//   [SECTION] Usage
//   [SECTION] Parsing
//   [SECTION] Steps
#include "ui/shell/script.h"

#include "ui/views/heatmap_view.h"
#include "ui/views/outcomes_view.h"

#include "cli/run_options.h"
#include "ui/shell/app.h"
#include "ui/shell/drawn_text.h"
#include "ui/model/lesson_library.h"
#include "ui/model/outcome_words.h"
#include "ui/views/output_grid.h"
#include "ui/views/run_summary_line.h"
#include "ui/shell/screenshot.h"
#include "ui/shell/shell.h"
#include "ui/model/source_lines.h"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

namespace synclab::ui {

// [SECTION] Usage

const char* app_usage() {
    return R"(synclab-app: the SyncLab desktop app.

Usage:
  synclab-app                         opens the app
  synclab-app [options]               scripted: does the steps below, then stays open (or --quit)

Options (any of them makes a script; settings.ini is then neither read nor written):
  --lessons DIR                       also offer the lesson folders in DIR (as 'synclab run --lessons
                                      DIR' does), listed under their own heading; a broken lesson is a
                                      dialog naming its file and line, and the app carries on
  --scenario ID [--variant ID]        select a lesson (default: the first variant)
  The run's options, as 'synclab run' takes them (the run panel has the same choices):
  --schedule rr|random|adversarial|exhaustive   (default random)
  --seed N  --reps N
  --memory sc|relaxed                 the simulator's memory model (default: the lesson's)
  --warp-model its|lockstep           how the simulator schedules a warp's lanes (default its)
  --param NAME=CHOICE                 a lesson parameter (repeatable; see 'synclab show SCENARIO')
  --max-steps N                       the simulator's step budget (default: the lesson's)
  --max-executions N                  --schedule exhaustive: the most executions it runs (default 100000)
  --backend sim|gpu                   run on the simulator (default) or the GPU; where the GPU cannot be
                                      used the run falls back to the simulator and says why (exit 0)
  --untraced  --live  --gpu-timeout S GPU: untraced launches only; stream the traced launch's events to
                                      the timeline; stop a kernel still running after S s (default 5)
  --open FILE.slt                     open a saved trace (a damaged one shows the error dialog)
  --run                               run the selected variant and wait for it
  --compare                           compare mode: runs the correct variant and the selected one (as
                                      the C key does; --run is implied) and waits for both
  --view lesson|source|timeline|findings|outcomes|heatmap|ladder|residency   bring a view to the front
  --heatmap contention|block_thread|sm_warp   which heatmap the heatmap view shows (default contention)
  --heatmap-log                       the heatmap's log colour scale
  --run-ladder                        run the ladder view's ladder (every variant, the run panel's backend),
                                      and wait for it
  --run-outcomes                      the outcomes view's runs (simulator, and GPU where there is one),
                                      after --run if given, and wait for them
  --outcomes-runs N                   how many runs the outcomes view counts (default 200)
  --open-outcome K                    then open the simulator run that gave the view's row K (from 0) on
                                      the timeline, and wait for it
  --focus-finding N                   after the run: select finding N (zoom + source lines)
  --step N                            after the run: move the playhead N warp instructions forward
  --open-warp B.W                     after the run: open block B's warp W on the timeline, its lane rows
                                      too (a shuffle then shows which lane read from which)
  --explain-output N|first            after the run: explain element N of the first checked output (first:
                                      its first wrong element), as a click on its cell in the output grid
  --tap KEY[,KEY...]                  then tap these keys (zero-length taps, as a clicker sends them):
                                      ] [ (or rbracket lbracket) pagedown pageup space tab esc left right up down f1, a-z, 0-9
  --wait-finding N                    then wait until finding N is selected (keys from outside)
  --presenter                         presenter mode (large text, high contrast)
  --lang en|zh                        lesson language
  --no-predict                        ask for no prediction before a run: the lesson shows what the
                                      variant does at once (a talk; View > Ask for a prediction)
  --ptx                               PTX beside the CUDA source
  --keys                              show the key help overlay
  --size WxH                          window size (default: fits the screen)
  --frames N                          frames to draw before the screenshot (default 4)
  --timeout SECONDS                   longest wait for a run or file (default 120)
  --settings FILE.ini                 use this settings file (scripts otherwise read and write none)
  --screenshot OUT.png                save the window as PNG (read back before the swap)
  --layout OUT.json                   save the screen rectangles of the views (for tests)
  --quit                              exit when done (exit code 0, or non-zero on a failure)
  --help  --version

Exit codes: 0 done, 1 a step failed (timeout, no such finding, PNG not written), 2 bad arguments,
3 no display or no OpenGL 3.3. Without a display and without options, the app prints the command
line's table ('synclab table') instead.
)";
}

// [SECTION] Parsing

namespace {

struct ArgError {
    std::string message;
};

template <typename T> T parse_number(const std::string& text, const std::string& option, T min, T max) {
    T value{};
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (ec != std::errc() || ptr != end || value < min || value > max)
        throw ArgError{option + " must be a number from " + std::to_string(min) + " to " +
                       std::to_string(max) + ", got '" + text + "'"};
    return value;
}

double parse_seconds(const std::string& text, const std::string& option) {
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || !(v > 0) || v > 86400)
        throw ArgError{option + " must be a number of seconds (0 < s <= 86400), got '" + text + "'"};
    return v;
}

// The run options among the arguments (`args`: "--schedule", "rr", "--live", ...), checked by the
// command line's grammar, into `o`: only those given (the others keep the app's own defaults and
// whatever the run panel holds).
void take_run_options(const std::vector<std::string>& args, ScriptOptions& o) {
    try {
        const cli::Args a(args, "synclab-app", cli::kRunValued, cli::kRunFlags, {"param"});
        if (!a.positional().empty())
            throw ArgError{"unexpected argument '" + a.positional().front() + "' (options start with --; see --help)"};
        const runner::RunOptions r = cli::run_options(a);
        if (a.value("schedule")) o.schedule = r.schedule;
        if (a.value("seed")) o.seed = r.seed;
        if (a.value("reps")) o.reps = r.reps;
        if (a.value("backend")) o.backend = r.backend;
        if (a.value("memory")) o.memory = r.memory;
        if (a.value("warp-model")) o.warp_model = r.limits.warp_model;
        if (a.value("max-steps")) o.max_steps = r.limits.max_steps;
        if (a.value("max-executions")) o.max_executions = r.max_executions;
        o.untraced = a.flag("untraced");
        o.live = a.flag("live");
        o.params = cli::param_values(a);
    } catch (const cli::UsageError& e) {
        // (the grammar's messages name its command; the app's own say only what is wrong)
        std::string message = e.what();
        if (const std::string prefix = "'synclab-app': "; message.starts_with(prefix)) message.erase(0, prefix.size());
        throw ArgError{message};
    }
}

// "lessons" for "/home/t/lessons/" (the browser's heading for the folder's lessons).
std::string folder_name(const std::string& dir) {
    std::filesystem::path p(dir);
    if (!p.has_filename()) p = p.parent_path();
    const std::string name = p.filename().string();
    return name.empty() ? dir : name;
}

} // namespace

int tap_key_code(const std::string& name) {
    static const std::pair<const char*, int> named[] = {
        {"]", GLFW_KEY_RIGHT_BRACKET},    {"rbracket", GLFW_KEY_RIGHT_BRACKET},
        {"[", GLFW_KEY_LEFT_BRACKET},     {"lbracket", GLFW_KEY_LEFT_BRACKET},
        {"pagedown", GLFW_KEY_PAGE_DOWN}, {"pageup", GLFW_KEY_PAGE_UP},
        {"space", GLFW_KEY_SPACE},        {"tab", GLFW_KEY_TAB},
        {"esc", GLFW_KEY_ESCAPE},         {"left", GLFW_KEY_LEFT},
        {"right", GLFW_KEY_RIGHT},        {"up", GLFW_KEY_UP},
        {"down", GLFW_KEY_DOWN},          {"f1", GLFW_KEY_F1}};
    for (const auto& [n, code] : named)
        if (name == n) return code;
    if (name.size() == 1 && std::isalpha(static_cast<unsigned char>(name[0])))
        return GLFW_KEY_A + (std::tolower(static_cast<unsigned char>(name[0])) - 'a');
    if (name.size() == 1 && std::isdigit(static_cast<unsigned char>(name[0])))
        return GLFW_KEY_0 + (name[0] - '0');
    return -1;
}

ParsedArgs parse_app_args(const std::vector<std::string>& args) {
    ParsedArgs out;
    ScriptOptions& o = out.options;
    const std::vector<std::string> flags = {"run",          "compare",     "presenter",  "ptx",       "keys",
                                            "quit",         "run-outcomes", "heatmap-log", "run-ladder", "no-predict"};
    const std::vector<std::string> valued = {
        "scenario",      "variant", "open",   "view",         "focus-finding", "lang",   "size",
        "frames",        "timeout", "screenshot", "layout",   "settings",      "gpu-timeout", "tap",
        "wait-finding",  "step",    "explain-output", "outcomes-runs", "open-outcome", "heatmap",
        "open-warp",     "lessons"};
    // The options of a run go to the command line's grammar (cli/run_options.h): the same options as
    // `synclab run`, checked with its messages.
    const std::vector<std::string> run_valued = {"schedule", "seed",       "reps",      "memory",        "backend",
                                                 "param",    "warp-model", "max-steps", "max-executions"};
    const std::vector<std::string> run_flags = {"untraced", "live"};
    std::vector<std::string> run_args;
    try {
        for (size_t i = 0; i < args.size(); ++i) {
            std::string arg = args[i];
            if (arg == "--help" || arg == "-h") {
                out.what = ParsedArgs::What::Help;
                return out;
            }
            if (arg == "--version") {
                out.what = ParsedArgs::What::Version;
                return out;
            }
            if (arg.rfind("--", 0) != 0)
                throw ArgError{"unexpected argument '" + arg + "' (options start with --; see --help)"};
            std::string name = arg.substr(2), value;
            bool has_value = false;
            if (const size_t eq = name.find('='); eq != std::string::npos) {
                value = name.substr(eq + 1);
                name = name.substr(0, eq);
                has_value = true;
            }
            if (std::find(run_flags.begin(), run_flags.end(), name) != run_flags.end() ||
                std::find(run_valued.begin(), run_valued.end(), name) != run_valued.end()) {
                o.any = true;
                run_args.push_back(arg);
                const bool wants_value = std::find(run_valued.begin(), run_valued.end(), name) != run_valued.end();
                if (wants_value && !has_value && i + 1 < args.size()) run_args.push_back(args[++i]);
                continue;
            }
            const bool is_flag = std::find(flags.begin(), flags.end(), name) != flags.end();
            const bool is_valued = std::find(valued.begin(), valued.end(), name) != valued.end();
            if (!is_flag && !is_valued) throw ArgError{"unknown option '--" + name + "' (see --help)"};
            if (is_flag && has_value) throw ArgError{"--" + name + " takes no value"};
            if (is_valued && !has_value) {
                if (i + 1 >= args.size()) throw ArgError{"--" + name + " needs a value"};
                value = args[++i];
            }
            o.any = true;
            const std::string opt = "--" + name;
            if (name == "run")
                o.run = true;
            else if (name == "compare")
                o.compare = true;
            else if (name == "presenter")
                o.presenter = true;
            else if (name == "ptx")
                o.ptx = true;
            else if (name == "keys")
                o.keys = true;
            else if (name == "quit")
                o.quit = true;
            else if (name == "run-outcomes")
                o.run_outcomes = true;
            else if (name == "heatmap-log")
                o.heatmap_log = true;
            else if (name == "run-ladder")
                o.run_ladder = true;
            else if (name == "no-predict")
                o.no_predict = true;
            else if (name == "heatmap") {
                if (value == "contention")
                    o.heatmap_mode = uint8_t(HeatmapMode::Contention);
                else if (value == "block_thread")
                    o.heatmap_mode = uint8_t(HeatmapMode::BlockThread);
                else if (value == "sm_warp")
                    o.heatmap_mode = uint8_t(HeatmapMode::SmWarp);
                else
                    throw ArgError{"--heatmap must be contention, block_thread or sm_warp, got '" + value + "'"};
            }
            else if (name == "outcomes-runs")
                o.outcomes_runs = parse_number<uint32_t>(value, opt, 1, 100000);
            else if (name == "open-outcome")
                o.open_outcome = parse_number<int>(value, opt, 0, 1 << 20);
            else if (name == "lessons")
                o.lessons_dir = value;
            else if (name == "gpu-timeout")
                o.gpu_timeout_s = parse_seconds(value, opt);
            else if (name == "scenario")
                o.scenario = value;
            else if (name == "variant")
                o.variant = value;
            else if (name == "open")
                o.open = value;
            else if (name == "view") {
                if (value == "lesson")
                    o.view = View::Lesson;
                else if (value == "source")
                    o.view = View::Source;
                else if (value == "timeline")
                    o.view = View::Timeline;
                else if (value == "findings")
                    o.view = View::Findings;
                else if (value == "outcomes")
                    o.view = View::Outcomes;
                else if (value == "heatmap")
                    o.view = View::Heatmap;
                else if (value == "ladder")
                    o.view = View::Ladder;
                else if (value == "residency")
                    o.view = View::Residency;
                else
                    throw ArgError{"--view must be lesson, source, timeline, findings, outcomes, heatmap, ladder or residency, got '" +
                                   value + "'"};
            } else if (name == "tap") {
                size_t from = 0;
                while (from <= value.size()) {
                    size_t comma = value.find(',', from);
                    if (comma == std::string::npos) comma = value.size();
                    const std::string key = value.substr(from, comma - from);
                    const int code = tap_key_code(key);
                    if (code < 0)
                        throw ArgError{"--tap: unknown key '" + key +
                                       "' (keys: ] [ (or rbracket lbracket) pagedown pageup space tab esc "
                                       "left right up down f1, "
                                       "a-z, 0-9)"};
                    o.taps.push_back(code);
                    from = comma + 1;
                }
            } else if (name == "wait-finding")
                o.wait_finding = parse_number<int>(value, opt, 0, 1 << 20);
            else if (name == "focus-finding")
                o.focus_finding = parse_number<int>(value, opt, 0, 1 << 20);
            else if (name == "step")
                o.step = parse_number<int>(value, opt, 1, 1 << 24);
            else if (name == "open-warp") {
                const size_t dot = value.find('.');
                if (dot == std::string::npos)
                    throw ArgError{"--open-warp must be BLOCK.WARP (e.g. 0.1: block 0's warp 1), got '" + value + "'"};
                o.open_warp = std::pair{parse_number<uint32_t>(value.substr(0, dot), "--open-warp block", 0, UINT32_MAX - 1),
                                        parse_number<uint32_t>(value.substr(dot + 1), "--open-warp warp", 0, 65535)};
            }
            else if (name == "explain-output")
                o.explain_output = value == "first"
                                       ? ScriptOptions::kFirstWrong
                                       : parse_number<uint64_t>(value, opt, 0, launch::kMaxBufferElements);
            else if (name == "lang") {
                if (value == "en")
                    o.language = Language::En;
                else if (value == "zh")
                    o.language = Language::Zh;
                else
                    throw ArgError{"--lang must be en or zh, got '" + value + "'"};
            } else if (name == "size") {
                const size_t x = value.find('x');
                if (x == std::string::npos)
                    throw ArgError{"--size must be WIDTHxHEIGHT (e.g. 1280x800), got '" + value + "'"};
                o.width = parse_number<int>(value.substr(0, x), "--size width", 320, 16384);
                o.height = parse_number<int>(value.substr(x + 1), "--size height", 240, 16384);
            } else if (name == "frames")
                o.frames = parse_number<int>(value, opt, 1, 100000);
            else if (name == "timeout")
                o.timeout_s = parse_seconds(value, opt);
            else if (name == "screenshot")
                o.screenshot = value;
            else if (name == "layout")
                o.layout = value;
            else if (name == "settings")
                o.settings = value;
        }
        if (!o.variant.empty() && o.scenario.empty()) throw ArgError{"--variant needs --scenario"};
        take_run_options(run_args, o);
        // A teacher's lesson folder: loaded here, so that --scenario may name its lessons. A broken
        // lesson is no usage error: the app starts with the built-in lessons and shows what is wrong
        // in a dialog (ScriptOptions::lessons_error), as a damaged trace file does.
        if (!o.lessons_dir.empty()) {
            try {
                out.lessons = std::make_shared<LessonLibrary>(scenario::load_extra_lessons(o.lessons_dir),
                                                              folder_name(o.lessons_dir));
            } catch (const scenario::LessonError& e) {
                o.lessons_error = e.what(); // "FILE:LINE: message": where to look
            }
        }
        const LessonLibrary& library = out.lessons ? *out.lessons : lessons();
        const scenario::Scenario* lesson = nullptr;
        if (!o.scenario.empty()) {
            lesson = library.find(o.scenario);
            if (!lesson)
                throw ArgError{"unknown scenario '" + o.scenario + "' (scenarios: " + library.ids() + ")"};
            if (!o.variant.empty() && !lesson->find_variant(o.variant)) {
                std::string ids;
                for (const scenario::Variant& v : lesson->variants)
                    ids += (ids.empty() ? "" : ", ") + v.id;
                throw ArgError{"scenario " + lesson->id + " has no variant '" + o.variant + "' (variants: " + ids +
                               ")"};
            }
        }
        if (!o.params.empty()) {
            if (!lesson) throw ArgError{"--param NAME=CHOICE picks a lesson's parameter: it needs --scenario"};
            try {
                cli::with_user_params(*lesson, o.params); // checked as `synclab run` checks it
            } catch (const cli::UsageError& e) {
                throw ArgError{e.what()};
            }
        }
        if (o.gpu_timeout_s && o.backend != "gpu") throw ArgError{"--gpu-timeout needs --backend gpu"};
        if (o.focus_finding >= 0 && !o.run && !o.compare && o.open.empty())
            throw ArgError{
                "--focus-finding needs something with findings: add --run, --compare or --open FILE.slt"};
        if (o.compare && !o.open.empty())
            throw ArgError{"--compare runs two variants of a scenario: it cannot go with --open"};
        if (o.explain_output && !o.run)
            throw ArgError{"--explain-output needs a run with checked outputs: add --run"};
        if (o.open_outcome >= 0 && !o.run_outcomes)
            throw ArgError{"--open-outcome needs the outcome runs: add --run-outcomes"};
        if ((o.run_outcomes || o.outcomes_runs) && o.scenario.empty() && !o.open.empty())
            throw ArgError{"--run-outcomes counts a lesson's outcomes: it cannot go with --open"};
        if (o.open_warp && !o.run && !o.compare && o.open.empty())
            throw ArgError{"--open-warp needs a trace: add --run, --compare or --open FILE.slt"};
        if (o.step > 0 && !o.run && !o.compare && o.open.empty())
            throw ArgError{"--step needs a trace to step through: add --run, --compare or --open FILE.slt"};
    } catch (const ArgError& e) {
        out.what = ParsedArgs::What::Error;
        out.error = e.message;
    }
    return out;
}

// [SECTION] Steps

void Script::fail(const std::string& message) {
    std::cerr << "synclab-app: " << message << "\n";
    exit_code_ = kExitStepFailed;
    // The picture of a failure (a run still going at the timeout) is worth keeping: take the
    // screenshot and the layout as planned, then stop with the failure's exit code.
    if (step_ != Step::Shoot && (!options_.screenshot.empty() || !options_.layout.empty())) {
        step_ = Step::Shoot;
        return;
    }
    finished_ = true;
}

void Script::start(App& app) {
    AppState& state = app.state();
    std::string error;
    if (!options_.scenario.empty() && !app.select(options_.scenario, options_.variant, error)) {
        // parse_app_args checked the ids already; this is a catalog that changed underneath.
        fail(error);
        return;
    }
    if (options_.schedule) state.controls.schedule = *options_.schedule;
    if (options_.seed) state.controls.seed = *options_.seed;
    if (options_.reps) state.controls.reps = *options_.reps;
    if (!options_.backend.empty()) state.controls.backend = options_.backend;
    if (options_.untraced) state.controls.gpu_traced = false;
    if (options_.live) state.controls.gpu_live = true;
    if (options_.gpu_timeout_s) state.controls.gpu_timeout_s = *options_.gpu_timeout_s;
    if (options_.memory) state.controls.memory = *options_.memory;
    if (options_.warp_model) state.controls.warp_model = *options_.warp_model;
    if (options_.max_steps) state.controls.max_steps = *options_.max_steps;
    if (options_.max_executions) state.controls.max_executions = *options_.max_executions;
    if (!options_.params.empty() && state.scenario) state.controls.params[state.scenario->id] = options_.params;
    if (options_.outcomes_runs) state.outcomes.runs = *options_.outcomes_runs;
    if (options_.language) {
        state.language = *options_.language;
        if (state.language == Language::Zh && !state.cjk_font)
            std::cerr << "synclab-app: no Chinese font installed, the lessons stay in English ("
                      << state.cjk_hint << ")\n";
    }
    if (!options_.lessons_error.empty())
        state.error = fill(ui_text(shown_language(state)).dialog.lessons_broken,
                           {options_.lessons_dir, options_.lessons_error});
    if (options_.view) state.focus_view = *options_.view;
    if (options_.heatmap_mode) app.heatmap_view().set_mode(HeatmapMode(*options_.heatmap_mode));
    if (options_.heatmap_log) app.heatmap_view().set_log_scale(true);
    state.presenter = options_.presenter;
    if (options_.no_predict) state.predict = false;
    state.compare = options_.compare;
    state.show_ptx = options_.ptx;
    state.show_help = options_.keys;
    step_ = Step::Open;
}

bool Script::waited_too_long(App& app, const char* what) {
    const double waited =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wait_start_).count();
    if (waited <= options_.timeout_s) return false;
    fail("timed out after " + std::to_string(int(options_.timeout_s)) + " s waiting for " + what +
         (app.busy() ? " (" + app.state().progress.what + " still running)" : std::string()));
    return true;
}

void Script::after_frame(App& app, Shell& shell) {
    if (finished_) return;
    AppState& state = app.state();
    switch (step_) {
    case Step::Open:
        if (!options_.open.empty()) {
            jobs_before_ = app.jobs_finished();
            wait_start_ = std::chrono::steady_clock::now();
            state.requests.open_trace = options_.open;
            step_ = Step::WaitOpen;
            break;
        }
        step_ = Step::WaitGpu;
        wait_start_ = std::chrono::steady_clock::now();
        [[fallthrough]];
    case Step::WaitGpu:
        // The frame after an opened file was shown (a user's kernel puts its source in front, and the
        // tab bar follows a frame later): a view the script named wins.
        if (!options_.open.empty() && options_.view) state.focus_view = *options_.view;
        // A GPU run waits for the probe, so that where there is no GPU the app has said so (and
        // falls back) before the run starts, rather than the run discovering it.
        if ((options_.run || options_.compare || options_.run_outcomes || options_.run_ladder) &&
            (options_.backend == "gpu" || options_.run_outcomes)) {
            // (the outcomes view runs the GPU beside the simulator wherever the probe finds one)
            if (app.gpu_probing()) {
                waited_too_long(app, "the GPU check");
                break;
            }
            if (!state.gpu.available && options_.backend == "gpu")
                std::cerr << "synclab-app: GPU unavailable: " << state.gpu.reason
                          << "; running on the simulator\n";
        }
        step_ = Step::Run;
        [[fallthrough]];
    case Step::Run:
        if (options_.run || options_.compare) {
            jobs_before_ = app.jobs_finished();
            wait_start_ = std::chrono::steady_clock::now();
            if (options_.compare)
                state.requests.run_both = true;
            else
                state.requests.run = true;
            step_ = Step::WaitRun;
            break;
        }
        step_ = Step::Outcomes;
        break;
    case Step::WaitOpen:
        // A damaged file is not a failure of the script: the app shows the error, which is the point.
        if (app.jobs_finished() > jobs_before_ && !app.busy()) {
            step_ = Step::WaitGpu;
            wait_start_ = std::chrono::steady_clock::now();
        } else
            waited_too_long(app, "the file to open");
        break;
    case Step::WaitRun: {
        const uint64_t expected = options_.compare ? 2 : 1;
        if (app.jobs_finished() >= jobs_before_ + expected && !app.busy())
            step_ = Step::Outcomes;
        else
            waited_too_long(app, "the run");
        break;
    }
    case Step::Outcomes:
        if (options_.run_outcomes) {
            jobs_before_ = app.jobs_finished();
            wait_start_ = std::chrono::steady_clock::now();
            state.requests.run_outcomes = true;
            step_ = Step::WaitOutcomes;
            break;
        }
        step_ = Step::Ladder;
        break;
    case Step::WaitOutcomes:
        if (app.jobs_finished() > jobs_before_ && !app.busy()) {
            if (state.outcomes.sim == nullptr)
                fail("--run-outcomes: no outcomes came back" +
                     (state.outcomes.error.empty() ? std::string() : " (" + state.outcomes.error + ")"));
            else
                step_ = Step::Ladder;
        } else {
            waited_too_long(app, "the outcome runs");
        }
        break;
    case Step::Ladder:
        if (options_.run_ladder) {
            jobs_before_ = app.jobs_finished();
            wait_start_ = std::chrono::steady_clock::now();
            state.requests.run_ladder = true;
            step_ = Step::WaitLadder;
            break;
        }
        step_ = Step::OpenOutcome;
        break;
    case Step::WaitLadder:
        if (app.jobs_finished() > jobs_before_ && !app.busy()) {
            if (state.ladder.result == nullptr)
                fail("--run-ladder: no ladder came back" +
                     (state.ladder.error.empty() ? std::string() : " (" + state.ladder.error + ")"));
            else
                step_ = Step::OpenOutcome;
        } else {
            waited_too_long(app, "the ladder");
        }
        break;
    case Step::OpenOutcome: {
        if (options_.open_outcome < 0) {
            step_ = Step::Focus;
            break;
        }
        // The rows as the view lists them.
        const RunRecord* sim = state.outcomes.sim.get();
        const std::vector<OutcomeRow> rows = outcome_rows(
            state.scenario, state.variant, sim->summary.histogram ? &*sim->summary.histogram : nullptr, nullptr,
            shown_language(state));
        if (size_t(options_.open_outcome) >= rows.size() || rows[size_t(options_.open_outcome)].sim_run == nullptr) {
            fail("--open-outcome " + std::to_string(options_.open_outcome) + ": the view has " +
                 std::to_string(rows.size()) + " rows" +
                 (size_t(options_.open_outcome) < rows.size() ? ", and the simulator never gave that one" : ""));
            return;
        }
        jobs_before_ = app.jobs_finished();
        wait_start_ = std::chrono::steady_clock::now();
        state.requests.open_outcome = *rows[size_t(options_.open_outcome)].sim_run;
        step_ = Step::WaitOpenOutcome;
        break;
    }
    case Step::WaitOpenOutcome:
        if (app.jobs_finished() > jobs_before_ && !app.busy())
            step_ = Step::Focus;
        else
            waited_too_long(app, "the outcome's run");
        break;
    case Step::Focus:
        if (options_.focus_finding >= 0) {
            // (a failure here still takes the screenshot: see fail())
            const size_t n = state.current ? state.current->summary.findings.size() : 0;
            if (size_t(options_.focus_finding) >= n) {
                fail("--focus-finding " + std::to_string(options_.focus_finding) + ": " +
                     (state.current ? "the run has " + std::to_string(n) + " findings"
                                    : std::string("nothing was run or opened")) +
                     (n > 0 ? " (0-" + std::to_string(n - 1) + ")" : std::string()));
                return;
            }
            state.requests.focus_finding = options_.focus_finding;
        }
        if (options_.explain_output && !explain(state)) return;
        if (options_.open_warp) {
            const auto [block, warp] = *options_.open_warp;
            const auto is_it = [&](const trace::ThreadInfo& t) { return t.block == block && t.warp == warp; };
            if (!state.current || std::none_of(state.current->summary.trace.threads.begin(),
                                               state.current->summary.trace.threads.end(), is_it)) {
                fail("--open-warp " + std::to_string(block) + "." + std::to_string(warp) + ": " +
                     (state.current ? "the trace has no such warp" : "nothing was run or opened"));
                return;
            }
            state.requests.open_warp = options_.open_warp;
        }
        state.requests.step_playhead = options_.step;
        step_ = Step::Tap;
        break;
    case Step::Tap:
        // All at once, each press with its release: the queue has to spread them over frames.
        for (const int key : options_.taps)
            shell.keys().tap(key);
        wait_start_ = std::chrono::steady_clock::now();
        step_ = Step::WaitTap;
        break;
    case Step::WaitTap:
        // The queue is empty once ImGui has had the last release; the frame after that has acted on it.
        // A key that started runs (Space, C) is waited for until they are in, as --run is.
        if (!shell.keys().empty() || app.busy()) {
            waited_too_long(app, shell.keys().empty() ? "the runs the tapped keys started" : "the tapped keys");
            break;
        }
        step_ = Step::WaitFinding;
        wait_start_ = std::chrono::steady_clock::now();
        if (options_.wait_finding >= 0)
            std::cout << "synclab-app: waiting for finding " << options_.wait_finding << std::endl;
        break;
    case Step::WaitFinding:
        if (options_.wait_finding >= 0 && state.selection.selected_finding != options_.wait_finding) {
            waited_too_long(app,
                            ("finding " + std::to_string(options_.wait_finding) + " to be selected").c_str());
            break;
        }
        settle_frames_ = options_.frames;
        step_ = Step::Settle;
        break;
    case Step::Settle:
        if (--settle_frames_ <= 0) step_ = Step::Shoot;
        break;
    case Step::Shoot:
    case Step::Idle:
        break;
    }
}

bool Script::explain(AppState& state) {
    const RunRecord* record = state.current.get();
    const std::vector<GridOutput> outputs =
        record != nullptr ? grid_outputs(record->summary) : std::vector<GridOutput>{};
    if (outputs.empty()) {
        fail("--explain-output: the run checked no outputs");
        return false;
    }
    const GridOutput* output = &outputs.front();
    uint64_t index = *options_.explain_output;
    if (index == ScriptOptions::kFirstWrong) {
        const auto wrong = std::find_if(outputs.begin(), outputs.end(),
                                        [](const GridOutput& o) { return o.wrong_count > 0; });
        if (wrong == outputs.end()) {
            fail("--explain-output first: no output came out wrong in this run");
            return false;
        }
        output = &*wrong;
        index = output->first_wrong;
    } else if (index >= output->count) {
        fail("--explain-output " + std::to_string(index) + ": " + output->name + " has " +
             std::to_string(output->count) + " elements");
        return false;
    }
    state.provenance = explain_element(*record, *output, index, shown_language(state));
    return true;
}

namespace {

// The outcomes view's rows, as the view lists them (for the GUI tests).
nlohmann::json outcomes_rows_json(const AppState& s) {
    const RunRecord* sim = s.outcomes.sim.get();
    const RunRecord* gpu = s.outcomes.gpu.get();
    const std::vector<OutcomeRow> rows = outcome_rows(
        s.scenario, s.variant, sim && sim->summary.histogram ? &*sim->summary.histogram : nullptr,
        gpu && gpu->summary.histogram ? &*gpu->summary.histogram : nullptr, shown_language(s));
    nlohmann::json out = nlohmann::json::array();
    for (const OutcomeRow& r : rows)
        out.push_back({{"outcome", r.outcome},
                       {"sim", r.sim_count},
                       {"gpu", r.gpu_count},
                       {"forbidden", r.verdict.verdict == runner::ModelVerdict::Forbidden},
                       {"forbidden_seen", r.verdict.broken()},
                       {"weak", r.verdict.weak},
                       {"verdict", verdict_words(r.verdict, Language::En)},
                       {"seed", r.sim_run ? r.sim_run->seed : 0}});
    return out;
}

// The vocabulary's words for the run shown and the selected variant's badge (for the GUI tests:
// the badge, the panel and `synclab table` must say the same).
void vocabulary_json(const AppState& s, nlohmann::json& doc) {
    const RunRecord* r = s.current.get();
    doc["record_outcome"] = r ? runner::to_string(runner::run_outcome(r->summary)) : "";
    const auto match = r ? record_match(*r) : std::nullopt;
    doc["record_match"] = match ? runner::to_string(*match) : "";
    const Badge badge = s.scenario && s.variant ? badge_of(s, *s.scenario, *s.variant) : Badge{};
    doc["badge_outcome"] = badge.ran ? runner::to_string(badge.outcome) : "";
    doc["badge_match"] = badge.ran ? runner::to_string(badge.match) : "";
}

// What the run panel holds for the next run (a script's run options land here).
void run_controls_json(const AppState& s, nlohmann::json& doc) {
    const Controls& c = s.controls;
    doc["controls_schedule"] = sim::to_string(c.schedule);
    doc["controls_seed"] = c.seed;
    doc["controls_memory"] = c.memory ? launch::to_string(*c.memory) : "lesson";
    doc["controls_warp_model"] = sim::to_string(c.warp_model);
    doc["controls_max_steps"] = c.max_steps ? *c.max_steps : 0;
    nlohmann::json params = nlohmann::json::object();
    if (s.scenario)
        if (const auto it = c.params.find(s.scenario->id); it != c.params.end())
            for (const auto& [name, choice] : it->second)
                params[name] = choice;
    doc["controls_params"] = params;
    doc["lesson_folder"] = lessons().folder_name();
}

} // namespace

void Script::after_render(App& app, Shell& shell) {
    if (finished_ || step_ != Step::Shoot) return;
    if (!options_.screenshot.empty()) {
        const Image image = read_back_buffer(shell.framebuffer_width(), shell.framebuffer_height());
        const std::string error = write_png(image, options_.screenshot);
        if (!error.empty()) {
            fail(error); // in Step::Shoot: finishes
            return;
        }
        std::cout << "saved " << options_.screenshot << " (" << image.width << "x" << image.height << ")\n";
    }
    if (!options_.layout.empty()) {
        nlohmann::json regions = nlohmann::json::object();
        for (const auto& [name, r] : app.regions())
            regions[name] = {r.x, r.y, r.w, r.h};
        const AppState& s = app.state();
        const int sel = s.selection.selected_finding;
        const analysis::Finding* selected =
            s.current && sel >= 0 && size_t(sel) < s.current->summary.findings.size()
                ? &s.current->summary.findings[size_t(sel)]
                : nullptr;
        nlohmann::json doc = {
            {"width", shell.framebuffer_width()},
            {"height", shell.framebuffer_height()},
            {"regions", regions},
            {"presenter", s.presenter},
            {"compare", s.compare},
            {"predict", s.predict},
            {"cjk_font", s.cjk_font},
            {"cjk_hint", s.cjk_hint},
            {"findings", s.current ? s.current->summary.findings.size() : 0},
            {"status", s.current ? trace::to_string(s.current->summary.status) : ""},
            {"error", s.error},
            {"running", s.progress.running},
            {"exit_code", exit_code_},
            {"status_line", s.status},
            {"scenario", s.scenario ? s.scenario->id : ""},
            {"variant", s.variant ? s.variant->id : ""},
            {"language", s.language == Language::Zh ? "zh" : "en"},
            {"backend", s.controls.backend},
            {"gpu_available", s.gpu.available},
            {"gpu_probing", s.gpu.probing},
            {"gpu_reason", s.gpu.reason},
            {"record_backend", s.current ? s.current->options.backend : ""},
            {"selected_finding", s.selection.selected_finding},
            // The selected finding's hazard and harm (a run starts at the most harmful one).
            {"selected_hazard", selected ? analysis::to_string(selected->hazard) : ""},
            {"selected_harmful", selected ? selected->harmful : 0},
            // The selected finding's whole sentence as the findings panel shows it under its list.
            {"findings_detail_text", app.findings_panel().detail_text()},
            {"wrong_outputs", s.current ? s.current->summary.wrong_outputs : 0},
            {"focus_view", s.focus_view == View::Lesson     ? "lesson"
                           : s.focus_view == View::Source   ? "source"
                           : s.focus_view == View::Timeline ? "timeline"
                           : s.focus_view == View::Outcomes ? "outcomes"
                           : s.focus_view == View::Heatmap  ? "heatmap"
                           : s.focus_view == View::Ladder   ? "ladder"
                           : s.focus_view == View::Residency ? "residency"
                                                            : "findings"},
            {"memory_model", s.current ? launch::to_string(s.current->summary.memory) : ""},
            {"record_seed", s.current ? s.current->options.seed : 0},
            {"outcomes_rows", outcomes_rows_json(s)},
            {"outcomes_runs", s.outcomes.runs},
            {"outcomes_sim_runs",
             s.outcomes.sim && s.outcomes.sim->summary.histogram ? s.outcomes.sim->summary.histogram->runs : 0},
            {"outcomes_sim_memory", s.outcomes.sim ? launch::to_string(s.outcomes.sim->summary.memory) : ""},
            {"outcomes_gpu_ran", s.outcomes.gpu != nullptr},
            {"outcomes_error", s.outcomes.error},
            {"heatmap_error", app.heatmap_view().renderer_error()},
            {"ladder_rungs", s.ladder.result ? s.ladder.result->rungs.size() : 0},
            {"ladder_not_modelled", s.ladder.result ? s.ladder.result->not_modelled : false},
            {"ladder_backend", s.ladder.result ? s.ladder.result->backend : ""},
            {"ladder_error", s.ladder.error},
            {"show_ptx", s.show_ptx},
            {"camera_t0", s.camera.t0},
            {"record_scenario", s.current ? s.current->scenario_id : ""},
            {"record_variant", s.current ? s.current->variant_id : ""},
            {"provenance_output", s.provenance.output},
            {"provenance_lines", s.provenance.lines},
            {"provenance_stale_loads", s.provenance.stale_loads.size()},
        };
        vocabulary_json(s, doc);
        run_controls_json(s, doc);
        nlohmann::json drawn = nlohmann::json::array();
        if (const ImDrawData* data = ImGui::GetDrawData())
            for (const DrawnText& t : drawn_text(*data, *ImGui::GetIO().Fonts))
                drawn.push_back({{"text", t.text}, {"x", t.x}, {"y", t.y}});
        doc["drawn_text"] = drawn;
        std::ofstream out(options_.layout);
        out << doc.dump(2) << "\n";
        if (!out) {
            fail(options_.layout + ": could not write the layout");
            return;
        }
    }
    step_ = Step::Idle;
    if (options_.quit) finished_ = true; // with exit_code_ (non-zero after a failed step)
}

} // namespace synclab::ui
