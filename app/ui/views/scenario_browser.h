// The scenario browser: the catalog grouped by topic (then the lessons of a teacher's folder under a
// heading of their own), each scenario a tree node with its variants and the badge of each variant's
// last run. Clicking a variant selects it (state.scenario/variant).
#pragma once

#include <imgui.h>

#include "ui/core/app_state.h"

namespace synclab::ui {

class ScenarioBrowser {
  public:
    // Draws into the current window.
    void draw(AppState& state);
    // Screen rectangle (x0, y0, x1, y1) of the selected variant's row as last drawn (zero when it was
    // not drawn: its node closed), for the layout file: a GUI test checks it is inside the browser.
    ImVec4 selected_rect() const { return selected_rect_; }
    // ... and of its badge (the GUI tests look at its colour: never green beside a hang).
    ImVec4 selected_badge_rect() const { return selected_badge_rect_; }

  private:
    void draw_scenario(AppState& state, const scenario::Scenario& s, bool selection_moved);
    void draw_variant(AppState& state, const scenario::Scenario& s, const scenario::Variant& v);

    // The variant last seen selected: when the selection changes from outside (a script, a key, the
    // lesson panel), its scenario's node is opened once so that the selection is visible.
    const scenario::Variant* seen_variant_ = nullptr;
    // ... and scrolled to: the catalog is longer than the browser, and a lesson near its end (the
    // warp lessons) would otherwise be selected out of sight.
    bool scroll_to_selection_ = false;
    float seen_height_ = 0; // the window's height last frame: a change scrolls the selection into view
    ImVec4 selected_rect_{0, 0, 0, 0};
    ImVec4 selected_badge_rect_{0, 0, 0, 0};
};

} // namespace synclab::ui
