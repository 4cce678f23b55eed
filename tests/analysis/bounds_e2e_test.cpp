// Out-of-bounds accesses end to end in the simulator (issue 20): the kernels of data/bounds.cu run
// through the runner; the simulator stops at the first access out of bounds with status error, as
// before, and records that access first, so that the out_of_bounds finding names it in the words of
// the simulator's own message (thread, line, buffer, offset), as it names one a traced GPU run
// recorded. The .slt keeps what the check needs; a cooperative launch's map only names.
#include "analysis/findings.h"
#include "bounds_kernels.h"
#include "trace/slt_file.h"
#include "trace/text_format.h"

#include <gtest/gtest.h>

namespace synclab::analysis {
namespace {

using testing::out_of_bounds;

using testing::bounds_job;
using testing::far_write_job;

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

runner::RunOptions sim_options(sim::Schedule schedule, uint64_t seed = 1) {
    runner::RunOptions o;
    o.schedule = schedule;
    o.seed = seed;
    return o;
}

std::string dump(const std::vector<Finding>& findings) {
    std::string out = std::to_string(findings.size()) + " finding(s):";
    for (const Finding& f : findings)
        out += "\n  [" + std::string(to_string(f.kind)) + "] " + f.message;
    return out;
}

// Issue 20's kernel under rr: warp 0 of block 0 stores first, and its lane 1 is the first lane out
// of bounds (lane 0 writes a[0]).
TEST(analysis_bounds_e2e, TheSimulatorStopsAtTheFirstWriteAndTheFindingNamesIt) {
    const runner::RunSummary r = runner::run_job(far_write_job(), sim_options(sim::Schedule::RoundRobin));
    EXPECT_EQ(r.status, trace::RunStatus::Error);
    EXPECT_TRUE(contains(r.message, "out-of-bounds write of 4 bytes at global address ")) << r.message;
    EXPECT_TRUE(contains(r.message, "(4032 bytes past the end of a (64 bytes))")) << r.message;
    const std::vector<Finding> found = out_of_bounds(r.findings);
    ASSERT_EQ(found.size(), 1u) << dump(r.findings);
    const Finding& f = found[0];
    EXPECT_EQ(f.message,
              "out-of-bounds write of 4 bytes at line 12 by block 0 thread 1: 4032 bytes past the end "
              "of a (64 bytes)");
    EXPECT_EQ(f.count, 1u) << "the run stops at the first";
    EXPECT_EQ(f.lines, std::vector<uint32_t>{testing::kFarWriteLine});
    EXPECT_EQ(r.findings.front().kind, FindingKind::OutOfBounds) << "shown first: " << dump(r.findings);
    // The recorded access: thread 1's last event, at the faulting instruction, which its end names.
    const trace::Trace& t = r.trace;
    ASSERT_EQ(f.threads.size(), 1u);
    const uint32_t thread = f.threads[0];
    EXPECT_EQ(t.threads[thread].end, trace::ThreadEnd::Faulted);
    EXPECT_EQ(t.threads[thread].end_site, f.sites[0]);
    const trace::Event* last = nullptr;
    for (const trace::Event& e : t.events)
        if (e.thread == thread) last = &e;
    ASSERT_NE(last, nullptr);
    EXPECT_EQ(last->kind, trace::EventKind::Store);
    EXPECT_EQ(last->space(), trace::Space::Global);
    EXPECT_EQ(last->size(), 4u);
    EXPECT_EQ(last->site, f.sites[0]);
    EXPECT_EQ(last->address, f.address);
    EXPECT_TRUE(t.memory.complete());
    ASSERT_NE(t.memory.find(trace::Space::Global, f.address - 4096), nullptr);
    EXPECT_EQ(t.memory.find(trace::Space::Global, f.address - 4096)->name, "a");
}

// Whichever thread a schedule makes fault first, the finding names that thread, and its words are
// the simulator's.
TEST(analysis_bounds_e2e, EverySchedulesFaultIsTheFindingsExample) {
    for (const sim::Schedule schedule : {sim::Schedule::Random, sim::Schedule::Adversarial})
        for (uint64_t seed = 1; seed <= 4; ++seed) {
            SCOPED_TRACE(std::string(sim::to_string(schedule)) + " seed " + std::to_string(seed));
            const runner::RunSummary r = runner::run_job(far_write_job(), sim_options(schedule, seed));
            ASSERT_EQ(r.status, trace::RunStatus::Error) << r.message;
            const std::vector<Finding> found = out_of_bounds(r.findings);
            ASSERT_EQ(found.size(), 1u) << dump(r.findings);
            const std::string& text = found[0].text;
            // "... by block B thread T: N bytes past the end of a (64 bytes)": the simulator says the
            // same place in parentheses.
            const std::string place = text.substr(text.find(": ") + 2);
            EXPECT_TRUE(contains(r.message, "(" + place + ")")) << text << "\n" << r.message;
            const uint32_t thread = found[0].threads.at(0);
            EXPECT_EQ(r.trace.threads[thread].end, trace::ThreadEnd::Faulted);
            const trace::ThreadInfo& who = r.trace.threads[thread];
            EXPECT_TRUE(contains(text, "by block " + std::to_string(who.block) + " thread " +
                                           std::to_string(who.thread_in_block) + ":"))
                << text;
            const uint64_t i = uint64_t(who.block) * 64 + who.thread_in_block;
            EXPECT_TRUE(contains(place, std::to_string(i * 4096 - 64) + " bytes past the end of a")) << text;
        }
}

// Before the start (the simulator's message, a being its first allocation, says "not inside any
// buffer"; the finding names the nearest region), and a read past the end.
TEST(analysis_bounds_e2e, BeforeTheStartAndAReadPastTheEnd) {
    runner::RunSummary r = runner::run_job(bounds_job("_Z22write_before_the_startPi", 1, 16, {{"a", 16}}),
                                           sim_options(sim::Schedule::RoundRobin));
    EXPECT_EQ(r.status, trace::RunStatus::Error);
    std::vector<Finding> found = out_of_bounds(r.findings);
    ASSERT_EQ(found.size(), 1u) << dump(r.findings);
    EXPECT_EQ(found[0].message,
              "out-of-bounds write of 4 bytes at line 20 by block 0 thread 0: 4 bytes before the "
              "start of a (64 bytes)");

    r = runner::run_job(bounds_job("_Z17read_past_the_endPKiPi", 1, 32, {{"a", 16}, {"out", 32}}),
                        sim_options(sim::Schedule::RoundRobin));
    EXPECT_EQ(r.status, trace::RunStatus::Error);
    found = out_of_bounds(r.findings);
    ASSERT_EQ(found.size(), 1u) << dump(r.findings);
    EXPECT_EQ(found[0].message,
              "out-of-bounds read of 4 bytes at line 28 by block 0 thread 16: 0 bytes past the "
              "end of a (64 bytes)");
    EXPECT_TRUE(contains(r.message, "out-of-bounds read of 4 bytes")) << r.message;
}

// 1 GiB past a's start: the simulator's message still counts from a's end; the finding says that no
// buffer is near (a wild address, as a GPU sees it).
TEST(analysis_bounds_e2e, AWriteFarFromEveryBuffer) {
    const runner::RunSummary r = runner::run_job(bounds_job("_Z14write_far_awayPi", 2, 64, {{"a", 16}}),
                                                 sim_options(sim::Schedule::RoundRobin));
    EXPECT_EQ(r.status, trace::RunStatus::Error);
    const std::vector<Finding> found = out_of_bounds(r.findings);
    ASSERT_EQ(found.size(), 1u) << dump(r.findings);
    const Finding& f = found[0];
    EXPECT_EQ(f.text, "out-of-bounds write of 4 bytes at line 46 by block 0 thread 1: global address " +
                          trace::format_hex(f.address) + ", not inside any buffer");
    EXPECT_EQ(f.memory, "global address " + trace::format_hex(f.address));
    const trace::MemoryRegion* a = r.trace.memory.find(trace::Space::Global, f.address - (uint64_t(1) << 30));
    ASSERT_NE(a, nullptr);
    EXPECT_EQ(a->name, "a");
}

TEST(analysis_bounds_e2e, WritesInsideGiveNothing) {
    const runner::RunSummary r = runner::run_job(bounds_job("_Z12write_insidePii", 2, 64, {{"a", 16}}, 16),
                                                 sim_options(sim::Schedule::Random));
    EXPECT_EQ(r.status, trace::RunStatus::Ok) << r.message;
    EXPECT_TRUE(r.findings.empty()) << dump(r.findings);
    EXPECT_TRUE(r.trace.memory.complete());
}

// A saved run is analysed as the fresh one: the map and its completeness travel in the .slt.
TEST(analysis_bounds_e2e, ASavedTraceGivesTheSameFinding) {
    const runner::RunSummary r = runner::run_job(far_write_job(), sim_options(sim::Schedule::RoundRobin));
    const trace::Trace loaded = trace::deserialize(trace::serialize(r.trace), "far.slt");
    const std::vector<Finding> again = out_of_bounds(analyze(loaded));
    ASSERT_EQ(again.size(), 1u);
    EXPECT_EQ(again[0].message, out_of_bounds(r.findings).at(0).message);
}

// A cooperative launch's grid barrier works in a workspace the runtime places (on a GPU, the
// driver's), which no map holds: its map only names, and the simulator's stop gives no finding.
TEST(analysis_bounds_e2e, ACooperativeLaunchsMapOnlyNames) {
    runner::KernelJob job = far_write_job();
    job.launch.cooperative = true;
    const runner::RunSummary r = runner::run_job(job, sim_options(sim::Schedule::RoundRobin));
    EXPECT_EQ(r.status, trace::RunStatus::Error);
    EXPECT_TRUE(contains(r.message, "past the end of a (64 bytes)")) << r.message;
    EXPECT_FALSE(r.trace.memory.complete());
    EXPECT_FALSE(r.trace.memory.empty()) << "it still names a";
    EXPECT_TRUE(out_of_bounds(r.findings).empty()) << dump(r.findings);
}

} // namespace
} // namespace synclab::analysis
