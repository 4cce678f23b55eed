// TimelineView without a window: an ImGui context with a built font atlas, frames driven by hand
// (mouse position, wheel, buttons), checking what the view does to the camera and the selection:
// fit and focus requests, two views sharing one camera (compare mode), hover, drag, label clicks,
// focus_finding, and row heights following the font size (presenter mode).
#include "timeline_test_util.h"
#include "ui/core/live_trace.h"
#include "ui/model/theme.h"
#include "ui/views/timeline_view.h"

#include <gtest/gtest.h>
#include <imgui.h>

#include <functional>
#include <memory>

namespace synclab::ui {
namespace {

using testing::Synth;

// One ImGui context per test; frame() draws `body` in a full-display window.
class Headless {
  public:
    Headless() {
        ImGui::CreateContext();
        ImGuiIO& io = ImGui::GetIO();
        io.DisplaySize = {1200, 700};
        io.DeltaTime = 1.f / 60;
        io.IniFilename = nullptr;
        unsigned char* pixels = nullptr;
        int w = 0, h = 0;
        io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
    }
    ~Headless() { ImGui::DestroyContext(); }
    Headless(const Headless&) = delete;
    Headless& operator=(const Headless&) = delete;

    void frame(const std::function<void()>& body, ImVec2 mouse = {-1, -1}, float wheel = 0,
               bool down = false) {
        ImGuiIO& io = ImGui::GetIO();
        io.MousePos = mouse;
        io.MouseWheel = wheel;
        io.MouseDown[0] = down;
        ImGui::NewFrame();
        ImGui::SetNextWindowPos({0, 0});
        ImGui::SetNextWindowSize(io.DisplaySize);
        ImGui::Begin("main", nullptr, ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoSavedSettings);
        body();
        ImGui::End();
        ImGui::Render();
    }
};

// A record over a synthetic trace: 4 blocks of 64 threads, a store by every thread at time
// 10 * thread_in_block + block (length ~630), and a race finding (thread 3 of block 2 writes
// s[12] at line 10, thread 40 reads it at line 11).
std::shared_ptr<RunRecord> make_record(uint64_t serial, uint64_t stretch = 1) {
    Synth s(4, 64);
    const uint16_t st = s.site(10, "st.shared.u32 [%r1], %r2");
    const uint16_t ld = s.site(11, "ld.shared.u32 %r3, [%r4]");
    for (uint32_t t = 0; t < 64; ++t)
        for (uint32_t b = 0; b < 4; ++b)
            s.store((10 * t + b) * stretch, s.thread(b, t), st, 4 * t);
    s.load(700 * stretch, s.thread(2, 40), ld, 12);
    auto record = std::make_shared<RunRecord>();
    record->serial = serial;
    record->summary.trace = s.trace();
    analysis::Finding f;
    f.kind = analysis::FindingKind::Race;
    f.hazard = analysis::Hazard::RAW;
    f.lines = {10, 11};
    f.sites = {st, ld};
    f.threads = {s.thread(2, 3), s.thread(2, 40)};
    f.address = 12;
    f.block = 2;
    record->summary.findings.push_back(f);
    return record;
}

TEST(TimelineView, FitRequestFramesTheTraceAndIsConsumed) {
    Headless ui;
    auto record = make_record(1);
    AppState state;
    TimelineView view;
    TimelineCamera camera; // fit_requested by default
    ui.frame([&] { view.draw(state, *record, camera, "tl", {0, 0}); });
    ASSERT_NE(view.index(), nullptr);
    const TimeRange fit = fit_range(*view.index());
    EXPECT_FALSE(camera.fit_requested);
    EXPECT_DOUBLE_EQ(camera.t0, fit.t0);
    EXPECT_DOUBLE_EQ(camera.t1, fit.t1);
    EXPECT_FALSE(view.frame().events.empty());
}

TEST(TimelineView, FocusRequestZoomsThereAndIsCleared) {
    Headless ui;
    auto record = make_record(1);
    AppState state;
    TimelineView view;
    TimelineCamera camera;
    ui.frame([&] { view.draw(state, *record, camera, "tl", {0, 0}); });
    camera.focus_t0 = 100;
    camera.focus_t1 = 150;
    ui.frame([&] { view.draw(state, *record, camera, "tl", {0, 0}); });
    EXPECT_DOUBLE_EQ(camera.t0, 100);
    EXPECT_DOUBLE_EQ(camera.t1, 150);
    EXPECT_FALSE(camera.focus_t1 > camera.focus_t0);
    EXPECT_DOUBLE_EQ(view.viewport().range.t0, 100);
}

// Compare mode: two views in two child windows share the camera.
TEST(TimelineView, TwoViewsSharingACameraStayInSync) {
    Headless ui;
    auto short_run = make_record(1);
    auto long_run = make_record(2, 10); // ten times longer
    AppState state;
    TimelineView left, right;
    TimelineCamera camera;
    auto both = [&] {
        ImGui::BeginChild("left", {600, 0});
        left.draw(state, *short_run, camera, "left_tl", {0, 0});
        ImGui::EndChild();
        ImGui::SameLine();
        ImGui::BeginChild("right", {0, 0});
        right.draw(state, *long_run, camera, "right_tl", {0, 0});
        ImGui::EndChild();
    };
    ui.frame(both);
    // The fit covers both traces (the second view widened the first's fit).
    EXPECT_DOUBLE_EQ(camera.t1, fit_range(*right.index()).t1);
    ui.frame(both);
    EXPECT_EQ(left.viewport().range.t0, right.viewport().range.t0);
    EXPECT_EQ(left.viewport().range.t1, right.viewport().range.t1);

    // Zoom with the wheel over the right view: both follow.
    const double before = camera.t1 - camera.t0;
    const ImVec2 over_right{900, 300};
    ui.frame(both, over_right);      // hover first (ImGui decides hovering from the last frame)
    ui.frame(both, over_right, 2.f); // two notches in
    EXPECT_LT(camera.t1 - camera.t0, before * 0.7);
    ui.frame(both, over_right);
    EXPECT_EQ(left.viewport().range.t0, camera.t0);
    EXPECT_EQ(right.viewport().range.t1, camera.t1);

    // Dragging the right view pans both.
    const double t0 = camera.t0;
    ui.frame(both, over_right, 0, true);
    ui.frame(both, {over_right.x - 100, over_right.y}, 0, true);
    ui.frame(both, {over_right.x - 200, over_right.y}, 0, true);
    ui.frame(both, {over_right.x - 200, over_right.y}, 0, false);
    EXPECT_GT(camera.t0, t0); // dragging left moves the view to later times
    ui.frame(both);
    EXPECT_EQ(left.viewport().range.t0, right.viewport().range.t0);
}

TEST(TimelineView, HoverSetsTheSelectionLineAndLeavingClearsIt) {
    Headless ui;
    auto record = make_record(1);
    AppState state;
    TimelineView view;
    TimelineCamera camera;
    auto draw = [&] { view.draw(state, *record, camera, "tl", {0, 0}); };
    ui.frame(draw);
    camera.t0 = 0; // a few events, far apart: stores at 0, 1, 2, 3, 10, ...
    camera.t1 = 40;
    ui.frame(draw);
    // A single event away from the left edge (ImGui rounds the mouse position down).
    const EventItem* single = nullptr;
    for (const EventItem& e : view.frame().events)
        if (e.count == 1 && e.x0 > 10) {
            single = &e;
            break;
        }
    ASSERT_NE(single, nullptr);
    const TimelineRow& row = view.layout().rows[single->row];
    const ImVec2 at{view.rows_origin().x + single->x0, view.rows_origin().y + row.y + row.height / 2};
    ui.frame(draw, at);
    ui.frame(draw, at);
    EXPECT_EQ(state.selection.hovered_line, 10u);
    EXPECT_EQ(state.selection.hovered_site, 1u);
    ui.frame(draw, {-1, -1});
    EXPECT_EQ(state.selection.hovered_line, 0u);
    EXPECT_EQ(state.selection.hovered_site, UINT32_MAX);
}

// Vertices of the last frame drawn in `colour` (exact).
size_t vertices_of(uint32_t colour) {
    size_t n = 0;
    const ImDrawData* data = ImGui::GetDrawData();
    for (int l = 0; l < data->CmdListsCount; ++l)
        for (const ImDrawVert& v : data->CmdLists[l]->VtxBuffer)
            n += v.col == colour;
    return n;
}

// Warp collectives: a shuffle and a __syncwarp of warp 0 are drawn on its row in their colours (the
// lane strip and the warp barrier), and hovering the shuffle's mark lights its line like an event.
TEST(TimelineView, WarpCollectivesAreDrawnAndHoverLikeEvents) {
    Headless ui;
    Synth s(1, 32);
    const uint16_t shfl = s.site(21, "shfl.sync.bfly.b32 %r2, %r1, 1, 31, -1");
    const uint16_t sync = s.site(22, "bar.warp.sync -1");
    for (uint32_t lane = 0; lane < 32; ++lane)
        s.collective(100, lane, shfl, trace::Collective::Shfl, 0xffffffffu, lane ^ 1, lane ^ 1);
    for (uint32_t lane = 0; lane < 32; ++lane)
        s.collective(300, lane, sync, trace::Collective::WarpSync, 0xffffffffu);
    auto record = std::make_shared<RunRecord>();
    record->serial = 7;
    record->summary.trace = s.trace();
    AppState state;
    TimelineView view;
    TimelineCamera camera;
    auto draw = [&] { view.draw(state, *record, camera, "tl", {0, 0}); };
    ui.frame(draw);
    camera.t0 = 0;
    camera.t1 = 400;
    ui.frame(draw);
    ASSERT_EQ(view.frame().collectives.size(), 2u);
    // The tick and a lane strip: every lane gave and received (a butterfly), so each half is four
    // lit runs of 8 lanes.
    // (Besides: the lanes' event ticks on the block and warp rows, and the legend's swatch.)
    EXPECT_GE(vertices_of(theme::kCollective), 4u * (1 + 2 * 4)) << "the mark and its lane strip";
    EXPECT_EQ(vertices_of(theme::kLaneIdle), 0u);
    EXPECT_GT(vertices_of(theme::kWarpSync), 0u);
    const CollectiveItem& mark = view.frame().collectives[0];
    const TimelineRow& row = view.layout().rows[mark.row];
    EXPECT_EQ(row.kind, RowKind::Warp);
    const ImVec2 at{view.rows_origin().x + mark.x0 + 1, view.rows_origin().y + row.y + row.height / 2};
    ui.frame(draw, at);
    ui.frame(draw, at);
    EXPECT_EQ(state.selection.hovered_line, 21u);
    EXPECT_EQ(state.selection.hovered_site, uint32_t(shfl));
}

TEST(TimelineView, ClickingABlockLabelOpensIt) {
    Headless ui;
    auto record = make_record(1);
    AppState state;
    TimelineView view;
    TimelineCamera camera;
    auto draw = [&] { view.draw(state, *record, camera, "tl", {0, 0}); };
    ui.frame(draw);
    ASSERT_FALSE(view.expansion().block_open(1)); // 4 blocks: only block 0 starts open
    const TimelineRow& row = view.layout().rows[view.layout().block_row[1]];
    const ImVec2 label{20, view.rows_origin().y + row.y + row.height / 2};
    ui.frame(draw, label);
    ui.frame(draw, label, 0, true);
    ui.frame(draw, label, 0, false);
    ui.frame(draw, label);
    EXPECT_TRUE(view.expansion().block_open(1));
    EXPECT_NE(view.layout().warp_row[view.index()->blocks()[1].first_warp], kNoRow);
}

TEST(TimelineView, FocusFindingOpensItsRowsAndScrollsThere) {
    Headless ui;
    auto record = make_record(1);
    AppState state;
    TimelineView view;
    TimelineCamera camera;
    auto draw = [&] { view.draw(state, *record, camera, "tl", {0, 120}); }; // short: rows must scroll
    ui.frame(draw);
    view.focus_finding(*record, 0, camera);
    ui.frame(draw);
    const TimelineIndex& index = *view.index();
    const analysis::Finding& f = record->summary.findings[0];
    EXPECT_TRUE(view.expansion().block_open(index.block_slot(2)));
    // Threads 3 and 40 of block 2 are in different warps: each is pinned to a lane row of its own
    // (under its closed warp), and the other lanes of those warps stay folded.
    const uint32_t a = view.layout().row_of_thread(index, f.threads[0]);
    const uint32_t b = view.layout().row_of_thread(index, f.threads[1]);
    EXPECT_EQ(view.layout().rows[a].kind, RowKind::Thread);
    EXPECT_EQ(view.layout().rows[b].kind, RowKind::Thread);
    EXPECT_NE(a, b);
    EXPECT_FALSE(view.expansion().warp_open(index.warp_slot_of_thread(f.threads[0])));
    EXPECT_GT(camera.scroll_y, 0.f);
    EXPECT_GE(view.viewport().y1, view.layout().rows[b].bottom());
    EXPECT_LE(view.viewport().y0, view.layout().rows[a].y);
    // The range frames both accesses.
    const FindingEvents r = resolve_finding(index, f);
    EXPECT_LE(camera.t0, index.to_camera(index.event_time(r.first)));
    EXPECT_GE(camera.t1, index.to_camera(index.event_time(r.second)));
}

TEST(TimelineView, RowsScaleWithTheFont) {
    Headless ui;
    auto record = make_record(1);
    AppState state;
    TimelineView view;
    TimelineCamera camera;
    auto draw = [&] { view.draw(state, *record, camera, "tl", {0, 0}); };
    ui.frame(draw);
    const float normal = view.layout().rows[0].height;
    ImGui::GetIO().FontGlobalScale = 2;
    ui.frame(draw);
    EXPECT_NEAR(view.layout().rows[0].height, normal * 2, 1.5f);
}

TEST(TimelineView, EmptyAndDeadlockedTracesDraw) {
    Headless ui;
    AppState state;
    TimelineView view;
    TimelineCamera camera;
    RunRecord empty;
    empty.serial = 5;
    ui.frame([&] { view.draw(state, empty, camera, "tl", {0, 0}); });
    EXPECT_TRUE(view.frame().events.empty());

    Synth s(1, 32);
    const uint16_t bar = s.site(12, "bar.sync 0");
    for (uint32_t t = 0; t < 16; ++t)
        s.arrive(5, t, bar, 0);
    for (uint32_t t = 16; t < 32; ++t)
        s.exit(9, t);
    for (uint32_t t = 0; t < 16; ++t)
        s.end_waiting(t, bar);
    RunRecord dead;
    dead.serial = 6;
    dead.summary.trace = s.trace();
    camera.fit_requested = true;
    ui.frame([&] { view.draw(state, dead, camera, "tl", {0, 0}); });
    ui.frame([&] { view.draw(state, dead, camera, "tl", {0, 0}); });
    EXPECT_TRUE(view.index()->deadlocked());
    EXPECT_FALSE(view.frame().markers.empty()); // red markers at the end of the waiting rows
    bool open_wait = false;
    for (const SpanItem& w : view.frame().waits)
        open_wait = open_wait || w.open;
    EXPECT_TRUE(open_wait);
}

// Live GPU runs: each provisional record (a new serial, more events) rebuilds the index, and threads
// that arrived at a barrier while the kernel still runs are not drawn as stuck there.
TEST(TimelineView, LiveRecordsRebuildPerSerialAndShowNoDeadlock) {
    Headless ui;
    AppState state;
    TimelineView view;
    TimelineCamera camera;
    const scenario::Scenario* sc = scenario::find_scenario("stencil");
    ASSERT_NE(sc, nullptr);
    LiveTrace live(live_skeleton(*sc, sc->variants[0], Controls{}), std::chrono::milliseconds(0));
    auto events = [](uint32_t from, uint32_t to) {
        std::vector<trace::Event> out;
        for (uint32_t t = from; t < to; ++t) {
            trace::Event e;
            e.time = 1'000'000 + 40 * t; // GPU time: %globaltimer nanoseconds
            e.thread = t;
            e.site = 1;
            e.kind = trace::EventKind::BarrierArrive;
            out.push_back(e);
        }
        return out;
    };
    const auto first = live.add(events(0, 64), 64, 1.0);
    ASSERT_TRUE(first);
    ui.frame([&] { view.draw(state, *first, camera, "tl", {0, 0}); });
    ui.frame([&] { view.draw(state, *first, camera, "tl", {0, 0}); });
    ASSERT_NE(view.index(), nullptr);
    EXPECT_FALSE(view.index()->deadlocked());
    EXPECT_TRUE(view.frame().markers.empty());

    const auto second =
        live.add(events(64, 256), 256, 2.0, LiveTrace::Clock::now() + std::chrono::seconds(1));
    ASSERT_TRUE(second);
    camera.fit_requested = true;
    ui.frame([&] { view.draw(state, *second, camera, "tl", {0, 0}); });
    ASSERT_NE(view.index(), nullptr);
    EXPECT_EQ(&view.index()->trace(), &second->summary.trace);
    EXPECT_EQ(view.index()->trace().events.size(), 256u);
    EXPECT_EQ(view.index()->time_end(), 1'000'000u + 40 * 255); // the new events are in it
}

// Compare mode: a block opened in one pane opens in the other, whichever pane it was; a focused
// finding's pinned threads show in both.
TEST(TimelineView, ComparePanesShareTheirRows) {
    Headless ui;
    auto left_run = make_record(1), right_run = make_record(2);
    AppState state;
    TimelineView left, right;
    TimelineCamera camera;
    auto both = [&] {
        ImGui::BeginChild("left", {600, 0});
        left.draw(state, *left_run, camera, "left_tl", {0, 0});
        ImGui::EndChild();
        ImGui::SameLine();
        ImGui::BeginChild("right", {0, 0});
        right.draw(state, *right_run, camera, "right_tl", {0, 0});
        ImGui::EndChild();
        left.share_rows(right);
    };
    ui.frame(both);
    ASSERT_FALSE(left.expansion().block_open(2));
    right.edit_expansion().toggle_block(2);
    ui.frame(both); // shared at the end of this frame, drawn in the next
    ui.frame(both);
    EXPECT_TRUE(left.expansion().block_open(2));
    EXPECT_EQ(left.layout().rows.size(), right.layout().rows.size());
    left.edit_expansion().toggle_block(2); // and back, from the other pane
    ui.frame(both);
    EXPECT_FALSE(right.expansion().block_open(2));
    right.focus_finding(*right_run, 0, camera);
    ui.frame(both);
    ui.frame(both);
    const analysis::Finding& f = right_run->summary.findings[0];
    const uint32_t lane = left.index()->thread_slot(f.threads[0]);
    EXPECT_TRUE(left.expansion().lane_pinned(lane));
    EXPECT_EQ(left.layout().rows[left.layout().row_of_thread(*left.index(), f.threads[0])].kind,
              RowKind::Thread);
}

} // namespace
} // namespace synclab::ui
