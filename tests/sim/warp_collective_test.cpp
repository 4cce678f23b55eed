// Warp collectives at odd block sizes (partial last warps): every shfl mode with segment widths,
// every vote mode, match.any/all, redux, elect, bar.red (__syncthreads_count/_and/_or), and the mask
// rules of the PTX ISA. CPU models follow the CUDA guide's description of each intrinsic (width-based
// segments), not the simulator's clamp arithmetic.
#include "sim_test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>

namespace synclab::sim {
namespace {

using namespace synclab::sim::testing;

const ptx::Module& kernels() {
    static const ptx::Module module = load_module("warp_kernels");
    return module;
}

constexpr uint32_t kOddBlocks[] = {33, 47, 101};

// Lanes that exist in the warp of thread g (a block of `block` threads).
uint32_t present_lanes(uint32_t block, uint32_t g) {
    const uint32_t t = g % block, first = t / 32 * 32;
    const uint32_t n = std::min(32u, block - first);
    return n == 32 ? 0xffffffffu : (1u << n) - 1;
}

std::vector<int> inputs(size_t n, uint32_t salt) {
    std::vector<int> v(n);
    for (size_t i = 0; i < n; ++i)
        v[i] = int((i * 2654435761u + salt) % 100);
    return v;
}

TEST(SimulatorWarpCollectives, ShflEveryModeAndWidthAtOddBlockSizes) {
    for (uint32_t block : kOddBlocks)
        for (int width : {32, 16, 8, 2})
            for (int delta : {0, 1, 3, 6, 17}) {
                const uint32_t blocks = 2, n = blocks * block;
                const std::vector<int> in = inputs(n, uint32_t(width * 7 + delta));
                std::vector<Buffer> buffers = {make_buffer("in", in), make_buffer("out", std::vector<int>(n * 8))};
                const Result r = simulate(kernels(), "shfl_modes", launch({blocks, 1, 1}, {block, 1, 1}), buffers,
                                          {KernelArg::pointer(0), KernelArg::pointer(1), KernelArg::scalar(uint64_t(width)),
                                           KernelArg::scalar(uint64_t(delta))},
                                          with_schedule(Schedule::Random, 7), nullptr);
                ASSERT_EQ(r.status, trace::RunStatus::Ok) << r.message;
                const auto out = values_of<int>(buffers[1]);
                for (uint32_t g = 0; g < n; ++g) {
                    const uint32_t lane = (g % block) % 32, present = present_lanes(block, g);
                    const uint32_t base = lane & ~uint32_t(width - 1), in_seg = lane % width;
                    const uint32_t w = uint32_t(width), d = uint32_t(delta) & 31;
                    struct Expect {
                        uint32_t src;
                        bool valid;
                    } e[4] = {
                        {base + (d % w), true},                          // idx
                        {lane - d, in_seg >= d},                         // up
                        {lane + d, in_seg + d < w},                      // down
                        {lane ^ d, (lane ^ d) < base + w},               // bfly: earlier segments allowed
                    };
                    for (int k = 0; k < 4; ++k) {
                        bool valid = e[k].valid && e[k].src < 32;
                        // A source lane that does not exist (the partial warp): the lane keeps its value.
                        const bool exists = valid && ((present >> e[k].src) & 1);
                        const int want = exists ? in[g - lane + e[k].src] : in[g];
                        EXPECT_EQ(out[g * 8 + 2 * k], want)
                            << "mode " << k << " block " << block << " width " << width << " delta " << delta
                            << " thread " << g;
                        EXPECT_EQ(out[g * 8 + 2 * k + 1], exists ? 1 : 0)
                            << "predicate, mode " << k << " width " << width << " delta " << delta << " thread " << g;
                    }
                }
            }
}

TEST(SimulatorWarpCollectives, VotesMatchReduxAndElectOverTheLanesThatExist) {
    for (uint32_t block : kOddBlocks)
        for (Schedule s : kSchedules) {
            const uint32_t blocks = 2, n = blocks * block;
            std::vector<int> in = inputs(n, block);
            // The last warp of block 1 is uniform (all >= 10, even, same value mod 4): all, uni and
            // match.all are true there and false elsewhere.
            const uint32_t last_warp_first = block + (block - 1) / 32 * 32;
            for (uint32_t g = last_warp_first; g < n; ++g)
                in[g] = 40 + 8 * int(g % 5);
            std::vector<Buffer> buffers = {make_buffer("in", in), make_buffer("out", std::vector<int>(n * 16))};
            const Result r = simulate(kernels(), "warp_queries", launch({blocks, 1, 1}, {block, 1, 1}), buffers,
                                      {KernelArg::pointer(0), KernelArg::pointer(1)}, with_schedule(s, 11), nullptr);
            ASSERT_EQ(r.status, trace::RunStatus::Ok) << r.message;
            const auto out = values_of<int>(buffers[1]);
            bool saw_all = false, saw_not_all = false;
            for (uint32_t g = 0; g < n; ++g) {
                const uint32_t lane = (g % block) % 32, present = present_lanes(block, g);
                const uint32_t first = g - lane;
                uint32_t ballot = 0, same4 = 0, add = 0, umin = ~0u, umax = 0, band = ~0u, bor = 0, bxor = 0;
                int smin = INT32_MAX, smax = INT32_MIN;
                bool any = false, all = true, all4 = true;
                for (uint32_t l = 0; l < 32; ++l) {
                    if (!((present >> l) & 1)) continue;
                    const int v = in[first + l];
                    const uint32_t u = uint32_t(v);
                    ballot |= uint32_t(v & 1) << l;
                    any = any || v > 90;
                    all = all && v >= 10;
                    if (v % 4 == in[g] % 4) same4 |= 1u << l;
                    all4 = all4 && v % 4 == in[first] % 4;
                    add += u;
                    smin = std::min(smin, v - 50);
                    smax = std::max(smax, v - 50);
                    umin = std::min(umin, u);
                    umax = std::max(umax, u);
                    band &= u | 0x100;
                    bor |= u;
                    bxor ^= u;
                }
                const int* o = &out[g * 16];
                EXPECT_EQ(uint32_t(o[0]), ballot) << "ballot, thread " << g;
                EXPECT_EQ(o[1] != 0, any) << g;
                EXPECT_EQ(o[2] != 0, all) << g;
                EXPECT_EQ(o[3] != 0, ballot == 0 || ballot == present) << "uni, thread " << g;
                EXPECT_EQ(uint32_t(o[4]), same4) << "match.any, thread " << g;
                EXPECT_EQ(uint32_t(o[5]), all4 ? present : 0u) << "match.all.b64, thread " << g;
                EXPECT_EQ(o[6] != 0, all4) << g;
                EXPECT_EQ(uint32_t(o[7]), add) << g;
                EXPECT_EQ(o[8], smin) << g;
                EXPECT_EQ(o[9], smax) << g;
                EXPECT_EQ(uint32_t(o[10]), umin) << g;
                EXPECT_EQ(uint32_t(o[11]), umax) << g;
                EXPECT_EQ(uint32_t(o[12]), band) << g;
                EXPECT_EQ(uint32_t(o[13]), bor) << g;
                EXPECT_EQ(uint32_t(o[14]), bxor) << g;
                const uint32_t leader = uint32_t(std::countr_zero(present));
                EXPECT_EQ(uint32_t(o[15]), leader | (lane == leader ? 0x100u : 0u)) << "elect, thread " << g;
                (all4 ? saw_all : saw_not_all) = true;
            }
            EXPECT_TRUE(saw_all && saw_not_all) << "the inputs exercise both outcomes";
        }
}

TEST(SimulatorWarpCollectives, HalfWarpMasksMeetSeparately) {
    for (uint32_t block : kOddBlocks) {
        const uint32_t n = block;
        const std::vector<int> in = inputs(n, 3);
        std::vector<Buffer> buffers = {make_buffer("in", in), make_buffer("out", std::vector<int>(n * 4))};
        const Result r = simulate(kernels(), "half_warp_queries", launch({1, 1, 1}, {block, 1, 1}), buffers,
                                  {KernelArg::pointer(0), KernelArg::pointer(1)},
                                  with_schedule(Schedule::Adversarial, 2), nullptr);
        ASSERT_EQ(r.status, trace::RunStatus::Ok) << r.message;
        const auto out = values_of<int>(buffers[1]);
        for (uint32_t g = 0; g < n; ++g) {
            const uint32_t lane = g % 32, first = g - lane;
            const uint32_t half = (0xffffu << (lane & 16)) & present_lanes(block, g);
            uint32_t add = 0, ballot = 0, same3 = 0;
            for (uint32_t l = 0; l < 32; ++l) {
                if (!((half >> l) & 1)) continue;
                add += uint32_t(in[first + l]);
                ballot |= uint32_t(in[first + l] & 1) << l;
                if (in[first + l] % 3 == in[g] % 3) same3 |= 1u << l;
            }
            EXPECT_EQ(uint32_t(out[g * 4 + 0]), add) << g;
            EXPECT_EQ(uint32_t(out[g * 4 + 1]), ballot) << g;
            EXPECT_EQ(uint32_t(out[g * 4 + 2]), same3) << g;
            EXPECT_EQ(out[g * 4 + 3], in[first + (lane & 16)]) << g;
        }
    }
}

TEST(SimulatorWarpCollectives, SyncthreadsCountAndOrReduceOverTheBlock) {
    for (uint32_t block : kOddBlocks)
        for (Schedule s : kSchedules) {
            const uint32_t blocks = 3, n = blocks * block;
            std::vector<int> in = inputs(n, 5);
            for (uint32_t t = 0; t < block; ++t) // block 1: every v > 5, none > 98
                in[block + t] = 6 + int(t % 90);
            in[2 * block + block / 2] = 99; // block 2: one v > 98
            std::vector<Buffer> buffers = {make_buffer("in", in), make_buffer("out", std::vector<int>(n * 3))};
            const Result r = simulate(kernels(), "block_predicates", launch({blocks, 1, 1}, {block, 1, 1}), buffers,
                                      {KernelArg::pointer(0), KernelArg::pointer(1)}, with_schedule(s, 4), nullptr);
            ASSERT_EQ(r.status, trace::RunStatus::Ok) << r.message;
            const auto out = values_of<int>(buffers[1]);
            for (uint32_t b = 0; b < blocks; ++b) {
                int count = 0;
                bool all = true, any = false;
                for (uint32_t t = 0; t < block; ++t) {
                    const int v = in[b * block + t];
                    count += v > 50;
                    all = all && v > 5;
                    any = any || v > 98;
                }
                for (uint32_t t = 0; t < block; ++t) {
                    const uint32_t g = b * block + t;
                    EXPECT_EQ(out[g * 3 + 0], count) << "__syncthreads_count, block " << b;
                    EXPECT_EQ(out[g * 3 + 1], all ? 1 : 0) << "__syncthreads_and, block " << b;
                    EXPECT_EQ(out[g * 3 + 2], any ? 1 : 0) << "__syncthreads_or, block " << b;
                }
            }
        }
}

// [SECTION] Mask rules

struct Outcome {
    Result result;
    std::vector<int> out;
};

Outcome run_rule(const std::string& kernel, uint32_t block, Schedule s, bool with_input = true) {
    const std::vector<int> in = inputs(block, 9);
    std::vector<Buffer> buffers;
    std::vector<KernelArg> args;
    if (with_input) {
        buffers.push_back(make_buffer("in", in));
        args.push_back(KernelArg::pointer(0));
    }
    buffers.push_back(make_buffer("out", std::vector<int>(block, -1)));
    args.push_back(KernelArg::pointer(uint32_t(buffers.size() - 1)));
    Outcome o;
    o.result = simulate(kernels(), kernel, launch({1, 1, 1}, {block, 1, 1}), buffers, args, with_schedule(s, 3),
                        nullptr);
    o.out = values_of<int>(buffers.back());
    return o;
}

std::string cuda_line(const std::string& kernel, const std::string& text) {
    return "warp_kernels.cu:" + std::to_string(source_line("warp_kernels.cu", kernel, text));
}

TEST(SimulatorWarpMaskRules, LaneNotInItsOwnMaskIsAnError) {
    for (Schedule s : kSchedules) {
        const Outcome o = run_rule("not_in_own_mask", 47, s, false);
        ASSERT_EQ(o.result.status, trace::RunStatus::Error);
        EXPECT_TRUE(contains(o.result.message, "but is not in its own member mask 0x0000ffff")) << o.result.message;
        EXPECT_TRUE(contains(o.result.message, "executes shfl.sync (PTX line ")) << o.result.message;
        EXPECT_TRUE(contains(o.result.message, cuda_line("not_in_own_mask", "__shfl_sync"))) << o.result.message;
    }
}

TEST(SimulatorWarpMaskRules, SyncwarpWithExitedMembersIsAnError) {
    for (Schedule s : kSchedules) {
        const Outcome o = run_rule("syncwarp_after_exit", 32, s, false);
        ASSERT_EQ(o.result.status, trace::RunStatus::Error);
        EXPECT_TRUE(contains(o.result.message, "lanes 16-31 named in member mask 0xffffffff of bar.warp.sync (PTX line "))
            << o.result.message;
        EXPECT_TRUE(contains(o.result.message, "exited without executing it, so lanes 0-15 wait for them forever"))
            << o.result.message;
        EXPECT_TRUE(contains(o.result.message, cuda_line("syncwarp_after_exit", "__syncwarp"))) << o.result.message;
    }
}

TEST(SimulatorWarpMaskRules, ElectWithExitedMembersIsAnError) {
    // elect.sync, unlike shfl/vote/redux/match, waits for "all threads in the membermask" (PTX ISA),
    // not for the non-exited ones: a member that exited first leaves the others waiting forever.
    for (Schedule s : kSchedules) {
        const Outcome o = run_rule("elect_after_exit", 32, s, false);
        ASSERT_EQ(o.result.status, trace::RunStatus::Error) << o.result.message;
        const std::string& m = o.result.message;
        EXPECT_TRUE(contains(m, "lanes 16-31 named in member mask 0xffffffff of elect.sync (PTX line ")) << m;
        EXPECT_TRUE(contains(m, "exited without executing it, so lanes 0-15 wait for them forever")) << m;
        EXPECT_TRUE(contains(m, cuda_line("elect_after_exit", "elect.sync"))) << m;
    }
}

TEST(SimulatorWarpMaskRules, ShuffleFromAnExitedLaneIsAnError) {
    for (Schedule s : kSchedules) {
        const Outcome o = run_rule("shfl_from_exited", 64, s);
        ASSERT_EQ(o.result.status, trace::RunStatus::Error);
        EXPECT_TRUE(contains(o.result.message, "lanes 16-31 named in member mask 0xffffffff of shfl.sync (PTX line "))
            << o.result.message;
        EXPECT_TRUE(contains(o.result.message, "and lanes 0-15 read their values")) << o.result.message;
        EXPECT_TRUE(contains(o.result.message, cuda_line("shfl_from_exited", "__shfl_down_sync"))) << o.result.message;
    }
}

TEST(SimulatorWarpMaskRules, VoteCountsNonExitedMembersOnly) {
    // The ISA: vote.sync waits for "all non-exited threads corresponding to membermask".
    for (uint32_t block : {32u, 47u, 101u})
        for (Schedule s : kSchedules) {
            const Outcome o = run_rule("vote_after_exit", block, s);
            ASSERT_EQ(o.result.status, trace::RunStatus::Ok) << o.result.message;
            const std::vector<int> in = inputs(block, 9);
            for (uint32_t t = 0; t < block; ++t) {
                const uint32_t lane = t % 32, first = t - lane;
                if (lane >= 16) {
                    EXPECT_EQ(o.out[t], -1) << "exited before writing, thread " << t;
                    continue;
                }
                uint32_t ballot = 0;
                for (uint32_t l = 0; l < 16 && first + l < block; ++l)
                    ballot |= uint32_t(in[first + l] & 1) << l;
                EXPECT_EQ(uint32_t(o.out[t]), ballot) << t;
            }
        }
}

TEST(SimulatorWarpMaskRules, HalvesAtDifferentCollectivesWaitForEachOther) {
    for (Schedule s : kSchedules) {
        const Outcome o = run_rule("split_collectives", 32, s);
        ASSERT_EQ(o.result.status, trace::RunStatus::Error);
        const std::string& m = o.result.message;
        // Whichever half came first, both collectives and both lane groups are named.
        EXPECT_TRUE(contains(m, "lanes 0-15 wait at shfl.sync (PTX line ")) << m;
        EXPECT_TRUE(contains(m, "and lanes 16-31 at vote.sync (PTX line ")) << m;
        EXPECT_TRUE(contains(m, "each waits for the other, forever")) << m;
        EXPECT_TRUE(contains(m, cuda_line("split_collectives", "__shfl_down_sync"))) << m;
        EXPECT_TRUE(contains(m, cuda_line("split_collectives", "__ballot_sync"))) << m;
    }
}

TEST(SimulatorWarpMaskRules, CollectiveAgainstABlockBarrierWaitsForever) {
    for (Schedule s : kSchedules) {
        const Outcome o = run_rule("collective_vs_barrier", 64, s);
        ASSERT_EQ(o.result.status, trace::RunStatus::Error) << o.result.message;
        const std::string& m = o.result.message;
        EXPECT_TRUE(contains(m, "lanes 0-15 wait at shfl.sync (PTX line ")) << m;
        EXPECT_TRUE(contains(m, "for lanes 16-31, which wait at the block barrier 'bar.sync 0'")) << m;
        EXPECT_TRUE(contains(m, cuda_line("collective_vs_barrier", "__syncthreads"))) << m;
    }
}

} // namespace
} // namespace synclab::sim
