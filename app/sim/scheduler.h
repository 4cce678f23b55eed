// Scheduling policies (private to app/sim): which warp steps next, and for how many instructions.
//
// Relacy style: one interface, one class per policy. A policy sees the resident warps in admission
// order (WarpSet), whether each can run and which instruction it would run next, and answers with a
// Pick. The replay contract: a policy's choices depend only on its seed and on what it was shown, so
// the same seed on the same launch gives the same trace. A policy may keep per-warp state in
// Warp::policy_state (zero when the warp's block is admitted).
#pragma once

#include "ptx/ir.h"
#include "sim/choices.h"
#include "sim/simulator.h"
#include "sim/state.h"

#include <cstddef>
#include <memory>
#include <span>
#include <vector>

namespace synclab::sim {

// The resident warps as a policy sees them.
class WarpSet {
  public:
    WarpSet(std::span<Warp* const> warps, const ptx::Function& fn, const uint8_t* is_exit)
        : warps_(warps), fn_(fn), is_exit_(is_exit) {}

    size_t size() const { return warps_.size(); }
    Warp& operator[](size_t i) const { return *warps_[i]; }
    bool runnable(size_t i) const { return warps_[i]->ready_mask != 0; }
    // The lanes that would run if warp i were picked, and the instruction they are at (only for a
    // runnable warp; a PC past the end of the code is the kernel's fault, reported when it steps).
    Group next_group(size_t i) const { return sim::next_group(*warps_[i], is_exit_); }
    const ptx::Instruction* next_instruction(size_t i) const {
        const uint32_t pc = next_group(i).pc;
        return pc < fn_.code.size() ? &fn_.code[pc] : nullptr;
    }

  private:
    std::span<Warp* const> warps_;
    const ptx::Function& fn_;
    const uint8_t* is_exit_;
};

// Scheduler::split's answer: lanes of the group to hold back, and for how many steps of the warp.
struct Hold {
    uint32_t lanes = 0;
    uint32_t steps = 0;
};

struct Pick {
    static constexpr size_t kNone = static_cast<size_t>(-1);
    size_t warp = kNone;  // index into the WarpSet; kNone when no warp can run
    uint32_t quantum = 1; // instructions the warp may issue before the next pick (it stops earlier
                          // when all its lanes block)
};

class Scheduler {
  public:
    virtual ~Scheduler() = default;
    virtual Schedule kind() const = 0;
    // The next warp to step. Must return a runnable warp whenever one exists (kNone only when none
    // does: the run is then a deadlock).
    virtual Pick pick(const WarpSet& warps) = 0;
    // The resident set changed (blocks were admitted or retired); indices shown before are stale.
    virtual void resident_changed(const WarpSet& warps) { (void)warps; }
    // Independent thread scheduling (WarpModel::Its): asked when `group` (two lanes or more) of
    // `warp` is about to run a shared- or global-memory access `in`; the lanes it returns wait while
    // the others run ahead. Default: never split (rr, exhaustive; and every policy under lockstep,
    // where the run never asks).
    virtual Hold split(const Warp& warp, const Group& group, const ptx::Instruction& in) {
        (void)warp, (void)group, (void)in;
        return {};
    }
};

// "rr": deterministic; warps in turn from a cursor, one instruction each. Does not use the seed.
class RoundRobinScheduler final : public Scheduler {
  public:
    Schedule kind() const override { return Schedule::RoundRobin; }
    Pick pick(const WarpSet& warps) override;
    void resident_changed(const WarpSet& warps) override;

  private:
    size_t cursor_ = 0;
};

// "random": a seeded random warp (the first runnable one from a random start) and a random quantum
// of 1-8 instructions. Under ITS, one shared/global access in 8 splits the lanes there: a random
// part of them waits 1-16 steps. The splits draw from their own generator, so the warp picks of a
// seed are the same as before splits existed.
class RandomScheduler : public Scheduler {
  public:
    explicit RandomScheduler(uint64_t seed)
        : rng_{seed * 0x2545f4914f6cdd1dull + 0x1234567ull}, split_rng_{seed * 0x9e3779b97f4a7c15ull + 0x5eed11ull} {}
    Schedule kind() const override { return Schedule::Random; }
    Pick pick(const WarpSet& warps) override;
    Hold split(const Warp& warp, const Group& group, const ptx::Instruction& in) override;

  protected:
    // Holds back a random part of `group` with probability 1 / one_in, for 1..max_steps steps.
    Hold random_split(const Group& group, uint32_t one_in, uint32_t max_steps);
    Rng rng_;
    Rng split_rng_;
};

// "adversarial": like random (quanta of 1-4), but a seed-chosen half of the warps (the victims) is
// held back right before shared-memory accesses, up to 256 times in a row, so that the other warps
// overtake them: exactly what turns a missing barrier into a wrong result. Under ITS it splits a
// warp at one shared/global access in 4 and holds the part back for up to 32 steps.
class AdversarialScheduler final : public RandomScheduler {
  public:
    explicit AdversarialScheduler(uint64_t seed) : RandomScheduler(seed), seed_(seed) {}
    Schedule kind() const override { return Schedule::Adversarial; }
    Pick pick(const WarpSet& warps) override;
    Hold split(const Warp& warp, const Group& group, const ptx::Instruction& in) override;

    static constexpr uint32_t kMaxDelays = 256;
    bool is_victim(const Warp& warp) const;

  private:
    bool wants_delay(const WarpSet& warps, size_t i) const;
    uint64_t seed_;
};

// "exhaustive": a warp whose next instruction touches no shared or global memory (and is no
// fence) runs on without a choice: such steps commute with every other warp's. Only where every
// runnable warp stands at a memory operation does the pick become a choice point (Choices), so
// that an exploration enumerates the interleavings of memory operations, not of instructions.
class ExhaustiveScheduler final : public Scheduler {
  public:
    explicit ExhaustiveScheduler(Choices& choices) : choices_(choices) {}
    Schedule kind() const override { return Schedule::Exhaustive; }
    Pick pick(const WarpSet& warps) override;
    static bool is_visible(const ptx::Instruction& in);

  private:
    Choices& choices_;
    std::vector<size_t> visible_; // runnable warps at a memory operation (kept: no allocation per pick)
};

// `choices`: the execution's choice source (Schedule::Exhaustive needs it).
std::unique_ptr<Scheduler> make_scheduler(Schedule schedule, uint64_t seed, Choices* choices = nullptr);

} // namespace synclab::sim
