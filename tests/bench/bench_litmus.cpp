// Litmus throughput in the simulator (issue 9: aim >= 10,000 MP runs/s on one core): MP runs per
// second under Schedule::Random (and Adversarial) with the relaxed model, trace off, one run = one
// sim::simulate of the two-role kernel (tests/litmus/litmus.h), roles in different blocks or in one
// block; the sc model beside it for scale. And the time of a whole exhaustive exploration of MP, SB
// and IRIW (no fence, different blocks) with its execution count. Run with
// --benchmark_repetitions=5 --benchmark_report_aggregates_only=true for medians.
#include "../litmus/litmus.h"

#include <benchmark/benchmark.h>

namespace {

using namespace synclab;
using namespace synclab::litmus;

Placement placement_of(int64_t arg) { return arg == 0 ? Placement::DifferentBlocks : Placement::SameBlock; }

// range(0): 0 different blocks, 1 same block; range(1): 0 random, 1 adversarial; range(2): 0 sc, 1 relaxed.
void BM_MpRuns(benchmark::State& state) {
    const Test& mp = find_test("MP");
    const Launch l = make_launch(mp, Variant::NoFence, placement_of(state.range(0)));
    const sim::Schedule schedule = state.range(1) == 0 ? sim::Schedule::Random : sim::Schedule::Adversarial;
    const launch::MemoryModel memory = state.range(2) == 0 ? launch::MemoryModel::Sc : launch::MemoryModel::Relaxed;
    uint64_t seed = 1, weak = 0;
    const Outcome weak_outcome = format_outcome(mp.weak);
    for (auto _ : state) {
        std::string error;
        const Outcome o = sample(mp, l, memory, schedule, seed++, &error);
        if (!error.empty()) {
            state.SkipWithError(error.c_str());
            break;
        }
        weak += o == weak_outcome ? 1 : 0;
    }
    state.counters["runs/s"] = benchmark::Counter(double(state.iterations()), benchmark::Counter::kIsRate);
    state.counters["weak%"] = 100.0 * double(weak) / double(std::max<uint64_t>(state.iterations(), 1));
}
BENCHMARK(BM_MpRuns)
    ->ArgsProduct({{0, 1}, {0, 1}, {0, 1}})
    ->ArgNames({"same_block", "adversarial", "relaxed"})
    ->Unit(benchmark::kMicrosecond);

// range(0): 0 MP, 1 SB, 2 IRIW; range(1): 0 sc, 1 relaxed.
void BM_Exhaustive(benchmark::State& state) {
    static const char* const kNames[] = {"MP", "SB", "IRIW"};
    const Test& t = find_test(kNames[state.range(0)]);
    const Launch l = make_launch(t, Variant::NoFence, Placement::DifferentBlocks);
    const launch::MemoryModel memory = state.range(1) == 0 ? launch::MemoryModel::Sc : launch::MemoryModel::Relaxed;
    uint64_t executions = 0, outcomes = 0;
    for (auto _ : state) {
        const Explored e = explore(t, l, memory, 10'000'000);
        if (!e.error.empty() || !e.exploration.complete) {
            state.SkipWithError(e.error.empty() ? "exploration incomplete" : e.error.c_str());
            break;
        }
        executions = e.exploration.executions;
        outcomes = e.outcomes.size();
    }
    state.SetLabel(t.name);
    state.counters["executions"] = double(executions);
    state.counters["outcomes"] = double(outcomes);
    state.counters["executions/s"] =
        benchmark::Counter(double(executions) * double(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Exhaustive)
    ->ArgsProduct({{0, 1, 2}, {0, 1}})
    ->ArgNames({"test", "relaxed"})
    ->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
