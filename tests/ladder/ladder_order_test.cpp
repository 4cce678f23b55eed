// The simulator ranks the atomics lessons' variants as the H200 did (tests/ladder/data/
// h200_ladders.json, measured with scripts/gpu_session.sh ladder), modelling the H200's 132 SMs at
// the size parameters that make the GPU's time the atomics' rather than its launch overhead.
#include "ladder/ladder_order.h"
#include "scenario/scenario.h"

#include <gtest/gtest-spi.h>
#include <nlohmann/json.hpp>

#include <fstream>

namespace synclab {
namespace {

nlohmann::json recorded() {
    std::ifstream in(SYNCLAB_SOURCE_DIR "/tests/ladder/data/h200_ladders.json");
    return nlohmann::json::parse(in);
}

TEST(LadderOrder, SimulatorRanksTheVariantsAsTheH200Did) {
    const nlohmann::json doc = recorded();
    ASSERT_GE(doc["ladders"].size(), 3u);
    for (const nlohmann::json& l : doc["ladders"]) {
        const std::string id = l["scenario"];
        const scenario::Scenario* s = scenario::find_scenario(id);
        ASSERT_NE(s, nullptr) << id;
        scenario::ParamValues values;
        std::string what = id;
        for (const auto& [name, choice] : l["params"].items()) {
            values.emplace_back(name, choice.get<std::string>());
            what += " " + name + "=" + choice.get<std::string>();
        }
        runner::LadderOptions o;
        o.sm_count = doc["sm_count"];
        const runner::Ladder sim = runner::run_ladder(scenario::with_params(*s, values), o);
        std::map<std::string, double> gpu;
        for (const auto& [variant, ms] : l["kernel_ms"].items())
            gpu[variant] = ms.get<double>();
        for (const runner::LadderRung& r : sim.rungs)
            EXPECT_EQ(r.wrong_outputs, 0u) << what << " " << r.variant;
        testing::expect_same_order(gpu, testing::rung_times(sim), doc["tie_ratio"], what);
    }
}

// The comparison itself can fail: a simulator that swapped two clearly different rungs is caught,
// and GPU ties are no claim either way.
TEST(LadderOrder, TheComparisonCatchesASwapAndIgnoresTies) {
    const std::map<std::string, double> gpu = {{"a", 1.0}, {"b", 0.5}, {"c", 0.48}};
    EXPECT_NONFATAL_FAILURE(testing::expect_same_order(gpu, {{"a", 10}, {"b", 20}, {"c", 5}}, 1.15, "swap"),
                            "slower than");
    testing::expect_same_order(gpu, {{"a", 30}, {"b", 10}, {"c", 11}}, 1.15, "tie"); // b, c: a tie
}

} // namespace
} // namespace synclab
