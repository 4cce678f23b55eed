// Index:
//   [SECTION] Building the grids
//   [SECTION] Drawing
//   [SECTION] Legend, tooltip, zoom
#include "ui/views/heatmap_view.h"

#include "ui/model/colour_map.h"
#include "ui/views/panel_widgets.h"
#include "ui/model/source_lines.h"
#include "ui/model/lesson_library.h"
#include "ui/model/theme.h"
#include "ui/model/ui_text.h"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace synclab::ui {

namespace {

constexpr uint32_t kEmptyRgb = 0x3a3d44; // cells without data: a neutral grey, not a colour of the map

std::string number(double v) {
    char buf[48];
    if (std::fabs(v) >= 1e6)
        std::snprintf(buf, sizeof buf, "%.3g", v);
    else if (std::fabs(v - std::round(v)) < 1e-3)
        std::snprintf(buf, sizeof buf, "%.0f", v);
    else
        std::snprintf(buf, sizeof buf, "%.1f", v);
    return buf;
}

// Is the app drawing through its OpenGL backend? (Headless tests run ImGui without a renderer.)
bool have_gl() {
    const char* name = ImGui::GetIO().BackendRendererName;
    return name != nullptr && std::strstr(name, "opengl") != nullptr;
}

} // namespace

// [SECTION] Building the grids

HeatmapView::Built HeatmapView::build(std::shared_ptr<const RunRecord> record) {
    Built b;
    const trace::Trace& trace = record->summary.trace;
    b.contention.build(trace);
    const scenario::Scenario* scenario =
        record->scenario_id.empty() ? nullptr : lessons().find(record->scenario_id);
    b.latencies = thread_latencies(trace, scenario, record->summary.final_buffers);
    b.block_thread = block_thread_grid(trace, b.latencies);
    b.sm_warp = sm_warp_grid(trace, b.latencies, &b.sm_warp_ids);
    return b;
}

void HeatmapView::adopt(Built b) {
    contention_ = std::move(b.contention);
    latencies_ = std::move(b.latencies);
    block_thread_ = std::move(b.block_thread);
    sm_warp_ = std::move(b.sm_warp);
    sm_warp_ids_ = std::move(b.sm_warp_ids);
    bin_key_ = BinKey{};
    reset_zoom();
    ++version_;
}

void HeatmapView::rebuild(const std::shared_ptr<const RunRecord>& record) {
    serial_ = record->serial;
    record_ = record;
    // A build still running for an older record is waited for and dropped (std::async's future
    // joins): only when a new run arrives while a big one is still being binned.
    pending_ = {};
    if (record->summary.trace.events.size() < kAsyncEvents) {
        adopt(build(record));
        return;
    }
    adopt(Built{}); // nothing of the previous record stays on screen
    pending_ = std::async(std::launch::async, &HeatmapView::build, record);
}

void HeatmapView::reset_zoom() {
    // From the run's first event, the time axis's 0 (the atomics may start later: that is time too).
    t0_ = double(contention_.t_origin());
    t1_ = double(contention_.t_end());
    u0_ = v0_ = 0;
    u1_ = v1_ = 1;
}

// [SECTION] Drawing

void HeatmapView::draw(AppState& state) {
    // The ladder's variants are shown together with this run when they are this lesson's, with the
    // same parameter choices (LadderRuns::heat: each rung's peaks).
    std::vector<HeatPeaks> together;
    std::string note;
    const RunRecord* current = state.current.get();
    const runner::Ladder* ladder = state.ladder.result.get();
    if (current && ladder && ladder->scenario == current->scenario_id && state.scenario &&
        state.scenario->id == current->scenario_id && ladder->params == state.scenario->chosen) {
        for (const auto& [variant, peaks] : state.ladder.heat)
            together.push_back(peaks);
        if (!together.empty())
            note = fill(ui_text(shown_language(state)).heatmap.scale_ladder, {std::to_string(together.size())});
    }
    draw(state, state.current, together, note);
}

void HeatmapView::prepare(const std::shared_ptr<const RunRecord>& record) {
    if (record && !record->provisional && record->serial != serial_) rebuild(record);
    if (pending_.valid() && pending_.wait_for(std::chrono::seconds(0)) == std::future_status::ready)
        adopt(pending_.get());
}

bool HeatmapView::peaks(HeatPeaks& out) const {
    if (serial_ == 0 || pending_.valid()) return false;
    out = heat_peaks(contention_, block_thread_, sm_warp_);
    return true;
}

void HeatmapView::draw(AppState& state, const std::shared_ptr<const RunRecord>& shown,
                       const std::vector<HeatPeaks>& together, const std::string& note) {
    const UiText& t = ui_text(shown_language(state));
    cells_rect_ = legend_rect_ = ImVec4(0, 0, 0, 0);
    together_ = together;
    scale_note_ = note;
    const RunRecord* record = shown.get();
    prepare(shown);
    if (controls_) draw_controls(state);
    if (!record || record->provisional) {
        widgets::disabled_wrapped(t.heatmap.no_run);
        return;
    }
    if (pending_.valid()) {
        widgets::disabled_wrapped(fill(t.heatmap.preparing, {std::to_string(record->summary.trace.events.size())}).c_str());
        return;
    }
    draw_map(state, *record);
}

void HeatmapView::draw_controls(const AppState& state) {
    const UiText& t = ui_text(shown_language(state));
    const char* modes[] = {t.heatmap.mode_contention, t.heatmap.mode_block_thread, t.heatmap.mode_sm_warp};
    int m = int(mode_);
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 15);
    if (ImGui::Combo("##heatmap_mode", &m, modes, 3)) mode_ = HeatmapMode(m);
    // Each control wraps to a new line where it would run past the edge (presenter font sizes).
    const float box = ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x;
    if (mode_ == HeatmapMode::Contention) {
        int v = int(value_);
        widgets::same_line_if_fits(box + ImGui::CalcTextSize(t.heatmap.value_ops).x);
        ImGui::RadioButton(t.heatmap.value_ops, &v, 0);
        widgets::same_line_if_fits(box + ImGui::CalcTextSize(t.heatmap.value_depth).x);
        // Queue depth needs the cost model's timing.
        ImGui::BeginDisabled(!contention_.timed());
        ImGui::RadioButton(t.heatmap.value_depth, &v, 1);
        ImGui::EndDisabled();
        value_ = ContentionValue(v);
    }
    widgets::same_line_if_fits(box + ImGui::CalcTextSize(t.heatmap.log_scale).x);
    ImGui::Checkbox(t.heatmap.log_scale, &log_scale_);
    widgets::same_line_if_fits(widgets::button_width(t.heatmap.reset_zoom));
    if (ImGui::SmallButton(t.heatmap.reset_zoom)) reset_zoom();
    ImGui::SameLine();
    widgets::about_button(t.heatmap.about);
}

void HeatmapView::draw_map(const AppState& state, const RunRecord& record) {
    const UiText& t = ui_text(shown_language(state));
    const bool gpu = record.summary.trace.meta.backend == "gpu";

    // Which grid, and the line that says where its numbers come from.
    const HeatGrid* grid = nullptr;
    std::string source;
    const char* unit = t.heatmap.unit_cycles;
    const char *y_axis = "", *x_axis = "";
    const float em = ImGui::GetFontSize();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    // Row labels as wide as the widest (the contention map has few rows: it names each address).
    float label_w = em * 3.5f;
    if (mode_ == HeatmapMode::Contention)
        for (uint32_t r = 0; r < contention_.rows().size(); ++r)
            label_w = std::max(label_w, ImGui::CalcTextSize(row_label(state, r).c_str()).x + em * 0.6f);
    label_w = std::min(label_w, avail.x * 0.35f);
    const float legend_w = em * 7.5f;
    const float map_w = std::max(em * 4, avail.x - label_w - legend_w);
    if (mode_ == HeatmapMode::Contention) {
        if (contention_.empty()) {
            widgets::disabled_wrapped(t.heatmap.no_atomics);
            return;
        }
        if (!contention_.timed()) value_ = ContentionValue::Operations;
        const uint32_t cols = uint32_t(std::clamp(map_w / 3.0f, 16.0f, 512.0f));
        const BinKey key{t0_, t1_, cols, value_, serial_};
        if (!(key == bin_key_)) {
            contention_grid_ = contention_.bin(t0_, t1_, cols, value_);
            bin_key_ = key;
            ++version_;
        }
        grid = &contention_grid_;
        source = contention_.timed() ? t.heatmap.time_modelled : gpu ? t.heatmap.time_gpu : t.heatmap.time_events;
        unit = value_ == ContentionValue::Operations ? t.heatmap.unit_ops : t.heatmap.unit_depth;
        y_axis = t.heatmap.axis_address;
        x_axis = t.heatmap.axis_time;
    } else {
        if (!latencies_.any()) {
            widgets::disabled_wrapped(t.heatmap.no_latency);
            return;
        }
        grid = mode_ == HeatmapMode::BlockThread ? &block_thread_ : &sm_warp_;
        if (grid->empty()) {
            widgets::disabled_wrapped(t.heatmap.no_sm);
            return;
        }
        source = latencies_.source == "cost model" ? std::string(t.heatmap.source_model)
                                                   : fill(t.heatmap.source_buffer, {latencies_.source});
        // A simulator without its cost model: %clock64 counts the simulator's steps, not cycles.
        if (!gpu && latencies_.source != "cost model" && record.summary.trace.meta.modelled_cycles == 0)
            source += std::string(" ") + t.heatmap.steps_not_cycles.s;
        if (mode_ == HeatmapMode::SmWarp)
            source += std::string("; ") + (latencies_.measured_sm ? t.heatmap.sm_measured.s : t.heatmap.sm_trace.s);
        y_axis = mode_ == HeatmapMode::BlockThread ? t.heatmap.axis_block : t.heatmap.axis_sm;
        x_axis = mode_ == HeatmapMode::BlockThread ? t.heatmap.axis_thread : t.heatmap.axis_warp;
    }
    widgets::disabled_wrapped(source.c_str());

    // Scale: one for this run and those shown with it (colour_range says how).
    const HeatScale scale = mode_ == HeatmapMode::BlockThread ? HeatScale::BlockThread
                            : mode_ == HeatmapMode::SmWarp    ? HeatScale::SmWarp
                            : value_ == ContentionValue::Operations ? HeatScale::Operations
                                                                    : HeatScale::QueueDepth;
    const ColourRange range = colour_range(scale, *grid, together_, contention_.timed(), log_scale_);
    const float lo = range.lo, hi = range.hi;
    if (!scale_note_.empty()) widgets::disabled_wrapped(fill(t.heatmap.scale_shared, {scale_note_}).c_str());

    // Layout: row labels | cells | legend, the time/column axis under the cells.
    const float axis_h = ImGui::GetTextLineHeightWithSpacing() * 2.0f;
    const float map_h = std::max(em * 4, ImGui::GetContentRegionAvail().y - axis_h);
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const ImVec2 p0(origin.x + label_w, origin.y);
    const ImVec2 size(map_w, map_h);
    ImDrawList* dl = ImGui::GetWindowDrawList();

    ImGui::SetCursorScreenPos(p0);
    ImGui::InvisibleButton("##heatmap_cells", size);
    const bool hovered = ImGui::IsItemHovered();
    if (hovered) handle_zoom(p0, size);

    if (!renderer_ && have_gl()) renderer_ = std::make_unique<HeatmapRenderer>();
    uint32_t texture = 0;
    if (renderer_ && renderer_->ready()) {
        if (uploaded_ != grid || uploaded_version_ != version_) {
            renderer_->upload(*grid);
            uploaded_ = grid;
            uploaded_version_ = version_;
        }
        HeatmapDraw d;
        const bool c = mode_ == HeatmapMode::Contention;
        d.u0 = c ? 0.0f : float(u0_);
        d.u1 = c ? 1.0f : float(u1_);
        d.v0 = c ? 0.0f : float(v0_);
        d.v1 = c ? 1.0f : float(v1_);
        d.lo = lo;
        d.hi = hi;
        d.log_scale = log_scale_;
        d.empty_rgb = kEmptyRgb;
        texture = renderer_->render(int(size.x), int(size.y), d);
    }
    if (texture != 0) {
        dl->AddImage(reinterpret_cast<ImTextureID>(uintptr_t(texture)), p0, ImVec2(p0.x + size.x, p0.y + size.y));
    } else {
        dl->AddRectFilled(p0, ImVec2(p0.x + size.x, p0.y + size.y), IM_COL32(40, 40, 40, 255));
        const std::string why = renderer_ && !renderer_->error().empty()
                                    ? fill(t.heatmap.shader_error, {renderer_->error()})
                                    : std::string(t.heatmap.no_gl);
        dl->AddText(nullptr, 0, ImVec2(p0.x + em * 0.5f, p0.y + em * 0.5f), theme::kDeadlock, why.c_str(), nullptr,
                    size.x - em);
    }
    cells_rect_ = ImVec4(p0.x, p0.y, p0.x + size.x, p0.y + size.y);

    // Row labels: as many as fit (every row for the contention map's few rows).
    const bool c = mode_ == HeatmapMode::Contention;
    const double rv0 = c ? 0.0 : v0_, rv1 = c ? 1.0 : v1_;
    const float row_h = float(size.y / ((rv1 - rv0) * grid->rows));
    const float line = ImGui::GetTextLineHeight();
    const uint32_t step = std::max<uint32_t>(1, uint32_t(std::ceil(line * 1.1f / std::max(row_h, 1e-3f))));
    dl->PushClipRect(ImVec2(origin.x, p0.y), ImVec2(p0.x, p0.y + size.y), true);
    const uint32_t first = uint32_t(std::max(0.0, std::floor(rv0 * grid->rows)));
    const uint32_t last = std::min<uint32_t>(grid->rows, uint32_t(std::ceil(rv1 * grid->rows)));
    for (uint32_t r = first - first % step; r < last; r += step) {
        const float y = p0.y + float((double(r) / grid->rows - rv0) / (rv1 - rv0)) * size.y;
        const float yc = y + std::max(0.0f, (row_h - line) * 0.5f);
        const std::string label = row_label(state, r);
        const float w = ImGui::CalcTextSize(label.c_str()).x;
        dl->AddText(ImVec2(p0.x - w - em * 0.3f, yc), ImGui::GetColorU32(ImGuiCol_Text), label.c_str());
    }
    dl->PopClipRect();
    dl->AddText(ImVec2(origin.x, p0.y + size.y + 2), ImGui::GetColorU32(ImGuiCol_TextDisabled), y_axis);

    // Column axis: its ends and what it is.
    std::string left, right;
    if (c) {
        left = number(t0_ - double(contention_.t_origin()));
        right = number(t1_ - double(contention_.t_origin()));
    } else {
        left = number(std::floor(u0_ * grid->cols));
        right = number(std::ceil(u1_ * grid->cols) - 1);
    }
    const ImU32 axis_ink = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    dl->AddText(ImVec2(p0.x, p0.y + size.y + 2), axis_ink, left.c_str());
    const float rw = ImGui::CalcTextSize(right.c_str()).x;
    dl->AddText(ImVec2(p0.x + size.x - rw, p0.y + size.y + 2), axis_ink, right.c_str());
    const float xw = ImGui::CalcTextSize(x_axis).x;
    dl->AddText(ImVec2(p0.x + (size.x - xw) * 0.5f, p0.y + size.y + 2), axis_ink, x_axis);
    const float hw = ImGui::CalcTextSize(t.heatmap.zoom_hint).x;
    if (hw < size.x)
        dl->AddText(ImVec2(p0.x + (size.x - hw) * 0.5f, p0.y + size.y + 2 + line), axis_ink, t.heatmap.zoom_hint);

    // Legend, right of the cells.
    ImGui::SetCursorScreenPos(ImVec2(p0.x + size.x + em * 0.6f, p0.y));
    draw_legend(state, ImVec2(p0.x + size.x + em * 0.6f, p0.y), ImVec2(legend_w - em * 0.6f, size.y), lo, hi, unit);

    // Tooltip for the cell under the mouse.
    if (hovered) {
        const ImVec2 m = ImGui::GetIO().MousePos;
        CellHit hit;
        const double u = (m.x - p0.x) / size.x, v = (m.y - p0.y) / size.y;
        if (cell_at(*grid, u, v, c ? 0.0 : u0_, c ? 1.0 : u1_, rv0, rv1, hit)) tooltip(state, record, hit.row, hit.col);
    }
    ImGui::SetCursorScreenPos(ImVec2(origin.x, p0.y + size.y + axis_h));
    ImGui::Dummy(ImVec2(0, 0));
}

std::string HeatmapView::row_label(const AppState& state, uint32_t row) const {
    const Language lang = shown_language(state);
    if (mode_ == HeatmapMode::Contention) {
        const ContentionRow& r = contention_.rows()[row];
        if (r.other) return fill(ui_text(lang).heatmap.other_addresses, {std::to_string(r.addresses)});
        // The address as the source names it ("s_hist[3]", "g_counters[0]"), else in words.
        static const trace::Trace kNoTrace;
        const trace::Trace& trace = record_ ? record_->summary.trace : kNoTrace;
        std::string s =
            trace::memory_name(trace, r.space, r.address, trace::access_size(trace, r.site), lang);
        if (r.space == trace::Space::Shared && r.block != UINT32_MAX) s += " b" + std::to_string(r.block);
        return s;
    }
    if (mode_ == HeatmapMode::BlockThread) return std::to_string(row * block_thread_.row_fold);
    return std::to_string(row);
}

// [SECTION] Legend, tooltip, zoom

void HeatmapView::draw_legend(const AppState& state, ImVec2 at0, ImVec2 size0, float lo, float hi, const char* unit) {
    const UiText& t = ui_text(shown_language(state));
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float em = ImGui::GetFontSize();
    const float line = ImGui::GetTextLineHeight();
    // The unit on top (wrapped to the legend's width), the ramp under it.
    const float unit_h = ImGui::CalcTextSize(unit, nullptr, false, size0.x).y + line * 0.3f;
    dl->AddText(nullptr, 0, at0, ImGui::GetColorU32(ImGuiCol_TextDisabled), unit, nullptr, size0.x);
    const ImVec2 at(at0.x, at0.y + unit_h);
    const ImVec2 size(size0.x, std::max(em * 2, size0.y - unit_h));
    const float bar_w = std::min(em * 1.2f, size.x * 0.3f);
    // The "no data" swatch takes the bottom; the ramp (hot at the top) the rest.
    const float ramp_h = std::max(em, size.y - line * 1.6f);
    for (int i = 0; i < heat::kStops - 1; ++i) {
        const float ya = at.y + ramp_h * (1.0f - float(i + 1) / float(heat::kStops - 1));
        const float yb = at.y + ramp_h * (1.0f - float(i) / float(heat::kStops - 1));
        const ImU32 top = heat::colour_u32(float(i + 1) / float(heat::kStops - 1));
        const ImU32 bottom = heat::colour_u32(float(i) / float(heat::kStops - 1));
        dl->AddRectFilledMultiColor(ImVec2(at.x, ya), ImVec2(at.x + bar_w, yb), top, top, bottom, bottom);
    }
    // Solid ends, so that the extreme colours are there exactly (the GUI tests look for them).
    dl->AddRectFilled(ImVec2(at.x, at.y), ImVec2(at.x + bar_w, at.y + 3), heat::colour_u32(1.0f));
    dl->AddRectFilled(ImVec2(at.x, at.y + ramp_h - 3), ImVec2(at.x + bar_w, at.y + ramp_h), heat::colour_u32(0.0f));
    const ImU32 ink = ImGui::GetColorU32(ImGuiCol_Text);
    // Ticks at least two lines apart.
    const int ticks = std::clamp(int(ramp_h / (line * 2.0f)), 1, 4);
    // Hottest first; a label that would overlap one already drawn (a short ramp: presenter mode at
    // 720p) is left out, so that two numbers never print over each other.
    float last_label_y = -1e9f;
    for (int k = ticks; k >= 0; --k) {
        const float f = float(k) / float(ticks);
        const float y = at.y + ramp_h * (1.0f - f);
        // Whole numbers where the range is wide (cycles, counts): "2727", not "2727.2".
        const float v = heat::value_at(f, lo, hi, log_scale_);
        const std::string label = number(hi - lo >= 10 ? std::round(v) : v);
        dl->AddLine(ImVec2(at.x + bar_w, y), ImVec2(at.x + bar_w + 3, y), ink);
        const float label_y = std::clamp(y - line * 0.5f, at.y, std::max(at.y, at.y + ramp_h - line));
        if (label_y - last_label_y < line) continue;
        dl->AddText(ImVec2(at.x + bar_w + 5, label_y), ink, label.c_str());
        last_label_y = label_y;
    }
    const float sy = at.y + ramp_h + line * 0.5f;
    dl->AddRectFilled(ImVec2(at.x, sy), ImVec2(at.x + bar_w, sy + line * 0.8f),
                      IM_COL32((kEmptyRgb >> 16) & 0xff, (kEmptyRgb >> 8) & 0xff, kEmptyRgb & 0xff, 255));
    dl->AddText(ImVec2(at.x + bar_w + 5, sy - line * 0.1f), ImGui::GetColorU32(ImGuiCol_TextDisabled), t.heatmap.no_data);
    legend_rect_ = ImVec4(at0.x, at0.y, at0.x + size0.x, at0.y + size0.y);
}

void HeatmapView::tooltip(const AppState& state, const RunRecord& record, uint32_t row, uint32_t col) {
    const UiText& t = ui_text(shown_language(state));
    const trace::Trace& trace = record.summary.trace;
    ImGui::BeginTooltip();
    if (mode_ == HeatmapMode::Contention) {
        const float v = contention_grid_.at(row, col);
        const ContentionRow& r = contention_.rows()[row];
        ImGui::TextUnformatted(fill(t.heatmap.tip_address, {row_label(state, row)}).c_str());
        double from = 0, to = 0;
        column_time(contention_grid_, col, from, to);
        const double origin = double(contention_.t_origin());
        ImGui::TextUnformatted(fill(t.heatmap.tip_time, {number(from - origin), number(to - origin)}).c_str());
        if (v < 0)
            ImGui::TextDisabled("%s", t.heatmap.tip_no_data.s);
        else if (value_ == ContentionValue::Operations && r.other && r.addresses > 1)
            ImGui::TextUnformatted(fill(t.heatmap.tip_ops_mean, {number(v), std::to_string(r.addresses)}).c_str());
        else if (value_ == ContentionValue::Operations)
            ImGui::TextUnformatted(fill(t.heatmap.tip_ops, {number(v)}).c_str());
        else
            ImGui::TextUnformatted(fill(t.heatmap.tip_depth, {number(v)}).c_str());
        if (!r.other && r.site < trace.sites.size() && trace.sites[r.site].source_line)
            ImGui::TextDisabled("%s", fill(t.heatmap.tip_line, {std::to_string(trace.sites[r.site].source_line)}).c_str());
    } else if (mode_ == HeatmapMode::BlockThread) {
        const float v = block_thread_.at(row, col);
        const uint32_t fold = block_thread_.row_fold;
        if (fold == 1)
            ImGui::TextUnformatted(fill(t.heatmap.tip_block_thread, {std::to_string(row), std::to_string(col)}).c_str());
        else
            ImGui::TextUnformatted(fill(t.heatmap.tip_blocks_thread, {std::to_string(row * fold),
                                                                      std::to_string(row * fold + fold - 1),
                                                                      std::to_string(col)})
                                       .c_str());
        if (v < 0)
            ImGui::TextDisabled("%s", t.heatmap.tip_no_data.s);
        else
            ImGui::TextUnformatted(fill(t.heatmap.tip_latency, {number(v)}).c_str());
    } else {
        const float v = sm_warp_.at(row, col);
        const size_t cell = size_t(row) * sm_warp_.cols + col;
        const uint32_t w = cell < sm_warp_ids_.size() ? sm_warp_ids_[cell] : UINT32_MAX;
        if (w == UINT32_MAX) {
            ImGui::TextDisabled("%s", t.heatmap.tip_no_data.s);
        } else {
            uint32_t warps_per_block = 1;
            for (const trace::ThreadInfo& th : trace.threads)
                warps_per_block = std::max<uint32_t>(warps_per_block, uint32_t(th.warp) + 1);
            ImGui::TextUnformatted(fill(t.heatmap.tip_sm_warp, {std::to_string(row), std::to_string(col),
                                                                std::to_string(w / warps_per_block),
                                                                std::to_string(w % warps_per_block)})
                                       .c_str());
            ImGui::TextUnformatted(fill(t.heatmap.tip_latency, {number(v)}).c_str());
        }
    }
    ImGui::EndTooltip();
}

void HeatmapView::handle_zoom(ImVec2 p0, ImVec2 size) {
    const ImGuiIO& io = ImGui::GetIO();
    const double fx = std::clamp((io.MousePos.x - p0.x) / size.x, 0.0f, 1.0f);
    const double fy = std::clamp((io.MousePos.y - p0.y) / size.y, 0.0f, 1.0f);
    if (ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) {
        reset_zoom();
        return;
    }
    const double zoom = io.MouseWheel != 0 ? std::pow(0.8, double(io.MouseWheel)) : 1.0;
    const ImVec2 drag = ImGui::IsMouseDragging(ImGuiMouseButton_Left) ? io.MouseDelta : ImVec2(0, 0);
    if (zoom == 1.0 && drag.x == 0 && drag.y == 0) return;
    if (mode_ == HeatmapMode::Contention) {
        const double span = t1_ - t0_;
        const double at = t0_ + fx * span;
        double ns = std::max(4.0, span * zoom);
        double n0 = at - fx * ns - drag.x / size.x * ns;
        t0_ = n0;
        t1_ = n0 + ns;
        return;
    }
    const auto axis = [&](double& a0, double& a1, double f, float d, float extent) {
        const double span = a1 - a0;
        const double at = a0 + f * span;
        const double ns = std::clamp(span * zoom, 1e-4, 1.0);
        a0 = at - f * ns - d / extent * ns;
        a0 = std::clamp(a0, 0.0, 1.0 - ns);
        a1 = a0 + ns;
    };
    axis(u0_, u1_, fx, drag.x, size.x);
    axis(v0_, v1_, fy, drag.y, size.y);
}

} // namespace synclab::ui
