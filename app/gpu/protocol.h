// The wire protocol between the runner (parent) and the GPU worker `synclab-gpu` (child), over the
// worker's stdin and stdout (one AF_UNIX stream socket pair; the worker moves its own stdout to
// stderr so that nothing else can write into the stream).
//
// Framing: every message is a 16-byte header {u32 magic "SLGW", u32 type, u64 payload bytes} and a
// payload. Payloads are little-endian fields written in the order of the structs below (strings and
// byte blobs with a u64 length); parent and worker run on one machine, so trace::Event records go
// as raw 32-byte structs.
//
// Conversation: the worker sends Hello as soon as it started (Ready, or why it cannot run kernels);
// then, per Run it receives, zero or more Progress messages (live mode) or BlockEvents messages
// (events_by_block) and one Result. After a Result with status Timeout or Fault the worker exits: the
// context is unusable, and the next run starts a fresh worker. Quit (or end of input) ends it too.
#pragma once

#include "trace/trace.h"
#include "trace/trace_buffer.h"

#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace synclab::gpu {

// 2: striped trace buffers; 3: block table, drop table, free memory; 4: the CPU reader of host-mapped
// memory (RunRequest::host_reader, RunResult::host_reader); 5: RunRequest::cooperative; 6: where the
// memory is (RunRequest::globals, RunResult::buffer_addresses and global_addresses); 7: events block
// by block (RunRequest::events_by_block, BlockEvents); 8: the shared symbols' hardware addresses
// (ArgSpec::Kind::TraceShared, RunResult::shared_addresses)
constexpr uint32_t kProtocolVersion = 9;
constexpr uint32_t kMagic = 0x57474c53;  // "SLGW" in memory order

enum class MessageType : uint32_t { Hello = 1, Run = 2, Progress = 3, Result = 4, Quit = 5, BlockEvents = 6 };

enum class WorkerState : uint8_t {
    Ready = 0,
    NoDriver = 1,   // libcuda.so.1 missing or unusable
    NoDevice = 2,   // cuInit / cuDeviceGetCount found no CUDA device
    InitFailed = 3, // the driver is there, but setting up the device failed
};

struct Hello {
    uint32_t version = kProtocolVersion;
    WorkerState state = WorkerState::Ready;
    std::string message; // why it is not Ready
    std::string device;  // "NVIDIA H200"
    uint32_t sm_count = 0;
    uint32_t cc_major = 0, cc_minor = 0;
    uint32_t driver_version = 0; // e.g. 13000
    uint64_t memory_bytes = 0;
    uint64_t free_memory_bytes = 0; // when the worker started (cuMemGetInfo)
    bool can_map_host_memory = false;
};

enum class RunMode : uint8_t { Untraced = 0, Traced = 1 };
enum class TraceBuffer : uint8_t { Device = 0, Mapped = 1 };
const char* to_string(TraceBuffer buffer); // "device" | "mapped"

struct NamedBuffer {
    std::string name;
    std::vector<uint8_t> bytes;
};

// One kernel parameter, in the order of the .entry's parameters.
struct ArgSpec {
    enum class Kind : uint8_t {
        Buffer = 0,      // device pointer to request buffer `buffer`
        Scalar = 1,      // `size` bytes (1, 2, 4 or 8) of `bits`
        TraceEvents = 2, // pointer to the event buffer
        TraceCursor = 3, // pointer to the stripes' cursors (trace/trace_buffer.h)
        TraceWarps = 4,  // pointer to the u32 warp table
        TraceBlocks = 5, // pointer to the u32 block table (0 where the request has no block_ranks)
        TraceDrops = 6,  // pointer to the u64 drop table (one per warp)
        TraceShared = 7, // pointer to a zeroed u32 table of `bits` entries (0: none, null pointer),
                         // read back into RunResult::shared_addresses
    };
    Kind kind = Kind::Scalar;
    uint32_t buffer = 0;
    uint32_t size = 8;
    uint64_t bits = 0;
};

// A CPU thread that reads host-mapped memory while the kernel runs (gpu/host_reader.h). The two
// buffers it names are allocated with cuMemHostAlloc(PORTABLE | DEVICEMAP) instead of device memory;
// the kernel gets their device address (cuMemHostGetDevicePointer). Per pair p, a writer on the GPU
// stores data[p], then raises flags[p]; the CPU waits for flags[p] to change, then reads data[p].
struct HostReaderRequest {
    bool enabled = false;
    uint32_t flags_buffer = 0; // index into RunRequest::buffers: u32 flags, one per pair
    uint32_t data_buffer = 0;  // index into RunRequest::buffers: u32 data, one per pair
    uint32_t pairs = 0;        // at most the element count of either buffer
};

// What the CPU reader saw in one launch.
struct HostReaderLaunch {
    uint32_t pairs = 0;
    uint32_t seen = 0;         // pairs whose flag the CPU saw change
    uint32_t stale = 0;        // of them, the data read after the flag still held its value from
                               // before the launch (the GPU's store not yet visible to the CPU)
    uint32_t after_kernel = 0; // of `seen`, first seen only after the worker knew the kernel had ended
                               // (not an observation made while it ran)
    uint32_t gave_up = 0;      // pairs whose flag never changed before the deadline or the kernel's end
    double reader_ms = 0;      // how long the reader ran
    std::string message;       // why it gave up, where it did ("" otherwise)
    // Per pair, the flag value the CPU saw (the initial value where it gave up) and the data it read
    // after it (the initial value where it gave up): 2 * pairs values.
    std::vector<uint32_t> records;
};

struct RunRequest {
    std::string ptx;
    std::string kernel;
    trace::Dim3 grid, block;
    uint32_t dynamic_shared_bytes = 0;
    // cuLaunchCooperativeKernel instead of cuLaunchKernel: refused, in plain words and before
    // anything runs, when the grid exceeds cuOccupancyMaxActiveBlocksPerMultiprocessor x SMs.
    bool cooperative = false;
    std::vector<NamedBuffer> buffers;
    std::vector<ArgSpec> args;
    RunMode mode = RunMode::Untraced;
    TraceBuffer trace_buffer = TraceBuffer::Device;
    trace::TraceBufferLayout trace_layout; // stripes and slots (32 bytes) per stripe
    uint64_t warp_count = 0;               // entries of the warp table and of the drop table
    // The block table (trace/trace_buffer.h): per block its rank among the recording blocks, or
    // trace::kBlockNotRecorded; empty: every block records (no table).
    std::vector<uint32_t> block_ranks;
    // false: a completed launch that dropped events returns its counts (warp_attempted) but not its
    // events, because the runner will trace it again with a buffer sized from them.
    bool events_if_dropped = true;
    double timeout_s = 5;  // per launch
    uint32_t launches = 1; // the same inputs, launched this many times (timing); outputs of the last
    bool return_buffers = true;
    bool return_events = true;
    bool live = false; // send Progress with new events while the kernel runs (mapped buffer)
    // A CPU reader of host-mapped buffers (see HostReaderRequest). With it, every launch starts
    // from the request's inputs (all buffers copied again), because the reader needs flags that
    // start unset.
    HostReaderRequest host_reader;
    // The module-scope `.global` variables (`__device__`) to locate, by their PTX names: the worker
    // answers their device addresses (RunResult::global_addresses), so that a traced run's memory
    // map names accesses to them and its bounds check knows them.
    std::vector<std::string> globals;
    // Send a completed launch's events as BlockEvents messages, a batch of whole blocks at a time,
    // before the Result (whose `events` stay empty: RunResult::events_by_block), so that neither side
    // holds the whole trace: the runner analyses each batch as it comes (trace/block_stream.h). Only
    // where the layout gives each warp a stripe of its own (trace::one_warp_per_stripe), so that a
    // block's events are its warps' stripes; a launch that dropped events, hung or faulted answers
    // as without it.
    bool events_by_block = false;
};

enum class ResultStatus : uint8_t {
    Ok = 0,
    Timeout = 1, // a launch did not finish in time; the worker exits after this answer
    Fault = 2,   // the kernel failed on the device (illegal address, trap...); the worker exits
    Error = 3,   // the request could not run (JIT error, allocation...); the worker carries on
};
const char* to_string(ResultStatus status);

// Where a request's time went inside the worker (RunResult::wall_ms, split): loading the module
// (the JIT, only for PTX the worker has not loaded last), allocating and copying in, the launches
// (each until its kernel completed), and reading back (output buffers, trace tables and the events,
// which go out to the runner as they are copied: the runner's taking of them is inside this).
struct WorkerPhases {
    double module_ms = 0;
    double setup_ms = 0;
    double launch_ms = 0;
    double readback_ms = 0;
    WorkerPhases& operator+=(const WorkerPhases& o) {
        module_ms += o.module_ms;
        setup_ms += o.setup_ms;
        launch_ms += o.launch_ms;
        readback_ms += o.readback_ms;
        return *this;
    }
};

struct RunResult {
    ResultStatus status = ResultStatus::Ok;
    std::string message;
    std::string jit_log;          // ptxas' info/error log of the module load
    std::vector<float> kernel_ms; // one per completed launch (CUDA events around the launch)
    std::vector<NamedBuffer> buffers;
    uint64_t cursor = 0;       // events attempted by the last launch (written + dropped): the
                               // stripes' cursors added up
    uint64_t dropped = 0;      // of them, past their stripe's capacity (never written)
    bool cursor_known = false; // false: a hung kernel's cursors could not be read
    bool partial = false;      // events read while the kernel was still running (or faulted)
    std::vector<trace::Event> events;
    std::vector<uint32_t> warps; // smid + 1 per warp, 0: not started (or unknown)
    // The drop table of the last launch: events each warp could not record. Empty with drops_known:
    // no warp dropped any (also where the table could not be read but no stripe of a mapped buffer
    // filled, trace::any_stripe_full).
    std::vector<uint64_t> warp_dropped;
    bool drops_known = false;
    // A completed launch that dropped events: per warp, the events it tried to record (written +
    // dropped), which sizes the next buffer.
    std::vector<uint64_t> warp_attempted;
    bool events_withheld = false; // see RunRequest::events_if_dropped
    // Device memory when the request began, for sizing the next trace buffer: free, and held by the
    // worker's trace area (which it gives up when the next request needs a bigger one).
    uint64_t device_free_bytes = 0;
    uint64_t trace_area_bytes = 0;
    double wall_ms = 0; // the whole request inside the worker
    WorkerPhases phases; // wall_ms, split
    // RunRequest::host_reader: one per launch that started (also one that hung or failed).
    std::vector<HostReaderLaunch> host_reader;
    // Where the worker placed the request's memory, known before the launch and so also in a
    // Timeout or Fault answer (empty where the request failed before allocating): the device address
    // of each request buffer (cuMemAlloc, or the mapped one of a CPU reader's buffer), parallel to
    // RunRequest::buffers, and of each RunRequest::globals variable (cuModuleGetGlobal; 0: the loaded
    // module has no such symbol, e.g. an unused static one ptxas left out), parallel to it.
    std::vector<uint64_t> buffer_addresses;
    std::vector<uint64_t> global_addresses;
    bool events_by_block = false; // the events came as BlockEvents messages (RunRequest::events_by_block)
    // A completed traced launch's ArgSpec::Kind::TraceShared table: each shared symbol's address in
    // the hardware's shared window (ptx::kTraceParamShared); empty where the request had none.
    std::vector<uint32_t> shared_addresses;
};

struct Progress {
    double elapsed_ms = 0;
    uint64_t events_seen = 0;         // complete events found in the buffer so far
    std::vector<trace::Event> events; // the ones new since the last Progress
};

// About this many events a batch (16 MiB; at least one block): small enough that the runner
// analyses one per core at once in little memory, large enough that a message's cost is noise.
constexpr uint64_t kBlockEventsTarget = uint64_t(1) << 19;

// The events of blocks [first_block, first_block + blocks): each warp's in program order, warp after
// warp (not merged by time).
struct BlockEvents {
    uint32_t first_block = 0;
    uint32_t blocks = 0;
    std::vector<trace::Event> events;
};

class ProtocolError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

std::string encode(const Hello& m);
std::string encode(const RunRequest& m);
std::string encode(const RunResult& m);
std::string encode(const Progress& m);
std::string encode(const BlockEvents& m);
void decode(const std::string& payload, Hello& m);
void decode(const std::string& payload, RunRequest& m);
void decode(const std::string& payload, RunResult& m);
void decode(const std::string& payload, Progress& m);
void decode(const std::string& payload, BlockEvents& m);

// Writes one message; throws ProtocolError when the other side has gone (no SIGPIPE: the parent's
// side is a socket written with MSG_NOSIGNAL).
void write_message(int fd, MessageType type, const std::string& payload);

// A batch of BlockEvents whose events lie elsewhere (the worker's pinned staging memory).
struct BlockEventsView {
    uint32_t first_block = 0;
    uint32_t blocks = 0;
    const trace::Event* events = nullptr;
    uint64_t count = 0;
};

// A BlockEvents message written from the batch itself, with no payload built first: the same bytes
// as write_message(fd, MessageType::BlockEvents, encode(m)). The largest messages there are (a
// batch is ~16 MB); a copy of each into fresh memory cost more than the socket (BM_BlockEventsTransport).
void write_block_events(int fd, const BlockEventsView& m);
void write_block_events(int fd, const BlockEvents& m);

enum class ReadStatus : uint8_t { Ok, Eof, Timeout };
// Reads one message, waiting at most until `deadline` (time_point::max(): no limit). With
// `block_events`, a BlockEvents message is read straight into it (`payload` left empty) instead of
// into `payload` for decode(). Pass the same `payload` again to reuse its memory.
ReadStatus
read_message(int fd, MessageType& type, std::string& payload,
             std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max(),
             BlockEvents* block_events = nullptr);

} // namespace synclab::gpu
