// The residency model (residency.h): the smallest of the per-SM limits, and which one it is.
#include "sim/residency.h"

#include <algorithm>

namespace synclab::sim {

namespace {

constexpr uint32_t kWarp = 32;

} // namespace

const char* to_string(Residency::Limit limit) {
    switch (limit) {
    case Residency::Limit::Threads:
        return "threads per SM";
    case Residency::Limit::Blocks:
        return "blocks per SM";
    case Residency::Limit::Shared:
        return "shared memory per SM";
    case Residency::Limit::Registers:
        return "registers per SM";
    }
    return "?";
}

Residency::Residency(uint32_t threads_per_block, uint32_t shared_bytes_per_block, uint32_t registers_per_thread,
                     uint32_t sm_count, const SmLimits& limits)
    : sm_count_(std::max<uint32_t>(sm_count, 1)) {
    // The hardware hands out whole warps: a 48-thread block takes 64 threads' worth of slots.
    const uint64_t warp_threads = uint64_t(std::max<uint32_t>((threads_per_block + kWarp - 1) / kWarp, 1)) * kWarp;
    struct Candidate {
        uint64_t blocks;
        Limit limit;
    };
    const uint64_t shared = uint64_t(shared_bytes_per_block) + limits.reserved_shared_per_block;
    const uint64_t registers = uint64_t(std::max<uint32_t>(registers_per_thread, 1)) * warp_threads;
    // In order of preference when two limits give the same count: threads is the one people know.
    const Candidate candidates[] = {
        {limits.threads / warp_threads, Limit::Threads},
        {limits.blocks, Limit::Blocks},
        {limits.shared_bytes / shared, Limit::Shared},
        {limits.registers / registers, Limit::Registers},
    };
    uint64_t best = UINT64_MAX;
    for (const Candidate& c : candidates)
        if (c.blocks < best) {
            best = c.blocks;
            limit_ = c.limit;
        }
    per_sm_ = static_cast<uint32_t>(best);
}

std::string Residency::explain() const {
    return std::to_string(sm_count_) + (sm_count_ == 1 ? " SM x " : " SMs x ") + std::to_string(per_sm_) +
           (per_sm_ == 1 ? " block per SM" : " blocks per SM") + ", limited by " + to_string(limit_);
}

std::string Residency::cooperative_problem(uint64_t blocks, uint32_t threads) const {
    if (blocks <= total()) return "";
    return "too many blocks in cooperative launch: " + std::to_string(blocks) +
           (blocks == 1 ? " block of " : " blocks of ") + std::to_string(threads) +
           (threads == 1 ? " thread" : " threads") + ", at most " + std::to_string(total()) + " fit at once (" +
           explain() + "); nothing ran (the driver's cudaErrorCooperativeLaunchTooLarge). Had it started, the " +
           "resident blocks would wait at grid.sync() forever for blocks that could not start";
}

SmSlots::SmSlots(uint32_t sm_count, uint32_t per_sm) : per_sm_(per_sm), used_(std::max<uint32_t>(sm_count, 1), 0) {}

uint32_t SmSlots::take() {
    const uint32_t n = static_cast<uint32_t>(used_.size());
    uint32_t best = UINT32_MAX;
    for (uint32_t k = 0; k < n; ++k) {
        const uint32_t sm = (next_ + k) % n;
        if (used_[sm] < per_sm_ && (best == UINT32_MAX || used_[sm] < used_[best])) best = sm;
    }
    if (best != UINT32_MAX) {
        ++used_[best];
        next_ = (best + 1) % n;
    }
    return best;
}

void SmSlots::release(uint32_t sm) {
    if (sm < used_.size() && used_[sm] > 0) --used_[sm];
}

} // namespace synclab::sim
