// Run controls: backend, schedule, seed, repetitions, Run / Run side by side / Cancel, and the progress
// of the run in flight. Edits state.controls and raises state.requests; the App does the running.
#pragma once

#include "ui/app_state.h"

#include <string>

namespace synclab::ui {

class RunPanel {
  public:
    // Draws into the current window.
    void draw(AppState& state);
    // Whether the GPU backend may be chosen; when it may not, `why_not` says why (next to the
    // disabled entry). Until the App says otherwise: not available, "the GPU runner is not built yet".
    void set_gpu_backend(bool available, std::string why_not = {});

  private:
    struct GpuBackend {
        bool available = false;
        std::string why_not = "the GPU runner is not built yet";
    };
    void draw_backend(AppState& state) const;

    GpuBackend gpu_;
};

} // namespace synclab::ui
