// Independent thread scheduling vs lockstep (Options::warp_model): pre-Volta warp-synchronous code
// (a volatile tail reduction without __syncwarp) is right when a warp's lanes run in lockstep and
// wrong for some seed once the scheduler may run some lanes ahead; with __syncwarp it is right under
// both; the split keeps replays identical and leaves rr alone.
#include "sim_test_util.h"

#include <gtest/gtest.h>

#include <map>
#include <numeric>
#include <set>

namespace synclab::sim {
namespace {

using namespace synclab::sim::testing;

const ptx::Module& kernels() {
    static const ptx::Module module = load_module("warp_kernels");
    return module;
}

constexpr uint32_t kBlocks = 8;

std::vector<int> reduce_inputs() {
    std::vector<int> in(kBlocks * 32);
    for (size_t i = 0; i < in.size(); ++i)
        in[i] = int(i % 13) + 1;
    return in;
}

// How many blocks' sums came out wrong.
uint32_t wrong_sums(const std::string& kernel, Schedule s, uint64_t seed, WarpModel model,
                    trace::Trace* t = nullptr) {
    const std::vector<int> in = reduce_inputs();
    std::vector<Buffer> buffers = {make_buffer("in", in), make_buffer("out", std::vector<int>(kBlocks, -1))};
    Options o = with_schedule(s, seed);
    o.warp_model = model;
    const Result r = simulate(kernels(), kernel, launch({kBlocks, 1, 1}, {32, 1, 1}), buffers,
                              {KernelArg::pointer(0), KernelArg::pointer(1)}, o, t);
    EXPECT_EQ(r.status, trace::RunStatus::Ok) << r.message;
    const auto out = values_of<int>(buffers[1]);
    uint32_t wrong = 0;
    for (uint32_t b = 0; b < kBlocks; ++b)
        wrong += out[b] != std::accumulate(in.begin() + b * 32, in.begin() + (b + 1) * 32, 0);
    return wrong;
}

TEST(SimulatorWarpModel, WarpSynchronousReductionIsRightInLockstepAndWrongUnderIts) {
    uint32_t its_wrong_seeds = 0;
    uint64_t first_wrong_seed = 0;
    for (Schedule s : {Schedule::Random, Schedule::Adversarial})
        for (uint64_t seed = 1; seed <= 20; ++seed) {
            EXPECT_EQ(wrong_sums("warp_sync_reduce", s, seed, WarpModel::Lockstep), 0u)
                << to_string(s) << " seed " << seed << ": lockstep never splits a warp";
            if (wrong_sums("warp_sync_reduce", s, seed, WarpModel::Its) > 0) {
                ++its_wrong_seeds;
                if (!first_wrong_seed) first_wrong_seed = seed;
            }
        }
    EXPECT_GT(its_wrong_seeds, 0u) << "under its some seed runs lanes of a warp apart";
    // rr never splits a warp, under either model.
    EXPECT_EQ(wrong_sums("warp_sync_reduce", Schedule::RoundRobin, 1, WarpModel::Its), 0u);
}

TEST(SimulatorWarpModel, SyncwarpMakesTheReductionRightUnderBothModels) {
    for (Schedule s : {Schedule::Random, Schedule::Adversarial})
        for (WarpModel m : {WarpModel::Its, WarpModel::Lockstep})
            for (uint64_t seed = 1; seed <= 20; ++seed)
                EXPECT_EQ(wrong_sums("warp_reduce_syncwarp", s, seed, m), 0u)
                    << to_string(s) << " " << to_string(m) << " seed " << seed;
}

TEST(SimulatorWarpModel, SplitsReplayAndOnlyUnderIts) {
    // Same seed, same trace (the splits draw from the scheduler's seeded generator).
    auto events_of = [](WarpModel m, uint64_t seed) {
        trace::Trace t;
        wrong_sums("warp_sync_reduce", Schedule::Adversarial, seed, m, &t);
        return t.events;
    };
    const auto a = events_of(WarpModel::Its, 3), b = events_of(WarpModel::Its, 3);
    ASSERT_EQ(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i) {
        ASSERT_EQ(a[i].thread, b[i].thread) << i;
        ASSERT_EQ(a[i].time, b[i].time) << i;
        ASSERT_EQ(a[i].address, b[i].address) << i;
    }
    // warp_sync_reduce is straight-line code: each access instruction runs once per warp, so a warp
    // whose lanes ran it at two ticks was split there.
    const auto lock = events_of(WarpModel::Lockstep, 3);
    auto split_accesses = [](const std::vector<trace::Event>& events) {
        std::map<std::pair<uint32_t, uint16_t>, std::set<uint64_t>> ticks; // (warp, site) -> ticks
        for (const trace::Event& e : events)
            if (e.is_memory_access() && e.space() == trace::Space::Shared) ticks[{e.thread / 32, e.site}].insert(e.time);
        uint32_t splits = 0;
        for (const auto& [key, at] : ticks)
            splits += at.size() > 1;
        return splits;
    };
    EXPECT_EQ(split_accesses(lock), 0u);
    EXPECT_GT(split_accesses(a), 0u);
}

TEST(SimulatorWarpModel, NamesRoundTrip) {
    WarpModel m = WarpModel::Its;
    ASSERT_TRUE(parse_warp_model("lockstep", m));
    EXPECT_EQ(m, WarpModel::Lockstep);
    EXPECT_STREQ(to_string(m), "lockstep");
    ASSERT_TRUE(parse_warp_model("its", m));
    EXPECT_EQ(m, WarpModel::Its);
    EXPECT_FALSE(parse_warp_model("simt", m));
    EXPECT_EQ(Options{}.warp_model, WarpModel::Its);
}

} // namespace
} // namespace synclab::sim
