// The residency view: its model built from residency tables (slots, never-started and waited ranges,
// occupancy binning, the time axis), with no ImGui context; and the view drawn headless (bars in
// their colours, the never-started strip, one line for a run without residency data, thousands of
// blocks aggregated into a bounded number of vertices).
#include "ui/views/residency_view.h"

#include "ui/headless_panel.h"
#include "ui/model/theme.h"

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <numeric>

namespace {

using namespace synclab;
using namespace synclab::ui;
using synclab::ui::testing::HeadlessPanel;
using trace::BlockResidency;

constexpr uint64_t kNever = BlockResidency::kNever;

BlockResidency block(uint32_t sm, uint64_t admitted, uint64_t retired, bool waited = false) {
    BlockResidency r;
    r.sm = sm;
    r.admitted = admitted;
    r.retired = retired;
    r.waited = waited ? 1 : 0;
    return r;
}

// An oversubscribed hand-made grid barrier as the simulator leaves it: `sms` x `per_sm` blocks
// resident from tick 0 spinning to the end (never retired), the rest never resident.
trace::Trace oversubscribed(uint32_t sms, uint32_t per_sm, uint32_t blocks, uint64_t last_event) {
    trace::Trace t;
    t.meta.sm_count = sms;
    for (uint32_t b = 0; b < blocks; ++b)
        t.residency.push_back(b < sms * per_sm ? block(b % sms, 0, kNever) : BlockResidency{});
    trace::Event e;
    e.time = last_event;
    t.events.push_back(e);
    return t;
}

TEST(ResidencyRanges, ConsecutiveIndicesBecomeRanges) {
    EXPECT_TRUE(block_ranges({}).empty());
    EXPECT_EQ(block_ranges({5}), (std::vector<BlockRange>{{5, 5}}));
    EXPECT_EQ(block_ranges({1, 2, 3, 7, 9, 10}), (std::vector<BlockRange>{{1, 3}, {7, 7}, {9, 10}}));
}

TEST(ResidencyRanges, WordsShowTheFirstRangesAndCountTheRest) {
    const std::vector<BlockRange> r = {{1, 3}, {7, 7}, {9, 10}};
    EXPECT_EQ(range_words(r, 5, "and {0} more"), "1\u20133, 7, 9\u201310");
    EXPECT_EQ(range_words(r, 2, "and {0} more"), "1\u20133, 7 and 1 more");
}

TEST(ResidencyModel, NoTableIsNotAvailable) {
    trace::Trace t;
    t.events.push_back(trace::Event{});
    const ResidencyModel m = build_residency_model(t);
    EXPECT_FALSE(m.available);
    EXPECT_TRUE(m.sms.empty());
}

TEST(ResidencyModel, OversubscribedGridNamesTheNeverStartedTail) {
    const ResidencyModel m = build_residency_model(oversubscribed(8, 8, 4224, 999));
    ASSERT_TRUE(m.available);
    EXPECT_EQ(m.blocks, 4224u);
    ASSERT_EQ(m.sms.size(), 8u);
    EXPECT_EQ(m.stuck, 64u);
    EXPECT_EQ(m.never, 4224u - 64u);
    EXPECT_EQ(m.ran + m.waited, 0u);
    EXPECT_EQ(m.never_started, (std::vector<BlockRange>{{64, 4223}}));
    EXPECT_TRUE(m.waited_ranges.empty());
    EXPECT_EQ(m.end, 1000u); // the last event's tick + 1
    for (const ResidencySm& sm : m.sms) {
        EXPECT_EQ(sm.slots, 8u); // 8 blocks at once, none ever leaves
        for (const ResidentBar& b : sm.bars) {
            EXPECT_FALSE(b.retired);
            EXPECT_EQ(b.to, m.end); // drawn to the end of the run
        }
    }
    EXPECT_EQ(m.max_slots, 8u);
    // Every bin of SM 0..7 has all 64 resident blocks.
    for (uint32_t c : m.occupancy(0, 7, 0, m.end, 10))
        EXPECT_EQ(c, 64u);
    EXPECT_EQ(range_words(m.never_started, 4, "and {0} more"), "64\u20134223");
}

TEST(ResidencyModel, AFreedSlotIsReusedAndWaitingIsRanged) {
    // One SM: blocks 0 and 1 admitted at 0; block 2 waits, takes block 1's slot when it retires at 5;
    // block 3 is never resident; block 4 waits and takes block 0's slot at 10.
    trace::Trace t;
    t.meta.sm_count = 1;
    t.residency = {block(0, 0, 10), block(0, 0, 5), block(0, 5, 12, true), BlockResidency{}, block(0, 10, 11, true)};
    const ResidencyModel m = build_residency_model(t);
    ASSERT_EQ(m.sms.size(), 1u);
    const ResidencySm& sm = m.sms[0];
    EXPECT_EQ(sm.slots, 2u);
    ASSERT_EQ(sm.bars.size(), 4u);
    std::map<uint32_t, uint32_t> slot;
    for (const ResidentBar& b : sm.bars)
        slot[b.block] = b.slot;
    EXPECT_NE(slot[0], slot[1]);
    EXPECT_EQ(slot[2], slot[1]); // the slot block 1 freed
    EXPECT_EQ(slot[4], slot[0]);
    EXPECT_EQ(m.ran, 2u);
    EXPECT_EQ(m.waited, 2u);
    EXPECT_EQ(m.never_started, (std::vector<BlockRange>{{3, 3}}));
    EXPECT_EQ(m.waited_ranges, (std::vector<BlockRange>{{2, 2}, {4, 4}}));
    EXPECT_EQ(m.end, 13u); // no events: the last retirement + 1
    ASSERT_NE(m.bar_at(0, slot[2], 7), nullptr);
    EXPECT_EQ(m.bar_at(0, slot[2], 7)->block, 2u);
    EXPECT_EQ(m.bar_at(0, slot[1], 12), nullptr); // block 2 retired at 12: [5, 12)
}

TEST(ResidencyModel, OccupancyBinsCountOverlappingBlocks) {
    trace::Trace t;
    t.residency = {block(0, 0, 10), block(0, 0, 5), block(0, 5, 12, true)};
    const ResidencyModel m = build_residency_model(t);
    // One tick per bin: two resident until 10, one after.
    const std::vector<uint32_t> fine = m.occupancy(0, 0, 0, 12, 12);
    EXPECT_EQ(fine, (std::vector<uint32_t>{2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1}));
    // Four ticks per bin: a bin counts every block resident at any time in it (bin 1 sees block 1
    // leave and block 2 arrive: 3).
    EXPECT_EQ(m.occupancy(0, 0, 0, 12, 3), (std::vector<uint32_t>{2, 3, 2}));
    // A window of the axis.
    EXPECT_EQ(m.occupancy(0, 0, 10, 12, 2), (std::vector<uint32_t>{1, 1}));
    // SMs past the table count nothing.
    EXPECT_EQ(m.occupancy(3, 4, 0, 12, 2), (std::vector<uint32_t>{0, 0}));
}

std::shared_ptr<const RunRecord> record_of(trace::Trace t, uint64_t serial) {
    auto r = std::make_shared<RunRecord>();
    r->summary.trace = std::move(t);
    r->serial = serial;
    return r;
}

TEST(ResidencyViewDraw, BarsAndTheNeverStartedStripShow) {
    HeadlessPanel panel({1000, 500});
    AppState state;
    state.current = record_of(oversubscribed(8, 8, 4224, 500), 1);
    ResidencyView view;
    panel.frame([&] { view.draw(state); });
    EXPECT_EQ(view.drawn_mode(), 1);
    EXPECT_TRUE(HeadlessPanel::drew_colour(residency_colour::kStuck));
    EXPECT_TRUE(HeadlessPanel::drew_colour(residency_colour::kNever));
    EXPECT_FALSE(HeadlessPanel::drew_colour(residency_colour::kWaited)); // nothing waited
    EXPECT_GT(view.rows_rect().w, view.rows_rect().y);
    EXPECT_GT(view.never_rect().w, view.never_rect().y);
}

TEST(ResidencyViewDraw, ARunWithoutResidencySaysSoAndDrawsNoBars) {
    HeadlessPanel panel({1000, 500});
    AppState state;
    trace::Trace t;
    t.events.push_back(trace::Event{});
    state.current = record_of(t, 1);
    ResidencyView view;
    panel.frame([&] { view.draw(state); });
    EXPECT_EQ(view.drawn_mode(), 0);
    EXPECT_FALSE(HeadlessPanel::drew_colour(residency_colour::kRan));
    EXPECT_FALSE(HeadlessPanel::drew_colour(residency_colour::kNever));
    EXPECT_EQ(view.rows_rect().z, 0.0f);
}

TEST(ResidencyViewDraw, ARefusedLaunchSaysNoBlockEverRanNotNoData) {
    HeadlessPanel panel({1000, 500});
    AppState state;
    trace::Trace t;
    t.meta.backend = "sim";
    t.meta.status = trace::RunStatus::Error;
    t.meta.grid = {4224, 1, 1};
    state.current = record_of(t, 1);
    ResidencyView view;
    panel.frame([&] { view.draw(state); });
    EXPECT_EQ(view.drawn_mode(), 0);
    EXPECT_TRUE(HeadlessPanel::drew_colour(theme::palette(false).deadlock)); // said in the deadlock ink
    // A GPU run without the table is only "no data", in the disabled ink.
    trace::Trace g = t;
    g.meta.backend = "gpu";
    state.current = record_of(g, 2);
    panel.frame([&] { view.draw(state); });
    EXPECT_FALSE(HeadlessPanel::drew_colour(theme::palette(false).deadlock));
}

TEST(ResidencyViewDraw, ManyBlocksOnManySmsAggregateIntoFewVertices) {
    // 264 SMs, blocks queueing through 32 slots each: 200,000 blocks, half of them waited.
    trace::Trace t;
    t.meta.sm_count = 264;
    const uint32_t sms = 264, slots = 32, blocks = 200'000;
    for (uint32_t b = 0; b < blocks; ++b) {
        const uint32_t sm = b % sms, k = b / sms; // the k-th block on its SM
        const uint64_t wave = k / slots;
        t.residency.push_back(block(sm, wave * 10, wave * 10 + 10, wave > 0));
    }
    HeadlessPanel panel({1000, 500});
    AppState state;
    state.current = record_of(t, 7);
    ResidencyView view;
    const int vertices = panel.frame([&] { view.draw(state); });
    EXPECT_EQ(view.drawn_mode(), 2);
    EXPECT_GT(view.sms_per_row(), 1u); // 264 rows do not fit in 500 pixels
    // Runs of equal bins are one quad: far fewer than a quad per block.
    EXPECT_LT(vertices, 40'000);
    EXPECT_TRUE(HeadlessPanel::drew_colour(residency_colour::kWaited)); // the strip: waited blocks
}

} // namespace
