// A tiny builder of synthetic traces for the analysis tests: a thread table (blocks x threads, warps
// of 32), sites with CUDA lines, and events appended in the order the test calls them (that order is
// the trace's observed order).
#pragma once

#include "analysis/findings.h"
#include "trace/trace.h"

#include <bit>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace synclab::analysis::testing {

using trace::Event;
using trace::EventKind;
using trace::Space;
using trace::ThreadEnd;

inline uint8_t flags_of(Space space, uint32_t size, bool is_volatile = false) {
    return trace::make_flags(space, size, is_volatile);
}

class TraceBuilder {
  public:
    TraceBuilder(uint32_t blocks, uint32_t threads_per_block) : per_block_(threads_per_block) {
        trace_.meta.grid = {blocks, 1, 1};
        trace_.meta.block = {threads_per_block, 1, 1};
        trace_.threads = trace::thread_layout(trace_.meta.grid, trace_.meta.block);
    }

    // A site with CUDA line `line` (0: unknown), PTX line `ptx_line` (default: 100 + index) and PTX
    // text `text`.
    uint16_t site(uint32_t line, uint32_t ptx_line = 0, std::string text = "") {
        trace::Site s;
        s.source_line = line;
        s.ptx_line = ptx_line != 0 ? ptx_line : 100 + uint32_t(trace_.sites.size());
        s.text = std::move(text);
        trace_.sites.push_back(s);
        return uint16_t(trace_.sites.size() - 1);
    }
    // A __syncthreads() at `line`: its PTX is the aligned "bar.sync 0".
    uint16_t sync_site(uint32_t line) { return site(line, 0, "bar.sync 0"); }

    // Trace thread index of (block, thread_in_block).
    uint32_t thread(uint32_t block, uint32_t thread_in_block) const {
        return block * per_block_ + thread_in_block;
    }

    TraceBuilder& load(uint32_t thread, uint16_t site, uint64_t address, uint32_t size = 4,
                       Space space = Space::Shared, bool is_volatile = false) {
        return memory(EventKind::Load, thread, site, address, size, space, is_volatile);
    }
    TraceBuilder& store(uint32_t thread, uint16_t site, uint64_t address, uint32_t size = 4,
                        Space space = Space::Shared, bool is_volatile = false) {
        return memory(EventKind::Store, thread, site, address, size, space, is_volatile);
    }
    TraceBuilder& atomic(uint32_t thread, uint16_t site, uint64_t address, uint32_t size = 4,
                         Space space = Space::Shared) {
        return memory(EventKind::Atomic, thread, site, address, size, space, false);
    }
    TraceBuilder& reduction(uint32_t thread, uint16_t site, uint64_t address, uint32_t size = 4,
                            Space space = Space::Shared) {
        return memory(EventKind::Reduction, thread, site, address, size, space, false);
    }

    // Strong global accesses as the simulator records them (kVolatile, the scope, kOrdered for
    // ld.acquire / st.release / an ordered atomic): Scope::None is a .volatile access's.
    TraceBuilder& strong_load(uint32_t thread, uint16_t site, uint64_t address, trace::Scope scope = trace::Scope::None,
                              bool acquire = false) {
        return push(EventKind::Load, thread, site, address, 0,
                    trace::make_flags(Space::Global, 4, true, scope, acquire));
    }
    TraceBuilder& strong_store(uint32_t thread, uint16_t site, uint64_t address,
                               trace::Scope scope = trace::Scope::None, bool release = false) {
        return push(EventKind::Store, thread, site, address, 0,
                    trace::make_flags(Space::Global, 4, true, scope, release));
    }
    TraceBuilder& strong_atomic(uint32_t thread, uint16_t site, uint64_t address,
                                trace::Scope scope = trace::Scope::Device, bool ordered = false) {
        return push(EventKind::Atomic, thread, site, address, 0,
                    trace::make_flags(Space::Global, 4, true, scope, ordered));
    }
    // A fence (membar / fence.*) of `scope` by `thread`, as the simulator records it.
    TraceBuilder& fence(uint32_t thread, uint16_t site, trace::Scope scope = trace::Scope::Device) {
        return push(EventKind::Fence, thread, site, 0, 0, trace::make_flags(Space::Other, 1, false, scope, true));
    }

    // Sets the value (trace::Event::value) of the event appended last: the value a load read or a
    // store wrote (the builder's accesses carry 0 otherwise).
    TraceBuilder& value(uint32_t v) {
        trace_.events.back().value = v;
        return *this;
    }

    // `thread` arrives at barrier `id` (at `site`) in its block's current phase of that barrier;
    // waits = false is bar.arrive (no wait: release() gives it no leave).
    TraceBuilder& arrive(uint32_t thread, uint16_t site, uint32_t id = 0, bool waits = true) {
        const uint32_t block = trace_.threads[thread].block;
        const uint32_t phase = phases_[{block, id}];
        if (waits) waiting_[{block, id}].emplace_back(thread, site);
        return push(EventKind::BarrierArrive, thread, site, id, phase, 0);
    }
    // Completes the current phase of barrier `id` in `block`: a leave for every thread that arrived.
    TraceBuilder& release(uint32_t block, uint32_t id = 0) {
        uint32_t& phase = phases_[{block, id}];
        for (const auto& [t, site] : waiting_[{block, id}])
            push(EventKind::BarrierLeave, t, site, id, phase, 0);
        waiting_[{block, id}].clear();
        ++phase;
        return *this;
    }
    // Every thread of `block` that has not exited arrives at `site`, then the phase completes.
    TraceBuilder& barrier(uint32_t block, uint16_t site, uint32_t id = 0) {
        for (uint32_t t = 0; t < per_block_; ++t) {
            if (!exited_.count(thread(block, t))) arrive(thread(block, t), site, id);
        }
        return release(block, id);
    }

    // A __syncwarp(mask) of the lanes `lanes` of warp `warp` in `block` (at `site`): one WarpSync
    // WarpCollective event per lane, as the simulator records a meeting (trace.h).
    TraceBuilder& warp_sync(uint32_t block, uint32_t warp, uint32_t mask, uint16_t site, uint32_t lanes = 0) {
        return collective(trace::Collective::WarpSync, block, warp, mask, site, lanes ? lanes : mask);
    }
    // Any warp collective of `lanes` with member mask `mask`.
    TraceBuilder& collective(trace::Collective kind, uint32_t block, uint32_t warp, uint32_t mask, uint16_t site,
                             uint32_t lanes) {
        for (uint32_t l = 0; l < 32; ++l) {
            const uint32_t t = warp * 32 + l;
            if (!((lanes >> l) & 1) || t >= per_block_) continue;
            push(EventKind::WarpCollective, thread(block, t), site, (uint64_t(trace::kNoLane) << 32) | mask, 0,
                 static_cast<uint8_t>(kind));
        }
        return *this;
    }

    TraceBuilder& exit(uint32_t thread) {
        exited_[thread] = true;
        trace_.threads[thread].end = ThreadEnd::Exited;
        return push(EventKind::Exit, thread, 0, 0, 0, 0);
    }
    TraceBuilder& exit_all() {
        for (uint32_t t = 0; t < trace_.threads.size(); ++t) {
            if (!exited_.count(t)) exit(t);
        }
        return *this;
    }

    // How `thread` ended (for deadlocks and timeouts).
    TraceBuilder& end(uint32_t thread, ThreadEnd how, uint16_t site) {
        trace_.threads[thread].end = how;
        trace_.threads[thread].end_site = site;
        return *this;
    }
    TraceBuilder& status(trace::RunStatus status) {
        trace_.meta.status = status;
        return *this;
    }
    // Marks `block`'s history (the other blocks stay Whole).
    TraceBuilder& history(uint32_t block, trace::BlockHistory history) {
        if (trace_.block_history.size() <= block)
            trace_.block_history.resize(trace_.meta.grid.count(), trace::BlockHistory::Whole);
        trace_.block_history[block] = history;
        return *this;
    }

    // The cost model's timing of the event appended last (Trace::timing is kept parallel to the
    // events: events appended before without timing get zeros).
    TraceBuilder& timed(uint32_t latency, uint32_t queue_depth, uint64_t issue = 0) {
        trace_.timing.resize(trace_.events.size());
        trace_.timing.back() = {issue, latency, queue_depth};
        return *this;
    }

    // Any event, as it is (the helpers above build theirs with it).
    TraceBuilder& push(EventKind kind, uint32_t thread, uint16_t site, uint64_t address, uint32_t value,
                       uint8_t flags) {
        Event e;
        e.time = trace_.events.size();
        e.kind = kind;
        e.thread = thread;
        e.site = site;
        e.address = address;
        e.value = value;
        e.flags = flags;
        trace_.events.push_back(e);
        return *this;
    }

    const trace::Trace& trace() const { return trace_; }
    uint32_t threads_per_block() const { return per_block_; }
    trace::Trace& mutable_trace() { return trace_; }

  private:
    TraceBuilder& memory(EventKind kind, uint32_t thread, uint16_t site, uint64_t address, uint32_t size,
                         Space space, bool is_volatile) {
        return push(kind, thread, site, address, 0, flags_of(space, size, is_volatile));
    }

    trace::Trace trace_;
    uint32_t per_block_;
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> phases_; // (block, id) -> current phase
    std::map<std::pair<uint32_t, uint32_t>, std::vector<std::pair<uint32_t, uint16_t>>>
        waiting_; // (block, id) -> arrivals
    std::map<uint32_t, bool> exited_;
};

// All findings, one per line, for failure messages.
inline std::string dump(const std::vector<Finding>& findings) {
    std::string out = std::to_string(findings.size()) + " finding(s):";
    for (const Finding& f : findings) {
        out += "\n  [" + std::string(to_string(f.kind)) + " " + to_string(f.hazard) +
               " count=" + std::to_string(f.count) + " harmful=" + std::to_string(f.harmful) + "] " +
               f.message;
    }
    return out;
}

// The findings of one kind (and hazard, unless Hazard::None is asked for).
inline std::vector<Finding> only(const std::vector<Finding>& findings, FindingKind kind,
                                 Hazard hazard = Hazard::None) {
    std::vector<Finding> out;
    for (const Finding& f : findings) {
        if (f.kind == kind && (hazard == Hazard::None || f.hazard == hazard)) out.push_back(f);
    }
    return out;
}

} // namespace synclab::analysis::testing
