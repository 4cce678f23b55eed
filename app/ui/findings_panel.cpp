#include "ui/findings_panel.h"

#include "ui/callout_view.h"
#include "ui/outcome_words.h"
#include "ui/ui_text.h"

#include "ui/panel_widgets.h"
#include "ui/source_lines.h"
#include "ui/theme.h"

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cctype>
#include <string>

namespace synclab::ui {

namespace {

enum Column : int { kKind, kHazard, kSpace, kLines, kCount, kExample, kMessage, kColumnCount };

// Height of wrapped text in the current table cell.
float wrapped_height(const std::string& text) {
    const float width = std::max(1.0f, ImGui::GetContentRegionAvail().x);
    return ImGui::CalcTextSize(text.c_str(), nullptr, false, width).y;
}

// A small square in the finding's mark colour (exact: the GUI tests may look for it) before its kind.
void swatch(uint32_t colour) {
    const float size = ImGui::GetFontSize() * 0.7f;
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float line = ImGui::GetTextLineHeight();
    ImGui::GetWindowDrawList()->AddRectFilled({p.x, p.y + (line - size) * 0.5f},
                                              {p.x + size, p.y + (line + size) * 0.5f}, colour);
    ImGui::Dummy({size, line});
}

void draw_status(const AppState& state, const runner::RunSummary& summary) {
    const Language language = shown_language(state);
    const Outcome outcome = outcome_of(summary, language);
    // "... - the trace shows what ran until then" only where there is a trace: a launch refused
    // before it started has none.
    const std::string text =
        outcome.words + (summary.trace.threads.empty() ? "" : ui_text(language).findings.until_then.s);
    swatch(theme::kDeadlock); // the mark colour of a stuck thread on the timeline
    ImGui::SameLine(0, ImGui::GetFontSize() * 0.3f);
    widgets::coloured_text_wrapped(theme::tone_ink(outcome.tone, state.presenter), text.c_str());
    ImGui::Separator();
}

// The last item (a row's selectable) scrolled into the middle of the table's rows when any of it
// is out of view (under the frozen header row, or past either edge); a row taller than the view
// goes to its top, so that its first line is read first.
void bring_row_into_view() {
    const ImGuiWindow* window = ImGui::GetCurrentWindow(); // the table's scrolling inner window
    const float top = window->InnerRect.Min.y + ImGui::TableGetHeaderRowHeight();
    const float bottom = window->InnerRect.Max.y;
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    if (a.y >= top && b.y <= bottom) return;
    const float delta = b.y - a.y > bottom - top ? a.y - top : (a.y + b.y) * 0.5f - (top + bottom) * 0.5f;
    ImGui::SetScrollY(ImGui::GetScrollY() + delta);
}

} // namespace

void FindingsPanel::draw(AppState& state) {
    ImGui::PushID("findings_panel");
    selected_row_ = ImVec4(0, 0, 0, 0);
    const Language language = shown_language(state);
    const FindingsText& words = ui_text(language).findings;
    const RunRecord* record = state.current.get();
    if (record == nullptr) {
        ImGui::TextDisabled("%s", words.no_run.s);
        widgets::about_button(ui_text(shown_language(state)).about.findings);
        ImGui::PopID();
        return;
    }
    const runner::RunSummary& summary = record->summary;
    const std::vector<analysis::Finding>& findings = summary.findings;
    if (record->provisional) {
        // Analysing a trace that is still growing would report races that the next events resolve.
        widgets::wrapped(words.live);
        widgets::about_button(ui_text(shown_language(state)).about.findings);
        ImGui::PopID();
        return;
    }

    ImGui::TextUnformatted(
        fill(findings.size() == 1 ? words.count_one : words.count_many, {std::to_string(findings.size())})
            .c_str());
    if (!record->label.empty()) {
        ImGui::SameLine();
        ImGui::TextDisabled("%s", fill(words.in_run, {record_label(*record, language)}).c_str());
    }
    widgets::about_button(ui_text(shown_language(state)).about.findings);
    if (summary.status != trace::RunStatus::Ok) draw_status(state, summary);

    if (!summary.traced) {
        // Untraced launches leave nothing to analyse: "no findings" would claim a clean kernel.
        widgets::wrapped(words.not_traced);
        ImGui::PopID();
        return;
    }
    if (coverage_of_ != record->serial || coverage_of_ == 0) {
        coverage_of_ = record->serial;
        const analysis::Coverage c = analysis::coverage(summary.trace);
        recorded_ = c.recorded;
        coverage_ = c.complete() ? std::string() : c.summary + ".";
        // "Analysed 12 of 64 blocks: ..." (the analysis words it as a clause).
        if (!coverage_.empty()) coverage_[0] = char(std::toupper(static_cast<unsigned char>(coverage_[0])));
    }
    if (!recorded_) {
        // Nothing ran that left a trace (a refused launch): "no findings in the blocks it analysed"
        // would suggest that some blocks were looked at.
        widgets::coloured_text_wrapped(theme::palette(state.presenter).bad, words.no_trace.s);
        ImGui::PopID();
        return;
    }
    if (!coverage_.empty())
        widgets::coloured_text_wrapped(theme::palette(state.presenter).bad, coverage_.c_str());
    if (findings.empty()) {
        const std::string text = fill(coverage_.empty() ? words.no_findings : words.no_findings_partial,
                                      {widgets::glyph_or(0x2014, "\u2014", "-")});
        widgets::wrapped(text.c_str());
        ImGui::PopID();
        return;
    }

    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV |
                                  ImGuiTableFlags_BordersOuterH | ImGuiTableFlags_Resizable |
                                  ImGuiTableFlags_ScrollY | ImGuiTableFlags_SizingFixedFit;
    if (!ImGui::BeginTable("##findings", kColumnCount, flags)) {
        ImGui::PopID();
        return;
    }
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn(words.kind, ImGuiTableColumnFlags_WidthFixed);
    ImGui::TableSetupColumn(words.hazard, ImGuiTableColumnFlags_WidthFixed);
    ImGui::TableSetupColumn(words.space, ImGuiTableColumnFlags_WidthFixed);
    ImGui::TableSetupColumn(words.lines, ImGuiTableColumnFlags_WidthFixed);
    ImGui::TableSetupColumn(words.count, ImGuiTableColumnFlags_WidthFixed);
    ImGui::TableSetupColumn(words.example, ImGuiTableColumnFlags_WidthStretch, 1.0f);
    ImGui::TableSetupColumn(words.message, ImGuiTableColumnFlags_WidthStretch, 1.6f);
    ImGui::TableHeadersRow();

    const char* arrow = widgets::glyph_or(0x2194, "\u2194", "<->");
    const theme::Palette& palette = theme::palette(state.presenter);
    const trace::Trace& trace = summary.trace;
    // The text the source view shows: the findings' line numbers are lines of it.
    const SourceChoice source = choose_source(record, state.scenario);
    for (size_t i = 0; i < findings.size(); ++i) {
        const analysis::Finding& f = findings[i];
        const int index = int(i);
        const bool selected = state.selection.selected_finding == index;
        const std::string example = thread_example(trace, f, arrow, language);
        const std::string message =
            finding_message(f, trace, source.run_applies ? source.cuda : "", language);
        ImGui::PushID(index);
        ImGui::TableNextRow();

        // The wrapped cells first, so that the row's selectable can be as tall as the row: a click
        // anywhere on a multi-line row then selects it.
        ImGui::TableSetColumnIndex(kMessage);
        const float message_height = wrapped_height(message);
        widgets::wrapped(message.c_str());
        ImGui::TableSetColumnIndex(kExample);
        const float example_height = wrapped_height(example);
        widgets::wrapped(example.c_str());
        const float row_height = std::max({ImGui::GetTextLineHeight(), message_height, example_height});

        // The row's selectable first, then its kind over it: a swatch in the mark colour and the
        // name in the kind's text colour, or in the text colour on a selected or hovered row, where
        // the kind colours are too close to the highlight to read (theme::text_pairs).
        ImGui::TableSetColumnIndex(kKind);
        const ImVec2 cell = ImGui::GetCursorPos();
        if (ImGui::Selectable("##row", selected,
                              ImGuiSelectableFlags_SpanAllColumns | ImGuiSelectableFlags_AllowItemOverlap,
                              {0.0f, row_height}))
            state.requests.focus_finding = index;
        const bool lit = selected || ImGui::IsItemHovered();
        widgets::tooltip(kind_explanation(f.kind, language));
        if (selected) ImGui::SetItemDefaultFocus();
        if (selected && (index != scrolled_to_ || record->serial != scrolled_serial_)) bring_row_into_view();
        if (selected) {
            const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
            selected_row_ = ImVec4(a.x, a.y, b.x, std::min(b.y, a.y + ImGui::GetTextLineHeight()));
        }
        ImGui::SetCursorPos(cell);
        swatch(finding_colour(f.kind));
        ImGui::SameLine(0, ImGui::GetFontSize() * 0.3f);
        widgets::coloured_text(lit ? palette.text : theme::finding_ink(f.kind, state.presenter),
                               kind_words(f.kind, language, false).c_str());

        ImGui::TableSetColumnIndex(kHazard);
        ImGui::TextUnformatted(hazard_words(f.hazard, language));
        widgets::tooltip(hazard_explanation(f.hazard, language));
        ImGui::TableSetColumnIndex(kSpace);
        ImGui::TextUnformatted(space_text(f, language).c_str());
        ImGui::TableSetColumnIndex(kLines);
        ImGui::TextUnformatted(lines_text(f).c_str());
        ImGui::TableSetColumnIndex(kCount);
        ImGui::Text("%llu", static_cast<unsigned long long>(f.count));
        ImGui::PopID();
    }
    ImGui::EndTable();
    scrolled_to_ = state.selection.selected_finding;
    scrolled_serial_ = record->serial;
    ImGui::PopID();
}

} // namespace synclab::ui
