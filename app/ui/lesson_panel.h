// The lesson panel: "predict, then run". Before the selected variant has been run it shows the lesson,
// the question, and the student's prediction to pick (results right or wrong, which finding, hang or
// not), with a big Run button; once a new run of this variant is in, it shows the outcome, which parts
// of the prediction came true, the verdict against the expectation, then what to look at and the fix
// (both in sight without scrolling at 1280x720), with the details folded below. Also holds the
// language switch (English / 简体中文).
#pragma once

#include "ui/app_state.h"
#include "ui/outcome_words.h"

#include <imgui.h>

#include <cstdint>

namespace synclab::ui {

class LessonPanel {
  public:
    // Draws into the current window. Writes state.language and state.requests.run only.
    void draw(AppState& state);

    // The prediction for the selected variant; reset when another variant is selected (and so when
    // the student comes back to this one).
    const Prediction& prediction() const { return prediction_; }
    Prediction& prediction() { return prediction_; }

    // Screen rectangles (min x, min y, max x, max y) of the "What to look at" and "The fix" sections
    // drawn in the last frame (heading and text), for the App's layout regions; all zero when not drawn.
    struct Sections {
        ImVec4 look_at{0, 0, 0, 0}, fix{0, 0, 0, 0};
    };
    const Sections& sections() const { return sections_; }

  private:
    void on_variant(const AppState& state);

    Prediction prediction_;
    const scenario::Variant* predicted_for_ = nullptr;
    uint64_t newest_seen_ = 0;   // the newest record serial drawn so far
    uint64_t results_after_ = 0; // results are shown for records newer than this only
    Sections sections_;
};

} // namespace synclab::ui
