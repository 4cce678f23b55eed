// End to end: the simulator runs tests/sim/data/warp_kernels.ptx and the shared-race analysis must
// see the warp edges its WarpCollective events carry: a hand-off between lanes 5 and 21 of each warp
// races without __syncwarp(), is ordered with it, and still races when the __syncwarp's mask leaves
// lane 21 out; the warp-synchronous reduction races within a warp, its __syncwarp twin does not.
#include "analysis/findings.h"
#include "ptx/parser.h"
#include "sim/simulator.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace synclab::analysis {
namespace {

using launch::Buffer;
using launch::KernelArg;
using launch::LaunchConfig;

const ptx::Module& warp_kernels() {
    static const ptx::Module module = [] {
        std::ifstream in(std::string(SYNCLAB_SOURCE_DIR) + "/tests/sim/data/warp_kernels.ptx");
        std::stringstream ss;
        ss << in.rdbuf();
        return ptx::parse_module(ss.str(), "warp_kernels.ptx");
    }();
    return module;
}

std::vector<Finding> shared_races(const std::string& kernel, uint32_t block, std::vector<KernelArg> args,
                                  size_t out_words, sim::Schedule schedule, uint64_t seed, bool with_input = false) {
    std::vector<Buffer> buffers;
    if (with_input) {
        Buffer in;
        in.name = "in";
        in.bytes.assign(4 * 256, 1);
        buffers.push_back(in);
    }
    Buffer out;
    out.name = "out";
    out.bytes.assign(out_words * 4, 0);
    buffers.push_back(out);
    LaunchConfig launch;
    launch.grid = {2, 1, 1};
    launch.block = {block, 1, 1};
    sim::Options o;
    o.schedule = schedule;
    o.seed = seed;
    trace::Trace t;
    const sim::Result r = sim::simulate(warp_kernels(), kernel, launch, buffers, args, o, &t);
    EXPECT_EQ(r.status, trace::RunStatus::Ok) << r.message;
    return find_shared_races(t);
}

constexpr sim::Schedule kSchedules[] = {sim::Schedule::RoundRobin, sim::Schedule::Random,
                                        sim::Schedule::Adversarial};

TEST(analysis_warp_e2e, HandOffRacesWithinAWarpUnlessASyncwarpOrdersIt) {
    for (sim::Schedule s : kSchedules)
        for (uint32_t block : {32u, 47u, 101u}) {
            SCOPED_TRACE(std::string(sim::to_string(s)) + " block " + std::to_string(block));
            const auto racy = shared_races("lane_handoff", block, {KernelArg::pointer(0), KernelArg::scalar(0)},
                                           2 * 32, s, 5);
            ASSERT_FALSE(racy.empty());
            EXPECT_NE(racy[0].text.find("(warp 0, lane 21)"), std::string::npos) << racy[0].text;
            EXPECT_NE(racy[0].text.find("(warp 0, lane 5)"), std::string::npos) << racy[0].text;
            EXPECT_NE(racy[0].text.find(" within a warp: no __syncwarp() between them"), std::string::npos)
                << racy[0].text;
            const auto synced = shared_races("lane_handoff", block, {KernelArg::pointer(0), KernelArg::scalar(1)},
                                             2 * 32, s, 5);
            EXPECT_TRUE(synced.empty()) << synced[0].text;
        }
}

TEST(analysis_warp_e2e, ASyncwarpWhoseMaskLeavesTheReaderOutOrdersNothingForIt) {
    for (sim::Schedule s : kSchedules) {
        const auto found = shared_races("lane_handoff_partial_mask", 64, {KernelArg::pointer(0)}, 2 * 32, s, 2);
        ASSERT_FALSE(found.empty()) << sim::to_string(s);
        EXPECT_NE(found[0].text.find(", lane 21)"), std::string::npos) << found[0].text;
        EXPECT_NE(found[0].text.find(", lane 5)"), std::string::npos) << found[0].text;
        EXPECT_NE(found[0].text.find(" within a warp: no __syncwarp() between them"), std::string::npos)
            << found[0].text;
    }
}

TEST(analysis_warp_e2e, WarpSynchronousReductionRacesAndItsSyncwarpTwinDoesNot) {
    for (sim::Schedule s : kSchedules) {
        const auto racy = shared_races("warp_sync_reduce", 32, {KernelArg::pointer(0), KernelArg::pointer(1)}, 2, s,
                                       3, true);
        ASSERT_FALSE(racy.empty()) << sim::to_string(s);
        EXPECT_NE(racy[0].text.find(" within a warp: no __syncwarp() between them"), std::string::npos)
            << racy[0].text;
        const auto synced = shared_races("warp_reduce_syncwarp", 32, {KernelArg::pointer(0), KernelArg::pointer(1)},
                                         2, s, 3, true);
        EXPECT_TRUE(synced.empty()) << sim::to_string(s) << ": " << (synced.empty() ? "" : synced[0].text);
    }
}

} // namespace
} // namespace synclab::analysis
