// find_global_races: unordered conflicting accesses on global memory, across blocks and inside one
// block, at odd block sizes (100 threads: 3 warps and a partial fourth); atomics, lost updates,
// byte granularity, many readers, and the size of the shadow state.
#include "analysis/findings.h"
#include "trace_builder.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>

namespace synclab::analysis {
namespace {

using testing::dump;
using testing::only;
using testing::TraceBuilder;
using trace::Space;
using V = std::vector<uint32_t>;

constexpr Space G = Space::Global;

// Verdict: block 0 thread 99 writes a word that block 1 thread 0 then reads -> RAW naming both
// threads as "block B thread T", both lines and the address; nothing orders blocks, not even a
// barrier in each. Near-twin: the reader reads the next word -> nothing.
TEST(analysis_global_races, AcrossBlocksFound) {
    for (const uint64_t read_address : {0x100u, 0x104u}) {
        TraceBuilder b(2, 100);
        const uint16_t write = b.site(10), sync = b.sync_site(11), read = b.site(12);
        b.store(b.thread(0, 99), write, 0x100, 4, G);
        b.barrier(0, sync).barrier(1, sync);
        b.load(b.thread(1, 0), read, read_address, 4, G).exit_all();
        const auto found = find_global_races(b.trace());
        if (read_address != 0x100) {
            EXPECT_TRUE(found.empty()) << dump(found);
            continue;
        }
        ASSERT_EQ(found.size(), 1u) << dump(found);
        const Finding& f = found[0];
        EXPECT_EQ(f.kind, FindingKind::Race);
        EXPECT_EQ(f.hazard, Hazard::RAW);
        EXPECT_EQ(f.space, G);
        EXPECT_EQ(f.lines, (V{10, 12}));
        EXPECT_EQ(f.threads, (V{b.thread(0, 99), b.thread(1, 0)}));
        EXPECT_EQ(f.count, 1u);
        EXPECT_EQ(f.address, 0x100u);
        EXPECT_EQ(f.message, "RAW hazard on global address 0x100: block 1 thread 0 at line 12 reads a value "
                             "block 0 thread 99 wrote at line 10; threads of different blocks are not "
                             "ordered within a launch (it did no harm in this run: right by luck)");
    }
}

// Verdict: inside one block of 100 threads, no barrier: A[t] then A[t+1] (100 RAW), B[t+1] read then
// B[t] written (100 WAR), C[t] written by threads t < 50, then by t + 50 (50 WAW). Near-twin: a
// __syncthreads() between the two steps of each -> nothing.
TEST(analysis_global_races, InsideABlockWithoutBarrierFound) {
    for (const bool with_barrier : {false, true}) {
        TraceBuilder b(1, 100);
        const uint16_t store_a = b.site(1), load_a = b.site(2), load_b = b.site(3), store_b = b.site(4),
                       store_c = b.site(5), sync = b.sync_site(9);
        auto step = [&](auto&& access) {
            for (uint32_t t = 0; t < 100; ++t)
                access(t);
        };
        auto maybe_sync = [&] {
            if (with_barrier) b.barrier(0, sync);
        };
        step([&](uint32_t t) { b.store(t, store_a, 0x1000 + 4 * t, 4, G); });
        maybe_sync();
        step([&](uint32_t t) { b.load(t, load_a, 0x1000 + 4 * ((t + 1) % 100), 4, G); });
        step([&](uint32_t t) { b.load(t, load_b, 0x2000 + 4 * ((t + 1) % 100), 4, G); });
        maybe_sync();
        step([&](uint32_t t) { b.store(t, store_b, 0x2000 + 4 * t, 4, G); });
        for (uint32_t t = 0; t < 50; ++t)
            b.store(t, store_c, 0x3000 + 4 * t, 4, G);
        maybe_sync();
        for (uint32_t t = 50; t < 100; ++t)
            b.store(t, store_c, 0x3000 + 4 * (t - 50), 4, G);
        b.exit_all();
        const auto found = find_global_races(b.trace());
        if (with_barrier) {
            EXPECT_TRUE(found.empty()) << dump(found);
            continue;
        }
        ASSERT_EQ(found.size(), 3u) << dump(found);
        EXPECT_EQ(found[0].hazard, Hazard::RAW);
        EXPECT_EQ(found[0].lines, (V{1, 2}));
        EXPECT_EQ(found[0].count, 100u);
        EXPECT_EQ(found[1].hazard, Hazard::WAR);
        EXPECT_EQ(found[1].lines, (V{3, 4}));
        EXPECT_EQ(found[1].count, 100u);
        EXPECT_EQ(found[2].hazard, Hazard::WAW);
        EXPECT_EQ(found[2].lines, (V{5}));
        EXPECT_EQ(found[2].count, 50u);
        EXPECT_EQ(found[2].threads, (V{0, 50}));
        EXPECT_EQ(
            found[0].message,
            "RAW hazard on global address 0x1004: block 0 thread 0 (warp 0, lane 0) at line 2 reads a value "
            "block 0 thread 1 (warp 0, lane 1) wrote at line 1 within a warp: no __syncwarp() "
            "between them (none did harm in this run; 100 racing access pairs were right by luck)");
    }
}

// Verdict: 2 x 100 threads atomicAdd one counter -> nothing (atomics never race with atomics).
// Near-twin: then block 0 thread 0 reads the counter with a plain load -> one RAW with the last
// atomic (block 1 thread 99).
TEST(analysis_global_races, AtomicsOnOneCounterSilent) {
    for (const bool plain_read : {false, true}) {
        TraceBuilder b(2, 100);
        const uint16_t add = b.site(7), read = b.site(8);
        for (uint32_t t = 0; t < 200; ++t)
            b.atomic(t, add, 0x40, 4, G);
        if (plain_read) b.load(b.thread(0, 0), read, 0x40, 4, G);
        b.exit_all();
        const auto found = find_global_races(b.trace());
        if (!plain_read) {
            EXPECT_TRUE(found.empty()) << dump(found);
            continue;
        }
        ASSERT_EQ(found.size(), 1u) << dump(found);
        EXPECT_EQ(found[0].hazard, Hazard::RAW);
        EXPECT_EQ(found[0].lines, (V{7, 8}));
        EXPECT_EQ(found[0].threads, (V{b.thread(1, 99), b.thread(0, 0)}));
    }
}

// Verdict: a plain read-modify-write of one counter by threads of two blocks is a lost_update and
// no race (its WAR, WAW and RAW pairs are the lost update). Near-twin: another thread also reads
// the counter plainly (no RMW): that read's RAW with an RMW store is a race of its own.
TEST(analysis_global_races, LostUpdateNotReportedTwice) {
    for (const bool extra_read : {false, true}) {
        TraceBuilder b(2, 100);
        const uint16_t load = b.site(14), store = b.site(15), peek = b.site(20);
        const uint32_t rmw[] = {b.thread(0, 3), b.thread(1, 3), b.thread(0, 97), b.thread(1, 97)};
        for (uint32_t t : rmw)
            b.load(t, load, 0x80, 4, G);
        for (uint32_t t : rmw)
            b.store(t, store, 0x80, 4, G);
        if (extra_read) b.load(b.thread(1, 50), peek, 0x80, 4, G);
        b.exit_all();
        const auto found = analyze(b.trace());
        ASSERT_EQ(only(found, FindingKind::LostUpdate).size(), 1u) << dump(found);
        EXPECT_EQ(only(found, FindingKind::LostUpdate)[0].count, 4u);
        const auto races = only(found, FindingKind::Race);
        if (!extra_read) {
            EXPECT_TRUE(races.empty()) << dump(found);
            EXPECT_TRUE(find_global_races(b.trace()).empty());
            continue;
        }
        ASSERT_EQ(races.size(), 1u) << dump(found);
        EXPECT_EQ(races[0].hazard, Hazard::RAW);
        EXPECT_EQ(races[0].lines, (V{15, 20}));
        EXPECT_EQ(races[0].threads, (V{b.thread(1, 97), b.thread(1, 50)}));
    }
}

// Verdict: `slot = atomicMax(&g_max, v); g_out[slot] = t;` where two threads of different blocks got
// the same slot back: their stores race, WAW, line 21; the atomics do not. Near-twin: different
// slots (as atomicAdd hands out) -> nothing.
TEST(analysis_global_races, StoresToOneSlotFromAnAtomicAreWaw) {
    for (const bool same_slot : {true, false}) {
        TraceBuilder b(2, 100);
        const uint16_t max = b.site(20), out = b.site(21);
        const uint32_t first = b.thread(0, 5), second = b.thread(1, 7);
        b.atomic(first, max, 0x0, 4, G).atomic(second, max, 0x0, 4, G);
        b.store(first, out, 0x100c, 4, G).store(second, out, same_slot ? 0x100c : 0x1010, 4, G).exit_all();
        const auto found = analyze(b.trace());
        if (!same_slot) {
            EXPECT_TRUE(found.empty()) << dump(found);
            continue;
        }
        ASSERT_EQ(found.size(), 1u) << dump(found);
        EXPECT_EQ(found[0].kind, FindingKind::Race);
        EXPECT_EQ(found[0].hazard, Hazard::WAW);
        EXPECT_EQ(found[0].lines, (V{21}));
        EXPECT_EQ(found[0].threads, (V{first, second}));
        EXPECT_EQ(found[0].address, 0x100cu);
    }
}

// Verdict: two blocks write different bytes of one word -> nothing; the same byte -> WAW; a later
// 4-byte read of the word by a third thread races with the last writer of its bytes, one thread
// at one site -> one RAW pair.
TEST(analysis_global_races, BytesOfOneWordAreApart) {
    TraceBuilder b(2, 100);
    const uint16_t byte0 = b.site(30), byte1 = b.site(31), word = b.site(32);
    const uint32_t x = b.thread(0, 1), y = b.thread(1, 2), z = b.thread(1, 60);
    b.store(x, byte0, 0x200, 1, G).store(y, byte1, 0x201, 1, G);
    EXPECT_TRUE(find_global_races(b.trace()).empty()) << dump(find_global_races(b.trace()));

    b.store(y, byte1, 0x200, 1, G); // the byte x wrote
    auto found = find_global_races(b.trace());
    ASSERT_EQ(found.size(), 1u) << dump(found);
    EXPECT_EQ(found[0].hazard, Hazard::WAW);
    EXPECT_EQ(found[0].address, 0x200u);

    b.load(z, word, 0x200, 4, G).exit_all();
    found = only(find_global_races(b.trace()), FindingKind::Race, Hazard::RAW);
    ASSERT_EQ(found.size(), 1u) << dump(found);
    EXPECT_EQ(found[0].lines, (V{31, 32}));
    EXPECT_EQ(found[0].count, 1u) << "one writer and site (y at line 31) for both bytes: one pair";
}

// Verdict: an 8-byte store covers two words: a 4-byte read of its upper half by another block
// races; a read of the next word does not.
TEST(analysis_global_races, EightByteAccessCoversTwoWords) {
    TraceBuilder b(2, 100);
    const uint16_t wide = b.site(40), upper = b.site(41), next = b.site(42);
    b.store(b.thread(0, 0), wide, 0x300, 8, G);
    b.load(b.thread(1, 0), upper, 0x304, 4, G).load(b.thread(1, 1), next, 0x308, 4, G).exit_all();
    const auto found = find_global_races(b.trace());
    ASSERT_EQ(found.size(), 1u) << dump(found);
    EXPECT_EQ(found[0].lines, (V{40, 41}));
    EXPECT_EQ(found[0].address, 0x304u);
}

// Verdict: every thread of 3 blocks x 100 reads one word, then block 0 thread 0 writes it: WAR with
// the 299 other readers. With a barrier in block 0 between its reads and the write, block 0's
// readers are ordered before the write: 200 (blocks 1, 2); ten of block 0's threads reading again
// after the barrier race again, the writer's own read aside: 209.
TEST(analysis_global_races, ManyReadersCountedOnceEach) {
    for (const int variant : {0, 1, 2}) {
        TraceBuilder b(3, 100);
        const uint16_t read = b.site(50), sync = b.sync_site(51), write = b.site(52);
        for (uint32_t t = 0; t < 300; ++t)
            b.load(t, read, 0x400, 4, G).load(t, read, 0x400, 4, G); // twice: one reader still
        if (variant >= 1) b.barrier(0, sync);
        if (variant == 2) {
            for (uint32_t t = 0; t < 10; ++t)
                b.load(b.thread(0, t), read, 0x400, 4, G);
        }
        b.store(b.thread(0, 0), write, 0x400, 4, G).exit_all();
        const auto found = find_global_races(b.trace());
        ASSERT_EQ(found.size(), 1u) << "variant " << variant << ": " << dump(found);
        EXPECT_EQ(found[0].hazard, Hazard::WAR);
        const uint64_t expected = variant == 0 ? 299 : variant == 1 ? 200 : 209;
        EXPECT_EQ(found[0].count, expected) << "variant " << variant;
    }
}

// Verdict: a matrix product's shape: 2 blocks x 100 threads each read 64 words of an operand no
// thread writes, then write their own output word: nothing races, and the operand's words get no
// shadow state (only the 200 output words do). A load still counts where a write touches one of its
// words, even partly and later in the trace: a 1-byte store at 0x5006 by another block races with
// an 8-byte load of 0x5000 that came before it (WAR).
TEST(analysis_global_races, LoadsOfWordsNothingWritesGetNoShadow) {
    TraceBuilder b(2, 100);
    const uint16_t operand = b.site(70), out = b.site(71), wide = b.site(72), byte = b.site(73);
    for (uint32_t t = 0; t < 200; ++t)
        for (uint32_t k = 0; k < 64; ++k)
            b.load(t, operand, 0x8000 + 4 * k, 4, G);
    for (uint32_t t = 0; t < 200; ++t)
        b.store(t, out, 0x20000 + 4 * t, 4, G);
    ShadowStats stats;
    auto found = find_global_races(b.trace(), {}, &stats);
    EXPECT_TRUE(found.empty()) << dump(found);
    EXPECT_EQ(stats.words, 200u) << "the operand's 64 words are only read";

    b.load(b.thread(0, 3), wide, 0x5000, 8, G).store(b.thread(1, 4), byte, 0x5006, 1, G).exit_all();
    found = find_global_races(b.trace(), {}, &stats);
    ASSERT_EQ(found.size(), 1u) << dump(found);
    EXPECT_EQ(found[0].hazard, Hazard::WAR);
    EXPECT_EQ(found[0].lines, (V{72, 73}));
    EXPECT_EQ(stats.words, 202u) << "both words of the 8-byte load: one of them is written";
}

// Verdict: a kernel of 1 M threads (4,096 blocks of 256) each writing and reading back its own word
// gives no finding, and its shadow state stays lean: at most 32 bytes per word.
TEST(analysis_global_races, ShadowStateIsLean) {
    constexpr uint32_t kBlocks = 4096, kThreads = 256;
    TraceBuilder b(kBlocks, kThreads);
    const uint16_t store = b.site(60), load = b.site(61);
    b.mutable_trace().events.reserve(size_t(kBlocks) * kThreads * 3);
    for (uint32_t t = 0; t < kBlocks * kThreads; ++t)
        b.store(t, store, 0x10000000 + 4ull * t, 4, G);
    for (uint32_t t = 0; t < kBlocks * kThreads; ++t)
        b.load(t, load, 0x10000000 + 4ull * t, 4, G);
    b.exit_all();
    ShadowStats stats;
    const auto start = std::chrono::steady_clock::now();
    const auto found = find_global_races(b.trace(), {}, &stats);
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    EXPECT_TRUE(found.empty()) << dump(found);
    EXPECT_EQ(stats.words, uint64_t(kBlocks) * kThreads);
    EXPECT_EQ(stats.split_words, 0u);
    const double per_word = double(stats.bytes) / double(stats.words);
    std::printf("global shadow: %llu words, %.1f bytes per word, %.0f ms\n",
                static_cast<unsigned long long>(stats.words), per_word, ms);
    EXPECT_LE(per_word, 32.0);
}

} // namespace
} // namespace synclab::analysis
