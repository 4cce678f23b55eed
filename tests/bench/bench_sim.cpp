// Simulator throughput: thread-instructions/s and warp-instructions/s, tracing on and off, on a
// converged kernel (stencil, 64 blocks x 256 threads) and a divergent one (per-thread loop trip
// counts and branches, tests/sim/data/sim_kernels.cu: divergent_loops). Figures are printed as
// counters; run with --benchmark_repetitions=5 for medians (scripts/bench.sh does).
#include "ptx/parser.h"
#include "runner/runner.h"
#include "scenario/scenario.h"
#include "sim/simulator.h"

#include <benchmark/benchmark.h>

#include <fstream>
#include <sstream>

namespace {

using namespace synclab;

void report(benchmark::State& state, uint64_t thread_instr, uint64_t warp_instr, uint64_t events) {
    state.counters["thread_instr/s"] = benchmark::Counter(double(thread_instr), benchmark::Counter::kIsRate);
    state.counters["warp_instr/s"] = benchmark::Counter(double(warp_instr), benchmark::Counter::kIsRate);
    state.counters["events/run"] = benchmark::Counter(double(events) / double(state.iterations()));
    state.counters["lanes/warp_instr"] = double(thread_instr) / double(std::max<uint64_t>(warp_instr, 1));
}

void BM_Stencil(benchmark::State& state) {
    const bool traced = state.range(0) != 0;
    const scenario::Scenario& s = *scenario::find_scenario("stencil");
    const scenario::Variant& v = *s.find_variant("correct");
    const ptx::Module& module = runner::scenario_module(s);
    const scenario::Inputs inputs = s.make_inputs(1);
    sim::Options o;
    o.schedule = sim::Schedule::RoundRobin;
    o.record_trace = traced;
    launch::LaunchConfig launch = s.launch;
    launch.grid = {64, 1, 1};
    launch.block = {256, 1, 1};
    uint64_t ti = 0, wi = 0, ev = 0;
    for (auto _ : state) {
        std::vector<launch::Buffer> buffers = inputs.buffers;
        // The scenario's buffers are sized for its own launch; grow them for 64 x 256 if needed.
        for (launch::Buffer& b : buffers)
            b.bytes.resize(std::max<size_t>(b.bytes.size(), 64 * 256 * 4));
        trace::Trace t;
        std::vector<launch::KernelArg> args = inputs.args;
        for (launch::KernelArg& a : args)
            if (a.kind == launch::KernelArg::Kind::Scalar) a.bits = 64 * 256; // n
        const sim::Result r = sim::simulate(module, v.kernel, launch, buffers, args, o, &t);
        if (r.status != trace::RunStatus::Ok) state.SkipWithError(r.message.c_str());
        ti += r.thread_instructions;
        wi += r.warp_instructions;
        ev += t.events.size();
    }
    report(state, ti, wi, ev);
}
BENCHMARK(BM_Stencil)->Arg(0)->Arg(1)->ArgName("traced")->Unit(benchmark::kMillisecond);

void BM_Divergent(benchmark::State& state) {
    const bool traced = state.range(0) != 0;
    std::ifstream in(std::string(SYNCLAB_SOURCE_DIR) + "/tests/sim/data/sim_kernels.ptx");
    std::stringstream ss;
    ss << in.rdbuf();
    const ptx::Module module = ptx::parse_module(ss.str(), "sim_kernels.ptx");
    sim::Options o;
    o.schedule = sim::Schedule::RoundRobin;
    o.record_trace = traced;
    launch::LaunchConfig launch;
    launch.grid = {64, 1, 1};
    launch.block = {256, 1, 1};
    uint64_t ti = 0, wi = 0, ev = 0;
    for (auto _ : state) {
        std::vector<launch::Buffer> buffers(1);
        buffers[0].bytes.resize(64 * 256 * 4);
        trace::Trace t;
        const sim::Result r =
            sim::simulate(module, "divergent_loops", launch, buffers, {launch::KernelArg::pointer(0)}, o, &t);
        if (r.status != trace::RunStatus::Ok) state.SkipWithError(r.message.c_str());
        ti += r.thread_instructions;
        wi += r.warp_instructions;
        ev += t.events.size();
    }
    report(state, ti, wi, ev);
}
BENCHMARK(BM_Divergent)->Arg(0)->Arg(1)->ArgName("traced")->Unit(benchmark::kMillisecond);

// PTX parsing of every kernel the catalog embeds (done once per process, but a user's big kernel
// pays it at every `synclab check`).
void BM_ParseCatalogPtx(benchmark::State& state) {
    size_t bytes = 0;
    for (auto _ : state)
        for (const scenario::Scenario& s : scenario::catalog()) {
            const ptx::Module m = ptx::parse_module(s.ptx_source(), s.source_file);
            benchmark::DoNotOptimize(m.functions.size());
            bytes += s.ptx_source().size();
        }
    state.SetBytesProcessed(static_cast<int64_t>(bytes));
}
BENCHMARK(BM_ParseCatalogPtx)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
