// Simulator unit tests: every kernel in data/sim_kernels.cu against a CPU reference, over block sizes
// that are deliberately not all multiples of a warp (CUB style: 1, 7, 32, 65, 128, ...), plus the
// barrier, error, budget, determinism and event contracts.
#include "sim_test_util.h"

#include <gtest/gtest.h>

#include <atomic>
#include <bit>
#include <cmath>
#include <map>
#include <set>
#include <thread>

namespace synclab::sim {
namespace {

using namespace synclab::sim::testing;

const ptx::Module& kernels() {
    static const ptx::Module module = load_module("sim_kernels");
    return module;
}

// [SECTION] Indices and launch shapes

TEST(Simulator, IndicesOver3DLaunchesAndOddBlockSizes) {
    const Dim3 shapes[][2] = {{{1, 1, 1}, {1, 1, 1}},  {{3, 1, 1}, {7, 1, 1}}, {{2, 2, 1}, {32, 1, 1}},
                              {{1, 2, 3}, {65, 1, 1}}, {{2, 1, 1}, {4, 3, 2}}, {{1, 1, 1}, {1024, 1, 1}},
                              {{5, 1, 1}, {33, 2, 1}}};
    for (const auto& shape : shapes) {
        const uint64_t threads = shape[0].count() * shape[1].count();
        std::vector<Buffer> buffers = {make_buffer("out", std::vector<uint32_t>(threads * 4, 0xdeadbeef))};
        const Result r = simulate(kernels(), "indices", launch(shape[0], shape[1]), buffers,
                                  {KernelArg::pointer(0)}, Options{}, nullptr);
        ASSERT_EQ(r.status, trace::RunStatus::Ok) << r.message;
        const auto out = values_of<uint32_t>(buffers[0]);
        const uint32_t per_block = static_cast<uint32_t>(shape[1].count());
        for (uint64_t g = 0; g < threads; ++g) {
            ASSERT_EQ(out[g * 4 + 0], g / per_block) << "block of thread " << g;
            ASSERT_EQ(out[g * 4 + 1], g % per_block) << "thread in block of thread " << g;
            ASSERT_EQ(out[g * 4 + 2], 1u);
            ASSERT_EQ(out[g * 4 + 3], per_block);
        }
        EXPECT_EQ(r.thread_instructions % threads, 0u) << "every thread runs the same straight-line code";
    }
}

// [SECTION] Arithmetic against the CPU

TEST(Simulator, ArithmeticMatchesCpu) {
    const int n = 200;
    std::vector<int> a(n), b(n);
    for (int i = 0; i < n; ++i) {
        a[i] = (i * 7919) % 2001 - 1000;
        b[i] = (i * 104729) % 61 - 30;
    }
    a[0] = INT32_MIN;
    b[0] = -1;
    std::vector<Buffer> buffers = {
        make_buffer("a", a), make_buffer("b", b), make_buffer("iout", std::vector<int>(n * 8)),
        make_buffer("fout", std::vector<float>(n * 4)), make_buffer("dout", std::vector<double>(n))};
    const std::vector<KernelArg> args = {KernelArg::pointer(0), KernelArg::pointer(1), KernelArg::pointer(2),
                                         KernelArg::pointer(3), KernelArg::pointer(4), KernelArg::scalar(n)};
    const Result r =
        simulate(kernels(), "arith", launch({4, 1, 1}, {65, 1, 1}), buffers, args, Options{}, nullptr);
    ASSERT_EQ(r.status, trace::RunStatus::Ok) << r.message;
    const auto iout = values_of<int>(buffers[2]);
    const auto fout = values_of<float>(buffers[3]);
    const auto dout = values_of<double>(buffers[4]);
    for (int i = 0; i < n; ++i) {
        const int x = a[i], y = b[i];
        const unsigned ux = unsigned(x), uy = unsigned(y);
        auto wrap = [](int64_t v) { return int(uint32_t(uint64_t(v))); };
        EXPECT_EQ(iout[i * 8 + 0],
                  wrap(int64_t(uint32_t(x) * uint32_t(y)) + (x >> 3) - int64_t(uint32_t(y) << 2)))
            << i;
        if (y != 0 && !(x == INT32_MIN && y == -1)) {
            EXPECT_EQ(iout[i * 8 + 1], x / y) << i;
            EXPECT_EQ(iout[i * 8 + 2], x % y) << i;
        }
        if (y == 0) {
            EXPECT_EQ(iout[i * 8 + 1], -7);
            EXPECT_EQ(iout[i * 8 + 2], -9);
        }
        EXPECT_EQ(iout[i * 8 + 3], int((ux >> (uy & 31)) ^ (ux * 2654435761u))) << i;
        EXPECT_EQ(iout[i * 8 + 4],
                  wrap(int64_t(std::min(x, y)) + int64_t(std::max(x, y)) * 3 + std::llabs(int64_t(x) - y)))
            << i;
        uint32_t rev = 0;
        for (int bit = 0; bit < 32; ++bit)
            rev |= ((ux >> bit) & 1u) << (31 - bit);
        EXPECT_EQ(iout[i * 8 + 5], std::popcount(ux) + std::countl_zero(uy) * 100 + int(rev) % 1000) << i;
        EXPECT_EQ(iout[i * 8 + 6], int((int64_t(x) * int64_t(y)) >> 20)) << i;
        const uint32_t umulhi = uint32_t((uint64_t(ux) * uint64_t(uy)) >> 32);
        const int mulhi = int((int64_t(x) * int64_t(y)) >> 32);
        EXPECT_EQ(iout[i * 8 + 7], int(umulhi ^ uint32_t(mulhi))) << i;
        const float fa = float(x) * 0.25f, fb = float(y) * 0.5f + 1.0f;
        EXPECT_FLOAT_EQ(fout[i * 4 + 0], std::fma(fa, fb, fa) - fb) << i;
        if (fb == 0.0f) {
            EXPECT_EQ(fout[i * 4 + 1], fa / fb) << i << ": division by zero gives a signed infinity";
        } else {
            EXPECT_NEAR(fout[i * 4 + 1], fa / fb, std::fabs(fa / fb) * 1e-6f + 1e-30f) << i;
        }
        EXPECT_FLOAT_EQ(fout[i * 4 + 2], std::fmin(fa, fb) + std::fmax(fa, fb) + std::fabs(fa)) << i;
        EXPECT_FLOAT_EQ(fout[i * 4 + 3], float(int(fa * 3.7f)) + std::trunc(fb * 1.3f)) << i;
        const double da = x, db = y * 0.125;
        EXPECT_NEAR(dout[i], da * db - da / (db == 0.0 ? 1.0 : db) + std::sqrt(std::fabs(da)),
                    1e-6 * std::fabs(da * db) + 1e-9)
            << i;
    }
}

// [SECTION] Barriers and shared memory

TEST(Simulator, BlockReductionAnyBlockSizeAnySchedule) {
    for (uint32_t block : {1u, 7u, 32u, 65u, 128u, 255u, 1024u}) {
        for (Schedule s : kSchedules) {
            const uint32_t blocks = 3;
            std::vector<uint32_t> in(block * blocks);
            for (size_t i = 0; i < in.size(); ++i)
                in[i] = uint32_t(i * 2654435761u % 1000);
            std::vector<Buffer> buffers = {make_buffer("in", in),
                                           make_buffer("out", std::vector<uint32_t>(blocks))};
            const Result r =
                simulate(kernels(), "block_sum", launch({blocks, 1, 1}, {block, 1, 1}, block * 4), buffers,
                         {KernelArg::pointer(0), KernelArg::pointer(1)}, with_schedule(s, block), nullptr);
            ASSERT_EQ(r.status, trace::RunStatus::Ok) << r.message;
            const auto out = values_of<uint32_t>(buffers[1]);
            for (uint32_t b = 0; b < blocks; ++b) {
                uint32_t expect = 0;
                for (uint32_t t = 0; t < block; ++t)
                    expect += in[b * block + t];
                EXPECT_EQ(out[b], expect)
                    << "block size " << block << " schedule " << to_string(s) << " block " << b;
            }
        }
    }
}

TEST(Simulator, DivergentLoopsReconvergeWithCorrectResults) {
    for (uint32_t block : {7u, 32u, 65u, 96u}) {
        for (Schedule s : kSchedules) {
            std::vector<Buffer> buffers = {make_buffer("out", std::vector<uint32_t>(block * 2))};
            const Result r = simulate(kernels(), "divergent_loops", launch({2, 1, 1}, {block, 1, 1}), buffers,
                                      {KernelArg::pointer(0)}, with_schedule(s, 3), nullptr);
            ASSERT_EQ(r.status, trace::RunStatus::Ok) << r.message;
            const auto out = values_of<uint32_t>(buffers[0]);
            for (uint32_t g = 0; g < block * 2; ++g) {
                const uint32_t tid = g % block;
                uint32_t acc = 0;
                for (uint32_t i = 0; i < tid % 7; ++i) {
                    if ((i + tid) & 1)
                        acc += i * 3;
                    else
                        acc ^= tid + i;
                }
                if (tid & 2)
                    acc = acc * 5 + 1;
                else if (tid & 4)
                    acc += 11;
                EXPECT_EQ(out[g], acc) << "thread " << g << " block size " << block;
            }
            // Divergence costs issue slots: more warp-instructions than a converged run would need.
            EXPECT_GT(r.warp_instructions * 32, r.thread_instructions / 2);
        }
    }
}

TEST(Simulator, AtomicsMatchCpu) {
    for (Schedule s : kSchedules) {
        const uint32_t blocks = 3, block = 65, n = blocks * block;
        std::vector<uint32_t> u(13, 0);
        u[1] = 1000000;
        u[3] = 0xffffffffu;
        u[5] = 0xffffffffu;
        u[8] = 3;
        std::vector<Buffer> buffers = {make_buffer("u", u), make_buffer("i", std::vector<int>{0, 0}),
                                       make_buffer("f", std::vector<float>{0}),
                                       make_buffer("ull", std::vector<uint64_t>{0})};
        const Result r = simulate(
            kernels(), "atomics", launch({blocks, 1, 1}, {block, 1, 1}), buffers,
            {KernelArg::pointer(0), KernelArg::pointer(1), KernelArg::pointer(2), KernelArg::pointer(3)},
            with_schedule(s, 9), nullptr);
        ASSERT_EQ(r.status, trace::RunStatus::Ok) << r.message;
        const auto gu = values_of<uint32_t>(buffers[0]);
        EXPECT_EQ(gu[0], n);
        EXPECT_EQ(gu[1], 1000000 - 2 * n);
        EXPECT_EQ(gu[2], n - 1);
        EXPECT_EQ(gu[3], 5u);
        EXPECT_EQ(gu[4], 0xffffffffu);
        uint32_t and_expect = 0xffffffffu, xor_expect = 0;
        for (uint32_t t = 0; t < n; ++t)
            and_expect &= ~(1u << (t % 31)), xor_expect ^= t;
        EXPECT_EQ(gu[5], and_expect);
        EXPECT_EQ(gu[6], xor_expect);
        // inc wraps at 9: n increments from 0 end at n % 10; dec from 3 with limit 6 cycles 3,2,1,0,6,5,...
        EXPECT_EQ(gu[7], n % 10);
        uint32_t dec = 3;
        for (uint32_t t = 0; t < n; ++t)
            dec = (dec == 0 || dec > 6) ? 6 : dec - 1;
        EXPECT_EQ(gu[8], dec);
        EXPECT_EQ(gu[9], 77u);
        EXPECT_EQ(gu[10], block - 1) << "shared atomicAdd hands out 0..block-1";
        EXPECT_EQ(gu[11], n * (n - 1) / 2) << "CAS loop adds every thread id exactly once";
        EXPECT_EQ(gu[12], n);
        const auto gi = values_of<int>(buffers[1]);
        EXPECT_EQ(gi[0], -3 * int(n));
        EXPECT_EQ(gi[1], -int(n - 1));
        EXPECT_FLOAT_EQ(values_of<float>(buffers[2])[0], 0.5f * n);
        EXPECT_EQ(values_of<uint64_t>(buffers[3])[0], uint64_t(n) << 33);
    }
}

TEST(Simulator, WarpCollectives) {
    const uint32_t blocks = 2, block = 64;
    std::vector<int> in(blocks * block);
    for (size_t i = 0; i < in.size(); ++i)
        in[i] = int(i * 37 % 100);
    for (Schedule s : kSchedules) {
        std::vector<Buffer> buffers = {make_buffer("in", in),
                                       make_buffer("out", std::vector<int>(in.size() * 6))};
        const Result r =
            simulate(kernels(), "warp_ops", launch({blocks, 1, 1}, {block, 1, 1}), buffers,
                     {KernelArg::pointer(0), KernelArg::pointer(1)}, with_schedule(s, 5), nullptr);
        ASSERT_EQ(r.status, trace::RunStatus::Ok) << r.message;
        const auto out = values_of<int>(buffers[1]);
        for (size_t g = 0; g < in.size(); ++g) {
            const size_t warp0 = g / 32 * 32, lane = g % 32;
            // shfl.down: lanes whose source is past lane 31 keep their own value at each step.
            std::vector<int> sum(in.begin() + long(warp0), in.begin() + long(warp0) + 32);
            for (int off = 16; off > 0; off /= 2) {
                std::vector<int> next = sum;
                for (int l = 0; l < 32; ++l)
                    next[l] = sum[l] + (l + off < 32 ? sum[l + off] : sum[l]);
                sum = next;
            }
            uint32_t ballot = 0;
            bool any = false, all = true;
            for (int l = 0; l < 32; ++l) {
                ballot |= uint32_t(in[warp0 + l] & 1) << l;
                any = any || in[warp0 + l] > 90;
                all = all && in[warp0 + l] >= 0;
            }
            EXPECT_EQ(out[g * 6 + 0], sum[lane]) << g;
            EXPECT_EQ(uint32_t(out[g * 6 + 1]), ballot) << g;
            EXPECT_EQ(out[g * 6 + 2] != 0, any) << g;
            EXPECT_EQ(out[g * 6 + 3] != 0, all) << g;
            EXPECT_EQ(out[g * 6 + 4], in[g ^ 1]) << g;
            EXPECT_EQ(out[g * 6 + 5], in[warp0 + 3]) << g;
        }
    }
}

TEST(Simulator, VectorAccessesAndConversions) {
    const int n = 70;
    std::vector<float> in(n * 4);
    for (int i = 0; i < n * 4; ++i)
        in[i] = float(i % 13) - 4.5f;
    std::vector<Buffer> buffers = {make_buffer("in", in), make_buffer("out", std::vector<float>(n * 4)),
                                   make_buffer("wide", std::vector<int64_t>(n))};
    const Result r =
        simulate(kernels(), "vectors", launch({3, 1, 1}, {32, 1, 1}), buffers,
                 {KernelArg::pointer(0), KernelArg::pointer(1), KernelArg::pointer(2), KernelArg::scalar(n)},
                 Options{}, nullptr);
    ASSERT_EQ(r.status, trace::RunStatus::Ok) << r.message;
    const auto out = values_of<float>(buffers[1]);
    const auto wide = values_of<int64_t>(buffers[2]);
    for (int i = 0; i < n; ++i) {
        const float x = in[i * 4], y = in[i * 4 + 1], z = in[i * 4 + 2], w = in[i * 4 + 3];
        EXPECT_FLOAT_EQ(out[i * 4 + 0], w);
        EXPECT_FLOAT_EQ(out[i * 4 + 1], z * 2.0f);
        EXPECT_FLOAT_EQ(out[i * 4 + 2], y + 1.0f);
        EXPECT_FLOAT_EQ(out[i * 4 + 3], float(int(x)));
        EXPECT_EQ(wide[i], int64_t(x) * 1000000007ll + int64_t(uint8_t(i * 37))) << i;
    }
}

TEST(Simulator, GenericPointersReachSharedAndGlobal) {
    std::vector<Buffer> buffers = {make_buffer("out", std::vector<uint32_t>(128, 0))};
    const Result r = simulate(kernels(), "generic_shared", launch({2, 1, 1}, {64, 1, 1}), buffers,
                              {KernelArg::pointer(0)}, Options{}, nullptr);
    ASSERT_EQ(r.status, trace::RunStatus::Ok) << r.message;
    const auto out = values_of<uint32_t>(buffers[0]);
    for (uint32_t g = 0; g < 128; ++g) {
        const uint32_t t = g % 64;
        EXPECT_EQ(out[g], (t & 1) ? t * 10 : t) << g;
    }
}

// [SECTION] Barrier semantics

// Hand-written PTX: threads 0-31 wait at a barrier that expects 64 arrivals, the others exit.
const char* kCountedBarrierPtx = R"(
.version 9.0
.target sm_75
.address_size 64
.visible .entry counted_barrier(.param .u64 p)
{
    .reg .pred %p<2>;
    .reg .b32 %r<3>;
    mov.u32 %r1, %tid.x;
    setp.ge.u32 %p1, %r1, 32;
    @%p1 bra DONE;
    bar.sync 1, 64;
DONE:
    ret;
}
)";

TEST(Simulator, CountedBarrierThatCanNeverCompleteIsADeadlock) {
    const ptx::Module m = ptx::parse_module(kCountedBarrierPtx, "counted.ptx");
    std::vector<Buffer> buffers;
    trace::Trace t;
    const Result r = simulate(m, "counted_barrier", launch({1, 1, 1}, {128, 1, 1}), buffers,
                              {KernelArg::scalar(0)}, Options{}, &t);
    ASSERT_EQ(r.status, trace::RunStatus::Deadlock) << r.message;
    EXPECT_NE(r.message.find("threads 0-31 (32) wait at 'bar.sync 1, 64'"), std::string::npos) << r.message;
    EXPECT_NE(r.message.find("96 threads exited"), std::string::npos) << r.message;
    EXPECT_EQ(t.meta.status, trace::RunStatus::Deadlock);
    ASSERT_EQ(t.threads.size(), 128u);
    EXPECT_EQ(t.threads[0].end, trace::ThreadEnd::AtBarrier);
    EXPECT_EQ(t.sites[t.threads[0].end_site].text, "bar.sync 1, 64");
    EXPECT_EQ(t.threads[100].end, trace::ThreadEnd::Exited);
}

// Hand-written PTX: the first half of the block waits at one bar.sync, the second half at another;
// both count toward the same phase of barrier 0 (as on the hardware), so the run completes.
const char* kTwoBarriersPtx = R"(
.version 9.0
.target sm_75
.address_size 64
.visible .entry two_barriers(.param .u64 p)
{
    .reg .pred %p<2>;
    .reg .b32 %r<3>;
    mov.u32 %r1, %tid.x;
    setp.ge.u32 %p1, %r1, 64;
    @%p1 bra SECOND;
    bar.sync 0;
    bra.uni END;
SECOND:
    bar.sync 0;
END:
    bar.sync 0;
    ret;
}
)";

TEST(Simulator, BarrierPhaseCompletesAcrossDifferentBarrierInstructions) {
    const ptx::Module m = ptx::parse_module(kTwoBarriersPtx, "two.ptx");
    std::vector<Buffer> buffers;
    trace::Trace t;
    const Result r = simulate(m, "two_barriers", launch({1, 1, 1}, {128, 1, 1}), buffers,
                              {KernelArg::scalar(0)}, with_schedule(Schedule::Random, 4), &t);
    ASSERT_EQ(r.status, trace::RunStatus::Ok) << r.message;
    // Phase 0 arrivals used two different instructions (sites 3 and 5); phase 1 used one.
    std::map<uint32_t, std::set<uint32_t>> sites_by_phase;
    size_t leaves = 0;
    for (const trace::Event& e : t.events) {
        if (e.kind == trace::EventKind::BarrierArrive) sites_by_phase[e.value].insert(e.site);
        if (e.kind == trace::EventKind::BarrierLeave) ++leaves;
    }
    ASSERT_EQ(sites_by_phase.size(), 2u);
    EXPECT_EQ(sites_by_phase[0].size(), 2u);
    EXPECT_EQ(sites_by_phase[1].size(), 1u);
    EXPECT_EQ(leaves, 256u);
}

// [SECTION] Errors and budgets

TEST(Simulator, OutOfBoundsReadNamesThreadInstructionAndLine) {
    std::vector<Buffer> buffers = {make_buffer("g_in", std::vector<float>(64)),
                                   make_buffer("g_out", std::vector<float>(64))};
    trace::Trace t;
    const Result r =
        simulate(kernels(), "out_of_bounds", launch({2, 1, 1}, {32, 1, 1}), buffers,
                 {KernelArg::pointer(0), KernelArg::pointer(1), KernelArg::scalar(1)}, Options{}, &t);
    ASSERT_EQ(r.status, trace::RunStatus::Error);
    EXPECT_NE(r.message.find("block (1,0,0) thread (31,0,0)"), std::string::npos) << r.message;
    EXPECT_NE(r.message.find("ld.global.f32"), std::string::npos) << r.message;
    EXPECT_NE(r.message.find("sim_kernels.cu:"), std::string::npos) << r.message;
    EXPECT_NE(r.message.find("past the end of g_in"), std::string::npos) << r.message;
    EXPECT_EQ(t.meta.status, trace::RunStatus::Error);
    EXPECT_EQ(t.threads[63].end, trace::ThreadEnd::Faulted);
}

TEST(Simulator, SpinLoopEndsInBudgetNotHang) {
    std::vector<Buffer> buffers = {make_buffer("flag", std::vector<uint32_t>{0})};
    Options o;
    o.max_steps = 100000;
    const Result r = simulate(kernels(), "spin_forever", launch({1, 1, 1}, {32, 1, 1}), buffers,
                              {KernelArg::pointer(0)}, o, nullptr);
    EXPECT_EQ(r.status, trace::RunStatus::Budget);
    EXPECT_NE(r.message.find("step budget"), std::string::npos) << r.message;
}

TEST(Simulator, ThreadAndLaunchLimitsAreCheckedBeforeRunning) {
    std::vector<Buffer> buffers = {make_buffer("out", std::vector<uint32_t>(16))};
    Options o;
    o.max_threads = 1000;
    Result r = simulate(kernels(), "indices", launch({100, 1, 1}, {32, 1, 1}), buffers,
                        {KernelArg::pointer(0)}, o, nullptr);
    EXPECT_EQ(r.status, trace::RunStatus::Budget);
    EXPECT_NE(r.message.find("thread budget"), std::string::npos) << r.message;
    r = simulate(kernels(), "indices", launch({1, 1, 1}, {2048, 1, 1}), buffers, {KernelArg::pointer(0)},
                 Options{}, nullptr);
    EXPECT_EQ(r.status, trace::RunStatus::Error);
    EXPECT_NE(r.message.find("at most 1024"), std::string::npos) << r.message;
    r = simulate(kernels(), "no_such_kernel", launch({1, 1, 1}, {1, 1, 1}), buffers, {}, Options{}, nullptr);
    EXPECT_EQ(r.status, trace::RunStatus::Error);
    EXPECT_NE(r.message.find("no kernel named 'no_such_kernel'"), std::string::npos) << r.message;
    r = simulate(kernels(), "indices", launch({1, 1, 1}, {1, 1, 1}), buffers, {}, Options{}, nullptr);
    EXPECT_EQ(r.status, trace::RunStatus::Error);
    EXPECT_NE(r.message.find("takes 1 parameters, 0 given"), std::string::npos) << r.message;
}

TEST(Simulator, CancelStopsTheRun) {
    std::vector<Buffer> buffers = {make_buffer("flag", std::vector<uint32_t>{0})};
    std::atomic<bool> cancel{true};
    Options o;
    o.cancel = &cancel;
    const Result r = simulate(kernels(), "spin_forever", launch({1, 1, 1}, {32, 1, 1}), buffers,
                              {KernelArg::pointer(0)}, o, nullptr);
    EXPECT_EQ(r.status, trace::RunStatus::Cancelled);
}

// [SECTION] Trace contents and determinism

trace::Trace run_store_barrier_load(Schedule s, uint64_t seed, Options o = {}) {
    std::vector<Buffer> buffers = {make_buffer("out", std::vector<uint32_t>(2 * 96))};
    trace::Trace t;
    o.schedule = s;
    o.seed = seed;
    const Result r = simulate(kernels(), "store_barrier_load", launch({2, 1, 1}, {96, 1, 1}), buffers,
                              {KernelArg::pointer(0)}, o, &t);
    EXPECT_EQ(r.status, trace::RunStatus::Ok) << r.message;
    const auto out = values_of<uint32_t>(buffers[0]);
    for (uint32_t g = 0; g < 192; ++g)
        EXPECT_EQ(out[g], ((g % 96 + 1) % 96) * 3) << g;
    return t;
}

TEST(Simulator, TraceHasEveryAccessBarrierAndExit) {
    const trace::Trace t = run_store_barrier_load(Schedule::Random, 7);
    ASSERT_EQ(t.threads.size(), 192u);
    std::map<trace::EventKind, size_t> count;
    for (const trace::Event& e : t.events)
        ++count[e.kind];
    EXPECT_EQ(count[trace::EventKind::Store], 192u * 2) << "one shared and one global store per thread";
    EXPECT_EQ(count[trace::EventKind::Load], 192u) << "one shared load per thread";
    EXPECT_EQ(count[trace::EventKind::BarrierArrive], 192u);
    EXPECT_EQ(count[trace::EventKind::BarrierLeave], 192u);
    EXPECT_EQ(count[trace::EventKind::Exit], 192u);
    // Per thread: program order store(shared) < arrive < leave < load(shared) < store(global) < exit.
    std::vector<std::vector<trace::EventKind>> per_thread(192);
    for (const trace::Event& e : t.events)
        per_thread[e.thread].push_back(e.kind);
    using K = trace::EventKind;
    for (const auto& seq : per_thread)
        EXPECT_EQ(seq,
                  (std::vector<K>{K::Store, K::BarrierArrive, K::BarrierLeave, K::Load, K::Store, K::Exit}));
    for (const trace::Event& e : t.events) {
        if (e.kind == K::Load) {
            EXPECT_EQ(e.space(), trace::Space::Shared);
            EXPECT_EQ(e.size(), 4u);
            EXPECT_LT(e.address, 96u * 4);
        }
        ASSERT_LT(e.site, t.sites.size());
    }
    EXPECT_GT(t.sites[t.events.front().site].source_line, 0u);
    EXPECT_EQ(t.meta.schedule, "random");
    EXPECT_EQ(t.meta.seed, 7u);
    EXPECT_EQ(t.meta.backend, "sim");
}

bool same_events(const trace::Trace& a, const trace::Trace& b) {
    return a.events.size() == b.events.size() &&
           std::memcmp(a.events.data(), b.events.data(), a.events.size() * sizeof(trace::Event)) == 0;
}

TEST(Simulator, SameSeedGivesIdenticalTraceDifferentSeedsDiffer) {
    for (Schedule s : {Schedule::Random, Schedule::Adversarial}) {
        const trace::Trace a = run_store_barrier_load(s, 11);
        const trace::Trace b = run_store_barrier_load(s, 11);
        const trace::Trace c = run_store_barrier_load(s, 12);
        EXPECT_TRUE(same_events(a, b)) << to_string(s);
        EXPECT_FALSE(same_events(a, c)) << to_string(s);
    }
    EXPECT_TRUE(same_events(run_store_barrier_load(Schedule::RoundRobin, 1),
                            run_store_barrier_load(Schedule::RoundRobin, 2)))
        << "round-robin does not depend on the seed";
}

// A run's blocks go back to a per-thread pool and the next run on that thread takes them
// (sim/setup.cpp): a block that ran another kernel, with other shared memory, registers and a
// larger block, must start as a new one does.
TEST(Simulator, BlocksTakenFromTheLastRunStartAsNew) {
    trace::Trace fresh;
    std::thread([&] { fresh = run_store_barrier_load(Schedule::Random, 11); }).join();
    std::vector<uint32_t> in(3 * 1024, 7);
    std::vector<Buffer> buffers = {make_buffer("in", in), make_buffer("out", std::vector<uint32_t>(3))};
    const Result other = simulate(kernels(), "block_sum", launch({3, 1, 1}, {1024, 1, 1}, 1024 * 4), buffers,
                                  {KernelArg::pointer(0), KernelArg::pointer(1)}, Options{}, nullptr);
    ASSERT_EQ(other.status, trace::RunStatus::Ok) << other.message;
    const trace::Trace reused = run_store_barrier_load(Schedule::Random, 11);
    EXPECT_TRUE(same_events(fresh, reused));
}

TEST(Simulator, UntracedRunRecordsNothing) {
    Options o;
    o.record_trace = false;
    std::vector<Buffer> buffers = {make_buffer("out", std::vector<uint32_t>(2 * 96))};
    trace::Trace t;
    const Result r = simulate(kernels(), "store_barrier_load", launch({2, 1, 1}, {96, 1, 1}), buffers,
                              {KernelArg::pointer(0)}, o, &t);
    ASSERT_EQ(r.status, trace::RunStatus::Ok);
    EXPECT_TRUE(t.events.empty());
    EXPECT_EQ(t.threads.size(), 192u);
}

} // namespace
} // namespace synclab::sim

namespace synclab::sim {
namespace {

// Hand-written PTX for the instructions the compiler emits for rotates (shf) and __ffs/__clz-like
// code (bfind), and for splitting/joining doubles through mov with vector operands.
const char* kBitsPtx = R"(
.version 9.0
.target sm_75
.address_size 64
.visible .entry bits(.param .u64 out)
{
    .reg .b32 %r<12>;
    .reg .b64 %rd<4>;
    .reg .f64 %fd<3>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, 0x80000001;
    shf.l.wrap.b32 %r2, %r1, %r1, 4;
    shf.r.clamp.b32 %r3, %r1, 0, 40;
    shf.r.wrap.b32 %r4, %r1, 0x12345678, 8;
    bfind.u32 %r5, 256;
    bfind.s32 %r6, -256;
    bfind.shiftamt.u32 %r7, 256;
    bfind.u32 %r8, 0;
    mov.f64 %fd1, 0d4000000000000001;
    mov.b64 {%r9, %r10}, %fd1;
    mov.b64 %fd2, {%r10, %r9};
    mov.b64 %rd2, %fd2;
    st.global.u32 [%rd1], %r2;
    st.global.u32 [%rd1+4], %r3;
    st.global.u32 [%rd1+8], %r4;
    st.global.u32 [%rd1+12], %r5;
    st.global.u32 [%rd1+16], %r6;
    st.global.u32 [%rd1+20], %r7;
    st.global.u32 [%rd1+24], %r8;
    st.global.u32 [%rd1+28], %r9;
    st.global.u32 [%rd1+32], %r10;
    st.global.u64 [%rd1+40], %rd2;
    ret;
}
)";

TEST(SimulatorBits, FunnelShiftBfindAndVectorMov) {
    const ptx::Module m = ptx::parse_module(kBitsPtx, "bits.ptx");
    std::vector<Buffer> buffers(1);
    buffers[0].bytes.assign(48, 0);
    LaunchConfig l;
    const Result r = simulate(m, "bits", l, buffers, {KernelArg::pointer(0)}, Options{}, nullptr);
    ASSERT_EQ(r.status, trace::RunStatus::Ok) << r.message;
    uint32_t v[12];
    std::memcpy(v, buffers[0].bytes.data(), 48);
    EXPECT_EQ(v[0], 0x00000018u) << "rotate left by 4";
    EXPECT_EQ(v[1], 0u) << "clamped right shift by 32 of {0:a} leaves the high word";
    EXPECT_EQ(v[2], 0x78800000u) << "{0x12345678:0x80000001} >> 8";
    EXPECT_EQ(v[3], 8u);
    EXPECT_EQ(v[4], 7u) << "highest bit that differs from the sign of -256";
    EXPECT_EQ(v[5], 23u);
    EXPECT_EQ(v[6], 0xffffffffu);
    EXPECT_EQ(v[7], 1u) << "low word of the double";
    EXPECT_EQ(v[8], 0x40000000u) << "high word of the double";
    uint64_t joined;
    std::memcpy(&joined, buffers[0].bytes.data() + 40, 8);
    EXPECT_EQ(joined, 0x0000000140000000ull) << "words swapped by the join";
}

} // namespace
} // namespace synclab::sim

namespace synclab::sim {
namespace {

const char* kFencePtx = R"(
.version 9.0
.target sm_75
.address_size 64
.visible .entry fences(.param .u64 out)
{
    .reg .b64 %rd<3>;
    ld.param.u64 %rd1, [out];
    cvta.to.global.u64 %rd2, %rd1;
    st.volatile.global.u32 [%rd2], 1;
    membar.gl;
    fence.acq_rel.cta;
    membar.sys;
    ret;
}
)";

TEST(SimulatorEvents, FencesAreRecordedWithTheirScope) {
    const ptx::Module m = ptx::parse_module(kFencePtx, "fences.ptx");
    std::vector<Buffer> buffers(1);
    buffers[0].bytes.assign(4, 0);
    trace::Trace t;
    const Result r = simulate(m, "fences", LaunchConfig{}, buffers, {KernelArg::pointer(0)}, Options{}, &t);
    ASSERT_EQ(r.status, trace::RunStatus::Ok) << r.message;
    std::vector<trace::Scope> scopes;
    bool volatile_store = false;
    for (const trace::Event& e : t.events) {
        if (e.kind == trace::EventKind::Fence) scopes.push_back(e.scope());
        if (e.kind == trace::EventKind::Store) volatile_store = e.is_volatile();
    }
    EXPECT_EQ(scopes,
              (std::vector<trace::Scope>{trace::Scope::Device, trace::Scope::Block, trace::Scope::System}));
    EXPECT_TRUE(volatile_store);
}

TEST(SimulatorBudgets, MemoryBudgetIsCheckedBeforeRunning) {
    std::vector<Buffer> buffers(1);
    buffers[0].bytes.assign(4 * 1024 * 4, 0);
    Options o;
    o.max_memory_bytes = 4096;
    const ptx::Module m = ptx::parse_module(kFencePtx, "fences.ptx");
    LaunchConfig l;
    l.grid = {4, 1, 1};
    l.block = {1024, 1, 1};
    const Result r = simulate(m, "fences", l, buffers, {KernelArg::pointer(0)}, o, nullptr);
    EXPECT_EQ(r.status, trace::RunStatus::Budget);
    EXPECT_NE(r.message.find("memory budget"), std::string::npos) << r.message;
}

} // namespace
} // namespace synclab::sim
