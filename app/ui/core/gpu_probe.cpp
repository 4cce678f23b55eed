#include "ui/core/gpu_probe.h"

#include "gpu/client.h"

namespace synclab::ui {

GpuAvailability probe_gpu(const std::string& worker_path, double timeout_s) {
    GpuAvailability out;
    try {
        gpu::SharedWorker& shared = gpu::shared_worker(gpu::find_worker(worker_path));
        std::lock_guard lock(shared.mutex);
        out.device = shared.worker.start(timeout_s).device;
        out.available = true;
    } catch (const gpu::Unavailable& e) {
        out.reason = e.what();
    } catch (const std::exception& e) {
        // Anything else (a protocol bug, no memory) also means: offer the simulator, say why.
        out.reason = std::string("the GPU check failed: ") + e.what();
    }
    return out;
}

GpuProbe::~GpuProbe() {
    if (thread_.joinable()) thread_.join();
}

void GpuProbe::start(std::string worker_path, double timeout_s) {
    if (started_) return;
    started_ = true;
    thread_ = std::thread([this, path = std::move(worker_path), timeout_s] {
        result_ = probe_gpu(path, timeout_s);
        done_ = true;
    });
}

std::optional<GpuAvailability> GpuProbe::take() {
    if (!started_ || taken_ || !done_) return std::nullopt;
    thread_.join(); // past its last statement: returns at once
    taken_ = true;
    return std::move(result_);
}

} // namespace synclab::ui
