// Stepping through a recorded run: a playhead that moves event by event, or warp instruction by warp
// instruction, forward and back, through the trace in time order; and what the kernel's state was at
// that moment (each warp's current instruction, a block's shared memory). Pure (no ImGui, no GL), like
// timeline_model.h: the timeline draws the playhead, the source view lights the warps' lines, the
// shared-memory view draws the slots, and all of it is unit-tested here.
//
// What "stale" means here: a shared-memory slot whose value is older than the one the block will
// store there before its next barrier release. A load that reads such a slot reads what the program
// has not written yet (stencil/missing_barrier's neighbour loads); the correct variant's barrier
// makes every load come after the stores, so no load reads a stale slot.
#pragma once

#include "trace/trace.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace synclab::ui {

class Playback {
  public:
    static constexpr uint32_t kAllBlocks = UINT32_MAX;
    Playback() = default;
    // Steps through the events of `block` (or of every block: 64 blocks interleaved in time are hard
    // to follow, so the bar steps through one). The trace must outlive the playback. O(events log
    // events) once; the cursor starts at 0.
    explicit Playback(const trace::Trace& trace, uint32_t block = kAllBlocks);
    uint32_t block() const { return block_; }

    // Events in time order (ties: the trace's order, which is execution order on the simulator).
    size_t size() const { return order_.size(); }
    // Events applied: 0 is before the first event, size() after the last.
    size_t cursor() const { return cursor_; }
    void seek(size_t cursor);
    // Moves `delta` events (negative: back), clamped to [0, size()].
    void step_event(int delta);
    // Moves over `delta` warp instructions: the events one warp made with one instruction at one
    // time (its lanes' loads of one ld.shared), which are adjacent in time order.
    void step_instruction(int delta);
    // The camera time (relative to the first event) of the cursor: the last applied event's time, or
    // 0 before the first.
    double camera_time() const;

    // The last applied event (trace index), or UINT32_MAX at cursor 0; and the events of the warp
    // instruction it belongs to (those the cursor just passed, for marking on the timeline).
    uint32_t current_event() const;
    std::vector<uint32_t> current_instruction() const;

    // Each warp that has started: the instruction of its last applied event.
    struct WarpAt {
        uint32_t block = 0, warp = 0;
        uint32_t site = 0;
        uint32_t event = 0; // that event (trace index)
    };
    std::vector<WarpAt> warps_at() const;
    // The CUDA lines of warps_at() (0s left out), sorted, unique: the source view lights them.
    std::vector<uint32_t> current_lines() const;

    // One 4-byte word of a block's shared memory at the cursor.
    struct Slot {
        uint64_t address = 0;              // byte offset in the block's shared window
        bool written = false;              // some store reached it before the cursor
        uint32_t value = 0;                // the last store's value (when written)
        uint32_t writer = UINT32_MAX;      // that store (trace index)
        uint32_t next_writer = UINT32_MAX; // the next store to it after the cursor (trace index)
        bool stale = false;                // next_writer comes before the block's next barrier release
        bool read_now = false;             // the current warp instruction loads it
    };
    // The words that any shared access of `block` touches in the whole run, in address order, with
    // their state at the cursor; empty when the block has more than `max_words` (too large to show).
    std::vector<Slot> shared_memory(uint32_t block, size_t max_words = 1024) const;
    // The block of the current event (or of the first event at cursor 0).
    uint32_t current_block() const;

  private:
    bool same_instruction(size_t a, size_t b) const; // positions in order_
    const trace::Trace* trace_ = nullptr;
    std::vector<uint32_t> order_; // event indices, time order
    size_t cursor_ = 0;
    uint32_t block_ = kAllBlocks;
    uint64_t time_begin_ = 0;
};

} // namespace synclab::ui
