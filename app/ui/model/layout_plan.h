// Where the app's regions go, as arithmetic on pixel sizes: pure (no ImGui, no GL), so that the rules
// behind each screen are unit-tested (tests/ui/layout_plan_test.cpp) and App only draws what they say.
//
//   plan_window:          the first window's size on a screen (its work area)
//   plan_left_column:     the browser over the run panel (normal mode)
//   plan_right_column:    lesson/source tabs, timeline and findings (normal mode)
//   plan_presenter_body:  presenter mode under its header and callout, one run or two compared
//   predict_beside:       the predict step's setting and question side by side (presenter mode)
#pragma once

#include <cstddef>

namespace synclab::ui {

// [SECTION] The first window

struct WindowSize {
    int width = 0, height = 0;
};

// The window the app opens when no size was asked for. `work_*`: the monitor's work area (the screen
// less panels and docks); `frame_*`: the window manager's decorations around the client area (0 when
// unknown). 85% of the work area where that still holds the layout's smallest comfortable size
// (`min_*`, 1280x720 times the content scale); all of it on a smaller screen (a 1366x768 laptop),
// so that nothing is cut; never more than the work area less the decorations.
WindowSize plan_window(int work_w, int work_h, int frame_w, int frame_h, int min_w, int min_h);

// [SECTION] Normal mode

// The left column: the run panel keeps the height its content needs (its Run button must never be
// scrolled away), the browser the rest, down to `browser_min`; when both cannot fit the run panel
// gives way (it scrolls).
struct LeftColumn {
    float browser_h = 0, run_panel_h = 0;
};
LeftColumn plan_left_column(float height, float bar, float run_panel_wanted, float browser_min);

// The right column, top to bottom: the centre tabs (lesson, source, ...), a bar, the timeline, a bar,
// the findings. `before_run`: nothing of the selected variant has run, so the timeline and the
// findings have nothing to show but a line each: the lesson (the question and the choices) gets the
// room. After a run the splits hold (the student drags the bars), but the findings keep
// `findings_wanted` (the selected finding's whole sentence and a few rows; FindingsPanel says how
// much) where the timeline can spare it, the timeline keeping 13 em (a focused race's rows); then
// the tabs grow to `tabs_wanted` (the lesson down to its Run again button) where the timeline and
// the findings can spare it above those.
struct RightColumnInput {
    float height = 0;             // the column
    float bar = 0;                // a splitter's thickness
    float em = 13;                // the font size
    float top_split = 0.36f;      // the tabs' share of the column
    float findings_split = 0.28f; // the findings' share of what the tabs leave
    bool before_run = false;
    float findings_wanted = 0;
    float tabs_wanted = 0;
};
struct RightColumn {
    float tabs_h = 0, timeline_h = 0, findings_h = 0;
    bool splitters = true; // draw the draggable bars (not before a run: nothing to trade yet)
};
RightColumn plan_right_column(const RightColumnInput& in);

// [SECTION] Presenter mode

enum class PresenterLeft : unsigned char { None, Lesson, Source, Picture };

struct PresenterInput {
    float width = 0, height = 0; // the body: under the header and the callout, over the status line
    float gap = 0;
    float line = 0; // a frame's height with spacing (one row of text)
    PresenterLeft left = PresenterLeft::Lesson;
    bool compare = false;       // two runs, the correct one and the broken one
    bool have_findings = false; // the shown run has findings
    std::size_t findings = 0;   // how many (the findings table's rows)
    bool before_run = false;    // nothing of the selected variant has run: the timeline is empty
};
struct PresenterBody {
    float left_w = 0;      // the lesson, source or picture column (0: none)
    float top_h = 0;       // the row of that column and the timeline(s)
    float timelines_w = 0; // beside the column (0: none drawn)
    bool stacked = false;  // compare: the two timelines one over the other
    float findings_h = 0;  // the findings row under it (0: not drawn)
};
// One run: [column | timeline] over the findings, which get the full width (their messages are
// sentences) once there are findings, and no more height than their rows need (the callout says the
// selected one's sentence): one finding leaves the timeline room for both ends of a cross-block
// arrow at 1280x720; before a run the lesson alone. Compared: the room needs the callout,
// the source lines and both timelines (the race arrow in one, the barrier wait in the other) with their
// verdicts in the timelines' headers; the findings table and the output grid are desk-sized and go, so both
// timelines get the body's full height, stacked to keep the whole width for time.
PresenterBody plan_presenter_body(const PresenterInput& in);

// Before a run, the lesson pane shows the setting (the lesson's title and what it shows, the variant's
// name) and the question with its choices and the Run button. At a room's font size one under the
// other is taller than a 1280x720 screen, so in presenter mode, where the lesson has the whole width
// before a run, they go side by side (the question on the right, in sight without scrolling), while
// each column keeps at least 20 em for its words (`width`: the pane's, `em`: the font size).
bool predict_beside(float width, float em, bool presenter);

} // namespace synclab::ui
