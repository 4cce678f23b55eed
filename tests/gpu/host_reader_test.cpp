// The CPU reader of host-mapped memory, everything of it that runs without a GPU: the reader thread
// against plain host buffers written by another CPU thread (right hand-overs, deliberately broken
// ones, writers that never raise a flag), the protocol fields that carry it, the lesson's
// [host_reader] tables and their errors, and what the runner says on the simulator.
#include "gpu/host_reader.h"
#include "gpu/protocol.h"
#include "runner/host_reader.h"
#include "runner/runner.h"
#include "scenario/lesson.h"
#include "scenario/scenario.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <fstream>
#include <numeric>
#include <random>
#include <sstream>
#include <thread>

namespace synclab {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// A writer thread standing in for the GPU: per pair, in a shuffled order, data then flag. With
// `flag_first` it raises the flag before it writes the data and waits in between, which is the stale
// read the CPU reader must be able to count.
void write_pairs(std::vector<uint32_t>& flags, std::vector<uint32_t>& data, bool flag_first, uint32_t seed) {
    std::vector<uint32_t> order(flags.size());
    std::iota(order.begin(), order.end(), 0u);
    std::shuffle(order.begin(), order.end(), std::mt19937(seed));
    for (const uint32_t p : order) {
        std::atomic_ref<uint32_t> flag(flags[p]);
        std::atomic_ref<uint32_t> value(data[p]);
        if (flag_first) {
            flag.store(1, std::memory_order_release);
            std::this_thread::sleep_for(2ms); // long enough for the reader's sweep to look
            value.store(1, std::memory_order_relaxed);
        } else {
            value.store(1, std::memory_order_relaxed);
            flag.store(1, std::memory_order_release);
        }
    }
}

TEST(HostReader, SeesEveryPairAReleasingWriterHandsOver) {
    const uint32_t pairs = 1024;
    std::vector<uint32_t> flags(pairs, 0), data(pairs, 0);
    gpu::HostReader reader(flags.data(), data.data(), pairs, Clock::now() + 20s);
    reader.start();
    std::thread writer([&] { write_pairs(flags, data, false, 1); });
    writer.join();
    reader.writer_ended();
    const gpu::HostReaderLaunch r = reader.join();
    EXPECT_EQ(r.pairs, pairs);
    EXPECT_EQ(r.seen, pairs);
    EXPECT_EQ(r.stale, 0u);
    EXPECT_EQ(r.gave_up, 0u);
    EXPECT_TRUE(r.message.empty()) << r.message;
    ASSERT_EQ(r.records.size(), 2u * pairs);
    for (uint32_t p = 0; p < pairs; ++p) {
        EXPECT_EQ(r.records[2 * p], 1u) << "pair " << p;
        EXPECT_EQ(r.records[2 * p + 1], 1u) << "pair " << p;
    }
}

TEST(HostReader, CountsTheDataThatCameAfterTheFlagAsStale) {
    const uint32_t pairs = 40;
    std::vector<uint32_t> flags(pairs, 0), data(pairs, 0);
    gpu::HostReader reader(flags.data(), data.data(), pairs, Clock::now() + 20s);
    reader.start();
    std::thread writer([&] { write_pairs(flags, data, true, 2); });
    writer.join();
    const gpu::HostReaderLaunch r = reader.join();
    EXPECT_EQ(r.seen, pairs);
    EXPECT_EQ(r.gave_up, 0u);
    // Each flag stood 2 ms before its data: the spinning reader sees nearly all of them stale (a
    // reader thread descheduled for the whole 2 ms may miss a few, so not all are required).
    EXPECT_GT(r.stale, pairs / 2);
    uint32_t stale_records = 0;
    for (uint32_t p = 0; p < pairs; ++p)
        stale_records += r.records[2 * p] == 1 && r.records[2 * p + 1] == 0;
    EXPECT_EQ(stale_records, r.stale);
}

TEST(HostReader, StaleMeansTheValueFromBeforeTheLaunchWhateverItIs) {
    std::vector<uint32_t> flags = {7, 7}, data = {42, 42};
    gpu::HostReader reader(flags.data(), data.data(), 2, Clock::now() + 20s);
    std::atomic_ref<uint32_t>(flags[0]).store(8); // raised, data left at 42: stale
    std::atomic_ref<uint32_t>(data[1]).store(43);
    std::atomic_ref<uint32_t>(flags[1]).store(9); // raised, data new
    reader.start();
    const gpu::HostReaderLaunch r = reader.join();
    EXPECT_EQ(r.seen, 2u);
    EXPECT_EQ(r.stale, 1u);
    EXPECT_EQ(r.records, (std::vector<uint32_t>{8, 42, 9, 43}));
}

TEST(HostReader, GivesUpAtItsDeadlineOnAWriterThatNeverRaisesTheFlag) {
    std::vector<uint32_t> flags(8, 0), data(8, 0);
    const auto t0 = Clock::now();
    gpu::HostReader reader(flags.data(), data.data(), 8, t0 + 100ms);
    reader.start();
    std::atomic_ref<uint32_t>(data[3]).store(1);
    std::atomic_ref<uint32_t>(flags[3]).store(1, std::memory_order_release);
    // Not told that the writer ended: only the deadline stops it.
    std::this_thread::sleep_for(300ms);
    const gpu::HostReaderLaunch r = reader.join();
    EXPECT_EQ(r.seen, 1u);
    EXPECT_EQ(r.gave_up, 7u);
    EXPECT_LT(r.reader_ms, 250.0) << "the reader ran past its 100 ms deadline";
    EXPECT_TRUE(contains(r.message, "gave up on 7 of 8 pairs (pair 0 and 6 more)")) << r.message;
    EXPECT_TRUE(contains(r.message, "before its deadline")) << r.message;
    EXPECT_EQ(r.records[0], 0u); // never seen: the values from before the launch
}

TEST(HostReader, StopsSoonAfterTheWriterEndedWithoutRaisingTheFlags) {
    std::vector<uint32_t> flags(4, 0), data(4, 0);
    const auto t0 = Clock::now();
    gpu::HostReader reader(flags.data(), data.data(), 4, t0 + 60s);
    reader.start();
    std::this_thread::sleep_for(10ms);
    const gpu::HostReaderLaunch r = reader.join(); // join says the writer ended
    EXPECT_LT(std::chrono::duration<double>(Clock::now() - t0).count(), 5.0);
    EXPECT_EQ(r.gave_up, 4u);
    EXPECT_TRUE(contains(r.message, "before the kernel ended")) << r.message;
}

TEST(HostReader, FlagsFirstSeenAfterTheWriterEndedAreNotLiveObservations) {
    std::vector<uint32_t> flags(3, 0), data(3, 0);
    gpu::HostReader reader(flags.data(), data.data(), 3, Clock::now() + 20s);
    reader.writer_ended();
    for (uint32_t p = 0; p < 3; ++p) {
        data[p] = 1;
        flags[p] = 1;
    }
    reader.start();
    const gpu::HostReaderLaunch r = reader.join();
    EXPECT_EQ(r.seen, 3u);
    EXPECT_EQ(r.after_kernel, 3u);
    EXPECT_EQ(r.stale, 0u);
}

TEST(HostReaderProtocol, RequestAndResultRoundTrip) {
    gpu::RunRequest q;
    q.kernel = "fence_scope_system_fence";
    q.buffers = {{"g_data", {0, 0, 0, 0}}, {"g_flag", {0, 0, 0, 0}}};
    q.host_reader = {true, 1, 0, 1};
    gpu::RunRequest q2;
    gpu::decode(gpu::encode(q), q2);
    EXPECT_TRUE(q2.host_reader.enabled);
    EXPECT_EQ(q2.host_reader.flags_buffer, 1u);
    EXPECT_EQ(q2.host_reader.data_buffer, 0u);
    EXPECT_EQ(q2.host_reader.pairs, 1u);

    gpu::RunResult r;
    gpu::HostReaderLaunch a;
    a.pairs = 2;
    a.seen = 1;
    a.stale = 1;
    a.after_kernel = 1;
    a.gave_up = 1;
    a.reader_ms = 3.25;
    a.message = "the CPU reader gave up on 1 of 2 pairs";
    a.records = {1, 0, 0, 0};
    gpu::HostReaderLaunch b;
    b.pairs = 2;
    b.seen = 2;
    b.records = {1, 1, 1, 1};
    r.host_reader = {a, b};
    r.wall_ms = 9;
    gpu::RunResult r2;
    gpu::decode(gpu::encode(r), r2);
    ASSERT_EQ(r2.host_reader.size(), 2u);
    EXPECT_EQ(r2.host_reader[0].stale, 1u);
    EXPECT_EQ(r2.host_reader[0].after_kernel, 1u);
    EXPECT_EQ(r2.host_reader[0].gave_up, 1u);
    EXPECT_EQ(r2.host_reader[0].reader_ms, 3.25);
    EXPECT_EQ(r2.host_reader[0].message, a.message);
    EXPECT_EQ(r2.host_reader[0].records, a.records);
    EXPECT_EQ(r2.host_reader[1].seen, 2u);
    EXPECT_EQ(r2.host_reader[1].records, b.records);
    EXPECT_EQ(r2.wall_ms, 9);

    // A count of launches the message cannot hold is refused, not allocated.
    std::string torn = gpu::encode(r);
    torn.resize(torn.size() - 5);
    EXPECT_THROW(gpu::decode(torn, r2), gpu::ProtocolError);
}

// [SECTION] The lesson's [host_reader] tables

std::string read(const std::string& relative) {
    std::ifstream in(std::string(SYNCLAB_SOURCE_DIR) + "/" + relative, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// fence_scope from the tree, its lesson file with `from` replaced by `to` (once; the test fails
// when `from` is not there).
scenario::Scenario fence_scope_with(const std::string& from = "", const std::string& to = "") {
    std::string toml = read("assets/lessons/fence_scope/lesson.toml");
    if (!from.empty()) {
        const size_t at = toml.find(from);
        EXPECT_NE(at, std::string::npos) << "no '" << from << "' in the lesson file";
        if (at != std::string::npos) toml.replace(at, from.size(), to);
    }
    scenario::LessonSources src;
    src.folder_id = "fence_scope";
    src.toml_name = "lesson.toml";
    src.en_name = "en.md";
    src.zh_name = "zh.md";
    src.toml_text = toml;
    src.en_text = read("assets/lessons/fence_scope/en.md");
    src.zh_text = read("assets/lessons/fence_scope/zh.md");
    src.kernel = [](const std::string& source, uint32_t) {
        return scenario::KernelFiles{"kernels/" + source, read("kernels/" + source), "fence_scope.ptx",
                                     read("assets/ptx/fence_scope.ptx")};
    };
    return scenario::build_lesson(src);
}

std::string error_with(const std::string& from, const std::string& to) {
    try {
        fence_scope_with(from, to);
    } catch (const scenario::LessonError& e) {
        return e.what();
    }
    return "";
}

TEST(HostReaderLesson, FenceScopeNamesItsCpuReader) {
    const scenario::Scenario* s = scenario::find_scenario("fence_scope");
    ASSERT_NE(s, nullptr);
    const scenario::HostReaderSpec& h = s->host_reader;
    ASSERT_TRUE(h.present());
    EXPECT_EQ(h.flags_buffer, "g_flag");
    EXPECT_EQ(h.data_buffer, "g_data");
    EXPECT_EQ(h.seen, "cpu_seen");
    EXPECT_EQ(h.pairs, 32u); // the buffers' size: grid 64, one pair per two blocks
    ASSERT_EQ(h.variants.size(), 2u);
    EXPECT_EQ(h.variants[0].variant, "system_fence");
    EXPECT_EQ(h.variants[0].stale, scenario::CpuStale::Never);
    EXPECT_EQ(h.variants[1].variant, "device_fence_to_host");
    EXPECT_EQ(h.variants[1].stale, scenario::CpuStale::Possible);
    EXPECT_EQ(h.find("device_fence"), nullptr);
    // The variant ids the CLI already knows keep their place.
    std::vector<std::string> ids;
    for (const scenario::Variant& v : s->variants)
        ids.push_back(v.id);
    EXPECT_EQ(ids, (std::vector<std::string>{"block_fence_across_blocks", "device_fence", "system_fence",
                                             "device_fence_to_host"}));
    // The runner's job: buffer indices of the lesson's declaration order.
    const runner::HostReaderJob job = runner::host_reader_job(*s, *s->find_variant("system_fence"));
    EXPECT_TRUE(job.enabled);
    EXPECT_EQ(s->buffers[job.flags_buffer].name, "g_flag");
    EXPECT_EQ(s->buffers[job.data_buffer].name, "g_data");
    EXPECT_FALSE(runner::host_reader_job(*s, *s->find_variant("device_fence")).enabled);
    // The tree's copy parses to the same (the loader a teacher's folder goes through).
    EXPECT_EQ(fence_scope_with().host_reader.pairs, 32u);
}

TEST(HostReaderLesson, MistakesAreNamedWithFileLineAndKey) {
    struct Case {
        std::string from, to, error;
    };
    const std::vector<Case> cases = {
        {"flags = \"g_flag\"", "flags = \"g_nope\"",
         "[host_reader]: flags 'g_nope' names no buffer (buffers: g_data"},
        {"flags = \"g_flag\"", "flags = \"g_data\"", "flags and data are both 'g_data'"},
        {"flags = \"g_flag\"\n", "", "[host_reader]: missing key 'flags'"},
        {"seen = \"cpu_seen\"", "seen = \"g_out\"", "seen 'g_out' is a buffer of the kernel"},
        {"seen = \"cpu_seen\"", "seen = \"cpu seen\"", "seen 'cpu seen' must be letters, digits and _"},
        {"seen = \"cpu_seen\"", "seen = \"cpu_seen\"\npairs = 33", "pairs must be 1 .. 32"},
        {"seen = \"cpu_seen\"", "seen = \"cpu_seen\"\nreaders = 2", "[host_reader]: unknown key 'readers'"},
        {"[host_reader.system_fence]", "[host_reader.system_fences]",
         "[host_reader.system_fences]: no variant 'system_fences' in the lesson"},
        {"stale = \"never\"", "stale = \"sometimes\"", "[host_reader.system_fence]: stale must be \"never\""},
        {"[host_reader]\n", "[host_readers]\n", "unknown table [host_readers]"},
        {"[host_reader.device_fence_to_host]\nstale = \"possible\"",
         "[host_reader.device_fence_to_host]\nstale = \"possible\"\n[host_reader.a.b]",
         "[host_reader.ID], got [host_reader.a.b]"},
    };
    for (const Case& c : cases) {
        const std::string e = error_with(c.from, c.to);
        EXPECT_TRUE(contains(e, c.error))
            << "replacing '" << c.from << "': got \"" << e << "\", expected \"" << c.error << "\"";
        EXPECT_TRUE(contains(e, "lesson.toml:")) << e;
    }
    // A buffer of another type: u32 is what the reader reads.
    const std::string typed = error_with("g_flag = \"buf:u32:32\"", "g_flag = \"buf:u64:32\"");
    EXPECT_TRUE(contains(typed, "flags 'g_flag' is a u64 buffer; the CPU reader reads u32 values")) << typed;
    // The variant tables need the main one.
    const std::string without_main =
        error_with("[host_reader]\nflags = \"g_flag\"\ndata = \"g_data\"\nseen = \"cpu_seen\"\n", "");
    EXPECT_TRUE(contains(without_main, "[host_reader.system_fence] needs a [host_reader] table"))
        << without_main;
}

// [SECTION] The simulator: said plainly, the stand-in's verdicts kept

TEST(HostReaderRunner, TheSimulatorSaysTheCpuReaderIsNotModelled) {
    const scenario::Scenario* s = scenario::find_scenario("fence_scope");
    ASSERT_NE(s, nullptr);
    runner::RunOptions o;
    o.reps = 3;
    o.seed = 1;
    for (const char* id : {"system_fence", "device_fence_to_host", "device_fence"}) {
        SCOPED_TRACE(id);
        const scenario::Variant* v = s->find_variant(id);
        ASSERT_NE(v, nullptr);
        const runner::RunSummary r = runner::run_scenario(*s, *v, o);
        EXPECT_FALSE(r.host_reader.has_value()); // nothing measured, nothing pretended
        const bool has_note = std::any_of(r.notes.begin(), r.notes.end(), [](const std::string& n) {
            return contains(n, "CPU reader: not modelled") &&
                   contains(n, "the simulator runs no CPU thread") && contains(n, "g_flag and g_data") &&
                   contains(n, "--backend gpu");
        });
        EXPECT_EQ(has_note, std::string(id) != "device_fence");
        // The two-block stand-in keeps the lesson's verdicts.
        const runner::VerdictCheck verdict = runner::check_expectation(v->expect, r, true);
        EXPECT_TRUE(verdict.pass) << (verdict.problems.empty() ? "" : verdict.problems.front());
    }
}

TEST(HostReaderRunner, WhatTheCpuSawIsCheckedAgainstTheVariant) {
    const scenario::Scenario* s = scenario::find_scenario("fence_scope");
    ASSERT_NE(s, nullptr);
    const runner::HostReaderJob never = runner::host_reader_job(*s, *s->find_variant("system_fence"));
    const runner::HostReaderJob possible =
        runner::host_reader_job(*s, *s->find_variant("device_fence_to_host"));
    gpu::HostReaderLaunch clean;
    clean.pairs = clean.seen = 2;
    clean.records = {1, 1, 1, 1};
    gpu::HostReaderLaunch stale = clean;
    stale.stale = 1;
    stale.records = {1, 0, 1, 1};

    runner::HostReaderSummary a;
    runner::add_launch(a, never, clean);
    runner::add_launch(a, never, stale);
    EXPECT_EQ(a.launches, 2u);
    EXPECT_EQ(a.pairs, 4u);
    EXPECT_EQ(a.stale, 1u);
    EXPECT_EQ(a.records.name, "cpu_seen");
    EXPECT_EQ(a.records.bytes.size(), 16u);
    EXPECT_EQ(a.records.bytes[4], 0u); // the stale launch's records are the ones kept
    const std::vector<std::string> problems = runner::check_host_reader(never, a);
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_TRUE(contains(problems[0], "stale data in 1 of 4 pairs, which this variant's fences forbid"))
        << problems[0];
    EXPECT_TRUE(runner::check_host_reader(possible, a).empty()); // allowed: any count
    const std::string note = runner::gpu_note(possible, a);
    EXPECT_TRUE(contains(note, "4 of 4 flags seen, 1 with stale data (25.00%; possible for this variant)"))
        << note;

    runner::HostReaderSummary none;
    EXPECT_FALSE(runner::check_host_reader(possible, none).empty()); // no launch: not a pass
    gpu::HostReaderLaunch hung = clean;
    hung.seen = 1;
    hung.gave_up = 1;
    hung.message =
        "the CPU reader gave up on 1 of 2 pairs (pair 1): their flag never changed before its deadline";
    runner::HostReaderSummary h;
    runner::add_launch(h, possible, hung);
    const std::vector<std::string> hp = runner::check_host_reader(possible, h);
    ASSERT_EQ(hp.size(), 1u);
    EXPECT_TRUE(contains(hp[0], "never saw 1 flags: launch 1: the CPU reader gave up")) << hp[0];
}

} // namespace
} // namespace synclab
