// The ladder and heatmap views drawn headless (an ImGui context without a renderer): the ladder's
// bars in their colours (the baseline apart), its words, "not modelled" without bars, a ladder of
// another lesson not shown, the Run button's request; the heatmap without GL says so and still draws
// its legend in the colour map's colours.
#include "ui/model/colour_map.h"
#include "ui/views/heatmap_view.h"
#include "ui/views/ladder_view.h"
#include "ui/model/theme.h"

#include "ui/headless_panel.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

namespace {

using namespace synclab;
using namespace synclab::ui;
using synclab::ui::testing::HeadlessPanel;

std::shared_ptr<const runner::Ladder> ladder(const std::string& scenario, std::vector<double> times) {
    auto l = std::make_shared<runner::Ladder>();
    l->scenario = scenario;
    l->backend = "sim";
    l->device = "SyncLab simulator";
    l->unit = "cycles";
    for (size_t i = 0; i < times.size(); ++i) {
        runner::LadderRung r;
        r.variant = "v" + std::to_string(i);
        r.timed = times[i] > 0;
        r.time = r.time_min = r.time_max = times[i];
        l->rungs.push_back(r);
    }
    l->baseline = "v0";
    for (auto& r : l->rungs)
        r.ratio = r.timed ? r.time / times[0] : 0;
    l->not_modelled = times[0] == 0;
    if (l->not_modelled) l->baseline.clear();
    return l;
}

AppState state_for(const char* scenario) {
    AppState s;
    s.scenario = scenario::find_scenario(scenario);
    return s;
}

TEST(LadderView, BarsInTheirColoursTheBaselineApart) {
    HeadlessPanel panel;
    AppState s = state_for("lost_update");
    s.ladder.result = ladder("lost_update", {80000, 4000});
    LadderView view;
    panel.frame([&] { view.draw(s); });
    EXPECT_TRUE(HeadlessPanel::drew_colour(theme::kLostUpdate)) << "the baseline's bar";
    EXPECT_TRUE(HeadlessPanel::drew_colour(theme::kOutcomeSim)) << "the other rung's bar";
    const ImVec4 b = view.bars_rect();
    EXPECT_GT(b.z - b.x, 100);
    EXPECT_GT(b.w - b.y, 50);
}

TEST(LadderView, NotModelledDrawsNoBars) {
    HeadlessPanel panel;
    AppState s = state_for("lost_update");
    s.ladder.result = ladder("lost_update", {0, 0});
    LadderView view;
    panel.frame([&] { view.draw(s); });
    EXPECT_FALSE(HeadlessPanel::drew_colour(theme::kLostUpdate));
    EXPECT_FALSE(HeadlessPanel::drew_colour(theme::kOutcomeSim));
    EXPECT_EQ(view.bars_rect().z, 0);
}

TEST(LadderView, ALadderOfAnotherLessonIsNotShown) {
    HeadlessPanel panel;
    AppState s = state_for("stencil");
    s.ladder.result = ladder("lost_update", {100, 50});
    LadderView view;
    panel.frame([&] { view.draw(s); });
    EXPECT_FALSE(HeadlessPanel::drew_colour(theme::kOutcomeSim));
}

TEST(LadderView, RunButtonAsksTheApp) {
    HeadlessPanel panel;
    AppState s = state_for("lost_update");
    LadderView view;
    panel.frame([&] { view.draw(s); });
    // The button is the first item of the view, at the window's content start.
    const ImVec2 at(ImGui::GetStyle().WindowPadding.x + 20, ImGui::GetFrameHeight() + ImGui::GetStyle().WindowPadding.y + 8);
    panel.click([&] { view.draw(s); }, at);
    EXPECT_TRUE(s.requests.run_ladder);
}

TEST(LadderView, RatioWordsInBothLanguages) {
    const auto l = ladder("x", {1000, 50, 2500, 1010});
    EXPECT_EQ(ladder_ratio_words(*l, l->rungs[0], Language::En), "baseline");
    EXPECT_EQ(ladder_ratio_words(*l, l->rungs[1], Language::En), "20.0\u00d7 faster");
    EXPECT_EQ(ladder_ratio_words(*l, l->rungs[2], Language::En), "2.5\u00d7 slower");
    EXPECT_EQ(ladder_ratio_words(*l, l->rungs[3], Language::En), "about the same");
    EXPECT_EQ(ladder_ratio_words(*l, l->rungs[1], Language::Zh), "快 20.0 倍");
    EXPECT_EQ(ladder_time_words(*l, l->rungs[0], Language::En), "1,000 cycles");
}

// Each rung's run in the vocabulary's words and colours, as everywhere else.
TEST(LadderView, RungOutcomesInTheVocabulary) {
    runner::LadderRung r;
    r.checked_outputs = 16384;
    Outcome o = ladder_rung_outcome(r, Language::En);
    EXPECT_EQ(o.words, "right");
    EXPECT_EQ(o.tone, theme::Tone::Good);
    r.wrong_outputs = 12;
    o = ladder_rung_outcome(r, Language::En);
    EXPECT_EQ(o.words, "wrong outputs \u00b7 12 of 16,384 wrong");
    EXPECT_EQ(o.tone, theme::Tone::Bad);
    r.status = trace::RunStatus::Deadlock;
    EXPECT_EQ(ladder_rung_outcome(r, Language::Zh).words, "挂起");
}

TEST(HeatmapView, WithoutGlItSaysSoAndKeepsTheLegend) {
    HeadlessPanel panel;
    AppState s = state_for("lost_update");
    auto record = std::make_shared<RunRecord>();
    record->scenario_id = "lost_update";
    record->serial = 7;
    trace::Trace& t = record->summary.trace;
    t.threads = trace::thread_layout(trace::Dim3{1, 1, 1}, trace::Dim3{32, 1, 1});
    for (uint32_t i = 0; i < 32; ++i) {
        trace::Event e;
        e.kind = trace::EventKind::Atomic;
        e.thread = i;
        e.address = 0x40;
        e.time = i;
        e.flags = trace::make_flags(trace::Space::Global, 4);
        t.events.push_back(e);
    }
    s.current = record;
    HeatmapView view;
    panel.frame([&] { view.draw(s); });
    EXPECT_TRUE(HeadlessPanel::drew_colour(heat::colour_u32(1.0f))) << "the legend's hot end";
    EXPECT_TRUE(HeadlessPanel::drew_colour(heat::colour_u32(0.0f))) << "the legend's cold end";
    EXPECT_TRUE(HeadlessPanel::drew_colour(theme::kDeadlock)) << "the no-GL note in the cells' place";
    EXPECT_GT(view.cells_rect().z, view.cells_rect().x);
    EXPECT_GT(view.legend_rect().x, view.cells_rect().z) << "the legend is right of the cells";
}

// A big trace is binned off the UI thread: the first frame says so, a later one has the cells.
TEST(HeatmapView, BigTracesAreBinnedOffTheUiThread) {
    HeadlessPanel panel;
    AppState s = state_for("lost_update");
    auto record = std::make_shared<RunRecord>();
    record->serial = 9;
    trace::Trace& t = record->summary.trace;
    t.threads = trace::thread_layout(trace::Dim3{4, 1, 1}, trace::Dim3{256, 1, 1});
    trace::Event e;
    e.kind = trace::EventKind::Atomic;
    e.flags = trace::make_flags(trace::Space::Global, 4);
    for (uint32_t i = 0; i < 600'000; ++i) {
        e.thread = i % 1024;
        e.address = (i % 3) * 4;
        e.time = i;
        t.events.push_back(e);
    }
    s.current = record;
    HeatmapView view;
    panel.frame([&] { view.draw(s); });
    EXPECT_EQ(view.cells_rect().z, 0) << "no cells before the binning is done";
    bool drawn = false;
    for (int i = 0; i < 400 && !drawn; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
        panel.frame([&] { view.draw(s); });
        drawn = view.cells_rect().z > view.cells_rect().x;
    }
    EXPECT_TRUE(drawn) << "the binned grid never came";
    EXPECT_TRUE(HeadlessPanel::drew_colour(heat::colour_u32(1.0f)));
}

} // namespace
