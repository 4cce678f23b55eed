// GPU tests (ctest label `gpu`): every scenario variant on a real GPU, untraced and traced. They skip
// (reported as skipped) where the worker finds no driver or no device.
//
// What a variant must do on the GPU is the hardware's business, not the simulator's: the two
// variants whose lanes of one warp wait at different bar.sync instructions hang (GPU_FACTS.md);
// every other variant completes, the always-correct ones with outputs equal to the CPU reference,
// and the traced run records the same events per (site, kind) as the simulator does.
#include "gpu/client.h"
#include "gpu/gpu_run.h"
#include "gpu/require_gpu.h"
#include "gpu/tiled_matmul.h"
#include "runner/runner.h"
#include "scenario/scenario.h"
#include "trace/naming.h"

#include "common/run_command.h"
#include <gtest/gtest.h>

#include "ptx/parser.h"

#include <array>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <sys/wait.h>

namespace synclab {
namespace {

using gpu::testing::MatMul;
using gpu::testing::matmul_job;
using gpu::testing::tiled_matmul;

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

constexpr double kTimeout = 3.0;

runner::RunOptions gpu_options(uint32_t reps = 3) {
    runner::RunOptions o;
    o.backend = "gpu";
    o.reps = reps;
    o.seed = 7;
    o.gpu.worker = SYNCLAB_GPU_WORKER;
    o.gpu.timeout_s = kTimeout;
    return o;
}

// A CAS loop that compares floats spins forever on a NaN: no barrier, so every warp keeps recording
// events until the trace buffer is full (every block's history partial).
bool spins_forever(const std::string& scenario, const std::string& variant) {
    return (scenario == "cas_loop" && variant == "float_compare_nan") ||
           (scenario == "grid_sync" && variant == "handmade_grid_barrier_oversubscribed");
}

// A cooperative launch of more blocks than fit at once: refused by the driver, nothing runs.
bool refused_on_gpu(const std::string& scenario, const std::string& variant) {
    return scenario == "grid_sync" && variant == "too_many_blocks";
}

bool hangs_on_gpu(const std::string& scenario, const std::string& variant) {
    return (scenario == "divergent_barrier" && variant == "loop_per_thread") ||
           (scenario == "loop_barrier" && variant == "per_thread_trip_count") || spins_forever(scenario, variant);
}

// Completes untraced but hangs traced: ptxas turns the untraced kernel's `if (tid & 1)
// __syncthreads()` into one predicated BAR.SYNC that the whole warp executes (GPU_FACTS.md); the
// recording code inside the branch stops that, so the odd lanes wait at the branch's bar.sync and
// the even ones at the common one. Seen on the H200 (2026-11-29): the reason to report both runs.
bool hangs_traced_only(const std::string& scenario, const std::string& variant) {
    return scenario == "divergent_barrier" && variant == "odd_lanes";
}

std::map<std::pair<uint16_t, trace::EventKind>, uint64_t> site_kind_counts(const trace::Trace& t) {
    std::map<std::pair<uint16_t, trace::EventKind>, uint64_t> m;
    for (const trace::Event& e : t.events)
        ++m[{e.site, e.kind}];
    return m;
}

// Per site of a shared-memory access, the shared variables its accesses fell in, as the trace's
// memory map names them ("" for an address no variable holds). The GPU places shared variables
// where it likes (sm_90: after a reserved kilobyte); the traced kernel reports where, and the names
// must come out as the simulator's.
std::map<uint16_t, std::set<std::string>> shared_names_by_site(const trace::Trace& t) {
    std::map<uint16_t, std::set<std::string>> m;
    for (const trace::Event& e : t.events)
        if (e.is_memory_access() && e.space() == trace::Space::Shared)
            m[e.site].insert(trace::region_name(t, trace::Space::Shared, e.address));
    return m;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

TEST(Gpu, EveryVariantRunsUntracedAndTracedAsExpected) {
    REQUIRE_GPU();
    for (const scenario::Scenario& s : scenario::catalog())
        for (const scenario::Variant& v : s.variants) {
            const std::string name = s.id + "/" + v.id;
            SCOPED_TRACE(name);
            const auto t0 = std::chrono::steady_clock::now();
            const runner::RunSummary r = runner::run_scenario(s, v, gpu_options());
            const double took = seconds_since(t0);
            const runner::GpuSide& u = r.gpu_untraced;
            const runner::GpuSide& t = r.gpu_traced;
            std::printf("%-40s untraced %-8s %6llu/%-6llu wrong, %.4f ms | traced %-8s %8llu events, %.4f ms "
                        "| %.1f s\n",
                        name.c_str(), trace::to_string(u.status), (unsigned long long)u.wrong_outputs,
                        (unsigned long long)u.checked_outputs, u.kernel_ms, trace::to_string(t.status),
                        (unsigned long long)t.events, t.kernel_ms, took);
            EXPECT_FALSE(r.device.empty());
            EXPECT_EQ(r.trace.meta.backend, "gpu");
            if (hangs_on_gpu(s.id, v.id)) {
                EXPECT_EQ(u.status, trace::RunStatus::Timeout) << u.message;
                EXPECT_EQ(t.status, trace::RunStatus::Timeout) << t.message;
                EXPECT_EQ(r.status, trace::RunStatus::Timeout);
                // The diagnosis, from the partial trace: who waits at which barrier line, or, for a
                // spin, where the unfinished threads were last seen.
                EXPECT_TRUE(contains(t.message, spins_forever(s.id, v.id) ? "still running at line" : "wait at line"))
                    << t.message;
                EXPECT_TRUE(t.partial_trace);
                EXPECT_GT(t.events, 0u);
                bool deadlock = false;
                for (const analysis::Finding& f : r.findings)
                    deadlock |= f.kind == analysis::FindingKind::Deadlock;
                EXPECT_TRUE(deadlock);
                // Not finishing loses nothing: no block is Partial for hanging at a barrier (a spin
                // fills the buffer, so there every block is).
                if (!spins_forever(s.id, v.id)) {
                    EXPECT_TRUE(gpu::blocks_with(r.trace.block_history, trace::BlockHistory::Partial).empty())
                        << t.message;
                }
                // Both runs end within the timeout plus the time to read the partial trace and restart.
                EXPECT_LT(took, 2 * kTimeout + 20) << "the hang took too long to end";
                continue;
            }
            if (refused_on_gpu(s.id, v.id)) {
                EXPECT_EQ(u.status, trace::RunStatus::Error) << u.message;
                EXPECT_EQ(t.status, trace::RunStatus::Error) << t.message;
                EXPECT_TRUE(contains(u.message, "too many blocks in cooperative launch: 4224 blocks of 256 threads, "
                                                "at most "))
                    << u.message;
                EXPECT_TRUE(contains(u.message, "cuOccupancyMaxActiveBlocksPerMultiprocessor")) << u.message;
                continue;
            }
            EXPECT_EQ(u.status, trace::RunStatus::Ok) << u.message;
            EXPECT_EQ(u.reps, 3u);
            if (hangs_traced_only(s.id, v.id)) {
                EXPECT_EQ(t.status, trace::RunStatus::Timeout) << t.message;
                EXPECT_TRUE(contains(t.message, "wait at line")) << t.message;
                EXPECT_EQ(r.status, trace::RunStatus::Timeout);
                EXPECT_TRUE(contains(r.message, "traced run: ")) << r.message;
                continue;
            }
            EXPECT_EQ(t.status, trace::RunStatus::Ok) << t.message;
            // The lesson kernels fit the first buffer: one launch, every block whole.
            EXPECT_TRUE(r.trace.block_history.empty()) << t.message;
            EXPECT_EQ(t.message, "trace buffer of 4.2 M events (128 MB): every block recorded whole");
            EXPECT_GT(u.checked_outputs, 0u);
            EXPECT_GT(u.kernel_ms, 0.0);
            if (v.expect.always_correct()) {
                EXPECT_EQ(u.wrong_outputs, 0u) << u.check_summary;
                EXPECT_EQ(t.wrong_outputs, 0u) << t.check_summary;
            }
            // The traced run records the same events per (site, kind) as the simulator where control
            // flow does not depend on the schedule; where a reader spins on a flag (the fence
            // lessons), how often it spins is the interleaving's: the same (site, kind)s then.
            runner::RunOptions so;
            so.seed = 7;
            so.schedule = sim::Schedule::RoundRobin;
            const runner::RunSummary sim_run = runner::run_scenario(s, v, so);
            if (sim_run.status == trace::RunStatus::Ok) {
                EXPECT_EQ(t.dropped_events, 0u);
                so.schedule = sim::Schedule::Random;
                const bool spins = runner::run_scenario(s, v, so).events != sim_run.events;
                if (spins) {
                    std::set<std::pair<uint16_t, trace::EventKind>> gpu_sites, sim_sites;
                    for (const auto& [key, n] : site_kind_counts(r.trace))
                        gpu_sites.insert(key);
                    for (const auto& [key, n] : site_kind_counts(sim_run.trace))
                        sim_sites.insert(key);
                    EXPECT_EQ(gpu_sites, sim_sites);
                } else {
                    EXPECT_EQ(site_kind_counts(r.trace), site_kind_counts(sim_run.trace));
                }
                EXPECT_EQ(shared_names_by_site(r.trace), shared_names_by_site(sim_run.trace));
            }
            // Every thread ran to its exit; its SM comes from the warp table.
            ASSERT_EQ(r.trace.threads.size(), v.launch.grid.count() * v.launch.block.count());
            std::set<uint16_t> sms;
            for (const trace::ThreadInfo& info : r.trace.threads) {
                EXPECT_EQ(info.end, trace::ThreadEnd::Exited);
                EXPECT_LT(info.sm, r.trace.meta.sm_count);
                sms.insert(info.sm);
            }
            if (v.launch.grid.count() > 1) {
                EXPECT_GT(sms.size(), 1u) << "every block on one SM?";
            }
        }
}

TEST(Gpu, AHangLeavesTheGpuUsable) {
    REQUIRE_GPU();
    const scenario::Scenario& d = *scenario::find_scenario("divergent_barrier");
    runner::RunOptions o = gpu_options(1);
    o.gpu.traced = false;
    const auto t0 = std::chrono::steady_clock::now();
    const runner::RunSummary hang = runner::run_scenario(d, *d.find_variant("loop_per_thread"), o);
    const double hang_s = seconds_since(t0);
    EXPECT_EQ(hang.status, trace::RunStatus::Timeout) << hang.message;
    EXPECT_LT(hang_s, kTimeout + 10);
    // The next run gets a fresh worker and a working GPU.
    const scenario::Scenario& s = *scenario::find_scenario("stencil");
    const auto t1 = std::chrono::steady_clock::now();
    const runner::RunSummary next = runner::run_scenario(s, *s.find_variant("correct"), gpu_options(2));
    std::printf("hang ended after %.2f s; the next run took %.2f s\n", hang_s, seconds_since(t1));
    EXPECT_EQ(next.status, trace::RunStatus::Ok) << next.message;
    EXPECT_EQ(next.wrong_outputs, 0u);
    EXPECT_GT(next.events, 0u);
}

TEST(Gpu, LiveModeStreamsEventsOfAHungKernel) {
    REQUIRE_GPU();
    const scenario::Scenario& d = *scenario::find_scenario("divergent_barrier");
    runner::RunOptions o = gpu_options(1);
    o.gpu.untraced = false;
    o.gpu.live = true;
    uint64_t streamed = 0, calls = 0;
    double first_ms = -1;
    o.gpu.on_events = [&](const std::vector<trace::Event>& events, uint64_t seen, double elapsed_ms) {
        streamed += events.size();
        ++calls;
        if (seen > 0 && first_ms < 0) first_ms = elapsed_ms;
    };
    const runner::RunSummary r = runner::run_scenario(d, *d.find_variant("loop_per_thread"), o);
    std::printf("live: %llu events in %llu updates, first after %.1f ms; final trace %zu events (%s)\n",
                (unsigned long long)streamed, (unsigned long long)calls, first_ms, r.trace.events.size(),
                r.gpu_traced.trace_buffer.c_str());
    EXPECT_EQ(r.status, trace::RunStatus::Timeout);
    EXPECT_EQ(r.gpu_traced.trace_buffer, "mapped");
    EXPECT_GT(streamed, 0u) << "no events arrived while the kernel ran";
    EXPECT_GE(r.trace.events.size(), streamed);
    EXPECT_TRUE(contains(r.message, "wait at line")) << r.message;
    EXPECT_TRUE(gpu::blocks_with(r.trace.block_history, trace::BlockHistory::Partial).empty()) << r.message;
}

TEST(Gpu, LiveModeOfACompletedKernelMatchesTheDeviceBuffer) {
    REQUIRE_GPU();
    const scenario::Scenario& s = *scenario::find_scenario("loop_barrier");
    runner::RunOptions dev = gpu_options(1);
    dev.gpu.untraced = false;
    runner::RunOptions live = dev;
    live.gpu.live = true;
    const runner::RunSummary a = runner::run_scenario(s, *s.find_variant("uniform_trip_count"), dev);
    const runner::RunSummary b = runner::run_scenario(s, *s.find_variant("uniform_trip_count"), live);
    EXPECT_EQ(a.status, trace::RunStatus::Ok) << a.message;
    EXPECT_EQ(b.status, trace::RunStatus::Ok) << b.message;
    EXPECT_EQ(site_kind_counts(a.trace), site_kind_counts(b.trace));
    EXPECT_EQ(b.gpu_traced.trace_buffer, "mapped");
}

TEST(Gpu, OverflowIsCountedNotWritten) {
    REQUIRE_GPU();
    const scenario::Scenario& s = *scenario::find_scenario("stencil");
    runner::RunOptions o = gpu_options(1);
    o.gpu.untraced = false;
    o.gpu.trace.first_events = 1000;
    o.gpu.trace.whole_blocks = false; // keep the overflowing launch: no second, sized one
    const runner::RunSummary r = runner::run_scenario(s, *s.find_variant("correct"), o);
    EXPECT_EQ(r.status, trace::RunStatus::Ok) << r.message;
    // 1000 slots, rounded up to whole stripes; each stripe keeps its first events and counts the rest.
    const uint64_t slots = trace::TraceBufferLayout::for_capacity(1000, trace::kDefaultStripes).capacity();
    EXPECT_GT(r.trace.events.size(), 0u);
    EXPECT_LE(r.trace.events.size(), slots);
    EXPECT_GT(r.dropped_events, 0u);
    runner::RunOptions so;
    so.schedule = sim::Schedule::RoundRobin;
    const runner::RunSummary sim_run = runner::run_scenario(s, *s.find_variant("correct"), so);
    EXPECT_EQ(r.trace.events.size() + r.dropped_events, sim_run.trace.events.size())
        << "written + dropped = attempted";
    EXPECT_EQ(r.trace.meta.dropped_events, r.dropped_events);
    EXPECT_EQ(r.gpu_traced.wrong_outputs, 0u); // the kernel itself is unharmed by the full buffer
    // Exactly the blocks that lost events are Partial (the simulator's trace has every block's).
    const std::vector<uint64_t> got = gpu::events_per_block(r.trace.events, s.launch.grid, s.launch.block);
    const std::vector<uint64_t> all =
        gpu::events_per_block(sim_run.trace.events, s.launch.grid, s.launch.block);
    ASSERT_EQ(r.trace.block_history.size(), s.launch.grid.count());
    for (uint32_t b = 0; b < s.launch.grid.count(); ++b)
        EXPECT_EQ(r.trace.history_of(b) == trace::BlockHistory::Partial, got[b] < all[b]) << "block " << b;
    EXPECT_TRUE(contains(r.gpu_traced.message, "lost events (a partial history")) << r.gpu_traced.message;
    EXPECT_TRUE(contains(r.message, "traced run: ")) << r.message;
}

// A first buffer too small for a lesson kernel: the runner traces it again with a buffer sized from
// the first launch's counts, and every block is whole.
TEST(Gpu, AFirstBufferThatOverflowsIsSizedAgainFromItsCounts) {
    REQUIRE_GPU();
    const scenario::Scenario& s = *scenario::find_scenario("stencil");
    runner::RunOptions o = gpu_options(1);
    o.gpu.untraced = false;
    o.gpu.trace.first_events = 1000;
    const runner::RunSummary r = runner::run_scenario(s, *s.find_variant("correct"), o);
    runner::RunOptions so;
    so.schedule = sim::Schedule::RoundRobin;
    const runner::RunSummary sim_run = runner::run_scenario(s, *s.find_variant("correct"), so);
    std::printf("%s\n", r.gpu_traced.message.c_str());
    EXPECT_EQ(r.status, trace::RunStatus::Ok) << r.message;
    EXPECT_EQ(r.dropped_events, 0u);
    EXPECT_TRUE(r.trace.block_history.empty());
    EXPECT_EQ(site_kind_counts(r.trace), site_kind_counts(sim_run.trace));
    EXPECT_TRUE(contains(r.gpu_traced.message, "a first launch tried ")) << r.gpu_traced.message;
    EXPECT_TRUE(contains(r.gpu_traced.message, "every block recorded whole")) << r.gpu_traced.message;
    EXPECT_EQ(r.gpu_traced.wrong_outputs, 0u);
}

// [SECTION] The tiled matrix product (tests/gpu/data/tiled_matmul.cu): 16 x 16 blocks of
// 16 x 16 threads, 256 x 256 matrices, 642 events a thread (42.1 M in all, 1.3 GB).

constexpr uint32_t kWidth = 256;
constexpr uint64_t kEventsPerBlock = 256 * 642;

runner::RunOptions matmul_options(uint64_t cap_bytes) {
    runner::RunOptions o = gpu_options(1);
    o.gpu.timeout_s = 10;
    o.gpu.trace.cap_bytes = cap_bytes;
    return o;
}

void print_matmul(const char* what, const runner::RunSummary& r) {
    std::printf(
        "%s: %s; %llu events (%llu dropped), %zu findings, traced kernel %.3f ms, untraced %.3f ms\n  %s\n",
        what, trace::to_string(r.status), (unsigned long long)r.events, (unsigned long long)r.dropped_events,
        r.findings.size(), r.gpu_traced.kernel_ms, r.gpu_untraced.kernel_ms, r.gpu_traced.message.c_str());
}

// Every Whole block holds its whole history (all 642 events of each of its threads); NotRecorded
// ones hold nothing; returns the Whole blocks.
std::vector<uint32_t> check_whole_blocks(const runner::RunSummary& r) {
    const trace::Trace& t = r.trace;
    const std::vector<uint64_t> per_block = gpu::events_per_block(t.events, t.meta.grid, t.meta.block);
    std::vector<uint32_t> whole;
    for (uint32_t b = 0; b < per_block.size(); ++b) {
        if (t.block_is_whole(b)) {
            EXPECT_EQ(per_block[b], kEventsPerBlock) << "block " << b << " is Whole but misses events";
            whole.push_back(b);
        } else if (t.history_of(b) == trace::BlockHistory::NotRecorded) {
            EXPECT_EQ(per_block[b], 0u) << "block " << b;
        }
    }
    return whole;
}

// The run: a correct kernel with a buffer that cannot hold its 42 M events. The run says
// which blocks it recorded, none is Partial, and there is no finding (the H200 reported a race).
TEST(Gpu, TiledMatMulWithASmallBufferRecordsWholeBlocksAndFindsNothing) {
    REQUIRE_GPU();
    const runner::RunSummary r =
        runner::run_job(matmul_job(tiled_matmul().correct, kWidth), matmul_options(256ull << 20));
    print_matmul("tiled matmul, --trace-buffer 256", r);
    ASSERT_EQ(r.status, trace::RunStatus::Ok) << r.message;
    EXPECT_EQ(r.gpu_untraced.wrong_outputs, 0u) << r.gpu_untraced.check_summary;
    EXPECT_EQ(r.gpu_traced.wrong_outputs, 0u) << r.gpu_traced.check_summary;
    EXPECT_TRUE(r.findings.empty()) << r.findings.front().message;
    ASSERT_EQ(r.trace.block_history.size(), 256u);
    EXPECT_TRUE(gpu::blocks_with(r.trace.block_history, trace::BlockHistory::Partial).empty())
        << r.gpu_traced.message;
    const std::vector<uint32_t> whole = check_whole_blocks(r);
    EXPECT_GT(whole.size(), 10u);
    EXPECT_LT(whole.size(), 256u);
    EXPECT_EQ(whole.front(), 0u);
    EXPECT_LE(r.events * sizeof(trace::Event), 256ull << 20);
    // The result names the sample and why.
    const std::string& m = r.gpu_traced.message;
    EXPECT_TRUE(contains(m, "recording " + gpu::describe_blocks(whole, 256) + " whole")) << m;
    EXPECT_TRUE(contains(m, "cap of 256 MB")) << m;
    EXPECT_TRUE(contains(r.message, "traced run: ")) << r.message;
}

// The same with the cap lifted (the default): the buffer is sized for every block.
TEST(Gpu, TiledMatMulWithTheDefaultCapRecordsEveryBlock) {
    REQUIRE_GPU();
    const runner::RunSummary r =
        runner::run_job(matmul_job(tiled_matmul().correct, kWidth), matmul_options(gpu::kDefaultTraceCap));
    print_matmul("tiled matmul, default cap", r);
    ASSERT_EQ(r.status, trace::RunStatus::Ok) << r.message;
    EXPECT_TRUE(r.findings.empty()) << r.findings.front().message;
    EXPECT_EQ(r.dropped_events, 0u);
    EXPECT_TRUE(r.trace.block_history.empty()) << r.gpu_traced.message;
    EXPECT_EQ(r.events, 256 * kEventsPerBlock);
    EXPECT_EQ(check_whole_blocks(r).size(), 256u);
    EXPECT_TRUE(contains(r.gpu_traced.message, "every block recorded whole")) << r.gpu_traced.message;
    EXPECT_EQ(r.gpu_traced.wrong_outputs, 0u);
}

// Without the barrier between loading the tiles and using them: the race is found, from blocks
// recorded whole.
TEST(Gpu, RacyTiledMatMulGetsItsRaceFromTheBlocksRecordedWhole) {
    REQUIRE_GPU();
    const runner::RunSummary r =
        runner::run_job(matmul_job(tiled_matmul().racy, kWidth), matmul_options(256ull << 20));
    print_matmul("racy tiled matmul, --trace-buffer 256", r);
    ASSERT_EQ(r.status, trace::RunStatus::Ok) << r.message;
    ASSERT_FALSE(r.trace.block_history.empty()) << "every block fit: the test shows nothing";
    bool race = false;
    for (const analysis::Finding& f : r.findings) {
        race |= f.kind == analysis::FindingKind::Race && f.space == trace::Space::Shared;
        EXPECT_TRUE(r.trace.block_is_whole(f.block)) << f.message;
        for (uint32_t th : f.threads)
            EXPECT_TRUE(r.trace.block_is_whole(r.trace.threads.at(th).block)) << f.message;
    }
    EXPECT_TRUE(race) << "no shared-memory race found";
}

// Live mode (the mapped buffer) samples blocks and marks drops the same way.
TEST(Gpu, LiveModeSamplesWholeBlocksToo) {
    REQUIRE_GPU();
    const scenario::Scenario& s = *scenario::find_scenario("stencil");
    runner::RunOptions o = gpu_options(1);
    o.gpu.untraced = false;
    o.gpu.live = true;
    o.gpu.trace.cap_bytes = 256 << 10; // 8,192 events: a few of the 64 blocks
    uint64_t streamed = 0;
    o.gpu.on_events = [&](const std::vector<trace::Event>& events, uint64_t, double) {
        streamed += events.size();
    };
    const runner::RunSummary r = runner::run_scenario(s, *s.find_variant("correct"), o);
    runner::RunOptions so;
    so.schedule = sim::Schedule::RoundRobin;
    const runner::RunSummary sim_run = runner::run_scenario(s, *s.find_variant("correct"), so);
    std::printf("live, 256 KB: %s (%llu streamed)\n", r.gpu_traced.message.c_str(),
                (unsigned long long)streamed);
    EXPECT_EQ(r.status, trace::RunStatus::Ok) << r.message;
    EXPECT_EQ(r.gpu_traced.trace_buffer, "mapped");
    const std::vector<uint64_t> got = gpu::events_per_block(r.trace.events, s.launch.grid, s.launch.block);
    const std::vector<uint64_t> all =
        gpu::events_per_block(sim_run.trace.events, s.launch.grid, s.launch.block);
    ASSERT_EQ(r.trace.block_history.size(), s.launch.grid.count()) << r.gpu_traced.message;
    uint32_t whole = 0;
    for (uint32_t b = 0; b < s.launch.grid.count(); ++b) {
        if (r.trace.block_is_whole(b)) {
            EXPECT_EQ(got[b], all[b]) << "block " << b;
            ++whole;
        } else {
            EXPECT_EQ(r.trace.history_of(b), trace::BlockHistory::NotRecorded) << "block " << b;
            EXPECT_EQ(got[b], 0u) << "block " << b;
        }
    }
    EXPECT_GT(whole, 0u);
    EXPECT_LT(whole, s.launch.grid.count());
    EXPECT_TRUE(r.findings.empty());
}

TEST(Gpu, MissingBarrierShowsOnTheHardwareUntraced) {
    REQUIRE_GPU();
    const scenario::Scenario& s = *scenario::find_scenario("stencil");
    const runner::RunSummary r = runner::run_scenario(s, *s.find_variant("missing_barrier"), gpu_options(5));
    std::printf("stencil/missing_barrier on the GPU: untraced %llu wrong of %llu (%u of %u launches); traced "
                "%llu wrong\n",
                (unsigned long long)r.gpu_untraced.wrong_outputs,
                (unsigned long long)r.gpu_untraced.checked_outputs, r.gpu_untraced.reps_with_wrong_outputs,
                r.gpu_untraced.reps, (unsigned long long)r.gpu_traced.wrong_outputs);
    EXPECT_EQ(r.status, trace::RunStatus::Ok) << r.message;
    EXPECT_GT(r.gpu_untraced.reps_with_wrong_outputs, 0u)
        << "ptxas hoists the neighbour loads above the store (GPU_FACTS.md)";
}

using Output = synclab::testing::CommandOutput;

Output run_cli(const std::string& args) {
    return synclab::testing::run_command("SYNCLAB_GPU_WORKER='" + std::string(SYNCLAB_GPU_WORKER) + "' " +
                                         SYNCLAB_CLI + " " + args);
}

TEST(Gpu, CliRunAndCheckOnTheGpu) {
    REQUIRE_GPU();
    Output o = run_cli("run stencil --variant missing_barrier --backend gpu --reps 3 --json");
    ASSERT_EQ(o.code, 0) << o.out;
    for (const char* field :
         {"\"device\"", "\"kernel_ms\"", "\"dropped_events\"", "\"traced\": true", "\"untraced\"", "\"gpu\""})
        EXPECT_TRUE(contains(o.out, field)) << field << "\n" << o.out;
    o = run_cli("run divergent_barrier --variant loop_per_thread --backend gpu --timeout 2");
    EXPECT_EQ(o.code, 0) << o.out;
    EXPECT_TRUE(contains(o.out, "timeout")) << o.out;
    EXPECT_TRUE(contains(o.out, "wait at line")) << o.out;
    o = run_cli("check " + std::string(SYNCLAB_SOURCE_DIR) +
                "/tests/cli/data/user_kernels.ptx --kernel reverse_no_sync --grid 2 --block 128 --arg "
                "buf:i32:256:iota "
                "--arg buf:i32:256 --backend gpu");
    EXPECT_EQ(o.code, 0) << o.out;
    EXPECT_TRUE(contains(o.out, "backend gpu")) << o.out;
}

} // namespace
} // namespace synclab
