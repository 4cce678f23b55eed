// The layout of a GPU trace buffer: written by instrumented kernels (ptx/instrument.h), read back by
// the GPU worker, and by the tests that run instrumented kernels in the simulator. Header-only: the
// worker links no SyncLab library.
//
// The event buffer is cut into `stripes` equal regions, each with its own cursor (a u64 counting the
// slots its warps asked for). Warp w of the launch (block * warps_per_block + warp in block) uses
// stripe w % stripes. Why: with one cursor for the whole launch every slot reservation was an atomic
// on one address, which the L2 serialises; on the H200 that was about half of a traced stencil's
// time. Each cursor sits on its own kCursorStride bytes so that the stripes' atomics spread over
// different cache lines (and L2 slices).
//
// A thread's events stay in its warp's stripe, in program order. A stripe whose cursor passed its
// capacity has dropped (cursor - capacity) events: they were never written, not even out of bounds.
// Stripes fill on their own: a warp that records far more than the others (a spin loop) loses its
// later events while other stripes still have room; the drop count says how many.
// Slots are zeroed before a launch; a written event never has time 0 or kind 0, so a reader can tell
// complete events from reserved-but-unwritten slots while a kernel still runs.
//
// Whole blocks (why: an access whose barrier events were lost looks unordered, so a finding must
// never rest on a block that lost events):
// - The block table (u32 per block, optional) says which blocks record: kBlockNotRecorded, or the
//   block's rank among the recording blocks. Without a table every block records, its rank its
//   index. Stripes are chosen by rank (warp_stripe), so that a sample of every k-th block still
//   spreads over every stripe instead of piling onto the few that k * warps_per_block % stripes
//   leaves.
// - The drop table (u64 per warp of the launch, zeroed) counts the events each warp could not
//   record. Only the overflow path writes it, so a block none of whose warps has a count kept its
//   whole history.
#pragma once

#include "trace/trace.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

namespace synclab::trace {

constexpr uint32_t kCursorStride = 256;  // bytes from one stripe's cursor to the next
constexpr uint32_t kDefaultStripes = 64; // enough to take the atomics off one address; a power of two
// One stripe per warp (one_warp_per_stripe) up to 131,072 warps (a 32 MiB cursor area): 16,384 blocks
// of 256 threads.
constexpr uint32_t kMaxStripes = 1u << 17;
constexpr uint32_t kBlockNotRecorded = 0xffffffffu; // block table entry: this block records nothing

struct TraceBufferLayout {
    uint32_t stripes = 1;
    uint64_t stripe_capacity = 0; // event slots per stripe

    uint64_t capacity() const { return stripe_capacity * stripes; }
    uint64_t event_bytes() const { return capacity() * sizeof(Event); }
    uint64_t cursor_bytes() const { return uint64_t(stripes) * kCursorStride; }
    uint64_t stripe_first_slot(uint32_t stripe) const { return stripe * stripe_capacity; }

    // At least `min_slots` slots over `stripes` stripes (rounded up to whole stripes).
    static TraceBufferLayout for_capacity(uint64_t min_slots, uint32_t stripes) {
        TraceBufferLayout l;
        l.stripes = std::max<uint32_t>(stripes, 1);
        l.stripe_capacity = std::max<uint64_t>((min_slots + l.stripes - 1) / l.stripes, 1);
        return l;
    }
};

inline bool is_power_of_two(uint32_t v) {
    return v != 0 && (v & (v - 1)) == 0;
}

// The stripe of warp `warp_in_block` of the block of rank `rank`, computed as the instrumented kernel
// does (32-bit arithmetic; `stripes` a power of two).
inline uint32_t warp_stripe(uint32_t rank, uint32_t warp_in_block, uint32_t warps_per_block,
                            uint32_t stripes) {
    return (rank * warps_per_block + warp_in_block) & (stripes - 1);
}

// The stripes' cursors, read from a host copy of the cursor area.
inline std::vector<uint64_t> read_cursors(const void* cursor_area, const TraceBufferLayout& layout) {
    std::vector<uint64_t> cursors(layout.stripes);
    for (uint32_t s = 0; s < layout.stripes; ++s)
        std::memcpy(&cursors[s], static_cast<const char*>(cursor_area) + uint64_t(s) * kCursorStride,
                    sizeof(uint64_t));
    return cursors;
}

struct CursorTotals {
    uint64_t attempted = 0; // events the kernel tried to record
    uint64_t written = 0;   // of them, in slots inside their stripe
    uint64_t dropped = 0;   // attempted - written
};

inline CursorTotals cursor_totals(const std::vector<uint64_t>& cursors, const TraceBufferLayout& layout) {
    CursorTotals t;
    for (uint64_t c : cursors) {
        t.attempted += c;
        t.written += std::min(c, layout.stripe_capacity);
    }
    t.dropped = t.attempted - t.written;
    return t;
}

inline bool is_complete_event(const Event& e) {
    return e.time != 0 && static_cast<uint8_t>(e.kind) != 0;
}

// Appends the complete events among slots [from, to) of one stripe of a host copy of the buffer.
inline void append_complete_events(const Event* stripe_base, uint64_t from, uint64_t to,
                                   std::vector<Event>& out) {
    for (uint64_t i = from; i < to; ++i) {
        Event e;
        std::memcpy(&e, stripe_base + i, sizeof e);
        if (is_complete_event(e)) out.push_back(e);
    }
}

// The complete events of a host copy of the whole buffer, stripe by stripe; `cursors` (may be null:
// not known, e.g. a hung kernel's) limits each stripe to the slots handed out.
inline std::vector<Event> complete_events(const Event* buffer, const TraceBufferLayout& layout,
                                          const std::vector<uint64_t>* cursors) {
    std::vector<Event> out;
    for (uint32_t s = 0; s < layout.stripes; ++s) {
        const uint64_t used =
            cursors ? std::min((*cursors)[s], layout.stripe_capacity) : layout.stripe_capacity;
        append_complete_events(buffer + layout.stripe_first_slot(s), 0, used, out);
    }
    return out;
}

// Whether any stripe of a host copy of the buffer may have overflowed, told from the events alone
// (for a mapped buffer whose cursors cannot be read: a faulted or hung kernel). A stripe whose cursor
// passed its capacity had every slot reserved, and a reserved slot is written right after (no wait
// between), so its last slot holds a complete event; a stripe whose last slot is still empty lost
// nothing.
inline bool any_stripe_full(const Event* buffer, const TraceBufferLayout& layout) {
    for (uint32_t s = 0; s < layout.stripes; ++s) {
        Event last;
        std::memcpy(&last, buffer + layout.stripe_first_slot(s) + layout.stripe_capacity - 1, sizeof last);
        if (is_complete_event(last)) return true;
    }
    return false;
}

// Each warp has a stripe of its own: every block records at its own index as rank (no block table)
// and there are at least as many stripes as warps, so that warp w writes stripe w alone
// (warp_stripe). Then the events of block b are those of stripes [b * warps_per_block,
// (b + 1) * warps_per_block), and a reader can hand them over a batch of whole blocks at a time.
inline bool one_warp_per_stripe(const TraceBufferLayout& layout, uint64_t warp_count, bool block_table) {
    return !block_table && layout.stripes >= warp_count;
}

// What each warp tried to record (written + dropped), from the cursors of a buffer with
// one_warp_per_stripe: warp w's is stripe w's cursor.
inline std::vector<uint64_t> per_warp_attempted(const std::vector<uint64_t>& cursors, uint64_t warp_count) {
    return std::vector<uint64_t>(cursors.begin(), cursors.begin() + std::min<uint64_t>(warp_count, cursors.size()));
}

// Batches of whole blocks, in block order, of about `target_events` written events each (at least
// one block), for a buffer with one_warp_per_stripe. `cursors`: the stripes' (nothing dropped, so
// each is its stripe's count of events).
struct BlockBatch {
    uint32_t first_block = 0;
    uint32_t blocks = 0;
    uint64_t events = 0;
};
inline std::vector<BlockBatch> block_batches(const std::vector<uint64_t>& cursors, uint64_t block_count,
                                             uint32_t warps_per_block, uint64_t target_events) {
    std::vector<BlockBatch> batches;
    BlockBatch open;
    for (uint64_t b = 0; b < block_count; ++b) {
        uint64_t n = 0;
        for (uint64_t w = b * warps_per_block; w < (b + 1) * warps_per_block && w < cursors.size(); ++w)
            n += cursors[w];
        if (open.blocks == 0) open.first_block = static_cast<uint32_t>(b);
        ++open.blocks;
        open.events += n;
        if (open.events >= target_events) {
            batches.push_back(open);
            open = {};
        }
    }
    if (open.blocks) batches.push_back(open);
    return batches;
}

// Stripes hold each thread's events in program order but interleave threads by stripe: merged by
// time (stable, so one thread's events with equal timer values keep their order).
inline void merge_by_time(std::vector<Event>& events) {
    std::stable_sort(events.begin(), events.end(),
                     [](const Event& a, const Event& b) { return a.time < b.time; });
}

} // namespace synclab::trace
