// The cost model: issue costs, load/store latencies, and the service queues of atomics (see
// cost_model.h for the model and where its constants come from).
#include "sim/cost_model.h"

#include <algorithm>
#include <cmath>

namespace synclab::sim {

using ptx::Op;

namespace {

uint64_t to_ticks(double cycles) {
    return std::max<uint64_t>(1, static_cast<uint64_t>(std::llround(cycles * double(CostModel::kTicks))));
}

uint32_t ceil_cycles(uint64_t ticks) {
    const uint64_t c = (ticks + CostModel::kTicks - 1) / CostModel::kTicks;
    return static_cast<uint32_t>(std::min<uint64_t>(c, UINT32_MAX));
}

} // namespace

// [SECTION] Server ===================================================================================

size_t Server::first_ending_after(uint64_t t) const {
    // Intervals are disjoint and sorted, so their ends are increasing too.
    if (busy_.empty() || busy_.back().end <= t) return busy_.size();
    return static_cast<size_t>(std::upper_bound(busy_.begin(), busy_.end(), t,
                                                [](uint64_t x, const Interval& i) { return x < i.end; }) -
                               busy_.begin());
}

uint64_t Server::fit(uint64_t t, uint64_t len) const {
    uint64_t s = t;
    for (size_t i = first_ending_after(t); i < busy_.size(); ++i) {
        if (busy_[i].start >= s + len) return s; // the gap before interval i holds it
        s = std::max(s, busy_[i].end);
    }
    return s;
}

void Server::take(uint64_t s, uint64_t len, uint64_t horizon) {
    const uint64_t e = s + len;
    if (busy_.empty() || busy_.back().end < s) {
        busy_.push_back({s, e});
    } else if (busy_.back().end == s) {
        busy_.back().end = e; // the common case under contention: the queue grows at its tail
    } else {
        // Merge [s, e) with every interval it touches (first: the first that ends at or after s).
        size_t i = first_ending_after(s);
        while (i > 0 && busy_[i - 1].end == s)
            --i;
        size_t j = i;
        uint64_t start = s, end = e;
        while (j < busy_.size() && busy_[j].start <= e) {
            start = std::min(start, busy_[j].start);
            end = std::max(end, busy_[j].end);
            ++j;
        }
        if (i == j) {
            busy_.insert(busy_.begin() + static_cast<std::ptrdiff_t>(i), Interval{start, end});
        } else {
            busy_[i] = {start, end};
            busy_.erase(busy_.begin() + static_cast<std::ptrdiff_t>(i + 1),
                        busy_.begin() + static_cast<std::ptrdiff_t>(j));
        }
    }
    // Intervals that end before the horizon can no longer be reached: drop them in batches.
    if (busy_.size() > 32) {
        const size_t dead = first_ending_after(horizon);
        if (dead >= 16) busy_.erase(busy_.begin(), busy_.begin() + static_cast<std::ptrdiff_t>(dead));
    }
}

uint64_t Server::busy_between(uint64_t a, uint64_t b) const {
    uint64_t sum = 0;
    for (size_t i = first_ending_after(a); i < busy_.size() && busy_[i].start < b; ++i)
        sum += std::min(b, busy_[i].end) - std::max(a, busy_[i].start);
    return sum;
}

// [SECTION] Issue costs ==============================================================================

CostModel::CostModel(const CostParams& params, uint32_t sm_count)
    : p_(params), global_service_(to_ticks(params.global_address_service)),
      float_add_service_(to_ticks(params.global_float_add_service)),
      slice_service_(to_ticks(params.l2_slice_service)), total_service_(to_ticks(params.l2_total_service)),
      shared_service_(to_ticks(params.shared_address_service)),
      shared_float_add_service_(to_ticks(params.shared_float_add_service)),
      unit_service_(to_ticks(params.shared_unit_service)), slices_(std::max<uint32_t>(params.l2_slices, 1)),
      shared_units_(std::max<uint32_t>(sm_count, 1)) {}

uint32_t CostModel::issue_cost(const ptx::Instruction& in) const {
    switch (in.op) {
    case Op::Ld:
    case Op::St:
    case Op::Atom:
    case Op::Red:
    case Op::Membar:
        return p_.memory_issue;
    case Op::WarpSync:
    case Op::Vote:
    case Op::Shfl:
        return p_.collective;
    case Op::Mov:
    case Op::Cvta:
    case Op::Isspacep:
    case Op::Selp:
    case Op::Bra:
    case Op::Ret:
    case Op::Exit:
    case Op::Trap:
    case Op::Nanosleep:
    case Op::Activemask:
    case Op::Bar:
        return p_.control;
    case Op::Div:
    case Op::Rem:
        return p_.alu_long;
    case Op::Sqrt:
    case Op::Rsqrt:
    case Op::Rcp:
    case Op::Ex2:
    case Op::Lg2:
    case Op::Sin:
    case Op::Cos:
        return p_.alu_special;
    default:
        return in.type == ptx::Type::F64 ? p_.alu_f64 : p_.alu;
    }
}

// [SECTION] Loads and stores =========================================================================

// Ways of a shared bank conflict: 32 banks of 4-byte words; lanes reading their bank's first word
// are served by one broadcast, every other lane in that bank is one more way (an approximation:
// two lanes on the same second word count twice).
uint32_t CostModel::bank_ways(const WarpAccess& a, uint32_t mask) const {
    uint64_t first[kWarpSize];
    uint32_t ways[kWarpSize] = {};
    uint32_t seen = 0, most = 0;
    for_each_lane(mask, [&](uint32_t l) {
        const uint64_t word = a.address[l] >> 2;
        const uint32_t bank = static_cast<uint32_t>(word & 31);
        if (!(seen >> bank & 1)) {
            seen |= 1u << bank;
            first[bank] = word;
            ways[bank] = 1;
        } else if (word != first[bank]) {
            ++ways[bank];
        }
        most = std::max(most, ways[bank]);
    });
    return std::max<uint32_t>(most, 1);
}

// 128-byte lines a global access touches, counted as changes of line from lane to lane (exact for
// the usual ascending patterns).
uint32_t CostModel::lines(const WarpAccess& a, uint32_t mask) const {
    uint32_t n = 0;
    uint64_t last = UINT64_MAX;
    for_each_lane(mask, [&](uint32_t l) {
        const uint64_t line = a.address[l] >> 7;
        if (line != last) ++n;
        last = line;
    });
    return std::max<uint32_t>(n, 1);
}

void CostModel::time_plain(uint64_t clock, WarpAccess& a, uint64_t& stores_visible, LaneTiming* timing) {
    uint32_t shared = 0, global = 0, local = 0, other = 0;
    for_each_lane(a.mask, [&](uint32_t l) {
        switch (a.space[l]) {
        case trace::Space::Shared:
            shared |= 1u << l;
            break;
        case trace::Space::Global:
            global |= 1u << l;
            break;
        case trace::Space::Local:
            local |= 1u << l;
            break;
        default:
            other |= 1u << l;
            break;
        }
    });
    uint32_t latency = 0, replay = 0;
    if (shared) {
        const uint32_t extra = (bank_ways(a, shared) - 1) * p_.bank_replay;
        latency = std::max(latency, p_.shared_latency + extra);
        replay = std::max(replay, extra);
    }
    if (global) {
        const uint32_t extra = (lines(a, global) - 1) * p_.line_replay;
        latency = std::max(latency, p_.global_latency + extra);
        replay = std::max(replay, extra);
    }
    if (local) latency = std::max(latency, p_.local_latency);
    if (other) latency = std::max(latency, p_.param_latency);
    if (a.kind == AccessKind::Load) {
        a.latency = latency;
    } else {
        // A store does not hold its warp beyond the replays of its request; it lands later.
        a.latency = replay;
        const uint64_t visible = clock + latency;
        stores_visible = std::max(stores_visible, visible);
        complete(visible * kTicks);
    }
    if (timing) for_each_lane(a.mask, [&](uint32_t l) { timing[l] = {clock, latency, 0}; });
}

// [SECTION] Atomics ==================================================================================

bool CostModel::compiler_aggregates(const WarpAccess& a) {
    // The PTX says it (sim/uniformity.h, with the rule for a per-lane operand: only as a RED).
    return (a.kind == AccessKind::Atomic || a.kind == AccessKind::Reduction) && a.compiler_aggregated &&
           std::popcount(a.mask) >= 2;
}

void CostModel::time_atomic(uint64_t clock, WarpAccess& a, uint64_t& stores_visible, LaneTiming* timing) {
    const uint64_t t0 = clock * kTicks;
    const uint64_t half_trip = uint64_t(p_.l2_round_trip) * kTicks / 2;
    uint64_t last_done = t0;
    // Aggregated by the compiler: the lowest lane's atomic is the warp's; the others wait for it.
    const bool aggregated = compiler_aggregates(a);
    const uint32_t served = aggregated ? a.mask & (0u - a.mask) : a.mask;
    // Shared atomics: each lane one service, in lane order (the order the memory system applied them).
    uint32_t global_lanes = 0;
    const bool float_add = a.atom_op == ptx::AtomOp::Add && ptx::is_float(a.type);
    const uint64_t shared_service = float_add ? shared_float_add_service_ : shared_service_;
    for (uint32_t m = served; m; m &= m - 1) {
        const uint32_t l = static_cast<uint32_t>(std::countr_zero(m));
        if (a.space[l] != trace::Space::Shared) {
            global_lanes |= 1u << l;
            continue;
        }
        const uint64_t arrive = t0;
        Server& addr = shared_[(uint64_t(a.who.block) << 32) | (a.address[l] & 0xffffffffu)];
        Server& unit = shared_units_[a.who.sm % shared_units_.size()];
        uint64_t s = arrive;
        for (int i = 0; i < 8; ++i) { // the first instant both units are free
            const uint64_t next = unit.fit(addr.fit(s, shared_service), unit_service_);
            if (next == s) break;
            s = next;
        }
        const uint64_t depth = (addr.busy_between(arrive, s) + shared_service - 1) / shared_service;
        addr.take(s, shared_service, horizon_);
        unit.take(s, unit_service_, horizon_);
        const uint64_t done = s + shared_service + uint64_t(p_.shared_latency) * kTicks;
        max_depth_ = std::max(max_depth_, depth);
        last_done = std::max(last_done, done);
        a.shared_done = std::max<uint64_t>(a.shared_done, ceil_cycles(done));
        if (timing)
            timing[l] = {clock, ceil_cycles(done - t0), static_cast<uint32_t>(std::min<uint64_t>(depth, UINT32_MAX))};
    }
    // Global atomics: the warp's lanes grouped by 32-byte sector (time_global_sector).
    while (global_lanes) {
        const uint32_t first = static_cast<uint32_t>(std::countr_zero(global_lanes));
        const uint64_t sector = a.address[first] / kSectorBytes;
        uint32_t lanes = 0;
        for_each_lane(global_lanes, [&](uint32_t l) {
            if (a.address[l] / kSectorBytes == sector) lanes |= 1u << l;
        });
        global_lanes &= ~lanes;
        last_done = std::max(last_done, time_global_sector(t0 + half_trip, a, lanes, sector, clock, timing) + half_trip);
    }
    if (aggregated) {
        last_done += uint64_t(p_.warp_aggregation) * kTicks;
        const uint32_t leader = static_cast<uint32_t>(std::countr_zero(served));
        if (timing)
            for_each_lane(a.mask, [&](uint32_t l) {
                timing[l] = {clock, ceil_cycles(last_done - t0), timing[leader].queue_depth};
            });
    }
    complete(last_done);
    stores_visible = std::max(stores_visible, uint64_t(ceil_cycles(last_done)));
    // red is fire-and-forget: its warp goes on at once (GPU_FACTS: ~260 cycles whatever the
    // contention), but the kernel is not over before the queue drains.
    a.latency = a.kind == AccessKind::Reduction ? 0 : ceil_cycles(last_done - t0);
}

// One warp-instruction's global atomics to one 32-byte sector, arriving at L2 at `arrive`. The
// sector is served in passes: one pass serves one lane of every distinct address in it, so a
// sector whose busiest address has k of the lanes takes k passes (one address, 32 lanes: 32
// passes; 32 lanes on 8 distinct words of the sector: as many passes as the most-hit word has
// lanes). Fitted: one address is 1.45 cycles per atomic (a pass; a floating-point add 3.5), and histogram/global_atomics on
// uniform input (8 bins in one sector, ~7 lanes on the busiest) took 0.28 ms for 1 M values on
// the H200, where serving the 8 addresses apart would take a third of that. The sector's slice and
// the whole L2 still pay per atomic. Returns when the last pass is done (in ticks, at L2).
uint64_t CostModel::time_global_sector(uint64_t arrive, const WarpAccess& a, uint32_t lanes, uint64_t sector,
                                       uint64_t clock, LaneTiming* timing) {
    // pass[l]: which pass serves lane l (the lanes of one address, in lane order).
    uint32_t pass[kWarpSize] = {};
    uint32_t passes = 0;
    for_each_lane(lanes, [&](uint32_t l) {
        uint32_t before = 0;
        for_each_lane(lanes & ((1u << l) - 1), [&](uint32_t k) { before += a.address[k] == a.address[l]; });
        pass[l] = before;
        passes = std::max(passes, before + 1);
    });
    const uint32_t count = static_cast<uint32_t>(std::popcount(lanes));
    const bool float_add = a.atom_op == ptx::AtomOp::Add && ptx::is_float(a.type);
    const uint64_t service = float_add ? float_add_service_ : global_service_;
    const uint64_t len = uint64_t(passes) * service;
    Server& unit = global_[sector];
    Server& slice = slices_[(sector * kSectorBytes / std::max<uint32_t>(p_.l2_slice_bytes, 1)) % slices_.size()];
    uint64_t s = arrive;
    for (int i = 0; i < 8; ++i) { // the first instant the sector, its slice and the L2 are free
        const uint64_t next =
            l2_total_.fit(slice.fit(unit.fit(s, len), slice_service_ * count), total_service_ * count);
        if (next == s) break;
        s = next;
    }
    const uint64_t queued = (unit.busy_between(arrive, s) + service - 1) / service;
    unit.take(s, len, horizon_);
    slice.take(s, slice_service_ * count, horizon_);
    l2_total_.take(s, total_service_ * count, horizon_);
    const uint64_t half_trip = uint64_t(p_.l2_round_trip) * kTicks / 2;
    for_each_lane(lanes, [&](uint32_t l) {
        const uint64_t depth = queued + pass[l];
        max_depth_ = std::max(max_depth_, depth);
        if (timing)
            timing[l] = {clock, ceil_cycles(s + (pass[l] + 1) * service + half_trip - clock * kTicks),
                         static_cast<uint32_t>(std::min<uint64_t>(depth, UINT32_MAX))};
    });
    return s + len;
}

void CostModel::access(uint64_t clock, WarpAccess& a, uint64_t& stores_visible, LaneTiming* timing) {
    if (a.kind == AccessKind::Atomic || a.kind == AccessKind::Reduction)
        time_atomic(clock, a, stores_visible, timing);
    else
        time_plain(clock, a, stores_visible, timing);
}

// [SECTION] Fences ===================================================================================

uint32_t CostModel::fence(uint64_t clock, ptx::MemScope scope, uint64_t stores_visible) const {
    if (scope == ptx::MemScope::Cta) return p_.fence_cta;
    const uint32_t base = scope == ptx::MemScope::Sys ? p_.fence_sys : p_.fence_gpu;
    const uint64_t wait = stores_visible > clock ? stores_visible - clock : 0;
    return static_cast<uint32_t>(std::max<uint64_t>(base, std::min<uint64_t>(wait, UINT32_MAX)));
}

} // namespace synclab::sim
