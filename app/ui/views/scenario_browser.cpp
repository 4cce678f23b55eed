#include "ui/views/scenario_browser.h"

#include "ui/model/ui_text.h"

#include "ui/model/lesson_library.h"
#include "ui/model/outcome_words.h"
#include "ui/views/panel_widgets.h"
#include "ui/model/source_lines.h"
#include "ui/model/theme.h"

#include <imgui.h>

#include <algorithm>
#include <string>

namespace synclab::ui {

namespace {

bool word_char(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

// `title` cut to `width` with an ellipsis, never inside an ASCII word or a UTF-8 sequence: a row
// clipped at the panel's edge showed fragments ("... 一次 at" for atomicAdd, "launched coo") that
// read as words of their own. Unchanged when it fits.
std::string fit_title(const std::string& title, float width) {
    if (ImGui::CalcTextSize(title.c_str()).x <= width) return title;
    const char* ellipsis = widgets::glyph_or(0x2026, "\u2026", "...");
    const float room = width - ImGui::CalcTextSize(ellipsis).x;
    size_t best = 0;
    for (size_t end = 1; end <= title.size(); ++end) {
        if (end < title.size() && (static_cast<unsigned char>(title[end]) & 0xC0) == 0x80) continue;
        if (end < title.size() && word_char(title[end - 1]) && word_char(title[end])) continue;
        if (ImGui::CalcTextSize(title.data(), title.data() + end).x > room) break;
        best = end;
    }
    while (best > 0 && title[best - 1] == ' ')
        --best;
    return title.substr(0, best) + ellipsis;
}

// The badge, drawn in a square of one text line: a hollow circle before the first run; then its shape
// says whether the last run matched the lesson (disc: as expected, square: a surprise) and its colour
// is that run's own outcome (outcome_words.h): a red disc is a hang the lesson expected, never green.
// Shapes differ as well as colours so that red/green colour blindness still tells them apart.
void draw_badge(const Badge& badge, bool presenter) {
    const float size = ImGui::GetTextLineHeight();
    const ImVec2 p = ImGui::GetCursorScreenPos();
    ImGui::Dummy({size, size});
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 c{p.x + size * 0.5f, p.y + size * 0.5f};
    const float r = size * 0.32f;
    if (!badge.ran)
        dl->AddCircle(c, r, ImGui::GetColorU32(ImGuiCol_TextDisabled), 0, size * 0.1f);
    else if (badge.match == runner::LessonMatch::AsExpected)
        dl->AddCircleFilled(c, r, badge_colour(badge, presenter));
    else
        dl->AddRectFilled({c.x - r, c.y - r}, {c.x + r, c.y + r}, badge_colour(badge, presenter));
}

} // namespace

void ScenarioBrowser::draw(AppState& state) {
    ImGui::PushID("scenario_browser");
    const auto& catalog = scenario::catalog();

    // Every lesson offered, a teacher's folder's too.
    size_t total = 0, ran = 0, as_expected = 0;
    for (const scenario::Scenario* s : lessons().all())
        for (const scenario::Variant& v : s->variants) {
            ++total;
            const Badge badge = badge_of(state, *s, v);
            if (badge.ran) ++ran;
            if (badge.as_expected()) ++as_expected;
        }
    const Language language = shown_language(state);
    // Before anything ran, "0 of 50 ran as expected" would read as fifty failures: the header says
    // what there is to pick from, and counts only once something ran.
    const std::string header =
        ran == 0 ? fill(ui_text(language).classroom.browser_start,
                        {std::to_string(lessons().all().size()), std::to_string(total)})
                 : fill(ui_text(language).browser.ran_as_expected,
                        {std::to_string(ran), std::to_string(total), std::to_string(as_expected)});
    ImGui::TextDisabled("%s", header.c_str());
    widgets::about_button(ui_text(shown_language(state)).about.browser);
    ImGui::Separator();

    const bool selection_moved = state.variant != seen_variant_;
    seen_variant_ = state.variant;
    // A selection made from outside (a script, the keys) is scrolled into view, and kept there while
    // the panel's height settles in the first frames (the run panel below takes what its content needs).
    const float height = ImGui::GetWindowHeight();
    if (selection_moved || height != seen_height_) scroll_to_selection_ = true;
    seen_height_ = height;
    selected_rect_ = ImVec4(0, 0, 0, 0);
    selected_badge_rect_ = ImVec4(0, 0, 0, 0);

    // The built-in lessons by topic, then a teacher's folder (--lessons DIR) under its own heading.
    std::vector<TopicGroup> groups = group_by_topic(catalog);
    std::vector<std::string> labels;
    for (const TopicGroup& group : groups)
        labels.push_back(topic_label(group.topic, shown_language(state)));
    if (!lessons().folder().empty()) {
        TopicGroup folder{"##lesson_folder", {}};
        for (const scenario::Scenario& s : lessons().folder())
            folder.scenarios.push_back(&s);
        groups.push_back(std::move(folder));
        labels.push_back(fill(ui_text(language).browser.folder_heading, {lessons().folder_name()}));
    }
    for (size_t g = 0; g < groups.size(); ++g) {
        const TopicGroup& group = groups[g];
        const bool holds_selection = std::find(group.scenarios.begin(), group.scenarios.end(),
                                               state.scenario) != group.scenarios.end();
        if (holds_selection && selection_moved)
            ImGui::SetNextItemOpen(true);
        else
            ImGui::SetNextItemOpen(true, ImGuiCond_Once);
        if (!ImGui::TreeNodeEx(group.topic.c_str(), ImGuiTreeNodeFlags_Framed, "%s", labels[g].c_str())) continue;
        for (const scenario::Scenario* s : group.scenarios)
            draw_scenario(state, *s, selection_moved);
        ImGui::TreePop();
    }
    ImGui::PopID();
}

void ScenarioBrowser::draw_scenario(AppState& state, const scenario::Scenario& s, bool selection_moved) {
    const Language language = shown_language(state);
    const scenario::LessonText& text = lesson_text(state, s.en, s.zh);
    const bool selected_here = state.scenario == &s;
    if (selected_here && selection_moved) ImGui::SetNextItemOpen(true);
    ImGui::PushID(s.id.c_str());
    // Open by default: the catalog is small, and seeing every variant invites comparing them.
    const std::string shown =
        fit_title(text.title, ImGui::GetContentRegionAvail().x - ImGui::GetTreeNodeToLabelSpacing());
    const bool open = ImGui::TreeNodeEx("##scenario", ImGuiTreeNodeFlags_DefaultOpen, "%s", shown.c_str());
    const std::string tip = (shown != text.title ? text.title + "\n" : std::string()) +
                            fill(ui_text(language).browser.scenario_tip, {s.id, s.source_file});
    widgets::tooltip(tip.c_str());
    if (open) {
        for (const scenario::Variant& v : s.variants)
            draw_variant(state, s, v);
        ImGui::TreePop();
    }
    ImGui::PopID();
}

void ScenarioBrowser::draw_variant(AppState& state, const scenario::Scenario& s, const scenario::Variant& v) {
    ImGui::PushID(v.id.c_str());
    const Badge badge = badge_of(state, s, v);
    draw_badge(badge, state.presenter);
    if (state.variant == &v) {
        const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
        selected_badge_rect_ = ImVec4(a.x, a.y, b.x, b.y);
    }
    widgets::tooltip(badge_text(badge, shown_language(state)).c_str());
    ImGui::SameLine();
    const scenario::LessonText& text = lesson_text(state, v.en, v.zh);
    const std::string& title = text.title.empty() ? v.id : text.title;
    const std::string shown = fit_title(title, ImGui::GetContentRegionAvail().x);
    if (ImGui::Selectable(shown.c_str(), state.variant == &v)) {
        // Selecting never touches state.current: the last run stays on screen until the next one,
        // and the lesson panel decides whether it belongs to the selection.
        state.scenario = &s;
        state.variant = &v;
        seen_variant_ = &v; // selected here: the node is open already, the row under the mouse
    }
    if (state.variant == &v) {
        const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
        selected_rect_ = ImVec4(a.x, a.y, b.x, b.y);
        if (scroll_to_selection_) {
            // A third from the top: the lesson's other variants show under it.
            if (!ImGui::IsItemVisible()) ImGui::SetScrollHereY(0.35f);
            scroll_to_selection_ = false;
        }
    }
    if (ImGui::IsItemHovered()) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 32.0f);
        if (shown != title) ImGui::TextUnformatted(title.c_str()); // the row cut it short
        ImGui::TextUnformatted(text.shows.c_str());
        ImGui::Spacing();
        ImGui::TextDisabled("%s", badge_text(badge, shown_language(state)).c_str());
        ImGui::TextDisabled("%s", expectation_sentence(v.expect, shown_language(state)).c_str());
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
    }
    ImGui::PopID();
}

} // namespace synclab::ui
