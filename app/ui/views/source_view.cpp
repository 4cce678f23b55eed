// Index
//   [SECTION] Helpers
//   [SECTION] SourceView: text cache and scrolling
//   [SECTION] SourceView: drawing
#include "ui/views/source_view.h"

#include "ui/views/callout_view.h"
#include "ui/model/outcome_words.h"
#include "ui/views/panel_widgets.h"
#include "ui/model/source_lines.h"
#include "ui/model/theme.h"
#include "ui/model/ui_text.h"

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <array>
#include <cstdio>

namespace synclab::ui {

// [SECTION] Helpers -------------------------------------------------------------------------------

namespace {

// Lines of context kept above a line scrolled to, so that the student sees what leads to it.
constexpr float kContextLines = 3.0f;

// The kinds in the legend, in this order (named by kind_words()).
constexpr std::array<analysis::FindingKind, 4> kLegend = {
    analysis::FindingKind::Race, analysis::FindingKind::BarrierDivergence, analysis::FindingKind::LostUpdate,
    analysis::FindingKind::Deadlock};

// A square of text height in a colour, as in the gutter.
void swatch(uint32_t colour) {
    const float size = ImGui::GetTextLineHeight();
    const ImVec2 p = ImGui::GetCursorScreenPos();
    ImGui::Dummy({size * 0.6f, size});
    ImGui::GetWindowDrawList()->AddRectFilled({p.x, p.y + size * 0.2f},
                                              {p.x + size * 0.6f, p.y + size * 0.8f}, colour);
}

// The finding to select when a marked line is clicked: the one after the selected finding among
// those naming the line, so that repeated clicks cycle through them.
int next_finding(const std::vector<int>& on_line, int selected) {
    auto it = std::find(on_line.begin(), on_line.end(), selected);
    if (it == on_line.end() || ++it == on_line.end()) return on_line.front();
    return *it;
}

} // namespace

// [SECTION] SourceView: text cache and scrolling ---------------------------------------------------

std::vector<SourceView::Row> SourceView::layout_rows(const Lines& text, size_t wrap_at) {
    std::vector<Row> rows;
    rows.reserve(text.lines.size());
    for (size_t i = 0; i < text.lines.size(); ++i) {
        const std::string& l = text.lines[i];
        const uint32_t line = uint32_t(i + 1);
        if (l.size() <= wrap_at) {
            rows.push_back({line, 0, l.size(), 0});
            continue;
        }
        // Continuation rows start under the line's own indentation, two columns further in.
        const size_t lead = std::min(
            l.find_first_not_of(' ') == std::string::npos ? 0 : l.find_first_not_of(' '), wrap_at / 2);
        size_t begin = 0, indent = 0;
        while (begin < l.size()) {
            const size_t room = std::max<size_t>(1, wrap_at - indent);
            if (l.size() - begin <= room) {
                rows.push_back({line, begin, l.size() - begin, indent});
                break;
            }
            // Break after the last space that fits (never inside a word), or hard where none does.
            size_t cut = l.rfind(' ', begin + room);
            if (cut == std::string::npos || cut <= begin + lead)
                cut = begin + room;
            else
                ++cut;
            rows.push_back({line, begin, cut - begin, indent});
            begin = cut;
            while (begin < l.size() && l[begin] == ' ')
                ++begin;
            indent = lead + 2;
        }
    }
    return rows;
}

size_t SourceView::first_row_of(const std::vector<Row>& rows, uint32_t line) {
    const auto it =
        std::lower_bound(rows.begin(), rows.end(), line, [](const Row& r, uint32_t l) { return r.line < l; });
    return line == 0 ? 0 : size_t(it - rows.begin());
}

void SourceView::Lines::refresh(std::string_view text, uint64_t record_serial) {
    if (text.data() == data && text.size() == size && record_serial == serial) return;
    data = text.data();
    size = text.size();
    serial = record_serial;
    lines.clear();
    code_columns = 0;
    for (std::string_view line : split_lines(text)) {
        lines.push_back(expand_tabs(line));
        const std::string& l = lines.back();
        const size_t first = l.find_first_not_of(' ');
        if (first != std::string::npos && l.compare(first, 2, "//") != 0)
            code_columns = std::max(code_columns, l.size());
    }
}

void SourceView::update_scroll(const AppState& state, const SourceChoice& choice, const SourceMarks& marks) {
    ScrollKey key;
    key.serial = state.current != nullptr ? state.current->serial : 0;
    key.finding = state.selection.selected_finding;
    key.lines = state.selection.finding_lines;
    key.variant = state.variant;
    key.show_ptx = state.show_ptx;
    if (state.current != nullptr && state.playhead.on(state.current->serial))
        key.playhead_line = state.playhead.line;
    key.provenance = marks.cuda.provenance;
    if (key == seen_) return;
    const bool variant_changed = key.variant != seen_.variant;
    const bool stepped = key.playhead_line != seen_.playhead_line && key.playhead_line != 0;
    const bool explained = key.provenance != seen_.provenance && !key.provenance.empty();
    seen_ = std::move(key);

    // Stepping through the run: follow the playhead's instruction.
    if (stepped && choice.run_applies) {
        cuda_scroll_.request(seen_.playhead_line);
        return;
    }
    // A wrong output explained: bring its lines into view.
    if (explained) {
        cuda_scroll_.request(marks.cuda.provenance.front());
        if (!marks.ptx.provenance.empty()) ptx_scroll_.request(marks.ptx.provenance.front());
        return;
    }

    if (marks.cuda.first_selected() != 0 || marks.ptx.first_selected() != 0) {
        cuda_scroll_.request(marks.cuda.first_selected());
        ptx_scroll_.request(marks.ptx.first_selected());
        return;
    }
    // Nothing selected: a new variant (or the PTX column just opened) shows the variant's kernel,
    // since one file holds every variant of a scenario.
    if (state.variant != nullptr && (variant_changed || state.show_ptx)) {
        auto kernel_start = [&](std::string_view text) {
            const std::vector<std::string_view> lines = split_lines(text);
            return leading_comment_start(lines, kernel_line(lines, state.variant->kernel));
        };
        if (variant_changed) cuda_scroll_.request(kernel_start(choice.cuda));
        ptx_scroll_.request(kernel_start(choice.ptx));
    }
}

// [SECTION] SourceView: drawing -----------------------------------------------------------------------

void SourceView::draw(AppState& state) {
    ImGui::PushID("source_view");
    const SourceChoice choice = choose_source(state.current.get(), state.scenario);
    const SourceMarks marks = source_marks(state.current.get(), state.selection, choice.run_applies,
                                           &state.playhead, &state.provenance);
    const uint64_t serial = state.current != nullptr ? state.current->serial : 0;
    cuda_.refresh(choice.cuda, serial);
    if (state.show_ptx) ptx_.refresh(choice.ptx, serial);
    update_scroll(state, choice, marks);

    draw_header(state, choice);
    if (cuda_.lines.empty() && !state.show_ptx) {
        const SourceText& t = ui_text(shown_language(state)).source;
        widgets::wrapped(state.current != nullptr ? t.no_source : t.select_scenario);
        ImGui::PopID();
        return;
    }
    const float spacing = ImGui::GetStyle().ItemSpacing.x;
    const float avail = ImGui::GetContentRegionAvail().x;
    const float width = state.show_ptx ? std::max(1.0f, (avail - spacing) * 0.5f) : avail;
    draw_column("##cuda", cuda_, marks.cuda, cuda_scroll_, state, width);
    if (state.show_ptx) {
        ImGui::SameLine();
        draw_column("##ptx", ptx_, marks.ptx, ptx_scroll_, state, 0.0f);
    }
    ImGui::PopID();
}

void SourceView::draw_header(AppState& state, const SourceChoice& choice) {
    // A trace of a kernel outside the catalog says so: no lesson is behind this source.
    const RunRecord* r = state.current.get();
    const Language language = shown_language(state);
    const SourceText& t = ui_text(language).source;
    if (r != nullptr && r->scenario_id.empty() && state.scenario == nullptr) {
        ImGui::TextColored(ImVec4(1.0f, 0.85f, 0.35f, 1.0f), "%s",
                           fill(t.own_kernel, {trace::kernel_name(r->summary.trace.meta.kernel)}).c_str());
        ImGui::SameLine();
    }
    ImGui::TextUnformatted(choice.name.empty() ? t.no_file.s : choice.name.c_str());
    ImGui::SameLine();
    ImGui::Checkbox(t.ptx, &state.show_ptx);
    widgets::tooltip(t.tip_ptx);

    if (choice.run_applies && state.current != nullptr) {
        // Only the kinds this run found: the legend explains what is on screen, nothing more.
        for (const analysis::FindingKind kind : kLegend) {
            const auto& findings = state.current->summary.findings;
            if (std::none_of(findings.begin(), findings.end(),
                             [&](const analysis::Finding& f) { return f.kind == kind; }))
                continue;
            // Swatch and word stay together, on the next line where the column is too narrow for them
            // (presenter mode's compare gives the source a third of the width).
            const std::string word = kind_words(kind, language, false);
            widgets::same_line_if_fits(ImGui::GetTextLineHeight() * 0.6f + ImGui::GetStyle().ItemInnerSpacing.x +
                                       ImGui::CalcTextSize(word.c_str()).x);
            swatch(theme::finding_mark(kind));
            ImGui::SameLine(0.0f, ImGui::GetStyle().ItemInnerSpacing.x);
            ImGui::TextUnformatted(word.c_str());
        }
    }
    widgets::about_button(ui_text(shown_language(state)).about.source);
    if (!choice.run_applies && state.current != nullptr) ImGui::TextDisabled("%s", t.other_scenario.s);
}

void SourceView::draw_column(const char* id, const Lines& text, const LineMarks& marks, PendingScroll& scroll,
                             AppState& state, float width) {
    ImGui::BeginChild(id, {width, 0.0f}, true, ImGuiWindowFlags_HorizontalScrollbar);
    if (mono_font_ != nullptr) ImGui::PushFont(mono_font_);
    // (A window's font scale lasts across frames: set it every frame, 1 outside presenter mode.)
    ImGui::SetWindowFontScale(1.0f);
    const float digits = float(decimal_digits(uint32_t(text.lines.size())));
    auto text_columns = [&] { // characters that fit beside the line numbers
        const float font = ImGui::GetFontSize();
        const float room = ImGui::GetContentRegionAvail().x - font * 1.3f - ImGui::GetStyle().ScrollbarSize;
        return size_t(std::max(8.0f, room / ImGui::CalcTextSize("0").x - digits));
    };
    size_t wrap_at = SIZE_MAX;
    if (state.presenter && text.code_columns > 0) {
        // Presenter mode: nothing is cut and no one scrolls sideways in a talk. The code shrinks
        // (to 0.75 of the presenter size at most, still larger than the normal one) towards fitting
        // its widest code line; lines still too wide wrap at a space.
        const size_t fits = text_columns();
        if (text.code_columns > fits)
            ImGui::SetWindowFontScale(std::max(0.75f, float(fits) / float(text.code_columns)));
        wrap_at = text_columns();
    }
    const std::vector<Row> rows = layout_rows(text, wrap_at);

    const ImGuiStyle& style = ImGui::GetStyle();
    const float pitch = ImGui::GetTextLineHeightWithSpacing();
    if (scroll.frames_left > 0) {
        if (!scroll.decided) {
            // Scroll only when the line is not in the upper part of the view already: jumping to a
            // line the student can see loses their place for nothing, but a line near the bottom
            // edge (a kernel's first comment line, say) hides what follows it.
            scroll.decided = true;
            const float line_top = float(first_row_of(rows, scroll.line)) * pitch;
            const float view_top = ImGui::GetScrollY();
            if (line_top >= view_top && line_top <= view_top + ImGui::GetWindowHeight() * 0.6f)
                scroll.frames_left = 0;
            scroll.target_y = std::max(0.0f, line_top - kContextLines * pitch);
        }
        if (scroll.frames_left > 0) {
            --scroll.frames_left;
            ImGui::SetScrollY(scroll.target_y);
        }
    }

    if (text.lines.empty()) ImGui::TextDisabled("%s", ui_text(shown_language(state)).source.empty.s);

    const std::vector<analysis::Finding>* findings =
        state.current != nullptr ? &state.current->summary.findings : nullptr;
    const float font = ImGui::GetFontSize();
    const float gutter = font * 0.5f;
    const float digit = ImGui::CalcTextSize("0").x;
    const float number_width = digit * float(decimal_digits(uint32_t(text.lines.size())));
    const float text_x = gutter + number_width + font * 0.8f;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float left = ImGui::GetWindowPos().x, right = left + ImGui::GetWindowSize().x;
    if (&text == &cuda_) {
        // Where the widest code line ends up, against the part of the column that is visible (for the
        // layout: a GUI test checks that no code line is cut).
        const ImVec2 pos = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
        const ImGuiWindow* w = ImGui::GetCurrentWindow();
        const float visible_right = pos.x + size.x - w->ScrollbarSizes.x - ImGui::GetStyle().WindowBorderSize;
        const float x0 = ImGui::GetCursorScreenPos().x + text_x;
        cuda_visible_ = ImVec4(pos.x, pos.y, visible_right, pos.y + size.y);
        size_t widest = 0;
        for (const Row& r : rows)
            widest = std::max(widest, r.indent + r.length);
        cuda_code_ = ImVec4(x0, pos.y, x0 + digit * float(widest), pos.y + size.y);
    }
    const uint32_t plain = ImGui::GetColorU32(ImGuiCol_Text), dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);

    ImGuiListClipper clipper;
    clipper.Begin(int(rows.size()), pitch);
    while (clipper.Step()) {
        for (int ri = clipper.DisplayStart; ri < clipper.DisplayEnd; ++ri) {
            const Row& row = rows[size_t(ri)];
            const uint32_t line = row.line;
            const size_t i = line - 1;
            const ImVec2 p = ImGui::GetCursorScreenPos();
            const float top = p.y - style.ItemSpacing.y * 0.5f, bottom = top + pitch;
            const bool selected = marks.is_selected(line);
            const uint32_t gutter_colour = findings != nullptr ? marks.gutter_colour(line, *findings) : 0;

            // The exact theme colour as background (the GUI tests look for it); the text adapts.
            if (selected) dl->AddRectFilled({left, top}, {right, bottom}, marks.selected_colour);
            if (marks.hovered == line) dl->AddRectFilled({left, top}, {right, bottom}, theme::kHoverLine);
            if (gutter_colour != 0)
                dl->AddRectFilled({p.x, top}, {p.x + gutter * 0.7f, bottom}, gutter_colour);
            // A warp is at this line at the playhead: a lime frame around the line.
            if (std::binary_search(marks.playhead.begin(), marks.playhead.end(), line))
                dl->AddRect({left + 1, top}, {right - 1, bottom}, theme::kPlayhead, 0, 0, 2.f);
            // A line of the explained output (its store, its stale loads, the stores they raced
            // with): a cyan bar between the number and the code, beside any finding highlight.
            if (std::binary_search(marks.provenance.begin(), marks.provenance.end(), line)) {
                const float bar_x = p.x + gutter + number_width + font * 0.2f;
                dl->AddRectFilled({bar_x, top}, {bar_x + font * 0.35f, bottom}, theme::kProvenance);
            }

            const uint32_t ink = selected ? text_colour_on(marks.selected_colour) : plain;
            if (row.begin == 0) {
                char number[16];
                std::snprintf(number, sizeof number, "%u", line);
                const float number_x = p.x + gutter + number_width - ImGui::CalcTextSize(number).x;
                dl->AddText({number_x, p.y}, selected ? ink : dim, number);
            }

            ImGui::SetCursorScreenPos({p.x + text_x + digit * float(row.indent), p.y});
            ImGui::PushStyleColor(ImGuiCol_Text, ink);
            const char* from = text.lines[i].c_str() + row.begin;
            ImGui::TextUnformatted(from, from + row.length);
            ImGui::PopStyleColor();

            if (gutter_colour == 0 || !ImGui::IsWindowHovered() ||
                !ImGui::IsMouseHoveringRect({left, top}, {right, bottom}))
                continue;
            const std::vector<int>& on_line = marks.by_line.at(line);
            ImGui::BeginTooltip();
            ImGui::PushTextWrapPos(font * 32.0f);
            for (int f : on_line) {
                const analysis::Finding& finding = (*findings)[size_t(f)];
                widgets::coloured_text(theme::finding_mark(finding.kind),
                                       kind_words(finding.kind, shown_language(state), false).c_str());
                ImGui::SameLine();
                ImGui::TextUnformatted(
                    finding_message(finding, state.current->summary.trace,
                                    std::string_view(text.data ? text.data : "", text.size),
                                    shown_language(state))
                        .c_str());
            }
            const SourceText& t = ui_text(shown_language(state)).source;
            ImGui::TextDisabled("%s", (on_line.size() > 1 ? t.click_next : t.click_this).s);
            ImGui::PopTextWrapPos();
            ImGui::EndTooltip();
            if (ImGui::IsMouseClicked(ImGuiMouseButton_Left))
                state.requests.focus_finding = next_finding(on_line, state.selection.selected_finding);
        }
    }
    clipper.End();

    if (mono_font_ != nullptr) ImGui::PopFont();
    ImGui::EndChild();
}

} // namespace synclab::ui
