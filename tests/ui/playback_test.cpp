// The playhead (app/ui/model/playback.h): stepping by event and by warp instruction, forward and back; each
// warp's current line; a block's shared memory at the cursor with stale slots; and real runs of the
// stencil, where the broken variant's loads read stale slots and the correct one's never do.
#include "timeline_test_util.h"
#include "ui/model/playback.h"

#include "runner/runner.h"
#include "scenario/scenario.h"

#include <gtest/gtest.h>

namespace synclab::ui {
namespace {

using testing::Synth;

// Two warps of one block: warp 0's lanes 0-1 store at t=1 (one instruction), warp 1's lane 32 stores
// at t=1 too (another warp: another instruction), lane 0 loads at t=2.
struct TwoWarps {
    Synth s{1, 64};
    uint16_t st = s.site(10), ld = s.site(12, "ld.shared.u32 %r1, [%r2]");
    uint32_t a = s.store(1, 0, st, 0), b = s.store(1, 1, st, 4), c = s.store(1, 32, st, 128);
    uint32_t d = s.load(2, 0, ld, 4);
};

TEST(Playback, StepsByEventAndByWarpInstruction) {
    TwoWarps f;
    Playback p(f.s.trace());
    ASSERT_EQ(p.size(), 4u);
    EXPECT_EQ(p.current_event(), UINT32_MAX);
    p.step_event(+1);
    EXPECT_EQ(p.current_event(), f.a);
    p.step_event(-5); // clamped
    EXPECT_EQ(p.cursor(), 0u);
    p.step_instruction(+1); // warp 0's store: both lanes
    EXPECT_EQ(p.cursor(), 2u);
    EXPECT_EQ(p.current_instruction(), (std::vector<uint32_t>{f.a, f.b}));
    p.step_instruction(+1); // warp 1's store at the same time is another instruction
    EXPECT_EQ(p.cursor(), 3u);
    EXPECT_EQ(p.current_instruction(), std::vector<uint32_t>{f.c});
    p.step_instruction(+5);
    EXPECT_EQ(p.cursor(), 4u);
    EXPECT_DOUBLE_EQ(p.camera_time(), 1.0); // relative to the first event
    p.step_instruction(-2);
    EXPECT_EQ(p.cursor(), 2u);
    p.step_instruction(-1);
    EXPECT_EQ(p.cursor(), 0u);
    p.step_instruction(-1);
    EXPECT_EQ(p.cursor(), 0u);
}

TEST(Playback, EachWarpsCurrentLine) {
    TwoWarps f;
    Playback p(f.s.trace());
    EXPECT_TRUE(p.current_lines().empty());
    p.seek(3);
    EXPECT_EQ(p.current_lines(), std::vector<uint32_t>{10});
    ASSERT_EQ(p.warps_at().size(), 2u);
    p.seek(4); // warp 0 moved on to its load; warp 1 is still at its store
    EXPECT_EQ(p.current_lines(), (std::vector<uint32_t>{10, 12}));
}

TEST(Playback, SharedMemoryAtTheCursorMarksStaleSlots) {
    // Thread 1 loads word 0 at t=2 before thread 0 stores it at t=3; a barrier releases at t=5; then
    // thread 0 stores word 0 again at t=6.
    Synth s(1, 2);
    const uint16_t st = s.site(10), ld = s.site(12, "ld.shared.u32 %r1, [%r2]"),
                   bar = s.site(14, "bar.sync 0");
    s.store(1, 1, st, 4);
    const uint32_t load = s.load(2, 1, ld, 0);
    const uint32_t store = s.store(3, 0, st, 0);
    s.arrive(4, 0, bar, 0);
    s.arrive(4, 1, bar, 0);
    s.leave(5, 0, bar, 0);
    s.leave(5, 1, bar, 0);
    const uint32_t again = s.store(6, 0, st, 0);
    Playback p(s.trace());
    p.seek(2); // just after the load: word 0 not written yet, and its store comes before the release
    std::vector<Playback::Slot> m = p.shared_memory(0);
    ASSERT_EQ(m.size(), 2u);
    EXPECT_EQ(p.current_event(), load);
    EXPECT_FALSE(m[0].written);
    EXPECT_TRUE(m[0].stale);
    EXPECT_TRUE(m[0].read_now);
    EXPECT_EQ(m[0].next_writer, store);
    EXPECT_TRUE(m[1].written);
    EXPECT_FALSE(m[1].stale);
    p.seek(7); // after the release: the next store to word 0 has no barrier before it
    m = p.shared_memory(0);
    EXPECT_TRUE(m[0].written);
    EXPECT_EQ(m[0].writer, store);
    EXPECT_EQ(m[0].next_writer, again);
    EXPECT_TRUE(m[0].stale); // no barrier between now and that store
    p.seek(3);               // before the barrier: the store at t=6 comes after the release at t=5
    m = p.shared_memory(0);
    EXPECT_FALSE(m[0].stale);
    EXPECT_TRUE(p.shared_memory(0, 1).empty()); // more words than asked for: too large to show
}

// Over a real run: how many loads read a stale slot of their block at the moment they ran.
size_t stale_loads(const char* variant) {
    const scenario::Scenario* s = scenario::find_scenario("stencil");
    const scenario::Variant* v = s->find_variant(variant);
    runner::RunOptions o;
    const runner::RunSummary run = runner::run_scenario(*s, *v, o);
    Playback p(run.trace);
    size_t stale = 0;
    // Block 0 only (its loads are what the slot states are computed for), instruction by instruction.
    while (p.cursor() < p.size()) {
        p.step_instruction(+1);
        bool load_in_block0 = false;
        for (uint32_t e : p.current_instruction()) {
            const trace::Event& ev = run.trace.events[e];
            load_in_block0 =
                load_in_block0 || (ev.kind == trace::EventKind::Load && ev.space() == trace::Space::Shared &&
                                   run.trace.threads[ev.thread].block == 0);
        }
        if (!load_in_block0) continue;
        for (const Playback::Slot& slot : p.shared_memory(0))
            stale += slot.read_now && slot.stale;
    }
    return stale;
}

TEST(PlaybackRealRun, TheBrokenStencilReadsStaleSlotsAndTheCorrectOneNever) {
    EXPECT_GT(stale_loads("missing_barrier"), 0u);
    EXPECT_EQ(stale_loads("correct"), 0u);
}

} // namespace
} // namespace synclab::ui
