// Warp collectives on the timeline (app/ui/model/warp_collectives.h and their part of timeline_model):
// grouping lane events into one mark per warp execution, the masks a mark shows (gave / received /
// voted), its frame items on warp rows (folding, clipping, hit testing) and its hover words.
#include "timeline_test_util.h"
#include "ui/model/timeline_model.h"
#include "ui/model/warp_collectives.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace synclab::ui {
namespace {

using testing::Synth;
using trace::Collective;
using trace::kNoLane;

Viewport view_of(double t0, double t1, float width) {
    Viewport v;
    v.range = {t0, t1};
    v.width = width;
    v.y0 = 0;
    v.y1 = 1e6f;
    return v;
}

bool contains(const std::vector<std::string>& lines, const std::string& text) {
    return std::any_of(lines.begin(), lines.end(),
                       [&](const std::string& l) { return l.find(text) != std::string::npos; });
}

std::string joined(const std::vector<std::string>& lines) {
    std::string out;
    for (const std::string& l : lines)
        out += l + "\n";
    return out;
}

// Two blocks of 64 threads. Block 0 warp 0: a butterfly shuffle twice (a loop), then a vote run by
// the two halves separately (masks of their own), lanes recorded in a scrambled order. Block 1
// warp 1: __syncwarp. 
struct Scene {
    Synth s{2, 64};
    uint16_t bfly = 0, any = 0, sync = 0;
    Scene() {
        bfly = s.site(10, "shfl.sync.bfly.b32 %r2, %r1, 1, 31, -1");
        any = s.site(11, "vote.sync.any.pred %p1, %p2, %r3");
        sync = s.site(12, "bar.warp.sync -1");
        for (uint64_t round = 0; round < 2; ++round)
            for (uint32_t k = 0; k < 32; ++k) {
                const uint32_t lane = (k * 7) % 32; // not in lane order
                s.collective(10 + round * 10, s.thread(0, lane), bfly, Collective::Shfl, 0xffffffffu,
                             lane ^ 1, lane ^ 1);
            }
        for (uint32_t lane = 0; lane < 32; ++lane) {
            const uint32_t mask = lane < 16 ? 0x0000ffffu : 0xffff0000u;
            s.collective(lane < 16 ? 30 : 34, s.thread(0, lane), any, Collective::Vote, mask, lane % 3 == 0);
        }
        for (uint32_t lane = 0; lane < 32; ++lane)
            s.collective(40 + lane % 2, s.thread(1, 32 + lane), sync, Collective::WarpSync, 0xffffffffu);
    }
};

TEST(WarpCollectives, LaneEventsGroupIntoOneMarkPerWarpExecution) {
    Scene scene;
    TimelineIndex index(scene.s.trace());
    const CollectiveIndex& c = index.collectives();
    ASSERT_EQ(c.size(), 5u); // two shuffles, two half-warp votes, one __syncwarp
    const uint32_t w0 = index.warp_slot_of_thread(scene.s.thread(0, 0));
    const uint32_t w3 = index.warp_slot_of_thread(scene.s.thread(1, 32));
    EXPECT_EQ(c.offset(w0 + 1) - c.offset(w0), 4u);
    EXPECT_EQ(c.offset(w3 + 1) - c.offset(w3), 1u);
    const CollectiveMark& first = c.mark(c.offset(w0));
    EXPECT_EQ(first.op, Collective::Shfl);
    EXPECT_EQ(first.t0, 10u);
    EXPECT_EQ(first.met, 0xffffffffu);
    EXPECT_EQ(first.gave, 0xffffffffu);
    EXPECT_EQ(first.received, 0xffffffffu);
    // Members by lane, whatever order the lanes were recorded in.
    const auto members = c.members(first);
    ASSERT_EQ(members.size(), 32u);
    for (uint32_t lane = 0; lane < 32; ++lane)
        EXPECT_EQ(scene.s.trace().threads[scene.s.trace().events[members[lane]].thread].lane, lane);
    EXPECT_EQ(c.mark(c.offset(w0) + 1).t0, 20u) << "the loop's second shuffle is a mark of its own";
    const CollectiveMark& low = c.mark(c.offset(w0) + 2);
    const CollectiveMark& high = c.mark(c.offset(w0) + 3);
    EXPECT_EQ(low.mask, 0x0000ffffu);
    EXPECT_EQ(low.met, 0x0000ffffu);
    EXPECT_EQ(high.mask, 0xffff0000u);
    uint32_t voted = 0;
    for (uint32_t lane = 0; lane < 32; lane += 3)
        voted |= 1u << lane;
    EXPECT_EQ(low.result, voted & 0xffffu);
    EXPECT_EQ(high.result, voted & 0xffff0000u);
    const CollectiveMark& sync = c.mark(c.offset(w3));
    EXPECT_EQ(sync.op, Collective::WarpSync);
    EXPECT_EQ(sync.t0, 40u);
    EXPECT_EQ(sync.t1, 41u);
}

TEST(WarpCollectives, ShuffleMasksAndBallots) {
    Synth s(1, 32);
    const uint16_t down = s.site(5, "shfl.sync.down.b32 %r2, %r1, 16, 31, -1");
    const uint16_t ballot = s.site(6, "vote.sync.ballot.b32 %r4, %p1, -1");
    for (uint32_t lane = 0; lane < 32; ++lane)
        s.collective(1, lane, down, Collective::Shfl, 0xffffffffu, lane, lane < 16 ? lane + 16 : kNoLane);
    for (uint32_t lane = 0; lane < 32; ++lane)
        s.collective(2, lane, ballot, Collective::Vote, 0xffffffffu, 0x00ff00ffu);
    TimelineIndex index(s.trace());
    const CollectiveIndex& c = index.collectives();
    ASSERT_EQ(c.size(), 2u);
    EXPECT_EQ(c.mark(0).gave, 0xffff0000u) << "lanes 16-31 gave their values";
    EXPECT_EQ(c.mark(0).received, 0x0000ffffu) << "lanes 0-15 received them";
    EXPECT_TRUE(c.mark(1).ballot);
    EXPECT_EQ(c.mark(1).result, 0x00ff00ffu);

    const auto en = describe_collective(s.trace(), c, c.mark(0), Language::En);
    EXPECT_TRUE(contains(en, "shfl.sync.down.b32 %r2, %r1, 16, 31, -1")) << joined(en);
    EXPECT_TRUE(contains(en, "members: mask 0xffffffff (lanes 0-31)")) << joined(en);
    EXPECT_TRUE(contains(en, "0\u219016, 1\u219017")) << joined(en);
    EXPECT_TRUE(contains(en, "gave a value: lanes 16-31")) << joined(en);
    EXPECT_TRUE(contains(en, "kept its own value: lanes 16-31")) << joined(en);
    EXPECT_TRUE(contains(en, "does not order memory")) << joined(en);
    const auto b = describe_collective(s.trace(), c, c.mark(1), Language::En);
    EXPECT_TRUE(contains(b, "ballot 0xff00ff: lanes 0-7, 16-23")) << joined(b);
    const auto zh = describe_collective(s.trace(), c, c.mark(0), Language::Zh);
    EXPECT_TRUE(contains(zh, "成员：掩码 0xffffffff（通道 0-31）")) << joined(zh);
    EXPECT_TRUE(contains(zh, "保留自己的值：通道 16-31")) << joined(zh);
}

TEST(WarpCollectives, SyncwarpIsAWarpBarrierAndMissingLanesAreNamed) {
    Synth s(1, 32);
    const uint16_t sync = s.site(8, "bar.warp.sync 65535");
    for (uint32_t lane = 0; lane < 12; ++lane) // lanes 12-15 lost (a partial trace)
        s.collective(3, lane, sync, Collective::WarpSync, 0xffffu);
    TimelineIndex index(s.trace());
    const auto en = describe_collective(s.trace(), index.collectives(), index.collectives().mark(0), Language::En);
    EXPECT_EQ(en.front(), "__syncwarp: a warp barrier");
    EXPECT_TRUE(contains(en, "members: mask 0xffff (lanes 0-15)")) << joined(en);
    EXPECT_TRUE(contains(en, "not in the trace: lanes 12-15")) << joined(en);
    EXPECT_TRUE(contains(en, "wait for each other")) << joined(en);
}

// Items on warp rows only (block and lane rows keep their event ticks); close marks fold with their
// count; every mark in view is counted once; the hit test finds them.
TEST(WarpCollectives, FrameItemsOnWarpRowsFoldAndHit) {
    Synth s(1, 32);
    const uint16_t site = s.site(9, "shfl.sync.idx.b32 %r2, %r1, 0, 31, -1");
    for (uint64_t k = 0; k < 100; ++k)
        for (uint32_t lane = 0; lane < 32; ++lane)
            s.collective(k * 10, lane, site, Collective::Shfl, 0xffffffffu, 0, 0);
    TimelineIndex index(s.trace());
    TimelineExpansion open = TimelineExpansion::initial(index);
    open.toggle_warp(0);
    const TimelineLayout layout = layout_rows(index, open, RowMetrics{20, 20, 20, 0});
    TimelineFrame frame;
    preprocess(index, layout, view_of(0, 990, 9900), frame); // one mark every 100 px
    ASSERT_EQ(frame.collectives.size(), 100u);
    for (const CollectiveItem& c : frame.collectives) {
        EXPECT_EQ(layout.rows[c.row].kind, RowKind::Warp);
        EXPECT_EQ(c.count, 1u);
    }
    const CollectiveItem& tenth = frame.collectives[10];
    const float y = layout.rows[tenth.row].y + 5;
    Hit hit = hit_test(frame, layout, tenth.x0 + 2, y, 4);
    ASSERT_EQ(hit.what, Hit::What::Collective);
    EXPECT_EQ(hit.item, 10u);
    // On a lane row the same time is that lane's event, not the warp's mark.
    const uint32_t lane_row = layout.lane_row[index.thread_slot(3)];
    hit = hit_test(frame, layout, tenth.x0, layout.rows[lane_row].y + 5, 4);
    EXPECT_EQ(hit.what, Hit::What::Event);

    for (const float width : {990.f, 300.f, 40.f, 3.f}) {
        preprocess(index, layout, view_of(0, 990, width), frame);
        uint32_t total = 0;
        for (const CollectiveItem& c : frame.collectives)
            total += c.count;
        EXPECT_EQ(total, 100u) << width << " px";
        EXPECT_LE(frame.collectives.size(), size_t(width / 3) + 1) << width << " px";
    }
    preprocess(index, layout, view_of(500, 600, 1000), frame);
    uint32_t in_view = 0;
    for (const CollectiveItem& c : frame.collectives)
        in_view += c.count;
    EXPECT_EQ(in_view, 11u) << "marks at 500, 510, ..., 600";
}

TEST(WarpCollectives, TracesWithoutCollectivesHaveNone) {
    Synth s(1, 32);
    const uint16_t st = s.site(3);
    s.store(1, 0, st, 0);
    TimelineIndex index(s.trace());
    EXPECT_TRUE(index.collectives().empty());
    EXPECT_EQ(lane_list(0), "no lanes");
    EXPECT_EQ(lane_list(0x80000001u), "lanes 0, 31");
}

} // namespace
} // namespace synclab::ui
