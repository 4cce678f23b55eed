// The findings panel: what the analysis found in the current run, one row per finding (kind, hazard,
// memory space, lines, count, an example pair of threads, the message). Clicking a row asks the App to
// focus that finding (timeline zoom, highlighted source lines). A newly selected finding's row is
// scrolled into view.
#pragma once

#include "ui/app_state.h"

#include <imgui.h>

#include <string>

namespace synclab::ui {

class FindingsPanel {
  public:
    // Draws into the current window. Writes state.requests.focus_finding only.
    void draw(AppState& state);
    // Last frame's first line of the selected finding's row (screen x0, y0, x1, y1, where it was laid
    // out, in view or not; zero when none was drawn), for the layout regions.
    ImVec4 selected_row() const { return selected_row_; }

  private:
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
};

} // namespace synclab::ui
