// Benchmarks of the contention heatmap's CPU side over synthetic timed traces of 1 M and 10 M atomic
// events: (a) building the index once per record (ContentionIndex::build: reads the trace, sorts by
// issue cycle, fills the fine histogram) and (b) one zoom or pan frame: re-binning the range in view
// into the columns the view draws (ContentionIndex::bin), which is the grid the renderer uploads
// (32 rows x 512 floats = 64 KB, one glTexImage2D). A frame that changes nothing re-bins nothing
// (HeatmapView keeps its grid by key). Figures only; nothing asserts on time.
//
//   bench_heatmap --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
//
// zoom: 1 = the whole run in view, 100 = 1 % of it, 10000 = 0.01 % (few events: the exact path).
#include "ui/core/heatmap_model.h"

#include <benchmark/benchmark.h>

#include <map>
#include <memory>
#include <random>

namespace {

using namespace synclab;

// Shaped like a cost-model run of a histogram kernel: 2,048 blocks of 256 threads, each thread a few
// atomics; 1 in 4 goes to one of 8 hot bins, the rest spread over 4,096 addresses. Issue cycles
// advance per warp (so the trace is not in issue order: build() must sort), latencies and queue
// depths grow with how hot the address is.
const trace::Trace& make_trace(size_t events) {
    static std::map<size_t, std::unique_ptr<trace::Trace>> cache;
    auto& slot = cache[events];
    if (slot) return *slot;
    slot = std::make_unique<trace::Trace>();
    trace::Trace& t = *slot;
    t.threads = trace::thread_layout(trace::Dim3{2048, 1, 1}, trace::Dim3{256, 1, 1});
    t.events.reserve(events);
    t.timing.reserve(events);
    std::mt19937_64 rng(42);
    std::vector<uint64_t> warp_clock(t.threads.size() / 32, 0);
    for (size_t i = 0; i < events; ++i) {
        const uint32_t thread = uint32_t(rng() % t.threads.size());
        const bool hot = rng() % 4 == 0;
        trace::Event e;
        e.kind = trace::EventKind::Atomic;
        e.thread = thread;
        e.address = hot ? 0x1000 + (rng() % 8) * 4 : 0x8000 + (rng() % 4096) * 4;
        e.time = i;
        e.flags = trace::make_flags(trace::Space::Global, 4);
        t.events.push_back(e);
        uint64_t& clock = warp_clock[thread / 32];
        const uint32_t depth = hot ? uint32_t(rng() % 200) : uint32_t(rng() % 3);
        clock += 4 + rng() % 8;
        t.timing.push_back(trace::EventTiming{clock, 300 + depth * 40, depth});
    }
    return t;
}

void BM_HeatmapBuild(benchmark::State& state) {
    const trace::Trace& t = make_trace(size_t(state.range(0)));
    for (auto _ : state) {
        ui::ContentionIndex idx;
        idx.build(t);
        benchmark::DoNotOptimize(idx.rows().data());
    }
    state.counters["events"] = double(t.events.size());
}

void BM_HeatmapZoomFrame(benchmark::State& state) {
    const trace::Trace& t = make_trace(size_t(state.range(0)));
    ui::ContentionIndex idx;
    idx.build(t);
    const double zoom = double(state.range(1));
    const double span = double(idx.t_end() - idx.t_begin()) / zoom;
    const double mid = double(idx.t_begin()) + double(idx.t_end() - idx.t_begin()) * 0.5;
    uint64_t frame = 0, cells = 0;
    for (auto _ : state) {
        // A pan of a few pixels per frame: a new range every time, so every frame re-bins.
        const double t0 = mid - span * 0.5 + double(frame++ % 64) * span / 512;
        const ui::HeatGrid g = idx.bin(t0, t0 + span, 512, ui::ContentionValue::Operations);
        cells = g.values.size();
        benchmark::DoNotOptimize(g.values.data());
    }
    state.counters["cells"] = double(cells);
    state.counters["rows"] = double(idx.rows().size());
}

} // namespace

BENCHMARK(BM_HeatmapBuild)->Arg(1'000'000)->Arg(10'000'000)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_HeatmapZoomFrame)
    ->Args({1'000'000, 1})
    ->Args({1'000'000, 100})
    ->Args({1'000'000, 10000})
    ->Args({10'000'000, 1})
    ->Args({10'000'000, 100})
    ->Args({10'000'000, 10000})
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_MAIN();
