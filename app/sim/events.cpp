// The trace's budgets. Events are appended by Run::emit (run.h) into room this file provides: when
// the room is used up, the event vector grows if Options::max_events and Options::max_memory_bytes
// allow it, and otherwise the run ends with status Budget. No event is ever lost: with a block sink
// (trace/block_stream.h) the events of finished blocks go to the sink first, and only those it has
// dealt with leave the trace.
#include "sim/run.h"

#include <algorithm>
#include <utility>

namespace synclab::sim {

// What the event vector can occupy: its capacity, reserved pages included (they become resident as
// events fill them); analysing as the run goes, its window (make_room_by_handing_over).
uint64_t Run::trace_bytes() const {
    if (!trace_) return 0;
    return (stream_limit_ ? stream_limit_ : uint64_t(trace_->events.capacity())) * event_bytes();
}

// Hands the blocks finished since the last batch to the sink, with their events, and drops the
// events the sink dealt with: one pass over the vector (from the first event of a block still
// running at the last batch: before it, only what stays of blocks handed over), which keeps its
// capacity. False: no block finished since.
bool Run::hand_over_finished_blocks() {
    trace::FinishedBlocks batch;
    streamed_.resize(block_count_, 0);
    for (uint32_t b = 0; b < block_count_; ++b)
        if (retired_at_[b] != UINT64_MAX && !streamed_[b]) batch.blocks.push_back(b);
    if (batch.blocks.empty()) return false;
    constexpr uint8_t kRunning = 0, kTaken = 1, kInBatch = 2;
    for (uint32_t b : batch.blocks)
        streamed_[b] = kInBatch;
    std::vector<trace::Event>& events = trace_->events;
    std::vector<trace::EventTiming>& timing = trace_->timing;
    // Lanes waiting at a barrier hold the index of their arrival event (the barrier writes its phase
    // there when it releases them): those events stay, at new indices.
    std::vector<uint64_t*> waiting;
    for (Warp* w : warps_)
        for (uint64_t& index : w->arrive_event)
            if (index >= handed_prefix_ && index < events.size()) waiting.push_back(&index);
    std::sort(waiting.begin(), waiting.end(), [](const uint64_t* a, const uint64_t* b) { return *a < *b; });
    size_t next_waiting = 0;
    // Untouched pages cost nothing: room for every event scanned (in an earlier batch's vector,
    // whose pages are already there, where the sink has one).
    batch.events = options_.block_sink->spare_events();
    batch.events.reserve(events.size() - handed_prefix_);
    size_t kept = handed_prefix_;
    size_t first_running = SIZE_MAX; // new index of the first event of a block still running
    for (size_t i = handed_prefix_; i < events.size(); ++i) {
        for (; next_waiting < waiting.size() && *waiting[next_waiting] == i; ++next_waiting)
            *waiting[next_waiting] = kept; // (a stale index of a finished barrier may move too: unused)
        const trace::Event& e = events[i];
        // A global thread index is block * threads_per_block + thread_in_block (admit_blocks).
        const uint8_t state = streamed_[e.thread / threads_per_block_];
        if (state == kInBatch) {
            batch.events.push_back(e);
            if (options_.block_sink->drops(e)) continue;
        } else if (state == kRunning && first_running == SIZE_MAX) {
            first_running = kept;
        }
        if (kept != i) {
            events[kept] = e;
            if (timing_) timing[kept] = timing[i];
        }
        ++kept;
    }
    handed_prefix_ = std::min(first_running, kept);
    for (uint32_t b : batch.blocks)
        streamed_[b] = kTaken;
    streamed_events_ += batch.events.size();
    dropped_events_ += events.size() - kept;
    streamed_blocks_ += static_cast<uint32_t>(batch.blocks.size());
    events.resize(kept);
    if (timing_) timing.resize(kept);
    options_.block_sink->take(*trace_, std::move(batch));
    return true;
}

void Run::grow_events() {
    std::vector<trace::Event>& events = trace_->events;
    if (options_.block_sink && make_room_by_handing_over()) return;
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
    if (want <= used) throw trace_over_budget(used);
    events.reserve(want);
    if (timing_) trace_->timing.reserve(events.capacity()); // Trace::timing is parallel to events
    stream_limit_ = 0; // past the reservation: the vector's capacity is what it holds
    peak_bytes_ = std::max(peak_bytes_, held + trace_bytes());
    event_room_ = std::min<uint64_t>(events.capacity(), options_.max_events);
}

BudgetExceeded Run::trace_over_budget(uint64_t used) const {
    return BudgetExceeded{Budget::Memory,
                          "the trace would outgrow the memory budget of " +
                              std::to_string(options_.max_memory_bytes) + " bytes (" + std::to_string(used) +
                              " events recorded, " + std::to_string(fixed_bytes_) +
                              " bytes of simulator state and tables), so the run stopped there; raise it "
                              "with --max-memory BYTES"};
}

// Analysing as the run goes, the vector is reserved large (untouched pages cost nothing) and filled
// up to a limit, its window: when the window is full, finished blocks are handed over, and the
// window widens (by a quarter, at least its first size) only where that freed less than a quarter
// of it. What the memory budget counts is the window, the most of the vector ever touched. False:
// the window would pass the reservation (the vector grows as without a sink).
bool Run::make_room_by_handing_over() {
    std::vector<trace::Event>& events = trace_->events;
    const bool handed_over = hand_over_finished_blocks();
    if (stream_limit_ == 0) { // past the reservation: grow only where finished blocks did not free room
        if (!handed_over || events.size() > events.capacity() / 4 * 3) return false;
        event_room_ = std::min<uint64_t>(events.capacity(), options_.max_events);
        return true;
    }
    if (events.size() > stream_limit_ / 4 * 3) {
        const uint64_t wider = stream_limit_ + std::max(stream_limit_ / 4, stream_window_);
        if (wider > events.capacity() || wider > options_.max_events) return false;
        if (fixed_bytes_ + wider * event_bytes() > options_.max_memory_bytes) throw trace_over_budget(events.size());
        stream_limit_ = wider;
        peak_bytes_ = std::max(peak_bytes_, fixed_bytes_ + trace_bytes());
    }
    event_room_ = stream_limit_;
    return true;
}

} // namespace synclab::sim
