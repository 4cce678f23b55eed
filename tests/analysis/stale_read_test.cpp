// Release/acquire happens-before on global memory and the stale_read finding, over synthetic traces
// in the simulator's execution order: message passing with and without each fence, fence scopes
// across and inside blocks, st.release / ld.acquire, an atomicExch flag, the last-block reduction
// with an atomicInc ticket, and the plain race that stays a race.
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

constexpr Space G = Space::Global;
constexpr uint64_t kData = 0x100, kFlag = 0x200;

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// Message passing between block 0 thread 0 (writer) and `reader`:
//   writer: g_data = 42 (line 12); [fence (line 13)]; atomicExch(&g_flag, 1) (line 14)
//   reader: while (volatile g_flag == 0) (line 30); [fence (line 31)]; r = g_data (line 33)
// The reader's flag load sees 1 (the exchange's value); its data load returns `read_value`.
struct MessagePassing {
    bool writer_fence = true;
    bool reader_fence = true;
    Scope writer_scope = Scope::Device;
    Scope reader_scope = Scope::Device;
    bool same_block = false; // reader block 0 thread 1, else block 1 thread 0
    uint32_t read_value = 42;
    bool volatile_flag_store = false; // st.volatile instead of atomicExch

    TraceBuilder build() const {
        TraceBuilder b(2, 2);
        const uint16_t data_store = b.site(12), writer_fence_site = b.site(13),
                       flag_store = b.site(14, 0, volatile_flag_store ? "st.volatile.global.u32 [%rd2], 1"
                                                                      : "atom.global.exch.b32 %r3, [%rd2], 1"),
                       flag_load = b.site(30, 0, "ld.volatile.global.u32 %r5, [%rd2]"),
                       reader_fence_site = b.site(31), data_load = b.site(33);
        const uint32_t writer = b.thread(0, 0), reader = same_block ? b.thread(0, 1) : b.thread(1, 0);
        b.strong_load(reader, flag_load, kFlag).value(0); // spins once on the old value
        b.store(writer, data_store, kData, 4, G).value(42);
        if (writer_fence) b.fence(writer, writer_fence_site, writer_scope);
        if (volatile_flag_store) {
            b.strong_store(writer, flag_store, kFlag).value(1);
        } else {
            b.strong_atomic(writer, flag_store, kFlag).value(1);
        }
        b.strong_load(reader, flag_load, kFlag).value(1);
        if (reader_fence) b.fence(reader, reader_fence_site, reader_scope);
        b.load(reader, data_load, kData, 4, G).value(read_value);
        b.exit_all();
        return b;
    }
};

// Verdict: both fences (__threadfence(), gpu scope) -> nothing at all: the data is ordered, and the
// flag's volatile load and atomic (or volatile store) are morally strong, so they do not race.
TEST(analysis_stale_read, MessagePassingWithBothFencesIsSilent) {
    for (const bool volatile_store : {false, true}) {
        MessagePassing mp;
        mp.volatile_flag_store = volatile_store;
        const auto found = analyze(mp.build().trace());
        EXPECT_TRUE(found.empty()) << dump(found);
    }
}

// Verdict: one fence missing -> one stale_read (not a race), naming the missing side with its lines,
// both threads, lines 12, 14, 30, 33; harmful only when the data load returned another value than
// the store's 42.
TEST(analysis_stale_read, MessagePassingMissingFenceNamesTheSide) {
    struct Case {
        bool writer_fence, reader_fence;
        bool writer_clause, reader_clause;
    };
    const std::string writer_clause =
        "no fence in the writer between the data store (line 12) and the atomic on the flag (line 14)";
    const std::string reader_clause =
        "no fence in the reader between seeing the flag (line 30) and reading the data (line 33)";
    for (const Case c : {Case{true, false, false, true}, Case{false, true, true, false}, Case{false, false, true, true}}) {
        for (const uint32_t value : {42u, 0u}) {
            MessagePassing mp;
            mp.writer_fence = c.writer_fence;
            mp.reader_fence = c.reader_fence;
            mp.read_value = value;
            const TraceBuilder b = mp.build();
            const auto found = analyze(b.trace());
            SCOPED_TRACE(std::string("writer fence ") + (c.writer_fence ? "yes" : "no") + ", reader fence " +
                         (c.reader_fence ? "yes" : "no") + ", read " + std::to_string(value));
            EXPECT_TRUE(only(found, FindingKind::Race).empty()) << dump(found);
            const auto stale = only(found, FindingKind::StaleRead);
            ASSERT_EQ(stale.size(), 1u) << dump(found);
            const Finding& f = stale[0];
            EXPECT_EQ(f.check, "flag_without_fence");
            EXPECT_EQ(f.space, G);
            EXPECT_EQ(f.lines, (V{12, 14, 30, 33}));
            EXPECT_EQ(f.threads, (V{b.thread(0, 0), b.thread(1, 0)}));
            EXPECT_EQ(f.address, kData);
            EXPECT_EQ(f.count, 1u);
            EXPECT_EQ(f.harmful, value == 42 ? 0u : 1u);
            EXPECT_EQ(contains(f.message, writer_clause), c.writer_clause) << f.message;
            EXPECT_EQ(contains(f.message, reader_clause), c.reader_clause) << f.message;
            // The same, as the bits the app words it from in every language.
            EXPECT_EQ(f.missing, (c.writer_clause ? analysis::missing::kWriterFence : 0) |
                                     (c.reader_clause ? analysis::missing::kReaderFence : 0));
            EXPECT_TRUE(contains(f.message, "block 1 thread 0 (line 33) reads data block 0 thread 0 wrote (line 12)"))
                << f.message;
            EXPECT_TRUE(contains(f.message, value == 42 ? "(it read the new value in this run: right by luck)"
                                                        : "(1 load read the old value in this run)"))
                << f.message;
        }
    }
}

// The whole message of one case, so that its wording is pinned down.
TEST(analysis_stale_read, MessagePassingWriterFenceOnlyMessage) {
    MessagePassing mp;
    mp.reader_fence = false;
    mp.read_value = 0;
    const auto found = find_stale_reads(mp.build().trace());
    ASSERT_EQ(found.size(), 1u) << dump(found);
    EXPECT_EQ(found[0].message,
              "stale read of global address 0x100: block 1 thread 0 (line 33) reads data block 0 thread 0 wrote "
              "(line 12) before setting a flag (line 14) that it saw (line 30), but nothing orders the data: "
              "no fence in the reader between seeing the flag (line 30) and reading the data (line 33) "
              "(1 load read the old value in this run)");
}

// Verdict: __threadfence_block() on a side, the threads in different blocks -> stale_read saying that
// fence orders nothing for the other block; in one block -> nothing.
TEST(analysis_stale_read, BlockFenceOrdersNothingAcrossBlocks) {
    for (const bool same_block : {false, true}) {
        for (const bool writer_side : {true, false}) {
            MessagePassing mp;
            mp.same_block = same_block;
            (writer_side ? mp.writer_scope : mp.reader_scope) = Scope::Block;
            const TraceBuilder b = mp.build();
            const auto found = analyze(b.trace());
            SCOPED_TRACE(std::string(same_block ? "same block" : "two blocks") + ", fence.cta in the " +
                         (writer_side ? "writer" : "reader"));
            if (same_block) {
                EXPECT_TRUE(found.empty()) << dump(found);
                continue;
            }
            ASSERT_EQ(found.size(), 1u) << dump(found);
            EXPECT_EQ(found[0].kind, FindingKind::StaleRead);
            const std::string expected = writer_side ? "__threadfence_block() (line 13) orders nothing for block 1"
                                                     : "__threadfence_block() (line 31) orders nothing for block 0";
            EXPECT_TRUE(contains(found[0].message, expected)) << found[0].message;
            EXPECT_FALSE(contains(found[0].message, "no fence")) << found[0].message;
            EXPECT_EQ(found[0].missing, writer_side ? analysis::missing::kWriterScope : analysis::missing::kReaderScope);
        }
    }
}

// release / acquire on the flag itself:
//   writer: g_data = 42 (line 12); st.release.gpu g_flag = 1 (line 14)
//   reader: ld.acquire.<scope> g_flag (line 30); r = g_data (line 33)
// Verdict: gpu scope on both -> nothing; the acquire at cta scope across blocks -> stale_read naming
// the acquire's scope, and the flag accesses race (not morally strong: a scope race); a plain (weak) flag
// load -> no synchronisation and no chain: two races.
TEST(analysis_stale_read, ReleaseAcquireOnTheFlag) {
    enum class Load { AcquireGpu, AcquireCta, Plain };
    for (const Load load : {Load::AcquireGpu, Load::AcquireCta, Load::Plain}) {
        TraceBuilder b(2, 1);
        const uint16_t data_store = b.site(12), flag_store = b.site(14), flag_load = b.site(30),
                       data_load = b.site(33);
        const uint32_t writer = b.thread(0, 0), reader = b.thread(1, 0);
        b.store(writer, data_store, kData, 4, G).value(42);
        b.strong_store(writer, flag_store, kFlag, Scope::Device, true).value(1);
        if (load == Load::Plain) {
            b.load(reader, flag_load, kFlag, 4, G).value(1);
        } else {
            b.strong_load(reader, flag_load, kFlag, load == Load::AcquireGpu ? Scope::Device : Scope::Block, true)
                .value(1);
        }
        b.load(reader, data_load, kData, 4, G).value(42);
        b.exit_all();
        const auto found = analyze(b.trace());
        switch (load) {
        case Load::AcquireGpu:
            EXPECT_TRUE(found.empty()) << dump(found);
            break;
        case Load::AcquireCta: {
            const auto stale = only(found, FindingKind::StaleRead), races = only(found, FindingKind::Race);
            ASSERT_EQ(stale.size(), 1u) << dump(found);
            EXPECT_TRUE(contains(stale[0].message, "the acquire load of the flag (line 30) has scope .cta: it "
                                                   "orders nothing for block 0"))
                << stale[0].message;
            ASSERT_EQ(races.size(), 1u) << dump(found);
            EXPECT_EQ(races[0].lines, (V{14, 30}));
            EXPECT_EQ(races[0].check, "scope_race"); // both strong: the .cta scope keeps them apart
            break;
        }
        case Load::Plain: {
            EXPECT_TRUE(only(found, FindingKind::StaleRead).empty()) << dump(found);
            const auto races = only(found, FindingKind::Race);
            ASSERT_EQ(races.size(), 2u) << dump(found);
            EXPECT_EQ(races[0].hazard, Hazard::RAW);
            EXPECT_EQ(races[1].hazard, Hazard::RAW);
            break;
        }
        }
    }
}

// Verdict: a conflicting pair with no flag at all stays a race (unchanged by the fences work), even
// with fences on both sides: a fence orders nothing without a flag the other thread observes.
TEST(analysis_stale_read, PlainRaceWithoutFlagStaysARace) {
    for (const bool fences : {false, true}) {
        TraceBuilder b(2, 1);
        const uint16_t store = b.site(10), fence = b.site(11), load = b.site(12);
        b.store(b.thread(0, 0), store, kData, 4, G).value(7);
        if (fences) b.fence(b.thread(0, 0), fence).fence(b.thread(1, 0), fence);
        b.load(b.thread(1, 0), load, kData, 4, G).value(7).exit_all();
        const auto found = analyze(b.trace());
        ASSERT_EQ(found.size(), 1u) << dump(found);
        EXPECT_EQ(found[0].kind, FindingKind::Race);
        EXPECT_EQ(found[0].hazard, Hazard::RAW);
        EXPECT_EQ(found[0].lines, (V{10, 12}));
        EXPECT_EQ(found[0].message, "RAW hazard on global address 0x100: block 1 thread 0 at line 12 reads a value "
                                    "block 0 thread 0 wrote at line 10; threads of different blocks are not "
                                    "ordered within a launch (it did no harm in this run: right by luck)");
    }
}

// A volatile flag written and read by threads of two blocks, nothing else: morally strong accesses
// never race. Near-twin: a plain load of the flag races with the store.
TEST(analysis_stale_read, MorallyStrongFlagAccessesDoNotRace) {
    for (const bool strong_load : {true, false}) {
        TraceBuilder b(2, 1);
        const uint16_t store = b.site(14), load = b.site(30);
        b.strong_store(b.thread(0, 0), store, kFlag).value(1);
        if (strong_load) {
            b.strong_load(b.thread(1, 0), load, kFlag).value(1);
        } else {
            b.load(b.thread(1, 0), load, kFlag, 4, G).value(1);
        }
        b.exit_all();
        const auto found = analyze(b.trace());
        if (strong_load) {
            EXPECT_TRUE(found.empty()) << dump(found);
        } else {
            ASSERT_EQ(found.size(), 1u) << dump(found);
            EXPECT_EQ(found[0].kind, FindingKind::Race);
        }
    }
}

// The flag is seen by thread 0 of the reader's block, which then passes a __syncthreads(); thread 1
// reads the data. Verdict: with the reader's fence before the barrier -> nothing (the barrier
// carries what thread 0 acquired); without it -> stale_read that names thread 0 as the one that saw
// the flag (a third thread in `threads`).
TEST(analysis_stale_read, AcquireCarriedThroughABarrier) {
    for (const bool reader_fence : {true, false}) {
        TraceBuilder b(2, 2);
        const uint16_t data_store = b.site(12), wfence = b.site(13), flag_store = b.site(14, 0, "atom.global.exch.b32"),
                       flag_load = b.site(30), rfence = b.site(31), sync = b.sync_site(32), data_load = b.site(33);
        const uint32_t writer = b.thread(0, 0), seer = b.thread(1, 0), reader = b.thread(1, 1);
        b.store(writer, data_store, kData, 4, G).value(42).fence(writer, wfence);
        b.strong_atomic(writer, flag_store, kFlag).value(1);
        b.strong_load(seer, flag_load, kFlag).value(1);
        if (reader_fence) b.fence(seer, rfence);
        b.barrier(1, sync);
        b.load(reader, data_load, kData, 4, G).value(42);
        b.exit_all();
        const auto found = analyze(b.trace());
        if (reader_fence) {
            EXPECT_TRUE(found.empty()) << dump(found);
            continue;
        }
        ASSERT_EQ(found.size(), 1u) << dump(found);
        EXPECT_EQ(found[0].kind, FindingKind::StaleRead);
        EXPECT_EQ(found[0].threads, (V{writer, reader, seer}));
        EXPECT_TRUE(contains(found[0].message, "that block 1 thread 0 saw (line 30)")) << found[0].message;
        EXPECT_TRUE(contains(found[0].message, "no fence in the reader")) << found[0].message;
    }
}

// The last-block reduction (seed 000, section 4.3), 4 blocks, thread 0 of each:
//   g_partial[b] = sum (line 264); [__threadfence() (line 267)];
//   ticket = atomicInc(&g_count, 4) (line 270); if (ticket == 3) { [__threadfence() (line 272)];
//   total += g_partial[i] for every i (line 277) }
// Verdict: both fences -> nothing; no fence -> one stale_read over the 3 partials of other blocks,
// harmful 0 when the loads returned the right partials (the latent bug the H200 never showed), 1
// when one returned an old value; the writer's fence only (as in the seed) -> stale_read naming the
// reader's side.
TEST(analysis_stale_read, LastBlockReduction) {
    enum class Fences { Both, None, WriterOnly };
    for (const Fences fences : {Fences::Both, Fences::None, Fences::WriterOnly}) {
        for (const bool one_wrong : {false, true}) {
            TraceBuilder b(4, 1);
            const uint16_t partial = b.site(264), wfence = b.site(267),
                           ticket = b.site(270, 0, "atom.global.inc.u32 %r9, [%rd4], 4"), rfence = b.site(272),
                           sum = b.site(277);
            constexpr uint64_t kPartials = 0x1000, kCount = 0x2000;
            for (uint32_t block = 0; block < 4; ++block) {
                const uint32_t t = b.thread(block, 0);
                b.store(t, partial, kPartials + 4 * block, 4, G).value(100 + block);
                if (fences != Fences::None) b.fence(t, wfence);
                b.strong_atomic(t, ticket, kCount).value(4);
            }
            const uint32_t last = b.thread(3, 0);
            if (fences == Fences::Both) b.fence(last, rfence);
            for (uint32_t i = 0; i < 4; ++i)
                b.load(last, sum, kPartials + 4 * i, 4, G).value(one_wrong && i == 1 ? 0 : 100 + i);
            b.exit_all();
            const auto found = analyze(b.trace());
            SCOPED_TRACE(std::string(fences == Fences::Both ? "both fences" : fences == Fences::None ? "no fence"
                                                                                                  : "writer fence") +
                         (one_wrong ? ", one old partial" : ""));
            if (fences == Fences::Both) {
                // Ordered: nothing, unless a load returned an old value (the trace breaks the model).
                if (one_wrong) {
                    ASSERT_EQ(found.size(), 1u) << dump(found);
                    EXPECT_EQ(found[0].check, "ordered_read_stale");
                    EXPECT_EQ(found[0].lines, (V{264, 277}));
                } else {
                    EXPECT_TRUE(found.empty()) << dump(found);
                }
                continue;
            }
            ASSERT_EQ(found.size(), 1u) << dump(found);
            const Finding& f = found[0];
            EXPECT_EQ(f.kind, FindingKind::StaleRead);
            EXPECT_EQ(f.lines, (V{264, 270, 277}));
            EXPECT_EQ(f.count, 3u);
            EXPECT_EQ(f.harmful, one_wrong ? 1u : 0u);
            EXPECT_TRUE(contains(f.message, "no fence in the reader between seeing the flag (line 270) and reading "
                                            "the data (line 277)"))
                << f.message;
            EXPECT_EQ(contains(f.message, "no fence in the writer between the data store (line 264) and the atomic "
                                          "on the flag (line 270)"),
                      fences == Fences::None)
                << f.message;
            EXPECT_TRUE(contains(f.message, one_wrong ? "(1 load read the old value in this run; 2 more loads were "
                                                        "right by luck)"
                                                      : "(none read the old value in this run; 3 loads were right "
                                                        "by luck)"))
                << f.message;
        }
    }
}

// Verdict: both fences, but the data load returned 0 instead of the 42 stored before the flag -> a
// stale_read of check "ordered_read_stale" (the trace breaks the model), naming lines 12 and 33.
TEST(analysis_stale_read, OrderedReadOfAnOldValueBreaksTheModel) {
    MessagePassing mp;
    mp.read_value = 0;
    const auto found = analyze(mp.build().trace());
    ASSERT_EQ(found.size(), 1u) << dump(found);
    EXPECT_EQ(found[0].kind, FindingKind::StaleRead);
    EXPECT_EQ(found[0].check, "ordered_read_stale");
    EXPECT_EQ(found[0].lines, (V{12, 33}));
    EXPECT_EQ(found[0].harmful, 1u);
    EXPECT_EQ(found[0].message, "block 1 thread 0 (line 33) read an old value of global address 0x100 although "
                                "block 0 thread 0's store (line 12) happens before it: the trace breaks the "
                                "memory model");
}

// Transitivity: block 0 releases to block 1 (fences and a flag), block 1 releases to block 2 (a
// second flag); block 2 reads block 0's data -> ordered, nothing. Near-twin: block 1 has no fence
// between seeing flag A and setting flag B -> block 2's read is unordered, and there is no direct
// chain from block 0 to block 2: a race.
TEST(analysis_stale_read, ReleaseAcquireIsTransitive) {
    for (const bool middle_fence : {true, false}) {
        TraceBuilder b(3, 1);
        const uint16_t data = b.site(10), fence = b.site(11), flag_a = b.site(12, 0, "atom.global.exch.b32"),
                       see_a = b.site(20), flag_b = b.site(22, 0, "atom.global.exch.b32"), see_b = b.site(30),
                       read = b.site(32);
        constexpr uint64_t kA = 0x300, kB = 0x304;
        const uint32_t t0 = b.thread(0, 0), t1 = b.thread(1, 0), t2 = b.thread(2, 0);
        b.store(t0, data, kData, 4, G).value(5).fence(t0, fence).strong_atomic(t0, flag_a, kA).value(1);
        b.strong_load(t1, see_a, kA).value(1);
        if (middle_fence) b.fence(t1, fence);
        b.strong_atomic(t1, flag_b, kB).value(1);
        b.strong_load(t2, see_b, kB).value(1).fence(t2, fence);
        b.load(t2, read, kData, 4, G).value(5);
        b.exit_all();
        const auto found = analyze(b.trace());
        if (middle_fence) {
            EXPECT_TRUE(found.empty()) << dump(found);
            continue;
        }
        ASSERT_EQ(found.size(), 1u) << dump(found);
        EXPECT_EQ(found[0].kind, FindingKind::Race);
        EXPECT_EQ(found[0].lines, (V{10, 32}));
    }
}

// Merged over runs, stale reads add up like races and say "in R runs".
TEST(analysis_stale_read, MergesOverRuns) {
    MessagePassing right, wrong;
    right.reader_fence = wrong.reader_fence = false;
    wrong.read_value = 0;
    std::vector<Finding> all = analyze(right.build().trace());
    merge_findings(all, analyze(wrong.build().trace()));
    ASSERT_EQ(all.size(), 1u) << dump(all);
    EXPECT_EQ(all[0].count, 2u);
    EXPECT_EQ(all[0].harmful, 1u);
    EXPECT_TRUE(contains(all[0].message, "(1 load read the old value in 2 runs; 1 more load was right by luck)"))
        << all[0].message;
}

// A GPU trace orders events by when each instruction completed: the reader's flag load (value 1)
// may come before the atomicExch it read. Verdict: in a GPU trace (backend "gpu") the load waits
// for that write and the missing fences give a stale_read; in a simulator trace (whose order is
// the execution's) a load cannot read a later write: no chain, a race.
TEST(analysis_stale_read, GpuTraceFlagLoadBeforeItsWrite) {
    for (const char* backend : {"gpu", "sim"}) {
        TraceBuilder b(2, 1);
        b.mutable_trace().meta.backend = backend;
        const uint16_t data_store = b.site(12), flag_store = b.site(14, 0, "atom.global.exch.b32"),
                       flag_load = b.site(30), data_load = b.site(33);
        const uint32_t writer = b.thread(0, 0), reader = b.thread(1, 0);
        b.store(writer, data_store, kData, 4, G).value(42);
        b.strong_load(reader, flag_load, kFlag).value(1);
        b.strong_atomic(writer, flag_store, kFlag).value(1);
        b.load(reader, data_load, kData, 4, G).value(42);
        b.exit_all();
        const auto found = analyze(b.trace());
        ASSERT_EQ(found.size(), 1u) << backend << ": " << dump(found);
        EXPECT_EQ(found[0].kind, std::string(backend) == "gpu" ? FindingKind::StaleRead : FindingKind::Race)
            << backend << ": " << dump(found);
        EXPECT_EQ(found[0].lines, std::string(backend) == "gpu" ? (V{12, 14, 30, 33}) : (V{12, 33}))
            << backend << ": " << dump(found);
    }
}

// Under the relaxed model a read ordered by a barrier alone is checked too. Verdict: thread 1 reads
// 0 after the __syncthreads() that follows thread 0's store of 9 -> ordered_read_stale (the
// simulator broke its model); the right value 9 -> nothing; under sc (no fences, no strong
// accesses: the synchronisation is not modelled at all) -> nothing either way.
TEST(analysis_stale_read, RelaxedTraceBarrierOrderedReadChecked) {
    for (const char* memory : {"relaxed", "sc"}) {
        for (const uint32_t value : {0u, 9u}) {
            TraceBuilder b(1, 2);
            b.mutable_trace().meta.memory_model = memory;
            const uint16_t store = b.site(20), sync = b.sync_site(21), load = b.site(22);
            b.store(b.thread(0, 0), store, kData, 4, G).value(9);
            b.barrier(0, sync);
            b.load(b.thread(0, 1), load, kData, 4, G).value(value).exit_all();
            const auto found = analyze(b.trace());
            const bool broken = std::string(memory) == "relaxed" && value == 0;
            ASSERT_EQ(found.size(), broken ? 1u : 0u) << memory << " " << value << ": " << dump(found);
            if (!broken) continue;
            EXPECT_EQ(found[0].check, "ordered_read_stale");
            EXPECT_EQ(found[0].lines, (V{20, 22}));
        }
    }
}

// The message_passing lesson's request: the reader looks at the data first (line 40), then raises a
// request with a release store (line 41); the writer's acquire load sees it (line 50) and only then
// writes the data (line 51). Verdict: the first look and the write are ordered (WAR, no race); with
// a relaxed (not release) request store they race.
TEST(analysis_stale_read, FirstLookOrderedByARequest) {
    for (const bool release : {true, false}) {
        TraceBuilder b(2, 1);
        const uint16_t look = b.site(40), request = b.site(41), wait = b.site(50), write = b.site(51);
        constexpr uint64_t kReady = 0x300;
        const uint32_t reader = b.thread(1, 0), writer = b.thread(0, 0);
        b.load(reader, look, kData, 4, G).value(0);
        b.strong_store(reader, request, kReady, Scope::Device, release).value(1);
        b.strong_load(writer, wait, kReady, Scope::Device, true).value(1);
        b.store(writer, write, kData, 4, G).value(1);
        b.exit_all();
        const auto found = analyze(b.trace());
        if (release) {
            EXPECT_TRUE(found.empty()) << dump(found);
            continue;
        }
        ASSERT_EQ(found.size(), 1u) << dump(found);
        EXPECT_EQ(found[0].kind, FindingKind::Race);
        EXPECT_EQ(found[0].hazard, Hazard::WAR);
        EXPECT_EQ(found[0].lines, (V{40, 51}));
    }
}

} // namespace
} // namespace synclab::analysis
