// Colours with meaning, shared by every view (and by the GUI tests, which look for them in PNGs).
// Each colour is chosen to be told apart on a projector; presenter mode uses the same hues on a
// darker, higher-contrast background.
//
// Two kinds of colour: marks (the k* constants: timeline events, arrows, swatches, highlighted
// lines; kept exact because the GUI tests search screenshots for them) and text. Text is drawn only
// in a Palette's inks, on a Palette's grounds, and text_pairs() lists every pair the views draw, so
// that a unit test can hold each one to a contrast ratio of at least 4.5:1 (WCAG 2).
#pragma once

#include "analysis/findings.h"
#include "trace/trace.h"

#include <cstdint>
#include <string>
#include <vector>

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
// Shared-memory slots at the playhead: a value the block has stored, and one it will overwrite
// before its next barrier (a load now reads what the program has not written yet).
constexpr uint32_t kWrittenSlot = rgba(70, 90, 120);
constexpr uint32_t kStaleSlot = rgba(255, 190, 60);
constexpr uint32_t kUnavailable = rgba(250, 160, 60); // "GPU unavailable" marker in the run panel
constexpr uint32_t kWrongOutput = rgba(235, 60, 60);  // the output grid: an element that came out wrong
constexpr uint32_t kRightOutput = rgba(74, 78, 90);   // ... and one that came out right (neutral)
constexpr uint32_t kProvenance = rgba(40, 230, 255);  // a wrong output explained: its store and loads
constexpr uint32_t kOutcomeSim = rgba(110, 140, 255); // the outcomes view: the simulator's count bars
constexpr uint32_t kOutcomeGpu = rgba(120, 210, 120); // ... and the GPU's
// Warp collectives on the timeline: shuffles, votes, match/redux/elect (mint), and __syncwarp drawn
// as a warp barrier (a pale bar over the warp's rows, unlike the grey of a block barrier's wait).
constexpr uint32_t kCollective = rgba(100, 230, 170);
constexpr uint32_t kWarpSync = rgba(205, 205, 230);
// A shuffle's source-lane arrows between open lane rows (which lane read from which): paler than the
// mint of the marks, so that they stand out over the lanes' own shuffle ticks.
constexpr uint32_t kShuffleArrow = rgba(190, 255, 225);
// The lane strip of a collective: a lane that took part but gave / received / voted nothing.
constexpr uint32_t kLaneIdle = rgba(60, 70, 80);

uint32_t event_colour(trace::EventKind kind);

// The mark colour of a finding kind (races kRaceArrow, barrier divergence kDivergence, ...).
uint32_t finding_mark(analysis::FindingKind kind);

// [SECTION] Text and its backgrounds

// How good or bad an outcome is, for its words' colour (ui/model/outcome_words.h says which word gets which).
enum class Tone : uint8_t {
    Neutral, // the text colour: nothing to judge (cancelled, not checked)
    Good,    // correct: right outputs, nothing found
    Warning, // completed with right outputs, but something fired (or could not be checked)
    Bad,     // wrong outputs, a hang, an error
    Accent,  // a fact that is neither good nor bad: the run went as the lesson expected
};

// The colours of one theme (normal or presenter). Every ground is opaque (translucent ImGui colours
// are declared as what they look like over child_bg), so contrast ratios are exact.
struct Palette {
    // Grounds.
    uint32_t window_bg, child_bg, popup_bg, menu_bar_bg;
    uint32_t frame_bg;       // inputs, combos, the lesson's boxed question
    uint32_t header;         // a selected row (findings, browser)
    uint32_t header_hovered; // a row under the mouse
    uint32_t button;         // buttons (the Run button)
    uint32_t row_alt;        // the findings table's alternate rows
    // Inks.
    uint32_t text, text_disabled;
    uint32_t accent; // headings
    uint32_t good, warning, bad;
    uint32_t race, divergence, lost_update, deadlock; // finding kinds as text
    uint32_t variant_name; // the variant's name in the timeline header and presenter header
};
const Palette& palette(bool presenter);

uint32_t tone_ink(Tone tone, bool presenter);
uint32_t finding_ink(analysis::FindingKind kind, bool presenter);

// Black or white, whichever has more contrast with `background` (text on a highlighted line, whose
// background keeps the exact mark colour for the GUI tests).
uint32_t ink_on(uint32_t background);

// WCAG 2 relative luminance of an sRGB colour (alpha ignored) and the contrast ratio of two colours,
// from 1 (same) to 21 (black on white).
double relative_luminance(uint32_t rgba);
double contrast_ratio(uint32_t a, uint32_t b);

// One text colour drawn on one background, and where.
struct TextPair {
    std::string where; // "lesson: bad outcome on child_bg"
    uint32_t fg, bg;
};
// Every pair the views draw in this theme.
std::vector<TextPair> text_pairs(bool presenter);

} // namespace synclab::ui::theme
