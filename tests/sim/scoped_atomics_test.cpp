// Scoped atomics in the memory models: an atomic is indivisible only with respect to the atomics
// morally strong with it (PTX ISA, Memory Consistency Model: atomicity). Two blocks' atom.cta.add
// on one global counter are not, so the relaxed model may let both read the same old value (a lost
// update); the sequentially consistent model keeps every atomic indivisible.
#include "ptx/parser.h"
#include "sim/simulator.h"
#include "sim_test_util.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace synclab::sim {
namespace {

using namespace synclab::sim::testing;

// Every thread adds 1 to mem[0] with `even` in even blocks and `odd` in odd ones (an atom
// instruction without its operands, e.g. "atom.global.cta.add.u32"; without a state space the
// address is generic and resolves to global memory).
std::string count_ptx(const std::string& even, const std::string& odd) {
    return R"(.version 8.0
.target sm_70
.address_size 64
.visible .entry count(.param .u64 p_mem)
{
  .reg .u32 %r<6>;
  .reg .u64 %rd<2>;
  .reg .pred %p<2>;
  ld.param.u64 %rd1, [p_mem];
  mov.u32 %r1, %ctaid.x;
  and.b32 %r2, %r1, 1;
  setp.ne.u32 %p1, %r2, 0;
  @%p1 bra ODD;
  )" + even +
           R"( %r3, [%rd1], 1;
  bra DONE;
ODD:
  )" + odd +
           R"( %r3, [%rd1], 1;
DONE:
  ret;
}
)";
}

// Each block counts its threads on a __shared__ word with atom.shared.cta.add, then thread 0 adds
// the block's count to mem[0] with a device-scope atomic.
const char* kSharedPtx = R"(.version 8.0
.target sm_70
.address_size 64
.visible .entry count(.param .u64 p_mem)
{
  .reg .u32 %r<6>;
  .reg .u64 %rd<2>;
  .reg .pred %p<2>;
  .shared .align 4 .u32 s_count;
  ld.param.u64 %rd1, [p_mem];
  mov.u32 %r1, %tid.x;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra ADD;
  st.shared.u32 [s_count], 0;
ADD:
  bar.sync 0;
  atom.shared.cta.add.u32 %r2, [s_count], 1;
  bar.sync 0;
  @%p1 bra DONE;
  ld.shared.u32 %r3, [s_count];
  atom.global.add.u32 %r4, [%rd1], %r3;
DONE:
  ret;
}
)";

const std::vector<KernelArg> kArgs = {KernelArg::pointer(0)};

// The counter after one run.
uint32_t run_once(const ptx::Module& m, const LaunchConfig& shape, MemoryModel memory, Schedule schedule,
                  uint64_t seed) {
    Options o = with_schedule(schedule, seed);
    o.memory = memory;
    o.record_trace = false;
    std::vector<Buffer> b = {make_buffer<uint32_t>("mem", {0})};
    const Result r = simulate(m, "count", shape, b, kArgs, o, nullptr);
    EXPECT_EQ(r.status, trace::RunStatus::Ok) << r.message;
    return values_of<uint32_t>(b[0])[0];
}

// The counts seen over seeds 1..seeds of the random and adversarial schedules (and round robin).
std::set<uint32_t> counts(const ptx::Module& m, const LaunchConfig& shape, MemoryModel memory,
                          int seeds = 20) {
    std::set<uint32_t> seen;
    for (Schedule s : kSchedules)
        for (int seed = 1; seed <= seeds; ++seed)
            seen.insert(run_once(m, shape, memory, s, seed));
    return seen;
}

// Every execution the relaxed model allows, for a small launch: the set of final counts.
std::set<uint32_t> explored(const ptx::Module& m, const LaunchConfig& shape) {
    Options o;
    o.memory = MemoryModel::Relaxed;
    o.record_trace = false;
    std::set<uint32_t> seen;
    const Exploration e = explore(m, "count", shape, {make_buffer<uint32_t>("mem", {0})}, kArgs, o, {},
                                  [&](const Result& r, const std::vector<Buffer>& after, trace::Trace*) {
                                      EXPECT_EQ(r.status, trace::RunStatus::Ok) << r.message;
                                      seen.insert(values_of<uint32_t>(after[0])[0]);
                                      return true;
                                  });
    EXPECT_TRUE(e.complete) << e.stopped;
    return seen;
}

const LaunchConfig kGrid = launch({8, 1, 1}, {64, 1, 1}); // 512 threads

// Verdict: atom.global.cta.add by 8 blocks -> under relaxed memory some seed loses updates (a count
// below 512, never above); under sc memory every run counts 512.
TEST(ScopedAtomics, BlockScopeAcrossBlocksLosesUpdatesOnlyUnderRelaxed) {
    const ptx::Module m =
        ptx::parse_module(count_ptx("atom.global.cta.add.u32", "atom.global.cta.add.u32"), "c.ptx");
    const std::set<uint32_t> relaxed = counts(m, kGrid, MemoryModel::Relaxed);
    EXPECT_GT(relaxed.size(), 1u) << "no lost update in 60 relaxed runs";
    EXPECT_LT(*relaxed.begin(), 512u);
    EXPECT_EQ(*relaxed.rbegin(), 512u) << "round robin reads the newest value";
    EXPECT_EQ(counts(m, kGrid, MemoryModel::Sc), (std::set<uint32_t>{512}));
}

// Verdict: device scope (atom.global.add, no scope: .gpu), .gpu and .sys -> always 512 under both
// models; block scope inside one block (one block of 512 threads) -> always 512.
TEST(ScopedAtomics, WideScopesAndOneBlockNeverLose) {
    for (const char* op : {"atom.global.add.u32", "atom.global.gpu.add.u32", "atom.global.sys.add.u32",
                           "atom.relaxed.gpu.add.u32"}) {
        SCOPED_TRACE(op);
        const ptx::Module m = ptx::parse_module(count_ptx(op, op), "c.ptx");
        EXPECT_EQ(counts(m, kGrid, MemoryModel::Relaxed), (std::set<uint32_t>{512}));
    }
    const ptx::Module cta =
        ptx::parse_module(count_ptx("atom.global.cta.add.u32", "atom.global.cta.add.u32"), "c.ptx");
    EXPECT_EQ(counts(cta, launch({1, 1, 1}, {512, 1, 1}), MemoryModel::Relaxed), (std::set<uint32_t>{512}));
}

// Verdict: block scope on shared memory (each block its own counter) -> always 512.
TEST(ScopedAtomics, BlockScopeOnSharedMemoryNeverLoses) {
    const ptx::Module m = ptx::parse_module(kSharedPtx, "s.ptx");
    EXPECT_EQ(counts(m, kGrid, MemoryModel::Relaxed), (std::set<uint32_t>{512}));
}

// Every execution of two blocks of one thread: block scope allows the lost update (count 1); device
// scope does not; one block at .cta and the other at .gpu is not atomic either (the .cta one's
// scope leaves the other block out); a generic address that resolves to global counts the same.
TEST(ScopedAtomics, ExhaustiveTwoBlocks) {
    const LaunchConfig two = launch({2, 1, 1}, {1, 1, 1});
    auto outcomes = [&](const char* even, const char* odd) {
        return explored(ptx::parse_module(count_ptx(even, odd), "c.ptx"), two);
    };
    EXPECT_EQ(outcomes("atom.global.cta.add.u32", "atom.global.cta.add.u32"), (std::set<uint32_t>{1, 2}));
    EXPECT_EQ(outcomes("atom.relaxed.cta.add.u32", "atom.relaxed.cta.add.u32"), (std::set<uint32_t>{1, 2}));
    EXPECT_EQ(outcomes("atom.global.cta.add.u32", "atom.global.gpu.add.u32"), (std::set<uint32_t>{1, 2}));
    EXPECT_EQ(outcomes("atom.global.gpu.add.u32", "atom.global.gpu.add.u32"), (std::set<uint32_t>{2}));
    EXPECT_EQ(outcomes("atom.global.sys.add.u32", "atom.global.add.u32"), (std::set<uint32_t>{2}));
}

} // namespace
} // namespace synclab::sim
