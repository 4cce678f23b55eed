// The contention finding on real kernels (tests/sim/data/cost_kernels.cu, run in the simulator with
// the cost model): a counter every thread bumps fires, naming its line; a block-hierarchical
// reduction and a counter spread over 1,024 addresses do not.
#include "analysis/findings.h"
#include "ptx/parser.h"
#include "sim/simulator.h"

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <sstream>

namespace synclab::analysis {
namespace {

const ptx::Module& kernels() {
    static const ptx::Module m = [] {
        std::ifstream in(std::string(SYNCLAB_SOURCE_DIR) + "/tests/sim/data/cost_kernels.ptx");
        std::stringstream ss;
        ss << in.rdbuf();
        return ptx::parse_module(ss.str(), "cost_kernels.ptx");
    }();
    return m;
}

// The CUDA line of the first line of cost_kernels.cu holding `text` after the line holding `after`.
uint32_t line_of_source(const std::string& after, const std::string& text) {
    std::ifstream in(std::string(SYNCLAB_SOURCE_DIR) + "/tests/sim/data/cost_kernels.cu");
    std::string line;
    bool seen = false;
    for (uint32_t n = 1; std::getline(in, line); ++n) {
        if (!seen) {
            seen = line.find(after) != std::string::npos;
            continue;
        }
        if (line.find(text) != std::string::npos) return n;
    }
    return 0;
}

trace::Trace run(const std::string& kernel, uint32_t k = 0, bool cost_model = true) {
    launch::Buffer counts;
    counts.name = "g_count";
    counts.bytes.assign(4 * std::max<uint32_t>(k, 1), 0);
    std::vector<launch::Buffer> buffers{counts};
    std::vector<launch::KernelArg> args{launch::KernelArg::pointer(0)};
    if (k) args.push_back(launch::KernelArg::scalar(k));
    launch::LaunchConfig l;
    l.grid = {64, 1, 1};
    l.block = {256, 1, 1};
    sim::Options o;
    o.cost_model = cost_model;
    trace::Trace t;
    const sim::Result r = sim::simulate(kernels(), kernel, l, buffers, args, o, &t);
    EXPECT_EQ(r.status, trace::RunStatus::Ok) << r.message;
    return t;
}

// One address the PTX cannot prove warp-uniform (thread i adds to g_count[i % 1]), so every lane
// queues: a provably uniform atomicAdd(g_count, 1) is one atomic per warp, as ptxas makes it.
TEST(AnalysisContentionE2E, OneAddressCounterFiresAtItsLine) {
    const trace::Trace t = run("k_addresses", 1);
    const std::vector<Finding> found = find_contention(t);
    ASSERT_EQ(found.size(), 1u);
    const Finding& f = found[0];
    EXPECT_EQ(f.space, trace::Space::Global);
    EXPECT_EQ(f.count, 16384u);
    EXPECT_EQ(f.lines, std::vector<uint32_t>{line_of_source("void k_addresses", "atomicAdd")});
    EXPECT_NE(f.message.find("16,384 atomicAdds from 512 warps (16,384 threads) queued on g_count[0] (line "),
              std::string::npos)
        << f.message;
    const ContentionStats s = contention_stats(t);
    ASSERT_FALSE(s.hottest.empty());
    EXPECT_GT(s.hottest[0].max_depth, 10000u);
    EXPECT_GT(s.hottest[0].p50, 5000u);
    EXPECT_GE(s.hottest[0].p99, s.hottest[0].p90);
    EXPECT_GE(s.hottest[0].p90, s.hottest[0].p50);
    std::printf("%s\n", f.message.c_str());
}

TEST(AnalysisContentionE2E, SpreadAndHierarchicalStaySilent) {
    EXPECT_TRUE(find_contention(run("block_hierarchical")).empty());
    EXPECT_TRUE(find_contention(run("k_addresses", 1024)).empty());
}

TEST(AnalysisContentionE2E, ThirtyTwoCountersAreOneFinding) {
    const std::vector<Finding> found = find_contention(run("k_addresses", 32));
    ASSERT_EQ(found.size(), 1u);
    EXPECT_NE(found[0].message.find("more addresses at the same line"), std::string::npos)
        << found[0].message;
    std::printf("%s\n", found[0].message.c_str());
}

TEST(AnalysisContentionE2E, CasLoopRetriesAreCounted) {
    std::vector<launch::Buffer> buffers(2);
    buffers[0].bytes.assign(4, 0);
    const std::vector<float> ones(512, 1.0f); // g_in: the sum, 512, is exact in a float
    buffers[1].bytes.resize(4 * ones.size());
    std::memcpy(buffers[1].bytes.data(), ones.data(), buffers[1].bytes.size());
    launch::LaunchConfig l;
    l.grid = {2, 1, 1};
    l.block = {256, 1, 1};
    trace::Trace t;
    const sim::Result r =
        sim::simulate(kernels(), "cas_add", l, buffers,
                      {launch::KernelArg::pointer(0), launch::KernelArg::pointer(1)}, {}, &t);
    ASSERT_EQ(r.status, trace::RunStatus::Ok) << r.message;
    const std::vector<Finding> found = find_contention(t);
    ASSERT_EQ(found.size(), 1u);
    EXPECT_NE(found[0].message.find("atomicCASs"), std::string::npos) << found[0].message;
    EXPECT_NE(
        found[0].message.find(with_thousands(r.cas_failures) + " compare-and-swaps at this line failed"),
        std::string::npos)
        << found[0].message;
    EXPECT_GT(r.cas_failures, 512u);
    float sum = 0;
    std::memcpy(&sum, buffers[0].bytes.data(), 4);
    EXPECT_EQ(sum, 512.0f);
}

TEST(AnalysisContentionE2E, UntimedRunCountsOnly) {
    const std::vector<Finding> found = find_contention(run("one_address", 0, false));
    ASSERT_EQ(found.size(), 1u);
    EXPECT_NE(found[0].message.find("counts only"), std::string::npos) << found[0].message;
}

} // namespace
} // namespace synclab::analysis
