// The lesson panel: "predict, then run". Before the selected variant has been run it shows the lesson, the
// question, and the student's prediction to pick (results right or wrong, which finding, hang or not;
// PredictCard, which keeps what the variant does hidden until then), with a big Run button; once a new run of
// this variant is in, it shows the outcome, which parts of the prediction came true, the verdict against the
// expectation, then what to look at and the fix (both in sight without scrolling at 1280x720), with the
// details folded below. Also holds the language switch (English / 简体中文).
#pragma once

#include "ui/core/app_state.h"
#include "ui/model/outcome_words.h"
#include "ui/views/predict_card.h"
#include "ui/model/ui_text.h"

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
    // (heading and text) and of the Run again button drawn in the last frame after a run, for the App's
    // layout regions; all zero when not drawn.
    struct Sections {
        ImVec4 look_at{0, 0, 0, 0}, fix{0, 0, 0, 0}, run_again{0, 0, 0, 0};
    };
    const Sections& sections() const { return sections_; }

    // The predict step's parts as last drawn (zero when not drawn): the question, the choices and the
    // variant's own text (PredictCard::Rects), and the Run button under the choices.
    PredictCard::Rects predict_rects() const { return predict_drawn_ ? predict_.rects() : PredictCard::Rects{}; }
    ImVec4 run_button() const { return run_button_; }

    // After a run: the height the panel's content needs (from the panel's top, scrolling left out)
    // to show everything down to the Run again button, so that the layout can give it that much; 0
    // when the last frame drew no results.
    float wanted_height() const { return wanted_h_; }

  private:
    void on_variant(const AppState& state);
    void draw_predict(AppState& state, const LessonFrameText& words);

    Prediction prediction_;
    const scenario::Variant* predicted_for_ = nullptr;
    uint64_t newest_seen_ = 0;   // the newest record serial drawn so far
    uint64_t results_after_ = 0; // results are shown for records newer than this only
    Sections sections_;
    PredictCard predict_;
    bool predict_drawn_ = false; // this frame (else its rectangles are an earlier frame's)
    ImVec4 run_button_{0, 0, 0, 0};
    float wanted_h_ = 0;
};

} // namespace synclab::ui
