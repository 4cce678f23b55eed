// The normal (desk) layout's sizes and splitters: the left column (browser over run panel) beside the
// right column (centre tabs, timeline, findings). Keeps the fractions the student dragged and what the
// panels measured last frame; the rules themselves are layout_plan.h's (pure, unit-tested). The App
// draws the panels into the sizes this returns.
#pragma once

#include "ui/model/layout_plan.h"

#include <imgui.h>

namespace synclab::ui {

class NormalLayout {
  public:
    // The left column's width for a window of `size` (the splitter's fraction, never narrower than
    // the widest variant id in the browser needs, so that no variant's name is cut).
    float left_width(ImVec2 size) const;
    // The browser's and the run panel's heights (plan_left_column) for a column `height` tall.
    LeftColumn left_column(float height) const;
    // Call inside the run panel's child after drawing it: measures the height its content needs, and
    // returns the content's screen rectangle as laid out (x0, y0, x1, y1: past the child's bottom edge
    // where it needs scrolling).
    ImVec4 measure_run_panel();
    // The draggable bar between the browser and the run panel's gap, and the bar between the columns.
    void left_gap() const;
    void left_splitter(ImVec2 size);

    // The right column's heights. `tall_tabs`: a tab that wants more room than the lesson (outcomes,
    // heatmap, ladder, residency) has its own split; `before_run` and `findings_wanted`: as
    // RightColumnInput says; the tabs' wanted height is the one noted last frame.
    RightColumn right_column(float height, bool tall_tabs, bool before_run, float findings_wanted) const;
    // Call inside the lesson's child of the centre tabs (`tabs_top`: the tabs' child's top, screen y)
    // with the height the lesson's content wants (LessonPanel::wanted_height, 0: none): the tabs then
    // want the tab bar above it, that and the tabs' bottom padding. Call note_tabs_wanted(0) where the
    // lesson is not shown.
    void note_lesson_wanted(float tabs_top, float lesson_wanted);
    void note_tabs_wanted(float wanted) { tabs_wanted_ = wanted; }
    // The bars under the tabs and under the timeline (not drawn when the plan says so).
    void top_splitter(float width, float height, bool tall_tabs, const RightColumn& plan);
    void findings_splitter(float width, float height, const RightColumn& plan);

    float bar() const; // a splitter's thickness

  private:
    // Fractions of the space each splitter divides, kept across frames.
    float left_ = 0.27f;         // left column / window width
    float top_ = 0.36f;          // centre tabs / right column height
    float top_tall_ = 0.6f;      // the same with a tall tab shown
    float findings_ = 0.28f;     // findings / what the tabs leave: at 1600x900 the timeline shows a
                                 // block of 8 warps and two pinned lanes unscrolled
    float run_panel_wanted_ = 0; // measured last frame (0 before the first)
    float tabs_wanted_ = 0;      // the same
};

} // namespace synclab::ui
