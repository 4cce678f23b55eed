// Cooperative launch, %envreg, residency and the spin detector in the simulator, on the kernels of
// tests/coop/data/coop_kernels.cu.
#include "../sim/sim_test_util.h"
#include "ptx/parser.h"
#include "sim/simulator.h"
#include "trace/slt_file.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <fstream>
#include <sstream>

namespace synclab::sim {
namespace {

const ptx::Module& module() {
    static const ptx::Module m = [] {
        std::ifstream in(std::string(SYNCLAB_SOURCE_DIR) + "/tests/coop/data/coop_kernels.ptx");
        std::stringstream ss;
        ss << in.rdbuf();
        return ptx::parse_module(ss.str(), "coop_kernels.ptx");
    }();
    return m;
}

using testing::make_buffer;
using testing::values_of;

LaunchConfig launch(uint32_t blocks, uint32_t threads, bool cooperative) {
    LaunchConfig l;
    l.grid = {blocks, 1, 1};
    l.block = {threads, 1, 1};
    l.cooperative = cooperative;
    return l;
}

bool contains(const std::string& s, const std::string& part) {
    return s.find(part) != std::string::npos;
}

struct TwoPhase {
    std::vector<Buffer> buffers;
    std::vector<KernelArg> args;
    int n;
    explicit TwoPhase(int elements) : n(elements) {
        std::vector<int32_t> in(n);
        for (int i = 0; i < n; ++i)
            in[i] = 3 * i + 1;
        buffers = {make_buffer("in", in), make_buffer("tmp", std::vector<int32_t>(n)),
                   make_buffer("out", std::vector<int32_t>(n))};
        args = {KernelArg::pointer(0), KernelArg::pointer(1), KernelArg::pointer(2),
                KernelArg::scalar(static_cast<uint64_t>(n))};
    }
    // out[i] = 2 in[i] + 2 in[(i + 256) % n]
    int wrong() const {
        const auto in = values_of<int32_t>(buffers[0]);
        const auto out = values_of<int32_t>(buffers[2]);
        int bad = 0;
        for (int i = 0; i < n; ++i)
            bad += out[i] != 2 * in[i] + 2 * in[(i + 256) % n];
        return bad;
    }
};

TEST(CooperativeLaunch, GridSyncOrdersThePhasesOfSixtyFourBlocksUnderEverySchedule) {
    for (Schedule s : {Schedule::RoundRobin, Schedule::Random, Schedule::Adversarial})
        for (uint64_t seed = 1; seed <= 3; ++seed) {
            TwoPhase t(64 * 256);
            Options o;
            o.schedule = s;
            o.seed = seed;
            trace::Trace trace;
            const Result r = simulate(module(), "two_phase_grid_sync", launch(64, 256, true), t.buffers,
                                      t.args, o, &trace);
            ASSERT_EQ(r.status, trace::RunStatus::Ok) << to_string(s) << " " << seed << ": " << r.message;
            EXPECT_EQ(t.wrong(), 0) << to_string(s) << " seed " << seed;
        }
}

TEST(CooperativeLaunch, GridSyncInANormalLaunchTrapsWithAClearError) {
    TwoPhase t(4 * 256);
    const Result r = simulate(module(), "two_phase_grid_sync", launch(4, 256, false), t.buffers, t.args,
                              Options{}, nullptr);
    ASSERT_EQ(r.status, trace::RunStatus::Error);
    EXPECT_TRUE(contains(r.message, "grid.sync() in a kernel that was not launched cooperatively (PTX line"))
        << r.message;
    EXPECT_TRUE(contains(r.message, "coop_kernels.cu:13"))
        << r.message; // the grid.sync() line, not cg's header
}

TEST(CooperativeLaunch, TooManyBlocksFailBeforeAnythingRuns) {
    TwoPhase t(256);
    const std::vector<Buffer> before = t.buffers;
    trace::Trace trace;
    const Result r = simulate(module(), "two_phase_grid_sync", launch(10000, 256, true), t.buffers, t.args,
                              Options{}, &trace);
    ASSERT_EQ(r.status, trace::RunStatus::Error);
    EXPECT_EQ(r.message.find(
                  "too many blocks in cooperative launch: 10000 blocks of 256 threads, at most 64 fit at "
                  "once (8 SMs x 8 blocks per SM, limited by threads per SM)"),
              0u)
        << r.message;
    EXPECT_EQ(r.thread_instructions, 0u);
    EXPECT_EQ(t.buffers[2].bytes, before[2].bytes);
    // The limit follows the modelled SMs and the block size.
    Options o;
    o.sm_count = 2;
    TwoPhase u(256);
    const Result r2 =
        simulate(module(), "two_phase_grid_sync", launch(5, 1024, true), u.buffers, u.args, o, nullptr);
    EXPECT_TRUE(
        contains(r2.message, "5 blocks of 1024 threads, at most 4 fit at once (2 SMs x 2 blocks per SM"))
        << r2.message;
}

TEST(CooperativeLaunch, AllBlocksResidentEvenPastTheSimulatorsCap) {
    // 64 blocks fit the model but exceed max_resident_blocks (16): a cooperative launch holds them all.
    TwoPhase t(64 * 256);
    Options o;
    o.max_resident_blocks = 16;
    const Result r =
        simulate(module(), "two_phase_grid_sync", launch(64, 256, true), t.buffers, t.args, o, nullptr);
    ASSERT_EQ(r.status, trace::RunStatus::Ok) << r.message;
    EXPECT_EQ(t.wrong(), 0);
}

struct Barrier {
    std::vector<Buffer> buffers;
    std::vector<KernelArg> args;
    explicit Barrier(uint32_t threads) {
        buffers = {make_buffer("arrived", std::vector<uint32_t>(1)),
                   make_buffer("done", std::vector<int32_t>(threads))};
        args = {KernelArg::pointer(0), KernelArg::pointer(1)};
    }
};

TEST(SpinDetector, HandmadeBarrierWhoseBlocksFitFinishesDespiteTheCap) {
    // 64 blocks of 256 fit 8 SMs; the simulator keeps 16 in flight, sees them spin, and admits the
    // rest rather than call a correct (if fragile) kernel a deadlock.
    for (Schedule s : {Schedule::RoundRobin, Schedule::Random}) {
        Barrier b(64 * 256);
        Options o;
        o.schedule = s;
        const Result r =
            simulate(module(), "handmade_barrier", launch(64, 256, false), b.buffers, b.args, o, nullptr);
        ASSERT_EQ(r.status, trace::RunStatus::Ok) << r.message;
        for (int32_t d : values_of<int32_t>(b.buffers[1]))
            ASSERT_EQ(d, 1);
    }
}

TEST(SpinDetector, OversubscribedHandmadeBarrierEndsFastAsADeadlockNamingWhoSpinsAndWhoNeverStarted) {
    for (Schedule s : {Schedule::RoundRobin, Schedule::Random, Schedule::Adversarial}) {
        Barrier b(256 * 256);
        Options o;
        o.schedule = s;
        trace::Trace trace;
        const auto t0 = std::chrono::steady_clock::now();
        const Result r =
            simulate(module(), "handmade_barrier", launch(256, 256, false), b.buffers, b.args, o, &trace);
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        ASSERT_EQ(r.status, trace::RunStatus::Deadlock) << to_string(s) << ": " << r.message;
        EXPECT_LT(seconds, 10.0);
        EXPECT_LT(r.thread_instructions, o.max_steps / 10) << "ended by the detector, not the step budget";
        EXPECT_TRUE(contains(r.message, "Blocks 0-63: thread 0 spins at 'ld.volatile.global.u32"))
            << r.message;
        EXPECT_TRUE(contains(r.message, "coop_kernels.cu:23")) << r.message; // the while line
        EXPECT_TRUE(contains(r.message, "threads 1-255 wait at")) << r.message;
        EXPECT_TRUE(contains(r.message,
                             "Blocks 64-255 never started: no slot freed (at most 64 blocks of 256 threads "
                             "fit at once: 8 SMs x 8 blocks per SM, limited by threads per SM)"))
            << r.message;
        // The thread table says the same: blocks 64-255 never started, thread 0 spins, and the
        // rest of its warp is parked at the barrier (it waits there, it does not run), like the
        // other warps, which arrived.
        EXPECT_EQ(trace.threads[64 * 256].end, trace::ThreadEnd::NotStarted);
        EXPECT_EQ(trace.threads[0].end, trace::ThreadEnd::Running);
        const uint32_t barrier = trace.threads[32].end_site;
        EXPECT_EQ(trace.threads[32].end, trace::ThreadEnd::AtBarrier);
        ASSERT_LT(barrier, trace.sites.size());
        EXPECT_TRUE(contains(trace.sites[barrier].text, "bar.sync")) << trace.sites[barrier].text;
        for (uint32_t t : {1u, 17u, 31u}) {
            EXPECT_EQ(trace.threads[t].end, trace::ThreadEnd::AtBarrier)
                << "thread " << t << ", " << to_string(s);
            EXPECT_EQ(trace.threads[t].end_site, barrier) << "thread " << t << ", " << to_string(s);
        }
    }
}

TEST(ResidencyTable, SaysWhichBlocksRanWhereAndWhichNeverStartedAndSurvivesTheSltFile) {
    Barrier b(256 * 256);
    trace::Trace trace;
    const Result r =
        simulate(module(), "handmade_barrier", launch(256, 256, false), b.buffers, b.args, Options{}, &trace);
    ASSERT_EQ(r.status, trace::RunStatus::Deadlock) << r.message;
    ASSERT_EQ(trace.residency.size(), 256u);
    for (uint32_t blk = 0; blk < 256; ++blk) {
        const trace::BlockResidency& res = trace.residency[blk];
        if (blk < 64) {
            EXPECT_NE(res.admitted, trace::BlockResidency::kNever) << blk; // resident (after the cap widened)
            EXPECT_EQ(res.retired, trace::BlockResidency::kNever) << blk;  // and never finished
            EXPECT_EQ(res.sm, blk % 8);
        } else {
            EXPECT_EQ(res.admitted, trace::BlockResidency::kNever) << blk;
        }
        EXPECT_EQ(res.waited, 0u); // no block ever retired, so none got a freed slot
    }
    // The .slt keeps it (an optional section), and a trace without one saves as before.
    const std::string path = ::testing::TempDir() + "/residency.slt";
    trace::save_trace(trace, path);
    const trace::Trace back = trace::load_trace(path);
    ASSERT_EQ(back.residency.size(), trace.residency.size());
    EXPECT_EQ(std::memcmp(back.residency.data(), trace.residency.data(), trace.residency.size() * 24), 0);
    trace::Trace without = trace;
    without.residency.clear();
    EXPECT_EQ(trace::serialize(without).size() + trace::kSltSectionHeaderSize + 256 * 24,
              trace::serialize(trace).size());
    EXPECT_TRUE(trace::load_trace(path).residency.size() == 256u);
}

TEST(ResidencyTable, BlocksAdmittedAfterARetirementWaitedForASlot) {
    std::vector<Buffer> buffers = {make_buffer("flag", std::vector<uint32_t>(1)),
                                   make_buffer("out", std::vector<uint32_t>(80))};
    const std::vector<KernelArg> args = {KernelArg::pointer(0), KernelArg::pointer(1),
                                         KernelArg::scalar(1000)};
    trace::Trace trace;
    const Result r = simulate(module(), "slow_flag", launch(80, 64, false), buffers, args, Options{}, &trace);
    ASSERT_EQ(r.status, trace::RunStatus::Ok) << r.message;
    ASSERT_EQ(trace.residency.size(), 80u);
    EXPECT_EQ(trace.residency[0].waited, 0u);
    EXPECT_EQ(trace.residency[79].waited, 1u); // the cap (16) held it back until blocks finished
    for (const trace::BlockResidency& res : trace.residency) {
        EXPECT_NE(res.retired, trace::BlockResidency::kNever);
        EXPECT_LE(res.admitted, res.retired);
    }
}

// uneven_blocks: block 1 returns at once, the others loop first. With one slot per SM (150 KB of
// shared memory each) on two SMs, block 2 takes the slot block 1 freed on SM 1 (not SM 2 % 2 = 0),
// and block 3 the slot of whichever of blocks 0 and 2 ends first (under rr: block 0's, SM 0, not
// SM 3 % 2 = 1).
TEST(ResidencyTable, ABlockTakesTheSlotThatFreedNotSmBlockModSmCount) {
    for (Schedule s : {Schedule::RoundRobin, Schedule::Random}) {
        std::vector<Buffer> buffers = {make_buffer("out", std::vector<uint32_t>(4, 99))};
        LaunchConfig l = launch(4, 32, false);
        l.dynamic_shared_bytes = 150 * 1024;
        Options o;
        o.schedule = s;
        o.sm_count = 2;
        trace::Trace trace;
        const Result r = simulate(module(), "uneven_blocks", l, buffers, {KernelArg::pointer(0)}, o, &trace);
        ASSERT_EQ(r.status, trace::RunStatus::Ok) << r.message;
        ASSERT_EQ(trace.residency.size(), 4u);
        const uint32_t first_done = trace.residency[0].retired < trace.residency[2].retired ? 0 : 2;
        if (s == Schedule::RoundRobin) {
            EXPECT_EQ(first_done, 0u);
        }
        const std::vector<uint32_t> want = {0, 1, 1, first_done == 0 ? 0u : 1u};
        EXPECT_EQ(values_of<uint32_t>(buffers[0]), want) << "%smid per block, " << to_string(s);
        for (uint32_t b = 0; b < 4; ++b) {
            EXPECT_EQ(trace.residency[b].sm, want[b]) << "block " << b << ", " << to_string(s);
            EXPECT_EQ(trace.threads[b * 32].sm, want[b]) << "block " << b << ", " << to_string(s);
        }
        // One slot per SM: the residencies on one SM never overlap.
        for (uint32_t a = 0; a < 4; ++a)
            for (uint32_t b = a + 1; b < 4; ++b)
                if (trace.residency[a].sm == trace.residency[b].sm) {
                    EXPECT_TRUE(trace.residency[a].retired <= trace.residency[b].admitted ||
                                trace.residency[b].retired <= trace.residency[a].admitted)
                        << "blocks " << a << " and " << b << " share SM " << trace.residency[a].sm;
                }
    }
}

TEST(SpinDetector, ASlowButFinishingSpinIsNotFlagged) {
    // Thread 0 of block 1 computes in registers for a long time (no store, no exit), while thread 0
    // of every other resident block spins on the flag and blocks 16-79 wait for a slot: a long quiet
    // stretch, but block 1's registers never repeat, so the run goes on and finishes.
    for (Schedule s : {Schedule::RoundRobin, Schedule::Random}) {
        const uint32_t rounds = 200000;
        std::vector<Buffer> buffers = {make_buffer("flag", std::vector<uint32_t>(1)),
                                       make_buffer("out", std::vector<uint32_t>(80))};
        const std::vector<KernelArg> args = {KernelArg::pointer(0), KernelArg::pointer(1),
                                             KernelArg::scalar(rounds)};
        Options o;
        o.schedule = s;
        const Result r = simulate(module(), "slow_flag", launch(80, 64, false), buffers, args, o, nullptr);
        ASSERT_EQ(r.status, trace::RunStatus::Ok) << to_string(s) << ": " << r.message;
        uint32_t x = rounds;
        for (uint32_t i = 0; i < rounds; ++i)
            x = x * 1664525u + 1013904223u;
        const auto out = values_of<uint32_t>(buffers[1]);
        EXPECT_EQ(out[1], x);
        for (uint32_t b = 0; b < 80; ++b) {
            if (b != 1) {
                EXPECT_EQ(out[b], 1u) << "block " << b;
            }
        }
        // It was a long quiet stretch: far more instructions than the detector's samples need, and
        // it did look (and found block 1's registers changing).
        EXPECT_GT(r.thread_instructions, 10u * 16384u);
        EXPECT_GT(r.spin_samples, 3u) << to_string(s);
    }
}

// Ordinary work takes no samples: the stencil lesson's kernel in 66 waves of 64 resident blocks
// (4,224 blocks) loads, computes and stores with no spin anywhere. Each wave is quiet from its
// loads to its stores; hashing every resident warp then was two thirds of the simulator's time
// (docs/PERF_NOTES.md). The detector waits for a quiet stretch of kQuietBeforeSampling
// instructions per live thread first.
TEST(SpinDetector, OrdinaryWorkInManyWavesTakesNoSample) {
    std::ifstream in(std::string(SYNCLAB_SOURCE_DIR) + "/assets/ptx/stencil.ptx");
    std::stringstream text;
    text << in.rdbuf();
    const ptx::Module stencil = ptx::parse_module(text.str(), "stencil.ptx");
    const uint32_t blocks = 4224, n = blocks * 256;
    std::vector<Buffer> buffers = {make_buffer("g_in", std::vector<float>(n, 1.0f)),
                                   make_buffer("g_out", std::vector<float>(n))};
    const std::vector<KernelArg> args = {KernelArg::pointer(0), KernelArg::pointer(1), KernelArg::scalar(n)};
    for (Schedule s : {Schedule::RoundRobin, Schedule::Random}) {
        Options o;
        o.schedule = s;
        const Result r = simulate(stencil, "stencil_correct", launch(blocks, 256, false), buffers, args, o, nullptr);
        ASSERT_EQ(r.status, trace::RunStatus::Ok) << r.message;
        EXPECT_EQ(r.spin_samples, 0u) << to_string(s);
        EXPECT_EQ(values_of<float>(buffers[1])[1000], 3.0f) << "left + itself + right";
    }
}

TEST(SpinDetector, WideningPastTheCapRespectsTheMemoryBudget) {
    Barrier b(64 * 256);
    Options o;
    o.max_resident_blocks = 2;
    o.record_trace = false;
    // Enough for 2 resident blocks and the buffers, not for 64.
    o.max_memory_bytes = 600'000;
    const Result r =
        simulate(module(), "handmade_barrier", launch(64, 256, false), b.buffers, b.args, o, nullptr);
    ASSERT_EQ(r.status, trace::RunStatus::Budget) << r.message;
    EXPECT_EQ(r.budget, Budget::Memory);
    EXPECT_TRUE(contains(r.message, "admitting up to the modelled 64 resident blocks")) << r.message;
}

TEST(Envreg, NormalLaunchReadsZeroCooperativeReadsTheWorkspace) {
    // %envreg1:%envreg2 is the workspace pointer; parsing every %envreg works (no "unsupported").
    std::string ptx =
        ".version 7.0\n.target sm_75\n.address_size 64\n"
        ".visible .entry k(.param .u64 out) {\n .reg .b32 %r<4>; .reg .b64 %rd<4>;\n"
        " ld.param.u64 %rd1, [out];\n cvta.to.global.u64 %rd1, %rd1;\n"
        " mov.u32 %r1, %envreg1;\n mov.u32 %r2, %envreg2;\n mov.u32 %r3, %envreg31;\n"
        " st.global.u32 [%rd1], %r1;\n st.global.u32 [%rd1+4], %r2;\n st.global.u32 [%rd1+8], %r3;\n"
        " ret;\n}\n";
    const ptx::Module m = ptx::parse_module(ptx, "envreg.ptx");
    for (bool coop : {false, true}) {
        std::vector<Buffer> buffers = {make_buffer("out", std::vector<uint32_t>{7, 7, 7})};
        const Result r =
            simulate(m, "k", launch(1, 1, coop), buffers, {KernelArg::pointer(0)}, Options{}, nullptr);
        ASSERT_EQ(r.status, trace::RunStatus::Ok) << r.message;
        const auto v = values_of<uint32_t>(buffers[0]);
        const uint64_t ws = (uint64_t(v[0]) << 32) | v[1];
        EXPECT_EQ(ws != 0, coop);
        EXPECT_EQ(v[2], 0u);
    }
}

} // namespace
} // namespace synclab::sim
