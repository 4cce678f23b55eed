// Index
//   [SECTION] Words (en / zh)
//   [SECTION] Drawing helpers
//   [SECTION] Predict
//   [SECTION] Results
//   [SECTION] LessonPanel
#include "ui/views/lesson_panel.h"

#include "ui/model/layout_plan.h"
#include "ui/views/panel_widgets.h"
#include "ui/views/predict_card.h"
#include "ui/views/run_panel.h"
#include "ui/model/source_lines.h"
#include "ui/model/theme.h"
#include "ui/model/ui_text.h"

#include <imgui.h>

#include <cctype>
#include <cmath>
#include <cstdio>
#include <string>

namespace synclab::ui {

// [SECTION] Words (en / zh) ----------------------------------------------------------------------

namespace {

// The panel's fixed words (ui_text.h). The lesson text comes from the catalog; these frame it in
// the same language.
using Labels = LessonFrameText;

const Labels& words_for(Language language) {
    return ui_text(language).lesson;
}

// [SECTION] Drawing helpers -------------------------------------------------------------------------

const theme::Palette& colours(const AppState& state) {
    return theme::palette(state.presenter);
}

const std::string& first_of(const std::string& preferred, const std::string& fallback) {
    return preferred.empty() ? fallback : preferred;
}

void section(const AppState& state, const char* title, const std::string& body) {
    if (body.empty()) return;
    widgets::heading(title, colours(state).accent);
    widgets::wrapped(body.c_str());
}

// A paragraph that starts with its title in the accent colour on the same line ("What to look at: A
// race finding ..."), a line shorter than a heading above the text. Returns its screen rectangle.
ImVec4 lead_paragraph(const AppState& state, const char* title, const std::string& body) {
    if (body.empty()) return {0, 0, 0, 0};
    const ImVec2 start = ImGui::GetCursorScreenPos();
    const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    ImGui::Dummy({0.0f, ImGui::GetStyle().ItemSpacing.y * 0.5f});
    const std::string lead = std::string(title) + (shown_language(state) == Language::Zh ? "：" : ":");
    widgets::coloured_text(colours(state).accent, lead.c_str());
    ImGui::SameLine();
    const char* text = body.c_str();
    const char* end = text + body.size();
    const char* cut = widgets::first_line_end(text, end, std::max(0.0f, right - ImGui::GetCursorScreenPos().x));
    ImGui::TextUnformatted(text, cut);
    while (cut < end && (*cut == ' ' || *cut == '\n'))
        ++cut;
    if (cut < end) widgets::wrapped(std::string(cut, end).c_str());
    return {start.x, start.y, right, ImGui::GetItemRectMax().y};
}

void draw_language_switch(AppState& state) {
    const Language shown = shown_language(state);
    if (ImGui::RadioButton("English", shown == Language::En)) state.language = Language::En;
    ImGui::SameLine();
    ImGui::BeginDisabled(!state.cjk_font);
    // Without a CJK font the label itself would be drawn as question marks.
    if (ImGui::RadioButton(state.cjk_font ? "简体中文" : "Chinese", shown == Language::Zh))
        state.language = Language::Zh;
    ImGui::EndDisabled();
    if (!state.cjk_font) {
        const std::string why = state.cjk_hint.empty() ? "no CJK font was found" : state.cjk_hint;
        widgets::tooltip(why.c_str(), ImGuiHoveredFlags_AllowWhenDisabled);
        const std::string hint = "(" + why + ")";
        widgets::same_line_if_fits(ImGui::CalcTextSize(hint.c_str()).x);
        widgets::disabled_wrapped(hint.c_str());
    }
    widgets::about_button(ui_text(shown_language(state)).about.lesson);
}

// The Run button's label: what it does and what will run, so that the prediction is about the right
// schedule (or the GPU).
std::string run_label(const AppState& state, const Labels& words, bool big) {
    const Controls& c = state.controls;
    std::string label = (state.progress.running ? words.running : big ? words.run : words.run_again).s;
    const std::string how =
        c.backend == "gpu" ? std::string("GPU") : schedule_words(c.schedule, shown_language(state));
    label += fill(c.reps == 1 ? words.rep_one : words.run_how,
                  {how, std::to_string(c.seed), std::to_string(c.reps)});
    return label + "##run";
}

// The Run button (big: the whole width, before a run), and under it the progress of a run.
void draw_run_button(AppState& state, const Labels& words, bool big) {
    const std::string label = run_label(state, words, big);
    const ImVec2 size = big ? ImVec2{-FLT_MIN, ImGui::GetFontSize() * 2.5f} : ImVec2{0.0f, 0.0f};
    ImGui::BeginDisabled(state.progress.running);
    if (ImGui::Button(label.c_str(), size)) state.requests.run = true;
    ImGui::EndDisabled();
    if (state.progress.running)
        ImGui::ProgressBar(static_cast<float>(state.progress.fraction), {-FLT_MIN, 0.0f},
                           state.progress.what.c_str());
}

// [SECTION] Predict ---------------------------------------------------------------------------------

// [SECTION] Results ---------------------------------------------------------------------------------

// The parts of the prediction, one coloured piece each, kept to one line while they fit.
void draw_prediction_check(const AppState& state, const Prediction& prediction,
                           const runner::RunSummary& summary, const Labels& words) {
    const theme::Palette& p = colours(state);
    const std::vector<PredictionPart> parts = check_prediction(prediction, summary, shown_language(state));
    if (parts.empty()) {
        // (a teacher who turned predictions off asked for none)
        if (state.predict) widgets::disabled_wrapped(words.no_prediction);
        return;
    }
    const char* yes = widgets::glyph_or(0x2713, "\u2713", "[yes]");
    const char* no = widgets::glyph_or(0x2717, "\u2717", "[no]");
    widgets::coloured_text(p.accent, words.your_prediction);
    for (const PredictionPart& part : parts) {
        const std::string text = std::string(part.came == Came::True    ? yes
                                             : part.came == Came::False ? no
                                                                        : "?") +
                                 " " + part.guess + " (" + part.actual + ")";
        widgets::same_line_if_fits(ImGui::CalcTextSize(text.c_str()).x);
        widgets::coloured_text(part.came == Came::True    ? p.good
                               : part.came == Came::False ? p.bad
                                                          : p.text_disabled,
                               text.c_str());
    }
}

void draw_details(AppState& state, const scenario::Variant& v, const RunRecord& record, const Labels& words,
                  const std::string& question) {
    const runner::RunSummary& summary = record.summary;
    const Language language = shown_language(state);
    const theme::Palette& p = colours(state);
    if (!record.label.empty()) widgets::disabled_wrapped(record.label.c_str());
    widgets::coloured_text_wrapped(summary.wrong_outputs > 0 ? p.bad : p.text,
                                   wrong_outputs_text(summary, language).c_str());
    if (!summary.check_summary.empty())
        widgets::disabled_wrapped(check_summary_words(summary.check_summary, language).c_str());
    if (!summary.message.empty()) widgets::disabled_wrapped(summary.message.c_str());
    const std::vector<analysis::FindingKind> kinds = runner::finding_kinds(summary);
    if (!summary.traced) {
        ImGui::TextUnformatted(words.not_traced);
    } else if (kinds.empty()) {
        ImGui::TextUnformatted(words.no_findings);
    } else {
        std::string found = fill(words.findings, {std::to_string(summary.findings.size())});
        for (size_t i = 0; i < kinds.size(); ++i)
            found += (i == 0                     ? " "
                      : language == Language::Zh ? "、"
                                                 : ", ") +
                     kind_words(kinds[i], language, false);
        widgets::wrapped(found.c_str());
    }
    if (record.options.backend == "gpu") {
        // Both sides, each on its own line: the untraced outcome is the hardware's, the traced one
        // is what the timeline shows.
        widgets::heading(words.on_gpu, p.accent);
        if (!summary.device.empty()) widgets::disabled_wrapped(summary.device.c_str());
        if (summary.gpu_untraced.ran)
            widgets::coloured_text_wrapped(summary.gpu_untraced.wrong_outputs > 0 ||
                                                   summary.gpu_untraced.status != trace::RunStatus::Ok
                                               ? p.bad
                                               : p.text,
                                           gpu_side_text(summary.gpu_untraced, false).c_str());
        if (record.options.gpu.traced && summary.gpu_traced.ran)
            widgets::coloured_text_wrapped(summary.gpu_traced.status != trace::RunStatus::Ok ? p.bad : p.text,
                                           gpu_side_text(summary.gpu_traced, true).c_str());
        widgets::disabled_wrapped(words.gpu_note);
    }
    (void)v;
    section(state, words.the_question, question);
}

void draw_results(AppState& state, const scenario::Scenario& s, const scenario::Variant& v,
                  const RunRecord& record, const Labels& words, const Prediction& prediction,
                  LessonPanel::Sections& sections) {
    const scenario::LessonText& lesson = lesson_text(state, s.en, s.zh);
    const scenario::LessonText& note = lesson_text(state, v.en, v.zh);
    const runner::RunSummary& summary = record.summary;
    const Language language = shown_language(state);
    const theme::Palette& p = colours(state);

    // What happened, in one line with the colour it deserves ("completed" is not "correct").
    const Outcome outcome = outcome_of(summary, language);
    widgets::coloured_text_wrapped(theme::tone_ink(outcome.tone, state.presenter), outcome.words.c_str());
    draw_raise_step_budget(state); // (a run its step budget stopped: the control, where the student looks)
    draw_prediction_check(state, prediction, summary, words);

    // What to look at and the fix come first: at 1280x720 the lesson shows about ten lines, and
    // these are what the student does next (a GUI test checks they are in sight).
    sections.look_at = lead_paragraph(state, words.look_at, first_of(note.look_at, lesson.look_at));
    sections.fix = lead_paragraph(state, words.fix, first_of(note.fix, lesson.fix));

    // The verdict against the lesson's expectation, with Run again beside it where the line has the
    // room (at 1280x720 the pane shows about ten lines: the button must not be the one cut at its
    // bottom), then the expectation as a sentence.
    const std::string expected = expectation_sentence(v.expect, language, summary.findings);
    const auto run_again = [&] {
        draw_run_button(state, words, false);
        const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
        if (!state.progress.running)
            sections.run_again = ImVec4(a.x, a.y, b.x, b.y); // (else: the progress bar)
    };
    ImGui::Spacing();
    if (record.options.backend == "gpu") {
        widgets::disabled_wrapped(expected.c_str());
        ImGui::Spacing();
        run_again();
    } else {
        const runner::VerdictCheck verdict = verdict_for(v, record);
        // Not green when it passes: "as expected" of a broken variant sits beside wrong outputs, and
        // green there would read as "right" (outcome_words.h: the match has a tone of its own). Run
        // again sits beside it where the line has the room.
        const runner::LessonMatch match = runner::lesson_match(verdict);
        std::string word = match_word(match, language);
        if (language == Language::En && !word.empty()) word[0] = char(std::toupper(static_cast<unsigned char>(word[0])));
        const std::string said =
            fill(match == runner::LessonMatch::AsExpected ? words.as_expected : words.surprise, {word});
        const uint32_t ink = theme::tone_ink(match_tone(match), state.presenter);
        const float button = widgets::button_width(run_label(state, words, false).c_str());
        const float gap = ImGui::GetFontSize();
        ImGui::AlignTextToFramePadding();
        if (ImGui::CalcTextSize(said.c_str()).x + gap + button <= ImGui::GetContentRegionAvail().x) {
            widgets::coloured_text(ink, said.c_str());
            ImGui::SameLine(0, gap);
        } else {
            widgets::coloured_text_wrapped(ink, said.c_str());
        }
        run_again();
        for (const std::string& problem : verdict.problems) {
            ImGui::Bullet();
            widgets::coloured_text_wrapped(p.bad, problem.c_str());
        }
        widgets::disabled_wrapped(expected.c_str());
    }
    // Run, so revealed: what the variant does, under what the student does next (with prediction
    // off it was on screen before the run already, and stays in "The lesson" below).
    if (state.predict) lead_paragraph(state, ui_text(language).classroom.variant_does, note.shows);

    ImGui::Spacing();
    if (ImGui::CollapsingHeader(words.details))
        draw_details(state, v, record, words, first_of(note.predict, lesson.predict));
    if (ImGui::CollapsingHeader(words.the_lesson)) {
        widgets::wrapped(lesson.title.c_str());
        if (!note.title.empty()) widgets::wrapped(note.title.c_str());
        ImGui::Spacing();
        widgets::wrapped(lesson.shows.c_str());
        if (!note.shows.empty()) {
            ImGui::Spacing();
            widgets::wrapped(note.shows.c_str());
        }
    }
}

} // namespace

// [SECTION] LessonPanel -------------------------------------------------------------------------------

void LessonPanel::draw_predict(AppState& state, const Labels& words) {
    const scenario::Scenario& s = *state.scenario;
    const scenario::Variant& v = *state.variant;
    const RunRecord* record = state.current.get();
    const bool ran = record_is_of(record, &s, &v) && !record->provisional;
    // The question, the choices and the Run button, then what the variant does once revealed.
    const auto question = [&] {
        predict_.draw_question(state, s, v, ran, prediction_);
        predict_drawn_ = true;
        draw_run_button(state, words, true);
        run_button_ = ImVec4(ImGui::GetItemRectMin().x, ImGui::GetItemRectMin().y, ImGui::GetItemRectMax().x,
                             ImGui::GetItemRectMax().y);
        predict_.draw_revealed(state, v, ran, prediction_);
        if (record != nullptr) {
            ImGui::Spacing();
            widgets::disabled_wrapped(ran ? words.earlier_run : words.other_run);
        }
    };
    // The language switch over the setting.
    const auto setting = [&] {
        draw_language_switch(state);
        ImGui::Separator();
        predict_.draw_setting(state, s, v);
    };
    const float em = ImGui::GetFontSize();
    if (predict_beside(ImGui::GetContentRegionAvail().x, em, state.presenter)) {
        // Side by side, one scroll for both (a clicker's PgDn scrolls the pane); the question's
        // column starts at the top.
        ImGui::PushStyleVar(ImGuiStyleVar_CellPadding, ImVec2(em * 0.6f, 0.0f));
        const bool table = ImGui::BeginTable(
            "##predict", 2, ImGuiTableFlags_SizingStretchSame | ImGuiTableFlags_BordersInnerV);
        if (table) {
            ImGui::TableNextColumn();
            setting();
            ImGui::TableNextColumn();
            question();
            ImGui::EndTable();
        }
        ImGui::PopStyleVar();
        if (table) return;
    }
    setting();
    question();
}

void LessonPanel::on_variant(const AppState& state) {
    if (state.variant == predicted_for_) return;
    // A new selection (or coming back to a variant): a new prediction, and the results of runs seen
    // before stay hidden until the next run.
    predicted_for_ = state.variant;
    prediction_ = {};
    results_after_ = newest_seen_;
}

void LessonPanel::draw(AppState& state) {
    ImGui::PushID("lesson_panel");
    sections_ = {};
    run_button_ = ImVec4(0, 0, 0, 0);
    wanted_h_ = 0;
    predict_drawn_ = false;
    on_variant(state);
    const Labels& words = words_for(shown_language(state));
    ImGui::PushStyleColor(ImGuiCol_Text, colours(state).text);
    const RunRecord* record = state.current.get();
    // A live run's partial record is no result yet: the question stays up until the kernel ends.
    const bool results = state.scenario != nullptr && state.variant != nullptr &&
                         record_is_of(record, state.scenario, state.variant) && !record->provisional &&
                         record->serial > results_after_;
    if (results) {
        // The results need every line of the panel: the language switch goes to the end (the View
        // menu has it too).
        draw_results(state, *state.scenario, *state.variant, *record, words, prediction_, sections_);
        if (sections_.run_again.w > 0) {
            const float content_top = ImGui::GetWindowPos().y - ImGui::GetScrollY();
            wanted_h_ = std::ceil(sections_.run_again.w - content_top + ImGui::GetStyle().ItemSpacing.y);
        }
        ImGui::Separator();
        draw_language_switch(state);
    } else if (state.scenario == nullptr || state.variant == nullptr) {
        draw_language_switch(state);
        ImGui::Separator();
        widgets::wrapped(words.pick);
    } else {
        draw_predict(state, words); // (the language switch too: over the lesson's setting)
    }
    if (state.current) newest_seen_ = std::max(newest_seen_, state.current->serial);
    ImGui::PopStyleColor();
    ImGui::PopID();
}

} // namespace synclab::ui
