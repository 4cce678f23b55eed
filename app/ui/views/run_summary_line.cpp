#include "ui/views/run_summary_line.h"

#include "ui/model/lesson_library.h"
#include "ui/model/outcome_words.h"
#include "ui/views/panel_widgets.h"
#include "ui/model/source_lines.h"
#include "ui/model/theme.h"

#include <imgui.h>

namespace synclab::ui {

namespace {
const char* kSep = " \u00b7 ";
} // namespace

void draw_record_summary(const RunRecord& r, Language language, bool presenter, bool flow) {
    const Outcome outcome = outcome_of(r.summary, language);
    const auto match = record_match(r);
    const uint32_t outcome_ink = theme::tone_ink(outcome.tone, presenter);
    if (flow) {
        // (the separator closes the outcome's last piece, so that a line break never starts with it)
        flow_text(match ? outcome.words + kSep : outcome.words, outcome_ink);
        if (match) flow_text(match_word(*match, language), theme::tone_ink(match_tone(*match), presenter));
        return;
    }
    widgets::coloured_text(outcome_ink, outcome.words.c_str());
    if (match) {
        ImGui::SameLine(0, 0);
        ImGui::TextDisabled("%s", kSep);
        ImGui::SameLine(0, 0);
        widgets::coloured_text(theme::tone_ink(match_tone(*match), presenter), match_word(*match, language));
    }
}

void flow_text(const std::string& text, uint32_t rgba, std::string_view separator) {
    const float line = ImGui::GetWindowContentRegionMax().x - ImGui::GetWindowContentRegionMin().x;
    size_t begin = 0;
    while (begin < text.size()) {
        size_t end = text.find(separator, begin);
        end = end == std::string::npos ? text.size() : end + separator.size();
        const std::string piece = text.substr(begin, end - begin);
        const std::string shown = piece.substr(0, piece.find_last_not_of(' ') + 1);
        const float width = ImGui::CalcTextSize(shown.c_str()).x;
        // After a piece of this text, one space (the separator's own); after the item before it,
        // the usual spacing.
        const float space = begin == 0 ? ImGui::GetStyle().ItemSpacing.x : ImGui::CalcTextSize(" ").x;
        const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
        if (ImGui::GetItemRectMax().x + space + width <= right) ImGui::SameLine(0, space);
        if (width <= line)
            widgets::coloured_text(rgba, shown.c_str());
        else
            widgets::coloured_text_wrapped(rgba, shown.c_str());
        begin = end;
    }
}

} // namespace synclab::ui
