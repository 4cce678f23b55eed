// synclab-sim-worker: a stand-in for the GPU worker, for tests on machines without a GPU. It speaks
// the worker protocol (gpu/protocol.h) and runs each request's PTX, instrumented kernels included,
// in SyncLab's simulator, with the trace buffer, cursors, warp, block and drop tables as plain
// buffers: so everything above the CUDA executor (gpu::launch, gpu::launch_traced, the runner's GPU
// side, the trace plan) runs end to end in CI. What the executor itself does on a device is the GPU
// tests' business.
//
// A request the simulator ends in a deadlock answers as a hung kernel does (Timeout, partial trace);
// one it stops at an out-of-bounds access as a GPU that faulted does (Fault, CUDA_ERROR_ILLEGAL_ADDRESS:
// with a mapped trace buffer the events written before it, with a device one nothing), and the
// worker exits after either, as the real one does.
// Environment: SYNCLAB_SIM_WORKER_FREE_MB sets the free device memory it reports (default 131072),
// SYNCLAB_SIM_WORKER_TOTAL_MB the total (default 139264), SYNCLAB_SIM_WORKER_BATCH_EVENTS the events
// of a batch of block events (default gpu::kBlockEventsTarget; tests make it small to get many),
// SYNCLAB_SIM_WORKER_MAX_STEPS the simulator's step budget (default sim::Options::max_steps).
#include "gpu/protocol.h"
#include "ptx/parser.h"
#include "sim/simulator.h"
#include "trace/trace_buffer.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iostream>
#include <unistd.h>

namespace {

using namespace synclab;

uint64_t env_mb(const char* name, uint64_t fallback) {
    const char* v = std::getenv(name);
    return (v && *v ? std::strtoull(v, nullptr, 10) : fallback) << 20;
}

std::vector<uint64_t> events_per_warp(const std::vector<trace::Event>& events, const trace::Dim3& grid,
                                      const trace::Dim3& block) {
    const uint64_t per_block = block.count(), wpb = (per_block + 31) / 32;
    std::vector<uint64_t> n(grid.count() * wpb, 0);
    for (const trace::Event& e : events) {
        const uint64_t w = e.thread / per_block * wpb + e.thread % per_block / 32;
        if (w < n.size()) ++n[w];
    }
    return n;
}

// RunRequest::events_by_block, as the executor answers it: the stripes of each batch's warps.
void send_block_events(const gpu::RunRequest& req, const std::vector<uint64_t>& cursors,
                       const trace::Event* slots, const std::function<void(const gpu::BlockEvents&)>& send) {
    const char* target = std::getenv("SYNCLAB_SIM_WORKER_BATCH_EVENTS");
    const uint32_t warps_per_block = static_cast<uint32_t>((req.block.count() + 31) / 32);
    for (const trace::BlockBatch& b :
         trace::block_batches(cursors, req.grid.count(), warps_per_block,
                              target && *target ? std::strtoull(target, nullptr, 10) : gpu::kBlockEventsTarget)) {
        gpu::BlockEvents batch;
        batch.first_block = b.first_block;
        batch.blocks = b.blocks;
        const uint64_t first_warp = uint64_t(b.first_block) * warps_per_block;
        for (uint64_t w = first_warp; w < first_warp + uint64_t(b.blocks) * warps_per_block; ++w) {
            const trace::Event* stripe = slots + req.trace_layout.stripe_first_slot(static_cast<uint32_t>(w));
            batch.events.insert(batch.events.end(), stripe, stripe + cursors[w]);
        }
        send(batch);
    }
}

gpu::RunResult run(const gpu::RunRequest& req, const std::function<void(const gpu::BlockEvents&)>& send) {
    gpu::RunResult res;
    const auto t0 = std::chrono::steady_clock::now();
    res.device_free_bytes = env_mb("SYNCLAB_SIM_WORKER_FREE_MB", 131072);
    ptx::Module module;
    try {
        module = ptx::parse_module(req.ptx, "request.ptx");
    } catch (const std::exception& e) {
        res.status = gpu::ResultStatus::Error;
        res.message = e.what();
        return res;
    }
    res.phases.module_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    std::vector<launch::Buffer> buffers;
    for (const gpu::NamedBuffer& b : req.buffers)
        buffers.push_back({b.name, b.bytes});
    const size_t own = buffers.size();
    const bool traced = req.mode == gpu::RunMode::Traced;
    const trace::TraceBufferLayout& layout = req.trace_layout;
    size_t events_at = 0, cursor_at = 0, warps_at = 0, drops_at = 0, blocks_at = 0, shared_at = 0;
    if (traced) {
        events_at = buffers.size();
        buffers.push_back({"events", std::vector<uint8_t>(layout.event_bytes())});
        cursor_at = buffers.size();
        buffers.push_back({"cursors", std::vector<uint8_t>(layout.cursor_bytes())});
        warps_at = buffers.size();
        buffers.push_back({"warps", std::vector<uint8_t>(req.warp_count * 4)});
        drops_at = buffers.size();
        buffers.push_back({"drops", std::vector<uint8_t>(req.warp_count * 8)});
        blocks_at = buffers.size();
        buffers.push_back({"blocks", std::vector<uint8_t>(req.block_ranks.size() * 4)});
        std::memcpy(buffers.back().bytes.data(), req.block_ranks.data(), buffers.back().bytes.size());
    }
    std::vector<launch::KernelArg> args;
    for (const gpu::ArgSpec& a : req.args) {
        using K = gpu::ArgSpec::Kind;
        switch (a.kind) {
        case K::Buffer:
            args.push_back(launch::KernelArg::pointer(a.buffer));
            break;
        case K::Scalar:
            args.push_back(launch::KernelArg::scalar(a.bits));
            break;
        case K::TraceEvents:
            args.push_back(launch::KernelArg::pointer(static_cast<uint32_t>(events_at)));
            break;
        case K::TraceCursor:
            args.push_back(launch::KernelArg::pointer(static_cast<uint32_t>(cursor_at)));
            break;
        case K::TraceWarps:
            args.push_back(launch::KernelArg::pointer(static_cast<uint32_t>(warps_at)));
            break;
        case K::TraceBlocks:
            args.push_back(req.block_ranks.empty()
                               ? launch::KernelArg::scalar(0)
                               : launch::KernelArg::pointer(static_cast<uint32_t>(blocks_at)));
            break;
        case K::TraceDrops:
            args.push_back(launch::KernelArg::pointer(static_cast<uint32_t>(drops_at)));
            break;
        case K::TraceShared:
            if (!traced || a.bits == 0) {
                args.push_back(launch::KernelArg::scalar(0));
            } else {
                shared_at = buffers.size();
                buffers.push_back({"shared symbols", std::vector<uint8_t>(a.bits * 4)});
                args.push_back(launch::KernelArg::pointer(static_cast<uint32_t>(shared_at)));
            }
            break;
        }
    }
    sim::Options options;
    options.record_trace = false;
    // (an instrumented kernel runs several times the instructions of its own: the runner's side of a
    // big check, e.g. the matmul at scale, needs more than the simulator's default budget)
    if (const char* steps = std::getenv("SYNCLAB_SIM_WORKER_MAX_STEPS"); steps && *steps)
        options.max_steps = std::strtoull(steps, nullptr, 10);
    const sim::Result r = sim::simulate(module, req.kernel, {req.grid, req.block, req.dynamic_shared_bytes, req.cooperative},
                                        buffers, args, options, nullptr);
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    res.phases.launch_ms = ms - res.phases.module_ms; // (the simulator's set-up is inside its run)
    // Where the memory is, as the real worker reports it (its buffers, then the globals it was
    // asked for by name; 0 for a name the module lacks).
    res.buffer_addresses.assign(r.buffer_addresses.begin(),
                                r.buffer_addresses.begin() + std::min(own, r.buffer_addresses.size()));
    for (const std::string& name : req.globals) {
        uint64_t address = 0;
        for (size_t i = 0; i < module.globals.size() && i < r.global_addresses.size(); ++i)
            if (module.globals[i].name == name) address = r.global_addresses[i];
        res.global_addresses.push_back(address);
    }
    if (r.status == trace::RunStatus::Deadlock) {
        res.status = gpu::ResultStatus::Timeout;
        res.message = "the kernel did not finish within " + std::to_string(req.timeout_s) + " s";
        res.partial = true;
    } else if (r.status == trace::RunStatus::Error && r.message.find("out-of-bounds") != std::string::npos) {
        res.status = gpu::ResultStatus::Fault;
        res.message =
            "the kernel failed on the GPU: CUDA_ERROR_ILLEGAL_ADDRESS (an illegal memory access was "
            "encountered) [simulated: " +
            r.message + "]";
        if (traced && req.trace_buffer == gpu::TraceBuffer::Mapped) {
            const auto* slots = reinterpret_cast<const trace::Event*>(buffers[events_at].bytes.data());
            res.partial = true;
            res.events = trace::complete_events(slots, req.trace_layout, nullptr);
            res.warps.resize(req.warp_count);
            std::memcpy(res.warps.data(), buffers[warps_at].bytes.data(), req.warp_count * 4);
            res.drops_known = !trace::any_stripe_full(slots, req.trace_layout);
        }
        return res;
    } else if (r.status != trace::RunStatus::Ok) {
        res.status = gpu::ResultStatus::Error;
        res.message = r.message;
        return res;
    } else {
        res.kernel_ms = {static_cast<float>(ms)};
    }
    if (req.return_buffers && res.status == gpu::ResultStatus::Ok)
        for (size_t i = 0; i < own; ++i)
            res.buffers.push_back({req.buffers[i].name, buffers[i].bytes});
    if (!traced) return res;
    if (shared_at) {
        res.shared_addresses.resize(buffers[shared_at].bytes.size() / 4);
        std::memcpy(res.shared_addresses.data(), buffers[shared_at].bytes.data(), buffers[shared_at].bytes.size());
    }
    const std::vector<uint64_t> cursors = trace::read_cursors(buffers[cursor_at].bytes.data(), layout);
    const trace::CursorTotals totals = trace::cursor_totals(cursors, layout);
    res.cursor = totals.attempted;
    res.dropped = totals.dropped;
    res.cursor_known = true;
    const auto* slots = reinterpret_cast<const trace::Event*>(buffers[events_at].bytes.data());
    const bool per_warp = trace::one_warp_per_stripe(layout, req.warp_count, !req.block_ranks.empty());
    const bool counted_by_cursors = req.return_events && per_warp && totals.dropped > 0 && !req.events_if_dropped;
    if (req.return_events && req.events_by_block && totals.dropped == 0 && per_warp) {
        send_block_events(req, cursors, slots, send);
        res.events_by_block = true;
    } else if (counted_by_cursors) {
        // (as the executor: what each warp tried to record is its cursor; nothing is copied)
    } else if (req.return_events) {
        res.events = trace::complete_events(slots, layout, &cursors);
    }
    res.warps.resize(req.warp_count);
    std::memcpy(res.warps.data(), buffers[warps_at].bytes.data(), req.warp_count * 4);
    res.drops_known = true;
    if (totals.dropped > 0) {
        res.warp_dropped.resize(req.warp_count);
        std::memcpy(res.warp_dropped.data(), buffers[drops_at].bytes.data(), req.warp_count * 8);
        if (counted_by_cursors) {
            res.warp_attempted = trace::per_warp_attempted(cursors, req.warp_count);
            res.events_withheld = true;
        } else if (req.return_events && res.status == gpu::ResultStatus::Ok) {
            res.warp_attempted = events_per_warp(res.events, req.grid, req.block);
            for (size_t w = 0; w < res.warp_attempted.size(); ++w)
                res.warp_attempted[w] += res.warp_dropped[w];
            if (!req.events_if_dropped) {
                res.events = {};
                res.events_withheld = true;
            }
        }
    }
    return res;
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 2 || std::strcmp(argv[1], "serve") != 0) {
        std::cerr << "usage: synclab-sim-worker serve (a test stand-in for synclab-gpu)\n";
        return 2;
    }
    const int out = dup(1);
    if (out < 0 || dup2(2, 1) < 0) return 1;
    gpu::Hello hello;
    hello.device = "SyncLab simulator worker (test)";
    hello.sm_count = 8;
    hello.memory_bytes = env_mb("SYNCLAB_SIM_WORKER_TOTAL_MB", 139264);
    hello.free_memory_bytes = env_mb("SYNCLAB_SIM_WORKER_FREE_MB", 131072);
    hello.can_map_host_memory = true; // (its "mapped" trace buffer is as readable after a fault)
    try {
        gpu::write_message(out, gpu::MessageType::Hello, gpu::encode(hello));
        for (;;) {
            gpu::MessageType type;
            std::string payload;
            if (gpu::read_message(0, type, payload) == gpu::ReadStatus::Eof || type == gpu::MessageType::Quit)
                return 0;
            gpu::RunRequest request;
            gpu::decode(payload, request);
            const auto t0 = std::chrono::steady_clock::now();
            gpu::RunResult result = run(request, [&](const gpu::BlockEvents& b) {
                gpu::write_block_events(out, b);
            });
            // (as the real worker's: the request inside the worker, sending its batches included)
            result.wall_ms =
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
            result.phases.readback_ms =
                std::max(0.0, result.wall_ms - result.phases.module_ms - result.phases.launch_ms);
            gpu::write_message(out, gpu::MessageType::Result, gpu::encode(result));
            if (result.status == gpu::ResultStatus::Timeout || result.status == gpu::ResultStatus::Fault)
                return 0; // as the real worker does
        }
    } catch (const gpu::ProtocolError& e) {
        std::cerr << "synclab-sim-worker: " << e.what() << "\n";
        return 1;
    }
}
