// The relaxed memory model (private to app/sim): what the PTX memory model lets a load return, and
// the mechanisms of a real GPU that make those weak outcomes show.
//
// Two layers (PTX ISA, "Memory Consistency Model"; the shape follows the operational "views and
// messages" models of Kang et al., POPL 2017, and Podkopaev et al., POPL 2019):
//
// What is allowed. Every shared or global 4-byte word keeps its history of writes (messages) in
// coherence order. Every thread has a view: per word, the oldest message it may still read (its own
// writes and what it read or synchronised with raise it). A load may read any message not older
// than its view; a store may be placed anywhere in the word's order above its writer's view (not
// between an atomic and the message that atomic read); an atomic reads the newest message and
// writes right after it (atomicity), unless the newest messages are writes not morally strong with
// it (another block's, where one of the two has block scope: atomicAdd_block() in two blocks), which
// it may read past: a lost update. Ordering restores what PTX promises:
//   - release: a fence (membar, fence.acq_rel, fence.sc) attaches the thread's view, as it is then,
//     to the strong writes that follow it; st.release and atom.release/acq_rel attach their own;
//   - acquire: a strong read that reads a message carrying a view collects it, and an acquire (a
//     later fence, or ld.acquire / atom.acquire themselves) joins the collected views into the
//     thread's view;
//   - morally strong (PTX): only strong accesses (.volatile, .relaxed, .acquire, .release and every
//     atomic; not plain ld/st) synchronise, and only where the scopes include each other: a view
//     released or acquired at .cta reaches threads of the same block only, so a
//     `__threadfence_block()` orders nothing for another block;
//   - fence.sc: also joins a per-scope SC view (one per block for .cta, one for .gpu/.sys), which
//     orders SC fences in one total order (forbids SB's "both read 0", allowed under fence.acq_rel);
//   - bar.sync: joins the views of the block's threads (cta scope) and releases them;
//   - atomics carry the views of the messages they read (release sequences: the last block of a
//     reduction that sees the counter at N-1 acquires every block's release).
// Not modelled: load buffering (a load reordered after a later store of its thread, LB's (1,1)):
// PTX allows it; this model never produces it.
//
// What is likely (random, adversarial and rr schedules). The executions above are the space; a real
// GPU reaches some of them through mechanisms, which these schedules model inside that space:
//   - per-thread store buffers: a store waits in its thread's buffer (the thread reads it back:
//     store-to-load forwarding) and drains later, out of order with its other stores to other words,
//     in order with those to the same word; a fence, a release, a barrier, an atomic on the same word
//     and the thread's exit drain it; adversarial drains as late as it may;
//   - per-SM L1: a weak (plain) global load fills its SM's L1 and is served from it later, stale
//     when another SM wrote the word since; strong loads bypass it; a gpu- or sys-scope acquire (fence,
//     ld.acquire, atom.acquire) invalidates the SM's lines; lines are evicted now and then (random) or
//     after many hits (adversarial), so a spin on a plain load ends;
//   - now and then (random) a load reads an older message its view allows (a write still on its way
//     through the memory system); adversarial always reads the oldest it may.
// Schedule exhaustive (explore()) enumerates the whole space: each load's message and each store's
// place are choice points.
#pragma once

#include "sim/choices.h"
#include "sim/memory_system.h"

#include <memory>
#include <unordered_map>
#include <vector>

namespace synclab::sim {

class RelaxedMemory final : public MemorySystem {
  public:
    RelaxedMemory(Choices& choices, Schedule schedule);
    ~RelaxedMemory() override;
    const char* name() const override { return "relaxed"; }
    void load(WarpAccess& access) override;
    void store(WarpAccess& access) override;
    void atomic(WarpAccess& access) override;
    void fence(const FenceRequest& fence) override;
    void barrier_completed(const BarrierRelease& release) override;
    void thread_exited(uint32_t thread) override;
    void kernel_ended() override;
    void block_finished(uint32_t block) override;

    struct Impl;

  private:
    std::unique_ptr<Impl> impl_;
};

} // namespace synclab::sim
