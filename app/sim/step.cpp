// One warp step: pick the group of lanes that runs (state.h: next_group), apply the guard predicate,
// dispatch the instruction to its executor, move the PCs.
#include "sim/run.h"

namespace synclab::sim {

using ptx::Op;
using ptx::Operand;

void Run::materialize(Warp& warp) {
    if (!warp.uniform) return;
    for (uint32_t m = warp.ready_mask; m; m &= m - 1)
        warp.pc[std::countr_zero(m)] = warp.upc;
    warp.uniform = false;
}

// Moves the lanes of `mask` (all at one PC) to `next_pc`.
void Run::advance(Warp& warp, uint32_t mask, uint32_t next_pc) {
    if (warp.uniform && mask == warp.ready_mask) {
        warp.upc = next_pc;
        return;
    }
    materialize(warp);
    for (uint32_t m = mask; m; m &= m - 1)
        warp.pc[std::countr_zero(m)] = next_pc;
}

// bra: the lanes of `taken` jump, the other lanes of the group fall through.
void Run::branch(Warp& warp, const Instruction& in, uint32_t pc, uint32_t group, uint32_t taken) {
    if (taken == group) {
        advance(warp, group, in.target);
    } else if (taken == 0) {
        advance(warp, group, pc + 1);
    } else {
        materialize(warp);
        for (uint32_t m = group; m; m &= m - 1) {
            const uint32_t l = static_cast<uint32_t>(std::countr_zero(m));
            warp.pc[l] = ((taken >> l) & 1) ? in.target : pc + 1;
        }
    }
}

// Independent thread scheduling: may the scheduler split a warp at this instruction? At shared and
// global accesses (generic ones may be either), where lanes of one warp can race.
static bool splits_at(const ptx::Instruction& in) {
    return ptx::is_memory_access(in.op) && in.space != ptx::Space::Local && in.space != ptx::Space::Param &&
           in.space != ptx::Space::Const;
}

// A predicate register's lanes (0 or 1 each) as a lane mask, branch-free: eight lanes at a time,
// their bits packed one per byte and gathered into one byte by a multiplication (the bytes' bits
// land at 56..63 without carries). Lanes outside the group are masked off by the caller.
static uint32_t predicate_bits(const uint64_t* p) {
    uint32_t set = 0;
    for (uint32_t l = 0; l < kWarpSize; l += 8) {
        uint64_t packed = 0;
        for (uint32_t k = 0; k < 8; ++k)
            packed |= (p[l + k] & 1) << (8 * k);
        set |= static_cast<uint32_t>((packed * 0x0102040810204080ull) >> 56) << l;
    }
    return set;
}

void Run::step(Warp& warp) {
    // Held-back lanes rejoin when their time is up, or when nothing else of the warp can run.
    if (warp.held_mask && (--warp.held_steps == 0 || (warp.ready_mask & ~warp.held_mask) == 0))
        warp.held_mask = 0;
    Group g = next_group(warp, is_exit_.data());
    if (splits_ && !warp.held_mask && g.pc < code_size_ && splits_at(fn_.code[g.pc]) && lane_count(g.mask) > 1) {
        const Hold h = scheduler_->split(warp, g, fn_.code[g.pc]);
        if (h.lanes) {
            materialize(warp);
            warp.held_mask = h.lanes & g.mask;
            warp.held_steps = h.steps;
            g.mask &= ~warp.held_mask;
        }
    }
    if (!warp.uniform && g.mask == warp.ready_mask) {
        warp.uniform = true;
        warp.upc = g.pc;
    }
    const uint32_t pc = g.pc;
    const uint32_t group = g.mask;
    if (pc >= code_size_)
        fault(warp, static_cast<uint32_t>(std::countr_zero(group)), pc - 1,
              "ran past the end of the kernel without ret/exit");
    const Instruction& in = fn_.code[pc];
    ++tick_;
    ++warp_instructions_;
    if (cost_) warp.modelled_cycles += issue_cost_[pc];
    thread_instructions_ += lane_count(group);

    // Guard predicate: lanes whose guard is false only move on.
    uint32_t mask = group;
    if (in.guard != Operand::kNoReg) {
        const uint32_t set = predicate_bits(reg(warp, in.guard));
        mask = (in.guard_negated ? ~set : set) & group;
    }

    switch (in.op) {
    case Op::Bra:
        branch(warp, in, pc, group, mask);
        return;
    case Op::Ret:
    case Op::Exit:
        if (mask != group) advance(warp, group & ~mask, pc + 1);
        exit_lanes(warp, pc, mask);
        return;
    case Op::Bar:
        if (mask != group) advance(warp, group & ~mask, pc + 1);
        execute_barrier(warp, in, pc, mask);
        return;
    case Op::WarpSync:
    case Op::Vote:
    case Op::Shfl:
    case Op::Redux:
    case Op::Match:
    case Op::Elect:
        // Lanes whose guard is false move on; the others run it or wait for their partners.
        if (mask != group) advance(warp, group & ~mask, pc + 1);
        execute_warp_collective(warp, in, pc, mask);
        return;
    case Op::Trap:
        if (mask) fault(warp, static_cast<uint32_t>(std::countr_zero(mask)), pc, trap_message(pc));
        advance(warp, group, pc + 1);
        return;
    default:
        break;
    }

    if (mask) {
        switch (in.op) {
        case Op::Ld:
        case Op::St:
            execute_memory(warp, in, pc, mask);
            break;
        case Op::Atom:
        case Op::Red:
            execute_atomic(warp, in, pc, mask);
            break;
        case Op::Membar:
            execute_fence(warp, in, pc, mask);
            break;
        case Op::Nanosleep:
            break;
        case Op::Cvt:
            execute_cvt(warp, in, pc, mask);
            break;
        default:
            execute_alu(warp, in, pc, mask);
            break;
        }
    }
    advance(warp, group, pc + 1);
}

} // namespace synclab::sim
