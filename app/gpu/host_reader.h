// The CPU side of a hand-over through host-mapped memory: a thread that, while a kernel runs, waits
// for each pair's flag to change and then reads the pair's data, the way a host program consumes
// results a kernel publishes with data, __threadfence_system(), flag. It records what it saw, so
// that "flag seen, data still old" (a store the CPU could not see yet) can be counted.
//
// It knows nothing of CUDA: it reads two arrays of u32 that another agent writes (the GPU through
// cuMemHostAlloc'd memory in the worker; another CPU thread in the tests). Loads are
// std::atomic_ref: acquire for the flag, so that the data load cannot be hoisted above it, and
// relaxed for the data (a plain read the compiler may not cache).
//
// It never waits forever: it gives up on the pairs still unset at its deadline, or once it has been
// told the kernel ended and one more look finds them unset.
#pragma once

#include "gpu/protocol.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>
#include <vector>

namespace synclab::gpu {

class HostReader {
  public:
    using Clock = std::chrono::steady_clock;

    // `flags` and `data` hold at least `pairs` values each and stay valid until join() returned.
    // Their values now are the "before" values: a flag that differs from its value now is set, data
    // equal to its value now after a set flag is stale.
    HostReader(uint32_t* flags, uint32_t* data, uint32_t pairs, Clock::time_point deadline);
    ~HostReader(); // ends and joins a reader still running
    HostReader(const HostReader&) = delete;
    HostReader& operator=(const HostReader&) = delete;

    // Starts the thread (call it before the launch).
    void start();
    // The writer has finished (the kernel completed, failed or timed out): after one more look at
    // every pair, the reader gives up on those still unset.
    void writer_ended();
    // writer_ended() if not yet, waits for the thread, and returns what it saw.
    HostReaderLaunch join();

  private:
    void run();

    uint32_t* flags_;
    uint32_t* data_;
    uint32_t pairs_;
    Clock::time_point deadline_;
    std::vector<uint32_t> flag_before_, data_before_;
    std::vector<uint32_t> pending_; // pairs not seen yet
    std::atomic<bool> writer_ended_{false};
    std::thread thread_;
    bool joined_ = false;
    HostReaderLaunch result_;
};

} // namespace synclab::gpu
