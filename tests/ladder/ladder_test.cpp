// run_ladder: times and ratios per variant from the runs it is given, the baseline, the words, and
// the "not modelled" case of a simulator without a cost model; then a real ladder of a lesson.
#include "runner/ladder.h"

#include <gtest/gtest.h>

#include <map>

namespace {

using namespace synclab;

// A scenario with these variant ids (only ids and titles matter to run_ladder with a fake run).
scenario::Scenario fake_scenario(const std::vector<std::string>& ids) {
    scenario::Scenario s;
    s.id = "fake";
    for (const std::string& id : ids) {
        scenario::Variant v;
        v.id = id;
        v.en.title = "title of " + id;
        s.variants.push_back(v);
    }
    return s;
}

// A fake run: each variant's modelled cycles (sim) or kernel time (gpu) from the map.
runner::LadderOptions with_times(std::map<std::string, double> times, std::string backend = "sim",
                                 std::vector<runner::RunOptions>* seen = nullptr) {
    runner::LadderOptions o;
    o.backend = backend;
    o.run = [times, backend, seen](const scenario::Variant& v, const runner::RunOptions& ro) {
        if (seen) seen->push_back(ro);
        runner::RunSummary s;
        s.device = backend == "gpu" ? "Fake GPU" : "SyncLab simulator";
        if (backend == "gpu") {
            s.kernel_ms = times.at(v.id);
            s.gpu_untraced.ran = true;
            s.gpu_untraced.kernel_ms = s.kernel_ms;
            s.gpu_untraced.kernel_ms_min = s.kernel_ms * 0.9;
            s.gpu_untraced.kernel_ms_max = s.kernel_ms * 1.2;
        } else {
            s.modelled_cycles = uint64_t(times.at(v.id));
        }
        return s;
    };
    return o;
}

TEST(Ladder, RatiosAreToTheFirstVariant) {
    const auto s = fake_scenario({"one_address", "warp_aggregated", "block_hierarchical"});
    const runner::Ladder l =
        runner::run_ladder(s, with_times({{"one_address", 80000}, {"warp_aggregated", 4000}, {"block_hierarchical", 1000}}));
    ASSERT_EQ(l.rungs.size(), 3u);
    EXPECT_EQ(l.unit, "cycles");
    EXPECT_EQ(l.baseline, "one_address");
    EXPECT_FALSE(l.not_modelled);
    EXPECT_DOUBLE_EQ(l.rungs[0].ratio, 1.0);
    EXPECT_DOUBLE_EQ(l.rungs[1].ratio, 0.05);
    EXPECT_DOUBLE_EQ(l.rungs[2].ratio, 1000.0 / 80000.0);
    EXPECT_DOUBLE_EQ(l.max_time(), 80000);
    EXPECT_EQ(runner::ratio_words(l.rungs[0], true), "1.0x (baseline)");
    EXPECT_EQ(runner::ratio_words(l.rungs[1], false), "20.0x faster");
    EXPECT_EQ(l.rungs[2].title, "title of block_hierarchical");
}

TEST(Ladder, SlowerAndAboutTheSameHaveTheirWords) {
    const auto s = fake_scenario({"a", "b", "c"});
    const runner::Ladder l = runner::run_ladder(s, with_times({{"a", 1000}, {"b", 2500}, {"c", 1020}}));
    EXPECT_EQ(runner::ratio_words(l.rungs[1], false), "2.5x slower");
    EXPECT_EQ(runner::ratio_words(l.rungs[2], false), "0.98x (about the same)");
}

TEST(Ladder, ZeroCyclesEverywhereIsNotModelled) {
    const auto s = fake_scenario({"a", "b"});
    const runner::Ladder l = runner::run_ladder(s, with_times({{"a", 0}, {"b", 0}}));
    EXPECT_TRUE(l.not_modelled);
    EXPECT_TRUE(l.baseline.empty());
    for (const runner::LadderRung& r : l.rungs) {
        EXPECT_FALSE(r.timed) << r.variant;
        EXPECT_EQ(r.ratio, 0) << r.variant;
        EXPECT_NE(r.message.find("not modelled"), std::string::npos) << r.message;
        EXPECT_EQ(runner::ratio_words(r, false), "not timed");
    }
    EXPECT_EQ(l.max_time(), 0);
}

TEST(Ladder, AnUntimedFirstRungHandsTheBaselineOn) {
    const auto s = fake_scenario({"a", "b", "c"});
    const runner::Ladder l = runner::run_ladder(s, with_times({{"a", 0}, {"b", 400}, {"c", 100}}));
    EXPECT_FALSE(l.not_modelled); // some rungs were modelled
    EXPECT_EQ(l.baseline, "b");
    EXPECT_FALSE(l.rungs[0].timed);
    EXPECT_DOUBLE_EQ(l.rungs[2].ratio, 0.25);
}

TEST(Ladder, GpuRungsAreUntracedMediansOfReps) {
    const auto s = fake_scenario({"a", "b"});
    std::vector<runner::RunOptions> seen;
    runner::LadderOptions o = with_times({{"a", 2.0}, {"b", 0.5}}, "gpu", &seen);
    o.reps = 7;
    const runner::Ladder l = runner::run_ladder(s, o);
    EXPECT_EQ(l.unit, "ms");
    EXPECT_EQ(l.reps, 7u);
    EXPECT_EQ(l.device, "Fake GPU");
    ASSERT_EQ(seen.size(), 2u);
    for (const runner::RunOptions& ro : seen) {
        EXPECT_EQ(ro.backend, "gpu");
        EXPECT_EQ(ro.reps, 7u);
        EXPECT_FALSE(ro.gpu.traced) << "a traced launch would time the instrumentation";
        EXPECT_TRUE(ro.gpu.untraced);
    }
    EXPECT_DOUBLE_EQ(l.rungs[1].ratio, 0.25);
    EXPECT_DOUBLE_EQ(l.rungs[1].time_max, 0.6);
    EXPECT_DOUBLE_EQ(l.max_time(), 2.4); // the slowest launch of the first rung
}

TEST(Ladder, SimulatorRungsAreOneRunEach) {
    const auto s = fake_scenario({"a"});
    std::vector<runner::RunOptions> seen;
    runner::LadderOptions o = with_times({{"a", 10}}, "sim", &seen);
    o.reps = 50; // ignored: the model is deterministic
    runner::run_ladder(s, o);
    ASSERT_EQ(seen.size(), 1u);
    EXPECT_EQ(seen[0].reps, 1u);
    EXPECT_EQ(seen[0].schedule, sim::Schedule::RoundRobin);
}

TEST(Ladder, AFailedRunIsARungWithoutATime) {
    const auto s = fake_scenario({"a", "b"});
    runner::LadderOptions o;
    o.run = [](const scenario::Variant& v, const runner::RunOptions&) {
        runner::RunSummary r;
        r.modelled_cycles = 500;
        if (v.id == "b") {
            r.status = trace::RunStatus::Budget;
            r.message = "step budget exhausted at line 12";
        }
        return r;
    };
    const runner::Ladder l = runner::run_ladder(s, o);
    EXPECT_TRUE(l.rungs[0].timed);
    EXPECT_FALSE(l.rungs[1].timed);
    EXPECT_NE(l.rungs[1].message.find("line 12"), std::string::npos) << l.rungs[1].message;
}

TEST(Ladder, BadRequestsAreRefused) {
    const auto s = fake_scenario({"a"});
    runner::LadderOptions o = with_times({{"a", 1}});
    o.backend = "tpu";
    EXPECT_THROW(runner::run_ladder(s, o), runner::RequestError);
    o.backend = "gpu";
    o.reps = 0;
    EXPECT_THROW(runner::run_ladder(s, o), runner::RequestError);
    EXPECT_THROW(runner::run_ladder(fake_scenario({}), with_times({})), runner::RequestError);
}

// A real lesson with atomics, on the simulator: every variant runs and is checked; it is "not
// modelled" exactly when no rung got modelled cycles (a simulator without the cost model).
TEST(Ladder, RealLessonRunsEveryVariant) {
    const scenario::Scenario* s = scenario::find_scenario("lost_update");
    ASSERT_NE(s, nullptr);
    const runner::Ladder l = runner::run_ladder(*s, runner::LadderOptions{});
    ASSERT_EQ(l.rungs.size(), s->variants.size());
    bool any_timed = false;
    for (size_t i = 0; i < l.rungs.size(); ++i) {
        EXPECT_EQ(l.rungs[i].variant, s->variants[i].id);
        EXPECT_EQ(l.rungs[i].status, trace::RunStatus::Ok) << l.rungs[i].message;
        EXPECT_GT(l.rungs[i].checked_outputs, 0u) << l.rungs[i].variant;
        any_timed = any_timed || l.rungs[i].timed;
    }
    EXPECT_EQ(l.not_modelled, !any_timed);
}

} // namespace
