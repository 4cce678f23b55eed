// Analysing a GPU trace as it arrives (RunRequest::events_by_block, gpu/block_receiver.h), without a
// GPU: the runner's GPU side talks to synclab-sim-worker, which answers as the real worker does (a
// stripe per warp, then the events a batch of whole blocks at a time). The findings must be those of
// the whole trace, while the plain shared-memory accesses never reach the kept trace.
#include "analysis/streamed.h"
#include "gpu/block_receiver.h"
#include "gpu/tiled_matmul.h"
#include "gpu/trace_plan.h"
#include "runner/runner.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>

namespace synclab {
namespace {

using gpu::testing::matmul_job;
using gpu::testing::tiled_matmul;

constexpr uint32_t kWidth = 64; // 4 x 4 blocks of 16 x 16 threads, 41,472 events a block

// first_events: the simulator worker's buffer is host memory, so not the 2 GiB a streamed first
// launch gets by default on a GPU; 2^20 slots hold every block here (5,184 events a warp).
runner::RunSummary run_on_sim_worker(const std::string& kernel, bool as_it_arrives,
                                     uint64_t first_events = uint64_t(1) << 20) {
    runner::RunOptions o;
    o.gpu.trace.first_events = first_events;
    o.backend = "gpu";
    o.reps = 1;
    o.gpu.worker = SYNCLAB_SIM_WORKER;
    o.gpu.untraced = false;
    o.analyse_as_it_runs = as_it_arrives;
    return runner::run_job(matmul_job(kernel, kWidth), o);
}

std::string describe(const std::vector<analysis::Finding>& findings) {
    std::string out;
    for (const analysis::Finding& f : findings)
        out += f.message + " [" + std::to_string(f.count) + "]\n";
    return out;
}

void expect_same_findings_both_ways(const std::string& kernel, bool racy) {
    // Batches of about two blocks: eight batches, several analysed at once.
    setenv("SYNCLAB_SIM_WORKER_BATCH_EVENTS", "60000", 1);
    const runner::RunSummary whole = run_on_sim_worker(kernel, false);
    const runner::RunSummary streamed = run_on_sim_worker(kernel, true);
    ASSERT_EQ(whole.status, trace::RunStatus::Ok) << whole.message;
    ASSERT_EQ(streamed.status, trace::RunStatus::Ok) << streamed.message;
    EXPECT_EQ(whole.analysed_and_dropped, 0u);
    EXPECT_EQ(streamed.events, whole.events);
    // The tiles' shared stores and loads (most of a thread's 162 events) left; the global loads,
    // barriers and exits stayed.
    EXPECT_GT(streamed.analysed_and_dropped, streamed.events / 2);
    EXPECT_EQ(streamed.trace.events.size() + streamed.analysed_and_dropped, whole.trace.events.size());
    for (const trace::Event& e : streamed.trace.events)
        ASSERT_FALSE(e.is_memory_access() && !e.is_atomic() && e.space() == trace::Space::Shared)
            << "a plain shared access was kept";
    EXPECT_TRUE(std::is_sorted(streamed.trace.events.begin(), streamed.trace.events.end(),
                               [](const trace::Event& a, const trace::Event& b) { return a.time < b.time; }));
    EXPECT_EQ(streamed.trace.threads.size(), whole.trace.threads.size());
    EXPECT_EQ(streamed.trace.block_history, whole.trace.block_history);
    EXPECT_EQ(describe(streamed.findings), describe(whole.findings));
    EXPECT_EQ(whole.findings.empty(), !racy) << describe(whole.findings);
    // Where the time went (check's report): the worker's request, and of it the runner's taking
    // of the batches; none taken where the events came whole.
    const runner::GpuSide& t = streamed.gpu_traced;
    EXPECT_GT(t.worker_ms, 0.0);
    EXPECT_GT(t.take_ms, 0.0);
    EXPECT_LE(t.worker_ms, t.launch_and_transfer_ms);
    // ... and the worker's split of its own (both launches' phases added up, as their times are).
    const gpu::WorkerPhases& p = t.worker_phases;
    EXPECT_GT(p.module_ms, 0.0);
    EXPECT_GT(p.launch_ms, 0.0);
    EXPECT_GT(p.readback_ms, 0.0) << "the batches went out while it was reading back";
    const double phases = p.module_ms + p.setup_ms + p.launch_ms + p.readback_ms;
    EXPECT_LE(phases, t.worker_ms + 0.01);
    EXPECT_GE(phases, 0.9 * t.worker_ms);
    EXPECT_EQ(whole.gpu_traced.take_ms, 0.0);
}

TEST(BlockEvents, ARacyKernelGivesTheWholeTracesFindingsBatchByBatch) {
    expect_same_findings_both_ways(tiled_matmul().racy, true);
}

TEST(BlockEvents, ACorrectKernelStaysCleanBatchByBatch) {
    expect_same_findings_both_ways(tiled_matmul().correct, false);
}

TEST(BlockEvents, AFirstLaunchThatOverflowedIsTracedAgainWithAStripePerWarpAndStreamed) {
    setenv("SYNCLAB_SIM_WORKER_BATCH_EVENTS", "100000", 1);
    const runner::RunSummary whole = run_on_sim_worker(tiled_matmul().racy, false);
    // 10,000 slots over 128 stripes: every warp overflows the first time.
    const runner::RunSummary streamed = run_on_sim_worker(tiled_matmul().racy, true, 10000);
    ASSERT_EQ(streamed.status, trace::RunStatus::Ok) << streamed.message;
    EXPECT_EQ(streamed.gpu_traced.streamed_events, whole.events);
    EXPECT_EQ(streamed.gpu_traced.dropped_events, 0u);
    EXPECT_GT(streamed.analysed_and_dropped, 0u);
    EXPECT_NE(streamed.gpu_traced.message.find("traced again with a buffer of"), std::string::npos)
        << streamed.gpu_traced.message;
    EXPECT_EQ(describe(streamed.findings), describe(whole.findings));
}

TEST(BlockEvents, BatchesOfWholeBlocksFromPerWarpStripes) {
    // 3 blocks of 2 warps; warp counts 5, 0 | 7, 1 | 2, 2.
    const std::vector<uint64_t> cursors = {5, 0, 7, 1, 2, 2, 0, 0};
    const std::vector<trace::BlockBatch> b = trace::block_batches(cursors, 3, 2, 6);
    ASSERT_EQ(b.size(), 2u);
    EXPECT_EQ(b[0].first_block, 0u);
    EXPECT_EQ(b[0].blocks, 2u); // 5 < 6: the second block joins (13)
    EXPECT_EQ(b[0].events, 13u);
    EXPECT_EQ(b[1].first_block, 2u);
    EXPECT_EQ(b[1].blocks, 1u);
    EXPECT_EQ(b[1].events, 4u);
    // A block larger than the target is a batch of its own.
    EXPECT_EQ(trace::block_batches(cursors, 3, 2, 1).size(), 3u);

    EXPECT_EQ(gpu::per_warp_stripes(6), 8u);
    EXPECT_EQ(gpu::per_warp_stripes(1), 1u);
    EXPECT_EQ(gpu::per_warp_stripes(uint64_t(trace::kMaxStripes) + 1), 0u);
    const trace::TraceBufferLayout l = gpu::per_warp_layout({5, 0, 7, 1, 2, 2});
    EXPECT_EQ(l.stripes, 8u);
    EXPECT_EQ(l.stripe_capacity, 7u + 0 + 64);
    EXPECT_TRUE(trace::one_warp_per_stripe(l, 6, false));
    EXPECT_FALSE(trace::one_warp_per_stripe(l, 6, true)) << "a block table ranks blocks otherwise";
    EXPECT_FALSE(trace::one_warp_per_stripe(l, 9, false));
}

// A sink that keeps what it was given.
struct Keeper final : trace::BlockSink {
    std::vector<trace::FinishedBlocks> batches;
    void take(const trace::Trace&, trace::FinishedBlocks batch) override { batches.push_back(std::move(batch)); }
    bool drops(const trace::Event& e) const override { return e.kind == trace::EventKind::Load; }
};

trace::Event event(uint32_t thread, trace::EventKind kind, uint64_t time) {
    trace::Event e{};
    e.thread = thread;
    e.kind = kind;
    e.time = time;
    return e;
}

TEST(BlockEvents, TheReceiverKeepsWhatTheSinkLeavesAndRefusesBlocksOutOfOrder) {
    trace::Trace recording;
    recording.meta.grid = {3, 1, 1};
    recording.meta.block = {2, 1, 1};
    Keeper sink;
    gpu::BlockEventsReceiver r(sink, recording);
    gpu::BlockEvents b;
    b.first_block = 0;
    b.blocks = 2;
    b.events = {event(0, trace::EventKind::Load, 5), event(0, trace::EventKind::Exit, 6),
                event(3, trace::EventKind::BarrierArrive, 2)};
    r.take(std::move(b));
    ASSERT_EQ(sink.batches.size(), 1u);
    EXPECT_EQ(sink.batches[0].blocks, (std::vector<uint32_t>{0, 1}));
    EXPECT_FALSE(sink.batches[0].in_trace_order);
    EXPECT_EQ(sink.batches[0].events.size(), 3u);
    EXPECT_EQ(r.kept().size(), 2u);
    EXPECT_EQ(r.dropped(), 1u);
    EXPECT_EQ(r.per_block(), (std::vector<uint64_t>{2, 1, 0}));
    EXPECT_EQ(r.ends().kind[0], static_cast<uint8_t>(trace::EventKind::Exit));
    EXPECT_EQ(r.ends().kind[3], static_cast<uint8_t>(trace::EventKind::BarrierArrive));

    gpu::BlockEvents skipped;
    skipped.first_block = 0; // block 2 came next
    skipped.blocks = 1;
    EXPECT_THROW(r.take(std::move(skipped)), gpu::ProtocolError);
    gpu::BlockEvents stray;
    stray.first_block = 2;
    stray.blocks = 1;
    stray.events = {event(1, trace::EventKind::Exit, 9)}; // thread 1 is block 0's
    EXPECT_THROW(r.take(std::move(stray)), gpu::ProtocolError);
}

// The receiver counts each block's events while a warp's come together and when threads of the
// batch's blocks alternate; told how many events will come, it sizes the kept vector once from the
// first batch's share (here 2 of 4 kept: about half of the 396 still to come); StreamedAnalysis keeps
// what its drops() leaves, batch by batch.
TEST(BlockEvents, TheReceiverCountsBlocksInAnyOrderAndSizesTheKeptEventsOnce) {
    trace::Trace recording;
    recording.meta.grid = {4, 1, 1};
    recording.meta.block = {2, 1, 1};
    Keeper sink;
    gpu::BlockEventsReceiver r(sink, recording, 400);
    gpu::BlockEvents b;
    b.first_block = 0;
    b.blocks = 2;
    b.events = {event(2, trace::EventKind::Load, 1), event(0, trace::EventKind::Exit, 2),
                event(3, trace::EventKind::Load, 3), event(1, trace::EventKind::Exit, 4)};
    r.take(std::move(b));
    EXPECT_EQ(r.per_block(), (std::vector<uint64_t>{2, 2, 0, 0}));
    EXPECT_EQ(r.kept().size(), 2u);
    EXPECT_GE(r.kept().capacity(), 2u + 396u / 2) << "sized for the rest at the first batch's share";
    EXPECT_LE(r.kept().capacity(), 2u + 208u + 1024u) << "5% and 1,024 slots over, not room for every event";
    gpu::BlockEvents next;
    next.first_block = 2;
    next.blocks = 2;
    next.events = {event(7, trace::EventKind::Exit, 5), event(4, trace::EventKind::Exit, 6)};
    r.take(std::move(next));
    EXPECT_EQ(r.per_block(), (std::vector<uint64_t>{2, 2, 1, 1}));
    EXPECT_EQ(r.kept().size(), 4u);
    EXPECT_EQ(r.dropped(), 2u);

    analysis::StreamedAnalysis streamed(1);
    std::vector<trace::Event> events(4), kept;
    events[0].kind = trace::EventKind::Load;
    events[0].flags = trace::make_flags(trace::Space::Shared, 4);
    events[1].kind = trace::EventKind::Load;
    events[1].flags = trace::make_flags(trace::Space::Global, 4);
    events[2].kind = trace::EventKind::Atomic;
    events[2].flags = trace::make_flags(trace::Space::Shared, 4);
    events[3].kind = trace::EventKind::BarrierArrive;
    streamed.keep(events, kept);
    ASSERT_EQ(kept.size(), 3u) << "only the plain shared load leaves";
    for (size_t i = 0; i < events.size(); ++i)
        EXPECT_EQ(streamed.drops(events[i]), i == 0);
}

} // namespace
} // namespace synclab
