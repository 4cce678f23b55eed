// The outcomes view without a window: what it counts for a lesson, its rows (the lesson's named
// outcomes, the model's verdict, both sides' counts), the runner options of its runs, and the view
// drawn headless: a forbidden outcome that appeared is drawn red, the bars in the simulator's colour,
// a click on a row asks to open the run that produced it, the Run button asks for the runs. Then the
// job the App would start, run for real: its record carries the histogram.
#include "ui/shell/drawn_text.h"
#include "ui/model/outcome_words.h"
#include "ui/views/outcomes_view.h"
#include "ui/core/run_controller.h"
#include "ui/model/theme.h"
#include "ui/model/ui_text.h"

#include "ui/headless_panel.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>

namespace synclab::ui {
namespace {

runner::Histogram histogram(std::vector<std::pair<std::string, uint64_t>> counts, uint64_t first_seed) {
    runner::Histogram h;
    uint64_t seed = first_seed;
    for (const auto& [outcome, n] : counts) {
        runner::OutcomeCount c;
        c.outcome = outcome;
        c.count = n;
        c.seed = seed++;
        h.outcomes.push_back(c);
        h.records += n;
    }
    h.runs = uint32_t(h.records);
    return h;
}

// The stencil lesson with named outcomes and forbidden ones (the fence lessons' fields; the stencil
// itself names none).
struct Lesson {
    scenario::Scenario s = *scenario::find_scenario("stencil");
    const scenario::Variant* v = nullptr;
    Lesson() {
        s.outcomes.buffer = "g_out";
        s.outcomes.per = 2;
        s.outcomes.classes = {{"0,0", "nothing seen", "什么也没看到"}, {"1,0", "flag seen, data stale", "看到标志，数据过期"}};
        scenario::Variant& broken = s.variants.back();
        broken.forbidden_outcomes = {"1,0", "1,1"};
        broken.forbidden_because = "a test's rule";
        v = &broken;
    }
};

TEST(OutcomeSubject, ALessonWithoutOutcomesCountsItsFirstOutputsFirstElement) {
    const OutcomeSubject s = outcome_subject(*scenario::find_scenario("stencil"));
    EXPECT_FALSE(s.lesson_named);
    EXPECT_EQ(s.request.buffer, "g_out");
    EXPECT_EQ(s.request.type, launch::ElemType::F32);
    EXPECT_EQ(s.request.per, 1u);
    EXPECT_EQ(s.request.limit, 1u);
}

TEST(OutcomeSubject, ALessonsOwnOutcomesWithTheBuffersType) {
    const Lesson l;
    const OutcomeSubject s = outcome_subject(l.s);
    EXPECT_TRUE(s.lesson_named);
    EXPECT_EQ(s.request.buffer, "g_out");
    EXPECT_EQ(s.request.per, 2u);
    EXPECT_EQ(s.request.limit, 0u);
    EXPECT_EQ(s.request.type, launch::ElemType::F32);
}

TEST(OutcomeRows, NamedFirstThenForbiddenThenCountedWithTheModelsVerdict) {
    const Lesson l;
    const runner::Histogram sim = histogram({{"5,5", 3}, {"1,0", 1}}, 10);
    const runner::Histogram gpu = histogram({{"1,0", 2}, {"7,7", 2}}, 20);
    const std::vector<OutcomeRow> rows = outcome_rows(&l.s, l.v, &sim, &gpu, Language::En);
    ASSERT_EQ(rows.size(), 5u);
    EXPECT_EQ(rows[0].outcome, "0,0");
    EXPECT_EQ(rows[0].meaning, "nothing seen");
    EXPECT_EQ(rows[0].verdict.verdict, runner::ModelVerdict::Allowed);
    EXPECT_FALSE(rows[0].verdict.seen);
    EXPECT_EQ(rows[0].sim_count, 0u);
    EXPECT_EQ(rows[0].sim_run, nullptr);

    EXPECT_EQ(rows[1].outcome, "1,0");
    EXPECT_EQ(rows[1].verdict.verdict, runner::ModelVerdict::Forbidden);
    EXPECT_TRUE(rows[1].verdict.broken());
    EXPECT_EQ(rows[1].sim_count, 1u);
    EXPECT_DOUBLE_EQ(rows[1].sim_share, 0.25);
    EXPECT_EQ(rows[1].gpu_count, 2u);
    EXPECT_DOUBLE_EQ(rows[1].gpu_share, 0.5);
    ASSERT_NE(rows[1].sim_run, nullptr);
    EXPECT_EQ(rows[1].sim_run->seed, 11u);

    EXPECT_EQ(rows[2].outcome, "1,1"); // forbidden, never seen: allowed to stay unseen
    EXPECT_EQ(rows[2].verdict.verdict, runner::ModelVerdict::Forbidden);
    EXPECT_FALSE(rows[2].verdict.seen);
    EXPECT_FALSE(rows[2].verdict.broken());

    EXPECT_EQ(rows[3].outcome, "5,5");
    EXPECT_EQ(rows[3].verdict.verdict, runner::ModelVerdict::Allowed);
    EXPECT_TRUE(rows[3].verdict.seen);
    EXPECT_EQ(rows[3].sim_count, 3u);
    EXPECT_EQ(rows[3].gpu_count, 0u);
    EXPECT_EQ(rows[4].outcome, "7,7"); // the GPU's alone
    EXPECT_EQ(rows[4].sim_run, nullptr);

    const std::vector<OutcomeRow> zh = outcome_rows(&l.s, l.v, &sim, nullptr, Language::Zh);
    EXPECT_EQ(zh[1].meaning, "看到标志，数据过期");
    EXPECT_EQ(zh[1].gpu_count, 0u);
}

// An allowed outcome that the reference does not compute (a weak one: flag seen, data stale) is
// "allowed · seen" in the warning colour where it came out, never green; one that matches the
// reference is neutral; a forbidden one never seen is the model's promise kept.
TEST(OutcomeRows, AnAllowedWeakOutcomeSeenIsAWarningNeverGood) {
    const Lesson l;
    runner::Histogram sim = histogram({{"5,5", 3}, {"0,0", 1}}, 10);
    sim.outcomes[1].wrong = 1; // "0,0" differs from the reference's values
    const std::vector<OutcomeRow> rows = outcome_rows(&l.s, nullptr, &sim, nullptr, Language::En);
    const auto row = [&](const char* outcome) {
        return *std::find_if(rows.begin(), rows.end(), [&](const OutcomeRow& r) { return r.outcome == outcome; });
    };
    const OutcomeRow weak = row("0,0"), right = row("5,5"), unseen = row("1,0");
    EXPECT_TRUE(weak.verdict.weak);
    EXPECT_EQ(verdict_words(weak.verdict, Language::En), "allowed, seen");
    EXPECT_EQ(verdict_tone(weak.verdict), theme::Tone::Warning);
    EXPECT_FALSE(right.verdict.weak);
    EXPECT_EQ(verdict_tone(right.verdict), theme::Tone::Neutral);
    EXPECT_EQ(verdict_words(unseen.verdict, Language::Zh), "允许，未出现");
    runner::OutcomeVerdict kept{runner::ModelVerdict::Forbidden, false, true};
    EXPECT_EQ(verdict_tone(kept), theme::Tone::Good);
    EXPECT_EQ(verdict_words(kept, Language::En), "forbidden, not seen");
    kept.seen = true;
    EXPECT_EQ(verdict_tone(kept), theme::Tone::Bad);
    EXPECT_EQ(verdict_words(kept, Language::En), "forbidden, yet seen");
}

TEST(OutcomeRunOptions, TheGpuSideIsUntracedOnTheHardwaresOwnTerms) {
    Controls c;
    c.schedule = sim::Schedule::Exhaustive;
    c.memory = launch::MemoryModel::Sc;
    c.seed = 4;
    c.reps = 1;
    c.replay = std::vector<uint32_t>{1};
    const OutcomeSubject subject = outcome_subject(*scenario::find_scenario("stencil"));
    const runner::RunOptions sim = outcome_run_options(c, subject, 200, false);
    EXPECT_EQ(sim.backend, "sim");
    EXPECT_EQ(sim.schedule, sim::Schedule::Exhaustive);
    EXPECT_EQ(sim.memory, launch::MemoryModel::Sc);
    EXPECT_EQ(sim.reps, 200u);
    EXPECT_EQ(sim.seed, 4u);
    EXPECT_FALSE(sim.replay); // the view's runs explore; only opening one replays
    EXPECT_EQ(sim.histogram.buffer, "g_out");
    const runner::RunOptions gpu = outcome_run_options(c, subject, 200, true);
    EXPECT_EQ(gpu.backend, "gpu");
    EXPECT_FALSE(gpu.memory);
    EXPECT_NE(gpu.schedule, sim::Schedule::Exhaustive);
    EXPECT_TRUE(gpu.gpu.untraced);
    EXPECT_FALSE(gpu.gpu.traced);
    EXPECT_EQ(gpu.reps, 200u);
    EXPECT_EQ(gpu.histogram.buffer, "g_out");
}

// The top-left of the first drawn text that starts with `prefix` (NaN when none).
ImVec2 text_at(const std::string& prefix) {
    for (const DrawnText& t : drawn_text(*ImGui::GetDrawData(), *ImGui::GetIO().Fonts))
        if (t.text.rfind(prefix, 0) == 0) return {t.x, t.y};
    return {NAN, NAN};
}

// Whether the last frame drew `part` (on one line; wrapped text is one run per line).
bool drew_text(const std::string& part) {
    for (const DrawnText& t : drawn_text(*ImGui::GetDrawData(), *ImGui::GetIO().Fonts))
        if (t.text.find(part) != std::string::npos) return true;
    return false;
}

std::string all_text() {
    std::string out;
    for (const DrawnText& t : drawn_text(*ImGui::GetDrawData(), *ImGui::GetIO().Fonts))
        out += "\n  [" + std::to_string(int(t.x)) + "," + std::to_string(int(t.y)) + "] " + t.text;
    return out;
}

TEST(OutcomesViewDraw, ForbiddenYetSeenIsRedAndARowClickOpensItsRun) {
    const Lesson l;
    AppState state;
    state.scenario = &l.s;
    state.variant = l.v;
    state.gpu.probing = false;
    state.gpu.available = false;
    state.gpu.reason = "no NVIDIA driver found (test)";
    auto record = std::make_shared<RunRecord>();
    record->scenario_id = l.s.id;
    record->variant_id = l.v->id;
    record->summary.histogram = histogram({{"5,5", 3}, {"1,0", 1}}, 10);
    state.outcomes.sim = record;
    state.outcomes.scenario_id = l.s.id;
    state.outcomes.variant_id = l.v->id;

    testing::HeadlessPanel panel({1000, 600}, {1000, 600});
    OutcomesView view;
    auto body = [&] { view.draw(state); };
    panel.frame(body);
    panel.frame(body); // tables settle their column widths on the second frame
    const theme::Palette& pal = theme::palette(false);
    EXPECT_TRUE(testing::HeadlessPanel::drew_colour(pal.bad)) << "the forbidden outcome that came is red";
    EXPECT_TRUE(testing::HeadlessPanel::drew_colour(theme::kOutcomeSim)) << "the simulator's bars";
    EXPECT_FALSE(testing::HeadlessPanel::drew_colour(theme::kOutcomeGpu)) << "no GPU column without a GPU";
    EXPECT_TRUE(drew_text("forbidden, yet seen")) << all_text();
    EXPECT_TRUE(drew_text("No GPU here"));
    EXPECT_TRUE(drew_text("flag seen, data stale"));
    EXPECT_TRUE(drew_text("3 (75.0%)")) << "count and percentage";
    const ImVec4 table = view.table_rect();
    EXPECT_GT(table.z, table.x);

    const ImVec2 row = text_at("5,5");
    ASSERT_FALSE(std::isnan(row.x)) << "the row of 5,5 was not drawn";
    panel.click(body, {row.x + 4, row.y + 4});
    ASSERT_TRUE(state.requests.open_outcome) << "a click on a counted row asks to open its run";
    EXPECT_EQ(state.requests.open_outcome->outcome, "5,5");
    EXPECT_EQ(state.requests.open_outcome->seed, 10u);

    state.requests = Requests{};
    const ImVec2 never = text_at("0,0"); // named, never counted: nothing to open
    ASSERT_FALSE(std::isnan(never.x));
    panel.click(body, {never.x + 4, never.y + 4});
    EXPECT_FALSE(state.requests.open_outcome);

    const ImVec2 button = text_at("Run 200 times");
    ASSERT_FALSE(std::isnan(button.x)) << "the run button says N";
    panel.click(body, {button.x + 4, button.y + 4});
    EXPECT_TRUE(state.requests.run_outcomes);
}

TEST(OutcomesViewDraw, TheGpuColumnWhereThereIsAGpu) {
    const Lesson l;
    AppState state;
    state.scenario = &l.s;
    state.variant = l.v;
    state.gpu.probing = false;
    state.gpu.available = true;
    auto sim = std::make_shared<RunRecord>();
    sim->summary.histogram = histogram({{"0,0", 4}}, 1);
    auto gpu = std::make_shared<RunRecord>();
    gpu->options.backend = "gpu";
    gpu->summary.histogram = histogram({{"1,0", 4}}, 1);
    state.outcomes.sim = sim;
    state.outcomes.gpu = gpu;
    state.outcomes.scenario_id = l.s.id;
    state.outcomes.variant_id = l.v->id;
    testing::HeadlessPanel panel({1000, 600}, {1000, 600});
    OutcomesView view;
    panel.frame([&] { view.draw(state); });
    panel.frame([&] { view.draw(state); });
    EXPECT_TRUE(testing::HeadlessPanel::drew_colour(theme::kOutcomeSim));
    // The GPU's only outcome is forbidden: its bar is red, not the GPU colour.
    EXPECT_TRUE(testing::HeadlessPanel::drew_colour(theme::palette(false).bad));
    EXPECT_FALSE(drew_text("No GPU here"));
    // Counts of another variant are not shown as this one's.
    state.outcomes.variant_id = "correct";
    panel.frame([&] { view.draw(state); });
    EXPECT_FALSE(testing::HeadlessPanel::drew_colour(theme::kOutcomeSim));
}

TEST(OutcomesJob, RunsTheVariantNTimesWithTheHistogram) {
    const scenario::Scenario& s = *scenario::find_scenario("stencil");
    Controls c;
    c.schedule = sim::Schedule::Random;
    c.seed = 2;
    const RunJob job = make_outcomes_job(s, *s.find_variant("missing_barrier"),
                                         outcome_run_options(c, outcome_subject(s), 3, false), RunSlot::OutcomesSim);
    EXPECT_EQ(job.slot, RunSlot::OutcomesSim);
    std::atomic<bool> cancel{false};
    double last = 0;
    const std::shared_ptr<const RunRecord> r = job.work(cancel, [&](double f) { last = f; });
    ASSERT_NE(r, nullptr);
    ASSERT_TRUE(r->summary.histogram);
    EXPECT_EQ(r->summary.histogram->runs, 3u);
    EXPECT_EQ(r->summary.histogram->records, 3u); // g_out[0] once a run
    EXPECT_EQ(r->summary.reps_run, 3u);
    EXPECT_GT(last, 0.5);
    EXPECT_EQ(r->options.cancel, nullptr); // the record outlives the job's flag
}

} // namespace
} // namespace synclab::ui
