// A synthetic trace builder for the timeline tests: blocks x threads (warps of 32), sites with CUDA
// lines, events appended with explicit times (tests keep them in time order, as the simulator does).
#pragma once

#include "trace/trace.h"

#include <bit>
#include <cstdint>
#include <string>
#include <utility>

namespace synclab::ui::testing {

using trace::Event;
using trace::EventKind;
using trace::Space;

class Synth {
  public:
    Synth(uint32_t blocks, uint32_t threads_per_block) : per_block_(threads_per_block) {
        trace_.meta.grid = {blocks, 1, 1};
        trace_.meta.block = {threads_per_block, 1, 1};
        trace_.threads = trace::thread_layout(trace_.meta.grid, trace_.meta.block);
        site(0, "exit"); // site 0
    }
    uint16_t site(uint32_t line, std::string text = "st.shared.u32 [%r1], %r2") {
        trace_.sites.push_back(trace::Site{100 + uint32_t(trace_.sites.size()), line, std::move(text)});
        return uint16_t(trace_.sites.size() - 1);
    }
    uint32_t thread(uint32_t block, uint32_t t) const { return block * per_block_ + t; }

    uint32_t access(EventKind kind, uint64_t time, uint32_t thread, uint16_t site, uint64_t address,
                    Space space = Space::Shared, uint32_t size = 4) {
        Event e;
        e.time = time;
        e.kind = kind;
        e.thread = thread;
        e.site = site;
        e.address = address;
        e.flags = uint8_t(uint8_t(space) | (std::countr_zero(size) << trace::flag::kSizeShift));
        return push(e);
    }
    uint32_t store(uint64_t time, uint32_t thread, uint16_t site, uint64_t address) {
        return access(EventKind::Store, time, thread, site, address);
    }
    uint32_t load(uint64_t time, uint32_t thread, uint16_t site, uint64_t address) {
        return access(EventKind::Load, time, thread, site, address);
    }
    uint32_t barrier(EventKind kind, uint64_t time, uint32_t thread, uint16_t site, uint32_t phase,
                     uint32_t id = 0) {
        Event e;
        e.time = time;
        e.kind = kind;
        e.thread = thread;
        e.site = site;
        e.address = id;
        e.value = phase;
        return push(e);
    }
    uint32_t arrive(uint64_t time, uint32_t thread, uint16_t site, uint32_t phase) {
        return barrier(EventKind::BarrierArrive, time, thread, site, phase);
    }
    uint32_t leave(uint64_t time, uint32_t thread, uint16_t site, uint32_t phase) {
        return barrier(EventKind::BarrierLeave, time, thread, site, phase);
    }
    uint32_t exit(uint64_t time, uint32_t thread) { return barrier(EventKind::Exit, time, thread, 0, 0); }
    // A warp collective event of one lane (trace.h's layout): member mask, shfl's source lane (or
    // kNoLane), the lane's result.
    uint32_t collective(uint64_t time, uint32_t thread, uint16_t site, trace::Collective op, uint32_t mask,
                        uint32_t value = 0, uint32_t source = trace::kNoLane) {
        Event e;
        e.time = time;
        e.kind = EventKind::WarpCollective;
        e.thread = thread;
        e.site = site;
        e.address = uint64_t(source) << 32 | mask;
        e.value = value;
        e.flags = uint8_t(op);
        return push(e);
    }
    void end_waiting(uint32_t thread, uint16_t site) {
        trace_.threads[thread].end = trace::ThreadEnd::AtBarrier;
        trace_.threads[thread].end_site = site;
        trace_.meta.status = trace::RunStatus::Deadlock;
    }
    trace::Trace& trace() { return trace_; }

  private:
    uint32_t push(const Event& e) {
        trace_.events.push_back(e);
        return uint32_t(trace_.events.size() - 1);
    }
    trace::Trace trace_;
    uint32_t per_block_;
};

} // namespace synclab::ui::testing
