#include "analysis/happens_before.h"

#include <algorithm>
#include <bit>

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
    case EventKind::WarpCollective:
        if (static_cast<trace::Collective>(event.flags & trace::flag::kCollectiveMask) ==
            trace::Collective::WarpSync)
            warp_sync(event);
        break;
    case EventKind::Exit:
        if (!has_exited_[event.thread]) {
            has_exited_[event.thread] = 1;
            ++exited_[block];
            if (!warp_of_.empty()) lane_exited(event.thread);
        }
        break;
    default:
        break;
    }
}

uint32_t BarrierClock::knows(uint32_t by, uint32_t of) const {
    if (!same_warp(by, of)) return 0; // warp edges order lanes of one warp only
    const auto it = warp_of_.find(warp_key(by));
    if (it == warp_of_.end()) return 0;
    const WarpClocks& w = it->second;
    return w.row(trace_.threads[by].lane)[trace_.threads[of].lane];
}

// A lane of a warp that synced has exited: once all have, nothing asks for the warp's clocks (a
// thread's accesses come before its exit).
void BarrierClock::lane_exited(uint32_t thread) {
    const auto it = warp_of_.find(warp_key(thread));
    if (it == warp_of_.end()) return;
    WarpClocks& w = it->second;
    w.exited |= 1u << trace_.threads[thread].lane;
    if ((w.exited & w.present) == w.present) warp_of_.erase(it);
}

// One member lane's WarpSync event: gather the meeting's members; when the last one is seen, each
// member completes a sync and learns what every other member knew.
void BarrierClock::warp_sync(const trace::Event& event) {
    if (syncs_.empty()) syncs_.assign(trace_.threads.size(), 0);
    const trace::ThreadInfo& info = trace_.threads[event.thread];
    auto [it, fresh] = warp_of_.try_emplace(warp_key(event.thread));
    WarpClocks& w = it->second;
    if (fresh) {
        w.first_thread = event.thread - info.lane;
        for (uint32_t l = 0; l < 32; ++l) {
            const uint32_t t = w.first_thread + l;
            if (t < trace_.threads.size() && trace_.threads[t].block == info.block && trace_.threads[t].warp == info.warp) {
                w.present |= 1u << l;
                if (has_exited_[t]) w.exited |= 1u << l;
            }
        }
    }
    const uint32_t members = uint32_t(event.address) & w.present;
    uint32_t* seen = nullptr;
    for (auto& [mask, lanes] : w.gathering)
        if (mask == members && !((lanes >> info.lane) & 1)) {
            seen = &lanes;
            break;
        }
    if (!seen) {
        w.gathering.emplace_back(members, 0u);
        seen = &w.gathering.back().second;
    }
    *seen |= 1u << info.lane;
    if ((*seen & members) != members) return;
    // The meeting is complete: join.
    WarpClocks::Row joined{};
    for (uint32_t m = members; m; m &= m - 1) {
        const uint32_t l = static_cast<uint32_t>(std::countr_zero(m));
        ++syncs_[w.first_thread + l];
        const WarpClocks::Row& row = w.row(l);
        for (uint32_t k = 0; k < 32; ++k)
            joined[k] = std::max(joined[k], row[k]);
    }
    for (uint32_t m = members; m; m &= m - 1) {
        const uint32_t l = static_cast<uint32_t>(std::countr_zero(m));
        joined[l] = syncs_[w.first_thread + l];
    }
    if (!w.rows && members == w.present) {
        w.shared = joined; // still one row for all
    } else {
        if (!w.rows) {
            w.rows = std::make_unique<std::array<WarpClocks::Row, 32>>();
            w.rows->fill(w.shared);
        }
        for (uint32_t m = members; m; m &= m - 1)
            (*w.rows)[std::countr_zero(m)] = joined;
    }
    w.gathering.erase(std::find_if(w.gathering.begin(), w.gathering.end(),
                                   [&](const auto& g) { return &g.second == seen; }));
}

} // namespace synclab::analysis::detail
