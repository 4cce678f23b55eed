#include "gpu/executor.h"

#include "gpu/cooperative.h"

#include "gpu/host_reader.h"
#include "trace/trace_buffer.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <memory>
#include <thread>

namespace synclab::gpu {

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

std::string megabytes(uint64_t bytes) {
    return std::to_string((bytes + (1u << 20) - 1) >> 20) + " MB";
}

// Kernel arguments' memory (device memory, and host-mapped memory for a CPU reader), freed when the
// request ends (also on errors).
class Allocations {
  public:
    explicit Allocations(const cu::Api& api) : api_(api) {}
    ~Allocations() {
        for (cu::DevicePtr p : ptrs_)
            api_.MemFree(p);
        for (void* p : host_)
            api_.MemFreeHost(p);
    }
    // A hung or failed kernel: cuMemFree would wait for it (forever). The worker exits right after
    // answering, and the driver reclaims everything with the context.
    void leak() {
        ptrs_.clear();
        host_.clear();
    }
    // Pinned host memory mapped into the device's address space: `host` is where the CPU reads it,
    // the result where the kernel does.
    cu::DevicePtr alloc_mapped(size_t bytes, const std::string& what, void*& host) {
        host = nullptr;
        const unsigned flags = cu::kMemHostAllocPortable | cu::kMemHostAllocDeviceMap;
        cu::check(api_, api_.MemHostAlloc(&host, std::max<size_t>(bytes, 1), flags), "cuMemHostAlloc",
                  what + " (" + megabytes(bytes) + " of host-mapped memory)");
        host_.push_back(host);
        cu::DevicePtr p = 0;
        cu::check(api_, api_.MemHostGetDevicePointer(&p, host, 0), "cuMemHostGetDevicePointer", what);
        return p;
    }
    cu::DevicePtr alloc(size_t bytes, const std::string& what) {
        cu::DevicePtr p = 0;
        cu::check(api_, api_.MemAlloc(&p, std::max<size_t>(bytes, 1)), "cuMemAlloc",
                  what + " (" + megabytes(bytes) + ")");
        ptrs_.push_back(p);
        return p;
    }

  private:
    const cu::Api& api_;
    std::vector<cu::DevicePtr> ptrs_;
    std::vector<void*> host_;
};

// RunRequest::host_reader, checked against the request: two different u32 buffers that hold
// `pairs` values each. Throws cu::Error("request", ...) naming what is wrong.
void check_host_reader(const RunRequest& req, bool can_map_host_memory) {
    const HostReaderRequest& h = req.host_reader;
    auto bad = [](const std::string& why) { throw cu::Error("request", 0, "host reader: " + why); };
    if (!can_map_host_memory)
        bad("this device cannot map host memory (CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY is 0), so a "
            "CPU thread cannot read what the kernel writes while it runs");
    const size_t n = req.buffers.size();
    if (h.flags_buffer >= n || h.data_buffer >= n)
        bad("flags buffer " + std::to_string(h.flags_buffer) + " and data buffer " +
            std::to_string(h.data_buffer) + " must be among the request's " + std::to_string(n) + " buffers");
    if (h.flags_buffer == h.data_buffer) bad("flags and data must be two different buffers");
    if (h.pairs == 0) bad("no pairs to read");
    for (const uint32_t b : {h.flags_buffer, h.data_buffer})
        if (req.buffers[b].bytes.size() < uint64_t(h.pairs) * 4)
            bad("buffer " + req.buffers[b].name + " holds " + std::to_string(req.buffers[b].bytes.size()) +
                " bytes, fewer than " + std::to_string(h.pairs) + " u32 values (one per pair)");
}

// Per warp of the launch, the events of `events` it wrote (events of other threads are ignored).
std::vector<uint64_t> events_per_warp(const std::vector<trace::Event>& events, const trace::Dim3& grid,
                                      const trace::Dim3& block) {
    const uint64_t per_block = block.count();
    const uint64_t warps_per_block = (per_block + 31) / 32;
    std::vector<uint64_t> counts(grid.count() * warps_per_block, 0);
    for (const trace::Event& e : events) {
        const uint64_t w = e.thread / per_block * warps_per_block + e.thread % per_block / 32;
        if (w < counts.size()) ++counts[w];
    }
    return counts;
}

// How long a snapshot of a hung kernel's trace may take before we give up on it.
constexpr double kSnapshotWaitMs = 3000;
// Device-mode trace areas up to this size get their pinned staging copy up front.
constexpr size_t kPreallocatedStagingMax = size_t(256) << 20;

} // namespace

Hello Executor::init() {
    Hello h;
    std::string why;
    if (!cu::load(api_, why)) {
        h.state = WorkerState::NoDriver;
        h.message = "no NVIDIA driver found (" + why + ")";
        return h;
    }
    const cu::Result init = api_.Init(0);
    if (init != cu::kSuccess) {
        h.state = WorkerState::NoDevice;
        h.message = "no CUDA device (cuInit: " + cu::describe(api_, init) + ")";
        return h;
    }
    int count = 0;
    const cu::Result counted = api_.DeviceGetCount(&count);
    if (counted != cu::kSuccess || count == 0) {
        h.state = WorkerState::NoDevice;
        h.message = counted != cu::kSuccess
                        ? "no CUDA device (cuDeviceGetCount: " + cu::describe(api_, counted) + ")"
                        : "no CUDA device (the driver found none)";
        return h;
    }
    try {
        cu::check(api_, api_.DeviceGet(&device_, 0), "cuDeviceGet");
        char name[256] = {};
        cu::check(api_, api_.DeviceGetName(name, sizeof name - 1, device_), "cuDeviceGetName");
        h.device = name;
        device_name_ = name;
        int v = 0;
        cu::check(api_, api_.DeviceGetAttribute(&v, cu::kAttrMultiprocessorCount, device_),
                  "cuDeviceGetAttribute");
        h.sm_count = static_cast<uint32_t>(v);
        sm_count_ = h.sm_count;
        cu::check(api_, api_.DeviceGetAttribute(&v, cu::kAttrComputeCapabilityMajor, device_),
                  "cuDeviceGetAttribute");
        h.cc_major = static_cast<uint32_t>(v);
        cu::check(api_, api_.DeviceGetAttribute(&v, cu::kAttrComputeCapabilityMinor, device_),
                  "cuDeviceGetAttribute");
        h.cc_minor = static_cast<uint32_t>(v);
        cu::check(api_, api_.DeviceGetAttribute(&v, cu::kAttrCanMapHostMemory, device_),
                  "cuDeviceGetAttribute");
        h.can_map_host_memory = v != 0;
        can_map_host_memory_ = h.can_map_host_memory;
        cu::check(api_, api_.DeviceGetAttribute(&v, cu::kAttrCooperativeLaunch, device_),
                  "cuDeviceGetAttribute");
        cooperative_launch_ = v != 0;
        cu::check(api_, api_.DriverGetVersion(&v), "cuDriverGetVersion");
        h.driver_version = static_cast<uint32_t>(v);
        size_t mem = 0;
        cu::check(api_, api_.DeviceTotalMem(&mem, device_), "cuDeviceTotalMem");
        h.memory_bytes = mem;
        cu::check(api_, api_.DevicePrimaryCtxRetain(&context_, device_), "cuDevicePrimaryCtxRetain");
        cu::check(api_, api_.CtxSetCurrent(context_), "cuCtxSetCurrent");
        size_t free_bytes = 0, total_bytes = 0;
        cu::check(api_, api_.MemGetInfo(&free_bytes, &total_bytes), "cuMemGetInfo");
        h.free_memory_bytes = free_bytes;
        // Kernels go to an ordinary stream, so that the synchronous copies and memsets (legacy NULL
        // stream) are ordered with them. Reads of a hung kernel's trace go to a non-blocking stream,
        // which waits for neither.
        cu::check(api_, api_.StreamCreate(&stream_, 0), "cuStreamCreate");
        cu::check(api_, api_.StreamCreate(&copy_stream_, cu::kStreamNonBlocking), "cuStreamCreate");
        cu::check(api_, api_.EventCreate(&start_, cu::kEventDefault), "cuEventCreate");
        cu::check(api_, api_.EventCreate(&stop_, cu::kEventDefault), "cuEventCreate");
    } catch (const cu::Error& e) {
        h.state = WorkerState::InitFailed;
        h.message = std::string("the CUDA device could not be set up: ") + e.what();
        return h;
    }
    ready_ = true;
    return h;
}

void Executor::load_module(const std::string& ptx, std::string& jit_log) {
    if (module_ && ptx == module_ptx_) {
        jit_log = module_log_;
        return;
    }
    if (module_) {
        api_.ModuleUnload(module_);
        module_ = nullptr;
        module_ptx_.clear();
    }
    std::vector<char> info(1 << 16, '\0'), error(1 << 16, '\0');
    int options[] = {cu::kJitInfoLogBuffer, cu::kJitInfoLogBufferSizeBytes, cu::kJitErrorLogBuffer,
                     cu::kJitErrorLogBufferSizeBytes, cu::kJitGenerateLineInfo};
    void* values[] = {info.data(), reinterpret_cast<void*>(info.size() - 1), error.data(),
                      reinterpret_cast<void*>(error.size() - 1), reinterpret_cast<void*>(1)};
    const cu::Result r = api_.ModuleLoadDataEx(&module_, ptx.c_str(), 5, options, values);
    jit_log = std::string(info.data());
    if (r != cu::kSuccess) {
        module_ = nullptr;
        std::string log = std::string(error.data());
        if (log.empty()) log = jit_log;
        cu::check(api_, r, "cuModuleLoadDataEx", log.empty() ? "(no JIT log)" : log);
    }
    module_ptx_ = ptx;
    module_log_ = jit_log;
}

void Executor::release_trace() {
    if (trace_.mode == TraceBuffer::Mapped) {
        if (trace_.host_events) api_.MemFreeHost(trace_.host_events);
        if (trace_.host_warps) api_.MemFreeHost(trace_.host_warps);
    } else {
        if (trace_.events) api_.MemFree(trace_.events);
        if (trace_.warps) api_.MemFree(trace_.warps);
    }
    if (trace_.cursors) api_.MemFree(trace_.cursors);
    if (trace_.drops) api_.MemFree(trace_.drops);
    if (trace_.blocks) api_.MemFree(trace_.blocks);
    if (trace_.staging) api_.MemFreeHost(trace_.staging);
    for (void* p : trace_.batch_host)
        if (p) api_.MemFreeHost(p);
    trace_ = TraceArea{};
}

void Executor::prepare_trace(TraceBuffer mode, const trace::TraceBufferLayout& layout, uint64_t warps,
                             const std::vector<uint32_t>& block_ranks) {
    const size_t event_bytes = std::max<size_t>(layout.event_bytes(), 32);
    const size_t warp_bytes = std::max<size_t>(warps * sizeof(uint32_t), 4);
    const size_t drop_bytes = std::max<size_t>(warps * sizeof(uint64_t), 8);
    const size_t block_bytes = block_ranks.size() * sizeof(uint32_t);
    const size_t cursor_bytes = layout.cursor_bytes();
    const std::string events_what = std::to_string(layout.capacity()) + " events in " +
                                    std::to_string(layout.stripes) + " stripes (" + megabytes(event_bytes) +
                                    ")";
    // Pinned host memory to copy a hung kernel's trace into (cursors, warp table, drop table and, in
    // device mode, the events), allocated now because an allocation while the kernel hangs might wait
    // for it (large buffers: at the hang).
    const size_t staging =
        cursor_bytes + warp_bytes + drop_bytes + (mode == TraceBuffer::Device ? event_bytes : 0);
    // Keep the last area if it is big enough: allocating hundreds of MB each run costs milliseconds.
    const bool reuse = trace_.cursors && trace_.mode == mode && trace_.event_bytes >= event_bytes &&
                       trace_.warp_bytes >= warp_bytes && trace_.cursor_bytes >= cursor_bytes &&
                       trace_.drop_bytes >= drop_bytes;
    if (!reuse) {
        release_trace();
        trace_.mode = mode;
        cu::check(api_, api_.MemAlloc(&trace_.cursors, cursor_bytes), "cuMemAlloc", "trace cursors");
        trace_.cursor_bytes = cursor_bytes;
        cu::check(api_, api_.MemAlloc(&trace_.drops, drop_bytes), "cuMemAlloc", "drop table");
        trace_.drop_bytes = drop_bytes;
        if (mode == TraceBuffer::Device) {
            cu::check(api_, api_.MemAlloc(&trace_.events, event_bytes), "cuMemAlloc",
                      "trace buffer of " + events_what);
            cu::check(api_, api_.MemAlloc(&trace_.warps, warp_bytes), "cuMemAlloc", "warp table");
        } else {
            const unsigned flags = cu::kMemHostAllocPortable | cu::kMemHostAllocDeviceMap;
            cu::check(api_, api_.MemHostAlloc(&trace_.host_events, event_bytes, flags), "cuMemHostAlloc",
                      "mapped trace buffer of " + events_what);
            cu::check(api_, api_.MemHostGetDevicePointer(&trace_.events, trace_.host_events, 0),
                      "cuMemHostGetDevicePointer");
            cu::check(api_, api_.MemHostAlloc(&trace_.host_warps, warp_bytes, flags), "cuMemHostAlloc",
                      "mapped warp table");
            cu::check(api_, api_.MemHostGetDevicePointer(&trace_.warps, trace_.host_warps, 0),
                      "cuMemHostGetDevicePointer");
        }
        if (staging <= kPreallocatedStagingMax &&
            api_.MemHostAlloc(&trace_.staging, staging, 0) == cu::kSuccess)
            trace_.staging_bytes = staging;
        else
            trace_.staging = nullptr;
        trace_.event_bytes = event_bytes;
        trace_.warp_bytes = warp_bytes;
    }
    // Zeroed events let a reader tell written slots from reserved ones (time and kind are never 0).
    if (mode == TraceBuffer::Device) {
        cu::check(api_, api_.MemsetD8(trace_.events, 0, event_bytes), "cuMemsetD8", "trace buffer");
        cu::check(api_, api_.MemsetD8(trace_.warps, 0, warp_bytes), "cuMemsetD8", "warp table");
    } else {
        std::memset(trace_.host_events, 0, event_bytes);
        std::memset(trace_.host_warps, 0, warp_bytes);
    }
    cu::check(api_, api_.MemsetD8(trace_.cursors, 0, cursor_bytes), "cuMemsetD8", "trace cursors");
    cu::check(api_, api_.MemsetD8(trace_.drops, 0, drop_bytes), "cuMemsetD8", "drop table");
    // The block table (sampled launches only) on its own: a first sample need not reallocate the rest.
    if (block_bytes > trace_.block_bytes) {
        if (trace_.blocks) api_.MemFree(trace_.blocks);
        trace_.blocks = 0;
        trace_.block_bytes = 0;
        cu::check(api_, api_.MemAlloc(&trace_.blocks, block_bytes), "cuMemAlloc", "block table");
        trace_.block_bytes = block_bytes;
    }
    if (block_bytes)
        cu::check(api_, api_.MemcpyHtoD(trace_.blocks, block_ranks.data(), block_bytes), "cuMemcpyHtoD",
                  "block table");
}

std::vector<trace::Event> Executor::mapped_events(const trace::TraceBufferLayout& layout,
                                                  const std::vector<uint64_t>* cursors) const {
    std::atomic_thread_fence(std::memory_order_acquire);
    return trace::complete_events(static_cast<const trace::Event*>(trace_.host_events), layout, cursors);
}

void Executor::snapshot(RunResult& result, const trace::TraceBufferLayout& layout, uint64_t warp_count) {
    result.partial = true;
    const bool mapped = trace_.mode == TraceBuffer::Mapped;
    if (mapped) {
        // Host memory: read it directly, no driver call that could wait for the hung kernel. Unwritten
        // slots are zero, so the cursors are not needed to find the events.
        result.events = mapped_events(layout, nullptr);
        result.warps.resize(warp_count);
        std::memcpy(result.warps.data(), trace_.host_warps, warp_count * 4);
    }
    // Device memory (the cursors and the drop table; in device mode also the warp table and the
    // events): copies on the second stream, which does not wait for the hung kernel's stream.
    auto wait_copies = [&]() {
        const auto t0 = Clock::now();
        for (;;) {
            const cu::Result r = api_.StreamQuery(copy_stream_);
            if (r == cu::kSuccess) return true;
            if (r != cu::kErrorNotReady || ms_since(t0) > kSnapshotWaitMs) return false;
            std::this_thread::sleep_for(std::chrono::microseconds(200));
        }
    };
    const size_t cursor_bytes = layout.cursor_bytes();
    const size_t warp_bytes = warp_count * 4, drop_bytes = warp_count * 8;
    const size_t staging_bytes = cursor_bytes + warp_bytes + drop_bytes + (mapped ? 0 : layout.event_bytes());
    void* staging = trace_.staging;
    bool own_staging = false;
    if (!staging || trace_.staging_bytes < staging_bytes) {
        staging = nullptr;
        if (api_.MemHostAlloc(&staging, staging_bytes, 0) == cu::kSuccess) {
            own_staging = true;
        } else {
            result.message += "; the partial trace could not be read (no host memory for a copy)";
            return;
        }
    }
    std::vector<uint64_t> cursors;
    if (api_.MemcpyDtoHAsync(staging, trace_.cursors, cursor_bytes, copy_stream_) == cu::kSuccess &&
        wait_copies()) {
        cursors = trace::read_cursors(staging, layout);
        const trace::CursorTotals totals = trace::cursor_totals(cursors, layout);
        result.cursor = totals.attempted;
        result.dropped = totals.dropped;
        result.cursor_known = true;
    }
    char* warps = static_cast<char*>(staging) + cursor_bytes;
    char* drops = warps + warp_bytes;
    auto* events = reinterpret_cast<trace::Event*>(drops + drop_bytes);
    if (warp_count && api_.MemcpyDtoHAsync(drops, trace_.drops, drop_bytes, copy_stream_) == cu::kSuccess &&
        wait_copies()) {
        result.warp_dropped.resize(warp_count);
        std::memcpy(result.warp_dropped.data(), drops, drop_bytes);
        result.drops_known = true;
    }
    if (mapped) {
        if (!result.drops_known &&
            !trace::any_stripe_full(static_cast<const trace::Event*>(trace_.host_events), layout))
            result.drops_known = true; // no stripe filled: nothing was dropped
        if (own_staging) api_.MemFreeHost(staging);
        return;
    }
    bool ok = warp_count == 0 ||
              api_.MemcpyDtoHAsync(warps, trace_.warps, warp_bytes, copy_stream_) == cu::kSuccess;
    // Each stripe up to its cursor (all of it where the cursors could not be read).
    for (uint32_t s = 0; ok && s < layout.stripes; ++s) {
        const uint64_t used =
            result.cursor_known ? std::min(cursors[s], layout.stripe_capacity) : layout.stripe_capacity;
        const uint64_t first = layout.stripe_first_slot(s);
        ok = used == 0 || api_.MemcpyDtoHAsync(events + first, trace_.events + first * sizeof(trace::Event),
                                               used * sizeof(trace::Event), copy_stream_) == cu::kSuccess;
    }
    ok = ok && wait_copies();
    if (ok) {
        result.warps.resize(warp_count);
        std::memcpy(result.warps.data(), warps, warp_bytes);
        result.events = trace::complete_events(events, layout, result.cursor_known ? &cursors : nullptr);
    } else {
        result.message += "; the partial trace could not be copied from device memory while the kernel hangs "
                          "(run with --live: the mapped buffer is readable at any time)";
    }
    if (own_staging) api_.MemFreeHost(staging);
}

void Executor::send_block_events(const RunRequest& req, const std::vector<uint64_t>& cursors,
                                 const std::function<void(const BlockEventsView&)>& block_events) {
    const trace::TraceBufferLayout& layout = req.trace_layout;
    const uint32_t warps_per_block = static_cast<uint32_t>((req.block.count() + 31) / 32);
    const std::vector<trace::BlockBatch> batches =
        trace::block_batches(cursors, req.grid.count(), warps_per_block, kBlockEventsTarget);
    uint64_t largest = 0;
    for (const trace::BlockBatch& b : batches)
        largest = std::max(largest, b.events);
    // Pinned staging: a DMA at full speed (pageable memory goes through the driver's own staging),
    // and the next batch's copies run while this one is written to the socket.
    const size_t bytes = std::max<size_t>(largest * sizeof(trace::Event), sizeof(trace::Event));
    if (trace_.batch_bytes < bytes) {
        for (int k = 0; k < 2; ++k) {
            if (trace_.batch_host[k]) api_.MemFreeHost(trace_.batch_host[k]);
            trace_.batch_host[k] = nullptr;
            if (api_.MemHostAlloc(&trace_.batch_host[k], bytes, 0) != cu::kSuccess) {
                trace_.batch_host[k] = nullptr;
                trace_.batch_pageable[k].resize(largest); // (slower, still right)
            }
        }
        trace_.batch_bytes = bytes;
    }
    const bool mapped = req.trace_buffer == TraceBuffer::Mapped;
    BlockEventsView pending;
    bool has_pending = false;
    int k = 0;
    for (const trace::BlockBatch& b : batches) {
        trace::Event* dst = trace_.batch_host[k] ? static_cast<trace::Event*>(trace_.batch_host[k])
                                                 : trace_.batch_pageable[k].data();
        uint64_t at = 0;
        const uint64_t first_warp = uint64_t(b.first_block) * warps_per_block;
        for (uint64_t w = first_warp; w < first_warp + uint64_t(b.blocks) * warps_per_block; ++w) {
            const uint64_t used = cursors[w]; // (nothing dropped: all of them written)
            if (used == 0) continue;
            const uint64_t first = layout.stripe_first_slot(static_cast<uint32_t>(w));
            if (mapped)
                std::memcpy(dst + at, static_cast<const trace::Event*>(trace_.host_events) + first,
                            used * sizeof(trace::Event));
            else
                cu::check(api_,
                          api_.MemcpyDtoHAsync(dst + at, trace_.events + first * sizeof(trace::Event),
                                               used * sizeof(trace::Event), copy_stream_),
                          "cuMemcpyDtoHAsync", "trace buffer");
            at += used;
        }
        if (has_pending) block_events(pending); // (while this batch's copies run)
        if (!mapped) cu::check(api_, api_.StreamSynchronize(copy_stream_), "cuStreamSynchronize", "trace buffer");
        pending = BlockEventsView{b.first_block, b.blocks, dst, b.events};
        has_pending = true;
        k ^= 1;
    }
    if (has_pending) block_events(pending);
}

RunResult Executor::run(const RunRequest& req, const std::function<void(const Progress&)>& progress,
                        const std::function<void(const BlockEventsView&)>& block_events) {
    RunResult res;
    const auto t0 = Clock::now();
    if (!ready_) {
        res.status = ResultStatus::Error;
        res.message = "the GPU worker has no usable device";
        return res;
    }
    bool launched = false;
    // RunResult::phases: each phase ends where the next begins.
    auto mark = t0;
    auto phase_ends = [&](double& phase) {
        const auto now = Clock::now();
        phase += std::chrono::duration<double, std::milli>(now - mark).count();
        mark = now;
    };
    try {
        load_module(req.ptx, res.jit_log);
        phase_ends(res.phases.module_ms);
        // What the runner sizes the next trace buffer from (before this request's allocations).
        size_t free_bytes = 0, total_bytes = 0;
        cu::check(api_, api_.MemGetInfo(&free_bytes, &total_bytes), "cuMemGetInfo");
        res.device_free_bytes = free_bytes;
        res.trace_area_bytes = trace_.cursors ? trace_.device_bytes() : 0;
        cu::Function fn = nullptr;
        cu::check(api_, api_.ModuleGetFunction(&fn, module_, req.kernel.c_str()), "cuModuleGetFunction",
                  "kernel '" + req.kernel + "'");
        // Where the module's `__device__` variables are (the runner's memory map). A symbol the
        // loaded module lacks (ptxas may drop an unused static one) cannot be touched by the kernel
        // either: its address stays 0.
        res.global_addresses.reserve(req.globals.size());
        for (const std::string& name : req.globals) {
            cu::DevicePtr address = 0;
            size_t bytes = 0;
            const cu::Result found = api_.ModuleGetGlobal(&address, &bytes, module_, name.c_str());
            if (found != cu::kErrorNotFound)
                cu::check(api_, found, "cuModuleGetGlobal", "variable '" + name + "'");
            res.global_addresses.push_back(found == cu::kSuccess ? address : 0);
        }
        if (req.dynamic_shared_bytes > 48 * 1024)
            cu::check(api_,
                      api_.FuncSetAttribute(fn, cu::kFuncAttrMaxDynamicSharedSizeBytes,
                                            static_cast<int>(req.dynamic_shared_bytes)),
                      "cuFuncSetAttribute",
                      "dynamic shared memory of " + std::to_string(req.dynamic_shared_bytes) + " bytes");

        // A cooperative launch whose grid cannot be resident at once: said before anything is
        // allocated or launched, in the driver's terms (the launch would fail the same way).
        uint32_t coop_per_sm = 0;
        if (req.cooperative) {
            if (!cooperative_launch_) throw cu::Error("request", 0, cooperative_unsupported(device_name_));
            int per_sm = 0;
            // (clamped, not wrapped: a block of more threads than an int holds fits no SM either)
            const uint64_t threads = req.block.count();
            cu::check(api_,
                      api_.OccupancyMaxActiveBlocksPerMultiprocessor(
                          &per_sm, fn, static_cast<int>(std::min<uint64_t>(threads, INT32_MAX)),
                          req.dynamic_shared_bytes),
                      "cuOccupancyMaxActiveBlocksPerMultiprocessor", "kernel " + req.kernel);
            coop_per_sm = static_cast<uint32_t>(std::max(per_sm, 0));
            const std::string problem = cooperative_launch_problem(
                req.grid.count(), static_cast<uint32_t>(threads), coop_per_sm, sm_count_);
            if (!problem.empty()) {
                res.status = ResultStatus::Error;
                res.message = problem;
                phase_ends(res.phases.setup_ms);
                res.wall_ms = ms_since(t0);
                return res;
            }
        }

        const HostReaderRequest& reader = req.host_reader;
        if (reader.enabled) check_host_reader(req, can_map_host_memory_);
        Allocations allocs(api_);
        std::vector<cu::DevicePtr> buffers;
        // The CPU reader's buffers live in host-mapped memory: there the host side (else null).
        std::vector<void*> host_side(req.buffers.size(), nullptr);
        for (size_t i = 0; i < req.buffers.size(); ++i) {
            const NamedBuffer& b = req.buffers[i];
            const bool mapped = reader.enabled && (i == reader.flags_buffer || i == reader.data_buffer);
            buffers.push_back(mapped ? allocs.alloc_mapped(b.bytes.size(), "buffer " + b.name, host_side[i])
                                     : allocs.alloc(b.bytes.size(), "buffer " + b.name));
        }
        // Known before the launch, so a Timeout or Fault answer carries them too.
        res.buffer_addresses.assign(buffers.begin(), buffers.end());
        // The inputs, into device or mapped memory (again before every launch with a CPU reader).
        auto copy_inputs = [&] {
            for (size_t i = 0; i < req.buffers.size(); ++i) {
                const NamedBuffer& b = req.buffers[i];
                if (b.bytes.empty()) continue;
                if (host_side[i])
                    std::memcpy(host_side[i], b.bytes.data(), b.bytes.size());
                else
                    cu::check(api_, api_.MemcpyHtoD(buffers[i], b.bytes.data(), b.bytes.size()),
                              "cuMemcpyHtoD", "buffer " + b.name);
            }
        };
        copy_inputs();
        const bool traced = req.mode == RunMode::Traced;
        const trace::TraceBufferLayout& layout = req.trace_layout;
        if (traced) {
            // (at most 2^40 slots: 32 TiB, more than any GPU has, and far from overflowing a size_t)
            if (!trace::is_power_of_two(layout.stripes) || layout.stripes > trace::kMaxStripes ||
                layout.stripe_capacity == 0 || layout.stripe_capacity > (uint64_t(1) << 40) / layout.stripes)
                throw cu::Error("request", 0,
                                "trace buffer of " + std::to_string(layout.stripes) + " stripes of " +
                                    std::to_string(layout.stripe_capacity) +
                                    " slots: stripes must be a power of two up to " +
                                    std::to_string(trace::kMaxStripes) + ", with 1 to 2^40 slots in all");
            // The kernel indexes the warp, drop and block tables by its own launch: tables of another
            // size would be written out of bounds.
            const uint64_t warps = req.grid.count() * ((req.block.count() + 31) / 32);
            if (req.warp_count != warps)
                throw cu::Error("request", 0,
                                "a warp table of " + std::to_string(req.warp_count) +
                                    " entries for a launch of " + std::to_string(warps) + " warps");
            if (!req.block_ranks.empty() && req.block_ranks.size() != req.grid.count())
                throw cu::Error("request", 0,
                                "a block table of " + std::to_string(req.block_ranks.size()) +
                                    " entries for a grid of " + std::to_string(req.grid.count()) + " blocks");
            prepare_trace(req.trace_buffer, layout, req.warp_count, req.block_ranks);
        }

        cu::DevicePtr shared_table = 0; // ArgSpec::Kind::TraceShared
        void* shared_host = nullptr;    // its host side where it is host-mapped
        uint32_t shared_entries = 0;
        // Into res.shared_addresses: a mapped table at any time, a device one once the launch completed.
        auto read_shared_table = [&](bool completed) {
            if (!shared_entries || (!shared_host && !completed)) return;
            res.shared_addresses.resize(shared_entries);
            if (shared_host) {
                std::atomic_thread_fence(std::memory_order_acquire);
                std::memcpy(res.shared_addresses.data(), shared_host, shared_entries * 4);
            } else {
                cu::check(api_, api_.MemcpyDtoH(res.shared_addresses.data(), shared_table, shared_entries * 4),
                          "cuMemcpyDtoH", "shared-symbol table");
            }
        };
        std::vector<uint64_t> values(req.args.size(), 0);
        std::vector<void*> params(req.args.size(), nullptr);
        for (size_t i = 0; i < req.args.size(); ++i) {
            const ArgSpec& a = req.args[i];
            switch (a.kind) {
            case ArgSpec::Kind::Buffer:
                if (a.buffer >= buffers.size())
                    throw cu::Error("request", 0,
                                    "argument " + std::to_string(i) + " names buffer " +
                                        std::to_string(a.buffer) + " of " + std::to_string(buffers.size()));
                values[i] = buffers[a.buffer];
                break;
            case ArgSpec::Kind::Scalar:
                if (a.size != 1 && a.size != 2 && a.size != 4 && a.size != 8)
                    throw cu::Error("request", 0,
                                    "argument " + std::to_string(i) + " has " + std::to_string(a.size) +
                                        " bytes; the GPU runner passes scalars of 1, 2, 4 or 8 bytes");
                values[i] = a.bits;
                break;
            case ArgSpec::Kind::TraceEvents:
                values[i] = traced ? trace_.events : 0;
                break;
            case ArgSpec::Kind::TraceCursor:
                values[i] = traced ? trace_.cursors : 0;
                break;
            case ArgSpec::Kind::TraceWarps:
                values[i] = traced ? trace_.warps : 0;
                break;
            case ArgSpec::Kind::TraceBlocks:
                values[i] = traced && !req.block_ranks.empty() ? trace_.blocks : 0;
                break;
            case ArgSpec::Kind::TraceDrops:
                values[i] = traced ? trace_.drops : 0;
                break;
            case ArgSpec::Kind::TraceShared:
                if (a.bits > 4096)
                    throw cu::Error("request", 0,
                                    "argument " + std::to_string(i) + " asks for a table of " +
                                        std::to_string(a.bits) + " shared symbols (at most 4096)");
                if (traced && a.bits > 0) {
                    // Host-mapped where the device can: readable after a hang or a fault too.
                    shared_entries = static_cast<uint32_t>(a.bits);
                    if (can_map_host_memory_) {
                        shared_table = allocs.alloc_mapped(a.bits * 4, "shared-symbol table", shared_host);
                        std::memset(shared_host, 0, a.bits * 4);
                    } else {
                        shared_table = allocs.alloc(a.bits * 4, "shared-symbol table");
                        cu::check(api_, api_.MemsetD8(shared_table, 0, a.bits * 4), "cuMemsetD8",
                                  "shared-symbol table");
                    }
                }
                values[i] = shared_table;
                break;
            default:
                throw cu::Error("request", 0,
                                "argument " + std::to_string(i) + " is of unknown kind " +
                                    std::to_string(static_cast<unsigned>(a.kind)) +
                                    " (a runner of another build?)");
            }
            params[i] = &values[i]; // little-endian: the first `size` bytes are the value
        }

        // Everything above is done before the first launch (the copies and memsets may still be in
        // flight on the NULL stream; a kernel hang later must not hide a setup error).
        cu::check(api_, api_.CtxSynchronize(), "cuCtxSynchronize", "before the launch");
        phase_ends(res.phases.setup_ms);
        const uint32_t launches = std::max<uint32_t>(req.launches, 1);
        for (uint32_t l = 0; l < launches; ++l) {
            if (reader.enabled && l > 0) {
                copy_inputs();
                cu::check(api_, api_.CtxSynchronize(), "cuCtxSynchronize", "copying the inputs again");
            }
            if (traced && l > 0) {
                cu::check(api_, api_.MemsetD8(trace_.cursors, 0, layout.cursor_bytes()), "cuMemsetD8",
                          "trace cursors");
                cu::check(api_, api_.MemsetD8(trace_.drops, 0, trace_.drop_bytes), "cuMemsetD8",
                          "drop table");
            }
            cu::check(api_, api_.EventRecord(start_, stream_), "cuEventRecord");
            // The CPU reader starts before the launch (it must be looking when the first flag rises)
            // and is joined on every way out of this launch before its memory can be freed: by
            // finish_reader, or (a failed driver call throwing) by ~HostReader.
            std::unique_ptr<HostReader> cpu;
            auto finish_reader = [&] {
                if (cpu) res.host_reader.push_back(cpu->join());
                cpu.reset();
            };
            if (reader.enabled) {
                cpu = std::make_unique<HostReader>(
                    static_cast<uint32_t*>(host_side[reader.flags_buffer]),
                    static_cast<uint32_t*>(host_side[reader.data_buffer]), reader.pairs,
                    Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                       std::chrono::duration<double>(req.timeout_s)));
                cpu->start();
            }
            const std::string shape = "kernel " + req.kernel + " with grid (" + std::to_string(req.grid.x) + "," +
                                      std::to_string(req.grid.y) + "," + std::to_string(req.grid.z) + ") block (" +
                                      std::to_string(req.block.x) + "," + std::to_string(req.block.y) + "," +
                                      std::to_string(req.block.z) + ")";
            if (req.cooperative) {
                const cu::Result r = api_.LaunchCooperativeKernel(fn, req.grid.x, req.grid.y, req.grid.z, req.block.x,
                                                                  req.block.y, req.block.z, req.dynamic_shared_bytes,
                                                                  stream_, params.data());
                // The occupancy check above should have caught it; if the driver disagrees, say so
                // with the figures the check used.
                const bool refused = r == cu::kErrorCooperativeLaunchTooLarge;
                cu::check(api_, r, "cuLaunchCooperativeKernel",
                          refused ? shape + ": " +
                                        cooperative_driver_refused(req.grid.count(),
                                                                   static_cast<uint32_t>(req.block.count()),
                                                                   coop_per_sm, sm_count_)
                                  : shape);
            } else {
                cu::check(api_,
                          api_.LaunchKernel(fn, req.grid.x, req.grid.y, req.grid.z, req.block.x, req.block.y,
                                            req.block.z, req.dynamic_shared_bytes, stream_, params.data(), nullptr),
                          "cuLaunchKernel", shape);
            }
            launched = true;
            cu::check(api_, api_.EventRecord(stop_, stream_), "cuEventRecord");

            // Watch the launch: done, failed, or out of time. Live mode streams complete events.
            const auto launch_t0 = Clock::now();
            auto last_progress = launch_t0;
            std::vector<uint64_t> scan_pos(layout.stripes,
                                           0); // live: per stripe, the first slot not read yet
            uint64_t seen = 0;
            const bool live = traced && req.live && req.trace_buffer == TraceBuffer::Mapped && progress;
            for (;;) {
                const cu::Result q = api_.EventQuery(stop_);
                if (q == cu::kSuccess) break;
                if (q != cu::kErrorNotReady) {
                    must_exit_ = true;
                    finish_reader();
                    allocs.leak();
                    res.status = ResultStatus::Fault;
                    res.message = "the kernel failed on the GPU: " + cu::describe(api_, q);
                    read_shared_table(false);
                    if (traced && req.trace_buffer == TraceBuffer::Mapped) {
                        res.partial = true;
                        res.events = mapped_events(layout, nullptr);
                        res.warps.assign(static_cast<const uint32_t*>(trace_.host_warps),
                                         static_cast<const uint32_t*>(trace_.host_warps) + req.warp_count);
                        // The drop table is device memory, gone with the context; where no stripe
                        // filled, nothing was dropped.
                        res.drops_known = !trace::any_stripe_full(
                            static_cast<const trace::Event*>(trace_.host_events), layout);
                    }
                    phase_ends(res.phases.launch_ms);
                    res.wall_ms = ms_since(t0);
                    return res;
                }
                const double elapsed = ms_since(launch_t0);
                if (elapsed > req.timeout_s * 1000.0) {
                    must_exit_ = true;
                    finish_reader();
                    allocs.leak();
                    res.status = ResultStatus::Timeout;
                    char buf[64];
                    std::snprintf(buf, sizeof buf, "%g", req.timeout_s);
                    res.message = std::string("the kernel did not finish within ") + buf + " s";
                    if (traced) snapshot(res, layout, req.warp_count);
                    read_shared_table(false);
                    phase_ends(res.phases.launch_ms);
                    res.wall_ms = ms_since(t0);
                    return res;
                }
                if (live && ms_since(last_progress) >= 20) {
                    last_progress = Clock::now();
                    Progress p;
                    p.elapsed_ms = elapsed;
                    const auto* events = static_cast<const trace::Event*>(trace_.host_events);
                    std::atomic_thread_fence(std::memory_order_acquire);
                    // New complete events of each stripe, up to its first slot not written yet
                    // (at most about a million per call).
                    const uint64_t per_stripe = std::max<uint64_t>((1u << 20) / layout.stripes, 1);
                    for (uint32_t s = 0; s < layout.stripes; ++s) {
                        const trace::Event* stripe = events + layout.stripe_first_slot(s);
                        const uint64_t limit = std::min(layout.stripe_capacity, scan_pos[s] + per_stripe);
                        while (scan_pos[s] < limit) {
                            trace::Event e;
                            std::memcpy(&e, stripe + scan_pos[s], sizeof e);
                            if (!trace::is_complete_event(e)) break;
                            p.events.push_back(e);
                            ++scan_pos[s];
                        }
                    }
                    seen += p.events.size();
                    p.events_seen = seen;
                    progress(p);
                }
                std::this_thread::sleep_for(std::chrono::microseconds(elapsed < 2 ? 20 : 200));
            }
            finish_reader();
            float ms = 0;
            cu::check(api_, api_.EventElapsedTime(&ms, start_, stop_), "cuEventElapsedTime");
            res.kernel_ms.push_back(ms);
        }
        phase_ends(res.phases.launch_ms);

        if (req.return_buffers) {
            res.buffers.resize(req.buffers.size());
            for (size_t i = 0; i < req.buffers.size(); ++i) {
                res.buffers[i].name = req.buffers[i].name;
                res.buffers[i].bytes.resize(req.buffers[i].bytes.size());
                if (host_side[i]) {
                    // (the kernel has completed: its writes to mapped memory are visible here)
                    std::memcpy(res.buffers[i].bytes.data(), host_side[i], res.buffers[i].bytes.size());
                } else if (!res.buffers[i].bytes.empty())
                    cu::check(
                        api_,
                        api_.MemcpyDtoH(res.buffers[i].bytes.data(), buffers[i], res.buffers[i].bytes.size()),
                        "cuMemcpyDtoH", "buffer " + req.buffers[i].name);
            }
        }
        if (traced) {
            std::vector<uint8_t> cursor_area(layout.cursor_bytes());
            cu::check(api_, api_.MemcpyDtoH(cursor_area.data(), trace_.cursors, cursor_area.size()),
                      "cuMemcpyDtoH", "trace cursors");
            const std::vector<uint64_t> cursors = trace::read_cursors(cursor_area.data(), layout);
            const trace::CursorTotals totals = trace::cursor_totals(cursors, layout);
            res.cursor = totals.attempted;
            res.dropped = totals.dropped;
            res.cursor_known = true;
            res.warps.resize(req.warp_count);
            read_shared_table(true);
            const bool per_warp = trace::one_warp_per_stripe(layout, req.warp_count, !req.block_ranks.empty());
            const bool by_block =
                req.return_events && req.events_by_block && block_events && totals.dropped == 0 && per_warp;
            // Events that would be withheld, where each warp's cursor already says what it tried to
            // record: not even copied (a first launch into a modest buffer costs its launch only).
            const bool counted_by_cursors =
                req.return_events && per_warp && totals.dropped > 0 && !req.events_if_dropped;
            const bool copy_events = req.return_events && !by_block && !counted_by_cursors;
            if (by_block) {
                send_block_events(req, cursors, block_events);
                res.events_by_block = true;
            }
            if (req.trace_buffer == TraceBuffer::Mapped) {
                if (copy_events) res.events = mapped_events(layout, &cursors);
                std::memcpy(res.warps.data(), trace_.host_warps, req.warp_count * 4);
            } else {
                if (copy_events) {
                    // Each stripe's used slots, one after the other (no gaps: once the kernel has
                    // finished, every slot below a stripe's cursor and capacity was written).
                    res.events.resize(totals.written);
                    uint64_t at = 0;
                    for (uint32_t s = 0; s < layout.stripes; ++s) {
                        const uint64_t used = std::min(cursors[s], layout.stripe_capacity);
                        if (used)
                            cu::check(api_,
                                      api_.MemcpyDtoH(res.events.data() + at,
                                                      trace_.events +
                                                          layout.stripe_first_slot(s) * sizeof(trace::Event),
                                                      used * sizeof(trace::Event)),
                                      "cuMemcpyDtoH", "trace buffer");
                        at += used;
                    }
                }
                if (req.warp_count)
                    cu::check(api_, api_.MemcpyDtoH(res.warps.data(), trace_.warps, req.warp_count * 4),
                              "cuMemcpyDtoH", "warp table");
            }
            // Which warps lost events (nothing to read where no stripe overflowed), and what each
            // tried to record, so that the runner can size the next buffer or a sample of blocks.
            res.drops_known = true;
            if (totals.dropped > 0) {
                res.warp_dropped.resize(req.warp_count);
                cu::check(api_, api_.MemcpyDtoH(res.warp_dropped.data(), trace_.drops, req.warp_count * 8),
                          "cuMemcpyDtoH", "drop table");
                if (counted_by_cursors) {
                    res.warp_attempted = trace::per_warp_attempted(cursors, req.warp_count);
                    res.events_withheld = true;
                } else if (req.return_events) {
                    res.warp_attempted = events_per_warp(res.events, req.grid, req.block);
                    for (size_t w = 0; w < res.warp_attempted.size(); ++w)
                        res.warp_attempted[w] += res.warp_dropped[w];
                    if (!req.events_if_dropped) {
                        res.events = {};
                        res.events_withheld = true;
                    }
                }
            }
        }
    } catch (const cu::Error& e) {
        res.status = ResultStatus::Error;
        res.message = e.what();
        // An error after a launch may be the kernel's own (sticky): do not trust the context.
        if (launched) must_exit_ = true;
    }
    phase_ends(launched ? res.phases.readback_ms : res.phases.setup_ms);
    res.wall_ms = ms_since(t0);
    return res;
}

} // namespace synclab::gpu
