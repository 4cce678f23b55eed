// synclab-gpu: the GPU worker. Started by the runner (CLI or app), it runs kernels on the CUDA
// driver API and answers over its stdin/stdout (gpu/protocol.h). It depends on nothing but the C++
// library and, at run time, libcuda.so.1 (loaded with dlopen), so it builds on any machine.
//
//   synclab-gpu serve      the protocol on stdin/stdout (what the runner starts)
//   synclab-gpu info       prints the device, or why there is none (exit 0 / 3)
//
// Environment: SYNCLAB_CUDA_DRIVER=PATH loads another driver library (tests use a missing path to
// check the no-driver message). SYNCLAB_GPU_WORKER_TEST=stall makes a worker that claims a device
// and never answers a Run: the tests of the runner's own watchdog use it where there is no GPU.
#include "gpu/executor.h"
#include "gpu/protocol.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <thread>
#include <unistd.h>

namespace {

using namespace synclab::gpu;

int serve() {
    // The protocol owns the original stdout; anything else printed to stdout (by us or a library)
    // goes to stderr instead of corrupting the stream.
    const int in = 0;
    const int out = dup(1);
    if (out < 0 || dup2(2, 1) < 0) {
        std::perror("synclab-gpu: cannot set up its output");
        return 1;
    }
    const char* test = std::getenv("SYNCLAB_GPU_WORKER_TEST");
    const bool stall = test && std::strcmp(test, "stall") == 0;

    Executor executor;
    Hello hello;
    if (stall) {
        hello.device = "SyncLab test worker (stalls)";
        hello.sm_count = 1;
    } else {
        hello = executor.init();
    }
    try {
        write_message(out, MessageType::Hello, encode(hello));
        if (hello.state != WorkerState::Ready) return 0;
        for (;;) {
            MessageType type;
            std::string payload;
            if (read_message(in, type, payload) == ReadStatus::Eof) return 0;
            if (type == MessageType::Quit) return 0;
            if (type != MessageType::Run)
                throw ProtocolError("unexpected message type " + std::to_string(static_cast<uint32_t>(type)));
            RunRequest request;
            decode(payload, request);
            if (stall) {
                for (;;)
                    std::this_thread::sleep_for(std::chrono::hours(1));
            }
            const RunResult result = executor.run(
                request, [&](const Progress& p) { write_message(out, MessageType::Progress, encode(p)); },
                [&](const BlockEventsView& b) { write_block_events(out, b); });
            write_message(out, MessageType::Result, encode(result));
            if (executor.must_exit()) {
                // A hung or failed kernel leaves the context unusable; tearing it down may take the
                // driver a while, which is no reason to keep the parent waiting: leave now.
                std::fflush(nullptr);
                _exit(0);
            }
        }
    } catch (const ProtocolError& e) {
        std::cerr << "synclab-gpu: " << e.what() << "\n";
        return 1;
    }
}

int info() {
    Executor executor;
    const Hello h = executor.init();
    if (h.state != WorkerState::Ready) {
        std::cout << h.message << "\n";
        return 3;
    }
    std::cout << h.device << ": " << h.sm_count << " SMs, compute capability " << h.cc_major << "."
              << h.cc_minor << ", " << (h.memory_bytes >> 20) << " MiB, driver API "
              << h.driver_version / 1000 << "." << (h.driver_version % 1000) / 10
              << (h.can_map_host_memory ? ", can map host memory" : "") << "\n";
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    const std::string command = argc > 1 ? argv[1] : "";
    if (command == "serve") return serve();
    if (command == "info") return info();
    std::cerr << "usage: synclab-gpu serve | info\n"
                 "  serve  talk the SyncLab worker protocol on stdin/stdout (started by synclab)\n"
                 "  info   print the CUDA device, or why there is none\n";
    return command.empty() || command == "--help" || command == "help" ? 0 : 2;
}
