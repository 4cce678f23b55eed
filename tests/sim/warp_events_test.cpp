// WarpCollective events (trace.h): one per member lane when a warp collective completes, with the
// member mask, shfl's source lane (or kNoLane) and the lane's result, all at the tick the members met.
#include "sim_test_util.h"

#include <gtest/gtest.h>

#include <map>

namespace synclab::sim {
namespace {

using namespace synclab::sim::testing;
using trace::Collective;
using trace::EventKind;

const ptx::Module& kernels() {
    static const ptx::Module module = load_module("sim_kernels");
    return module;
}

Collective collective_of(const trace::Event& e) {
    return static_cast<Collective>(e.flags & trace::flag::kCollectiveMask);
}

// warp_ops: five shfl.down, a ballot, vote.any, vote.all, __syncwarp, shfl.idx from lane 3, per lane.
TEST(SimulatorWarpEvents, EveryMemberLaneRecordsEachCollectiveWithMaskSourceAndResult) {
    const uint32_t block = 47; // a partial second warp: lanes 0-14
    std::vector<int> in(block);
    for (size_t i = 0; i < in.size(); ++i)
        in[i] = int(i * 37 % 100);
    for (Schedule s : kSchedules) {
        std::vector<Buffer> buffers = {make_buffer("in", in), make_buffer("out", std::vector<int>(block * 6))};
        trace::Trace t;
        const Result r = simulate(kernels(), "warp_ops", launch({1, 1, 1}, {block, 1, 1}), buffers,
                                  {KernelArg::pointer(0), KernelArg::pointer(1)}, with_schedule(s, 3), &t);
        ASSERT_EQ(r.status, trace::RunStatus::Ok) << r.message;
        const auto out = values_of<int>(buffers[1]);
        std::map<std::pair<uint32_t, uint16_t>, const trace::Event*> by_thread_site;
        std::map<uint16_t, uint64_t> tick_of_site_warp[2];
        size_t per_kind[6] = {};
        for (const trace::Event& e : t.events) {
            if (e.kind != EventKind::WarpCollective) continue;
            ++per_kind[static_cast<int>(collective_of(e))];
            EXPECT_EQ(uint32_t(e.address), 0xffffffffu) << "the member mask as the PTX gave it";
            by_thread_site[{e.thread, e.site}] = &e;
            // The members of one warp meet once per instruction: one tick for all of them.
            const uint32_t warp = e.thread / 32;
            auto [it, fresh] = tick_of_site_warp[warp].emplace(e.site, e.time);
            if (!fresh) {
                EXPECT_EQ(it->second, e.time) << "site " << e.site << " warp " << warp;
            }
        }
        // Per thread: 6 shfl, 3 votes, 1 warp sync.
        EXPECT_EQ(per_kind[int(Collective::Shfl)], 6u * block);
        EXPECT_EQ(per_kind[int(Collective::Vote)], 3u * block);
        EXPECT_EQ(per_kind[int(Collective::WarpSync)], 1u * block);
        for (uint32_t g = 0; g < block; ++g) {
            const uint32_t lane = g % 32, warp_size = g < 32 ? 32 : block - 32;
            const trace::Event* ballot = nullptr;
            const trace::Event* idx = nullptr;
            for (const auto& [key, e] : by_thread_site) {
                if (key.first != g) continue;
                const std::string& text = t.sites[e->site].text;
                if (text.find("ballot") != std::string::npos) ballot = e;
                if (text.find("shfl.sync.idx") != std::string::npos) idx = e;
                if (text.find("shfl.sync.down") != std::string::npos) {
                    const uint32_t src = uint32_t(e->address >> 32);
                    // The source is lane + delta when that lane exists in the warp, else none.
                    if (src != trace::kNoLane) {
                        EXPECT_GT(src, lane);
                        EXPECT_LT(src, warp_size);
                    }
                }
            }
            ASSERT_TRUE(ballot && idx) << g;
            EXPECT_EQ(ballot->value, uint32_t(out[g * 6 + 1])) << "the ballot result, thread " << g;
            EXPECT_EQ(uint32_t(ballot->address >> 32), trace::kNoLane);
            EXPECT_EQ(uint32_t(idx->address >> 32), 3u) << "shfl.idx reads lane 3";
            EXPECT_EQ(idx->value, uint32_t(out[g * 6 + 5]));
        }
    }
}

TEST(SimulatorWarpEvents, UntracedRunsRecordNothingAndTracedRunsReplay) {
    std::vector<int> in(64, 7);
    auto run = [&](uint64_t seed) {
        std::vector<Buffer> buffers = {make_buffer("in", in), make_buffer("out", std::vector<int>(64 * 6))};
        trace::Trace t;
        simulate(kernels(), "warp_ops", launch({1, 1, 1}, {64, 1, 1}), buffers,
                 {KernelArg::pointer(0), KernelArg::pointer(1)}, with_schedule(Schedule::Random, seed), &t);
        return t;
    };
    const trace::Trace a = run(9), b = run(9);
    ASSERT_EQ(a.events.size(), b.events.size());
    for (size_t i = 0; i < a.events.size(); ++i) {
        EXPECT_EQ(a.events[i].time, b.events[i].time);
        EXPECT_EQ(a.events[i].address, b.events[i].address);
        EXPECT_EQ(a.events[i].value, b.events[i].value);
    }
}

// Two __syncwarp() calls on the two sides of a branch meet (bar.warp.sync: any bar.warp.sync with
// the same mask); each lane's event names its own call, not its partners'.
TEST(SimulatorWarpEvents, SyncwarpsMetFromTwoCallsRecordEachLanesOwnCall) {
    static const ptx::Module warp_kernels = load_module("warp_kernels");
    const uint32_t low = source_line("warp_kernels.cu", "two_syncwarps", "__syncwarp");
    const uint32_t high = source_line("warp_kernels.cu", "s[lane] = 2", "__syncwarp");
    ASSERT_LT(low, high);
    for (Schedule s : kSchedules) {
        std::vector<Buffer> buffers = {make_buffer("out", std::vector<int>(32))};
        trace::Trace t;
        const Result r = simulate(warp_kernels, "two_syncwarps", launch({1, 1, 1}, {32, 1, 1}), buffers,
                                  {KernelArg::pointer(0)}, with_schedule(s, 5), &t);
        ASSERT_EQ(r.status, trace::RunStatus::Ok) << r.message;
        size_t seen = 0;
        for (const trace::Event& e : t.events) {
            if (e.kind != EventKind::WarpCollective) continue;
            ++seen;
            EXPECT_EQ(t.sites[e.site].source_line, e.thread < 16 ? low : high)
                << "thread " << e.thread << ", " << to_string(s);
        }
        EXPECT_EQ(seen, 32u);
        const auto out = values_of<int>(buffers[0]);
        for (uint32_t l = 0; l < 32; ++l)
            EXPECT_EQ(out[l], l < 16 ? 2 : 11) << "lane " << l << ": the __syncwarp() ordered the exchange";
    }
}

} // namespace
} // namespace synclab::sim
