// `synclab` as a user runs it: commands, JSON fields, exit codes (0 ran, 2 usage, 3 input) and
// error messages that say what was wrong and where.
#include "trace/slt_file.h"

#include "cli_util.h"
#include <gtest/gtest.h>

#include <sstream>
#include <nlohmann/json.hpp>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sys/wait.h>
#include <unistd.h>

namespace {

using namespace synclab::testing::cli;

// "16,151", as messages write counts.
std::string grouped(uint64_t n) {
    std::string digits = std::to_string(n), out;
    for (size_t i = 0; i < digits.size(); ++i) {
        if (i != 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

TEST(Cli, ListNamesEveryScenarioAndVariant) {
    const Output o = run("list --json");
    ASSERT_EQ(o.code, 0) << o.out;
    const auto j = nlohmann::json::parse(o.out);
    std::set<std::string> ids;
    for (const auto& s : j)
        ids.insert(s["id"].get<std::string>());
    for (const char* id : {"stencil", "divergent_barrier", "loop_barrier", "lost_update"})
        EXPECT_TRUE(ids.count(id)) << id;
    const Output text = run("list");
    EXPECT_EQ(text.code, 0);
    EXPECT_TRUE(contains(text.out, "missing_barrier")) << text.out;
}

TEST(Cli, ListKeepsEveryVariantIdApartFromItsTitle) {
    // The longest ids (grid_sync's handmade_grid_barrier_oversubscribed) used to run into their
    // titles; and a title does not repeat its id.
    const Output o = run("list");
    ASSERT_EQ(o.code, 0);
    std::istringstream lines(o.out);
    std::string line;
    size_t rows = 0;
    while (std::getline(lines, line)) {
        if (line.rfind("    ", 0) != 0 || line.rfind("    --param", 0) == 0) continue;
        const std::string id = line.substr(4, line.find(' ', 4) - 4);
        ++rows;
        EXPECT_EQ(line.compare(4 + id.size(), 2, "  "), 0) << line;
        EXPECT_EQ(line.find(id + ":"), std::string::npos) << line;
    }
    EXPECT_GT(rows, 40u);
    EXPECT_TRUE(contains(o.out, "    handmade_grid_barrier_oversubscribed  a counter and a spin")) << o.out;
}

TEST(Cli, RunJsonHasTheContractFields) {
    const Output o =
        run("run stencil --variant missing_barrier --schedule adversarial --seed 3 --reps 2 --json");
    ASSERT_EQ(o.code, 0) << o.out;
    const auto j = nlohmann::json::parse(o.out);
    for (const char* field : {"scenario", "variant", "backend", "schedule", "seed", "memory_model", "reps",
                              "status", "wrong_outputs", "checked_outputs", "reps_with_wrong_outputs",
                              "findings", "events", "thread_instructions", "elapsed_ms"})
        EXPECT_TRUE(j.contains(field)) << "missing field " << field;
    EXPECT_EQ(j["scenario"], "stencil");
    EXPECT_EQ(j["variant"], "missing_barrier");
    EXPECT_EQ(j["backend"], "sim");
    EXPECT_EQ(j["schedule"], "adversarial");
    EXPECT_EQ(j["seed"], 3);
    EXPECT_EQ(j["memory_model"], "sc");
    EXPECT_EQ(j["warp_model"], "its");
    EXPECT_EQ(j["warp_splits"], true); // its under the adversarial schedule
    EXPECT_EQ(j["reps"], 2);
    EXPECT_EQ(j["status"], "ok");
    EXPECT_GT(j["wrong_outputs"].get<uint64_t>(), 0u);
    ASSERT_FALSE(j["findings"].empty());
    const auto& f = j["findings"][0];
    for (const char* field :
         {"kind", "hazard", "space", "lines", "ptx_lines", "threads", "count", "harmful", "runs"})
        EXPECT_TRUE(f.contains(field)) << field;
    EXPECT_EQ(f["kind"], "race");
    EXPECT_EQ(f["space"], "shared");
    EXPECT_EQ(f["lines"].size(), 2u);
    EXPECT_TRUE(f["ptx_lines"].empty()) << "every site of the stencil has a CUDA line";
    // The most harmful first: a neighbour load that ran before the neighbour's store.
    EXPECT_EQ(f["hazard"], "WAR") << f;
    const uint64_t count = f["count"].get<uint64_t>(), harmful = f["harmful"].get<uint64_t>();
    EXPECT_GT(harmful, 0u) << f;
    EXPECT_LE(harmful, count);
    for (const auto& other : j["findings"])
        EXPECT_LE(other["harmful"].get<uint64_t>(), harmful) << other;
    // Merged over the two repetitions: the message states the merged counts.
    EXPECT_EQ(f["runs"], 2);
    std::string counts =
        "(" + grouped(harmful) + (harmful == 1 ? " load" : " loads") + " read the old value in 2 runs";
    if (count > harmful)
        counts += "; " + grouped(count - harmful) + " more racing access pair" +
                  (count - harmful == 1 ? " was" : "s were") + " right by luck";
    EXPECT_TRUE(contains(f["message"].get<std::string>(), counts + ")"))
        << f["message"] << "\nexpected " << counts;
    ASSERT_TRUE(j.contains("coverage"));
    EXPECT_EQ(j["coverage"]["analysed"], j["coverage"]["blocks"]);
    EXPECT_TRUE(contains(j["coverage"]["summary"].get<std::string>(), "analysed all")) << j["coverage"];
}

// The text output lists the harmful findings first and says how many pairs did harm.
TEST(Cli, RunJsonSaysWhetherTheScheduleSplitsWarps) {
    // Only its under random or adversarial runs some lanes of a warp ahead; rr, exhaustive and
    // lockstep keep a warp's lanes together.
    const std::pair<const char*, bool> cases[] = {
        {"--schedule random", true},
        {"--schedule rr", false},
        {"--schedule random --warp-model lockstep", false},
        {"--schedule exhaustive --max-executions 2", false},
    };
    for (const auto& [options, splits] : cases) {
        const Output o = run(std::string("run warp_neighbour --variant syncwarp --json ") + options);
        ASSERT_EQ(o.code, 0) << options << "\n" << o.out;
        EXPECT_EQ(nlohmann::json::parse(o.out)["warp_splits"], splits) << options;
    }
}

TEST(Cli, RunTextListsTheHarmfulFindingFirst) {
    const Output o = run("run stencil --variant missing_barrier");
    ASSERT_EQ(o.code, 0) << o.out;
    const size_t at = o.out.find("findings: ");
    ASSERT_NE(at, std::string::npos) << o.out;
    const size_t first = o.out.find('\n', at) + 1;
    const std::string line = o.out.substr(first, o.out.find('\n', first) - first);
    EXPECT_TRUE(contains(line, "  race WAR (shared, lines ")) << line;
    EXPECT_TRUE(contains(line, ", harmful ")) << line;
    EXPECT_TRUE(contains(line, " loads read the old value in this run")) << line;
    EXPECT_TRUE(contains(o.out, "none did harm in this run; ")) << "the RAW findings, last\n" << o.out;
}

TEST(Cli, RunCorrectVariantHasNoFindings) {
    const Output o = run("run stencil --variant correct --schedule random --seed 5 --json");
    ASSERT_EQ(o.code, 0) << o.out;
    const auto j = nlohmann::json::parse(o.out);
    EXPECT_TRUE(j["findings"].empty());
    EXPECT_EQ(j["wrong_outputs"], 0);
    EXPECT_GT(j["checked_outputs"].get<uint64_t>(), 0u);
}

TEST(Cli, UsageErrorsExitTwoAndSayWhatIsWrong) {
    struct Bad {
        std::string args, expect;
    };
    const Bad bad[] = {
        {"", "Usage"},
        {"frobnicate", "unknown command 'frobnicate'"},
        {"run nosuch --variant x", "unknown scenario 'nosuch'"},
        {"run stencil", "needs --variant (one of: correct, missing_barrier)"},
        {"run stencil --variant nope", "no variant 'nope'"},
        {"run stencil --variant correct --seed abc", "--seed must be a whole number, got 'abc'"},
        {"run stencil --variant correct --seed -4", "--seed must be a whole number"},
        {"run stencil --variant correct --reps 0", "--reps must be between 1"},
        {"run stencil --variant correct --schedule fifo", "--schedule must be rr, random, adversarial or exhaustive"},
        {"run stencil --variant correct --backend tpu", "--backend must be 'sim' or 'gpu'"},
        {"run stencil --variant correct --live", "--live needs --backend gpu"},
        {"run stencil --variant correct --colour", "unknown option --colour"},
        {"run stencil --variant correct --seed", "--seed needs a value"},
        {"run stencil --variant correct --seed 1 --seed 2", "given twice"},
        {"list extra", "takes no arguments"},
        {"export x.slt", "needs --chrome"},
        {"check " + data("user_kernels.ptx") +
             " --kernel scale --grid 1 --block 32 --arg buf:f33:4 --arg 1 --arg 4",
         "unknown element type 'f33'"},
        {"check " + data("user_kernels.ptx") + " --kernel scale --grid 1 --block 32 --arg buf:f32:4",
         "takes 3 parameters"},
        {"check " + data("user_kernels.ptx") + " --kernel nope --grid 1 --block 32", "no kernel 'nope'"},
        {"check " + data("user_kernels.ptx") +
             " --kernel scale --grid 1,0 --block 32 --arg buf:f32:4 --arg 1 --arg 4",
         "--grid must be between 1"},
        {"check " + data("user_kernels.ptx") + " --kernel scale --block 32", "needs --grid"},
    };
    for (const Bad& b : bad) {
        const Output o = run(b.args);
        EXPECT_EQ(o.code, 2) << "synclab " << b.args << "\n" << o.out;
        EXPECT_TRUE(contains(o.out, b.expect))
            << "synclab " << b.args << "\nexpected: " << b.expect << "\ngot: " << o.out;
    }
}

TEST(Cli, SaveReportAndExportATrace) {
    const std::string slt = temp("stencil.slt");
    const std::string json = temp("stencil.json");
    Output o = run("run stencil --variant missing_barrier --schedule adversarial --out " + slt);
    ASSERT_EQ(o.code, 0) << o.out;
    ASSERT_TRUE(std::filesystem::exists(slt));
    o = run("report " + slt);
    ASSERT_EQ(o.code, 0) << o.out;
    EXPECT_TRUE(contains(o.out, "hazard on __shared__ memory")) << o.out;
    EXPECT_TRUE(contains(o.out, " harmful)")) << o.out;
    EXPECT_TRUE(contains(o.out, "stencil.cu:")) << o.out;
    EXPECT_TRUE(contains(o.out, "SUMMARY")) << o.out;
    o = run("export " + slt + " --chrome " + json);
    ASSERT_EQ(o.code, 0) << o.out;
    std::ifstream in(json);
    const auto j = nlohmann::json::parse(in);
    EXPECT_FALSE(j["traceEvents"].empty());
}

// A trace whose blocks lost events (as a traced GPU run with a full buffer marks them): the report
// rests no finding on them and says which blocks it analysed and why.
TEST(Cli, ReportSaysWhichBlocksItAnalysed) {
    const std::string slt = temp("stencil_partial.slt");
    ASSERT_EQ(run("run stencil --variant missing_barrier --schedule adversarial --out " + slt).code, 0);
    synclab::trace::Trace t = synclab::trace::load_trace(slt);
    const uint64_t blocks = t.meta.grid.count();
    ASSERT_GT(blocks, 1u);
    t.block_history.assign(blocks, synclab::trace::BlockHistory::Partial);
    t.block_history[0] = synclab::trace::BlockHistory::Whole;
    t.meta.dropped_events = 1000;
    synclab::trace::save_trace(t, slt);
    Output o = run("report " + slt);
    ASSERT_EQ(o.code, 0) << o.out;
    EXPECT_TRUE(contains(o.out, "Coverage: analysed 1 of " + std::to_string(blocks) + " blocks: blocks 1-" +
                                    std::to_string(blocks - 1) + " lost events (the trace buffer was full)"))
        << o.out;
    EXPECT_TRUE(contains(o.out, "by block 0 thread")) << "block 0 is whole: its race is reported\n" << o.out;
    EXPECT_FALSE(contains(o.out, "by block 1 thread")) << o.out;

    t.block_history[0] = synclab::trace::BlockHistory::Partial;
    synclab::trace::save_trace(t, slt);
    o = run("report " + slt);
    ASSERT_EQ(o.code, 0) << o.out;
    EXPECT_TRUE(contains(o.out, "SUMMARY: 0 errors")) << o.out;
}

TEST(Cli, DamagedOrMissingInputsExitThree) {
    const std::string slt = temp("broken.slt");
    ASSERT_EQ(run("run lost_update --variant plain_increment --out " + slt).code, 0);
    // Cut the file in half: the loader must say it is truncated, not crash.
    const auto size = std::filesystem::file_size(slt);
    std::filesystem::resize_file(slt, size / 2);
    Output o = run("report " + slt);
    EXPECT_EQ(o.code, 3) << o.out;
    EXPECT_TRUE(contains(o.out, "broken.slt")) << o.out;
    o = run("report /nonexistent/x.slt");
    EXPECT_EQ(o.code, 3) << o.out;
    o = run("report " + data("user_kernels.cu"));
    EXPECT_EQ(o.code, 3) << o.out;
    EXPECT_TRUE(contains(o.out, "not a SyncLab trace")) << o.out;
    // Unsupported or malformed PTX names the line.
    const std::string bad_ptx = temp("bad.ptx");
    std::ofstream(bad_ptx) << ".version 9.0\n.target sm_75\n.address_size 64\n.visible .entry k()\n{\n  "
                              "frobnicate.u32 %r1;\n  ret;\n}\n";
    o = run("check " + bad_ptx + " --kernel k --grid 1 --block 1");
    EXPECT_EQ(o.code, 3) << o.out;
    EXPECT_TRUE(contains(o.out, "bad.ptx:6")) << o.out;
    o = run("check /nonexistent/k.ptx --kernel k --grid 1 --block 1");
    EXPECT_EQ(o.code, 3) << o.out;
    EXPECT_TRUE(contains(o.out, "cannot open")) << o.out;
}

TEST(Cli, CheckFindsTheRaceInAKernelItHasNeverSeen) {
    const std::string base = "check " + data("user_kernels.ptx") +
                             " --grid 2 --block 128 --arg buf:i32:256:iota --arg buf:i32:256 --json";
    Output o = run(base + " --kernel reverse_no_sync --schedule adversarial");
    ASSERT_EQ(o.code, 0) << o.out;
    auto j = nlohmann::json::parse(o.out);
    ASSERT_FALSE(j["findings"].empty()) << o.out;
    // The harmful one first: a load of the mirrored slot (line 11) before its store (line 10).
    EXPECT_EQ(j["findings"][0]["kind"], "race");
    EXPECT_EQ(j["findings"][0]["hazard"], "WAR");
    EXPECT_EQ(j["findings"][0]["lines"], nlohmann::json::array({11, 10}));
    EXPECT_GT(j["findings"][0]["harmful"].get<uint64_t>(), 0u) << o.out;
    o = run(base + " --kernel reverse_sync --schedule adversarial");
    ASSERT_EQ(o.code, 0) << o.out;
    j = nlohmann::json::parse(o.out);
    EXPECT_TRUE(j["findings"].empty()) << o.out;
}

TEST(Cli, CheckBindsScalarsAndDumpsBuffers) {
    const Output o =
        run("check " + data("user_kernels.ptx") +
            " --kernel scale --grid 1 --block 32 --arg buf:f32:20:iota --arg 2.5 --arg 20 --dump arg0");
    ASSERT_EQ(o.code, 0) << o.out;
    EXPECT_TRUE(contains(o.out, "[0] 0 2.5 5 7.5 10 12.5 15 17.5")) << o.out;
    EXPECT_TRUE(contains(o.out, "[16] 40 42.5 45 47.5")) << o.out;
}

TEST(Cli, CheckCompilesCudaSourceWhenNvccExists) {
    if (!std::filesystem::exists("/usr/local/cuda/bin/nvcc")) GTEST_SKIP() << "no nvcc on this machine";
    // A file name with a space and a quote: nvcc is run without a shell, so it reaches nvcc intact.
    const std::string odd = temp("it's a kernel.cu");
    std::filesystem::copy_file(data("user_kernels.cu"), odd,
                               std::filesystem::copy_options::overwrite_existing);
    const Output o = run("check \"" + odd +
                         "\" --kernel reverse_no_sync --grid 1 --block 128 --arg buf:i32:128:random "
                         "--arg buf:i32:128 --schedule adversarial --json");
    ASSERT_EQ(o.code, 0) << o.out;
    const auto j = nlohmann::json::parse(o.out);
    ASSERT_FALSE(j["findings"].empty()) << o.out;
    EXPECT_EQ(j["findings"][0]["kind"], "race");
}

// [SECTION] Outcome histograms: a message-passing litmus test of our own (tests/cli/data/mp_litmus.cu,
// its PTX beside it): thread 0 writes data then flag, thread 32 reads flag then data, and each block
// records (flag, data) in arg2.

std::string mp(const std::string& kernel, uint32_t blocks) {
    const std::string n = std::to_string(blocks);
    return "check " + data("mp_litmus.ptx") + " --kernel " + kernel + " --grid " + n +
           " --block 64 --arg buf:u32:" + n + " --arg buf:u32:" + n + " --arg buf:u32:" + std::to_string(2 * blocks);
}

std::set<std::string> keys_of(const nlohmann::json& object) {
    std::set<std::string> out;
    for (const auto& [key, value] : object.items())
        out.insert(key);
    return out;
}

TEST(CliHistogram, ExhaustiveScPrintsExactlyTheOutcomesTheModelAllows) {
    const Output o = run(mp("mp_no_fence", 1) + " --memory sc --schedule exhaustive --histogram arg2 --per 2 --json");
    ASSERT_EQ(o.code, 0) << o.out;
    const auto j = nlohmann::json::parse(o.out);
    EXPECT_EQ(j["status"], "ok") << o.out;
    EXPECT_EQ(j["memory_model"], "sc");
    EXPECT_EQ(j["schedule"], "exhaustive");
    // Sequential consistency: never the flag without the data ("1,0").
    EXPECT_EQ(keys_of(j["histogram"]), (std::set<std::string>{"0,0", "0,1", "1,1"})) << j["histogram"].dump();
    const auto& d = j["histogram_details"];
    EXPECT_EQ(d["buffer"], "g_seen") << "the buffer named as the kernel's source (beside the .ptx) names it";
    EXPECT_EQ(d["per"], 2);
    EXPECT_EQ(d["every_execution"], true);
    EXPECT_EQ(j["exploration"]["complete"], true);
    const uint64_t executions = j["exploration"]["executions"].get<uint64_t>();
    EXPECT_EQ(d["records"].get<uint64_t>(), executions);
    uint64_t total = 0;
    for (const auto& c : d["outcomes"]) {
        total += c["count"].get<uint64_t>();
        EXPECT_TRUE(c.contains("choices")) << c.dump(); // the execution that gave it, to replay
        EXPECT_EQ(j["histogram"][c["outcome"].get<std::string>()], c["count"]);
    }
    EXPECT_EQ(total, executions);

    const Output text = run(mp("mp_no_fence", 1) + " --memory sc --schedule exhaustive --histogram arg2 --per 2");
    ASSERT_EQ(text.code, 0) << text.out;
    EXPECT_TRUE(contains(text.out, "allowed by the model (every execution: " + std::to_string(executions) + ")"))
        << text.out;
    EXPECT_TRUE(contains(text.out, "outcome")) << text.out;
    EXPECT_TRUE(contains(text.out, "percent")) << text.out;
    EXPECT_FALSE(contains(text.out, "1,0 ")) << text.out;
}

TEST(CliHistogram, RepsCountEveryRecordWithPercentages) {
    const Output o = run(mp("mp_no_fence", 4) + " --reps 40 --seed 3 --histogram arg2 --per 2 --json");
    ASSERT_EQ(o.code, 0) << o.out;
    const auto j = nlohmann::json::parse(o.out);
    const auto& d = j["histogram_details"];
    EXPECT_EQ(d["runs"], 40);
    EXPECT_EQ(d["records"], 160); // 40 runs x 4 blocks
    EXPECT_EQ(d["every_execution"], false);
    uint64_t total = 0;
    double percent = 0;
    uint64_t previous = UINT64_MAX;
    for (const auto& c : d["outcomes"]) {
        const uint64_t n = c["count"].get<uint64_t>();
        total += n;
        percent += c["percent"].get<double>();
        EXPECT_LE(n, previous) << "most frequent first";
        previous = n;
        const uint64_t seed = c["seed"].get<uint64_t>();
        EXPECT_GE(seed, 3u);
        EXPECT_LT(seed, 43u);
    }
    EXPECT_EQ(total, 160u);
    EXPECT_NEAR(percent, 100.0, 0.01);
    // The parameter's PTX name names the same buffer.
    const Output named = run(mp("mp_no_fence", 4) + " --reps 40 --seed 3 --histogram mp_no_fence_param_2 --per 2 --json");
    ASSERT_EQ(named.code, 0) << named.out;
    EXPECT_EQ(nlohmann::json::parse(named.out)["histogram"], j["histogram"]);
    // Text: one line per outcome with its count and percentage.
    const Output text = run(mp("mp_no_fence", 4) + " --reps 40 --seed 3 --histogram arg2 --per 2");
    ASSERT_EQ(text.code, 0) << text.out;
    EXPECT_TRUE(contains(text.out, "histogram of g_seen (records of 2 u32): 40 runs, 160 records"))
        << text.out;
    for (const auto& c : d["outcomes"])
        EXPECT_TRUE(contains(text.out, c["outcome"].get<std::string>())) << text.out;
    EXPECT_TRUE(contains(text.out, "%")) << text.out;
}

TEST(CliHistogram, PastTheBoundTheRunSaysBudgetAndHowToRaiseIt) {
    const Output o = run(mp("mp_no_fence", 1) + " --schedule exhaustive --max-executions 2 --histogram arg2 --json");
    ASSERT_EQ(o.code, 0) << o.out;
    const auto j = nlohmann::json::parse(o.out);
    EXPECT_EQ(j["status"], "budget");
    EXPECT_TRUE(contains(j["message"].get<std::string>(), "--max-executions N")) << j["message"];
    EXPECT_EQ(j["exploration"]["complete"], false);
    EXPECT_EQ(j["exploration"]["executions"], 2);
    EXPECT_EQ(j["histogram_details"]["every_execution"], false);
}

TEST(CliHistogram, RunCountsALessonsBuffer) {
    const Output o = run("run stencil --variant missing_barrier --reps 2 --histogram g_out --per 4096 --json");
    ASSERT_EQ(o.code, 0) << o.out;
    const auto j = nlohmann::json::parse(o.out);
    EXPECT_EQ(j["histogram_details"]["buffer"], "g_out");
    EXPECT_EQ(j["histogram_details"]["type"], "f32");
    EXPECT_EQ(j["histogram_details"]["records"], 8); // 16384 elements in records of 4096, twice
}

TEST(CliHistogram, WrongArgumentsAreUsageErrors) {
    struct Bad {
        std::string args, expect;
    };
    const std::string scale = "check " + data("user_kernels.ptx") +
                              " --kernel scale --grid 1 --block 32 --arg buf:f32:4 --arg 1 --arg 4";
    const Bad bad[] = {
        {scale + " --histogram arg1", "--histogram arg1: parameter scale_param_1 is a scalar"},
        {scale + " --histogram arg7", "--histogram arg7: no parameter of that name"},
        {scale + " --per 2", "--per N cuts the --histogram buffer into records: it needs --histogram BUFFER"},
        {scale + " --histogram arg0 --per 3",
         "records of 3 elements do not divide buffer 'g_data' (4 elements)"},
        {scale + " --memory weak", "--memory must be sc or relaxed, got 'weak'"},
        {scale + " --memory sc --backend gpu", "--memory picks the simulator's memory model"},
        {scale + " --schedule exhaustive --backend gpu", "--schedule exhaustive enumerates the simulator's"},
        {scale + " --schedule exhaustive --reps 3", "--reps does not go with --schedule exhaustive"},
        {scale + " --max-executions 5", "--max-executions bounds --schedule exhaustive"},
        {scale + " --schedule exhaustive --max-executions 0", "--max-executions must be between 1"},
        {"run stencil --variant correct --histogram g_nope",
         "--histogram g_nope: lesson stencil has no buffer of that name (buffers: g_in, g_out)"},
        {"run stencil --variant correct --memory tso", "--memory must be sc or relaxed"},
        {"table --memory tso", "--memory must be sc or relaxed"},
        {"table --backend gpu --memory sc", "--memory picks the simulator's memory model"},
    };
    for (const Bad& b : bad) {
        const Output o = run(b.args);
        EXPECT_EQ(o.code, 2) << "synclab " << b.args << "\n" << o.out;
        EXPECT_TRUE(contains(o.out, b.expect))
            << "synclab " << b.args << "\nexpected: " << b.expect << "\ngot: " << o.out;
    }
}

TEST(CliHistogram, UsageNamesTheNewOptions) {
    const Output o = run("help");
    ASSERT_EQ(o.code, 0);
    for (const char* option : {"--memory sc|relaxed", "exhaustive", "--max-executions N", "--histogram BUFFER",
                               "--per N"})
        EXPECT_TRUE(contains(o.out, option)) << option;
}

// The same litmus test under the relaxed model: without fences the reader may see the flag and still
// the old data ("1,0": PTX orders nothing between two relaxed accesses to different addresses);
// __threadfence() on both sides (fence.sc.gpu, a release and an acquire pattern) forbids it
// (PTX ISA, Memory Consistency Model: "Causality order"). Exhaustive gives the model's whole set;
// random and adversarial runs show the weak outcome too.
TEST(CliHistogram, RelaxedMessagePassingAllowsTheWeakOutcomeOnlyWithoutFences) {
    const std::string exhaustive = " --memory relaxed --schedule exhaustive --histogram arg2 --per 2 --json";
    const Output weak = run(mp("mp_no_fence", 1) + exhaustive);
    ASSERT_EQ(weak.code, 0) << weak.out;
    const auto w = nlohmann::json::parse(weak.out);
    EXPECT_EQ(w["memory_model"], "relaxed");
    EXPECT_EQ(w["status"], "ok") << w["message"];
    EXPECT_EQ(keys_of(w["histogram"]), (std::set<std::string>{"0,0", "0,1", "1,0", "1,1"})) << w["histogram"].dump();
    const Output fenced = run(mp("mp_fences", 1) + exhaustive);
    ASSERT_EQ(fenced.code, 0) << fenced.out;
    const auto f = nlohmann::json::parse(fenced.out);
    EXPECT_EQ(f["status"], "ok") << f["message"];
    EXPECT_EQ(keys_of(f["histogram"]), (std::set<std::string>{"0,0", "0,1", "1,1"})) << f["histogram"].dump();
    for (const char* schedule : {"random", "adversarial"}) {
        const Output sampled = run(mp("mp_no_fence", 64) + " --memory relaxed --schedule " + schedule +
                                   " --reps 20 --histogram arg2 --per 2 --json");
        ASSERT_EQ(sampled.code, 0) << sampled.out;
        const auto j = nlohmann::json::parse(sampled.out);
        EXPECT_TRUE(j["histogram"].contains("1,0")) << schedule << ": " << j["histogram"].dump();
        const Output sampled_fenced = run(mp("mp_fences", 64) + " --memory relaxed --schedule " + schedule +
                                          " --reps 20 --histogram arg2 --per 2 --json");
        ASSERT_EQ(sampled_fenced.code, 0) << sampled_fenced.out;
        EXPECT_FALSE(nlohmann::json::parse(sampled_fenced.out)["histogram"].contains("1,0")) << schedule;
    }
}

TEST(CliHistogram, ALitmusTestInCudaThroughNvcc) {
    if (!std::filesystem::exists("/usr/local/cuda/bin/nvcc")) GTEST_SKIP() << "no nvcc on this machine";
    const Output o = run("check " + data("mp_litmus.cu") +
                         " --kernel mp_fences --grid 1 --block 64 --arg buf:u32:1 --arg buf:u32:1 --arg buf:u32:2"
                         " --memory sc --schedule exhaustive --histogram arg2 --per 2 --json");
    ASSERT_EQ(o.code, 0) << o.out;
    const auto j = nlohmann::json::parse(o.out);
    EXPECT_EQ(keys_of(j["histogram"]), (std::set<std::string>{"0,0", "0,1", "1,1"})) << j["histogram"].dump();
}

// [SECTION] Lesson parameters: --param NAME=CHOICE

TEST(CliParams, RunAppliesTheChoiceAndSaysIt) {
    const Output o = run("run atomic_counter --variant warp_shuffle --param threads=2048 --json");
    ASSERT_EQ(o.code, 0) << o.out;
    const auto j = nlohmann::json::parse(o.out);
    EXPECT_EQ(j["params"]["threads"], "2048") << o.out;
    EXPECT_EQ(j["checked_outputs"], 2048 + 2) << o.out;
    EXPECT_EQ(j["wrong_outputs"], 0) << o.out;
    const Output text = run("run histogram --variant global_atomics --param input=skewed");
    ASSERT_EQ(text.code, 0) << text.out;
    EXPECT_TRUE(contains(text.out, "parameters: input=skewed (uniform, skewed)")) << text.out;
    // Without --param, the default choice, said the same way.
    const Output plain = run("run histogram --variant global_atomics");
    EXPECT_TRUE(contains(plain.out, "parameters: input=uniform")) << plain.out;
}

TEST(CliParams, WrongParamsAreUsageErrors) {
    struct Bad {
        std::string args, expect;
    };
    const Bad bad[] = {
        {"run histogram --variant global_atomics --param input=skew",
         "parameter 'input' has no choice 'skew' (choices: uniform, skewed)"},
        {"run histogram --variant global_atomics --param k=1",
         "lesson histogram has no parameter 'k' (parameters: input, items)"},
        {"run stencil --variant correct --param k=1", "lesson stencil has no parameter 'k' (parameters: none)"},
        {"run histogram --variant global_atomics --param input", "expected NAME=CHOICE"},
        {"run histogram --variant global_atomics --param input=skewed --param input=uniform",
         "parameter 'input' is given twice"},
        {"run histogram --variant global_atomics --param", "--param needs a value"},
        {"table --param zz=1", "no lesson has a parameter 'zz'"},
        {"table --param items=7", "--param items=7: no lesson's parameter 'items' offers '7' (histogram: 16384, 1048576)"},
        {"show", "'show' needs exactly one SCENARIO"},
        {"show nosuch", "unknown scenario 'nosuch'"},
    };
    for (const Bad& b : bad) {
        const Output o = run(b.args);
        EXPECT_EQ(o.code, 2) << "synclab " << b.args << "\n" << o.out;
        EXPECT_TRUE(contains(o.out, b.expect))
            << "synclab " << b.args << "\nexpected: " << b.expect << "\ngot: " << o.out;
    }
}

TEST(CliParams, ListAndShowSayTheParameters) {
    const Output text = run("list");
    ASSERT_EQ(text.code, 0) << text.out;
    EXPECT_TRUE(contains(text.out, "--param threads=16384  (2048, 16384, 1048576)")) << text.out;
    const auto j = nlohmann::json::parse(run("list --json").out);
    bool found = false;
    for (const auto& s : j)
        if (s["id"] == "histogram") {
            ASSERT_EQ(s["params"].size(), 2u);
            EXPECT_EQ(s["params"][0]["name"], "input");
            EXPECT_EQ(s["params"][1]["name"], "items");
            EXPECT_EQ(s["params"][0]["default"], "uniform");
            EXPECT_EQ(s["params"][0]["choices"], nlohmann::json::array({"uniform", "skewed"}));
            found = true;
        }
    EXPECT_TRUE(found);
    const Output show = run("show cas_loop");
    ASSERT_EQ(show.code, 0) << show.out;
    EXPECT_TRUE(contains(show.out, "--param input=CHOICE  choices: one_nan, finite (default one_nan)")) << show.out;
    EXPECT_TRUE(contains(show.out, "float_compare_nan")) << show.out;
    EXPECT_TRUE(contains(show.out, "status budget")) << show.out;
}

TEST(CliParams, TableTakesAChoiceForEveryLessonThatHasIt) {
    const Output o = run("table --seeds 1 --param input=skewed --json");
    ASSERT_EQ(o.code, 0) << o.out;
    uint32_t skewed = 0;
    for (const auto& row : nlohmann::json::parse(o.out)) {
        if (row["scenario"] == "histogram") {
            EXPECT_EQ(row["params"]["input"], "skewed");
            EXPECT_TRUE(row["as_expected"].get<bool>()) << row.dump();
            ++skewed;
        }
        // cas_loop's `input` has no choice 'skewed': it keeps its default.
        if (row["scenario"] == "cas_loop") {
            EXPECT_EQ(row["params"]["input"], "one_nan");
        }
    }
    EXPECT_EQ(skewed, 3u);
}

// The NaN spin's budget message names the loop's CUDA line, as the lesson text says it will.
TEST(CliParams, TheNanSpinSaysWhereItSpins) {
    const Output o = run("run cas_loop --variant float_compare_nan --schedule rr");
    ASSERT_EQ(o.code, 0) << o.out;
    EXPECT_TRUE(contains(o.out, "status:   budget")) << o.out;
    EXPECT_TRUE(contains(o.out, "threads were still running")) << o.out;
    EXPECT_TRUE(contains(o.out, "cas_loop.cu:")) << o.out;
    const Output finite = run("run cas_loop --variant float_compare_nan --param input=finite");
    EXPECT_TRUE(contains(finite.out, "status:   ok")) << finite.out;
}

TEST(Cli, TableRunsEveryVariantAsItsLessonSays) {
    const Output o = run("table --seeds 2");
    ASSERT_EQ(o.code, 0) << o.out;
    EXPECT_TRUE(contains(o.out, "every variant behaved as its lesson says")) << o.out;
    EXPECT_FALSE(contains(o.out, "UNEXPECTED")) << o.out;
}

} // namespace
