// Budgets (app/sim/events.cpp, setup.cpp): a run that would outgrow its event or memory budget ends
// with status Budget, says which budget and how the CLI spells it, never drops an event, and says
// which blocks' histories are whole.
#include "sim_test_util.h"

#include <gtest/gtest.h>

namespace synclab::sim {
namespace {

using namespace synclab::sim::testing;
using trace::BlockHistory;
using trace::RunStatus;

const ptx::Module& kernels() {
    static const ptx::Module module = load_module("sim_kernels");
    return module;
}

// store_barrier_load: 6 events per thread (2 stores, arrive, leave, load, exit).
constexpr uint32_t kEventsPerThread = 6;

struct Outcome {
    Result result;
    trace::Trace trace;
};

Outcome store_barrier_load(uint32_t blocks, uint32_t block, Options o) {
    std::vector<Buffer> buffers = {make_buffer("out", std::vector<uint32_t>(blocks * block))};
    Outcome r;
    r.result = simulate(kernels(), "store_barrier_load", launch({blocks, 1, 1}, {block, 1, 1}), buffers,
                        {KernelArg::pointer(0)}, o, &r.trace);
    return r;
}

TEST(EventBudget, StopsWithStatusBudgetNamingTheOption) {
    Options o;
    o.max_events = 100;
    const Outcome r = store_barrier_load(2, 96, o);
    ASSERT_EQ(r.result.status, RunStatus::Budget) << r.result.message;
    EXPECT_TRUE(contains(r.result.message, "event budget of 100 events")) << r.result.message;
    EXPECT_EQ(r.result.budget, Budget::Events);
    EXPECT_TRUE(contains(r.result.message, "--max-events N")) << r.result.message;
    EXPECT_EQ(r.trace.events.size(), 100u) << "every event up to the budget, none dropped";
    EXPECT_EQ(r.trace.meta.status, RunStatus::Budget);
    EXPECT_EQ(r.trace.meta.dropped_events, 0u);
    EXPECT_EQ(r.trace.meta.status_message, r.result.message);
}

TEST(EventBudget, ExactlyEnoughEventsIsNotABudgetStop) {
    Options o;
    o.max_events = 2 * 96 * kEventsPerThread;
    const Outcome r = store_barrier_load(2, 96, o);
    ASSERT_EQ(r.result.status, RunStatus::Ok) << r.result.message;
    EXPECT_EQ(r.trace.events.size(), o.max_events);
    EXPECT_TRUE(r.trace.block_history.empty()) << "every block is whole";
}

TEST(EventBudget, BlockHistorySaysWhichBlocksAreWhole) {
    // One block resident at a time: blocks 0 and 1 finish (2 x 100 x 6 = 1,200 events), block 2 is
    // cut at 1,500 events, blocks 3-5 never start.
    Options o;
    o.max_resident_blocks = 1;
    o.max_events = 1500;
    for (Schedule s : kSchedules) {
        o.schedule = s;
        const Outcome r = store_barrier_load(6, 100, o);
        ASSERT_EQ(r.result.status, RunStatus::Budget) << r.result.message;
        ASSERT_EQ(r.trace.block_history.size(), 6u);
        EXPECT_EQ(r.trace.block_history[0], BlockHistory::Whole);
        EXPECT_EQ(r.trace.block_history[1], BlockHistory::Whole);
        EXPECT_EQ(r.trace.block_history[2], BlockHistory::Partial);
        for (uint32_t b = 3; b < 6; ++b)
            EXPECT_EQ(r.trace.block_history[b], BlockHistory::NotRecorded) << b;
        EXPECT_FALSE(r.trace.every_block_whole());
        // The thread table agrees: block 3's threads never started, block 0's exited.
        EXPECT_EQ(r.trace.threads[3 * 100].end, trace::ThreadEnd::NotStarted);
        EXPECT_EQ(r.trace.threads[0].end, trace::ThreadEnd::Exited);
    }
}

TEST(EventBudget, ManyBlocksResidentAtTheStopAreAllPartial) {
    Options o;
    o.max_events = 50;
    const Outcome r = store_barrier_load(3, 64, o);
    ASSERT_EQ(r.result.status, RunStatus::Budget);
    ASSERT_EQ(r.trace.block_history.size(), 3u);
    for (BlockHistory h : r.trace.block_history)
        EXPECT_EQ(h, BlockHistory::Partial);
}

TEST(StepBudget, AStoppedRunWithEventsMarksItsBlocksToo) {
    std::vector<Buffer> buffers = {make_buffer("flag", std::vector<uint32_t>{0})};
    Options o;
    o.max_steps = 10000;
    trace::Trace t;
    const Result r = simulate(kernels(), "spin_forever", launch({2, 1, 1}, {32, 1, 1}), buffers,
                              {KernelArg::pointer(0)}, o, &t);
    ASSERT_EQ(r.status, RunStatus::Budget);
    EXPECT_EQ(r.budget, Budget::Steps) << "a spin: the agreement table counts it as a hang";
    EXPECT_TRUE(contains(r.message, "--max-steps N")) << r.message;
    ASSERT_EQ(t.block_history.size(), 2u);
    EXPECT_EQ(t.block_history[0], BlockHistory::Partial);
    // Untraced: no events, so no block history.
    o.record_trace = false;
    trace::Trace untraced;
    simulate(kernels(), "spin_forever", launch({2, 1, 1}, {32, 1, 1}), buffers, {KernelArg::pointer(0)}, o,
             &untraced);
    EXPECT_TRUE(untraced.block_history.empty());
}

TEST(MemoryBudget, AGrowingTraceStopsAtTheBudgetNamingTheOption) {
    // 64 blocks x 96 threads x 6 events x 32 bytes = 1.18 MB of events; the state and thread table
    // need about 200 KB. A 600 KB budget is passed while the trace grows.
    Options o;
    o.max_memory_bytes = 600 * 1024;
    o.max_resident_blocks = 2;
    const Outcome r = store_barrier_load(64, 96, o);
    ASSERT_EQ(r.result.status, RunStatus::Budget) << r.result.message;
    EXPECT_TRUE(contains(r.result.message, "memory budget of 614400 bytes")) << r.result.message;
    EXPECT_TRUE(contains(r.result.message, "--max-memory BYTES")) << r.result.message;
    EXPECT_LE(r.result.memory_bytes, o.max_memory_bytes);
    EXPECT_GT(r.trace.events.size(), 0u);
    EXPECT_LE(r.trace.events.capacity() * sizeof(trace::Event), o.max_memory_bytes);
    ASSERT_EQ(r.trace.block_history.size(), 64u);
    EXPECT_EQ(r.trace.block_history[0], BlockHistory::Whole);
    EXPECT_EQ(r.trace.block_history[63], BlockHistory::NotRecorded);
    size_t partial = 0;
    for (BlockHistory h : r.trace.block_history)
        partial += h == BlockHistory::Partial;
    EXPECT_GE(partial, 1u);
    EXPECT_LE(partial, 2u);
    // Every event recorded belongs to a block that started, and whole blocks have all of theirs.
    std::vector<uint32_t> per_block(64);
    for (const trace::Event& e : r.trace.events)
        ++per_block[e.thread / 96];
    for (uint32_t b = 0; b < 64; ++b) {
        if (r.trace.block_history[b] == BlockHistory::Whole) {
            EXPECT_EQ(per_block[b], 96 * kEventsPerThread) << b;
        } else if (r.trace.block_history[b] == BlockHistory::NotRecorded) {
            EXPECT_EQ(per_block[b], 0u) << b;
        }
    }
}

TEST(MemoryBudget, TheSameRunFitsABudgetThatHoldsItsTrace) {
    Options o;
    o.max_memory_bytes = 4 * 1024 * 1024;
    const Outcome r = store_barrier_load(64, 96, o);
    ASSERT_EQ(r.result.status, RunStatus::Ok) << r.result.message;
    EXPECT_EQ(r.trace.events.size(), 64u * 96 * kEventsPerThread);
    EXPECT_LE(r.result.memory_bytes, o.max_memory_bytes);
    EXPECT_GE(r.result.memory_bytes, r.trace.events.size() * sizeof(trace::Event));
}

// A kernel that only returns: 4 M threads cost the thread table and the blocks, nothing else.
const char* kNothingPtx = R"(
.version 9.0
.target sm_75
.address_size 64
.visible .entry nothing()
{
    ret;
}
)";

TEST(MemoryBudget, AHugeLaunchIsRefusedBeforeItRunsWhenItsThreadTableCannotFit) {
    const ptx::Module m = ptx::parse_module(kNothingPtx, "nothing.ptx");
    std::vector<Buffer> buffers;
    Options o;
    o.max_memory_bytes = 50u << 20;
    trace::Trace t;
    // 16,384 x 256 = 4 M threads: a 20-byte row each in the thread table is 80 MB.
    const Result r = simulate(m, "nothing", launch({16384, 1, 1}, {256, 1, 1}), buffers, {}, o, &t);
    ASSERT_EQ(r.status, RunStatus::Budget) << r.message;
    EXPECT_TRUE(contains(r.message, "before its first instruction")) << r.message;
    EXPECT_TRUE(contains(r.message, "thread table of 4194304 threads")) << r.message;
    EXPECT_TRUE(contains(r.message, "--max-memory BYTES")) << r.message;
    EXPECT_EQ(r.thread_instructions, 0u);
    EXPECT_TRUE(t.threads.empty());
    EXPECT_TRUE(t.events.empty());
    // Without a trace the same launch needs no thread table, and runs within the budget.
    const Result untraced =
        simulate(m, "nothing", launch({16384, 1, 1}, {256, 1, 1}), buffers, {}, o, nullptr);
    ASSERT_EQ(untraced.status, RunStatus::Ok) << untraced.message;
    EXPECT_EQ(untraced.thread_instructions, 4194304u);
    EXPECT_LE(untraced.memory_bytes, o.max_memory_bytes);
}

TEST(MemoryBudget, AReusedTraceDoesNotCarryItsOldCapacityPastTheBudget) {
    trace::Trace t;
    t.events.reserve(1u << 20); // 32 MB from an earlier run
    Options o;
    o.max_memory_bytes = 2u << 20;
    std::vector<Buffer> buffers = {make_buffer("out", std::vector<uint32_t>(2 * 96))};
    const Result r = simulate(kernels(), "store_barrier_load", launch({2, 1, 1}, {96, 1, 1}), buffers,
                              {KernelArg::pointer(0)}, o, &t);
    ASSERT_EQ(r.status, RunStatus::Ok) << r.message;
    EXPECT_LE(t.events.capacity() * sizeof(trace::Event), o.max_memory_bytes);
    EXPECT_EQ(t.events.size(), 2u * 96 * kEventsPerThread);
}

// The kernel's buffers and what the caller keeps count too: a launch small in itself but with a
// 64 MB output buffer does not fit 16 MB; it fits 128 MB until the caller holds another 64 MB.
TEST(MemoryBudget, BuffersAndWhatTheCallerHoldsCount) {
    std::vector<Buffer> big = {make_buffer("out", std::vector<uint32_t>(16u << 20))};
    Options o;
    o.max_memory_bytes = 16u << 20;
    trace::Trace t;
    Result r = simulate(kernels(), "store_barrier_load", launch({1, 1, 1}, {32, 1, 1}), big,
                        {KernelArg::pointer(0)}, o, &t);
    ASSERT_EQ(r.status, RunStatus::Budget) << r.message;
    EXPECT_EQ(r.budget, Budget::Memory);
    EXPECT_NE(r.message.find("the kernel's buffers of 67108864 bytes"), std::string::npos) << r.message;
    o.max_memory_bytes = 128u << 20;
    r = simulate(kernels(), "store_barrier_load", launch({1, 1, 1}, {32, 1, 1}), big, {KernelArg::pointer(0)},
                 o, &t);
    EXPECT_EQ(r.status, RunStatus::Ok) << r.message;
    o.held_by_caller_bytes = 64u << 20;
    r = simulate(kernels(), "store_barrier_load", launch({1, 1, 1}, {32, 1, 1}), big, {KernelArg::pointer(0)},
                 o, &t);
    ASSERT_EQ(r.status, RunStatus::Budget) << r.message;
    EXPECT_NE(r.message.find("67108864 bytes of inputs and results kept"), std::string::npos) << r.message;
}

TEST(EventReserve, ATracedRunReservesAboutWhatItRecords) {
    Options o;
    const Outcome r = store_barrier_load(8, 256, o);
    ASSERT_EQ(r.result.status, RunStatus::Ok);
    EXPECT_EQ(r.trace.events.size(), 8u * 256 * kEventsPerThread);
    // Reserved slots beyond what was recorded (untouched, so not resident) stay within a factor 2.
    EXPECT_LE(r.trace.events.capacity(), 2 * r.trace.events.size());
}

} // namespace
} // namespace synclab::sim
