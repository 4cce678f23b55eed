// Simulator throughput: thread-instructions/s and warp-instructions/s, tracing on and off, on a
// converged kernel (stencil, 64 blocks x 256 threads) and a divergent one (per-thread loop trip
// counts and branches, tests/sim/data/sim_kernels.cu: divergent_loops), and the resident bytes a
// traced run keeps per event. Each runs with the cost model (modelled time, the default) and
// without it (cost=0: the plain simulator), so the model's overhead is the ratio of the two; the
// atomic counters of tests/sim/data/cost_kernels.cu (one address, 1,024 addresses) stress its
// service queues. Figures are printed as counters; run with --benchmark_repetitions=5 for medians
// (scripts/bench.sh does).
#include "ptx/parser.h"
#include "runner/runner.h"
#include "scenario/scenario.h"
#include "sim/simulator.h"

#include <benchmark/benchmark.h>

#include <fstream>
#include <sstream>
#include <unistd.h>

namespace {

using namespace synclab;

void report(benchmark::State& state, uint64_t thread_instr, uint64_t warp_instr, uint64_t events) {
    state.counters["thread_instr/s"] = benchmark::Counter(double(thread_instr), benchmark::Counter::kIsRate);
    state.counters["warp_instr/s"] = benchmark::Counter(double(warp_instr), benchmark::Counter::kIsRate);
    state.counters["events/run"] = benchmark::Counter(double(events) / double(state.iterations()));
    state.counters["lanes/warp_instr"] = double(thread_instr) / double(std::max<uint64_t>(warp_instr, 1));
}

// Resident bytes of this process (VmRSS), from /proc/self/statm.
uint64_t resident_bytes() {
    std::ifstream statm("/proc/self/statm");
    uint64_t size = 0, resident = 0;
    statm >> size >> resident;
    return resident * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
}

// The stencil (correct variant) over `blocks` x 256 threads, with the scenario's buffers grown to fit.
struct StencilLaunch {
    const ptx::Module* module = nullptr;
    std::string kernel;
    launch::LaunchConfig launch;
    std::vector<launch::Buffer> buffers;
    std::vector<launch::KernelArg> args;

    explicit StencilLaunch(uint32_t blocks) {
        const scenario::Scenario& s = *scenario::find_scenario("stencil");
        module = &runner::scenario_module(s);
        kernel = s.find_variant("correct")->kernel;
        const scenario::Inputs inputs = s.make_inputs(1);
        launch = s.launch;
        launch.grid = {blocks, 1, 1};
        launch.block = {256, 1, 1};
        buffers = inputs.buffers;
        for (launch::Buffer& b : buffers)
            b.bytes.resize(std::max<size_t>(b.bytes.size(), size_t(blocks) * 256 * 4));
        args = inputs.args;
        for (launch::KernelArg& a : args)
            if (a.kind == launch::KernelArg::Kind::Scalar) a.bits = uint64_t(blocks) * 256; // n
    }
};

void BM_Stencil(benchmark::State& state) {
    const bool traced = state.range(0) != 0;
    const StencilLaunch l(64);
    sim::Options o;
    o.schedule = sim::Schedule::RoundRobin;
    o.record_trace = traced;
    o.cost_model = state.range(1) != 0;
    uint64_t ti = 0, wi = 0, ev = 0;
    for (auto _ : state) {
        std::vector<launch::Buffer> buffers = l.buffers;
        trace::Trace t;
        const sim::Result r = sim::simulate(*l.module, l.kernel, l.launch, buffers, l.args, o, &t);
        if (r.status != trace::RunStatus::Ok) state.SkipWithError(r.message.c_str());
        ti += r.thread_instructions;
        wi += r.warp_instructions;
        ev += t.events.size();
    }
    report(state, ti, wi, ev);
}
BENCHMARK(BM_Stencil)
    ->ArgsProduct({{0, 1}, {0, 1}})
    ->ArgNames({"traced", "cost"})
    ->Unit(benchmark::kMillisecond);

// What a traced run keeps resident per recorded event: the growth of this process's resident set
// from before the run to after it, with the trace (events, thread table, sites) still alive, over
// the events recorded. 4,096 blocks x 256 threads records about 9.4 M events; at that size the event
// vector is far above glibc's largest mmap threshold (32 MB), so each run gets fresh pages and the
// figure is not hidden by memory a previous run freed.
void BM_StencilResidentPerEvent(benchmark::State& state) {
    const StencilLaunch l(4096);
    sim::Options o;
    o.schedule = sim::Schedule::RoundRobin;
    o.max_threads = uint64_t(1) << 22;
    double bytes_per_event = 0;
    uint64_t events = 0;
    for (auto _ : state) {
        std::vector<launch::Buffer> buffers = l.buffers;
        const uint64_t before = resident_bytes();
        trace::Trace t;
        const sim::Result r = sim::simulate(*l.module, l.kernel, l.launch, buffers, l.args, o, &t);
        if (r.status != trace::RunStatus::Ok) state.SkipWithError(r.message.c_str());
        const uint64_t after = resident_bytes();
        events = t.events.size();
        bytes_per_event = double(after > before ? after - before : 0) / double(std::max<uint64_t>(events, 1));
    }
    state.counters["resident_B/event"] = bytes_per_event;
    state.counters["events/run"] = double(events);
}
BENCHMARK(BM_StencilResidentPerEvent)->Unit(benchmark::kMillisecond)->Iterations(2);

void BM_Divergent(benchmark::State& state) {
    const bool traced = state.range(0) != 0;
    std::ifstream in(std::string(SYNCLAB_SOURCE_DIR) + "/tests/sim/data/sim_kernels.ptx");
    std::stringstream ss;
    ss << in.rdbuf();
    const ptx::Module module = ptx::parse_module(ss.str(), "sim_kernels.ptx");
    sim::Options o;
    o.schedule = sim::Schedule::RoundRobin;
    o.record_trace = traced;
    o.cost_model = state.range(1) != 0;
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
BENCHMARK(BM_Divergent)
    ->ArgsProduct({{0, 1}, {0, 1}})
    ->ArgNames({"traced", "cost"})
    ->Unit(benchmark::kMillisecond);

// 64 blocks x 256 threads, one atomicAdd each, on k counters (traced): the cost model's queues.
void BM_AtomicCounter(benchmark::State& state) {
    const uint32_t k = static_cast<uint32_t>(state.range(0));
    std::ifstream in(std::string(SYNCLAB_SOURCE_DIR) + "/tests/sim/data/cost_kernels.ptx");
    std::stringstream ss;
    ss << in.rdbuf();
    const ptx::Module module = ptx::parse_module(ss.str(), "cost_kernels.ptx");
    sim::Options o;
    o.cost_model = state.range(1) != 0;
    launch::LaunchConfig launch;
    launch.grid = {64, 1, 1};
    launch.block = {256, 1, 1};
    uint64_t ti = 0, wi = 0, ev = 0, cycles = 0;
    for (auto _ : state) {
        std::vector<launch::Buffer> buffers(1);
        buffers[0].bytes.resize(4 * k);
        trace::Trace t;
        const sim::Result r =
            sim::simulate(module, "k_addresses", launch, buffers,
                          {launch::KernelArg::pointer(0), launch::KernelArg::scalar(k)}, o, &t);
        if (r.status != trace::RunStatus::Ok) state.SkipWithError(r.message.c_str());
        ti += r.thread_instructions;
        wi += r.warp_instructions;
        ev += t.events.size();
        cycles = r.modelled_cycles;
    }
    report(state, ti, wi, ev);
    state.counters["modelled_cycles"] = double(cycles);
}
BENCHMARK(BM_AtomicCounter)
    ->ArgsProduct({{1, 1024}, {0, 1}})
    ->ArgNames({"k", "cost"})
    ->Unit(benchmark::kMillisecond);

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
