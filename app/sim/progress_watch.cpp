// The progress watch and the spin detector (progress_watch.h).
#include "sim/progress_watch.h"

#include "sim/atomic_ops.h"
#include "sim/memory.h"

#include <algorithm>
#include <bit>

namespace synclab::sim {

// [SECTION] WatchedMemory ============================================================================

// A store counts when it writes a value its location does not already hold (under the relaxed model
// the backing bytes may be older than the thread's own buffered store: then it counts anyway, which
// only makes the detector wait longer).
void WatchedMemory::store(WarpAccess& a) {
    for (uint32_t m = a.mask; m; m &= m - 1) {
        const uint32_t l = static_cast<uint32_t>(std::countr_zero(m));
        const uint64_t keep = a.size >= 8 ? ~0ull : (1ull << (8 * a.size)) - 1;
        if ((a.value[l] & keep) != load_bytes(a.host[l], a.size)) {
            ++progress_;
            break;
        }
    }
    inner_->store(a);
}

// An atomic counts when its operation changed the value it read (atomicAdd(&x, 0), a failed CAS and
// an atomicMax below the value do not).
void WatchedMemory::atomic(WarpAccess& a) {
    uint64_t b[kWarpSize], c[kWarpSize];
    for (uint32_t m = a.mask; m; m &= m - 1) {
        const uint32_t l = static_cast<uint32_t>(std::countr_zero(m));
        b[l] = a.value[l];
        c[l] = a.operand_c[l];
    }
    inner_->atomic(a); // value[] now holds the old values
    for (uint32_t m = a.mask; m; m &= m - 1) {
        const uint32_t l = static_cast<uint32_t>(std::countr_zero(m));
        uint64_t result = a.value[l];
        apply_atomic(a.type, a.atom_op, a.value[l], b[l], c[l], result);
        const uint64_t keep = a.size >= 8 ? ~0ull : (1ull << (8 * a.size)) - 1;
        if ((result & keep) != (a.value[l] & keep)) {
            ++progress_;
            break;
        }
    }
}

// [SECTION] SpinDetector =============================================================================

void SpinDetector::reset(uint64_t progress) {
    progress_ = progress;
    samples_ = 0;
    warps_.clear();
    seen_.clear();
    repeated_.clear();
}

// FNV-1a over 64-bit words: what matters is that two different states almost never collide; a
// collision could only end a run early, and then every warp would have to collide at once.
uint64_t SpinDetector::hash(const Warp& w, uint32_t slots) {
    uint64_t h = 1469598103934665603ull;
    auto mix = [&h](uint64_t v) {
        h ^= v;
        h *= 1099511628211ull;
    };
    mix(w.ready_mask);
    mix(w.exited_mask);
    mix(w.aligned_mask);
    mix(w.uniform ? w.upc : UINT64_MAX);
    const uint32_t live = w.live_mask();
    for (uint32_t l = 0; l < kWarpSize; ++l) {
        mix(static_cast<uint64_t>(w.state[l]));
        if (!((live >> l) & 1u)) continue;
        if (!w.uniform || !((w.ready_mask >> l) & 1u)) mix(w.pc[l]);
    }
    for (uint32_t s = 0; s < slots; ++s) {
        const uint64_t* row = w.regs + size_t(s) * kWarpSize;
        for (uint32_t m = live; m; m &= m - 1)
            mix(row[std::countr_zero(m)]);
    }
    return h;
}

bool SpinDetector::sample(const std::vector<Warp*>& warps, uint32_t slots, uint64_t progress) {
    // Any progress, or a different set of resident warps: a new quiet stretch starts here.
    const bool same_warps =
        warps.size() == warps_.size() && std::equal(warps.begin(), warps.end(), warps_.begin());
    if (progress != progress_ || !same_warps) {
        reset(progress);
        warps_.assign(warps.begin(), warps.end());
        seen_.assign(warps.size(), {});
        repeated_.assign(warps.size(), 0);
    }
    ++samples_;
    bool all = !warps.empty();
    for (size_t i = 0; i < warps.size(); ++i) {
        if (!repeated_[i]) {
            const uint64_t h = hash(*warps[i], slots);
            std::vector<uint64_t>& seen = seen_[i];
            if (std::find(seen.begin(), seen.end(), h) != seen.end())
                repeated_[i] = 1;
            else
                seen.push_back(h);
        }
        all = all && repeated_[i];
    }
    return all;
}

} // namespace synclab::sim
