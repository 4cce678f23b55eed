// GPU traces through the analyses (ctest label `gpu`; skipped, reported as skipped, where the worker
// finds no driver or no device). The kernels of data/*.cu run traced on the GPU: a GPU trace is
// ordered by %globaltimer, phase numbers count each thread's own barriers, and events of one warp's
// lanes interleave as the hardware ran them; the verdicts must hold all the same. And a traced
// launch whose buffer cannot hold every event gives no finding from the blocks it lost events of.
#include "analysis/bounds_kernels.h"
#include "analysis/findings.h"
#include "gpu/client.h"
#include "gpu/require_gpu.h"
#include "ptx/parser.h"
#include "runner/runner.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>

namespace synclab::analysis {
namespace {

using testing::out_of_bounds;

const ptx::Module& module(const std::string& name, std::string* text = nullptr) {
    static std::map<std::string, std::pair<std::string, ptx::Module>> modules;
    auto it = modules.find(name);
    if (it == modules.end()) {
        std::ifstream in(std::string(SYNCLAB_SOURCE_DIR) + "/tests/analysis/data/" + name + ".ptx");
        std::stringstream ss;
        ss << in.rdbuf();
        it =
            modules.emplace(name, std::make_pair(ss.str(), ptx::parse_module(ss.str(), name + ".ptx"))).first;
    }
    if (text) *text = it->second.first;
    return it->second.second;
}

// One traced GPU launch of `kernel` over `grid` x `block` with zeroed word buffers and `n` last
// when given.
runner::RunSummary run_on_gpu(const std::string& file, const std::string& kernel, uint32_t grid,
                              uint32_t block, std::vector<size_t> words, int64_t n = -1,
                              uint64_t event_capacity = 1u << 22) {
    runner::KernelJob job;
    job.module = &module(file, &job.ptx_text);
    job.kernel = kernel;
    job.launch.grid = {grid, 1, 1};
    job.launch.block = {block, 1, 1};
    job.make_inputs = [words, n](uint64_t) {
        scenario::Inputs inputs;
        for (size_t i = 0; i < words.size(); ++i) {
            launch::Buffer b;
            b.name = "b" + std::to_string(i);
            b.bytes.assign(words[i] * 4, 0);
            inputs.buffers.push_back(std::move(b));
            inputs.args.push_back(launch::KernelArg::pointer(uint32_t(i)));
        }
        if (n >= 0) inputs.args.push_back(launch::KernelArg::scalar(uint64_t(n)));
        return inputs;
    };
    runner::RunOptions o;
    o.backend = "gpu";
    o.reps = 1;
    o.gpu.worker = SYNCLAB_GPU_WORKER;
    o.gpu.timeout_s = 3;
    // A first launch of `event_capacity` slots, and no second one sized from its counts: a small
    // capacity makes blocks lose events (trace/trace.h: Partial), as a full buffer did before.
    o.gpu.trace.first_events = event_capacity;
    o.gpu.trace.whole_blocks = event_capacity >= (1u << 22);
    return runner::run_job(job, o);
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

std::string dump(const std::vector<Finding>& findings) {
    std::string out = std::to_string(findings.size()) + " finding(s):";
    for (const Finding& f : findings)
        out += "\n  [" + std::string(to_string(f.kind)) + " " + to_string(f.hazard) + "] " + f.message;
    return out;
}

size_t count_kind(const std::vector<Finding>& findings, FindingKind kind) {
    size_t n = 0;
    for (const Finding& f : findings)
        n += f.kind == kind;
    return n;
}

// Verdict: on a GPU trace, the kernels of global_races.cu show the same verdicts as in the
// simulator: a race on global memory where the kernel has one, none for the near-twins, a lost
// update and no race for `counter[i % 4]++`.
TEST(analysis_gpu, GlobalRacesOnAGpuTrace) {
    REQUIRE_GPU();
    struct Case {
        const char* kernel;
        uint32_t grid;
        std::vector<size_t> words;
        int64_t n;
        bool race, lost_update;
    };
    const Case cases[] = {
        {"_Z15read_next_blockIiEvPT_S1_i", 3, {300, 300}, 300, true, false},
        {"_Z20neighbour_no_barrierPiS_", 3, {300, 300}, -1, true, false},
        {"_Z22neighbour_with_barrierPiS_", 3, {300, 300}, -1, false, false},
        {"_Z19shift_left_in_placePi", 1, {100}, -1, true, false},
        {"_Z27every_block_writes_the_samePi", 3, {100}, -1, true, false},
        {"_Z18count_with_atomicsPj", 3, {1}, -1, false, false},
        {"_Z18increment_mod_fourPi", 3, {4}, -1, false, true},
        {"_Z20slot_from_atomic_maxPiS_", 3, {1, 8}, -1, true, false},
        {"_Z20slot_from_atomic_addPiS_", 3, {1, 300}, -1, false, false},
    };
    for (const Case& c : cases) {
        const runner::RunSummary s = run_on_gpu("global_races", c.kernel, c.grid, 100, c.words, c.n);
        ASSERT_EQ(s.status, trace::RunStatus::Ok) << c.kernel << ": " << s.message;
        const std::string where = std::string(c.kernel) + ": " + dump(s.findings);
        EXPECT_EQ(count_kind(s.findings, FindingKind::Race) > 0, c.race) << where;
        EXPECT_EQ(count_kind(s.findings, FindingKind::LostUpdate) > 0, c.lost_update) << where;
        EXPECT_EQ(count_kind(s.findings, FindingKind::BarrierDivergence), 0u) << where;
        for (const Finding& f : s.findings)
            if (f.kind == FindingKind::Race) {
                EXPECT_EQ(f.space, trace::Space::Global) << where;
            }
    }
}

// Verdict: warp_divergence.cu on the GPU, as on the simulator (analysis_e2e_test.cpp): whole warps
// that return and a block-uniform condition give nothing; part of a warp at a __syncthreads() while
// its other lanes go on, or return without reaching it, gives barrier_divergence (the rule reads the
// order the GPU recorded: the arrivals of the lanes at the barrier before the others' later events).
TEST(analysis_gpu, WarpDivergenceOnAGpuTrace) {
    REQUIRE_GPU();
    const std::pair<const char*, bool> cases[] = {
        {"_Z20partial_warp_barrierPKiPi", true}, {"_Z19upper_lanes_barrierPKiPi", true},
        {"_Z18early_return_lanesPKiPi", true},   {"_Z18whole_warps_returnPKiPi", false},
        {"_Z17uniform_conditionPKiPi", false},
    };
    for (const auto& [kernel, divergent] : cases) {
        const runner::RunSummary s = run_on_gpu("warp_divergence", kernel, 2, 100, {200, 200});
        ASSERT_EQ(s.status, trace::RunStatus::Ok) << kernel << ": " << s.message;
        const std::string where = std::string(kernel) + ": " + dump(s.findings);
        if (!divergent) {
            EXPECT_TRUE(s.findings.empty()) << where;
            continue;
        }
        EXPECT_GT(count_kind(s.findings, FindingKind::BarrierDivergence), 0u) << where;
        EXPECT_EQ(count_kind(s.findings, FindingKind::Race), 0u) << where;
    }
}

// Verdict: a correct kernel (barrier between the write and the neighbour read) over 64 blocks,
// traced into a buffer far too small for its events: whatever the runner kept, no finding, and the
// coverage says which blocks were analysed.
TEST(analysis_gpu, ATraceThatLostEventsGivesNoFinding) {
    REQUIRE_GPU();
    const runner::RunSummary s =
        run_on_gpu("global_races", "_Z22neighbour_with_barrierPiS_", 64, 100, {6400, 6400}, -1, 4096);
    ASSERT_EQ(s.status, trace::RunStatus::Ok) << s.message;
    EXPECT_GT(s.dropped_events, 0u) << "the buffer was meant to overflow";
    EXPECT_TRUE(s.findings.empty()) << dump(s.findings);
    const Coverage c = coverage(s.trace);
    EXPECT_FALSE(c.complete()) << c.summary;
    std::printf("%s\n", c.summary.c_str());
}

runner::RunOptions gpu_options() {
    runner::RunOptions o;
    o.backend = "gpu";
    o.reps = 1;
    o.gpu.worker = SYNCLAB_GPU_WORKER;
    o.gpu.timeout_s = 3;
    return o;
}

// Issue 20 on a GPU: thread i of 2 blocks of 64 writes a[i * 1024] into 16 ints. The H200 let such
// writes land (status ok, no finding before the bounds check); the traced run now checks every
// address against the buffers where the worker placed them, and names the buffer, the line and a
// thread as the simulator does. Should this GPU fault instead, the runner traced the launch again
// into mapped memory, which is read up to the fault: the finding then rests on the writes that
// were recorded before it.
TEST(analysis_gpu, AWriteFarPastTheEndIsOutOfBoundsOnTheGpu) {
    REQUIRE_GPU();
    const runner::RunSummary s = runner::run_job(testing::far_write_job(), gpu_options());
    const runner::GpuSide& t = s.gpu_traced;
    std::printf("untraced: %s %s\ntraced: %s %s (%llu events, %s buffer)\n",
                trace::to_string(s.gpu_untraced.status), s.gpu_untraced.message.c_str(),
                trace::to_string(t.status), t.message.c_str(), (unsigned long long)t.events,
                t.trace_buffer.c_str());
    if (t.status != trace::RunStatus::Ok) {
        EXPECT_TRUE(contains(t.message, "traced again into host-mapped memory")) << t.message;
        EXPECT_TRUE(t.partial_trace);
    }
    ASSERT_TRUE(s.trace.memory.complete()) << "the worker reported where it placed a";
    const std::vector<Finding> found = out_of_bounds(s.findings);
    ASSERT_EQ(found.size(), 1u) << dump(s.findings);
    const Finding& f = found[0];
    std::printf("%s\n", f.message.c_str());
    EXPECT_EQ(f.lines, std::vector<uint32_t>{testing::kFarWriteLine});
    ASSERT_EQ(f.threads.size(), 1u);
    const trace::ThreadInfo& who = s.trace.threads.at(f.threads[0]);
    const uint64_t i = uint64_t(who.block) * 64 + who.thread_in_block;
    ASSERT_GE(i, 1u) << "thread 0 writes a[0]";
    EXPECT_EQ(f.text, "out-of-bounds write of 4 bytes at line 12 by block " + std::to_string(who.block) +
                          " thread " + std::to_string(who.thread_in_block) + ": " +
                          std::to_string(i * 4096 - 64) + " bytes past the end of a (64 bytes)");
    EXPECT_GE(f.count, 1u);
    EXPECT_LE(f.count, 127u) << "threads 1-127";
    if (t.status == trace::RunStatus::Ok) {
        EXPECT_EQ(f.count, 127u) << "a completed trace holds every write";
    }
    // The map also names the in-bounds write: thread 0's a[0].
    for (const trace::Event& e : s.trace.events)
        if (e.kind == trace::EventKind::Store && e.thread == 0) {
            EXPECT_EQ(trace::memory_name(s.trace, e.space(), e.address), "a[0]");
        }
}

// Writes gigabytes away from every buffer: a GPU faults (an H200 says CUDA_ERROR_ILLEGAL_ADDRESS, an
// H100 CUDA_ERROR_INVALID_ADDRESS_SPACE: the address falls in another window), a device trace
// buffer is gone with the context, and the runner traces the launch again into mapped memory. What
// that trace holds up to the fault is the hardware's business (events are written after their
// access): where it shows an out-of-bounds write, the finding says no buffer is near it.
TEST(analysis_gpu, AFaultIsTracedAgainAndItsAccessesNamed) {
    REQUIRE_GPU();
    const runner::RunSummary s =
        runner::run_job(testing::bounds_job("_Z14write_far_awayPi", 2, 64, {{"a", 16}}), gpu_options());
    const runner::GpuSide& t = s.gpu_traced;
    std::printf("untraced: %s %s\ntraced: %s %s (%llu events, %s buffer)\n",
                trace::to_string(s.gpu_untraced.status), s.gpu_untraced.message.c_str(),
                trace::to_string(t.status), t.message.c_str(), (unsigned long long)t.events,
                t.trace_buffer.c_str());
    EXPECT_EQ(s.gpu_untraced.status, trace::RunStatus::Error) << s.gpu_untraced.message;
    EXPECT_TRUE(contains(s.gpu_untraced.message, "CUDA_ERROR_ILLEGAL_ADDRESS") ||
                contains(s.gpu_untraced.message, "CUDA_ERROR_INVALID_ADDRESS_SPACE"))
        << s.gpu_untraced.message;
    ASSERT_EQ(t.status, trace::RunStatus::Error) << t.message;
    EXPECT_TRUE(contains(t.message, "traced again into host-mapped memory")) << t.message;
    EXPECT_EQ(t.trace_buffer, "mapped");
    EXPECT_TRUE(t.partial_trace);
    EXPECT_TRUE(s.trace.memory.complete());
    for (const Finding& f : out_of_bounds(s.findings)) {
        std::printf("%s\n", f.message.c_str());
        EXPECT_EQ(f.lines, std::vector<uint32_t>{testing::kFarAwayLine});
        EXPECT_TRUE(contains(f.text, ", not inside any buffer")) << f.text;
    }
}

// The same kernel kept inside its buffer: no finding, and the map names every store.
TEST(analysis_gpu, WritesInsideAreNamedAndGiveNothing) {
    REQUIRE_GPU();
    const runner::RunSummary s =
        runner::run_job(testing::bounds_job("_Z12write_insidePii", 2, 64, {{"a", 16}}, 16), gpu_options());
    ASSERT_EQ(s.status, trace::RunStatus::Ok) << s.message;
    EXPECT_TRUE(s.findings.empty()) << dump(s.findings);
    EXPECT_TRUE(s.trace.memory.complete());
    size_t stores = 0;
    for (const trace::Event& e : s.trace.events)
        if (e.kind == trace::EventKind::Store) {
            ++stores;
            EXPECT_EQ(trace::memory_name(s.trace, e.space(), e.address),
                      "a[" + std::to_string(e.value) + "]");
        }
    EXPECT_EQ(stores, 16u);
}

} // namespace
} // namespace synclab::analysis
