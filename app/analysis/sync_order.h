// Happens-before across threads of different blocks (and inside a block beyond barriers): release /
// acquire synchronisation on global memory as the PTX memory model defines it, and the flag chains
// the stale-read check looks for. Internal to the analysis library; used by global_races.cpp.
//
// [SECTION] What synchronises (PTX ISA, "Memory Consistency Model": release and acquire patterns,
// morally strong, synchronizes-with)
// - Strong access: a global Load with kVolatile (.volatile, .relaxed, .acquire), a Store with
//   kVolatile (.volatile, .relaxed, .release), every Atomic and Reduction. Scope: the event's, or
//   System for a scope-less strong load or store (.volatile is .relaxed.sys), Device for an atomic.
// - Release pattern by thread T on location a: a Fence (scope S), then in T's program order a strong
//   write W of a (the fence's snapshot travels with W); or W itself ordered (kOrdered: st.release,
//   atom.release / acq_rel; the trace does not tell atom.acquire from atom.release, so an ordered
//   atomic counts as both).
// - Acquire pattern by thread R: a strong read X of a that observes W, then in R's program order a
//   Fence (scope S'); or X itself ordered (ld.acquire, ordered atomic).
// - Observes: a Load reads from the newest earlier (trace order) strong write of a whose recorded
//   value equals the load's (an atomic whose value is not the value written, atom.add and the
//   like, matches only as the newest write); an Atomic observes every earlier atomic on a (atomics
//   on one address are a total order, and their messages carry the releases before them: release
//   sequences). A GPU trace may record a write after a load that read it (each event's time is
//   taken when the instruction completes): a strong load whose value no earlier write of the
//   address has (nor, with no write yet, 0: the memory's value before the launch) waits for the
//   next strong write of the address, and observes it if that write stores its value (not for a
//   simulator trace, whose order is the execution's; at most one waiting load per thread and
//   kRecent per address).
// - Scopes: the release's scope must include R's block, the acquire's T's (Block: the same block
//   only; Device / System: every block), and W and X must be morally strong (each in the other's
//   scope). A fence.cta (`__threadfence_block()`) thus orders nothing for a thread of another block.
// - Then every access of T before the release (before the fence, or before W) happens before every
//   access of R after the acquire (after the fence, or after X); transitively with the barrier
//   epochs of happens_before.h (a block-wide barrier joins the knowledge of the block's threads)
//   and program order.
//
// [SECTION] Representation
// Every thread has a local clock `lc`, raised by each of its fences and strong global writes; an
// access is stamped with (thread, block, barrier epoch, lc). A thread's Knowledge says which
// accesses happen before its current point: per thread U, those of U with lc < bound; per block B,
// those of B in an epoch < bound. A release takes a snapshot (the thread's knowledge plus itself:
// its lc, its block and epoch); an acquire joins snapshots. Beside it, each thread keeps what it has
// Seen: the strong writes of other threads its strong reads observed, with or without a fence (the
// flag chains), with what the writer and the reader did around them (fences, scopes), so that a
// stale read can say what is missing.
//
// Cost. Nothing of this exists for a trace without fences and strong global accesses (checked
// once over the events), unless it ran under the relaxed memory model: global_races.cpp then runs
// as before. Snapshots are shared, knowledge is
// sparse (sorted vectors), an atomic's acquire is kept as (address, position) and resolved only at
// the thread's next fence, against a running join of the address's releases. A kernel where every
// one of N threads releases before its atomic and acquires after it still costs O(N^2) time and
// memory: each thread then knows about every earlier one (analysis_bench measures 4,096).
//
// Limits: an exited thread's knowledge does not pass through the barriers it no longer takes part
// in; fence.sc is treated as fence.acq_rel (the SC order matters for store buffering, not for the
// message-passing chains this checks); load buffering and other reads from later writes are not
// considered; only the newest 64 strong writes of an address are candidates for a load.
#pragma once

#include "analysis/happens_before.h"
#include "trace/trace.h"

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

namespace synclab::analysis::detail {

// Where one access happened: its thread, block, barrier epoch and local clock.
struct SyncStamp {
    uint32_t thread = 0;
    uint32_t block = 0;
    uint32_t epoch = 0;
    uint32_t lc = 0;
};

// A sparse map key -> bound, sorted by key; join keeps the larger bound.
class Bounds {
  public:
    uint32_t get(uint32_t key) const;
    void raise(uint32_t key, uint32_t bound);
    void join(const Bounds& other);
    bool empty() const { return entries_.empty(); }
    size_t size() const { return entries_.size(); }

  private:
    std::vector<std::pair<uint32_t, uint32_t>> entries_;
};

// Which accesses happen before a point (see the header comment).
struct Knowledge {
    Bounds threads; // thread -> accesses with lc < bound
    Bounds blocks;  // block -> accesses in an epoch < bound
    void join(const Knowledge& other) {
        threads.join(other.threads);
        blocks.join(other.blocks);
    }
    bool empty() const { return threads.empty() && blocks.empty(); }
    bool covers(const SyncStamp& s) const {
        return threads.get(s.thread) > s.lc || blocks.get(s.block) > s.epoch;
    }
};
using Snapshot = std::shared_ptr<const Knowledge>;

constexpr uint32_t kNoSite = UINT32_MAX;

// A flag chain: `reader` (thread) read, at `read_site`, a strong write of `writer` made at
// `write_site` with local clock `bound`: the writer's accesses with lc < bound came before that
// write. With what each side did, for the message of a stale read.
struct Seen {
    uint32_t writer = 0;
    uint32_t bound = 0;
    uint32_t reader = 0;
    uint32_t write_site = kNoSite;
    uint32_t read_site = kNoSite;
    bool write_atomic = false;
    bool read_atomic = false;
    // The writer before its flag write: its newest fence (any scope) and newest Device/System fence
    // (lc 0: none), and whether the flag write itself is a release, at what scope.
    uint32_t fence_lc = 0;
    uint32_t fence_site = kNoSite;
    trace::Scope fence_scope = trace::Scope::None;
    uint32_t wide_fence_lc = 0;
    bool write_release = false;
    trace::Scope write_scope = trace::Scope::System;
    // The reader after its flag read (up to now): whether the read was an acquire, at what scope,
    // and the first fence after it (any scope), and whether a Device/System fence followed.
    bool read_acquire = false;
    trace::Scope read_scope = trace::Scope::System;
    uint32_t reader_fence_site = kNoSite;
    trace::Scope reader_fence_scope = trace::Scope::None;
    bool reader_wide_fence = false;
};

// Whether an access at `scope` by a thread of block `from` includes a thread of block `to`.
inline bool scope_includes(trace::Scope scope, uint32_t from, uint32_t to) {
    return scope != trace::Scope::Block || from == to;
}

class SyncOrder {
  public:
    // Null when the trace has no fence and no strong global access and is not of the relaxed
    // memory model: nothing to model.
    static std::unique_ptr<SyncOrder> make(const trace::Trace& trace);
    explicit SyncOrder(const trace::Trace& trace);

    // Feed the events of whole blocks in trace order: `epoch` is the thread's barrier epoch at the
    // event; `block_wide` for a BarrierLeave says its phase was block-wide (happens_before.h).
    void fence(const trace::Event& e, uint32_t epoch);
    void arrive(const trace::Event& e);
    void leave(const trace::Event& e, bool block_wide);
    // A global memory access; returns its stamp's lc (the thread's clock after the access: a strong
    // write raises it first).
    uint32_t access(const trace::Event& e, uint32_t epoch);

    // Whether `earlier` happens before the current point of `thread` through synchronisation
    // (release/acquire, carried through barriers); the barrier epochs and program order are the
    // caller's.
    bool knows(uint32_t thread, const SyncStamp& earlier) const;
    bool knows_something(uint32_t thread) const;
    // The thread's local clock now (what a plain access is stamped with).
    uint32_t lc(uint32_t thread) const { return lc_[thread]; }
    // A flag chain from `earlier` (a write) to the current point of `thread`: a strong write of
    // earlier.thread after it (lc > earlier.lc) that `thread` (or a thread of its block before a
    // barrier) observed.
    std::optional<Seen> chain(uint32_t thread, const SyncStamp& earlier) const;

    // Whether a site is a strong access, and its scope (see the header comment).
    bool strong_site(uint32_t site) const { return site < sites_.size() && sites_[site].strong; }
    trace::Scope site_scope(uint32_t site) const {
        return site < sites_.size() ? sites_[site].scope : trace::Scope::System;
    }
    // Both accesses strong and each in the other's scope: they never race (PTX "data race").
    bool morally_strong(uint32_t site_a, uint32_t block_a, uint32_t site_b, uint32_t block_b) const {
        return strong_site(site_a) && strong_site(site_b) &&
               scope_includes(site_scope(site_a), block_a, block_b) &&
               scope_includes(site_scope(site_b), block_b, block_a);
    }

  private:
    struct SiteInfo {
        bool strong = false;
        trace::Scope scope = trace::Scope::System;
    };
    // A strong write, as a load may read it.
    struct Message {
        uint32_t writer = 0;
        uint32_t lc = 0;
        uint32_t site = 0;
        uint32_t value = 0;
        bool value_known = false;
        bool atomic = false;
        uint32_t position = 0; // atomics: its place in the address's order
        Snapshot release_local; // valid for readers of the writer's block
        Snapshot release_wide;  // valid for every reader
        Seen writer_side;       // the writer's half of a Seen
    };
    // An atomic's release, in the address's order.
    struct Contribution {
        uint32_t position = 0;
        uint32_t block = 0;
        bool wide = false;
        Snapshot release;
    };
    // An atomic of a thread that wrote global memory before it (the only ones a flag chain can
    // start at): writer, its lc and place in the order, and the writer's half of a Seen.
    struct AtomicRecord {
        uint32_t lc = 0;
        uint32_t position = 0;
        Seen writer_side;
    };
    // A strong load whose write the trace has not shown yet (see "Observes").
    struct Unresolved {
        uint32_t reader = 0;
        uint32_t site = 0;
        uint32_t value = 0;
        uint8_t flags = 0;
    };
    struct AddressState {
        std::deque<Message> recent; // newest last, at most kRecent
        std::vector<Unresolved> unresolved;
        uint32_t atomics = 0;        // atomics so far (the next one's position)
        std::vector<Contribution> releases; // position ascending
        std::vector<Contribution> local_releases; // of them, the .cta-only ones
        // The join of the wide releases before position wide_upto (releases[0, wide_index)), so
        // that the threads acquiring one after another join it once each (not every release).
        Knowledge wide_prefix;
        uint32_t wide_upto = 0;
        size_t wide_index = 0;
        std::unordered_map<uint32_t, std::vector<AtomicRecord>> records; // by writer, lc ascending
    };
    // R has observed the atomics of `address` before `position`.
    struct SeenAtomics {
        uint64_t address = 0;
        uint32_t position = 0;
        Seen reader_side;
    };
    struct PendingAtomic {
        uint64_t address = 0;
        uint32_t position = 0;
    };
    struct ThreadState {
        Knowledge known;
        Knowledge pending_local; // observed releases of the same block: any fence acquires them
        Knowledge pending_wide;  // of other blocks: a Device/System fence acquires them
        std::vector<PendingAtomic> pending_atomics;
        Snapshot release_local; // from the newest fence
        Snapshot release_wide;  // from the newest Device/System fence
        uint32_t fence_lc = 0, fence_site = kNoSite, wide_fence_lc = 0;
        trace::Scope fence_scope = trace::Scope::None;
        std::vector<Seen> seen; // by writer, sorted
        std::vector<SeenAtomics> seen_atomics;
    };
    struct PhaseKey {
        uint32_t block = 0, id = 0, phase = 0;
        bool operator==(const PhaseKey&) const = default;
    };
    struct PhaseKeyHash {
        size_t operator()(const PhaseKey& k) const {
            return std::hash<uint64_t>{}(((uint64_t(k.block) << 32) ^ (uint64_t(k.id) << 24) ^ k.phase) *
                                         0x9e3779b97f4a7c15ull);
        }
    };
    struct PhaseJoin {
        Knowledge known;
        std::vector<Seen> seen;
        std::vector<SeenAtomics> seen_atomics;
        uint32_t arrivals = 0, leaves = 0;
    };
    static constexpr size_t kRecent = 64;

    ThreadState& state(uint32_t thread);
    const ThreadState* find_state(uint32_t thread) const {
        return thread < threads_.size() ? threads_[thread].get() : nullptr;
    }
    uint32_t block_of(uint32_t thread) const { return trace_.threads[thread].block; }
    Snapshot snapshot(const ThreadState& s, uint32_t thread, uint32_t epoch, uint32_t bound) const;
    Seen writer_side(const ThreadState* s, uint32_t thread, const trace::Event& e, uint32_t lc) const;
    void acquire_atomics(ThreadState& s, uint32_t thread, const PendingAtomic& p, bool wide);
    void observe_load(const trace::Event& e);
    void observe(const trace::Event& e, AddressState& a, const Message& m);
    void resolve(AddressState& a, const Message& m);
    void atomic(const trace::Event& e, uint32_t epoch);
    static void add_pending(ThreadState& s, const PendingAtomic& p);
    static void add_seen(std::vector<Seen>& into, const Seen& seen);
    static void add_seen_atomics(std::vector<SeenAtomics>& into, const SeenAtomics& seen);

    const trace::Trace& trace_;
    std::vector<SiteInfo> sites_;
    std::vector<std::unique_ptr<ThreadState>> threads_; // allocated when a thread first needs one
    std::vector<uint32_t> lc_;                           // per thread
    std::vector<uint8_t> wrote_; // per thread: a global write since its last AtomicRecord
    std::unordered_map<uint64_t, AddressState> addresses_;
    std::unordered_map<PhaseKey, PhaseJoin, PhaseKeyHash> phases_;
    bool defer_ = true; // loads may wait for their write (not a simulator trace)
};

// Feeds one event that is not a memory access to a global analysis's two orders: barriers to the
// block clock and the SyncOrder, fences to the SyncOrder (with the thread's barrier epoch), the rest
// to the clock. The global race and scope race analyses both walk a trace this way.
void synchronise(const trace::Event& e, BarrierClock& clock, SyncOrder& sync);

} // namespace synclab::analysis::detail
