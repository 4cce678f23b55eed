// find_scope_races and analyze(): strong accesses (atomics first of all) of different blocks that a
// block scope keeps from being morally strong (check "scope_race").
#include "analysis/findings.h"
#include "trace_builder.h"

#include <gtest/gtest.h>

namespace synclab::analysis {
namespace {

using testing::dump;
using testing::only;
using testing::TraceBuilder;
using trace::Scope;
using trace::Space;
using V = std::vector<uint32_t>;

constexpr uint64_t kCounter = 0x1000;
constexpr uint64_t kFlag = 0x2000;

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// `blocks` x `threads` threads each do one atomicAdd of `scope` on the counter at line 21, the blocks
// one after another (as the simulator's round robin runs them).
TraceBuilder counter(uint32_t blocks, uint32_t threads, Scope scope) {
    TraceBuilder b(blocks, threads);
    const uint16_t add = b.site(21, 0, "atom.global.cta.add.u32 %r1, [%rd2], 1");
    for (uint32_t block = 0; block < blocks; ++block)
        for (uint32_t t = 0; t < threads; ++t)
            b.strong_atomic(b.thread(block, t), add, kCounter, scope);
    b.exit_all();
    return b;
}

// Verdict: atomicAdd_block by the threads of one block on one counter -> nothing: block scope holds
// every thread that touches it.
TEST(analysis_scope_race, BlockScopeInsideOneBlockIsClean) {
    const TraceBuilder b = counter(1, 64, Scope::Block);
    EXPECT_TRUE(find_scope_races(b.trace()).empty());
    EXPECT_TRUE(only(analyze(b.trace()), FindingKind::Race).empty()) << dump(analyze(b.trace()));
}

// Verdict: atomicAdd_block by threads of two blocks on one counter -> one scope race (WAW), naming the
// scope, both blocks, the line and the fix; no other race or lost update.
TEST(analysis_scope_race, BlockScopeAcrossBlocksIsAScopeRace) {
    const TraceBuilder b = counter(2, 2, Scope::Block);
    const auto found = analyze(b.trace());
    const auto races = only(found, FindingKind::Race);
    ASSERT_EQ(races.size(), 1u) << dump(found);
    EXPECT_TRUE(only(found, FindingKind::LostUpdate).empty()) << dump(found);
    const Finding& f = races[0];
    EXPECT_EQ(f.check, "scope_race");
    EXPECT_EQ(f.hazard, Hazard::WAW);
    EXPECT_EQ(f.space, Space::Global);
    EXPECT_EQ(f.lines, (V{21}));
    EXPECT_EQ(f.address, kCounter);
    // Block 1's first atomic follows block 0's last one: one pair (the write it overwrites).
    EXPECT_EQ(f.count, 1u);
    EXPECT_EQ(f.harmful, 0u);
    EXPECT_EQ(f.threads, (V{b.thread(0, 1), b.thread(1, 0)}));
    EXPECT_EQ(f.message,
              "WAW hazard on global address 0x1000, a scope race: block 1 thread 0 and block 0 thread 1 at "
              "line 21 both update it with atomics of block scope (.cta); block scope makes an access atomic "
              "and ordered only among the threads of its own block, not between blocks 0-1: an update can be "
              "lost; use device scope for both (atomicAdd(), cuda::thread_scope_device), or keep block scope "
              "for memory that one block alone uses (1 racing access pair)");
}

// Verdict: the blocks interleave -> one pair per atomic that lands on another block's update, and
// every block is named.
TEST(analysis_scope_race, InterleavedBlocksCountEveryCrossing) {
    TraceBuilder b(3, 2);
    const uint16_t add = b.site(21);
    for (uint32_t t = 0; t < 2; ++t)
        for (uint32_t block = 0; block < 3; ++block)
            b.strong_atomic(b.thread(block, t), add, kCounter, Scope::Block);
    b.exit_all();
    const auto found = find_scope_races(b.trace());
    ASSERT_EQ(found.size(), 1u) << dump(found);
    EXPECT_EQ(found[0].count, 5u); // every atomic but the first lands on another block's
    EXPECT_TRUE(contains(found[0].message, "not between blocks 0-2")) << found[0].message;
    EXPECT_TRUE(contains(found[0].message, "(5 racing access pairs)")) << found[0].message;
}

// Verdict: device-scope (atomicAdd) and system-scope (atomicAdd_system) atomics of many blocks on one
// counter -> no race: they are morally strong.
TEST(analysis_scope_race, DeviceAndSystemScopeAreClean) {
    for (const Scope scope : {Scope::Device, Scope::System, Scope::None}) {
        const TraceBuilder b = counter(4, 8, scope);
        const auto found = analyze(b.trace());
        EXPECT_TRUE(only(found, FindingKind::Race).empty()) << dump(found);
    }
}

// Verdict: a block-scope atomic of block 0 and a device-scope one of block 1 on one counter -> a
// scope race: mixing scopes is not morally strong either; the message names the narrow one's line
// and block.
TEST(analysis_scope_race, BlockScopeMixedWithDeviceScope) {
    TraceBuilder b(2, 1);
    const uint16_t narrow = b.site(21), wide = b.site(30);
    b.strong_atomic(b.thread(0, 0), narrow, kCounter, Scope::Block);
    b.strong_atomic(b.thread(1, 0), wide, kCounter, Scope::Device);
    b.exit_all();
    const auto found = analyze(b.trace());
    ASSERT_EQ(found.size(), 1u) << dump(found);
    EXPECT_EQ(found[0].check, "scope_race");
    EXPECT_EQ(found[0].lines, (V{21, 30}));
    EXPECT_EQ(found[0].message,
              "WAW hazard on global address 0x1000, a scope race: block 1 thread 0 at line 30 updates it "
              "with an atomic of device scope (.gpu), block 0 thread 0 at line 21 updates it with an atomic "
              "of block scope (.cta); block scope makes the one at line 21 atomic and ordered only among the "
              "threads of block 0: an update can be lost; use device scope for both (atomicAdd(), "
              "cuda::thread_scope_device), or keep block scope for memory that one block alone uses "
              "(1 racing access pair)");
}

// Verdict: block 0's atomicAdd_block and a plain store of block 1 -> a race, the global race
// analysis's (a plain access races with an atomic whatever its scope); the scope check stays out of
// it, so the pair is reported once.
TEST(analysis_scope_race, BlockScopeAndPlainStoreOfAnotherBlock) {
    TraceBuilder b(2, 1);
    const uint16_t add = b.site(21), store = b.site(25);
    b.strong_atomic(b.thread(0, 0), add, kCounter, Scope::Block);
    b.store(b.thread(1, 0), store, kCounter, 4, Space::Global).value(5);
    b.exit_all();
    const auto found = analyze(b.trace());
    const auto races = only(found, FindingKind::Race);
    ASSERT_EQ(races.size(), 1u) << dump(found);
    EXPECT_EQ(races[0].check, "global_race");
    EXPECT_EQ(races[0].hazard, Hazard::WAW);
    EXPECT_EQ(races[0].lines, (V{21, 25}));
    EXPECT_TRUE(find_scope_races(b.trace()).empty());
}

// Verdict: a load of device scope (ld.relaxed.gpu) in block 1 of a counter block 0 updates with
// atomicAdd_block -> a scope race (RAW), not a plain global race: both are strong, the block scope
// is what keeps them apart.
TEST(analysis_scope_race, StrongLoadOfABlockScopeCounter) {
    TraceBuilder b(2, 1);
    const uint16_t add = b.site(21), load = b.site(30);
    b.strong_atomic(b.thread(0, 0), add, kCounter, Scope::Block);
    b.strong_load(b.thread(1, 0), load, kCounter, Scope::Device).value(1);
    b.exit_all();
    const auto found = analyze(b.trace());
    ASSERT_EQ(found.size(), 1u) << dump(found);
    EXPECT_EQ(found[0].check, "scope_race");
    EXPECT_EQ(found[0].hazard, Hazard::RAW);
    EXPECT_EQ(found[0].lines, (V{21, 30}));
    EXPECT_TRUE(
        contains(found[0].message, "block 1 thread 0 at line 30 reads it with a load of device scope (.gpu)"))
        << found[0].message;
    EXPECT_TRUE(contains(found[0].message, "the load can read an old value")) << found[0].message;
}

// Verdict: block-scope atomics of two blocks on the same __shared__ offset -> nothing: each block has
// its own copy of shared memory.
TEST(analysis_scope_race, SharedMemoryIsPerBlock) {
    TraceBuilder b(2, 2);
    const uint16_t add = b.site(21);
    for (uint32_t t = 0; t < 4; ++t)
        b.push(trace::EventKind::Atomic, t, add, 0x10, 0,
               trace::make_flags(Space::Shared, 4, true, Scope::Block));
    b.exit_all();
    EXPECT_TRUE(find_scope_races(b.trace()).empty());
    EXPECT_TRUE(analyze(b.trace()).empty()) << dump(analyze(b.trace()));
}

// Block 0 updates the counter with atomicAdd_block, then releases a flag (fence at gpu scope, strong
// store); block 1 acquires it (strong load that reads 1, fence at gpu scope) and only then updates
// the counter with atomicAdd_block. Verdict: ordered -> nothing; without block 1's fence -> a scope
// race (the flag alone orders nothing).
TEST(analysis_scope_race, HandOverThroughAFlagOrdersThem) {
    for (const bool acquire : {true, false}) {
        TraceBuilder b(2, 1);
        const uint16_t add = b.site(21), fence = b.site(22), flag_store = b.site(23), flag_load = b.site(30),
                       fence2 = b.site(31), add2 = b.site(32);
        const uint32_t t0 = b.thread(0, 0), t1 = b.thread(1, 0);
        b.strong_atomic(t0, add, kCounter, Scope::Block);
        b.fence(t0, fence, Scope::Device);
        b.strong_store(t0, flag_store, kFlag, Scope::Device).value(1);
        b.strong_load(t1, flag_load, kFlag, Scope::Device).value(1);
        if (acquire) b.fence(t1, fence2, Scope::Device);
        b.strong_atomic(t1, add2, kCounter, Scope::Block);
        b.exit_all();
        const auto found = find_scope_races(b.trace());
        SCOPED_TRACE(acquire ? "with the reader's fence" : "without it");
        if (acquire) {
            EXPECT_TRUE(found.empty()) << dump(found);
        } else {
            ASSERT_EQ(found.size(), 1u) << dump(found);
            EXPECT_EQ(found[0].lines, (V{21, 32}));
        }
    }
}

// Verdict: two runs of the scope race merge into one finding whose message counts both runs.
TEST(analysis_scope_race, MergedRunsSayTheirCount) {
    const TraceBuilder b = counter(2, 2, Scope::Block);
    std::vector<Finding> all = find_scope_races(b.trace());
    merge_findings(all, find_scope_races(b.trace()));
    ASSERT_EQ(all.size(), 1u) << dump(all);
    EXPECT_EQ(all[0].runs, 2u);
    EXPECT_TRUE(contains(all[0].message, "(2 racing access pairs in 2 runs)")) << all[0].message;
}

} // namespace
} // namespace synclab::analysis
