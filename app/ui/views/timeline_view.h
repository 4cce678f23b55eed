// The timeline: every thread's loads, stores, atomics, barrier waits and exits against time, block ->
// warp -> lane rows, with race arrows between the two accesses of a race. Draws only what
// preprocess() (timeline_model.h) emits for the pixels on screen, so a frame costs the same for
// 10 k or 10 M events.
//
// Interaction: wheel zooms around the cursor (Shift+wheel or wheel over the labels scrolls rows),
// drag pans (time and rows), F fits, double-click on a folded mark zooms into it, click a label to
// open or close a block or warp, click a race arrow to select its finding.
//
// Compare mode: two views drawn with the same TimelineCamera stay in sync because both read and
// write that one camera (camera time is relative to each trace's first event). A fit request is
// taken by the first view drawn in the frame; a second view drawn with the same camera (under the
// same top-level window) in that frame widens the range to cover its own trace too.
#pragma once

#include "ui/core/app_state.h"
#include "ui/model/timeline_model.h"

#include <imgui.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace synclab::ui {

class TimelineView {
  public:
    // Draws into the current window, in a child region of `size` (ImGui semantics: 0 = fill,
    // negative = fill minus). `camera` is read and written (zoom, pan, fit and focus requests).
    // Sets state.selection.hovered_line / hovered_site while an event is under the mouse, and
    // state.selection.selected_finding / finding_lines when a race arrow is clicked.
    void draw(AppState& state, const RunRecord& record, TimelineCamera& camera, const char* id, ImVec2 size);

    // The camera range that frames finding `finding` of `record` (its two accesses for a race); the
    // App sets camera.focus_t0/focus_t1 to it when asked to focus a finding. Uses the cached index
    // when `record` is the one drawn last, else builds one.
    TimeRange focus_range_for(const RunRecord& record, int finding);
    // Zooms `camera` to finding `finding` of `record` (focus_range_for) and, on this view's next draw,
    // opens the rows of the finding's threads (their blocks; the warp's lanes when both threads share
    // a warp) and scrolls them into the middle of the view. For Requests::focus_finding.
    void focus_finding(const RunRecord& record, int finding, TimelineCamera& camera);
    // On this view's next draw of `record`: opens block `block` (linear index) and the lane rows of its
    // warp `warp`, and scrolls the warp row near the top, as a click on both labels would (the
    // scripted mode's --open-warp; a shuffle's source-lane arrows need the lanes open). False when
    // the trace has no such warp.
    bool open_warp(const RunRecord& record, uint32_t block, uint32_t warp);
    // The whole trace of the record drawn last, with a margin ([0, 1] before the first draw).
    TimeRange fit_range() const;

    // For tests and the benchmark: what the last draw() used and emitted.
    const TimelineIndex* index() const { return index_.get(); }
    const TimelineFrame& frame() const { return frame_; }
    const TimelineLayout& layout() const { return layout_; }
    const Viewport& viewport() const { return viewport_; }
    // Screen position of frame x = 0, layout y = 0 (scroll applied): an item's screen point is
    // rows_origin() + (x, row.y + row.height / 2).
    ImVec2 rows_origin() const { return rows_origin_; }
    const TimelineExpansion& expansion() const { return expansion_; } // which rows are open
    TimelineExpansion& edit_expansion() { // to change them (the layout follows on the next draw)
        rows_changed();
        return expansion_;
    }
    // Compare mode: this view and `other` show the same rows. Whichever one's rows changed since the
    // last call (a click on a label, a focused finding's pinned threads) is copied to the other, so
    // expanding a block in one pane expands it in the other; both share one camera, hence one scroll.
    // Call once a frame after drawing both.
    void share_rows(TimelineView& other);
    bool hovered() const { return hovered_; }
    // The selected finding's arrow as last drawn, screen pixels (from x, from y, to x, to y: where the
    // first access's disc and the second access's arrowhead are, whether or not they were in sight);
    // all zero when it drew none.
    ImVec4 selected_arrow() const { return selected_arrow_; }
    // Last frame's rows area right of the labels, between the ruler and the legend (x0, y0, x1, y1):
    // where marks are drawn (clipped to it).
    ImVec4 marks_rect() const { return marks_rect_; }
    // The legend strip under the rows (on by default). Two views stacked in presenter mode's compare
    // share the lower one's: the upper one's rows get the room.
    void show_legend(bool on) { legend_ = on; }
    bool legend() const { return legend_; }

  private:
    struct Geometry; // screen rectangles of one frame (timeline_view.cpp)

    void update_cache(const RunRecord& record);
    void update_layout(float font_size);
    void apply_camera_requests(TimelineCamera& camera);
    void reveal_threads(TimelineCamera& camera, float rows_height, float font_size);
    void reveal_warp(TimelineCamera& camera, float rows_height, float font_size);
    void handle_input(AppState& state, TimelineCamera& camera, const Geometry& g);
    void draw_rows(const AppState& state, const Geometry& g) const;
    void draw_wait_label(ImDrawList* dl, const WaitSpan& w, ImVec2 a, ImVec2 b, float font) const;
    void draw_collectives(const Geometry& g) const;
    void draw_marks(const AppState& state, const Geometry& g);
    void draw_playhead(const AppState& state, const Geometry& g) const;
    void draw_story_marks(const AppState& state, const Geometry& g) const;
    void follow_provenance(const AppState& state, TimelineCamera& camera);
    void draw_labels(const Geometry& g) const;
    void draw_ruler(const Geometry& g) const;
    void draw_legend(const Geometry& g) const;
    void draw_tooltip(AppState& state, const Geometry& g);

    // Cache per trace (RunRecord::serial and the trace's address: serials may repeat in tests).
    uint64_t serial_ = UINT64_MAX;
    const trace::Trace* trace_ = nullptr;
    size_t event_count_ = 0;
    std::unique_ptr<TimelineIndex> index_;
    std::vector<FindingEvents> resolved_; // per finding of the record
    const std::vector<analysis::Finding>* findings_ = nullptr;
    bool gpu_time_ = false;            // times are ns (GPU) rather than simulator ticks
    Language language_ = Language::En; // of the words drawn (ui_text.h), set by draw()

    // Rows
    std::vector<uint32_t> reveal_; // threads to open and scroll to on the next draw
    uint64_t reveal_serial_ = 0;
    struct OpenWarp {
        uint64_t serial = 0;
        uint32_t block = 0, warp = 0;
    };
    std::optional<OpenWarp> open_warp_; // open_warp(): to open on the next draw
    std::pair<uint64_t, uint32_t> provenance_seen_{0, 0}; // (serial, final store) last followed
    TimelineExpansion expansion_;
    uint64_t rows_version_ = 0, rows_shared_ = 0; // changes to expansion_; the last one shared
    void rows_changed() {
        layout_dirty_ = true;
        ++rows_version_;
    }
    RowMetrics metrics_;
    TimelineLayout layout_;
    bool layout_dirty_ = true;

    // This frame
    Viewport viewport_;
    TimelineFrame frame_;
    FindingMarks marks_;
    float scroll_ = 0; // the camera's scroll, clamped to this view's rows
    ImVec2 rows_origin_{0, 0};
    Hit hit_;
    int hovered_arrow_ = -1; // index into marks_.arrows
    ImVec4 selected_arrow_{0, 0, 0, 0};
    ImVec4 marks_rect_{0, 0, 0, 0};
    bool hovered_ = false;
    bool set_hover_ = false; // this view set selection.hovered_* last frame
    bool legend_ = true;
};

} // namespace synclab::ui
