// Runner: one place that turns "run this scenario variant (or this user kernel) with these options"
// into a summary: it builds inputs, runs the simulator once per repetition, checks the outputs
// against the CPU reference, analyses each trace and merges the findings. Used by the CLI and the app.
//
// Backend "gpu" runs the same kernel on the GPU through the worker (gpu/gpu_run.h) and always
// reports both sides: untraced launches (the hardware's own outcome: wrong outputs per repetition,
// kernel time from CUDA events) and one traced launch (the instrumented kernel: events, findings),
// because tracing perturbs timing and can hide or change what the untraced kernel does.
#pragma once

#include "analysis/findings.h"
#include "gpu/trace_plan.h"
#include "ptx/ir.h"
#include "runner/host_reader.h"
#include "scenario/scenario.h"
#include "sim/simulator.h"
#include "trace/trace.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace synclab::runner {

// GPU backend settings (RunOptions::gpu).
struct GpuOptions {
    bool untraced = true; // run `reps` untraced launches (outputs checked, kernel times)
    bool traced = true;   // and one traced launch (events, findings); --untraced: false
    bool live = false;    // traced launch writes to mapped host memory, streamed as it runs
    double timeout_s = 5; // per launch; a kernel still running then is stopped
    double grace_s = 20;  // a worker silent for timeout + grace (JIT, copies) is killed
    // The traced launch's buffer (gpu/trace_plan.h): at most trace.cap_bytes (the CLI's
    // --trace-buffer MB), sized from a first launch; where not every block fits, a sample of whole
    // blocks. Overflow is counted, and blocks that lost events are marked Partial.
    gpu::TraceSizing trace;
    std::string worker; // the synclab-gpu executable ("" = find it, gpu/client.h)
    // Live mode: called from the runner's thread with the events that appeared since the last call.
    std::function<void(const std::vector<trace::Event>& events, uint64_t seen, double elapsed_ms)> on_events;
};

// An outcome histogram (RunOptions::histogram): the final contents of one buffer, counted over the
// repetitions (or over every execution of an exhaustive exploration). `per` > 0 cuts the buffer into
// records of that many elements and counts each record (1,024 reader/writer pairs: one record per
// pair); 0 counts the whole buffer as one outcome.
struct HistogramRequest {
    std::string buffer; // the buffer's name (a lesson's buffer name; `synclab check`: arg<i>)
    // The elements' type; run_scenario takes it from the lesson's buffer declaration.
    launch::ElemType type = launch::ElemType::U32;
    uint32_t per = 0;
    // At most this many records from the start of the buffer (0: every record): "g_out's first
    // element" is per 1, limit 1.
    uint32_t limit = 0;
    bool wanted() const { return !buffer.empty(); }
};



struct OutcomeCount {
    std::string outcome; // the contents, launch::format_values ("1,0")
    uint64_t count = 0;
    // One run that produced it: the seed of that repetition (random, adversarial), or the choices of
    // that execution (exhaustive: sim::Options::choices replays it). GPU: the launch's seed.
    uint64_t seed = 0;
    std::vector<uint32_t> choices;
    // Records of this outcome that differ from the reference's right values at their place (a weak
    // outcome: "flag seen, data stale"); 0 where they matched or nothing was checked.
    uint64_t wrong = 0;
};

struct Histogram {
    HistogramRequest request;
    uint64_t records = 0;               // outcomes counted (runs x records per run)
    uint32_t runs = 0;                  // runs (launches, executions) that contributed
    std::vector<OutcomeCount> outcomes; // most frequent first, ties by outcome text
};

// A request the runner cannot carry out (an unknown histogram buffer, records that do not divide
// the buffer, schedule exhaustive on the GPU, ...): thrown before anything runs; what() names the
// option and what is wrong.
struct RequestError : std::invalid_argument {
    using std::invalid_argument::invalid_argument;
};

// Counts one run's outcomes in `histogram` (histogram.request: the buffer, records of `per`
// elements, at most `limit` of them); `seed` / `choices` name the run where an outcome is new. Where
// `expected` holds the buffer's right values whole (the run's check), a record that differs from
// them counts as its outcome's `wrong`. Throws RequestError when the buffer is not among `buffers`
// or `per` does not divide it.
void count_outcomes(Histogram& histogram, const std::vector<launch::Buffer>& buffers, uint64_t seed,
                    const std::vector<uint32_t>& choices,
                    const std::vector<scenario::ExpectedOutput>& expected = {});
// Sorts the outcomes most frequent first (ties by outcome text).
void order_outcomes(Histogram& histogram);

// Schedule exhaustive: how far the enumeration went.
struct ExplorationSummary {
    bool ran = false;
    bool complete = false;   // every execution the model allows was run (else: status budget)
    uint64_t executions = 0;
    uint64_t bound = 0;      // RunOptions::max_executions
};

struct RunOptions {
    std::string backend = "sim";
    sim::Schedule schedule = sim::Schedule::Random;
    uint64_t seed = 1; // repetition r uses seed + r
    uint32_t reps = 1;
    // The simulator's memory model; unset: the scenario's own default (a lesson's `memory`), else sc.
    std::optional<launch::MemoryModel> memory;
    HistogramRequest histogram;               // none when histogram.buffer is empty
    uint64_t max_executions = 100'000;        // schedule exhaustive: the bound
    // Schedule exhaustive: instead of exploring, run the one execution these choices name (an
    // OutcomeCount's choices: the outcomes view opens the run that produced an outcome).
    std::optional<std::vector<uint32_t>> replay;
    sim::Options limits; // budgets (schedule, seed, cancel and progress are set from the fields here)
    const std::atomic<bool>* cancel = nullptr;
    std::function<void(double fraction)> progress; // over all repetitions
    GpuOptions gpu;                                // backend "gpu" only
    // Analyse as the run goes (analysis/streamed.h): the plain shared-memory accesses of finished
    // blocks are analysed on worker threads and leave the trace, so that a big grid is checked in a
    // fraction of the memory. The findings are the same; RunSummary::trace then lacks those events
    // (not for saving or for the app's views). Runs of exhaustive schedules never stream. GPU: the
    // traced launch's events come from the worker a batch of whole blocks at a time
    // (gpu/block_receiver.h), where its grid allows a stripe per warp; not in live mode.
    bool analyse_as_it_runs = false;
};

// One side of a GPU run (RunSummary::gpu_untraced / gpu_traced).
struct GpuSide {
    bool ran = false;
    trace::RunStatus status = trace::RunStatus::Ok;
    std::string message;
    uint32_t reps = 0;          // launches checked
    uint64_t wrong_outputs = 0; // summed over reps
    uint64_t checked_outputs = 0;
    uint32_t reps_with_wrong_outputs = 0;
    std::string check_summary; // of the first rep with wrong outputs, else of the first
    double kernel_ms = 0;      // median over reps (CUDA events around each launch)
    double kernel_ms_min = 0, kernel_ms_max = 0;
    uint64_t events = 0;         // traced side: events recorded
    uint64_t dropped_events = 0; // traced side: events the full buffer could not take
    bool partial_trace = false;  // traced side: read from a kernel that did not finish
    std::string trace_buffer;    // traced side: "device" | "mapped"
    // Traced side, wall times: the traced launches with their events' way to the runner (and, when
    // they arrive batch by batch, the shared-memory analysis of the batches beside it), and the
    // analyses after the last event. Where a check's time goes, printed by `check`.
    double launch_and_transfer_ms = 0;
    double worker_ms = 0; // traced: of launch_and_transfer_ms, inside the worker (its requests added up)
    double take_ms = 0;   // traced, streamed: of worker_ms, the runner handing the arrived batches over
    gpu::WorkerPhases worker_phases; // traced: worker_ms, split
    double analysis_ms = 0;
    uint64_t streamed_events = 0; // traced side: events that arrived a batch of whole blocks at a time
};

struct RunSummary {
    trace::Trace trace;                             // the kept repetition: the first with wrong outputs or
                                                    // findings, else the first
    std::vector<analysis::Finding> findings;        // merged over repetitions (counts added), most
                                                    // harmful first (analysis::order_findings)
    trace::RunStatus status = trace::RunStatus::Ok; // first non-ok status, else ok
    sim::Budget budget = sim::Budget::None;         // status Budget (simulator): which one
    std::string message;
    uint32_t reps_run = 0;
    uint64_t wrong_outputs = 0; // summed over repetitions
    uint64_t checked_outputs = 0;
    uint32_t reps_with_wrong_outputs = 0;
    uint64_t events = 0; // summed over repetitions
    // RunOptions::analyse_as_it_runs: of `events`, those analysed as their blocks finished and then
    // dropped from the trace (summed over repetitions).
    uint64_t analysed_and_dropped = 0;
    uint64_t thread_instructions = 0;
    uint64_t warp_instructions = 0;
    double elapsed_ms = 0;
    std::string check_summary;                 // of the kept repetition
    std::vector<launch::Buffer> final_buffers; // of the kept repetition
    // The right values of each checked output in the kept repetition, as its reference computed
    // them (scenario::CheckResult::expected; matched to final_buffers by name). Empty where nothing
    // was checked.
    std::vector<scenario::ExpectedOutput> expected_outputs;
    // The global (device) address of each of final_buffers in the kept repetition's trace, so that
    // element i of an output is the global address buffer_addresses[b] + i * element size
    // (analysis::explain_output). Simulator only; empty for the GPU backend (the worker does not
    // report its device pointers).
    std::vector<uint64_t> buffer_addresses;
    // Backend "gpu": status / message / wrong_outputs / checked_outputs / reps_with_wrong_outputs
    // above are the untraced side's (the hardware's own outcome; the traced side's where only it
    // ran, and a non-ok status of either side wins); trace, findings and events are the traced
    // side's. kernel_ms: the untraced median (else the traced launch's).
    std::string device; // "NVIDIA H200" / "SyncLab simulator"
    // What the compiler made of the kernel, when nothing was found (kernel_notes.h).
    std::vector<std::string> notes;
    double kernel_ms = 0;
    // Simulator with the cost model: the kept repetition's modelled duration (trace::RunMeta::
    // modelled_cycles); 0 for the GPU backend, which reports kernel_ms.
    uint64_t modelled_cycles = 0;
    bool traced = true; // a trace (and findings) exists
    uint64_t dropped_events = 0;
    GpuSide gpu_untraced, gpu_traced;
    launch::MemoryModel memory = launch::MemoryModel::Sc; // the simulator's (GPU: the hardware's own)
    // RunOptions::histogram: the backend's outcomes (GPU: the untraced launches').
    std::optional<Histogram> histogram;
    ExplorationSummary exploration; // schedule exhaustive
    // KernelJob::host_reader on the GPU backend: what the CPU saw over the untraced launches (the
    // simulator runs no CPU thread: it carries a note instead).
    std::optional<HostReaderSummary> host_reader;
};

// A kernel to run: a parsed module, an entry, a launch, inputs and (optionally) a reference check.
struct KernelJob {
    const ptx::Module* module = nullptr;
    std::string kernel;
    launch::LaunchConfig launch;
    std::function<scenario::Inputs(uint64_t seed)> make_inputs;
    std::function<scenario::CheckResult(const scenario::Inputs& before,
                                        const std::vector<launch::Buffer>& after)>
        check;
    // The simulator's memory model unless RunOptions::memory picks one (a lesson's `memory`).
    launch::MemoryModel memory = launch::MemoryModel::Sc;
    // A CPU thread reading two of the buffers, host-mapped, while the kernel runs (GPU backend).
    HostReaderJob host_reader;
    // Copied into the trace's metadata.
    std::string scenario_id, variant_id, source_name, source_text, ptx_text;
};

RunSummary run_job(const KernelJob& job, const RunOptions& options);

// The diagnosis of a hung kernel from its (partial) trace: which threads wait at which barrier line,
// which exited, which never started; "" when the trace says nothing.
std::string diagnose_hang(const trace::Trace& trace);

// The parsed PTX of a scenario's kernel file (parsed when the lesson was loaded).
const ptx::Module& scenario_module(const scenario::Scenario& scenario);

// Runs one variant with the scenario's inputs, checked by its reference: its C++ check, or for
// `reference = "rr:VARIANT"` that variant's outputs under the rr schedule, simulated once per
// repetition on the same inputs. `scenario` must outlive the call.
RunSummary run_scenario(const scenario::Scenario& scenario, const scenario::Variant& variant,
                        const RunOptions& options);

} // namespace synclab::runner

namespace synclab::runner {

// Does a run show what its variant's Expectation says? `problems` lists each mismatch in words
// (also: a claim about outputs when no output was checked).
struct VerdictCheck {
    bool pass = true;
    std::vector<std::string> problems;
};
VerdictCheck check_expectation(const scenario::Expectation& expect, const RunSummary& summary,
                               bool schedule_can_expose_wrong_outputs);

// The distinct finding kinds of a summary, in the order the findings come.
std::vector<analysis::FindingKind> finding_kinds(const RunSummary& summary);
// The same as names joined by commas ("race,barrier_divergence"); "" when there is none.
std::string finding_kind_list(const RunSummary& summary);

} // namespace synclab::runner
