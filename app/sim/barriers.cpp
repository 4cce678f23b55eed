// Block barriers and thread exits.
//
// The rule the H200 applies (PTX ISA, "Parallel Synchronization and Communication Instructions: bar,
// barrier": bar.sync is barrier.sync.aligned, and for .aligned "all threads in a warp must execute
// the same barrier instruction"; CUDA C++ Programming Guide, "__syncthreads() is allowed in
// conditional code but only if the conditional evaluates identically across the entire thread
// block, otherwise the code execution is likely to hang or produce unintended side effects"):
// ptxas puts a warp-wide WARPSYNC before each BAR.SYNC, so at an aligned barrier
//   - a lane that reaches barrier instruction S waits there (AlignedWait) for the other non-exited
//     lanes of its warp;
//   - the warp arrives at the block barrier when every non-exited lane is at S: all of them arrive
//     together (gather_aligned);
//   - lanes waiting at a different aligned barrier instruction S' are not at S: lanes of one warp at
//     different barrier instructions wait for each other forever (the run ends in deadlock);
//   - a lane that exits meanwhile no longer counts (`if (lane >= 24) return; __syncthreads();`).
// barrier.sync without .aligned counts each thread's arrival on its own. The block barrier is the
// same for both: a phase completes when the expected number of threads arrived (the count of
// bar.sync a, b, else every non-exited thread of the block), whatever instruction each warp used.
//
// Events: BarrierArrive when a lane reaches the instruction (its own time, before its warp has
// gathered), BarrierLeave when the phase releases it; both carry the barrier id as address and, as
// value, the number of the block barrier's phase they arrive in.
#include "sim/run.h"

namespace synclab::sim {

using ptx::Operand;
using trace::EventKind;

void Run::execute_barrier(Warp& warp, const Instruction& in, uint32_t pc, uint32_t mask) {
    if (!mask) return;
    Block& block = *warp.block;
    const bool aligned = (in.mods & ptx::mod::kAligned) != 0;
    const bool arrive_only = (in.mods & ptx::mod::kArrive) != 0;
    const bool counted = in.ops[1].kind != Operand::Kind::None;
    const uint8_t flags = trace::make_flags(trace::Space::Other, 4);
    uint32_t ids = 0; // barrier ids used, as bits
    for (uint32_t m = mask; m; m &= m - 1) {
        const uint32_t l = static_cast<uint32_t>(std::countr_zero(m));
        const uint64_t id = read(warp, in.ops[0], l);
        if (id >= kMaxBarriers)
            fault(warp, l, pc, "barrier id " + std::to_string(id) + " is out of range (0-15)");
        BarrierState& bar = block.bars[id];
        uint64_t count = 0;
        if (counted) {
            count = read(warp, in.ops[1], l);
            if (count == 0 || count > block.thread_count)
                fault(warp, l, pc,
                      "barrier thread count " + std::to_string(count) +
                          " is not between 1 and the block size");
        }
        const size_t event =
            recording_ ? emit(EventKind::BarrierArrive, warp, l, pc, id, bar.phase, flags) : 0;
        if (aligned) {
            warp.arrive_event[l] = event;
            continue;
        }
        // Not aligned: this thread arrives now.
        if (counted) bar.expected = static_cast<uint32_t>(count);
        ++bar.arrived;
        ids |= 1u << id;
        if (!arrive_only) {
            materialize(warp);
            warp.state[l] = LaneState::AtBarrier;
            warp.pc[l] = pc + 1;
            warp.ready_mask &= ~(1u << l);
            bar.waiting.push_back(warp.first_thread + l);
        }
    }
    if (!aligned) {
        if (arrive_only) advance(warp, mask, pc + 1);
        check_barriers(block, ids);
        return;
    }
    // Aligned: these lanes wait at pc for the rest of their warp.
    materialize(warp);
    for (uint32_t m = mask; m; m &= m - 1) {
        const uint32_t l = static_cast<uint32_t>(std::countr_zero(m));
        warp.state[l] = LaneState::AlignedWait;
        warp.pc[l] = pc;
    }
    warp.ready_mask &= ~mask;
    warp.aligned_mask |= mask;
    gather_aligned(warp);
}

// If every non-exited lane of the warp waits at one aligned barrier instruction, the warp arrives
// there: all its lanes are counted at the block barrier at once.
void Run::gather_aligned(Warp& warp) {
    if (!warp.aligned_mask) return;
    const uint32_t live = warp.live_mask();
    if ((warp.aligned_mask & live) != live) return; // some live lane is elsewhere (running, or waiting)
    const uint32_t s = warp.pc[std::countr_zero(warp.aligned_mask)];
    for (uint32_t m = warp.aligned_mask; m; m &= m - 1)
        if (warp.pc[std::countr_zero(m)] != s) return; // lanes at different barrier instructions
    const Instruction& in = fn_.code[s];
    const bool arrive_only = (in.mods & ptx::mod::kArrive) != 0;
    const bool counted = in.ops[1].kind != Operand::Kind::None;
    Block& block = *warp.block;
    uint32_t ids = 0;
    for (uint32_t m = warp.aligned_mask; m; m &= m - 1) {
        const uint32_t l = static_cast<uint32_t>(std::countr_zero(m));
        // The operands were checked when the lane arrived, and its registers have not changed since.
        const uint32_t id = static_cast<uint32_t>(read(warp, in.ops[0], l));
        BarrierState& bar = block.bars[id];
        if (counted) bar.expected = static_cast<uint32_t>(read(warp, in.ops[1], l));
        // The phase may have moved on since the lane arrived (other warps completed one with an
        // explicit count): its arrival counts in the phase it joins now.
        if (recording_) trace_->events[warp.arrive_event[l]].value = bar.phase;
        ++bar.arrived;
        ids |= 1u << id;
        warp.pc[l] = s + 1;
        if (arrive_only) {
            warp.state[l] = LaneState::Ready;
        } else {
            warp.state[l] = LaneState::AtBarrier;
            bar.waiting.push_back(warp.first_thread + l);
        }
    }
    if (arrive_only) {
        // Every live lane was waiting here, so they all go on together.
        warp.ready_mask = warp.aligned_mask;
        warp.uniform = true;
        warp.upc = s + 1;
    }
    warp.aligned_mask = 0;
    check_barriers(block, ids);
}

void Run::check_barriers(Block& block, uint32_t ids) {
    for (uint32_t m = ids; m; m &= m - 1)
        check_barrier(block, static_cast<uint32_t>(std::countr_zero(m)));
}

// A phase completes when the expected number of threads arrived: the explicit count of
// `bar.sync id, count`, else every thread of the block that has not exited.
void Run::check_barrier(Block& block, uint32_t id) {
    BarrierState& bar = block.bars[id];
    const uint32_t required = bar.expected ? bar.expected : block.live_threads;
    if (bar.arrived == 0 || bar.arrived < required) return;
    ++tick_;
    release_scratch_.clear();
    const uint32_t block_first = block.linear * threads_per_block_;
    for (uint32_t t : bar.waiting)
        release_scratch_.push_back(block_first + t);
    memory_->barrier_completed({block.linear, block.sm, id, bar.phase, release_scratch_});
    const uint8_t flags = trace::make_flags(trace::Space::Other, 4);
    for (uint32_t t : bar.waiting) {
        Warp& w = block.warps[t / kWarpSize];
        const uint32_t l = t % kWarpSize;
        materialize(w);
        w.state[l] = LaneState::Ready;
        w.ready_mask |= 1u << l;
        w.uniform = false;
        if (recording_) emit(EventKind::BarrierLeave, w, l, w.pc[l] - 1, id, bar.phase, flags);
    }
    bar.waiting.clear();
    bar.arrived = 0;
    bar.expected = 0;
    ++bar.phase;
}

void Run::exit_lanes(Warp& warp, uint32_t pc, uint32_t mask) {
    if (!mask) return;
    Block& block = *warp.block;
    const uint8_t flags = trace::make_flags(trace::Space::Other, 4);
    for (uint32_t m = mask; m; m &= m - 1) {
        const uint32_t l = static_cast<uint32_t>(std::countr_zero(m));
        if (recording_) emit(EventKind::Exit, warp, l, pc, 0, 0, flags);
        warp.state[l] = LaneState::Exited;
        set_end(warp.global_first + l, trace::ThreadEnd::Exited, pc);
        memory_->thread_exited(warp.global_first + l);
    }
    warp.ready_mask &= ~mask;
    warp.exited_mask |= mask;
    block.live_threads -= lane_count(mask);
    // The lanes left may now all wait at one aligned barrier, and fewer live threads may complete a
    // phase the others already wait in.
    gather_aligned(warp);
    uint32_t ids = 0;
    for (uint32_t id = 0; id < kMaxBarriers; ++id)
        if (block.bars[id].arrived) ids |= 1u << id;
    check_barriers(block, ids);
}

} // namespace synclab::sim
