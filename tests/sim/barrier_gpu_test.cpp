// The aligned-barrier kernels (data/barrier_kernels.cu) on a real GPU next to the simulator (ctest
// label `gpu`; skipped, reported as skipped, where the worker finds no driver or device).
//
// Where the simulator's rule decides the outcome by itself the GPU must agree: seed 002's loop hangs
// (lanes of one warp wait at different bar.sync instructions), and every kernel the simulator
// completes completes on the GPU with the same outputs. Where ptxas may turn a branch around a
// barrier into one predicated BAR.SYNC for the whole warp (odd lanes, a split inside a warp; see
// GPU_FACTS.md "Barriers") the simulator models the PTX, which deadlocks, and the untraced GPU
// launch may complete: those cases print both outcomes and only require a clean answer.
#include "gpu/client.h"
#include "gpu/gpu_run.h"
#include "gpu/require_gpu.h"
#include "sim_test_util.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iostream>

namespace synclab::sim {
namespace {

using namespace synclab::sim::testing;
using trace::RunStatus;

const std::string& ptx_text() {
    static const std::string text = [] {
        std::ifstream in(std::string(SYNCLAB_SOURCE_DIR) + "/tests/sim/data/barrier_kernels.ptx");
        std::stringstream ss;
        ss << in.rdbuf();
        return ss.str();
    }();
    return text;
}

const ptx::Module& kernels() {
    static const ptx::Module module = ptx::parse_module(ptx_text(), "barrier_kernels.ptx");
    return module;
}

enum class OnGpu { Agrees, MayDiffer };

struct Case {
    std::string kernel;
    uint32_t block;
    std::vector<uint32_t> scalars;
    OnGpu gpu;
};

struct Both {
    RunStatus sim, gpu;
    std::string gpu_message;
    std::vector<uint32_t> sim_out, gpu_out;
};

Both run_both(const Case& c) {
    const uint32_t blocks = 4, n = blocks * c.block;
    std::vector<uint32_t> in(n);
    for (uint32_t i = 0; i < n; ++i)
        in[i] = i * 5 + 3;
    const ptx::Function& fn = kernels().require_entry(c.kernel);
    std::vector<Buffer> buffers;
    std::vector<KernelArg> args;
    if (fn.params.size() >= 2 + c.scalars.size()) {
        buffers.push_back(make_buffer("g_in", in));
        args.push_back(KernelArg::pointer(0));
    }
    buffers.push_back(make_buffer("g_out", std::vector<uint32_t>(n, 0xdeadbeefu)));
    args.push_back(KernelArg::pointer(static_cast<uint32_t>(buffers.size() - 1)));
    for (uint32_t s : c.scalars)
        args.push_back(KernelArg::scalar(s));
    const LaunchConfig l = launch({blocks, 1, 1}, {c.block, 1, 1});

    Both b;
    std::vector<Buffer> sim_buffers = buffers;
    b.sim = simulate(kernels(), c.kernel, l, sim_buffers, args, with_schedule(Schedule::Random, 3), nullptr)
                .status;
    b.sim_out = values_of<uint32_t>(sim_buffers.back());

    gpu::SharedWorker& shared = gpu::shared_worker(SYNCLAB_GPU_WORKER);
    std::lock_guard<std::mutex> lock(shared.mutex);
    gpu::LaunchOptions o;
    o.timeout_s = 3;
    const gpu::LaunchOutcome g =
        gpu::launch(shared.worker, kernels(), ptx_text(), c.kernel, l, buffers, args, o);
    b.gpu = g.status;
    b.gpu_message = g.message;
    if (!g.buffers.empty()) b.gpu_out = values_of<uint32_t>(g.buffers.back());
    return b;
}

TEST(AlignedBarrierOnGpu, TheSimulatorsOutcomeMatchesTheHardware) {
    REQUIRE_GPU();
    const Case cases[] = {
        {"seed_loop", 256, {}, OnGpu::Agrees},          {"seed_loop", 100, {}, OnGpu::Agrees},
        {"skip_then_exit", 100, {20}, OnGpu::Agrees},   {"skip_then_exit", 256, {33}, OnGpu::Agrees},
        {"upper_lanes", 96, {}, OnGpu::Agrees},         {"early_return", 100, {}, OnGpu::Agrees},
        {"skip_thread0", 256, {}, OnGpu::Agrees},       {"split_block", 256, {128}, OnGpu::Agrees},
        {"odd_lanes_unaligned", 96, {}, OnGpu::Agrees}, {"odd_lanes", 256, {}, OnGpu::MayDiffer},
        {"split_block", 256, {20}, OnGpu::MayDiffer},   {"split_block", 100, {97}, OnGpu::MayDiffer},
    };
    for (const Case& c : cases) {
        const Both b = run_both(c);
        const std::string where = c.kernel + ", block of " + std::to_string(c.block);
        std::cout << where << ": simulator " << trace::to_string(b.sim) << ", GPU " << trace::to_string(b.gpu)
                  << (b.gpu == RunStatus::Ok ? "" : " (" + b.gpu_message + ")") << "\n";
        ASSERT_TRUE(b.gpu == RunStatus::Ok || b.gpu == RunStatus::Timeout) << where << ": " << b.gpu_message;
        if (c.gpu == OnGpu::MayDiffer) continue;
        if (b.sim == RunStatus::Deadlock) {
            EXPECT_EQ(b.gpu, RunStatus::Timeout) << where << ": the simulator deadlocks, the GPU completed";
        } else {
            ASSERT_EQ(b.sim, RunStatus::Ok) << where;
            ASSERT_EQ(b.gpu, RunStatus::Ok) << where << ": " << b.gpu_message;
            EXPECT_EQ(b.gpu_out, b.sim_out) << where << ": different outputs";
        }
    }
}

} // namespace
} // namespace synclab::sim
