// Index:
//   [SECTION] Small helpers (splitters, colours, record summaries)
//   [SECTION] Start-up: fonts, style, settings
//   [SECTION] Keyboard
//   [SECTION] Selection
//   [SECTION] Frame and layouts
//   [SECTION] Timelines
//   [SECTION] Menu bar, status line, modals
//   [SECTION] Requests
//   [SECTION] Findings
//   [SECTION] Settings
// (runs, their results and files: ui/model/run_director.cpp)
#include "ui/shell/app.h"

#include "ui/model/layout_plan.h"
#include "ui/model/outcome_words.h"
#include "ui/model/lesson_library.h"
#include "ui/views/panel_widgets.h"
#include "ui/views/run_summary_line.h"
#include "ui/shell/screenshot.h"
#include "ui/shell/shell.h"
#include "ui/model/source_lines.h"
#include "ui/model/theme.h"
#include "ui/model/ui_text.h"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string_view>

namespace synclab::ui {
namespace {

// [SECTION] Small helpers (splitters, colours, record summaries)

ImVec4 colour(uint32_t rgba) {
    return ImGui::ColorConvertU32ToFloat4(rgba);
}

// The run's result for the status line (run_summary_line.h). English: the status line is.
std::string record_summary(const RunRecord& r) {
    return record_summary_words(r, Language::En);
}

// Notes the rows area of the TimelineView just drawn (the last item) as `name`: its child region
// without the legend strip at the bottom, whose race swatch is always there. The strip's height
// mirrors TimelineView's Geometry (legend_h = round(font * 1.7)); a GUI test fails if they drift.
void note_timeline_rows(RegionMap& regions, const char* name, bool legend_shown = true) {
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    const float legend = legend_shown ? std::round(ImGui::GetFontSize() * 1.7f) + 1.0f : 0.0f;
    regions[name] = Region{a.x, a.y, b.x - a.x, std::max(0.0f, b.y - a.y - legend)};
}

// The ends of the selected finding's arrow in `view` as regions NAME_arrow_from and NAME_arrow_to
// (squares around the first access's disc and the arrowhead), where it drew one, and the area the
// marks are drawn in (clipped to) as NAME_marks: a GUI test checks that both ends lie in it (a
// focused finding brings both of its threads into view).
void note_arrow_ends(RegionMap& regions, const std::string& name, const TimelineView& view) {
    const ImVec4 m = view.marks_rect();
    regions[name + "_marks"] = Region{m.x, m.y, m.z - m.x, m.w - m.y};
    const ImVec4 a = view.selected_arrow();
    if (a.x == 0 && a.y == 0 && a.z == 0 && a.w == 0) return;
    const float r = std::round(ImGui::GetFontSize() * 0.4f);
    regions[name + "_arrow_from"] = Region{a.x - r, a.y - r, 2 * r, 2 * r};
    regions[name + "_arrow_to"] = Region{a.z - r, a.w - r, 2 * r, 2 * r};
}

// The lesson panel's "What to look at" and "The fix" as regions "lesson_look_at" and "lesson_fix"
// (where drawn), so that a GUI test can check they are in sight without scrolling.
void note_lesson_sections(RegionMap& regions, const LessonPanel& lesson) {
    const auto add = [&](const char* name, const ImVec4& r) {
        if (r.z > r.x) regions[name] = Region{r.x, r.y, r.z - r.x, r.w - r.y};
    };
    add("lesson_look_at", lesson.sections().look_at);
    add("lesson_fix", lesson.sections().fix);
    add("lesson_run_again", lesson.sections().run_again);
    // ... and before a run, the question, the choices, the Run button and the variant's own text.
    add("predict_question", lesson.predict_rects().question);
    add("predict_choices", lesson.predict_rects().choices);
    add("predict_variant", lesson.predict_rects().variant);
    add("predict_run", lesson.run_button());
}

// A solid warning disc with "!" (solid pixels, so the GUI tests can find the error colour).
void warning_disc(uint32_t rgba) {
    const float size = ImGui::GetFontSize() * 1.4f;
    const ImVec2 p = ImGui::GetCursorScreenPos();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 centre(p.x + size * 0.5f, p.y + size * 0.5f);
    dl->AddCircleFilled(centre, size * 0.5f, rgba, 24);
    const ImVec2 t = ImGui::CalcTextSize("!");
    dl->AddText(ImVec2(centre.x - t.x * 0.5f, centre.y - t.y * 0.5f), IM_COL32(255, 255, 255, 255), "!");
    ImGui::Dummy(ImVec2(size, size));
}

} // namespace

// [SECTION] Start-up: fonts, style, settings

App::App(Shell& shell, AppOptions options) : shell_(shell), options_(std::move(options)) {}

App::~App() = default; // director_ cancels and joins its worker

void App::init() {
    // "Predict, then run": the app opens on the lesson, not on an empty timeline.
    state_.focus_view = View::Lesson;
    seen_view_ = View::Lesson;
    const auto& all = lessons().all();
    if (!all.empty()) {
        // The first lesson on its first broken variant: a newcomer's first run shows what the lesson
        // is about (a race), not a quiet correct run; the correct variant is the row above it.
        const auto& variants = all.front()->variants;
        const auto broken = std::find_if(variants.begin(), variants.end(),
                                         [](const scenario::Variant& v) { return !v.expect.always_correct(); });
        state_.scenario = all.front();
        state_.variant = broken != variants.end() ? &*broken : variants.empty() ? nullptr : &variants.front();
    }
    if (options_.remember_settings) {
        settings_file_ = options_.settings_file.empty() ? settings_path() : options_.settings_file;
        const SettingsLoad loaded = load_settings(settings_file_);
        if (!loaded.note.empty()) state_.status = loaded.note;
        state_.language = loaded.settings.language;
        state_.predict = loaded.settings.predict;
        std::string ignored;
        if (!loaded.settings.scenario.empty() &&
            !select(loaded.settings.scenario, loaded.settings.variant, ignored))
            state_.status = "settings named a scenario that no longer exists; starting with the first";
        saved_settings_ = loaded.settings;
    }
    apply_fonts();
    apply_style();
    // The GPU choice stays disabled until the worker has answered (seconds where there is a GPU:
    // cuInit and the device query), which happens off the UI thread.
    run_panel_.set_gpu_backend(false, ui_text(Language::En).shell.checking_gpu.s);
    director_.start();
}

float App::wanted_font_scale() const {
    const float cs = shell_.content_scale();
    if (!state_.presenter) return cs;
    // Presenter text is about 1/28 of the screen height (2x on a 1080p projector, 1.8x in an
    // 800-pixel window): large enough for the back row, small enough to keep the layout.
    const float height = float(std::max(shell_.framebuffer_height(), 1));
    return cs * std::clamp(height / (28.0f * Fonts::kUiSize * cs), 1.5f, 3.0f);
}

void App::apply_fonts() {
    const float scale = wanted_font_scale();
    // The first build happens before the backend made its texture; later ones replace it.
    const FontReport report = built_scale_ == 0 ? fonts_.build(scale) : fonts_.rebuild(scale);
    built_scale_ = scale;
    built_presenter_ = state_.presenter;
    state_.cjk_font = report.cjk;
    state_.cjk_hint = report.cjk_hint;
    if (!report.note.empty()) state_.status = report.note;
    source_.set_mono_font(fonts_.mono());
    barrier_excerpt_.set_mono_font(fonts_.mono());
}

void App::apply_style() {
    ImGuiStyle style;
    ImGui::StyleColorsDark(&style);
    style.WindowRounding = 0;
    style.ChildRounding = 2;
    style.FrameRounding = 3;
    style.PopupRounding = 3;
    style.GrabRounding = 3;
    style.WindowBorderSize = 0;
    style.ItemSpacing = ImVec2(8, 5);
    ImVec4* c = style.Colors;
    // The colours that text is drawn on and in come from the theme's palette, opaque, so that its
    // contrast test measures what is drawn (theme::text_pairs).
    const theme::Palette& p = theme::palette(state_.presenter);
    auto set = [&](ImGuiCol which, uint32_t rgba) { c[which] = ImGui::ColorConvertU32ToFloat4(rgba); };
    if (state_.presenter) {
        // High contrast for projectors: near-black background (the palette's), white text, bright
        // frames and selections that survive a washed-out beamer.
        c[ImGuiCol_Border] = ImVec4(0.55f, 0.55f, 0.62f, 0.9f);
        c[ImGuiCol_Separator] = c[ImGuiCol_Border];
        c[ImGuiCol_ButtonHovered] = ImVec4(0.25f, 0.48f, 0.90f, 1);
        c[ImGuiCol_ButtonActive] = ImVec4(0.32f, 0.56f, 1.0f, 1);
        c[ImGuiCol_Tab] = ImVec4(0.12f, 0.20f, 0.36f, 1);
        c[ImGuiCol_TabActive] = ImVec4(0.20f, 0.42f, 0.84f, 1);
        c[ImGuiCol_TabHovered] = ImVec4(0.28f, 0.52f, 0.95f, 1);
        c[ImGuiCol_PlotHistogram] = ImVec4(0.35f, 0.75f, 1.0f, 1);
        style.ChildBorderSize = 1.5f;
    } else {
        c[ImGuiCol_Border] = ImVec4(0.28f, 0.28f, 0.33f, 1);
    }
    set(ImGuiCol_WindowBg, p.window_bg);
    set(ImGuiCol_ChildBg, p.child_bg);
    set(ImGuiCol_PopupBg, p.popup_bg);
    set(ImGuiCol_MenuBarBg, p.menu_bar_bg);
    set(ImGuiCol_Text, p.text);
    set(ImGuiCol_TextDisabled, p.text_disabled);
    set(ImGuiCol_FrameBg, p.frame_bg);
    set(ImGuiCol_Header, p.header);
    set(ImGuiCol_HeaderHovered, p.header_hovered);
    set(ImGuiCol_HeaderActive, p.header_hovered);
    set(ImGuiCol_Button, p.button);
    set(ImGuiCol_TableRowBgAlt, p.row_alt);
    set(ImGuiCol_CheckMark, p.accent);
    style.ScaleAllSizes(built_scale_ > 0 ? built_scale_ : 1.0f);
    ImGui::GetStyle() = style;
}

void App::before_frame() {
    // Fonts are rebuilt at the size they are shown (FontGlobalScale would blur them): on entering
    // or leaving presenter mode, and in presenter mode when the window grew or shrank noticeably
    // (fullscreen on a projector).
    const float wanted = wanted_font_scale();
    if (built_presenter_ != state_.presenter || std::abs(wanted - built_scale_) > 0.08f * built_scale_) {
        apply_fonts();
        apply_style();
    }
}

// [SECTION] Keyboard

void App::handle_keys() {
    ImGuiIO& io = ImGui::GetIO();
    // Keys are commands only when nothing else wants them: no text field, no modal or menu.
    if (io.WantTextInput ||
        ImGui::IsPopupOpen(nullptr, ImGuiPopupFlags_AnyPopupId | ImGuiPopupFlags_AnyPopupLevel))
        return;
    if (io.KeyCtrl || io.KeyAlt || io.KeySuper) return;
    auto pressed = [](int glfw_key) { return ImGui::IsKeyPressed(glfw_key, false); };

    if (pressed(GLFW_KEY_F1) || pressed(GLFW_KEY_H)) state_.show_help = !state_.show_help;
    if (pressed(GLFW_KEY_ESCAPE)) {
        if (state_.show_help)
            state_.show_help = false;
        else if (state_.presenter)
            state_.presenter = false;
    }
    if (pressed(GLFW_KEY_P)) state_.presenter = !state_.presenter;
    // Over a timeline, F fits the trace (the timeline's own key); anywhere else it is fullscreen.
    const bool over_timeline =
        timeline_.hovered() || compare_left_view_.hovered() || compare_right_view_.hovered();
    if (pressed(GLFW_KEY_F) && !over_timeline) shell_.toggle_fullscreen();
    if (pressed(GLFW_KEY_C)) toggle_compare();
    if (pressed(GLFW_KEY_SPACE) && !ImGui::IsAnyItemActive()) {
        if (state_.compare)
            state_.requests.run_both = true;
        else
            state_.requests.run = true;
    }
    // ] / [ step through the findings anywhere; a clicker's PgDn / PgUp do in presenter mode (before
    // a run has findings they scroll the lesson there, as they did).
    if (ImGui::IsKeyPressed(GLFW_KEY_RIGHT_BRACKET)) step_finding(+1);
    if (ImGui::IsKeyPressed(GLFW_KEY_LEFT_BRACKET)) step_finding(-1);
    if (state_.presenter) {
        if (ImGui::IsKeyPressed(GLFW_KEY_LEFT)) step_scenario(-1);
        if (ImGui::IsKeyPressed(GLFW_KEY_RIGHT)) step_scenario(+1);
        if (ImGui::IsKeyPressed(GLFW_KEY_UP)) step_variant(-1);
        if (ImGui::IsKeyPressed(GLFW_KEY_DOWN)) step_variant(+1);
        const bool findings = state_.current && !state_.current->summary.findings.empty();
        for (const auto& [key, delta] : {std::pair{GLFW_KEY_PAGE_UP, -1}, std::pair{GLFW_KEY_PAGE_DOWN, +1}})
            if (ImGui::IsKeyPressed(key)) {
                if (findings)
                    step_finding(delta);
                else
                    presenter_scroll_ = delta;
            }
        if (pressed(GLFW_KEY_TAB))
            state_.focus_view = state_.focus_view == View::Lesson   ? View::Source
                                : state_.focus_view == View::Source ? View::Timeline
                                                                    : View::Lesson;
    }
}

void App::step_scenario(int delta) {
    const auto& all = lessons().all();
    if (all.empty()) return;
    int index = 0;
    for (size_t i = 0; i < all.size(); ++i)
        if (all[i] == state_.scenario) index = int(i);
    index = std::clamp(index + delta, 0, int(all.size()) - 1);
    state_.scenario = all[size_t(index)];
    state_.variant = state_.scenario->variants.empty() ? nullptr : &state_.scenario->variants.front();
}

void App::step_variant(int delta) {
    if (!state_.scenario || state_.scenario->variants.empty()) return;
    const auto& variants = state_.scenario->variants;
    int index = 0;
    for (size_t i = 0; i < variants.size(); ++i)
        if (&variants[i] == state_.variant) index = int(i);
    index = std::clamp(index + delta, 0, int(variants.size()) - 1);
    state_.variant = &variants[size_t(index)];
}

void App::step_finding(int delta) {
    const size_t n = state_.current ? state_.current->summary.findings.size() : 0;
    if (n == 0) {
        state_.status = state_.current ? ui_text(shown_language(state_)).shell.no_findings_yet
                                       : ui_text(shown_language(state_)).shell.no_run_yet;
        return;
    }
    // From nothing selected, ] starts at the first finding and [ at the last; the ends stop there
    // (a speaker who presses once too often stays on the last finding, not back at the first).
    const int selected = state_.selection.selected_finding;
    const int next =
        selected < 0 ? (delta > 0 ? 0 : int(n) - 1) : std::clamp(selected + delta, 0, int(n) - 1);
    state_.requests.focus_finding = next;
}

void App::toggle_compare() {
    state_.compare = !state_.compare;
    if (!state_.compare || !state_.scenario) return;
    // Turning compare on with nothing (or another scenario) to compare runs both at once: one key
    // in front of an audience should be enough.
    const bool have = state_.compare_left && state_.compare_right &&
                      state_.compare_right->scenario_id == state_.scenario->id && state_.variant &&
                      state_.compare_right->variant_id == state_.variant->id;
    if (!have) state_.requests.run_both = true;
}

// [SECTION] Selection

bool App::select(const std::string& scenario_id, const std::string& variant_id, std::string& error) {
    const scenario::Scenario* s = lessons().find(scenario_id);
    if (!s) {
        error = "unknown scenario '" + scenario_id + "' (scenarios: " + lessons().ids() + ")";
        return false;
    }
    const scenario::Variant* v = variant_id.empty() ? (s->variants.empty() ? nullptr : &s->variants.front())
                                                    : s->find_variant(variant_id);
    if (!v) {
        std::string ids;
        for (const scenario::Variant& c : s->variants)
            ids += (ids.empty() ? "" : ", ") + c.id;
        error = "scenario " + s->id + " has no variant '" + variant_id + "' (variants: " + ids + ")";
        return false;
    }
    state_.scenario = s;
    state_.variant = v;
    // Now, not at the next frame: what the caller sets next for this lesson (a script's --memory)
    // must not be reset as if the selection had moved after it.
    director_.follow_selection();
    return true;
}

// [SECTION] Frame and layouts

void App::note_region(const char* name) {
    const ImVec2 p = ImGui::GetWindowPos(), s = ImGui::GetWindowSize();
    regions_[name] = Region{p.x, p.y, s.x, s.y};
}

void App::note_source_columns() {
    const ImVec4 v = source_.cuda_visible(), c = source_.cuda_code();
    regions_["source_column"] = Region{v.x, v.y, v.z - v.x, v.w - v.y};
    regions_["source_code"] = Region{c.x, c.y, c.z - c.x, c.w - c.y};
}

void App::frame() {
    regions_.clear();
    // The run panel offers the GPU once the probe said it is there, and says why not where it is not.
    if (director_.poll()) run_panel_.set_gpu_backend(state_.gpu.available, state_.gpu.reason);
    handle_keys();
    director_.follow_selection();
    if (state_.focus_view != seen_view_) {
        seen_view_ = state_.focus_view;
        select_tab_ = true;
    }

    const ImGuiViewport* vp = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(vp->WorkPos);
    ImGui::SetNextWindowSize(vp->WorkSize);
    ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                             ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus |
                             ImGuiWindowFlags_NoScrollWithMouse;
    if (!state_.presenter) flags |= ImGuiWindowFlags_MenuBar;
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding,
                        ImVec2(ImGui::GetFontSize() * 0.4f, ImGui::GetFontSize() * 0.3f));
    ImGui::Begin("SyncLab##main", nullptr, flags);
    ImGui::PopStyleVar();
    note_region("window"); // the whole window: every other region must lie inside it
    if (!state_.presenter) draw_menu_bar();

    const float status_height = ImGui::GetFrameHeight() + ImGui::GetStyle().ItemSpacing.y;
    ImVec2 avail = ImGui::GetContentRegionAvail();
    avail.y = std::max(0.0f, avail.y - status_height);
    if (state_.presenter)
        draw_presenter_layout(avail);
    else
        draw_normal_layout(avail);
    draw_status_line();
    ImGui::End();

    draw_file_modal();
    draw_error_modal();
    help_.draw(state_, fonts_.heading());

    handle_requests();
    remember_settings();
}

void App::draw_normal_layout(ImVec2 size) {
    const float left_w = layout_.left_width(size);

    // Left column: browser over run controls.
    ImGui::BeginChild("##left", ImVec2(left_w, size.y), false);
    {
        const LeftColumn column = layout_.left_column(size.y);
        ImGui::BeginChild("##browser", ImVec2(0, column.browser_h), true);
        note_region("browser");
        browser_.draw(state_);
        if (const ImVec4 r = browser_.selected_rect(); r.z > r.x)
            regions_["browser_selected"] = Region{r.x, r.y, r.z - r.x, r.w - r.y};
        if (const ImVec4 r = browser_.selected_badge_rect(); r.z > r.x)
            regions_["browser_badge"] = Region{r.x, r.y, r.z - r.x, r.w - r.y};
        ImGui::EndChild();
        layout_.left_gap();
        ImGui::BeginChild("##run_panel", ImVec2(0, column.run_panel_h), true);
        note_region("run_panel");
        run_panel_.draw(state_);
        if (const ImVec4 r = run_panel_.unavailable_note_rect(); r.z > r.x)
            regions_["gpu_reason"] = Region{r.x, r.y, r.z - r.x, r.w - r.y};
        const ImVec4 content = layout_.measure_run_panel(); // (a GUI test checks its Run button is in sight)
        regions_["run_panel_content"] = Region{content.x, content.y, content.z - content.x, content.w - content.y};
        ImGui::EndChild();
    }
    ImGui::EndChild();
    ImGui::SameLine(0, 0);
    layout_.left_splitter(size);
    ImGui::SameLine(0, 0);

    // Right area, three rows of full width: lesson/source tabs, the timeline, the findings (a table
    // whose message column needs the width more than it needs height).
    const float right_w = std::max(0.0f, size.x - left_w - layout_.bar());
    ImGui::BeginChild("##right", ImVec2(right_w, size.y), false);
    {
        // The outcomes tab is a table of counts that wants rows in sight (and the heatmap, the ladder
        // and the residency view are pictures): they have a split of their own, taller by default.
        const bool tall_tabs = shown_tab_ == View::Outcomes || shown_tab_ == View::Heatmap ||
                               shown_tab_ == View::Ladder || shown_tab_ == View::Residency;
        // Nothing of the selected variant has run: the timeline and the findings say so in a line
        // each, and the lesson (its question and choices) gets the room.
        const bool before_run = state_.current == nullptr;
        const RightColumn plan = layout_.right_column(size.y, tall_tabs, before_run, findings_.wanted_height());
        draw_centre_tabs(ImVec2(right_w, plan.tabs_h));
        layout_.top_splitter(right_w, size.y, tall_tabs, plan);
        draw_timelines(ImVec2(right_w, plan.timeline_h), false);
        layout_.findings_splitter(right_w, size.y, plan);
        draw_findings_row(ImVec2(right_w, std::max(0.0f, ImGui::GetContentRegionAvail().y)));
    }
    ImGui::EndChild();
}

void App::draw_centre_tabs(ImVec2 size) {
    ImGui::BeginChild("##centre", size, true);
    const float tabs_top = ImGui::GetWindowPos().y;
    layout_.note_tabs_wanted(0); // (the lesson's tab says otherwise where it is shown)
    if (ImGui::BeginTabBar("##centre_tabs")) {
        const bool select =
            select_tab_ && (state_.focus_view == View::Lesson || state_.focus_view == View::Source);
        const bool want_source = state_.focus_view == View::Source;
        if (ImGui::BeginTabItem(
                (std::string(ui_text(shown_language(state_)).shell.tab_lesson) + "###lesson_tab").c_str(),
                nullptr, select && !want_source ? ImGuiTabItemFlags_SetSelected : 0)) {
            if (shown_tab_ != View::Lesson && !select)
                state_.focus_view = seen_view_ = View::Lesson; // a click
            shown_tab_ = View::Lesson;
            ImGui::BeginChild("##lesson", ImVec2(0, 0), false);
            note_region("lesson");
            lesson_.draw(state_);
            note_lesson_sections(regions_, lesson_);
            layout_.note_lesson_wanted(tabs_top, lesson_.wanted_height());
            ImGui::EndChild();
            ImGui::EndTabItem();
        }
        if (ImGui::BeginTabItem(
                (std::string(state_.show_ptx ? ui_text(shown_language(state_)).shell.tab_source_ptx
                                             : ui_text(shown_language(state_)).shell.tab_source) +
                 "###source_tab")
                    .c_str(),
                nullptr, select && want_source ? ImGuiTabItemFlags_SetSelected : 0)) {
            if (shown_tab_ != View::Source && !select) state_.focus_view = seen_view_ = View::Source;
            shown_tab_ = View::Source;
            // Stepping through a run: the block's shared memory beside the source, so that the line a
            // warp is at and the slot it reads are seen together.
            const bool memory =
                state_.current != nullptr &&
                SharedMemoryView::wanted(state_, playback_.playback(), state_.current->serial);
            const float memory_w =
                memory ? std::max(ImGui::GetFontSize() * 18, ImGui::GetContentRegionAvail().x * 0.4f) : 0;
            ImGui::BeginChild("##source", ImVec2(memory ? -memory_w : 0, 0), false);
            note_region("source");
            source_.draw(state_);
            note_source_columns();
            ImGui::EndChild();
            if (memory) {
                ImGui::SameLine();
                ImGui::BeginChild("##shared_memory", ImVec2(0, 0), true);
                note_region("shared_memory");
                shared_memory_.draw(state_, playback_.playback(), &state_.current->summary.trace);
                ImGui::EndChild();
            }
            ImGui::EndTabItem();
        }
        const bool want_outcomes = select_tab_ && state_.focus_view == View::Outcomes;
        if (ImGui::BeginTabItem(
                (std::string(ui_text(shown_language(state_)).outcomes.tab) + "###outcomes_tab").c_str(), nullptr,
                want_outcomes ? ImGuiTabItemFlags_SetSelected : 0)) {
            if (shown_tab_ != View::Outcomes && !want_outcomes) state_.focus_view = seen_view_ = View::Outcomes;
            shown_tab_ = View::Outcomes;
            ImGui::BeginChild("##outcomes", ImVec2(0, 0), false);
            note_region("outcomes");
            outcomes_.draw(state_);
            if (const ImVec4 t = outcomes_.table_rect(); t.z > t.x)
                regions_["outcomes_table"] = Region{t.x, t.y, t.z - t.x, t.w - t.y};
            ImGui::EndChild();
            ImGui::EndTabItem();
        }
        draw_heatmap_tab();
        draw_ladder_tab();
        draw_residency_tab();
        ImGui::EndTabBar();
    }
    select_tab_ = false;
    ImGui::EndChild();
}

// A tab of the centre tab bar holding one view; `select`: the view a script or key put in front.
bool App::begin_view_tab(View view, const char* label, const char* id) {
    const bool want = select_tab_ && state_.focus_view == view;
    if (!ImGui::BeginTabItem((std::string(label) + id).c_str(), nullptr, want ? ImGuiTabItemFlags_SetSelected : 0))
        return false;
    if (shown_tab_ != view && !want) state_.focus_view = seen_view_ = view; // a click
    shown_tab_ = view;
    return true;
}

void App::draw_heatmap_tab() {
    if (!begin_view_tab(View::Heatmap, ui_text(shown_language(state_)).heatmap.tab, "###heatmap_tab")) return;
    ImGui::BeginChild("##heatmap", ImVec2(0, 0), false, ImGuiWindowFlags_NoScrollWithMouse | ImGuiWindowFlags_NoScrollbar);
    note_region("heatmap");
    draw_heatmaps();
    ImGui::EndChild();
    ImGui::EndTabItem();
}

// The current run's heatmap; in compare mode both runs, the left-hand one above the other, on one
// colour scale (each drawn with the other's peaks), so that the fixed variant never looks as hot as
// the broken one. The layout file names the lower map's cells heatmap_cells and the upper's
// heatmap_cells_compare.
void App::draw_heatmaps() {
    const auto note = [&](HeatmapView& view, const char* cells, const char* legend) {
        if (const ImVec4 c = view.cells_rect(); c.z > c.x) regions_[cells] = Region{c.x, c.y, c.z - c.x, c.w - c.y};
        if (const ImVec4 l = view.legend_rect(); l.z > l.x && legend) regions_[legend] = Region{l.x, l.y, l.z - l.x, l.w - l.y};
    };
    const std::shared_ptr<const RunRecord> left = state_.compare_left, right = state_.compare_right;
    if (!state_.compare || !left || !right || left->provisional || right->provisional) {
        heatmap_.draw(state_);
        note(heatmap_, "heatmap_cells", "heatmap_legend");
        return;
    }
    const UiText& t = ui_text(shown_language(state_));
    std::vector<HeatPeaks> with_left, with_right;
    heatmap_compare_.prepare(left);
    heatmap_.prepare(right);
    HeatPeaks p;
    if (heatmap_.peaks(p)) with_left.push_back(p);
    if (heatmap_compare_.peaks(p)) with_right.push_back(p);
    const auto title = [&](const RunRecord& r) {
        const scenario::Variant* v = state_.scenario ? state_.scenario->find_variant(r.variant_id) : nullptr;
        return v ? lesson_text(state_, v->en, v->zh).title : r.variant_id;
    };
    const ImGuiWindowFlags still = ImGuiWindowFlags_NoScrollWithMouse | ImGuiWindowFlags_NoScrollbar;
    const float half = std::floor((ImGui::GetContentRegionAvail().y - ImGui::GetStyle().ItemSpacing.y) * 0.5f);
    // No room for two maps (presenter mode's small pane): the selected run's alone, on the shared
    // scale all the same.
    if (half < ImGui::GetFontSize() * 9) {
        heatmap_.draw(state_, right, with_right, t.heatmap.scale_compare.s);
        note(heatmap_, "heatmap_cells", "heatmap_legend");
        return;
    }
    heatmap_compare_.follow(heatmap_);
    ImGui::BeginChild("##heatmap_upper", ImVec2(0, half), false, still);
    ImGui::TextUnformatted(title(*left).c_str());
    heatmap_compare_.draw(state_, left, with_left, t.heatmap.scale_compare.s);
    note(heatmap_compare_, "heatmap_cells_compare", "heatmap_legend_compare");
    ImGui::EndChild();
    ImGui::BeginChild("##heatmap_lower", ImVec2(0, 0), false, still);
    ImGui::TextUnformatted(title(*right).c_str());
    heatmap_.draw(state_, right, with_right, t.heatmap.scale_compare.s);
    note(heatmap_, "heatmap_cells", "heatmap_legend");
    ImGui::EndChild();
}

void App::draw_ladder_tab() {
    if (!begin_view_tab(View::Ladder, ui_text(shown_language(state_)).ladder.tab, "###ladder_tab")) return;
    ImGui::BeginChild("##ladder", ImVec2(0, 0), false);
    note_region("ladder");
    ladder_.draw(state_);
    if (const ImVec4 b = ladder_.bars_rect(); b.z > b.x) regions_["ladder_bars"] = Region{b.x, b.y, b.z - b.x, b.w - b.y};
    ImGui::EndChild();
    ImGui::EndTabItem();
}

void App::note_residency_regions() {
    if (const ImVec4 r = residency_.rows_rect(); r.z > r.x) regions_["residency_rows"] = Region{r.x, r.y, r.z - r.x, r.w - r.y};
    if (const ImVec4 n = residency_.never_rect(); n.z > n.x)
        regions_["residency_never"] = Region{n.x, n.y, n.z - n.x, n.w - n.y};
}

void App::draw_residency_tab() {
    if (!begin_view_tab(View::Residency, ui_text(shown_language(state_)).residency.tab, "###residency_tab")) return;
    ImGui::BeginChild("##residency", ImVec2(0, 0), false, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
    note_region("residency");
    residency_.draw(state_);
    note_residency_regions();
    ImGui::EndChild();
    ImGui::EndTabItem();
}

void App::draw_presenter_layout(ImVec2 size) {
    const ImVec2 origin = ImGui::GetCursorPos();
    const float gap = ImGui::GetStyle().ItemSpacing.x;

    // Header: where we are in the catalog, readable from the back of the room.
    ImGui::BeginChild("##header", ImVec2(size.x, ImGui::GetTextLineHeightWithSpacing() * 1.6f), false,
                      ImGuiWindowFlags_NoScrollbar);
    note_region("header");
    ImGui::PushFont(fonts_.heading());
    const auto& catalog = lessons().all();
    int si = 0, vi = 0;
    for (size_t i = 0; i < catalog.size(); ++i)
        if (catalog[i] == state_.scenario) si = int(i);
    if (state_.scenario)
        for (size_t i = 0; i < state_.scenario->variants.size(); ++i)
            if (&state_.scenario->variants[i] == state_.variant) vi = int(i);
    if (state_.scenario && state_.variant) {
        ImGui::TextUnformatted(state_.scenario->id.c_str());
        ImGui::SameLine();
        ImGui::TextDisabled("\u00b7");
        ImGui::SameLine();
        ImGui::TextColored(ImVec4(1.0f, 0.85f, 0.35f, 1.0f), "%s", state_.variant->id.c_str());
        ImGui::SameLine();
        ImGui::TextDisabled("(%d/%zu \u00b7 %d/%zu)", si + 1, catalog.size(), vi + 1,
                            state_.scenario->variants.size());
    } else if (state_.current && state_.current->scenario_id.empty()) {
        ImGui::TextUnformatted(ui_text(shown_language(state_)).shell.own_kernel);
        ImGui::SameLine();
        ImGui::TextDisabled("\u00b7");
        ImGui::SameLine();
        ImGui::TextColored(ImVec4(1.0f, 0.85f, 0.35f, 1.0f), "%s",
                           trace::kernel_name(state_.current->summary.trace.meta.kernel).c_str());
    }
    ImGui::PopFont();
    ImGui::EndChild();

    // Callout: the selected finding in one sentence, in the heading font where it fits on one line,
    // else wrapped in the text font (never clipped).
    ImFont* callout_font = fonts_.heading();
    float callout_h = callout_.height(state_, callout_font, size.x);
    if (callout_h > ImGui::GetTextLineHeightWithSpacing() * 1.9f) {
        callout_font = nullptr;
        callout_h = callout_.height(state_, callout_font, size.x);
    }
    if (callout_h > 0) {
        ImGui::BeginChild("##callout", ImVec2(size.x, callout_h), false,
                          ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
        note_region("callout");
        callout_.draw(state_, callout_font);
        ImGui::EndChild();
    }

    // Body: [lesson or source | timeline] over the findings, which get the full width because their
    // messages are sentences.
    const bool picture = state_.focus_view == View::Heatmap || state_.focus_view == View::Ladder ||
                         state_.focus_view == View::Residency;
    PresenterInput in;
    in.width = size.x;
    in.height = std::max(0.0f, size.y - (ImGui::GetCursorPosY() - origin.y));
    in.gap = gap;
    in.line = ImGui::GetFrameHeightWithSpacing();
    in.left = state_.focus_view == View::Timeline ? PresenterLeft::None
              : picture                           ? PresenterLeft::Picture
              : state_.focus_view == View::Source ? PresenterLeft::Source
                                                  : PresenterLeft::Lesson;
    in.compare = state_.compare;
    in.have_findings = state_.current && !state_.current->summary.findings.empty();
    in.findings = state_.current ? state_.current->summary.findings.size() : 0;
    in.before_run = state_.current == nullptr;
    const PresenterBody body = plan_presenter_body(in);
    if (body.left_w > 0) {
        ImGui::BeginChild("##presenter_left", ImVec2(body.left_w, body.top_h), true);
        // PageUp/PageDown scroll the text: presenter mode is keyboard only.
        if (presenter_scroll_ != 0) {
            ImGui::SetScrollY(ImGui::GetScrollY() + presenter_scroll_ * ImGui::GetWindowHeight() * 0.8f);
            presenter_scroll_ = 0;
        }
        if (state_.focus_view == View::Source) {
            // Compared: the correct run's barrier line over the broken kernel's source.
            const bool excerpt =
                state_.compare && barrier_excerpt_.begin_above(state_, state_.compare_left.get());
            if (const ImVec4 r = barrier_excerpt_.rect(); excerpt)
                regions_["barrier_excerpt"] = Region{r.x, r.y, r.z - r.x, r.w - r.y};
            note_region("source");
            source_.draw(state_);
            note_source_columns();
            if (excerpt) barrier_excerpt_.end_above();
        } else if (state_.focus_view == View::Heatmap) {
            note_region("heatmap");
            draw_heatmaps();
        } else if (state_.focus_view == View::Ladder) {
            note_region("ladder");
            ladder_.draw(state_);
            if (const ImVec4 b = ladder_.bars_rect(); b.z > b.x)
                regions_["ladder_bars"] = Region{b.x, b.y, b.z - b.x, b.w - b.y};
        } else if (state_.focus_view == View::Residency) {
            note_region("residency");
            residency_.draw(state_);
            note_residency_regions();
        } else {
            note_region("lesson");
            lesson_.draw(state_);
            note_lesson_sections(regions_, lesson_);
        }
        ImGui::EndChild();
        if (body.timelines_w > 0) ImGui::SameLine(0, gap);
    }
    if (body.timelines_w > 0) draw_timelines(ImVec2(body.timelines_w, body.top_h), body.stacked);
    if (body.findings_h > 0)
        draw_findings_row(ImVec2(size.x, std::max(0.0f, size.y - (ImGui::GetCursorPosY() - origin.y))));
}

void App::draw_findings_row(ImVec2 size) {
    // The findings, and beside them the run's output as a grid: what a student looks at after a run,
    // side by side (the findings say what raced, the grid which outputs it spoilt). The grid only
    // where the run checked outputs against a reference.
    const RunRecord* r = state_.current.get();
    const bool grid = r != nullptr && !r->provisional && !r->summary.expected_outputs.empty();
    const float em = ImGui::GetFontSize();
    const float gap = ImGui::GetStyle().ItemSpacing.x;
    const float grid_w = grid ? std::floor(std::clamp(size.x * 0.36f, em * 14.0f, em * 30.0f)) : 0.0f;
    ImGui::BeginChild("##findings", ImVec2(grid ? size.x - grid_w - gap : size.x, size.y), true);
    note_region("findings");
    findings_.draw(state_);
    const auto add = [&](const std::string& name, const ImVec4& r) {
        if (r.z > r.x) regions_[name] = Region{r.x, r.y, r.z - r.x, r.w - r.y};
    };
    add("findings_selected_row", findings_.selected_row());
    add("findings_list", findings_.list_rect());
    add("findings_detail", findings_.detail_rect());
    for (size_t i = 0; i < findings_.row_rects().size(); ++i)
        add("findings_row_" + std::to_string(i), findings_.row_rects()[i]);
    ImGui::EndChild();
    if (!grid) return;
    ImGui::SameLine(0, gap);
    // (no scrolling of its own: its cells and its explanation each scroll)
    ImGui::BeginChild("##output_grid", ImVec2(grid_w, size.y), true,
                      ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
    note_region("output_grid");
    output_grid_.draw(state_);
    if (const ImVec4 c = output_grid_.cells_rect(); c.z > c.x)
        regions_["output_cells"] = Region{c.x, c.y, c.z - c.x, c.w - c.y};
    ImGui::EndChild();
}

// [SECTION] Timelines

void App::draw_timeline_header(const RunRecord& record, bool short_label, const char* region) {
    ImGui::BeginGroup();
    draw_timeline_header_text(record, short_label);
    ImGui::EndGroup();
    // The header's whole extent, wrapped lines included: a GUI test checks that it lies inside the
    // timeline (text running past the edge would be cut).
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    regions_[region] = Region{a.x, a.y, b.x - a.x, b.y - a.y};
}

void App::draw_timeline_header_text(const RunRecord& record, bool short_label) {
    // Compare mode and presenter mode name the scenario elsewhere; there the line keeps what differs
    // (the variant, the seed) so that it fits beside its twin or at presenter size.
    if (!short_label) {
        ImGui::TextUnformatted(record_label(record, shown_language(state_)).c_str());
    } else if (state_.compare && !record.variant_id.empty()) {
        widgets::coloured_text(theme::palette(state_.presenter).variant_name, record.variant_id.c_str());
    } else {
        ImGui::TextDisabled("%s", fill(ui_text(shown_language(state_)).shell.schedule_seed,
                                       {schedule_words(record.options.schedule, shown_language(state_)),
                                        std::to_string(record.options.seed)})
                                      .c_str());
    }
    if (record.provisional) {
        ImGui::SameLine();
        // Live: the kernel is still running; findings and outputs come with the final record.
        ImGui::TextColored(colour(theme::palette(state_.presenter).warning), "%s",
                           fill(ui_text(shown_language(state_)).shell.live_header,
                                {count_short(record.live_events_seen), ms_text(record.live_elapsed_ms)})
                               .c_str());
        return;
    }
    draw_record_summary(record, shown_language(state_), state_.presenter, true);
    // Tracing perturbs: the untraced outcome goes beside the traced one wherever a GPU run shows.
    const std::string sides = gpu_sides_text(record);
    if (!sides.empty()) widgets::disabled_wrapped(sides.c_str());
}

void App::draw_timelines(ImVec2 size, bool stacked) {
    const float em = ImGui::GetFontSize();
    if (state_.compare) {
        const std::shared_ptr<const RunRecord> left = state_.compare_left, right = state_.compare_right;
        if (!left || !right) {
            ImGui::BeginChild("##timeline", size, true);
            note_region("timeline");
            ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
            const UiText& t = ui_text(shown_language(state_));
            const std::string hint = fill(t.shell.compare_hint, {t.run.run_both.s});
            ImGui::TextWrapped("%s", director_.busy() ? t.shell.running_both.s : hint.c_str());
            ImGui::PopStyleColor();
            ImGui::EndChild();
            return;
        }
        const float gap = ImGui::GetStyle().ItemSpacing.x;
        // Stacked in presenter mode, the upper one leaves its legend to the lower one (they have the
        // same marks), and the lower one gets the legend's height on top of its half.
        const bool one_legend = stacked && state_.presenter;
        const float legend = one_legend ? std::round(em * 1.7f) : 0.0f;
        const float half = stacked ? std::floor((size.y - gap - legend) * 0.5f) : size.y;
        const float width = stacked ? size.x : (size.x - gap) * 0.5f;
        const struct {
            const char* id;
            const char* region;
            const RunRecord* record;
            TimelineView* view;
        } sides[2] = {{"##timeline_left", "timeline_left", left.get(), &compare_left_view_},
                      {"##timeline_right", "timeline_right", right.get(), &compare_right_view_}};
        // (a group: stacked beside another column, the second starts under the first, not at the left edge)
        ImGui::BeginGroup();
        for (int i = 0; i < 2; ++i) {
            if (i == 1 && !stacked) ImGui::SameLine(0, gap);
            const float height = stacked ? (i == 0 ? half : size.y - gap - half) : size.y;
            ImGui::BeginChild(sides[i].id, ImVec2(width, height), true,
                              ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
            note_region(sides[i].region);
            draw_timeline_header(*sides[i].record, true,
                                 i == 0 ? "timeline_left_header" : "timeline_right_header");
            // Both views share state.camera: zooming or panning one moves the other.
            sides[i].view->show_legend(!(one_legend && i == 0));
            sides[i].view->draw(state_, *sides[i].record, state_.camera, sides[i].id + 2,
                                ImGui::GetContentRegionAvail());
            note_timeline_rows(regions_, i == 0 ? "timeline_left_rows" : "timeline_right_rows",
                               sides[i].view->legend());
            note_arrow_ends(regions_, sides[i].region, *sides[i].view);
            ImGui::EndChild();
        }
        ImGui::EndGroup();
        compare_left_view_.share_rows(compare_right_view_);
        return;
    }
    ImGui::BeginChild("##timeline", size, true,
                      ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
    note_region("timeline");
    if (state_.current) {
        draw_timeline_header(*state_.current, state_.presenter, "timeline_header");
        playback_.draw(state_, *state_.current, state_.camera);
        timeline_.draw(state_, *state_.current, state_.camera, "timeline", ImGui::GetContentRegionAvail());
        note_timeline_rows(regions_, "timeline_rows");
        note_arrow_ends(regions_, "timeline", timeline_);
    } else {
        ImGui::Dummy(ImVec2(0, em));
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
        ImGui::TextWrapped("%s", director_.busy() ? ui_text(shown_language(state_)).shell.running.s
                                              : ui_text(shown_language(state_)).shell.no_run_timeline.s);
        ImGui::PopStyleColor();
    }
    ImGui::EndChild();
}

// [SECTION] Menu bar, status line, modals

void App::draw_menu_bar() {
    if (!ImGui::BeginMenuBar()) return;
    auto ask_path = [&](FileAction action, const std::string& suggestion) {
        file_action_ = action;
        file_modal_open_requested_ = true;
        std::snprintf(file_path_, sizeof file_path_, "%s", suggestion.c_str());
    };
    const std::string base = state_.current && !state_.current->scenario_id.empty()
                                 ? state_.current->scenario_id + "_" + state_.current->variant_id
                                 : std::string("synclab");
    // Menus by a fixed id (###): the same menu whatever language its title is in.
    const UiText& t = ui_text(shown_language(state_));
    auto id = [](const char* label, const char* fixed) { return std::string(label) + "###" + fixed; };
    if (ImGui::BeginMenu(id(t.menu.file, "menu_file").c_str())) {
        if (ImGui::MenuItem(t.menu.open_trace)) ask_path(FileAction::Open, "trace.slt");
        if (ImGui::MenuItem(t.menu.save_trace, nullptr, false, state_.current != nullptr))
            ask_path(FileAction::Save, base + ".slt");
        if (ImGui::MenuItem(t.menu.export_json, nullptr, false, state_.current != nullptr))
            ask_path(FileAction::Export, base + ".json");
        if (ImGui::MenuItem(t.menu.save_png)) ask_path(FileAction::Png, base + ".png");
        ImGui::Separator();
        if (ImGui::MenuItem(t.menu.quit)) shell_.request_close();
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu(id(t.menu.run, "menu_run").c_str())) {
        if (ImGui::MenuItem(t.menu.run_selected, t.menu.key_space, false, state_.variant != nullptr))
            state_.requests.run = true;
        if (ImGui::MenuItem(t.run.run_both, nullptr, false, state_.variant != nullptr))
            state_.requests.run_both = true;
        if (ImGui::MenuItem(t.menu.cancel, nullptr, false, director_.busy())) state_.requests.cancel = true;
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu(id(t.menu.view, "menu_view").c_str())) {
        bool presenter = state_.presenter;
        if (ImGui::MenuItem(t.menu.presenter, "P", &presenter)) state_.presenter = presenter;
        bool compare = state_.compare;
        if (ImGui::MenuItem(t.menu.compare, "C", &compare)) toggle_compare();
        ImGui::MenuItem(t.menu.ptx_beside, nullptr, &state_.show_ptx);
        ImGui::MenuItem(t.classroom.predict_menu, nullptr, &state_.predict);
        if (ImGui::MenuItem(t.menu.fullscreen, "F", shell_.fullscreen())) shell_.toggle_fullscreen();
        ImGui::Separator();
        if (ImGui::MenuItem(t.menu.english, nullptr, state_.language == Language::En))
            state_.language = Language::En;
        // Without a CJK font the menu cannot even draw the name of the language.
        if (ImGui::MenuItem(state_.cjk_font ? "\u7b80\u4f53\u4e2d\u6587" : "Chinese", nullptr,
                            state_.language == Language::Zh, state_.cjk_font))
            state_.language = Language::Zh;
        if (!state_.cjk_font && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
            ImGui::SetTooltip("%s", state_.cjk_hint.c_str());
        ImGui::Separator();
        if (ImGui::MenuItem(t.menu.help_keys, "F1 / H", state_.show_help))
            state_.show_help = !state_.show_help;
        ImGui::EndMenu();
    }
    ImGui::EndMenuBar();
}

void App::draw_status_line() {
    ImGui::BeginChild("##status", ImVec2(0, 0), false, ImGuiWindowFlags_NoScrollbar);
    note_region("status");
    // The run panel has its own progress bar and Cancel; presenter mode hides the panel, so the
    // status line takes them over there.
    if (state_.progress.running && state_.presenter) {
        const float em = ImGui::GetFontSize();
        ImGui::ProgressBar(float(state_.progress.fraction), ImVec2(em * 16, 0),
                           state_.progress.what.empty() ? nullptr : state_.progress.what.c_str());
        ImGui::SameLine();
        if (ImGui::SmallButton(ui_text(shown_language(state_)).shell.cancel)) state_.requests.cancel = true;
        ImGui::SameLine();
    }
    // Presenter mode's header already says what ran; its status line keeps to progress and keys.
    std::string text = state_.presenter ? std::string() : state_.status;
    if (state_.progress.running && !state_.presenter) {
        char percent[16];
        std::snprintf(percent, sizeof percent, " %d%%", int(state_.progress.fraction * 100));
        text = fill(ui_text(shown_language(state_)).shell.status_running, {state_.progress.what}) + percent;
    }
    if (state_.language == Language::Zh && !state_.cjk_font && !state_.cjk_hint.empty())
        text = state_.cjk_hint + (text.empty() ? "" : "  \u00b7  " + text);
    const char* keys = state_.presenter ? ui_text(shown_language(state_)).shell.keys_presenter
                                        : ui_text(shown_language(state_)).shell.keys_normal;
    const float keys_w = ImGui::CalcTextSize(keys).x;
    const float right = ImGui::GetWindowContentRegionMax().x;
    const float keys_x = std::max(ImGui::GetCursorPosX(), right - keys_w);
    // The status text may be long (an error with a path): clip it before the key hint.
    ImGui::AlignTextToFramePadding();
    const ImVec2 start = ImGui::GetCursorScreenPos();
    const float clip_right = ImGui::GetWindowPos().x + keys_x - ImGui::GetFontSize();
    ImGui::PushClipRect(start, ImVec2(std::max(start.x, clip_right), start.y + ImGui::GetFrameHeight()),
                        true);
    // A run's summary ("LABEL: OUTCOME", as accept_record writes it) shows its outcome in its colour.
    const RunRecord* shown = state_.current.get();
    const std::string prefix = shown ? shown->label + ": " : std::string();
    const std::string outcome = shown ? record_summary(*shown) : std::string();
    if (shown && !shown->provisional && text.starts_with(prefix + outcome)) {
        // Matched in English (accept_record writes it so), drawn in the shown language.
        ImGui::TextDisabled("%s%s", record_label(*shown, shown_language(state_)).c_str(),
                            shown_language(state_) == Language::Zh ? "\uff1a" : ": ");
        ImGui::SameLine(0, 0);
        draw_record_summary(*shown, shown_language(state_), state_.presenter);
        const std::string rest = text.substr(prefix.size() + outcome.size());
        if (!rest.empty()) {
            ImGui::SameLine(0, 0);
            ImGui::TextDisabled("%s", rest.c_str());
        }
    } else {
        ImGui::TextDisabled("%s", text.c_str());
    }
    ImGui::PopClipRect();
    ImGui::SameLine(keys_x);
    ImGui::TextDisabled("%s", keys);
    ImGui::EndChild();
}

void App::draw_file_modal() {
    const std::string title_text =
        std::string(ui_text(shown_language(state_)).dialog.file_title) + "###file_modal";
    const char* title = title_text.c_str();
    if (file_modal_open_requested_) {
        ImGui::OpenPopup(title);
        file_modal_open_requested_ = false;
    }
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(
        ImVec2(vp->WorkPos.x + vp->WorkSize.x * 0.5f, vp->WorkPos.y + vp->WorkSize.y * 0.4f),
        ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    ImGui::SetNextWindowSize(ImVec2(ImGui::GetFontSize() * 36, 0), ImGuiCond_Appearing);
    if (!ImGui::BeginPopupModal(title, nullptr, ImGuiWindowFlags_NoSavedSettings)) return;
    const DialogText& words = ui_text(shown_language(state_)).dialog;
    const char* what = file_action_ == FileAction::Open     ? words.open_title
                       : file_action_ == FileAction::Save   ? words.save_title
                       : file_action_ == FileAction::Export ? words.export_title
                                                            : words.png_title;
    ImGui::TextUnformatted(what);
    std::error_code ec;
    ImGui::TextDisabled("%s",
                        fill(words.relative_paths, {std::filesystem::current_path(ec).string()}).c_str());
    if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
    ImGui::SetNextItemWidth(-1);
    const bool enter =
        ImGui::InputText("##path", file_path_, sizeof file_path_, ImGuiInputTextFlags_EnterReturnsTrue);
    const bool ok = ImGui::Button(file_action_ == FileAction::Open ? words.open : words.save) || enter;
    ImGui::SameLine();
    const bool cancel = ImGui::Button(words.cancel);
    if (ok && file_path_[0] != '\0') {
        const std::string path = file_path_;
        switch (file_action_) {
        case FileAction::Open:
            state_.requests.open_trace = path;
            break;
        case FileAction::Save:
            state_.requests.save_trace = path;
            break;
        case FileAction::Export:
            state_.requests.export_chrome = path;
            break;
        case FileAction::Png:
            state_.requests.save_png = path;
            break;
        case FileAction::None:
            break;
        }
    }
    if ((ok && file_path_[0] != '\0') || cancel) {
        file_action_ = FileAction::None;
        ImGui::CloseCurrentPopup();
    }
    ImGui::EndPopup();
}

void App::draw_error_modal() {
    const std::string title_text =
        std::string(ui_text(shown_language(state_)).dialog.error_title) + "###error_modal";
    const char* title = title_text.c_str();
    if (!state_.error.empty() && !ImGui::IsPopupOpen(title)) ImGui::OpenPopup(title);
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(
        ImVec2(vp->WorkPos.x + vp->WorkSize.x * 0.5f, vp->WorkPos.y + vp->WorkSize.y * 0.4f),
        ImGuiCond_Always, ImVec2(0.5f, 0.5f));
    ImGui::SetNextWindowSize(ImVec2(std::min(ImGui::GetFontSize() * 40, vp->WorkSize.x * 0.9f), 0),
                             ImGuiCond_Always);
    if (!ImGui::BeginPopupModal(title, nullptr, ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoMove))
        return;
    note_region("error_modal");
    warning_disc(theme::kDeadlock);
    ImGui::SameLine();
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(state_.error.c_str());
    ImGui::PopTextWrapPos();
    ImGui::Spacing();
    ImGui::TextDisabled("%s", ui_text(shown_language(state_)).dialog.keeps_running.s);
    if (ImGui::Button(ui_text(shown_language(state_)).dialog.ok, ImVec2(ImGui::GetFontSize() * 6, 0)) ||
        ImGui::IsKeyPressed(GLFW_KEY_ENTER, false)) {
        state_.error.clear();
        ImGui::CloseCurrentPopup();
    }
    ImGui::EndPopup();
}

// [SECTION] Requests

void App::handle_requests() {
    Requests& r = state_.requests;
    if (r.cancel) {
        director_.cancel();
    }
    if (r.run_both) {
        director_.start_run(true);
        state_.compare = true;
    } else if (r.run) {
        director_.start_run(false);
    }
    if (r.run_outcomes) director_.start_outcomes();
    if (r.run_ladder) director_.start_ladder();
    if (r.open_outcome) director_.open_outcome(*r.open_outcome);
    if (r.focus_finding >= 0) focus_finding(r.focus_finding);
    if (r.open_warp && state_.current) {
        TimelineView& view = state_.compare ? compare_right_view_ : timeline_;
        view.open_warp(*state_.current, r.open_warp->first, r.open_warp->second);
    }
    if (!r.open_trace.empty()) director_.open_trace(r.open_trace);
    if (!r.save_trace.empty()) director_.save_trace(r.save_trace);
    if (!r.export_chrome.empty()) director_.export_chrome(r.export_chrome);
    if (!r.save_png.empty()) {
        // Wait one frame so that the menu or modal that asked for it is gone from the picture.
        pending_png_ = r.save_png;
        pending_png_frames_ = 1;
    }
    r = Requests{};
}

void App::after_render() {
    if (pending_png_.empty()) return;
    if (pending_png_frames_-- > 0) return;
    const std::string error =
        write_png(read_back_buffer(shell_.framebuffer_width(), shell_.framebuffer_height()), pending_png_);
    if (error.empty())
        state_.status = fill(ui_text(shown_language(state_)).shell.saved, {pending_png_});
    else
        state_.error = error;
    pending_png_.clear();
}

// [SECTION] Findings

void App::focus_finding(int index) {
    const std::shared_ptr<const RunRecord> record = state_.current;
    if (!record || index < 0 || size_t(index) >= record->summary.findings.size()) return;
    const analysis::Finding& f = record->summary.findings[size_t(index)];
    state_.selection.selected_finding = index;
    state_.selection.finding_lines = analysis::kernel_file_lines(f);
    // Presenter mode puts the finding's lines beside the timeline (the lesson gives way to the source).
    // A picture the presenter chose (heatmap, ladder, residency) stays: it is what the audience is looking at.
    const bool picture = state_.focus_view == View::Heatmap || state_.focus_view == View::Ladder ||
                         state_.focus_view == View::Residency;
    if (state_.presenter && state_.focus_view != View::Source && !picture) state_.focus_view = View::Source;
    // The view that draws the current record knows which events a finding is about (the pair of
    // accesses of a race) and where their rows are: it zooms to them, opens their block, pins both
    // threads to rows of their own and scrolls them into view on its next draw (in compare mode the
    // other pane follows: TimelineView::share_rows).
    TimelineView& view = state_.compare ? compare_right_view_ : timeline_;
    view.focus_finding(*record, index, state_.camera);
}

// [SECTION] Settings

void App::remember_settings() {
    if (!options_.remember_settings) return;
    Settings now;
    now.language = state_.language;
    now.predict = state_.predict;
    if (state_.scenario) now.scenario = state_.scenario->id;
    if (state_.variant) now.variant = state_.variant->id;
    if (now == saved_settings_) return;
    saved_settings_ = now; // written once per change, even if writing fails (no retry every frame)
    const std::string error = save_settings(now, settings_file_);
    if (!error.empty()) state_.status = error;
}

} // namespace synclab::ui
