// The memory system (private to app/sim): what a load returns, when a store becomes visible, how an
// atomic is applied, and what fences, barriers and thread exits do to that.
//
// GPGPU-Sim style: the functional execution (the instruction executors) is one program; memory
// models are implementations of this interface. The executor resolves every address once (space,
// bounds, alignment: memory_ops.cpp) and hands the memory system one warp-instruction at a time, as
// a lane mask with per-lane addresses and backing bytes, so that a model pays one call per
// warp-instruction, not one per lane. Implementations:
//   ScMemory (here): sequential consistency; every access reads and writes the backing bytes at once.
//   RelaxedMemory (relaxed_memory.h): per-thread store buffers, per-SM L1 with stale lines.
// Timing is not a memory model's business: the cost model (cost_model.h) times every access of
// either model after the memory system has applied it and fills WarpAccess::latency.
#pragma once

#include "ptx/ir.h"
#include "sim/choices.h"
#include "sim/simulator.h"
#include "sim/state.h"
#include "trace/trace.h"

#include <cstdint>
#include <memory>
#include <span>

namespace synclab::sim {

// Who issues an access: one warp of one block on one SM. Lane l is global thread first_thread + l.
struct Issuer {
    uint32_t block = 0; // linear block index
    uint32_t warp = 0;  // warp index in its block
    uint32_t sm = 0;
    uint32_t first_thread = 0; // global thread index of lane 0
};

enum class AccessKind : uint8_t { Load, Store, Atomic, Reduction };

// One element of one warp-instruction's access for the lanes of `mask` (a .v4 access is four of
// these). The executor fills the request; the memory system fills the results.
struct WarpAccess {
    // request
    Issuer who;
    AccessKind kind = AccessKind::Load;
    ptx::MemOrder order = ptx::MemOrder::Weak; // weak, volatile, relaxed, acquire, release, sc
    ptx::MemScope scope = ptx::MemScope::None; // None: the instruction names no scope
    ptx::Type type = ptx::Type::None;          // the instruction's type (atomics apply it)
    ptx::AtomOp atom_op = ptx::AtomOp::None;   // atomics
    uint32_t size = 0;                         // bytes per lane
    uint32_t mask = 0;                         // lanes taking part
    // per lane (lanes of mask only), resolved and bounds-checked by the executor
    trace::Space space[kWarpSize]; // a generic access may reach shared memory in one lane and
                                   // global in another; Other = kernel parameters
    uint64_t address[kWarpSize];   // address in its space (shared/local: offset; global: device address)
    uint8_t* host[kWarpSize];      // the backing bytes of that address
    uint64_t value[kWarpSize];     // store: the value to write; atomic: operand b;
                                   // load/atomic result: the value read (the old value, for atomics)
    uint64_t operand_c[kWarpSize]; // atom.cas: the new value
    bool compiler_aggregated = false; // atomics: one ptxas turns into one per warp (timing only;
                                      // sim/uniformity.h)
    // result
    uint32_t latency = 0; // modelled cycles this access keeps the warp waiting (0: not modelled)
    // The modelled cycle by which its shared-memory atomics are applied (0: none). A RED (or an atom
    // whose result is unused) does not hold its warp, but a block barrier orders it: the barrier
    // completes only once the block's shared atomics are done (Warp::shared_atomics_done).
    uint64_t shared_done = 0;
};

// A fence (membar / fence.*) executed by the lanes of `mask`.
struct FenceRequest {
    Issuer who;
    uint32_t mask = 0;
    ptx::MemOrder order = ptx::MemOrder::Sc; // membar and fence.sc: Sc; fence.acq_rel: AcqRel
    ptx::MemScope scope = ptx::MemScope::Gpu;
};

// A phase of a block barrier completed: the lanes of `released` are let go together. Thread
// (warp w, lane l) of the block is global thread first_thread + w * 32 + l.
struct BarrierRelease {
    uint32_t block = 0;
    uint32_t sm = 0;
    uint32_t barrier = 0; // barrier id
    uint32_t phase = 0;   // the phase that completed
    uint32_t first_thread = 0;
    std::span<const Waiter> released;
};

class MemorySystem {
  public:
    virtual ~MemorySystem() = default;
    virtual const char* name() const = 0; // as RunMeta::memory_model spells it ("sc")

    virtual void load(WarpAccess& access) = 0;
    virtual void store(WarpAccess& access) = 0;
    // Read-modify-write, indivisible per lane, lanes applied in lane order; fills value[] with the
    // old values. Atomic semantics (apply_atomic in atomic_ops.h) are the same for every model.
    virtual void atomic(WarpAccess& access) = 0;
    virtual void fence(const FenceRequest& fence) = 0;
    // Called when a barrier phase completes, before its threads run on.
    virtual void barrier_completed(const BarrierRelease& release) = 0;
    // Drain hooks: a thread exited (its pending writes must become visible), and the kernel ended
    // (every pending write must reach the backing bytes, which the caller reads as the outputs).
    virtual void thread_exited(uint32_t thread) = 0;
    virtual void kernel_ended() = 0;
    // A block finished (every thread exited): its shared memory is gone.
    virtual void block_finished(uint32_t block) { (void)block; }
};

// The memory system Options::memory names; `choices` decides its choice points (relaxed).
std::unique_ptr<MemorySystem> make_memory_system(const Options& options, Choices& choices);

// Sequential consistency: one global order of accesses, the order the simulator executes them in.
class ScMemory final : public MemorySystem {
  public:
    const char* name() const override { return "sc"; }
    void load(WarpAccess& access) override;
    void store(WarpAccess& access) override;
    void atomic(WarpAccess& access) override;
    void fence(const FenceRequest&) override {}
    void barrier_completed(const BarrierRelease&) override {}
    void thread_exited(uint32_t) override {}
    void kernel_ended() override {}
};

} // namespace synclab::sim
