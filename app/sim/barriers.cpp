// Block barriers (bar.sync, barrier.sync, and bar.red: __syncthreads_count/_and/_or) and thread exits.
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
#include "ptx/event_encoding.h"
#include "sim/run.h"

#include <algorithm>

namespace synclab::sim {

using ptx::Operand;
using trace::EventKind;

void Run::execute_barrier(Warp& warp, const Instruction& in, uint32_t pc, uint32_t mask) {
    if (!mask) return;
    Block& block = *warp.block;
    const bool aligned = (in.mods & ptx::mod::kAligned) != 0;
    const bool arrive_only = (in.mods & ptx::mod::kArrive) != 0;
    const Operand& id_op = in.ops[0];
    const Operand& count_op = in.ops[1];
    const bool counted = count_op.kind != Operand::Kind::None;
    auto id_of = [&](uint32_t l) {
        return static_cast<uint32_t>(id_op.kind == Operand::Kind::Imm ? id_op.imm : read(warp, id_op, l));
    };
    // The parser checked immediate ids; registers are checked here, lane by lane.
    if (id_op.kind != Operand::Kind::Imm || counted)
        for (uint32_t m = mask; m; m &= m - 1) {
            const uint32_t l = static_cast<uint32_t>(std::countr_zero(m));
            const uint64_t id = read(warp, id_op, l);
            if (id >= kMaxBarriers)
                fault(warp, l, pc, "barrier id " + std::to_string(id) + " is out of range (0-15)");
            if (!counted) continue;
            const uint64_t count = read(warp, count_op, l);
            if (count == 0 || count > block.thread_count)
                fault(warp, l, pc,
                      "barrier thread count " + std::to_string(count) +
                          " is not between 1 and the block size");
        }
    // Each lane's arrival, at its own time (an aligned barrier counts it later, with its warp).
    if (recording_) {
        const uint8_t flags = ptx::control_event_flags();
        for_each_lane(mask, [&](uint32_t l) {
            const uint32_t id = id_of(l);
            const size_t event = emit(EventKind::BarrierArrive, warp, l, pc, id, block.bars[id].phase, flags);
            if (aligned) warp.arrive_event[l] = event;
        });
    }
    if (aligned) {
        // These lanes wait at pc for the rest of their warp.
        materialize(warp);
        for_each_lane(mask, [&](uint32_t l) {
            warp.state[l] = LaneState::AlignedWait;
            warp.pc[l] = pc;
        });
        warp.ready_mask &= ~mask;
        warp.aligned_mask |= mask;
        gather_aligned(warp);
        // Lanes of this warp waiting at a warp collective for these lanes now wait forever.
        if (!warp.ready_mask) meet_collectives(warp);
        return;
    }
    // Not aligned: each thread arrives on its own, now.
    uint32_t ids = 0;
    for (uint32_t m = mask; m; m &= m - 1) {
        const uint32_t l = static_cast<uint32_t>(std::countr_zero(m));
        const uint32_t id = id_of(l);
        BarrierState& bar = block.bars[id];
        if (counted) bar.expected = static_cast<uint32_t>(read(warp, count_op, l));
        ++bar.arrived;
        if (in.mods & ptx::mod::kRed) bar.red_true += read(warp, in.ops[3], l) & 1;
        bar.latest = std::max(bar.latest, arrival_clock(warp));
        ids |= 1u << id;
        if (!arrive_only) bar.waiting.push_back({warp.index, 1u << l, pc + 1});
    }
    if (arrive_only) {
        advance(warp, mask, pc + 1);
    } else {
        materialize(warp);
        for_each_lane(mask, [&](uint32_t l) {
            warp.state[l] = LaneState::AtBarrier;
            warp.pc[l] = pc + 1;
        });
        warp.ready_mask &= ~mask;
    }
    check_barriers(block, ids);
}

// If every non-exited lane of the warp waits at one aligned barrier instruction, the warp arrives
// there: all its lanes are counted at the block barrier at once.
void Run::gather_aligned(Warp& warp) {
    const uint32_t lanes = warp.aligned_mask;
    if (!lanes) return;
    const uint32_t live = warp.live_mask();
    if ((lanes & live) != live) return; // some live lane is elsewhere (running, or waiting)
    const uint32_t s = warp.pc[std::countr_zero(lanes)];
    for (uint32_t m = lanes; m; m &= m - 1)
        if (warp.pc[std::countr_zero(m)] != s) return; // lanes at different barrier instructions
    const Instruction& in = fn_.code[s];
    const bool arrive_only = (in.mods & ptx::mod::kArrive) != 0;
    const Operand& id_op = in.ops[0];
    const bool counted = in.ops[1].kind != Operand::Kind::None;
    Block& block = *warp.block;
    // The operands were checked when the lanes arrived, and their registers have not changed since.
    uint32_t lanes_of[kMaxBarriers] = {};
    for (uint32_t m = lanes; m; m &= m - 1) {
        const uint32_t l = static_cast<uint32_t>(std::countr_zero(m));
        const uint32_t id =
            static_cast<uint32_t>(id_op.kind == Operand::Kind::Imm ? id_op.imm : read(warp, id_op, l));
        lanes_of[id] |= 1u << l;
        BarrierState& bar = block.bars[id];
        if (counted) bar.expected = static_cast<uint32_t>(read(warp, in.ops[1], l));
        if (in.mods & ptx::mod::kRed) bar.red_true += read(warp, in.ops[3], l) & 1;
        // The phase may have moved on since the lane arrived (other warps completed one with an
        // explicit count): its arrival counts in the phase it joins now.
        if (recording_) trace_->events[warp.arrive_event[l]].value = bar.phase;
    }
    const LaneState next = arrive_only ? LaneState::Ready : LaneState::AtBarrier;
    for_each_lane(lanes, [&](uint32_t l) {
        warp.pc[l] = s + 1;
        warp.state[l] = next;
    });
    warp.aligned_mask = 0;
    if (arrive_only) {
        // Every live lane was waiting here, so they all go on together.
        warp.ready_mask = lanes;
        warp.uniform = true;
        warp.upc = s + 1;
    }
    uint32_t ids = 0;
    for (uint32_t id = 0; id < kMaxBarriers; ++id) {
        if (!lanes_of[id]) continue;
        BarrierState& bar = block.bars[id];
        bar.arrived += lane_count(lanes_of[id]);
        bar.latest = std::max(bar.latest, arrival_clock(warp));
        if (!arrive_only) bar.waiting.push_back({warp.index, lanes_of[id], s + 1});
        ids |= 1u << id;
    }
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
    memory_->barrier_completed(
        {block.linear, block.sm, id, bar.phase, block.linear * threads_per_block_, bar.waiting});
    const uint8_t flags = ptx::control_event_flags();
    // Modelled time: everyone leaves at the latest arrival's clock plus the barrier's cost.
    const uint64_t release = cost_ ? bar.latest + cost_->barrier_cost() : 0;
    for (const Waiter& waiter : bar.waiting) {
        Warp& w = block.warps[waiter.warp];
        w.modelled_cycles = std::max(w.modelled_cycles, release);
        if (w.ready_mask == 0) {
            // The released lanes are all the warp has ready, all at one PC.
            w.uniform = true;
            w.upc = waiter.resume_pc;
        } else {
            materialize(w);
        }
        w.ready_mask |= waiter.lanes;
        for_each_lane(waiter.lanes, [&](uint32_t l) { w.state[l] = LaneState::Ready; });
        const Instruction& at = fn_.code[waiter.resume_pc - 1];
        if (at.mods & ptx::mod::kRed) {
            // __syncthreads_count / _and / _or: every thread gets the reduction over the phase.
            const uint32_t value = at.atom_op == ptx::AtomOp::Add ? bar.red_true
                                   : at.atom_op == ptx::AtomOp::And ? uint32_t(bar.red_true == bar.arrived)
                                                                    : uint32_t(bar.red_true != 0);
            uint64_t* d = reg(w, at.ops[2].reg);
            for_each_lane(waiter.lanes, [&](uint32_t l) { d[l] = value; });
        }
        if (recording_)
            for_each_lane(waiter.lanes, [&](uint32_t l) {
                emit(EventKind::BarrierLeave, w, l, waiter.resume_pc - 1, id, bar.phase, flags);
            });
    }
    bar.waiting.clear();
    bar.arrived = 0;
    bar.expected = 0;
    bar.latest = 0;
    bar.red_true = 0;
    ++bar.phase;
}

void Run::exit_lanes(Warp& warp, uint32_t pc, uint32_t mask) {
    if (!mask) return;
    Block& block = *warp.block;
    const uint8_t flags = ptx::control_event_flags();
    end_clock_ = std::max(end_clock_, warp.modelled_cycles);
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
    // The lanes left may now all wait at one aligned barrier or meet at a warp collective (which
    // waits for non-exited members only), and fewer live threads may complete a phase the others
    // already wait in.
    meet_collectives(warp);
    gather_aligned(warp);
    uint32_t ids = 0;
    for (uint32_t id = 0; id < kMaxBarriers; ++id)
        if (block.bars[id].arrived) ids |= 1u << id;
    check_barriers(block, ids);
}

} // namespace synclab::sim
