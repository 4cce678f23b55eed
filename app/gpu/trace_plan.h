// Sizing a traced GPU launch's buffer and choosing the blocks that record, so that no finding rests
// on a partial history (an access whose barrier events were lost looks unordered). Pure functions:
// gpu_run.cpp calls them between launches, the tests call them on made-up launches.
//
// The plan (gpu::launch_traced):
//   1. A first traced launch with a modest buffer (kFirstLaunchEvents, or less where memory or the
//      cap allow less). Most kernels fit: done, one launch, every block whole.
//   2. Where it overflowed, its per-warp counts (events written + the drop table) say what each warp
//      tries to record. trace_budget says how many slots the buffer may have (the cap, the GPU's
//      free memory less the kernel's own buffers and a reserve, the host memory the events cross
//      to); plan_blocks picks every block if they fit, else every k-th block (the smallest k that
//      fits: spread over the grid, deterministic), and the stripe layout for them.
//   3. The second launch records those blocks only (the block table); block_history marks the rest
//      NotRecorded, and any recording block that still lost events (a racy kernel may take another
//      path than the first launch) Partial.
#pragma once

#include "gpu/protocol.h"
#include "trace/trace.h"
#include "trace/trace_buffer.h"

#include <cstdint>
#include <string>
#include <vector>

namespace synclab::gpu {

constexpr uint64_t kDefaultTraceCap = uint64_t(4) << 30;   // bytes: the events also cross to the host, and
                                                           // every analysis reads them all
constexpr uint64_t kFirstLaunchEvents = uint64_t(1) << 22; // slots of the first launch (128 MB)

// How gpu::launch_traced sizes its buffer.
struct TraceSizing {
    uint64_t cap_bytes = kDefaultTraceCap;      // the most the event buffer may take
    uint64_t first_events = 0; // slots of the first launch; 0: kFirstLaunchEvents
    bool whole_blocks = true;    // a launch that overflowed is traced again, sized from its counts
    uint64_t host_available = 0; // host memory for the events (0: read /proc/meminfo)
};

// What a trace buffer may use, as the worker and the host report it.
struct MemoryFigures {
    uint64_t device_free = 0; // free device memory when the last request began
    uint64_t device_total = 0;
    uint64_t trace_held = 0; // device memory the worker's trace area held then (given up for a bigger one)
    uint64_t kernel_buffers = 0; // the kernel's own buffers, allocated for each request
    uint64_t host_available = 0; // host memory available (0: not known, no limit from it)
};

// Device memory kept free beyond the kernel's own buffers (its local memory, the driver's own
// allocations, the module): 512 MiB plus 5% of the device.
uint64_t device_reserve(uint64_t device_total);

// The trace's own tables in device memory (cursors, warp table, drop table, block table).
uint64_t trace_table_bytes(const trace::Dim3& grid, const trace::Dim3& block, uint32_t stripes,
                           TraceBuffer buffer);

enum class BudgetLimit : uint8_t { Cap, DeviceMemory, HostMemory };

struct TraceBudget {
    uint64_t events = 0; // slots the buffer may have
    BudgetLimit limit = BudgetLimit::Cap;
    std::string why; // what sets it, in words: "the trace-buffer cap of 256 MB"
};

// Slots for a buffer in `buffer` memory: the least of the cap, the device memory left (device
// buffer: free + held - the kernel's buffers - the tables - the reserve) and an eighth of the host's
// available memory (the worker and the runner each hold the events about twice while they cross the
// pipe, and the analyses need room beside them).
TraceBudget trace_budget(const MemoryFigures& memory, uint64_t cap_bytes, TraceBuffer buffer,
                         uint64_t table_bytes);

struct BlockPlan {
    bool fits = false;            // the chosen blocks' events (with headroom) fit the budget
    bool every_block = false;     // every block records (no block table)
    uint64_t stride = 1;          // blocks 0, stride, 2 * stride, ... record (a sample)
    std::vector<uint32_t> ranks;  // the block table: rank or trace::kBlockNotRecorded (empty: every block)
    std::vector<uint32_t> chosen; // the recording blocks, in order
    uint64_t blocks = 0;
    uint64_t needed_events = 0;      // every block's events, as the first launch counted them
    uint64_t chosen_events = 0;      // the chosen blocks' events
    trace::TraceBufferLayout layout; // for the chosen blocks, with headroom
};

// Chooses the blocks for the next launch from what each warp tried to record (`warp_attempted`,
// warps_per_block per block), with at most `max_stripes` stripes and `budget_events` slots: every
// block if they fit, else the smallest stride k whose blocks 0, k, 2k, ... fit, else the single
// block with the fewest events; fits is false when not even that one fits. Each stripe gets the
// load the first launch showed for its warps plus an eighth and 64 slots, since a kernel whose path
// depends on timing may record more the second time.
BlockPlan plan_blocks(const std::vector<uint64_t>& warp_attempted, uint32_t warps_per_block,
                      uint32_t max_stripes, uint64_t budget_events);

// The layout that holds `warp_events` (per warp of the recording blocks, in rank order: warp i has
// stripe i % stripes, trace::warp_stripe) with the headroom above; the stripes: the most up to
// `max_stripes` (a power of two) that the warps can fill.
trace::TraceBufferLayout layout_for(const std::vector<uint64_t>& warp_events, uint32_t max_stripes);

// One stripe per warp (trace::one_warp_per_stripe), so that a completed launch's events can be read
// a batch of whole blocks at a time (RunRequest::events_by_block): the stripes for `warps` warps (the
// power of two at or above), 0 where that passes trace::kMaxStripes.
uint32_t per_warp_stripes(uint64_t warps);
// Such a layout for what each warp of the launch tried to record, with the headroom above.
// stripes is 0 where per_warp_stripes is.
trace::TraceBufferLayout per_warp_layout(const std::vector<uint64_t>& warp_events);

// Each block's history in a GPU trace (trace::Trace::block_history; empty when every block is
// whole). `ranks`: the launch's block table (empty: every block recorded). `warp_dropped`: the drop
// table (empty: no warp dropped), valid where `drops_known`; otherwise a block is whole only when
// the cursors say that nothing was dropped (`dropped_known` and `dropped` 0). `warp_table` (smid + 1
// per warp; empty: not read) and `block_events` (events per block in the trace; empty: not counted):
// a block none of whose warps started and which recorded nothing never ran (NotRecorded). A hung
// kernel's blocks that did not finish are Whole: only lost events make a block Partial.
std::vector<trace::BlockHistory> block_history(uint64_t blocks, uint32_t warps_per_block,
                                               const std::vector<uint32_t>& ranks,
                                               const std::vector<uint64_t>& warp_dropped, bool drops_known,
                                               bool dropped_known, uint64_t dropped,
                                               const std::vector<uint32_t>& warp_table,
                                               const std::vector<uint64_t>& block_events);

// What gpu::launch_traced chose, and why.
struct TracePlan {
    uint32_t launches = 0;          // traced launches made (1, or 2 after an overflow or a fault)
    uint64_t first_capacity = 0;    // slots of the first launch
    bool first_limited = false;     // the budget made the first buffer smaller than asked (TraceSizing::first_events)
    bool first_complete = false;    // the first launch completed and lost no event
    uint64_t capacity = 0;          // slots of the launch whose trace is kept
    uint64_t needed_events = 0;     // every block's events, where a first launch that overflowed counted them
    bool fits = true;               // the second launch's blocks fit its buffer (plan_blocks)
    TraceBudget budget;             // the most the buffer could have
    uint64_t blocks = 0;            // in the launch
    std::vector<uint32_t> recorded; // the blocks that recorded (a sample); empty: every block
    std::vector<uint32_t> partial;  // blocks that lost events
    bool losses_known = true;       // false: the drop table could not be read (a faulted kernel), so
                                    // `partial` holds the blocks that may have lost events
    // The first launch faulted with its events in device memory, unreadable after a fault: this is
    // its message, and the kept launch traced into host-mapped memory instead ("": no such retry).
    std::string first_fault;
    std::string summary;            // plan_summary
};

// The plan in one or two sentences, for the run's result: the buffer, why it has that size, which
// blocks were recorded whole, and which lost events.
std::string plan_summary(const TracePlan& plan);

// Events per block of `events` (thread / threads_per_block).
std::vector<uint64_t> events_per_block(const std::vector<trace::Event>& events, const trace::Dim3& grid,
                                       const trace::Dim3& block);

// "blocks 0, 16, 32, ... (264 of 4,224)", "block 7 (1 of 256)", "blocks 3, 9 (2 of 256)".
std::string describe_blocks(const std::vector<uint32_t>& blocks, uint64_t of);
// The blocks of a history that have `which`, in order.
std::vector<uint32_t> blocks_with(const std::vector<trace::BlockHistory>& history, trace::BlockHistory which);

// "4,224", "42.1 M", "1.3 GB": numbers in the plan's sentences.
std::string with_commas(uint64_t n);
std::string count_text(uint64_t n);
std::string bytes_text(uint64_t bytes);

} // namespace synclab::gpu
