#include "ui/shell/normal_layout.h"

#include "scenario/scenario.h"
#include "ui/views/panel_widgets.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace synclab::ui {
namespace {

// A draggable bar between two regions that moves `fraction` of `total` (the first region's share).
// vertical: a bar between side-by-side regions (dragged horizontally).
void splitter(const char* id, bool vertical, float thickness, float length, float total, float& fraction,
              float min_first, float min_second) {
    ImGui::InvisibleButton(id, vertical ? ImVec2(thickness, length) : ImVec2(length, thickness));
    const bool active = ImGui::IsItemActive();
    if (ImGui::IsItemHovered() || active)
        ImGui::SetMouseCursor(vertical ? ImGuiMouseCursor_ResizeEW : ImGuiMouseCursor_ResizeNS);
    if (active && total > 0) {
        const float delta = vertical ? ImGui::GetIO().MouseDelta.x : ImGui::GetIO().MouseDelta.y;
        const float first =
            std::clamp(fraction * total + delta, min_first, std::max(min_first, total - min_second));
        fraction = first / total;
    }
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    const ImU32 c = ImGui::GetColorU32(active                   ? ImGuiCol_SeparatorActive
                                       : ImGui::IsItemHovered() ? ImGuiCol_SeparatorHovered
                                                                : ImGuiCol_Separator);
    if (vertical)
        ImGui::GetWindowDrawList()->AddLine(ImVec2((a.x + b.x) * 0.5f, a.y), ImVec2((a.x + b.x) * 0.5f, b.y),
                                            c);
    else
        ImGui::GetWindowDrawList()->AddLine(ImVec2(a.x, (a.y + b.y) * 0.5f), ImVec2(b.x, (a.y + b.y) * 0.5f),
                                            c);
}

// The first region's size for a fraction, kept inside [min_first, total - min_second].
float split_size(float total, float fraction, float min_first, float min_second) {
    return std::max(0.0f, std::clamp(total * fraction, min_first, std::max(min_first, total - min_second)));
}

// The width a browser row needs to show its variant's id whole (the rest of its title may be cut
// with an ellipsis): the tree's two indents (topic, lesson), the badge, the id and the ellipsis, the
// child's padding and its scrollbar. Ids are code, in the same font in every language.
float browser_width_for_ids() {
    const ImGuiStyle& style = ImGui::GetStyle();
    float widest = 0;
    for (const scenario::Scenario& s : scenario::catalog())
        for (const scenario::Variant& v : s.variants)
            widest = std::max(widest, ImGui::CalcTextSize((v.id + ":").c_str()).x);
    const float ellipsis = ImGui::CalcTextSize(widgets::glyph_or(0x2026, "\u2026", "...")).x;
    return style.WindowPadding.x * 2 + style.IndentSpacing * 2 + ImGui::GetTextLineHeight() +
           style.ItemSpacing.x + widest + ellipsis + style.ScrollbarSize + 2;
}

} // namespace

float NormalLayout::bar() const {
    return std::max(4.0f, ImGui::GetFontSize() * 0.35f);
}

float NormalLayout::left_width(ImVec2 size) const {
    const float em = ImGui::GetFontSize();
    // (at most half the window: a teacher's lesson folder may hold a very long id)
    const float min_left = std::min(std::max(em * 12, browser_width_for_ids()), size.x * 0.5f);
    return split_size(size.x, left_, min_left, em * 30);
}

LeftColumn NormalLayout::left_column(float height) const {
    const float em = ImGui::GetFontSize();
    // Before the first measure: the run panel's usual share.
    const float wanted = run_panel_wanted_ > 0 ? run_panel_wanted_ : height * 0.4f;
    return plan_left_column(height, bar() + ImGui::GetStyle().ItemSpacing.y * 2, wanted, em * 8);
}

ImVec4 NormalLayout::measure_run_panel() {
    // Content height in the child's own coordinates (scrolling left out) and its bottom padding.
    run_panel_wanted_ = std::ceil(ImGui::GetCursorPosY() + ImGui::GetStyle().WindowPadding.y);
    const ImVec2 top = ImGui::GetWindowPos();
    return {top.x, top.y, top.x + ImGui::GetWindowWidth(), top.y - ImGui::GetScrollY() + run_panel_wanted_};
}

void NormalLayout::left_gap() const {
    ImGui::Dummy(ImVec2(0, bar()));
}

void NormalLayout::left_splitter(ImVec2 size) {
    const float em = ImGui::GetFontSize();
    const float min_left = std::min(std::max(em * 12, browser_width_for_ids()), size.x * 0.5f);
    splitter("##split_left", true, bar(), size.y, size.x, left_, min_left, em * 30);
}

RightColumn NormalLayout::right_column(float height, bool tall_tabs, bool before_run,
                                       float findings_wanted) const {
    RightColumnInput in;
    in.height = height;
    in.bar = bar() + ImGui::GetStyle().ItemSpacing.y * 2; // (the item spacing above and below it)
    in.em = ImGui::GetFontSize();
    in.top_split = tall_tabs ? top_tall_ : top_;
    in.findings_split = findings_;
    in.before_run = before_run;
    in.findings_wanted = findings_wanted;
    in.tabs_wanted = tall_tabs ? 0.0f : tabs_wanted_;
    return plan_right_column(in);
}

void NormalLayout::note_lesson_wanted(float tabs_top, float lesson_wanted) {
    tabs_wanted_ = lesson_wanted > 0 ? std::ceil(ImGui::GetWindowPos().y - tabs_top + lesson_wanted +
                                                 ImGui::GetStyle().WindowPadding.y)
                                     : 0.0f;
}

void NormalLayout::top_splitter(float width, float height, bool tall_tabs, const RightColumn& plan) {
    if (!plan.splitters) return ImGui::Dummy(ImVec2(width, bar()));
    const float em = ImGui::GetFontSize();
    splitter("##split_top", false, bar(), width, height, tall_tabs ? top_tall_ : top_, em * 8, em * 14);
}

void NormalLayout::findings_splitter(float width, float height, const RightColumn& plan) {
    if (!plan.splitters) return ImGui::Dummy(ImVec2(width, bar()));
    const float em = ImGui::GetFontSize();
    // The bar moves the timeline's share of what the tabs leave; the findings keep the rest.
    const float rest =
        std::max(0.0f, height - plan.tabs_h - 2 * (bar() + ImGui::GetStyle().ItemSpacing.y * 2));
    float timeline_share = 1.0f - findings_;
    splitter("##split_findings", false, bar(), width, rest, timeline_share, em * 6, em * 5);
    findings_ = 1.0f - timeline_share;
}

} // namespace synclab::ui
