// "No finding from a partial history", end to end without a GPU: the runner's GPU side talks to
// synclab-sim-worker (tests/gpu/sim_worker.cpp), which runs the instrumented kernels in the
// simulator, so the first launch, the sized second launch, the sample of whole blocks, block_history
// and the sentences of the result are the ones a GPU run produces. The GPU tests (gpu_test.cpp) run
// the same at the full size on the device.
#include "gpu/client.h"
#include "gpu/tiled_matmul.h"
#include "gpu/trace_plan.h"
#include "ptx/parser.h"
#include "runner/runner.h"
#include "scenario/scenario.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <fstream>

namespace synclab {
namespace {

using gpu::testing::MatMul;
using gpu::testing::matmul_job;
using gpu::testing::tiled_matmul;

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// The tiled matrix product of tests/gpu/data at 4 x 4 blocks of 16 x 16 threads (64 x 64 matrices):
// 4 tiles, 162 events a thread, 41,472 a block.
constexpr uint32_t kWidth = 64;
constexpr uint64_t kBlocks = 16;

runner::RunOptions sim_gpu(uint64_t cap_bytes) {
    runner::RunOptions o;
    o.backend = "gpu";
    o.reps = 1;
    o.gpu.worker = SYNCLAB_SIM_WORKER;
    o.gpu.untraced = false;
    o.gpu.trace.cap_bytes = cap_bytes;
    return o;
}

uint64_t events_per_block_of(const std::string& kernel) {
    // The simulator's own trace of the original kernel.
    const runner::KernelJob job = matmul_job(kernel, kWidth);
    runner::RunOptions o;
    o.schedule = sim::Schedule::RoundRobin;
    const runner::RunSummary r = runner::run_job(job, o);
    EXPECT_EQ(r.status, trace::RunStatus::Ok);
    return r.events / kBlocks;
}

TEST(WholeBlocks, ASmallCapRecordsASampleOfWholeBlocksAndACorrectKernelHasNoFinding) {
    const uint64_t per_block = events_per_block_of(tiled_matmul().correct);
    ASSERT_EQ(per_block, 256u * 162);
    // Room for about five blocks.
    const runner::RunSummary r =
        runner::run_job(matmul_job(tiled_matmul().correct, kWidth), sim_gpu(5 * per_block * 32));
    ASSERT_EQ(r.status, trace::RunStatus::Ok) << r.message;
    EXPECT_TRUE(r.findings.empty()) << r.findings.front().message;
    ASSERT_EQ(r.trace.block_history.size(), kBlocks);
    const std::vector<uint64_t> got =
        gpu::events_per_block(r.trace.events, r.trace.meta.grid, r.trace.meta.block);
    std::vector<uint32_t> whole;
    for (uint32_t b = 0; b < kBlocks; ++b) {
        EXPECT_NE(r.trace.history_of(b), trace::BlockHistory::Partial) << "block " << b;
        if (r.trace.block_is_whole(b)) {
            EXPECT_EQ(got[b], per_block) << "block " << b;
            whole.push_back(b);
        } else {
            EXPECT_EQ(got[b], 0u) << "block " << b;
        }
    }
    ASSERT_GE(whole.size(), 2u);
    EXPECT_LT(whole.size(), 5u) << "headroom: fewer than the five blocks the cap holds exactly";
    const uint64_t stride = whole[1] - whole[0];
    for (size_t i = 0; i < whole.size(); ++i)
        EXPECT_EQ(whole[i], i * stride) << "blocks 0, k, 2k ...";
    const std::string& m = r.gpu_traced.message;
    EXPECT_TRUE(contains(m, "a first launch tried 663.6 k events")) << m;
    EXPECT_TRUE(contains(m, "recording " + gpu::describe_blocks(whole, kBlocks) + " whole")) << m;
    EXPECT_TRUE(contains(m, "set by the trace-buffer cap of")) << m;
    EXPECT_TRUE(contains(m, "the analyses use these blocks only")) << m;
    EXPECT_EQ(r.message, "traced run: " + m);
    EXPECT_EQ(r.gpu_traced.wrong_outputs, 0u);
    EXPECT_EQ(r.dropped_events, 0u);
}

TEST(WholeBlocks, TheRacyVariantKeepsItsRaceFromTheBlocksRecordedWhole) {
    const uint64_t per_block = events_per_block_of(tiled_matmul().racy);
    const runner::RunSummary r =
        runner::run_job(matmul_job(tiled_matmul().racy, kWidth), sim_gpu(5 * per_block * 32));
    ASSERT_EQ(r.status, trace::RunStatus::Ok) << r.message;
    ASSERT_FALSE(r.trace.block_history.empty());
    bool race = false;
    for (const analysis::Finding& f : r.findings) {
        race |= f.kind == analysis::FindingKind::Race && f.space == trace::Space::Shared;
        EXPECT_TRUE(r.trace.block_is_whole(f.block)) << f.message;
    }
    EXPECT_TRUE(race);
}

TEST(WholeBlocks, ASmallFirstBufferIsSizedAgainForEveryBlock) {
    runner::RunOptions o = sim_gpu(gpu::kDefaultTraceCap);
    o.gpu.trace.first_events = 10000;
    const runner::RunSummary r = runner::run_job(matmul_job(tiled_matmul().correct, kWidth), o);
    ASSERT_EQ(r.status, trace::RunStatus::Ok) << r.message;
    EXPECT_TRUE(r.trace.block_history.empty()) << r.gpu_traced.message;
    EXPECT_EQ(r.events, kBlocks * 256 * 162);
    EXPECT_EQ(r.dropped_events, 0u);
    EXPECT_TRUE(r.findings.empty());
    EXPECT_TRUE(contains(r.gpu_traced.message,
                         "a first launch tried 663.6 k events, more than its buffer of 10.0 k; "
                         "traced again with a buffer of "))
        << r.gpu_traced.message;
    EXPECT_TRUE(contains(r.gpu_traced.message, "every block recorded whole")) << r.gpu_traced.message;
    EXPECT_TRUE(r.message.empty()) << r.message;
}

TEST(WholeBlocks, WithoutASecondLaunchTheBlocksThatLostEventsArePartial) {
    runner::RunOptions o = sim_gpu(gpu::kDefaultTraceCap);
    o.gpu.trace.first_events = 300000;
    o.gpu.trace.whole_blocks = false;
    const runner::RunSummary r = runner::run_job(matmul_job(tiled_matmul().correct, kWidth), o);
    ASSERT_EQ(r.status, trace::RunStatus::Ok) << r.message;
    EXPECT_GT(r.dropped_events, 0u);
    const std::vector<uint32_t> partial =
        gpu::blocks_with(r.trace.block_history, trace::BlockHistory::Partial);
    EXPECT_FALSE(partial.empty());
    const std::vector<uint64_t> got =
        gpu::events_per_block(r.trace.events, r.trace.meta.grid, r.trace.meta.block);
    for (uint32_t b = 0; b < kBlocks; ++b)
        EXPECT_EQ(r.trace.history_of(b) == trace::BlockHistory::Partial, got[b] < 256u * 162)
            << "block " << b;
    EXPECT_TRUE(contains(r.gpu_traced.message, gpu::describe_blocks(partial, kBlocks) + " lost events"))
        << r.gpu_traced.message;
}

TEST(WholeBlocks, TheGpusFreeMemoryLimitsTheBuffer) {
    // 600 MB free of 1 GB: the reserve (512 MB + 5%) leaves about 36 MB, about a million events.
    setenv("SYNCLAB_SIM_WORKER_FREE_MB", "600", 1);
    setenv("SYNCLAB_SIM_WORKER_TOTAL_MB", "1024", 1);
    runner::RunOptions o = sim_gpu(gpu::kDefaultTraceCap);
    o.gpu.worker = SYNCLAB_SIM_WORKER; // a fresh worker reads the environment
    gpu::shared_worker(SYNCLAB_SIM_WORKER).worker.stop();
    const runner::RunSummary r = runner::run_job(matmul_job(tiled_matmul().correct, kWidth), o);
    unsetenv("SYNCLAB_SIM_WORKER_FREE_MB");
    unsetenv("SYNCLAB_SIM_WORKER_TOTAL_MB");
    gpu::shared_worker(SYNCLAB_SIM_WORKER).worker.stop();
    ASSERT_EQ(r.status, trace::RunStatus::Ok) << r.message;
    EXPECT_TRUE(contains(r.gpu_traced.message, "set by the GPU's free memory (600 MB free"))
        << r.gpu_traced.message;
    EXPECT_TRUE(r.trace.block_history.empty()) << "the 664 k events fit in a million";
}

TEST(WholeBlocks, LessonKernelsFitTheFirstBufferAndKeepTheirResults) {
    for (const scenario::Scenario& s : scenario::catalog())
        for (const scenario::Variant& v : s.variants) {
            SCOPED_TRACE(s.id + "/" + v.id);
            runner::RunOptions so;
            so.schedule = sim::Schedule::RoundRobin;
            const runner::RunSummary sim_run = runner::run_scenario(s, v, so);
            if (sim_run.status != trace::RunStatus::Ok) continue; // deadlocks: a hang on the stand-in too
            const runner::RunSummary r = runner::run_scenario(s, v, sim_gpu(gpu::kDefaultTraceCap));
            ASSERT_EQ(r.status, trace::RunStatus::Ok) << r.message;
            EXPECT_EQ(r.gpu_traced.message,
                      "trace buffer of 4.2 M events (128 MB): every block recorded whole");
            EXPECT_TRUE(r.trace.block_history.empty());
            // A reader that spins on a flag records as many loads as the interleaving makes it spin.
            so.schedule = sim::Schedule::Random;
            const bool spins = runner::run_scenario(s, v, so).events != sim_run.events;
            if (!spins) {
                EXPECT_EQ(r.events, sim_run.events);
            }
            // Correctness findings must agree. Contention (a performance finding) rests on the cost
            // model's queue depths in the simulator's own trace, and on counts alone in a GPU-format
            // trace, which has no timing: its thresholds differ, so it is left out here.
            auto bugs = [](const runner::RunSummary& run) {
                std::vector<analysis::FindingKind> kinds = runner::finding_kinds(run);
                std::erase(kinds, analysis::FindingKind::Contention);
                return kinds;
            };
            EXPECT_EQ(bugs(r), bugs(sim_run));
        }
}

} // namespace
} // namespace synclab
