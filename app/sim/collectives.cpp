// Warp collectives: bar.warp.sync, vote.sync and shfl.sync. The lanes named in the member mask meet:
// lanes that arrive before their partners wait (WarpWait, pc = the instruction) until every
// non-exited member waits at the same instruction (bar.warp.sync: at any bar.warp.sync); then the
// instruction runs for all of them at once. (activemask is an ALU instruction: alu_exec.cpp.)
#include "sim/run.h"
#include "trace/text_format.h"

namespace synclab::sim {

using ptx::Op;

void Run::execute_warp_collective(Warp& warp, const Instruction& in, uint32_t pc, uint32_t mask) {
    if (!mask) return;
    const ptx::Operand& member_op = in.op == Op::WarpSync ? in.ops[0]
                                    : in.op == Op::Vote   ? in.ops[2]
                                                          : in.ops[5];
    const uint32_t first = static_cast<uint32_t>(std::countr_zero(mask));
    const uint32_t members = static_cast<uint32_t>(read(warp, member_op, first)) & warp.present_mask;
    if ((members & (1u << first)) == 0)
        fault(warp, first, pc,
              "lane " + std::to_string(first) + " executes " + ptx::to_string(in.op) +
                  " but is not in its member mask " + trace::format_hex(members));
    // Lanes already waiting at this instruction (bar.warp.sync: at any bar.warp.sync) join this group.
    uint32_t joined = mask;
    for (uint32_t l = 0; l < kWarpSize; ++l)
        if (warp.state[l] == LaneState::WarpWait &&
            (warp.pc[l] == pc || (in.op == Op::WarpSync && fn_.code[warp.pc[l]].op == Op::WarpSync)))
            joined |= 1u << l;
    const uint32_t needed = members & ~warp.exited_mask;
    if ((joined & needed) != needed) {
        materialize(warp);
        for (uint32_t m = mask; m; m &= m - 1) {
            const uint32_t l = static_cast<uint32_t>(std::countr_zero(m));
            warp.state[l] = LaneState::WarpWait;
            warp.pc[l] = pc;
        }
        warp.ready_mask &= ~mask;
        return;
    }
    // Everyone is here: run it for the joined lanes, then release the waiters past their instruction.
    if (in.op == Op::Vote) {
        uint32_t ballot = 0;
        for (uint32_t m = joined; m; m &= m - 1) {
            const uint32_t l = static_cast<uint32_t>(std::countr_zero(m));
            if (read(warp, in.ops[1], l) & 1) ballot |= 1u << l;
        }
        uint64_t* d = reg(warp, in.ops[0].reg);
        for (uint32_t m = joined; m; m &= m - 1) {
            const uint32_t l = static_cast<uint32_t>(std::countr_zero(m));
            switch (in.vote) {
            case ptx::VoteMode::All:
                d[l] = (ballot & joined) == joined;
                break;
            case ptx::VoteMode::Any:
                d[l] = ballot != 0;
                break;
            case ptx::VoteMode::Uni:
                d[l] = ballot == 0 || (ballot & joined) == joined;
                break;
            default:
                d[l] = ballot;
                break;
            }
        }
    } else if (in.op == Op::Shfl) {
        uint64_t src[kWarpSize];
        for (uint32_t l = 0; l < kWarpSize; ++l)
            src[l] = ((joined >> l) & 1) ? read(warp, in.ops[2], l) : 0;
        uint64_t* d = reg(warp, in.ops[0].reg);
        uint64_t* p = in.ops[1].kind == ptx::Operand::Kind::Reg ? reg(warp, in.ops[1].reg) : nullptr;
        for (uint32_t m = joined; m; m &= m - 1) {
            const uint32_t l = static_cast<uint32_t>(std::countr_zero(m));
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
            if (!valid || j >= kWarpSize || !((joined >> j) & 1)) j = l, valid = false;
            d[l] = src[j];
            if (p) p[l] = valid;
        }
    }
    // Release the waiters and move everyone past the instruction.
    materialize(warp);
    for (uint32_t m = joined; m; m &= m - 1) {
        const uint32_t l = static_cast<uint32_t>(std::countr_zero(m));
        if (warp.state[l] == LaneState::WarpWait) {
            warp.state[l] = LaneState::Ready;
            warp.ready_mask |= 1u << l;
        }
        warp.pc[l] += 1;
    }
    warp.uniform = false;
}

} // namespace synclab::sim
