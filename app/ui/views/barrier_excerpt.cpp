#include "ui/views/barrier_excerpt.h"

#include "ui/views/panel_widgets.h"
#include "ui/model/source_lines.h"
#include "ui/model/theme.h"
#include "ui/model/ui_text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

namespace synclab::ui {

std::vector<uint32_t> barrier_lines(const trace::Trace& trace, size_t max) {
    std::set<uint32_t> lines;
    for (const trace::Event& e : trace.events)
        if (e.kind == trace::EventKind::BarrierArrive)
            if (const uint32_t line = trace.kernel_file_line(e); line != 0) lines.insert(line);
    std::vector<uint32_t> out(lines.begin(), lines.end());
    if (out.size() > max) out.resize(max);
    return out;
}

std::vector<uint32_t> excerpt_lines(const std::vector<std::string_view>& lines,
                                    const std::vector<uint32_t>& barriers) {
    const auto blank = [&](uint32_t line) {
        return lines[line - 1].find_first_not_of(" \t") == std::string_view::npos;
    };
    const uint32_t count = uint32_t(lines.size());
    std::set<uint32_t> out;
    for (uint32_t b : barriers) {
        if (b == 0 || b > count) continue;
        out.insert(b);
        for (uint32_t l = b - 1; l >= 1; --l)
            if (!blank(l)) {
                out.insert(l);
                break;
            }
        for (uint32_t l = b + 1; l <= count; ++l)
            if (!blank(l)) {
                out.insert(l);
                break;
            }
    }
    return {out.begin(), out.end()};
}

void BarrierExcerpt::update(const AppState& state, const RunRecord& correct) {
    const trace::Trace& trace = correct.summary.trace;
    if (serial_ == correct.serial && trace_ == &trace) return;
    serial_ = correct.serial;
    trace_ = &trace;
    text_ = std::string(choose_source(&correct, state.scenario).cuda);
    barriers_ = barrier_lines(trace);
    lines_ = text_.empty() ? std::vector<uint32_t>{} : excerpt_lines(split_lines(text_), barriers_);
}

float BarrierExcerpt::height(const AppState& state, const RunRecord* correct) {
    if (correct == nullptr) return 0;
    update(state, *correct);
    if (lines_.empty()) return 0;
    const float row = (mono_font_ != nullptr ? mono_font_->FontSize : ImGui::GetFontSize()) * 1.25f;
    const ImGuiStyle& style = ImGui::GetStyle();
    return std::ceil(ImGui::GetTextLineHeightWithSpacing() + row * float(lines_.size()) +
                     style.ItemSpacing.y * 2);
}

void BarrierExcerpt::draw(const AppState& state, const RunRecord& correct) {
    update(state, correct);
    if (lines_.empty()) return;
    const theme::Palette& p = theme::palette(state.presenter);
    const TimelineText& words = ui_text(shown_language(state)).timeline;

    // "correct · line 21": whose lines, and where its threads wait (as the waits in its timeline say).
    widgets::coloured_text(p.variant_name, correct.variant_id.c_str());
    ImGui::SameLine();
    const std::string where =
        barriers_.size() >= 2
            ? fill(words.line_pair, {std::to_string(barriers_[0]), std::to_string(barriers_[1])})
            : fill(words.line, {std::to_string(barriers_[0])});
    ImGui::TextDisabled("\u00b7 %s", where.c_str());

    const std::vector<std::string_view> text = split_lines(text_);
    // The rows lose their common indentation: the column is narrow at a room's font size.
    size_t indent = std::string_view::npos;
    for (uint32_t l : lines_) {
        const std::string_view s = text[l - 1];
        const size_t first = s.find_first_not_of(" \t");
        if (first != std::string_view::npos) indent = std::min(indent, first);
    }
    if (indent == std::string_view::npos) indent = 0;
    const uint32_t digits = decimal_digits(lines_.back());

    if (mono_font_ != nullptr) ImGui::PushFont(mono_font_);
    const float row_h = ImGui::GetFontSize() * 1.25f;
    const float width = ImGui::GetContentRegionAvail().x;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const uint32_t lit = theme::kBarrierWait;
    for (uint32_t l : lines_) {
        const bool barrier = std::find(barriers_.begin(), barriers_.end(), l) != barriers_.end();
        const ImVec2 at = ImGui::GetCursorScreenPos();
        if (barrier) dl->AddRectFilled(at, {at.x + width, at.y + row_h}, lit);
        ImGui::PushStyleColor(ImGuiCol_Text, barrier ? text_colour_on(lit) : p.text_disabled);
        char number[16];
        std::snprintf(number, sizeof number, "%*u ", int(digits), l);
        ImGui::SetCursorScreenPos({at.x, at.y + (row_h - ImGui::GetFontSize()) / 2});
        ImGui::TextUnformatted(number);
        ImGui::PopStyleColor();
        ImGui::SameLine(0, 0);
        ImGui::PushStyleColor(ImGuiCol_Text, barrier ? text_colour_on(lit) : p.text);
        const std::string code = expand_tabs(text[l - 1].substr(std::min(indent, text[l - 1].size())));
        widgets::one_line(code.c_str(), std::max(0.0f, at.x + width - ImGui::GetCursorScreenPos().x));
        ImGui::PopStyleColor();
        ImGui::SetCursorScreenPos({at.x, at.y + row_h});
    }
    ImGui::Dummy({0, 0});
    if (mono_font_ != nullptr) ImGui::PopFont();
}

bool BarrierExcerpt::begin_above(const AppState& state, const RunRecord* correct) {
    const float h = height(state, correct);
    if (h <= 0) return false;
    ImGui::BeginChild("##barrier_excerpt", ImVec2(0, h), false,
                      ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
    const ImVec2 a = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
    rect_ = ImVec4(a.x, a.y, a.x + size.x, a.y + size.y);
    draw(state, *correct);
    ImGui::EndChild();
    ImGui::Separator();
    ImGui::BeginChild("##below_barrier_excerpt", ImVec2(0, 0), false);
    return true;
}

} // namespace synclab::ui
