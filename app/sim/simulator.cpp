// SyncLab simulator.
//
// Index
//   [SECTION] Names and small helpers
//   [SECTION] Run state: blocks, warps, lanes
//   [SECTION] Launch set-up (validation, parameters, globals, trace header)
//   [SECTION] Block admission and retirement
//   [SECTION] Scheduling (rr, random, adversarial)
//   [SECTION] Warp step: group selection, guard, dispatch
//   [SECTION] Instructions: arithmetic and conversion
//   [SECTION] Instructions: memory and atomics
//   [SECTION] Instructions: barriers and warp-level sync
//   [SECTION] Events
//   [SECTION] Ending a run (deadlock diagnosis, thread table)
#include "sim/simulator.h"

#include "sim/alu.h"
#include "sim/memory.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdio>
#include <memory>
#include <sstream>

namespace synclab::sim {

// [SECTION] Names and small helpers ==================================================================

const char* to_string(Schedule schedule) {
    switch (schedule) {
    case Schedule::RoundRobin:
        return "rr";
    case Schedule::Random:
        return "random";
    case Schedule::Adversarial:
        return "adversarial";
    }
    return "?";
}

bool parse_schedule(const std::string& text, Schedule& out) {
    if (text == "rr")
        out = Schedule::RoundRobin;
    else if (text == "random")
        out = Schedule::Random;
    else if (text == "adversarial")
        out = Schedule::Adversarial;
    else
        return false;
    return true;
}

namespace {

using ptx::Instruction;
using ptx::Op;
using ptx::Operand;
using ptx::Type;
using trace::EventKind;

constexpr uint32_t kWarpSize = 32;
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

struct BudgetExceeded {
    std::string message;
};

// The trace's scope for a PTX scope (.cta -> block, .sys -> system, .gpu/.cluster -> device);
// `fallback` for instructions that name none.
trace::Scope trace_scope(ptx::MemScope scope, trace::Scope fallback) {
    switch (scope) {
    case ptx::MemScope::None:
        return fallback;
    case ptx::MemScope::Cta:
        return trace::Scope::Block;
    case ptx::MemScope::Sys:
        return trace::Scope::System;
    default:
        return trace::Scope::Device;
    }
}

bool is_ordered(ptx::MemOrder order) {
    return order == ptx::MemOrder::Acquire || order == ptx::MemOrder::Release ||
           order == ptx::MemOrder::AcqRel || order == ptx::MemOrder::Sc;
}

std::string hex(uint64_t v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
    return buf;
}

// [SECTION] Run state: blocks, warps, lanes ==========================================================

enum class LaneState : uint8_t { Ready, AtBarrier, WarpWait, Exited, Absent };

struct Warp {
    uint32_t index = 0;        // warp index inside its block
    uint32_t first_thread = 0; // thread_in_block of lane 0
    uint32_t present_mask = 0; // lanes that exist (the last warp of a block may be partial)
    uint32_t ready_mask = 0;   // lanes that can run now
    uint32_t exited_mask = 0;
    // When `uniform`, every ready lane is at `upc` and pc[] is stale for them; otherwise pc[] is exact.
    bool uniform = true;
    uint32_t upc = 0;
    uint32_t pc[kWarpSize] = {};
    LaneState state[kWarpSize] = {};
    uint32_t warp_wait_pc[kWarpSize] = {};   // instruction a WarpWait lane waits at
    uint32_t warp_wait_mask[kWarpSize] = {}; // its member mask
    uint64_t* regs = nullptr;                // [slot][lane]
    uint32_t adversarial_skips = 0;
    bool victim = false; // adversarial: this warp gets held back at shared-memory accesses
    struct Block* block = nullptr;
};

struct BarrierState {
    uint32_t arrived = 0;          // threads counted in the current phase (arrive and sync)
    uint32_t expected = 0;         // explicit thread count of bar.sync a, b (0: all non-exited threads)
    uint32_t phase = 0;            // completed phases so far
    std::vector<uint32_t> waiting; // thread_in_block of threads blocked in bar.sync
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

class Run {
  public:
    Run(const ptx::Module& module, const ptx::Function& fn, const LaunchConfig& launch,
        std::vector<Buffer>& buffers, const std::vector<KernelArg>& args, const Options& options,
        trace::Trace* trace)
        : module_(module), fn_(fn), launch_(launch), buffers_(buffers), args_(args), options_(options),
          trace_(trace), rng_{options.seed * 0x2545f4914f6cdd1dull + 0x1234567ull} {}

    Result execute();

  private:
    // set-up
    void set_up();
    void build_params();
    void allocate_globals();
    void start_trace();
    // blocks
    void admit_blocks();
    void retire_block(size_t resident_index);
    // scheduling
    Warp* pick_warp();
    uint32_t pick_quantum();
    bool wants_delay(Warp& warp);
    // stepping
    void step(Warp& warp);
    void group_of(Warp& warp, uint32_t& pc, uint32_t& mask);
    void materialize(Warp& warp);
    void advance(Warp& warp, uint32_t mask, uint32_t next_pc);
    void execute_alu(Warp& warp, const Instruction& in, uint32_t mask);
    void execute_cvt(Warp& warp, const Instruction& in, uint32_t mask);
    void execute_memory(Warp& warp, const Instruction& in, uint32_t pc, uint32_t mask);
    void execute_atomic(Warp& warp, const Instruction& in, uint32_t pc, uint32_t mask);
    void execute_barrier(Warp& warp, const Instruction& in, uint32_t pc, uint32_t mask);
    bool execute_warp_collective(Warp& warp, const Instruction& in, uint32_t pc, uint32_t mask);
    void exit_lanes(Warp& warp, uint32_t pc, uint32_t mask);
    void check_barrier(Block& block, uint32_t id);
    // operands
    uint64_t read(const Warp& warp, const Operand& op, uint32_t lane) const;
    uint64_t special(const Warp& warp, ptx::SpecialReg reg, uint32_t lane) const;
    uint64_t address_of(const Warp& warp, const Operand& op, uint32_t lane) const;
    uint8_t* resolve(Warp& warp, const Instruction& in, uint32_t pc, uint32_t lane, uint64_t address,
                     uint32_t size, bool write, trace::Space& space, uint64_t& trace_address);
    uint64_t* reg(Warp& warp, uint32_t slot) { return warp.regs + size_t(slot) * kWarpSize; }
    // events and errors
    void emit(EventKind kind, const Warp& warp, uint32_t lane, uint32_t pc, uint64_t address, uint64_t value,
              uint8_t flags);
    uint32_t global_thread(const Warp& warp, uint32_t lane) const {
        return warp.block->linear * threads_per_block_ + warp.first_thread + lane;
    }
    std::string where(const Warp& warp, uint32_t lane, uint32_t pc) const;
    std::string line_of(uint32_t pc) const;
    [[noreturn]] void fault(const Warp& warp, uint32_t lane, uint32_t pc, const std::string& what);
    // ending
    std::string deadlock_report() const;
    void finish_trace(Result& result, double elapsed_ms);

    const ptx::Module& module_;
    const ptx::Function& fn_;
    const LaunchConfig& launch_;
    std::vector<Buffer>& buffers_;
    const std::vector<KernelArg>& args_;
    const Options& options_;
    trace::Trace* trace_;
    Rng rng_;

    uint32_t threads_per_block_ = 0;
    uint32_t warps_per_block_ = 0;
    uint32_t block_count_ = 0;
    uint32_t slots_ = 0;
    uint32_t shared_bytes_ = 0;
    std::vector<uint8_t> params_;
    std::vector<std::vector<uint8_t>> global_vars_; // backing store of module .global/.const variables
    std::vector<uint64_t> symbol_address_;          // per Module::globals index
    std::vector<uint64_t> buffer_address_;
    GlobalMemory global_;

    std::vector<std::unique_ptr<Block>> resident_;
    std::vector<Warp*> warps_; // warps of resident blocks, in admission order
    uint32_t next_block_ = 0;
    uint32_t blocks_done_ = 0;
    size_t rr_cursor_ = 0;

    uint64_t tick_ = 0;
    uint64_t thread_instructions_ = 0;
    uint64_t warp_instructions_ = 0;
    uint64_t dropped_ = 0;
    bool recording_ = false;
    // Final state of every thread, kept for the thread table even after its block retires.
    std::vector<trace::ThreadEnd> thread_end_;
    std::vector<uint32_t> thread_end_site_;
};

// [SECTION] Launch set-up ============================================================================

void Run::set_up() {
    const Dim3& g = launch_.grid;
    const Dim3& b = launch_.block;
    if (g.x == 0 || g.y == 0 || g.z == 0 || b.x == 0 || b.y == 0 || b.z == 0)
        throw KernelFault{"launch: grid and block dimensions must all be at least 1"};
    if (b.count() > 1024)
        throw KernelFault{"launch: " + std::to_string(b.count()) +
                          " threads per block; CUDA allows at most 1024"};
    if (b.z > 64) throw KernelFault{"launch: block z dimension is at most 64"};
    if (g.y > 65535 || g.z > 65535) throw KernelFault{"launch: grid y and z dimensions are at most 65535"};
    const uint64_t total = g.count() * b.count();
    if (total > options_.max_threads)
        throw BudgetExceeded{"launch of " + std::to_string(total) + " threads exceeds the thread budget of " +
                             std::to_string(options_.max_threads)};
    threads_per_block_ = static_cast<uint32_t>(b.count());
    warps_per_block_ = (threads_per_block_ + kWarpSize - 1) / kWarpSize;
    block_count_ = static_cast<uint32_t>(g.count());
    slots_ = static_cast<uint32_t>(fn_.registers.size());
    // Dynamic shared memory starts after the static variables (at their aligned end).
    shared_bytes_ =
        std::max(fn_.shared_dynamic_offset, fn_.shared_static_bytes) + launch_.dynamic_shared_bytes;
    if (shared_bytes_ > 228 * 1024)
        throw KernelFault{"launch: " + std::to_string(shared_bytes_) +
                          " bytes of shared memory per block; the largest GPUs allow 227 KB"};
    const uint64_t per_block = uint64_t(warps_per_block_) * slots_ * kWarpSize * 8 + shared_bytes_ +
                               uint64_t(threads_per_block_) * fn_.local_bytes + sizeof(Block);
    const uint64_t resident = std::min<uint64_t>(options_.max_resident_blocks, block_count_);
    if (per_block * resident > options_.max_memory_bytes)
        throw BudgetExceeded{"simulated state needs " + std::to_string(per_block * resident) +
                             " bytes, over the memory budget of " +
                             std::to_string(options_.max_memory_bytes)};
    build_params();
    allocate_globals();
    thread_end_.assign(size_t(block_count_) * threads_per_block_, trace::ThreadEnd::NotStarted);
    thread_end_site_.assign(thread_end_.size(), 0);
    recording_ = trace_ && options_.record_trace;
    start_trace();
}

void Run::build_params() {
    if (args_.size() != fn_.params.size())
        throw KernelFault{"kernel " + fn_.name + " takes " + std::to_string(fn_.params.size()) +
                          " parameters, " + std::to_string(args_.size()) + " given"};
    buffer_address_.resize(buffers_.size());
    for (size_t i = 0; i < buffers_.size(); ++i)
        buffer_address_[i] =
            global_.add(buffers_[i].name.empty() ? "buffer " + std::to_string(i) : buffers_[i].name,
                        buffers_[i].bytes.data(), buffers_[i].bytes.size());
    params_.assign(fn_.param_bytes, 0);
    for (size_t i = 0; i < args_.size(); ++i) {
        const ptx::Param& p = fn_.params[i];
        uint64_t value = args_[i].bits;
        if (args_[i].kind == KernelArg::Kind::Buffer) {
            if (args_[i].buffer >= buffers_.size())
                throw KernelFault{"argument " + std::to_string(i) + " names buffer " +
                                  std::to_string(args_[i].buffer) + ", but only " +
                                  std::to_string(buffers_.size()) + " exist"};
            if (p.size != 8)
                throw KernelFault{"argument " + std::to_string(i) + " (" + p.name + ") is a " +
                                  std::to_string(p.size) + "-byte parameter, but a buffer pointer was given"};
            value = buffer_address_[args_[i].buffer];
        }
        if (p.size != 1 && p.size != 2 && p.size != 4 && p.size != 8)
            throw KernelFault{"parameter " + p.name + " is a " + std::to_string(p.size) +
                              "-byte aggregate; only scalar and pointer parameters are supported"};
        if (p.offset + p.size > params_.size())
            throw KernelFault{"parameter " + p.name + " lies outside the parameter buffer"};
        store_bytes(params_.data() + p.offset, p.size, value);
    }
}

void Run::allocate_globals() {
    global_vars_.resize(module_.globals.size());
    symbol_address_.resize(module_.globals.size());
    for (size_t i = 0; i < module_.globals.size(); ++i) {
        const ptx::GlobalVar& v = module_.globals[i];
        global_vars_[i].assign(std::max<uint32_t>(v.size, 1), 0);
        std::copy_n(v.init.begin(), std::min<size_t>(v.init.size(), v.size), global_vars_[i].begin());
        symbol_address_[i] =
            global_.add(v.name, global_vars_[i].data(), v.size, v.space == ptx::Space::Const);
    }
}

void Run::start_trace() {
    if (!trace_) return;
    trace::Trace& t = *trace_;
    t.threads.clear();
    t.events.clear();
    t.sites.clear();
    t.sites.reserve(fn_.code.size());
    for (size_t i = 0; i < fn_.code.size(); ++i)
        t.sites.push_back(
            {fn_.code[i].ptx_line, fn_.code[i].source_line, i < fn_.text.size() ? fn_.text[i] : ""});
    // Reserve room for one event per event-producing instruction per thread (loops may need more):
    // untouched reserved pages cost nothing, while regrowing a large vector copies and re-faults it.
    uint64_t sites_with_events = 1; // exit
    for (const Instruction& in : fn_.code)
        if (ptx::is_barrier(in.op))
            sites_with_events += 2; // arrive and leave
        else if (ptx::emits_event(in.op) && !ptx::is_exit(in.op))
            sites_with_events += in.vector;
    if (recording_)
        t.events.reserve(std::min<uint64_t>(options_.max_events, sites_with_events * launch_.grid.count() *
                                                                     launch_.block.count()));
    t.meta.kernel = fn_.name;
    t.meta.backend = "sim";
    t.meta.device = "SyncLab simulator";
    t.meta.sm_count = options_.sm_count;
    t.meta.schedule = to_string(options_.schedule);
    t.meta.seed = options_.seed;
    t.meta.memory_model = "sc";
    t.meta.grid = launch_.grid;
    t.meta.block = launch_.block;
    t.meta.dynamic_shared_bytes = launch_.dynamic_shared_bytes;
}

// [SECTION] Block admission and retirement ===========================================================

void Run::admit_blocks() {
    while (resident_.size() < options_.max_resident_blocks && next_block_ < block_count_) {
        auto block = std::make_unique<Block>();
        Block& b = *block;
        b.linear = next_block_++;
        b.id = {b.linear % launch_.grid.x, (b.linear / launch_.grid.x) % launch_.grid.y,
                b.linear / (launch_.grid.x * launch_.grid.y)};
        b.thread_count = threads_per_block_;
        b.live_threads = threads_per_block_;
        b.sm = b.linear % std::max<uint32_t>(options_.sm_count, 1);
        b.shared.assign(shared_bytes_, 0);
        b.local.assign(size_t(threads_per_block_) * fn_.local_bytes, 0);
        b.regs.assign(size_t(warps_per_block_) * slots_ * kWarpSize, 0);
        b.warps.resize(warps_per_block_);
        for (uint32_t w = 0; w < warps_per_block_; ++w) {
            Warp& warp = b.warps[w];
            warp.index = w;
            warp.first_thread = w * kWarpSize;
            const uint32_t lanes = std::min(kWarpSize, threads_per_block_ - warp.first_thread);
            warp.present_mask = lanes == 32 ? 0xffffffffu : ((1u << lanes) - 1);
            warp.ready_mask = warp.present_mask;
            warp.uniform = true;
            warp.upc = 0;
            for (uint32_t l = 0; l < kWarpSize; ++l)
                warp.state[l] = l < lanes ? LaneState::Ready : LaneState::Absent;
            warp.regs = b.regs.data() + size_t(w) * slots_ * kWarpSize;
            warp.block = &b;
            // Adversarial victims: a fixed, seed-dependent half of the warps.
            Rng pick{options_.seed ^ (uint64_t(b.linear) << 20) ^ w ^ 0xadull};
            warp.victim = (pick.next() & 1) != 0;
            const uint32_t base = b.linear * threads_per_block_ + warp.first_thread;
            for (uint32_t l = 0; l < lanes; ++l)
                thread_end_[base + l] = trace::ThreadEnd::Running;
        }
        for (Warp& warp : b.warps)
            warps_.push_back(&warp);
        resident_.push_back(std::move(block));
    }
}

void Run::retire_block(size_t resident_index) {
    Block* b = resident_[resident_index].get();
    warps_.erase(std::remove_if(warps_.begin(), warps_.end(), [b](Warp* w) { return w->block == b; }),
                 warps_.end());
    resident_.erase(resident_.begin() + static_cast<std::ptrdiff_t>(resident_index));
    ++blocks_done_;
    rr_cursor_ = warps_.empty() ? 0 : rr_cursor_ % warps_.size();
    admit_blocks();
}

// [SECTION] Scheduling ===============================================================================

// Adversarial: a victim warp about to touch shared memory is held back (up to a bound), so that the
// other warps overtake it, which is exactly what turns a missing barrier into a wrong result.
bool Run::wants_delay(Warp& warp) {
    if (options_.schedule != Schedule::Adversarial || !warp.victim) return false;
    if (warp.adversarial_skips >= 256) {
        warp.adversarial_skips = 0;
        return false;
    }
    uint32_t pc, mask;
    group_of(warp, pc, mask);
    const Instruction& in = fn_.code[pc];
    const bool shared_access =
        ptx::is_memory_access(in.op) && (in.space == ptx::Space::Shared || in.space == ptx::Space::Generic);
    if (!shared_access) return false;
    ++warp.adversarial_skips;
    return true;
}

Warp* Run::pick_warp() {
    const size_t n = warps_.size();
    if (n == 0) return nullptr;
    if (options_.schedule == Schedule::RoundRobin) {
        for (size_t i = 0; i < n; ++i) {
            Warp* w = warps_[(rr_cursor_ + i) % n];
            if (w->ready_mask) {
                rr_cursor_ = (rr_cursor_ + i + 1) % n;
                return w;
            }
        }
        return nullptr;
    }
    const size_t start = rng_.below(static_cast<uint32_t>(n));
    Warp* fallback = nullptr;
    for (size_t i = 0; i < n; ++i) {
        Warp* w = warps_[(start + i) % n];
        if (!w->ready_mask) continue;
        if (wants_delay(*w)) {
            if (!fallback) fallback = w;
            continue;
        }
        return w;
    }
    return fallback; // every runnable warp wants a delay: run one anyway
}

uint32_t Run::pick_quantum() {
    switch (options_.schedule) {
    case Schedule::RoundRobin:
        return 1;
    case Schedule::Random:
        return 1 + rng_.below(8);
    case Schedule::Adversarial:
        return 1 + rng_.below(4);
    }
    return 1;
}

Result Run::execute() {
    Result result;
    const auto t0 = std::chrono::steady_clock::now();
    try {
        set_up();
        admit_blocks();
        uint64_t next_check = 4096;
        while (!resident_.empty()) {
            Warp* warp = pick_warp();
            if (!warp) {
                result.status = trace::RunStatus::Deadlock;
                result.message = deadlock_report();
                break;
            }
            Block* block = warp->block;
            for (uint32_t q = pick_quantum(); q > 0 && warp->ready_mask; --q)
                step(*warp);
            if (block->live_threads == 0) {
                for (size_t i = 0; i < resident_.size(); ++i)
                    if (resident_[i].get() == block) {
                        retire_block(i);
                        break;
                    }
            }
            if (thread_instructions_ >= next_check) {
                next_check = thread_instructions_ + 4096;
                if (thread_instructions_ > options_.max_steps)
                    throw BudgetExceeded{"step budget of " + std::to_string(options_.max_steps) +
                                         " thread-instructions exhausted (a spin loop that never ends?)"};
                if (options_.cancel && options_.cancel->load(std::memory_order_relaxed)) {
                    result.status = trace::RunStatus::Cancelled;
                    result.message = "cancelled";
                    break;
                }
                if (options_.progress)
                    options_.progress(double(blocks_done_) / std::max<uint32_t>(block_count_, 1));
            }
        }
    } catch (const KernelFault& f) {
        result.status = trace::RunStatus::Error;
        result.message = f.message;
    } catch (const BudgetExceeded& b) {
        result.status = trace::RunStatus::Budget;
        result.message = b.message;
    }
    if (options_.progress && result.status == trace::RunStatus::Ok) options_.progress(1.0);
    result.thread_instructions = thread_instructions_;
    result.warp_instructions = warp_instructions_;
    result.dropped_events = dropped_;
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    finish_trace(result, ms);
    return result;
}

// [SECTION] Warp step ================================================================================

// The lanes that run together next: all ready lanes at the lowest PC. Running the laggards first is
// what makes divergent paths meet again at their join point (a reconvergence heuristic for ITS).
void Run::group_of(Warp& warp, uint32_t& pc, uint32_t& mask) {
    if (warp.uniform) {
        pc = warp.upc;
        mask = warp.ready_mask;
        return;
    }
    uint32_t best = UINT32_MAX, best_mask = 0;
    for (uint32_t m = warp.ready_mask; m; m &= m - 1) {
        const uint32_t l = static_cast<uint32_t>(std::countr_zero(m));
        if (warp.pc[l] < best) {
            best = warp.pc[l];
            best_mask = 1u << l;
        } else if (warp.pc[l] == best) {
            best_mask |= 1u << l;
        }
    }
    pc = best;
    mask = best_mask;
    if (best_mask == warp.ready_mask) {
        warp.uniform = true;
        warp.upc = best;
    }
}

void Run::materialize(Warp& warp) {
    if (!warp.uniform) return;
    for (uint32_t m = warp.ready_mask; m; m &= m - 1)
        warp.pc[std::countr_zero(m)] = warp.upc;
    warp.uniform = false;
}

// Moves the lanes of `mask` (all at `pc`) to `next_pc`.
void Run::advance(Warp& warp, uint32_t mask, uint32_t next_pc) {
    if (warp.uniform && mask == warp.ready_mask) {
        warp.upc = next_pc;
        return;
    }
    materialize(warp);
    for (uint32_t m = mask; m; m &= m - 1)
        warp.pc[std::countr_zero(m)] = next_pc;
}

void Run::step(Warp& warp) {
    uint32_t pc, group;
    group_of(warp, pc, group);
    if (pc >= fn_.code.size())
        fault(warp, static_cast<uint32_t>(std::countr_zero(group)), pc - 1,
              "ran past the end of the kernel without ret/exit");
    const Instruction& in = fn_.code[pc];
    ++tick_;
    ++warp_instructions_;
    thread_instructions_ += static_cast<uint32_t>(std::popcount(group));

    // Guard predicate: lanes whose guard is false only move on.
    uint32_t mask = group;
    if (in.guard != Operand::kNoReg) {
        const uint64_t* p = reg(warp, in.guard);
        uint32_t taken = 0;
        for (uint32_t m = group; m; m &= m - 1) {
            const uint32_t l = static_cast<uint32_t>(std::countr_zero(m));
            if (((p[l] & 1) != 0) != in.guard_negated) taken |= 1u << l;
        }
        mask = taken;
    }

    switch (in.op) {
    case Op::Bra: {
        if (mask == group)
            advance(warp, group, in.target);
        else if (mask == 0)
            advance(warp, group, pc + 1);
        else {
            materialize(warp);
            for (uint32_t m = group; m; m &= m - 1) {
                const uint32_t l = static_cast<uint32_t>(std::countr_zero(m));
                warp.pc[l] = ((mask >> l) & 1) ? in.target : pc + 1;
            }
        }
        return;
    }
    case Op::Ret:
    case Op::Exit:
        if (mask != group) advance(warp, group & ~mask, pc + 1);
        exit_lanes(warp, pc, mask);
        return;
    case Op::Bar:
        execute_barrier(warp, in, pc, mask);
        if (group & ~mask) advance(warp, group & ~mask, pc + 1);
        return;
    case Op::WarpSync:
    case Op::Vote:
    case Op::Shfl:
        // Lanes whose guard is false move on; the others run it or wait for their partners.
        if (group & ~mask) {
            materialize(warp);
            advance(warp, group & ~mask, pc + 1);
        }
        execute_warp_collective(warp, in, pc, mask);
        return;
    case Op::Trap:
        if (mask) fault(warp, static_cast<uint32_t>(std::countr_zero(mask)), pc, "trap instruction executed");
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
            if (recording_) {
                const trace::Scope scope = trace_scope(in.scope, trace::Scope::Device);
                for (uint32_t m = mask; m; m &= m - 1)
                    emit(EventKind::Fence, warp, static_cast<uint32_t>(std::countr_zero(m)), pc, 0, 0,
                         trace::make_flags(trace::Space::Other, 1, false, scope, true));
            }
            break;
        case Op::Nanosleep:
            break;
        case Op::Cvt:
            execute_cvt(warp, in, mask);
            break;
        default:
            execute_alu(warp, in, mask);
            break;
        }
    }
    advance(warp, group, pc + 1);
}

// [SECTION] Instructions: arithmetic and conversion ==================================================

uint64_t Run::special(const Warp& warp, ptx::SpecialReg r, uint32_t lane) const {
    using ptx::SpecialReg;
    const uint32_t t = warp.first_thread + lane;
    const Dim3& b = launch_.block;
    const Block& blk = *warp.block;
    switch (r) {
    case SpecialReg::TidX:
        return t % b.x;
    case SpecialReg::TidY:
        return (t / b.x) % b.y;
    case SpecialReg::TidZ:
        return t / (b.x * b.y);
    case SpecialReg::NtidX:
        return b.x;
    case SpecialReg::NtidY:
        return b.y;
    case SpecialReg::NtidZ:
        return b.z;
    case SpecialReg::CtaidX:
        return blk.id.x;
    case SpecialReg::CtaidY:
        return blk.id.y;
    case SpecialReg::CtaidZ:
        return blk.id.z;
    case SpecialReg::NctaidX:
        return launch_.grid.x;
    case SpecialReg::NctaidY:
        return launch_.grid.y;
    case SpecialReg::NctaidZ:
        return launch_.grid.z;
    case SpecialReg::LaneId:
        return lane;
    case SpecialReg::WarpId:
        return warp.index;
    case SpecialReg::NWarpId:
        return warps_per_block_;
    case SpecialReg::SmId:
        return blk.sm;
    case SpecialReg::NSmId:
        return options_.sm_count;
    case SpecialReg::GridId:
        return 1;
    case SpecialReg::Clock:
        return static_cast<uint32_t>(tick_);
    case SpecialReg::Clock64:
        return tick_;
    case SpecialReg::GlobalTimer:
        return tick_ * 32; // the H200's %globaltimer advances in 32 ns steps
    case SpecialReg::GlobalTimerLo:
        return static_cast<uint32_t>(tick_ * 32);
    case SpecialReg::LanemaskEq:
        return 1u << lane;
    case SpecialReg::LanemaskLt:
        return (1u << lane) - 1;
    case SpecialReg::LanemaskLe:
        return lane == 31 ? 0xffffffffu : (1u << (lane + 1)) - 1;
    case SpecialReg::LanemaskGt:
        return lane == 31 ? 0u : ~((1u << (lane + 1)) - 1);
    case SpecialReg::LanemaskGe:
        return ~((1u << lane) - 1);
    case SpecialReg::DynamicSmemSize:
        return launch_.dynamic_shared_bytes;
    }
    return 0;
}

uint64_t Run::read(const Warp& warp, const Operand& op, uint32_t lane) const {
    switch (op.kind) {
    case Operand::Kind::Reg: {
        const uint64_t v = warp.regs[size_t(op.reg) * kWarpSize + lane];
        return op.negate ? (~v & 1) : v;
    }
    case Operand::Kind::Imm:
        return op.imm;
    case Operand::Kind::Special:
        return special(warp, op.special, lane);
    case Operand::Kind::Symbol:
        return symbol_address_[op.symbol];
    default:
        return 0;
    }
}

void Run::execute_alu(Warp& warp, const Instruction& in, uint32_t mask) {
    const Operand& D = in.ops[0];
    const Operand& A = in.ops[1];
    const Operand& B = in.ops[2];
    const Operand& C = in.ops[3];
    uint64_t* d = D.kind == Operand::Kind::Reg ? reg(warp, D.reg) : nullptr;
    auto lanes = [mask](auto&& f) {
        for (uint32_t m = mask; m; m &= m - 1)
            f(static_cast<uint32_t>(std::countr_zero(m)));
    };
    auto unsupported = [&]() {
        fault(warp, static_cast<uint32_t>(std::countr_zero(mask)),
              static_cast<uint32_t>(&in - fn_.code.data()),
              std::string("the simulator does not support ") + ptx::to_string(in.op) + "." +
                  ptx::to_string(in.type));
    };
    if (in.op == Op::Mov && (D.kind == Operand::Kind::Vector || A.kind == Operand::Kind::Vector)) {
        // mov.b64 {lo, hi}, x splits a value into equal parts, low part first; mov.b64 x, {lo, hi} joins.
        const Operand& vec = D.kind == Operand::Kind::Vector ? D : A;
        const uint32_t bits = 8 * ptx::type_size(in.type) / std::max<uint32_t>(vec.vec_count, 1);
        const uint64_t part_mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
        lanes([&](uint32_t l) {
            if (D.kind == Operand::Kind::Vector) {
                const uint64_t v = read(warp, A, l);
                for (uint32_t i = 0; i < vec.vec_count; ++i)
                    if (vec.vec[i] != Operand::kNoReg)
                        reg(warp, vec.vec[i])[l] = (v >> (i * bits)) & part_mask;
            } else {
                uint64_t v = 0;
                for (uint32_t i = 0; i < vec.vec_count; ++i)
                    if (vec.vec[i] != Operand::kNoReg)
                        v |= (reg(warp, vec.vec[i])[l] & part_mask) << (i * bits);
                d[l] = v;
            }
        });
        return;
    }
    if (!d && in.op != Op::Setp) unsupported();

    switch (in.op) {
    case Op::Mov:
        lanes([&](uint32_t l) { d[l] = read(warp, A, l); });
        return;
    case Op::Activemask:
        // The lanes executing this instruction together.
        lanes([&](uint32_t l) { d[l] = mask; });
        return;
    case Op::Selp:
        lanes([&](uint32_t l) { d[l] = (read(warp, C, l) & 1) ? read(warp, A, l) : read(warp, B, l); });
        return;
    case Op::Cvta: {
        const bool to = (in.mods & ptx::mod::kToSpace) != 0;
        const uint64_t window = in.space == ptx::Space::Shared  ? kSharedWindow
                                : in.space == ptx::Space::Local ? kLocalWindow
                                                                : 0;
        // Shared and local addresses live in fixed windows of the generic space; global ones are
        // generic already.
        lanes([&](uint32_t l) {
            const uint64_t v = read(warp, A, l);
            d[l] = to ? v - window : (window ? (v & 0xffffffffu) + window : v);
            if (in.type == Type::U32 || in.type == Type::B32) d[l] &= 0xffffffffu;
        });
        return;
    }
    case Op::Setp: {
        uint64_t* p = D.kind == Operand::Kind::Reg ? reg(warp, D.reg) : nullptr;
        uint64_t* q = in.ops[1].kind == Operand::Kind::Reg ? reg(warp, in.ops[1].reg) : nullptr;
        const Operand& a = in.ops[2];
        const Operand& b = in.ops[3];
        const Operand& c = in.ops[4];
        const bool has_c = in.bool_op != ptx::BoolOp::None;
        const bool ok = alu::visit_number(in.type, [&]<class T>(std::type_identity<T>) {
            lanes([&](uint32_t l) {
                const bool r =
                    alu::compare<T>(in.cmp, alu::as<T>(read(warp, a, l)), alu::as<T>(read(warp, b, l)));
                const bool cv = has_c ? (read(warp, c, l) & 1) != 0 : false;
                if (p) p[l] = alu::combine(in.bool_op, r, cv);
                if (q) q[l] = alu::combine(in.bool_op, !r, cv);
            });
        });
        if (!ok) unsupported();
        return;
    }
    case Op::And:
    case Op::Or:
    case Op::Xor:
    case Op::Not: {
        const Op op = in.op;
        const uint64_t width_mask =
            in.type == Type::Pred
                ? 1
                : (type_size(in.type) >= 8 ? ~0ull : (1ull << (8 * type_size(in.type))) - 1);
        lanes([&](uint32_t l) {
            const uint64_t a = read(warp, A, l);
            uint64_t r;
            if (op == Op::Not)
                r = ~a;
            else {
                const uint64_t b = read(warp, B, l);
                r = op == Op::And ? (a & b) : op == Op::Or ? (a | b) : (a ^ b);
            }
            d[l] = r & width_mask;
        });
        return;
    }
    default:
        break;
    }

    const uint16_t mods = in.mods;
    bool ok = true;
    if (ptx::is_float(in.type)) {
        ok = alu::visit_float(in.type, [&]<class T>(std::type_identity<T>) {
            using alu::as;
            using alu::bits;
            switch (in.op) {
            case Op::Add:
                lanes([&](uint32_t l) { d[l] = bits<T>(as<T>(read(warp, A, l)) + as<T>(read(warp, B, l))); });
                break;
            case Op::Sub:
                lanes([&](uint32_t l) { d[l] = bits<T>(as<T>(read(warp, A, l)) - as<T>(read(warp, B, l))); });
                break;
            case Op::Mul:
                lanes([&](uint32_t l) { d[l] = bits<T>(as<T>(read(warp, A, l)) * as<T>(read(warp, B, l))); });
                break;
            case Op::Div:
                lanes([&](uint32_t l) { d[l] = bits<T>(as<T>(read(warp, A, l)) / as<T>(read(warp, B, l))); });
                break;
            case Op::Fma:
            case Op::Mad:
                lanes([&](uint32_t l) {
                    d[l] = bits<T>(
                        std::fma(as<T>(read(warp, A, l)), as<T>(read(warp, B, l)), as<T>(read(warp, C, l))));
                });
                break;
            case Op::Abs:
                lanes([&](uint32_t l) { d[l] = bits<T>(std::fabs(as<T>(read(warp, A, l)))); });
                break;
            case Op::Neg:
                lanes([&](uint32_t l) { d[l] = bits<T>(-as<T>(read(warp, A, l))); });
                break;
            case Op::Min:
                lanes([&](uint32_t l) {
                    d[l] = bits<T>(alu::fmin_ptx(as<T>(read(warp, A, l)), as<T>(read(warp, B, l))));
                });
                break;
            case Op::Max:
                lanes([&](uint32_t l) {
                    d[l] = bits<T>(alu::fmax_ptx(as<T>(read(warp, A, l)), as<T>(read(warp, B, l))));
                });
                break;
            case Op::Sqrt:
                lanes([&](uint32_t l) { d[l] = bits<T>(std::sqrt(as<T>(read(warp, A, l)))); });
                break;
            case Op::Rsqrt:
                lanes([&](uint32_t l) { d[l] = bits<T>(T(1) / std::sqrt(as<T>(read(warp, A, l)))); });
                break;
            case Op::Rcp:
                lanes([&](uint32_t l) { d[l] = bits<T>(T(1) / as<T>(read(warp, A, l))); });
                break;
            case Op::Ex2:
                lanes([&](uint32_t l) { d[l] = bits<T>(std::exp2(as<T>(read(warp, A, l)))); });
                break;
            case Op::Lg2:
                lanes([&](uint32_t l) { d[l] = bits<T>(std::log2(as<T>(read(warp, A, l)))); });
                break;
            case Op::Sin:
                lanes([&](uint32_t l) { d[l] = bits<T>(std::sin(as<T>(read(warp, A, l)))); });
                break;
            case Op::Cos:
                lanes([&](uint32_t l) { d[l] = bits<T>(std::cos(as<T>(read(warp, A, l)))); });
                break;
            case Op::Copysign:
                // copysign.f32 d, a, b: magnitude of b with the sign of a.
                lanes([&](uint32_t l) {
                    d[l] = bits<T>(std::copysign(as<T>(read(warp, B, l)), as<T>(read(warp, A, l))));
                });
                break;
            default:
                ok = false;
                break;
            }
            if (ok && (mods & ptx::mod::kSat))
                lanes([&](uint32_t l) {
                    const T v = as<T>(d[l]);
                    d[l] = bits<T>(std::isnan(v) ? T(0) : std::min(T(1), std::max(T(0), v)));
                });
        });
        if (!ok) unsupported();
        return;
    }

    ok = alu::visit_int(in.type, [&]<class T>(std::type_identity<T>) {
        using alu::as;
        using alu::bits;
        using W = alu::Wide<T>;
        const bool wide = (mods & ptx::mod::kWide) != 0;
        const bool hi = (mods & ptx::mod::kHi) != 0;
        const bool sat = (mods & ptx::mod::kSat) != 0;
        switch (in.op) {
        case Op::Add:
            if (sat)
                lanes([&](uint32_t l) {
                    d[l] = bits<T>(alu::sat_add(as<T>(read(warp, A, l)), as<T>(read(warp, B, l))));
                });
            else
                lanes([&](uint32_t l) {
                    d[l] = bits<T>(static_cast<T>(as<T>(read(warp, A, l)) + as<T>(read(warp, B, l))));
                });
            break;
        case Op::Sub:
            if (sat)
                lanes([&](uint32_t l) {
                    d[l] = bits<T>(alu::sat_sub(as<T>(read(warp, A, l)), as<T>(read(warp, B, l))));
                });
            else
                lanes([&](uint32_t l) {
                    d[l] = bits<T>(static_cast<T>(as<T>(read(warp, A, l)) - as<T>(read(warp, B, l))));
                });
            break;
        case Op::Mul:
            if (wide) {
                if constexpr (sizeof(T) <= 4)
                    lanes([&](uint32_t l) {
                        d[l] = bits<W>(static_cast<W>(static_cast<W>(as<T>(read(warp, A, l))) *
                                                      static_cast<W>(as<T>(read(warp, B, l)))));
                    });
                else
                    ok = false;
            } else if (hi) {
                lanes([&](uint32_t l) {
                    d[l] = bits<T>(alu::mul_hi(as<T>(read(warp, A, l)), as<T>(read(warp, B, l))));
                });
            } else {
                lanes([&](uint32_t l) {
                    using U = std::make_unsigned_t<T>;
                    d[l] = bits<U>(static_cast<U>(static_cast<U>(as<T>(read(warp, A, l))) *
                                                  static_cast<U>(as<T>(read(warp, B, l)))));
                });
            }
            break;
        case Op::Mad:
            if (wide) {
                if constexpr (sizeof(T) <= 4)
                    lanes([&](uint32_t l) {
                        const W p = static_cast<W>(static_cast<W>(as<T>(read(warp, A, l))) *
                                                   static_cast<W>(as<T>(read(warp, B, l))));
                        d[l] = bits<W>(static_cast<W>(p + as<W>(read(warp, C, l))));
                    });
                else
                    ok = false;
            } else if (hi) {
                lanes([&](uint32_t l) {
                    d[l] =
                        bits<T>(static_cast<T>(alu::mul_hi(as<T>(read(warp, A, l)), as<T>(read(warp, B, l))) +
                                               as<T>(read(warp, C, l))));
                });
            } else {
                lanes([&](uint32_t l) {
                    using U = std::make_unsigned_t<T>;
                    d[l] = bits<U>(static_cast<U>(static_cast<U>(as<T>(read(warp, A, l))) *
                                                      static_cast<U>(as<T>(read(warp, B, l))) +
                                                  static_cast<U>(as<T>(read(warp, C, l)))));
                });
            }
            break;
        case Op::Div:
            lanes([&](uint32_t l) {
                d[l] = bits<T>(alu::int_div(as<T>(read(warp, A, l)), as<T>(read(warp, B, l))));
            });
            break;
        case Op::Rem:
            lanes([&](uint32_t l) {
                d[l] = bits<T>(alu::int_rem(as<T>(read(warp, A, l)), as<T>(read(warp, B, l))));
            });
            break;
        case Op::Abs:
            lanes([&](uint32_t l) {
                const T a = as<T>(read(warp, A, l));
                d[l] = bits<T>(static_cast<T>(a < 0 ? -a : a));
            });
            break;
        case Op::Neg:
            lanes([&](uint32_t l) { d[l] = bits<T>(static_cast<T>(-as<T>(read(warp, A, l)))); });
            break;
        case Op::Min:
            lanes([&](uint32_t l) {
                d[l] = bits<T>(std::min(as<T>(read(warp, A, l)), as<T>(read(warp, B, l))));
            });
            break;
        case Op::Max:
            lanes([&](uint32_t l) {
                d[l] = bits<T>(std::max(as<T>(read(warp, A, l)), as<T>(read(warp, B, l))));
            });
            break;
        case Op::Shl:
            lanes([&](uint32_t l) {
                d[l] = bits<T>(
                    alu::shift_left(as<T>(read(warp, A, l)), static_cast<uint32_t>(read(warp, B, l))));
            });
            break;
        case Op::Shr:
            lanes([&](uint32_t l) {
                d[l] = bits<T>(
                    alu::shift_right(as<T>(read(warp, A, l)), static_cast<uint32_t>(read(warp, B, l))));
            });
            break;
        case Op::Popc:
            lanes([&](uint32_t l) {
                d[l] = static_cast<uint64_t>(
                    std::popcount(static_cast<std::make_unsigned_t<T>>(as<T>(read(warp, A, l)))));
            });
            break;
        case Op::Clz:
            lanes([&](uint32_t l) {
                d[l] = static_cast<uint64_t>(
                    std::countl_zero(static_cast<std::make_unsigned_t<T>>(as<T>(read(warp, A, l)))));
            });
            break;
        case Op::Brev:
            lanes([&](uint32_t l) {
                const uint64_t a = read(warp, A, l);
                d[l] = sizeof(T) == 8 ? (uint64_t(alu::bit_reverse32(uint32_t(a))) << 32) |
                                            alu::bit_reverse32(uint32_t(a >> 32))
                                      : alu::bit_reverse32(uint32_t(a));
            });
            break;
        case Op::Bfe:
            lanes([&](uint32_t l) {
                d[l] = bits<T>(alu::bit_field_extract(as<T>(read(warp, A, l)), uint32_t(read(warp, B, l)),
                                                      uint32_t(read(warp, C, l))));
            });
            break;
        case Op::Bfi:
            // bfi d, f, b, pos, len: insert the low bits of f into b.
            lanes([&](uint32_t l) {
                d[l] = bits<T>(alu::bit_field_insert(as<T>(read(warp, A, l)), as<T>(read(warp, B, l)),
                                                     uint32_t(read(warp, C, l)),
                                                     uint32_t(read(warp, in.ops[4], l))));
            });
            break;
        case Op::Shf:
            lanes([&](uint32_t l) {
                d[l] = alu::funnel_shift(uint32_t(read(warp, A, l)), uint32_t(read(warp, B, l)),
                                         uint32_t(read(warp, C, l)), (mods & ptx::mod::kShiftRight) != 0,
                                         (mods & ptx::mod::kClamp) != 0);
            });
            break;
        case Op::Bfind:
            lanes([&](uint32_t l) {
                d[l] = alu::find_msb(as<T>(read(warp, A, l)), (mods & ptx::mod::kShiftAmt) != 0);
            });
            break;
        case Op::Prmt:
            lanes([&](uint32_t l) {
                d[l] = alu::byte_permute(uint32_t(read(warp, A, l)), uint32_t(read(warp, B, l)),
                                         uint32_t(read(warp, C, l)));
            });
            break;
        default:
            ok = false;
            break;
        }
    });
    if (!ok) unsupported();
}

void Run::execute_cvt(Warp& warp, const Instruction& in, uint32_t mask) {
    uint64_t* d = reg(warp, in.ops[0].reg);
    const Operand& A = in.ops[1];
    const bool sat = (in.mods & ptx::mod::kSat) != 0;
    const bool round_int = (in.mods & ptx::mod::kRoundInt) != 0;
    bool handled = false;
    auto lanes = [mask](auto&& f) {
        for (uint32_t m = mask; m; m &= m - 1)
            f(static_cast<uint32_t>(std::countr_zero(m)));
    };
    alu::visit_number(in.type, [&]<class D>(std::type_identity<D>) {
        alu::visit_number(in.type2, [&]<class S>(std::type_identity<S>) {
            handled = true;
            lanes([&](uint32_t l) {
                const S s = alu::as<S>(read(warp, A, l));
                D r;
                if constexpr (std::is_floating_point_v<D> && std::is_floating_point_v<S>) {
                    r = static_cast<D>(round_int ? alu::round_integral(s, in.rounding) : s);
                    if (sat) r = std::isnan(r) ? D(0) : std::min(D(1), std::max(D(0), r));
                } else if constexpr (std::is_floating_point_v<D>) {
                    r = static_cast<D>(s);
                    if (sat) r = std::min(D(1), std::max(D(0), r));
                } else if constexpr (std::is_floating_point_v<S>) {
                    r = alu::float_to_int<D>(s, in.rounding);
                } else {
                    r = alu::int_convert<D>(s, sat);
                }
                d[l] = alu::bits<D>(r);
            });
        });
    });
    if (!handled)
        fault(warp, static_cast<uint32_t>(std::countr_zero(mask)),
              static_cast<uint32_t>(&in - fn_.code.data()),
              std::string("the simulator does not support cvt.") + ptx::to_string(in.type) + "." +
                  ptx::to_string(in.type2));
}

// [SECTION] Instructions: memory and atomics =========================================================

uint64_t Run::address_of(const Warp& warp, const Operand& op, uint32_t lane) const {
    uint64_t base = 0;
    if (op.reg != Operand::kNoReg) base = warp.regs[size_t(op.reg) * kWarpSize + lane];
    if (op.symbol != Operand::kNoSymbol) base += symbol_address_[op.symbol];
    return base + op.imm;
}

// Turns (space, address) into host memory, checking bounds and alignment. Fills the event's space and
// the address as the trace shows it (shared: offset in the block's window; global: device address).
uint8_t* Run::resolve(Warp& warp, const Instruction& in, uint32_t pc, uint32_t lane, uint64_t address,
                      uint32_t size, bool write, trace::Space& space, uint64_t& trace_address) {
    ptx::Space s = in.space;
    if (s == ptx::Space::Generic) {
        if (address >= kSharedWindow && address < kSharedWindow + kWindowSize) {
            s = ptx::Space::Shared;
            address -= kSharedWindow;
        } else if (address >= kLocalWindow && address < kLocalWindow + kWindowSize) {
            s = ptx::Space::Local;
            address -= kLocalWindow;
        } else {
            s = ptx::Space::Global;
        }
    }
    if (size > 1 && address % size != 0)
        fault(warp, lane, pc,
              "misaligned " + std::to_string(size) + "-byte access at " + to_string(s) + " address " +
                  hex(address));
    trace_address = address;
    switch (s) {
    case ptx::Space::Global:
    case ptx::Space::Const: {
        space = trace::Space::Global;
        Allocation* a = global_.find(address, size);
        if (!a)
            fault(warp, lane, pc,
                  std::string("out-of-bounds ") + (write ? "write" : "read") + " of " + std::to_string(size) +
                      " bytes at global address " + hex(address) + " (" + global_.describe(address) + ")");
        if (write && a->read_only) fault(warp, lane, pc, "write to read-only " + a->name);
        return a->data + (address - a->base);
    }
    case ptx::Space::Shared: {
        space = trace::Space::Shared;
        Block& b = *warp.block;
        if (address + size > b.shared.size())
            fault(warp, lane, pc,
                  std::string("out-of-bounds ") + (write ? "write" : "read") + " at shared offset " +
                      hex(address) + " (the block has " + std::to_string(b.shared.size()) +
                      " bytes of shared memory)");
        return b.shared.data() + address;
    }
    case ptx::Space::Local: {
        space = trace::Space::Local;
        if (address + size > fn_.local_bytes)
            fault(warp, lane, pc,
                  "out-of-bounds local access at offset " + hex(address) + " (frame of " +
                      std::to_string(fn_.local_bytes) + " bytes)");
        return warp.block->local.data() + size_t(warp.first_thread + lane) * fn_.local_bytes + address;
    }
    case ptx::Space::Param: {
        space = trace::Space::Other;
        if (write) fault(warp, lane, pc, "store to kernel parameter space");
        if (address + size > params_.size())
            fault(warp, lane, pc, "read past the kernel parameters at offset " + hex(address));
        return params_.data() + address;
    }
    default:
        break;
    }
    fault(warp, lane, pc, "unsupported state space");
}

void Run::execute_memory(Warp& warp, const Instruction& in, uint32_t pc, uint32_t mask) {
    const bool is_load = in.op == Op::Ld;
    const Operand& data = is_load ? in.ops[0] : in.ops[1];
    const Operand& addr = is_load ? in.ops[1] : in.ops[0];
    const uint32_t elem = ptx::type_size(in.type);
    const uint32_t count = in.vector;
    const bool sign_extend = ptx::is_signed(in.type) && elem < 8;
    const bool volatile_like = in.order != ptx::MemOrder::Weak;
    const bool ordered = is_ordered(in.order);
    const trace::Scope scope = trace_scope(in.scope, trace::Scope::None);
    for (uint32_t m = mask; m; m &= m - 1) {
        const uint32_t l = static_cast<uint32_t>(std::countr_zero(m));
        const uint64_t base = address_of(warp, addr, l);
        if (count > 1 && base % (uint64_t(elem) * count) != 0)
            fault(warp, l, pc,
                  "misaligned " + std::to_string(elem * count) + "-byte vector access at address " +
                      hex(base));
        for (uint32_t e = 0; e < count; ++e) {
            trace::Space space;
            uint64_t taddr;
            uint8_t* p = resolve(warp, in, pc, l, base + uint64_t(e) * elem, elem, !is_load, space, taddr);
            const uint32_t slot = data.kind == Operand::Kind::Vector ? data.vec[e] : data.reg;
            uint64_t value;
            if (is_load) {
                value = load_bytes(p, elem);
                if (sign_extend)
                    value = static_cast<uint64_t>(elem == 1   ? int64_t(int8_t(value))
                                                  : elem == 2 ? int64_t(int16_t(value))
                                                              : int64_t(int32_t(value)));
                if (slot != Operand::kNoReg) reg(warp, slot)[l] = value;
            } else {
                value = data.kind == Operand::Kind::Vector
                            ? (slot == Operand::kNoReg ? 0 : reg(warp, slot)[l])
                            : read(warp, data, l);
                store_bytes(p, elem, value);
            }
            if (recording_ && (space == trace::Space::Global || space == trace::Space::Shared))
                emit(is_load ? EventKind::Load : EventKind::Store, warp, l, pc, taddr, value,
                     trace::make_flags(space, elem, volatile_like, scope, ordered));
        }
    }
}

void Run::execute_atomic(Warp& warp, const Instruction& in, uint32_t pc, uint32_t mask) {
    const bool is_red = in.op == Op::Red;
    const Operand& addr = is_red ? in.ops[0] : in.ops[1];
    const Operand& B = is_red ? in.ops[1] : in.ops[2];
    const Operand& C = in.ops[3];
    uint64_t* d = !is_red && in.ops[0].kind == Operand::Kind::Reg ? reg(warp, in.ops[0].reg) : nullptr;
    const uint32_t size = ptx::type_size(in.type);
    const trace::Scope scope = trace_scope(in.scope, trace::Scope::Device); // atomics default to .gpu
    const bool ordered = is_ordered(in.order);
    // Atomics of one warp are applied lane by lane, in lane order: each one is indivisible.
    for (uint32_t m = mask; m; m &= m - 1) {
        const uint32_t l = static_cast<uint32_t>(std::countr_zero(m));
        trace::Space space;
        uint64_t taddr;
        uint8_t* p = resolve(warp, in, pc, l, address_of(warp, addr, l), size, true, space, taddr);
        const uint64_t old_bits = load_bytes(p, size);
        const uint64_t b = read(warp, B, l);
        uint64_t result = old_bits;
        bool ok = true;
        auto apply = [&]<class T>(std::type_identity<T>) {
            const T old = alu::as<T>(old_bits);
            const T v = alu::as<T>(b);
            T r = old;
            switch (in.atom_op) {
            case ptx::AtomOp::Add:
                r = static_cast<T>(old + v);
                break;
            case ptx::AtomOp::Min:
                r = std::min(old, v);
                break;
            case ptx::AtomOp::Max:
                r = std::max(old, v);
                break;
            case ptx::AtomOp::Exch:
                r = v;
                break;
            case ptx::AtomOp::Cas:
                r = (old == v) ? alu::as<T>(read(warp, C, l)) : old;
                break;
            case ptx::AtomOp::Inc:
                if constexpr (std::is_integral_v<T>)
                    r = (old >= v) ? T(0) : static_cast<T>(old + 1);
                else
                    ok = false;
                break;
            case ptx::AtomOp::Dec:
                if constexpr (std::is_integral_v<T>)
                    r = (old == 0 || old > v) ? v : static_cast<T>(old - 1);
                else
                    ok = false;
                break;
            case ptx::AtomOp::And:
            case ptx::AtomOp::Or:
            case ptx::AtomOp::Xor:
                if constexpr (std::is_integral_v<T>) {
                    r = in.atom_op == ptx::AtomOp::And  ? T(old & v)
                        : in.atom_op == ptx::AtomOp::Or ? T(old | v)
                                                        : T(old ^ v);
                } else {
                    ok = false;
                }
                break;
            default:
                ok = false;
                break;
            }
            result = alu::bits<T>(r);
        };
        if (!alu::visit_number(in.type, apply) || !ok)
            fault(warp, l, pc,
                  std::string("the simulator does not support this atomic operation on .") +
                      ptx::to_string(in.type));
        store_bytes(p, size, result);
        if (d) d[l] = old_bits;
        if (recording_)
            emit(is_red ? EventKind::Reduction : EventKind::Atomic, warp, l, pc, taddr, b,
                 trace::make_flags(space, size, true, scope, ordered));
    }
}

// [SECTION] Instructions: barriers and warp-level sync ===============================================

void Run::execute_barrier(Warp& warp, const Instruction& in, uint32_t pc, uint32_t mask) {
    if (!mask) return;
    Block& block = *warp.block;
    const bool arrive_only = (in.mods & ptx::mod::kArrive) != 0;
    for (uint32_t m = mask; m; m &= m - 1) {
        const uint32_t l = static_cast<uint32_t>(std::countr_zero(m));
        const uint64_t id = read(warp, in.ops[0], l);
        if (id >= kMaxBarriers)
            fault(warp, l, pc, "barrier id " + std::to_string(id) + " is out of range (0-15)");
        BarrierState& bar = block.bars[id];
        if (in.ops[1].kind != Operand::Kind::None) {
            const uint64_t count = read(warp, in.ops[1], l);
            if (count == 0 || count > block.thread_count)
                fault(warp, l, pc,
                      "barrier thread count " + std::to_string(count) +
                          " is not between 1 and the block size");
            bar.expected = static_cast<uint32_t>(count);
        }
        if (recording_)
            emit(EventKind::BarrierArrive, warp, l, pc, id, bar.phase,
                 trace::make_flags(trace::Space::Other, 4));
        ++bar.arrived;
        if (!arrive_only) {
            materialize(warp);
            warp.state[l] = LaneState::AtBarrier;
            warp.pc[l] = pc + 1;
            warp.ready_mask &= ~(1u << l);
            bar.waiting.push_back(warp.first_thread + l);
            thread_end_site_[global_thread(warp, l)] = pc;
        }
    }
    if (arrive_only) advance(warp, mask, pc + 1);
    // Completing a phase may need several ids if lanes used different ones.
    for (uint32_t id = 0; id < kMaxBarriers; ++id)
        if (block.bars[id].arrived) check_barrier(block, id);
}

// A phase completes when the expected number of threads arrived: the explicit count of
// `bar.sync id, count`, else every thread of the block that has not exited.
void Run::check_barrier(Block& block, uint32_t id) {
    BarrierState& bar = block.bars[id];
    const uint32_t required = bar.expected ? bar.expected : block.live_threads;
    if (bar.arrived == 0 || bar.arrived < required) return;
    ++tick_;
    for (uint32_t t : bar.waiting) {
        Warp& w = block.warps[t / kWarpSize];
        const uint32_t l = t % kWarpSize;
        materialize(w);
        w.state[l] = LaneState::Ready;
        w.ready_mask |= 1u << l;
        w.uniform = false;
        if (recording_)
            emit(EventKind::BarrierLeave, w, l, w.pc[l] - 1, id, bar.phase,
                 trace::make_flags(trace::Space::Other, 4));
    }
    bar.waiting.clear();
    bar.arrived = 0;
    bar.expected = 0;
    ++bar.phase;
}

void Run::exit_lanes(Warp& warp, uint32_t pc, uint32_t mask) {
    if (!mask) return;
    Block& block = *warp.block;
    for (uint32_t m = mask; m; m &= m - 1) {
        const uint32_t l = static_cast<uint32_t>(std::countr_zero(m));
        if (recording_) emit(EventKind::Exit, warp, l, pc, 0, 0, trace::make_flags(trace::Space::Other, 4));
        warp.state[l] = LaneState::Exited;
        const uint32_t g = global_thread(warp, l);
        thread_end_[g] = trace::ThreadEnd::Exited;
        thread_end_site_[g] = pc;
    }
    warp.ready_mask &= ~mask;
    warp.exited_mask |= mask;
    block.live_threads -= static_cast<uint32_t>(std::popcount(mask));
    // Fewer live threads may complete a barrier the others already wait at.
    for (uint32_t id = 0; id < kMaxBarriers; ++id)
        if (block.bars[id].arrived) check_barrier(block, id);
}

// bar.warp.sync, vote.sync and shfl.sync: the lanes named in the member mask meet. Lanes that arrive
// before their partners wait (state WarpWait) until all non-exited members are waiting at the same
// instruction (bar.warp.sync: at any bar.warp.sync); then the instruction runs for all of them at once.
// Returns false when the group is now waiting.
bool Run::execute_warp_collective(Warp& warp, const Instruction& in, uint32_t pc, uint32_t mask) {
    if (!mask) return true;
    const Operand& member_op = in.op == Op::WarpSync ? in.ops[0] : in.op == Op::Vote ? in.ops[2] : in.ops[5];
    const uint32_t first = static_cast<uint32_t>(std::countr_zero(mask));
    const uint32_t members = static_cast<uint32_t>(read(warp, member_op, first)) & warp.present_mask;
    if ((members & (1u << first)) == 0)
        fault(warp, first, pc,
              "lane " + std::to_string(first) + " executes " + ptx::to_string(in.op) +
                  " but is not in its member mask " + hex(members));
    // Lanes already waiting at this instruction join this group.
    uint32_t joined = mask;
    for (uint32_t l = 0; l < kWarpSize; ++l)
        if (warp.state[l] == LaneState::WarpWait && (in.op == Op::WarpSync || warp.warp_wait_pc[l] == pc))
            joined |= 1u << l;
    const uint32_t needed = members & ~warp.exited_mask;
    if ((joined & needed) != needed) {
        materialize(warp);
        for (uint32_t m = mask; m; m &= m - 1) {
            const uint32_t l = static_cast<uint32_t>(std::countr_zero(m));
            warp.state[l] = LaneState::WarpWait;
            warp.warp_wait_pc[l] = pc;
            warp.warp_wait_mask[l] = members;
            warp.pc[l] = pc;
            thread_end_site_[global_thread(warp, l)] = pc;
        }
        warp.ready_mask &= ~mask;
        return false;
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
        uint64_t* p = in.ops[1].kind == Operand::Kind::Reg ? reg(warp, in.ops[1].reg) : nullptr;
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
    // Release waiters and move everyone past the instruction.
    materialize(warp);
    for (uint32_t m = joined; m; m &= m - 1) {
        const uint32_t l = static_cast<uint32_t>(std::countr_zero(m));
        if (warp.state[l] == LaneState::WarpWait) {
            warp.state[l] = LaneState::Ready;
            warp.ready_mask |= 1u << l;
            warp.pc[l] = warp.warp_wait_pc[l] + 1;
        } else {
            warp.pc[l] = pc + 1;
        }
    }
    warp.uniform = false;
    return true;
}

// [SECTION] Events ===================================================================================

void Run::emit(EventKind kind, const Warp& warp, uint32_t lane, uint32_t pc, uint64_t address, uint64_t value,
               uint8_t flags) {
    if (trace_->events.size() >= options_.max_events) {
        ++dropped_;
        return;
    }
    trace::Event e;
    e.time = tick_;
    e.address = address;
    e.value = static_cast<uint32_t>(value);
    e.thread = global_thread(warp, lane);
    e.clock = 0;
    e.site = static_cast<uint16_t>(pc);
    e.kind = kind;
    e.flags = flags;
    trace_->events.push_back(e);
}

std::string Run::line_of(uint32_t pc) const {
    if (pc >= fn_.code.size()) return "past the end";
    const Instruction& in = fn_.code[pc];
    std::string s = "PTX line " + std::to_string(in.ptx_line);
    if (in.source_line) {
        const std::string file = in.source_file < module_.files.size() ? module_.files[in.source_file] : "";
        s += ", " + (file.empty() ? std::string("line ") : file + ":") + std::to_string(in.source_line);
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
    const uint32_t g = global_thread(warp, lane);
    thread_end_[g] = trace::ThreadEnd::Faulted;
    thread_end_site_[g] = pc;
    throw KernelFault{where(warp, lane, pc) + ": " + what};
}

// [SECTION] Ending a run =============================================================================

std::string Run::deadlock_report() const {
    std::ostringstream os;
    os << "no thread can move.";
    for (const auto& bp : resident_) {
        const Block& b = *bp;
        // Group waiting threads by the instruction they wait at.
        std::vector<std::pair<uint32_t, std::vector<uint32_t>>> by_site;
        uint32_t exited = 0;
        for (const Warp& w : b.warps)
            for (uint32_t l = 0; l < kWarpSize; ++l) {
                if (w.state[l] == LaneState::Exited) ++exited;
                if (w.state[l] != LaneState::AtBarrier && w.state[l] != LaneState::WarpWait) continue;
                const uint32_t site = w.state[l] == LaneState::AtBarrier ? w.pc[l] - 1 : w.warp_wait_pc[l];
                auto it =
                    std::find_if(by_site.begin(), by_site.end(), [&](auto& p) { return p.first == site; });
                if (it == by_site.end()) by_site.push_back({site, {}}), it = by_site.end() - 1;
                it->second.push_back(w.first_thread + l);
            }
        os << " Block " << b.linear << ":";
        for (auto& [site, threads] : by_site) {
            os << " threads " << threads.front();
            if (threads.size() > 1) os << "-" << threads.back() << " (" << threads.size() << ")";
            os << " wait at '" << (site < fn_.text.size() ? fn_.text[site] : "?") << "' (" << line_of(site)
               << ");";
        }
        if (exited) os << " " << exited << " threads exited;";
    }
    return os.str();
}

void Run::finish_trace(Result& result, double elapsed_ms) {
    if (!trace_) return;
    trace::Trace& t = *trace_;
    // Threads still in resident blocks: record where they are.
    for (const auto& bp : resident_)
        for (const Warp& w : bp->warps)
            for (uint32_t l = 0; l < kWarpSize; ++l) {
                if (w.state[l] == LaneState::Absent || w.state[l] == LaneState::Exited) continue;
                const uint32_t g = global_thread(w, l);
                if (thread_end_[g] == trace::ThreadEnd::Faulted) continue;
                if (w.state[l] == LaneState::AtBarrier) {
                    thread_end_[g] = trace::ThreadEnd::AtBarrier;
                    thread_end_site_[g] = w.pc[l] - 1;
                } else if (w.state[l] == LaneState::WarpWait) {
                    thread_end_[g] = trace::ThreadEnd::AtBarrier;
                    thread_end_site_[g] = w.warp_wait_pc[l];
                } else {
                    thread_end_[g] = trace::ThreadEnd::Running;
                    thread_end_site_[g] = w.uniform ? w.upc : w.pc[l];
                }
            }
    // A launch rejected before it started has no threads (its thread table stays empty).
    t.threads = thread_end_.empty() ? std::vector<trace::ThreadInfo>{}
                                    : trace::thread_layout(launch_.grid, launch_.block);
    for (size_t g = 0; g < thread_end_.size(); ++g) {
        trace::ThreadInfo& ti = t.threads[g];
        ti.sm = static_cast<uint16_t>(ti.block % std::max<uint32_t>(options_.sm_count, 1));
        ti.end = thread_end_[g];
        ti.end_site = std::min<uint32_t>(thread_end_site_[g],
                                         t.sites.empty() ? 0 : static_cast<uint32_t>(t.sites.size() - 1));
    }
    t.meta.status = result.status;
    t.meta.status_message = result.message;
    t.meta.elapsed_ms = elapsed_ms;
    t.meta.thread_instructions = result.thread_instructions;
    t.meta.warp_instructions = result.warp_instructions;
    t.meta.dropped_events = result.dropped_events;
}

} // namespace

Result simulate(const ptx::Module& module, const std::string& kernel, const LaunchConfig& launch,
                std::vector<Buffer>& buffers, const std::vector<KernelArg>& args, const Options& options,
                trace::Trace* trace_out) {
    const ptx::Function* fn = module.find_entry(kernel);
    if (!fn) {
        Result r;
        r.status = trace::RunStatus::Error;
        std::string names;
        for (const std::string& n : module.entry_names())
            names += (names.empty() ? "" : ", ") + n;
        r.message = "no kernel named '" + kernel +
                    "' in the module (kernels: " + (names.empty() ? "none" : names) + ")";
        if (trace_out) {
            trace_out->meta.status = r.status;
            trace_out->meta.status_message = r.message;
        }
        return r;
    }
    if (fn->code.size() > 0xffff) {
        Result r;
        r.status = trace::RunStatus::Error;
        r.message = "kernel " + kernel + " has " + std::to_string(fn->code.size()) +
                    " instructions; traces address at most 65535";
        return r;
    }
    Run run(module, *fn, launch, buffers, args, options, trace_out);
    return run.execute();
}

} // namespace synclab::sim
