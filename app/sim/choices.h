// Choice points (private to app/sim): the places where an execution could go more than one way
// (which warp performs the next memory operation; under the relaxed model, which write a load reads
// and where a store is ordered). The scheduler and the memory system ask a Choices for each one, so
// that one object decides an execution: a seeded stream (random, adversarial) or a replayed prefix
// that an exhaustive exploration extends (explore() in simulator.h).
#pragma once

#include "sim/state.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace synclab::sim {

class Choices {
  public:
    virtual ~Choices() = default;
    // One of `options` (>= 1) choices, in [0, options).
    virtual uint32_t choose(uint32_t options) = 0;
};

// Exhaustive: replays `prefix`, then takes option 0; records each choice point (options, taken).
class ReplayChoices final : public Choices {
  public:
    explicit ReplayChoices(const std::vector<uint32_t>& prefix) : prefix_(prefix) {}
    uint32_t choose(uint32_t options) override {
        if (options <= 1) return 0; // not a choice point
        const size_t i = taken_.size();
        uint32_t pick = i < prefix_.size() ? prefix_[i] : 0;
        if (pick >= options) pick = options - 1; // a prefix from another execution: stay in range
        taken_.emplace_back(options, pick);
        return pick;
    }
    std::vector<std::pair<uint32_t, uint32_t>>& taken() { return taken_; }

  private:
    const std::vector<uint32_t>& prefix_;
    std::vector<std::pair<uint32_t, uint32_t>> taken_;
};

// Random: a seeded stream.
class SeededChoices final : public Choices {
  public:
    explicit SeededChoices(uint64_t seed) : rng_{seed * 0x9e3779b97f4a7c15ull + 0x5eed} {}
    uint32_t choose(uint32_t options) override { return options <= 1 ? 0 : rng_.below(options); }
    Rng& rng() { return rng_; }

  private:
    Rng rng_;
};

} // namespace synclab::sim
