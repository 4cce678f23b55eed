// PTX instrumentation for traced GPU runs: rewrites one kernel of a module so that every event the
// simulator records (shared/global loads and stores, atomics, barrier arrive and leave, fences,
// exits and warp collectives) also writes a trace::Event, in the same 32-byte layout, into a buffer the runner provides.
//
// The rewrite is textual and guided by the parsed IR of the same text: the kernel's own code is left
// as it is (so ptxas sees the same program, plus the recording code), and each recording point is
// inserted on its own lines before or after the instruction's line.
//
// What the rewritten kernel records, per event:
//   time    %globaltimer (ns)                 clock  low 32 bits of the SM clock (%clock)
//   thread  global linear thread id: block * threads_per_block + thread_in_block (the simulator's)
//   site    the instruction's index in ptx::Function::code (the simulator's site numbering)
//   kind, flags   as the simulator sets them (space, size, volatile, scope, ordered)
//   address shared: the 32-bit shared-window address; global: the global address; generic accesses
//           are classified with isspacep at run time (local ones are not recorded);
//           barrier events: the barrier id
//   value   low 32 bits of the value loaded / stored / atomic operand b;
//           barrier events: the thread's count of barriers passed so far (its phase number: equal to
//           the block's phase of barrier 0 whenever every live thread takes part in every phase)
//   warp collectives (bar.warp.sync shfl vote match redux elect): one event per member lane, after
//           the instruction; address = member mask | shfl's source lane << 32 (computed from b and c
//           as the PTX ISA defines it; trace::kNoLane where the lane kept its own value, and for the
//           other collectives); value = low 32 bits of the lane's result (a predicate: 0 or 1)
// Guard predicates are respected: "@%p ld ..." records only in the threads that execute it.
//
// Slots are reserved with one atom.global.add.u64 per warp and recording point (warp-aggregated:
// activemask, popc, one atomic by one lane, shfl of the base) on the cursor of the warp's stripe of
// the buffer (trace/trace_buffer.h: the layout, and why stripes); a slot at or past the stripe's
// capacity is not written, so cursor minus capacity is the stripe's number of dropped events (never
// out of bounds). The reservation that passes the capacity also adds what it dropped to the warp's
// entry of the drop table (the overflow path only: one red by the reserving lane), which says which
// blocks lost events. At kernel start lane 0 of every warp writes %smid + 1 into the warp table (0:
// the warp never started), which gives each thread's SM, and every thread reads its block's entry
// of the block table once: a block that does not record skips every recording point (one uniform
// branch each) and runs the kernel's own code only.
#pragma once

#include "ptx/ir.h"
#include "trace/trace.h"
#include "trace/trace_buffer.h"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace synclab::ptx {

// The seven .u64 parameters appended to the kernel, in this order, after its own.
constexpr const char* kTraceParamEvents =
    "__synclab_trace_events"; // trace::Event[stripes * capacity], zeroed
constexpr const char* kTraceParamCursor = "__synclab_trace_cursor"; // the stripes' cursors (u64 each, every
                                                                    // trace::kCursorStride bytes), zeroed
constexpr const char* kTraceParamCapacity = "__synclab_trace_capacity"; // scalar: slots per stripe
constexpr const char* kTraceParamWarps = "__synclab_trace_warps";       // u32[warp_count], zeroed: smid + 1
constexpr const char* kTraceParamBlocks =
    "__synclab_trace_blocks"; // u32[block_count]: rank or trace::kBlockNotRecorded; 0: every block, rank =
                              // index
constexpr const char* kTraceParamDrops = "__synclab_trace_drops"; // u64[warp_count], zeroed: events dropped
// u32[Function::shared_symbols.size()] or 0: the global thread 0 writes each shared symbol's address
// in the hardware's shared window there. The hardware places a block's variables where it likes
// (on sm_90 after a reserved first kilobyte), not at the parser's offsets, so the runner needs
// them to name the traced shared addresses (gpu::memory_map).
constexpr const char* kTraceParamShared = "__synclab_trace_shared";
constexpr uint32_t kTraceParamCount = 7;

class InstrumentError : public std::runtime_error {
  public:
    InstrumentError(std::string source_name, uint32_t line, const std::string& what);
    uint32_t line() const { return line_; }

  private:
    uint32_t line_;
};

struct InstrumentOptions {
    // One atomic per warp and recording point (true), or one per thread (false: simpler code,
    // many more atomics on one address; kept for the benchmark's comparison).
    bool warp_aggregated = true;
    // Stripes of the buffer (a power of two up to trace::kMaxStripes); 1: one cursor for the whole
    // launch (kept for the benchmark's comparison).
    uint32_t stripes = trace::kDefaultStripes;
};

struct RecordingPoint {
    uint32_t site = 0; // instruction index in Function::code
    trace::EventKind kind = trace::EventKind::Load;
    uint32_t events = 1; // events per execution (vector accesses: one per element)
    bool before = false; // recorded before the instruction (barrier arrive, exit)
};

struct InstrumentedKernel {
    std::string ptx; // the whole module, with `kernel` rewritten
    std::string kernel;
    uint32_t own_params = 0;            // the kernel's parameters; the kTraceParamCount trace ones follow
    std::vector<RecordingPoint> points; // in code order
};

// Rewrites `kernel` of `text`, which must be the text `module` was parsed from. Throws
// InstrumentError (naming the PTX line) for PTX it cannot instrument, e.g. two instructions on one
// line or a kernel of more than 65535 instructions.
InstrumentedKernel instrument_kernel(std::string_view text, const Module& module, const std::string& kernel,
                                     const InstrumentOptions& options = {},
                                     const std::string& source_name = "<ptx>");

// Warps in a launch, as the warp table counts them (each block rounded up to whole warps).
uint64_t trace_warp_count(const trace::Dim3& grid, const trace::Dim3& block);

} // namespace synclab::ptx
