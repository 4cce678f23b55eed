// The SyncLab simulator: runs one kernel launch of a parsed PTX module over host buffers, thread by
// thread, with a chosen scheduler, and records a trace of every memory access, barrier and exit.
//
// Execution model: every thread has its own PC (independent thread scheduling, Volta+). A warp
// executes together all of its runnable lanes that sit at the same PC (the SIMT fast path); lanes at
// different PCs are separate groups: lanes at ret/exit run first, then the lowest PC. The scheduler
// picks which warp steps next.
//
// Barriers, as an H200 applies them (PTX ISA, "bar, barrier"; CUDA Programming Guide, "__syncthreads()
// is allowed in conditional code but only if the conditional evaluates identically across the
// entire thread block"):
// - __syncthreads() is bar.sync 0 = barrier.sync.aligned: every non-exited lane of a warp must execute
//   the same barrier instruction (ptxas puts a warp-wide WARPSYNC before each BAR.SYNC). A lane that
//   reaches an aligned barrier waits there for the other non-exited lanes of its warp; the warp
//   arrives at the block barrier when all of them are at that instruction. Lanes of one warp waiting
//   at different aligned barrier instructions wait for each other forever (status Deadlock). Lanes
//   that exit no longer count.
// - barrier.sync without .aligned counts each thread's arrival on its own.
// - A phase of a block barrier completes when the expected number of threads arrived (the count of
//   bar.sync a, b, else every non-exited thread of the block), whatever barrier instruction each warp
//   used.
// Memory: sequentially consistent (`sc`) or the PTX model's relaxed behaviours (`relaxed`,
// relaxed_memory.h): Options::memory.
#pragma once

#include "launch/launch.h"
#include "ptx/ir.h"
#include "trace/block_stream.h"
#include "trace/trace.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace synclab::sim {

using trace::Dim3;

enum class Schedule : uint8_t {
    RoundRobin,  // "rr": deterministic, warps in turn, each runs a short quantum
    Random,      // "random": seeded random choice of warp and quantum
    Adversarial, // "adversarial": seeded; stalls the warps it picks right before shared-memory
                 // accesses so that other warps overtake them (exposes races); under the relaxed
                 // model, also keeps stores buffered and loads as stale as the model allows
    Exhaustive,  // "exhaustive": one execution per call, the one Options::choices names (explore()
                 // enumerates them all): which warp performs its next memory operation, and under
                 // the relaxed model which write each load reads and where each store is ordered.
                 // It never holds part of a warp back (no independent-thread-scheduling splits,
                 // under either warp model: a choice per lane subset would multiply the executions
                 // past any budget), so "every execution" means every interleaving of warps, each
                 // warp's lanes in the one order its divergence gives: outcomes that need the lanes
                 // of one warp to interleave otherwise are not enumerated (random and adversarial
                 // under WarpModel::Its produce them)
};
const char* to_string(Schedule schedule);
bool parse_schedule(const std::string& text, Schedule& out); // "rr" | "random" | "adversarial" | "exhaustive"

using launch::MemoryModel;

// How the lanes of one warp are scheduled against each other (issue 11).
enum class WarpModel : uint8_t {
    Its,      // "its": independent thread scheduling (Volta+): the random and adversarial schedules
              // may run some lanes of a warp ahead of the others at a shared- or global-memory
              // access, so that lanes of one warp interleave their accesses
    Lockstep, // "lockstep": pre-Volta: a warp's lanes never split; an instruction completes for all
              // the warp's active lanes before its next one (why old warp-synchronous code worked)
};
const char* to_string(WarpModel model);
bool parse_warp_model(const std::string& text, WarpModel& out); // "its" | "lockstep"

// The launch vocabulary (launch/launch.h), as the simulator's API spells it.
using launch::Buffer;
using launch::KernelArg;
using launch::LaunchConfig;

struct Options {
    Schedule schedule = Schedule::RoundRobin;
    uint64_t seed = 1;
    MemoryModel memory = MemoryModel::Sc;
    WarpModel warp_model = WarpModel::Its; // rr and exhaustive never split a warp under either model
    // Schedule::Exhaustive: the choices of the execution to run, in the order they are made (choice
    // i picks among the options at the i-th choice point; past the end: option 0). Result::choices
    // reports what each choice point offered.
    std::vector<uint32_t> choices;
    bool record_trace = true;
    // Modelled time (the cost model, cost_model.h): per-warp clocks in SM cycles, %clock64 reads
    // them, Result::modelled_cycles and (with a trace) Trace::timing and RunMeta::modelled_cycles.
    // Off: %clock64 reads the logical tick and nothing is timed (the plain simulator, for the
    // benchmark of its overhead).
    bool cost_model = true;
    uint32_t sm_count = 8;             // reported by %nsmid; a block starts on an SM with a free slot (residency.h SmSlots)
    // Blocks resident at once are what the residency model (residency.h) lets sm_count SMs hold.
    // The simulator keeps at most max_resident_blocks of them in flight (a cost cap, not a model
    // limit: it never makes a correct kernel hang); when every block in flight spins without end
    // and the model has room, it admits more (counted against max_memory_bytes). A cooperative
    // launch holds all its blocks from the start.
    uint32_t max_resident_blocks = 16;
    // Registers ptxas gives each thread (PTX does not say): a model input of the residency limit.
    // 32 is the most at which 2,048 threads fit an SM, so by default registers never limit.
    uint32_t registers_per_thread = 32;
    uint64_t max_steps = 200'000'000;  // thread-instructions; past it: status Budget
    uint64_t max_threads = 1u << 22;   // grid x block; past it: status Budget before running
    // The simulator's state (resident blocks' registers, shared and local memory, per-thread tables),
    // the kernel's buffers, what the caller holds (below) and the trace it records (events, thread
    // table). Checked before running for what is sized up front, and while running as the trace
    // grows; past it: status Budget ("--max-memory BYTES").
    uint64_t max_memory_bytes = 1ull << 31;
    // What the caller holds for this run besides what the simulator allocates (the inputs kept for
    // the check, an earlier repetition's trace): counted against max_memory_bytes with the rest.
    uint64_t held_by_caller_bytes = 0;
    uint64_t max_events = 50'000'000;              // trace events held; past it: status Budget ("--max-events N")
    // Analyse as the run goes (trace/block_stream.h): when the event vector fills, the events of the
    // blocks finished since the last time go to the sink, and those it deals with leave the trace.
    // The vector starts at stream_window_events (0: a sixteenth of max_memory_bytes) and grows only
    // when finished blocks do not free a quarter of it. Null: every event stays (a whole trace).
    trace::BlockSink* block_sink = nullptr;
    uint64_t stream_window_events = 0;
    const std::atomic<bool>* cancel = nullptr;     // set to true to stop the run (status Cancelled)
    std::function<void(double fraction)> progress; // called now and then with blocks done / blocks
};

// Which budget stopped a run (status Budget): a step budget is a kernel that does not finish (a spin
// loop); the others say the run was too big to simulate whole.
enum class Budget : uint8_t { None, Steps, Threads, Events, Memory };

struct Result {
    trace::RunStatus status = trace::RunStatus::Ok;
    Budget budget = Budget::None;           // status Budget: which one
    std::string message;                    // what went wrong, with thread, instruction and PTX/CUDA line
    uint64_t thread_instructions = 0;       // instructions executed, counted per thread
    uint64_t warp_instructions = 0;         // instructions issued, counted per warp group
    uint64_t memory_bytes = 0;              // peak of what max_memory_bytes counts
    std::vector<uint64_t> buffer_addresses; // global address of each caller buffer (empty: never placed)
    std::vector<uint64_t> global_addresses; // of each Module::globals variable, .const ones too (empty:
                                            // never placed)
    // With the cost model: the run's modelled duration in SM cycles (0: not modelled).
    uint64_t modelled_cycles = 0;
    // atom.cas whose compare failed (the CAS loop's retries), in total; per site in
    // Trace::cas_failures.
    uint64_t cas_failures = 0;
    // Schedule::Exhaustive: each choice point of the execution, as (options offered, option taken).
    std::vector<std::pair<uint32_t, uint32_t>> choices;
    // Times the spin detector sampled every resident warp's state (progress_watch.h): a cost that
    // only a grid whose resident blocks stay quiet for long should pay; ordinary work takes none.
    uint64_t spin_samples = 0;
    // Options::block_sink: events handed to the sink in batches of finished blocks, and of them
    // those that left the trace (the sink dealt with them); blocks handed over.
    uint64_t streamed_events = 0;
    uint64_t dropped_events = 0;
    uint32_t streamed_blocks = 0;
};

// Runs `kernel` of `module`. `buffers` are updated in place with the kernel's writes. When
// `trace_out` is given, its threads, sites, events and the run fields of meta (grid, block, schedule,
// seed, memory_model, status, counts, kernel, backend, device, sm_count) are filled; the caller
// fills scenario/variant/source fields. Never throws for problems of the kernel or its launch: they
// come back as status Error/Budget/Deadlock with a message. A run stopped by a budget (or cancelled)
// with events recorded fills trace->block_history: blocks that finished Whole, blocks resident at
// the stop Partial, blocks never started NotRecorded. The simulator never drops events.
Result simulate(const ptx::Module& module, const std::string& kernel, const LaunchConfig& launch,
                std::vector<Buffer>& buffers, const std::vector<KernelArg>& args, const Options& options,
                trace::Trace* trace_out);

// [SECTION] Exhaustive exploration

struct ExploreOptions {
    uint64_t max_executions = 100'000; // the bound: past it the exploration stops, complete = false
};

struct Exploration {
    bool complete = false;   // every execution was enumerated (else the bound stopped it: status budget)
    uint64_t executions = 0; // executions run
    uint64_t bound = 0;      // ExploreOptions::max_executions
    std::string stopped;     // why an execution stopped the exploration (a kernel error), else ""
};

// Every execution of a small kernel that the schedule and memory model allow: each interleaving of
// the warps' memory operations (instructions that touch no shared or global memory commute and are
// not interleaved), and under the relaxed model each write each load may read and each place in
// a location's order each store may take. Each execution starts from `initial` and is handed to
// `on_execution` with its result (Result::choices names it: Options::choices replays it) and the
// buffers it left; return false to stop. Tracing follows options.record_trace (`trace` is reused).
Exploration explore(const ptx::Module& module, const std::string& kernel, const LaunchConfig& launch,
                    const std::vector<Buffer>& initial, const std::vector<KernelArg>& args, const Options& options,
                    const ExploreOptions& explore_options,
                    const std::function<bool(const Result& result, const std::vector<Buffer>& after,
                                             trace::Trace* trace)>& on_execution);

} // namespace synclab::sim
