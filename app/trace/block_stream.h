// Analysing as the run goes. A run of a big grid records tens of millions of events, most of them
// shared-memory accesses that only the shared-memory race analysis reads, and it reads them one
// block at a time (shared memory is per block). A runner that wants findings rather than a whole
// trace gives the simulator a BlockSink: when the event vector fills, the simulator hands the events
// of the blocks that have finished since the last time to the sink (in trace order), then drops the
// events the sink says it has dealt with. What stays (global accesses, barriers, fences, atomics,
// exits) is what the analyses of the whole grid need. This is what compute-sanitizer's racecheck
// does: shadow state per block, analysed as blocks run, not a log of every access.
//
// The simulator sits below the analyses, so the seam is here, in the trace layer both see
// (analysis/streamed.h implements it). A trace recorded this way is not a whole trace (the
// simulator's Result says how many events it dropped): it is for the findings, not for saving or
// for the app's views, so runners that save or show traces do not stream.
#pragma once

#include "trace/trace.h"

#include <cstdint>
#include <vector>

namespace synclab::trace {

// The blocks that finished since the last batch, and every event of theirs the trace still holds.
struct FinishedBlocks {
    std::vector<uint32_t> blocks; // linear block indices, ascending
    std::vector<Event> events;    // their events, in trace order (see in_trace_order)
    // false: each thread's events in program order, but threads not merged into trace order (a GPU
    // trace buffer's warps, one after the other): the sink merges them by time (trace_buffer.h),
    // off the thread that hands them over.
    bool in_trace_order = true;
};

class BlockSink {
  public:
    virtual ~BlockSink() = default;
    // Called on the simulating thread. `recording` is the trace being recorded: its threads, sites,
    // memory map and meta are valid now (copy what is needed: they change as the run goes on); its
    // events are not those of the batch.
    virtual void take(const Trace& recording, FinishedBlocks batch) = 0;
    // Whether the trace may drop `e`, an event of a block already taken.
    virtual bool drops(const Event& e) const = 0;
    // Appends to `kept` the events of `events` the trace keeps (those drops() does not): one call
    // per batch where a receiver has a batch at hand (a sink overrides it with drops() inlined).
    virtual void keep(const std::vector<Event>& events, std::vector<Event>& kept) const {
        for (const Event& e : events)
            if (!drops(e)) kept.push_back(e);
    }
    // An empty vector to fill the next batch into: one an earlier batch left behind, with its
    // memory (a batch is tens of MB; fresh pages cost more than filling them, docs/PERF_NOTES.md),
    // or a new one.
    virtual std::vector<Event> spare_events() { return {}; }
};

} // namespace synclab::trace
