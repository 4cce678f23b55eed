// Checking a real kernel at its real size: the tiled matrix product of tests/corpus/kernels
// (tiled_matmul.cu, the shape of GPUVerify's mxm_amp_tiled benchmark) at its own launch, 16 x 16
// blocks of 16 x 16 threads, 42 million events, run and analysed as `synclab check` does, clean and
// without its first barrier (racy). Three ways: the whole trace kept then analysed (what
// `check --out` and the app do; it needs --max-memory 8G), and analysing as the run goes
// (analysis/streamed.h, what `check` does by default) with one worker thread and with one per
// spare core. Figures printed as counters: peak resident bytes of the run (VmHWM, reset before
// each iteration), events, findings, warp-instructions/s. Run with --benchmark_repetitions=5 for
// medians; compare with `compute-sanitizer --tool racecheck` on the same kernel (docs/PERF_NOTES.md).
//
// BM_GpuArrival is the runner's half of `check --backend gpu` on the same kernel: the simulator's
// whole trace, laid out as a GPU worker sends it (each warp's events in program order, a batch of
// whole blocks at a time, gpu::BlockEvents), received, analysed as it arrives and then analysed
// whole-grid, as gpu::launch and the runner do. What it times is the host's share of a GPU check
// (the device and the socket are not in it); `scripts/gpu_session.sh scale` gives the whole.
#include "analysis/findings.h"
#include "analysis/streamed.h"
#include "gpu/block_receiver.h"
#include "gpu/gpu_run.h"
#include "gpu/protocol.h"
#include "trace/trace_buffer.h"
#include "ptx/parser.h"
#include "sim/simulator.h"

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstring>
#include <fstream>
#include <map>
#include <optional>
#include <random>
#include <sstream>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

namespace {

using namespace synclab;

// Peak resident bytes since the last reset_peak() (VmHWM of /proc/self/status).
uint64_t peak_resident_bytes() {
    std::ifstream status("/proc/self/status");
    for (std::string line; std::getline(status, line);)
        if (line.rfind("VmHWM:", 0) == 0) return std::stoull(line.substr(6)) * 1024;
    return 0;
}

// Writing 5 to clear_refs resets VmHWM to the current resident size (Linux 4.0+).
void reset_peak() {
    std::ofstream("/proc/self/clear_refs") << "5";
}

const ptx::Module& module(const std::string& name) {
    static std::map<std::string, ptx::Module> modules;
    auto it = modules.find(name);
    if (it == modules.end()) {
        const std::string path = std::string(SYNCLAB_SOURCE_DIR) + "/tests/corpus/kernels/" + name + ".ptx";
        std::ifstream in(path);
        std::stringstream text;
        text << in.rdbuf();
        it = modules.emplace(name, ptx::parse_module(text.str(), path)).first;
    }
    return it->second;
}

std::vector<launch::Buffer> matmul_inputs() {
    std::vector<launch::Buffer> inputs(3);
    std::mt19937 random(7);
    for (size_t b = 0; b < 3; ++b) {
        inputs[b].name = std::string(1, char('a' + b));
        inputs[b].bytes.assign(256 * 256 * 4, 0);
        for (size_t i = 0; b < 2 && i < inputs[b].bytes.size(); i += 4) {
            const float v = float(random() % 100);
            std::memcpy(&inputs[b].bytes[i], &v, 4);
        }
    }
    return inputs;
}

std::vector<launch::KernelArg> matmul_args() {
    std::vector<launch::KernelArg> args(3);
    for (uint32_t b = 0; b < 3; ++b) {
        args[b].kind = launch::KernelArg::Kind::Buffer;
        args[b].buffer = b;
    }
    return args;
}

launch::LaunchConfig matmul_launch() {
    launch::LaunchConfig config;
    config.grid = {16, 16, 1};
    config.block = {16, 16, 1};
    return config;
}

constexpr const char* kMatmulKernel = "_Z12tiled_matmulPKfS0_Pf";

// 0: the whole trace; otherwise analysing as the run goes with that many workers (~0u: the default).
void BM_CheckScale(benchmark::State& state, const std::string& kernel_file, unsigned workers) {
    const std::vector<launch::Buffer> inputs = matmul_inputs();
    const std::vector<launch::KernelArg> args = matmul_args();
    const launch::LaunchConfig config = matmul_launch();
    uint64_t warp_instr = 0, events = 0, findings = 0, peak = 0;
    for (auto _ : state) {
        state.PauseTiming();
        std::vector<launch::Buffer> buffers = inputs;
        reset_peak();
        state.ResumeTiming();
        sim::Options o;
        o.schedule = sim::Schedule::Random;
        o.max_memory_bytes = workers == 0 ? 8ull << 30 : 2ull << 30;
        o.max_events = 100'000'000;
        std::optional<analysis::StreamedAnalysis> stream;
        if (workers != 0) o.block_sink = &stream.emplace(workers == ~0u ? 0 : workers);
        trace::Trace trace;
        const sim::Result r =
            sim::simulate(module(kernel_file), kMatmulKernel, config, buffers, args, o, &trace);
        if (r.status != trace::RunStatus::Ok) {
            state.SkipWithError(r.message.c_str());
            return;
        }
        analysis::Options options;
        if (stream) {
            stream->finish();
            options.streamed = &*stream;
        }
        findings = analysis::analyze(trace, options).size();
        warp_instr += r.warp_instructions;
        events = trace.events.size() + r.dropped_events;
        peak = std::max(peak, peak_resident_bytes());
    }
    state.counters["warp_instr/s"] = benchmark::Counter(double(warp_instr), benchmark::Counter::kIsRate);
    state.counters["events"] = double(events);
    state.counters["findings"] = double(findings);
    state.counters["peak_MB"] = double(peak) / (1 << 20);
}

// The kernel's whole trace as a GPU worker sends it: batches of whole blocks, each warp's events
// one after the other (built once per kernel).
struct Arrival {
    trace::Trace recording; // grid, block, threads, sites, memory
    std::vector<gpu::BlockEvents> batches;
    uint64_t events = 0; // in the batches
};

const Arrival& arrival(const std::string& kernel_file) {
    static std::map<std::string, Arrival> cache;
    auto it = cache.find(kernel_file);
    if (it != cache.end()) return it->second;
    Arrival& a = cache[kernel_file];
    std::vector<launch::Buffer> buffers = matmul_inputs();
    sim::Options o;
    o.schedule = sim::Schedule::Random;
    o.max_memory_bytes = 8ull << 30;
    o.max_events = 100'000'000;
    trace::Trace whole;
    sim::simulate(module(kernel_file), kMatmulKernel, matmul_launch(), buffers, matmul_args(), o, &whole);
    const uint64_t per_block = whole.meta.block.count(), wpb = (per_block + 31) / 32;
    const uint64_t warps = whole.meta.grid.count() * wpb;
    std::vector<std::vector<trace::Event>> by_warp(warps);
    for (const trace::Event& e : whole.events)
        by_warp[e.thread / per_block * wpb + e.thread % per_block / 32].push_back(e);
    std::vector<uint64_t> counts(warps);
    for (uint64_t w = 0; w < warps; ++w)
        counts[w] = by_warp[w].size();
    for (const trace::BlockBatch& b :
         trace::block_batches(counts, whole.meta.grid.count(), uint32_t(wpb), gpu::kBlockEventsTarget)) {
        gpu::BlockEvents batch;
        batch.first_block = b.first_block;
        batch.blocks = b.blocks;
        for (uint64_t w = b.first_block * wpb; w < (b.first_block + b.blocks) * wpb; ++w)
            batch.events.insert(batch.events.end(), by_warp[w].begin(), by_warp[w].end());
        a.batches.push_back(std::move(batch));
    }
    a.events = whole.events.size();
    whole.events.clear();
    whole.events.shrink_to_fit();
    a.recording = std::move(whole);
    return a;
}

void BM_GpuArrival(benchmark::State& state, const std::string& kernel_file) {
    const Arrival& a = arrival(kernel_file);
    uint64_t events = 0, findings = 0;
    // Where the time goes, summed over iterations: receiving (the batches handed to the analysis
    // threads, waiting where they are all busy), merging the kept events by time, waiting for the
    // last batches, the whole-grid analyses.
    double receive = 0, merge = 0, finish = 0, whole_grid = 0;
    using Clock = std::chrono::steady_clock;
    auto ms = [](Clock::time_point a, Clock::time_point b) {
        return std::chrono::duration<double, std::milli>(b - a).count();
    };
    for (auto _ : state) {
        state.PauseTiming();
        std::vector<gpu::BlockEvents> batches = a.batches; // (the socket's bytes, decoded)
        state.ResumeTiming();
        const auto t0 = Clock::now();
        // as the runner's GPU side
        analysis::StreamedAnalysis stream(analysis::StreamedAnalysis::spare_cores(),
                                          analysis::StreamedAnalysis::spare_cores());
        gpu::BlockEventsReceiver receiver(stream, a.recording, a.events);
        for (gpu::BlockEvents& b : batches)
            receiver.take(std::move(b));
        const auto t1 = Clock::now();
        trace::Trace trace;
        trace.meta = a.recording.meta;
        trace.sites = a.recording.sites;
        trace.memory = a.recording.memory;
        trace.threads = gpu::thread_table(trace.meta.grid, trace.meta.block, receiver.ends(), {}, true);
        trace.events = std::move(receiver.kept());
        trace::merge_by_time(trace.events);
        const auto t2 = Clock::now();
        stream.finish();
        const auto t3 = Clock::now();
        analysis::Options options;
        options.streamed = &stream;
        findings = analysis::analyze(trace, options).size();
        const auto t4 = Clock::now();
        events = receiver.received();
        receive += ms(t0, t1);
        merge += ms(t1, t2);
        finish += ms(t2, t3);
        whole_grid += ms(t3, t4);
    }
    const double n = double(std::max<benchmark::IterationCount>(state.iterations(), 1));
    state.counters["receive_ms"] = receive / n;
    state.counters["merge_ms"] = merge / n;
    state.counters["finish_ms"] = finish / n;
    state.counters["analyses_ms"] = whole_grid / n;
    state.counters["events"] = double(events);
    state.counters["findings"] = double(findings);
    state.counters["events/s"] = benchmark::Counter(double(events) * state.iterations(), benchmark::Counter::kIsRate);
}

// A sink that analyses nothing: it keeps what StreamedAnalysis keeps and gives each batch's vector
// back for the next (BM_GpuReceive).
class DiscardingSink final : public trace::BlockSink {
  public:
    void take(const trace::Trace&, trace::FinishedBlocks batch) override {
        batch.events.clear();
        spare_ = std::move(batch.events);
    }
    bool drops(const trace::Event& e) const override { return analysis::StreamedAnalysis::dropped(e); }
    void keep(const std::vector<trace::Event>& events, std::vector<trace::Event>& kept) const override {
        for (const trace::Event& e : events)
            if (!analysis::StreamedAnalysis::dropped(e)) kept.push_back(e);
    }
    std::vector<trace::Event> spare_events() override { return std::move(spare_); }

  private:
    std::vector<trace::Event> spare_;
};

// The runner's receiver alone (gpu::BlockEventsReceiver::take of every batch of the matrix
// product, then the kept events merged by time), with a sink that analyses nothing: what a GPU
// check costs the runner beside its analyses, where enough cores analyse the batches as they come.
void BM_GpuReceive(benchmark::State& state) {
    const Arrival& a = arrival("tiled_matmul");
    double receive = 0, merge = 0;
    using Clock = std::chrono::steady_clock;
    for (auto _ : state) {
        state.PauseTiming();
        std::vector<gpu::BlockEvents> batches = a.batches;
        state.ResumeTiming();
        const auto t0 = Clock::now();
        DiscardingSink sink;
        gpu::BlockEventsReceiver receiver(sink, a.recording, a.events);
        for (gpu::BlockEvents& b : batches)
            receiver.take(std::move(b));
        const auto t1 = Clock::now();
        std::vector<trace::Event> kept = std::move(receiver.kept());
        trace::merge_by_time(kept);
        const auto t2 = Clock::now();
        receive += std::chrono::duration<double, std::milli>(t1 - t0).count();
        merge += std::chrono::duration<double, std::milli>(t2 - t1).count();
        benchmark::DoNotOptimize(kept.data());
    }
    const double n = double(std::max<benchmark::IterationCount>(state.iterations(), 1));
    state.counters["receive_ms"] = receive / n;
    state.counters["merge_ms"] = merge / n;
}

// The socket between the GPU worker and the runner, alone: the matrix product's 42 M events (1.3 GB)
// written batch by batch by a thread as the worker writes them, read and decoded on this one as
// gpu::Worker::run reads them, each batch then dropped (what the analyses do with it is
// BM_GpuArrival's). Counter: GB/s of events through.
void BM_BlockEventsTransport(benchmark::State& state) {
    const Arrival& a = arrival("tiled_matmul");
    uint64_t bytes = 0;
    for (auto _ : state) {
        int fds[2];
        if (socketpair(AF_UNIX, SOCK_STREAM, 0, fds) != 0) {
            state.SkipWithError("socketpair failed");
            return;
        }
        std::thread writer([&] {
            for (const gpu::BlockEvents& b : a.batches)
                gpu::write_block_events(fds[1], b);
            close(fds[1]);
        });
        gpu::MessageType type{};
        std::string payload;
        for (;;) {
            gpu::BlockEvents b;
            if (gpu::read_message(fds[0], type, payload, std::chrono::steady_clock::time_point::max(), &b) !=
                gpu::ReadStatus::Ok)
                break;
            bytes += b.events.size() * sizeof(trace::Event);
            benchmark::DoNotOptimize(b.events.data());
        }
        writer.join();
        close(fds[0]);
    }
    state.counters["GB/s"] = benchmark::Counter(double(bytes) / 1e9, benchmark::Counter::kIsRate);
}

BENCHMARK(BM_BlockEventsTransport)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_GpuReceive)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_GpuArrival, clean, std::string("tiled_matmul"))->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_GpuArrival, racy, std::string("tiled_matmul_racy"))->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_CheckScale, clean_whole, std::string("tiled_matmul"), 0u)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_CheckScale, clean_streamed_1, std::string("tiled_matmul"), 1u)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_CheckScale, clean_streamed, std::string("tiled_matmul"), ~0u)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_CheckScale, racy_whole, std::string("tiled_matmul_racy"), 0u)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_CheckScale, racy_streamed_1, std::string("tiled_matmul_racy"), 1u)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_CheckScale, racy_streamed, std::string("tiled_matmul_racy"), ~0u)->Unit(benchmark::kMillisecond)->UseRealTime();

} // namespace

BENCHMARK_MAIN();
