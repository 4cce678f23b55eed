// `synclab` as a user runs it: commands, JSON fields, exit codes (0 ran, 2 usage, 3 input) and
// error messages that say what was wrong and where.
#include "trace/slt_file.h"

#include "common/run_command.h"
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sys/wait.h>
#include <unistd.h>

namespace {

using Output = synclab::testing::CommandOutput;

Output run(const std::string& args) {
    return synclab::testing::run_command(std::string(SYNCLAB_CLI) + " " + args);
}

std::string data(const std::string& name) {
    return std::string(SYNCLAB_SOURCE_DIR) + "/tests/cli/data/" + name;
}

std::string temp(const std::string& name) {
    const auto dir = std::filesystem::temp_directory_path() / ("synclab-cli-" + std::to_string(getpid()));
    std::filesystem::create_directories(dir);
    return (dir / name).string();
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

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
        {"run stencil --variant correct --schedule fifo", "--schedule must be rr, random or adversarial"},
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
    EXPECT_TRUE(contains(o.out, "in block 0")) << "block 0 is whole: its race is reported\n" << o.out;
    EXPECT_FALSE(contains(o.out, "in block 1:")) << o.out;

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

TEST(Cli, TableRunsEveryVariantAsItsLessonSays) {
    const Output o = run("table --seeds 2");
    ASSERT_EQ(o.code, 0) << o.out;
    EXPECT_TRUE(contains(o.out, "every variant behaved as its lesson says")) << o.out;
    EXPECT_FALSE(contains(o.out, "UNEXPECTED")) << o.out;
}

} // namespace
