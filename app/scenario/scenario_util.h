// Private helpers of the scenario library: a portable seeded generator, typed views of launch::Buffer
// bytes, and the output comparison every scenario's check uses.
#pragma once

#include "scenario/scenario.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

namespace synclab::scenario::detail {

// SplitMix64: the same numbers on every platform and standard library (std:: distributions are not).
class Rng {
  public:
    explicit Rng(uint64_t seed) : state_(seed) {}
    uint64_t next() {
        uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    // Uniform in [lo, hi] (inclusive); hi - lo is small, so the modulo bias is negligible.
    int32_t range(int32_t lo, int32_t hi) {
        return lo + static_cast<int32_t>(next() % static_cast<uint64_t>(int64_t(hi) - lo + 1));
    }

  private:
    uint64_t state_;
};

// Each scenario mixes its own constant into the seed, so that two scenarios never share inputs.
inline uint64_t mix_seed(uint64_t seed, uint64_t scenario_salt) {
    return seed * 0xd1342543de82ef95ull + scenario_salt;
}

template <typename T> launch::Buffer make_buffer(std::string name, const std::vector<T>& values) {
    static_assert(std::is_trivially_copyable_v<T>);
    launch::Buffer buffer{std::move(name), std::vector<uint8_t>(values.size() * sizeof(T))};
    if (!values.empty()) std::memcpy(buffer.bytes.data(), values.data(), buffer.bytes.size());
    return buffer;
}

template <typename T> std::vector<T> read_buffer(const launch::Buffer& buffer) {
    static_assert(std::is_trivially_copyable_v<T>);
    std::vector<T> values(buffer.bytes.size() / sizeof(T));
    if (!values.empty()) std::memcpy(values.data(), buffer.bytes.data(), values.size() * sizeof(T));
    return values;
}

inline uint64_t f32_bits(float value) {
    uint32_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    return bits;
}

// The buffer `index` of a run's results, or nullptr when the run did not give it back.
inline const launch::Buffer* result_buffer(const std::vector<launch::Buffer>& after, size_t index) {
    return index < after.size() ? &after[index] : nullptr;
}

std::string format_value(int32_t value);
std::string format_value(float value);

// Compares `got` with `expected` element by element (exact equality: the scenarios use values whose
// arithmetic is exact). A missing or short output buffer counts every missing element as wrong.
// Summary: "all N outputs match the CPU reference" or "W of N outputs wrong; first: NAME[i] = got,
// expected e".
template <typename T>
CheckResult compare_outputs(const std::vector<T>& expected, const launch::Buffer* got_buffer,
                            const std::string& name) {
    CheckResult result;
    result.checked = expected.size();
    if (got_buffer == nullptr) {
        result.wrong = expected.size();
        result.summary =
            "output buffer " + name + " missing: " + std::to_string(expected.size()) + " outputs unchecked";
        return result;
    }
    const std::vector<T> got = read_buffer<T>(*got_buffer);
    size_t first = expected.size();
    for (size_t i = 0; i < expected.size(); ++i) {
        if (i < got.size() && std::memcmp(&got[i], &expected[i], sizeof(T)) == 0) continue;
        if (first == expected.size()) first = i;
        ++result.wrong;
    }
    if (result.wrong == 0) {
        result.summary = "all " + std::to_string(result.checked) + " outputs match the CPU reference";
    } else {
        result.summary = std::to_string(result.wrong) + " of " + std::to_string(result.checked) +
                         " outputs wrong; first: " + name + "[" + std::to_string(first) +
                         "] = " + (first < got.size() ? format_value(got[first]) : std::string("(missing)")) +
                         ", expected " + format_value(expected[first]);
    }
    return result;
}

// One factory per scenario (scenario_<id>.cpp); catalog() lists them in teaching order.
Scenario make_stencil();
Scenario make_divergent_barrier();
Scenario make_loop_barrier();
Scenario make_lost_update();

// Finding kinds, spelled as analysis::to_string(FindingKind) spells them.
inline const std::vector<std::string> kAllFindings = {"race", "barrier_divergence", "lost_update",
                                                      "deadlock"};

// A clean variant: no finding of any kind, exact outputs under every schedule.
inline Expectation expect_clean() {
    Expectation e;
    e.must_not_find = kAllFindings;
    e.always_correct = true;
    return e;
}

} // namespace synclab::scenario::detail
