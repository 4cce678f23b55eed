// The scenario catalog: every lesson is a kernel file (kernels/NAME.cu, one extern "C" kernel per
// variant) + a launch shape + an input generator + a CPU reference + the verdict each variant must
// give + lesson text in English and Simplified Chinese. The catalog knows nothing of how kernels run.
#pragma once

#include "launch/launch.h"

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace synclab::scenario {

// What a variant must show, checked by the verdict tests and shown as badges in the app.
struct Expectation {
    std::vector<std::string>
        must_find; // finding kinds: "race", "barrier_divergence", "lost_update", "deadlock"
    std::vector<std::string> must_not_find; // kinds that must not appear
    bool wrong_outputs_possible = false;    // wrong outputs expected under random/adversarial schedules
    bool always_correct = false;            // 0 wrong outputs under every schedule and seed
    std::string status = "ok";              // expected run status in the simulator
};

struct LessonText {
    std::string title;   // one line
    std::string shows;   // what the scenario/variant shows
    std::string predict; // the question to ask before running
    std::string look_at; // what to look at in the results
    std::string fix;     // how to fix it (or why it is already right)
};

struct Variant {
    std::string id;     // CLI contract, e.g. "missing_barrier"
    std::string kernel; // PTX entry name, e.g. "stencil_missing_barrier"
    Expectation expect;
    LessonText en, zh; // per-variant notes (title + shows/look_at; predict/fix where they differ)
};

using launch::Inputs;

struct CheckResult {
    uint64_t wrong = 0;
    uint64_t checked = 0;
    std::string summary; // e.g. "counter = 12345, expected 16384"
};

struct Scenario {
    std::string id;          // CLI contract, e.g. "stencil"
    std::string topic;       // "barriers", "warps", "fences", "atomics"
    std::string source_file; // "stencil.cu" (also "stencil.ptx" embedded)
    launch::LaunchConfig launch;
    LessonText en, zh; // the lesson as a whole
    std::vector<Variant> variants;
    // Builds the inputs for a run; the same seed gives the same inputs.
    std::function<Inputs(uint64_t seed)> make_inputs;
    // Compares the buffers after the run with the CPU reference computed from `before`.
    std::function<CheckResult(const Inputs& before, const std::vector<launch::Buffer>& after)> check;

    const Variant* find_variant(std::string_view variant_id) const;
    std::string_view cuda_source() const; // embedded kernels/<source_file>
    std::string_view ptx_source() const;  // embedded PTX of it
};

const std::vector<Scenario>& catalog();
const Scenario* find_scenario(std::string_view id);

} // namespace synclab::scenario
