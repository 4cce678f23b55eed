// The atomics cost model (private to app/sim): modelled time for a simulated launch.
//
// GPGPU-Sim style, functional execution and timing are apart: the memory systems (ScMemory,
// RelaxedMemory) say what an access reads and writes; this class says how long it takes. The run
// calls it for every instruction issued, every load, store, atomic and fence, and every barrier
// release, so both memory models are timed the same way.
//
// Time. Every warp has a clock in modelled SM cycles (Warp::modelled_cycles). An instruction adds
// its issue cost; a load or an atomic whose result is used keeps the warp waiting until it
// completes (no scoreboard: the warp waits at the access, not at the first use); a store or a
// fire-and-forget `red` costs the warp only its issue, but the kernel is not over before it lands.
// A warp leaves a block barrier at the latest arrival's clock plus a small cost. A block that
// takes the place of a retired one starts at that block's last clock (resident slots are the
// occupancy). The run's modelled duration is the latest warp clock at exit or the latest
// completion of an access, whichever is later.
//
// Atomics are where the model has structure (the queue is the lesson): each lane's atomic is one
// service (the memory system does not merge same-address lanes: GPU_FACTS.md "Atomics", one address
// 12.3 ms vs warp-aggregated 0.39 ms for 16.8 M threads, ~32x). The compiler does, in one case:
// ptxas turns a global integer atom.add whose address and operand it can prove warp-uniform (from
// the PTX: sim/uniformity.h), and whose result is used, into the warp-aggregated form (one atomic for the warp, each lane's old
// value from a prefix count): atomic_counter/one_address at 1 M threads took 0.058 ms on the H200,
// warp_aggregated 0.057 ms (2026-12-01). The model times such a warp-instruction as one service
// plus the aggregation's few instructions (warp_aggregation). A global atomic travels to L2 (half a round
// trip), needs its address's unit, its L2 slice and a share of the L2's total atomic throughput at
// once, and travels back. A shared atomic needs its address's unit (per block: blocks have separate
// shared memory) and its SM's shared atomic unit.
//
// Scheduler order is not modelled time: the simulator may run a warp whose clock is 10,000 before a
// warp whose clock is 100. So a server is not a "busy until" clock (which would make the warp at 100
// wait behind the one at 10,000): it keeps the intervals it has committed to and serves an access
// in the first idle gap at or after the access's arrival (backfilling). Under contention the
// intervals merge into one and this is plain FIFO in simulation order; under light contention an
// access that arrives early in modelled time is not charged for later ones. Intervals that end
// before every resident warp's clock can never be used again and are dropped (set_horizon).
#pragma once

#include "ptx/ir.h"
#include "sim/memory_system.h"
#include "trace/trace.h"

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace synclab::sim {

// The constants, in SM cycles. A cycle is one SM clock of an H200 at its 1.98 GHz boost clock
// (NVIDIA's H200 SXM specification; GPU_FACTS gives times in ms, this converts them). Where a
// figure is fitted to GPU_FACTS.md "Atomics" the comment says from what; the others are
// order-of-magnitude choices (microbenchmark papers on Volta-Hopper report ~4-cycle dependent ALU
// latency, ~30-cycle shared loads, 400-600-cycle global loads) that only need to be in the right
// ratio to each other. The model ranks variants; it is not cycle-exact.
struct CostParams {
    double clock_ghz = 1.98;

    // issue cost per instruction (dependent-issue latency)
    uint32_t alu = 4;          // integer and fp32 add/mul/logic/compare/convert
    uint32_t alu_f64 = 8;      // fp64 arithmetic
    uint32_t alu_long = 24;    // integer div/rem: a sequence of ~20 instructions in SASS
    uint32_t alu_special = 16; // sqrt, rcp, ex2, sin, ...: the MUFU unit
    uint32_t control = 2;      // mov, bra, selp, activemask, predicates
    uint32_t collective = 8;   // shfl, vote, bar.warp.sync
    uint32_t memory_issue = 4; // issuing a load/store/atomic/fence (the rest is its latency)

    // loads and stores
    uint32_t shared_latency = 30;  // ld.shared
    uint32_t bank_replay = 2;      // each extra way of a shared bank conflict
    uint32_t global_latency = 460; // ld.global (L2 / DRAM, order of magnitude)
    uint32_t line_replay = 8;      // each extra 128-byte line an uncoalesced access touches
    uint32_t local_latency = 30;   // local memory: spills live in L1
    uint32_t param_latency = 4;    // ld.param: the constant cache

    // barriers and fences
    uint32_t barrier = 20;    // leaving a block barrier after the last arrival
    uint32_t fence_cta = 10;  // membar.cta
    uint32_t fence_gpu = 200; // membar.gl / fence.*.gpu: at least this, and until the warp's
                              // writes are visible (Warp::stores_visible)
    uint32_t fence_sys = 800; // membar.sys

    // global atomics (at L2)
    uint32_t l2_round_trip = 460; // SM -> L2 -> SM for an atomic, as for a global load
    // One address: 16.8 M atomics in 12.3 ms = 0.73 ns = 1.45 cycles each (GPU_FACTS, 1 address).
    double global_address_service = 1.45;
    // One address, floating-point add: the L2 serves them slower than integer ones. GPU_FACTS ("Which
    // contended atomics ptxas aggregates by itself"): one float atomicAdd per thread, 1 M threads in
    // 1.85 ms and 16.8 M in 29.5 ms (3.7 and 3.5 cycles each); one per warp, 32 K in 0.063 ms and
    // 524 K in 0.93 ms (3.8 and 3.5 cycles each). f64 was not measured: it is timed as f32.
    double global_float_add_service = 3.5;
    // One L2 slice: 32 addresses are 10x (not 32x) faster than one (1.23 ms): 32 consecutive words
    // are one 128-byte line, one slice, which serves 0.145 cycles per atomic.
    double l2_slice_service = 0.145;
    // Slices interleave every 512 bytes (fitted: 1,024 words = 4 KiB = 8 slices gives 8 x 13.6 G/s
    // ~ 108 G/s, measured 103 G/s at 1,024 addresses), 64 of them.
    uint32_t l2_slice_bytes = 512;
    uint32_t l2_slices = 64;
    // The whole L2: 1 M addresses reach 380 G/s (0.044 ms) = 0.0052 cycles per atomic.
    double l2_total_service = 0.0052;

    // shared atomics (at the SM)
    // One address, 1,024 threads of a block: median 926 cycles = shared_latency + 512 services ->
    // 1.75 cycles each (GPU_FACTS, shared 1 address).
    double shared_address_service = 1.75;
    // 32 addresses, 1,024 threads: median 430 cycles = 512 services of the SM's unit -> 0.78.
    double shared_unit_service = 0.78;
    // One shared address, floating-point add: fitted to a whole kernel, not measured alone.
    // atomic_counter/shared_atomics (256 threads of a block add to one shared float, then one global
    // atomic per block) took 0.078 ms on the H200 at 1 M threads, as long as warp_shuffle's 32 K
    // global float atomics (0.082 ms), and 0.020 ms at 16 K threads against 0.010-0.011 for the
    // three rungs beside it (tests/ladder/data/h200_ladders.json, 2026-12-05). 100 cycles per add
    // puts the simulator's shared_atomics level with warp_shuffle at 1 M threads on 132 SMs and
    // 2.2x faster than per_thread_atomics at 16 K (the H200: 1.9-2.1x). The integer add is 1.75.
    double shared_float_add_service = 100;
    // What ptxas's warp aggregation of a uniform atom.add adds to the one atomic: electing the
    // leader, the popc of the lanes below each lane and the shuffle of the old value.
    uint32_t warp_aggregation = 16;
};

// Modelled timing of one lane's access (becomes a trace::EventTiming).
struct LaneTiming {
    uint64_t issue = 0;
    uint32_t latency = 0;
    uint32_t queue_depth = 0;
};

// A service unit: committed busy intervals in ticks (1/1024 cycle, so that sub-cycle services
// such as the L2's total throughput add up without rounding to zero).
class Server {
  public:
    // The earliest s >= t at which [s, s + len) is idle.
    uint64_t fit(uint64_t t, uint64_t len) const;
    void take(uint64_t s, uint64_t len, uint64_t horizon);
    // Busy ticks inside [a, b): how much work was queued ahead of an access arriving at a and
    // served at b.
    uint64_t busy_between(uint64_t a, uint64_t b) const;
    size_t intervals() const { return busy_.size(); }

  private:
    struct Interval {
        uint64_t start, end;
    };
    size_t first_ending_after(uint64_t t) const;
    std::vector<Interval> busy_; // sorted, disjoint, not touching
};

class CostModel {
  public:
    static constexpr uint64_t kTicks = 1024; // ticks per cycle

    CostModel(const CostParams& params, uint32_t sm_count);

    const CostParams& params() const { return p_; }

    // Issue cost of an instruction (its latency for the warp, memory latency aside).
    uint32_t issue_cost(const ptx::Instruction& in) const;

    // Times one warp-instruction's access issued at `clock` (the warp's clock): fills
    // access.latency (cycles the warp waits for it) and timing[l] for the lanes of access.mask;
    // raises `stores_visible` (the warp's writes are visible from then on).
    void access(uint64_t clock, WarpAccess& access, uint64_t& stores_visible, LaneTiming* timing);
    // Cycles a fence issued at `clock` keeps its warp waiting.
    uint32_t fence(uint64_t clock, ptx::MemScope scope, uint64_t stores_visible) const;
    uint32_t barrier_cost() const { return p_.barrier; }

    // No access will arrive before `cycle` any more (the lowest clock of a live warp): intervals
    // that end before it are dropped.
    void set_horizon(uint64_t cycle) { horizon_ = cycle * kTicks; }
    // The latest completion of any access so far, in cycles.
    uint64_t last_completion() const { return (last_completion_ + kTicks - 1) / kTicks; }
    uint64_t max_queue_depth() const { return max_depth_; }

  private:
    void time_plain(uint64_t clock, WarpAccess& a, uint64_t& stores_visible, LaneTiming* timing);
    void time_atomic(uint64_t clock, WarpAccess& a, uint64_t& stores_visible, LaneTiming* timing);
    // Whether ptxas aggregates this warp-instruction's atomics into one (see the header comment).
    static bool compiler_aggregates(const WarpAccess& a);
    uint64_t time_global_sector(uint64_t arrive, const WarpAccess& a, uint32_t lanes, uint64_t sector, uint64_t clock,
                                LaneTiming* timing);
    static constexpr uint64_t kSectorBytes = 32; // an L2 sector: the unit the atomic unit serves
    uint32_t bank_ways(const WarpAccess& a, uint32_t mask) const;
    uint32_t lines(const WarpAccess& a, uint32_t mask) const;
    void complete(uint64_t tick) { last_completion_ = tick > last_completion_ ? tick : last_completion_; }

    CostParams p_;
    uint64_t global_service_, float_add_service_, slice_service_, total_service_, shared_service_,
        shared_float_add_service_, unit_service_;
    std::unordered_map<uint64_t, Server> global_; // by 32-byte sector of device memory
    std::unordered_map<uint64_t, Server> shared_; // by (block << 32) | offset
    std::vector<Server> slices_;                  // L2 slices
    Server l2_total_;
    std::vector<Server> shared_units_; // per SM
    uint64_t horizon_ = 0;
    uint64_t last_completion_ = 0;
    uint64_t max_depth_ = 0;
};

} // namespace synclab::sim
