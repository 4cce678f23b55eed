// Run controls: backend, schedule, seed, repetitions, Run / Run side by side / Cancel, and the progress
// of the run in flight. Edits state.controls and raises state.requests; the App does the running.
#pragma once

#include "ui/core/app_state.h"

#include <imgui.h>

#include <string>

namespace synclab::ui {

class RunPanel {
  public:
    // Draws into the current window.
    void draw(AppState& state);
    // Whether the GPU backend may be chosen; when it may not, `why_not` says why (next to the
    // disabled entry). Until the App says otherwise: not available, "the GPU runner is not built yet".
    void set_gpu_backend(bool available, std::string why_not = {});

    // Screen rectangle (min x, min y, max x, max y) of the "GPU unavailable: why" note drawn in the
    // last frame, for the App's layout regions; all zero when it was not drawn.
    const ImVec4& unavailable_note_rect() const { return note_rect_; }

  private:
    struct GpuBackend {
        bool available = false;
        std::string why_not = "the GPU runner is not built yet";
    };
    void draw_backend(AppState& state);
    void draw_gpu_options(AppState& state) const;

    GpuBackend gpu_;
    ImVec4 note_rect_{0, 0, 0, 0};
};

// After a run the step budget stopped (a loop that may never end), for the selected variant: a button
// that raises the budget tenfold and runs again (the run panel's Step budget field holds the value).
// The lesson panel shows it under the run's outcome too. Nothing otherwise.
void draw_raise_step_budget(AppState& state);

} // namespace synclab::ui
