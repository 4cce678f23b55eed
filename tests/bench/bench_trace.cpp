// Benchmarks of the trace library: .slt save / load of a synthetic 10 M event trace (through the
// page cache under /tmp, plus the in-memory serialize / deserialize that exclude the file system),
// and the Chrome JSON export of 1 M events. Figures only; nothing here asserts on time.
//
// Counters: bytes_per_second (file bytes), events/s, and bytes_per_event (file or JSON bytes / event).
// On a small VM, first-touch page faults of fresh memory (the loaded Trace's 320 MB, the kernel's
// page cache for the written file) dominate; the format itself (memcpy + checksum) is far faster.
#include "trace/chrome_export.h"
#include "trace/slt_file.h"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <ostream>
#include <streambuf>
#include <string>

namespace {

using namespace synclab::trace;

constexpr size_t kSltEvents = 10'000'000;
constexpr size_t kChromeEvents = 1'000'000;
const std::string kSltPath = "/tmp/synclab_bench_trace.slt";
const std::string kJsonPath = "/tmp/synclab_bench_trace.json";

// A trace shaped like a simulator run: 256 blocks of 256 threads, each thread loading, storing and
// meeting a barrier in turn, events in execution order (warp by warp), 24 sites with PTX text.
Trace make_trace(size_t event_count) {
    Trace t;
    t.meta.scenario = "bench";
    t.meta.kernel = "_Z7stencilPfPKf";
    t.meta.backend = "sim";
    t.meta.device = "SyncLab simulator";
    t.meta.schedule = "rr";
    t.meta.memory_model = "sc";
    t.meta.grid = {256, 1, 1};
    t.meta.block = {256, 1, 1};
    t.meta.source_text = std::string(4000, 'x');
    t.meta.ptx_text = std::string(20000, 'y');
    for (uint32_t i = 0; i < 24; ++i) {
        t.sites.push_back({100 + i, 10 + i, "st.shared.f32 [%r" + std::to_string(i) + "+4], %f13;"});
    }
    const uint32_t threads = t.meta.grid.x * t.meta.block.x;
    t.threads.reserve(threads);
    for (uint32_t i = 0; i < threads; ++i) {
        ThreadInfo ti;
        ti.block = i / 256;
        ti.thread_in_block = i % 256;
        ti.warp = uint16_t(ti.thread_in_block / 32);
        ti.lane = uint8_t(i % 32);
        ti.sm = uint16_t(ti.block % 8);
        ti.end_site = 23;
        t.threads.push_back(ti);
    }
    t.events.reserve(event_count);
    static constexpr EventKind kCycle[] = {
        EventKind::Load,         EventKind::Load, EventKind::Store,  EventKind::BarrierArrive,
        EventKind::BarrierLeave, EventKind::Load, EventKind::Atomic, EventKind::Fence};
    const uint8_t shared4 = make_flags(Space::Shared, 4);
    for (size_t i = 0; i < event_count; ++i) {
        // 32 consecutive events: one warp instruction (32 lanes); warps take turns.
        const size_t warp_step = i / 32;
        const uint32_t warp = uint32_t(warp_step % (threads / 32));
        const size_t round = warp_step / (threads / 32);
        Event e;
        e.thread = warp * 32 + uint32_t(i % 32);
        e.kind = kCycle[round % 8];
        e.time = warp_step;
        e.address = e.kind == EventKind::BarrierArrive || e.kind == EventKind::BarrierLeave
                        ? 0
                        : (e.thread % 256) * 4;
        e.value = uint32_t(i * 2654435761u);
        e.site = uint16_t(round % 24);
        e.flags = shared4;
        t.events.push_back(e);
    }
    return t;
}

const Trace& big_trace() {
    static const Trace trace = make_trace(kSltEvents);
    return trace;
}

const Trace& chrome_trace() {
    static const Trace trace = make_trace(kChromeEvents);
    return trace;
}

void set_counters(benchmark::State& state, uint64_t bytes, uint64_t events) {
    state.SetBytesProcessed(int64_t(bytes) * state.iterations());
    state.SetItemsProcessed(int64_t(events) * state.iterations());
    state.counters["events/s"] =
        benchmark::Counter(double(events), benchmark::Counter::kIsIterationInvariantRate);
    state.counters["bytes_per_event"] = benchmark::Counter(double(bytes) / double(events));
    state.counters["file_MB"] = benchmark::Counter(double(bytes) / 1e6);
}

// A new file (the previous one is removed outside the timing).
void BM_SltSave(benchmark::State& state) {
    const Trace& trace = big_trace();
    for (auto _ : state) {
        state.PauseTiming();
        std::remove(kSltPath.c_str());
        state.ResumeTiming();
        save_trace(trace, kSltPath, {.durable = false});
    }
    set_counters(state, slt_file_size(trace), trace.events.size());
}
BENCHMARK(BM_SltSave)->Unit(benchmark::kMillisecond)->UseRealTime();

// Replacing an existing file: the kernel also frees the old file's page cache in the rename.
void BM_SltSaveOverwrite(benchmark::State& state) {
    const Trace& trace = big_trace();
    save_trace(trace, kSltPath, {.durable = false});
    for (auto _ : state)
        save_trace(trace, kSltPath, {.durable = false});
    set_counters(state, slt_file_size(trace), trace.events.size());
}
BENCHMARK(BM_SltSaveOverwrite)->Unit(benchmark::kMillisecond)->UseRealTime();

// With fsync: includes the disk, so it says more about the machine than about the format.
void BM_SltSaveDurable(benchmark::State& state) {
    const Trace& trace = big_trace();
    for (auto _ : state)
        save_trace(trace, kSltPath, {.durable = true});
    set_counters(state, slt_file_size(trace), trace.events.size());
}
BENCHMARK(BM_SltSaveDurable)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);

void BM_SltLoad(benchmark::State& state) {
    const Trace& trace = big_trace();
    save_trace(trace, kSltPath, {.durable = false});
    for (auto _ : state) {
        Trace loaded = load_trace(kSltPath);
        benchmark::DoNotOptimize(loaded.events.data());
    }
    set_counters(state, slt_file_size(trace), trace.events.size());
}
BENCHMARK(BM_SltLoad)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_SltSerializeInMemory(benchmark::State& state) {
    const Trace& trace = big_trace();
    for (auto _ : state) {
        std::vector<uint8_t> bytes = serialize(trace);
        benchmark::DoNotOptimize(bytes.data());
    }
    set_counters(state, slt_file_size(trace), trace.events.size());
}
BENCHMARK(BM_SltSerializeInMemory)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_SltDeserializeInMemory(benchmark::State& state) {
    const Trace& trace = big_trace();
    const std::vector<uint8_t> bytes = serialize(trace);
    for (auto _ : state) {
        Trace loaded = deserialize(bytes, "bench");
        benchmark::DoNotOptimize(loaded.events.data());
    }
    set_counters(state, bytes.size(), trace.events.size());
}
BENCHMARK(BM_SltDeserializeInMemory)->Unit(benchmark::kMillisecond)->UseRealTime();

// A stream that only counts: measures the exporter, not the file system.
class CountingBuf : public std::streambuf {
  public:
    uint64_t count = 0;

  protected:
    std::streamsize xsputn(const char*, std::streamsize n) override {
        count += uint64_t(n);
        return n;
    }
    int_type overflow(int_type c) override {
        ++count;
        return traits_type::not_eof(c);
    }
};

void BM_ChromeExport(benchmark::State& state) {
    const Trace& trace = chrome_trace();
    uint64_t bytes = 0;
    for (auto _ : state) {
        CountingBuf buf;
        std::ostream out(&buf);
        export_chrome_json(trace, out);
        bytes = buf.count;
    }
    set_counters(state, bytes, trace.events.size());
}
BENCHMARK(BM_ChromeExport)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_ChromeExportFile(benchmark::State& state) {
    const Trace& trace = chrome_trace();
    for (auto _ : state)
        export_chrome_json(trace, kJsonPath);
    uint64_t bytes = 0;
    if (FILE* f = std::fopen(kJsonPath.c_str(), "rb")) {
        std::fseek(f, 0, SEEK_END);
        bytes = uint64_t(std::ftell(f));
        std::fclose(f);
    }
    set_counters(state, bytes, trace.events.size());
}
BENCHMARK(BM_ChromeExportFile)->Unit(benchmark::kMillisecond)->UseRealTime();

} // namespace

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    std::remove(kSltPath.c_str());
    std::remove(kJsonPath.c_str());
    return 0;
}
