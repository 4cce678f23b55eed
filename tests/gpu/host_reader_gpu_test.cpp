// The CPU reader on the GPU (ctest label `gpu`, skipped without one): fence_scope's writers hand
// 1,024 pairs to a CPU thread through host-mapped memory, 50 launches. system_fence: the CPU must see
// the data of every flag it sees. device_fence_to_host: the PTX model allows stale reads; the test
// measures and prints the rate (the lead's GPU session collects it) and checks only that the reader
// saw every flag, because "allowed" is not "seen".
#include "gpu/require_gpu.h"
#include "runner/runner.h"
#include "scenario/references.h"
#include "scenario/scenario.h"

#include <gtest/gtest.h>

#include <cstdio>

namespace synclab {
namespace {

constexpr uint32_t kPairs = 1024;
constexpr uint32_t kLaunches = 50;

// fence_scope as shipped (32 pairs), widened to `pairs`: grid 2 x pairs, every buffer resized, the
// reference and the inputs rebuilt for the new launch.
scenario::Scenario fence_scope_with_pairs(uint32_t pairs) {
    const scenario::Scenario* shipped = scenario::find_scenario("fence_scope");
    if (shipped == nullptr) throw std::logic_error("no fence_scope lesson");
    scenario::Scenario s = *shipped;
    for (scenario::Variant& v : s.variants) // a variant runs with its own launch (the lesson's grid)
        if (v.launch.grid == s.launch.grid) v.launch.grid = {2 * pairs, 1, 1};
    s.launch.grid = {2 * pairs, 1, 1};
    for (scenario::BufferDecl& b : s.buffers)
        b.spec.count = b.name == "g_out" ? 2 * pairs : pairs;
    s.host_reader.pairs = pairs;
    s.make_inputs = [buffers = s.buffers, args = s.args](uint64_t seed) {
        scenario::Inputs inputs;
        uint64_t rng = launch::buffer_rng_seed(seed);
        for (const scenario::BufferDecl& b : buffers)
            inputs.buffers.push_back(launch::make_buffer(b.spec, b.name, rng));
        inputs.args = args;
        return inputs;
    };
    const scenario::Reference* ref = scenario::find_reference(s.reference);
    if (ref == nullptr) throw std::logic_error("no reference " + s.reference);
    const launch::LaunchConfig config = s.launch;
    s.check = [ref, config](const scenario::Inputs& before, const std::vector<launch::Buffer>& after) {
        return ref->check(config, before, after);
    };
    return s;
}

runner::RunSummary run_cpu_reader(const scenario::Scenario& s, const std::string& variant) {
    runner::RunOptions o;
    o.backend = "gpu";
    o.reps = kLaunches;
    o.seed = 1;
    o.gpu.worker = SYNCLAB_GPU_WORKER;
    o.gpu.timeout_s = 10;
    o.gpu.traced = false; // the hardware's own outcome; the CPU reader counts the untraced launches
    return runner::run_scenario(s, *s.find_variant(variant), o);
}

void print_rate(const std::string& variant, const runner::RunSummary& r) {
    const runner::HostReaderSummary& h = *r.host_reader;
    std::printf(
        "CPU reader fence_scope/%s on %s: %u launches x %u pairs: %llu flags seen, %llu stale (%.2f%%), "
        "%llu seen only after the kernel, %llu given up; GPU reader: %llu wrong of %llu outputs\n",
        variant.c_str(), r.device.c_str(), h.launches, kPairs, (unsigned long long)h.seen,
        (unsigned long long)h.stale, h.seen ? 100.0 * double(h.stale) / double(h.seen) : 0.0,
        (unsigned long long)h.after_kernel, (unsigned long long)h.gave_up,
        (unsigned long long)r.wrong_outputs, (unsigned long long)r.checked_outputs);
    std::fflush(stdout);
}

TEST(HostReaderGpu, SystemFenceTheCpuSeesEveryDataValue) {
    REQUIRE_GPU();
    const scenario::Scenario s = fence_scope_with_pairs(kPairs);
    const runner::RunSummary r = run_cpu_reader(s, "system_fence");
    ASSERT_EQ(r.status, trace::RunStatus::Ok) << r.message;
    ASSERT_TRUE(r.host_reader.has_value());
    print_rate("system_fence", r);
    const runner::HostReaderSummary& h = *r.host_reader;
    EXPECT_EQ(h.launches, kLaunches);
    EXPECT_EQ(h.pairs, uint64_t(kPairs) * kLaunches);
    EXPECT_EQ(h.seen, h.pairs) << h.message;
    EXPECT_EQ(h.stale, 0u);
    EXPECT_EQ(h.gave_up, 0u) << h.message;
    // The records of one launch: every pair "1,1".
    ASSERT_EQ(h.records.bytes.size(), size_t(kPairs) * 8);
    const auto* rec = reinterpret_cast<const uint32_t*>(h.records.bytes.data());
    for (uint32_t p = 0; p < kPairs; ++p) {
        EXPECT_EQ(rec[2 * p], 1u) << "pair " << p;
        EXPECT_EQ(rec[2 * p + 1], 1u) << "pair " << p;
    }
    // The GPU reader block of the same kernel also reads the host-mapped memory: right too.
    EXPECT_EQ(r.wrong_outputs, 0u) << r.check_summary;
    EXPECT_TRUE(
        runner::check_host_reader(runner::host_reader_job(s, *s.find_variant("system_fence")), h).empty());
}

TEST(HostReaderGpu, DeviceFenceToHostStaleRateIsMeasured) {
    REQUIRE_GPU();
    const scenario::Scenario s = fence_scope_with_pairs(kPairs);
    const runner::RunSummary r = run_cpu_reader(s, "device_fence_to_host");
    ASSERT_EQ(r.status, trace::RunStatus::Ok) << r.message;
    ASSERT_TRUE(r.host_reader.has_value());
    print_rate("device_fence_to_host", r);
    const runner::HostReaderSummary& h = *r.host_reader;
    EXPECT_EQ(h.seen, h.pairs) << h.message;
    EXPECT_EQ(h.gave_up, 0u) << h.message;
    // For the GPU reader block the gpu-scope fence is right.
    EXPECT_EQ(r.wrong_outputs, 0u) << r.check_summary;
}

// A variant without a [host_reader.VARIANT] table keeps device memory and reports no CPU reader.
TEST(HostReaderGpu, OtherVariantsRunWithoutIt) {
    REQUIRE_GPU();
    const scenario::Scenario* s = scenario::find_scenario("fence_scope");
    ASSERT_NE(s, nullptr);
    runner::RunOptions o;
    o.backend = "gpu";
    o.reps = 2;
    o.gpu.worker = SYNCLAB_GPU_WORKER;
    o.gpu.timeout_s = 10;
    const runner::RunSummary r = runner::run_scenario(*s, *s->find_variant("device_fence"), o);
    EXPECT_EQ(r.status, trace::RunStatus::Ok) << r.message;
    EXPECT_FALSE(r.host_reader.has_value());
}

} // namespace
} // namespace synclab
