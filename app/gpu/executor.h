// The worker's side: one CUDA context on device 0, kernels JIT-loaded from PTX text, launched with
// CUDA events around them and watched until they finish or their time is up.
#pragma once

#include "gpu/driver_api.h"
#include "gpu/protocol.h"

#include <functional>
#include <string>
#include <vector>

namespace synclab::gpu {

class Executor {
  public:
    Executor() = default;
    Executor(const Executor&) = delete;
    Executor& operator=(const Executor&) = delete;

    // Loads the driver and sets up device 0. Never throws: the answer says Ready or why not.
    Hello init();

    // Runs one request. `progress` is called (live mode) with the events new since the last call;
    // `block_events` with each batch of a request with events_by_block (see RunRequest).
    RunResult run(const RunRequest& request, const std::function<void(const Progress&)>& progress,
                  const std::function<void(const BlockEventsView&)>& block_events = {});

    // After a Timeout or Fault the context cannot be trusted: the worker must exit.
    bool must_exit() const { return must_exit_; }

  private:
    struct DeviceAlloc {
        cu::DevicePtr ptr = 0;
        size_t bytes = 0;
    };
    struct TraceArea {
        TraceBuffer mode = TraceBuffer::Device;
        size_t event_bytes = 0, warp_bytes = 0;
        size_t cursor_bytes = 0, drop_bytes = 0, block_bytes = 0;
        cu::DevicePtr events = 0, warps = 0, cursors = 0; // device addresses (mapped: of the host memory)
        cu::DevicePtr drops = 0, blocks = 0;              // device memory in both modes
        void* host_events = nullptr;                      // mapped mode: the host side
        void* host_warps = nullptr;
        void* staging = nullptr; // pinned host memory to copy a hung kernel's trace into
        size_t staging_bytes = 0;
        // Two pinned buffers of batch_bytes each for send_block_events: one fills by DMA while the
        // other goes out through the socket (pageable std::vector memory where pinning failed).
        void* batch_host[2] = {nullptr, nullptr};
        size_t batch_bytes = 0;
        std::vector<trace::Event> batch_pageable[2];
        // Device memory it holds (mapped mode: events and warp table are host memory).
        size_t device_bytes() const {
            return cursor_bytes + drop_bytes + block_bytes +
                   (mode == TraceBuffer::Device ? event_bytes + warp_bytes : 0);
        }
    };

    void load_module(const std::string& ptx, std::string& jit_log);
    void prepare_trace(TraceBuffer mode, const trace::TraceBufferLayout& layout, uint64_t warps,
                       const std::vector<uint32_t>& block_ranks);
    void release_trace();
    // Complete events (both halves written) of the mapped buffer, each stripe up to its cursor (all
    // of it: `cursors` null).
    std::vector<trace::Event> mapped_events(const trace::TraceBufferLayout& layout,
                                            const std::vector<uint64_t>* cursors) const;
    // A completed launch's events, batch by batch of whole blocks (RunRequest::events_by_block).
    void send_block_events(const RunRequest& req, const std::vector<uint64_t>& cursors,
                           const std::function<void(const BlockEventsView&)>& block_events);
    // A hung kernel: read what it wrote so far (mapped: directly; device: a copy on a second stream).
    void snapshot(RunResult& result, const trace::TraceBufferLayout& layout, uint64_t warp_count);

    cu::Api api_;
    bool ready_ = false;
    bool must_exit_ = false;
    bool can_map_host_memory_ = false;
    uint32_t sm_count_ = 0;           // for a cooperative launch's residency check
    bool cooperative_launch_ = false; // CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH
    std::string device_name_;         // for the words of a refused cooperative launch
    cu::Device device_ = 0;
    cu::Context context_ = nullptr;
    cu::Stream stream_ = nullptr;      // kernels
    cu::Stream copy_stream_ = nullptr; // reads while a kernel hangs
    cu::Event start_ = nullptr, stop_ = nullptr;
    std::string module_ptx_;
    cu::Module module_ = nullptr;
    std::string module_log_;
    TraceArea trace_;
};

} // namespace synclab::gpu
