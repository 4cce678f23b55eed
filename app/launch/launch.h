// Launch vocabulary: what one kernel launch is given (grid and block shape, device buffers, kernel
// arguments) and the `buf:TYPE:COUNT[:init]` grammar that describes a buffer in text (the CLI's
// --arg, a lesson file's buffers). Every runner (simulator, GPU) and every producer of launches
// (the scenario catalog, the CLI) speaks it; it knows nothing of how kernels run.
#pragma once

#include "trace/trace.h"

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace synclab::launch {

using trace::Dim3;

struct LaunchConfig {
    Dim3 grid;
    Dim3 block;
    uint32_t dynamic_shared_bytes = 0;
    // A cooperative launch (cudaLaunchCooperativeKernel, cuLaunchCooperativeKernel): every block is
    // resident at once, or the launch fails before anything runs; the kernel may use
    // cooperative_groups::this_grid().sync(). A normal launch leaves cg's grid workspace null, so a
    // grid.sync() in it traps.
    bool cooperative = false;
};

// CUDA's limits on a launch shape (every current GPU): at most 1024 threads per block, block z at
// most 64, grid x at most 2^31 - 1, grid y and z at most 65535, and at most 227 KB of shared memory
// per block (static + dynamic).
constexpr uint32_t kMaxThreadsPerBlock = 1024;
constexpr uint32_t kMaxBlockZ = 64;
constexpr uint32_t kMaxGridX = 0x7fffffffu;
constexpr uint32_t kMaxGridYZ = 65535;
constexpr uint32_t kMaxSharedBytes = 227 * 1024;

// What is wrong with a launch shape, in words ("block 2048x1x1 has 2048 threads; CUDA allows at most
// 1024"), or "" when CUDA would take it. Counts are computed without overflow.
std::string launch_problem(const Dim3& grid, const Dim3& block);

// The memory model a simulated launch runs under (the GPU runs under the hardware's own):
//   sc       sequential consistency: every access is seen by every thread at once, in one order;
//   relaxed  the PTX memory model's weak behaviours: stores wait in per-thread store buffers, an
//            SM's L1 may hold stale lines, loads may read older values than another thread wrote,
//            until fences, barriers, release/acquire and atomics order them (sim/relaxed_memory.h).
enum class MemoryModel : uint8_t { Sc, Relaxed };
const char* to_string(MemoryModel model);                      // "sc", "relaxed"
bool parse_memory_model(std::string_view text, MemoryModel& out); // false for anything else

// A device buffer as the host sees it. A runner gives each one a device address.
enum class ElemType : uint8_t { I8, U8, I16, U16, I32, U32, I64, U64, F32, F64 };

struct Buffer {
    std::string name; // as the kernel's source calls it where known (a lesson's buffer, a --arg NAME)
    std::vector<uint8_t> bytes;
    // The element type where the buffer was made from one (make_buffer): names and types its
    // elements in the trace's memory map ("hist[3]" holding u32s).
    std::optional<ElemType> type;
};

// What a runner calls buffer `index` of a launch: its name, or "buffer <index>" where it has none.
std::string buffer_name(const Buffer& buffer, size_t index);

// The trace's memory map (trace/memory_map.h) of a launch's buffers, placed at `addresses` (parallel
// to `buffers`, where the runner put them: the simulator's global memory, the GPU worker's
// allocations; buffers past the end of `addresses` were not placed): one region per non-empty
// buffer, named by buffer_name and typed where the buffer has an element type. Every runner fills
// its map with these and the kernel's own (ptx::kernel_regions), so both name memory alike.
std::vector<trace::MemoryRegion> buffer_regions(const std::vector<Buffer>& buffers,
                                                const std::vector<uint64_t>& addresses);

// One kernel argument, in the order of the kernel's parameters.
struct KernelArg {
    enum class Kind : uint8_t { Buffer, Scalar };
    Kind kind = Kind::Scalar;
    uint32_t buffer = 0; // Buffer: index into the buffers vector
    uint64_t bits = 0;   // Scalar: value bits (f32 as its 32 bits)
    static KernelArg pointer(uint32_t buffer_index) { return {Kind::Buffer, buffer_index, 0}; }
    static KernelArg scalar(uint64_t value_bits) { return {Kind::Scalar, 0, value_bits}; }
};

// Concrete inputs for one run: buffers and the kernel arguments that refer to them.
struct Inputs {
    std::vector<Buffer> buffers;
    std::vector<KernelArg> args;
};

// [SECTION] Buffers described in text: buf:TYPE:COUNT[:zero|iota|random|random=LO..HI|const=V]

uint32_t elem_size(ElemType type);
// The element of `type` at `p` (elem_size bytes), as a double.
double element_value(const uint8_t* p, ElemType type);
const char* to_string(ElemType type); // "i32", ...
const char* ptx_type(ElemType type);  // the PTX spelling: "s32", "u32", "f32", ...
bool is_float(ElemType type);

struct BufferSpec {
    ElemType type = ElemType::U32;
    uint64_t count = 0;
    enum class Init : uint8_t { Zero, Iota, Random, Const } init = Init::Zero;
    double constant = 0;
    // Random: whole numbers drawn uniformly from [random_lo, random_hi]; plain `random` is 0..99.
    int64_t random_lo = 0, random_hi = 99;
};

// A malformed buffer description; what() says which part is wrong ("unknown element type 'i33'").
struct SpecError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

constexpr uint64_t kMaxBufferElements = uint64_t(1) << 28;

// True when `text` starts with "buf:" (a buffer, not a scalar).
bool is_buffer_spec(std::string_view text);
// Parses "buf:TYPE:COUNT[:INIT]"; throws SpecError. TYPE: i8 u8 i16 u16 i32 u32 i64 u64 f32 f64 (also
// int uint float double); COUNT 1 .. 2^28; INIT zero (default), iota, random (= random=0..99),
// random=LO..HI (whole numbers LO <= HI, both held exactly by TYPE: e.g. random=1..999999 for
// inputs that are never 0, random=-8..8 for signed ones; f32 up to +-2^24, f64 up to +-2^53),
// const=V.
BufferSpec parse_buffer_spec(std::string_view text);
std::string to_string(const BufferSpec& spec); // back to the grammar

// A buffer filled as `spec` says. `random` draws whole numbers in [random_lo, random_hi] (exact in the
// element type, so small float sums stay exact) from `rng_state`, which advances (one state serves
// several buffers, in order: the same specs and seed always give the same contents).
Buffer make_buffer(const BufferSpec& spec, std::string name, uint64_t& rng_state);
// The state make_buffer starts from for a run's seed.
uint64_t buffer_rng_seed(uint64_t seed);

// Parses a scalar argument's text as the given type's bits: integers (decimal, 0x hex, negative) for
// integer types, decimal floats for f32/f64. Throws SpecError.
uint64_t parse_scalar_bits(std::string_view text, bool is_f32, bool is_f64);

// `count` values from element `first` of a buffer, joined by commas ("1,0"): how an outcome
// histogram names a buffer's contents (the whole buffer, or one record of it).
std::string format_values(const std::vector<uint8_t>& bytes, ElemType type, size_t first, size_t count);

// The buffer's contents as text, `per_line` values a line: "[0] 1 2 3 ...".
std::string format_buffer(const std::vector<uint8_t>& bytes, ElemType type, size_t per_line = 8);

} // namespace synclab::launch
