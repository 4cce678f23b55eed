// A run's result in one line, where a run is named (the status line, the timeline headers, compare's
// two headers): its own outcome in its colour, then, for a lesson's run, whether it matched the lesson
// in its colour: "wrong outputs · 331 of 16,384 wrong · 4 findings · as expected" (outcome_words.h).
#pragma once

#include "runner/outcome.h"
#include "ui/core/app_state.h"
#include "ui/model/outcome_words.h" // record_summary_words

#include <optional>
#include <string>
#include <string_view>

namespace synclab::ui {

// The line drawn: on the current line (the status line clips it before the key hint), or flowed after
// the last item (flow: the timeline header breaks it between its parts, never inside a word).
void draw_record_summary(const RunRecord& record, Language language, bool presenter, bool flow = false);

// Text after the last item, in pieces split at `separator`: each piece stays on the line while it
// fits and moves to the next line whole where it does not; a piece wider than a whole line wraps at
// its spaces. Nothing is cut mid-word at the window's edge.
void flow_text(const std::string& text, uint32_t rgba, std::string_view separator = " \u00b7 ");

} // namespace synclab::ui
