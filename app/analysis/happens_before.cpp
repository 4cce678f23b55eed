#include "analysis/happens_before.h"

namespace synclab::analysis::detail {

using trace::EventKind;

BarrierClock::BarrierClock(const trace::Trace& trace)
    : trace_(trace), epochs_(trace.threads.size(), 0), has_exited_(trace.threads.size(), 0) {
    for (const trace::ThreadInfo& info : trace.threads) {
        if (info.block >= block_size_.size()) block_size_.resize(size_t(info.block) + 1, 0);
        ++block_size_[info.block];
    }
    exited_.assign(block_size_.size(), 0);
}

void BarrierClock::observe(const trace::Event& event) {
    if (event.thread >= trace_.threads.size()) return;
    const uint32_t block = trace_.threads[event.thread].block;
    switch (event.kind) {
    case EventKind::BarrierArrive:
        ++phases_[PhaseKey{block, uint32_t(event.address), event.value}].arrivals;
        break;
    case EventKind::BarrierLeave: {
        const auto it = phases_.try_emplace(PhaseKey{block, uint32_t(event.address), event.value}).first;
        PhaseState& phase = it->second;
        if (phase.block_wide < 0) {
            // First leave: every arrival of the phase is already recorded.
            phase.block_wide = phase.arrivals + exited_[block] >= block_size_[block] ? 1 : 0;
        }
        if (phase.block_wide == 1) ++epochs_[event.thread];
        // Every waiting thread has left (arrive-only threads never do): the phase is done.
        if (++phase.leaves >= phase.arrivals) phases_.erase(it);
        break;
    }
    case EventKind::Exit:
        if (!has_exited_[event.thread]) {
            has_exited_[event.thread] = 1;
            ++exited_[block];
        }
        break;
    default:
        break;
    }
}

} // namespace synclab::analysis::detail
