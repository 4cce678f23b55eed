// Analysing as the run goes (analysis/streamed.h, trace/block_stream.h) gives the findings of the
// whole trace: every lesson variant under two schedules, and a tiled matrix product with and without
// its first barrier, with a window so small that finished blocks are handed over many times, and with
// one and with several worker threads.
#include "analysis/streamed.h"
#include "ptx/parser.h"
#include "runner/runner.h"
#include "scenario/scenario.h"
#include "sim/simulator.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace synclab::analysis {
namespace {

// Everything a finding says, so that two runs' findings compare as text.
std::vector<std::string> described(const std::vector<Finding>& findings) {
    std::vector<std::string> out;
    for (const Finding& f : findings)
        out.push_back(std::string(to_string(f.kind)) + " " + f.check + " count " + std::to_string(f.count) +
                      " harmful " + std::to_string(f.harmful) + ": " + f.message);
    return out;
}

struct LessonCase {
    const scenario::Scenario* scenario;
    const scenario::Variant* variant;
};

void PrintTo(const LessonCase& c, std::ostream* os) {
    *os << c.scenario->id << "/" << c.variant->id;
}

std::vector<LessonCase> lesson_cases() {
    std::vector<LessonCase> out;
    for (const scenario::Scenario& s : scenario::catalog())
        for (const scenario::Variant& v : s.variants)
            out.push_back({&s, &v});
    return out;
}

class StreamedLesson : public ::testing::TestWithParam<LessonCase> {};

TEST_P(StreamedLesson, SameFindingsAsTheWholeTrace) {
    const scenario::Scenario& s = *GetParam().scenario;
    const scenario::Variant& v = *GetParam().variant;
    for (const sim::Schedule schedule : {sim::Schedule::Random, sim::Schedule::Adversarial}) {
        runner::RunOptions whole;
        whole.schedule = schedule;
        whole.seed = 2;
        runner::RunOptions streamed = whole;
        streamed.analyse_as_it_runs = true;
        streamed.limits.stream_window_events = 256; // hand blocks over as often as they finish
        const runner::RunSummary a = runner::run_scenario(s, v, whole);
        const runner::RunSummary b = runner::run_scenario(s, v, streamed);
        EXPECT_EQ(a.status, b.status) << sim::to_string(schedule);
        EXPECT_EQ(a.events, b.events) << "the same run, however it was kept";
        EXPECT_EQ(a.analysed_and_dropped, 0u);
        EXPECT_EQ(described(a.findings), described(b.findings)) << sim::to_string(schedule);
    }
}

INSTANTIATE_TEST_SUITE_P(Lessons, StreamedLesson, ::testing::ValuesIn(lesson_cases()),
                         [](const ::testing::TestParamInfo<LessonCase>& info) {
                             std::string name = info.param.scenario->id + "_" + info.param.variant->id;
                             for (char& c : name)
                                 if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                             return name;
                         });

// The lessons' small grids stream too (a 256-event window): the test above would not see a
// difference if nothing were handed over.
TEST(Streamed, LessonsDoHandBlocksOver) {
    const scenario::Scenario* stencil = scenario::find_scenario("stencil");
    ASSERT_NE(stencil, nullptr);
    runner::RunOptions o;
    o.analyse_as_it_runs = true;
    o.limits.stream_window_events = 256;
    const runner::RunSummary r = runner::run_scenario(*stencil, *stencil->find_variant("missing_barrier"), o);
    EXPECT_GT(r.analysed_and_dropped, 0u);
    EXPECT_LT(r.trace.events.size(), r.events);
    EXPECT_FALSE(r.findings.empty());
}

std::string read_file(const std::string& path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

struct MatmulRun {
    std::vector<Finding> findings;
    sim::Result result;
    size_t kept_events = 0;
};

// tests/corpus/kernels/tiled_matmul(_racy): 16 x 16 tiles over a 6 x 4 grid of blocks (a corner of
// the 256 x 256 product), 4 blocks in flight, so that blocks finish while others run.
MatmulRun run_matmul(const std::string& file, StreamedAnalysis* stream, uint64_t window) {
    static std::map<std::string, ptx::Module> modules;
    auto it = modules.find(file);
    if (it == modules.end()) {
        const std::string path = std::string(SYNCLAB_SOURCE_DIR) + "/tests/corpus/kernels/" + file + ".ptx";
        it = modules.emplace(file, ptx::parse_module(read_file(path), path)).first;
    }
    std::vector<launch::Buffer> buffers(3);
    for (size_t b = 0; b < 3; ++b) {
        buffers[b].name = std::string(1, char('a' + b));
        buffers[b].bytes.assign(256 * 256 * 4, 0);
        for (size_t i = 0; b < 2 && i < buffers[b].bytes.size(); i += 4)
            buffers[b].bytes[i + 1] = uint8_t(i * 7 + b); // some float bits; values differ per element
    }
    std::vector<launch::KernelArg> args(3);
    for (uint32_t b = 0; b < 3; ++b) {
        args[b].kind = launch::KernelArg::Kind::Buffer;
        args[b].buffer = b;
    }
    launch::LaunchConfig config;
    config.grid = {6, 4, 1};
    config.block = {16, 16, 1};
    sim::Options o;
    o.schedule = sim::Schedule::Random;
    o.seed = 3;
    o.max_resident_blocks = 4;
    o.block_sink = stream;
    o.stream_window_events = window;
    trace::Trace trace;
    MatmulRun run;
    run.result = sim::simulate(it->second, "_Z12tiled_matmulPKfS0_Pf", config, buffers, args, o, &trace);
    Options options;
    if (stream) {
        stream->finish();
        options.streamed = stream;
    }
    run.findings = analyze(trace, options);
    run.kept_events = trace.events.size();
    return run;
}

TEST(Streamed, MatmulFindingsDoNotDependOnWorkersOrWindow) {
    for (const std::string file : {"tiled_matmul", "tiled_matmul_racy"}) {
        const MatmulRun whole = run_matmul(file, nullptr, 0);
        ASSERT_EQ(whole.result.status, trace::RunStatus::Ok) << whole.result.message;
        EXPECT_EQ(whole.result.dropped_events, 0u);
        if (file == "tiled_matmul")
            EXPECT_TRUE(whole.findings.empty()) << described(whole.findings)[0];
        else
            EXPECT_FALSE(whole.findings.empty());
        for (const unsigned workers : {1u, 3u})
            for (const uint64_t window : {uint64_t(20'000), uint64_t(200'000)}) {
                StreamedAnalysis stream(workers);
                const MatmulRun part = run_matmul(file, &stream, window);
                SCOPED_TRACE(file + " workers " + std::to_string(workers) + " window " + std::to_string(window));
                ASSERT_EQ(part.result.status, trace::RunStatus::Ok) << part.result.message;
                EXPECT_EQ(stream.blocks_taken(), part.result.streamed_blocks);
                EXPECT_GT(part.result.streamed_blocks, 8u);
                EXPECT_GT(part.result.dropped_events, whole.kept_events / 2);
                EXPECT_EQ(part.kept_events + part.result.dropped_events, whole.kept_events);
                EXPECT_EQ(described(part.findings), described(whole.findings));
            }
    }
}

// A batch's vector comes back once its analysis is done, empty and with its memory, for the next
// batch to be filled into (the simulator's hand-over and the GPU receiver ask for it); at most one
// is kept.
TEST(Streamed, ABatchsVectorIsGivenBackForTheNext) {
    StreamedAnalysis stream(1);
    EXPECT_TRUE(stream.spare_events().empty());
    trace::Trace recording;
    recording.meta.grid = {2, 1, 1};
    recording.meta.block = {32, 1, 1};
    for (uint32_t b = 0; b < 2; ++b) {
        trace::FinishedBlocks batch;
        batch.blocks = {b};
        batch.events.resize(1000);
        for (trace::Event& e : batch.events)
            e.thread = b * 32;
        stream.take(recording, std::move(batch));
    }
    stream.finish();
    std::vector<trace::Event> spare = stream.spare_events();
    EXPECT_TRUE(spare.empty());
    EXPECT_GE(spare.capacity(), 1000u);
    EXPECT_EQ(stream.spare_events().capacity(), 0u) << "a second one was kept";
    EXPECT_EQ(stream.blocks_taken(), 2u);
}

} // namespace
} // namespace synclab::analysis
