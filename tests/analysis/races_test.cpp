// find_shared_races: RAW / WAR / WAW detection, barrier ordering, blocks, atomics, sizes, counting.
#include "analysis/findings.h"
#include "trace_builder.h"

#include <gtest/gtest.h>

namespace synclab::analysis {
namespace {

using testing::dump;
using testing::only;
using testing::TraceBuilder;
using V = std::vector<uint32_t>;

// Verdict: thread 30 writes 0x7c (line 5), thread 31 then reads it (line 7), no barrier -> one RAW.
TEST(analysis_races, RawReportsLinesThreadsCountAndMessage) {
    TraceBuilder b(1, 32);
    const uint16_t write = b.site(5), read = b.site(7);
    b.store(b.thread(0, 30), write, 0x7c).load(b.thread(0, 31), read, 0x7c).exit_all();
    const auto found = find_shared_races(b.trace());
    ASSERT_EQ(found.size(), 1u) << dump(found);
    const Finding& f = found[0];
    EXPECT_EQ(f.kind, FindingKind::Race);
    EXPECT_EQ(f.hazard, Hazard::RAW);
    EXPECT_EQ(f.space, trace::Space::Shared);
    EXPECT_EQ(f.lines, (V{5, 7}));
    EXPECT_EQ(f.sites, (V{write, read}));
    EXPECT_EQ(f.threads, (V{b.thread(0, 30), b.thread(0, 31)}));
    EXPECT_EQ(f.count, 1u);
    EXPECT_EQ(f.address, 0x7cu);
    EXPECT_EQ(f.block, 0u);
    EXPECT_EQ(f.message,
              "RAW hazard on __shared__ address 0x7c: block 0 thread 31 (warp 0, lane 31) at line 7 reads a "
              "value block 0 thread 30 (warp 0, lane 30) wrote at line 5 within a warp: no __syncwarp() "
              "between them (it did no harm in this run: right by luck)");
}

// Verdict: thread 3 reads (line 5), thread 4 then writes (line 8) -> one WAR, reader first.
TEST(analysis_races, WarReportsReaderFirst) {
    TraceBuilder b(2, 8);
    const uint16_t read = b.site(5), write = b.site(8);
    b.load(b.thread(1, 3), read, 0x10).store(b.thread(1, 4), write, 0x10).exit_all();
    const auto found = find_shared_races(b.trace());
    ASSERT_EQ(found.size(), 1u) << dump(found);
    EXPECT_EQ(found[0].hazard, Hazard::WAR);
    EXPECT_EQ(found[0].lines, (V{5, 8}));
    EXPECT_EQ(found[0].threads, (V{b.thread(1, 3), b.thread(1, 4)}));
    EXPECT_EQ(found[0].count, 1u);
    EXPECT_EQ(found[0].block, 1u);
    EXPECT_EQ(
        found[0].message,
        "WAR hazard on __shared__ address 0x10: block 1 thread 4 (warp 0, lane 4) at line 8 overwrites a "
        "value block 1 thread 3 (warp 0, lane 3) read at line 5 within a warp: no __syncwarp() "
        "between them (it did no harm in this run: right by luck)");
}

// Verdict: two threads write one word at the same line -> one WAW, the line listed once.
TEST(analysis_races, WawAtOneLineListsTheLineOnce) {
    TraceBuilder b(1, 4);
    const uint16_t write = b.site(6);
    b.store(b.thread(0, 1), write, 0x0).store(b.thread(0, 2), write, 0x0).exit_all();
    const auto found = find_shared_races(b.trace());
    ASSERT_EQ(found.size(), 1u) << dump(found);
    EXPECT_EQ(found[0].hazard, Hazard::WAW);
    EXPECT_EQ(found[0].lines, (V{6}));
    EXPECT_EQ(found[0].sites, (V{write}));
    EXPECT_EQ(found[0].threads, (V{1, 2}));
    EXPECT_EQ(found[0].count, 1u);
}

// Verdict: write / barrier / read / barrier / write by other threads -> no race.
TEST(analysis_races, NoRaceAcrossBarrier) {
    TraceBuilder b(1, 4);
    const uint16_t write = b.site(3), sync = b.site(4), read = b.site(5), write2 = b.site(7);
    b.store(0, write, 0x20)
        .barrier(0, sync)
        .load(1, read, 0x20)
        .barrier(0, sync)
        .store(2, write2, 0x20)
        .exit_all();
    const auto found = find_shared_races(b.trace());
    EXPECT_TRUE(found.empty()) << dump(found);
}

// Verdict: after a barrier the next epoch's race is still found (stale state dropped, fresh kept).
TEST(analysis_races, RaceInALaterEpochIsFound) {
    TraceBuilder b(1, 4);
    const uint16_t write = b.site(3), sync = b.site(4), write2 = b.site(5), read = b.site(6);
    b.store(0, write, 0x20).barrier(0, sync).store(1, write2, 0x20).load(2, read, 0x20).exit_all();
    const auto found = find_shared_races(b.trace());
    ASSERT_EQ(found.size(), 1u) << dump(found);
    EXPECT_EQ(found[0].hazard, Hazard::RAW);
    EXPECT_EQ(found[0].lines, (V{5, 6}));
    EXPECT_EQ(found[0].threads, (V{1, 2}));
}

// Verdict: the same shared offsets written and read by threads of two blocks (each block touching
// them from one thread only) are different locations -> no race.
TEST(analysis_races, NoRaceBetweenBlocks) {
    TraceBuilder b(2, 4);
    const uint16_t write = b.site(3), read = b.site(4);
    b.store(b.thread(0, 0), write, 0x40).load(b.thread(1, 1), read, 0x40).store(b.thread(1, 1), write, 0x40);
    b.load(b.thread(0, 1), read, 0x44).store(b.thread(1, 0), write, 0x44).exit_all();
    const auto found = find_shared_races(b.trace());
    EXPECT_TRUE(found.empty()) << dump(found);
}

// Verdict: one thread writing, reading and writing again -> no race.
TEST(analysis_races, NoRaceForSameThread) {
    TraceBuilder b(1, 4);
    const uint16_t write = b.site(3), read = b.site(4);
    b.store(2, write, 0x8).load(2, read, 0x8).store(2, write, 0x8).exit_all();
    const auto found = find_shared_races(b.trace());
    EXPECT_TRUE(found.empty()) << dump(found);
}

// Verdict: atomics (atom and red) of several threads on one word -> no race.
TEST(analysis_races, NoRaceBetweenAtomics) {
    TraceBuilder b(1, 4);
    const uint16_t add = b.site(9), red = b.site(10);
    b.atomic(0, add, 0x0).atomic(1, add, 0x0).reduction(2, red, 0x0).atomic(3, add, 0x0).exit_all();
    const auto found = find_shared_races(b.trace());
    EXPECT_TRUE(found.empty()) << dump(found);
}

// Verdict: an atomic then another thread's plain store -> WAW; a plain read then an atomic -> WAR.
TEST(analysis_races, AtomicAgainstPlainAccessRaces) {
    TraceBuilder b(1, 4);
    const uint16_t add = b.site(9), store = b.site(10), read = b.site(11), add2 = b.site(12);
    b.atomic(0, add, 0x0).store(1, store, 0x0); // WAW (9, 10)
    b.load(2, read, 0x4).atomic(3, add2, 0x4);  // WAR (11, 12)
    b.exit_all();
    const auto found = find_shared_races(b.trace());
    ASSERT_EQ(found.size(), 2u) << dump(found);
    EXPECT_EQ(found[0].hazard, Hazard::WAW);
    EXPECT_EQ(found[0].lines, (V{9, 10}));
    EXPECT_EQ(found[0].threads, (V{0, 1}));
    EXPECT_EQ(found[1].hazard, Hazard::WAR);
    EXPECT_EQ(found[1].lines, (V{11, 12}));
    EXPECT_EQ(found[1].threads, (V{2, 3}));
}

// Verdict: byte writes to different bytes don't race; a word read over both races with each writer
// (count 2); an 8-byte write races with a 2-byte read inside it but not with a read past its end;
// a 2-byte write counts each 4-byte reader once, not once per byte.
TEST(analysis_races, SubWordAndEightByteOverlaps) {
    TraceBuilder b(1, 16);
    const uint16_t byte_write = b.site(1), word_read = b.site(2), wide_write = b.site(3),
                   narrow_read = b.site(4), read5 = b.site(5), half_write = b.site(6);
    b.store(0, byte_write, 0x10, 1).store(1, byte_write, 0x11, 1); // disjoint bytes: no race
    b.load(2, word_read, 0x10, 4);                                 // RAW with 0 and 1
    b.store(3, wide_write, 0x18, 8).load(4, narrow_read, 0x1c, 2); // RAW: 0x1c is inside 0x18..0x1f
    b.load(5, narrow_read, 0x20, 4);                               // past the 8 bytes: no race
    b.load(6, read5, 0x30, 4).load(7, read5, 0x30, 4).store(8, half_write, 0x32, 2); // WAR x2
    b.exit_all();
    const auto found = find_shared_races(b.trace());
    // None did harm (every pair ran in program order): more pairs first, then by lines.
    ASSERT_EQ(found.size(), 3u) << dump(found);
    EXPECT_EQ(found[0].hazard, Hazard::RAW);
    EXPECT_EQ(found[0].lines, (V{1, 2}));
    EXPECT_EQ(found[0].count, 2u);
    EXPECT_EQ(found[0].address, 0x10u);
    EXPECT_EQ(found[1].hazard, Hazard::WAR);
    EXPECT_EQ(found[1].lines, (V{5, 6}));
    EXPECT_EQ(found[1].count, 2u);
    EXPECT_EQ(found[1].address, 0x32u);
    EXPECT_EQ(found[2].hazard, Hazard::RAW);
    EXPECT_EQ(found[2].lines, (V{3, 4}));
    EXPECT_EQ(found[2].count, 1u);
    EXPECT_EQ(found[2].address, 0x1cu); // the first overlapping byte
    EXPECT_EQ(found[2].threads, (V{3, 4}));
}

// Verdict: thread 0 writes s[0]; threads 1..255 each read it twice at one site; thread 0 writes it
// again. RAW counts every racing read (255 x 2 = 510); WAR counts each reader thread once per site
// (255); thread 0's own writes never race with each other.
TEST(analysis_races, ManyReadersAreCountedRight) {
    TraceBuilder b(1, 256);
    const uint16_t write = b.site(3), read = b.site(4), write2 = b.site(5);
    b.store(0, write, 0x0);
    for (uint32_t t = 1; t < 256; ++t)
        b.load(t, read, 0x0);
    for (uint32_t t = 1; t < 256; ++t)
        b.load(t, read, 0x0);
    b.load(0, read, 0x0); // the writer itself reading: no race
    b.store(0, write2, 0x0);
    b.exit_all();
    const auto found = find_shared_races(b.trace());
    ASSERT_EQ(found.size(), 2u) << dump(found);
    EXPECT_EQ(found[0].hazard, Hazard::RAW);
    EXPECT_EQ(found[0].lines, (V{3, 4}));
    EXPECT_EQ(found[0].count, 510u);
    EXPECT_EQ(found[0].threads, (V{0, 1}));
    EXPECT_EQ(found[1].hazard, Hazard::WAR);
    EXPECT_EQ(found[1].lines, (V{4, 5}));
    EXPECT_EQ(found[1].count, 255u);
    EXPECT_EQ(found[1].threads, (V{1, 0}));
    EXPECT_EQ(found[1].message,
              "WAR hazard on __shared__ address 0x0: block 0 thread 0 (warp 0, lane 0) at line 5 overwrites a "
              "value block 0 thread 1 (warp 0, lane 1) read at line 4 within a warp: no __syncwarp() "
              "between them (none did harm in this run; 255 racing access pairs were right by luck)");
}

// Verdict: thread 1 writes and exits; the others pass a barrier (complete without thread 1) and
// read -> no race: the exit precedes the barrier's completion.
TEST(analysis_races, ExitedThreadIsOrderedBeforeLaterPhases) {
    TraceBuilder b(1, 4);
    const uint16_t write = b.site(3), sync = b.site(4), read = b.site(5);
    b.store(1, write, 0x4).exit(1).barrier(0, sync).load(2, read, 0x4).exit_all();
    const auto found = find_shared_races(b.trace());
    EXPECT_TRUE(found.empty()) << dump(found);
}

// Verdict (documented limitation): a named barrier with 2 of 4 threads is not block-wide, so the
// accesses it orders are still reported as a race.
TEST(analysis_races, PartialNamedBarrierDoesNotOrder) {
    TraceBuilder b(1, 4);
    const uint16_t write = b.site(3), sync = b.site(4), read = b.site(5);
    b.store(0, write, 0x4).arrive(0, sync, 1).arrive(1, sync, 1).release(0, 1).load(1, read, 0x4).exit_all();
    const auto found = find_shared_races(b.trace());
    ASSERT_EQ(found.size(), 1u) << dump(found);
    EXPECT_EQ(found[0].hazard, Hazard::RAW);
}

// Verdict: global accesses are not this analysis' business.
TEST(analysis_races, GlobalAccessesIgnored) {
    TraceBuilder b(1, 4);
    const uint16_t write = b.site(3), read = b.site(4);
    b.store(0, write, 0x1000, 4, trace::Space::Global)
        .load(1, read, 0x1000, 4, trace::Space::Global)
        .exit_all();
    const auto found = find_shared_races(b.trace());
    EXPECT_TRUE(found.empty()) << dump(found);
}

// Verdict: a site without a CUDA line is named by its PTX line, which goes into ptx_lines (lines
// holds CUDA lines only).
TEST(analysis_races, PtxLineOfASiteWithoutSourceLineApart) {
    TraceBuilder b(1, 4);
    const uint16_t write = b.site(0, 40), read = b.site(7);
    b.store(0, write, 0x4).load(1, read, 0x4).exit_all();
    const auto found = find_shared_races(b.trace());
    ASSERT_EQ(found.size(), 1u) << dump(found);
    EXPECT_EQ(found[0].lines, (V{7}));
    EXPECT_EQ(found[0].ptx_lines, (V{40}));
    EXPECT_EQ(found[0].sites, (V{write, read}));
    EXPECT_EQ(
        found[0].message,
        "RAW hazard on __shared__ address 0x4: block 0 thread 1 (warp 0, lane 1) at line 7 reads a value "
        "block 0 thread 0 (warp 0, lane 0) wrote at PTX line 40 within a warp: no __syncwarp() "
        "between them (it did no harm in this run: right by luck)");
}

} // namespace
} // namespace synclab::analysis
