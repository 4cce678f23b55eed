// The app's window-free parts: settings file, run controller (threads, cancel, mailbox), and the
// scripted mode's argument parsing. No display needed.
#include "ui/run_controller.h"
#include "ui/script.h"
#include "ui/settings.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
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
              "unknown scenario 'nope' (scenarios: stencil, divergent_barrier, loop_barrier, lost_update)");
    EXPECT_NE(
        error_of({"--scenario", "stencil", "--variant", "v2"}).find("(variants: correct, missing_barrier)"),
        std::string::npos);
    EXPECT_EQ(error_of({"--variant", "correct"}), "--variant needs --scenario");
    EXPECT_EQ(error_of({"--size", "big"}), "--size must be WIDTHxHEIGHT (e.g. 1280x800), got 'big'");
    EXPECT_EQ(error_of({"--view", "heatmap"}),
              "--view must be lesson, source, timeline or findings, got 'heatmap'");
    EXPECT_EQ(error_of({"--seed"}), "--seed needs a value");
    EXPECT_EQ(error_of({"--run=yes"}), "--run takes no value");
    EXPECT_NE(error_of({"--focus-finding", "0"}).find("add --run or --open"), std::string::npos);
    EXPECT_NE(error_of({"stencil"}).find("unexpected argument 'stencil'"), std::string::npos);
}

} // namespace
} // namespace synclab::ui
