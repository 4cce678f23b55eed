// The layout rules (ui/model/layout_plan.h) on the screens the app is used on: a 1366x768 laptop, a
// 1280x720 projector, 1600x900 and 1920x1080.
#include "ui/model/layout_plan.h"

#include <gtest/gtest.h>

#include <initializer_list>
#include <utility>

namespace synclab::ui {
namespace {

// [SECTION] The first window

TEST(PlanWindow, ALargeScreenKeepsAMargin) {
    const WindowSize w = plan_window(1920, 1080, 0, 0, 1280, 720);
    EXPECT_EQ(w.width, 1632);
    EXPECT_EQ(w.height, 918);
}

TEST(PlanWindow, ALaptopScreenIsUsedWholeSoThatNothingIsCut) {
    // 85% of 1366x768 (1161x653) is below what the layout needs: the whole work area, less a
    // window manager's title bar.
    const WindowSize w = plan_window(1366, 740, 0, 28, 1280, 720);
    EXPECT_EQ(w.width, 1366);
    EXPECT_EQ(w.height, 712);
    const WindowSize bare = plan_window(1366, 768, 0, 0, 1280, 720);
    EXPECT_EQ(bare.width, 1366);
    EXPECT_EQ(bare.height, 768);
}

TEST(PlanWindow, NeverLargerThanTheWorkAreaLessTheDecorations) {
    for (const auto& [w, h] : std::initializer_list<std::pair<int, int>>{
             {1024, 600}, {1280, 720}, {1366, 768}, {1600, 900}, {3840, 2160}}) {
        const WindowSize s = plan_window(w, h, 10, 40, 2560, 1440); // a 2x content scale's minimum
        EXPECT_LE(s.width, w - 10) << w << "x" << h;
        EXPECT_LE(s.height, h - 40) << w << "x" << h;
        EXPECT_GT(s.width, 0);
        EXPECT_GT(s.height, 0);
    }
}

// [SECTION] Normal mode

TEST(PlanLeftColumn, TheRunPanelKeepsWhatItNeeds) {
    const LeftColumn c = plan_left_column(675, 5, 330, 80);
    EXPECT_FLOAT_EQ(c.run_panel_h, 330);
    EXPECT_FLOAT_EQ(c.browser_h, 340);
}

TEST(PlanLeftColumn, TheBrowserKeepsItsMinimumOnATinyWindow) {
    const LeftColumn c = plan_left_column(300, 5, 330, 80);
    EXPECT_FLOAT_EQ(c.browser_h, 80);
    EXPECT_FLOAT_EQ(c.run_panel_h, 215);
}

TEST(PlanRightColumn, BeforeARunTheLessonGetsTheRoom) {
    RightColumnInput in;
    in.height = 675; // 1280x720 less the menu and the status line
    in.bar = 5;
    in.em = 13;
    in.before_run = true;
    const RightColumn c = plan_right_column(in);
    EXPECT_FALSE(c.splitters);
    EXPECT_GE(c.tabs_h, 0.8f * in.height);
    EXPECT_GE(c.timeline_h, 3 * in.em); // still room for its one line ("No run of this variant yet")
    EXPECT_GE(c.findings_h, 2 * in.em);
    EXPECT_FLOAT_EQ(c.tabs_h + c.timeline_h + c.findings_h + 2 * in.bar, in.height);
}

TEST(PlanRightColumn, AfterARunTheFindingsGetTheirSentenceAndTheTimelineKeepsRows) {
    RightColumnInput in;
    in.height = 675;
    in.bar = 5;
    in.em = 13;
    in.findings_wanted = 180; // 1280x720: a three-line sentence under three rows
    const RightColumn c = plan_right_column(in);
    EXPECT_TRUE(c.splitters);
    EXPECT_GE(c.findings_h, 180);
    EXPECT_GE(c.timeline_h, 13 * in.em);
    EXPECT_FLOAT_EQ(c.tabs_h + c.timeline_h + c.findings_h + 2 * in.bar, in.height);
    // What the findings do not need stays the timeline's (the split decides above the minimum).
    in.findings_wanted = 40;
    const RightColumn small = plan_right_column(in);
    EXPECT_GT(small.timeline_h, c.timeline_h);
    EXPECT_GE(small.findings_h, 5 * in.em);
}

TEST(PlanRightColumn, TheTimelineKeepsItsMinimumWhenTheFindingsWantEverything) {
    RightColumnInput in;
    in.height = 675;
    in.bar = 5;
    in.em = 13;
    in.findings_wanted = 5000;
    const RightColumn c = plan_right_column(in);
    EXPECT_GE(c.timeline_h, 13 * in.em - 0.01f);
    EXPECT_FLOAT_EQ(c.tabs_h + c.timeline_h + c.findings_h + 2 * in.bar, in.height);
}

// After a run the tabs grow to what the lesson wants (down to its Run again button) where the
// timeline keeps its 13 em and the findings their sentence; no further; never below the split.
TEST(PlanRightColumn, TheLessonGetsItsRunAgainButtonWhereTheOthersCanSpareIt) {
    RightColumnInput in;
    in.height = 662; // 1280x720 at 15 px
    in.bar = 14;
    in.em = 15;
    in.findings_wanted = 175;
    const RightColumn split = plan_right_column(in);
    in.tabs_wanted = split.tabs_h + 20;
    const RightColumn c = plan_right_column(in);
    EXPECT_FLOAT_EQ(c.tabs_h, in.tabs_wanted);
    EXPECT_GE(c.findings_h, 175);
    EXPECT_GE(c.timeline_h, 13 * in.em);
    EXPECT_FLOAT_EQ(c.tabs_h + c.timeline_h + c.findings_h + 2 * in.bar, in.height);
    in.tabs_wanted = 5000; // a lesson longer than the column
    const RightColumn most = plan_right_column(in);
    EXPECT_GE(most.findings_h, 175);
    EXPECT_GE(most.timeline_h, 13 * in.em - 0.01f);
    EXPECT_LT(most.tabs_h, in.height);
    in.tabs_wanted = 10; // less than the split gives: the split holds
    EXPECT_FLOAT_EQ(plan_right_column(in).tabs_h, split.tabs_h);
}

// [SECTION] Presenter mode

PresenterInput presenter(float w, float h, PresenterLeft left, bool compare, bool findings) {
    PresenterInput in;
    in.width = w;
    in.height = h;
    in.gap = 10;
    in.line = 34;
    in.left = left;
    in.compare = compare;
    in.have_findings = findings;
    return in;
}

TEST(PlanPresenterBody, OneRunKeepsTheFindingsUnderTheTimeline) {
    PresenterInput in = presenter(1280, 580, PresenterLeft::Source, false, true);
    in.findings = 4; // stencil/missing_barrier's
    const PresenterBody b = plan_presenter_body(in);
    EXPECT_GT(b.findings_h, 150);
    EXPECT_FLOAT_EQ(b.left_w + 10 + b.timelines_w, 1280);
}

// One finding needs a row, not a third of the body: the timeline above gets the rest (a cross-block
// arrow's two ends); many findings keep the share they had (the table scrolls).
TEST(PlanPresenterBody, TheFindingsTakeTheHeightOfTheirRows) {
    PresenterInput in = presenter(1280, 560, PresenterLeft::Source, false, true);
    in.findings = 1;
    const PresenterBody one = plan_presenter_body(in);
    EXPECT_NEAR(one.findings_h, 34 * 3.6f, 1.0f);
    in.findings = 12;
    const PresenterBody many = plan_presenter_body(in);
    EXPECT_NEAR(many.findings_h, 560 * 0.36f, 1.0f);
    EXPECT_GT(one.top_h, many.top_h + 60);
}

TEST(PlanPresenterBody, CompareGivesBothTimelinesTheWholeHeightAndDropsTheFindings) {
    for (const auto& [w, h] :
         std::initializer_list<std::pair<float, float>>{{1280.0f, 585.0f}, {1920.0f, 880.0f}}) {
        for (const PresenterLeft left : {PresenterLeft::Source, PresenterLeft::Lesson, PresenterLeft::None}) {
            const PresenterBody b = plan_presenter_body(presenter(w, h, left, true, true));
            EXPECT_EQ(b.findings_h, 0) << w;
            EXPECT_EQ(b.top_h, h) << w;
            EXPECT_TRUE(b.stacked) << w;
            // Each timeline gets half the height and more than half the width: time needs the width.
            EXPECT_GT(b.timelines_w, 0.55f * w) << w;
            EXPECT_LE(b.left_w + b.timelines_w + (b.left_w > 0 ? 10 : 0), w) << w;
        }
    }
}

TEST(PlanPresenterBody, BeforeTheFirstRunTheTopRowGetsTheRoom) {
    PresenterInput in = presenter(1280, 580, PresenterLeft::Lesson, false, false);
    const float after = plan_presenter_body(in).left_w;
    in.before_run = true;
    const PresenterBody b = plan_presenter_body(in);
    EXPECT_GT(b.left_w, after);
    EXPECT_FLOAT_EQ(b.left_w, 1280) << "nothing ran: the lesson alone, the whole body";
    EXPECT_FLOAT_EQ(b.top_h, 580);
    EXPECT_EQ(b.timelines_w, 0);
    EXPECT_EQ(b.findings_h, 0);
}

TEST(PlanPresenterBody, WithoutFindingsTheFindingsKeepALine) {
    // (without before_run: a loaded trace with no findings keeps the findings' line)
    const PresenterBody b = plan_presenter_body(presenter(1280, 580, PresenterLeft::Lesson, false, false));
    EXPECT_NEAR(b.top_h, 580 - 34 * 2.2f, 1.0f);
    EXPECT_GT(b.findings_h, 0); // the findings panel's one line ("no run yet")
}

// Before a run the predict step's setting and question go side by side in presenter mode, where a
// room's font makes them taller than the screen one under the other; not where a column would be
// narrower than 20 em, and never at the desk (the lesson pane scrolls there and has the room).
TEST(PredictBeside, PresenterModeWithTheRoomForTwoColumns) {
    EXPECT_TRUE(predict_beside(1256, 25.7f, true)) << "1280x720 presenter: 49 em";
    EXPECT_TRUE(predict_beside(1900, 38.6f, true)) << "1920x1080 presenter";
    EXPECT_FALSE(predict_beside(900, 27.4f, true)) << "33 em: one column";
    EXPECT_FALSE(predict_beside(1400, 15, false)) << "normal mode";
}

} // namespace
} // namespace synclab::ui
