// Every text/background pair the views draw, in the normal and the presenter theme, reads at a
// contrast ratio of at least 4.5:1 (WCAG 2 relative luminance); the worst pairs are printed.
#include "scenario/scenario.h"
#include "ui/model/theme.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

namespace synclab::ui {
namespace {

using theme::Tone;

TEST(ThemeContrast, TheFormulaIsWcags) {
    const uint32_t black = theme::rgba(0, 0, 0), white = theme::rgba(255, 255, 255);
    EXPECT_NEAR(theme::contrast_ratio(black, white), 21.0, 1e-9);
    EXPECT_NEAR(theme::contrast_ratio(white, white), 1.0, 1e-9);
    EXPECT_NEAR(theme::contrast_ratio(white, black), 21.0, 1e-9) << "order does not matter";
    // The two pairs issue 8 names, as they were: white on the divergence yellow, red "deadlock" text
    // on a presenter-mode selected row.
    EXPECT_NEAR(theme::contrast_ratio(white, theme::kDivergence), 1.45, 0.01);
    EXPECT_NEAR(theme::contrast_ratio(theme::kDeadlock, theme::rgba(39, 78, 154)), 1.73, 0.02);
    EXPECT_EQ(theme::ink_on(theme::kDivergence), black) << "dark text on yellow";
}

TEST(ThemeContrast, EveryTextPairOfBothThemesReadsAtLeastFourAndAHalfToOne) {
    for (bool presenter : {false, true}) {
        std::vector<std::pair<double, std::string>> ratios;
        for (const theme::TextPair& pair : theme::text_pairs(presenter))
            ratios.emplace_back(theme::contrast_ratio(pair.fg, pair.bg), pair.where);
        ASSERT_GE(ratios.size(), 60u) << "the table lost its pairs";
        std::sort(ratios.begin(), ratios.end());
        std::string worst;
        for (size_t i = 0; i < std::min<size_t>(5, ratios.size()); ++i)
            worst += "  " + std::to_string(ratios[i].first).substr(0, 4) + ":1  " + ratios[i].second + "\n";
        std::cout << (presenter ? "presenter" : "normal") << " theme, worst pairs:\n" << worst;
        for (const auto& [ratio, where] : ratios)
            EXPECT_GE(ratio, 4.5) << (presenter ? "presenter: " : "normal: ") << where;
    }
}

TEST(ThemeContrast, TheTableCoversWhatTheViewsDraw) {
    // Every ink of the palette appears on the child background (panels) in both themes, and the
    // highlighted source lines are in it with their ink.
    for (bool presenter : {false, true}) {
        const theme::Palette& p = theme::palette(presenter);
        const std::vector<theme::TextPair> pairs = theme::text_pairs(presenter);
        auto has = [&](uint32_t fg, uint32_t bg) {
            return std::any_of(pairs.begin(), pairs.end(),
                               [&](const theme::TextPair& t) { return t.fg == fg && t.bg == bg; });
        };
        for (uint32_t ink : {p.text, p.text_disabled, p.accent, p.good, p.warning, p.bad, p.race,
                             p.divergence, p.lost_update, p.deadlock, p.variant_name})
            EXPECT_TRUE(has(ink, p.child_bg) && has(ink, p.window_bg) && has(ink, p.popup_bg));
        EXPECT_TRUE(has(p.text, p.header)) << "selected rows";
        EXPECT_TRUE(has(theme::ink_on(theme::kDivergence), theme::kDivergence)) << "highlighted lines";
        for (Tone tone : {Tone::Neutral, Tone::Good, Tone::Warning, Tone::Bad})
            EXPECT_TRUE(has(theme::tone_ink(tone, presenter), p.child_bg));
        for (analysis::FindingKind kind : scenario::all_finding_kinds())
            EXPECT_TRUE(has(theme::finding_ink(kind, presenter), p.row_alt));
    }
}

} // namespace
} // namespace synclab::ui
