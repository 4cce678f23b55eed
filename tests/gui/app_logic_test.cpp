// The app's window-free parts: settings file, run controller (threads, cancel, mailbox), the GPU
// probe and GPU runs where there is no GPU, live-event publishing (through a fake producer: the
// same LiveTrace::add the runner's on_events calls), and the scripted mode's argument parsing. No
// display needed.
#include "cli/run_options.h"
#include "scenario/scenario.h"
#include "ui/views/callout_view.h"
#include "ui/core/gpu_probe.h"
#include "ui/model/key_queue.h"
#include "ui/core/live_trace.h"
#include "ui/core/run_controller.h"
#include "ui/shell/script.h"
#include "ui/model/settings.h"
#include "ui/model/source_lines.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <thread>

namespace synclab::ui {
namespace {

namespace fs = std::filesystem;

fs::path scratch_dir(const std::string& name) {
    const fs::path dir = fs::path(SYNCLAB_BINARY_DIR) / "app-logic-scratch" / name;
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

// Polls like the UI thread does, until `want` results arrived or 30 s passed.
std::vector<RunDone> poll_until(RunController& runs, size_t want) {
    std::vector<RunDone> all;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while ((all.size() < want || runs.busy()) && std::chrono::steady_clock::now() < deadline) {
        for (RunDone& d : runs.poll())
            all.push_back(std::move(d));
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    return all;
}

// [SECTION] Settings

TEST(Settings, RoundTrip) {
    const std::string path = (scratch_dir("roundtrip") / "synclab" / "settings.ini").string();
    Settings s;
    s.language = Language::Zh;
    s.scenario = "stencil";
    s.variant = "missing_barrier";
    ASSERT_EQ(save_settings(s, path), "");
    const SettingsLoad loaded = load_settings(path);
    EXPECT_EQ(loaded.note, "");
    EXPECT_EQ(loaded.settings, s);
}

TEST(Settings, PredictionOffIsRemembered) {
    const std::string path = (scratch_dir("predict") / "settings.ini").string();
    Settings s;
    EXPECT_TRUE(s.predict) << "a student is asked for a prediction unless a teacher turned it off";
    s.predict = false;
    ASSERT_EQ(save_settings(s, path), "");
    const SettingsLoad loaded = load_settings(path);
    EXPECT_EQ(loaded.note, "");
    EXPECT_FALSE(loaded.settings.predict);
    std::ofstream(path) << "predict=maybe\n";
    const SettingsLoad bad = load_settings(path);
    EXPECT_NE(bad.note.find("predict 'maybe' (on or off)"), std::string::npos) << bad.note;
    EXPECT_TRUE(bad.settings.predict);
}

TEST(Settings, MissingFileIsSilentDefaults) {
    const SettingsLoad loaded = load_settings((scratch_dir("missing") / "none.ini").string());
    EXPECT_EQ(loaded.note, "");
    EXPECT_EQ(loaded.settings, Settings{});
}

TEST(Settings, CorruptFileIsIgnoredWithANote) {
    const fs::path path = scratch_dir("corrupt") / "settings.ini";
    std::ofstream(path) << "language=klingon\n\x01\x02garbage without equals\nscenario=stencil\n";
    const SettingsLoad loaded = load_settings(path.string());
    EXPECT_NE(loaded.note.find("language 'klingon'"), std::string::npos) << loaded.note;
    EXPECT_NE(loaded.note.find("line 2"), std::string::npos) << loaded.note;
    EXPECT_EQ(loaded.settings.language, Language::En);
    EXPECT_EQ(loaded.settings.scenario, "stencil"); // the good lines still count
}

TEST(Settings, UnwritablePlaceSaysWhy) {
    const fs::path dir = scratch_dir("unwritable");
    std::ofstream(dir / "file") << "x"; // a file where a folder should be
    const std::string error = save_settings(Settings{}, (dir / "file" / "settings.ini").string());
    EXPECT_NE(error.find("settings not saved"), std::string::npos) << error;
}

// [SECTION] RunController

TEST(RunController, RunsOffTheCallingThreadAndDelivers) {
    const scenario::Scenario* s = scenario::find_scenario("stencil");
    ASSERT_NE(s, nullptr);
    RunController runs;
    Controls c;
    c.schedule = sim::Schedule::Adversarial;
    c.seed = 3;
    runs.start({make_scenario_job(*s, *s->find_variant("missing_barrier"), c, RunSlot::Current)});
    EXPECT_TRUE(runs.busy());
    const std::vector<RunDone> done = poll_until(runs, 1);
    ASSERT_EQ(done.size(), 1u);
    ASSERT_TRUE(done[0].record) << done[0].error;
    EXPECT_EQ(done[0].record->label, "stencil / missing_barrier (adversarial, seed 3)");
    EXPECT_FALSE(done[0].record->summary.findings.empty());
    EXPECT_EQ(done[0].record->options.cancel, nullptr); // never points at the controller's flag
    EXPECT_FALSE(runs.busy());
    EXPECT_DOUBLE_EQ(runs.progress(), 1.0);
}

TEST(RunController, CompareRunsBothInOrder) {
    const scenario::Scenario* s = scenario::find_scenario("stencil");
    RunController runs;
    runs.start({make_scenario_job(*s, s->variants[0], Controls{}, RunSlot::CompareLeft),
                make_scenario_job(*s, s->variants[1], Controls{}, RunSlot::CompareRight)});
    const std::vector<RunDone> done = poll_until(runs, 2);
    ASSERT_EQ(done.size(), 2u);
    EXPECT_EQ(done[0].slot, RunSlot::CompareLeft);
    EXPECT_EQ(done[1].slot, RunSlot::CompareRight);
    EXPECT_LT(done[0].record->serial, done[1].record->serial);
}

// A job that spins until cancelled stands in for a kernel that never ends.
RunJob spinning_job(std::atomic<bool>& started) {
    RunJob job;
    job.what = "spin";
    job.work = [&started](const std::atomic<bool>& cancel, const std::function<void(double)>& progress) {
        started = true;
        while (!cancel) {
            progress(0.5);
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
        auto r = std::make_shared<RunRecord>();
        r->summary.status = trace::RunStatus::Cancelled;
        r->label = "spin";
        return std::shared_ptr<const RunRecord>(r);
    };
    return job;
}

TEST(RunController, CancelStopsARunThatWouldNeverEnd) {
    std::atomic<bool> started{false};
    RunController runs;
    runs.start({spinning_job(started)});
    while (!started)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    EXPECT_TRUE(runs.poll().empty());
    runs.cancel();
    const std::vector<RunDone> done = poll_until(runs, 1);
    ASSERT_EQ(done.size(), 1u);
    EXPECT_EQ(done[0].record->summary.status, trace::RunStatus::Cancelled);
}

TEST(RunController, ANewBatchReplacesTheRunningOneWithoutWaiting) {
    std::atomic<bool> started{false};
    const scenario::Scenario* s = scenario::find_scenario("lost_update");
    RunController runs;
    runs.start({spinning_job(started)});
    while (!started)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    const auto t0 = std::chrono::steady_clock::now();
    runs.start({make_scenario_job(*s, s->variants[0], Controls{}, RunSlot::Current)});
    EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::milliseconds(100)); // start() never joins
    const std::vector<RunDone> done = poll_until(runs, 1);
    ASSERT_EQ(done.size(), 1u); // the spinning batch's result is dropped
    ASSERT_TRUE(done[0].record);
    EXPECT_EQ(done[0].record->variant_id, s->variants[0].id);
}

TEST(RunController, DestructionCancelsAndJoins) {
    std::atomic<bool> started{false};
    {
        RunController runs;
        runs.start({spinning_job(started)});
        while (!started)
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
    } // would hang here if the destructor did not cancel
    SUCCEED();
}

TEST(RunController, ADamagedTraceComesBackAsAnError) {
    const fs::path dir = scratch_dir("damaged");
    const fs::path path = dir / "damaged.slt";
    fs::copy_file(fs::path(SYNCLAB_SOURCE_DIR) / "tests/trace/data/golden_v1.slt.bin", path);
    {
        std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
        f.seekp(200);
        f.write("XXXX", 4);
    }
    RunController runs;
    runs.start({make_load_job(path.string())});
    const std::vector<RunDone> done = poll_until(runs, 1);
    ASSERT_EQ(done.size(), 1u);
    EXPECT_EQ(done[0].record, nullptr);
    EXPECT_NE(done[0].error.find("damaged.slt: checksum mismatch"), std::string::npos) << done[0].error;
}

TEST(RunController, AGoodTraceLoadsWithFindings) {
    RunController runs;
    runs.start({make_load_job(std::string(SYNCLAB_SOURCE_DIR) + "/tests/trace/data/golden_v1.slt.bin")});
    const std::vector<RunDone> done = poll_until(runs, 1);
    ASSERT_EQ(done.size(), 1u);
    ASSERT_TRUE(done[0].record) << done[0].error;
    EXPECT_EQ(done[0].slot, RunSlot::Loaded);
    EXPECT_NE(done[0].record->label.find("golden_v1.slt.bin"), std::string::npos);
}

// [SECTION] Scripted-mode arguments

TEST(ScriptArgs, NoArgumentsIsNotAScript) {
    const ParsedArgs p = parse_app_args({});
    EXPECT_EQ(p.what, ParsedArgs::What::Run);
    EXPECT_FALSE(p.options.any);
}

TEST(ScriptArgs, FullScript) {
    const ParsedArgs p = parse_app_args({"--scenario", "stencil",     "--variant=missing_barrier",
                                         "--schedule", "adversarial", "--seed",
                                         "3",          "--run",       "--compare",
                                         "--view",     "source",      "--focus-finding",
                                         "0",          "--presenter", "--lang",
                                         "zh",         "--size",      "1280x800",
                                         "--frames",   "6",           "--screenshot",
                                         "out.png",    "--quit"});
    ASSERT_EQ(p.what, ParsedArgs::What::Run) << p.error;
    const ScriptOptions& o = p.options;
    EXPECT_TRUE(o.any && o.run && o.compare && o.presenter && o.quit);
    EXPECT_EQ(o.variant, "missing_barrier");
    EXPECT_EQ(o.schedule, sim::Schedule::Adversarial);
    EXPECT_EQ(o.seed, 3u);
    EXPECT_EQ(o.view, View::Source);
    EXPECT_EQ(o.focus_finding, 0);
    EXPECT_EQ(o.language, Language::Zh);
    EXPECT_EQ(o.width, 1280);
    EXPECT_EQ(o.height, 800);
    EXPECT_EQ(o.frames, 6);
    EXPECT_EQ(o.screenshot, "out.png");
}

TEST(ScriptArgs, ErrorsSayWhatExists) {
    auto error_of = [](std::vector<std::string> args) {
        const ParsedArgs p = parse_app_args(args);
        EXPECT_EQ(p.what, ParsedArgs::What::Error);
        return p.error;
    };
    EXPECT_EQ(error_of({"--scenario", "nope"}),
              "unknown scenario 'nope' (scenarios: stencil, divergent_barrier, loop_barrier, lost_update, "
              "message_passing, last_block_reduction, fence_scope, atomic_counter, histogram, cas_loop, "
              "atomic_ops, "
              "atomic_scope, syncthreads_predicates, warp_neighbour, warp_reduce, cg_tiles, grid_sync)");
    EXPECT_NE(
        error_of({"--scenario", "stencil", "--variant", "v2"}).find("(variants: correct, missing_barrier)"),
        std::string::npos);
    EXPECT_EQ(error_of({"--variant", "correct"}), "--variant needs --scenario");
    EXPECT_EQ(error_of({"--size", "big"}), "--size must be WIDTHxHEIGHT (e.g. 1280x800), got 'big'");
    EXPECT_EQ(error_of({"--view", "heatmaps"}),
              "--view must be lesson, source, timeline, findings, outcomes, heatmap, ladder or residency, got 'heatmaps'");
    EXPECT_EQ(error_of({"--heatmap", "pie"}),
              "--heatmap must be contention, block_thread or sm_warp, got 'pie'");
    EXPECT_EQ(error_of({"--memory", "tso"}), "--memory must be sc or relaxed, got 'tso'");
    EXPECT_EQ(error_of({"--scenario", "stencil", "--open-outcome", "0"}),
              "--open-outcome needs the outcome runs: add --run-outcomes");
    EXPECT_NE(error_of({"--memory", "sc", "--backend", "gpu"}).find("cannot go with --backend gpu"), std::string::npos);
    EXPECT_NE(error_of({"--outcomes-runs", "0"}).find("--outcomes-runs must be a number from 1"), std::string::npos);
    EXPECT_EQ(error_of({"--seed"}), "option --seed needs a value"); // as `synclab run` says it
    EXPECT_EQ(error_of({"--run=yes"}), "--run takes no value");
    EXPECT_NE(error_of({"--focus-finding", "0"}).find("add --run, --compare or --open"), std::string::npos);
    EXPECT_NE(error_of({"--tap", "],zz"}).find("--tap: unknown key 'zz'"), std::string::npos);
    EXPECT_NE(error_of({"--compare", "--open", "x.slt"}).find("cannot go with --open"), std::string::npos);
    EXPECT_NE(error_of({"stencil"}).find("unexpected argument 'stencil'"), std::string::npos);
}

// The run's options are `synclab run`'s: the same grammar, and for a bad one the same message (the
// command line's parser gives it: cli/run_options.h).
TEST(ScriptArgs, TheRunsOptionsAreTheCommandLines) {
    const ParsedArgs p = parse_app_args({"--scenario", "histogram", "--variant", "shared_privatized", "--param",
                                         "input=skewed", "--param", "items=1048576", "--memory", "relaxed",
                                         "--warp-model", "lockstep", "--schedule", "adversarial", "--seed", "7",
                                         "--max-steps", "5000000", "--run"});
    ASSERT_EQ(p.what, ParsedArgs::What::Run) << p.error;
    EXPECT_EQ(p.options.params, (scenario::ParamValues{{"input", "skewed"}, {"items", "1048576"}}));
    EXPECT_EQ(p.options.memory, launch::MemoryModel::Relaxed);
    EXPECT_EQ(p.options.warp_model, sim::WarpModel::Lockstep);
    EXPECT_EQ(p.options.schedule, sim::Schedule::Adversarial);
    EXPECT_EQ(p.options.seed, 7u);
    EXPECT_EQ(p.options.max_steps, 5'000'000u);
    const ParsedArgs ex = parse_app_args({"--scenario", "stencil", "--schedule", "exhaustive", "--max-executions", "50"});
    ASSERT_EQ(ex.what, ParsedArgs::What::Run) << ex.error;
    EXPECT_EQ(ex.options.max_executions, 50u);
    EXPECT_FALSE(parse_app_args({"--scenario", "stencil"}).options.warp_model) << "unset: the run panel's";

    // Each bad run option gives the message `synclab run` gives for it.
    const auto cli_error = [](std::vector<std::string> args) -> std::string {
        try {
            const cli::Args a(args, "run", cli::kRunValued, cli::kRunFlags, {"param"});
            cli::run_options(a);
            cli::with_user_params(*scenario::find_scenario("atomic_counter"), cli::param_values(a));
        } catch (const cli::UsageError& e) {
            return e.what();
        }
        return "";
    };
    for (const std::vector<std::string>& bad : std::vector<std::vector<std::string>>{
             {"--warp-model", "simt"},
             {"--schedule", "fifo"},
             {"--memory", "tso"},
             {"--seed", "-3"},
             {"--reps", "0"},
             {"--max-steps", "10"},
             {"--param", "k=7"},
             {"--param", "j=1"},
             {"--param", "k"},
             {"--schedule", "exhaustive", "--reps", "3"},
             {"--backend", "gpu", "--warp-model", "its"},
             {"--backend", "gpu", "--memory", "sc"},
             {"--untraced"},
             {"--max-executions", "9"}}) {
        std::vector<std::string> args = {"--scenario", "atomic_counter"};
        args.insert(args.end(), bad.begin(), bad.end());
        const ParsedArgs parsed = parse_app_args(args);
        const std::string expected = cli_error(bad);
        ASSERT_FALSE(expected.empty()) << bad.front() << ": the command line takes it";
        EXPECT_EQ(parsed.what, ParsedArgs::What::Error) << bad.front();
        EXPECT_EQ(parsed.error, expected) << bad.front();
    }
    EXPECT_EQ(parse_app_args({"--param", "k=32"}).error,
              "--param NAME=CHOICE picks a lesson's parameter: it needs --scenario");
}

// --lessons DIR: its lessons join the built-in ones (--scenario may name them); a broken one is no
// usage error: the script carries on with the built-in lessons and says which file and line.
TEST(ScriptArgs, ALessonFolderAndABrokenOne) {
    const std::string dir = std::string(SYNCLAB_SOURCE_DIR) + "/tests/scenario/data/lessons";
    const ParsedArgs p = parse_app_args({"--lessons", dir, "--scenario", "smem_reverse", "--variant", "missing_barrier"});
    ASSERT_EQ(p.what, ParsedArgs::What::Run) << p.error;
    ASSERT_NE(p.lessons, nullptr);
    EXPECT_EQ(p.lessons->folder_name(), "lessons");
    ASSERT_EQ(p.lessons->folder().size(), 1u);
    EXPECT_TRUE(p.lessons->from_folder(p.lessons->find("smem_reverse")));
    EXPECT_FALSE(p.lessons->from_folder(p.lessons->find("stencil")));
    EXPECT_EQ(p.lessons->all().size(), scenario::catalog().size() + 1);
    EXPECT_TRUE(p.options.lessons_error.empty());
    EXPECT_NE(parse_app_args({"--scenario", "smem_reverse"}).error.find("unknown scenario 'smem_reverse'"),
              std::string::npos)
        << "without the folder it is no lesson";

    const std::filesystem::path broken = std::filesystem::temp_directory_path() / "synclab_app_broken_lessons";
    std::filesystem::remove_all(broken);
    std::filesystem::create_directories(broken);
    std::filesystem::copy(dir + "/smem_reverse", broken / "smem_reverse");
    const std::filesystem::path toml = broken / "smem_reverse" / "lesson.toml";
    std::string text;
    {
        std::ifstream in(toml);
        text.assign(std::istreambuf_iterator<char>(in), {});
    }
    text.replace(text.find("block = 96"), 10, "block = \"many\"");
    std::ofstream(toml) << text;
    const ParsedArgs b = parse_app_args({"--lessons", broken.string(), "--scenario", "stencil"});
    ASSERT_EQ(b.what, ParsedArgs::What::Run) << b.error;
    EXPECT_EQ(b.lessons, nullptr);
    EXPECT_EQ(b.options.lessons_dir, broken.string());
    EXPECT_NE(b.options.lessons_error.find(toml.string() + ":6: 'block'"), std::string::npos) << b.options.lessons_error;
    std::filesystem::remove_all(broken);
}

TEST(ScriptArgs, TheOutcomesViewsOptions) {
    const ParsedArgs p = parse_app_args({"--scenario", "stencil", "--view", "outcomes", "--outcomes-runs", "30",
                                         "--run-outcomes", "--open-outcome", "2", "--memory", "relaxed",
                                         "--schedule", "exhaustive"});
    ASSERT_EQ(p.what, ParsedArgs::What::Run) << p.error;
    EXPECT_EQ(p.options.view, View::Outcomes);
    EXPECT_EQ(p.options.outcomes_runs, 30u);
    EXPECT_TRUE(p.options.run_outcomes);
    EXPECT_EQ(p.options.open_outcome, 2);
    EXPECT_EQ(p.options.memory, launch::MemoryModel::Relaxed);
    EXPECT_EQ(p.options.schedule, sim::Schedule::Exhaustive);
}

TEST(ScriptArgs, NoPredictTurnsThePredictionOff) {
    const ParsedArgs p = parse_app_args({"--scenario", "stencil", "--no-predict"});
    ASSERT_EQ(p.what, ParsedArgs::What::Run) << p.error;
    EXPECT_TRUE(p.options.no_predict);
    EXPECT_FALSE(parse_app_args({"--scenario", "stencil"}).options.no_predict);
    const ParsedArgs bad = parse_app_args({"--no-predict=yes"});
    EXPECT_EQ(bad.what, ParsedArgs::What::Error);
    EXPECT_EQ(bad.error, "--no-predict takes no value");
}

TEST(ScriptArgs, TapsAreKeyCodesInOrder) {
    const ParsedArgs p = parse_app_args({"--tap", "],],[,pagedown,pageup,h"});
    ASSERT_EQ(p.what, ParsedArgs::What::Run) << p.error;
    EXPECT_EQ(p.options.taps, (std::vector<int>{93, 93, 91, 267, 266, 72})); // GLFW_KEY_*
}

TEST(ScriptArgs, CompareAloneIsEnoughToFocusAFinding) {
    // --compare runs both sides itself (as the C key does), so it has findings to focus.
    const ParsedArgs p = parse_app_args({"--scenario", "stencil", "--compare", "--focus-finding", "0"});
    EXPECT_EQ(p.what, ParsedArgs::What::Run) << p.error;
}

TEST(ScriptArgs, OpenWarpTakesBlockDotWarpAndATrace) {
    ParsedArgs p = parse_app_args({"--scenario", "warp_reduce", "--variant", "shuffle", "--run", "--open-warp", "2.1"});
    ASSERT_EQ(p.what, ParsedArgs::What::Run) << p.error;
    ASSERT_TRUE(p.options.open_warp.has_value());
    EXPECT_EQ(p.options.open_warp->first, 2u);
    EXPECT_EQ(p.options.open_warp->second, 1u);
    p = parse_app_args({"--scenario", "warp_reduce", "--run", "--open-warp", "3"});
    EXPECT_EQ(p.error, "--open-warp must be BLOCK.WARP (e.g. 0.1: block 0's warp 1), got '3'");
    p = parse_app_args({"--scenario", "warp_reduce", "--open-warp", "0.0"});
    EXPECT_EQ(p.error, "--open-warp needs a trace: add --run, --compare or --open FILE.slt");
}

TEST(ScriptArgs, ExplainOutputTakesAnIndexOrFirst) {
    ParsedArgs p = parse_app_args({"--scenario", "stencil", "--run", "--explain-output", "32"});
    ASSERT_EQ(p.what, ParsedArgs::What::Run) << p.error;
    EXPECT_EQ(p.options.explain_output, 32u);
    p = parse_app_args({"--scenario", "stencil", "--run", "--explain-output", "first"});
    ASSERT_EQ(p.what, ParsedArgs::What::Run) << p.error;
    EXPECT_EQ(p.options.explain_output, ScriptOptions::kFirstWrong);
    p = parse_app_args({"--scenario", "stencil", "--explain-output", "3"});
    EXPECT_EQ(p.what, ParsedArgs::What::Error);
    EXPECT_NE(p.error.find("add --run"), std::string::npos) << p.error;
    p = parse_app_args({"--scenario", "stencil", "--run", "--explain-output", "last"});
    EXPECT_EQ(p.what, ParsedArgs::What::Error);
}

// [SECTION] Key queue: no tap is lost
//
// The shell feeds ImGui what take_frame() returns, one call per frame; ImGui sees a key as pressed in
// a frame when a press reached it in that frame. A fake "ImGui" (the down state per key, and the keys
// pressed in each frame) replays the queue the same way.
struct FakeImGui {
    std::map<int, bool> down;
    std::vector<std::vector<int>> pressed_in_frame; // per frame: keys that went down
    std::string text;
    void frame(KeyQueue& q) {
        std::vector<int> pressed;
        for (const KeyEvent& e : q.take_frame()) {
            if (e.kind == KeyEvent::Kind::Char) {
                text += char(e.codepoint);
                continue;
            }
            if (e.action == KeyEvent::Action::Press) {
                if (!down[e.key]) pressed.push_back(e.key);
                down[e.key] = true;
            } else if (e.action == KeyEvent::Action::Release) {
                down[e.key] = false;
            }
            if (e.key == 259 && e.action != KeyEvent::Action::Release && !text.empty()) text.pop_back();
        }
        pressed_in_frame.push_back(pressed);
    }
    int presses_of(int key) const {
        int n = 0;
        for (const auto& f : pressed_in_frame)
            n += int(std::count(f.begin(), f.end(), key));
        return n;
    }
};

constexpr int kRightBracket = 93, kPageDown = 267, kBackspace = 259, kShift = 340;

TEST(KeyQueue, AZeroLengthTapIsDownForExactlyOneFrame) {
    KeyQueue q;
    FakeImGui imgui;
    q.tap(kRightBracket); // press and release in one poll, as a clicker sends them
    imgui.frame(q);
    EXPECT_TRUE(imgui.down[kRightBracket]) << "the press must reach ImGui without its release";
    EXPECT_EQ(q.pending(), 1u);
    imgui.frame(q);
    EXPECT_FALSE(imgui.down[kRightBracket]) << "the release comes the frame after";
    EXPECT_TRUE(q.empty());
    EXPECT_EQ(imgui.presses_of(kRightBracket), 1);
}

TEST(KeyQueue, SeveralTapsInOneFrameAreEachSeen) {
    KeyQueue q;
    FakeImGui imgui;
    for (int i = 0; i < 3; ++i)
        q.tap(kRightBracket);
    q.tap(kPageDown);
    for (int frame = 0; frame < 10 && !q.empty(); ++frame)
        imgui.frame(q);
    EXPECT_TRUE(q.empty());
    EXPECT_EQ(imgui.presses_of(kRightBracket), 3) << "three taps of one key, three presses";
    EXPECT_EQ(imgui.presses_of(kPageDown), 1);
    // A press and the next press of one key never share a frame; the other key waits its turn.
    for (const auto& f : imgui.pressed_in_frame)
        EXPECT_LE(std::count(f.begin(), f.end(), kRightBracket), 1);
    EXPECT_FALSE(imgui.down[kRightBracket] || imgui.down[kPageDown]);
}

TEST(KeyQueue, DifferentKeysShareAFrame) {
    KeyQueue q;
    FakeImGui imgui;
    q.push(KeyEvent::press(kShift));
    q.push(KeyEvent::press(kRightBracket));
    imgui.frame(q);
    EXPECT_TRUE(imgui.down[kShift] && imgui.down[kRightBracket]) << "a chord arrives in one frame";
    EXPECT_TRUE(q.empty());
}

TEST(KeyQueue, RepeatsAreNotTransitions) {
    KeyQueue q;
    FakeImGui imgui;
    q.push(KeyEvent::press(kPageDown));
    q.push(KeyEvent::repeat(kPageDown));
    q.push(KeyEvent::repeat(kPageDown));
    imgui.frame(q);
    EXPECT_TRUE(q.empty()) << "repeats go with their press (ImGui times repeats itself)";
    EXPECT_TRUE(imgui.down[kPageDown]);
    q.push(KeyEvent::repeat(kPageDown));
    q.push(KeyEvent::release(kPageDown));
    imgui.frame(q);
    EXPECT_FALSE(imgui.down[kPageDown]);
    EXPECT_EQ(imgui.presses_of(kPageDown), 1);
}

TEST(KeyQueue, APressWithoutReleaseStaysDown) {
    KeyQueue q;
    FakeImGui imgui;
    q.push(KeyEvent::press(kRightBracket));
    for (int frame = 0; frame < 3; ++frame)
        imgui.frame(q);
    EXPECT_TRUE(imgui.down[kRightBracket]);
    EXPECT_EQ(imgui.presses_of(kRightBracket), 1);
    q.push(KeyEvent::release(kRightBracket));
    imgui.frame(q);
    EXPECT_FALSE(imgui.down[kRightBracket]);
}

TEST(KeyQueue, CharactersKeepTheirPlaceAmongKeys) {
    // "ab", Backspace, "c" typed within one poll: the text must be "ac", not "c" or "abc".
    KeyQueue q;
    FakeImGui imgui;
    q.push(KeyEvent::character('a'));
    q.push(KeyEvent::character('b'));
    q.tap(kBackspace);
    q.push(KeyEvent::character('c'));
    q.tap(kBackspace);
    q.push(KeyEvent::character('d'));
    for (int frame = 0; frame < 10 && !q.empty(); ++frame)
        imgui.frame(q);
    EXPECT_EQ(imgui.text, "ad");
}

TEST(KeyQueue, ABoundedQueueCountsWhatItDropped) {
    KeyQueue q;
    for (size_t i = 0; i < KeyQueue::kMaxPending + 5; ++i)
        q.push(KeyEvent::character('x'));
    EXPECT_EQ(q.pending(), KeyQueue::kMaxPending);
    EXPECT_EQ(q.dropped(), 5u);
}

// [SECTION] Presenter callout: what a finding says in words

const char* kOneTile = "// a comment\n"
                       "extern \"C\" __global__ void k(const float* g_in, float* g_out)\n"
                       "{\n"
                       "    __shared__ float s_tile[256];\n"
                       "    int t = threadIdx.x;\n"
                       "    s_tile[t] = g_in[t];\n"
                       "    g_out[t] = s_tile[t - 1];\n"
                       "}\n";

analysis::Finding shared_race(analysis::Hazard hazard, std::vector<uint32_t> threads, uint64_t address) {
    analysis::Finding f;
    f.kind = analysis::FindingKind::Race;
    f.hazard = hazard;
    f.space = trace::Space::Shared;
    f.lines = {7, 6};
    f.threads = std::move(threads);
    f.address = address;
    return f;
}

trace::Trace blocks_of_256(uint32_t blocks) {
    trace::Trace t;
    t.threads = trace::thread_layout({blocks, 1, 1}, {256, 1, 1});
    return t;
}

TEST(Callout, SaysWhoReadWhatBeforeWhoWroteIt) {
    const trace::Trace t = blocks_of_256(1);
    EXPECT_EQ(callout_text(shared_race(analysis::Hazard::WAR, {160, 159}, 159 * 4), t, kOneTile),
              "block 0 thread 160 read s_tile[159] before block 0 thread 159 wrote it: no barrier orders the "
              "two (lines 7 and 6)");
    EXPECT_EQ(callout_text(shared_race(analysis::Hazard::RAW, {159, 160}, 159 * 4), t, kOneTile),
              "block 0 thread 160 read s_tile[159] just after block 0 thread 159 wrote it: no barrier orders "
              "the two (lines 7 and 6)");
    // Threads 3 and 4 are lanes of one warp: the race is within a warp (no __syncwarp between them),
    // and the threads' names say their warp and lanes.
    EXPECT_EQ(callout_text(shared_race(analysis::Hazard::WAW, {3, 4}, 8), t, kOneTile),
              "block 0 thread 3 (warp 0, lane 3) and block 0 thread 4 (warp 0, lane 4) both wrote s_tile[2]: "
              "within a warp, and no __syncwarp() orders the two lanes (lines 7 and 6)");
    EXPECT_EQ(callout_text(shared_race(analysis::Hazard::WAW, {3, 4}, 8), t, kOneTile, Language::Zh),
              "线程块 0 的线程 3（线程束 0，通道 3） 和线程块 0 的线程 4（线程束 0，通道 4） 都写入了 "
              "s_tile[2]：在同一个"
              "线程束内，两个通道之间没有 __syncwarp() 规定先后（第 7 和 6 行）");
}

// A trace with a memory map names the memory from it, whatever the source says: an untyped
// shared array indexed by the access width of the finding's last site.
TEST(Callout, NamesMemoryFromTheTracesMemoryMap) {
    trace::Trace t = blocks_of_256(1);
    t.sites = {{10, 6, "st.shared.f32 [%r4], %f1"}, {11, 7, "ld.shared.f32 %f2, [%r5]"}};
    trace::MemoryRegion tile;
    tile.name = "s_tile";
    tile.space = trace::Space::Shared;
    tile.base = 16; // where a kernel with a second array before it puts s_tile
    tile.bytes = 1024;
    ASSERT_TRUE(t.memory.add(tile));
    analysis::Finding f = shared_race(analysis::Hazard::WAR, {160, 159}, 16 + 159 * 4);
    f.sites = {0, 1};
    EXPECT_EQ(memory_name(f, t, ""), "s_tile[159]") << "no source needed";
    EXPECT_EQ(memory_name(f, t, kOneTile, Language::Zh), "s_tile[159]");
    f.address = 8;
    EXPECT_EQ(memory_name(f, t, kOneTile), "__shared__ address 0x8") << "outside every region: its address";
    EXPECT_EQ(memory_name(f, t, kOneTile, Language::Zh), "__shared__ 地址 0x8");
}

// A trace without a memory map (a file saved before traces had one) is named from the source
// where that is sure, else by its address.
TEST(Callout, SaysTheAddressWhereTheSourceDoesNotNameItForSure) {
    const trace::Trace t = blocks_of_256(1);
    const analysis::Finding f = shared_race(analysis::Hazard::WAR, {160, 159}, 0x27c);
    EXPECT_EQ(memory_name(f, t, ""), "__shared__ address 0x27c") << "no source";
    std::string two = kOneTile;
    two.replace(two.find("    int t"), 0, "    __shared__ float s_other[16];\n");
    analysis::Finding shifted = f;
    shifted.lines = {8, 7};
    EXPECT_EQ(memory_name(shifted, t, two), "__shared__ address 0x27c")
        << "two shared arrays: where s_tile starts is unknown";
    std::string doubles = kOneTile;
    doubles.replace(doubles.find("float s_tile"), 5, "double");
    EXPECT_EQ(memory_name(f, t, doubles), "__shared__ address 0x27c") << "8-byte elements";
    analysis::Finding beyond = f;
    beyond.address = 256 * 4;
    EXPECT_EQ(memory_name(beyond, t, kOneTile), "__shared__ address 0x400") << "past the array's end";
    analysis::Finding other_line = f;
    other_line.lines = {5};
    EXPECT_EQ(memory_name(other_line, t, kOneTile), "__shared__ address 0x27c")
        << "the line does not mention s_tile";
    EXPECT_EQ(memory_name(f, t, kOneTile), "s_tile[159]");
}

TEST(Callout, GlobalAndOtherKinds) {
    const trace::Trace t = blocks_of_256(2);
    analysis::Finding race = shared_race(analysis::Hazard::RAW, {10, 300}, 0x1000);
    race.space = trace::Space::Global;
    race.lines = {7};
    EXPECT_EQ(callout_text(race, t, kOneTile), "block 1 thread 44 read global address 0x1000 just after "
                                               "block 0 thread 10 wrote it: different blocks "
                                               "are not ordered (line 7)");
    // A scope race says the scope and the fix, whatever its hazard.
    analysis::Finding scope = race;
    scope.check = "scope_race";
    scope.hazard = analysis::Hazard::WAW;
    EXPECT_EQ(callout_text(scope, t, kOneTile),
              "block 0 thread 10 and block 1 thread 44 accessed global address 0x1000 from different blocks, but "
              "block scope (.cta) makes an atomic atomic only inside one block: an update can be lost; use device "
              "scope (line 7)");
    EXPECT_EQ(callout_text(scope, t, kOneTile, Language::Zh),
              "线程块 0 的线程 10 和线程块 1 的线程 44 从不同的块访问了 全局地址 0x1000，但块级作用域（.cta）"
              "的原子操作只在一个块内是原子的：更新可能丢失；请改用设备级作用域（第 7 行）");
    // A stale read says who saw whose flag and which fence is missing, from Finding::missing.
    analysis::Finding stale;
    stale.kind = analysis::FindingKind::StaleRead;
    stale.check = "flag_without_fence";
    stale.space = trace::Space::Global;
    stale.lines = {12, 14, 30, 33};
    stale.threads = {0, 300};
    stale.address = 0x100;
    stale.missing = analysis::missing::kReaderFence;
    EXPECT_EQ(
        callout_text(stale, t, kOneTile),
        "block 1 thread 44 saw the flag block 0 thread 0 set, then read global address 0x100 from before it: "
        "the reader has no fence between the flag and the data (lines 12, 14, 30 and 33)");
    stale.missing = analysis::missing::kWriterFence | analysis::missing::kReaderFence;
    EXPECT_NE(callout_text(stale, t, kOneTile).find(": neither side has a fence ("), std::string::npos);
    stale.missing = analysis::missing::kWriterScope;
    EXPECT_EQ(callout_text(stale, t, kOneTile, Language::Zh),
              "线程块 1 的线程 44 看到了线程块 0 的线程 0 设置的标志，却读到了 全局地址 0x100 "
              "在那之前的旧值：写者的栅栏"
              "作用域不包括读者所在的块（第 12、14、30 和 33 行）");
    analysis::Finding lost;
    lost.kind = analysis::FindingKind::LostUpdate;
    lost.space = trace::Space::Global;
    lost.lines = {12};
    lost.threads = {0, 1};
    lost.address = 0;
    EXPECT_EQ(
        callout_text(lost, t, kOneTile),
        "block 0 thread 0 and block 0 thread 1 both updated global address 0x0 without an atomic, so one "
        "update was lost (line 12)");
    analysis::Finding divergence;
    divergence.kind = analysis::FindingKind::BarrierDivergence;
    divergence.space = trace::Space::Other;
    divergence.lines = {20, 24};
    divergence.threads = {0, 128};
    EXPECT_EQ(callout_text(divergence, t, kOneTile),
              "block 0 thread 0 and block 0 thread 128 did not meet at the same barrier (lines 20 and 24)");
}

// [SECTION] GPU: probe and runs where the GPU cannot be used
//
// These use the worker built with the app (SYNCLAB_GPU_WORKER_PATH). On a machine with a working GPU
// they skip: what they check is the way the app says "no GPU here".

// The worker the app would find next to itself; set for the runs the tests start.
std::string test_worker() {
    setenv("SYNCLAB_GPU_WORKER", SYNCLAB_GPU_WORKER_PATH, 1);
    return SYNCLAB_GPU_WORKER_PATH;
}

TEST(GpuProbe, SaysWhyWhereThereIsNoGpu) {
    const auto t0 = std::chrono::steady_clock::now();
    const GpuAvailability a = probe_gpu(test_worker(), 10);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (a.available) GTEST_SKIP() << "a GPU is available here: " << a.device;
    EXPECT_TRUE(a.reason.find("no NVIDIA driver found") != std::string::npos ||
                a.reason.find("no CUDA device") != std::string::npos)
        << a.reason;
    EXPECT_TRUE(a.device.empty());
    EXPECT_LT(s, 10.0); // the worker answers at once where it cannot run: no hang
}

TEST(GpuProbe, AMissingWorkerIsUnavailableWithItsPath) {
    const GpuAvailability a = probe_gpu("/nonexistent/synclab-gpu", 2);
    EXPECT_FALSE(a.available);
    EXPECT_NE(a.reason.find("/nonexistent/synclab-gpu"), std::string::npos) << a.reason;
}

TEST(GpuProbe, AnswersOffTheCallingThreadOnce) {
    GpuProbe probe;
    EXPECT_FALSE(probe.pending());
    EXPECT_FALSE(probe.take().has_value()); // not started: nothing
    probe.start(test_worker(), 10);
    EXPECT_TRUE(probe.pending());
    std::optional<GpuAvailability> a;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (!a && std::chrono::steady_clock::now() < deadline) {
        a = probe.take();
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    ASSERT_TRUE(a.has_value()) << "the probe did not answer within 20 s";
    EXPECT_FALSE(probe.pending());
    EXPECT_FALSE(probe.take().has_value()); // once
    EXPECT_TRUE(a->available || !a->reason.empty());
}

TEST(RunController, GpuRunWithoutAGpuComesBackAsARecordSayingWhy) {
    test_worker();
    if (probe_gpu().available) GTEST_SKIP() << "a GPU is available here";
    const scenario::Scenario* s = scenario::find_scenario("stencil");
    Controls c;
    c.backend = "gpu";
    c.gpu_live = true;
    c.gpu_timeout_s = 2;
    RunController runs;
    runs.start({make_scenario_job(*s, *s->find_variant("missing_barrier"), c, RunSlot::Current)});
    const std::vector<RunDone> done = poll_until(runs, 1);
    ASSERT_EQ(done.size(), 1u) << "no answer within 30 s";
    EXPECT_FALSE(done[0].provisional);
    EXPECT_EQ(done[0].error, ""); // not the error dialog: the record says it
    ASSERT_TRUE(done[0].record);
    const RunRecord& r = *done[0].record;
    EXPECT_NE(r.gpu_unavailable.find("no NVIDIA driver found"), std::string::npos) << r.gpu_unavailable;
    EXPECT_EQ(r.summary.status, trace::RunStatus::Error);
    EXPECT_NE(r.summary.message.find("GPU unavailable: "), std::string::npos) << r.summary.message;
    EXPECT_FALSE(r.summary.traced); // no "no findings" claim about a kernel that never ran
    EXPECT_EQ(r.options.backend, "gpu");
    EXPECT_DOUBLE_EQ(r.options.gpu.timeout_s, 2.0);
    EXPECT_FALSE(r.options.gpu.on_events); // never points into the finished job
    EXPECT_EQ(r.label, "stencil / missing_barrier (GPU, seed 1)");
    EXPECT_EQ(gpu_sides_text(r), ""); // neither side ran
    EXPECT_FALSE(runs.busy());
}

TEST(RunController, GpuControlsBecomeRunnerOptions) {
    Controls c;
    c.backend = "gpu";
    c.reps = 5;
    c.gpu_timeout_s = 0.5;
    runner::RunOptions o = run_options(c);
    EXPECT_EQ(o.backend, "gpu");
    EXPECT_EQ(o.reps, 5u);
    EXPECT_TRUE(o.gpu.untraced); // the hardware's own outcome always
    EXPECT_TRUE(o.gpu.traced);
    EXPECT_FALSE(o.gpu.live);
    EXPECT_DOUBLE_EQ(o.gpu.timeout_s, 0.5);
    c.gpu_live = true;
    EXPECT_TRUE(run_options(c).gpu.live);
    c.gpu_traced = false; // untraced only: nothing to stream
    o = run_options(c);
    EXPECT_FALSE(o.gpu.traced);
    EXPECT_FALSE(o.gpu.live);
    c.backend = "sim";
    EXPECT_FALSE(run_options(c).gpu.live); // GPU settings leave a simulator run alone
}

// [SECTION] Both sides of a GPU run in words

TEST(GpuSides, UntracedBesideTraced) {
    RunRecord r;
    r.options.backend = "gpu";
    runner::GpuSide& u = r.summary.gpu_untraced;
    u.ran = true;
    u.reps = 5;
    u.wrong_outputs = 15;
    u.checked_outputs = 16384;
    u.kernel_ms = 0.013;
    runner::GpuSide& t = r.summary.gpu_traced;
    t.ran = true;
    t.reps = 1;
    t.kernel_ms = 0.74;
    t.events = 19'400'000;
    EXPECT_EQ(
        gpu_sides_text(r),
        "untraced: 15 of 16384 wrong in 5 launches, 0.013 ms \u00b7 traced: 0 wrong, 0.74 ms, 19.4 M events");
    t.status = trace::RunStatus::Timeout;
    t.events = 1200;
    t.partial_trace = true;
    EXPECT_EQ(gpu_side_text(t, true), "traced: timeout, 1.2 k events (partial)");
    r.options.gpu.traced = false; // untraced only
    EXPECT_EQ(gpu_sides_text(r), "untraced: 15 of 16384 wrong in 5 launches, 0.013 ms");
    r.options.backend = "sim";
    EXPECT_EQ(gpu_sides_text(r), "");
}

// [SECTION] Live mode: a fake producer in place of the GPU

// Events as the instrumented kernel writes them: every thread of block 0 stores, then arrives at the
// barrier (site 1); `from`..`to` threads.
std::vector<trace::Event> fake_events(uint32_t from, uint32_t to, uint64_t t0) {
    std::vector<trace::Event> out;
    for (uint32_t th = from; th < to; ++th) {
        trace::Event st;
        st.time = t0 + th;
        st.thread = th;
        st.site = 0;
        st.kind = trace::EventKind::Store;
        out.push_back(st);
        trace::Event arrive = st;
        arrive.time += 1;
        arrive.site = 1;
        arrive.kind = trace::EventKind::BarrierArrive;
        out.push_back(arrive);
    }
    return out;
}

TEST(LiveTrace, PublishesAtMostOncePerIntervalWithNewSerials) {
    const scenario::Scenario* s = scenario::find_scenario("stencil");
    Controls c;
    c.backend = "gpu";
    c.gpu_live = true;
    RunRecord skeleton = live_skeleton(*s, *s->find_variant("missing_barrier"), c);
    ASSERT_GT(skeleton.summary.trace.sites.size(), 1u);
    const uint64_t threads = s->launch.grid.count() * s->launch.block.count();
    using Clock = LiveTrace::Clock;
    const Clock::time_point t0 = Clock::now();
    LiveTrace live(skeleton, std::chrono::milliseconds(100));

    auto first = live.add(fake_events(0, 32, 1000), 64, 1.0, t0);
    ASSERT_TRUE(first); // the first events show at once
    EXPECT_TRUE(first->provisional);
    EXPECT_EQ(first->summary.trace.events.size(), 64u);
    EXPECT_EQ(first->summary.trace.threads.size(), threads);
    EXPECT_EQ(first->live_events_seen, 64u);
    EXPECT_EQ(first->scenario_id, "stencil");
    // Still running: a thread that arrived at the barrier is not drawn as stuck there.
    EXPECT_EQ(first->summary.trace.threads[0].end, trace::ThreadEnd::Running);
    EXPECT_TRUE(first->summary.findings.empty());

    // Within the interval: gathered, not published.
    EXPECT_FALSE(live.add(fake_events(32, 64, 2000), 128, 20.0, t0 + std::chrono::milliseconds(50)));
    // Nothing new: nothing to publish, however late.
    auto second = live.add(fake_events(64, 96, 3000), 192, 40.0, t0 + std::chrono::milliseconds(120));
    ASSERT_TRUE(second);
    EXPECT_GT(second->serial, first->serial); // the timeline rebuilds its index
    EXPECT_EQ(second->summary.trace.events.size(), 192u);
    EXPECT_FALSE(live.add({}, 192, 60.0, t0 + std::chrono::milliseconds(400)));
    EXPECT_EQ(first->summary.trace.events.size(), 64u); // a published record never changes
    EXPECT_EQ(live.published(), 2u);

    // Slots that would index past the thread table or the sites are not kept.
    std::vector<trace::Event> bad = fake_events(0, 1, 5000);
    bad[0].thread = uint32_t(threads);
    bad[1].site = 60000;
    live.add(bad, 194, 80.0, t0 + std::chrono::milliseconds(600));
    EXPECT_EQ(live.events_kept(), 192u);
    EXPECT_EQ(live.events_seen(), 194u);
}

TEST(LiveTrace, KeepsAtMostMaxEvents) {
    const scenario::Scenario* s = scenario::find_scenario("stencil");
    LiveTrace live(live_skeleton(*s, s->variants[0], Controls{}), std::chrono::milliseconds(0), 100);
    live.add(fake_events(0, 200, 0), 400, 1.0);
    EXPECT_EQ(live.events_kept(), 100u);
    EXPECT_EQ(live.snapshot()->summary.trace.events.size(), 100u);
    EXPECT_EQ(live.snapshot()->live_events_seen, 400u); // the count says how many there were
}

// The RunController side: a live job whose producer (standing in for the runner calling
// GpuOptions::on_events every few ms) feeds a LiveTrace; the UI thread gets provisional records,
// throttled, then the final one, and never a provisional one after it.
TEST(RunController, LiveRecordsArriveWhileRunningThenTheFinalReplacesThem) {
    const scenario::Scenario* s = scenario::find_scenario("stencil");
    const scenario::Variant* v = s->find_variant("missing_barrier");
    RunJob job;
    job.what = "live";
    job.live_work = [s, v](const std::atomic<bool>&, const std::function<void(double)>&,
                           const RunJob::Publish& provisional) {
        Controls c;
        c.backend = "gpu";
        LiveTrace live(live_skeleton(*s, *v, c), std::chrono::milliseconds(100));
        const auto t0 = std::chrono::steady_clock::now();
        uint32_t next = 0;
        while (std::chrono::steady_clock::now() - t0 < std::chrono::milliseconds(900)) {
            const double ms =
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
            if (auto r = live.add(fake_events(next, next + 8, 1000 + next * 10), 2 * (next + 8), ms))
                provisional(r);
            next += 8;
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
        auto final_record = std::make_shared<RunRecord>(*live.snapshot());
        final_record->provisional = false;
        final_record->label = "final";
        final_record->serial = next_record_serial();
        return std::shared_ptr<const RunRecord>(final_record);
    };
    RunController runs;
    runs.start({std::move(job)});
    std::vector<RunDone> all;
    std::vector<std::chrono::steady_clock::time_point> provisional_at;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while ((all.empty() || all.back().provisional || runs.busy()) &&
           std::chrono::steady_clock::now() < deadline) {
        for (RunDone& d : runs.poll()) {
            if (d.provisional) provisional_at.push_back(std::chrono::steady_clock::now());
            all.push_back(std::move(d));
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    ASSERT_FALSE(all.empty());
    EXPECT_FALSE(all.back().provisional);
    EXPECT_EQ(all.back().record->label, "final");
    // Provisional records came while it ran (900 ms: about 4 at the 250 ms throttle), each newer.
    const size_t n = provisional_at.size();
    EXPECT_GE(n, 2u);
    EXPECT_LE(n, 5u);
    for (size_t i = 1; i < n; ++i) {
        EXPECT_GE(provisional_at[i] - provisional_at[i - 1],
                  RunController::kProvisionalInterval - std::chrono::milliseconds(1));
        EXPECT_GT(all[i].record->serial, all[i - 1].record->serial);
        EXPECT_GT(all[i].record->summary.trace.events.size(), all[i - 1].record->summary.trace.events.size());
    }
    for (size_t i = 0; i + 1 < all.size(); ++i)
        EXPECT_TRUE(all[i].provisional);
    // Nothing after the final one, however long the UI keeps polling.
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    EXPECT_TRUE(runs.poll().empty());
}

// [SECTION] Scripted mode: GPU options

TEST(ScriptArgs, GpuOptions) {
    const ParsedArgs p = parse_app_args(
        {"--scenario", "stencil", "--backend", "gpu", "--live", "--gpu-timeout", "2.5", "--run"});
    ASSERT_EQ(p.what, ParsedArgs::What::Run) << p.error;
    EXPECT_EQ(p.options.backend, "gpu");
    EXPECT_TRUE(p.options.live);
    EXPECT_FALSE(p.options.untraced);
    EXPECT_DOUBLE_EQ(*p.options.gpu_timeout_s, 2.5);
    EXPECT_DOUBLE_EQ(p.options.timeout_s, 120); // the script's patience is another thing
    auto error_of = [](std::vector<std::string> args) { return parse_app_args(args).error; };
    EXPECT_EQ(error_of({"--backend", "cuda"}), "--backend must be 'sim' or 'gpu', got 'cuda'");
    EXPECT_EQ(error_of({"--live"}), "--live needs --backend gpu");
    EXPECT_EQ(error_of({"--backend", "sim", "--gpu-timeout", "3"}), "--gpu-timeout needs --backend gpu");
    EXPECT_NE(error_of({"--backend", "gpu", "--untraced", "--live"}).find("cannot go with --untraced"),
              std::string::npos);
}

} // namespace
} // namespace synclab::ui
