// Verdict tests: every variant of every lesson, on the simulator, over seeds 1-10 and every
// schedule, gives the verdict its lesson file promises (Relacy style: each case states what it
// expects). The lessons are the built-in ones and the data-only test lesson
// (tests/scenario/data/lessons), through the same code. Gold: variants whose wrong_outputs is
// "never" match their reference on every run.
#include "runner/runner.h"
#include "scenario/scenario.h"
#include "sim/simulator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <deque>
#include <regex>
#include <set>

namespace synclab {
namespace {

using analysis::FindingKind;

struct Case {
    const scenario::Scenario* scenario;
    const scenario::Variant* variant;
};

// The lessons loaded from the test data folder, kept for the whole run (the cases point into them).
const std::vector<scenario::Scenario>& data_lessons() {
    static const std::vector<scenario::Scenario> lessons =
        scenario::load_lessons(std::string(SYNCLAB_SOURCE_DIR) + "/tests/scenario/data/lessons");
    return lessons;
}

// A lesson with one parameter moved off its default ("histogram" with input=skewed), kept for the
// whole run. A variant that is always right must be right under every choice; the other variants'
// expectations are claimed for the defaults (a spin that waits for its NaN finishes without it).
// A size parameter's choices (`size = true`: up to a million threads) are ladder_order_test's, which
// runs them once each and checks their outputs: ten seeds of three schedules would take minutes.
const std::deque<scenario::Scenario>& param_lessons() {
    static const std::deque<scenario::Scenario> lessons = [] {
        std::deque<scenario::Scenario> out;
        for (const scenario::Scenario& s : scenario::catalog())
            for (const scenario::Param& p : s.params)
                for (uint32_t c = 0; c < p.choices.size() && !p.is_size; ++c)
                    if (c != p.default_choice) out.push_back(scenario::with_params(s, {{p.name, p.choices[c].name}}));
        return out;
    }();
    return lessons;
}

bool differs_from_default(const scenario::Scenario& s, const scenario::Param& p) {
    for (const auto& [name, choice] : s.chosen)
        if (name == p.name) return choice != p.choices[p.default_choice].name;
    return false;
}

std::vector<Case> all_cases() {
    std::vector<Case> cases;
    for (const auto* lessons : {&scenario::catalog(), &data_lessons()})
        for (const scenario::Scenario& s : *lessons)
            for (const scenario::Variant& v : s.variants)
                cases.push_back({&s, &v});
    for (const scenario::Scenario& s : param_lessons())
        for (const scenario::Variant& v : s.variants)
            if (v.expect.always_correct()) cases.push_back({&s, &v});
    return cases;
}

class Verdict : public ::testing::TestWithParam<Case> {};

bool has_kind(const runner::RunSummary& r, FindingKind kind) {
    const auto kinds = runner::finding_kinds(r);
    return std::find(kinds.begin(), kinds.end(), kind) != kinds.end();
}

TEST_P(Verdict, Seeds1To10EverySchedule) {
    const scenario::Scenario& s = *GetParam().scenario;
    const scenario::Variant& v = *GetParam().variant;
    const scenario::Expectation& e = v.expect;
    for (sim::Schedule schedule :
         {sim::Schedule::RoundRobin, sim::Schedule::Random, sim::Schedule::Adversarial}) {
        uint32_t seeds_with_wrong_outputs = 0;
        for (uint64_t seed = 1; seed <= 10; ++seed) {
            runner::RunOptions o;
            o.schedule = schedule;
            o.seed = seed;
            o.memory = s.memory; // the lesson's default (relaxed for the fence lessons), said explicitly
            const runner::RunSummary r = runner::run_scenario(s, v, o);
            const std::string where =
                s.id + "/" + v.id + " schedule " + sim::to_string(schedule) + " seed " + std::to_string(seed);
            ASSERT_EQ(r.status, e.status) << where << ": status " << trace::to_string(r.status)
                                          << ", expected " << trace::to_string(e.status) << ": " << r.message;
            for (FindingKind k : e.must_find)
                EXPECT_TRUE(has_kind(r, k))
                    << where << ": expected a '" << analysis::to_string(k) << "' finding";
            for (FindingKind k : e.must_not_find)
                EXPECT_FALSE(has_kind(r, k))
                    << where << ": unexpected '" << analysis::to_string(k)
                    << "' finding: " << (r.findings.empty() ? "" : r.findings.front().message);
            if (e.status == trace::RunStatus::Ok) {
                EXPECT_GT(r.checked_outputs, 0u)
                    << where << ": the reference checked nothing: " << r.check_summary;
            } else if (e.status == trace::RunStatus::Budget) {
                // A spin that never ends says where its threads run: the loop's CUDA line.
                EXPECT_NE(r.message.find("still running"), std::string::npos) << where << ": " << r.message;
                EXPECT_NE(r.message.find(s.source_file + ":"), std::string::npos) << where << ": " << r.message;
            } else {
                // A hang says who waits where, as the GPU's timeout diagnosis does.
                EXPECT_NE(r.message.find(" wait at "), std::string::npos) << where << ": " << r.message;
            }
            if (e.always_correct()) {
                EXPECT_EQ(r.wrong_outputs, 0u) << where << ": " << r.check_summary;
            }
            // The verdict code the CLI's table and the app's badges use agrees. One seed need not
            // show wrong outputs (false): the ten seeds together must, below.
            const runner::VerdictCheck verdict = runner::check_expectation(e, r, false);
            EXPECT_TRUE(verdict.pass)
                << where << ": " << (verdict.problems.empty() ? "" : verdict.problems.front());
            seeds_with_wrong_outputs += r.wrong_outputs > 0 ? 1 : 0;
            // One seed, one schedule, one trace: the same run twice gives the same events.
            if (seed == 1) {
                const runner::RunSummary again = runner::run_scenario(s, v, o);
                EXPECT_EQ(again.events, r.events) << where << ": not replayable";
                EXPECT_EQ(again.wrong_outputs, r.wrong_outputs) << where << ": not replayable";
            }
        }
        // Races show up as wrong outputs only when the schedule interleaves warps unluckily.
        if (e.wrong_outputs_possible() && schedule != sim::Schedule::RoundRobin) {
            EXPECT_GT(seeds_with_wrong_outputs, 0u) << s.id << "/" << v.id << ": no wrong outputs under "
                                                    << sim::to_string(schedule) << " in 10 seeds";
        }
    }
}

// The source lines a variant's lesson text names ("line 92" in English, "第 92 行" in Chinese).
std::set<uint32_t> quoted_lines(const scenario::LessonText& text, const std::regex& pattern) {
    std::set<uint32_t> lines;
    for (const std::string* part : {&text.title, &text.shows, &text.predict, &text.look_at, &text.fix})
        for (std::sregex_iterator it(part->begin(), part->end(), pattern), end; it != end; ++it)
            lines.insert(static_cast<uint32_t>(std::stoul((*it)[1].str())));
    return lines;
}

// Lesson text that names source lines names lines its run really points at: both languages name
// the same ones, and the findings of the variant's run name every one of them (so a kernel edit
// that moves a line cannot leave the text pointing at the wrong one).
TEST_P(Verdict, LinesTheLessonNamesAreTheFindingsLines) {
    const scenario::Scenario& s = *GetParam().scenario;
    const scenario::Variant& v = *GetParam().variant;
    const std::set<uint32_t> en = quoted_lines(v.en, std::regex(R"(\bline (\d+))"));
    const std::set<uint32_t> zh = quoted_lines(v.zh, std::regex("第 (\\d+) 行"));
    EXPECT_EQ(en, zh) << s.id << "/" << v.id << ": the English and Chinese text name different lines";
    if (en.empty()) return;
    runner::RunOptions o;
    o.schedule = sim::Schedule::RoundRobin;
    const runner::RunSummary r = runner::run_scenario(s, v, o);
    std::set<uint32_t> named;
    for (const analysis::Finding& f : r.findings)
        named.insert(f.lines.begin(), f.lines.end());
    for (uint32_t line : en)
        EXPECT_TRUE(named.count(line)) << s.id << "/" << v.id << ": the lesson names line " << line
                                       << ", which no finding of its run names";
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
    std::string name = info.param.scenario->id + "_" + info.param.variant->id;
    for (const scenario::Param& p : info.param.scenario->params)
        if (differs_from_default(*info.param.scenario, p))
            for (const auto& [param, choice] : info.param.scenario->chosen)
                if (param == p.name) name += "_" + param + "_" + choice;
    for (char& c : name)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    return name;
}

INSTANTIATE_TEST_SUITE_P(Catalog, Verdict, ::testing::ValuesIn(all_cases()), case_name);

// The lesson's headline facts, stated once more in plain terms.
TEST(VerdictFacts, LostUpdateLosesCountsAtomicAddIsExact) {
    const scenario::Scenario& s = *scenario::find_scenario("lost_update");
    runner::RunOptions o;
    o.schedule = sim::Schedule::Random;
    o.reps = 5;
    const runner::RunSummary plain = runner::run_scenario(s, *s.find_variant("plain_increment"), o);
    EXPECT_EQ(plain.reps_with_wrong_outputs, 5u) << plain.check_summary;
    const runner::RunSummary atomic = runner::run_scenario(s, *s.find_variant("atomic_add"), o);
    EXPECT_EQ(atomic.wrong_outputs, 0u) << atomic.check_summary;
}

// [SECTION] The fence lessons

// Every variant of the fence lessons, with its lesson's memory model (relaxed).
std::vector<Case> fence_cases() {
    std::vector<Case> cases;
    for (const scenario::Scenario& s : scenario::catalog())
        if (s.topic == "fences")
            for (const scenario::Variant& v : s.variants)
                cases.push_back({&s, &v});
    return cases;
}

bool must_find_stale_read(const scenario::Variant& v) {
    return std::find(v.expect.must_find.begin(), v.expect.must_find.end(), FindingKind::StaleRead) !=
           v.expect.must_find.end();
}

TEST(FenceVerdicts, TheFenceLessonsAreThere) {
    EXPECT_EQ(fence_cases().size(), 5u + 2u + 4u); // fence_scope: 3 + device_fence_to_host
    for (const Case& c : fence_cases())
        EXPECT_EQ(c.scenario->memory, launch::MemoryModel::Relaxed) << c.scenario->id;
}

// The runner applies a lesson's memory model when the user names none: relaxed for the fence
// lessons, sc for the barrier and atomics lessons, and the summary says which ran.
TEST(FenceVerdicts, TheLessonsMemoryModelIsTheDefault) {
    runner::RunOptions o;
    o.schedule = sim::Schedule::Random;
    const scenario::Scenario& mp = *scenario::find_scenario("message_passing");
    EXPECT_EQ(runner::run_scenario(mp, *mp.find_variant("both_fences"), o).memory, launch::MemoryModel::Relaxed);
    const scenario::Scenario& stencil = *scenario::find_scenario("stencil");
    EXPECT_EQ(runner::run_scenario(stencil, *stencil.find_variant("correct"), o).memory, launch::MemoryModel::Sc);
    o.memory = launch::MemoryModel::Sc; // the user's choice wins
    EXPECT_EQ(runner::run_scenario(mp, *mp.find_variant("both_fences"), o).memory, launch::MemoryModel::Sc);
}

// A missing fence is flagged in runs whose outputs came out right too: the analysis checks the
// ordering the code promises, not the luck of the run. Over seeds 1-10 under every schedule, every
// run of a missing-fence variant has a stale_read, and last_block_reduction/no_fence, whose lesson
// says the total can come out right (as it always did on the H200), has right totals among them.
TEST(FenceVerdicts, StaleReadFiresInRunsWithRightOutputs) {
    for (const Case& c : fence_cases()) {
        if (!must_find_stale_read(*c.variant)) continue;
        uint32_t right_runs = 0, right_runs_flagged = 0;
        for (sim::Schedule schedule :
             {sim::Schedule::RoundRobin, sim::Schedule::Random, sim::Schedule::Adversarial})
            for (uint64_t seed = 1; seed <= 10; ++seed) {
                runner::RunOptions o;
                o.schedule = schedule;
                o.seed = seed;
                const runner::RunSummary r = runner::run_scenario(*c.scenario, *c.variant, o);
                if (r.status != trace::RunStatus::Ok || r.wrong_outputs != 0) continue;
                ++right_runs;
                right_runs_flagged += has_kind(r, FindingKind::StaleRead) ? 1 : 0;
            }
        EXPECT_EQ(right_runs_flagged, right_runs)
            << c.scenario->id << "/" << c.variant->id << ": runs with right outputs but no stale_read";
        if (c.scenario->id == "last_block_reduction") {
            EXPECT_GT(right_runs, 0u) << "the lesson says the total can come out right";
        }
    }
}

// The outcome histogram over 10 seeds of each fence lesson with an [outcomes] table: the outcomes a
// variant forbids never appear, and the stale outcome "1,0" does appear for the variants whose
// wrong outputs are possible (under adversarial, which keeps stores buffered and loads stale).
TEST(FenceVerdicts, ForbiddenOutcomesNeverAppearStaleOnesDo) {
    for (const Case& c : fence_cases()) {
        const scenario::Scenario& s = *c.scenario;
        const scenario::Variant& v = *c.variant;
        if (!s.outcomes.present()) continue;
        for (sim::Schedule schedule : {sim::Schedule::Random, sim::Schedule::Adversarial}) {
            runner::RunOptions o;
            o.schedule = schedule;
            o.seed = 1;
            o.reps = 10;
            o.histogram.buffer = s.outcomes.buffer;
            o.histogram.type = launch::ElemType::U32;
            o.histogram.per = s.outcomes.per;
            const runner::RunSummary r = runner::run_scenario(s, v, o);
            const std::string where = s.id + "/" + v.id + " " + sim::to_string(schedule);
            ASSERT_TRUE(r.histogram.has_value()) << where << ": no histogram";
            const uint64_t pairs = s.launch.grid.count() / 2;
            EXPECT_EQ(r.histogram->records, 10 * pairs) << where;
            uint64_t stale = 0, total = 0;
            for (const runner::OutcomeCount& oc : r.histogram->outcomes) {
                total += oc.count;
                EXPECT_TRUE(oc.outcome == "1,1" || oc.outcome == "1,0") << where << ": outcome " << oc.outcome;
                for (const std::string& forbidden : v.forbidden_outcomes)
                    EXPECT_NE(oc.outcome, forbidden)
                        << where << ": forbidden outcome seen " << oc.count << " times (seed " << oc.seed
                        << "); " << v.forbidden_because;
                if (oc.outcome == "1,0") stale += oc.count;
            }
            EXPECT_EQ(total, r.histogram->records) << where;
            // The stale records are the wrong outputs: each "1,0" record is one wrong element.
            EXPECT_EQ(stale, r.wrong_outputs) << where;
            if (v.expect.wrong_outputs_possible() && schedule == sim::Schedule::Adversarial) {
                EXPECT_GT(stale, 0u) << where << ": no stale record in 10 runs";
            }
        }
    }
}

// The simulator alone (sim::simulate, no runner, no analysis), under the lesson's relaxed model: the
// outcome records of each pair over seeds 1-10. Forbidden outcomes never appear, under any schedule;
// the stale outcome appears under adversarial wherever the lesson says wrong outputs are possible;
// the correct variants' outputs are always right. The rates are printed for the lesson text.
struct Tally {
    uint64_t runs = 0, wrong_runs = 0, records = 0, stale = 0, other = 0;
};

Tally simulate_fence_lesson(const scenario::Scenario& s, const scenario::Variant& v, sim::Schedule schedule) {
    Tally t;
    for (uint64_t seed = 1; seed <= 10; ++seed) {
        const scenario::Inputs in = s.make_inputs(seed);
        std::vector<launch::Buffer> buffers = in.buffers;
        sim::Options o;
        o.schedule = schedule;
        o.seed = seed;
        o.memory = s.memory;
        o.record_trace = false;
        const sim::Result r = sim::simulate(s.ptx_module(), v.kernel, s.launch, buffers, in.args, o, nullptr);
        EXPECT_EQ(r.status, trace::RunStatus::Ok) << s.id << "/" << v.id << " seed " << seed << ": " << r.message;
        ++t.runs;
        t.wrong_runs += s.check(in, buffers).wrong > 0 ? 1 : 0;
        if (!s.outcomes.present()) continue;
        for (const launch::Buffer& b : buffers) {
            if (b.name != s.outcomes.buffer) continue;
            const size_t n = b.bytes.size() / 4;
            for (size_t first = 0; first + s.outcomes.per <= n; first += s.outcomes.per) {
                const std::string outcome = launch::format_values(b.bytes, launch::ElemType::U32, first, s.outcomes.per);
                ++t.records;
                if (outcome == "1,0")
                    ++t.stale;
                else if (outcome != "1,1")
                    ++t.other;
                for (const std::string& forbidden : v.forbidden_outcomes)
                    EXPECT_NE(outcome, forbidden) << s.id << "/" << v.id << " " << sim::to_string(schedule)
                                                  << " seed " << seed << ": " << v.forbidden_because;
            }
        }
    }
    return t;
}

TEST(FenceVerdicts, SimulatorOutcomesUnderTheRelaxedModel) {
    for (const Case& c : fence_cases()) {
        const scenario::Scenario& s = *c.scenario;
        const scenario::Variant& v = *c.variant;
        for (sim::Schedule schedule : {sim::Schedule::RoundRobin, sim::Schedule::Random, sim::Schedule::Adversarial}) {
            const Tally t = simulate_fence_lesson(s, v, schedule);
            const std::string where = s.id + "/" + v.id + " " + sim::to_string(schedule);
            std::printf("%-45s %-12s runs with wrong outputs %2llu/%llu, stale records %llu/%llu\n",
                        (s.id + "/" + v.id).c_str(), sim::to_string(schedule), (unsigned long long)t.wrong_runs,
                        (unsigned long long)t.runs, (unsigned long long)t.stale, (unsigned long long)t.records);
            EXPECT_EQ(t.other, 0u) << where << ": a record that is neither 1,1 nor 1,0 (a reader that never finished?)";
            if (v.expect.always_correct()) {
                EXPECT_EQ(t.wrong_runs, 0u) << where;
            }
            if (v.expect.wrong_outputs_possible() && schedule == sim::Schedule::Adversarial) {
                EXPECT_GT(t.wrong_runs, 0u) << where << ": the lesson says wrong outputs are possible";
            }
            if (s.outcomes.present()) {
                EXPECT_EQ(t.records, 10 * s.launch.grid.count() / 2) << where;
                EXPECT_EQ(t.stale > 0, t.wrong_runs > 0) << where;
            }
        }
    }
}

// Under sc every access is seen at once, in one order: the missing fences cost nothing and every
// fence lesson comes out right. The bug is in the memory model, not in the schedule.
TEST(FenceVerdicts, UnderScEveryVariantIsRight) {
    for (const Case& c : fence_cases()) {
        runner::RunOptions o;
        o.schedule = sim::Schedule::Adversarial;
        o.memory = launch::MemoryModel::Sc;
        o.reps = 3;
        const runner::RunSummary r = runner::run_scenario(*c.scenario, *c.variant, o);
        EXPECT_EQ(r.status, trace::RunStatus::Ok) << c.scenario->id << "/" << c.variant->id << ": " << r.message;
        EXPECT_EQ(r.wrong_outputs, 0u) << c.scenario->id << "/" << c.variant->id << ": " << r.check_summary;
        EXPECT_GT(r.checked_outputs, 0u);
    }
}

// The data-only lesson's outputs are checked against its correct variant's rr run on the same inputs.
TEST(VerdictFacts, DataLessonIsCheckedAgainstTheRrRunOfItsCorrectVariant) {
    const scenario::Scenario& s = data_lessons().front();
    ASSERT_EQ(s.id, "smem_reverse");
    runner::RunOptions o;
    o.schedule = sim::Schedule::Random;
    o.reps = 3;
    const runner::RunSummary good = runner::run_scenario(s, *s.find_variant("correct"), o);
    EXPECT_EQ(good.checked_outputs, 3u * 480u);
    EXPECT_EQ(good.wrong_outputs, 0u);
    EXPECT_EQ(good.check_summary, "all 480 outputs match the rr run of variant 'correct'");
    o.schedule = sim::Schedule::Adversarial;
    const runner::RunSummary bad = runner::run_scenario(s, *s.find_variant("missing_barrier"), o);
    EXPECT_GT(bad.wrong_outputs, 0u);
    EXPECT_NE(bad.check_summary.find("outputs wrong; first: g_out["), std::string::npos) << bad.check_summary;
    EXPECT_TRUE(runner::check_expectation(s.find_variant("missing_barrier")->expect, bad, true).pass);
}

// A claim about outputs with nothing checked is a failed verdict, not a pass.
TEST(VerdictFacts, NoCheckedOutputsIsNoPass) {
    const scenario::Scenario& s = *scenario::find_scenario("stencil");
    runner::RunSummary r;
    r.reps_run = 1;
    r.check_summary = "outputs not checked: the reference run ended with status budget";
    const runner::VerdictCheck v = runner::check_expectation(s.find_variant("correct")->expect, r, true);
    EXPECT_FALSE(v.pass);
    ASSERT_FALSE(v.problems.empty());
    EXPECT_EQ(v.problems.front(), "no outputs were checked: " + r.check_summary);
}

TEST(VerdictFacts, StencilRaceNamesTheStoreAndLoadLines) {
    const scenario::Scenario& s = *scenario::find_scenario("stencil");
    runner::RunOptions o;
    o.schedule = sim::Schedule::Adversarial;
    const runner::RunSummary r = runner::run_scenario(s, *s.find_variant("missing_barrier"), o);
    ASSERT_FALSE(r.findings.empty());
    // The kernel source names its lines: find the store into s_tile and the neighbour loads.
    const std::string src(s.cuda_source());
    std::vector<uint32_t> race_lines;
    for (const analysis::Finding& f : r.findings)
        if (f.kind == analysis::FindingKind::Race)
            for (uint32_t l : f.lines)
                race_lines.push_back(l);
    ASSERT_FALSE(race_lines.empty());
    size_t line_no = 1, pos = 0;
    std::vector<std::string> lines;
    while (pos <= src.size()) {
        const size_t nl = src.find('\n', pos);
        lines.push_back(src.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos));
        if (nl == std::string::npos) break;
        pos = nl + 1;
        ++line_no;
    }
    bool store_line = false, load_line = false;
    for (uint32_t l : race_lines) {
        ASSERT_LE(l, lines.size());
        const std::string& text = lines[l - 1];
        if (text.find("s_tile[") != std::string::npos && text.find("] =") != std::string::npos)
            store_line = true;
        if (text.find("s_tile[") != std::string::npos && text.find("] =") == std::string::npos)
            load_line = true;
    }
    EXPECT_TRUE(store_line) << "no race line is the store into s_tile";
    EXPECT_TRUE(load_line) << "no race line is a load from s_tile";
}

} // namespace
} // namespace synclab

namespace synclab {
namespace {

// [SECTION] The atomics lessons

std::vector<uint32_t> u32s(const runner::RunSummary& r, const std::string& name) {
    for (const launch::Buffer& b : r.final_buffers)
        if (b.name == name) {
            std::vector<uint32_t> out(b.bytes.size() / 4);
            std::memcpy(out.data(), b.bytes.data(), out.size() * 4);
            return out;
        }
    ADD_FAILURE() << "no buffer " << name;
    return {};
}

float f32_at(const runner::RunSummary& r, const std::string& name, size_t i) {
    for (const launch::Buffer& b : r.final_buffers)
        if (b.name == name && (i + 1) * 4 <= b.bytes.size()) {
            float v;
            std::memcpy(&v, b.bytes.data() + 4 * i, 4);
            return v;
        }
    ADD_FAILURE() << "no element " << i << " of " << name;
    return 0;
}

// Every sum variant of atomic_counter leaves the exact total of g_in in g_sum[0] (whole numbers: exact
// in any order) under a schedule that interleaves the warps, and int_ticket hands every thread a
// ticket: g_count = the thread count.
TEST(AtomicsVerdicts, EverySumIsExactAndEveryTicketIsTaken) {
    const scenario::Scenario& s = *scenario::find_scenario("atomic_counter");
    const scenario::Inputs in = s.make_inputs(3);
    std::vector<float> values(in.buffers[0].bytes.size() / 4);
    std::memcpy(values.data(), in.buffers[0].bytes.data(), values.size() * 4);
    double total = 0;
    for (float v : values)
        total += v;
    runner::RunOptions o;
    o.schedule = sim::Schedule::Random;
    o.seed = 3;
    for (const scenario::Variant& v : s.variants) {
        const runner::RunSummary r = runner::run_scenario(s, v, o);
        EXPECT_EQ(r.wrong_outputs, 0u) << v.id << ": " << r.check_summary;
        if (v.id == "int_ticket") {
            EXPECT_EQ(u32s(r, "g_count")[0], 16384u);
            EXPECT_EQ(f32_at(r, "g_sum", 0), 0.0f) << "int_ticket sums nothing";
        } else {
            EXPECT_EQ(double(f32_at(r, "g_sum", 0)), total) << v.id;
            EXPECT_EQ(u32s(r, "g_count")[0], 0u) << v.id << " takes no ticket";
        }
    }
}

// Each thread of a [latency] lesson records its SM (the simulator places block b on SM b % 8) and
// a clock64 difference; the reference checks the tickets, which are every atomic's result in use.
// No built-in lesson times its atomics now: the test lesson ticket_counter does.
TEST(AtomicsVerdicts, LatencyBuffersHoldEachThreadsSmAndCycles) {
    const scenario::Scenario s =
        scenario::load_lesson(std::string(SYNCLAB_SOURCE_DIR) + "/tests/scenario/data/fixtures/ticket_counter");
    ASSERT_TRUE(s.latency.present());
    runner::RunOptions o;
    o.schedule = sim::Schedule::RoundRobin;
    for (const scenario::Variant& v : s.variants) {
        const runner::RunSummary r = runner::run_scenario(s, v, o);
        const std::vector<uint32_t> sm = u32s(r, s.latency.sm_buffer);
        ASSERT_EQ(sm.size(), 2048u);
        for (uint32_t i = 0; i < sm.size(); ++i)
            ASSERT_EQ(sm[i], (i / 256) % o.limits.sm_count) << v.id << " thread " << i;
        for (const launch::Buffer& b : r.final_buffers)
            if (b.name == s.latency.cycles_buffer) {
                EXPECT_EQ(b.bytes.size(), 2048u * 8u) << v.id;
            }
    }
}

// The NaN spin: with the one_nan input float_compare_nan ends at the lesson's step budget, and the
// message names a line inside its do/while loop; with input=finite the same code completes, right.
TEST(AtomicsVerdicts, NanSpinNamesTheLoopAndFiniteInputCompletes) {
    const scenario::Scenario& s = *scenario::find_scenario("cas_loop");
    const scenario::Variant& v = *s.find_variant("float_compare_nan");
    runner::RunOptions o;
    o.schedule = sim::Schedule::RoundRobin;
    const runner::RunSummary spin = runner::run_scenario(s, v, o);
    ASSERT_EQ(spin.status, trace::RunStatus::Budget) << spin.message;
    std::smatch m;
    ASSERT_TRUE(std::regex_search(spin.message, m, std::regex(R"(cas_loop\.cu:(\d+))"))) << spin.message;
    const uint32_t named = static_cast<uint32_t>(std::stoul(m[1].str()));
    // The loop's lines in the kernel source: from its `do {` to its `} while`.
    const std::string cuda(s.cuda_source());
    const size_t fn = cuda.find("cas_loop_float_compare_nan(");
    const size_t open = cuda.find("do {", fn), close = cuda.find("} while", fn);
    ASSERT_NE(open, std::string::npos);
    const auto line = [&](size_t at) { return 1 + static_cast<uint32_t>(std::count(cuda.begin(), cuda.begin() + long(at), '\n')); };
    EXPECT_GE(named, line(open)) << spin.message;
    EXPECT_LE(named, line(close)) << spin.message;
    EXPECT_NE(spin.message.find("threads were still running"), std::string::npos) << spin.message;

    const scenario::Scenario finite = scenario::with_params(s, {{"input", "finite"}});
    const runner::RunSummary done = runner::run_scenario(finite, *finite.find_variant("float_compare_nan"), o);
    EXPECT_EQ(done.status, trace::RunStatus::Ok) << done.message;
    EXPECT_EQ(done.wrong_outputs, 0u) << done.check_summary;
    EXPECT_GT(done.checked_outputs, 0u);
}

// The reference is not fooled: a doubled ticket (as a lost update would leave) is a wrong output, and
// so is a sum one value short.
TEST(AtomicsVerdicts, AtomicCounterReferenceCatchesADoubledTicketAndALostValue) {
    const scenario::Scenario& s = *scenario::find_scenario("atomic_counter");
    runner::RunOptions o;
    o.schedule = sim::Schedule::RoundRobin;
    const runner::RunSummary r = runner::run_scenario(s, *s.find_variant("int_ticket"), o);
    ASSERT_EQ(r.wrong_outputs, 0u) << r.check_summary;
    std::vector<launch::Buffer> after = r.final_buffers;
    for (launch::Buffer& b : after)
        if (b.name == "g_ticket") {
            std::memcpy(b.bytes.data() + 4, b.bytes.data(), 4); // thread 1's ticket = thread 0's
        }
    const scenario::CheckResult bad = s.check(s.make_inputs(1), after);
    EXPECT_EQ(bad.wrong, 1u) << bad.summary;

    const runner::RunSummary sum = runner::run_scenario(s, *s.find_variant("block_hierarchical"), o);
    ASSERT_EQ(sum.wrong_outputs, 0u) << sum.check_summary;
    std::vector<launch::Buffer> short_sum = sum.final_buffers;
    for (launch::Buffer& b : short_sum)
        if (b.name == "g_sum") {
            float v;
            std::memcpy(&v, b.bytes.data(), 4);
            v -= 1.0f; // one thread's value lost
            std::memcpy(b.bytes.data(), &v, 4);
        }
    const scenario::CheckResult lost = s.check(s.make_inputs(1), short_sum);
    EXPECT_EQ(lost.wrong, 1u) << lost.summary;
}

} // namespace
} // namespace synclab
