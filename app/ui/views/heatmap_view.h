// The Heatmap view: the current run's atomics as a heatmap drawn by the heatmap shader (HeatmapRenderer):
// contention by address x time, latency by block x thread, latency by SM x warp (heatmap_model.h
// builds the grids). A colour legend with units, a tooltip naming the hovered cell and its value,
// wheel zoom, drag pan, double-click reset. The grids are built once per record and mode; a zoom of
// the contention map re-bins its time axis (cheap: ContentionIndex::bin); nothing else is redone
// per frame.
#pragma once

#include "ui/core/app_state.h"
#include "ui/core/heatmap_model.h"
#include "ui/views/heatmap_renderer.h"

#include <imgui.h>

#include <future>
#include <memory>
#include <string>
#include <vector>

namespace synclab::ui {

enum class HeatmapMode : uint8_t { Contention, BlockThread, SmWarp };

class HeatmapView {
  public:
    // The current run, on one colour scale with the ladder's variants where the ladder of its lesson
    // (and parameters) has run.
    void draw(AppState& state);
    // `record`, on one colour scale with `together` (the peaks of the runs shown with it; `note` says
    // which, "" for none).
    void draw(AppState& state, const std::shared_ptr<const RunRecord>& record, const std::vector<HeatPeaks>& together,
              const std::string& note);
    // Builds `record`'s grids if they are not built yet (draw does it too): another view may need
    // its peaks before or without drawing it.
    void prepare(const std::shared_ptr<const RunRecord>& record);
    // The prepared run's peaks (false while there is none, or its grids are being built).
    bool peaks(HeatPeaks& out) const;

    HeatmapMode mode() const { return mode_; }
    // Draw with `other`'s mode, value and scale and without controls of its own (compare mode's
    // upper map follows the lower one's controls).
    void follow(const HeatmapView& other) {
        mode_ = other.mode_;
        value_ = other.value_;
        log_scale_ = other.log_scale_;
        controls_ = false;
    }
    void set_mode(HeatmapMode mode) { mode_ = mode; }
    void set_log_scale(bool on) { log_scale_ = on; }
    // Screen rectangles (x0, y0, x1, y1) of the cells and of the legend drawn last frame (zero: none).
    ImVec4 cells_rect() const { return cells_rect_; }
    ImVec4 legend_rect() const { return legend_rect_; }
    // The shader's error where it failed ("" otherwise), for the layout file.
    std::string renderer_error() const { return renderer_ ? renderer_->error() : std::string(); }

  private:
    void rebuild(const std::shared_ptr<const RunRecord>& record);
    void draw_controls(const AppState& state);
    void draw_map(const AppState& state, const RunRecord& record);
    void draw_legend(const AppState& state, ImVec2 at, ImVec2 size, float lo, float hi, const char* unit);
    void tooltip(const AppState& state, const RunRecord& record, uint32_t row, uint32_t col);
    std::string row_label(const AppState& state, uint32_t row) const;
    void handle_zoom(ImVec2 p0, ImVec2 size);
    void reset_zoom();

    std::vector<HeatPeaks> together_; // the other runs shown with this one: one colour scale
    bool controls_ = true;
    std::string scale_note_;

    HeatmapMode mode_ = HeatmapMode::Contention;
    ContentionValue value_ = ContentionValue::Operations;
    bool log_scale_ = false;

    // Built for one record: small traces at once, big ones (kAsyncEvents and more) on a thread of
    // their own (2 s of CPU at 10 M events) while the view says it is preparing them.
    static constexpr size_t kAsyncEvents = 500'000;
    struct Built {
        ContentionIndex contention;
        ThreadLatencies latencies;
        HeatGrid block_thread, sm_warp;
        std::vector<uint32_t> sm_warp_ids;
    };
    static Built build(std::shared_ptr<const RunRecord> record);
    void adopt(Built built);
    uint64_t serial_ = 0;
    std::shared_ptr<const RunRecord> record_; // the run the rows are of (their names come from its trace)
    std::future<Built> pending_;
    ContentionIndex contention_;
    ThreadLatencies latencies_;
    HeatGrid block_thread_, sm_warp_;
    std::vector<uint32_t> sm_warp_ids_;
    // The contention grid for the time range in view.
    HeatGrid contention_grid_;
    struct BinKey {
        double t0 = 0, t1 = 0;
        uint32_t cols = 0;
        ContentionValue value = ContentionValue::Operations;
        uint64_t serial = 0;
        bool operator==(const BinKey&) const = default;
    } bin_key_;
    // What the renderer holds.
    const HeatGrid* uploaded_ = nullptr;
    uint64_t uploaded_version_ = 0, version_ = 0;

    // View window: contention: [t0, t1) of time; latency grids: [u0, u1) x [v0, v1) of the grid.
    double t0_ = 0, t1_ = 0;
    double u0_ = 0, u1_ = 1, v0_ = 0, v1_ = 1;

    std::unique_ptr<HeatmapRenderer> renderer_;
    ImVec4 cells_rect_{0, 0, 0, 0}, legend_rect_{0, 0, 0, 0};
};

} // namespace synclab::ui
