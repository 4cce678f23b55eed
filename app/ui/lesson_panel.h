// The lesson panel: "predict, then run". Before the selected variant has been run it shows the lesson
// and the question to answer, with a big Run button; once the current run is of this variant it
// reveals the results (status, wrong outputs, verdict against the expectation), then what to look at
// and the fix. Also holds the language switch (English / 简体中文).
#pragma once

#include "ui/app_state.h"

namespace synclab::ui {

class LessonPanel {
  public:
    // Draws into the current window. Writes state.language and state.requests.run only.
    void draw(AppState& state);
};

} // namespace synclab::ui
