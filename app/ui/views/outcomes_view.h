// The outcomes view: the outcome histogram of the selected variant over N runs (the lesson's outcome
// buffer, counted as runner::Histogram does), the simulator's counts beside the GPU's where there is
// a GPU, each outcome marked allowed or forbidden by the memory model (the lesson's
// Variant::forbidden_outcomes; a forbidden outcome that did appear is red). Counts and percentages
// with bars. The Run button and Cancel raise requests (the App runs them on its background runner);
// clicking a simulator count asks the App to open one run that produced that outcome on the timeline.
#pragma once

#include "runner/runner.h"
#include "scenario/scenario.h"
#include "runner/outcome.h"
#include "ui/core/app_state.h"
#include "ui/model/outcome_rows.h"

#include <imgui.h>

#include <string>
#include <vector>

namespace synclab::ui {

class OutcomesView {
  public:
    // Draws into the current window. Writes state.outcomes.runs and state.requests (run_outcomes,
    // cancel, open_outcome) only.
    void draw(AppState& state);
    // Screen rectangle (x0, y0, x1, y1) of the histogram table drawn last frame (zero: none), for the
    // layout regions of the GUI tests.
    ImVec4 table_rect() const { return table_rect_; }

  private:
    void draw_controls(AppState& state);
    void draw_table(AppState& state, const std::vector<OutcomeRow>& rows, bool gpu_column);
    ImVec4 table_rect_{0, 0, 0, 0};
};

} // namespace synclab::ui
