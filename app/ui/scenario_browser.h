// The scenario browser: the catalog grouped by topic, each scenario a tree node with its variants and
// the badge of each variant's last run. Clicking a variant selects it (state.scenario/variant).
#pragma once

#include "ui/app_state.h"

namespace synclab::ui {

class ScenarioBrowser {
  public:
    // Draws into the current window.
    void draw(AppState& state);

  private:
    void draw_variant(AppState& state, const scenario::Scenario& s, const scenario::Variant& v);

    // The variant last seen selected: when the selection changes from outside (a script, a key, the
    // lesson panel), its scenario's node is opened once so that the selection is visible.
    const scenario::Variant* seen_variant_ = nullptr;
};

} // namespace synclab::ui
