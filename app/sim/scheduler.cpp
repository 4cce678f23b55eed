#include "sim/scheduler.h"

namespace synclab::sim {

const char* to_string(WarpModel model) { return model == WarpModel::Lockstep ? "lockstep" : "its"; }

bool parse_warp_model(const std::string& text, WarpModel& out) {
    if (text == "its")
        out = WarpModel::Its;
    else if (text == "lockstep")
        out = WarpModel::Lockstep;
    else
        return false;
    return true;
}

Pick RoundRobinScheduler::pick(const WarpSet& warps) {
    const size_t n = warps.size();
    size_t w = cursor_ < n ? cursor_ : 0;
    for (size_t i = 0; i < n; ++i) {
        if (warps.runnable(w)) {
            cursor_ = w + 1 == n ? 0 : w + 1;
            return {w, 1};
        }
        w = w + 1 == n ? 0 : w + 1;
    }
    return {};
}

void RoundRobinScheduler::resident_changed(const WarpSet& warps) {
    cursor_ = warps.size() == 0 ? 0 : cursor_ % warps.size();
}

Pick RandomScheduler::pick(const WarpSet& warps) {
    const size_t n = warps.size();
    if (n == 0) return {};
    size_t w = rng_.below(static_cast<uint32_t>(n));
    for (size_t i = 0; i < n; ++i) {
        if (warps.runnable(w)) return {w, 1 + rng_.below(8)};
        w = w + 1 == n ? 0 : w + 1;
    }
    return {};
}

Hold RandomScheduler::random_split(const Group& group, uint32_t one_in, uint32_t max_steps) {
    if (split_rng_.below(one_in) != 0) return {};
    // Either a random subset of the lanes or the lanes on one side of a random lane: both shapes
    // occur on hardware (the scheduler picks lanes, and diverged halves drift apart).
    const uint64_t r = split_rng_.next();
    uint32_t held = group.mask;
    if (r & 1) {
        held &= static_cast<uint32_t>(r >> 32);
    } else {
        const uint32_t cut = 1 + static_cast<uint32_t>((r >> 1) % 31);
        held &= (r & 2) ? (~0u << cut) : ~(~0u << cut);
    }
    if (held == 0 || held == group.mask) return {};
    return {held, 1 + split_rng_.below(max_steps)};
}

Hold RandomScheduler::split(const Warp& warp, const Group& group, const ptx::Instruction& in) {
    (void)warp, (void)in;
    return random_split(group, 8, 16);
}

Hold AdversarialScheduler::split(const Warp& warp, const Group& group, const ptx::Instruction& in) {
    (void)warp, (void)in;
    return random_split(group, 4, 32);
}

bool AdversarialScheduler::is_victim(const Warp& warp) const {
    // A fixed, seed-dependent half of the warps.
    Rng pick{seed_ ^ (uint64_t(warp.block->linear) << 20) ^ warp.index ^ 0xadull};
    return (pick.next() & 1) != 0;
}

// policy_state counts the delays in a row of a victim warp.
bool AdversarialScheduler::wants_delay(const WarpSet& warps, size_t i) const {
    Warp& warp = warps[i];
    if (!is_victim(warp)) return false;
    if (warp.policy_state >= kMaxDelays) {
        warp.policy_state = 0;
        return false;
    }
    const ptx::Instruction* in = warps.next_instruction(i);
    const bool shared_access = in && ptx::is_memory_access(in->op) &&
                               (in->space == ptx::Space::Shared || in->space == ptx::Space::Generic);
    if (!shared_access) return false;
    ++warp.policy_state;
    return true;
}

Pick AdversarialScheduler::pick(const WarpSet& warps) {
    const size_t n = warps.size();
    if (n == 0) return {};
    size_t w = rng_.below(static_cast<uint32_t>(n));
    size_t fallback = Pick::kNone;
    for (size_t i = 0; i < n; ++i, w = w + 1 == n ? 0 : w + 1) {
        if (!warps.runnable(w)) continue;
        if (wants_delay(warps, w)) {
            if (fallback == Pick::kNone) fallback = w;
            continue;
        }
        return {w, 1 + rng_.below(4)};
    }
    // Every runnable warp wants a delay: run one anyway.
    if (fallback == Pick::kNone) return {};
    return {fallback, 1 + rng_.below(4)};
}

bool ExhaustiveScheduler::is_visible(const ptx::Instruction& in) {
    if (ptx::is_fence(in.op)) return true;
    if (!ptx::is_memory_access(in.op)) return false;
    return in.space != ptx::Space::Local && in.space != ptx::Space::Param;
}

Pick ExhaustiveScheduler::pick(const WarpSet& warps) {
    const size_t n = warps.size();
    visible_.clear();
    for (size_t w = 0; w < n; ++w) {
        if (!warps.runnable(w)) continue;
        const ptx::Instruction* in = warps.next_instruction(w);
        if (!in || !is_visible(*in)) return {w, 1}; // commutes: no choice
        visible_.push_back(w);
    }
    if (visible_.empty()) return {};
    return {visible_[choices_.choose(static_cast<uint32_t>(visible_.size()))], 1};
}

std::unique_ptr<Scheduler> make_scheduler(Schedule schedule, uint64_t seed, Choices* choices) {
    switch (schedule) {
    case Schedule::RoundRobin:
        return std::make_unique<RoundRobinScheduler>();
    case Schedule::Random:
        return std::make_unique<RandomScheduler>(seed);
    case Schedule::Adversarial:
        return std::make_unique<AdversarialScheduler>(seed);
    case Schedule::Exhaustive:
        if (choices) return std::make_unique<ExhaustiveScheduler>(*choices);
        break;
    }
    return std::make_unique<RoundRobinScheduler>();
}

} // namespace synclab::sim
