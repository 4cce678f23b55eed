// SyncLab trace schema: the one record format every runner (simulator, GPU traced) writes and every
// consumer (analysis, CLI report, Chrome export, GUI) reads.
//
// A run = RunMeta (what ran, how, and how it ended) + a per-thread table + a site table (instruction
// index -> PTX line, CUDA source line, PTX text) + events. Events of one thread are in program order;
// the event vector as a whole is in the order the runner observed them (simulator: execution order).
#pragma once

#include "trace/memory_map.h"

#include <array>
#include <compare>
#include <cstdint>
#include <string>
#include <vector>

namespace synclab::trace {

enum class EventKind : uint8_t {
    Load = 1,          // plain or volatile load from global/shared memory
    Store = 2,         // plain or volatile store
    Atomic = 3,        // atom.* (value = operand b; the memory's old value is not recorded)
    Reduction = 4,     // red.* (fire-and-forget atomic)
    BarrierArrive = 5, // bar.sync / barrier.sync arrival (address = barrier id, value = phase number)
    BarrierLeave = 6,  // release from that barrier (address = barrier id, value = phase number)
    Fence = 7,         // membar / fence (flags carry the scope)
    Exit = 8,          // thread finished (ret / exit)
    WarpCollective = 9, // a warp collective completed for this lane (bar.warp.sync, shfl, vote, match,
                        // redux, elect): one event per member lane, when the members have met.
                        // address = low 32 bits: the member mask; high 32 bits: shfl's source lane
                        // (kNoLane when the lane kept its own value or the op has no source lane);
                        // value = low 32 bits of the lane's result; flags = Collective (kCollectiveMask)
};
constexpr int kEventKindCount = 10;
const char* to_string(EventKind kind);

enum class Space : uint8_t { Global = 0, Shared = 1, Local = 2, Other = 3 };
const char* to_string(Space space);

enum class Scope : uint8_t { None = 0, Block = 1, Device = 2, System = 3 };
const char* to_string(Scope scope);

// Which warp collective a WarpCollective event records (its flags & flag::kCollectiveMask).
enum class Collective : uint8_t { WarpSync = 0, Shfl = 1, Vote = 2, Match = 3, Redux = 4, Elect = 5 };
const char* to_string(Collective collective);
constexpr uint32_t kNoLane = 0xffffffffu; // WarpCollective: no source lane (high half of address)

// Bit layout of Event::flags.
namespace flag {
constexpr uint8_t kSpaceMask = 0x03; // Space
constexpr uint8_t kSizeShift = 2;    // log2(access size in bytes), 2 bits: 1, 2, 4, 8
constexpr uint8_t kSizeMask = 0x0c;
constexpr uint8_t kVolatile = 0x10; // ld.volatile / st.volatile, or .relaxed/.acquire/.release
constexpr uint8_t kScopeShift = 5;  // Scope, 2 bits
constexpr uint8_t kScopeMask = 0x60;
constexpr uint8_t kOrdered = 0x80; // acquire / release / acq_rel / sc semantics on the access
constexpr uint8_t kCollectiveMask = 0x07; // WarpCollective events: the Collective (no space/size bits)
} // namespace flag

// One fixed-size record. Keep it 32 bytes: the GPU instrumentation writes the same layout.
struct Event {
    uint64_t time = 0;    // simulator: logical tick (global step counter); GPU: %globaltimer in ns
    uint64_t address = 0; // byte address in its space (shared: offset in the block's window);
                          // barrier events: barrier id
    uint32_t value = 0;   // low 32 bits of the value loaded / stored / atomic operand;
                          // barrier events: the block's phase number of that barrier
    uint32_t thread = 0;  // index into Trace::threads
    uint32_t clock = 0;   // GPU: low 32 bits of %clock64 (order inside one SM); simulator: 0
    uint16_t site = 0;    // instruction index in the kernel (index into Trace::sites)
    EventKind kind = EventKind::Load;
    uint8_t flags = 0; // see namespace flag

    Space space() const { return static_cast<Space>(flags & flag::kSpaceMask); }
    uint32_t size() const { return 1u << ((flags & flag::kSizeMask) >> flag::kSizeShift); }
    Scope scope() const { return static_cast<Scope>((flags & flag::kScopeMask) >> flag::kScopeShift); }
    bool is_volatile() const { return (flags & flag::kVolatile) != 0; }
    bool is_memory_access() const {
        return kind == EventKind::Load || kind == EventKind::Store || kind == EventKind::Atomic ||
               kind == EventKind::Reduction;
    }
    bool writes_memory() const { return kind != EventKind::Load && is_memory_access(); }
    bool is_atomic() const { return kind == EventKind::Atomic || kind == EventKind::Reduction; }
};
static_assert(sizeof(Event) == 32, "Event is a 32-byte wire record");

uint8_t make_flags(Space space, uint32_t size_bytes, bool is_volatile = false, Scope scope = Scope::None,
                   bool ordered = false);

// How a thread ended its run.
enum class ThreadEnd : uint8_t {
    Exited = 0,     // ran to ret/exit
    AtBarrier = 1,  // still waiting at a barrier when the run stopped (deadlock, timeout)
    Running = 2,    // still runnable when the run stopped (budget, error, cancel)
    Faulted = 3,    // this thread's instruction caused the error
    NotStarted = 4, // its block never became resident (run stopped early)
};
const char* to_string(ThreadEnd end);

struct ThreadInfo {
    uint32_t block = 0;           // linear block index
    uint32_t thread_in_block = 0; // linear thread index inside its block
    uint32_t end_site = 0;        // site where it stopped (barrier it waits at, faulting instruction)
    uint16_t warp = 0;            // warp index inside its block
    uint16_t sm = 0;              // SM the warp ran on (simulator: the SM its block took a slot on)
    uint8_t lane = 0;
    ThreadEnd end = ThreadEnd::Exited;
    uint16_t reserved = 0;
};
static_assert(sizeof(ThreadInfo) == 20, "ThreadInfo is a 20-byte wire record");

// One call through which a line was inlined (nvcc's `.loc F L C, function_name X, inlined_at F2 L2 C2`).
struct InlinedCall {
    std::string function; // the called function as its source names it ("warpReduce<64u, float>",
                          // trace/naming.h kernel_name); "" when the PTX does not name it
    std::string file;     // the file of the call, when it is not the kernel's own; "" = the kernel's
    uint32_t line = 0;    // the line of the call
    bool operator==(const InlinedCall&) const = default;
    auto operator<=>(const InlinedCall&) const = default;
};

// Where a CUDA source line is, beyond its number: its file, when that is not the kernel's own (a
// helper in a header), and the inlined calls that lead to it from the kernel's body, innermost
// first: the line is in inlined[0].function, which was called at inlined[0].line, which is in
// inlined[1].function, ..., called at inlined.back().line, in the kernel itself. Empty: the line is in
// the kernel's body. Calls into the CUDA toolkit's own headers (atomicAdd, __shfl_sync, cuda::atomic_ref)
// are not followed: an access there is at the line of the user's code that calls them.
struct LineOrigin {
    std::string file;                 // "" = the kernel's own source file (RunMeta::source_name)
    std::vector<InlinedCall> inlined; // innermost first
    bool empty() const { return file.empty() && inlined.empty(); }
    bool operator==(const LineOrigin&) const = default;
    auto operator<=>(const LineOrigin&) const = default;
};

// One instruction of the kernel, so that events can name lines without the PTX at hand.
struct Site {
    uint32_t ptx_line = 0;    // 1-based line in the PTX text
    uint32_t source_line = 0; // 1-based line in the CUDA source (0: unknown): the line of the
                              // instruction itself, inside any inlined helper (origin says which)
    std::string text;         // the PTX instruction, e.g. "st.shared.f32 [%r4], %f13"
    LineOrigin origin;        // source_line's file and inlined calls; empty for the kernel's body

    // The line of the kernel's own source file that stands for this site: source_line when it is in
    // that file, else the innermost call in it (a helper in a header: the line that calls it); 0
    // when none is known. What a view of the kernel's file highlights.
    uint32_t kernel_file_line() const;
    // The kernel's own line the site was reached through: the outermost call, or source_line when
    // not inlined (the line before inlining was followed).
    uint32_t outermost_line() const {
        return origin.inlined.empty() ? source_line : origin.inlined.back().line;
    }
};

enum class RunStatus : uint8_t { Ok = 0, Deadlock = 1, Budget = 2, Error = 3, Timeout = 4, Cancelled = 5 };
const char* to_string(RunStatus status);
bool parse_run_status(const std::string& text, RunStatus& out);

struct Dim3 {
    uint32_t x = 1, y = 1, z = 1;
    uint64_t count() const { return uint64_t(x) * y * z; }
    bool operator==(const Dim3&) const = default;
};

// The thread table of a launch in the schema's layout: thread g is thread g % threads-per-block of
// block g / threads-per-block, warps of 32 (warp * 32 + lane == thread_in_block, which loading
// checks). End state, end site and SM are left for the runner to fill.
std::vector<ThreadInfo> thread_layout(const Dim3& grid, const Dim3& block);

struct RunMeta {
    std::string scenario; // catalog id, or "" for a user's kernel
    std::string variant;
    std::string kernel;  // PTX entry name
    std::string backend; // "sim" | "gpu"
    std::string device;  // "SyncLab simulator" or the GPU's name
    uint32_t sm_count = 0;
    std::string schedule; // "rr" | "random" | "adversarial" (simulator)
    uint64_t seed = 0;
    std::string memory_model; // "sc" (simulator), "hardware" (GPU)
    Dim3 grid, block;
    uint32_t dynamic_shared_bytes = 0;
    RunStatus status = RunStatus::Ok;
    std::string status_message;
    double elapsed_ms = 0;
    uint64_t thread_instructions = 0;
    uint64_t warp_instructions = 0;
    uint64_t dropped_events = 0; // events the runner could not record (full buffer)
    uint64_t wrong_outputs = 0;
    uint64_t checked_outputs = 0;
    std::string source_name; // e.g. "stencil.cu"
    std::string source_text; // the CUDA source (may be empty)
    std::string ptx_text;    // the PTX that ran (may be empty)
    // Simulator with the cost model: the run's modelled duration in cycles (the latest thread's
    // clock at its exit); 0 when not modelled (GPU runs report kernel time instead).
    uint64_t modelled_cycles = 0;
};

// Modelled timing of one event (the simulator's cost model), parallel to Trace::events. The model
// keeps a clock per warp; an access is issued at its warp's clock and completes `latency` cycles
// later (queueing behind earlier accesses to the same address, then its service time). Loads:
// until the value arrives; stores and red: until the write is visible (the warp itself goes on);
// fences: the cycles the warp waited; barrier arrive/leave and exit: the warp's clock then, latency
// 0 (a leave's issue is the release: the latest arrival plus the barrier's cost).
struct EventTiming {
    uint64_t issue = 0;       // modelled cycle the access was issued
    uint32_t latency = 0;     // modelled cycles until it completed (queueing + service)
    uint32_t queue_depth = 0; // accesses still queued ahead of it at its address when it arrived
};

// How much of one block's history a trace holds. A finding must never rest on a partial history
// (an access whose barrier events were lost looks unordered): the analyses use Whole blocks only.
enum class BlockHistory : uint8_t {
    Whole = 0,       // every event the block produced (up to where the run stopped) is in the trace
    Partial = 1,     // some of its events were lost: a full GPU trace buffer, or the run was cut by
                     // its event or memory budget while the block was running
    NotRecorded = 2, // not traced at all: sampled out to fit the trace buffer, or never started
};
const char* to_string(BlockHistory history);

// Where and when one block was resident (simulator runs: the residency view, a hung grid's blocks
// that never started). Logical ticks; kNever: not (yet) at the end of the run.
struct BlockResidency {
    static constexpr uint64_t kNever = UINT64_MAX;
    uint64_t admitted = kNever; // the tick it became resident; kNever: never resident
    uint64_t retired = kNever;  // the tick its last thread exited; kNever: still resident at the end
    uint32_t sm = 0;            // the SM it was placed on (meaningful once admitted)
    uint32_t waited = 0;        // 1: it became resident only after another block freed a slot
};
static_assert(sizeof(BlockResidency) == 24);

struct Trace {
    RunMeta meta;
    std::vector<ThreadInfo> threads;
    std::vector<Site> sites;
    std::vector<Event> events;
    // Per block (linear index); empty means every block is Whole. Runners fill it only when some
    // block is not.
    std::vector<BlockHistory> block_history;
    // Per event (same index as events) when the run was timed by the cost model; empty otherwise.
    std::vector<EventTiming> timing;
    // Per site (same index as sites), simulator runs in which some atom.cas failed: how many lanes'
    // atom.cas found a value other than the one they compared with (a CAS loop's retries); empty
    // otherwise.
    std::vector<uint32_t> cas_failures;
    // Per block (linear index), simulator runs: its residency (BlockResidency); empty otherwise (GPU
    // runs, files saved before it existed). Saved as the .slt's optional RSDN section.
    std::vector<BlockResidency> residency;
    // The launch's named memory (memory_map.h): its `__shared__` arrays, `__device__` variables and
    // buffers, so that findings and views name an access "s_tile[159]". Empty where the runner did not
    // fill it (files saved before it existed). Saved as the .slt's optional MMAP section.
    MemoryMap memory;

    BlockHistory history_of(uint32_t block) const {
        return block < block_history.size() ? block_history[block] : BlockHistory::Whole;
    }
    bool block_is_whole(uint32_t block) const { return history_of(block) == BlockHistory::Whole; }
    bool every_block_whole() const;

    // CUDA source line of an event's site (0 if unknown): the innermost line (Site::source_line).
    uint32_t source_line(const Event& e) const {
        return e.site < sites.size() ? sites[e.site].source_line : 0;
    }
    // The line of the kernel's own file that stands for an event's site (Site::kernel_file_line).
    uint32_t kernel_file_line(const Event& e) const {
        return e.site < sites.size() ? sites[e.site].kernel_file_line() : 0;
    }
};

} // namespace synclab::trace
