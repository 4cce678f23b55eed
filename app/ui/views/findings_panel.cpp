#include "ui/views/findings_panel.h"

#include "ui/views/callout_view.h"
#include "ui/model/outcome_words.h"
#include "ui/model/ui_text.h"

#include "ui/views/panel_widgets.h"
#include "ui/model/source_lines.h"
#include "ui/model/theme.h"

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cctype>
#include <string>

namespace synclab::ui {

namespace {

enum Column : int { kKind, kHazard, kSpace, kLines, kCount, kExample, kMessage, kColumnCount };

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

// Where the selected finding's sentence starts, right of its colour bar.
float detail_indent() {
    return std::max(3.0f, std::round(ImGui::GetFontSize() * 0.3f)) * 3;
}

} // namespace

void FindingsPanel::draw(AppState& state) {
    ImGui::PushID("findings_panel");
    selected_row_ = list_rect_ = detail_rect_ = ImVec4(0, 0, 0, 0);
    row_rects_.clear();
    detail_text_.clear();
    wanted_h_ = 0;
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

    // Rows of one line each, then the selected finding's whole sentence under them: the list stays
    // where it is when another row is picked, and its height is what the sentence leaves (the
    // sentence's height as drawn last frame: a frame late when the selection changes, never cut).
    // The messages first: the list shows them cut, the sentence under it whole.
    const char* arrow = widgets::glyph_or(0x2194, "\u2194", "<->");
    const trace::Trace& trace = summary.trace;
    // The text the source view shows: the findings' line numbers are lines of it.
    const SourceChoice source = choose_source(record, state.scenario);
    std::vector<std::string> messages;
    for (const analysis::Finding& f : findings)
        messages.push_back(finding_message(f, trace, source.run_applies ? source.cuda : "", language));

    // The sentence's room: the tallest of the findings' sentences at this width, so that the layout
    // (which sizes this panel from wanted_height()) does not change when another finding is selected
    // (a timeline that has just centred a finding's rows would lose them), and never less than the
    // selected one took when last drawn.
    const ImGuiStyle& style = ImGui::GetStyle();
    const float indent = detail_indent();
    const float wrap = std::max(1.0f, ImGui::GetContentRegionAvail().x - indent);
    float tallest = 0;
    for (const std::string& m : messages)
        tallest = std::max(tallest, ImGui::CalcTextSize(m.c_str(), nullptr, false, wrap).y);
    const int selected = state.selection.selected_finding;
    // (presenter mode says the selected finding in its callout, over everything: the list gets the room)
    const bool has_detail = selected >= 0 && size_t(selected) < findings.size() && !state.presenter;
    const float detail_room = std::max(tallest, detail_h_) + style.ItemSpacing.y * 2;
    const float header_bottom = ImGui::GetCursorPosY(); // (counts the window's top padding)
    const float row_h = ImGui::GetTextLineHeight() + style.CellPadding.y * 2;
    const float list_h = std::max(row_h * 2.2f, ImGui::GetContentRegionAvail().y - (has_detail ? detail_room : 0.0f));
    // What the layout should leave this panel: a sentence whole, and three rows of the list (or as
    // many as there are) under the table's header row.
    wanted_h_ = std::ceil(header_bottom + row_h * float(1 + std::min<size_t>(3, findings.size())) + detail_room +
                          style.WindowPadding.y + 2);

    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV |
                                  ImGuiTableFlags_BordersOuterH | ImGuiTableFlags_Resizable |
                                  ImGuiTableFlags_ScrollY | ImGuiTableFlags_SizingFixedFit;
    if (!ImGui::BeginTable("##findings", kColumnCount, flags, {0.0f, list_h})) {
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
    ImGui::TableSetupColumn(words.message, ImGuiTableColumnFlags_WidthStretch, 1.8f);
    ImGui::TableHeadersRow();
    list_rect_ = ImGui::GetCurrentWindow()->InnerRect.ToVec4();
    list_rect_.y += ImGui::TableGetHeaderRowHeight();

    const theme::Palette& palette = theme::palette(state.presenter);
    row_rects_.clear();
    for (size_t i = 0; i < findings.size(); ++i) {
        const analysis::Finding& f = findings[i];
        const int index = int(i);
        const bool is_selected = selected == index;
        const std::string example = thread_example(trace, f, arrow, language);
        const std::string& message = messages[i];
        ImGui::PushID(index);
        ImGui::TableNextRow();

        // The row's selectable first, then its kind over it: a swatch in the mark colour and the
        // name in the kind's text colour, or in the text colour on a selected or hovered row, where
        // the kind colours are too close to the highlight to read (theme::text_pairs).
        ImGui::TableSetColumnIndex(kKind);
        const ImVec2 cell = ImGui::GetCursorPos();
        if (ImGui::Selectable("##row", is_selected,
                              ImGuiSelectableFlags_SpanAllColumns | ImGuiSelectableFlags_AllowItemOverlap))
            state.requests.focus_finding = index;
        const bool lit = is_selected || ImGui::IsItemHovered();
        widgets::tooltip(kind_explanation(f.kind, language));
        if (is_selected) ImGui::SetItemDefaultFocus();
        if (is_selected && (index != scrolled_to_ || record->serial != scrolled_serial_)) bring_row_into_view();
        // (the row's line of text: a selectable's rectangle reaches into the spacing around it)
        const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
        const ImVec4 row(a.x, a.y, b.x, std::min(b.y, a.y + ImGui::GetTextLineHeight()));
        row_rects_.push_back(row);
        if (is_selected) selected_row_ = row;
        ImGui::SetCursorPos(cell);
        swatch(theme::finding_mark(f.kind));
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
        ImGui::TableSetColumnIndex(kExample);
        widgets::one_line(example.c_str(), ImGui::GetContentRegionAvail().x);
        ImGui::TableSetColumnIndex(kMessage);
        widgets::one_line(message.c_str(), ImGui::GetContentRegionAvail().x);
        widgets::tooltip(message.c_str());
        ImGui::PopID();
    }
    ImGui::EndTable();
    scrolled_to_ = selected;
    scrolled_serial_ = record->serial;
    if (has_detail) draw_detail(findings[size_t(selected)], messages[size_t(selected)]);
    ImGui::PopID();
}

void FindingsPanel::draw_detail(const analysis::Finding& finding, const std::string& message) {
    // The selected finding's sentence, whole, beside a bar in its mark colour (as the callout).
    ImGui::Spacing();
    const ImVec2 start = ImGui::GetCursorScreenPos();
    const float bar = std::max(3.0f, std::round(ImGui::GetFontSize() * 0.3f));
    ImGui::Indent(detail_indent());
    widgets::wrapped(message.c_str());
    ImGui::Unindent(detail_indent());
    const ImVec2 end = ImGui::GetItemRectMax();
    ImGui::GetWindowDrawList()->AddRectFilled(start, {start.x + bar, end.y}, theme::finding_mark(finding.kind));
    detail_h_ = end.y - start.y;
    detail_rect_ = ImVec4(start.x, start.y, ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x, end.y);
    detail_text_ = message;
}

} // namespace synclab::ui
