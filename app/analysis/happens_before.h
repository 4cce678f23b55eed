// Happens-before inside a block, built from barrier phases (release/acquire across threads and
// blocks is sync_order.h's, for global memory). Internal to the analysis library.
//
// Model. Every thread carries an epoch: the number of block-wide barrier phases it has left. A phase
// (block, barrier id, phase number) is block-wide when it completed with every thread of the block
// either arriving at it or having exited: that is what `__syncthreads()` (bar.sync 0) always does, and
// what a named barrier does when its thread count covers the block. Phases of any barrier id count.
// Under block-wide barriers every live thread takes part in every phase, in the same order, so:
//   an access of thread A in epoch a happens before an access of thread B != A (same block) in epoch
//   b iff a < b (A's access precedes A's arrival at phase a, or A exited before phase a completed,
//   and B left phase a before its access); accesses in the same epoch by different threads are
//   unordered.
// In observed order the accesses of one block have non-decreasing epochs (a thread between its
// arrive and its leave does not access memory), which lets the shadow state of the race analysis
// drop older epochs lazily.
//
// Block-wideness is decided at the phase's first BarrierLeave in trace order (all its arrivals are
// recorded before it): arrivals + threads of the block that exited so far == threads of the block.
//
// Limitations: a named barrier with a thread count below the block size (bar.sync 1, 64) orders
// nothing here (its participants are not the whole block), so accesses it does order are still seen
// as concurrent. bar.arrive (arrive without waiting) is not told apart from bar.sync.
//
// Extension point: __syncwarp edges would add a per-thread warp epoch to Stamp (the number of warp
// syncs left), and ordered() would also order two lanes of one warp when earlier.warp_epoch <
// later.warp_epoch.
#pragma once

#include "trace/trace.h"

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace synclab::analysis::detail {

// Where in the block's synchronisation order one access of one thread happened.
struct Stamp {
    uint32_t thread = 0; // trace thread index
    uint32_t epoch = 0;  // block-wide barrier phases the thread had left
};

class BarrierClock {
  public:
    explicit BarrierClock(const trace::Trace& trace);

    // Feed every event of the trace, in trace order (memory events are ignored here).
    void observe(const trace::Event& event);

    Stamp stamp(uint32_t thread) const { return {thread, epochs_[thread]}; }
    uint32_t block_of(uint32_t thread) const { return trace_.threads[thread].block; }
    // True once every thread of `block` in the thread table has an Exit event.
    bool block_finished(uint32_t block) const {
        return block < exited_.size() && exited_[block] >= block_size_[block];
    }

    // Whether the access stamped `earlier` happens before the one stamped `later` (both of one block;
    // accesses of different blocks are never ordered by barriers).
    static bool ordered(const Stamp& earlier, const Stamp& later) {
        return earlier.thread == later.thread || earlier.epoch < later.epoch;
    }

  private:
    struct PhaseKey {
        uint32_t block = 0;
        uint32_t id = 0;
        uint32_t phase = 0;
        bool operator==(const PhaseKey&) const = default;
    };
    struct PhaseKeyHash {
        size_t operator()(const PhaseKey& key) const {
            uint64_t h = (uint64_t(key.block) << 32) ^ (uint64_t(key.id) << 24) ^ key.phase;
            return std::hash<uint64_t>{}(h * 0x9e3779b97f4a7c15ull);
        }
    };
    struct PhaseState {
        uint32_t arrivals = 0;
        uint32_t leaves = 0;
        int8_t block_wide = -1; // -1: not completed yet (decided at the first leave)
    };

    const trace::Trace& trace_;
    std::vector<uint32_t> epochs_;                                  // per thread
    std::vector<uint8_t> has_exited_;                               // per thread
    std::vector<uint32_t> block_size_;                              // per block
    std::vector<uint32_t> exited_;                                  // per block
    std::unordered_map<PhaseKey, PhaseState, PhaseKeyHash> phases_; // open phases only
};

} // namespace synclab::analysis::detail
