// The litmus suite: every test (MP, SB, LB, CoRR, IRIW, 2+2W, WRC) x variant (no fence,
// fence.acq_rel / fence.sc at .cta and .gpu, release/acquire at .cta and .gpu) x placement (roles in
// one block vs in different blocks), generated as PTX (litmus.h) and run in the simulator:
//   (a) exhaustive, relaxed model: the outcome set is exactly the SC set plus the weak outcome where
//       PTX allows it (expectations.h); LB's (1,1) is asserted absent (load buffering, not modelled);
//   (b) random and adversarial over seeds: every outcome seen is in the exhaustive set, and the weak
//       outcome shows where it is allowed;
//   (c) sc model: exhaustive gives exactly the SC set, sampled runs stay inside it;
//   (d) the exploration completes within kBound executions (printed), and a too-small bound stops
//       it with complete == false.
#include "expectations.h"
#include "litmus.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <mutex>
#include <ostream>

namespace {

using namespace synclab;
using namespace synclab::litmus;
using launch::MemoryModel;

constexpr uint64_t kBound = 200'000;   // executions an exhaustive exploration may take
constexpr uint64_t kSeedsPerSchedule = 1'000; // random and adversarial each: 2,000 sampled runs a case

struct Case {
    const litmus::Test* test;
    Variant variant;
    Placement placement;
    std::string name() const {
        std::string n = test->name + "_" + to_string(variant) + "_" + to_string(placement);
        for (char& c : n)
            if (c == '+') c = 'p';
        return n;
    }
};

// gtest names a failing case by this, not by its bytes.
void PrintTo(const Case& c, std::ostream* os) { *os << c.name(); }

std::vector<Case> all_cases() {
    std::vector<Case> cases;
    for (const litmus::Test& t : tests())
        for (Variant v : kVariants)
            for (Placement p : {Placement::SameBlock, Placement::DifferentBlocks})
                cases.push_back({&t, v, p});
    return cases;
}

std::string join(const std::set<Outcome>& s) {
    std::string out;
    for (const Outcome& o : s)
        out += (out.empty() ? "{" : " | ") + o;
    return out.empty() ? "{}" : out + "}";
}

std::string describe(const Case& c) {
    return c.test->name + " / " + to_string(c.variant) + " / " + to_string(c.placement) + " (" + c.test->shape + ")";
}

// The exhaustive outcome set of a case under a model, computed once per process.
const Explored& exhaustive(const Case& c, MemoryModel memory) {
    static std::map<std::string, Explored> cache;
    static std::mutex mutex;
    std::lock_guard<std::mutex> lock(mutex);
    const std::string key = c.name() + (memory == MemoryModel::Sc ? "/sc" : "/relaxed");
    auto it = cache.find(key);
    if (it != cache.end()) return it->second;
    const Launch l = make_launch(*c.test, c.variant, c.placement);
    return cache.emplace(key, explore(*c.test, l, memory, kBound)).first->second;
}

std::set<Outcome> expected_set(const Case& c, Verdict v) {
    std::set<Outcome> s = sc_outcomes(*c.test);
    if (v == Verdict::Allowed && model_gap(*c.test, v) == ModelGap::None) s.insert(format_outcome(c.test->weak));
    return s;
}

class Litmus : public ::testing::TestWithParam<Case> {};

// [SECTION] The generator and the reference

TEST(LitmusReference, ScOutcomesOfMessagePassingAreTheTextbookThree) {
    // MP under SC: r0=1 (flag seen) implies r1=1; the other three pairs are reachable.
    EXPECT_EQ(sc_outcomes(find_test("MP")), (std::set<Outcome>{"0,0", "0,1", "1,1"}));
    // 2+2W's finals under SC: the last write of all is y=2 or x=2, never both first writes last.
    EXPECT_EQ(sc_outcomes(find_test("2+2W")), (std::set<Outcome>{"1,2", "2,1", "2,2"}));
}

TEST(LitmusReference, EveryWeakOutcomeIsOutsideScAndTheOnlyOneMissing) {
    for (const litmus::Test& t : tests()) {
        const std::set<Outcome> sc = sc_outcomes(t);
        const Outcome weak = format_outcome(t.weak);
        EXPECT_EQ(sc.count(weak), 0u) << t.name << ": the weak outcome " << weak << " is SC-reachable";
        // Every outcome the values could form (a register: 0 or a value written to its location; a
        // final value: a value written there) is SC-reachable or the weak one: so "exactly the
        // expected set" also says that no other outcome appears.
        std::vector<std::set<uint32_t>> domains;
        auto written = [&](uint32_t loc) {
            std::set<uint32_t> v;
            for (const auto& thread : t.threads)
                for (const Op& op : thread)
                    if (op.kind == Op::Store && op.loc == loc) v.insert(op.value);
            return v;
        };
        for (uint32_t r = 0; r < t.regs; ++r)
            for (const auto& thread : t.threads)
                for (const Op& op : thread)
                    if (op.kind == Op::Load && op.reg == r) {
                        std::set<uint32_t> d = written(op.loc);
                        d.insert(0);
                        domains.push_back(d);
                    }
        for (uint32_t loc : t.finals)
            domains.push_back(written(loc));
        size_t combinations = 1;
        for (const auto& d : domains)
            combinations *= d.size();
        EXPECT_EQ(sc.size() + 1, combinations) << t.name << ": SC outcomes " << join(sc);
    }
}

TEST(LitmusReference, EveryRowOfTheTableHasATestAndEveryCaseARow) {
    for (const Expectation& e : expectations()) {
        EXPECT_NO_THROW(find_test(e.test)) << e.test;
        EXPECT_GT(because(e).size(), 80u) << e.test << " / " << to_string(e.variant) << ": no citation";
    }
    for (const Case& c : all_cases())
        EXPECT_NO_THROW(expectation(c.test->name, c.variant)) << describe(c);
}

TEST(LitmusReference, GeneratedPtxUsesTheVariantsInstructions) {
    const litmus::Test& mp = find_test("MP");
    const std::string plain = emit_ptx(mp, Variant::NoFence);
    EXPECT_EQ(plain.find("\tfence"), std::string::npos) << plain;
    EXPECT_NE(plain.find("st.relaxed.gpu.global.u32 [%rd3+128]"), std::string::npos) << plain;
    EXPECT_NE(emit_ptx(mp, Variant::ScCta).find("fence.sc.cta;"), std::string::npos);
    EXPECT_NE(emit_ptx(mp, Variant::AcqRelGpu).find("fence.acq_rel.gpu;"), std::string::npos);
    const std::string ra = emit_ptx(mp, Variant::RelAcqCta);
    EXPECT_NE(ra.find("st.release.cta.global.u32 [%rd3+128]"), std::string::npos) << ra;
    EXPECT_NE(ra.find("ld.acquire.cta.global.u32 %r10, [%rd3+128]"), std::string::npos) << ra;
    EXPECT_NE(ra.find("st.relaxed.gpu.global.u32 [%rd3+0]"), std::string::npos) << ra; // data stays relaxed
    for (const litmus::Test& t : tests())
        for (Variant v : kVariants)
            EXPECT_NO_THROW(ptx::parse_module(emit_ptx(t, v))) << t.name << " / " << to_string(v) << "\n"
                                                               << emit_ptx(t, v);
}

// [SECTION] (c) sc model

TEST_P(Litmus, ScExhaustiveIsExactlyTheScSet) {
    const Case& c = GetParam();
    const Explored& e = exhaustive(c, MemoryModel::Sc);
    ASSERT_EQ(e.error, "") << describe(c);
    EXPECT_TRUE(e.exploration.complete) << describe(c) << ": " << e.exploration.executions << " executions, bound "
                                        << kBound << (e.exploration.stopped.empty() ? "" : ", " + e.exploration.stopped);
    EXPECT_EQ(e.outcomes, sc_outcomes(*c.test)) << describe(c) << "\n  model (sc): " << join(e.outcomes)
                                                 << "\n  expected:   " << join(sc_outcomes(*c.test));
}

TEST_P(Litmus, ScSampledStaysInsideTheScSet) {
    const Case& c = GetParam();
    const Launch l = make_launch(*c.test, c.variant, c.placement);
    const std::set<Outcome> sc = sc_outcomes(*c.test);
    for (sim::Schedule s : {sim::Schedule::Random, sim::Schedule::Adversarial})
        for (uint64_t seed = 1; seed <= kSeedsPerSchedule / 4; ++seed) {
            std::string error;
            const Outcome o = sample(*c.test, l, MemoryModel::Sc, s, seed, &error);
            ASSERT_EQ(error, "") << describe(c) << " seed " << seed;
            ASSERT_EQ(sc.count(o), 1u) << describe(c) << ": sc " << sim::to_string(s) << " seed " << seed
                                       << " gave " << o << ", not in " << join(sc);
        }
}

// [SECTION] (a), (d) relaxed model, exhaustive

TEST_P(Litmus, RelaxedExhaustiveIsExactlyTheExpectedSet) {
    const Case& c = GetParam();
    const Expectation& row = expectation(c.test->name, c.variant);
    const Verdict v = verdict(row, c.placement);
    const Explored& e = exhaustive(c, MemoryModel::Relaxed);
    ASSERT_EQ(e.error, "") << describe(c);
    std::printf("[litmus] %-40s %-9s relaxed: %6llu executions (bound %llu)%s  outcomes %s\n", c.name().c_str(),
                to_string(v), static_cast<unsigned long long>(e.exploration.executions),
                static_cast<unsigned long long>(kBound), e.exploration.complete ? "" : " INCOMPLETE",
                join(e.outcomes).c_str());
    ASSERT_TRUE(e.exploration.complete) << describe(c) << ": " << e.exploration.executions << " executions, bound "
                                        << kBound << (e.exploration.stopped.empty() ? "" : ", " + e.exploration.stopped);
    const Outcome weak = format_outcome(c.test->weak);
    const std::set<Outcome> expected = expected_set(c, v);
    EXPECT_EQ(e.outcomes, expected) << describe(c) << "\n  PTX: weak outcome " << weak << " " << to_string(v)
                                    << " -- " << because(row) << "\n  model (relaxed): " << join(e.outcomes)
                                    << "\n  expected:        " << join(expected);
    if (model_gap(*c.test, v) == ModelGap::LoadBuffering) {
        EXPECT_EQ(e.outcomes.count(weak), 0u)
            << describe(c) << ": the model produced LB's " << weak
            << "; it is documented not to (load buffering): update the table's ModelGap";
    }
}

TEST(LitmusBudget, TooSmallABoundStopsTheExplorationIncomplete) {
    const litmus::Test& t = find_test("SB");
    const Launch l = make_launch(t, Variant::NoFence, Placement::DifferentBlocks);
    for (MemoryModel m : {MemoryModel::Sc, MemoryModel::Relaxed}) {
        const Explored full = explore(t, l, m, kBound);
        ASSERT_TRUE(full.exploration.complete) << launch::to_string(m);
        ASSERT_GT(full.exploration.executions, 2u) << launch::to_string(m);
        const uint64_t small = full.exploration.executions - 1;
        const Explored cut = explore(t, l, m, small);
        EXPECT_FALSE(cut.exploration.complete) << launch::to_string(m) << ": bound " << small << " of "
                                               << full.exploration.executions << " executions";
        EXPECT_EQ(cut.exploration.executions, small) << launch::to_string(m);
        EXPECT_EQ(cut.exploration.bound, small) << launch::to_string(m);
        // The exact bound is enough.
        EXPECT_TRUE(explore(t, l, m, full.exploration.executions).exploration.complete) << launch::to_string(m);
    }
}

// [SECTION] (b) relaxed model, sampled

TEST_P(Litmus, RelaxedSampledStaysInsideAndShowsTheWeakOutcome) {
    const Case& c = GetParam();
    const Expectation& row = expectation(c.test->name, c.variant);
    const Verdict v = verdict(row, c.placement);
    const Explored& e = exhaustive(c, MemoryModel::Relaxed);
    ASSERT_EQ(e.error, "") << describe(c);
    ASSERT_TRUE(e.exploration.complete) << describe(c);
    const Launch l = make_launch(*c.test, c.variant, c.placement);
    const Outcome weak = format_outcome(c.test->weak);
    std::map<Outcome, uint64_t> seen;
    for (sim::Schedule s : {sim::Schedule::Random, sim::Schedule::Adversarial})
        for (uint64_t seed = 1; seed <= kSeedsPerSchedule; ++seed) {
            std::string error;
            const Outcome o = sample(*c.test, l, MemoryModel::Relaxed, s, seed, &error);
            ASSERT_EQ(error, "") << describe(c) << " " << sim::to_string(s) << " seed " << seed;
            ++seen[o];
            EXPECT_EQ(e.outcomes.count(o), 1u) << describe(c) << ": relaxed " << sim::to_string(s) << " seed " << seed
                                               << " gave " << o << ", outside the exhaustive set " << join(e.outcomes);
        }
    std::string histogram;
    for (const auto& [o, n] : seen)
        histogram += " " + o + ":" + std::to_string(n);
    std::printf("[litmus] %-40s sampled (%llu random + %llu adversarial):%s\n", c.name().c_str(),
                static_cast<unsigned long long>(kSeedsPerSchedule), static_cast<unsigned long long>(kSeedsPerSchedule),
                histogram.c_str());
    if (v == Verdict::Allowed && model_gap(*c.test, v) == ModelGap::None) {
        EXPECT_GT(seen[weak], 0u) << describe(c) << ": PTX allows the weak outcome " << weak
                                  << " but no random or adversarial run of " << 2 * kSeedsPerSchedule
                                  << " showed it (sampled:" << histogram << ")";
    } else {
        EXPECT_EQ(seen[weak], 0u) << describe(c) << ": weak outcome " << weak << " seen";
    }
}

// [SECTION] Replay

TEST(LitmusReplay, TheSameSeedGivesTheSameOutcomeAndSeedsDiffer) {
    const litmus::Test& t = find_test("MP");
    const Launch l = make_launch(t, Variant::NoFence, Placement::DifferentBlocks);
    for (sim::Schedule s : {sim::Schedule::Random, sim::Schedule::Adversarial}) {
        std::set<Outcome> seen;
        for (uint64_t seed = 1; seed <= 200; ++seed) {
            const Outcome first = sample(t, l, MemoryModel::Relaxed, s, seed);
            EXPECT_EQ(sample(t, l, MemoryModel::Relaxed, s, seed), first) << sim::to_string(s) << " seed " << seed;
            seen.insert(first);
        }
        EXPECT_GT(seen.size(), 1u) << sim::to_string(s) << ": 200 seeds gave one outcome " << join(seen);
    }
}

// Every execution an exploration hands out is replayed by its Result::choices (Options::choices).
TEST(LitmusReplay, AnExhaustiveExecutionReplaysFromItsChoices) {
    for (const char* name : {"MP", "SB", "WRC"}) {
        const litmus::Test& t = find_test(name);
        const Launch l = make_launch(t, Variant::AcqRelGpu, Placement::DifferentBlocks);
        sim::Options o;
        o.memory = MemoryModel::Relaxed;
        o.record_trace = false;
        uint64_t replayed = 0;
        const sim::Exploration x = sim::explore(
            l.module, "litmus", l.config, l.buffers, l.args, o, sim::ExploreOptions{},
            [&](const sim::Result& r, const std::vector<launch::Buffer>& after, trace::Trace*) {
                sim::Options again = o;
                again.schedule = sim::Schedule::Exhaustive;
                for (const auto& [options, taken] : r.choices)
                    again.choices.push_back(taken);
                std::vector<launch::Buffer> buffers = l.buffers;
                const sim::Result r2 = sim::simulate(l.module, "litmus", l.config, buffers, l.args, again, nullptr);
                EXPECT_EQ(r2.choices, r.choices) << name << " execution " << replayed;
                EXPECT_EQ(outcome_of(t, buffers), outcome_of(t, after)) << name << " execution " << replayed;
                ++replayed;
                return true;
            });
        EXPECT_TRUE(x.complete) << name;
        EXPECT_EQ(replayed, x.executions) << name;
    }
}

INSTANTIATE_TEST_SUITE_P(All, Litmus, ::testing::ValuesIn(all_cases()),
                         [](const ::testing::TestParamInfo<Case>& info) { return info.param.name(); });

} // namespace
