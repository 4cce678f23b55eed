// Colours with meaning, shared by every view (and by the GUI tests, which look for them in PNGs).
// Each colour is chosen to be told apart on a projector; presenter mode uses the same hues on a
// darker, higher-contrast background.
#pragma once

#include "trace/trace.h"

#include <cstdint>

namespace synclab::ui::theme {

// ImGui packs colours as 0xAABBGGRR (IM_COL32). Keep these exact: tests search PNGs for them.
constexpr uint32_t rgba(uint8_t r, uint8_t g, uint8_t b, uint8_t a = 255) {
    return uint32_t(r) | (uint32_t(g) << 8) | (uint32_t(b) << 16) | (uint32_t(a) << 24);
}

constexpr uint32_t kLoad = rgba(80, 160, 255);         // blue
constexpr uint32_t kStore = rgba(255, 150, 40);        // orange
constexpr uint32_t kAtomic = rgba(200, 90, 255);       // violet
constexpr uint32_t kFence = rgba(0, 200, 200);         // teal
constexpr uint32_t kBarrierWait = rgba(120, 120, 120); // grey spans: waiting at a barrier
constexpr uint32_t kExit = rgba(90, 90, 90);
constexpr uint32_t kFolded = rgba(170, 170, 170);      // many events folded into one mark
constexpr uint32_t kPhaseBandA = rgba(40, 60, 40, 90); // alternate barrier-phase bands
constexpr uint32_t kPhaseBandB = rgba(40, 40, 60, 90);
constexpr uint32_t kRaceArrow = rgba(255, 0, 90);   // races: arrows and highlighted lines
constexpr uint32_t kDivergence = rgba(255, 210, 0); // barrier divergence
constexpr uint32_t kLostUpdate = rgba(255, 90, 0);
constexpr uint32_t kDeadlock = rgba(230, 30, 30);
constexpr uint32_t kHoverLine = rgba(255, 255, 255, 60);
constexpr uint32_t kPlayhead = rgba(160, 255, 60); // the playback cursor: lime, unlike any event kind
constexpr uint32_t kUnavailable = rgba(250, 160, 60); // "GPU unavailable" marker in the run panel
constexpr uint32_t kOk = rgba(60, 200, 90);           // "as expected" badge

uint32_t event_colour(trace::EventKind kind);

} // namespace synclab::ui::theme
