// Scheduling policies (app/sim/scheduler.h) on hand-made warp sets: what each policy picks, the
// replay contract (same seed, same choices), and what a policy can see of the warps.
#include "ptx/parser.h"
#include "sim/scheduler.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

namespace synclab::sim {
namespace {

// pc 0: a shared-memory load, 1: an add, 2: ret.
const char* kPtx = R"(
.version 9.0
.target sm_75
.address_size 64
.visible .entry k()
{
    .reg .b32 %r<3>;
    ld.shared.u32 %r1, [0];
    add.u32 %r2, %r1, 1;
    ret;
}
)";

struct Fixture {
    ptx::Module module = ptx::parse_module(kPtx, "k.ptx");
    const ptx::Function& fn = module.require_entry("k");
    std::vector<uint8_t> is_exit = {0, 0, 1, 0};
    std::vector<Block> blocks;
    std::vector<Warp*> warps;

    // `count` warps in blocks of 4, every lane ready at `pc`.
    explicit Fixture(uint32_t count, uint32_t pc = 1) : blocks((count + 3) / 4) {
        for (size_t b = 0; b < blocks.size(); ++b) {
            blocks[b].linear = static_cast<uint32_t>(b);
            blocks[b].warps.resize(4);
        }
        for (uint32_t w = 0; w < count; ++w) {
            Warp& warp = blocks[w / 4].warps[w % 4];
            warp.index = w % 4;
            warp.block = &blocks[w / 4];
            warp.present_mask = warp.ready_mask = kFullMask;
            warp.uniform = true;
            warp.upc = pc;
            warps.push_back(&warp);
        }
    }
    WarpSet set() const { return WarpSet(warps, fn, is_exit.data()); }
};

std::vector<std::pair<size_t, uint32_t>> picks(Scheduler& s, const Fixture& f, int n) {
    std::vector<std::pair<size_t, uint32_t>> out;
    for (int i = 0; i < n; ++i) {
        const Pick p = s.pick(f.set());
        out.emplace_back(p.warp, p.quantum);
    }
    return out;
}

// [SECTION] rr

TEST(RoundRobin, WarpsInTurnOneInstructionEach) {
    Fixture f(4);
    RoundRobinScheduler rr;
    EXPECT_EQ(rr.kind(), Schedule::RoundRobin);
    const auto got = picks(rr, f, 9);
    for (int i = 0; i < 9; ++i) {
        EXPECT_EQ(got[i].first, size_t(i % 4)) << i;
        EXPECT_EQ(got[i].second, 1u);
    }
}

TEST(RoundRobin, SkipsWarpsThatCannotRunAndSaysWhenNoneCan) {
    Fixture f(4);
    f.warps[1]->ready_mask = 0;
    f.warps[2]->ready_mask = 0;
    RoundRobinScheduler rr;
    const auto got = picks(rr, f, 4);
    EXPECT_EQ(got[0].first, 0u);
    EXPECT_EQ(got[1].first, 3u);
    EXPECT_EQ(got[2].first, 0u);
    EXPECT_EQ(got[3].first, 3u);
    for (Warp* w : f.warps)
        w->ready_mask = 0;
    EXPECT_EQ(rr.pick(f.set()).warp, Pick::kNone);
}

TEST(RoundRobin, CursorStaysInsideAShrunkenSet) {
    Fixture f(4);
    RoundRobinScheduler rr;
    picks(rr, f, 3); // the cursor is at warp 3 now
    f.warps.resize(2);
    rr.resident_changed(f.set());
    const Pick p = rr.pick(f.set());
    ASSERT_NE(p.warp, Pick::kNone);
    EXPECT_LT(p.warp, 2u);
}

TEST(RoundRobin, IsDeterministicWhateverTheSeed) {
    Fixture f(5);
    auto a = make_scheduler(Schedule::RoundRobin, 1);
    auto b = make_scheduler(Schedule::RoundRobin, 99);
    EXPECT_EQ(picks(*a, f, 50), picks(*b, f, 50));
}

// [SECTION] random

TEST(Random, SameSeedSameChoicesDifferentSeedsDiffer) {
    Fixture f(8);
    RandomScheduler a(42), b(42), c(43);
    const auto pa = picks(a, f, 500);
    EXPECT_EQ(pa, picks(b, f, 500));
    EXPECT_NE(pa, picks(c, f, 500));
}

TEST(Random, PicksOnlyRunnableWarpsWithQuantaOf1To8AndReachesEveryOne) {
    Fixture f(8);
    f.warps[3]->ready_mask = 0;
    RandomScheduler r(7);
    std::set<size_t> seen;
    std::set<uint32_t> quanta;
    for (const auto& [warp, quantum] : picks(r, f, 2000)) {
        ASSERT_NE(warp, Pick::kNone);
        EXPECT_NE(warp, 3u);
        seen.insert(warp);
        quanta.insert(quantum);
    }
    EXPECT_EQ(seen.size(), 7u);
    EXPECT_EQ(*quanta.begin(), 1u);
    EXPECT_EQ(*quanta.rbegin(), 8u);
    for (Warp* w : f.warps)
        w->ready_mask = 0;
    EXPECT_EQ(r.pick(f.set()).warp, Pick::kNone);
}

// [SECTION] adversarial

TEST(Adversarial, HoldsVictimsBackAtSharedMemoryAccesses) {
    Fixture f(16, /*pc=*/0); // every warp is about to load from shared memory
    AdversarialScheduler adv(5);
    std::set<size_t> victims;
    for (size_t i = 0; i < f.warps.size(); ++i)
        if (adv.is_victim(*f.warps[i])) victims.insert(i);
    ASSERT_FALSE(victims.empty());
    ASSERT_LT(victims.size(), f.warps.size());
    // Fewer picks than the delay bound: no victim runs while others can.
    for (const auto& [warp, quantum] : picks(adv, f, 200)) {
        EXPECT_EQ(victims.count(warp), 0u) << "victim " << warp << " was not held back";
        EXPECT_GE(quantum, 1u);
        EXPECT_LE(quantum, 4u);
    }
    // The delay is bounded: a victim held back kMaxDelays times in a row runs.
    std::set<size_t> ran;
    for (const auto& p : picks(adv, f, 20000))
        ran.insert(p.first);
    for (size_t v : victims)
        EXPECT_EQ(ran.count(v), 1u) << "victim " << v << " starved";
}

TEST(Adversarial, DoesNotDelayOtherInstructions) {
    Fixture f(16, /*pc=*/1); // an add: nothing to overtake
    AdversarialScheduler adv(5);
    std::set<size_t> ran;
    for (const auto& p : picks(adv, f, 400))
        ran.insert(p.first);
    EXPECT_EQ(ran.size(), 16u);
}

TEST(Adversarial, RunsAVictimWhenOnlyVictimsCanRun) {
    Fixture f(16, 0);
    AdversarialScheduler adv(5);
    size_t victim = Pick::kNone;
    for (size_t i = 0; i < f.warps.size(); ++i)
        if (adv.is_victim(*f.warps[i]))
            victim = i;
        else
            f.warps[i]->ready_mask = 0;
    ASSERT_NE(victim, Pick::kNone);
    EXPECT_NE(adv.pick(f.set()).warp, Pick::kNone);
}

TEST(Adversarial, SameSeedSameChoices) {
    Fixture f(16, 0);
    auto a = make_scheduler(Schedule::Adversarial, 9);
    Fixture g(16, 0);
    auto b = make_scheduler(Schedule::Adversarial, 9);
    EXPECT_EQ(a->kind(), Schedule::Adversarial);
    EXPECT_EQ(picks(*a, f, 1000), picks(*b, g, 1000));
}

// [SECTION] What a policy sees

TEST(WarpSet, NextInstructionIsTheLowestPcGroupUnlessLanesAreAtAnExit) {
    Fixture f(1);
    Warp& w = *f.warps[0];
    w.uniform = false;
    w.ready_mask = 0b111;
    w.pc[0] = 1;
    w.pc[1] = 0;
    w.pc[2] = 0;
    Group g = f.set().next_group(0);
    EXPECT_EQ(g.pc, 0u);
    EXPECT_EQ(g.mask, 0b110u);
    EXPECT_EQ(f.set().next_instruction(0)->op, ptx::Op::Ld);
    w.pc[0] = 2; // at ret: runs first
    g = f.set().next_group(0);
    EXPECT_EQ(g.pc, 2u);
    EXPECT_EQ(g.mask, 0b001u);
    EXPECT_EQ(f.set().next_instruction(0)->op, ptx::Op::Ret);
}

} // namespace
} // namespace synclab::sim
