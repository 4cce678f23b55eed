// Is the GPU backend usable here? The app asks once at start, off the UI thread, because starting
// the worker (synclab-gpu: dlopen of libcuda, cuInit, device query) can take seconds on a machine
// with a GPU, and the first frame must not wait for it. Where there is no driver or no GPU the
// answer carries the worker's reason ("no NVIDIA driver found (...)"), which the run panel shows
// beside the disabled GPU choice.
#pragma once

#include <atomic>
#include <optional>
#include <string>
#include <thread>

namespace synclab::ui {

struct GpuAvailability {
    bool available = false;
    std::string device; // available: "NVIDIA H200"
    std::string reason; // not available: why, in the worker's words
};

// Finds the worker (gpu::find_worker: `worker_path`, $SYNCLAB_GPU_WORKER, next to the executable,
// PATH) and starts it with a deadline of `timeout_s`. A started worker is the process's shared one
// (gpu::shared_worker), so the first GPU run does not start it again. Never throws.
GpuAvailability probe_gpu(const std::string& worker_path = "", double timeout_s = 10);

// probe_gpu on a thread of its own. start/take/pending and the destructor: from one thread (the UI's).
class GpuProbe {
  public:
    GpuProbe() = default;
    ~GpuProbe(); // joins: at most the probe's timeout
    GpuProbe(const GpuProbe&) = delete;
    GpuProbe& operator=(const GpuProbe&) = delete;

    void start(std::string worker_path = "", double timeout_s = 10);
    bool pending() const { return started_ && !taken_; }
    // The answer, once, as soon as it arrived; nullopt before (and after it was taken).
    std::optional<GpuAvailability> take();

  private:
    std::thread thread_;
    std::atomic<bool> done_{false};
    GpuAvailability result_; // written by the thread before done_, read after
    bool started_ = false;
    bool taken_ = false;
};

} // namespace synclab::ui
