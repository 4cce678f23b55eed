// Ending a run: error locations, the deadlock report (who waits where, as the GPU's timeout diagnosis
// says it), the thread table of the threads still resident, the block history of a run cut short,
// and the run's metadata.
#include "sim/run.h"
#include "trace/naming.h"
#include "trace/text_format.h"

#include <algorithm>
#include <map>
#include <sstream>

namespace synclab::sim {

namespace {

// Block pictures spelled out in a deadlock report; the others are counted.
constexpr size_t kMaxPictures = 3;

// Blocks grouped by what their threads do (the same "picture" of who waits or spins where), in the
// order first seen: the deadlock and spin reports name each group's blocks once.
class BlockPictures {
  public:
    void add(const std::string& picture, uint32_t block) {
        auto it = std::find_if(groups_.begin(), groups_.end(), [&](const auto& g) { return g.first == picture; });
        if (it == groups_.end())
            groups_.push_back({picture, {block}});
        else
            it->second.push_back(block);
    }
    // " Blocks 0-3: <picture>" for the first kMaxPictures groups, then " N more blocks <verb> likewise."
    std::string describe(const char* verb_one, const char* verb_many) {
        std::string out;
        size_t hidden = 0;
        for (size_t i = 0; i < groups_.size(); ++i) {
            auto& [picture, blocks] = groups_[i];
            if (i >= kMaxPictures) {
                hidden += blocks.size();
                continue;
            }
            std::sort(blocks.begin(), blocks.end());
            out += blocks.size() == 1 ? " Block " : " Blocks ";
            out += trace::format_id_list(blocks);
            out += ":";
            out += picture;
        }
        if (hidden) {
            out += ' ';
            out += std::to_string(hidden);
            out += hidden == 1 ? " more block " : " more blocks ";
            out += hidden == 1 ? verb_one : verb_many;
            out += " likewise.";
        }
        return out;
    }

  private:
    std::vector<std::pair<std::string, std::vector<uint32_t>>> groups_; // picture -> blocks
};

} // namespace

// [SECTION] Errors ===================================================================================

std::string Run::line_of(uint32_t pc) const {
    if (pc >= fn_.code.size()) return "past the end";
    const Instruction& in = fn_.code[pc];
    std::string s = "PTX line " + std::to_string(in.ptx_line);
    if (in.source_line) {
        const std::string file = in.source_file < module_.files.size() ? module_.files[in.source_file] : "";
        s += ", " + (file.empty() ? std::string("line ") : file + ":") + std::to_string(in.source_line);
        // A line of an inlined helper: the calls that lead there (" in `f`, called from line 39").
        s += trace::inlined_text(ptx::site_of(fn_, &module_, pc));
    }
    return s;
}

std::string Run::where(const Warp& warp, uint32_t lane, uint32_t pc) const {
    const Block& b = *warp.block;
    const uint32_t t = warp.first_thread + lane;
    const Dim3& bd = launch_.block;
    std::ostringstream os;
    os << "block (" << b.id.x << "," << b.id.y << "," << b.id.z << ") thread (" << t % bd.x << ","
       << (t / bd.x) % bd.y << "," << t / (bd.x * bd.y) << ")";
    if (pc < fn_.code.size())
        os << " at '" << (pc < fn_.text.size() ? fn_.text[pc] : "") << "' (" << line_of(pc) << ")";
    return os.str();
}

void Run::fault(const Warp& warp, uint32_t lane, uint32_t pc, const std::string& what) {
    set_end(warp.global_first + lane, trace::ThreadEnd::Faulted, pc);
    throw KernelFault{where(warp, lane, pc) + ": " + what};
}

// A trap in a kernel that reads cooperative groups' grid workspace (%envreg1/%envreg2) in a normal
// launch is cg's own check: grid.sync() found no workspace.
std::string Run::trap_message(uint32_t pc) const {
    bool reads_workspace = false;
    for (const Instruction& in : fn_.code)
        for (const Operand& op : in.ops)
            if (op.kind == Operand::Kind::Special &&
                (op.special == ptx::SpecialReg::Envreg1 || op.special == ptx::SpecialReg::Envreg2))
                reads_workspace = true;
    if (!reads_workspace || launch_.cooperative) return "trap instruction executed";
    std::string out = "grid.sync() in a kernel that was not launched cooperatively (";
    out += line_of(pc);
    out += "): cooperative groups' grid barrier needs a cooperative launch (cudaLaunchCooperativeKernel; in a "
           "lesson, cooperative = true; synclab check --cooperative), which gives it its workspace; a normal launch gives none, and the "
           "kernel traps";
    return out;
}

// [SECTION] Deadlock report ==========================================================================

// Per resident block: which threads wait at which instruction, how many exited, and which warps are
// split across barrier instructions (the aligned-barrier rule that makes them wait forever). Blocks
// with the same picture are named together.
std::string Run::deadlock_report() const {
    BlockPictures pictures;
    bool any_split = false;
    for (const auto& bp : resident_) {
        const Block& b = *bp;
        std::map<uint32_t, std::vector<uint32_t>> by_site; // instruction -> waiting threads (in block)
        std::vector<uint32_t> split_warps;
        uint32_t exited = 0;
        for (const Warp& w : b.warps) {
            uint32_t sites_in_warp = 0, first_site = UINT32_MAX;
            for (uint32_t l = 0; l < kWarpSize; ++l) {
                const LaneState st = w.state[l];
                if (st == LaneState::Exited) ++exited;
                if (st != LaneState::AtBarrier && st != LaneState::AlignedWait && st != LaneState::WarpWait)
                    continue;
                const uint32_t site = st == LaneState::AtBarrier ? w.pc[l] - 1 : w.pc[l];
                by_site[site].push_back(w.first_thread + l);
                if (site != first_site) {
                    if (first_site == UINT32_MAX) first_site = site;
                    ++sites_in_warp;
                }
            }
            if (w.aligned_mask && sites_in_warp > 1) split_warps.push_back(w.index);
        }
        std::ostringstream os;
        bool first = true;
        for (const auto& [site, threads] : by_site) {
            os << (first ? " " : "; ") << (threads.size() == 1 ? "thread " : "threads ")
               << trace::format_id_list(threads);
            if (threads.size() > 1) os << " (" << threads.size() << ")";
            os << (threads.size() == 1 ? " waits at '" : " wait at '")
               << (site < fn_.text.size() ? fn_.text[site] : "?") << "' (" << line_of(site) << ")";
            first = false;
        }
        if (exited)
            os << (first ? " " : "; ") << exited << (exited == 1 ? " thread exited" : " threads exited");
        if (!split_warps.empty())
            os << "; the lanes of " << (split_warps.size() == 1 ? "warp " : "warps ")
               << trace::format_id_list(split_warps) << " wait at different barrier instructions";
        os << ".";
        any_split = any_split || !split_warps.empty();
        pictures.add(os.str(), b.linear);
    }
    std::string out = "no thread can move." + pictures.describe("waits", "wait");
    if (any_split)
        out += " Lanes of one warp at different barrier instructions wait for each other forever: an aligned "
               "barrier (bar.sync, __syncthreads()) lets a warp arrive only when all of its non-exited lanes "
               "are at the same one.";
    return out;
}

// The load a spinning lane loops on: the loop is the first backward branch at or after the lane's
// instruction that jumps to or before it; the spin site is the first load or atomic in that loop
// (the lane's own instruction where there is no such loop or no access in it).
uint32_t Run::spin_site(const Warp& warp, uint32_t lane) const {
    const uint32_t pc = warp.uniform && ((warp.ready_mask >> lane) & 1u) ? warp.upc : warp.pc[lane];
    for (uint32_t i = pc; i < code_size_; ++i) {
        const Instruction& in = fn_.code[i];
        if (in.op != ptx::Op::Bra || in.target > pc) continue;
        for (uint32_t j = in.target; j <= i; ++j)
            if (ptx::is_memory_access(fn_.code[j].op) && fn_.code[j].space != ptx::Space::Param &&
                fn_.code[j].space != ptx::Space::Local)
                return j;
        break;
    }
    return pc;
}

// A ready lane at a block barrier instruction while a live lane of its warp is elsewhere: it is
// parked there, not running. The warp runs its laggards (the lowest PC) first, so the lane does not
// execute the barrier while they loop; on the GPU it would have, and would wait there for them (an
// aligned barrier lets a warp arrive only whole). Either way it waits at the barrier for the rest of
// its warp, and the spin report and the thread table (finish_trace) both say so.
bool Run::parked_at_barrier(const Warp& w, uint32_t lane) const {
    if (w.state[lane] != LaneState::Ready) return false;
    const uint32_t pc = w.uniform ? w.upc : w.pc[lane];
    if (pc >= code_size_ || !ptx::is_barrier(fn_.code[pc].op) || (fn_.code[pc].mods & ptx::mod::kArrive))
        return false;
    const uint32_t live = w.live_mask();
    if ((w.ready_mask & live) != live) return true; // a live lane waits elsewhere
    if (w.uniform) return false;                    // the whole warp is ready at the barrier
    for (uint32_t m = live; m; m &= m - 1)
        if (w.pc[std::countr_zero(m)] != pc) return true;
    return false;
}

// Every resident block spins without end while blocks wait for a slot (progress_watch.h): per block,
// which threads spin where and which wait at a barrier (blocks with the same picture together), then
// the blocks that never started, and why no slot frees.
std::string Run::spin_report() const {
    BlockPictures pictures;
    for (const auto& bp : resident_) {
        const Block& b = *bp;
        std::map<std::pair<int, uint32_t>, std::vector<uint32_t>> at; // (0 spin | 1 wait, site) -> threads
        for (const Warp& w : b.warps)
            for (uint32_t l = 0; l < kWarpSize; ++l) {
                const LaneState st = w.state[l];
                if (st == LaneState::Absent || st == LaneState::Exited) continue;
                const uint32_t pc = w.uniform && ((w.ready_mask >> l) & 1u) ? w.upc : w.pc[l];
                if (parked_at_barrier(w, l))
                    at[{1, pc}].push_back(w.first_thread + l);
                else if (st == LaneState::Ready)
                    at[{0, spin_site(w, l)}].push_back(w.first_thread + l);
                else
                    at[{1, st == LaneState::AtBarrier ? w.pc[l] - 1 : w.pc[l]}].push_back(w.first_thread + l);
            }
        std::ostringstream os;
        bool first = true;
        for (const auto& [key, threads] : at) {
            const bool one = threads.size() == 1;
            os << (first ? " " : "; ") << (one ? "thread " : "threads ") << trace::format_id_list(threads)
               << (key.first == 0 ? (one ? " spins at '" : " spin at '") : (one ? " waits at '" : " wait at '"))
               << (key.second < fn_.text.size() ? fn_.text[key.second] : "?") << "' (" << line_of(key.second)
               << ")";
            first = false;
        }
        os << ".";
        pictures.add(os.str(), b.linear);
    }
    std::string out = "the resident blocks spin without end: no resident thread changes memory, exits or "
                      "frees a slot, so the blocks waiting for one never start." +
                      pictures.describe("spins", "spin");
    std::vector<uint32_t> never;
    for (uint32_t b = next_block_; b < block_count_; ++b)
        never.push_back(b);
    std::ostringstream tail;
    tail << (never.size() == 1 ? " Block " : " Blocks ") << trace::format_id_list(never)
         << " never started: no slot freed (at most " << residency_->total() << " blocks of " << threads_per_block_
         << " threads fit at once: " << residency_->explain() << ").";
    out += tail.str();
    return out;
}

// [SECTION] Trace: thread table, block history, metadata =============================================

void Run::finish_trace(Result& result, double elapsed_ms) {
    if (!trace_) return;
    trace::Trace& t = *trace_;
    if (!thread_table_) {
        // The launch was rejected before it started: no threads, no events.
        t.threads.clear();
        t.events.clear();
        t.timing.clear();
        t.block_history.clear();
        t.residency.clear();
    } else {
        // Threads still in resident blocks: where they are.
        for (const auto& bp : resident_)
            for (const Warp& w : bp->warps)
                for (uint32_t l = 0; l < kWarpSize; ++l) {
                    const LaneState st = w.state[l];
                    if (st == LaneState::Absent || st == LaneState::Exited) continue;
                    trace::ThreadInfo& ti = thread_table_[w.global_first + l];
                    if (ti.end == trace::ThreadEnd::Faulted) continue;
                    if (st == LaneState::Ready && !parked_at_barrier(w, l)) {
                        ti.end = trace::ThreadEnd::Running;
                        ti.end_site = w.uniform ? w.upc : w.pc[l];
                    } else {
                        // At a block barrier (pc is past it), or waiting at the instruction itself: for
                        // the rest of its warp at an aligned barrier (parked or arrived), or at a warp
                        // collective.
                        ti.end = trace::ThreadEnd::AtBarrier;
                        ti.end_site = st == LaneState::AtBarrier ? w.pc[l] - 1
                                      : st == LaneState::Ready   ? (w.uniform ? w.upc : w.pc[l])
                                                                 : w.pc[l];
                    }
                }
        // Blocks that never started.
        const uint32_t sms = std::max<uint32_t>(options_.sm_count, 1);
        for (size_t g = size_t(next_block_) * threads_per_block_; g < t.threads.size(); ++g) {
            trace::ThreadInfo& ti = t.threads[g];
            ti.end = trace::ThreadEnd::NotStarted;
            ti.end_site = 0;
            ti.sm = static_cast<uint16_t>(ti.block % sms);
        }
        // The residency table: where and when each block was resident, or that it never was.
        t.residency.assign(block_count_, trace::BlockResidency{});
        for (uint32_t b = 0; b < block_count_; ++b) {
            trace::BlockResidency& r = t.residency[b];
            r.admitted = admitted_at_[b];
            r.retired = retired_at_[b];
            r.sm = placed_sm_[b] != UINT32_MAX ? placed_sm_[b] : b % sms; // never admitted: where the first wave would put it
            r.waited = waited_[b];
        }
        const uint32_t last_site = t.sites.empty() ? 0 : static_cast<uint32_t>(t.sites.size() - 1);
        for (trace::ThreadInfo& ti : t.threads)
            ti.end_site = std::min(ti.end_site, last_site);
        // A run cut short: only the blocks that finished have their whole history in the trace.
        const bool cut =
            result.status == trace::RunStatus::Budget || result.status == trace::RunStatus::Cancelled;
        t.block_history.clear();
        if (cut && recording_ && !t.events.empty() && (!resident_.empty() || next_block_ < block_count_)) {
            t.block_history.assign(block_count_, trace::BlockHistory::Whole);
            for (uint32_t b = next_block_; b < block_count_; ++b)
                t.block_history[b] = trace::BlockHistory::NotRecorded;
            for (const auto& bp : resident_)
                t.block_history[bp->linear] = trace::BlockHistory::Partial;
        }
    }
    t.meta.status = result.status;
    t.meta.status_message = result.message;
    t.meta.elapsed_ms = elapsed_ms;
    t.meta.thread_instructions = result.thread_instructions;
    t.meta.warp_instructions = result.warp_instructions;
    t.meta.dropped_events = 0;
    t.meta.modelled_cycles = result.modelled_cycles;
    if (recording_ && cas_failures_total_ > 0) t.cas_failures = cas_failures_;
    if (!timing_) t.timing.clear();
}

} // namespace synclab::sim
