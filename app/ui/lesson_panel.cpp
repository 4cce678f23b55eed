// Index
//   [SECTION] Words (en / zh)
//   [SECTION] Drawing helpers
//   [SECTION] LessonPanel
#include "ui/lesson_panel.h"

#include "ui/panel_widgets.h"
#include "ui/source_lines.h"
#include "ui/theme.h"

#include <imgui.h>

#include <cstdio>
#include <string>

namespace synclab::ui {

// [SECTION] Words (en / zh) ----------------------------------------------------------------------

namespace {

// The panel's fixed words. The lesson text comes from the catalog; these frame it in the same language.
struct Labels {
    const char* what_it_shows;
    const char* this_variant;
    const char* predict;
    const char* predict_hint;
    const char* run;
    const char* run_again;
    const char* running;
    const char* results;
    const char* you_predicted;
    const char* verdict;
    const char* as_expected;
    const char* not_as_expected;
    const char* expected;
    const char* findings; // printf format of the finding count, followed by the kinds
    const char* no_findings;
    const char* not_traced;
    const char* look_at;
    const char* fix;
    const char* the_lesson;
    const char* pick;
    const char* other_run;
    const char* on_gpu;   // heading of the GPU run's two sides
    const char* gpu_note; // why the lesson's verdict is not applied to a GPU run
};

constexpr Labels kEnglish = {
    .what_it_shows = "What it shows",
    .this_variant = "This variant",
    .predict = "Predict",
    .predict_hint = "Answer before you run: the results stay hidden until then.",
    .run = "Run",
    .run_again = "Run again",
    .running = "Running...",
    .results = "Results",
    .you_predicted = "You predicted",
    .verdict = "Verdict",
    .as_expected = "As expected",
    .not_as_expected = "NOT as expected",
    .expected = "expected",
    .findings = "%zu finding(s):",
    .no_findings = "no findings",
    .not_traced = "not traced: no findings either way",
    .look_at = "What to look at",
    .fix = "The fix",
    .the_lesson = "The lesson",
    .pick = "Pick a scenario and a variant in the scenario browser.",
    .other_run = "The views show the last run, of another variant; run this one to see its results.",
    .on_gpu = "On the GPU",
    .gpu_note = "The lesson's verdict is about the simulator. On the GPU, compare the untraced outcome (the "
                "hardware's own) with the traced one: tracing slows the kernel and can hide a race.",
};

constexpr Labels kChinese = {
    .what_it_shows = "演示内容",
    .this_variant = "这个版本",
    .predict = "先预测",
    .predict_hint = "运行之前先回答：结果在运行之后才会显示。",
    .run = "运行",
    .run_again = "再运行一次",
    .running = "正在运行……",
    .results = "结果",
    .you_predicted = "你的预测",
    .verdict = "结论",
    .as_expected = "符合预期",
    .not_as_expected = "不符合预期",
    .expected = "预期",
    .findings = "%zu 项发现：",
    .no_findings = "没有发现",
    .not_traced = "未记录 trace：无法给出发现",
    .look_at = "看什么",
    .fix = "怎么修",
    .the_lesson = "课程内容",
    .pick = "请在场景浏览器里选择一个场景和版本。",
    .other_run = "各视图显示的是上一次运行（另一个版本）；运行这个版本才能看到它的结果。",
    .on_gpu = "在 GPU 上",
    .gpu_note =
        "课程的结论针对模拟器。在 GPU 上请比较未记录 trace 的结果（硬件本身的行为）和记录 trace 的结果："
        "记录 trace 会让内核变慢，可能掩盖竞争。",
};

const Labels& words_for(Language language) {
    return language == Language::Zh ? kChinese : kEnglish;
}

// [SECTION] Drawing helpers -------------------------------------------------------------------------

constexpr const char* kAbout =
    "The lesson of the selected variant, in two steps.\n\n"
    "Predict: read what the kernel does and answer the question before running it. The results stay "
    "hidden until this variant has been run.\n\n"
    "Run: the results appear here: how the run ended, how many outputs were wrong, and whether the run "
    "showed what the lesson expects (the same check the verdict tests make). Then: what to look at in "
    "the source, timeline and findings, and how to fix the kernel.\n\n"
    "The language switch changes the lesson text; Chinese needs a CJK font.";

// An accent that means nothing in the theme (theme colours are reserved for events and findings).
uint32_t accent() {
    return ImGui::GetColorU32(ImGuiCol_CheckMark);
}

const std::string& first_of(const std::string& preferred, const std::string& fallback) {
    return preferred.empty() ? fallback : preferred;
}

void section(const char* title, const std::string& body) {
    if (body.empty()) return;
    widgets::heading(title, accent());
    widgets::wrapped(body.c_str());
}

// A framed box around wrapped text, sized to its content (ImGui 1.86 has no auto-sizing child): the
// content is drawn on a foreground channel, then the frame behind it once its height is known.
void boxed(const char* title, const std::string& body) {
    const ImGuiStyle& style = ImGui::GetStyle();
    const float pad = ImGui::GetFontSize() * 0.5f;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float left = ImGui::GetCursorScreenPos().x;
    const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;

    ImGui::Dummy({0.0f, pad * 0.5f});
    // A splitter of our own rather than the draw list's: safe even if the App draws this panel
    // inside a table or columns, which split the draw list themselves.
    ImDrawListSplitter layers;
    layers.Split(dl, 2);
    layers.SetCurrentChannel(dl, 1);
    ImGui::Indent(pad);
    ImGui::BeginGroup();
    widgets::coloured_text(accent(), title);
    ImGui::PushTextWrapPos(ImGui::GetContentRegionMax().x - pad);
    ImGui::TextUnformatted(body.c_str());
    ImGui::PopTextWrapPos();
    ImGui::EndGroup();
    ImGui::Unindent(pad);
    const ImVec2 min{left, ImGui::GetItemRectMin().y - pad};
    const ImVec2 max{right, ImGui::GetItemRectMax().y + pad};
    layers.SetCurrentChannel(dl, 0);
    dl->AddRectFilled(min, max, ImGui::GetColorU32(ImGuiCol_FrameBg), style.FrameRounding);
    dl->AddRect(min, max, accent(), style.FrameRounding, 0, ImGui::GetFontSize() * 0.12f);
    layers.Merge(dl);
    ImGui::Dummy({0.0f, pad});
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
    widgets::about_button(kAbout);
}

void draw_run_button(AppState& state, const Labels& words, bool big) {
    const Controls& c = state.controls;
    std::string label = state.progress.running ? words.running : big ? words.run : words.run_again;
    // Say what will run, so that the prediction is about the right schedule (or the GPU).
    const std::string how = c.backend == "gpu" ? std::string("GPU") : sim::to_string(c.schedule);
    label += "  (" + how + ", seed " + std::to_string(c.seed) + ", " + std::to_string(c.reps) +
             (c.reps == 1 ? " rep)" : " reps)");
    label += "##run";
    const ImVec2 size = big ? ImVec2{-FLT_MIN, ImGui::GetFontSize() * 2.5f} : ImVec2{0.0f, 0.0f};
    ImGui::BeginDisabled(state.progress.running);
    if (ImGui::Button(label.c_str(), size)) state.requests.run = true;
    ImGui::EndDisabled();
    if (state.progress.running)
        ImGui::ProgressBar(static_cast<float>(state.progress.fraction), {-FLT_MIN, 0.0f},
                           state.progress.what.c_str());
}

void draw_predict(AppState& state, const scenario::Scenario& s, const scenario::Variant& v,
                  const Labels& words) {
    const scenario::LessonText& lesson = lesson_text(state, s.en, s.zh);
    const scenario::LessonText& note = lesson_text(state, v.en, v.zh);

    widgets::wrapped(lesson.title.c_str());
    section(words.what_it_shows, lesson.shows);
    if (!note.title.empty() || !note.shows.empty()) {
        widgets::heading(words.this_variant, accent());
        if (!note.title.empty()) widgets::wrapped(note.title.c_str());
        if (!note.shows.empty()) widgets::wrapped(note.shows.c_str());
    }

    ImGui::Spacing();
    boxed(words.predict, first_of(note.predict, lesson.predict));
    widgets::disabled_wrapped(words.predict_hint);
    draw_run_button(state, words, true);

    if (state.current != nullptr) {
        ImGui::Spacing();
        widgets::disabled_wrapped(words.other_run);
    }
}

void draw_results(AppState& state, const scenario::Scenario& s, const scenario::Variant& v,
                  const RunRecord& record, const Labels& words) {
    const scenario::LessonText& lesson = lesson_text(state, s.en, s.zh);
    const scenario::LessonText& note = lesson_text(state, v.en, v.zh);
    const runner::RunSummary& summary = record.summary;
    const Language language = shown_language(state);

    widgets::wrapped(lesson.title.c_str());
    if (!note.title.empty()) widgets::wrapped(note.title.c_str());

    widgets::heading(words.results, accent());
    if (!record.label.empty()) ImGui::TextDisabled("%s", record.label.c_str());
    widgets::coloured_text_wrapped(status_colour(summary.status), status_text(summary).c_str());
    widgets::coloured_text_wrapped(summary.wrong_outputs > 0 ? theme::kDeadlock
                                                             : ImGui::GetColorU32(ImGuiCol_Text),
                                   wrong_outputs_text(summary, language).c_str());
    if (!summary.check_summary.empty()) {
        widgets::disabled_wrapped(summary.check_summary.c_str());
    }
    if (record.options.backend == "gpu") {
        // Both sides, each on its own line: the untraced outcome is the hardware's, the traced one
        // is what the timeline shows.
        widgets::heading(words.on_gpu, accent());
        if (!summary.device.empty()) ImGui::TextDisabled("%s", summary.device.c_str());
        if (summary.gpu_untraced.ran)
            widgets::coloured_text_wrapped(summary.gpu_untraced.wrong_outputs > 0 ||
                                                   summary.gpu_untraced.status != trace::RunStatus::Ok
                                               ? theme::kDeadlock
                                               : ImGui::GetColorU32(ImGuiCol_Text),
                                           gpu_side_text(summary.gpu_untraced, false).c_str());
        if (record.options.gpu.traced && summary.gpu_traced.ran)
            widgets::coloured_text_wrapped(summary.gpu_traced.status != trace::RunStatus::Ok
                                               ? theme::kDeadlock
                                               : ImGui::GetColorU32(ImGuiCol_Text),
                                           gpu_side_text(summary.gpu_traced, true).c_str());
    }
    const std::vector<analysis::FindingKind> kinds = runner::finding_kinds(summary);
    if (!summary.traced) {
        ImGui::TextUnformatted(words.not_traced);
    } else if (kinds.empty()) {
        ImGui::TextUnformatted(words.no_findings);
    } else {
        char count[64];
        std::snprintf(count, sizeof count, words.findings, summary.findings.size());
        std::string found = count;
        for (size_t i = 0; i < kinds.size(); ++i)
            found += (i == 0 ? " " : ", ") + std::string(analysis::to_string(kinds[i]));
        widgets::wrapped(found.c_str());
    }

    widgets::heading(words.verdict, accent());
    if (record.options.backend == "gpu") {
        widgets::disabled_wrapped(words.gpu_note);
        widgets::disabled_wrapped((std::string(words.expected) + ": " + expectation_text(v.expect)).c_str());
    } else {
        const runner::VerdictCheck verdict = verdict_for(v, record);
        widgets::coloured_text(verdict.pass ? theme::kOk : theme::kDeadlock,
                               verdict.pass ? words.as_expected : words.not_as_expected);
        for (const std::string& problem : verdict.problems) {
            ImGui::Bullet();
            widgets::coloured_text_wrapped(theme::kDeadlock, problem.c_str());
        }
        widgets::disabled_wrapped((std::string(words.expected) + ": " + expectation_text(v.expect)).c_str());
    }

    // The question stays in sight so the student can hold the answer against it.
    section(words.you_predicted, first_of(note.predict, lesson.predict));
    section(words.look_at, first_of(note.look_at, lesson.look_at));
    section(words.fix, first_of(note.fix, lesson.fix));

    ImGui::Spacing();
    draw_run_button(state, words, false);

    ImGui::Spacing();
    if (ImGui::CollapsingHeader(words.the_lesson)) {
        widgets::wrapped(lesson.shows.c_str());
        if (!note.shows.empty()) {
            ImGui::Spacing();
            widgets::wrapped(note.shows.c_str());
        }
    }
}

} // namespace

// [SECTION] LessonPanel -------------------------------------------------------------------------------

void LessonPanel::draw(AppState& state) {
    ImGui::PushID("lesson_panel");
    const Labels& words = words_for(shown_language(state));
    draw_language_switch(state);
    ImGui::Separator();

    if (state.scenario == nullptr || state.variant == nullptr) {
        widgets::wrapped(words.pick);
        ImGui::PopID();
        return;
    }
    const scenario::Scenario& s = *state.scenario;
    const scenario::Variant& v = *state.variant;
    // A live run's partial record is no result yet: the question stays up until the kernel ends.
    if (record_is_of(state.current.get(), &s, &v) && !state.current->provisional)
        draw_results(state, s, v, *state.current, words);
    else
        draw_predict(state, s, v, words);
    ImGui::PopID();
}

} // namespace synclab::ui
