// One simulated launch (private to app/sim): the Run object behind sim::simulate().
//
// Where each concern lives:
//   simulator.cpp    simulate(), schedule names, the run loop (Run::execute)
//   setup.cpp        launch validation, parameters, globals, trace header, up-front budgets;
//                    block admission and retirement
//   step.cpp         one warp step: group selection, guard predicate, dispatch, branches
//   alu_exec.cpp     arithmetic, logic, comparison, conversion, special registers (alu.h: scalar
//                    semantics)
//   memory_ops.cpp   address resolution and bounds checks; loads, stores, atomics and fences through
//                    the memory system (memory_system.h, sc_memory.cpp)
//   barriers.cpp     block barriers (aligned and not), thread exits
//   collectives.cpp  bar.warp.sync, vote, shfl
//   events.cpp       the event and memory budgets of the trace
//   ending.cpp       deadlock report, thread table, block history, run metadata
//   scheduler.cpp    the scheduling policies
#pragma once

#include "sim/choices.h"
#include "sim/cost_model.h"
#include "sim/memory.h"
#include "sim/memory_system.h"
#include "sim/progress_watch.h"
#include "sim/residency.h"
#include "sim/scheduler.h"
#include "sim/simulator.h"
#include "sim/state.h"

#include <memory>
#include <string>
#include <vector>

namespace synclab::sim {

class Run {
  public:
    // `memory`: the memory system (default: the one Options::memory names); tests give their own to
    // observe the seam.
    Run(const ptx::Module& module, const ptx::Function& fn, const LaunchConfig& launch,
        std::vector<Buffer>& buffers, const std::vector<KernelArg>& args, const Options& options,
        trace::Trace* trace, std::unique_ptr<MemorySystem> memory = nullptr);
    ~Run(); // hands its blocks to the thread's pool (setup.cpp)
    Run(const Run&) = delete;
    Run& operator=(const Run&) = delete;

    Result execute();

  private:
    using Instruction = ptx::Instruction;
    using Operand = ptx::Operand;

    // set-up (setup.cpp)
    void set_up();
    void check_launch();
    void build_params();
    void allocate_globals();
    void start_trace();
    void fill_memory_map(trace::MemoryMap& map) const;
    void find_unused_results();
    uint64_t start_clock(uint32_t block) const;
    void admit_blocks();
    void retire_block(Block* block);
    // cooperative launch and residency (setup.cpp)
    void place_grid_workspace();
    uint64_t envreg(uint32_t index) const;
    bool widen_residency(); // admit up to the modelled residency; false: it is full already
    WarpSet warp_set() const { return WarpSet(warps_, fn_, is_exit_.data()); }

    // stepping (step.cpp)
    void step(Warp& warp);
    void materialize(Warp& warp);
    void advance(Warp& warp, uint32_t mask, uint32_t next_pc);
    void branch(Warp& warp, const Instruction& in, uint32_t pc, uint32_t group, uint32_t taken);

    // arithmetic (alu_exec.cpp)
    void execute_alu(Warp& warp, const Instruction& in, uint32_t pc, uint32_t mask);
    void execute_mov_vector(Warp& warp, const Instruction& in, uint32_t mask);
    void execute_setp(Warp& warp, const Instruction& in, uint32_t pc, uint32_t mask);
    void execute_cvt(Warp& warp, const Instruction& in, uint32_t pc, uint32_t mask);
    [[noreturn]] void unsupported(const Warp& warp, const Instruction& in, uint32_t pc, uint32_t mask);
    // Operand values of the lanes of `mask`, indexed by lane: a register's own row, or `scratch`
    // filled with the value (immediates, special registers, symbols, negated predicates).
    const uint64_t* fetch(const Warp& warp, const Operand& op, uint32_t mask, uint64_t* scratch) const;
    uint64_t read(const Warp& warp, const Operand& op, uint32_t lane) const;
    uint64_t special(const Warp& warp, ptx::SpecialReg reg, uint32_t lane) const;
    uint64_t global_timer(const Warp& warp) const;
    uint64_t* reg(Warp& warp, uint32_t slot) const { return warp.regs + size_t(slot) * kWarpSize; }

    // memory (memory_ops.cpp)
    void execute_memory(Warp& warp, const Instruction& in, uint32_t pc, uint32_t mask);
    void execute_atomic(Warp& warp, const Instruction& in, uint32_t pc, uint32_t mask);
    void execute_fence(Warp& warp, const Instruction& in, uint32_t pc, uint32_t mask);
    void resolve_lanes(Warp& warp, const Instruction& in, uint32_t pc, const uint64_t* address, bool write,
                       WarpAccess& access);
    uint8_t* resolve_slow(Warp& warp, const Instruction& in, uint32_t pc, uint32_t lane, uint64_t address,
                          uint32_t size, bool write, trace::Space& space, uint64_t& trace_address);
    Issuer issuer(const Warp& warp) const;
    void finish_access(Warp& warp, const WarpAccess& access);

    // barriers and exits (barriers.cpp)
    void execute_barrier(Warp& warp, const Instruction& in, uint32_t pc, uint32_t mask);
    void gather_aligned(Warp& warp);
    // When a warp's arrival at a block barrier counts: the barrier orders the warp's shared-memory
    // atomics before what follows it, so not before they are applied (a RED does not hold the warp
    // when it is issued, but it holds the barrier).
    static uint64_t arrival_clock(const Warp& warp) {
        return std::max(warp.modelled_cycles, warp.shared_atomics_done);
    }
    void check_barriers(Block& block, uint32_t ids);
    void check_barrier(Block& block, uint32_t id);
    void exit_lanes(Warp& warp, uint32_t pc, uint32_t mask);

    // warp collectives (collectives.cpp)
    void execute_warp_collective(Warp& warp, const Instruction& in, uint32_t pc, uint32_t mask);
    void meet_collectives(Warp& warp);
    void check_stuck(Warp& warp, uint32_t pc, uint32_t group, uint32_t missing, uint32_t member_mask);
    void complete_collective(Warp& warp, const Instruction& in, uint32_t pc, uint32_t group, uint32_t member_mask);
    void shuffle(Warp& warp, const Instruction& in, uint32_t pc, uint32_t group, uint32_t member_mask,
                 uint32_t* result, uint32_t* source);
    std::string collective_name(uint32_t pc) const;
    std::string collective_or_barrier(uint32_t pc) const;
    void record_collective(const Warp& warp, uint32_t lanes, uint32_t members, trace::Collective kind,
                           const uint32_t* result, const uint32_t* source);

    // events and budgets (events.cpp)
    size_t emit(trace::EventKind kind, const Warp& warp, uint32_t lane, uint32_t pc, uint64_t address,
                uint64_t value, uint8_t flags) {
        return append(kind, warp, lane, pc, address, value, flags, {warp.modelled_cycles, 0, 0});
    }
    // A memory event with the cost model's timing of its lane.
    void emit_timed(trace::EventKind kind, const Warp& warp, uint32_t lane, uint32_t pc, uint64_t address,
                    uint64_t value, uint8_t flags) {
        const LaneTiming& t = lane_timing_[lane];
        append(kind, warp, lane, pc, address, value, flags, {t.issue, t.latency, t.queue_depth});
    }
    size_t append(trace::EventKind kind, const Warp& warp, uint32_t lane, uint32_t pc, uint64_t address,
                  uint64_t value, uint8_t flags, const trace::EventTiming& timing) {
        std::vector<trace::Event>& events = trace_->events;
        if (events.size() == event_room_) grow_events();
        events.push_back(trace::Event{tick_, address, static_cast<uint32_t>(value), warp.global_first + lane,
                                      0, static_cast<uint16_t>(pc), kind, flags});
        if (timing_) trace_->timing.push_back(timing);
        return events.size() - 1;
    }
    uint64_t event_bytes() const { return sizeof(trace::Event) + (timing_ ? sizeof(trace::EventTiming) : 0); }
    // Times a warp-instruction's access at the warp's clock (no-op without the cost model).
    void time_access(Warp& warp, WarpAccess& access) {
        if (!cost_) return;
        cost_->access(warp.modelled_cycles, access, warp.stores_visible, timing_ ? lane_timing_ : nullptr);
        warp.shared_atomics_done = std::max(warp.shared_atomics_done, access.shared_done);
    }
    void update_horizon();
    uint64_t modelled_end() const;
    void grow_events();
    uint64_t trace_bytes() const;
    void set_end(uint32_t thread, trace::ThreadEnd end, uint32_t site) {
        if (thread_table_) {
            thread_table_[thread].end = end;
            thread_table_[thread].end_site = site;
        }
    }

    // errors and ending (ending.cpp)
    std::string line_of(uint32_t pc) const;
    std::string where(const Warp& warp, uint32_t lane, uint32_t pc) const;
    [[noreturn]] void fault(const Warp& warp, uint32_t lane, uint32_t pc, const std::string& what);
    std::string deadlock_report() const;
    std::string spin_report() const;                         // the resident blocks spin without end
    std::string trap_message(uint32_t pc) const;             // why a trap ran (grid.sync, plain trap)
    uint32_t spin_site(const Warp& warp, uint32_t lane) const; // the load a spinning lane loops on
    bool parked_at_barrier(const Warp& warp, uint32_t lane) const; // ready at a barrier, its warp elsewhere
    void finish_trace(Result& result, double elapsed_ms);

    const ptx::Module& module_;
    const ptx::Function& fn_;
    const LaunchConfig& launch_;
    std::vector<Buffer>& buffers_;
    const std::vector<KernelArg>& args_;
    const Options& options_;
    trace::Trace* trace_;
    std::unique_ptr<Choices> choices_; // every choice point of the run (choices.h)
    ReplayChoices* replay_ = nullptr;  // choices_, for Schedule::Exhaustive
    std::unique_ptr<Scheduler> scheduler_;
    // WarpModel::Its under a policy that splits warps: step() asks the scheduler at memory accesses.
    // (options_ is declared above, so it is initialised first.)
    bool splits_ = options_.warp_model == WarpModel::Its &&
                   (options_.schedule == Schedule::Random || options_.schedule == Schedule::Adversarial);
    std::unique_ptr<MemorySystem> memory_;
    WatchedMemory* watch_ = nullptr; // memory_, which counts progress (progress_watch.h)
    SpinDetector spin_;
    std::unique_ptr<CostModel> cost_; // null: the run is not modelled (Options::cost_model)

    // the launch
    uint32_t threads_per_block_ = 0;
    uint32_t warps_per_block_ = 0;
    uint32_t block_count_ = 0;
    uint32_t slots_ = 0;
    uint32_t shared_bytes_ = 0;
    uint32_t code_size_ = 0;
    std::vector<uint8_t> is_exit_; // per instruction (and one past the end): ret or exit
    std::vector<uint8_t> params_;
    std::vector<std::vector<uint8_t>> global_vars_; // backing store of module .global/.const variables
    std::vector<uint64_t> symbol_address_;          // per Module::globals index
    std::vector<uint64_t> buffer_address_;
    GlobalMemory global_;

    // resident blocks
    std::vector<std::unique_ptr<Block>> resident_;
    std::vector<std::unique_ptr<Block>> spare_blocks_; // retired, kept for their allocations (and the
                                                       // next run's: setup.cpp's block pool)
    std::vector<Warp*> warps_;                         // warps of resident blocks, in admission order
    uint32_t next_block_ = 0;
    uint32_t blocks_done_ = 0;
    std::unique_ptr<Residency> residency_; // the modelled per-SM limit (residency.h)
    std::unique_ptr<SmSlots> sm_slots_;    // which SM each admitted block takes a slot on
    uint32_t resident_cap_ = 1;            // blocks kept in flight now (<= the modelled residency)
    uint64_t per_block_bytes_ = 0;         // one resident block's state, for the memory budget
    std::vector<uint8_t> grid_workspace_;  // cooperative launch: cg's grid barrier (zeroed)
    uint64_t workspace_address_ = 0;       // its global address: %envreg1 (high), %envreg2 (low)
    std::vector<uint64_t> admitted_at_, retired_at_; // per block: logical tick (UINT64_MAX: never)
    std::vector<uint8_t> waited_;                    // per block: admitted after a block retired
    std::vector<uint32_t> placed_sm_;                // per block: its SM (UINT32_MAX: never admitted)

    // counters
    uint64_t tick_ = 0;
    uint64_t thread_instructions_ = 0;
    uint64_t warp_instructions_ = 0;

    // modelled time (cost_model.h)
    std::vector<uint16_t> issue_cost_;   // per instruction
    std::vector<uint8_t> result_unused_; // per instruction: an atom whose result nothing reads
    std::vector<uint8_t> aggregatable_;  // per instruction: an atom ptxas makes one per warp (uniformity.h)
    uint64_t admit_clock_ = 0;           // end of the block retired last
    std::vector<uint64_t> block_end_;    // per block: its modelled end (UINT64_MAX: not finished)
    uint64_t end_clock_ = 0;             // latest warp clock at a thread's exit
    LaneTiming lane_timing_[kWarpSize];  // the access being timed, per lane
    std::vector<uint32_t> cas_failures_; // per instruction
    uint64_t cas_failures_total_ = 0;

    // trace and budgets
    bool recording_ = false;
    bool timing_ = false; // recording, with the cost model: Trace::timing parallel to events
    trace::ThreadInfo* thread_table_ = nullptr; // trace_->threads, when there is a trace
    size_t event_room_ = 0;                     // events that fit before the next budget check
    uint64_t fixed_bytes_ = 0;                  // state and tables sized up front
    uint64_t peak_bytes_ = 0;

    // analysing as the run goes (Options::block_sink; events.cpp)
    std::vector<uint8_t> streamed_; // per block: running, handed to the sink, in the batch being made
    size_t handed_prefix_ = 0;      // events before it: only what stays of blocks handed over
    uint64_t streamed_events_ = 0, dropped_events_ = 0;
    uint32_t streamed_blocks_ = 0;
    uint64_t stream_limit_ = 0;     // events the vector may fill before the next hand-over (0: not streaming)
    uint64_t stream_window_ = 0;    // its first size
    bool hand_over_finished_blocks();
    bool make_room_by_handing_over();
    BudgetExceeded trace_over_budget(uint64_t used) const;
};

} // namespace synclab::sim
