// The simulator's run state: blocks, warps and lanes (private to app/sim).
//
// A warp keeps one PC per lane (independent thread scheduling). While every ready lane sits at the
// same PC the warp is `uniform` and that PC lives in `upc` alone (pc[] is stale for ready lanes);
// divergence "materializes" pc[]. Lanes not ready are waiting (at a block barrier, at an aligned
// barrier for the rest of their warp, at a warp collective), exited, or absent (a partial last warp).
#pragma once

#include "sim/simulator.h"
#include "trace/trace.h"

#include <bit>
#include <cstdint>
#include <string>
#include <vector>

namespace synclab::sim {

using trace::Dim3;

constexpr uint32_t kWarpSize = 32;
constexpr uint32_t kFullMask = 0xffffffffu;
constexpr uint32_t kMaxBarriers = 16;

// splitmix64: small, fast and identical on every platform (std:: distributions are not).
struct Rng {
    uint64_t state;
    uint64_t next() {
        uint64_t z = (state += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    uint32_t below(uint32_t n) { return static_cast<uint32_t>((next() >> 32) * n >> 32); }
};

// Thrown inside the run loop for a problem of the kernel (bad address, unsupported instruction);
// caught at the top and turned into status Error. Never escapes simulate().
struct KernelFault {
    std::string message;
};

// Thrown when a budget (steps, threads, events, memory) is exhausted: status Budget.
struct BudgetExceeded {
    Budget which;
    std::string message;
};

enum class LaneState : uint8_t {
    Ready,
    AtBarrier,   // counted at a block barrier, waiting for its phase to complete; pc = barrier + 1
    AlignedWait, // reached an aligned barrier (pc = that instruction), waiting for the other
                 // non-exited lanes of its warp to reach the same instruction
    WarpWait,    // at a warp collective (pc = that instruction), waiting for its member lanes
    Exited,
    Absent, // the lane does not exist (the last warp of a block may be partial)
};

struct Block;

struct Warp {
    uint32_t index = 0;        // warp index inside its block
    uint32_t first_thread = 0; // thread_in_block of lane 0
    uint32_t global_first = 0; // global thread index of lane 0
    uint32_t present_mask = 0; // lanes that exist
    uint32_t ready_mask = 0;   // lanes that can run now
    uint32_t exited_mask = 0;
    uint32_t aligned_mask = 0; // lanes in AlignedWait
    bool uniform = true;       // every ready lane is at upc; pc[] is stale for them
    uint32_t upc = 0;
    uint32_t policy_state = 0;    // owned by the scheduling policy (scheduler.h)
    // Independent thread scheduling: ready lanes the scheduler holds back for `held_steps` more steps
    // of this warp (scheduler.h Scheduler::split) while the others run ahead; never while uniform.
    uint32_t held_mask = 0;
    uint32_t held_steps = 0;
    // The warp's clock in modelled cycles (cost_model.h): issue costs and the latencies the cost
    // model charged it; %clock64 reads it. Stays 0 when the run is not modelled.
    uint64_t modelled_cycles = 0;
    uint64_t stores_visible = 0;  // modelled cycle by which every write of the warp is visible
    uint64_t shared_atomics_done = 0; // modelled cycle by which its shared-memory atomics are applied
    uint64_t* regs = nullptr;     // [slot][lane]
    Block* block = nullptr;
    uint32_t pc[kWarpSize] = {};
    LaneState state[kWarpSize] = {};
    uint64_t arrive_event[kWarpSize] = {}; // AlignedWait lanes: index of their BarrierArrive event
    uint32_t member_mask[kWarpSize] = {};  // WarpWait lanes: the member mask they gave (as written)

    uint32_t live_mask() const { return present_mask & ~exited_mask; }
};

// Lanes of one warp blocked in a barrier phase, and where they resume.
struct Waiter {
    uint32_t warp = 0;      // warp index in the block
    uint32_t lanes = 0;     // lane mask
    uint32_t resume_pc = 0; // the instruction after the barrier
};

struct BarrierState {
    uint32_t arrived = 0;        // threads counted in the current phase (arrive and sync)
    uint32_t expected = 0;       // explicit thread count of bar.sync a, b (0: all non-exited threads)
    uint32_t phase = 0;          // completed phases so far
    uint64_t latest = 0;         // latest modelled clock of an arrival in the current phase
    uint32_t red_true = 0;       // bar.red: arrivals of the current phase whose predicate was true
    std::vector<Waiter> waiting; // lanes blocked in the current phase
};

struct Block {
    uint32_t linear = 0;
    Dim3 id;
    uint32_t thread_count = 0;
    uint32_t live_threads = 0;
    uint32_t sm = 0;
    std::vector<uint8_t> shared;
    std::vector<uint8_t> local; // thread_count * local_bytes
    std::vector<uint64_t> regs; // warps * slots * 32
    std::vector<Warp> warps;
    BarrierState bars[kMaxBarriers];
};

// Calls f(lane) for every lane of `mask`, in lane order (a straight loop for a full warp, which the
// compiler can unroll).
template <class F> inline void for_each_lane(uint32_t mask, F&& f) {
    if (mask == kFullMask) {
        for (uint32_t l = 0; l < kWarpSize; ++l)
            f(l);
    } else {
        for (uint32_t m = mask; m; m &= m - 1)
            f(static_cast<uint32_t>(std::countr_zero(m)));
    }
}

// "lane 5", "lanes 16-31", "lanes 0-3, 8" (collectives.cpp): messages that name lanes.
std::string lanes_text(uint32_t mask);

// Lanes in a mask. (std::popcount is a library call unless the build targets a CPU with popcnt.)
inline uint32_t lane_count(uint32_t mask) {
    mask = mask - ((mask >> 1) & 0x55555555u);
    mask = (mask & 0x33333333u) + ((mask >> 2) & 0x33333333u);
    return (((mask + (mask >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24;
}

// The lanes a warp runs together next, and their PC.
struct Group {
    uint32_t pc = 0;
    uint32_t mask = 0;
};

// Which lanes step next: ready lanes at ret/exit first (ptxas turns a branch to a return into a
// predicated EXIT, so those lanes leave at once), else all ready lanes at the lowest PC. Running the
// laggards first is what makes divergent paths meet again at their join point (a reconvergence
// heuristic for independent thread scheduling). `is_exit[pc]` marks ret/exit instructions.
// Lanes the scheduler holds back (Warp::held_mask) are left out, unless they are all that is ready.
inline Group next_group(const Warp& warp, const uint8_t* is_exit) {
    if (warp.uniform) return {warp.upc, warp.ready_mask};
    uint32_t best = UINT32_MAX, best_mask = 0;
    uint32_t exit_pc = UINT32_MAX, exit_mask = 0;
    const uint32_t runnable = warp.ready_mask & ~warp.held_mask;
    for (uint32_t m = runnable ? runnable : warp.ready_mask; m; m &= m - 1) {
        const uint32_t l = static_cast<uint32_t>(std::countr_zero(m));
        const uint32_t pc = warp.pc[l];
        if (pc < best) {
            best = pc;
            best_mask = 1u << l;
        } else if (pc == best) {
            best_mask |= 1u << l;
        }
        if (is_exit[pc]) {
            if (pc < exit_pc) {
                exit_pc = pc;
                exit_mask = 1u << l;
            } else if (pc == exit_pc) {
                exit_mask |= 1u << l;
            }
        }
    }
    if (exit_mask) return {exit_pc, exit_mask};
    return {best, best_mask};
}

} // namespace synclab::sim
