// Index
//   [SECTION] Words (English and Chinese)
//   [SECTION] Pure part: outputs, layout, words
//   [SECTION] Pure part: explaining an element
//   [SECTION] The view
#include "ui/views/output_grid.h"
#include "ui/model/ui_text.h"

#include "analysis/provenance.h"
#include "ui/model/outcome_words.h"
#include "ui/views/panel_widgets.h"
#include "ui/model/source_lines.h"
#include "ui/model/theme.h"
#include "ui/model/value_format.h"

#include <imgui.h>

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace synclab::ui {

// [SECTION] Words (English and Chinese) ------------------------------------------------------------

namespace {

struct GridWords {
    const char* elements;      // "{n} elements" after the name
    const char* element;       // one
    const char* wrong;         // ", {w} wrong"
    const char* per_row;       // "{c} per row"
    const char* cells_per_row; // "{c} cells per row, {k} elements per cell"
    const char* got;
    const char* expected;
    const char* is_wrong; // " · wrong"
    const char* is_right;
    const char* missing;
    const char* of_wrong; // "{w} of {n} wrong"
    const char* first;    // "; first "
    const char* no_outputs;
    const char* click_hint;
    const char* no_addresses;
    const char* outside;
    const char* explained; // heading over the explanation
    const char *zoom_out, *zoom_in;
    const char* about;
};

constexpr GridWords kEn = {
    .elements = " elements",
    .element = " element",
    .wrong = " wrong",
    .per_row = " per row",
    .cells_per_row = " cells per row, %s elements per cell",
    .got = "got ",
    .expected = "expected ",
    .is_wrong = " \u00b7 wrong",
    .is_right = " \u00b7 right",
    .missing = "(missing)",
    .of_wrong = "%s of %s wrong",
    .first = "; first ",
    .no_outputs = "No outputs were checked in this run, so there is nothing to show here.",
    .click_hint = "Click: where this value came from (its store and the stale loads behind it).",
    .no_addresses = "Where a value came from needs the simulator's trace and where the buffers lay; this "
                    "run has no buffer addresses (a GPU run or a saved trace).",
    .outside = "This element is outside the output.",
    .explained = "Where %s came from:",
    .zoom_out = "Zoom out: each cell stands for twice as many elements (red when any is wrong).",
    .zoom_in = "Zoom in: fewer elements per cell.",
    .about = "The run's output, one cell per element (or per group of elements in a large output), "
             "checked against the lesson's reference: red cells came out wrong, grey ones right.\n\n"
             "Rows hold 64 elements (32 in a narrow panel), so elements of the same lane of every warp "
             "line up in a column: damage at warp edges shows as red columns.\n\n"
             "Hover a cell for its index, the value the kernel left and the value it should have. Click "
             "a cell to see where its value came from: the store that left it and the loads of that "
             "thread that read a stale value; their lines are marked in the source view (a cyan bar) "
             "and their events on the timeline.",
};

constexpr GridWords kZh = {
    .elements = " 个元素",
    .element = " 个元素",
    .wrong = " 个错误",
    .per_row = "",
    .cells_per_row = "",
    .got = "实际 ",
    .expected = "应为 ",
    .is_wrong = " \u00b7 错误",
    .is_right = " \u00b7 正确",
    .missing = "（缺失）",
    .of_wrong = "%2$s 个中 %1$s 个错误",
    .first = "；第一个 ",
    .no_outputs = "本次运行没有检查输出，这里没有可显示的内容。",
    .click_hint = "点击：查看这个值从何而来（写入它的 store 及其背后读到过期值的 load）。",
    .no_addresses = "要追溯一个值的来源，需要模拟器的跟踪记录和缓冲区地址；本次运行没有缓冲区地址（GPU "
                    "运行或已保存的跟踪）。",
    .outside = "该元素不在输出范围内。",
    .explained = "%s 的来源：",
    .zoom_out = "缩小：每格代表两倍的元素（其中任一错误即为红色）。",
    .zoom_in = "放大：每格代表更少的元素。",
    .about = "本次运行的输出，每个元素一格（大型输出则每组元素一格），与课程的参考结果比较：红色格子"
             "错误，灰色格子正确。\n\n"
             "每行 64 个元素（面板较窄时 32 个），因此每个 warp 的同一 lane 排成一列：warp "
             "边界处的错误显示为红色的列。\n\n"
             "悬停格子可查看下标、kernel 留下的值和应有的值。点击格子可查看其值从何而来：留下该值的 "
             "store，以及该线程读到过期值的 load；它们所在的行在源代码视图中标出（青色竖条），"
             "其事件在时间线上标出。",
};

const GridWords& words(Language language) {
    return language == Language::Zh ? kZh : kEn;
}

// printf with one or two string arguments into a std::string (the words above hold the formats).
std::string format(const char* pattern, const std::string& a, const std::string& b = "") {
    char text[256];
    std::snprintf(text, sizeof text, pattern, a.c_str(), b.c_str());
    return text;
}

uint64_t popcount_range(const std::vector<uint64_t>& bits, uint64_t begin, uint64_t end) {
    uint64_t n = 0;
    while (begin < end) {
        const uint64_t word = begin / 64, shift = begin % 64;
        const uint64_t take = std::min<uint64_t>(64 - shift, end - begin);
        const uint64_t mask = take == 64 ? ~uint64_t(0) : ((uint64_t(1) << take) - 1) << shift;
        n += uint64_t(std::popcount(bits[word] & mask));
        begin += take;
    }
    return n;
}

} // namespace

// [SECTION] Pure part: outputs, layout, words ------------------------------------------------------

bool GridOutput::any_wrong(uint64_t begin, uint64_t end) const {
    end = std::min(end, count);
    while (begin < end) {
        const uint64_t word = begin / 64, shift = begin % 64;
        const uint64_t take = std::min<uint64_t>(64 - shift, end - begin);
        const uint64_t mask = take == 64 ? ~uint64_t(0) : ((uint64_t(1) << take) - 1) << shift;
        if ((wrong[word] & mask) != 0) return true;
        begin += take;
    }
    return false;
}

uint64_t GridOutput::wrong_in(uint64_t begin, uint64_t end) const {
    return begin < std::min(end, count) ? popcount_range(wrong, begin, std::min(end, count)) : 0;
}

std::vector<GridOutput> grid_outputs(const runner::RunSummary& summary) {
    std::vector<GridOutput> out;
    for (size_t e = 0; e < summary.expected_outputs.size(); ++e) {
        const scenario::ExpectedOutput& want = summary.expected_outputs[e];
        GridOutput g;
        g.name = want.name;
        g.type = want.type;
        g.expected = e;
        const uint32_t size = launch::elem_size(want.type);
        g.count = want.bytes.size() / size;
        for (size_t b = 0; b < summary.final_buffers.size(); ++b)
            if (summary.final_buffers[b].name == want.name) g.buffer = b;
        const launch::Buffer* got = g.buffer != SIZE_MAX ? &summary.final_buffers[g.buffer] : nullptr;
        const uint64_t have = got != nullptr ? got->bytes.size() / size : 0;
        g.wrong.assign((g.count + 63) / 64, 0);
        for (uint64_t i = 0; i < g.count; ++i) {
            if (i < have &&
                std::memcmp(got->bytes.data() + i * size, want.bytes.data() + i * size, size) == 0)
                continue;
            g.wrong[i / 64] |= uint64_t(1) << (i % 64);
            ++g.wrong_count;
            if (g.first_wrong == UINT64_MAX) g.first_wrong = i;
        }
        out.push_back(std::move(g));
    }
    return out;
}

GridLayout grid_layout(uint64_t count, float width, float min_pitch, float max_pitch, uint32_t zoom_out) {
    GridLayout l;
    l.columns = count > kSmallOutput && std::floor(width / 64.0f) >= min_pitch ? 64 : 32;
    l.pitch = std::clamp(std::floor(width / float(l.columns)), 2.0f, std::max(2.0f, max_pitch));
    while (l.per_cell < count && (count + l.per_row() - 1) / l.per_row() > kMaxGridRows)
        l.per_cell *= 2;
    for (uint32_t z = 0; z < zoom_out && l.per_row() < count; ++z)
        l.per_cell *= 2;
    l.cells = (count + l.per_cell - 1) / l.per_cell;
    l.rows = (l.cells + l.columns - 1) / l.columns;
    return l;
}

std::optional<uint64_t> cell_at(const GridLayout& layout, float x, float y) {
    if (x < 0 || y < 0 || layout.pitch <= 0) return std::nullopt;
    const uint64_t column = uint64_t(x / layout.pitch), row = uint64_t(y / layout.pitch);
    if (column >= layout.columns || row >= layout.rows) return std::nullopt;
    const uint64_t cell = row * layout.columns + column;
    if (cell >= layout.cells) return std::nullopt;
    return cell;
}

std::string grid_caption(const GridOutput& output, const GridLayout& layout, Language language) {
    const GridWords& w = words(language);
    const bool zh = language == Language::Zh;
    std::string out = output.name + (zh ? "\uff1a" : ": ") + thousands(output.count) +
                      (output.count == 1 ? w.element : w.elements) + (zh ? "\uff0c" : ", ") +
                      thousands(output.wrong_count) + w.wrong;
    if (layout.rows <= 1) return out;
    if (layout.per_cell == 1)
        return out + " \u00b7 " +
               (zh ? "每行 " + std::to_string(layout.columns) + " 个"
                   : std::to_string(layout.columns) + w.per_row);
    return out + " \u00b7 " +
           (zh ? "每行 " + std::to_string(layout.columns) + " 格，每格 " + thousands(layout.per_cell) +
                     " 个元素"
               : std::to_string(layout.columns) + format(w.cells_per_row, thousands(layout.per_cell)));
}

std::string element_name(const GridOutput& output, uint64_t index) {
    return output.name + "[" + std::to_string(index) + "]";
}

bool parse_element_name(std::string_view text, std::string& name, uint64_t& index) {
    const size_t open = text.rfind('[');
    if (open == std::string_view::npos || open == 0 || text.size() < open + 3 || text.back() != ']')
        return false;
    const char* first = text.data() + open + 1;
    const char* last = text.data() + text.size() - 1;
    const auto [end, ec] = std::from_chars(first, last, index);
    if (ec != std::errc() || end != last) return false;
    name = std::string(text.substr(0, open));
    return true;
}

std::string cell_hover_text(const runner::RunSummary& summary, const GridOutput& output,
                            const GridLayout& layout, uint64_t cell, Language language) {
    const GridWords& w = words(language);
    const bool zh = language == Language::Zh;
    const std::string sep = zh ? "\uff1a" : ": ", comma = zh ? "\uff0c" : ", ";
    auto values = [&](uint64_t i) {
        const std::string got = output.buffer != SIZE_MAX
                                    ? element_text(summary.final_buffers[output.buffer].bytes, output.type, i)
                                    : std::string();
        const std::string want =
            element_text(summary.expected_outputs[output.expected].bytes, output.type, i);
        return w.got + (got.empty() ? std::string(w.missing) : got) + comma + w.expected + want;
    };
    const uint64_t first = layout.first(cell), last = layout.last(cell, output.count);
    if (first >= last) return "";
    if (last - first == 1)
        return element_name(output, first) + sep + values(first) +
               (output.is_wrong(first) ? w.is_wrong : w.is_right);
    std::string out = output.name + "[" + std::to_string(first) + ".." + std::to_string(last - 1) + "]" +
                      sep +
                      format(w.of_wrong, thousands(output.wrong_in(first, last)), thousands(last - first));
    for (uint64_t i = first; i < last; ++i)
        if (output.is_wrong(i)) return out + w.first + element_name(output, i) + sep + values(i);
    return out;
}

// [SECTION] Pure part: explaining an element --------------------------------------------------------

ProvenanceMarks explain_element(const RunRecord& record, const GridOutput& output, uint64_t index,
                                Language language) {
    ProvenanceMarks m;
    m.serial = record.serial;
    m.output = element_name(output, index);
    const runner::RunSummary& summary = record.summary;
    if (index >= output.count) {
        m.text = words(language).outside;
        return m;
    }
    if (output.buffer >= summary.buffer_addresses.size() || summary.trace.events.empty()) {
        m.text = words(language).no_addresses;
        return m;
    }
    const trace::Trace& trace = summary.trace;
    const uint64_t address = summary.buffer_addresses[output.buffer] + index * launch::elem_size(output.type);
    const analysis::OutputProvenance p = analysis::explain_output(trace, trace::Space::Global, address);
    auto add_line = [&](uint64_t event) {
        if (event >= trace.events.size()) return;
        if (const uint32_t line = trace.kernel_file_line(trace.events[event]); line != 0)
            m.lines.push_back(line);
    };
    if (p.written) {
        m.final_store = uint32_t(p.store);
        add_line(p.store);
    }
    for (const analysis::StaleLoad& s : p.stale_loads) {
        m.stale_loads.push_back(uint32_t(s.load));
        m.racing_stores.push_back(uint32_t(s.writer));
        add_line(s.load);
        add_line(s.writer);
    }
    std::sort(m.lines.begin(), m.lines.end());
    m.lines.erase(std::unique(m.lines.begin(), m.lines.end()), m.lines.end());
    m.text = provenance_text(trace, p, language);
    return m;
}

// analysis::describe() with the shown language's patterns (ui_text.h, ProvenanceText).
std::string provenance_text(const trace::Trace& trace, const analysis::OutputProvenance& p,
                            Language language) {
    const ProvenanceText& t = ui_text(language).provenance;
    analysis::ProvenanceWords w;
    w.none = t.none;
    w.language = language;
    w.line = t.line;
    w.ptx_line = t.ptx_line;
    w.unknown_line = t.unknown_line;
    w.stored = t.stored;
    w.old_value = t.old_value;
    w.too_early = t.too_early;
    w.overwritten = t.overwritten;
    w.no_barrier = t.no_barrier;
    w.other_blocks = t.other_blocks;
    w.more = t.more;
    w.none_stale = t.none_stale;
    w.overwrote_one = t.overwrote_one;
    w.overwrote_many = t.overwrote_many;
    return analysis::describe(trace, p, w);
}

// [SECTION] The view ----------------------------------------------------------------------------------

void OutputGrid::refresh(const RunRecord& record) {
    if (record.serial == serial_) return;
    serial_ = record.serial;
    outputs_ = grid_outputs(record.summary);
    shown_ = 0;
    for (size_t i = 0; i < outputs_.size(); ++i)
        if (outputs_[i].wrong_count > 0) {
            shown_ = i;
            break;
        }
    zoom_out_ = 0;
    scroll_row_ = UINT64_MAX; // the first wrong row, once the layout is known
    scroll_frames_ = 3;
}

void OutputGrid::draw(AppState& state) {
    ImGui::PushID("output_grid");
    cells_rect_ = ImVec4(0, 0, 0, 0);
    const Language language = shown_language(state);
    const GridWords& w = words(language);
    const RunRecord* record = state.current.get();
    if (record == nullptr || record->provisional) {
        ImGui::PopID();
        return;
    }
    refresh(*record);
    if (outputs_.empty()) {
        widgets::disabled_wrapped(w.no_outputs);
        widgets::about_button(w.about);
        ImGui::PopID();
        return;
    }
    if (outputs_.size() > 1) {
        // Several outputs: one at a time.
        for (size_t i = 0; i < outputs_.size(); ++i) {
            if (i > 0) ImGui::SameLine();
            if (ImGui::RadioButton(outputs_[i].name.c_str(), shown_ == i)) {
                shown_ = i;
                zoom_out_ = 0;
            }
        }
    }
    const GridOutput& output = outputs_[std::min(shown_, outputs_.size() - 1)];

    // The explained element (a click, or the scripted mode): scroll to it once.
    const bool explained = state.provenance.on(record->serial);
    std::string explained_name;
    uint64_t explained_index = UINT64_MAX;
    if (explained && parse_element_name(state.provenance.output, explained_name, explained_index) &&
        explained_name == output.name && state.provenance.output != seen_explained_) {
        seen_explained_ = state.provenance.output;
        scroll_row_ = UINT64_MAX - 1; // resolved below, with the layout
        scroll_frames_ = 3;
    }
    if (explained_name != output.name) explained_index = UINT64_MAX;

    const float em = ImGui::GetFontSize();
    const float scrollbar = ImGui::GetStyle().ScrollbarSize;
    const float width = std::max(1.0f, ImGui::GetContentRegionAvail().x - scrollbar - 2.0f);
    const GridLayout layout =
        grid_layout(output.count, width, std::max(4.0f, em * 0.3f), em * 0.9f, zoom_out_);
    if (scroll_row_ == UINT64_MAX)
        scroll_row_ = output.first_wrong != UINT64_MAX ? layout.row_of(output.first_wrong) : 0;
    else if (scroll_row_ == UINT64_MAX - 1)
        scroll_row_ = explained_index != UINT64_MAX ? layout.row_of(explained_index) : 0;

    // Zoom (only where there is more than one row to fold), then the caption, wrapped after them.
    const bool can_out = layout.per_row() < output.count;
    const bool can_in = zoom_out_ > 0;
    if (can_out || can_in) {
        ImGui::BeginDisabled(!can_out);
        if (ImGui::SmallButton("-")) ++zoom_out_;
        ImGui::EndDisabled();
        widgets::tooltip(w.zoom_out, ImGuiHoveredFlags_AllowWhenDisabled);
        ImGui::SameLine();
        ImGui::BeginDisabled(!can_in);
        if (ImGui::SmallButton("+")) --zoom_out_;
        ImGui::EndDisabled();
        widgets::tooltip(w.zoom_in, ImGuiHoveredFlags_AllowWhenDisabled);
        ImGui::SameLine();
    }
    // Wrapped short of the right edge, so that the "?" goes beside its first line.
    const std::string caption = grid_caption(output, layout, language);
    ImGui::PushTextWrapPos(ImGui::GetWindowContentRegionMax().x - widgets::button_width("?") -
                           ImGui::GetStyle().ItemSpacing.x * 2.0f);
    ImGui::TextUnformatted(caption.c_str());
    ImGui::PopTextWrapPos();
    widgets::about_button(w.about);

    // An explanation shares the height with the cells (the cells keep a few rows at least), each
    // scrolling on its own; without one the cells get it all (the hint to click is in their tooltip).
    const bool show_text = explained && explained_index != UINT64_MAX;
    const float line = ImGui::GetTextLineHeightWithSpacing();
    const float avail = ImGui::GetContentRegionAvail().y;
    const float grid_h = float(layout.rows) * layout.pitch + 2.0f;
    // (a tall panel gives the explanation four lines, a short one over half: it was just asked for)
    const float room = show_text ? std::max(avail * 0.45f, avail - line * 4.0f) : avail;
    const float height = std::max(std::min(grid_h, room), std::min(grid_h, line * (show_text ? 1.2f : 2.5f)));
    draw_cells(state, *record, output, layout, height);

    if (show_text) {
        ImGui::BeginChild("##explained", ImVec2(0, std::max(line, ImGui::GetContentRegionAvail().y)));
        widgets::coloured_text_wrapped(theme::kProvenance,
                                       format(w.explained, state.provenance.output).c_str());
        widgets::wrapped(state.provenance.text.c_str());
        ImGui::EndChild();
    }
    ImGui::PopID();
}

void OutputGrid::draw_cells(AppState& state, const RunRecord& record, const GridOutput& output,
                            const GridLayout& layout, float height) {
    const float em = ImGui::GetFontSize();
    const float scrollbar = ImGui::GetStyle().ScrollbarSize;
    const float grid_w = float(layout.columns) * layout.pitch;
    const float grid_h = float(layout.rows) * layout.pitch;
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(1, 1));
    ImGui::BeginChild("##cells", ImVec2(grid_w + scrollbar + 2.0f, height), false);
    ImGui::PopStyleVar();
    if (scroll_frames_ > 0) {
        --scroll_frames_;
        // Only when the row is out of view, with a row of context above it.
        const float row_y = float(scroll_row_) * layout.pitch;
        const float top = ImGui::GetScrollY(), bottom = top + ImGui::GetWindowHeight() - 2.0f * layout.pitch;
        if (row_y < top || row_y > bottom) ImGui::SetScrollY(std::max(0.0f, row_y - layout.pitch));
    }

    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const ImVec2 win = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
    cells_rect_ = ImVec4(win.x, win.y, win.x + size.x, win.y + size.y);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    // A gap between cells where they are big enough to keep one, and a wider one at each warp edge.
    const float gap = layout.pitch >= 5.0f ? 1.0f : 0.0f;

    // Only the rows in view: a frame costs the cells on screen, whatever the output's size.
    const uint64_t first_row = uint64_t(std::max(0.0f, win.y - origin.y) / layout.pitch);
    const uint64_t end_row = std::min<uint64_t>(
        layout.rows, uint64_t(std::max(0.0f, win.y + size.y - origin.y) / layout.pitch) + 1);
    for (uint64_t r = first_row; r < end_row; ++r) {
        const float y = origin.y + float(r) * layout.pitch;
        for (uint32_t c = 0; c < layout.columns; ++c) {
            const uint64_t cell = r * layout.columns + c;
            if (cell >= layout.cells) break;
            const float x = origin.x + float(c) * layout.pitch;
            const bool wrong = output.any_wrong(layout.first(cell), layout.last(cell, output.count));
            const float warp_gap = layout.per_cell == 1 && c % 32 == 31 && gap > 0 ? 1.0f : 0.0f;
            dl->AddRectFilled({x, y}, {x + layout.pitch - gap - warp_gap, y + layout.pitch - gap},
                              wrong ? theme::kWrongOutput : theme::kRightOutput);
        }
    }
    ImGui::Dummy(ImVec2(grid_w, grid_h));

    const std::string explained =
        state.provenance.on(record.serial) ? state.provenance.output : std::string();
    // The explained element: a frame in the provenance colour.
    std::string name;
    uint64_t index = 0;
    if (!explained.empty() && parse_element_name(explained, name, index) && name == output.name &&
        index < output.count) {
        const uint64_t cell = layout.cell_of(index);
        const float x = origin.x + float(cell % layout.columns) * layout.pitch;
        const float y = origin.y + float(cell / layout.columns) * layout.pitch;
        dl->AddRect({x - 1.5f, y - 1.5f}, {x + layout.pitch + 0.5f, y + layout.pitch + 0.5f},
                    theme::kProvenance, 0, 0, 2.0f);
    }

    // Hover and click.
    if (ImGui::IsWindowHovered()) {
        const ImVec2 mouse = ImGui::GetMousePos();
        if (const std::optional<uint64_t> cell = cell_at(layout, mouse.x - origin.x, mouse.y - origin.y)) {
            const float x = origin.x + float(*cell % layout.columns) * layout.pitch;
            const float y = origin.y + float(*cell / layout.columns) * layout.pitch;
            dl->AddRect({x - 0.5f, y - 0.5f}, {x + layout.pitch - 0.5f, y + layout.pitch - 0.5f},
                        IM_COL32(255, 255, 255, 255));
            const Language language = shown_language(state);
            const std::string text = cell_hover_text(record.summary, output, layout, *cell, language);
            ImGui::BeginTooltip();
            ImGui::PushTextWrapPos(em * 32.0f);
            widgets::wrapped(text.c_str());
            widgets::disabled_wrapped(words(language).click_hint);
            ImGui::PopTextWrapPos();
            ImGui::EndTooltip();
            if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
                // A cell of several elements explains its first wrong one (else its first).
                uint64_t element = layout.first(*cell);
                for (uint64_t i = element; i < layout.last(*cell, output.count); ++i)
                    if (output.is_wrong(i)) {
                        element = i;
                        break;
                    }
                state.provenance = explain_element(record, output, element, language);
                seen_explained_ = state.provenance.output; // in view already: no scroll
            }
        }
    }
    ImGui::EndChild();
}

} // namespace synclab::ui
