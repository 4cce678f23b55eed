#include "ui/model/theme.h"

#include "analysis/finding_kinds.h"

#include <cmath>

namespace synclab::ui::theme {

uint32_t event_colour(trace::EventKind kind) {
    switch (kind) {
    case trace::EventKind::Load:
        return kLoad;
    case trace::EventKind::Store:
        return kStore;
    case trace::EventKind::Atomic:
    case trace::EventKind::Reduction:
        return kAtomic;
    case trace::EventKind::Fence:
        return kFence;
    case trace::EventKind::BarrierArrive:
    case trace::EventKind::BarrierLeave:
        return kBarrierWait;
    case trace::EventKind::WarpCollective:
        return kCollective;
    case trace::EventKind::Exit:
        return kExit;
    }
    return kFolded;
}

uint32_t finding_mark(analysis::FindingKind kind) {
    switch (analysis::info(kind).look) {
    case analysis::FindingLook::Race:
        return kRaceArrow;
    case analysis::FindingLook::Divergence:
        return kDivergence;
    case analysis::FindingLook::LostUpdate:
        return kLostUpdate;
    case analysis::FindingLook::Deadlock:
        return kDeadlock;
    }
    return kRaceArrow;
}

// [SECTION] Text and its backgrounds

namespace {

// The normal theme is ImGui's dark style with our window colours; its translucent colours (frame,
// header, button, alternate rows) are declared as they look over child_bg, and the App sets them
// opaque, so what is measured here is what is drawn.
constexpr Palette kNormal = {
    .window_bg = rgba(23, 23, 28),
    .child_bg = rgba(28, 28, 33),
    .popup_bg = rgba(20, 20, 24),
    .menu_bar_bg = rgba(33, 33, 41),
    .frame_bg = rgba(42, 59, 85),
    .header = rgba(40, 66, 100),
    .header_hovered = rgba(50, 90, 140),
    .button = rgba(43, 77, 120),
    .row_alt = rgba(38, 38, 44),
    .text = rgba(255, 255, 255),
    .text_disabled = rgba(160, 160, 168),
    .accent = rgba(110, 170, 255),
    .good = rgba(80, 210, 110),
    .warning = rgba(255, 190, 70),
    .bad = rgba(255, 115, 115),
    .race = rgba(255, 110, 150),
    .divergence = rgba(255, 210, 0),
    .lost_update = rgba(255, 150, 80),
    .deadlock = rgba(255, 115, 115),
    .variant_name = rgba(255, 217, 89),
};

// Presenter: near-black grounds, white text, bright selections that survive a washed-out beamer.
constexpr Palette kPresenter = {
    .window_bg = rgba(4, 4, 5),
    .child_bg = rgba(4, 4, 5),
    .popup_bg = rgba(13, 13, 18),
    .menu_bar_bg = rgba(4, 4, 5),
    .frame_bg = rgba(31, 31, 41),
    .header = rgba(40, 80, 160),
    .header_hovered = rgba(55, 100, 190),
    .button = rgba(41, 92, 184),
    .row_alt = rgba(20, 20, 22),
    .text = rgba(255, 255, 255),
    .text_disabled = rgba(204, 204, 209),
    .accent = rgba(120, 180, 255),
    .good = rgba(90, 220, 120),
    .warning = rgba(255, 200, 80),
    .bad = rgba(255, 125, 125),
    .race = rgba(255, 120, 160),
    .divergence = rgba(255, 215, 0),
    .lost_update = rgba(255, 160, 90),
    .deadlock = rgba(255, 125, 125),
    .variant_name = rgba(255, 217, 89),
};

double channel(uint32_t c) {
    const double v = double(c & 0xff) / 255.0;
    return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
}

} // namespace

const Palette& palette(bool presenter) {
    return presenter ? kPresenter : kNormal;
}

uint32_t tone_ink(Tone tone, bool presenter) {
    const Palette& p = palette(presenter);
    switch (tone) {
    case Tone::Neutral:
        return p.text;
    case Tone::Good:
        return p.good;
    case Tone::Warning:
        return p.warning;
    case Tone::Bad:
        return p.bad;
    case Tone::Accent:
        return p.accent;
    }
    return p.text;
}

uint32_t finding_ink(analysis::FindingKind kind, bool presenter) {
    const Palette& p = palette(presenter);
    switch (analysis::info(kind).look) {
    case analysis::FindingLook::Race:
        return p.race;
    case analysis::FindingLook::Divergence:
        return p.divergence;
    case analysis::FindingLook::LostUpdate:
        return p.lost_update;
    case analysis::FindingLook::Deadlock:
        return p.deadlock;
    }
    return p.text;
}

double relative_luminance(uint32_t c) {
    return 0.2126 * channel(c) + 0.7152 * channel(c >> 8) + 0.0722 * channel(c >> 16);
}

double contrast_ratio(uint32_t a, uint32_t b) {
    const double la = relative_luminance(a), lb = relative_luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

uint32_t ink_on(uint32_t background) {
    const uint32_t black = rgba(0, 0, 0), white = rgba(255, 255, 255);
    return contrast_ratio(black, background) >= contrast_ratio(white, background) ? black : white;
}

std::vector<TextPair> text_pairs(bool presenter) {
    const Palette& p = palette(presenter);
    struct Named {
        const char* name;
        uint32_t colour;
    };
    const Named inks[] = {
        {"text", p.text},
        {"text_disabled", p.text_disabled},
        {"accent", p.accent},
        {"good", p.good},
        {"warning", p.warning},
        {"bad", p.bad},
        {"race", p.race},
        {"divergence", p.divergence},
        {"lost_update", p.lost_update},
        {"deadlock", p.deadlock},
        {"variant_name", p.variant_name},
    };
    // Panels, tooltips, the menu bar, the status line and the findings table's rows.
    const Named plain[] = {{"window_bg", p.window_bg},
                           {"child_bg", p.child_bg},
                           {"popup_bg", p.popup_bg},
                           {"menu_bar_bg", p.menu_bar_bg},
                           {"row_alt", p.row_alt}};
    std::vector<TextPair> out;
    for (const Named& ground : plain)
        for (const Named& ink : inks)
            out.push_back({std::string(ink.name) + " on " + ground.name, ink.colour, ground.colour});
    // Inputs and the lesson's boxed question (its title in the accent colour).
    out.push_back({"text on frame_bg", p.text, p.frame_bg});
    out.push_back({"accent on frame_bg", p.accent, p.frame_bg});
    // Selected and hovered rows (findings, browser) and buttons carry the text colour only: a
    // finding's kind colour goes to its swatch there.
    out.push_back({"text on header (selected row)", p.text, p.header});
    out.push_back({"text on header_hovered", p.text, p.header_hovered});
    out.push_back({"text on button", p.text, p.button});
    // Highlighted source lines keep the exact mark colour; their text is ink_on() it.
    for (const Named& mark : {Named{"race mark", kRaceArrow}, Named{"divergence mark", kDivergence},
                              Named{"lost_update mark", kLostUpdate}, Named{"deadlock mark", kDeadlock}})
        out.push_back({std::string("ink_on(") + mark.name + ") on it", ink_on(mark.colour), mark.colour});
    // The timeline's numbered story marks and the shared-memory view's cells: ink_on() their colour.
    for (const Named& mark : {Named{"store mark", kStore}, Named{"playhead mark", kPlayhead},
                              Named{"stale slot", kStaleSlot}, Named{"written slot", kWrittenSlot}})
        out.push_back({std::string("ink_on(") + mark.name + ") on it", ink_on(mark.colour), mark.colour});
    // A barrier wait's line label: light text on the wait grey (kBarrierWait at 75% over a row).
    out.push_back({"wait label on barrier wait", rgba(235, 235, 235), rgba(97, 97, 97)});
    return out;
}

} // namespace synclab::ui::theme
