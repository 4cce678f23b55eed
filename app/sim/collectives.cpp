// Warp collectives: bar.warp.sync, vote, shfl, redux, match and elect (all .sync). A lane that
// executes one waits (WarpWait, pc = the instruction, its member mask kept) until its partners are
// there; then the instruction runs for all of them at once and each records a WarpCollective event
// (trace.h). (activemask is an ALU instruction: alu_exec.cpp.)
//
// Who must meet, per the PTX ISA:
//   - every lane that executes a .sync collective is in its own member mask (else the behaviour is
//     undefined: an error here);
//   - shfl, vote, redux and match wait for the non-exited lanes of the mask ("all non-exited
//     threads corresponding to membermask"); bar.warp.sync and elect wait for every lane of the mask
//     ("all threads in the membermask"), so a member that exited without executing one is an error,
//     and a shfl that reads a lane that exited is too (the value it would get is undefined);
//   - the members execute the same instruction with the same mask (bar.warp.sync: any bar.warp.sync
//     with the same mask). Lanes that wait for each other at different collectives, or for lanes
//     held at an aligned block barrier, wait forever: an error naming both groups.
// Lanes that do not exist (a partial last warp) are never members.
#include "sim/run.h"

#include <algorithm>
#include <cstdio>
#include <iterator>

namespace synclab::sim {

using ptx::Op;

namespace {

trace::Collective collective_of(Op op) {
    switch (op) {
    case Op::WarpSync:
        return trace::Collective::WarpSync;
    case Op::Shfl:
        return trace::Collective::Shfl;
    case Op::Vote:
        return trace::Collective::Vote;
    case Op::Match:
        return trace::Collective::Match;
    case Op::Redux:
        return trace::Collective::Redux;
    default:
        return trace::Collective::Elect;
    }
}

// A member mask as PTX programmers write it: all 8 hex digits ("0x0000ffff").
std::string mask_hex(uint32_t mask) {
    char buffer[12];
    std::snprintf(buffer, sizeof buffer, "0x%08x", mask);
    return buffer;
}

// vote.sync's destination, the same for every member: .ballot the ballot of the group, .all/.any/.uni
// whether all / any / all-or-none of the group voted true.
uint32_t vote_result(ptx::VoteMode mode, uint32_t ballot, uint32_t group) {
    switch (mode) {
    case ptx::VoteMode::All:
        return (ballot & group) == group;
    case ptx::VoteMode::Any:
        return ballot != 0;
    case ptx::VoteMode::Uni:
        return ballot == 0 || (ballot & group) == group;
    default:
        return ballot;
    }
}

// One step of redux.sync's reduction: .add wraps at 32 bits (as the ISA says), .min/.max compare as
// .s32 or .u32.
uint32_t redux_step(ptx::AtomOp op, bool is_signed, uint32_t acc, uint32_t v) {
    switch (op) {
    case ptx::AtomOp::Add:
        return acc + v;
    case ptx::AtomOp::Min:
        return is_signed ? uint32_t(std::min(int32_t(acc), int32_t(v))) : std::min(acc, v);
    case ptx::AtomOp::Max:
        return is_signed ? uint32_t(std::max(int32_t(acc), int32_t(v))) : std::max(acc, v);
    case ptx::AtomOp::And:
        return acc & v;
    case ptx::AtomOp::Or:
        return acc | v;
    default:
        return acc ^ v;
    }
}

} // namespace

// "lane 5", "lanes 16-31", "lanes 0-3, 8, 12-15".
std::string lanes_text(uint32_t mask) {
    std::string s = lane_count(mask) == 1 ? "lane " : "lanes ";
    int runs = 0;
    for (uint32_t l = 0; l < kWarpSize;) {
        if (!((mask >> l) & 1)) {
            ++l;
            continue;
        }
        uint32_t e = l;
        while (e + 1 < kWarpSize && ((mask >> (e + 1)) & 1))
            ++e;
        if (runs++) s += ", ";
        s += std::to_string(l);
        if (e > l) {
            s += '-';
            s += std::to_string(e);
        }
        l = e + 1;
    }
    return s;
}

std::string Run::collective_name(uint32_t pc) const {
    const Instruction& in = fn_.code[pc];
    std::string name = ptx::to_string(in.op);
    if (in.op != Op::WarpSync) name += ".sync";
    return name + " (" + line_of(pc) + ")";
}

void Run::execute_warp_collective(Warp& warp, const Instruction& in, uint32_t pc, uint32_t mask) {
    if (!mask) return;
    const ptx::Operand& member_op = in.ops[ptx::member_mask_slot(in.op)];
    for_each_lane(mask, [&](uint32_t l) {
        const uint32_t m = static_cast<uint32_t>(read(warp, member_op, l));
        if (((m >> l) & 1) == 0)
            fault(warp, l, pc,
                  "lane " + std::to_string(l) + " executes " + collective_name(pc) +
                      " but is not in its own member mask " + mask_hex(m) +
                      " (a lane that executes a .sync collective must be named in its mask)");
        warp.member_mask[l] = m;
    });
    materialize(warp);
    for_each_lane(mask, [&](uint32_t l) {
        warp.state[l] = LaneState::WarpWait;
        warp.pc[l] = pc;
    });
    warp.ready_mask &= ~mask;
    meet_collectives(warp);
}

// Completes every collective of the warp whose members are all there, and stops the run when some
// waiting lanes can never be joined by their partners.
void Run::meet_collectives(Warp& warp) {
    uint32_t examined = 0;
    for (;;) {
        uint32_t waiting = 0;
        for (uint32_t l = 0; l < kWarpSize; ++l)
            if (warp.state[l] == LaneState::WarpWait) waiting |= 1u << l;
        waiting &= ~examined;
        if (!waiting) return;
        const uint32_t f = static_cast<uint32_t>(std::countr_zero(waiting));
        const uint32_t pc = warp.pc[f];
        const Instruction& in = fn_.code[pc];
        const uint32_t member_mask = warp.member_mask[f];
        const uint32_t members = member_mask & warp.present_mask;
        const bool is_sync = in.op == Op::WarpSync;
        auto meets = [&](uint32_t l) {
            return warp.state[l] == LaneState::WarpWait && warp.member_mask[l] == member_mask &&
                   (warp.pc[l] == pc || (is_sync && fn_.code[warp.pc[l]].op == Op::WarpSync));
        };
        uint32_t group = 0;
        for_each_lane(members, [&](uint32_t l) {
            if (meets(l)) group |= 1u << l;
        });
        const bool every_member = is_sync || in.op == Op::Elect; // see the rules at the top
        const uint32_t needed = every_member ? members : members & ~warp.exited_mask;
        if ((group & needed) == needed && group) {
            complete_collective(warp, in, pc, group, member_mask);
            continue; // the released lanes may be what another group waits for: look again
        }
        examined |= group;
        check_stuck(warp, pc, group, needed & ~group, member_mask);
    }
}

// `group` (at the collective at pc) waits for `missing`: an error if they can never come.
void Run::check_stuck(Warp& warp, uint32_t pc, uint32_t group, uint32_t missing, uint32_t member_mask) {
    const uint32_t at = static_cast<uint32_t>(std::countr_zero(group));
    const uint32_t exited = missing & warp.exited_mask;
    if (exited)
        fault(warp, at, pc,
              lanes_text(exited) + " named in member mask " + mask_hex(member_mask) + " of " +
                  collective_name(pc) + " exited without executing it, so " + lanes_text(group) +
                  " wait for them forever");
    uint32_t aligned = missing & warp.aligned_mask;
    if (aligned) {
        const uint32_t b = static_cast<uint32_t>(std::countr_zero(aligned));
        fault(warp, at, pc,
              lanes_text(group) + " wait at " + collective_name(pc) + " for " + lanes_text(aligned) +
                  ", which wait at the block barrier " + collective_or_barrier(warp.pc[b]) +
                  " for the rest of their warp: they wait for each other forever");
    }
    for (uint32_t m = missing; m; m &= m - 1) {
        const uint32_t b = static_cast<uint32_t>(std::countr_zero(m));
        if (warp.state[b] != LaneState::WarpWait) continue; // running, or at a block barrier: may come
        // b waits at another collective (or with another mask); if that one needs a lane of this
        // group, neither can ever complete.
        if ((warp.member_mask[b] & group) == 0) continue;
        uint32_t other = 0;
        for (uint32_t l = 0; l < kWarpSize; ++l)
            if (warp.state[l] == LaneState::WarpWait && warp.pc[l] == warp.pc[b] &&
                warp.member_mask[l] == warp.member_mask[b])
                other |= 1u << l;
        const bool same_pc = warp.pc[b] == pc;
        fault(warp, at, pc,
              lanes_text(group) + " wait at " + collective_name(pc) + " with member mask " +
                  mask_hex(member_mask) + " and " + lanes_text(other) + " at " +
                  (same_pc ? std::string("the same instruction") : collective_name(warp.pc[b])) +
                  " with member mask " + mask_hex(warp.member_mask[b]) +
                  ": each waits for the other, forever (the members of a warp collective must execute "
                  "the same instruction with the same mask)");
    }
}

std::string Run::collective_or_barrier(uint32_t pc) const {
    const Instruction& in = fn_.code[pc];
    if (ptx::is_warp_collective(in.op)) return collective_name(pc);
    return "'" + (pc < fn_.text.size() ? fn_.text[pc] : std::string("?")) + "' (" + line_of(pc) + ")";
}

// Runs the collective at pc for `group`, records it, and moves the lanes past it.
void Run::complete_collective(Warp& warp, const Instruction& in, uint32_t pc, uint32_t group,
                              uint32_t member_mask) {
    uint32_t result[kWarpSize] = {};
    uint32_t source[kWarpSize];
    std::fill(std::begin(source), std::end(source), trace::kNoLane);
    auto lanes = [&](auto&& f) { for_each_lane(group, f); };
    switch (in.op) {
    case Op::Vote: {
        uint32_t ballot = 0;
        lanes([&](uint32_t l) {
            if (read(warp, in.ops[1], l) & 1) ballot |= 1u << l;
        });
        uint64_t* d = reg(warp, in.ops[0].reg);
        const uint32_t value = vote_result(in.vote, ballot, group);
        lanes([&](uint32_t l) {
            d[l] = value;
            result[l] = value;
        });
        break;
    }
    case Op::Shfl:
        shuffle(warp, in, pc, group, member_mask, result, source);
        break;
    case Op::Redux: {
        const bool is_signed = in.type == ptx::Type::S32;
        uint32_t acc = 0;
        bool first = true;
        lanes([&](uint32_t l) {
            const uint32_t v = static_cast<uint32_t>(read(warp, in.ops[1], l));
            acc = first ? v : redux_step(in.atom_op, is_signed, acc, v);
            first = false;
        });
        uint64_t* d = reg(warp, in.ops[0].reg);
        lanes([&](uint32_t l) {
            d[l] = acc;
            result[l] = acc;
        });
        break;
    }
    case Op::Match: {
        const uint64_t width = in.type == ptx::Type::B64 ? ~0ull : 0xffffffffull;
        uint64_t value[kWarpSize] = {};
        lanes([&](uint32_t l) { value[l] = read(warp, in.ops[2], l) & width; });
        uint32_t same_as_first = 0;
        const uint64_t v0 = value[std::countr_zero(group) & 31]; // group is never empty
        lanes([&](uint32_t l) {
            if (value[l] == v0) same_as_first |= 1u << l;
        });
        const bool all = same_as_first == group;
        uint64_t* d = reg(warp, in.ops[0].reg);
        uint64_t* p = in.ops[1].kind == ptx::Operand::Kind::Reg ? reg(warp, in.ops[1].reg) : nullptr;
        lanes([&](uint32_t l) {
            uint32_t same = 0;
            if (in.vote == ptx::VoteMode::Any) {
                for_each_lane(group, [&](uint32_t k) {
                    if (value[k] == value[l]) same |= 1u << k;
                });
            } else {
                same = all ? group : 0;
            }
            d[l] = same;
            if (p) p[l] = all;
            result[l] = same;
        });
        break;
    }
    case Op::Elect: {
        // The leader is the lowest member lane that takes part (deterministic, as the ISA asks).
        const uint32_t leader = static_cast<uint32_t>(std::countr_zero(group));
        uint64_t* d = in.ops[0].kind == ptx::Operand::Kind::Reg ? reg(warp, in.ops[0].reg) : nullptr;
        uint64_t* p = in.ops[1].kind == ptx::Operand::Kind::Reg ? reg(warp, in.ops[1].reg) : nullptr;
        lanes([&](uint32_t l) {
            if (d) d[l] = leader;
            if (p) p[l] = l == leader;
            result[l] = leader;
        });
        break;
    }
    default: // bar.warp.sync: the meeting is all there is
        break;
    }
    if (recording_) record_collective(warp, group, member_mask, collective_of(in.op), result, source);
    // Release the lanes past their instruction (bar.warp.sync: each past its own).
    for_each_lane(group, [&](uint32_t l) {
        warp.state[l] = LaneState::Ready;
        warp.pc[l] += 1;
    });
    warp.ready_mask |= group;
    warp.uniform = false;
}

// shfl.sync: each lane of the group reads the register of its source lane (PTX ISA shfl.sync: the
// clamp and segment mask in c bound the source; out of bounds, the lane keeps its own value and p is
// false).
void Run::shuffle(Warp& warp, const Instruction& in, uint32_t pc, uint32_t group, uint32_t member_mask,
                  uint32_t* result, uint32_t* source) {
    uint64_t src[kWarpSize];
    for (uint32_t l = 0; l < kWarpSize; ++l)
        src[l] = ((group >> l) & 1) ? read(warp, in.ops[2], l) : 0;
    uint64_t* d = reg(warp, in.ops[0].reg);
    uint64_t* p = in.ops[1].kind == ptx::Operand::Kind::Reg ? reg(warp, in.ops[1].reg) : nullptr;
    uint32_t read_exited = 0, readers = 0;
    for_each_lane(group, [&](uint32_t l) {
        const uint32_t b = static_cast<uint32_t>(read(warp, in.ops[3], l)) & 31;
        const uint32_t c = static_cast<uint32_t>(read(warp, in.ops[4], l));
        const uint32_t clamp = c & 31;
        const uint32_t seg_mask = (c >> 8) & 31;
        const uint32_t max_lane = (l & seg_mask) | (clamp & ~seg_mask);
        const uint32_t min_lane = l & seg_mask;
        uint32_t j = l;
        bool valid = true;
        switch (in.shfl) {
        case ptx::ShflMode::Up:
            j = l - b;
            valid = int32_t(j) >= int32_t(max_lane);
            break;
        case ptx::ShflMode::Down:
            j = l + b;
            valid = j <= max_lane;
            break;
        case ptx::ShflMode::Bfly:
            j = l ^ b;
            valid = j <= max_lane;
            break;
        default:
            j = min_lane | (b & ~seg_mask);
            valid = j <= max_lane;
            break;
        }
        if (valid && j < kWarpSize && ((member_mask >> j) & 1) && ((warp.exited_mask >> j) & 1) &&
            ((warp.present_mask >> j) & 1)) {
            read_exited |= 1u << j;
            readers |= 1u << l;
        }
        if (!valid || j >= kWarpSize || !((group >> j) & 1)) j = l, valid = false;
        d[l] = src[j];
        if (p) p[l] = valid;
        result[l] = static_cast<uint32_t>(d[l]);
        if (valid) source[l] = j;
    });
    if (read_exited)
        fault(warp, static_cast<uint32_t>(std::countr_zero(readers)), pc,
              lanes_text(read_exited) + " named in member mask " + mask_hex(member_mask) + " of " +
                  collective_name(pc) + " exited without executing it, and " + lanes_text(readers) +
                  " read their values (a shuffle from an exited lane is undefined)");
}

// One WarpCollective event per lane of `lanes`, all at this tick: the members have met. Each at its
// own instruction (warp.pc[l], not yet moved past it): bar.warp.sync members may meet from different
// __syncwarp() calls.
void Run::record_collective(const Warp& warp, uint32_t lanes, uint32_t members, trace::Collective kind,
                            const uint32_t* result, const uint32_t* source) {
    const uint8_t flags = static_cast<uint8_t>(static_cast<uint8_t>(kind) & trace::flag::kCollectiveMask);
    for_each_lane(lanes, [&](uint32_t l) {
        emit(trace::EventKind::WarpCollective, warp, l, warp.pc[l], (uint64_t(source[l]) << 32) | members,
             result[l], flags);
    });
}

} // namespace synclab::sim
