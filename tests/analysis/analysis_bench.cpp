// analysis_bench: how long analyze() takes over big traces, and what the global race analysis's
// shadow state costs. Built with the tests, not run by ctest (it takes tens of seconds):
//   build/tests/analysis/analysis_bench [--reps N] [--only
//   stencil|own_words|last_block|one_counter|synced_broadcast]
// Prints one line per measurement with the median of N runs (default 3):
// - the stencil (both variants, and the correct one under the relaxed model) at 8,448 blocks x 256
//   threads, traced by the simulator;
// - a synthetic trace of 4 M threads (16,384 x 256) that each write and read back their own word:
//   analyze() time, shadow bytes per word (ShadowStats), and the growth of the resident set;
// - the last-block reduction's fences and tickets over 4,096 blocks (release/acquire joins), and
//   1 M atomics on one counter (strong accesses that synchronise nothing).
#include "analysis/findings.h"
#include "runner/runner.h"
#include "scenario/scenario.h"
#include "sim/simulator.h"
#include "trace_builder.h"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

namespace {

using namespace synclab;

double now_ms() {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

// Resident set size now (VmRSS), in MiB.
double rss_mib() {
    std::ifstream in("/proc/self/status");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("VmRSS:", 0) == 0) return std::stod(line.substr(6)) / 1024.0;
    return 0;
}

// The synthetic traces below (shapes the simulator would take long to produce at this size) are
// built with the analysis tests' TraceBuilder: `synthetic(blocks, threads, sites, events)`.
analysis::testing::TraceBuilder synthetic(uint32_t blocks, uint32_t threads, std::vector<trace::Site> sites,
                                          size_t events) {
    analysis::testing::TraceBuilder b(blocks, threads);
    b.mutable_trace().meta.backend = "sim";
    b.mutable_trace().sites = std::move(sites);
    b.mutable_trace().events.reserve(events);
    return b;
}

const uint8_t kPlainGlobal = trace::make_flags(trace::Space::Global, 4);
const uint8_t kExitFlags = trace::make_flags(trace::Space::Other, 4);

void bench_stencil(const char* variant_id, uint32_t reps,
                   launch::MemoryModel memory = launch::MemoryModel::Sc) {
    const scenario::Scenario* s = scenario::find_scenario("stencil");
    const scenario::Variant* v = s ? s->find_variant(variant_id) : nullptr;
    if (v == nullptr) {
        std::printf("stencil/%s: not in the catalog\n", variant_id);
        return;
    }
    constexpr uint32_t kBlocks = 8448, kThreads = 256;
    const uint32_t n = kBlocks * kThreads;
    std::vector<launch::Buffer> buffers(2);
    buffers[0].name = "g_in";
    buffers[0].bytes.resize(size_t(n) * 4);
    for (uint32_t i = 0; i < n; ++i) {
        const float x = float(i % 97);
        std::memcpy(buffers[0].bytes.data() + size_t(i) * 4, &x, 4);
    }
    buffers[1].name = "g_out";
    buffers[1].bytes.assign(size_t(n) * 4, 0);
    const std::vector<launch::KernelArg> args = {launch::KernelArg::pointer(0), launch::KernelArg::pointer(1),
                                                 launch::KernelArg::scalar(n)};
    launch::LaunchConfig launch;
    launch.grid = {kBlocks, 1, 1};
    launch.block = {kThreads, 1, 1};
    sim::Options options;
    options.schedule = sim::Schedule::RoundRobin;
    options.memory = memory;
    trace::Trace trace;
    const double t0 = now_ms();
    const sim::Result r =
        sim::simulate(runner::scenario_module(*s), v->kernel, launch, buffers, args, options, &trace);
    const double sim_ms = now_ms() - t0;
    if (r.status != trace::RunStatus::Ok) {
        std::printf("stencil/%s: the simulation ended %s: %s\n", variant_id, trace::to_string(r.status),
                    r.message.c_str());
        return;
    }
    std::vector<double> times;
    size_t findings = 0;
    for (uint32_t i = 0; i < reps; ++i) {
        const double a = now_ms();
        findings = analysis::analyze(trace).size();
        times.push_back(now_ms() - a);
    }
    std::printf("stencil/%s %u x %u, %s: %zu events (simulated in %.0f ms); analyze() median %.0f ms "
                "(%.1f M events/s), %zu findings\n",
                variant_id, kBlocks, kThreads, launch::to_string(memory), trace.events.size(), sim_ms,
                median(times), double(trace.events.size()) / median(times) / 1e3, findings);
}

void bench_own_words(uint32_t reps) {
    constexpr uint32_t kBlocks = 16384, kThreads = 256;
    const uint32_t threads = kBlocks * kThreads;
    analysis::testing::TraceBuilder b = synthetic(
        kBlocks, kThreads,
        {{10, 1, "st.global.u32 [%rd1], %r1"}, {11, 2, "ld.global.u32 %r2, [%rd1]"}, {12, 3, "ret"}},
        size_t(threads) * 3);
    for (uint32_t t = 0; t < threads; ++t)
        b.push(trace::EventKind::Store, t, 0, 0x100000000ull + 4ull * t, 0, kPlainGlobal);
    for (uint32_t t = 0; t < threads; ++t)
        b.push(trace::EventKind::Load, t, 1, 0x100000000ull + 4ull * t, 0, kPlainGlobal);
    for (uint32_t t = 0; t < threads; ++t)
        b.push(trace::EventKind::Exit, t, 2, 0, 0, kExitFlags);
    const trace::Trace& trace = b.trace();

    std::vector<double> times, global_times;
    size_t findings = 0;
    const double trace_rss = rss_mib();
    for (uint32_t i = 0; i < reps; ++i) {
        const double a = now_ms();
        findings = analysis::analyze(trace).size();
        times.push_back(now_ms() - a);
    }
    analysis::ShadowStats stats;
    for (uint32_t i = 0; i < reps; ++i) {
        const double a = now_ms();
        analysis::find_global_races(trace, {}, &stats);
        global_times.push_back(now_ms() - a);
    }
    struct rusage usage {};
    getrusage(RUSAGE_SELF, &usage);
    std::printf("4 M threads writing their own word: %zu events; analyze() median %.0f ms, %zu findings; "
                "find_global_races median %.0f ms; shadow %llu words, %.1f MiB, %.1f bytes/word "
                "(%llu words split); RSS with the trace %.0f MiB, peak %.0f MiB\n",
                trace.events.size(), median(times), findings, median(global_times),
                static_cast<unsigned long long>(stats.words), double(stats.bytes) / (1 << 20),
                double(stats.bytes) / double(std::max<uint64_t>(stats.words, 1)),
                static_cast<unsigned long long>(stats.split_words), trace_rss,
                double(usage.ru_maxrss) / 1024.0);
}

// The last-block reduction's synchronisation at scale (sync_order.h): 4,096 blocks x 256 threads
// each write their word; thread 0 of each block fences and takes a ticket (atomicInc); with
// `all_acquire` every block's thread 0 fences after its ticket too (each acquires every earlier
// release: the quadratic case), else only the last; the last block's thread 0 reads all the
// blocks' first words.
void bench_last_block(uint32_t reps, bool all_acquire) {
    constexpr uint32_t kBlocks = 4096, kThreads = 256;
    analysis::testing::TraceBuilder b = synthetic(kBlocks, kThreads,
                                                  {{10, 1, "st.global.u32 [%rd1], %r1"},
                                                   {11, 2, "membar.gl"},
                                                   {12, 3, "atom.global.inc.u32 %r2, [%rd2], 4095"},
                                                   {13, 4, "membar.gl"},
                                                   {14, 5, "ld.global.u32 %r3, [%rd3]"},
                                                   {15, 6, "ret"}},
                                                  size_t(kBlocks) * kThreads * 2 + 3 * kBlocks);
    auto push = [&](trace::EventKind kind, uint32_t thread, uint16_t site, uint64_t address, uint8_t flags) {
        b.push(kind, thread, site, address, 0, flags);
    };
    const uint8_t plain = kPlainGlobal;
    const uint8_t fence = trace::make_flags(trace::Space::Other, 1, false, trace::Scope::Device, true);
    const uint8_t atom = trace::make_flags(trace::Space::Global, 4, true, trace::Scope::Device);
    const uint64_t data = 0x100000000ull, counter = 0x200000000ull;
    for (uint32_t b = 0; b < kBlocks; ++b) {
        for (uint32_t t = 0; t < kThreads; ++t)
            push(trace::EventKind::Store, b * kThreads + t, 0, data + 4ull * (b * kThreads + t), plain);
        const uint32_t leader = b * kThreads;
        push(trace::EventKind::Fence, leader, 1, 0, fence);
        push(trace::EventKind::Atomic, leader, 2, counter, atom);
        if (all_acquire || b + 1 == kBlocks) push(trace::EventKind::Fence, leader, 3, 0, fence);
    }
    for (uint32_t b = 0; b < kBlocks; ++b)
        push(trace::EventKind::Load, (kBlocks - 1) * kThreads, 4, data + 4ull * b * kThreads, plain);
    for (uint32_t t = 0; t < kBlocks * kThreads; ++t)
        push(trace::EventKind::Exit, t, 5, 0, kExitFlags);
    const trace::Trace& trace = b.trace();
    std::vector<double> times;
    size_t findings = 0;
    for (uint32_t i = 0; i < reps; ++i) {
        const double a = now_ms();
        findings = analysis::analyze(trace).size();
        times.push_back(now_ms() - a);
    }
    struct rusage usage {};
    getrusage(RUSAGE_SELF, &usage);
    std::printf("last-block reduction, 4,096 x 256, %s: %zu events; analyze() median %.0f ms, %zu findings; "
                "peak RSS %.0f MiB\n",
                all_acquire ? "every block acquires" : "the last block acquires", trace.events.size(),
                median(times), findings, double(usage.ru_maxrss) / 1024.0);
}

// Atomic contention: 1 M threads (4,096 x 256) atomicAdd one counter, then write their own word:
// the synchronisation model's cost where every access is strong and nothing synchronises.
void bench_one_counter(uint32_t reps) {
    constexpr uint32_t kBlocks = 4096, kThreads = 256;
    const uint32_t n = kBlocks * kThreads;
    analysis::testing::TraceBuilder b = synthetic(
        kBlocks, kThreads,
        {{10, 1, "atom.global.add.u32 %r2, [%rd2], 1"}, {11, 2, "st.global.u32 [%rd1], %r2"}, {12, 3, "ret"}},
        size_t(n) * 3);
    for (uint32_t t = 0; t < n; ++t)
        b.push(trace::EventKind::Atomic, t, 0, 0x200000000ull, 1,
               trace::make_flags(trace::Space::Global, 4, true, trace::Scope::Device));
    for (uint32_t t = 0; t < n; ++t)
        b.push(trace::EventKind::Store, t, 1, 0x100000000ull + 4ull * t, 1, kPlainGlobal);
    for (uint32_t t = 0; t < n; ++t)
        b.push(trace::EventKind::Exit, t, 2, 0, 1, kExitFlags);
    const trace::Trace& trace = b.trace();
    std::vector<double> times;
    size_t findings = 0;
    for (uint32_t i = 0; i < reps; ++i) {
        const double a = now_ms();
        findings = analysis::analyze(trace).size();
        times.push_back(now_ms() - a);
    }
    std::printf(
        "1 M threads atomicAdd one counter, then write their word: %zu events; analyze() median %.0f ms, "
        "%zu findings\n",
        trace.events.size(), median(times), findings);
}

// Warp edges at scale (happens_before.h, "Warp edges"): 4,096 blocks x 1,024 threads each
// __syncwarp() and then read one word every thread reads (a broadcast parameter), in reverse
// thread order; the readers' sync counts (ReaderSyncs) are kept per block.
void bench_synced_broadcast(uint32_t reps) {
    constexpr uint32_t kBlocks = 4096, kThreads = 1024;
    const uint32_t n = kBlocks * kThreads;
    analysis::testing::TraceBuilder b = synthetic(
        kBlocks, kThreads,
        {{10, 1, "bar.warp.sync -1"}, {11, 2, "ld.global.u32 %r2, [%rd1]"}, {12, 3, "ret"}}, size_t(n) * 3);
    for (uint32_t t = 0; t < n; ++t)
        b.push(trace::EventKind::WarpCollective, t, 0, (uint64_t(trace::kNoLane) << 32) | 0xffffffffu, 0,
               static_cast<uint8_t>(trace::Collective::WarpSync));
    for (uint32_t t = n; t-- > 0;)
        b.push(trace::EventKind::Load, t, 1, 0x100000000ull, 0, kPlainGlobal);
    for (uint32_t t = 0; t < n; ++t)
        b.push(trace::EventKind::Exit, t, 2, 0, 0, kExitFlags);
    const trace::Trace& trace = b.trace();
    std::vector<double> times;
    size_t findings = 0;
    analysis::ShadowStats stats;
    const double trace_rss = rss_mib();
    for (uint32_t i = 0; i < reps; ++i) {
        const double a = now_ms();
        findings = analysis::find_global_races(trace, {}, &stats).size();
        times.push_back(now_ms() - a);
    }
    struct rusage usage {};
    getrusage(RUSAGE_SELF, &usage);
    std::printf("4 M threads __syncwarp() then read one word: %zu events; find_global_races median %.0f ms, "
                "%zu findings; shadow %.1f MiB; RSS with the trace %.0f MiB, peak %.0f MiB\n",
                trace.events.size(), median(times), findings, double(stats.bytes) / (1 << 20), trace_rss,
                double(usage.ru_maxrss) / 1024.0);
}

} // namespace

int main(int argc, char** argv) {
    uint32_t reps = 3;
    std::string only; // --only NAME: one bench alone (its peak RSS is then its own)
    for (int i = 1; i + 1 < argc; ++i) {
        if (std::strcmp(argv[i], "--reps") == 0) reps = uint32_t(std::max(1, std::atoi(argv[i + 1])));
        if (std::strcmp(argv[i], "--only") == 0) only = argv[i + 1];
    }
    const std::vector<std::pair<const char*, void (*)(uint32_t)>> benches = {
        {"stencil",
         [](uint32_t n) {
             bench_stencil("missing_barrier", n);
             bench_stencil("correct", n);
             // A relaxed trace is checked for reads that break the model (sync_order.h): its cost.
             bench_stencil("correct", n, launch::MemoryModel::Relaxed);
         }},
        {"own_words", bench_own_words},
        {"last_block",
         [](uint32_t n) {
             bench_last_block(n, false);
             bench_last_block(n, true);
         }},
        {"one_counter", bench_one_counter},
        {"synced_broadcast", bench_synced_broadcast},
    };
    bool ran = false;
    for (const auto& [name, bench] : benches) {
        if (!only.empty() && only != name) continue;
        bench(reps);
        ran = true;
    }
    if (!ran) {
        std::fprintf(stderr,
                     "analysis_bench: no bench named '%s' (stencil, own_words, last_block, one_counter, "
                     "synced_broadcast)\n",
                     only.c_str());
        return 2;
    }
    return 0;
}
