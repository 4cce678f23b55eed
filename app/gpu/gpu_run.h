// One kernel launch on the GPU, as the runner needs it: the same inputs as the simulator takes
// (parsed module + its PTX text, launch, buffers, arguments), run untraced or traced by the worker,
// and the answer turned into final buffers, kernel times and (traced) a trace::Trace in the
// simulator's schema, so analysis, reports and the app work on it unchanged.
#pragma once

#include "gpu/block_receiver.h"
#include "gpu/client.h"
#include "gpu/protocol.h"
#include "gpu/trace_plan.h"
#include "launch/launch.h"
#include "ptx/ir.h"
#include "trace/trace.h"
#include "trace/trace_buffer.h"

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace synclab::gpu {

struct LaunchOptions {
    bool traced = false;
    TraceBuffer buffer = TraceBuffer::Device; // traced runs: where events go (Mapped: readable live)
    double timeout_s = 5;                     // per launch; then the kernel is stopped with its worker
    double grace_s = 20;                      // extra time for the worker's JIT and copies
    uint64_t event_capacity = 1u << 22; // trace slots (32 bytes each), at least; rounded up to whole stripes
    uint32_t stripes = trace::kDefaultStripes; // cursors the slots are spread over (trace/trace_buffer.h)
    uint32_t launches = 1;                     // launches of the same inputs (timing)
    bool return_events = true;                 // false: only count them (benchmark)
    bool warp_aggregated = true;               // see ptx::InstrumentOptions
    bool live = false;                         // stream events while the kernel runs (needs Mapped)
    std::function<void(const Progress&)> on_progress;
    // Which blocks record (trace/trace_buffer.h): per block its rank or trace::kBlockNotRecorded;
    // empty: every block.
    std::vector<uint32_t> block_ranks;
    bool events_if_dropped = true; // see RunRequest::events_if_dropped
    // A CPU thread that reads two of the buffers, host-mapped, while the kernel runs (protocol.h).
    HostReaderRequest host_reader;
    // Analyse as the events arrive (gpu/block_receiver.h): where the layout gives each warp its own
    // stripe (launch_traced chooses one), a completed launch's events come a batch of whole blocks
    // at a time, go to the sink, and the trace keeps what the sink does not drop. Not with live.
    trace::BlockSink* block_sink = nullptr;
    uint64_t expected_events = 0; // block_sink: about how many will come (BlockEventsReceiver)
};

struct LaunchOutcome {
    trace::RunStatus status = trace::RunStatus::Ok;
    std::string message;                 // what went wrong; for a timeout, the diagnosis
    std::vector<float> kernel_ms;        // per completed launch
    std::vector<launch::Buffer> buffers; // after the (last) launch; the inputs where it did not finish
    trace::Trace trace;                  // traced: threads, sites, events and meta; untraced: meta only
    uint64_t events_attempted = 0;       // traced: the cursors added up (written + dropped)
    uint64_t dropped_events = 0;
    std::vector<uint64_t> warp_dropped; // traced: the drop table (see RunResult)
    bool drops_known = false;
    std::vector<uint64_t> warp_attempted; // traced, completed, dropped events: per warp, tried
    bool events_withheld = false;
    uint64_t device_free_bytes = 0, trace_area_bytes = 0; // when the request began
    TracePlan plan;                                       // launch_traced only
    bool partial_trace = false; // the events were read from a kernel that had not finished
    // The kernel failed on the device (ResultStatus::Fault: an illegal address, a trap; status is
    // Error): the worker's context died with it, and a device trace buffer could not be read.
    bool faulted = false;
    std::string jit_log;
    double worker_ms = 0; // the requests inside the worker (JIT, copies, launches; launch_traced: all)
    double take_ms = 0;   // block_sink: the runner's time handing the batches over (within worker_ms)
    WorkerPhases worker_phases; // worker_ms, split (RunResult::phases; launch_traced: added up)
    std::vector<HostReaderLaunch> host_reader; // LaunchOptions::host_reader: what the CPU saw, per launch
    // LaunchOptions::block_sink: the events handed to it batch by batch, and of them those that left
    // the trace (the sink dealt with them). 0 where the events came whole.
    uint64_t streamed_events = 0;
    uint64_t analysed_and_dropped = 0;
};

// The module-scope `.global` variables (`__device__`) a launch asks the worker to locate
// (RunRequest::globals): their PTX names, in Module::globals order.
std::vector<std::string> global_names(const ptx::Module& module);

// A GPU run's memory map (trace::Trace::memory), filled as the simulator fills its own
// (launch::buffer_regions, ptx::kernel_regions): `buffers` at the addresses the worker reported,
// the module's `__device__` variables at theirs (`result.global_addresses` answers
// global_names(module)) and `fn`'s shared window (a GPU trace's shared events are window offsets,
// ptx/instrument.cpp, as the simulator's are). Complete (trace::MemoryMap::complete) when the worker
// reported every buffer and variable and the launch is not cooperative (grid.sync()'s workspace is
// the driver's memory, which no map holds); otherwise it only names.
trace::MemoryMap memory_map(const ptx::Module& module, const ptx::Function& fn,
                            const launch::LaunchConfig& config, const std::vector<launch::Buffer>& buffers,
                            const RunResult& result);

// Runs one request on `worker`. Never throws for problems of the kernel (status Error / Timeout
// with a message); throws Unavailable when the GPU cannot be used at all, and
// ptx::InstrumentError when a traced run's PTX cannot be instrumented.
// A traced launch's trace has block_history filled (trace_plan.h: block_history).
LaunchOutcome launch(Worker& worker, const ptx::Module& module, std::string_view ptx_text,
                     const std::string& kernel, const launch::LaunchConfig& config,
                     const std::vector<launch::Buffer>& buffers, const std::vector<launch::KernelArg>& args,
                     const LaunchOptions& options);

// A traced launch whose trace holds whole blocks (trace_plan.h: the plan): a first launch, and,
// where it overflowed, a second one from the same inputs with a buffer sized from its counts and,
// where even that cannot hold every block, a sample of blocks; or, where a first launch into device
// memory faulted (nothing of its trace can be read after a fault), a second one into host-mapped
// memory, which is read up to the fault, so that the analyses see the accesses before it (an
// out-of-bounds one among them). `options.traced` must be set;
// event_capacity, stripes and block_ranks are the plan's. Live updates come from the first launch
// only (the second is a re-run whose result replaces them). The outcome is the last launch's, with
// `plan` saying what was chosen and why.
LaunchOutcome launch_traced(Worker& worker, const ptx::Module& module, std::string_view ptx_text,
                            const std::string& kernel, const launch::LaunchConfig& config,
                            const std::vector<launch::Buffer>& buffers,
                            const std::vector<launch::KernelArg>& args, const LaunchOptions& options,
                            const TraceSizing& sizing);

// Available host memory (MemAvailable of /proc/meminfo), 0 where it cannot be read.
uint64_t host_available_bytes();

// The thread table of a GPU trace: block, thread, warp, lane, SM (from the warp table) and how each
// thread ended (from its last event: exit, waiting at a barrier, still running, or never started).
// `finished`: the kernel completed, so every thread exited.
std::vector<trace::ThreadInfo> thread_table(const trace::Dim3& grid, const trace::Dim3& block,
                                            const std::vector<trace::Event>& events,
                                            const std::vector<uint32_t>& warps, bool finished);
// The same from each thread's last event, taken as the events went by (block_receiver.h).
std::vector<trace::ThreadInfo> thread_table(const trace::Dim3& grid, const trace::Dim3& block,
                                            const ThreadEnds& ends, const std::vector<uint32_t>& warps,
                                            bool finished);

} // namespace synclab::gpu
