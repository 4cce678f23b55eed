// ctest label `gpu`: the same comparison as ladder_order_test, against ladders measured here and now
// (skipped without a GPU): each recorded ladder's scenario and parameters, on this GPU (median of
// 20 untraced launches) and on the simulator modelling this GPU's SM count.
#include "gpu/require_gpu.h"
#include "ladder/ladder_order.h"
#include "scenario/scenario.h"

#include <nlohmann/json.hpp>

#include <fstream>

namespace synclab {
namespace {

TEST(LadderOrderGpu, SimulatorRanksTheVariantsAsThisGpuDoes) {
    REQUIRE_GPU();
    std::ifstream in(SYNCLAB_SOURCE_DIR "/tests/ladder/data/h200_ladders.json");
    const nlohmann::json doc = nlohmann::json::parse(in);
    for (const nlohmann::json& l : doc["ladders"]) {
        const scenario::Scenario* s = scenario::find_scenario(l["scenario"].get<std::string>());
        ASSERT_NE(s, nullptr);
        scenario::ParamValues values;
        std::string what = s->id;
        for (const auto& [name, choice] : l["params"].items()) {
            values.emplace_back(name, choice.get<std::string>());
            what += " " + name + "=" + choice.get<std::string>();
        }
        const scenario::Scenario chosen = scenario::with_params(*s, values);
        runner::LadderOptions g;
        g.backend = "gpu";
        g.reps = 20;
        g.run = [&](const scenario::Variant& v, runner::RunOptions o) {
            o.gpu.worker = SYNCLAB_GPU_WORKER;
            return runner::run_scenario(chosen, v, o);
        };
        const runner::Ladder gpu = runner::run_ladder(chosen, g);
        runner::LadderOptions o;
        o.sm_count = doc["sm_count"]; // the H200's; the comparison is only as good as this match
        const runner::Ladder sim = runner::run_ladder(chosen, o);
        for (const runner::LadderRung& r : gpu.rungs)
            std::printf("%s %s: GPU %.4f ms\n", what.c_str(), r.variant.c_str(), r.time);
        testing::expect_same_order(testing::rung_times(gpu), testing::rung_times(sim), doc["tie_ratio"], what);
    }
}

} // namespace
} // namespace synclab
