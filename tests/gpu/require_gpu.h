// REQUIRE_GPU() for the tests labelled gpu: whether the worker built with them has a device, so that
// a test skips cleanly where there is none (CI included). The including target defines
// SYNCLAB_GPU_WORKER.
#pragma once

#include "gpu/client.h"

#include <mutex>
#include <string>

namespace synclab::gpu::testing {

// "" when the worker has a device, else the worker's reason. Started once per test binary.
inline std::string gpu_unavailable() {
    static const std::string why = [] {
        try {
            SharedWorker& shared = shared_worker(SYNCLAB_GPU_WORKER);
            std::lock_guard lock(shared.mutex);
            shared.worker.start();
            return std::string();
        } catch (const Unavailable& e) {
            return std::string(e.what());
        }
    }();
    return why;
}

} // namespace synclab::gpu::testing

// Skips the test unless the worker has a device; the reason is what the worker said.
#define REQUIRE_GPU()                                                                                        \
    do {                                                                                                     \
        const std::string why = synclab::gpu::testing::gpu_unavailable();                                    \
        if (!why.empty()) GTEST_SKIP() << "no GPU here: " << why;                                            \
    } while (0)
