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
// Warp edges. __syncwarp() (bar.warp.sync, a WarpCollective event of kind WarpSync) orders memory
// between its member lanes (CUDA guide: "__syncwarp() ... memory ordering among threads participating
// in the barrier"); shfl, vote, match, redux and elect order nothing ("do not imply a memory
// barrier"). Per lane a sync count (warp syncs it completed) and, for warps that ever synced, a
// vector clock over the 32 lanes: knows[k] = the latest sync count of lane k that this lane has
// synchronised with, directly or through other lanes. A meeting (one WarpSync event per member lane
// with the same mask; members = the mask's lanes that exist) joins the members' clocks. An access of
// lane A made with sync count a happens before a later access of lane B of the same warp and epoch
// iff B's knows[A] > a (A's access precedes A's sync a + 1, which B has synchronised with).
// Masks smaller than the warp order their members only; the events of one meeting may come
// interleaved with others (a GPU trace): the join happens when the last member's event is seen.
#pragma once

#include "trace/trace.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

namespace synclab::analysis::detail {

// Where in the block's synchronisation order one access of one thread happened.
struct Stamp {
    uint32_t thread = 0; // trace thread index
    uint32_t epoch = 0;  // block-wide barrier phases the thread had left
    uint32_t sync = 0;   // warp syncs (__syncwarp) the thread had completed
};

// The warp sync counts of one site's readers since a write, by thread_in_block, kept only for readers
// that had completed a __syncwarp() (the others read at 0): each reader's count at its latest read
// there, since a later write ordered after that read is ordered after its earlier ones too. A few
// readers are a list; from the kSparse+1-th one on, a table over thread_in_block (a word every
// thread of a block reads after a __syncwarp() would otherwise cost a scan per reader).
class ReaderSyncs {
  public:
    uint32_t of(uint32_t local) const {
        if (!dense_.empty()) return local < dense_.size() ? dense_[local] : 0;
        for (const auto& [reader, sync] : sparse_)
            if (reader == local) return sync;
        return 0;
    }
    void note(uint32_t local, uint32_t sync) {
        if (sync == 0) return;
        if (dense_.empty()) {
            for (auto& [reader, s] : sparse_)
                if (reader == local) {
                    s = std::max(s, sync);
                    return;
                }
            if (sparse_.size() < kSparse) {
                sparse_.emplace_back(local, sync);
                return;
            }
            for (const auto& [reader, s] : sparse_)
                at(reader) = s;
            std::vector<std::pair<uint32_t, uint32_t>>().swap(sparse_);
        }
        at(local) = std::max(at(local), sync);
    }
    void clear() {
        sparse_.clear();
        dense_.clear();
    }
    size_t bytes() const { return sparse_.capacity() * sizeof(sparse_[0]) + dense_.capacity() * sizeof(uint32_t); }

  private:
    static constexpr size_t kSparse = 32;
    uint32_t& at(uint32_t local) {
        if (local >= dense_.size()) dense_.resize(size_t(local) + 1, 0);
        return dense_[local];
    }
    std::vector<std::pair<uint32_t, uint32_t>> sparse_;
    std::vector<uint32_t> dense_; // non-empty: the table (indexed by thread_in_block)
};

class BarrierClock {
  public:
    explicit BarrierClock(const trace::Trace& trace);

    // Feed every event of the trace, in trace order (memory events are ignored here).
    void observe(const trace::Event& event);

    Stamp stamp(uint32_t thread) const {
        return {thread, epochs_[thread], thread < syncs_.size() ? syncs_[thread] : 0};
    }
    uint32_t block_of(uint32_t thread) const { return trace_.threads[thread].block; }
    // True once every thread of `block` in the thread table has an Exit event.
    bool block_finished(uint32_t block) const {
        return block < exited_.size() && exited_[block] >= block_size_[block];
    }

    // Whether the access stamped `earlier` happens before the one stamped `later` (both of one block;
    // accesses of different blocks are never ordered by barriers): by program order or barrier
    // epochs only. `later` must be an access being observed now when warp edges are to count
    // (warp_ordered()).
    static bool ordered(const Stamp& earlier, const Stamp& later) {
        return earlier.thread == later.thread || earlier.epoch < later.epoch;
    }
    // ordered(), or a __syncwarp() chain from `earlier` to the thread of `later` (same warp, same
    // epoch). `later` is the current access of its thread.
    bool warp_ordered(const Stamp& earlier, const Stamp& later) const {
        if (ordered(earlier, later)) return true;
        if (earlier.epoch != later.epoch) return false;
        return knows(later.thread, earlier.thread) > earlier.sync;
    }
    // Whether threads `a` and `b` are lanes of one warp of one block.
    bool same_warp(uint32_t a, uint32_t b) const {
        const trace::ThreadInfo& x = trace_.threads[a];
        const trace::ThreadInfo& y = trace_.threads[b];
        return x.block == y.block && x.warp == y.warp;
    }
    // Whether some __syncwarp() has been seen in the warp of `thread` (else warp edges are moot).
    bool warp_synced(uint32_t thread) const { return warp_of_.count(warp_key(thread)) != 0; }

  private:
    // The latest sync count of lane `of` known to thread `by` (0 when none).
    uint32_t knows(uint32_t by, uint32_t of) const;
    void warp_sync(const trace::Event& event);
    void lane_exited(uint32_t thread);
    uint64_t warp_key(uint32_t thread) const {
        const trace::ThreadInfo& t = trace_.threads[thread];
        return (uint64_t(t.block) << 16) | t.warp;
    }
    // A warp that has synced: each lane's vector clock, and the meetings still gathering members.
    // While every meeting had all the warp's lanes as members (the common __syncwarp()), all lanes
    // know the same: one row stands for all 32 (`rows` null). A partial mask gives each lane its
    // own row. A warp's clocks are dropped once all its lanes have exited (nothing later asks).
    struct WarpClocks {
        using Row = std::array<uint32_t, 32>;
        uint32_t first_thread = 0;                // trace thread of lane 0
        uint32_t present = 0;                     // lanes that exist (the thread table says)
        uint32_t exited = 0;                      // lanes that have exited
        Row shared{};                             // every lane's row while `rows` is null
        std::unique_ptr<std::array<Row, 32>> rows; // [lane][lane], after a partial meeting
        std::vector<std::pair<uint32_t, uint32_t>> gathering; // (member mask, lanes seen so far)

        const Row& row(uint32_t lane) const { return rows ? (*rows)[lane] : shared; }
    };

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
    std::vector<uint32_t> syncs_;                                   // per thread (empty: no warp sync yet)
    std::unordered_map<uint64_t, WarpClocks> warp_of_;              // warps that synced
};

} // namespace synclab::analysis::detail
