// Sizing the GPU trace buffer and choosing the blocks that record (gpu/trace_plan.h), on made-up
// launches: no GPU needed. The numbers of the tiled matrix product (16 x 16 blocks of 16 x 16
// threads, 642 events a thread, 42.1 M in all) come back in several tests.
#include "gpu/trace_plan.h"

#include <gtest/gtest.h>

#include <numeric>

namespace synclab {
namespace {

using gpu::BlockPlan;
using gpu::MemoryFigures;
using gpu::TraceBudget;
using trace::BlockHistory;

constexpr uint64_t kGiB = uint64_t(1) << 30, kMiB = uint64_t(1) << 20;
constexpr uint32_t kWarpsPerBlock = 8;           // 256 threads
constexpr uint64_t kMatMulWarpEvents = 32 * 642; // one warp of the tiled matrix product
constexpr uint64_t kMatMulBlocks = 256;

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

std::vector<uint64_t> uniform(uint64_t blocks, uint64_t per_warp) {
    return std::vector<uint64_t>(blocks * kWarpsPerBlock, per_warp);
}

// The H200 of the issue: 139 GB free of 141, plenty of host memory.
MemoryFigures h200() {
    MemoryFigures m;
    m.device_total = 141 * kGiB;
    m.device_free = 139 * kGiB;
    m.kernel_buffers = 3 * 256 * 256 * 4;
    m.host_available = 120 * kGiB;
    return m;
}

TEST(TraceBudget, TheCapTheGpuOrTheHostSetsIt) {
    // Plenty of everything: the cap.
    TraceBudget b = gpu::trace_budget(h200(), gpu::kDefaultTraceCap, gpu::TraceBuffer::Device, 0);
    EXPECT_EQ(b.limit, gpu::BudgetLimit::Cap);
    EXPECT_EQ(b.events, gpu::kDefaultTraceCap / 32);
    EXPECT_TRUE(contains(b.why, "cap of 4.0 GB")) << b.why;
    EXPECT_GT(b.events, kMatMulBlocks * kWarpsPerBlock * kMatMulWarpEvents) << "the issue's trace fits";
    b = gpu::trace_budget(h200(), 256 * kMiB, gpu::TraceBuffer::Device, 0);
    EXPECT_EQ(b.events, 8u * 1024 * 1024);
    EXPECT_TRUE(contains(b.why, "cap of 256 MB")) << b.why;

    // Little free device memory: free + what the worker's trace area holds - buffers - tables - reserve.
    MemoryFigures m = h200();
    m.device_free = 10 * kGiB;
    m.trace_held = 1 * kGiB;
    const uint64_t tables = 4 * kMiB;
    b = gpu::trace_budget(m, 64 * kGiB, gpu::TraceBuffer::Device, tables);
    EXPECT_EQ(b.limit, gpu::BudgetLimit::DeviceMemory);
    EXPECT_EQ(b.events, (11 * kGiB - m.kernel_buffers - tables - gpu::device_reserve(m.device_total)) / 32);
    EXPECT_TRUE(contains(b.why, "GPU's free memory (11.0 GB free")) << b.why;
    EXPECT_EQ(gpu::device_reserve(m.device_total), 512 * kMiB + m.device_total / 20);
    // Less than the reserve: nothing.
    m.device_free = 1 * kGiB;
    m.trace_held = 0;
    EXPECT_EQ(gpu::trace_budget(m, 64 * kGiB, gpu::TraceBuffer::Device, tables).events, 0u);
    // A mapped buffer is host memory: the device's free memory does not limit it, the host's does.
    b = gpu::trace_budget(m, 64 * kGiB, gpu::TraceBuffer::Mapped, tables);
    EXPECT_EQ(b.limit, gpu::BudgetLimit::HostMemory);
    EXPECT_EQ(b.events, 120 * kGiB / 8 / 32);
    EXPECT_TRUE(contains(b.why, "host's memory (120.0 GB available")) << b.why;
    // Host memory not known: no limit from it.
    m.host_available = 0;
    EXPECT_EQ(gpu::trace_budget(m, 64 * kGiB, gpu::TraceBuffer::Mapped, tables).limit, gpu::BudgetLimit::Cap);
}

TEST(TraceBudget, TablesCountCursorsWarpsDropsAndBlocks) {
    const trace::Dim3 grid{16, 16, 1}, block{16, 16, 1};
    const uint64_t warps = 256 * 8;
    EXPECT_EQ(gpu::trace_table_bytes(grid, block, 64, gpu::TraceBuffer::Device),
              64 * trace::kCursorStride + warps * 8 + 256 * 4 + warps * 4);
    EXPECT_EQ(gpu::trace_table_bytes(grid, block, 64, gpu::TraceBuffer::Mapped),
              64 * trace::kCursorStride + warps * 8 + 256 * 4);
}

TEST(PlanBlocks, EveryBlockWhenTheyFit) {
    const std::vector<uint64_t> loads = uniform(kMatMulBlocks, kMatMulWarpEvents);
    const uint64_t needed = kMatMulBlocks * kWarpsPerBlock * kMatMulWarpEvents;
    const BlockPlan p =
        gpu::plan_blocks(loads, kWarpsPerBlock, trace::kDefaultStripes, gpu::kDefaultTraceCap / 32);
    EXPECT_TRUE(p.fits);
    EXPECT_TRUE(p.every_block);
    EXPECT_TRUE(p.ranks.empty()) << "every block: no block table";
    EXPECT_EQ(p.chosen.size(), kMatMulBlocks);
    EXPECT_EQ(p.needed_events, needed);
    EXPECT_EQ(p.chosen_events, needed);
    EXPECT_EQ(p.layout.stripes, trace::kDefaultStripes);
    // Each stripe holds its warps' events, an eighth more and 64 (for a path that varies).
    const uint64_t per_stripe = needed / trace::kDefaultStripes;
    EXPECT_EQ(p.layout.stripe_capacity, per_stripe + per_stripe / 8 + 64);
    EXPECT_LE(p.layout.capacity() * 32, 2 * kGiB) << "about 1.3 GB of events need about 1.5 GB";
}

TEST(PlanBlocks, ASampleOfEveryKthBlockWhenTheyDoNot) {
    const std::vector<uint64_t> loads = uniform(kMatMulBlocks, kMatMulWarpEvents);
    const uint64_t budget = 256 * kMiB / 32;
    const BlockPlan p = gpu::plan_blocks(loads, kWarpsPerBlock, trace::kDefaultStripes, budget);
    ASSERT_TRUE(p.fits);
    EXPECT_FALSE(p.every_block);
    EXPECT_LE(p.layout.capacity(), budget);
    ASSERT_GE(p.stride, 2u);
    ASSERT_EQ(p.ranks.size(), kMatMulBlocks);
    // Blocks 0, k, 2k ... with ranks 0, 1, 2 ...; the others not recorded.
    std::vector<uint32_t> want;
    for (uint32_t b = 0; b < kMatMulBlocks; b += static_cast<uint32_t>(p.stride))
        want.push_back(b);
    EXPECT_EQ(p.chosen, want);
    for (uint32_t b = 0; b < kMatMulBlocks; ++b) {
        if (b % p.stride == 0) {
            EXPECT_EQ(p.ranks[b], b / p.stride);
        } else {
            EXPECT_EQ(p.ranks[b], trace::kBlockNotRecorded);
        }
    }
    EXPECT_EQ(p.chosen_events, want.size() * kWarpsPerBlock * kMatMulWarpEvents);
    // The smallest such k: one less does not fit.
    std::vector<uint64_t> warps;
    for (uint64_t b = 0; b < kMatMulBlocks; b += p.stride - 1)
        warps.insert(warps.end(), kWarpsPerBlock, kMatMulWarpEvents);
    EXPECT_GT(gpu::layout_for(warps, trace::kDefaultStripes).capacity(), budget);
    EXPECT_EQ(gpu::describe_blocks(p.chosen, kMatMulBlocks), "blocks 0, " + std::to_string(p.stride) + ", " +
                                                                 std::to_string(2 * p.stride) + ", ... (" +
                                                                 std::to_string(want.size()) + " of 256)");
}

TEST(PlanBlocks, RanksSpreadASampleOverEveryStripe) {
    // A budget for every 8th block of 8 warps: by launch index their warps would all share stripes
    // 0-7 of 64 (8 * 8 * b % 64 == 0); by rank they spread over all 64, 8 warps each.
    std::vector<uint64_t> loads = uniform(512, 100);
    const BlockPlan p =
        gpu::plan_blocks(loads, kWarpsPerBlock, trace::kDefaultStripes, 64 * (800 + 100 + 64));
    ASSERT_TRUE(p.fits);
    EXPECT_EQ(p.stride, 8u);
    EXPECT_EQ(p.layout.stripes, 64u);
    EXPECT_EQ(p.layout.stripe_capacity, 800u + 100 + 64) << "8 warps per stripe";
    std::vector<uint32_t> stripe_use(64, 0);
    for (uint32_t b : p.chosen)
        for (uint32_t w = 0; w < kWarpsPerBlock; ++w)
            ++stripe_use[trace::warp_stripe(p.ranks[b], w, kWarpsPerBlock, 64)];
    EXPECT_EQ(stripe_use, std::vector<uint32_t>(64, 8));
}

TEST(PlanBlocks, UnevenBlocksAndBlocksTooBigForTheBuffer) {
    // Block 0 spins (a million events a warp), the others record 100: no stride sample fits (each
    // holds block 0), so the single smallest block is recorded.
    std::vector<uint64_t> loads = uniform(16, 100);
    for (uint32_t w = 0; w < kWarpsPerBlock; ++w)
        loads[w] = 1000000;
    loads[5 * kWarpsPerBlock + 3] = 10; // block 5 is the smallest
    BlockPlan p = gpu::plan_blocks(loads, kWarpsPerBlock, trace::kDefaultStripes, 100000);
    ASSERT_TRUE(p.fits);
    EXPECT_EQ(p.chosen, std::vector<uint32_t>{5});
    EXPECT_EQ(p.ranks[5], 0u);
    EXPECT_EQ(p.ranks[0], trace::kBlockNotRecorded);
    EXPECT_EQ(p.layout.stripes, 8u) << "one block's 8 warps fill 8 stripes, not 64";
    EXPECT_EQ(gpu::describe_blocks(p.chosen, 16), "block 5 (1 of 16)");
    // Nothing fits.
    p = gpu::plan_blocks(uniform(16, 1000000), kWarpsPerBlock, trace::kDefaultStripes, 100000);
    EXPECT_FALSE(p.fits);
    EXPECT_TRUE(p.chosen.empty());
    EXPECT_EQ(p.needed_events, 16u * 8 * 1000000);
    // No blocks at all.
    EXPECT_FALSE(gpu::plan_blocks({}, kWarpsPerBlock, trace::kDefaultStripes, 100).fits);
}

TEST(PlanBlocks, LayoutStripesArePowersOfTwoTheWarpsFill) {
    EXPECT_EQ(gpu::layout_for(std::vector<uint64_t>(1, 5), 64).stripes, 1u);
    EXPECT_EQ(gpu::layout_for(std::vector<uint64_t>(12, 5), 64).stripes, 8u);
    EXPECT_EQ(gpu::layout_for(std::vector<uint64_t>(4096, 5), 64).stripes, 64u);
    EXPECT_EQ(gpu::layout_for(std::vector<uint64_t>(4096, 5), 16).stripes, 16u);
    // 12 warps over 8 stripes: stripes 0-3 hold two, the capacity is set by them.
    std::vector<uint64_t> twelve(12, 0);
    std::iota(twelve.begin(), twelve.end(), 1); // 1 .. 12; stripe 3 holds warps 3 and 11: 4 + 12
    EXPECT_EQ(gpu::layout_for(twelve, 64).stripe_capacity, 16u + 2 + 64);
}

TEST(BlockHistory, FromTheBlockTableAndTheDropTable) {
    const uint64_t blocks = 4;
    const std::vector<uint32_t> every;
    const std::vector<uint64_t> no_drops;
    // Nothing lost: every block whole, so no table at all.
    EXPECT_TRUE(gpu::block_history(blocks, 2, every, no_drops, true, true, 0, {}, {}).empty());
    // Warp 3 (block 1) lost events.
    std::vector<uint64_t> drops(8, 0);
    drops[3] = 7;
    EXPECT_EQ(gpu::block_history(blocks, 2, every, drops, true, true, 7, {}, {}),
              (std::vector<BlockHistory>{BlockHistory::Whole, BlockHistory::Partial, BlockHistory::Whole,
                                         BlockHistory::Whole}));
    // A sample: blocks 0 and 2 recorded; block 2 lost events.
    const std::vector<uint32_t> ranks = {0, trace::kBlockNotRecorded, 1, trace::kBlockNotRecorded};
    drops.assign(8, 0);
    drops[5] = 1;
    EXPECT_EQ(gpu::block_history(blocks, 2, ranks, drops, true, true, 1, {}, {}),
              (std::vector<BlockHistory>{BlockHistory::Whole, BlockHistory::NotRecorded,
                                         BlockHistory::Partial, BlockHistory::NotRecorded}));
    // The drop table could not be read: whole only where the cursors say nothing was lost.
    EXPECT_TRUE(gpu::block_history(blocks, 2, every, {}, false, true, 0, {}, {}).empty());
    EXPECT_EQ(gpu::block_history(blocks, 2, ranks, {}, false, true, 3, {}, {}),
              (std::vector<BlockHistory>{BlockHistory::Partial, BlockHistory::NotRecorded,
                                         BlockHistory::Partial, BlockHistory::NotRecorded}));
    EXPECT_EQ(gpu::block_history(blocks, 2, every, {}, false, false, 0, {}, {}),
              std::vector<BlockHistory>(blocks, BlockHistory::Partial));
}

TEST(BlockHistory, AHungKernelsBlocksAreWholeUnlessTheyLostEvents) {
    // Block 0 waits at a barrier (it did not finish, lost nothing), block 1 lost events, block 2
    // never started (no warp in the warp table, no event), block 3 started one warp of two.
    const std::vector<uint32_t> warp_table = {3, 3, 4, 4, 0, 0, 7, 0};
    const std::vector<uint64_t> events = {64, 30, 0, 5};
    std::vector<uint64_t> drops(8, 0);
    drops[2] = 9;
    EXPECT_EQ(gpu::block_history(4, 2, {}, drops, true, true, 9, warp_table, events),
              (std::vector<BlockHistory>{BlockHistory::Whole, BlockHistory::Partial,
                                         BlockHistory::NotRecorded, BlockHistory::Whole}));
    // Events but no warp-table entry (the table's write not seen yet): it ran.
    EXPECT_TRUE(gpu::block_history(4, 2, {}, {}, true, true, 0, warp_table, {64, 30, 1, 5}).empty());
}

// A mapped buffer whose cursors cannot be read: a stripe lost nothing unless its last slot is written.
TEST(BlockHistory, AStripeThatDidNotFillLostNothing) {
    const trace::TraceBufferLayout layout = trace::TraceBufferLayout::for_capacity(32, 4); // 4 x 8 slots
    std::vector<trace::Event> buffer(layout.capacity());
    auto write = [&](uint64_t slot) {
        buffer[slot].time = 100 + slot;
        buffer[slot].kind = trace::EventKind::Store;
    };
    EXPECT_FALSE(trace::any_stripe_full(buffer.data(), layout));
    for (uint64_t i = 0; i < 7; ++i)
        write(layout.stripe_first_slot(2) + i); // stripe 2: 7 of 8
    EXPECT_FALSE(trace::any_stripe_full(buffer.data(), layout));
    write(layout.stripe_first_slot(2) + 7);
    EXPECT_TRUE(trace::any_stripe_full(buffer.data(), layout));
}

TEST(BlockHistory, EventsPerBlock) {
    std::vector<trace::Event> events(5);
    events[0].thread = 0;
    events[1].thread = 255;
    events[2].thread = 256;
    events[3].thread = 1023;
    events[4].thread = 5000; // not in the launch: ignored
    EXPECT_EQ(gpu::events_per_block(events, {4, 1, 1}, {16, 16, 1}), (std::vector<uint64_t>{2, 1, 0, 1}));
}

TEST(PlanText, NumbersAndBlockLists) {
    EXPECT_EQ(gpu::with_commas(0), "0");
    EXPECT_EQ(gpu::with_commas(999), "999");
    EXPECT_EQ(gpu::with_commas(4224), "4,224");
    EXPECT_EQ(gpu::with_commas(42074112), "42,074,112");
    EXPECT_EQ(gpu::count_text(9999), "9,999");
    EXPECT_EQ(gpu::count_text(34560), "34.6 k");
    EXPECT_EQ(gpu::count_text(42074112), "42.1 M");
    EXPECT_EQ(gpu::count_text(4200000000ull), "4.20 G");
    EXPECT_EQ(gpu::bytes_text(4096), "4 KB");
    EXPECT_EQ(gpu::bytes_text(256 * kMiB), "256 MB");
    EXPECT_EQ(gpu::bytes_text(42074112ull * 32), "1.3 GB");
    std::vector<uint32_t> every16;
    for (uint32_t b = 0; b < 4224; b += 16)
        every16.push_back(b);
    EXPECT_EQ(gpu::describe_blocks(every16, 4224), "blocks 0, 16, 32, ... (264 of 4,224)");
    EXPECT_EQ(gpu::describe_blocks({3, 9}, 256), "blocks 3, 9 (2 of 256)");
    EXPECT_EQ(gpu::describe_blocks({3, 9, 12, 40}, 256), "blocks 3, 9, 12, 40 (4 of 256)");
    EXPECT_EQ(gpu::describe_blocks({}, 256), "no block (0 of 256)");
    EXPECT_EQ(gpu::blocks_with({BlockHistory::Whole, BlockHistory::Partial, BlockHistory::NotRecorded,
                                BlockHistory::Partial},
                               BlockHistory::Partial),
              (std::vector<uint32_t>{1, 3}));
}

TEST(PlanText, WhatWasChosenAndWhy) {
    gpu::TracePlan p;
    p.blocks = 256;
    p.launches = 1;
    p.first_capacity = p.capacity = uint64_t(1) << 22;
    p.first_complete = true;
    EXPECT_EQ(gpu::plan_summary(p), "trace buffer of 4.2 M events (128 MB): every block recorded whole");
    // A small cap made the first buffer smaller.
    p.first_capacity = p.capacity = 32768;
    p.first_limited = true;
    p.budget.why = "the trace-buffer cap of 1 MB";
    EXPECT_EQ(
        gpu::plan_summary(p),
        "trace buffer of 32.8 k events (1 MB), set by the trace-buffer cap of 1 MB: every block recorded "
        "whole");
    // A second launch with a buffer for everything.
    p = {};
    p.blocks = 256;
    p.launches = 2;
    p.first_capacity = uint64_t(1) << 22;
    p.needed_events = 42074112;
    p.capacity = 47333376;
    EXPECT_EQ(gpu::plan_summary(p),
              "a first launch tried 42.1 M events, more than its buffer of 4.2 M; traced "
              "again with a buffer of 47.3 M events (1.4 GB): every block recorded whole");
    // A sample, one block of which still lost events.
    p.capacity = 7399936;
    p.budget.why = "the trace-buffer cap of 256 MB";
    for (uint32_t b = 0; b < 256; b += 7)
        p.recorded.push_back(b);
    p.partial = {14};
    const std::string s = gpu::plan_summary(p);
    EXPECT_EQ(
        s, "a first launch tried 42.1 M events, more than its buffer of 4.2 M; traced again recording blocks "
           "0, 7, 14, ... (37 of 256) whole: the trace buffer holds 7.4 M events (226 MB), set by the "
           "trace-buffer cap of 256 MB; the analyses use these blocks only; block 14 (1 of 256) lost events "
           "(a partial history: the analyses leave it out)");
    // Not even one block fits.
    p.recorded.clear();
    p.fits = false;
    p.partial = {0, 1, 2, 3, 4};
    EXPECT_TRUE(contains(gpu::plan_summary(p),
                         "with the largest buffer, 7.4 M events (226 MB) (set by the "
                         "trace-buffer cap of 256 MB), since not even one block's events fit"))
        << gpu::plan_summary(p);
    EXPECT_TRUE(contains(gpu::plan_summary(p), "blocks 0, 1, 2, ... (5 of 256) lost events"))
        << gpu::plan_summary(p);
    // A faulted kernel's drop table cannot be read.
    p.losses_known = false;
    EXPECT_TRUE(
        contains(gpu::plan_summary(p), "(5 of 256) may have lost events (the drop counts could not be read)"))
        << gpu::plan_summary(p);
    // A first launch into device memory faulted: traced again into mapped memory (gpu::launch_traced).
    p = {};
    p.blocks = 2;
    p.launches = 2;
    p.first_capacity = p.capacity = uint64_t(1) << 22;
    p.first_fault = "the kernel failed on the GPU: CUDA_ERROR_ILLEGAL_ADDRESS (an illegal memory access was "
                    "encountered)";
    EXPECT_EQ(
        gpu::plan_summary(p),
        "the first traced launch failed (the kernel failed on the GPU: CUDA_ERROR_ILLEGAL_ADDRESS (an "
        "illegal memory access was encountered)) with its events in device memory, which a fault leaves "
        "unreadable; traced again into 4.2 M events (128 MB) of host-mapped memory, which can be read "
        "after a fault");
}

} // namespace
} // namespace synclab
