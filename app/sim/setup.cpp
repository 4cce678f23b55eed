// Launch set-up (validation, parameters, globals, trace header, what is sized up front against the
// memory budget) and block admission and retirement.
#include "sim/run.h"
#include "sim/uniformity.h"

#include <algorithm>

namespace synclab::sim {

using ptx::Instruction;

// [SECTION] Launch set-up ============================================================================

void Run::check_launch() {
    const Dim3& g = launch_.grid;
    const Dim3& b = launch_.block;
    if (const std::string problem = launch::launch_problem(g, b); !problem.empty())
        throw KernelFault{"launch: " + problem};
    // Within CUDA's limits grid.count() fits in 64 bits, but grid x block may not.
    uint64_t total = 0;
    const bool overflows = __builtin_mul_overflow(g.count(), b.count(), &total);
    if (overflows || total > options_.max_threads)
        throw BudgetExceeded{
            Budget::Threads,
            "launch of " + (overflows ? std::string("more than 2^64") : std::to_string(total)) +
                " threads exceeds the thread budget of " + std::to_string(options_.max_threads)};
    threads_per_block_ = static_cast<uint32_t>(b.count());
    warps_per_block_ = (threads_per_block_ + kWarpSize - 1) / kWarpSize;
    block_count_ = static_cast<uint32_t>(g.count());
    slots_ = static_cast<uint32_t>(fn_.registers.size());
    // Dynamic shared memory starts after the static variables (at their aligned end).
    shared_bytes_ =
        std::max(fn_.shared_dynamic_offset, fn_.shared_static_bytes) + launch_.dynamic_shared_bytes;
    if (shared_bytes_ > launch::kMaxSharedBytes)
        throw KernelFault{"launch: " + std::to_string(shared_bytes_) +
                          " bytes of shared memory per block; the largest GPUs allow 227 KB"};
    residency_ = std::make_unique<Residency>(threads_per_block_, shared_bytes_, options_.registers_per_thread,
                                             options_.sm_count);
    if (residency_->per_sm() == 0)
        throw KernelFault{"launch: one block of " + std::to_string(threads_per_block_) + " threads with " +
                          std::to_string(shared_bytes_) + " bytes of shared memory and " +
                          std::to_string(options_.registers_per_thread) +
                          " registers per thread does not fit an SM (limited by " +
                          to_string(residency_->limit()) + ")"};
    // A cooperative launch holds every block at once, or fails before anything runs (the driver's
    // cudaErrorCooperativeLaunchTooLarge).
    if (launch_.cooperative) {
        if (const std::string problem = residency_->cooperative_problem(block_count_, threads_per_block_);
            !problem.empty())
            throw KernelFault{problem};
        resident_cap_ = block_count_;
    } else {
        resident_cap_ = static_cast<uint32_t>(std::min<uint64_t>(
            std::max<uint32_t>(options_.max_resident_blocks, 1), residency_->total()));
    }
    sm_slots_ = std::make_unique<SmSlots>(residency_->sm_count(), residency_->per_sm());
}

void Run::set_up() {
    check_launch();
    code_size_ = static_cast<uint32_t>(fn_.code.size());
    is_exit_.assign(code_size_ + 1, 0);
    for (uint32_t pc = 0; pc < code_size_; ++pc)
        is_exit_[pc] = ptx::is_exit(fn_.code[pc].op);

    // What is sized before the first instruction runs: the resident blocks' state, the thread table
    // and the site table. The events come on top, checked as they grow (grow_events).
    const uint64_t per_block = uint64_t(warps_per_block_) * slots_ * kWarpSize * 8 + shared_bytes_ +
                               uint64_t(threads_per_block_) * fn_.local_bytes + sizeof(Block) +
                               uint64_t(warps_per_block_) * (sizeof(Warp) + sizeof(Warp*)) +
                               uint64_t(threads_per_block_) * sizeof(Waiter); // barrier waiting lists
    per_block_bytes_ = per_block;
    const uint64_t resident = std::min<uint64_t>(resident_cap_, block_count_);
    const uint64_t threads = uint64_t(block_count_) * threads_per_block_;
    const uint64_t table = trace_ ? threads * sizeof(trace::ThreadInfo) : 0;
    uint64_t sites = 0;
    if (trace_)
        for (size_t i = 0; i < fn_.code.size(); ++i)
            sites += sizeof(trace::Site) + (i < fn_.text.size() ? fn_.text[i].size() : 0);
    uint64_t globals = fn_.param_bytes;
    for (const ptx::GlobalVar& v : module_.globals)
        globals += v.size;
    uint64_t buffer_bytes = 0; // the kernel's own buffers, which the run writes in place
    for (const Buffer& b : buffers_)
        buffer_bytes += b.bytes.size();
    fixed_bytes_ = per_block * resident + table + sites + globals + code_size_ + buffer_bytes +
                   options_.held_by_caller_bytes;
    peak_bytes_ = fixed_bytes_;
    if (fixed_bytes_ > options_.max_memory_bytes)
        throw BudgetExceeded{
            Budget::Memory,
            "the launch needs " + std::to_string(fixed_bytes_) + " bytes before its first instruction (" +
                std::to_string(resident) + " resident blocks of " + std::to_string(per_block) +
                " bytes of registers, shared and local memory" +
                (trace_ ? ", a thread table of " + std::to_string(threads) + " threads" : std::string()) +
                ", the kernel's buffers of " + std::to_string(buffer_bytes) + " bytes" +
                (options_.held_by_caller_bytes ? ", " + std::to_string(options_.held_by_caller_bytes) +
                                                     " bytes of inputs and results kept"
                                               : std::string()) +
                "), over the memory budget of " + std::to_string(options_.max_memory_bytes) +
                " bytes; raise it with --max-memory BYTES"};

    build_params();
    allocate_globals();
    place_grid_workspace();
    admitted_at_.assign(block_count_, UINT64_MAX);
    placed_sm_.assign(block_count_, UINT32_MAX);
    retired_at_.assign(block_count_, UINT64_MAX);
    waited_.assign(block_count_, 0);
    recording_ = trace_ && options_.record_trace;
    if (options_.cost_model) {
        cost_ = std::make_unique<CostModel>(CostParams{}, options_.sm_count);
        issue_cost_.resize(code_size_);
        for (uint32_t pc = 0; pc < code_size_; ++pc)
            issue_cost_[pc] = static_cast<uint16_t>(cost_->issue_cost(fn_.code[pc]));
        find_unused_results();
        block_end_.assign(block_count_, UINT64_MAX);
    }
    timing_ = recording_ && cost_ != nullptr;
    cas_failures_.assign(code_size_, 0);
    start_trace();
}

// An atom whose destination register nothing else mentions: ptxas compiles it to a
// fire-and-forget RED (GPU_FACTS: ~260 cycles whatever the contention), so the cost model does not
// keep its warp waiting. A register mentioned anywhere else counts as used.
void Run::find_unused_results() {
    std::vector<uint32_t> mentions(slots_, 0);
    auto mention = [&](uint32_t slot) {
        if (slot < mentions.size()) ++mentions[slot];
    };
    for (const Instruction& in : fn_.code) {
        mention(in.guard);
        for (const Operand& op : in.ops) {
            if (op.kind == Operand::Kind::Reg || op.kind == Operand::Kind::Address) mention(op.reg);
            if (op.kind == Operand::Kind::Vector)
                for (uint32_t v = 0; v < op.vec_count && v < 4; ++v)
                    mention(op.vec[v]);
        }
    }
    aggregatable_ = aggregatable_atomics(fn_);
    result_unused_.assign(code_size_, 0);
    for (uint32_t pc = 0; pc < code_size_; ++pc) {
        const Instruction& in = fn_.code[pc];
        if (in.op == ptx::Op::Atom && in.ops[0].kind == Operand::Kind::Reg && in.ops[0].reg < mentions.size())
            result_unused_[pc] = mentions[in.ops[0].reg] == 1;
    }
}

// Modelled occupancy (residency.h): the hardware holds residency_->total() blocks at once. Block b
// takes the slot of block b - slots and starts when that one ended; if the simulator has not
// finished that block yet (it keeps fewer blocks resident, in scheduler order), at the end of the
// block it retired last.
uint64_t Run::start_clock(uint32_t block) const {
    if (!cost_) return 0;
    const uint64_t slots = std::max<uint64_t>(1, residency_->total());
    if (block < slots) return 0;
    const uint64_t end = block_end_[block - slots];
    return end != UINT64_MAX ? end : admit_clock_;
}

void Run::build_params() {
    if (args_.size() != fn_.params.size())
        throw KernelFault{"kernel " + fn_.name + " takes " + std::to_string(fn_.params.size()) +
                          " parameters, " + std::to_string(args_.size()) + " given"};
    buffer_address_.resize(buffers_.size());
    for (size_t i = 0; i < buffers_.size(); ++i)
        buffer_address_[i] = global_.add(launch::buffer_name(buffers_[i], i), buffers_[i].bytes.data(),
                                         buffers_[i].bytes.size());
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
    t.sites.clear();
    t.sites = ptx::site_table(fn_, &module_);
    // The thread table is the run's record of how every thread ended: filled as blocks start and
    // threads exit or fault, and at the end for the threads still resident and the blocks that never
    // started (finish_trace).
    t.threads = trace::thread_layout(launch_.grid, launch_.block);
    thread_table_ = t.threads.data();
    t.block_history.clear();
    t.residency.clear();
    // A fresh vector: one the caller reused may hold more capacity than the budgets allow.
    std::vector<trace::Event>().swap(t.events);
    std::vector<trace::EventTiming>().swap(t.timing);
    t.cas_failures.clear();
    t.meta.modelled_cycles = 0;
    if (recording_) {
        // Room for one event per event-producing instruction per thread (loops may need more):
        // untouched reserved pages cost nothing, while regrowing a large vector copies it.
        uint64_t per_thread = 1; // exit
        for (const Instruction& in : fn_.code) {
            if (ptx::is_barrier(in.op)) {
                per_thread += 2; // arrive and leave
            } else if (ptx::is_memory_access(in.op)) {
                // Loads and stores of parameters and local memory are not traced.
                const bool untraced = !ptx::is_atomic(in.op) &&
                                      (in.space == ptx::Space::Param || in.space == ptx::Space::Local);
                if (!untraced) per_thread += in.vector;
            } else if (ptx::emits_event(in.op) && !ptx::is_exit(in.op)) {
                per_thread += 1;
            }
        }
        const uint64_t room = (options_.max_memory_bytes - fixed_bytes_) / event_bytes();
        const uint64_t want = per_thread * uint64_t(block_count_) * threads_per_block_;
        if (options_.block_sink) {
            // Analysing as the run goes: a window that finished blocks leave (events.cpp), in a
            // reservation of eight windows, of which only what the window reaches is ever touched.
            stream_window_ = std::min({options_.stream_window_events
                                           ? options_.stream_window_events
                                           : options_.max_memory_bytes / 16 / event_bytes(),
                                       options_.max_events, std::max<uint64_t>(room, 1)});
            stream_window_ = std::max<uint64_t>(stream_window_, 1);
            t.events.reserve(std::min(8 * stream_window_, options_.max_events));
            stream_limit_ = stream_window_;
        } else {
            t.events.reserve(std::min({want, options_.max_events, room}));
        }
        if (timing_) t.timing.reserve(t.events.capacity());
        event_room_ = stream_limit_ ? stream_limit_ : std::min<uint64_t>(t.events.capacity(), options_.max_events);
        peak_bytes_ = fixed_bytes_ + trace_bytes();
    }
    fill_memory_map(t.memory);
    t.meta.kernel = fn_.name;
    t.meta.backend = "sim";
    t.meta.device = "SyncLab simulator";
    t.meta.sm_count = options_.sm_count;
    t.meta.schedule = to_string(options_.schedule);
    t.meta.seed = options_.seed;
    t.meta.memory_model = memory_->name();
    t.meta.grid = launch_.grid;
    t.meta.block = launch_.block;
    t.meta.dynamic_shared_bytes = launch_.dynamic_shared_bytes;
    t.meta.dropped_events = 0;
}

// The launch's named memory, where this run placed it: the caller's buffers, the module's
// `__device__` variables and the kernel's shared arrays (every block's window alike), as a traced GPU
// run fills its map (gpu/gpu_run.h: memory_map). A few regions per launch: naming happens when a
// finding or view is written, never per event.
void Run::fill_memory_map(trace::MemoryMap& map) const {
    map.clear();
    for (trace::MemoryRegion& r : launch::buffer_regions(buffers_, buffer_address_))
        map.add(std::move(r));
    for (trace::MemoryRegion& r :
         ptx::kernel_regions(module_, fn_, launch_.dynamic_shared_bytes, symbol_address_))
        map.add(std::move(r));
    // Every global allocation a kernel may reach is in it, except a cooperative launch's grid-barrier
    // workspace (place_grid_workspace), which on the GPU is the driver's: there the map only names.
    // (`.const` variables are not in it either; the bounds check leaves `ld.const` alone.)
    map.set_complete(!launch_.cooperative);
}

// [SECTION] Cooperative launch =====================================================================

// cooperative_groups::this_grid().sync() finds its barrier through %envreg1:%envreg2 (nvcc -O3:
// mov.u32 %r, %envreg2; ... bfi.b64 into a 64-bit pointer; trap when it is 0), then thread 0 of
// each block does atom.add.release.gpu.u32 [ws+4] and spins on ld.acquire.gpu.u32 [ws+4] until the
// top bit flips. A cooperative launch gets a zeroed workspace in global memory; a normal one none.
void Run::place_grid_workspace() {
    if (!launch_.cooperative) return;
    grid_workspace_.assign(16, 0);
    workspace_address_ = global_.add("grid barrier workspace (cooperative launch)", grid_workspace_.data(),
                                     grid_workspace_.size());
}

uint64_t Run::envreg(uint32_t index) const {
    if (index == 1) return workspace_address_ >> 32;
    if (index == 2) return workspace_address_ & 0xffffffffu;
    return 0; // the others: nothing the simulator's launches provide
}

// Every block in flight spins without end while blocks wait: if the simulator's cost cap
// (Options::max_resident_blocks) held them back where the hardware would have room, admit up to
// the modelled residency, within the memory budget.
bool Run::widen_residency() {
    const uint64_t model = std::min<uint64_t>(residency_->total(), block_count_);
    if (resident_cap_ >= model) return false;
    const uint64_t extra = (model - resident_cap_) * per_block_bytes_;
    if (peak_bytes_ + extra > options_.max_memory_bytes)
        throw BudgetExceeded{Budget::Memory,
                             "the resident blocks spin waiting for blocks that the simulator holds back; "
                             "admitting up to the modelled " + std::to_string(model) + " resident blocks (" +
                                 residency_->explain() + ") needs " + std::to_string(extra) +
                                 " more bytes, over the memory budget of " +
                                 std::to_string(options_.max_memory_bytes) + " bytes; raise it with --max-memory BYTES"};
    fixed_bytes_ += extra;
    peak_bytes_ += extra;
    resident_cap_ = static_cast<uint32_t>(model);
    admit_blocks();
    return true;
}

// [SECTION] Block admission and retirement ===========================================================

namespace {

// Blocks outlive their run. Admitting a block zeroes its registers, shared and local memory; in
// fresh allocations that means a page fault per 4 KiB, which was half the time of a short run (the
// stencil benchmark: 16 resident blocks, ~2 MB, each run; docs/PERF_NOTES.md). The runs of one
// thread (outcome rates, seeds, the benchmark) take their blocks from here first. A run that
// widened its residency to thousands of blocks, or ran blocks of much shared memory, leaves at
// most kPooledBytes behind.
constexpr uint64_t kPooledBytes = 32u << 20;
thread_local std::vector<std::unique_ptr<Block>> pooled_blocks;
thread_local uint64_t pooled_bytes = 0;

uint64_t held_bytes(const Block& b) {
    return b.shared.capacity() + b.local.capacity() + b.regs.capacity() * sizeof(uint64_t) +
           b.warps.capacity() * sizeof(Warp);
}

std::unique_ptr<Block> take_block(std::vector<std::unique_ptr<Block>>& spare) {
    for (auto* from : {&spare, &pooled_blocks}) {
        if (from->empty()) continue;
        std::unique_ptr<Block> b = std::move(from->back());
        from->pop_back();
        if (from == &pooled_blocks) pooled_bytes -= held_bytes(*b);
        return b;
    }
    return std::make_unique<Block>();
}

} // namespace

Run::~Run() {
    for (auto* from : {&spare_blocks_, &resident_})
        for (std::unique_ptr<Block>& b : *from) {
            const uint64_t bytes = held_bytes(*b);
            if (pooled_bytes + bytes > kPooledBytes) return;
            pooled_bytes += bytes;
            pooled_blocks.push_back(std::move(b));
        }
}

void Run::admit_blocks() {
    bool admitted = false;
    while (resident_.size() < resident_cap_ && next_block_ < block_count_) {
        std::unique_ptr<Block> block = take_block(spare_blocks_);
        Block& b = *block;
        b.linear = next_block_++;
        admitted_at_[b.linear] = tick_;
        waited_[b.linear] = blocks_done_ > 0; // a slot had to free first
        b.id = {b.linear % launch_.grid.x, (b.linear / launch_.grid.x) % launch_.grid.y,
                b.linear / (launch_.grid.x * launch_.grid.y)};
        b.thread_count = threads_per_block_;
        b.live_threads = threads_per_block_;
        // resident_cap_ never exceeds the model's slots, so an SM always has one free here.
        b.sm = sm_slots_->take();
        placed_sm_[b.linear] = b.sm;
        b.shared.assign(shared_bytes_, 0);
        b.local.assign(size_t(threads_per_block_) * fn_.local_bytes, 0);
        b.regs.assign(size_t(warps_per_block_) * slots_ * kWarpSize, 0);
        for (BarrierState& bar : b.bars) { // as new, keeping the waiting list's allocation
            std::vector<Waiter> waiting = std::move(bar.waiting);
            waiting.clear();
            bar = BarrierState{};
            bar.waiting = std::move(waiting);
        }
        b.warps.assign(warps_per_block_, Warp{});
        const uint32_t block_first = b.linear * threads_per_block_;
        for (uint32_t w = 0; w < warps_per_block_; ++w) {
            Warp& warp = b.warps[w];
            warp.index = w;
            warp.first_thread = w * kWarpSize;
            warp.global_first = block_first + warp.first_thread;
            const uint32_t lanes = std::min(kWarpSize, threads_per_block_ - warp.first_thread);
            warp.modelled_cycles = start_clock(b.linear);
            warp.stores_visible = warp.modelled_cycles;
            warp.present_mask = lanes == kWarpSize ? kFullMask : ((1u << lanes) - 1);
            warp.ready_mask = warp.present_mask;
            for (uint32_t l = 0; l < kWarpSize; ++l)
                warp.state[l] = l < lanes ? LaneState::Ready : LaneState::Absent;
            warp.regs = b.regs.data() + size_t(w) * slots_ * kWarpSize;
            warp.block = &b;
            if (thread_table_)
                for (uint32_t l = 0; l < lanes; ++l) {
                    trace::ThreadInfo& ti = thread_table_[warp.global_first + l];
                    ti.end = trace::ThreadEnd::Running;
                    ti.sm = static_cast<uint16_t>(b.sm);
                }
        }
        for (Warp& warp : b.warps)
            warps_.push_back(&warp);
        resident_.push_back(std::move(block));
        admitted = true;
    }
    if (admitted) scheduler_->resident_changed(warp_set());
}

void Run::retire_block(Block* b) {
    memory_->block_finished(b->linear);
    retired_at_[b->linear] = tick_;
    sm_slots_->release(b->sm); // the next block admitted may take it
    if (cost_) {
        uint64_t end = 0;
        for (const Warp& w : b->warps)
            end = std::max(end, w.modelled_cycles);
        block_end_[b->linear] = end;
        admit_clock_ = end;
    }
    warps_.erase(std::remove_if(warps_.begin(), warps_.end(), [b](Warp* w) { return w->block == b; }),
                 warps_.end());
    for (size_t i = 0; i < resident_.size(); ++i)
        if (resident_[i].get() == b) {
            spare_blocks_.push_back(std::move(resident_[i]));
            resident_.erase(resident_.begin() + static_cast<std::ptrdiff_t>(i));
            break;
        }
    ++blocks_done_;
    scheduler_->resident_changed(warp_set());
    admit_blocks();
}

} // namespace synclab::sim
