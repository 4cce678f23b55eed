// Aligned-barrier semantics (app/sim/barriers.cpp): the rule the H200 applies to __syncthreads(),
// over block sizes that are not all multiples of a warp (96, 100, 256) and every schedule. Each test
// states the outcome it expects; kernels in data/barrier_kernels.cu, plus hand-written PTX where
// nvcc would not emit the instruction (bar.arrive, counted barriers).
#include "sim_test_util.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

namespace synclab::sim {
namespace {

using namespace synclab::sim::testing;
using trace::EventKind;
using trace::RunStatus;
using trace::ThreadEnd;

const ptx::Module& kernels() {
    static const ptx::Module module = load_module("barrier_kernels");
    return module;
}

const uint32_t kBlockSizes[] = {96, 100, 256};

struct Outcome {
    Result result;
    trace::Trace trace;
    std::vector<uint32_t> out;
};

// Runs `kernel` over `blocks` x `block` threads with g_in[i] = i * 5 + 3 (kernels that take an input
// buffer) and g_out filled with 0xdeadbeef.
Outcome run(const std::string& kernel, uint32_t blocks, uint32_t block, Options o = {},
            std::vector<uint32_t> extra_args = {}) {
    const uint32_t n = blocks * block;
    std::vector<uint32_t> in(n);
    for (uint32_t i = 0; i < n; ++i)
        in[i] = i * 5 + 3;
    const ptx::Function& fn = kernels().require_entry(kernel);
    const bool has_input = fn.params.size() >= 2 + extra_args.size();
    std::vector<Buffer> buffers;
    std::vector<KernelArg> args;
    if (has_input) {
        buffers.push_back(make_buffer("g_in", in));
        args.push_back(KernelArg::pointer(0));
    }
    buffers.push_back(make_buffer("g_out", std::vector<uint32_t>(n, 0xdeadbeefu)));
    args.push_back(KernelArg::pointer(static_cast<uint32_t>(buffers.size() - 1)));
    for (uint32_t a : extra_args)
        args.push_back(KernelArg::scalar(a));
    Outcome r;
    r.result = simulate(kernels(), kernel, launch({blocks, 1, 1}, {block, 1, 1}), buffers, args, o, &r.trace);
    r.out = values_of<uint32_t>(buffers.back());
    return r;
}

std::string name(Schedule s, uint32_t block) {
    return std::string(to_string(s)) + ", block of " + std::to_string(block);
}

// [SECTION] Lanes of one warp at different barrier instructions: deadlock

TEST(AlignedBarrier, SeedLoopDeadlocksWithWhoWaitsWhere) {
    const uint32_t line = source_line("barrier_kernels.cu", "void seed_loop", "__syncthreads();");
    ASSERT_GT(line, 0u);
    for (uint32_t block : kBlockSizes) {
        for (Schedule s : kSchedules) {
            const Outcome r = run("seed_loop", 2, block, with_schedule(s, block));
            ASSERT_EQ(r.result.status, RunStatus::Deadlock) << name(s, block) << ": " << r.result.message;
            const std::string& m = r.result.message;
            // Thread i waits at the bar.sync of iteration i of the loop unrolled by four.
            const uint32_t unrolled = block / 4 * 4;
            const std::string last_of_first = std::to_string(unrolled - 4);
            EXPECT_TRUE(contains(m, "Blocks 0-1: threads 0, 4, ..., " + last_of_first + " (" +
                                        std::to_string(unrolled / 4) + ") wait at 'bar.sync 0' (PTX line"))
                << m;
            EXPECT_TRUE(contains(m, "barrier_kernels.cu:" + std::to_string(line) + ")")) << m;
            EXPECT_TRUE(contains(m, "threads 3, 7, ..., " + std::to_string(unrolled - 1))) << m;
            EXPECT_TRUE(contains(m, "wait at different barrier instructions")) << m;
            EXPECT_EQ(r.trace.meta.status, RunStatus::Deadlock);
            // The thread table: every thread waits at a bar.sync on the loop's line; threads i and
            // i + 4 at the same instruction, threads i and i + 1 at different ones.
            for (uint32_t t = 0; t < unrolled; ++t) {
                const trace::ThreadInfo& ti = r.trace.threads[t];
                ASSERT_EQ(ti.end, ThreadEnd::AtBarrier) << t;
                EXPECT_EQ(r.trace.sites[ti.end_site].text, "bar.sync 0") << t;
                EXPECT_EQ(r.trace.sites[ti.end_site].source_line, line) << t;
                if (t + 4 < unrolled) {
                    EXPECT_EQ(ti.end_site, r.trace.threads[t + 4].end_site) << t;
                }
                if (t + 1 < unrolled) {
                    EXPECT_NE(ti.end_site, r.trace.threads[t + 1].end_site) << t;
                }
            }
            // Every thread arrived once (at its own time); no phase ever completed.
            std::map<uint32_t, uint32_t> arrivals;
            for (const trace::Event& e : r.trace.events) {
                EXPECT_NE(e.kind, EventKind::BarrierLeave);
                if (e.kind == EventKind::BarrierArrive) ++arrivals[e.thread];
            }
            EXPECT_EQ(arrivals.size(), 2u * block);
        }
    }
}

TEST(AlignedBarrier, AWarpWhoseLanesMeetAtOneBarrierArrivesWhileTheOthersStaySplit) {
    // 98 threads: the unrolled loop covers iterations 0-95, the remainder loop (one bar.sync) 96
    // and 97, exactly the two lanes of the last warp: that warp arrives, the other three stay split.
    const Outcome r = run("seed_loop", 1, 98);
    ASSERT_EQ(r.result.status, RunStatus::Deadlock) << r.result.message;
    EXPECT_TRUE(contains(r.result.message, "threads 96-97 (2) wait at 'bar.sync 0'")) << r.result.message;
    EXPECT_TRUE(contains(r.result.message, "warps 0-2 wait at different barrier instructions"))
        << r.result.message;
    uint32_t counted = 0;
    for (const trace::Event& e : r.trace.events)
        counted += e.kind == EventKind::BarrierArrive && e.thread >= 96;
    EXPECT_EQ(counted, 2u);
}

TEST(AlignedBarrier, OddLanesAtOneBarrierEvenLanesAtTheOtherDeadlock) {
    for (uint32_t block : kBlockSizes) {
        for (Schedule s : kSchedules) {
            const Outcome r = run("odd_lanes", 1, block, with_schedule(s, 7));
            ASSERT_EQ(r.result.status, RunStatus::Deadlock) << name(s, block) << ": " << r.result.message;
            const std::string half = std::to_string(block / 2);
            EXPECT_TRUE(contains(r.result.message, "threads 1, 3, ..., " + std::to_string(block - 1) + " (" +
                                                       half + ") wait at 'bar.sync 0'"))
                << r.result.message;
            EXPECT_TRUE(contains(r.result.message, "threads 0, 2, ..., " + std::to_string(block - 2) + " (" +
                                                       half + ") wait at 'bar.sync 0'"))
                << r.result.message;
            for (uint32_t t = 0; t < block; ++t)
                ASSERT_EQ(r.trace.threads[t].end, ThreadEnd::AtBarrier) << t;
            EXPECT_NE(r.trace.threads[0].end_site, r.trace.threads[1].end_site);
            EXPECT_EQ(r.out[0], 0xdeadbeefu) << "nobody got past the barriers";
        }
    }
}

TEST(AlignedBarrier, SplitInsideAWarpDeadlocksSplitAtAWarpBoundaryCompletes) {
    struct Case {
        uint32_t block, split;
        bool completes;
    };
    const Case cases[] = {{256, 128, true}, {96, 64, true},  {100, 64, true}, {100, 96, true},
                          {256, 20, false}, {96, 48, false}, {100, 97, false}};
    for (const Case& c : cases) {
        for (Schedule s : kSchedules) {
            const Outcome r = run("split_block", 1, c.block, with_schedule(s, 3), {c.split});
            const std::string where = name(s, c.block) + ", split " + std::to_string(c.split);
            if (!c.completes) {
                ASSERT_EQ(r.result.status, RunStatus::Deadlock) << where << ": " << r.result.message;
                EXPECT_TRUE(contains(r.result.message, "warp " + std::to_string(c.split / 32) + " wait"))
                    << r.result.message;
                continue;
            }
            ASSERT_EQ(r.result.status, RunStatus::Ok) << where << ": " << r.result.message;
            for (uint32_t t = 0; t < c.block; ++t)
                ASSERT_EQ(r.out[t], t) << where;
            // Phase 0 was completed by arrivals at two different barrier instructions (as on an H200).
            std::map<uint32_t, std::set<uint32_t>> sites_by_phase;
            for (const trace::Event& e : r.trace.events)
                if (e.kind == EventKind::BarrierArrive) sites_by_phase[e.value].insert(e.site);
            EXPECT_EQ(sites_by_phase[0].size(), 2u) << where;
        }
    }
}

// [SECTION] Lanes that skip the barrier and finish: the block completes

TEST(AlignedBarrier, LanesThatSkipAndExitReleaseTheWaitingLanes) {
    for (uint32_t block : kBlockSizes) {
        for (uint32_t limit : {0u, 20u, 33u, block}) {
            for (Schedule s : kSchedules) {
                const Outcome r = run("skip_then_exit", 2, block, with_schedule(s, limit + 1), {limit});
                const std::string where = name(s, block) + ", limit " + std::to_string(limit);
                ASSERT_EQ(r.result.status, RunStatus::Ok) << where << ": " << r.result.message;
                for (uint32_t g = 0; g < 2 * block; ++g)
                    ASSERT_EQ(r.out[g], (g * 5 + 3) * 3 + 1) << where << " thread " << g;
                uint32_t arrives = 0, leaves = 0;
                for (const trace::Event& e : r.trace.events) {
                    arrives += e.kind == EventKind::BarrierArrive;
                    leaves += e.kind == EventKind::BarrierLeave;
                }
                EXPECT_EQ(arrives, 2 * std::min(limit, block)) << where;
                EXPECT_EQ(leaves, arrives) << where;
            }
        }
    }
}

TEST(AlignedBarrier, ArriveIsRecordedWhenTheLaneArrivesBeforeItsWarpGathers) {
    // Lanes 0-19 of warp 0 reach the barrier; lanes 20-31 skip it, store and exit; only then does
    // warp 0 arrive. Each lane's BarrierArrive carries its own arrival time, before those exits.
    for (Schedule s : kSchedules) {
        const Outcome r = run("skip_then_exit", 1, 96, with_schedule(s, 2), {20});
        ASSERT_EQ(r.result.status, RunStatus::Ok) << r.result.message;
        uint64_t last_arrive = 0, first_exit_of_skipper = UINT64_MAX, first_leave = UINT64_MAX;
        for (const trace::Event& e : r.trace.events) {
            if (e.kind == EventKind::BarrierArrive) {
                last_arrive = std::max(last_arrive, e.time);
                EXPECT_EQ(e.value, 0u) << "phase 0";
            }
            if (e.kind == EventKind::Exit && e.thread >= 20 && e.thread < 32)
                first_exit_of_skipper = std::min(first_exit_of_skipper, e.time);
            if (e.kind == EventKind::BarrierLeave) {
                first_leave = std::min(first_leave, e.time);
                EXPECT_EQ(e.value, 0u);
            }
        }
        EXPECT_LT(last_arrive, first_exit_of_skipper) << to_string(s);
        EXPECT_GT(first_leave, first_exit_of_skipper)
            << to_string(s) << ": released only once the skippers left";
    }
}

TEST(AlignedBarrier, UpperLanesBarrierCompletesWhileTheOtherLanesFinish) {
    for (uint32_t block : kBlockSizes) {
        for (Schedule s : kSchedules) {
            const Outcome r = run("upper_lanes", 2, block, with_schedule(s, 5));
            ASSERT_EQ(r.result.status, RunStatus::Ok) << name(s, block) << ": " << r.result.message;
            for (uint32_t g = 0; g < 2 * block; ++g) {
                const uint32_t t = g % block, base = g - t;
                const uint32_t next = t + 32 < block ? t + 32 : t;
                const uint32_t expect = (t & 31) >= 24 ? (base + next) * 5 + 3 : (g * 5 + 3) * 7;
                ASSERT_EQ(r.out[g], expect) << name(s, block) << " thread " << g;
            }
        }
    }
}

TEST(AlignedBarrier, EarlyReturnOfSomeLanesDoesNotHoldTheBarrier) {
    for (uint32_t block : kBlockSizes) {
        for (Schedule s : kSchedules) {
            const Outcome r = run("early_return", 2, block, with_schedule(s, 11));
            ASSERT_EQ(r.result.status, RunStatus::Ok) << name(s, block) << ": " << r.result.message;
            for (uint32_t g = 0; g < 2 * block; ++g) {
                const uint32_t t = g % block, base = g - t;
                if ((t & 31) >= 24) {
                    ASSERT_EQ(r.out[g], 0xdeadbeefu) << g;
                    continue;
                }
                uint32_t prev = (t & 31) == 0 ? t + 23 : t - 1;
                if (prev >= block) prev = t;
                ASSERT_EQ(r.out[g], (base + prev) * 5 + 3 + 100) << name(s, block) << " thread " << g;
            }
        }
    }
}

TEST(AlignedBarrier, ThreadZeroSkippingTheBarrierCompletes) {
    for (uint32_t block : kBlockSizes) {
        for (Schedule s : kSchedules) {
            const Outcome r = run("skip_thread0", 1, block, with_schedule(s, 13));
            ASSERT_EQ(r.result.status, RunStatus::Ok) << name(s, block) << ": " << r.result.message;
            EXPECT_EQ(r.out[0], 0xdeadbeefu);
            for (uint32_t t = 1; t < block; ++t)
                ASSERT_EQ(r.out[t], (block - t) * 5 + 3) << name(s, block) << " thread " << t;
        }
    }
}

// [SECTION] Not aligned: barrier.sync counts threads one by one

TEST(UnalignedBarrier, OddAndEvenLanesAtDifferentInstructionsPairUp) {
    for (uint32_t block : kBlockSizes) {
        for (Schedule s : kSchedules) {
            const Outcome r = run("odd_lanes_unaligned", 2, block, with_schedule(s, 17));
            ASSERT_EQ(r.result.status, RunStatus::Ok) << name(s, block) << ": " << r.result.message;
            for (uint32_t g = 0; g < 2 * block; ++g)
                ASSERT_EQ(r.out[g], g % block);
        }
    }
}

// [SECTION] bar.arrive and counted barriers (hand-written PTX)

// Warp 0 consumes at `bar.sync 1, 64`; warp 1 produces with `bar.arrive 1, 64`, its lanes 16-31 after
// a detour. bar.arrive is aligned too: lanes 0-15 wait for lanes 16-31 before the warp arrives and
// goes on (without waiting for the phase).
const char* kProducerConsumerPtx = R"(
.version 9.0
.target sm_75
.address_size 64
.visible .entry producer_consumer(.param .u64 out)
{
    .reg .pred %p<3>;
    .reg .b32 %r<4>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    and.b32 %r2, %r1, 31;
    setp.lt.u32 %p1, %r1, 32;
    @%p1 bra CONSUMER;
    setp.ge.u32 %p2, %r2, 16;
    @%p2 bra DETOUR;
ARRIVE:
    bar.arrive 1, 64;
    mul.wide.u32 %rd2, %r1, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r1;
    ret;
CONSUMER:
    bar.sync 1, 64;
    ret;
DETOUR:
    add.u32 %r3, %r2, 1;
    bra.uni ARRIVE;
}
)";

TEST(AlignedBarrier, BarArriveWaitsForTheWholeWarpThenGoesOn) {
    const ptx::Module m = ptx::parse_module(kProducerConsumerPtx, "producer_consumer.ptx");
    for (Schedule s : kSchedules) {
        std::vector<Buffer> buffers = {make_buffer("out", std::vector<uint32_t>(64, 0))};
        trace::Trace t;
        const Result r = simulate(m, "producer_consumer", launch({1, 1, 1}, {64, 1, 1}), buffers,
                                  {KernelArg::pointer(0)}, with_schedule(s, 19), &t);
        ASSERT_EQ(r.status, RunStatus::Ok) << r.message;
        const auto out = values_of<uint32_t>(buffers[0]);
        for (uint32_t i = 32; i < 64; ++i)
            EXPECT_EQ(out[i], i);
        uint64_t last_producer_arrive = 0, first_producer_store = UINT64_MAX;
        uint32_t producer_leaves = 0, consumer_leaves = 0;
        for (const trace::Event& e : t.events) {
            if (e.kind == EventKind::BarrierArrive && e.thread >= 32)
                last_producer_arrive = std::max(last_producer_arrive, e.time);
            if (e.kind == EventKind::Store) first_producer_store = std::min(first_producer_store, e.time);
            if (e.kind == EventKind::BarrierLeave) (e.thread >= 32 ? producer_leaves : consumer_leaves)++;
        }
        EXPECT_LT(last_producer_arrive, first_producer_store)
            << to_string(s) << ": lanes 0-15 stored before lanes 16-31 reached bar.arrive";
        EXPECT_EQ(producer_leaves, 0u) << "bar.arrive does not wait for the phase";
        EXPECT_EQ(consumer_leaves, 32u);
    }
}

// Barrier 1 expects 32 threads per phase. Warp 0 (after a short loop) completes phase 0 alone while
// warp 1's lanes 0-15 already wait at their bar.sync for lanes 16-31 (on a long loop); warp 1 then
// completes phase 1, and the early lanes' arrivals count in it.
const char* kLateJoinPtx = R"(
.version 9.0
.target sm_75
.address_size 64
.visible .entry late_join(.param .u64 out)
{
    .reg .pred %p<4>;
    .reg .b32 %r<4>;
    mov.u32 %r1, %tid.x;
    and.b32 %r2, %r1, 31;
    setp.lt.u32 %p1, %r1, 32;
    @%p1 bra FIRST;
    setp.ge.u32 %p2, %r2, 16;
    @%p2 bra DETOUR;
JOIN:
    bar.sync 1, 32;
    ret;
FIRST:
    mov.u32 %r3, 0;
FIRST_LOOP:
    add.u32 %r3, %r3, 1;
    setp.lt.u32 %p3, %r3, 10;
    @%p3 bra FIRST_LOOP;
    bar.sync 1, 32;
    ret;
DETOUR:
    mov.u32 %r3, 0;
LOOP:
    add.u32 %r3, %r3, 1;
    setp.lt.u32 %p3, %r3, 50;
    @%p3 bra LOOP;
    bra.uni JOIN;
}
)";

TEST(AlignedBarrier, ArrivalCountsInThePhaseTheWarpJoins) {
    const ptx::Module m = ptx::parse_module(kLateJoinPtx, "late_join.ptx");
    std::vector<Buffer> buffers;
    trace::Trace t;
    const Result r = simulate(m, "late_join", launch({1, 1, 1}, {64, 1, 1}), buffers, {KernelArg::scalar(0)},
                              with_schedule(Schedule::RoundRobin), &t);
    ASSERT_EQ(r.status, RunStatus::Ok) << r.message;
    uint64_t first_warp1_arrive = UINT64_MAX, last_warp0_leave = 0;
    for (const trace::Event& e : t.events) {
        if (e.kind != EventKind::BarrierArrive && e.kind != EventKind::BarrierLeave) continue;
        EXPECT_EQ(e.value, e.thread < 32 ? 0u : 1u)
            << "thread " << e.thread << " " << trace::to_string(e.kind);
        if (e.kind == EventKind::BarrierArrive && e.thread >= 32)
            first_warp1_arrive = std::min(first_warp1_arrive, e.time);
        if (e.kind == EventKind::BarrierLeave && e.thread < 32)
            last_warp0_leave = std::max(last_warp0_leave, e.time);
    }
    EXPECT_LT(first_warp1_arrive, last_warp0_leave) << "lanes 0-15 of warp 1 arrived during phase 0";
}

// [SECTION] Early exits first

// Lanes 16-31 branch to a ret placed after the lower lanes' code: they leave before the lower lanes
// run on (ptxas turns a branch to a return into a predicated EXIT).
const char* kEarlyExitPtx = R"(
.version 9.0
.target sm_75
.address_size 64
.visible .entry early_exit(.param .u64 out)
{
    .reg .pred %p<2>;
    .reg .b32 %r<3>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    setp.ge.u32 %p1, %r1, 16;
    @%p1 bra DONE;
    mul.wide.u32 %rd2, %r1, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r1;
    st.global.u32 [%rd3], %r1;
DONE:
    ret;
}
)";

TEST(Reconvergence, LanesAtRetRunBeforeLowerPcs) {
    const ptx::Module m = ptx::parse_module(kEarlyExitPtx, "early_exit.ptx");
    std::vector<Buffer> buffers = {make_buffer("out", std::vector<uint32_t>(32, 0))};
    trace::Trace t;
    const Result r = simulate(m, "early_exit", launch({1, 1, 1}, {32, 1, 1}), buffers,
                              {KernelArg::pointer(0)}, Options{}, &t);
    ASSERT_EQ(r.status, RunStatus::Ok) << r.message;
    uint64_t last_upper_exit = 0, first_store = UINT64_MAX;
    for (const trace::Event& e : t.events) {
        if (e.kind == EventKind::Exit && e.thread >= 16) last_upper_exit = std::max(last_upper_exit, e.time);
        if (e.kind == EventKind::Store) first_store = std::min(first_store, e.time);
    }
    EXPECT_LT(last_upper_exit, first_store);
}

} // namespace
} // namespace synclab::sim
