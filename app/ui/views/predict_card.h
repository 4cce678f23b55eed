// The lesson panel's first step, "predict": before a run of the selected variant it shows the lesson's
// title and setting, the variant's name, the question and the three choices (results right or wrong,
// which finding, hang or not). What the variant does (its own text, which says what goes wrong) stays
// hidden until the student has answered all three or has run it, so that the prediction is theirs.
// With prediction turned off (AppState::predict: a teacher's talk) there are no choices and the
// variant's text shows at once, before the question.
#pragma once

#include "ui/core/app_state.h"
#include "ui/model/outcome_words.h"

#include <imgui.h>

namespace synclab::ui {

// Every part of the prediction is answered.
bool prediction_complete(const Prediction& prediction);

// Whether the variant's own text may show: prediction off, every part answered, or a run of it seen.
bool variant_revealed(bool predict, const Prediction& prediction, bool ran);

class PredictCard {
  public:
    // Draws into the current window (or table column) in two parts, one under the other or side by
    // side (the caller's choice: predict_beside): the setting (what to do first, the lesson's title
    // and what it shows, the variant's name), then the question and the choices (the Run button is
    // the caller's, under them). Writes `prediction`. `ran`: a run of this variant has been seen (its
    // results are hidden until the next run).
    void draw_setting(const AppState& state, const scenario::Scenario& s, const scenario::Variant& v);
    void draw_question(const AppState& state, const scenario::Scenario& s, const scenario::Variant& v,
                       bool ran, Prediction& prediction);
    // Under the Run button, once revealed (and with prediction on): what the variant does.
    void draw_revealed(const AppState& state, const scenario::Variant& v, bool ran,
                       const Prediction& prediction);

    // Screen rectangles (x0, y0, x1, y1) drawn in the last draw_question() and draw_revealed(), zero
    // when not drawn: the question,
    // the choices (with prediction on), and the variant's own text (once revealed).
    struct Rects {
        ImVec4 question{0, 0, 0, 0}, choices{0, 0, 0, 0}, variant{0, 0, 0, 0};
    };
    const Rects& rects() const { return rects_; }

  private:
    Rects rects_;
};

} // namespace synclab::ui
