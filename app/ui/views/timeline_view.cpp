// The timeline view (see timeline_view.h). Everything here is drawing and input; what to draw comes
// from timeline_model (pure, tested).
//
// Index of this file
// [SECTION] Helpers: colours, text, geometry
// [SECTION] Cache: index per trace, layout per expansion and font size
// [SECTION] Camera: fit and focus requests, input
// [SECTION] Draw: entry point
// [SECTION] Draw: rows (bands, waits, events, deadlock markers)
// [SECTION] Draw: finding marks (race arrows, divergence and deadlock points)
// [SECTION] Draw: labels, ruler, legend
// [SECTION] Tooltips
#include "ui/views/timeline_view.h"

#include "trace/text_format.h"

#include "ui/views/callout_view.h"
#include "ui/model/outcome_words.h"
#include "ui/model/source_lines.h"
#include "ui/model/ui_text.h"

#include "ui/model/theme.h"
#include "ui/model/value_format.h"

#include <imgui_internal.h> // ImGuiWindow::RootWindow: where compare mode's two views meet

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <string>
#include <tuple>

namespace synclab::ui {

using trace::Event;
using trace::EventKind;

// [SECTION] Helpers: colours, text, geometry ---------------------------------------------------------

namespace {

// GLFW key codes of letters are their upper-case ASCII codes (the only backend SyncLab uses).
constexpr int kKeyF = 'F';
constexpr float kFoldPx = 3;          // at the normal font size; scaled with it (presenter mode)
constexpr double kZoomStep = 0.8;     // per wheel notch
constexpr double kMinVisibleTime = 2; // ticks or ns across the whole view, at most zoomed in
constexpr double kMaxZoomOut = 50;    // times the trace's length

ImU32 with_alpha(ImU32 colour, float alpha) {
    const uint32_t a = uint32_t(std::clamp(alpha, 0.f, 1.f) * float((colour >> 24) & 0xff));
    return (colour & 0x00ffffffu) | (a << 24);
}

ImU32 scaled(ImU32 colour, float f) {
    auto c = [&](int shift) {
        return uint32_t(std::clamp(float((colour >> shift) & 0xff) * f, 0.f, 255.f)) << shift;
    };
    return c(0) | c(8) | c(16) | (colour & 0xff000000u);
}

ImU32 mix(ImU32 a, ImU32 b) {
    auto c = [&](int shift) { return ((((a >> shift) & 0xff) + ((b >> shift) & 0xff)) / 2) << shift; };
    return c(0) | c(8) | c(16) | c(24);
}

// Text colours (not meaning-carrying, so not in theme.h).
constexpr ImU32 kText = IM_COL32(225, 225, 225, 255);
constexpr ImU32 kTextDim = IM_COL32(150, 150, 150, 255);
// On the grey of a barrier wait (theme::kBarrierWait at 75% over the row, about rgb 97): light text,
// 4.7:1 (dark text would be 3:1).
constexpr ImU32 kWaitText = IM_COL32(235, 235, 235, 255);
constexpr ImU32 kRowBlock = IM_COL32(255, 255, 255, 18);
constexpr ImU32 kRowStripe = IM_COL32(255, 255, 255, 7);
constexpr ImU32 kRowLine = IM_COL32(255, 255, 255, 22);
constexpr ImU32 kPanel = IM_COL32(22, 22, 26, 255);
constexpr ImU32 kFoldedCount = IM_COL32(20, 20, 20, 255);

// trace::to_string's name, for reading: "barrier arrive" rather than "barrier_arrive".
std::string kind_name(EventKind kind) {
    std::string name = trace::to_string(kind);
    std::replace(name.begin(), name.end(), '_', ' ');
    return name;
}

// A time for the ruler and tooltips: ticks as numbers, GPU time in ns / us / ms.
void format_time(char* out, size_t n, double t, bool ns, double step = 0) {
    if (!ns) {
        if (step > 0 && step < 1) {
            std::snprintf(out, n, "%.*f", int(std::ceil(-std::log10(step))), t);
        } else {
            std::snprintf(out, n, "%.0f", t);
        }
        return;
    }
    const double a = std::fabs(step > 0 ? step : t);
    if (a >= 1e6) {
        std::snprintf(out, n, "%.6g ms", t / 1e6);
    } else if (a >= 1e3) {
        std::snprintf(out, n, "%.6g us", t / 1e3);
    } else {
        std::snprintf(out, n, "%.6g ns", t);
    }
}

// A "nice" ruler step (1, 2 or 5 x 10^k) of at least `min_step`.
double nice_step(double min_step) {
    const double p = std::pow(10.0, std::floor(std::log10(min_step)));
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (p * m >= min_step) return p * m;
    return p * 10;
}

// A filled triangle pointing right (closed) or down (open), for the labels.
void disclosure(ImDrawList* dl, ImVec2 centre, float size, bool open, ImU32 colour) {
    const float h = size * 0.5f;
    if (open) {
        dl->AddTriangleFilled({centre.x - h, centre.y - h * 0.6f}, {centre.x + h, centre.y - h * 0.6f},
                              {centre.x, centre.y + h * 0.7f}, colour);
    } else {
        dl->AddTriangleFilled({centre.x - h * 0.6f, centre.y - h}, {centre.x + h * 0.7f, centre.y},
                              {centre.x - h * 0.6f, centre.y + h}, colour);
    }
}

void diamond(ImDrawList* dl, ImVec2 c, float r, ImU32 fill, ImU32 outline) {
    dl->AddQuadFilled({c.x, c.y - r}, {c.x + r, c.y}, {c.x, c.y + r}, {c.x - r, c.y}, fill);
    dl->AddQuad({c.x, c.y - r}, {c.x + r, c.y}, {c.x, c.y + r}, {c.x - r, c.y}, outline);
}

// Arrowhead at `tip` pointing along `dir` (unit).
void arrow_head(ImDrawList* dl, ImVec2 tip, ImVec2 dir, float size, ImU32 colour) {
    const ImVec2 n{-dir.y, dir.x};
    const ImVec2 base{tip.x - dir.x * size, tip.y - dir.y * size};
    dl->AddTriangleFilled(tip, {base.x + n.x * size * 0.5f, base.y + n.y * size * 0.5f},
                          {base.x - n.x * size * 0.5f, base.y - n.y * size * 0.5f}, colour);
}

float distance_to_segment(ImVec2 p, ImVec2 a, ImVec2 b) {
    const float dx = b.x - a.x, dy = b.y - a.y;
    const float len2 = dx * dx + dy * dy;
    float t = len2 > 0 ? ((p.x - a.x) * dx + (p.y - a.y) * dy) / len2 : 0;
    t = std::clamp(t, 0.f, 1.f);
    const float x = a.x + t * dx - p.x, y = a.y + t * dy - p.y;
    return std::sqrt(x * x + y * y);
}

} // namespace

// Screen rectangles of one frame.
struct TimelineView::Geometry {
    ImVec2 min, max; // the whole child region
    float font = 13;
    float label_w = 0; // label column
    float ruler_h = 0, legend_h = 0;
    ImVec2 rows_min, rows_max;      // rows area: labels + time axis, between ruler and legend
    float time_x0 = 0, time_x1 = 0; // time axis, screen x
    float scroll = 0;
    ImVec2 mouse;
    bool mouse_in_rows = false, mouse_in_labels = false, mouse_in_time = false;
    float screen_y(float layout_y) const { return rows_min.y + layout_y - scroll; }
    float screen_x(float frame_x) const { return time_x0 + frame_x; }
};

// [SECTION] Cache: index per trace, layout per expansion and font size -------------------------------

void TimelineView::update_cache(const RunRecord& record) {
    const trace::Trace& trace = record.summary.trace;
    findings_ = &record.summary.findings;
    if (index_ && serial_ == record.serial && trace_ == &trace && event_count_ == trace.events.size()) return;
    const size_t old_blocks = index_ ? index_->blocks().size() : 0;
    const size_t old_warps = index_ ? index_->warps().size() : 0;
    index_ = std::make_unique<TimelineIndex>(trace);
    serial_ = record.serial;
    trace_ = &trace;
    event_count_ = trace.events.size();
    gpu_time_ = trace.meta.backend == "gpu";
    resolved_.clear();
    for (const analysis::Finding& f : record.summary.findings)
        resolved_.push_back(resolve_finding(*index_, f));
    // A re-run of the same launch keeps the rows the student opened.
    if (old_blocks != index_->blocks().size() || old_warps != index_->warps().size())
        expansion_ = TimelineExpansion::initial(*index_);
    layout_dirty_ = true;
    // Last frame's items and hits point into the old trace.
    frame_.clear();
    marks_ = {};
    hit_ = {};
    hovered_arrow_ = -1;
}

void TimelineView::update_layout(float font_size) {
    // Rows scale with the font so that presenter mode (large fonts) stays readable.
    RowMetrics m;
    m.block_height = std::round(font_size * 1.45f);
    m.warp_height = std::round(font_size * 1.3f);
    m.thread_height = std::round(font_size * 1.1f);
    m.gap = 1;
    if (!(m == metrics_)) {
        metrics_ = m;
        layout_dirty_ = true;
    }
    if (!layout_dirty_) return;
    layout_ = layout_rows(*index_, expansion_, metrics_);
    layout_dirty_ = false;
}

TimeRange TimelineView::fit_range() const {
    return index_ ? synclab::ui::fit_range(*index_) : TimeRange{};
}

TimeRange TimelineView::focus_range_for(const RunRecord& record, int finding) {
    const auto& findings = record.summary.findings;
    if (finding < 0 || size_t(finding) >= findings.size()) return fit_range();
    if (index_ && serial_ == record.serial && trace_ == &record.summary.trace &&
        size_t(finding) < resolved_.size())
        return focus_range(*index_, resolved_[size_t(finding)]);
    TimelineIndex index(record.summary.trace);
    return focus_range(index, resolve_finding(index, findings[size_t(finding)]));
}

void TimelineView::focus_finding(const RunRecord& record, int finding, TimelineCamera& camera) {
    const TimeRange range = focus_range_for(record, finding);
    camera.focus_t0 = range.t0;
    camera.focus_t1 = range.t1;
    reveal_.clear();
    const auto& findings = record.summary.findings;
    if (finding < 0 || size_t(finding) >= findings.size()) return;
    const auto& threads = findings[size_t(finding)].threads;
    reveal_.assign(threads.begin(), threads.begin() + std::ptrdiff_t(std::min<size_t>(2, threads.size())));
    reveal_serial_ = record.serial;
}

// [SECTION] Camera: fit and focus requests, input ----------------------------------------------------

// A newly explained output (AppState::provenance, set by the output grid): frame its events and pin
// the threads involved (the writer of the output and the racing writers), as a focused finding does.
void TimelineView::follow_provenance(const AppState& state, TimelineCamera& camera) {
    const ProvenanceMarks& p = state.provenance;
    if (!p.on(serial_) || index_ == nullptr) return;
    const auto key = std::make_pair(p.serial, p.final_store);
    if (key == provenance_seen_) return;
    provenance_seen_ = key;
    const auto& events = index_->trace().events;
    std::vector<uint32_t> all{p.final_store};
    all.insert(all.end(), p.stale_loads.begin(), p.stale_loads.end());
    all.insert(all.end(), p.racing_stores.begin(), p.racing_stores.end());
    FindingEvents span;
    reveal_.clear();
    for (uint32_t e : all) {
        if (e >= events.size()) continue;
        if (span.first == kNoEvent || events[e].time < events[span.first].time) span.first = e;
        if (span.second == kNoEvent || events[e].time > events[span.second].time) span.second = e;
        if (std::find(reveal_.begin(), reveal_.end(), events[e].thread) == reveal_.end() &&
            reveal_.size() < 3)
            reveal_.push_back(events[e].thread);
    }
    if (!span.has_pair()) return;
    const TimeRange range = synclab::ui::focus_range(*index_, span);
    camera.focus_t0 = range.t0;
    camera.focus_t1 = range.t1;
    reveal_serial_ = serial_;
}

void TimelineView::share_rows(TimelineView& other) {
    if (rows_version_ != rows_shared_) {
        other.expansion_ = expansion_;
        other.layout_dirty_ = true;
    } else if (other.rows_version_ != other.rows_shared_) {
        expansion_ = other.expansion_;
        layout_dirty_ = true;
    }
    rows_shared_ = rows_version_;
    other.rows_shared_ = other.rows_version_;
}

void TimelineView::reveal_threads(TimelineCamera& camera, float rows_height, float font_size) {
    if (reveal_.empty()) return;
    std::vector<uint32_t> threads;
    threads.swap(reveal_);
    if (reveal_serial_ != serial_) return; // asked for another record
    // The finding's blocks open and its threads pinned: each access on a row of its own, named as the
    // finding names it, with the warp rows around them (not 32 lanes per warp).
    expansion_.clear_pins();
    expansion_.clear_folds();
    for (uint32_t t : threads) {
        const uint32_t block = index_->block_slot_of_thread(t);
        const uint32_t lane = index_->thread_slot(t);
        if (block == kNoRow || lane == kNoRow) return;
        if (!expansion_.block_open(block)) expansion_.toggle_block(block);
        expansion_.pin_lane(lane);
    }
    rows_changed();
    update_layout(font_size);
    // The rows' span, from the top of the highest to the bottom of the lowest.
    const auto span = [&] {
        float top = layout_.height, bottom = 0;
        for (uint32_t t : threads) {
            const uint32_t row = layout_.row_of_thread(*index_, t);
            if (row == kNoRow) continue;
            top = std::min(top, layout_.rows[row].y);
            bottom = std::max(bottom, layout_.rows[row].bottom());
        }
        return std::pair{top, bottom};
    };
    auto [top, bottom] = span();
    if (bottom <= top) return;
    // Further apart than the view shows with a margin (thread 0 and thread 255 of one block): the
    // rows between them that tell nothing of their story fold, so that both ends of the arrow are in
    // sight at once (a click on a fold's label opens it).
    if (bottom - top > rows_height - 2 * font_size) {
        expansion_.fold_between_pins(*index_);
        rows_changed();
        update_layout(font_size);
        std::tie(top, bottom) = span();
    }
    // Centre the rows (while they are a little taller than the view this cuts each end by less than
    // half a lane row: both arrow ends stay in sight); far taller, the first one a little below the top.
    const bool centre = bottom - top <= rows_height + metrics_.thread_height * 0.8f;
    const float y = centre ? (top + bottom - rows_height) / 2 : top - font_size * 2;
    camera.scroll_y = std::clamp(y, 0.f, std::max(0.f, layout_.height - rows_height));
}

bool TimelineView::open_warp(const RunRecord& record, uint32_t block, uint32_t warp) {
    const trace::Trace& trace = record.summary.trace;
    const bool found = std::any_of(trace.threads.begin(), trace.threads.end(), [&](const trace::ThreadInfo& t) {
        return t.block == block && t.warp == warp;
    });
    if (found) open_warp_ = OpenWarp{record.serial, block, warp};
    return found;
}

void TimelineView::reveal_warp(TimelineCamera& camera, float rows_height, float font_size) {
    if (!open_warp_) return;
    const OpenWarp want = *open_warp_;
    open_warp_.reset();
    if (want.serial != serial_) return; // asked for another record
    const auto& blocks = index_->blocks();
    for (uint32_t b = 0; b < blocks.size(); ++b) {
        if (blocks[b].block != want.block || want.warp >= blocks[b].warp_count) continue;
        const uint32_t w = blocks[b].first_warp + want.warp;
        if (!expansion_.block_open(b)) expansion_.toggle_block(b);
        if (!expansion_.warp_open(w)) expansion_.toggle_warp(w);
        rows_changed();
        update_layout(font_size);
        const uint32_t row = w < layout_.warp_row.size() ? layout_.warp_row[w] : kNoRow;
        if (row == kNoRow) return;
        // The warp row a little below the top: its lanes fill the view under it.
        camera.scroll_y =
            std::clamp(layout_.rows[row].y - font_size * 2, 0.f, std::max(0.f, layout_.height - rows_height));
        return;
    }
}

void TimelineView::apply_camera_requests(TimelineCamera& camera) {
    // A fit is remembered per camera, for the rest of the frame, in the storage of the top-level window
    // (shared by the child windows that compare mode puts its two views in), so that the second view
    // sharing the camera widens the range to cover its own trace too.
    const TimelineCamera* camera_address = &camera;
    ImGuiStorage* storage = &ImGui::GetCurrentWindow()->RootWindow->StateStorage;
    const ImGuiID key = ImHashData(&camera_address, sizeof camera_address, 0x7153u);
    const int frame = ImGui::GetFrameCount();
    const TimeRange own = synclab::ui::fit_range(*index_);
    const bool broken = !(camera.t1 > camera.t0) || !std::isfinite(camera.t0) || !std::isfinite(camera.t1);
    if (camera.fit_requested || broken) {
        camera.t0 = own.t0;
        camera.t1 = own.t1;
        camera.scroll_y = 0;
        camera.fit_requested = false;
        storage->SetInt(key, frame);
    } else if (storage->GetInt(key, -1) == frame) {
        camera.t0 = std::min(camera.t0, own.t0);
        camera.t1 = std::max(camera.t1, own.t1);
    }
    if (camera.focus_t1 > camera.focus_t0) {
        camera.t0 = camera.focus_t0;
        camera.t1 = camera.focus_t1;
        camera.focus_t0 = camera.focus_t1 = 0;
    }
}

void TimelineView::handle_input(AppState& state, TimelineCamera& camera, const Geometry& g) {
    ImGuiIO& io = ImGui::GetIO();
    const float width = g.time_x1 - g.time_x0;
    const float rows_h = g.rows_max.y - g.rows_min.y;
    const float max_scroll = std::max(0.f, layout_.height - rows_h);
    const TimeRange own = synclab::ui::fit_range(*index_);
    const double max_width = std::max(own.length() * kMaxZoomOut, kMinVisibleTime);
    auto set_range = [&](TimeRange r) {
        if (r.length() > max_width) r = zoom_range(r, (r.t0 + r.t1) / 2, max_width / r.length());
        // Panning stops while some of this view's trace is still in view (F brings all of it back). It
        // never snaps: a shared camera may already be past this trace (compare mode, a longer run
        // beside), and may still move back towards it.
        const double keep = r.length() * 0.05;
        const double lo = std::min(own.t0 + keep - r.length(), camera.t0),
                     hi = std::max(own.t1 - keep, camera.t0);
        const double t0 = std::clamp(r.t0, std::min(lo, hi), hi);
        r = {t0, t0 + r.length()};
        camera.t0 = r.t0;
        camera.t1 = r.t1;
    };
    auto set_scroll = [&](float y) { camera.scroll_y = std::clamp(y, 0.f, max_scroll); };
    const TimeRange range{camera.t0, camera.t1};
    const double time_per_px = width > 0 ? range.length() / width : 0;

    if (hovered_) {
        if (io.MouseWheel != 0) {
            if (io.KeyShift || g.mouse_in_labels) {
                set_scroll(camera.scroll_y - io.MouseWheel * metrics_.warp_height * 3);
            } else if (g.mouse_in_time || g.mouse_in_rows) {
                const double anchor = range.t0 + double(g.mouse.x - g.time_x0) * time_per_px;
                set_range(
                    zoom_range(range, anchor, std::pow(kZoomStep, double(io.MouseWheel)), kMinVisibleTime));
            }
        }
        if (io.MouseWheelH != 0) {
            const double dt = -double(io.MouseWheelH) * width * 0.1 * time_per_px;
            set_range({camera.t0 + dt, camera.t1 + dt});
        }
    }
    // Drag pans time (a drag that started over the time axis, wherever the mouse is now) and rows
    // (anywhere).
    if (ImGui::IsItemActive() && ImGui::IsMouseDragging(ImGuiMouseButton_Left, 1.f)) {
        const double dt = -double(io.MouseDelta.x) * time_per_px;
        const bool started_in_labels = io.MouseClickedPos[ImGuiMouseButton_Left].x < g.time_x0;
        if (!started_in_labels && dt != 0) set_range({camera.t0 + dt, camera.t1 + dt});
        if (io.MouseDelta.y != 0) set_scroll(camera.scroll_y - io.MouseDelta.y);
    }
    // Keys: F fits (also in presenter mode with the timeline in front); arrows pan, +/- zoom.
    const bool keys = hovered_ && !io.WantTextInput && !io.KeyCtrl;
    const bool presenter_keys = state.presenter && state.focus_view == View::Timeline && !io.WantTextInput;
    if ((keys || presenter_keys) && ImGui::IsKeyPressed(kKeyF, false)) camera.fit_requested = true;
    if (keys) {
        const double pan = range.length() * 0.1;
        if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_LeftArrow)))
            set_range({camera.t0 - pan, camera.t1 - pan});
        if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_RightArrow)))
            set_range({camera.t0 + pan, camera.t1 + pan});
        if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_UpArrow)))
            set_scroll(camera.scroll_y - metrics_.warp_height * 3);
        if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_DownArrow)))
            set_scroll(camera.scroll_y + metrics_.warp_height * 3);
        for (ImWchar c : io.InputQueueCharacters) {
            if (c == '+' || c == '=')
                set_range(zoom_range({camera.t0, camera.t1}, (camera.t0 + camera.t1) / 2, kZoomStep,
                                     kMinVisibleTime));
            if (c == '-')
                set_range(zoom_range({camera.t0, camera.t1}, (camera.t0 + camera.t1) / 2, 1 / kZoomStep,
                                     kMinVisibleTime));
        }
    }
    // A fit asked for here is applied at the start of the next frame, where views sharing the camera
    // can see it (apply_camera_requests).

    // Clicks: a label opens or closes its row; double-click on a folded mark zooms into it; a click
    // on a race arrow selects its finding. A click is a release without a drag.
    const bool clicked = ImGui::IsItemDeactivated() &&
                         ImGui::GetMouseDragDelta(ImGuiMouseButton_Left, 1.f).x == 0 &&
                         ImGui::GetMouseDragDelta(ImGuiMouseButton_Left, 1.f).y == 0 && hovered_;
    if (clicked && g.mouse_in_labels) {
        const uint32_t row = layout_.row_at(g.mouse.y - g.rows_min.y + scroll_);
        if (const TimelineFold* fold = layout_.fold_at(g.mouse.y - g.rows_min.y + scroll_)) {
            expansion_.unfold(*fold);
            rows_changed();
        } else if (row != kNoRow) {
            const TimelineRow& r = layout_.rows[row];
            if (r.kind == RowKind::Block) expansion_.toggle_block(r.slot);
            if (r.kind == RowKind::Warp) expansion_.toggle_warp(r.slot);
            rows_changed();
            if (r.kind != RowKind::Thread) layout_dirty_ = true;
        }
    } else if (clicked && hovered_arrow_ >= 0) {
        const uint32_t f = marks_.arrows[size_t(hovered_arrow_)].finding;
        state.selection.selected_finding = int(f);
        state.selection.finding_lines = analysis::kernel_file_lines((*findings_)[f]);
    }
    if (hovered_ && g.mouse_in_time && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left) &&
        hit_.what == Hit::What::Event) {
        const EventItem& item = frame_.events[hit_.item];
        if (item.count > 1) {
            const double a = index_->to_camera(index_->event_time(item.event));
            const double b = index_->to_camera(index_->event_time(item.last));
            const double w = std::max((b - a) * 1.2, kMinVisibleTime * 8);
            set_range({(a + b) / 2 - w / 2, (a + b) / 2 + w / 2});
        }
    }
}

// [SECTION] Draw: entry point -------------------------------------------------------------------------

void TimelineView::draw(AppState& state, const RunRecord& record, TimelineCamera& camera, const char* id,
                        ImVec2 size) {
    language_ = shown_language(state);
    update_cache(record);
    follow_provenance(state, camera);
    apply_camera_requests(camera);

    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(0, 0));
    const bool visible = ImGui::BeginChild(id, size, false,
                                           ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse |
                                               ImGuiWindowFlags_NoMove);
    ImGui::PopStyleVar();
    if (!visible) {
        ImGui::EndChild();
        return;
    }

    Geometry g;
    g.font = ImGui::GetFontSize();
    update_layout(g.font);
    g.min = ImGui::GetCursorScreenPos();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    g.max = {g.min.x + std::max(avail.x, 1.f), g.min.y + std::max(avail.y, 1.f)};
    // Wide enough for "> block 00000" and for an indented "thread 1023 · lane 31" (lane rows).
    g.label_w = std::max({ImGui::CalcTextSize("> block 00000 ").x + g.font * 1.6f,
                          ImGui::CalcTextSize("thread 1023 \u00b7 lane 31 ").x + g.font * 2.6f, g.font * 6});
    g.ruler_h = std::round(g.font * 1.7f);
    g.legend_h = legend_ ? std::round(g.font * 1.7f) : 0.0f;
    g.rows_min = {g.min.x, g.min.y + g.ruler_h};
    g.rows_max = {g.max.x, std::max(g.rows_min.y + 1, g.max.y - g.legend_h)};
    g.time_x0 = g.min.x + g.label_w;
    g.time_x1 = std::max(g.time_x0 + 1, g.max.x - std::round(g.font * 0.45f)); // room for the scroll bar
    g.mouse = ImGui::GetIO().MousePos;

    // One invisible button over the whole region: it owns the mouse for drags and clicks.
    ImGui::InvisibleButton("##timeline", {g.max.x - g.min.x, g.max.y - g.min.y});
    hovered_ = ImGui::IsItemHovered() || ImGui::IsItemActive();
    g.mouse_in_rows = hovered_ && g.mouse.y >= g.rows_min.y && g.mouse.y < g.rows_max.y;
    g.mouse_in_labels = g.mouse_in_rows && g.mouse.x < g.time_x0;
    g.mouse_in_time = hovered_ && g.mouse.x >= g.time_x0 && g.mouse.x < g.time_x1;

    handle_input(state, camera, g);
    update_layout(g.font); // a label click may have opened rows
    const float rows_h = g.rows_max.y - g.rows_min.y;
    reveal_threads(camera, rows_h, g.font);
    reveal_warp(camera, rows_h, g.font);

    // This view's own clamp: a shared camera may scroll further than this trace has rows.
    scroll_ = std::clamp(camera.scroll_y, 0.f, std::max(0.f, layout_.height - rows_h));
    g.scroll = scroll_;
    rows_origin_ = {g.time_x0, g.rows_min.y - scroll_};

    viewport_.range = {camera.t0, camera.t1};
    viewport_.width = g.time_x1 - g.time_x0;
    viewport_.y0 = scroll_;
    viewport_.y1 = scroll_ + rows_h;
    viewport_.fold_px = std::max(kFoldPx, std::round(g.font * 0.2f)); // ticks widen with the font
    preprocess(*index_, layout_, viewport_, frame_);
    const int only = state.selection.selected_finding >= 0 &&
                             size_t(state.selection.selected_finding) < record.summary.findings.size()
                         ? state.selection.selected_finding
                         : -1;
    marks_ = finding_marks(*index_, layout_, record.summary.findings, resolved_, only);

    // What is under the mouse: an arrow wins over the marks below it.
    hit_ = {};
    hovered_arrow_ = -1;
    if (g.mouse_in_rows && g.mouse_in_time) {
        hit_ = hit_test(frame_, layout_, g.mouse.x - g.time_x0, g.mouse.y - g.rows_min.y + scroll_,
                        std::max(4.f, g.font * 0.3f));
    }

    marks_rect_ = ImVec4(g.time_x0, g.rows_min.y, g.time_x1, g.rows_max.y);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->AddRectFilled(g.min, g.max, kPanel);
    draw_rows(state, g);
    draw_collectives(g);
    draw_marks(state, g);
    draw_playhead(state, g);
    draw_labels(g);
    draw_ruler(g);
    if (legend_) draw_legend(g);
    draw_tooltip(state, g);
    ImGui::EndChild();
}

// [SECTION] Draw: rows (bands, waits, events, deadlock markers) --------------------------------------

void TimelineView::draw_wait_label(ImDrawList* dl, const WaitSpan& w, ImVec2 a, ImVec2 b, float font) const {
    const trace::Trace& trace = index_->trace();
    const uint32_t line = w.site < trace.sites.size() ? trace.sites[w.site].source_line : 0;
    if (line == 0) return;
    const TimelineText& words = ui_text(language_).timeline;
    const uint32_t other = w.mixed() ? trace.source_line(trace.events[w.other_arrive]) : 0;
    const std::string label = other != 0 && other != line
                                  ? fill(words.line_pair, {std::to_string(std::min(line, other)),
                                                           std::to_string(std::max(line, other))})
                                  : fill(words.line, {std::to_string(line)});
    const char* text = label.c_str();
    const float size = std::min(font * 0.8f, (b.y - a.y) + 2);
    if (size < 8) return; // too thin a row to be read
    const ImVec2 extent = ImGui::GetFont()->CalcTextSizeA(size, FLT_MAX, 0, text);
    if (extent.x + font * 0.5f > b.x - a.x) return;
    dl->AddText(ImGui::GetFont(), size, {a.x + font * 0.25f, (a.y + b.y - extent.y) / 2}, kWaitText, text);
}

void TimelineView::draw_rows(const AppState& state, const Geometry& g) const {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const auto& trace = index_->trace();
    dl->PushClipRect({g.min.x, g.rows_min.y}, {g.time_x1, g.rows_max.y}, true);

    // Row backgrounds (over labels and time): block headers shaded, other rows striped.
    for (uint32_t r = frame_.first_row; r < frame_.last_row; ++r) {
        const TimelineRow& row = layout_.rows[r];
        const float y0 = g.screen_y(row.y), y1 = g.screen_y(row.bottom());
        if (row.kind == RowKind::Block) {
            dl->AddRectFilled({g.min.x, y0}, {g.time_x1, y1}, kRowBlock);
        } else if (r % 2) {
            dl->AddRectFilled({g.min.x, y0}, {g.time_x1, y1}, kRowStripe);
        }
        if (hit_.row == r)
            dl->AddRectFilled({g.min.x, y0}, {g.time_x1, y1}, with_alpha(theme::kHoverLine, 0.5f));
    }
    // Folds: a dashed line across the time axis where rows are left out.
    for (const TimelineFold& f : layout_.folds) {
        if (f.bottom() < viewport_.y0 || f.y > viewport_.y1) continue;
        const float cy = std::round(g.screen_y(f.y + f.height / 2));
        const float dash = std::max(4.f, std::round(g.font * 0.5f));
        for (float x = g.time_x0; x < g.time_x1; x += dash * 2)
            dl->AddLine({x, cy}, {std::min(x + dash, g.time_x1), cy}, kTextDim, 1);
    }
    dl->PopClipRect();
    dl->PushClipRect({g.time_x0, g.rows_min.y}, {g.time_x1, g.rows_max.y}, true);

    // Barrier phases: alternating bands behind a block's rows; merged narrow ones in between.
    for (const BandItem& b : frame_.bands) {
        const ImU32 colour = b.count > 1 ? mix(theme::kPhaseBandA, theme::kPhaseBandB)
                                         : (b.phase % 2 ? theme::kPhaseBandB : theme::kPhaseBandA);
        dl->AddRectFilled({g.screen_x(b.x0), g.screen_y(b.y0)},
                          {g.screen_x(std::max(b.x1, b.x0 + 1)), g.screen_y(b.y1)}, colour);
    }

    // Barrier waits: grey spans in the middle of the row; a wait never released ends in red.
    for (const SpanItem& s : frame_.waits) {
        const TimelineRow& row = layout_.rows[s.row];
        const float pad = row.height * 0.22f;
        const ImVec2 a{g.screen_x(s.x0), g.screen_y(row.y + pad)};
        const ImVec2 b{g.screen_x(std::max(s.x1, s.x0 + 1)), g.screen_y(row.bottom() - pad)};
        const WaitSpan& w = row_spans_level(*index_, row.kind).spans[s.span];
        dl->AddRectFilled(a, b, with_alpha(theme::kBarrierWait, 0.75f));
        if (s.open) dl->AddRectFilled({a.x, b.y - 2}, {b.x, b.y}, theme::kDeadlock);
        // A phase completed at two barrier instructions is outlined in the divergence colour.
        if (w.mixed()) dl->AddRect(a, b, theme::kDivergence, 0, 0, std::max(1.5f, g.font * 0.12f));
    }
    // Which barrier each waits at, where the span is wide enough: "line 45", or "line 45 | 48" for a
    // phase completed at different lines (the mismatch readable without hovering). After all spans:
    // the spans of one row may overlap (phases at different barriers), and a label must stay on top.
    for (const SpanItem& s : frame_.waits) {
        if (!s.one_site) continue;
        const TimelineRow& row = layout_.rows[s.row];
        const float pad = row.height * 0.22f;
        const ImVec2 a{g.screen_x(s.x0), g.screen_y(row.y + pad)};
        const ImVec2 b{g.screen_x(std::max(s.x1, s.x0 + 1)), g.screen_y(row.bottom() - pad)};
        draw_wait_label(dl, row_spans_level(*index_, row.kind).spans[s.span], a, b, g.font);
    }

    // Events: ticks for single events; folded runs as bars, in the kind's colour when they are one
    // instruction of one kind (a warp's lanes at one tick), else grey, darker the more they hold.
    const float tick_w = std::max(2.f, std::round(g.font * 0.16f));
    const uint32_t hovered_line = state.selection.hovered_line;
    const auto& lines = state.selection.finding_lines;
    char count_text[16];
    for (const EventItem& item : frame_.events) {
        const TimelineRow& row = layout_.rows[item.row];
        const float pad = row.height * 0.14f;
        const float y0 = g.screen_y(row.y + pad), y1 = g.screen_y(row.bottom() - pad);
        float x0 = g.screen_x(item.x0), x1 = g.screen_x(item.x1);
        if (x1 - x0 < tick_w) {
            const float c = (x0 + x1) / 2;
            x0 = c - tick_w / 2;
            x1 = c + tick_w / 2;
        }
        const bool barrier = item.kind == EventKind::BarrierArrive || item.kind == EventKind::BarrierLeave;
        if (item.count == 1 || item.uniform) {
            ImU32 colour = theme::event_colour(item.kind);
            if (barrier) colour = scaled(colour, 1.5f); // visible against its own grey wait span
            dl->AddRectFilled({x0, y0}, {x1, y1}, colour);
            if (item.count > 1 && x1 - x0 > tick_w * 2) dl->AddRect({x0, y0}, {x1, y1}, scaled(colour, 0.6f));
        } else {
            dl->AddRectFilled({x0, y0}, {x1, y1}, theme::kFolded);
            // Darker with the log of the count: 10 events light, 100 k events dark.
            const float shade = std::min(0.55f, float(std::log10(double(item.count))) * 0.11f);
            dl->AddRectFilled({x0, (y0 + y1) / 2}, {x1, y1}, IM_COL32(0, 0, 0, int(255 * shade)));
            const int n = std::snprintf(count_text, sizeof count_text, "%" PRIu32, item.count);
            const ImVec2 ts = ImGui::CalcTextSize(count_text, count_text + n);
            if (x1 - x0 > ts.x + 6 && y1 - y0 >= ts.y * 0.8f)
                dl->AddText({(x0 + x1 - ts.x) / 2, (y0 + y1 - ts.y) / 2}, kFoldedCount, count_text,
                            count_text + n);
        }
        // Events of the line hovered in the source view, or of the selected finding, get an outline
        // (lines of the kernel's file, as the source view shows them).
        const Event& e = trace.events[item.event];
        const uint32_t line = trace.kernel_file_line(e);
        if (line != 0 && (item.count == 1 || item.uniform)) {
            if (line == hovered_line) {
                dl->AddRect({x0 - 2, y0 - 2}, {x1 + 2, y1 + 2}, IM_COL32(255, 255, 255, 255), 0, 0, 2);
            } else if (std::find(lines.begin(), lines.end(), line) != lines.end()) {
                dl->AddRect({x0 - 1, y0 - 1}, {x1 + 1, y1 + 1}, IM_COL32(255, 255, 255, 170));
            }
        }
    }

    // Threads left waiting: a red marker at the end of the trace on their rows.
    for (const MarkerItem& m : frame_.markers) {
        const TimelineRow& row = layout_.rows[m.row];
        const float cy = g.screen_y(row.y + row.height / 2);
        const float r = row.height * 0.32f;
        const float x = g.screen_x(m.x);
        dl->AddTriangleFilled({x, cy}, {x + r * 1.6f, cy - r}, {x + r * 1.6f, cy + r}, theme::kDeadlock);
    }
    if (index_->deadlocked()) {
        const float x = g.screen_x(viewport_.x_of(index_->to_camera(index_->time_end())));
        dl->AddLine({x, g.rows_min.y}, {x, g.rows_max.y}, with_alpha(theme::kDeadlock, 0.7f), 2);
    }

    // The mouse's time.
    if (g.mouse_in_time && g.mouse_in_rows)
        dl->AddLine({g.mouse.x, g.rows_min.y}, {g.mouse.x, g.rows_max.y}, theme::kHoverLine);
    dl->PopClipRect();

    // Scroll position of the rows (a thin bar on the right).
    const float rows_h = g.rows_max.y - g.rows_min.y;
    if (layout_.height > rows_h) {
        const float x = g.time_x1 + 1;
        const float t0 = g.rows_min.y + rows_h * (scroll_ / layout_.height);
        const float t1 = g.rows_min.y + rows_h * std::min(1.f, (scroll_ + rows_h) / layout_.height);
        dl->AddRectFilled({x, t0}, {g.max.x - 1, t1}, IM_COL32(255, 255, 255, 70), 2);
    }
}

// [SECTION] Draw: warp collectives (shuffles, votes, __syncwarp) --------------------------------------

// On the warp's row: __syncwarp as a warp barrier, a pale bar over the warp row and the rows of its
// member lanes that are open; shuffles and votes as a mint tick with, where the row has room, a lane
// strip: 32 cells, top half the lanes that gave a value (shfl) or took part, bottom half the lanes
// that received one (shfl) or voted true (the ballot's bits); cells of non-members stay dark. With
// the warp's lanes open, a shuffle also draws an arrow from each source lane's row to the lane that
// read it (the first 64 of one instruction), also where up to four marks merge into one (the tiles
// of a warp shuffling at once).
void TimelineView::draw_collectives(const Geometry& g) const {
    if (frame_.collectives.empty()) return;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const CollectiveIndex& index = index_->collectives();
    const auto& trace = index_->trace();
    dl->PushClipRect({g.time_x0, g.rows_min.y}, {g.time_x1, g.rows_max.y}, true);
    const float tick_w = std::max(3.f, std::round(g.font * 0.22f));
    const float cell = std::max(1.f, std::round(g.font * 0.14f));
    const float strip_w = cell * 32 + 3; // a 1 px gap after every 8 lanes: lanes can be counted
    const ImU32 dark = IM_COL32(18, 18, 22, 255);
    // The visible row of lane `lane` of warp `warp_slot`, or kNoRow.
    auto lane_row = [&](uint32_t warp_slot, uint32_t lane) {
        const WarpRowInfo& w = index_->warps()[warp_slot];
        if (lane >= w.lane_count) return kNoRow;
        const uint32_t slot = w.first_lane + lane;
        return slot < layout_.lane_row.size() ? layout_.lane_row[slot] : kNoRow;
    };
    // A shuffle's source-lane arrows between open lane rows (the first 64 of one instruction).
    const float head = std::max(4.f, g.font * 0.35f);
    auto draw_arrows = [&](const CollectiveMark& m, const TimelineRow& row, float cx) {
        if (m.op != trace::Collective::Shfl) return;
        int drawn = 0;
        for (uint32_t ev : index.members(m)) {
            const Event& e = trace.events[ev];
            const uint32_t source = uint32_t(e.address >> 32);
            const uint32_t lane = trace.threads[e.thread].lane;
            if (source >= 32 || source == lane) continue;
            const uint32_t from = lane_row(row.slot, source), to = lane_row(row.slot, lane);
            if (from == kNoRow || to == kNoRow) continue;
            const TimelineRow& fr = layout_.rows[from];
            const TimelineRow& tr = layout_.rows[to];
            const ImVec2 a{cx, g.screen_y(fr.y + fr.height / 2)};
            const ImVec2 b{cx + g.font * 0.7f, g.screen_y(tr.y + tr.height / 2)};
            dl->AddLine(a, b, theme::kShuffleArrow, std::max(1.f, g.font * 0.08f));
            const float dx = b.x - a.x, dy = b.y - a.y, len = std::sqrt(dx * dx + dy * dy);
            if (len > head) arrow_head(dl, b, {dx / len, dy / len}, head, theme::kShuffleArrow);
            if (++drawn == 64) break;
        }
    };
    for (size_t i = 0; i < frame_.collectives.size(); ++i) {
        const CollectiveItem& item = frame_.collectives[i];
        const TimelineRow& row = layout_.rows[item.row];
        const CollectiveMark& m = index.mark(item.mark);
        const bool sync = m.op == trace::Collective::WarpSync;
        float x0 = g.screen_x(item.x0), x1 = g.screen_x(item.x1);
        if (x1 - x0 < tick_w) {
            const float c = (x0 + x1) / 2;
            x0 = c - tick_w / 2;
            x1 = c + tick_w / 2;
        }
        const ImU32 colour = sync ? theme::kWarpSync : theme::kCollective;
        // The lowest open row of a member lane (the warp barrier reaches down to it).
        float bottom = row.bottom();
        for (uint32_t lane = 0; lane < 32; ++lane) {
            if (!(m.mask & (1u << lane))) continue;
            const uint32_t r = lane_row(row.slot, lane);
            if (r != kNoRow) bottom = std::max(bottom, layout_.rows[r].bottom());
        }
        if (sync) {
            // A warp barrier: a bar with caps (an I-beam) from the warp row down to its lowest open
            // member lane, wider than an event tick so that it reads as "the lanes meet here".
            const float w = std::max(tick_w * 1.5f, std::round(g.font * 0.32f));
            const float c = (x0 + x1) / 2;
            const float bx0 = std::min(x0, c - w / 2), bx1 = std::max(x1, c + w / 2);
            const float cap = std::max(2.f, std::round(g.font * 0.14f)), reach = std::round(g.font * 0.3f);
            const float ya = g.screen_y(row.y + row.height * 0.08f), yb = g.screen_y(bottom - row.height * 0.08f);
            dl->AddRectFilled({bx0 - 1, ya - 1}, {bx1 + 1, yb + 1}, IM_COL32(0, 0, 0, 220));
            dl->AddRectFilled({bx0, ya}, {bx1, yb}, colour);
            dl->AddRectFilled({bx0 - reach, ya}, {bx1 + reach, ya + cap}, colour);
            dl->AddRectFilled({bx0 - reach, yb - cap}, {bx1 + reach, yb}, colour);
            continue;
        }
        if (item.count > 1) {
            const float pad = row.height * 0.08f;
            const ImVec2 a{x0, g.screen_y(row.y + pad)}, b{x1, g.screen_y(row.bottom() - pad)};
            dl->AddRectFilled(a, b, colour);
            dl->AddRect({a.x - 1, a.y - 1}, {b.x + 1, b.y + 1}, IM_COL32(0, 0, 0, 200));
            // A few marks at one instant are the tiles of one warp (cg_tiles: a 16-lane shuffle per
            // half warp), not a zoomed-out run: each still shows who read from whom.
            if (item.count <= 4)
                for (uint32_t k = 0; k < item.count; ++k)
                    draw_arrows(index.mark(item.mark + k), row, (x0 + x1) / 2);
            continue;
        }
        const float pad = row.height * 0.12f;
        const float y0 = g.screen_y(row.y + pad), y1 = g.screen_y(row.bottom() - pad);
        dl->AddRectFilled({x0, y0}, {x1, y1}, colour);
        // The lane strip, right of the tick, where the row is free up to the next collective.
        const bool has_next = i + 1 < frame_.collectives.size() && frame_.collectives[i + 1].row == item.row;
        const float next = has_next ? g.screen_x(frame_.collectives[i + 1].x0) : g.time_x1 + strip_w * 2;
        // Room for the next mark, and for a warp barrier's caps, which reach past its bar.
        const bool next_sync =
            has_next && index.mark(frame_.collectives[i + 1].mark).op == trace::Collective::WarpSync;
        const float sx = x1 + 1;
        if (next - sx > strip_w + g.font * (next_sync ? 0.8f : 0.3f) && y1 - y0 >= 6) {
            const bool shfl = m.op == trace::Collective::Shfl;
            const uint32_t top = shfl ? m.gave : m.met;
            const uint32_t low = shfl ? m.received : m.op == trace::Collective::Vote ? m.result : m.met;
            const float ym = std::round((y0 + y1) / 2);
            dl->AddRectFilled({sx, y0}, {sx + strip_w, y1}, dark);
            // One rectangle per run of equal cells inside an 8-lane group (a full mask is 4 per half,
            // not 32: the strips of a zoomed-out trace stay cheap to draw).
            auto half = [&](uint32_t lit, float ya, float yb) {
                for (uint32_t group = 0; group < 4; ++group) {
                    uint32_t lane = group * 8;
                    while (lane < group * 8 + 8) {
                        const uint32_t bit = 1u << lane;
                        const int state = !(m.mask & bit) ? 0 : (lit & bit) ? 2 : 1;
                        uint32_t end = lane + 1;
                        while (end < group * 8 + 8) {
                            const uint32_t b = 1u << end;
                            if ((!(m.mask & b) ? 0 : (lit & b) ? 2 : 1) != state) break;
                            ++end;
                        }
                        if (state != 0) {
                            const float cx0 = sx + float(lane) * cell + float(group);
                            const float cx1 = sx + float(end) * cell + float(group);
                            dl->AddRectFilled({cx0, ya}, {cx1, yb}, state == 2 ? colour : theme::kLaneIdle);
                        }
                        lane = end;
                    }
                }
            };
            half(top, y0, ym - 0.5f);
            half(low, ym + 0.5f, y1);
            dl->AddRect({sx - 1, y0 - 1}, {sx + strip_w + 1, y1 + 1}, scaled(colour, 0.6f));
        }
        draw_arrows(m, row, (x0 + x1) / 2);
    }
    dl->PopClipRect();
}

// [SECTION] Draw: finding marks (race arrows, divergence and deadlock points) ------------------------

// The playhead (PlaybackBar): a vertical line at its time and a ring around each event of the warp
// instruction just passed, on the row that shows its thread.
void TimelineView::draw_playhead(const AppState& state, const Geometry& g) const {
    if (!state.playhead.on(serial_)) return;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->PushClipRect({g.time_x0, g.rows_min.y}, {g.time_x1, g.rows_max.y}, true);
    const float x = g.screen_x(viewport_.x_of(state.playhead.camera_time));
    dl->AddLine({x, g.rows_min.y}, {x, g.rows_max.y}, theme::kPlayhead, std::max(1.5f, g.font * 0.12f));
    const auto& trace = index_->trace();
    uint32_t last_row = kNoRow;
    for (uint32_t e : state.playhead.events) {
        if (e >= trace.events.size()) continue;
        const uint32_t r = layout_.row_of_thread(*index_, trace.events[e].thread);
        if (r == kNoRow || r == last_row) continue; // one ring per row (32 lanes on one warp row)
        last_row = r;
        const TimelineRow& row = layout_.rows[r];
        const float cy = g.screen_y(row.y + row.height / 2);
        const float ex = g.screen_x(viewport_.x_of(index_->to_camera(trace.events[e].time)));
        dl->AddCircle({ex, cy}, std::max(5.f, row.height * 0.45f), theme::kPlayhead, 0, 2.f);
    }
    dl->PopClipRect();
}

void TimelineView::draw_marks(const AppState& state, const Geometry& g) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->PushClipRect({g.time_x0, g.rows_min.y}, {g.time_x1, g.rows_max.y}, true);
    auto point = [&](const ArrowEnd& end) {
        const TimelineRow& row = layout_.rows[end.row];
        return ImVec2{g.screen_x(viewport_.x_of(end.time)), g.screen_y(row.y + row.height / 2)};
    };
    const bool selected = state.selection.selected_finding >= 0;
    const float thickness = std::max(2.5f, g.font * (selected ? 0.26f : 0.2f));
    const float head = std::max(9.f, g.font * 0.8f);

    // Hover: the arrow nearest the mouse within a few pixels.
    float best = std::max(5.f, g.font * 0.4f);
    if (g.mouse_in_time && g.mouse_in_rows) {
        for (size_t i = 0; i < marks_.arrows.size(); ++i) {
            const float d =
                distance_to_segment(g.mouse, point(marks_.arrows[i].from), point(marks_.arrows[i].to));
            if (d < best) {
                best = d;
                hovered_arrow_ = int(i);
            }
        }
    }

    selected_arrow_ = ImVec4(0, 0, 0, 0);
    for (size_t i = 0; i < marks_.arrows.size(); ++i) {
        const FindingArrow& arrow = marks_.arrows[i];
        if (int(arrow.finding) == state.selection.selected_finding && selected_arrow_.x == 0) {
            const ImVec2 a = point(arrow.from), b = point(arrow.to);
            selected_arrow_ = ImVec4(a.x, a.y, b.x, b.y);
        }
        const ImU32 colour =
            arrow.kind == analysis::FindingKind::Race ? theme::kRaceArrow : theme::kLostUpdate;
        const float w = int(i) == hovered_arrow_ ? thickness * 1.6f : thickness;
        const ImVec2 a = point(arrow.from), b = point(arrow.to);
        dl->AddCircleFilled(a, w * 1.4f, colour);
        if (std::fabs(a.y - b.y) < 1 && std::fabs(a.x - b.x) < head * 3) {
            // Both ends on one row and close: an arch above the row, so the arrow stays visible.
            const float lift = layout_.rows[arrow.from.row].height * 0.9f + std::fabs(b.x - a.x) * 0.2f;
            const ImVec2 c1{a.x, a.y - lift}, c2{b.x, b.y - lift};
            dl->AddBezierCubic(a, c1, c2, {b.x, b.y - head * 0.7f}, colour, w);
            arrow_head(dl, b, {0, 1}, head, colour);
        } else {
            const float dx = b.x - a.x, dy = b.y - a.y;
            const float len = std::max(1e-3f, std::sqrt(dx * dx + dy * dy));
            const ImVec2 dir{dx / len, dy / len};
            dl->AddLine(a, {b.x - dir.x * head * 0.8f, b.y - dir.y * head * 0.8f}, colour, w);
            arrow_head(dl, b, dir, head, colour);
        }
    }
    for (const FindingPoint& p : marks_.points) {
        const ImVec2 c = point(p.at);
        const float r = layout_.rows[p.at.row].height * 0.42f;
        // (the kind's look: deadlock and out-of-bounds red, barrier divergence its own)
        const ImU32 colour = theme::finding_mark(p.kind);
        diamond(dl, c, r, colour, IM_COL32(0, 0, 0, 200));
    }
    draw_story_marks(state, g);
    dl->PopClipRect();
}

// Numbered marks that tell what happened, in order: a selected lost update's interleaving (1 load,
// 2 load, 3 store, 4 store: the later store overwrites the earlier one's update), and an explained
// output's story (the racing store, the stale load, the store that left the wrong value).
void TimelineView::draw_story_marks(const AppState& state, const Geometry& g) const {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const auto& trace = index_->trace();
    // The numbers sit on the events; what they mean is one caption at the top of the rows (labels
    // beside the marks would overlap: the four events of a lost update are a few ticks apart).
    // Collected first, then drawn: two marks of one row a tick apart would cover each other's
    // numbers ("13" for 1 and 3), so they are spread apart along the row (spread_marks) with a
    // leader from each moved mark back to its event.
    struct StoryMark {
        ImVec2 at; // the event
        float x = 0; // the disc's centre
        uint32_t row = 0, event = 0;
        const char* number = "";
        ImU32 colour = 0;
    };
    std::vector<StoryMark> marks;
    const float radius = std::max(7.f, g.font * 0.55f);
    auto mark = [&](uint32_t event, const char* number, ImU32 colour) {
        if (event >= trace.events.size()) return;
        const uint32_t r = layout_.row_of_thread(*index_, trace.events[event].thread);
        if (r == kNoRow) return;
        const TimelineRow& row = layout_.rows[r];
        const ImVec2 c{g.screen_x(viewport_.x_of(index_->to_camera(trace.events[event].time))),
                       g.screen_y(row.y + row.height / 2)};
        for (const StoryMark& m : marks)
            if (m.event == event && m.number == number) return; // one event named twice (provenance)
        marks.push_back({c, c.x, r, event, number, colour});
    };
    auto draw_marks = [&] {
        std::vector<uint32_t> rows;
        for (const StoryMark& m : marks)
            if (std::find(rows.begin(), rows.end(), m.row) == rows.end()) rows.push_back(m.row);
        for (uint32_t r : rows) {
            std::vector<size_t> on_row;
            std::vector<float> xs;
            for (size_t i = 0; i < marks.size(); ++i)
                if (marks[i].row == r) {
                    on_row.push_back(i);
                    xs.push_back(marks[i].at.x);
                }
            xs = spread_marks(std::move(xs), radius * 2 + 1);
            for (size_t k = 0; k < on_row.size(); ++k)
                marks[on_row[k]].x = xs[k];
        }
        for (const StoryMark& m : marks) {
            const ImVec2 c{m.x, m.at.y};
            if (m.x - m.at.x > 0.5f) {
                dl->AddLine(m.at, c, m.colour, std::max(1.f, g.font * 0.1f));
                dl->AddCircleFilled(m.at, std::max(2.f, radius * 0.3f), m.colour);
            }
            dl->AddCircleFilled(c, radius, m.colour);
            dl->AddCircle(c, radius, IM_COL32(0, 0, 0, 255), 0, 1.0f);
            const ImVec2 n = ImGui::CalcTextSize(m.number);
            dl->AddText({c.x - n.x / 2, c.y - n.y / 2}, IM_COL32(0, 0, 0, 255), m.number);
        }
    };
    const TimelineText& words = ui_text(shown_language(state)).timeline;
    auto thread_name = [&](uint32_t event) {
        const trace::ThreadInfo& t = trace.threads[trace.events[event].thread];
        return fill(words.story_thread, {std::to_string(t.thread_in_block)});
    };
    std::string caption;
    ImU32 caption_colour = kText;
    const int sel = state.selection.selected_finding;
    if (sel >= 0 && size_t(sel) < resolved_.size() && resolved_[size_t(sel)].steps.size() == 4) {
        const std::vector<uint32_t>& steps = resolved_[size_t(sel)].steps;
        static const char* const numbers[] = {"1", "2", "3", "4"};
        for (size_t i = 0; i < 4; ++i)
            mark(steps[i], numbers[i], theme::kLostUpdate);
        caption = fill(words.story_lost, {thread_name(steps[0]), thread_name(steps[1]), thread_name(steps[2]),
                                          thread_name(steps[3])});
        caption_colour = theme::kLostUpdate;
    }
    const ProvenanceMarks& p = state.provenance;
    if (p.on(serial_) && p.final_store < trace.events.size()) {
        for (size_t i = 0; i < p.stale_loads.size() && i < 4; ++i) {
            if (i < p.racing_stores.size()) mark(p.racing_stores[i], "1", theme::kRaceArrow);
            mark(p.stale_loads[i], "2", theme::kRaceArrow);
        }
        mark(p.final_store, "3", theme::kStore);
        const std::string output = p.output.empty() ? std::string(words.story_the_output) : p.output;
        caption = p.stale_loads.empty() ? fill(words.story_wrote, {thread_name(p.final_store), output})
                                        : fill(words.story_stale, {thread_name(p.stale_loads[0]), output});
        caption_colour = theme::kRaceArrow;
    }
    draw_marks();
    if (caption.empty()) return;
    const ImVec2 t = ImGui::CalcTextSize(caption.c_str());
    const ImVec2 at{g.time_x0 + g.font * 0.4f, g.rows_min.y + g.font * 0.2f};
    dl->AddRectFilled({at.x - 3, at.y - 1}, {at.x + t.x + 3, at.y + t.y + 1}, IM_COL32(10, 10, 14, 235));
    dl->AddRect({at.x - 3, at.y - 1}, {at.x + t.x + 3, at.y + t.y + 1}, caption_colour);
    dl->AddText(at, kText, caption.c_str());
}

// [SECTION] Draw: labels, ruler, legend ---------------------------------------------------------------

void TimelineView::draw_labels(const Geometry& g) const {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->PushClipRect({g.min.x, g.rows_min.y}, {g.time_x0, g.rows_max.y}, true);
    dl->AddLine({g.time_x0 - 1, g.rows_min.y}, {g.time_x0 - 1, g.rows_max.y}, kRowLine);
    const auto& trace = index_->trace();
    char text[64];
    for (uint32_t r = frame_.first_row; r < frame_.last_row; ++r) {
        const TimelineRow& row = layout_.rows[r];
        const float y = g.screen_y(row.y);
        const float cy = y + row.height / 2;
        const float text_y = cy - g.font / 2;
        float x = g.min.x + g.font * 0.4f;
        bool waiting = false;
        ImU32 colour = kText;
        switch (row.kind) {
        case RowKind::Block: {
            const BlockRowInfo& b = index_->blocks()[row.slot];
            disclosure(dl, {x + g.font * 0.4f, cy}, g.font * 0.6f, expansion_.block_open(row.slot), kText);
            std::snprintf(text, sizeof text, "%s",
                          fill(ui_text(language_).timeline.block, {std::to_string(b.block)}).c_str());
            x += g.font * 1.1f;
            waiting = b.waiting;
            break;
        }
        case RowKind::Warp: {
            const WarpRowInfo& w = index_->warps()[row.slot];
            x += g.font * 0.9f;
            disclosure(dl, {x + g.font * 0.35f, cy}, g.font * 0.5f, expansion_.warp_open(row.slot), kTextDim);
            std::snprintf(text, sizeof text, "%s",
                          fill(ui_text(language_).timeline.warp, {std::to_string(w.warp)}).c_str());
            x += g.font * 1.0f;
            waiting = w.waiting;
            break;
        }
        case RowKind::Thread: {
            const ThreadRowInfo& t = index_->thread_rows()[row.slot];
            // Named as the findings name threads ("thread 192 in block 1"), lane beside it.
            const trace::ThreadInfo& info = trace.threads[t.thread];
            std::snprintf(text, sizeof text, "%s",
                          fill(ui_text(language_).timeline.thread_lane,
                               {std::to_string(info.thread_in_block), std::to_string(unsigned(info.lane))})
                              .c_str());
            x += g.font * 2.2f;
            colour = kTextDim;
            waiting = t.waiting;
            break;
        }
        }
        dl->AddText({x, text_y}, colour, text);
        if (waiting) dl->AddCircleFilled({g.time_x0 - g.font * 0.5f, cy}, g.font * 0.22f, theme::kDeadlock);
        dl->AddLine({g.min.x, y + row.height}, {g.time_x0, y + row.height}, kRowLine);
    }
    // A fold: "⋯ warps 1–6" (dots drawn, not a glyph the font may lack) where its rows would be,
    // indented as they would be.
    for (const TimelineFold& f : layout_.folds) {
        if (f.bottom() < viewport_.y0 || f.y > viewport_.y1) continue;
        const float cy = g.screen_y(f.y + f.height / 2);
        const TimelineText& words = ui_text(language_).timeline;
        std::string label;
        if (f.warps > 0) {
            const auto warp = [&](uint32_t slot) { return std::to_string(index_->warps()[slot].warp); };
            label = f.warps == 1
                        ? fill(words.warp, {warp(f.first_warp)})
                        : fill(words.fold_warps, {warp(f.first_warp), warp(f.first_warp + f.warps - 1)});
        }
        if (f.blocks > 0) {
            const auto block = [&](uint32_t slot) { return std::to_string(index_->blocks()[slot].block); };
            if (!label.empty()) label += " \u00b7 ";
            label += f.blocks == 1 ? fill(words.block, {block(f.first_block)})
                                   : fill(words.fold_blocks,
                                          {block(f.first_block), block(f.first_block + f.blocks - 1)});
        }
        float x = g.min.x + g.font * (f.warps > 0 ? 1.3f : 0.4f);
        for (int i = 0; i < 3; ++i)
            dl->AddCircleFilled({x + g.font * (0.15f + 0.3f * float(i)), cy}, std::max(1.f, g.font * 0.08f),
                                kTextDim);
        x += g.font * 1.2f;
        // Smaller where the label column is too narrow for it (a fold of warps and blocks), not cut.
        const float room = g.time_x0 - x - g.font * 0.3f;
        const float wide = ImGui::GetFont()->CalcTextSizeA(g.font, FLT_MAX, 0, label.c_str()).x;
        const float size =
            std::min({g.font, f.height, wide > room ? g.font * std::max(0.7f, room / wide) : g.font});
        dl->AddText(ImGui::GetFont(), size, {x, cy - size / 2}, kTextDim, label.c_str());
    }
    dl->PopClipRect();
}

void TimelineView::draw_ruler(const Geometry& g) const {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 a{g.min.x, g.min.y}, b{g.max.x, g.min.y + g.ruler_h};
    dl->AddRectFilled(a, b, IM_COL32(32, 32, 38, 255));
    dl->AddLine({a.x, b.y - 1}, {b.x, b.y - 1}, kRowLine);
    dl->AddText({a.x + g.font * 0.4f, a.y + (g.ruler_h - g.font) / 2}, kTextDim,
                gpu_time_ ? ui_text(language_).timeline.ruler_ns : ui_text(language_).timeline.ruler_ticks);
    const double ppt = viewport_.px_per_time();
    if (!(ppt > 0)) return;
    dl->PushClipRect({g.time_x0, a.y}, {g.time_x1, b.y}, true);
    char label[48];
    format_time(label, sizeof label, viewport_.range.t1, gpu_time_);
    const float label_w = ImGui::CalcTextSize(label).x;
    const double step = nice_step(std::max(double(label_w + g.font * 2.5f), double(g.font * 6)) / ppt);
    const double minor = step / 5;
    const double first = std::floor(viewport_.range.t0 / minor) * minor;
    // At most width / (step px / 5) + 2 ticks; the cap only guards against a degenerate range.
    for (int k = 0; k < 4096; ++k) {
        const double t = first + k * minor;
        if (t > viewport_.range.t1 + minor) break;
        const float x = g.screen_x(viewport_.x_of(t));
        const bool major = std::fabs(std::remainder(t, step)) < minor * 0.5;
        dl->AddLine({x, b.y - (major ? g.ruler_h * 0.45f : g.ruler_h * 0.2f)}, {x, b.y - 1},
                    major ? kText : kTextDim);
        if (major) {
            format_time(label, sizeof label, std::fabs(t) < minor * 1e-6 ? 0.0 : t, gpu_time_, step);
            dl->AddText({x + 3, a.y + g.font * 0.1f}, kText, label);
        }
    }
    if (index_->deadlocked()) {
        const float x = g.screen_x(viewport_.x_of(index_->to_camera(index_->time_end())));
        const char* what = index_->trace().meta.status == trace::RunStatus::Timeout
                               ? ui_text(language_).timeline.timeout
                               : ui_text(language_).timeline.deadlock;
        const float w = ImGui::CalcTextSize(what).x;
        dl->AddRectFilled({x - w - 6, a.y}, {x, b.y - 1}, IM_COL32(32, 32, 38, 255)); // over tick labels
        dl->AddLine({x, a.y}, {x, b.y}, theme::kDeadlock, 2);
        dl->AddText({x - w - 3, a.y + g.font * 0.1f}, theme::kDeadlock, what);
    }
    dl->PopClipRect();
}

void TimelineView::draw_legend(const Geometry& g) const {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 a{g.min.x, g.rows_max.y}, b{g.max.x, g.max.y};
    dl->AddRectFilled(a, b, IM_COL32(32, 32, 38, 255));
    dl->PushClipRect(a, b, true);
    const float cy = (a.y + b.y) / 2;
    const float s = g.font * 0.7f;
    enum class Mark : uint8_t { Swatch, Arrow, Diamond, Triangle };
    struct Entry {
        Mark mark;
        ImU32 colour;
        Text TimelineText::*label;
        Text TimelineText::*short_label; // when the full legend does not fit (narrow views, presenter fonts)
        bool collectives = false;        // shown only when the trace has warp collectives
    };
    const bool has_collectives = !index_->collectives().empty();
    const TimelineText& words = ui_text(language_).timeline;
    // Most important first: a narrow view clips the tail.
    static constexpr Entry kEntries[] = {
        {Mark::Swatch, theme::kLoad, &TimelineText::legend_load, &TimelineText::short_load},
        {Mark::Swatch, theme::kStore, &TimelineText::legend_store, &TimelineText::short_store},
        // A trace with warp collectives is about them: their entries come before the race's.
        {Mark::Swatch, theme::kCollective, &TimelineText::legend_collective, &TimelineText::short_collective,
         true},
        {Mark::Swatch, theme::kWarpSync, &TimelineText::legend_warp_sync, &TimelineText::short_warp_sync, true},
        {Mark::Arrow, theme::kRaceArrow, &TimelineText::legend_race, &TimelineText::short_race},
        {Mark::Swatch, theme::kBarrierWait, &TimelineText::legend_wait, &TimelineText::short_wait},
        {Mark::Triangle, theme::kDeadlock, &TimelineText::legend_stuck, &TimelineText::short_stuck},
        {Mark::Diamond, theme::kDivergence, &TimelineText::legend_divergence,
         &TimelineText::short_divergence},
        {Mark::Swatch, theme::kAtomic, &TimelineText::legend_atomic, &TimelineText::short_atomic},
        {Mark::Swatch, theme::kFence, &TimelineText::legend_fence, &TimelineText::short_fence},
        {Mark::Swatch, theme::kExit, &TimelineText::legend_exit, &TimelineText::short_exit},
        {Mark::Swatch, theme::kFolded, &TimelineText::legend_folded, &TimelineText::short_folded},
    };
    auto mark_width = [&](Mark m) { return m == Mark::Arrow ? g.font * 2.3f : s + g.font * 0.35f; };
    const float help_w = ImGui::CalcTextSize("(?)").x + g.font * 1.2f;
    float full = g.font * 0.5f;
    for (const Entry& e : kEntries)
        if (!e.collectives || has_collectives)
            full += mark_width(e.mark) + ImGui::CalcTextSize(words.*e.label).x + g.font;
    const bool compact = full > b.x - a.x - help_w;
    // Entries that do not fit whole before the help mark are left out (most important first), so
    // none is cut in the middle of its word.
    const float limit = b.x - help_w;
    float x = a.x + g.font * 0.5f;
    for (const Entry& e : kEntries) {
        if (e.collectives && !has_collectives) continue;
        const char* label = compact ? words.*e.short_label : words.*e.label;
        if (x + mark_width(e.mark) + ImGui::CalcTextSize(label).x > limit) break;
        switch (e.mark) {
        case Mark::Swatch:
            dl->AddRectFilled({x, cy - s / 2}, {x + s, cy + s / 2}, e.colour);
            break;
        case Mark::Arrow:
            dl->AddLine({x, cy}, {x + g.font * 1.4f, cy}, e.colour, std::max(2.5f, g.font * 0.2f));
            arrow_head(dl, {x + g.font * 1.9f, cy}, {1, 0}, g.font * 0.6f, e.colour);
            break;
        case Mark::Diamond:
            diamond(dl, {x + s / 2, cy}, s / 2, e.colour, IM_COL32(0, 0, 0, 200));
            break;
        case Mark::Triangle:
            dl->AddTriangleFilled({x, cy}, {x + s, cy - s / 2}, {x + s, cy + s / 2}, e.colour);
            break;
        }
        x += mark_width(e.mark);
        dl->AddText({x, cy - g.font / 2}, kText, label);
        x += ImGui::CalcTextSize(label).x + (compact ? g.font * 0.6f : g.font);
    }
    dl->PopClipRect();

    // "About this view": always there, on the right of the legend.
    const char* help = "(?)";
    const ImVec2 hs = ImGui::CalcTextSize(help);
    const ImVec2 hp{b.x - hs.x - g.font * 0.6f, cy - hs.y / 2};
    const bool over =
        hovered_ && g.mouse.x >= hp.x && g.mouse.x <= hp.x + hs.x && g.mouse.y >= a.y && g.mouse.y <= b.y;
    dl->AddRectFilled({hp.x - 3, a.y + 1}, {b.x, b.y}, IM_COL32(32, 32, 38, 255));
    dl->AddText(hp, over ? kText : kTextDim, help);
    if (over) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(g.font * 30);
        ImGui::TextUnformatted(ui_text(language_).timeline.tip_about);
        ImGui::Separator();
        ImGui::TextUnformatted(ui_text(language_).timeline.tip_keys);
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
    }
}

// [SECTION] Tooltips -----------------------------------------------------------------------------------

void TimelineView::draw_tooltip(AppState& state, const Geometry& g) {
    // Hovered events drive the cross-view highlight (source view shows the line).
    uint32_t line = 0, site = UINT32_MAX;
    const auto& trace = index_->trace();
    char buf[64];
    const TimelineText& words = ui_text(language_).timeline;
    // Event kinds as the timeline names them: "barrier arrive" / "到达屏障".
    auto event_words = [&](EventKind kind) {
        return language_ == Language::Zh ? std::string(event_kind_words(kind, language_)) : kind_name(kind);
    };
    auto thread_line = [&](uint32_t thread) {
        ImGui::TextUnformatted(
            trace::thread_name(trace, thread, trace::ThreadDetail::Lane, language_).c_str());
    };
    // One time base everywhere: the ruler's (from the trace's first event), never raw trace time.
    auto time_line = [&](const char* what, uint64_t t) {
        format_time(buf, sizeof buf, index_->to_camera(t), gpu_time_);
        ImGui::TextUnformatted(fill(words.tip_time, {what, buf}).c_str());
    };
    auto event_details = [&](uint32_t index) {
        const Event& e = trace.events[index];
        const bool memory = e.is_memory_access();
        if (memory) {
            ImGui::TextUnformatted(
                fill(words.tip_access,
                     {event_words(e.kind), space_words(e.space(), language_), std::to_string(e.size()),
                      e.is_volatile() ? words.tip_volatile.s : ""})
                    .c_str());
        } else {
            ImGui::TextUnformatted(event_words(e.kind).c_str());
        }
        thread_line(e.thread);
        if (e.site < trace.sites.size()) {
            const trace::Site& s = trace.sites[e.site];
            if (!s.text.empty()) ImGui::TextColored(ImVec4(0.8f, 0.85f, 1.f, 1.f), "%s", s.text.c_str());
            if (s.source_line) {
                ImGui::TextUnformatted(
                    fill(words.tip_cuda_ptx, {std::to_string(s.source_line), std::to_string(s.ptx_line)})
                        .c_str());
                if (!s.origin.empty()) ImGui::TextUnformatted(site_origin_text(s, language_).c_str());
            } else {
                ImGui::TextUnformatted(fill(words.tip_ptx, {std::to_string(s.ptx_line)}).c_str());
            }
        }
        if (memory) {
            // The memory as the source names it ("s_tile[159]"), its address where nothing does.
            const std::string memory =
                trace::memory_name(trace, e.space(), e.address, trace::access_size(trace, e.site), language_);
            ImGui::TextUnformatted(fill(words.tip_address, {memory, event_value(trace, e)}).c_str());
        } else if (e.kind == EventKind::BarrierArrive || e.kind == EventKind::BarrierLeave) {
            ImGui::TextUnformatted(
                fill(words.tip_barrier, {std::to_string(e.address), std::to_string(e.value)}).c_str());
        } else if (e.kind == EventKind::WarpCollective) {
            const CollectiveText& cw = ui_text(language_).collective;
            const uint32_t source = uint32_t(e.address >> 32);
            const auto op = static_cast<trace::Collective>(e.flags & trace::flag::kCollectiveMask);
            ImGui::TextUnformatted(
                fill(cw.lane_event, {trace::to_string(op), trace::format_hex(uint32_t(e.address)),
                                     trace::format_hex(e.value),
                                     source < 32 ? fill(cw.from_lane, {std::to_string(source)}) : ""})
                    .c_str());
        }
        time_line(words.tip_at, e.time);
    };

    if (hovered_arrow_ >= 0) {
        const FindingArrow& arrow = marks_.arrows[size_t(hovered_arrow_)];
        const analysis::Finding& f = (*findings_)[arrow.finding];
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(g.font * 32);
        ImGui::TextColored(ImColor(theme::kRaceArrow), "%s %s", kind_words(f.kind, language_, false).c_str(),
                           analysis::to_string(f.hazard));
        ImGui::TextUnformatted(finding_message(f, trace, "", language_).c_str());
        ImGui::Separator();
        ImGui::TextUnformatted(words.tip_first_access);
        event_details(arrow.from.event);
        ImGui::Separator();
        ImGui::TextUnformatted(words.tip_second_access);
        event_details(arrow.to.event);
        ImGui::TextDisabled("%s", words.tip_click_select.s);
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
        const Event& e = trace.events[arrow.to.event];
        site = e.site;
        line = trace.kernel_file_line(e);
    } else if (hit_.what == Hit::What::Event) {
        const EventItem& item = frame_.events[hit_.item];
        const Event& e = trace.events[item.event];
        ImGui::BeginTooltip();
        if (item.count > 1) {
            if (item.uniform) {
                ImGui::TextUnformatted(
                    fill(words.tip_events, {std::to_string(item.count), event_words(item.kind)}).c_str());
            } else {
                ImGui::TextUnformatted(fill(words.tip_folded, {std::to_string(item.count)}).c_str());
            }
            time_line(words.tip_from, e.time);
            time_line(words.tip_to, trace.events[item.last].time);
            ImGui::Separator();
            ImGui::TextDisabled("%s", words.tip_first_of_them.s);
        }
        event_details(item.event);
        ImGui::EndTooltip();
        site = e.site;
        line = trace.kernel_file_line(e);
    } else if (hit_.what == Hit::What::Collective) {
        const CollectiveItem& item = frame_.collectives[hit_.item];
        const CollectiveMark& m = index_->collectives().mark(item.mark);
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(g.font * 32);
        if (item.count > 1) {
            ImGui::TextUnformatted(fill(words.tip_collectives, {std::to_string(item.count)}).c_str());
            ImGui::Separator();
            ImGui::TextDisabled("%s", words.tip_first_of_them.s);
        }
        const std::vector<std::string> lines = describe_collective(trace, index_->collectives(), m, language_);
        for (size_t k = 0; k < lines.size(); ++k) {
            if (k == 0)
                ImGui::TextColored(ImColor(m.op == trace::Collective::WarpSync ? theme::kWarpSync
                                                                               : theme::kCollective),
                                   "%s", lines[k].c_str());
            else if (k == 1 && m.site < trace.sites.size() && lines[k] == trace.sites[m.site].text)
                ImGui::TextColored(ImVec4(0.8f, 0.85f, 1.f, 1.f), "%s", lines[k].c_str());
            else
                ImGui::TextUnformatted(lines[k].c_str());
        }
        if (m.site < trace.sites.size()) {
            const trace::Site& s = trace.sites[m.site];
            ImGui::TextUnformatted((s.source_line ? fill(words.tip_cuda_ptx, {std::to_string(s.source_line),
                                                                              std::to_string(s.ptx_line)})
                                                  : fill(words.tip_ptx, {std::to_string(s.ptx_line)}))
                                       .c_str());
            if (s.source_line && !s.origin.empty())
                ImGui::TextUnformatted(site_origin_text(s, language_).c_str());
        }
        time_line(words.tip_from, m.t0);
        if (m.t1 != m.t0) time_line(words.tip_to, m.t1);
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
        site = m.site;
        line = m.site < trace.sites.size() ? trace.sites[m.site].kernel_file_line() : 0;
    } else if (hit_.what == Hit::What::Wait) {
        const SpanItem& s = frame_.waits[hit_.item];
        const TimelineRow& row = layout_.rows[s.row];
        const WaitSpan& w = row_spans_level(*index_, row.kind).spans[s.span];
        ImGui::BeginTooltip();
        if (w.barrier == kUnrecordedBarrier)
            ImGui::TextUnformatted(words.tip_waiting_unrecorded);
        else
            ImGui::TextUnformatted(fill(words.tip_waiting, {std::to_string(w.barrier), std::to_string(w.phase),
                                                            s.count > 1 ? words.tip_several.s : ""})
                                       .c_str());
        if (row.kind != RowKind::Thread)
            ImGui::TextUnformatted(fill(words.tip_threads_waited, {std::to_string(w.threads)}).c_str());
        if (w.site < trace.sites.size()) {
            const trace::Site& site_info = trace.sites[w.site];
            ImGui::TextUnformatted(
                fill(words.tip_site, {site_info.text, std::to_string(site_info.source_line),
                                      std::to_string(site_info.ptx_line)})
                    .c_str());
            if (site_info.source_line && !site_info.origin.empty())
                ImGui::TextUnformatted(site_origin_text(site_info, language_).c_str());
        }
        time_line(words.tip_from, w.t0);
        if (w.open) {
            ImGui::TextColored(ImColor(theme::kDeadlock), "%s", words.tip_never_released.s);
        } else {
            time_line(words.tip_to, w.t1);
        }
        ImGui::EndTooltip();
        site = w.site;
        line = w.site < trace.sites.size() ? trace.sites[w.site].kernel_file_line() : 0;
    } else if (g.mouse_in_labels) {
        const uint32_t r = layout_.row_at(g.mouse.y - g.rows_min.y + scroll_);
        if (layout_.fold_at(g.mouse.y - g.rows_min.y + scroll_) != nullptr) {
            ImGui::SetTooltip("%s", words.tip_fold.s);
        } else if (r != kNoRow && layout_.rows[r].kind == RowKind::Thread) {
            const uint32_t thread = index_->thread_rows()[layout_.rows[r].slot].thread;
            ImGui::BeginTooltip();
            thread_line(thread);
            ImGui::TextUnformatted(
                fill(words.tip_ended, {thread_end_words(trace.threads[thread].end, language_)}).c_str());
            ImGui::EndTooltip();
        } else if (r != kNoRow) {
            ImGui::SetTooltip(
                "%s",
                (layout_.rows[r].kind == RowKind::Block ? words.tip_click_warps : words.tip_click_lanes).s);
        }
    }

    if (site != UINT32_MAX) {
        state.selection.hovered_line = line;
        state.selection.hovered_site = site;
        set_hover_ = true;
    } else if (set_hover_) {
        state.selection.hovered_line = 0;
        state.selection.hovered_site = UINT32_MAX;
        set_hover_ = false;
    }
}

} // namespace synclab::ui
