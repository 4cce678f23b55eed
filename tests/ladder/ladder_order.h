// Whether two ladders rank a scenario's variants alike: the test shared by ladder_order_test (the
// simulator against the recorded H200 ladders) and ladder_order_gpu_test (against the GPU here).
#pragma once

#include "runner/ladder.h"
#include "scenario/scenario.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <map>
#include <string>
#include <vector>

namespace synclab::testing {

// variant -> time, from a ladder's timed rungs.
inline std::map<std::string, double> rung_times(const runner::Ladder& ladder) {
    std::map<std::string, double> out;
    for (const runner::LadderRung& r : ladder.rungs)
        if (r.timed) out[r.variant] = r.time;
    return out;
}

// Every pair of variants the GPU tells apart (the slower at least `tie_ratio` times the faster) is
// in the same order in the simulator. Pairs closer than that are ties on the GPU (launch-to-launch
// noise is ~5-10%): the simulator may order them either way. `what` names the ladder in messages.
inline void expect_same_order(const std::map<std::string, double>& gpu, const std::map<std::string, double>& sim,
                              double tie_ratio, const std::string& what) {
    int ordered_pairs = 0;
    for (const auto& [a, ga] : gpu)
        for (const auto& [b, gb] : gpu) {
            if (!(ga >= tie_ratio * gb)) continue; // a is not clearly slower than b on the GPU
            ASSERT_TRUE(sim.count(a) && sim.count(b)) << what << ": the simulator did not time " << a << " and " << b;
            ++ordered_pairs;
            EXPECT_GT(sim.at(a), sim.at(b)) << what << ": on the GPU " << a << " (" << ga << ") is "
                                            << ga / gb << "x slower than " << b << " (" << gb
                                            << "), the simulator has " << sim.at(a) << " vs " << sim.at(b) << " cycles";
        }
    EXPECT_GT(ordered_pairs, 0) << what << ": the GPU times tell no variants apart: nothing to compare";
}

// One ladder of tests/ladder/data/h200_ladders.json: the lesson with its parameters, and the H200's
// median kernel time per variant: measured with the lesson's kernels (recorded), or expected from
// GPU_FACTS.md's probe kernels until someone records it (the file says how).
struct RecordedLadder {
    scenario::Scenario scenario; // with_params applied
    std::string what;            // "atomic_counter threads=1048576 (expected)", for messages
    std::map<std::string, double> gpu_ms;
    bool recorded = false;
};
struct RecordedLadders {
    uint32_t sm_count = 0;
    double tie_ratio = 0;
    std::vector<RecordedLadder> ladders;
};

inline RecordedLadders recorded_ladders() {
    std::ifstream in(SYNCLAB_SOURCE_DIR "/tests/ladder/data/h200_ladders.json");
    const nlohmann::json doc = nlohmann::json::parse(in);
    RecordedLadders out;
    out.sm_count = doc["sm_count"];
    out.tie_ratio = doc["tie_ratio"];
    for (const nlohmann::json& l : doc["ladders"]) {
        const std::string id = l["scenario"];
        const scenario::Scenario* s = scenario::find_scenario(id);
        if (s == nullptr) throw std::runtime_error("h200_ladders.json: no lesson " + id);
        RecordedLadder r;
        r.what = id;
        scenario::ParamValues values;
        for (const auto& [name, choice] : l["params"].items()) {
            values.emplace_back(name, choice.get<std::string>());
            r.what += " " + name + "=" + choice.get<std::string>();
        }
        r.scenario = scenario::with_params(*s, values);
        r.recorded = l.value("recorded", false);
        if (!r.recorded) r.what += " (expected, not yet recorded)";
        for (const auto& [variant, ms] : l["kernel_ms"].items())
            r.gpu_ms[variant] = ms.get<double>();
        out.ladders.push_back(std::move(r));
    }
    return out;
}

} // namespace synclab::testing
