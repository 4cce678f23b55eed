// Verdicts of the warp lessons (warp_reduce, warp_neighbour, cg_tiles) and of
// syncthreads_predicates beyond what the generic verdict test checks: the race of a
// warp-synchronous variant is named as one within a warp, the wrong-sum rates of the shared-memory
// reductions under each schedule (printed for the lesson text), and the references catch what a
// wrong kernel would leave.
#include "runner/runner.h"
#include "scenario/scenario.h"
#include "sim/simulator.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace synclab {
namespace {

using analysis::FindingKind;

struct WarpVariant {
    const char* lesson;
    const char* variant;
};

// The variants whose lanes exchange values through shared memory with no warp barrier.
constexpr WarpVariant kUnsynchronised[] = {
    {"warp_reduce", "no_syncwarp"},
    {"warp_reduce", "volatile_legacy"},
    {"warp_neighbour", "no_syncwarp"},
    {"cg_tiles", "no_tile_sync"},
};

// (both throw, failing the test with the names, where the catalog lost the lesson or the lesson the
// variant: never a null reference)
const scenario::Scenario& lesson_of(const char* id) {
    const scenario::Scenario* s = scenario::find_scenario(id);
    if (s == nullptr) throw std::logic_error(std::string("no lesson ") + id + " in the catalog");
    return *s;
}

const scenario::Variant& variant_of(const scenario::Scenario& s, const char* id) {
    const scenario::Variant* v = s.find_variant(id);
    if (v == nullptr) throw std::logic_error(s.id + " has no variant " + id);
    return *v;
}

// The race these variants must show is between two lanes of one warp, and says so: a student
// reading "with no barrier between them" would reach for __syncthreads(), the wrong tool.
TEST(WarpVerdicts, TheRaceIsNamedWithinAWarp) {
    for (const WarpVariant& wv : kUnsynchronised) {
        const scenario::Scenario& s = lesson_of(wv.lesson);
        runner::RunOptions o;
        o.schedule = sim::Schedule::Random;
        const runner::RunSummary r = runner::run_scenario(s, variant_of(s, wv.variant), o);
        bool race = false, within_warp = false;
        std::string messages;
        for (const analysis::Finding& f : r.findings) {
            if (f.kind != FindingKind::Race) continue;
            race = true;
            within_warp = within_warp || f.message.find("within a warp") != std::string::npos;
            messages += "\n  " + f.message;
        }
        EXPECT_TRUE(race) << wv.lesson << "/" << wv.variant << ": no race finding";
        EXPECT_TRUE(within_warp) << wv.lesson << "/" << wv.variant
                                 << ": no race finding says \"within a warp\":" << messages;
    }
}

// Wrong outputs over seeds 1-10 of one variant under one schedule.
struct Rate {
    uint64_t wrong = 0, checked = 0;
    uint32_t runs_with_wrong = 0;
};

Rate wrong_rate(const scenario::Scenario& s, const scenario::Variant& v, sim::Schedule schedule,
                sim::WarpModel model = sim::WarpModel::Its) {
    Rate rate;
    for (uint64_t seed = 1; seed <= 10; ++seed) {
        runner::RunOptions o;
        o.schedule = schedule;
        o.seed = seed;
        o.limits.warp_model = model;
        const runner::RunSummary r = runner::run_scenario(s, v, o);
        EXPECT_EQ(r.status, trace::RunStatus::Ok) << s.id << "/" << v.id << ": " << r.message;
        rate.wrong += r.wrong_outputs;
        rate.checked += r.checked_outputs;
        rate.runs_with_wrong += r.wrong_outputs > 0 ? 1 : 0;
    }
    return rate;
}

// The shared-memory reductions without a warp barrier get sums wrong when the lanes interleave
// (random, adversarial), and the round-robin schedule, which steps a warp's lanes together, does
// not show it; the correct variants are right everywhere. The rates are printed: the lesson text
// sets them beside the H200's 97%.
TEST(WarpVerdicts, WrongSumRatesPerSchedule) {
    for (const char* lesson : {"warp_reduce", "cg_tiles", "warp_neighbour"}) {
        const scenario::Scenario& s = lesson_of(lesson);
        for (const scenario::Variant& v : s.variants)
            for (sim::Schedule schedule :
                 {sim::Schedule::RoundRobin, sim::Schedule::Random, sim::Schedule::Adversarial}) {
                const Rate rate = wrong_rate(s, v, schedule);
                std::printf("%-32s %-12s wrong outputs %5llu of %5llu (%5.1f%%), runs with wrong outputs %2u/10\n",
                            (s.id + "/" + v.id).c_str(), sim::to_string(schedule), (unsigned long long)rate.wrong,
                            (unsigned long long)rate.checked,
                            rate.checked ? 100.0 * double(rate.wrong) / double(rate.checked) : 0.0,
                            rate.runs_with_wrong);
                const std::string where = s.id + "/" + v.id + " " + sim::to_string(schedule);
                EXPECT_GT(rate.checked, 0u) << where;
                if (v.expect.always_correct()) {
                    EXPECT_EQ(rate.wrong, 0u) << where;
                } else if (schedule != sim::Schedule::RoundRobin) {
                    EXPECT_GT(rate.runs_with_wrong, 0u) << where << ": the lesson says the sums can be wrong";
                }
            }
    }
}

// --warp-model lockstep: a warp's lanes never split, as on a pre-Volta GPU. Every variant of the
// warp lessons comes out right under every schedule, the unsynchronised ones included: the PTX nvcc
// emits keeps each load after the store it depends on, so what breaks them is lanes running apart
// (independent thread scheduling), which lockstep rules out. The race is still reported: it is in
// the code, whatever this run's order.
TEST(WarpVerdicts, LockstepRunsTheOldCodeRight) {
    for (const char* lesson : {"warp_reduce", "cg_tiles", "warp_neighbour"}) {
        const scenario::Scenario& s = lesson_of(lesson);
        for (const scenario::Variant& v : s.variants)
            for (sim::Schedule schedule : {sim::Schedule::Random, sim::Schedule::Adversarial}) {
                const Rate rate = wrong_rate(s, v, schedule, sim::WarpModel::Lockstep);
                EXPECT_GT(rate.checked, 0u);
                EXPECT_EQ(rate.wrong, 0u) << s.id << "/" << v.id << " lockstep " << sim::to_string(schedule);
            }
    }
    for (const WarpVariant& wv : kUnsynchronised) {
        const scenario::Scenario& s = lesson_of(wv.lesson);
        runner::RunOptions o;
        o.schedule = sim::Schedule::Adversarial;
        o.limits.warp_model = sim::WarpModel::Lockstep;
        const runner::RunSummary r = runner::run_scenario(s, variant_of(s, wv.variant), o);
        bool race = false;
        for (const analysis::Finding& f : r.findings)
            race = race || f.kind == FindingKind::Race;
        EXPECT_TRUE(race) << wv.lesson << "/" << wv.variant << ": lockstep hid the race from the analysis";
    }
}

std::vector<int32_t> i32s(const std::vector<launch::Buffer>& buffers, const std::string& name) {
    for (const launch::Buffer& b : buffers)
        if (b.name == name) {
            std::vector<int32_t> out(b.bytes.size() / 4);
            std::memcpy(out.data(), b.bytes.data(), out.size() * 4);
            return out;
        }
    ADD_FAILURE() << "no buffer " << name;
    return {};
}

void set_i32(std::vector<launch::Buffer>& buffers, const std::string& name, size_t index, int32_t value) {
    for (launch::Buffer& b : buffers)
        if (b.name == name) {
            ASSERT_LE((index + 1) * 4, b.bytes.size());
            std::memcpy(b.bytes.data() + index * 4, &value, 4);
            return;
        }
    ADD_FAILURE() << "no buffer " << name;
}

// The warp_reduce reference is not fooled: one warp sum off by one is one wrong output, and a run that wrote
// nothing is wrong everywhere (g_out starts at 0, which no sum of values >= 1 is).
TEST(WarpVerdicts, WarpReduceReferenceCatchesOneWrongSum) {
    const scenario::Scenario& s = lesson_of("warp_reduce");
    runner::RunOptions o;
    o.schedule = sim::Schedule::RoundRobin;
    const runner::RunSummary r = runner::run_scenario(s, variant_of(s, "shuffle"), o);
    ASSERT_EQ(r.wrong_outputs, 0u) << r.check_summary;
    std::vector<launch::Buffer> after = r.final_buffers;
    const std::vector<int32_t> sums = i32s(after, "g_out");
    ASSERT_EQ(sums.size(), 32u);
    set_i32(after, "g_out", 5, sums[5] + 1);
    EXPECT_EQ(s.check(s.make_inputs(1), after).wrong, 1u);
    const scenario::Inputs untouched = s.make_inputs(1);
    EXPECT_EQ(s.check(untouched, untouched.buffers).wrong, 32u);
}

// Every thread of a block holds the same answer, the block's; or is the complement of and on the
// same inputs; and the reference catches one thread holding another value, and a run that wrote
// no result buffer.
TEST(SyncthreadsPredicates, EveryThreadHoldsItsBlocksAnswer) {
    const scenario::Scenario* found = scenario::find_scenario("syncthreads_predicates");
    ASSERT_NE(found, nullptr) << "syncthreads_predicates is not in assets/lessons/LESSONS";
    const scenario::Scenario& s = *found;
    const uint32_t block = static_cast<uint32_t>(s.launch.block.count());
    ASSERT_EQ(block % 32, 4u) << "the lesson's block size is not a multiple of 32 on purpose";
    for (uint64_t seed : {1, 2, 3}) {
        runner::RunOptions o;
        o.schedule = sim::Schedule::Adversarial;
        o.seed = seed;
        const runner::RunSummary and_run = runner::run_scenario(s, variant_of(s, "and"), o);
        const runner::RunSummary or_run = runner::run_scenario(s, variant_of(s, "or"), o);
        const runner::RunSummary count_run = runner::run_scenario(s, variant_of(s, "count"), o);
        ASSERT_EQ(and_run.wrong_outputs + or_run.wrong_outputs + count_run.wrong_outputs, 0u)
            << and_run.check_summary << " / " << or_run.check_summary << " / " << count_run.check_summary;
        const std::vector<int32_t> all = i32s(and_run.final_buffers, "g_all");
        const std::vector<int32_t> any = i32s(or_run.final_buffers, "g_any");
        const std::vector<int32_t> count = i32s(count_run.final_buffers, "g_count");
        const std::vector<int32_t> in = i32s(s.make_inputs(seed).buffers, "g_in");
        ASSERT_EQ(all.size(), in.size());
        uint32_t blocks_without_zero = 0;
        for (size_t i = 0; i < all.size(); ++i) {
            EXPECT_EQ(any[i], 1 - all[i]) << "seed " << seed << " thread " << i;
            EXPECT_EQ(all[i], all[i / block * block]) << "seed " << seed << " thread " << i;
            EXPECT_GE(count[i], 0);
            EXPECT_LE(count[i], int32_t(block));
            if (i % block == 0) blocks_without_zero += all[i];
        }
        // The input makes the answers differ between blocks (else and/or would teach nothing).
        EXPECT_GT(blocks_without_zero, 0u) << "seed " << seed;
        EXPECT_LT(blocks_without_zero, s.launch.grid.count()) << "seed " << seed;

        std::vector<launch::Buffer> after = count_run.final_buffers;
        set_i32(after, "g_count", block + 3, count[block + 3] + 1); // block 1's thread 3
        EXPECT_EQ(s.check(s.make_inputs(seed), after).wrong, 1u);
        const scenario::Inputs untouched = s.make_inputs(seed);
        EXPECT_EQ(s.check(untouched, untouched.buffers).wrong, 3 * in.size());
    }
}

} // namespace
} // namespace synclab
