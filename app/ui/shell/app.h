// The SyncLab desktop app: owns the AppState and the views, lays them out, turns requests into
// actions (runs, files, screenshots) and handles the keyboard. One App per Shell.
//
// Frame contract (main.cpp and the scripted mode drive it the same way):
//   app.before_frame();  shell.begin_frame();  app.frame();  shell.render();  app.after_render();
//   shell.present();
// before_frame() may rebuild the font atlas (presenter mode), which ImGui allows only between frames;
// after_render() saves PNGs, which needs the finished back buffer before the swap.
#pragma once

#include "ui/core/app_state.h"
#include "ui/views/barrier_excerpt.h"
#include "ui/views/callout_view.h"
#include "ui/views/findings_panel.h"
#include "ui/shell/fonts.h"
#include "ui/views/heatmap_view.h"
#include "ui/views/help_overlay.h"
#include "ui/views/ladder_view.h"
#include "ui/views/residency_view.h"
#include "ui/views/lesson_panel.h"
#include "ui/shell/normal_layout.h"
#include "ui/views/outcomes_view.h"
#include "ui/views/output_grid.h"
#include "ui/views/playback_bar.h"
#include "ui/views/run_panel.h"
#include "ui/views/scenario_browser.h"
#include "ui/model/run_director.h"
#include "ui/model/settings.h"
#include "ui/views/shared_memory_view.h"
#include "ui/views/source_view.h"
#include "ui/model/timeline_model.h"
#include "ui/views/timeline_view.h"

#include <imgui.h>

#include <map>
#include <memory>
#include <string>

namespace synclab::ui {

class Shell;

struct AppOptions {
    // Read settings.ini at start and write it on change. The scripted mode turns this off so that a
    // screenshot depends only on its command line, and tests never touch the user's settings.
    bool remember_settings = true;
    std::string settings_file; // "" = settings_path()
};

// Screen rectangles of the app's regions in the last frame (pixels, top-left origin), by name:
// "browser" (and "browser_selected": the selected variant's row), "run_panel", "lesson", "source", "findings", "timeline" (or "timeline_left" and
// "timeline_right" in compare mode), "timeline_rows" ("timeline_left_rows", "timeline_right_rows":
// the rows without the legend), "header" and "callout" (presenter mode), "status", "error_modal",
// "gpu_reason" (the run panel's "GPU unavailable: why" note, where it is drawn), "source_column" (the CUDA
// column's visible part), "source_code" (its widest code line), "lesson_look_at" and "lesson_fix" (the
// lesson's sections after a run), "output_grid" (the output grid beside the findings, where the run
// checked outputs), "output_cells" (its cells' visible part), "findings_selected_row" (the first line of
// the selected finding's row, where it is laid out) and "timeline_header" ("timeline_left_header",
// "timeline_right_header": the text over a timeline, all its lines), "outcomes" (the outcomes tab's
// content) and "outcomes_table" (its histogram table, where it is drawn), "heatmap" (the heatmap tab),
// "heatmap_cells" and "heatmap_legend" (its shader-drawn cells and its colour legend), "ladder" and
// "ladder_bars" (the ladder tab and its bars), "residency", "residency_rows" and "residency_never" (the
// residency tab, its SM rows and its block strip with the never-started words). Written by the scripted mode's
// --layout for the GUI tests.
// Also "window" (the whole window: nothing may lie outside it), "run_panel_content" (the
// run panel's content as laid out, its Run button last), before a run "predict_question",
// "predict_choices", "predict_run" and "predict_variant" (the question, the choices, the Run button, the
// variant's own text once revealed), and "findings_list" (the findings list's visible rows),
// "findings_row_N" (finding N's row, where it is laid out) and "findings_detail" (the selected finding's
// whole sentence under the list).
struct Region {
    float x = 0, y = 0, w = 0, h = 0;
};
using RegionMap = std::map<std::string, Region>;

class App {
  public:
    App(Shell& shell, AppOptions options);
    ~App();
    App(const App&) = delete;
    App& operator=(const App&) = delete;

    // Once, after the shell opened: fonts, style, settings, the first selection.
    void init();

    void before_frame();
    void frame();
    void after_render();

    AppState& state() { return state_; }
    HeatmapView& heatmap_view() { return heatmap_; }
    const RegionMap& regions() const { return regions_; }
    const FindingsPanel& findings_panel() const { return findings_; }

    // Selects a scenario and variant ("" = its first). Returns false with a message listing what
    // exists when there is no such scenario or variant.
    bool select(const std::string& scenario_id, const std::string& variant_id, std::string& error);

    // Finished jobs (runs, loaded files) so far, errors included: the scripted mode waits on it.
    uint64_t jobs_finished() const { return director_.jobs_finished(); }
    bool busy() const { return director_.busy(); }
    // The start-up GPU probe has not answered yet (state().gpu says what it found once it has).
    bool gpu_probing() const { return state_.gpu.probing; }
    // The last error from a job (e.g. a damaged .slt), "" when the last job succeeded.
    const std::string& last_job_error() const { return director_.last_job_error(); }

  private:
    // [SECTION] helpers, in app.cpp's order
    void apply_style();
    void apply_fonts();
    float wanted_font_scale() const;
    void handle_keys();
    void step_scenario(int delta);
    void step_variant(int delta);
    void step_finding(int delta); // ] / [ and, in presenter mode, PgDn / PgUp
    void toggle_compare();

    void draw_menu_bar();
    void draw_normal_layout(ImVec2 size);
    void draw_presenter_layout(ImVec2 size);
    void draw_centre_tabs(ImVec2 size);
    void draw_findings_row(ImVec2 size); // the findings and the output grid beside them
    bool begin_view_tab(View view, const char* label, const char* id);
    void draw_heatmap_tab();
    void draw_heatmaps();
    void draw_ladder_tab();
    void draw_residency_tab();
    void note_residency_regions();
    void draw_timelines(ImVec2 size, bool stacked);
    void draw_timeline_header(const RunRecord& record, bool short_label, const char* region);
    void draw_timeline_header_text(const RunRecord& record, bool short_label);
    void draw_status_line();
    void draw_file_modal();
    void draw_error_modal();
    void note_region(const char* name);
    void note_source_columns(); // "source_column" and "source_code": see SourceView::cuda_code()

    void handle_requests();
    void focus_finding(int index);
    void remember_settings();

    Shell& shell_;
    AppOptions options_;
    AppState state_;
    Fonts fonts_;
    RunDirector director_{state_}; // the runs, the GPU probe, which run is current

    ScenarioBrowser browser_;
    RunPanel run_panel_;
    LessonPanel lesson_;
    SourceView source_;
    BarrierExcerpt barrier_excerpt_; // presenter compare: the correct run's barrier over the source
    FindingsPanel findings_;
    OutputGrid output_grid_;
    OutcomesView outcomes_;
    HeatmapView heatmap_;
    HeatmapView heatmap_compare_; // compare mode: the left-hand run's map, above heatmap_'s
    LadderView ladder_;
    ResidencyView residency_;
    TimelineView timeline_;
    PlaybackBar playback_; // steps through the current record (the main timeline's)
    SharedMemoryView shared_memory_;
    TimelineView compare_left_view_;
    TimelineView compare_right_view_;
    HelpOverlay help_;
    CalloutView callout_;

    NormalLayout layout_; // the normal layout's sizes and splitters

    // The fonts/style currently built, to notice when presenter mode changes.
    bool built_presenter_ = false;
    float built_scale_ = 0;
    View seen_view_ = View::Lesson;
    int presenter_scroll_ = 0; // PageUp (-1) / PageDown (+1) without findings: scroll the lesson
    bool select_tab_ = true;   // apply state.focus_view to the lesson/source tabs this frame
    View shown_tab_ = View::Lesson;

    // File dialog (an ImGui modal: no OS dialog dependency).
    enum class FileAction : uint8_t { None, Open, Save, Export, Png };
    FileAction file_action_ = FileAction::None;
    bool file_modal_open_requested_ = false;
    char file_path_[1024] = {};

    // A PNG to save after the next frame is rendered (so that the menu or modal that asked is gone).
    std::string pending_png_;
    int pending_png_frames_ = 0;

    Settings saved_settings_;
    std::string settings_file_;
    // "GPU unavailable (...): ran on the simulator": said before the next run's result, because the
    // result replaces the status line and the reason must not vanish with it.
    RegionMap regions_;
};

} // namespace synclab::ui
