// Whether two ladders rank a scenario's variants alike: the test shared by ladder_order_test (the
// simulator against the recorded H200 ladders) and ladder_order_gpu_test (against the GPU here).
#pragma once

#include "runner/ladder.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

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

} // namespace synclab::testing
