// Presenter compare's excerpt of the correct run's barrier lines (app/ui/views/barrier_excerpt.h): which
// lines it shows (pure), and the excerpt drawn headless for a real correct run beside its source.
#include "headless_panel.h"
#include "timeline_test_util.h"
#include "ui/views/barrier_excerpt.h"
#include "ui/model/source_lines.h"

#include "runner/runner.h"
#include "scenario/scenario.h"

#include <gtest/gtest.h>

namespace synclab::ui {
namespace {

using testing::Synth;

// The CUDA lines of barrier arrivals, in line order, each once, at most `max`; leaves and other
// events at barrier-looking lines do not count, nor sites without a CUDA line.
TEST(BarrierLines, ArrivalsOnlyInLineOrder) {
    Synth s(1, 4);
    const uint16_t late = s.site(29, "bar.sync 0"), early = s.site(21, "bar.sync 0"),
                   none = s.site(0, "bar.sync 0");
    const uint16_t store = s.site(20);
    s.store(1, 0, store, 0);
    s.arrive(2, 0, late, 1);
    s.arrive(2, 1, early, 0);
    s.arrive(3, 2, early, 0);
    s.arrive(3, 3, none, 0);
    s.leave(4, 0, early, 0);
    const trace::Trace t = s.trace();
    EXPECT_EQ(barrier_lines(t), (std::vector<uint32_t>{21, 29}));
    EXPECT_EQ(barrier_lines(t, 1), (std::vector<uint32_t>{21}));
    Synth quiet(1, 2);
    quiet.store(1, 0, quiet.site(20), 0);
    EXPECT_TRUE(barrier_lines(quiet.trace()).empty()) << "no barrier: nothing to show";
}

// Each barrier line with the nearest non-blank line on either side; shared neighbours once; lines
// outside the text left out.
TEST(ExcerptLines, TheBarrierWithItsNeighboursPastBlankLines) {
    const std::string text = "a\n  store;\n  __syncthreads();\n\n  load;\n  __syncthreads();\n  out;\n";
    const std::vector<std::string_view> lines = split_lines(text);
    EXPECT_EQ(excerpt_lines(lines, {3}), (std::vector<uint32_t>{2, 3, 5}));
    EXPECT_EQ(excerpt_lines(lines, {3, 6}), (std::vector<uint32_t>{2, 3, 5, 6, 7}));
    EXPECT_EQ(excerpt_lines(lines, {1}), (std::vector<uint32_t>{1, 2}));
    EXPECT_TRUE(excerpt_lines(lines, {0, 99}).empty());
}

// stencil's correct run waits at its one __syncthreads(): the excerpt names the variant and the line
// and shows that line between the store and the load, from the lesson's own file.
TEST(BarrierExcerpt, DrawsTheCorrectRunsBarrier) {
    const scenario::Scenario* stencil = scenario::find_scenario("stencil");
    ASSERT_NE(stencil, nullptr);
    AppState state;
    state.scenario = stencil;
    state.variant = stencil->find_variant("correct");
    runner::RunOptions options;
    auto record = std::make_shared<RunRecord>();
    record->serial = 1;
    record->scenario_id = "stencil";
    record->variant_id = "correct";
    record->summary = runner::run_scenario(*stencil, *state.variant, options);
    ASSERT_TRUE(record->summary.traced);
    const std::vector<uint32_t> barriers = barrier_lines(record->summary.trace);
    ASSERT_EQ(barriers.size(), 1u);
    const std::vector<std::string_view> lines = split_lines(choose_source(record.get(), stencil).cuda);
    ASSERT_LE(barriers[0], lines.size());
    EXPECT_NE(lines[barriers[0] - 1].find("__syncthreads();"), std::string_view::npos);

    testing::HeadlessPanel h({500, 300}, {500, 300});
    BarrierExcerpt excerpt;
    float height = 0;
    h.frame([&] {
        height = excerpt.height(state, record.get());
        excerpt.draw(state, *record);
    });
    EXPECT_GT(height, ImGui::GetTextLineHeight() * 3) << "a heading and three rows";
    EXPECT_EQ(excerpt.height(state, nullptr), 0.0f);
}

} // namespace
} // namespace synclab::ui
