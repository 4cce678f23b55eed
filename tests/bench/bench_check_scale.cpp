// Checking a real kernel at its real size: the tiled matrix product of tests/corpus/kernels
// (tiled_matmul.cu, the shape of GPUVerify's mxm_amp_tiled benchmark) at its own launch, 16 x 16
// blocks of 16 x 16 threads, 42 million events, run and analysed as `synclab check` does, clean and
// without its first barrier (racy). Three ways: the whole trace kept then analysed (what
// `check --out` and the app do; it needs --max-memory 8G), and analysing as the run goes
// (analysis/streamed.h, what `check` does by default) with one worker thread and with one per
// spare core. Figures printed as counters: peak resident bytes of the run (VmHWM, reset before
// each iteration), events, findings, warp-instructions/s. Run with --benchmark_repetitions=5 for
// medians; compare with `compute-sanitizer --tool racecheck` on the same kernel (docs/PERF_NOTES.md).
#include "analysis/findings.h"
#include "analysis/streamed.h"
#include "ptx/parser.h"
#include "sim/simulator.h"

#include <benchmark/benchmark.h>

#include <cstring>
#include <fstream>
#include <map>
#include <optional>
#include <random>
#include <sstream>
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

// 0: the whole trace; otherwise analysing as the run goes with that many workers (~0u: the default).
void BM_CheckScale(benchmark::State& state, const std::string& kernel_file, unsigned workers) {
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
    std::vector<launch::KernelArg> args(3);
    for (uint32_t b = 0; b < 3; ++b) {
        args[b].kind = launch::KernelArg::Kind::Buffer;
        args[b].buffer = b;
    }
    launch::LaunchConfig config;
    config.grid = {16, 16, 1};
    config.block = {16, 16, 1};
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
            sim::simulate(module(kernel_file), "_Z12tiled_matmulPKfS0_Pf", config, buffers, args, o, &trace);
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

BENCHMARK_CAPTURE(BM_CheckScale, clean_whole, std::string("tiled_matmul"), 0u)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_CheckScale, clean_streamed_1, std::string("tiled_matmul"), 1u)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_CheckScale, clean_streamed, std::string("tiled_matmul"), ~0u)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_CheckScale, racy_whole, std::string("tiled_matmul_racy"), 0u)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_CheckScale, racy_streamed_1, std::string("tiled_matmul_racy"), 1u)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_CheckScale, racy_streamed, std::string("tiled_matmul_racy"), ~0u)->Unit(benchmark::kMillisecond)->UseRealTime();

} // namespace

BENCHMARK_MAIN();
