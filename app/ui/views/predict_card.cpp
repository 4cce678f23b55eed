// Index
//   [SECTION] Drawing helpers
//   [SECTION] Choices
//   [SECTION] PredictCard
#include "ui/views/predict_card.h"

#include "ui/views/panel_widgets.h"
#include "ui/model/source_lines.h"
#include "ui/model/theme.h"
#include "ui/model/ui_text.h"

#include <imgui.h>

#include <algorithm>
#include <string>
#include <vector>

namespace synclab::ui {

bool prediction_complete(const Prediction& p) {
    return p.wrong_outputs != Guess::Unset && p.finding_set && p.hang != Guess::Unset;
}

bool variant_revealed(bool predict, const Prediction& prediction, bool ran) {
    return !predict || ran || prediction_complete(prediction);
}

namespace {

// [SECTION] Drawing helpers -------------------------------------------------------------------------

// A framed box around wrapped text, sized to its content (ImGui 1.86 has no auto-sizing child): the
// content is drawn on a foreground channel, then the frame behind it once its height is known. Returns
// the frame's screen rectangle.
ImVec4 boxed(const AppState& state, const char* title, const std::string& body) {
    const ImGuiStyle& style = ImGui::GetStyle();
    const float pad = ImGui::GetFontSize() * 0.5f;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float left = ImGui::GetCursorScreenPos().x;
    // (the content region's right edge: a table column's where the card is drawn in one)
    const float right = ImGui::GetWindowPos().x + ImGui::GetContentRegionMax().x;
    const theme::Palette& p = theme::palette(state.presenter);

    ImGui::Dummy({0.0f, pad * 0.5f});
    // A splitter of our own rather than the draw list's: safe even if the App draws this panel
    // inside a table or columns, which split the draw list themselves.
    ImDrawListSplitter layers;
    layers.Split(dl, 2);
    layers.SetCurrentChannel(dl, 1);
    ImGui::Indent(pad);
    ImGui::BeginGroup();
    widgets::coloured_text(p.accent, title);
    ImGui::PushTextWrapPos(ImGui::GetContentRegionMax().x - pad);
    ImGui::PushStyleColor(ImGuiCol_Text, p.text);
    ImGui::TextUnformatted(body.c_str());
    ImGui::PopStyleColor();
    ImGui::PopTextWrapPos();
    ImGui::EndGroup();
    ImGui::Unindent(pad);
    const ImVec2 min{left, ImGui::GetItemRectMin().y - pad};
    const ImVec2 max{right, ImGui::GetItemRectMax().y + pad};
    layers.SetCurrentChannel(dl, 0);
    // The theme's frame colour, opaque: the contrast test measures text on exactly this.
    dl->AddRectFilled(min, max, p.frame_bg, style.FrameRounding);
    dl->AddRect(min, max, p.accent, style.FrameRounding, 0, ImGui::GetFontSize() * 0.12f);
    layers.Merge(dl);
    ImGui::Dummy({0.0f, pad});
    return {min.x, min.y, max.x, max.y};
}

// A radio button that keeps to the line while it fits.
bool radio(const char* label, bool active, bool first) {
    if (!first)
        widgets::same_line_if_fits(ImGui::GetFrameHeight() + ImGui::CalcTextSize(label, nullptr, true).x +
                                   ImGui::GetStyle().ItemInnerSpacing.x);
    return ImGui::RadioButton(label, active);
}

// The screen rectangle of the items drawn since `start` (a cursor position), to the content region's
// right edge (a table column's where drawn in one).
ImVec4 since(ImVec2 start) {
    return {start.x, start.y, ImGui::GetWindowPos().x + ImGui::GetContentRegionMax().x,
            ImGui::GetItemRectMax().y};
}

// [SECTION] Choices ---------------------------------------------------------------------------------

// The findings a student may predict: every kind, but a memory error only in a lesson about one (it
// is never part of a lesson by accident, scenario/lesson.cpp), so that the row stays one line.
std::vector<analysis::FindingKind> prediction_kinds(const scenario::Scenario& s) {
    std::vector<analysis::FindingKind> out;
    for (analysis::FindingKind kind : scenario::all_finding_kinds()) {
        bool taught = kind != analysis::FindingKind::OutOfBounds;
        for (const scenario::Variant& v : s.variants)
            taught = taught || std::find(v.expect.must_find.begin(), v.expect.must_find.end(), kind) !=
                                   v.expect.must_find.end();
        if (taught) out.push_back(kind);
    }
    return out;
}

void draw_prediction_pickers(Prediction& p, const scenario::Scenario& s, Language language,
                             const LessonFrameText& words) {
    ImGui::PushID("prediction");
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(words.results_q);
    ImGui::SameLine();
    if (radio(words.right, p.wrong_outputs == Guess::No, true)) p.wrong_outputs = Guess::No;
    if (radio(words.wrong, p.wrong_outputs == Guess::Yes, false)) p.wrong_outputs = Guess::Yes;

    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(words.finding_q);
    ImGui::SameLine();
    if (radio(words.none, p.finding_set && !p.finding, true)) {
        p.finding_set = true;
        p.finding.reset();
    }
    for (analysis::FindingKind kind : prediction_kinds(s)) {
        const std::string label = kind_words(kind, language, false) + "##kind" + std::to_string(int(kind));
        if (radio(label.c_str(), p.finding_set && p.finding == kind, false)) {
            p.finding_set = true;
            p.finding = kind;
        }
    }

    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(words.hang_q);
    ImGui::SameLine();
    if (radio(words.completes, p.hang == Guess::No, true)) p.hang = Guess::No;
    if (radio(words.hangs, p.hang == Guess::Yes, false)) p.hang = Guess::Yes;
    ImGui::PopID();
}

} // namespace

// [SECTION] PredictCard -------------------------------------------------------------------------------

void PredictCard::draw_setting(const AppState& state, const scenario::Scenario& s,
                               const scenario::Variant& v) {
    const Language language = shown_language(state);
    const LessonFrameText& words = ui_text(language).lesson;
    const theme::Palette& p = theme::palette(state.presenter);
    const scenario::LessonText& lesson = lesson_text(state, s.en, s.zh);
    const scenario::LessonText& note = lesson_text(state, v.en, v.zh);

    // The first minute: nothing has run yet in this session, so say what to do first (not to a
    // speaker's room: presenter mode has no browser to pick from).
    if (state.badges.empty() && state.current == nullptr && !state.presenter) {
        widgets::coloured_text_wrapped(p.accent, ui_text(language).classroom.first_steps);
        ImGui::Spacing();
    }
    widgets::wrapped(lesson.title.c_str());
    if (!lesson.shows.empty()) {
        widgets::heading(words.what_it_shows, p.accent);
        widgets::wrapped(lesson.shows.c_str());
    }
    // The variant's name always; what it does (which gives the answer away) only without a prediction
    // to make: with one, it comes after the choices once revealed (draw_revealed).
    if (!note.title.empty() || (!state.predict && !note.shows.empty())) {
        widgets::heading(words.this_variant, p.accent);
        if (!note.title.empty()) widgets::wrapped(note.title.c_str());
        if (!state.predict && !note.shows.empty()) widgets::wrapped(note.shows.c_str());
    }
}

void PredictCard::draw_question(const AppState& state, const scenario::Scenario& s,
                                const scenario::Variant& v, bool ran, Prediction& prediction) {
    rects_ = {};
    const Language language = shown_language(state);
    const LessonFrameText& words = ui_text(language).lesson;
    const theme::Palette& p = theme::palette(state.presenter);
    const scenario::LessonText& lesson = lesson_text(state, s.en, s.zh);
    const scenario::LessonText& note = lesson_text(state, v.en, v.zh);

    ImGui::Spacing();
    rects_.question = boxed(state, words.predict, note.predict.empty() ? lesson.predict : note.predict);
    if (!state.predict) return;
    const ImVec2 start = ImGui::GetCursorScreenPos();
    widgets::heading(words.your_prediction, p.accent);
    draw_prediction_pickers(prediction, s, language, words);
    rects_.choices = since(start);
    if (!variant_revealed(state.predict, prediction, ran)) widgets::disabled_wrapped(words.predict_hint);
}

void PredictCard::draw_revealed(const AppState& state, const scenario::Variant& v, bool ran,
                                const Prediction& prediction) {
    const scenario::LessonText& note = lesson_text(state, v.en, v.zh);
    if (!state.predict || note.shows.empty() || !variant_revealed(state.predict, prediction, ran)) return;
    const ImVec2 start = ImGui::GetCursorScreenPos();
    widgets::heading(ui_text(shown_language(state)).classroom.variant_does,
                     theme::palette(state.presenter).accent);
    widgets::wrapped(note.shows.c_str());
    rects_.variant = since(start);
}

} // namespace synclab::ui
