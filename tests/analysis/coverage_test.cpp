// coverage() and the rule behind it: every analysis reads the blocks with a whole history only, so
// that no finding rests on a partial one (lost barrier events make ordered accesses look unordered).
#include "analysis/findings.h"
#include "trace_builder.h"

#include <gtest/gtest.h>

namespace synclab::analysis {
namespace {

using testing::dump;
using testing::only;
using testing::TraceBuilder;
using trace::BlockHistory;
using trace::Space;
using trace::ThreadEnd;
using V = std::vector<uint32_t>;

// Two blocks of 100 threads run `s[t] = ...; __syncthreads(); ... = s[t + 1];` and write g_out[gid].
// Block 1's barrier events were lost (a full trace buffer drops events inside a block): its
// accesses look unordered. `block1` is how the trace marks block 1.
TraceBuilder lost_barrier(BlockHistory block1) {
    TraceBuilder b(2, 100);
    const uint16_t fill = b.site(10), sync = b.sync_site(11), read = b.site(12), out = b.site(13);
    for (uint32_t block = 0; block < 2; ++block) {
        for (uint32_t t = 0; t < 100; ++t)
            b.store(b.thread(block, t), fill, 4 * t);
        if (block == 0) b.barrier(0, sync); // block 1's arrive and leave events are missing
        for (uint32_t t = 0; t < 100; ++t)
            b.load(b.thread(block, t), read, 4 * ((t + 1) % 100));
        for (uint32_t t = 0; t < 100; ++t)
            b.store(b.thread(block, t), out, 0x1000 + 4 * b.thread(block, t), 4, Space::Global);
    }
    b.exit_all();
    b.mutable_trace().meta.dropped_events = 200;
    b.history(1, block1);
    return b;
}

// Verdict: with block 1 marked partial, no race (its missing barrier events would have made one);
// the same events with block 1 claimed whole give the 100 RAW pairs of block 1.
TEST(analysis_coverage, PartialBlockGivesNoRace) {
    const auto quiet = analyze(lost_barrier(BlockHistory::Partial).trace());
    EXPECT_TRUE(quiet.empty()) << dump(quiet);
    const auto found = analyze(lost_barrier(BlockHistory::Whole).trace());
    ASSERT_EQ(found.size(), 1u) << dump(found);
    EXPECT_EQ(found[0].hazard, Hazard::RAW);
    EXPECT_EQ(found[0].block, 1u);
    EXPECT_EQ(found[0].count, 100u);
}

// Verdict: a global race whose one side is in a partial block, and a lost update whose RMWs are all
// in one, are left out; a divergent barrier phase in a partial block too.
TEST(analysis_coverage, PartialBlocksLeftOutOfEveryAnalysis) {
    TraceBuilder b(3, 32);
    const uint16_t write = b.site(5), read = b.site(6), load = b.site(7), store = b.site(8),
                   then_sync = b.sync_site(9), else_sync = b.sync_site(10);
    b.store(b.thread(0, 0), write, 0x100, 4, Space::Global)
        .load(b.thread(2, 0), read, 0x100, 4, Space::Global);
    for (uint32_t t = 0; t < 2; ++t)
        b.load(b.thread(2, t), load, 0x200, 4, Space::Global);
    for (uint32_t t = 0; t < 2; ++t)
        b.store(b.thread(2, t), store, 0x200, 4, Space::Global);
    for (uint32_t t = 0; t < 32; ++t)
        b.arrive(b.thread(2, t), t < 16 ? then_sync : else_sync);
    b.release(2).exit_all();
    // While block 2 counts: a race, the divergent phase and its warp, a lost update.
    EXPECT_EQ(analyze(b.trace()).size(), 4u) << dump(analyze(b.trace()));
    b.history(2, BlockHistory::Partial);
    const auto found = analyze(b.trace());
    EXPECT_TRUE(found.empty()) << dump(found);
}

// Verdict: a spin loop fills the trace buffer, so every block is partial: the finding still says
// where the unfinished threads were last seen (the line of each one's last recorded event).
TEST(analysis_coverage, TimeoutOfASpinNamesWhereItsThreadsWereLastSeen) {
    TraceBuilder b(2, 32);
    const uint16_t cas = b.site(52, 0, "atom.global.cas.b32 %r5, [%rd1], %r3, %r4");
    const uint16_t load = b.site(48, 0, "ld.global.u32 %r3, [%rd1]");
    for (uint32_t blk = 0; blk < 2; ++blk)
        for (uint32_t t = 0; t < 32; ++t) {
            b.load(b.thread(blk, t), load, 0x100, 4, Space::Global);
            for (int spin = 0; spin < 3; ++spin)
                b.atomic(b.thread(blk, t), cas, 0x100, 4, Space::Global);
            b.end(b.thread(blk, t), ThreadEnd::Running, cas);
        }
    b.status(trace::RunStatus::Timeout).history(0, BlockHistory::Partial).history(1, BlockHistory::Partial);
    const auto found = find_deadlock(b.trace());
    ASSERT_EQ(found.size(), 1u);
    EXPECT_EQ(found[0].message, "run timed out; no block recorded whole shows unfinished threads; the last events "
                                "recorded show 64 threads still running at line 52 (a loop that never ends?)");
    EXPECT_EQ(found[0].lines, std::vector<uint32_t>{52});
}

// Verdict: a hung run whose only stuck block is partial: the deadlock finding says the run hung but
// describes no block; a whole block's stuck threads are described.
TEST(analysis_coverage, DeadlockDescribesWholeBlocksOnly) {
    TraceBuilder b(2, 32);
    const uint16_t sync = b.sync_site(12);
    for (uint32_t t = 0; t < 32; ++t)
        b.arrive(b.thread(1, t), sync).end(b.thread(1, t), ThreadEnd::AtBarrier, sync);
    for (uint32_t t = 0; t < 32; ++t)
        b.exit(b.thread(0, t));
    b.status(trace::RunStatus::Timeout).history(1, BlockHistory::Partial);
    auto found = find_deadlock(b.trace());
    ASSERT_EQ(found.size(), 1u);
    EXPECT_EQ(found[0].message, "run timed out; no block recorded whole shows unfinished threads");
    EXPECT_TRUE(found[0].lines.empty()) << "waiting threads of a partial block name no line";
    b.history(1, BlockHistory::Whole);
    found = find_deadlock(b.trace());
    ASSERT_EQ(found.size(), 1u);
    EXPECT_EQ(found[0].message, "run timed out: block 1: threads 0-31 wait at line 12 (32 waiting threads)");
}

// Verdict: coverage names the blocks analysed and why the others were not.
TEST(analysis_coverage, SaysWhichBlocksAndWhy) {
    TraceBuilder b(64, 32);
    EXPECT_TRUE(coverage(b.trace()).complete());
    EXPECT_EQ(coverage(b.trace()).summary, "analysed all 64 blocks");

    b.mutable_trace().meta.dropped_events = 1234;
    for (uint32_t block = 12; block < 16; ++block)
        b.history(block, BlockHistory::Partial);
    for (uint32_t block = 16; block < 64; ++block)
        b.history(block, BlockHistory::NotRecorded);
    Coverage c = coverage(b.trace());
    EXPECT_FALSE(c.complete());
    EXPECT_EQ(c.blocks, 64u);
    EXPECT_EQ(c.analysed, 12u);
    EXPECT_EQ(c.partial, (V{12, 13, 14, 15}));
    EXPECT_EQ(c.not_recorded.size(), 48u);
    EXPECT_EQ(c.summary, "analysed 12 of 64 blocks: blocks 12-15 lost events (the trace buffer was full), "
                         "blocks 16-63 were not recorded");

    // The simulator's event budget cut the run; blocks that never started are told apart.
    b.mutable_trace().meta.dropped_events = 0;
    b.status(trace::RunStatus::Budget);
    for (uint32_t block = 40; block < 64; ++block)
        for (uint32_t t = 0; t < 32; ++t)
            b.end(b.thread(block, t), ThreadEnd::NotStarted, 0);
    c = coverage(b.trace());
    EXPECT_EQ(c.not_started.size(), 24u);
    EXPECT_EQ(c.summary,
              "analysed 12 of 64 blocks: blocks 12-15 lost events (the run stopped at its budget), "
              "blocks 16-39 were not recorded, blocks 40-63 never started");

    TraceBuilder one(1, 7);
    one.history(0, BlockHistory::Partial);
    EXPECT_EQ(coverage(one.trace()).summary,
              "analysed 0 of 1 blocks: block 0 lost events (their trace is incomplete)");
}

// Verdict: a trace without a thread table (an untraced run, a launch refused before it ran) claims
// no analysed block, whatever its grid says.
TEST(analysis_coverage, NoThreadTableMeansNothingAnalysed) {
    trace::Trace t;
    t.meta.grid = {4294967295u, 65535, 65535};
    const Coverage c = coverage(t);
    EXPECT_FALSE(c.recorded);
    EXPECT_FALSE(c.complete());
    EXPECT_EQ(c.analysed, 0u);
    EXPECT_EQ(c.summary, "no trace was recorded: nothing was analysed");
}

} // namespace
} // namespace synclab::analysis
