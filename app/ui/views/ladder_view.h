// The Ladder view: the optimisation ladder of the selected lesson (runner/ladder.h) as bars side by
// side, one per variant in lesson order, each with its time and its ratio to the first (naive)
// variant, and a line naming the backend and the unit. The Run button raises
// state.requests.run_ladder (the App runs it on its background runner, on the run panel's backend).
#pragma once

#include "runner/ladder.h"
#include "ui/core/app_state.h"
#include "ui/model/outcome_words.h"

#include <imgui.h>

#include <string>

namespace synclab::ui {

// A rung's ratio in words, in the shown language: "12.5× faster", "baseline", "not timed: ...".
std::string ladder_ratio_words(const runner::Ladder& ladder, const runner::LadderRung& rung, Language language);
// A rung's time with its unit: "123,456 cycles", "0.0123 ms".
std::string ladder_time_words(const runner::Ladder& ladder, const runner::LadderRung& rung, Language language);
// A rung's run in the vocabulary of outcome_words.h: "right", "wrong outputs · 12 of 16,384 wrong",
// "hung", ... with its tone (a rung carries no findings: right is Good).
Outcome ladder_rung_outcome(const runner::LadderRung& rung, Language language);

class LadderView {
  public:
    void draw(AppState& state);
    // Screen rectangle (x0, y0, x1, y1) of the bars drawn last frame (zero: none).
    ImVec4 bars_rect() const { return bars_rect_; }

  private:
    void draw_bars(const AppState& state, const runner::Ladder& ladder);
    ImVec4 bars_rect_{0, 0, 0, 0};
};

} // namespace synclab::ui
