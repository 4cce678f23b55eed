// Telling a grid that waits forever from one that waits a long time (private to app/sim).
//
// A spin-wait grid barrier with more blocks than can be resident never finishes: the resident blocks
// spin on a counter that only blocks still waiting for a slot would raise. No thread is blocked, so
// the scheduler never runs out of warps; without this it would spin to the step budget. The
// detector's argument (sound for the sc model, without clocks):
//   1. WatchedMemory counts every write that changes memory (a store of a new value, an atomic that
//      changed its location), every thread exit and every block's end: "progress".
//   2. While no progress happens, SpinDetector samples each resident warp's whole state (PCs, lane
//      states, masks, registers) now and then. A warp found in a state it was in at an earlier sample
//      of the same quiet stretch went round a cycle, under unchanged memory, that changed nothing:
//      what it reads (memory, its registers) is what it read before, so it goes round again.
//   3. When every resident warp has done so, no warp will ever change memory, exit or free a slot:
//      the blocks still waiting for a slot never start. That is the finding.
// A loop that reads %clock64 or %globaltimer never repeats a state (its registers keep changing),
// so a spin with a timeout is never flagged; a spinner waiting for a slow block that still computes
// is not flagged while that block's warps keep changing their registers. Under the relaxed model a
// stale line may refresh without a write; the detector is only armed while blocks wait for a slot.
#pragma once

#include "sim/memory_system.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace synclab::sim {

// The run's memory system, wrapped: every call goes through unchanged; writes that change memory
// and exits are counted.
class WatchedMemory final : public MemorySystem {
  public:
    explicit WatchedMemory(std::unique_ptr<MemorySystem> inner) : inner_(std::move(inner)) {}
    const char* name() const override { return inner_->name(); }
    void load(WarpAccess& access) override { inner_->load(access); }
    void store(WarpAccess& access) override;
    void atomic(WarpAccess& access) override;
    void fence(const FenceRequest& fence) override { inner_->fence(fence); }
    void barrier_completed(const BarrierRelease& release) override { inner_->barrier_completed(release); }
    void thread_exited(uint32_t thread) override {
        ++progress_;
        inner_->thread_exited(thread);
    }
    void kernel_ended() override { inner_->kernel_ended(); }
    void block_finished(uint32_t block) override {
        ++progress_;
        inner_->block_finished(block);
    }
    // Writes that changed memory, exits and block ends so far.
    uint64_t progress() const { return progress_; }

  private:
    std::unique_ptr<MemorySystem> inner_;
    uint64_t progress_ = 0;
};

// The spin detector samples a quiet stretch only once it has lasted this many thread-instructions per
// live thread: a spin never ends, so waiting costs it a little time, while ordinary work (loads and
// arithmetic before a block's stores) is never quiet that long and never pays for a sample.
constexpr uint64_t kQuietBeforeSampling = 64;

// Per-warp states seen during one quiet stretch (no progress), sampled.
class SpinDetector {
  public:
    // A fresh stretch: forget every state seen.
    void reset(uint64_t progress);
    // A sample of the resident warps (`warps`, `slots` registers each) at progress count `progress`.
    // True when every warp has repeated a state since the stretch began (point 3 above).
    bool sample(const std::vector<Warp*>& warps, uint32_t slots, uint64_t progress);
    uint32_t samples() const { return samples_; }

  private:
    static uint64_t hash(const Warp& warp, uint32_t slots);
    uint64_t progress_ = UINT64_MAX;
    uint32_t samples_ = 0;
    std::vector<const Warp*> warps_;           // the warps of this stretch, in order
    std::vector<std::vector<uint64_t>> seen_;  // per warp: state hashes sampled
    std::vector<uint8_t> repeated_;            // per warp: a sampled state came again
};

} // namespace synclab::sim
