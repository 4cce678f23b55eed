// The trace's budgets. Events are appended by Run::emit (run.h) into room this file provides: when
// the room is used up, the event vector grows if Options::max_events and Options::max_memory_bytes
// allow it, and otherwise the run ends with status Budget. No event is ever dropped.
#include "sim/run.h"

#include <algorithm>

namespace synclab::sim {

// What the event vector can occupy: its capacity, reserved pages included (they become resident as
// events fill them).
uint64_t Run::trace_bytes() const {
    return trace_ ? uint64_t(trace_->events.capacity()) * event_bytes() : 0;
}

void Run::grow_events() {
    std::vector<trace::Event>& events = trace_->events;
    const uint64_t used = events.size();
    if (used >= options_.max_events)
        throw BudgetExceeded{Budget::Events,
                             "the trace reached its event budget of " + std::to_string(options_.max_events) +
                                 " events, so the run stopped there; raise it with --max-events N"};
    // Grow by half (not double): a large trace then overshoots what it needs by less.
    const uint64_t old_capacity = events.capacity();
    uint64_t want = std::max<uint64_t>(old_capacity + old_capacity / 2, uint64_t(1) << 16);
    want = std::min<uint64_t>(want, options_.max_events);
    // While the vector moves, the old and the new buffer are both held.
    const uint64_t held = fixed_bytes_ + old_capacity * event_bytes();
    const uint64_t room =
        options_.max_memory_bytes > held ? (options_.max_memory_bytes - held) / event_bytes() : 0;
    want = std::min(want, room);
    if (want <= used)
        throw BudgetExceeded{Budget::Memory,
                             "the trace would outgrow the memory budget of " +
                                 std::to_string(options_.max_memory_bytes) + " bytes (" +
                                 std::to_string(used) + " events recorded, " + std::to_string(fixed_bytes_) +
                                 " bytes of simulator state and tables), so the run stopped there; raise it "
                                 "with --max-memory BYTES"};
    events.reserve(want);
    if (timing_) trace_->timing.reserve(events.capacity()); // Trace::timing is parallel to events
    peak_bytes_ = std::max(peak_bytes_, held + trace_bytes());
    event_room_ = std::min<uint64_t>(events.capacity(), options_.max_events);
}

} // namespace synclab::sim
