// The cost model (app/sim/cost_model.h): modelled cycles rank the atomics variants as the H200 does
// (GPU_FACTS.md "Atomics"), queues form where the contention is, barriers and loads cost what the
// model says, CAS retries are counted, and the timing is replayable.
#include "sim/cost_model.h"
#include "sim_test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

namespace synclab::sim {
namespace {

using namespace testing;

const ptx::Module& kernels() {
    static const ptx::Module m = load_module("cost_kernels");
    return m;
}

constexpr uint32_t kThreads = 16384;
constexpr uint32_t kBlock = 256;

struct Timed {
    Result result;
    trace::Trace trace;
    std::vector<Buffer> buffers;
};

Timed run(const std::string& kernel, uint32_t threads, uint32_t block, std::vector<Buffer> buffers,
          std::vector<KernelArg> args, Options options = {}, bool record = true) {
    Timed t;
    t.buffers = std::move(buffers);
    options.record_trace = record;
    t.result = simulate(kernels(), kernel, launch({threads / block, 1, 1}, {block, 1, 1}), t.buffers, args,
                        options, record ? &t.trace : nullptr);
    EXPECT_EQ(t.result.status, trace::RunStatus::Ok) << kernel << ": " << t.result.message;
    return t;
}

uint64_t counter_cycles(const std::string& kernel, uint32_t k = 0) {
    std::vector<Buffer> b{
        make_buffer<uint32_t>("g_count", std::vector<uint32_t>(std::max<uint32_t>(k, 1), 0))};
    std::vector<KernelArg> args{KernelArg::pointer(0)};
    if (k) args.push_back(KernelArg::scalar(k));
    Timed t = run(kernel, kThreads, kBlock, b, args, {}, false);
    uint64_t sum = 0;
    for (uint32_t v : values_of<uint32_t>(t.buffers[0]))
        sum += v;
    EXPECT_EQ(sum, kThreads) << kernel << " lost counts";
    return t.result.modelled_cycles;
}

template <class T> T median(std::vector<T> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

// [SECTION] Ranking ==================================================================================

// "One address" here is k_addresses with k = 1: thread i adds to g_counts[i % 1], an address the
// PTX cannot prove the same in every lane, so nothing aggregates it and every lane queues. (The
// plain atomicAdd(g_count, 1) of one_address is provably uniform: ptxas makes it one atomic per warp
// even as a RED, GPU_FACTS.md "Which contended atomics ptxas aggregates by itself"; see below.)
TEST(CostModel, RanksTheCounterVariantsAsTheH200) {
    const uint64_t one = counter_cycles("k_addresses", 1);
    const uint64_t k32 = counter_cycles("k_addresses", 32);
    const uint64_t k1024 = counter_cycles("k_addresses", 1024);
    const uint64_t aggregated = counter_cycles("warp_aggregated");
    const uint64_t hierarchical = counter_cycles("block_hierarchical");
    std::printf("modelled cycles, %u threads: one address %llu, 32 addresses %llu, 1,024 addresses %llu, "
                "warp-aggregated %llu, block-hierarchical %llu\n",
                kThreads, (unsigned long long)one, (unsigned long long)k32, (unsigned long long)k1024,
                (unsigned long long)aggregated, (unsigned long long)hierarchical);
    // H200: 12.3 ms > 1.23 > 0.39 (warp-aggregated) > 0.16 (1,024) > 0.052 (block-hierarchical).
    EXPECT_GT(one, k32);
    EXPECT_GT(k32, aggregated);
    EXPECT_GT(aggregated, k1024);
    EXPECT_GT(k1024, hierarchical);
    // Each lane's atomic to one address is one service: 16 k of them take at least 16 k x 1.45 cycles.
    EXPECT_GE(one, uint64_t(kThreads * CostParams{}.global_address_service));
    // 32 addresses share one L2 slice: several times faster than one address, far from 32x.
    const double ratio = double(one) / double(k32);
    EXPECT_GT(ratio, 4.0) << one << " vs " << k32;
    EXPECT_LT(ratio, 16.0) << one << " vs " << k32;
}

// What ptxas aggregates by itself is timed as one atomic per warp: atomicAdd(g_count, 1) with its
// result unused (one RED per warp on the H200: 0.39 ms for 16.8 M threads, as hand-written warp
// aggregation), against the same count on an address it cannot prove uniform.
TEST(CostModel, AProvablyUniformIntegerAddIsAggregatedEvenAsARed) {
    const uint64_t uniform = counter_cycles("one_address");
    const uint64_t unprovable = counter_cycles("k_addresses", 1);
    const uint64_t aggregated = counter_cycles("warp_aggregated");
    EXPECT_GT(unprovable, 8 * uniform) << uniform << " vs " << unprovable;
    EXPECT_LT(double(uniform), 2.0 * double(aggregated)) << uniform << " vs hand-written " << aggregated;
}

// [SECTION] Queues and %clock64 ======================================================================

struct Latencies {
    std::vector<int64_t> cycles;
    uint32_t max_depth = 0;
    Timed timed;
};

Latencies timed_atomic(uint32_t k, Options options = {}) {
    const uint32_t n = 4096;
    std::vector<Buffer> b{make_buffer<uint32_t>("g_counts", std::vector<uint32_t>(k, 0)),
                          make_buffer<int64_t>("g_cycles", std::vector<int64_t>(n, 0)),
                          make_buffer<uint32_t>("g_smid", std::vector<uint32_t>(n, 99)),
                          make_buffer<uint32_t>("g_old", std::vector<uint32_t>(n, 0))};
    Latencies l;
    l.timed = run("timed_atomic", n, kBlock, b,
                  {KernelArg::pointer(0), KernelArg::scalar(k), KernelArg::pointer(1), KernelArg::pointer(2),
                   KernelArg::pointer(3)},
                  options);
    l.cycles = values_of<int64_t>(l.timed.buffers[1]);
    const trace::Trace& t = l.timed.trace;
    for (size_t i = 0; i < t.timing.size(); ++i)
        if (t.events[i].kind == trace::EventKind::Atomic)
            l.max_depth = std::max(l.max_depth, t.timing[i].queue_depth);
    return l;
}

TEST(CostModel, Clock64MeasuresTheQueueAtOneAddress) {
    const Latencies one = timed_atomic(1), k32 = timed_atomic(32), k1024 = timed_atomic(1024);
    const int64_t m1 = median(one.cycles), m32 = median(k32.cycles), m1024 = median(k1024.cycles);
    // H200 medians: 145 k, 10.6 k, 2.2 k cycles (135 k threads): the same order here.
    EXPECT_GT(m1, m32);
    EXPECT_GT(m32, m1024);
    // Never faster than the round trip to L2.
    EXPECT_GE(*std::min_element(k1024.cycles.begin(), k1024.cycles.end()), CostParams{}.l2_round_trip);
    // The queue at one address holds most of the launch's atomics; with 1,024 addresses each has a
    // handful.
    EXPECT_GT(one.max_depth, 1000u);
    EXPECT_LT(k1024.max_depth, 32u);
    EXPECT_GT(one.max_depth, 10 * k32.max_depth);
}

TEST(CostModel, TimingIsParallelToEventsAndMatchesClock64) {
    const Latencies one = timed_atomic(1);
    const trace::Trace& t = one.timed.trace;
    ASSERT_EQ(t.timing.size(), t.events.size());
    EXPECT_EQ(t.meta.modelled_cycles, one.timed.result.modelled_cycles);
    // A thread's clock64 difference spans its own atomic's latency; its warp waits for the slowest
    // lane, plus the few instructions between the two clock reads.
    std::vector<uint32_t> warp_worst(t.threads.size() / 32 + 1, 0);
    for (size_t i = 0; i < t.events.size(); ++i)
        if (t.events[i].kind == trace::EventKind::Atomic)
            warp_worst[t.events[i].thread / 32] =
                std::max(warp_worst[t.events[i].thread / 32], t.timing[i].latency);
    size_t atomics = 0;
    for (size_t i = 0; i < t.events.size(); ++i) {
        if (t.events[i].kind != trace::EventKind::Atomic) continue;
        ++atomics;
        const uint32_t thread = t.events[i].thread;
        const int64_t measured = one.cycles[thread];
        EXPECT_GE(measured, int64_t(t.timing[i].latency)) << "thread " << thread;
        EXPECT_LE(measured, int64_t(warp_worst[thread / 32]) + 64) << "thread " << thread;
        EXPECT_LE(t.timing[i].issue + t.timing[i].latency, t.meta.modelled_cycles);
    }
    EXPECT_EQ(atomics, t.threads.size());
    // %smid is the block's SM.
    const auto smid = values_of<uint32_t>(one.timed.buffers[2]);
    const uint32_t sms = Options{}.sm_count;
    for (uint32_t i = 0; i < smid.size(); ++i)
        ASSERT_EQ(smid[i], (i / kBlock) % sms) << "thread " << i;
}

TEST(CostModel, SharedAtomicsQueuePerBlockAndAreCheaperThanGlobal) {
    auto shared = [](uint32_t k) {
        const uint32_t n = 2048, block = 1024;
        std::vector<Buffer> b{make_buffer<int64_t>("g_cycles", std::vector<int64_t>(n, 0)),
                              make_buffer<uint32_t>("g_out", std::vector<uint32_t>(n, 0))};
        Timed t = run("timed_shared_atomic", n, block, b,
                      {KernelArg::scalar(k), KernelArg::pointer(0), KernelArg::pointer(1)});
        return median(values_of<int64_t>(t.buffers[0]));
    };
    const int64_t s1 = shared(1), s32 = shared(32);
    // H200, 1,024 threads per block: 926 cycles at one address, 430 at 32.
    EXPECT_GT(s1, s32);
    EXPECT_GT(s1, 600);
    EXPECT_LT(s1, 1300);
    // One address on global memory (4,096 threads) queues far longer than in one block's shared memory.
    EXPECT_GT(median(timed_atomic(1).cycles), 3 * s1);
}

// [SECTION] Loads, barriers ==========================================================================

TEST(CostModel, LoadLatencies) {
    const uint32_t n = 256;
    std::vector<Buffer> b{make_buffer<uint32_t>("g_in", std::vector<uint32_t>(n, 7)),
                          make_buffer<int64_t>("g_cycles", std::vector<int64_t>(2 * n, 0)),
                          make_buffer<uint32_t>("g_out", std::vector<uint32_t>(n, 0))};
    Timed t =
        run("timed_loads", n, n, b, {KernelArg::pointer(0), KernelArg::pointer(1), KernelArg::pointer(2)});
    const auto c = values_of<int64_t>(t.buffers[1]);
    const CostParams p;
    for (uint32_t i = 0; i < n; ++i) {
        EXPECT_GE(c[2 * i], p.global_latency) << "thread " << i;
        EXPECT_LT(c[2 * i], p.global_latency + 64) << "thread " << i;
        EXPECT_GE(c[2 * i + 1], p.shared_latency) << "thread " << i;
        EXPECT_LT(c[2 * i + 1], p.shared_latency + 64) << "thread " << i;
    }
}

TEST(CostModel, WarpsLeaveABarrierAtTheLatestArrival) {
    auto after = [](uint32_t rounds) {
        const uint32_t n = 128;
        std::vector<Buffer> b{make_buffer<int64_t>("g_after", std::vector<int64_t>(n, 0)),
                              make_buffer<uint32_t>("g_sink", std::vector<uint32_t>(n, 0))};
        Timed t = run("barrier_wait", n, n, b,
                      {KernelArg::scalar(rounds), KernelArg::pointer(0), KernelArg::pointer(1)},
                      with_schedule(Schedule::Random, 5));
        return values_of<int64_t>(t.buffers[0]);
    };
    const std::vector<int64_t> short_wait = after(1), long_wait = after(200);
    // Warps 1-3 did nothing before the barrier, yet leave it with warp 0: every clock after it is alike
    // up to the few instructions between the barrier and clock64.
    const auto [lo, hi] = std::minmax_element(long_wait.begin(), long_wait.end());
    EXPECT_LE(*hi - *lo, 16);
    // 199 more rounds: nvcc unrolled the loop by 4 into mad, add, setp, bra: at least 49 more trips.
    const CostParams p;
    EXPECT_GE(*lo - *std::max_element(short_wait.begin(), short_wait.end()),
              int64_t(49 * (3 * p.alu + p.control)));
}

// [SECTION] CAS retries ==============================================================================

TEST(CostModel, CountsFailedCompareAndSwap) {
    const uint32_t n = 32;
    std::vector<float> in(n);
    for (uint32_t i = 0; i < n; ++i)
        in[i] = float(i + 1);
    std::vector<Buffer> b{make_buffer<float>("g_sum", {0.0f}), make_buffer<float>("g_in", in)};
    Timed t = run("cas_add", n, n, b, {KernelArg::pointer(0), KernelArg::pointer(1)});
    EXPECT_EQ(values_of<float>(t.buffers[0])[0], float(n * (n + 1) / 2));
    // One warp, lanes applied in lane order: each round exactly one lane's compare matches, so the
    // rounds fail 31 + 30 + ... + 0 times.
    EXPECT_EQ(t.result.cas_failures, n * (n - 1) / 2);
    ASSERT_EQ(t.trace.cas_failures.size(), t.trace.sites.size());
    uint64_t at_cas = 0, elsewhere = 0;
    for (size_t s = 0; s < t.trace.sites.size(); ++s)
        (t.trace.sites[s].text.find("atom") != std::string::npos &&
                 t.trace.sites[s].text.find("cas") != std::string::npos
             ? at_cas
             : elsewhere) += t.trace.cas_failures[s];
    EXPECT_EQ(at_cas, n * (n - 1) / 2);
    EXPECT_EQ(elsewhere, 0u);
}

TEST(CostModel, NoFailuresNoCasTable) {
    Latencies l = timed_atomic(4);
    EXPECT_EQ(l.timed.result.cas_failures, 0u);
    EXPECT_TRUE(l.timed.trace.cas_failures.empty());
}

// [SECTION] Replay and the switch ====================================================================

TEST(CostModel, SameSeedSameTiming) {
    Options o = with_schedule(Schedule::Random, 3);
    const Latencies a = timed_atomic(32, o), b = timed_atomic(32, o);
    EXPECT_EQ(a.timed.result.modelled_cycles, b.timed.result.modelled_cycles);
    ASSERT_EQ(a.timed.trace.timing.size(), b.timed.trace.timing.size());
    for (size_t i = 0; i < a.timed.trace.timing.size(); ++i) {
        ASSERT_EQ(a.timed.trace.timing[i].issue, b.timed.trace.timing[i].issue) << "event " << i;
        ASSERT_EQ(a.timed.trace.timing[i].latency, b.timed.trace.timing[i].latency) << "event " << i;
        ASSERT_EQ(a.timed.trace.timing[i].queue_depth, b.timed.trace.timing[i].queue_depth) << "event " << i;
    }
    EXPECT_EQ(a.cycles, b.cycles);
}

TEST(CostModel, BothMemoryModelsAreTimed) {
    Options relaxed;
    relaxed.memory = MemoryModel::Relaxed;
    const Latencies sc = timed_atomic(1), rl = timed_atomic(1, relaxed);
    EXPECT_GT(rl.timed.result.modelled_cycles, 0u);
    EXPECT_EQ(rl.timed.trace.timing.size(), rl.timed.trace.events.size());
    EXPECT_GT(rl.max_depth, 1000u);
    EXPECT_EQ(sc.timed.trace.meta.memory_model, "sc");
    EXPECT_EQ(rl.timed.trace.meta.memory_model, "relaxed");
}

TEST(CostModel, OffMeansUntimed) {
    Options off;
    off.cost_model = false;
    const Latencies l = timed_atomic(1, off);
    EXPECT_EQ(l.timed.result.modelled_cycles, 0u);
    EXPECT_EQ(l.timed.trace.meta.modelled_cycles, 0u);
    EXPECT_TRUE(l.timed.trace.timing.empty());
    // %clock64 reads the logical tick: the same count of steps whatever the contention.
    EXPECT_EQ(median(l.cycles), median(timed_atomic(1024, off).cycles));
}

// [SECTION] Server ===================================================================================

TEST(CostModelServer, BackfillsIdleGapsAndQueuesAtTheTail) {
    Server s;
    s.take(0, 10, 0);
    s.take(100, 10, 0);
    EXPECT_EQ(s.fit(20, 5), 20u) << "an early arrival uses the idle gap";
    EXPECT_EQ(s.fit(5, 5), 10u) << "inside a busy interval: served when it ends";
    EXPECT_EQ(s.fit(95, 10), 110u) << "the gap before 100 is too short";
    EXPECT_EQ(s.busy_between(0, 200), 20u);
    EXPECT_EQ(s.busy_between(5, 105), 10u);
    s.take(10, 90, 0); // fills the gap: one interval
    EXPECT_EQ(s.intervals(), 1u);
    EXPECT_EQ(s.fit(0, 1), 110u);
}

TEST(CostModelServer, DropsIntervalsBehindTheHorizon) {
    Server s;
    for (uint64_t i = 0; i < 100; ++i)
        s.take(i * 10, 5, 0);
    EXPECT_EQ(s.intervals(), 100u);
    s.take(2000, 5, 900);
    EXPECT_LT(s.intervals(), 20u);
    EXPECT_EQ(s.fit(990, 5), 995u) << "what is ahead of the horizon is kept";
}

} // namespace
} // namespace synclab::sim
