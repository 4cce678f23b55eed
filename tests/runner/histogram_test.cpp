// Outcome histograms through the runner (runner.h: RunOptions::histogram, schedule exhaustive,
// memory): counting records, the run each outcome keeps (its seed or its exhaustive choices replay
// it), the exhaustive outcome set of a message-passing litmus test under sc, the bound, and the
// requests the runner refuses before running anything.
#include "launch/launch.h"
#include "ptx/parser.h"
#include "runner/runner.h"
#include "scenario/scenario.h"

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <set>
#include <sstream>

namespace synclab {
namespace {

using runner::Histogram;
using runner::HistogramRequest;
using runner::RequestError;

launch::Buffer u32_buffer(const std::string& name, std::vector<uint32_t> values) {
    launch::Buffer b;
    b.name = name;
    b.bytes.resize(values.size() * 4);
    std::memcpy(b.bytes.data(), values.data(), b.bytes.size());
    return b;
}

Histogram histogram_of(const std::string& buffer, uint32_t per, uint32_t limit = 0) {
    Histogram h;
    h.request.buffer = buffer;
    h.request.per = per;
    h.request.limit = limit;
    return h;
}

const runner::OutcomeCount* find(const Histogram& h, const std::string& outcome) {
    for (const runner::OutcomeCount& c : h.outcomes)
        if (c.outcome == outcome) return &c;
    return nullptr;
}

std::set<std::string> outcome_set(const Histogram& h) {
    std::set<std::string> out;
    for (const runner::OutcomeCount& c : h.outcomes)
        out.insert(c.outcome);
    return out;
}

std::string joined(const std::set<std::string>& s) {
    std::string out;
    for (const std::string& x : s)
        out += (out.empty() ? "" : " | ") + x;
    return out;
}

TEST(CountOutcomes, RecordsOfPerElementsEachKeepTheirFirstRun) {
    Histogram h = histogram_of("seen", 2);
    const std::vector<launch::Buffer> first = {u32_buffer("other", {9}), u32_buffer("seen", {1, 0, 1, 1, 1, 0})};
    const std::vector<launch::Buffer> second = {u32_buffer("other", {9}), u32_buffer("seen", {0, 0, 1, 0, 1, 0})};
    runner::count_outcomes(h, first, 7, {});
    runner::count_outcomes(h, second, 8, {2, 1});
    runner::order_outcomes(h);
    EXPECT_EQ(h.runs, 2u);
    EXPECT_EQ(h.records, 6u);
    ASSERT_EQ(h.outcomes.size(), 3u);
    // "1,0" came four times, first in the run of seed 7; "0,0" only in seed 8's run.
    EXPECT_EQ(h.outcomes[0].outcome, "1,0");
    EXPECT_EQ(h.outcomes[0].count, 4u);
    EXPECT_EQ(h.outcomes[0].seed, 7u);
    const runner::OutcomeCount* zero = find(h, "0,0");
    ASSERT_NE(zero, nullptr);
    EXPECT_EQ(zero->count, 1u);
    EXPECT_EQ(zero->seed, 8u);
    EXPECT_EQ(zero->choices, (std::vector<uint32_t>{2, 1}));
    EXPECT_EQ(find(h, "1,1")->count, 1u);
}

TEST(CountOutcomes, WholeBufferAndLimit) {
    Histogram whole = histogram_of("b", 0);
    runner::count_outcomes(whole, {u32_buffer("b", {3, 4, 5})}, 1, {});
    ASSERT_EQ(whole.outcomes.size(), 1u);
    EXPECT_EQ(whole.outcomes[0].outcome, "3,4,5");
    EXPECT_EQ(whole.records, 1u);

    Histogram first = histogram_of("b", 1, 1); // the first element only
    runner::count_outcomes(first, {u32_buffer("b", {3, 4, 5})}, 1, {});
    ASSERT_EQ(first.outcomes.size(), 1u);
    EXPECT_EQ(first.outcomes[0].outcome, "3");
    EXPECT_EQ(first.records, 1u);
}

// With the buffer's right values (the run's check), a record that differs from them there counts as
// its outcome's `wrong` (a weak outcome); a check of part of the buffer says nothing.
TEST(CountOutcomes, RecordsThatDifferFromTheReferenceAreWrong) {
    Histogram h = histogram_of("b", 2);
    scenario::ExpectedOutput right{"b", launch::ElemType::U32, u32_buffer("b", {1, 1, 1, 1, 1, 1}).bytes};
    runner::count_outcomes(h, {u32_buffer("b", {1, 1, 1, 0, 1, 1})}, 1, {}, {right});
    EXPECT_EQ(find(h, "1,1")->wrong, 0u);
    EXPECT_EQ(find(h, "1,0")->wrong, 1u);
    // The same outcome is wrong where the reference says otherwise at that record.
    scenario::ExpectedOutput varies{"b", launch::ElemType::U32, u32_buffer("b", {1, 0, 2, 2, 1, 1}).bytes};
    Histogram v = histogram_of("b", 2);
    runner::count_outcomes(v, {u32_buffer("b", {1, 0, 1, 0, 1, 1})}, 1, {}, {varies});
    EXPECT_EQ(find(v, "1,0")->count, 2u);
    EXPECT_EQ(find(v, "1,0")->wrong, 1u);
    Histogram part = histogram_of("b", 2);
    scenario::ExpectedOutput first_only{"b", launch::ElemType::U32, u32_buffer("b", {9}).bytes};
    runner::count_outcomes(part, {u32_buffer("b", {1, 0})}, 1, {}, {first_only});
    EXPECT_EQ(find(part, "1,0")->wrong, 0u);
}

// message_passing/no_fence under relaxed: "flag seen, data stale" (1,0) comes out, and it is the
// weak outcome (the reference's records are all 1,1).
TEST(RunnerHistogram, TheStaleOutcomeOfMessagePassingIsWrong) {
    const scenario::Scenario& s = *scenario::find_scenario("message_passing");
    runner::RunOptions o;
    o.reps = 5;
    o.histogram.buffer = s.outcomes.buffer;
    o.histogram.per = s.outcomes.per;
    const runner::RunSummary r = runner::run_scenario(s, *s.find_variant("no_fence"), o);
    ASSERT_TRUE(r.histogram);
    const runner::OutcomeCount* stale = find(*r.histogram, "1,0");
    ASSERT_NE(stale, nullptr) << "no stale record in 5 runs";
    EXPECT_EQ(stale->wrong, stale->count);
    const runner::OutcomeCount* seen = find(*r.histogram, "1,1");
    ASSERT_NE(seen, nullptr);
    EXPECT_EQ(seen->wrong, 0u);
}

TEST(CountOutcomes, TiesAreOrderedByText) {
    Histogram h = histogram_of("b", 1);
    runner::count_outcomes(h, {u32_buffer("b", {2, 1, 3, 3})}, 1, {});
    runner::order_outcomes(h);
    ASSERT_EQ(h.outcomes.size(), 3u);
    EXPECT_EQ(h.outcomes[0].outcome, "3");
    EXPECT_EQ(h.outcomes[1].outcome, "1");
    EXPECT_EQ(h.outcomes[2].outcome, "2");
}

TEST(CountOutcomes, BadRequestsSayWhatIsWrong) {
    Histogram unknown = histogram_of("nope", 0);
    try {
        runner::count_outcomes(unknown, {u32_buffer("g_a", {1}), u32_buffer("g_b", {2})}, 1, {});
        FAIL() << "no error for an unknown buffer";
    } catch (const RequestError& e) {
        EXPECT_NE(std::string(e.what()).find("no buffer 'nope' (buffers: g_a, g_b)"), std::string::npos) << e.what();
    }
    Histogram uneven = histogram_of("b", 2);
    try {
        runner::count_outcomes(uneven, {u32_buffer("b", {1, 2, 3})}, 1, {});
        FAIL() << "no error for records that do not divide the buffer";
    } catch (const RequestError& e) {
        EXPECT_NE(std::string(e.what()).find("records of 2 elements do not divide buffer 'b' (3 elements)"),
                  std::string::npos)
            << e.what();
    }
}

// [SECTION] Through the runner: the message-passing litmus test of tests/cli/data (thread 0 writes
// data then flag, thread 32 reads flag then data, each block records (flag, data)).

struct Litmus {
    ptx::Module module;
    std::string ptx;
};

const Litmus& litmus() {
    static const Litmus l = [] {
        Litmus out;
        std::ifstream in(std::string(SYNCLAB_SOURCE_DIR) + "/tests/cli/data/mp_litmus.ptx");
        std::ostringstream text;
        text << in.rdbuf();
        out.ptx = text.str();
        out.module = ptx::parse_module(out.ptx, "mp_litmus.ptx");
        return out;
    }();
    return l;
}

runner::KernelJob mp_job(const char* kernel, uint32_t blocks) {
    runner::KernelJob job;
    job.module = &litmus().module;
    job.kernel = kernel;
    job.launch.grid = {blocks, 1, 1};
    job.launch.block = {64, 1, 1};
    job.make_inputs = [blocks](uint64_t) {
        launch::Inputs in;
        in.buffers = {u32_buffer("g_data", std::vector<uint32_t>(blocks, 0)),
                      u32_buffer("g_flag", std::vector<uint32_t>(blocks, 0)),
                      u32_buffer("g_seen", std::vector<uint32_t>(2 * blocks, 7))};
        in.args = {launch::KernelArg::pointer(0), launch::KernelArg::pointer(1), launch::KernelArg::pointer(2)};
        return in;
    };
    job.ptx_text = litmus().ptx;
    return job;
}

runner::RunOptions histogram_options(sim::Schedule schedule, uint32_t per) {
    runner::RunOptions o;
    o.schedule = schedule;
    o.memory = launch::MemoryModel::Sc;
    o.histogram.buffer = "g_seen";
    o.histogram.per = per;
    return o;
}

TEST(RunnerHistogram, ExhaustiveScGivesExactlyTheInterleavingsOutcomes) {
    const runner::RunOptions o = histogram_options(sim::Schedule::Exhaustive, 2);
    const runner::RunSummary s = runner::run_job(mp_job("mp_no_fence", 1), o);
    ASSERT_EQ(s.status, trace::RunStatus::Ok) << s.message;
    ASSERT_TRUE(s.exploration.ran);
    EXPECT_TRUE(s.exploration.complete);
    ASSERT_TRUE(s.histogram);
    // Under sc the reader sees (flag, data) = (0,0), (0,1) or (1,1); never flag without data.
    EXPECT_EQ(outcome_set(*s.histogram), (std::set<std::string>{"0,0", "0,1", "1,1"}))
        << joined(outcome_set(*s.histogram));
    // One outcome per execution, every execution counted and checked like a repetition.
    EXPECT_EQ(s.histogram->runs, s.exploration.executions);
    EXPECT_EQ(s.histogram->records, s.exploration.executions);
    EXPECT_EQ(s.reps_run, s.exploration.executions);
    EXPECT_GE(s.exploration.executions, 3u);
    EXPECT_EQ(s.memory, launch::MemoryModel::Sc);
}

// Under both models (the relaxed one also chooses which write a load reads and where a store goes).
TEST(RunnerHistogram, EachExhaustiveOutcomeReplaysFromItsChoices) {
    for (const launch::MemoryModel memory : {launch::MemoryModel::Sc, launch::MemoryModel::Relaxed}) {
        SCOPED_TRACE(launch::to_string(memory));
        runner::RunOptions o = histogram_options(sim::Schedule::Exhaustive, 2);
        o.memory = memory;
        const runner::RunSummary s = runner::run_job(mp_job("mp_no_fence", 1), o);
        ASSERT_EQ(s.status, trace::RunStatus::Ok) << s.message;
        ASSERT_TRUE(s.histogram);
        for (const runner::OutcomeCount& c : s.histogram->outcomes) {
            runner::RunOptions replay = o;
            replay.replay = c.choices;
            const runner::RunSummary one = runner::run_job(mp_job("mp_no_fence", 1), replay);
            ASSERT_EQ(one.status, trace::RunStatus::Ok) << one.message;
            EXPECT_FALSE(one.exploration.ran);
            EXPECT_EQ(one.reps_run, 1u);
            ASSERT_TRUE(one.histogram);
            ASSERT_EQ(one.histogram->outcomes.size(), 1u);
            EXPECT_EQ(one.histogram->outcomes[0].outcome, c.outcome) << "the replay of " << c.outcome;
            EXPECT_FALSE(one.trace.events.empty()); // traced: it can be opened on the timeline
        }
    }
}

TEST(RunnerHistogram, PastTheBoundTheStatusIsBudgetAndNamesTheOption) {
    runner::RunOptions o = histogram_options(sim::Schedule::Exhaustive, 2);
    o.max_executions = 2;
    const runner::RunSummary s = runner::run_job(mp_job("mp_no_fence", 1), o);
    EXPECT_EQ(s.status, trace::RunStatus::Budget);
    EXPECT_FALSE(s.exploration.complete);
    EXPECT_EQ(s.exploration.executions, 2u);
    EXPECT_EQ(s.exploration.bound, 2u);
    EXPECT_NE(s.message.find("bound of 2 executions"), std::string::npos) << s.message;
    EXPECT_NE(s.message.find("--max-executions N"), std::string::npos) << s.message;
    ASSERT_TRUE(s.histogram);
    EXPECT_EQ(s.histogram->runs, 2u);
}

TEST(RunnerHistogram, RandomRunsCountEveryRecordAndKeepASeedThatReproducesIt) {
    const uint32_t blocks = 8, reps = 20;
    runner::RunOptions o = histogram_options(sim::Schedule::Random, 2);
    o.reps = reps;
    o.seed = 5;
    const runner::RunSummary s = runner::run_job(mp_job("mp_no_fence", blocks), o);
    ASSERT_EQ(s.status, trace::RunStatus::Ok) << s.message;
    ASSERT_TRUE(s.histogram);
    EXPECT_EQ(s.histogram->runs, reps);
    EXPECT_EQ(s.histogram->records, uint64_t(reps) * blocks);
    uint64_t total = 0;
    for (const runner::OutcomeCount& c : s.histogram->outcomes) {
        total += c.count;
        EXPECT_TRUE(c.outcome == "0,0" || c.outcome == "0,1" || c.outcome == "1,1") << "under sc: " << c.outcome;
        EXPECT_GE(c.seed, 5u);
        EXPECT_LT(c.seed, 5u + reps);
    }
    EXPECT_EQ(total, s.histogram->records);
    for (size_t i = 1; i < s.histogram->outcomes.size(); ++i)
        EXPECT_GE(s.histogram->outcomes[i - 1].count, s.histogram->outcomes[i].count) << "most frequent first";
    // The seed an outcome keeps gives that outcome again (the simulator is deterministic per seed).
    for (const runner::OutcomeCount& c : s.histogram->outcomes) {
        runner::RunOptions again = histogram_options(sim::Schedule::Random, 2);
        again.seed = c.seed;
        const runner::RunSummary one = runner::run_job(mp_job("mp_no_fence", blocks), again);
        ASSERT_TRUE(one.histogram);
        EXPECT_NE(find(*one.histogram, c.outcome), nullptr) << "seed " << c.seed << " did not give " << c.outcome;
    }
}

TEST(RunnerHistogram, TheMemoryOptionWinsOverTheJobsDefault) {
    runner::KernelJob job = mp_job("mp_fences", 1);
    runner::RunOptions o = histogram_options(sim::Schedule::Random, 2);
    o.memory.reset();
    EXPECT_EQ(runner::run_job(job, o).memory, launch::MemoryModel::Sc); // the job's default: sc
    job.memory = launch::MemoryModel::Relaxed;
    o.memory = launch::MemoryModel::Sc;
    const runner::RunSummary s = runner::run_job(job, o);
    EXPECT_EQ(s.status, trace::RunStatus::Ok) << s.message;
    EXPECT_EQ(s.memory, launch::MemoryModel::Sc);
}

TEST(RunnerHistogram, RequestsItCannotRunAreRefusedBeforeRunning) {
    const runner::KernelJob job = mp_job("mp_no_fence", 1);
    auto refused = [&](const runner::RunOptions& o, const std::string& words) {
        try {
            runner::run_job(job, o);
            ADD_FAILURE() << "no error; expected one saying: " << words;
        } catch (const RequestError& e) {
            EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
        }
    };
    runner::RunOptions gpu_exhaustive = histogram_options(sim::Schedule::Exhaustive, 2);
    gpu_exhaustive.backend = "gpu";
    gpu_exhaustive.memory.reset();
    refused(gpu_exhaustive, "needs backend sim");
    runner::RunOptions gpu_memory = histogram_options(sim::Schedule::Random, 2);
    gpu_memory.backend = "gpu";
    refused(gpu_memory, "the GPU has its own");
    runner::RunOptions unknown = histogram_options(sim::Schedule::Random, 2);
    unknown.histogram.buffer = "g_out";
    refused(unknown, "no buffer 'g_out' (buffers: g_data, g_flag, g_seen)");
    runner::RunOptions uneven = histogram_options(sim::Schedule::Random, 3);
    refused(uneven, "records of 3 elements do not divide buffer 'g_seen'");
}

TEST(RunnerHistogram, ALessonsBufferTypeComesFromItsDeclaration) {
    const scenario::Scenario& s = *scenario::find_scenario("stencil");
    runner::RunOptions o;
    o.schedule = sim::Schedule::Random;
    o.reps = 2;
    o.histogram.buffer = "g_out";
    o.histogram.per = 1;
    o.histogram.limit = 1;
    const runner::RunSummary r = runner::run_scenario(s, *s.find_variant("correct"), o);
    ASSERT_TRUE(r.histogram);
    EXPECT_EQ(r.histogram->request.type, launch::ElemType::F32);
    EXPECT_EQ(r.histogram->records, 2u);
    ASSERT_FALSE(r.histogram->outcomes.empty());
    // g_out[0] of the correct stencil is g_in[0] + g_in[1] (no left neighbour), written as a float.
    for (const runner::OutcomeCount& c : r.histogram->outcomes) {
        const scenario::Inputs in = s.make_inputs(c.seed);
        float g_in[2];
        for (const launch::Buffer& b : in.buffers)
            if (b.name == "g_in") std::memcpy(g_in, b.bytes.data(), sizeof g_in);
        const float sum = g_in[0] + g_in[1];
        std::vector<uint8_t> bytes(4);
        std::memcpy(bytes.data(), &sum, 4);
        EXPECT_EQ(c.outcome, launch::format_values(bytes, launch::ElemType::F32, 0, 1)) << "seed " << c.seed;
    }
}

} // namespace
} // namespace synclab
