// The SyncLab simulator: runs one kernel launch of a parsed PTX module over host buffers, thread by
// thread, with a chosen scheduler, and records a trace of every memory access, barrier and exit.
//
// Execution model: every thread has its own PC (independent thread scheduling, Volta+). A warp
// executes together all of its runnable lanes that sit at the same PC (the SIMT fast path); lanes at
// different PCs are separate groups, and the scheduler picks which group of which warp steps next.
// Barriers complete when every non-exited thread of the block has arrived (or the .count is met),
// whatever barrier instruction each used. Memory is sequentially consistent for now.
#pragma once

#include "launch/launch.h"
#include "ptx/ir.h"
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
                 // accesses so that other warps overtake them (exposes races)
};
const char* to_string(Schedule schedule);
bool parse_schedule(const std::string& text, Schedule& out); // "rr" | "random" | "adversarial"

// The launch vocabulary (launch/launch.h), as the simulator's API spells it.
using launch::Buffer;
using launch::KernelArg;
using launch::LaunchConfig;

struct Options {
    Schedule schedule = Schedule::RoundRobin;
    uint64_t seed = 1;
    bool record_trace = true;
    uint32_t sm_count = 8;                     // reported by %nsmid; blocks are placed on SM block % sm_count
    uint32_t max_resident_blocks = 16;         // blocks simulated at once (others start as blocks finish)
    uint64_t max_steps = 200'000'000;          // thread-instructions; past it: status Budget
    uint64_t max_threads = 1u << 22;           // grid x block; past it: status Budget before running
    uint64_t max_memory_bytes = 1ull << 31;    // registers + shared + local of the resident blocks
    uint64_t max_events = 50'000'000;          // past it, further events are dropped and counted
    const std::atomic<bool>* cancel = nullptr; // set to true to stop the run (status Cancelled)
    std::function<void(double fraction)> progress; // called now and then with blocks done / blocks
};

struct Result {
    trace::RunStatus status = trace::RunStatus::Ok;
    std::string message;              // what went wrong, with thread, instruction and PTX/CUDA line
    uint64_t thread_instructions = 0; // instructions executed, counted per thread
    uint64_t warp_instructions = 0;   // instructions issued, counted per warp group
    uint64_t dropped_events = 0;
};

// Runs `kernel` of `module`. `buffers` are updated in place with the kernel's writes. When
// `trace_out` is given, its threads, sites, events and the run fields of meta (grid, block, schedule,
// seed, memory_model, status, counts, kernel, backend, device, sm_count) are filled; the caller
// fills scenario/variant/source fields. Never throws for problems of the kernel or its launch: they
// come back as status Error/Budget/Deadlock with a message.
Result simulate(const ptx::Module& module, const std::string& kernel, const LaunchConfig& launch,
                std::vector<Buffer>& buffers, const std::vector<KernelArg>& args, const Options& options,
                trace::Trace* trace_out);

} // namespace synclab::sim
