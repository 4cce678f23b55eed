#include "ui/views/shared_memory_view.h"

#include "ui/model/source_lines.h" // shown_language
#include "ui/model/theme.h"
#include "ui/model/ui_text.h"
#include "ui/model/value_format.h"

#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <string>

namespace synclab::ui {

bool SharedMemoryView::wanted(const AppState& state, const Playback* playback, uint64_t serial) {
    return playback != nullptr && state.playhead.on(serial) && playback->size() > 0;
}

void SharedMemoryView::draw(const AppState& state, const Playback* playback, const trace::Trace* trace) {
    if (playback == nullptr || trace == nullptr) return;
    // A playback of every block (tests) shows the block of its current event.
    const uint32_t block =
        playback->block() == Playback::kAllBlocks ? playback->current_block() : playback->block();
    if (playback != playback_ || playback->cursor() != cursor_ || block != block_) {
        playback_ = playback;
        cursor_ = playback->cursor();
        block_ = block;
        slots_ = playback->shared_memory(block, kMaxWords);
    }
    const SharedMemoryText& t = ui_text(shown_language(state)).shared_memory;
    ImGui::TextUnformatted(fill(t.title, {std::to_string(block), std::to_string(cursor_)}).c_str());
    if (slots_.empty()) {
        ImGui::TextDisabled("%s", fill(t.none, {std::to_string(kMaxWords)}).c_str());
        return;
    }
    size_t stale = 0, stale_read = 0;
    for (const Playback::Slot& s : slots_) {
        stale += s.stale;
        stale_read += s.stale && s.read_now;
    }
    if (stale_read > 0) {
        ImGui::PushStyleColor(ImGuiCol_Text, theme::palette(state.presenter).bad);
        ImGui::TextWrapped("%s", fill(t.stale_read, {std::to_string(stale_read)}).c_str());
        ImGui::PopStyleColor();
    } else {
        ImGui::TextDisabled("%s",
                            fill(t.counts, {std::to_string(slots_.size()), std::to_string(stale)}).c_str());
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", t.tip_stale.c_str());
    }

    // Cells: 16 words a row, as large as the panel allows without scrolling (the legend below keeps a
    // line), values shown when they fit.
    const int per_row = 16;
    const float gap = 2;
    const size_t rows = (slots_.size() + per_row - 1) / per_row;
    const ImVec2 room = ImGui::GetContentRegionAvail();
    const float by_width = std::floor(room.x / per_row) - gap;
    const float by_height = std::floor((room.y - ImGui::GetFrameHeightWithSpacing()) / float(rows)) - gap;
    const float cell = std::clamp(std::min(by_width, by_height), 5.f, ImGui::GetFontSize() * 3);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    const float font = ImGui::GetFontSize();
    int hovered = -1;
    for (size_t i = 0; i < slots_.size(); ++i) {
        const Playback::Slot& s = slots_[i];
        const ImVec2 a{origin.x + float(i % per_row) * (cell + gap),
                       origin.y + float(i / per_row) * (cell + gap)};
        const ImVec2 b{a.x + cell, a.y + cell};
        const uint32_t fill = s.stale     ? theme::kStaleSlot
                              : s.written ? theme::kWrittenSlot
                                          : IM_COL32(28, 28, 32, 255);
        dl->AddRectFilled(a, b, fill);
        if (s.read_now)
            dl->AddRect(a, b, s.stale ? theme::kRaceArrow : theme::kPlayhead, 0, 0,
                        std::max(2.f, font * 0.16f));
        if (s.written && s.writer < trace->events.size()) {
            const trace::Event& w = trace->events[s.writer];
            const std::string text = format_value(
                w.site < trace->sites.size() ? trace->sites[w.site].text : std::string(), s.value, 4);
            const float size = std::min(font, cell * 0.45f);
            const ImVec2 extent = ImGui::GetFont()->CalcTextSizeA(size, FLT_MAX, 0, text.c_str());
            if (size >= 9 && extent.x < cell - 2) // smaller text is noise: hover for the value
                dl->AddText(ImGui::GetFont(), size,
                            {a.x + (cell - extent.x) / 2, a.y + (cell - extent.y) / 2}, theme::ink_on(fill),
                            text.c_str());
        }
        if (mouse.x >= a.x && mouse.x < b.x && mouse.y >= a.y && mouse.y < b.y && ImGui::IsWindowHovered())
            hovered = int(i);
    }
    ImGui::Dummy({per_row * (cell + gap), float(rows) * (cell + gap)});

    // Legend.
    auto swatch = [&](uint32_t colour, const char* label) {
        const ImVec2 p = ImGui::GetCursorScreenPos();
        const float h = ImGui::GetTextLineHeight();
        ImGui::GetWindowDrawList()->AddRectFilled({p.x, p.y + h * 0.2f}, {p.x + h * 0.6f, p.y + h * 0.8f},
                                                  colour);
        ImGui::Dummy({h * 0.7f, h});
        ImGui::SameLine(0, 4);
        ImGui::TextUnformatted(label);
        ImGui::SameLine();
    };
    swatch(theme::kWrittenSlot, t.written);
    swatch(theme::kStaleSlot, t.stale);
    swatch(theme::kPlayhead, t.read_now);
    swatch(theme::kRaceArrow, t.stale_read_legend);
    ImGui::NewLine();

    if (hovered >= 0) {
        const Playback::Slot& s = slots_[size_t(hovered)];
        ImGui::BeginTooltip();
        char hex[24];
        std::snprintf(hex, sizeof hex, "%llx", (unsigned long long)s.address);
        ImGui::TextUnformatted(fill(t.tip_offset, {hex, std::to_string(s.address / 4)}).c_str());
        auto who = [&](uint32_t e) {
            const trace::Event& ev = trace->events[e];
            const trace::ThreadInfo& info = trace->threads[ev.thread];
            return fill(t.who,
                        {std::to_string(info.thread_in_block), std::to_string(trace->source_line(ev))});
        };
        if (s.written) {
            const std::string value =
                format_value(trace->sites[trace->events[s.writer].site].text, s.value, 4);
            ImGui::TextUnformatted(fill(t.tip_value, {value, who(s.writer)}).c_str());
        } else {
            ImGui::TextUnformatted(t.tip_not_written);
        }
        if (s.next_writer != UINT32_MAX)
            ImGui::TextUnformatted(
                fill(s.stale ? t.tip_next_stale : t.tip_next, {who(s.next_writer)}).c_str());
        ImGui::EndTooltip();
    }
}

} // namespace synclab::ui
