// The bounds check (find_out_of_bounds, analysis/bounds.cpp) on hand-built traces: accesses inside,
// past the end, before the start, straddling the end of a region, far from every region; one
// finding per instruction; nothing without a complete memory map.
#include "analysis/finding_kinds.h"
#include "trace_builder.h"

#include <gtest/gtest.h>

namespace synclab::analysis {
namespace {

using testing::dump;
using testing::only;
using testing::TraceBuilder;

constexpr uint64_t kA = 0x7f0000010000; // a: 16 ints
constexpr uint64_t kB = 0x7f0000000000; // b: 6 bytes, untyped (below a)

// Two blocks of 64 threads, sites at lines 7 (a store), 9 (a load) and 11 (an atomic), and a
// complete map holding a and b (and a shared array, which the check leaves alone).
TraceBuilder launch() {
    TraceBuilder b(2, 64);
    b.site(7, 40, "st.global.u32 [%rd4], %r4");
    b.site(9, 41, "ld.global.u32 %r2, [%rd6]");
    b.site(11, 42, "atom.global.add.u32 %r3, [%rd2], 1");
    trace::MemoryRegion a;
    a.name = "a";
    a.space = trace::Space::Global;
    a.base = kA;
    a.bytes = 64;
    a.element_type = "s32";
    a.element_size = 4;
    trace::MemoryRegion bytes;
    bytes.name = "b";
    bytes.space = trace::Space::Global;
    bytes.base = kB;
    bytes.bytes = 6;
    trace::MemoryRegion tile;
    tile.name = "s_tile";
    tile.space = trace::Space::Shared;
    tile.bytes = 256;
    trace::MemoryMap& map = b.mutable_trace().memory;
    EXPECT_TRUE(map.add(a));
    EXPECT_TRUE(map.add(bytes));
    EXPECT_TRUE(map.add(tile));
    map.set_complete(true);
    return b;
}

constexpr uint16_t kStore = 0, kLoad = 1, kAtomic = 2;

TEST(analysis_bounds, AccessesInsideTheirRegionsGiveNothing) {
    TraceBuilder b = launch();
    b.store(b.thread(0, 0), kStore, kA, 4, trace::Space::Global)
        .store(b.thread(0, 15), kStore, kA + 60, 4, trace::Space::Global)
        .load(b.thread(1, 2), kLoad, kB + 2, 4, trace::Space::Global)
        .atomic(b.thread(1, 3), kAtomic, kA + 8, 4, trace::Space::Global)
        // (shared memory is not the check's: an offset past the window is the simulator's fault)
        .store(b.thread(0, 1), kStore, 4096, 4, trace::Space::Shared)
        .exit_all();
    EXPECT_TRUE(find_out_of_bounds(b.trace()).empty()) << dump(find_out_of_bounds(b.trace()));
}

// Issue 20's kernel: thread i writes a[i * 1024] into 16 ints. Worded as the simulator words its
// fault; one finding for the instruction.
TEST(analysis_bounds, AWritePastTheEndIsNamedAsTheSimulatorNamesIt) {
    TraceBuilder b = launch();
    b.store(b.thread(0, 0), kStore, kA, 4, trace::Space::Global)
        .store(b.thread(0, 32), kStore, kA + 32 * 4096, 4, trace::Space::Global)
        .store(b.thread(1, 3), kStore, kA + 67 * 4096, 4, trace::Space::Global)
        .store(b.thread(0, 1), kStore, kA + 4096, 4, trace::Space::Global)
        .exit_all();
    const std::vector<Finding> found = find_out_of_bounds(b.trace());
    ASSERT_EQ(found.size(), 1u) << dump(found);
    const Finding& f = found[0];
    EXPECT_EQ(f.kind, FindingKind::OutOfBounds);
    EXPECT_EQ(f.check, "outside_memory");
    EXPECT_EQ(f.space, trace::Space::Global);
    EXPECT_EQ(f.lines, std::vector<uint32_t>{7});
    EXPECT_EQ(f.sites, std::vector<uint32_t>{kStore});
    EXPECT_EQ(f.count, 3u) << "one finding per instruction, every access counted";
    EXPECT_EQ(f.harmful, 3u);
    EXPECT_EQ(f.threads, std::vector<uint32_t>{b.thread(0, 32)}) << "the first access is the example";
    EXPECT_EQ(f.block, 0u);
    EXPECT_EQ(f.address, kA + 32 * 4096);
    EXPECT_EQ(f.memory, "global address 0x7f0000030000");
    EXPECT_EQ(f.region, "");
    EXPECT_EQ(f.text, "out-of-bounds write of 4 bytes at line 7 by block 0 thread 32: 131008 bytes past the "
                      "end of a (64 bytes)");
    EXPECT_EQ(f.message, f.text + " (3 out-of-bounds accesses)");
    EXPECT_EQ(report_title(f), "Out-of-bounds access to __global__ memory");
    EXPECT_EQ(std::string(to_string(f.kind)), "out_of_bounds");
}

TEST(analysis_bounds, ARead4BytesBeforeTheStart) {
    TraceBuilder b = launch();
    b.load(b.thread(1, 3), kLoad, kA - 4, 4, trace::Space::Global).exit_all();
    const std::vector<Finding> found = find_out_of_bounds(b.trace());
    ASSERT_EQ(found.size(), 1u) << dump(found);
    EXPECT_EQ(found[0].message, "out-of-bounds read of 4 bytes at line 9 by block 1 thread 3: 4 bytes before "
                                "the start of a (64 bytes)");
    EXPECT_EQ(found[0].count, 1u);
}

// An access that begins inside a region but does not end there: b has 6 bytes, the load takes 4
// from byte 4. Named by the element it starts in (b is untyped: the access's width indexes it).
TEST(analysis_bounds, AnAccessStraddlingTheEndIsOutOfBounds) {
    TraceBuilder b = launch();
    b.load(b.thread(0, 5), kLoad, kB + 4, 4, trace::Space::Global).exit_all();
    const std::vector<Finding> found = find_out_of_bounds(b.trace());
    ASSERT_EQ(found.size(), 1u) << dump(found);
    EXPECT_EQ(found[0].message,
              "out-of-bounds read of 4 bytes at line 9 by block 0 thread 5: from byte 4 of b "
              "(6 bytes), 2 bytes past its end");
    EXPECT_EQ(found[0].memory, "b[1]");
    EXPECT_EQ(found[0].region, "b");
}

// Between a and b, the nearer names it; far from both (a null pointer), none does.
TEST(analysis_bounds, TheNearestRegionOrNone) {
    TraceBuilder b = launch();
    b.atomic(b.thread(0, 0), kAtomic, kB - 8, 4, trace::Space::Global)
        .store(b.thread(0, 1), kStore, 0x10, 4, trace::Space::Global)
        .exit_all();
    const std::vector<Finding> found = find_out_of_bounds(b.trace());
    ASSERT_EQ(found.size(), 2u) << dump(found);
    // (both harmful 1 and count 1: in line order)
    EXPECT_EQ(found[0].message,
              "out-of-bounds write of 4 bytes at line 7 by block 0 thread 1: global address "
              "0x10, not inside any buffer");
    EXPECT_EQ(found[1].message,
              "out-of-bounds write of 4 bytes at line 11 by block 0 thread 0: 8 bytes before "
              "the start of b (6 bytes)");
}

// Without a map that holds every allocation, an address outside the regions may be memory the map
// does not know: no finding (old .slt files, a cooperative launch's grid workspace).
TEST(analysis_bounds, NoMapOrAnIncompleteOneGivesNothing) {
    TraceBuilder b = launch();
    b.store(b.thread(0, 32), kStore, kA + 32 * 4096, 4, trace::Space::Global).exit_all();
    ASSERT_EQ(find_out_of_bounds(b.trace()).size(), 1u);
    trace::Trace incomplete = b.trace();
    incomplete.memory.set_complete(false);
    EXPECT_TRUE(find_out_of_bounds(incomplete).empty());
    EXPECT_TRUE(only(analyze(incomplete), FindingKind::OutOfBounds).empty());
    trace::Trace none = b.trace();
    none.memory.clear();
    EXPECT_FALSE(none.memory.complete()) << "clear() forgets completeness with the regions";
    EXPECT_TRUE(find_out_of_bounds(none).empty());
}

// ld.const names the constant bank (a GPU's addresses there are not global ones): left alone, though
// the trace records it in the global space.
TEST(analysis_bounds, ConstantLoadsAreLeftAlone) {
    TraceBuilder b = launch();
    const uint16_t konst = b.site(13, 43, "@%p1 ld.const.u32 %r5, [c_table+4]");
    b.load(b.thread(0, 0), konst, 0x40, 4, trace::Space::Global).exit_all();
    EXPECT_TRUE(find_out_of_bounds(b.trace()).empty()) << dump(find_out_of_bounds(b.trace()));
}

// A block whose history lost events still counts: one access out of bounds needs no ordering; and
// analyze() puts the finding right after a deadlock's (they stop a run alike).
TEST(analysis_bounds, PartialBlocksCountAndAnalyzeReportsIt) {
    TraceBuilder b = launch();
    b.store(b.thread(1, 3), kStore, kA + 100, 4, trace::Space::Global)
        .history(1, trace::BlockHistory::Partial)
        .exit_all();
    const std::vector<Finding> all = analyze(b.trace());
    const std::vector<Finding> found = only(all, FindingKind::OutOfBounds);
    ASSERT_EQ(found.size(), 1u) << dump(all);
    EXPECT_EQ(found[0].message, "out-of-bounds write of 4 bytes at line 7 by block 1 thread 3: 36 bytes past "
                                "the end of a (64 bytes)");
    EXPECT_LT(info(FindingKind::Deadlock).rank, info(FindingKind::OutOfBounds).rank);
    EXPECT_LT(info(FindingKind::OutOfBounds).rank, info(FindingKind::BarrierDivergence).rank);
}

// Findings of two runs merge by instruction: counts add, the first run's example stays.
TEST(analysis_bounds, MergedOverRuns) {
    TraceBuilder b = launch();
    b.store(b.thread(0, 1), kStore, kA + 4096, 4, trace::Space::Global).exit_all();
    std::vector<Finding> merged = find_out_of_bounds(b.trace());
    merge_findings(merged, find_out_of_bounds(b.trace()));
    ASSERT_EQ(merged.size(), 1u);
    EXPECT_EQ(merged[0].count, 2u);
    EXPECT_EQ(merged[0].runs, 2u);
    EXPECT_EQ(merged[0].message,
              "out-of-bounds write of 4 bytes at line 7 by block 0 thread 1: 4032 bytes past "
              "the end of a (64 bytes) (2 out-of-bounds accesses in 2 runs)");
}

} // namespace
} // namespace synclab::analysis
