// The findings panel: what the analysis found in the current run, one line per finding (kind, hazard, memory
// space, lines, count, an example pair of threads, the message cut to the line), and under the list the
// selected finding's whole sentence (not in presenter mode, whose callout says it). Clicking a row asks the
// App to focus that finding (timeline zoom, highlighted source lines). A newly selected finding's row is
// scrolled into view.
#pragma once

#include "ui/core/app_state.h"

#include <imgui.h>

#include <string>
#include <vector>

namespace synclab::ui {

class FindingsPanel {
  public:
    // Draws into the current window. Writes state.requests.focus_finding only.
    void draw(AppState& state);
    // Last frame's first line of the selected finding's row (screen x0, y0, x1, y1, where it was laid
    // out, in view or not; zero when none was drawn), for the layout regions.
    ImVec4 selected_row() const { return selected_row_; }
    // Last frame's rectangles (screen x0, y0, x1, y1; zero when not drawn): the list's visible rows
    // (under its header row), each finding's row as laid out (in view or not), and the selected
    // finding's sentence; and that sentence's text.
    ImVec4 list_rect() const { return list_rect_; }
    const std::vector<ImVec4>& row_rects() const { return row_rects_; }
    ImVec4 detail_rect() const { return detail_rect_; }
    const std::string& detail_text() const { return detail_text_; }
    // The height this panel wanted last frame to show the selected finding's whole sentence and three
    // rows of the list (0: it has no list), for the App's layout (plan_right_column).
    float wanted_height() const { return wanted_h_; }

  private:
    void draw_detail(const analysis::Finding& finding, const std::string& message);

    // analysis::coverage() of the record drawn last ("" when every block was analysed), keyed by the
    // record's serial (a new record may reuse a freed one's address): it walks the thread table, so it
    // is not redone every frame.
    uint64_t coverage_of_ = 0;
    std::string coverage_;
    bool recorded_ = true; // the trace has a thread table (analysis::Coverage::recorded)
    // The selection the table last scrolled for (finding index and record serial): a new selection
    // (] / [, a click elsewhere) brings its row into view once, then the student may scroll away.
    int scrolled_to_ = -1;
    uint64_t scrolled_serial_ = 0;
    ImVec4 selected_row_{0, 0, 0, 0};
    ImVec4 list_rect_{0, 0, 0, 0};
    std::vector<ImVec4> row_rects_;
    ImVec4 detail_rect_{0, 0, 0, 0};
    std::string detail_text_;
    float detail_h_ = 0; // the sentence's height as last drawn
    float wanted_h_ = 0;
};

} // namespace synclab::ui
