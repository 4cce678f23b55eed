// bench_gpu: what tracing costs on the GPU. For a memory-bound kernel (the stencil: 8,448 blocks of
// 256 threads as in GPU_FACTS.md, and the lesson's own launch) and an atomic-heavy one (2.2 M
// atomicAdds on one address): the kernel time untraced and traced (CUDA events around each launch,
// medians over launches), the overhead (traced / untraced) and the capture rate (events per second
// of traced kernel time), for the device-memory and the mapped host-memory trace buffer, and for the
// device buffer with one cursor instead of stripes (trace/trace_buffer.h) and with one atomic per
// thread. Then what whole-block tracing costs (gpu::launch_traced) on the tiled matrix
// product (16 x 16 blocks of 16 x 16 threads, 42 M events): a first launch that overflows and a
// second one sized from its counts, against one launch with a buffer of the right size, and a
// sample of blocks under a 256 MB cap. Plain main (no Google Benchmark: the GPU machine has none);
// prints a table; exits 0 with a note where there is no GPU.
//
//   bench_gpu [--reps N] [--blocks B]
#include "gpu/client.h"
#include "gpu/gpu_run.h"
#include "ptx/instrument.h"
#include "runner/runner.h"
#include "scenario/scenario.h"

#include "ptx/parser.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

namespace {

using namespace synclab;

double median(std::vector<float> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

double min_of(const std::vector<float>& v) {
    return v.empty() ? 0 : *std::min_element(v.begin(), v.end());
}

struct Row {
    std::string kernel, mode;
    double median_ms = 0, min_ms = 0;
    uint64_t events = 0, dropped = 0;
    double overhead = 0;
    std::string status;
};

std::vector<Row> g_rows;

void print_row(const Row& r) {
    char rate[32] = "-", ev[32] = "-", over[32] = "-";
    if (r.events) {
        std::snprintf(ev, sizeof ev, "%llu", (unsigned long long)r.events);
        std::snprintf(rate, sizeof rate, "%.2f G/s", r.events / (r.median_ms * 1e-3) / 1e9);
    }
    if (r.overhead > 0) std::snprintf(over, sizeof over, "%.2fx", r.overhead);
    std::printf("%-26s %-28s %10.4f %10.4f %12s %12s %9s  %s\n", r.kernel.c_str(), r.mode.c_str(),
                r.median_ms, r.min_ms, ev, rate, over, r.status.c_str());
    std::fflush(stdout);
    g_rows.push_back(r);
}

launch::Buffer floats(const std::string& name, const std::vector<float>& v) {
    launch::Buffer b;
    b.name = name;
    b.bytes.resize(v.size() * 4);
    std::memcpy(b.bytes.data(), v.data(), b.bytes.size());
    return b;
}

struct Bench {
    gpu::Worker& worker;
    uint32_t reps;

    gpu::LaunchOutcome go(const ptx::Module& m, const std::string& ptx, const std::string& kernel,
                          const launch::LaunchConfig& lc, const std::vector<launch::Buffer>& buffers,
                          const std::vector<launch::KernelArg>& args, gpu::LaunchOptions o) {
        o.timeout_s = 10;
        o.grace_s = 60;
        return gpu::launch(worker, m, ptx, kernel, lc, buffers, args, o);
    }

    // untraced, then traced in each buffer mode; returns the untraced median.
    void run_case(const std::string& label, const ptx::Module& m, const std::string& ptx,
                  const std::string& kernel, const launch::LaunchConfig& lc,
                  const std::vector<launch::Buffer>& buffers, const std::vector<launch::KernelArg>& args,
                  uint64_t capacity) {
        gpu::LaunchOptions base;
        base.launches = reps;
        const gpu::LaunchOutcome u = go(m, ptx, kernel, lc, buffers, args, base);
        Row ru{label, "untraced", median(u.kernel_ms),       min_of(u.kernel_ms), 0,
               0,     1.0,        trace::to_string(u.status)};
        print_row(ru);
        struct Mode {
            const char* name;
            gpu::TraceBuffer buffer;
            bool aggregated;
            uint32_t stripes;
            uint32_t launches;
        };
        const uint32_t fewer = std::max<uint32_t>(reps / 4, 3);
        const Mode modes[] = {
            {"traced, device buffer", gpu::TraceBuffer::Device, true, trace::kDefaultStripes, reps},
            {"traced, device, 1 cursor", gpu::TraceBuffer::Device, true, 1, fewer},
            {"traced, device, per-thread", gpu::TraceBuffer::Device, false, trace::kDefaultStripes, fewer},
            {"traced, mapped host buffer", gpu::TraceBuffer::Mapped, true, trace::kDefaultStripes, fewer},
        };
        for (const Mode& mode : modes) {
            gpu::LaunchOptions o = base;
            o.traced = true;
            o.buffer = mode.buffer;
            o.warp_aggregated = mode.aggregated;
            o.stripes = mode.stripes;
            o.launches = mode.launches;
            o.event_capacity = capacity;
            o.return_events = false;
            const gpu::LaunchOutcome t = go(m, ptx, kernel, lc, buffers, args, o);
            Row rt{label,
                   mode.name,
                   median(t.kernel_ms),
                   min_of(t.kernel_ms),
                   t.events_attempted,
                   t.dropped_events,
                   ru.median_ms > 0 ? median(t.kernel_ms) / ru.median_ms : 0,
                   trace::to_string(t.status)};
            if (t.status != trace::RunStatus::Ok) rt.status += ": " + t.message;
            if (t.dropped_events) rt.status += " (" + std::to_string(t.dropped_events) + " dropped)";
            print_row(rt);
        }
    }
};

} // namespace

int main(int argc, char** argv) {
    uint32_t reps = 30, blocks = 8448;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (std::strcmp(argv[i], "--reps") == 0)
            reps = static_cast<uint32_t>(std::max(1, std::atoi(argv[i + 1])));
        else if (std::strcmp(argv[i], "--blocks") == 0)
            blocks = static_cast<uint32_t>(std::max(1, std::atoi(argv[i + 1])));
    }
    gpu::Worker worker(gpu::find_worker(SYNCLAB_GPU_WORKER));
    try {
        const gpu::Hello& h = worker.start();
        std::printf("device: %s, %u SMs, cc %u.%u, driver API %u\n", h.device.c_str(), h.sm_count, h.cc_major,
                    h.cc_minor, h.driver_version);
    } catch (const gpu::Unavailable& e) {
        std::printf("bench_gpu: skipped: %s\n", e.what());
        return 0;
    }
    Bench bench{worker, reps};
    std::printf(
        "kernel times: CUDA events around each launch; median and min over launches (traced per-thread and "
        "mapped: a quarter as many)\n\n");
    std::printf("%-26s %-28s %10s %10s %12s %12s %9s  %s\n", "kernel", "mode", "median ms", "min ms",
                "events", "events/s", "overhead", "status");

    const uint32_t threads = 256;
    const uint64_t n = uint64_t(blocks) * threads;
    const launch::LaunchConfig lc{{blocks, 1, 1}, {threads, 1, 1}, 0};

    // --- stencil: memory-bound, 9 events per thread --------------------------------------------------
    const scenario::Scenario& st = *scenario::find_scenario("stencil");
    const ptx::Module& stm = runner::scenario_module(st);
    const std::string stp(st.ptx_source());
    std::vector<float> in(n);
    uint64_t x = 88172645463325252ull;
    for (float& v : in) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        v = static_cast<float>(1 + x % 9);
    }
    const std::vector<launch::Buffer> sbuf = {floats("g_in", in),
                                              floats("g_out", std::vector<float>(n, 0.0f))};
    const std::vector<launch::KernelArg> sargs = {
        launch::KernelArg::pointer(0), launch::KernelArg::pointer(1), launch::KernelArg::scalar(n)};
    const std::string label = "stencil " + std::to_string(blocks) + "x256";
    bench.run_case(label, stm, stp, "stencil_correct", lc, sbuf, sargs, 12 * n);
    // The lesson's own launch (what the CLI and the app run): a few blocks, so launch latency, not
    // memory bandwidth, sets the kernel time.
    {
        const trace::Dim3 g = st.launch.grid, b = st.launch.block;
        const launch::LaunchConfig small{g, b, st.launch.dynamic_shared_bytes};
        const uint64_t sn = g.count() * b.count();
        std::vector<float> small_in(sn);
        for (uint64_t i = 0; i < sn; ++i)
            small_in[i] = static_cast<float>(1 + i % 9);
        const std::vector<launch::Buffer> small_buf = {floats("g_in", small_in),
                                                       floats("g_out", std::vector<float>(sn, 0.0f))};
        const std::vector<launch::KernelArg> small_args = {
            launch::KernelArg::pointer(0), launch::KernelArg::pointer(1), launch::KernelArg::scalar(sn)};
        bench.run_case("stencil " + std::to_string(g.count()) + "x" + std::to_string(b.count()) + " (lesson)",
                       stm, stp, "stencil_correct", small, small_buf, small_args, 12 * sn);
    }

    // Correctness at scale, untraced and traced (outputs against the CPU reference; events per thread).
    auto wrong_outputs = [&](const std::vector<launch::Buffer>& out) {
        std::vector<float> got(n);
        std::memcpy(got.data(), out[1].bytes.data(), n * 4);
        uint64_t wrong = 0;
        for (uint64_t i = 0; i < n; ++i) {
            const uint64_t t = i % threads;
            const float left = t > 0 ? in[i - 1] : 0.0f;
            const float right = t + 1 < threads ? in[i + 1] : 0.0f;
            wrong += got[i] != (left + in[i]) + right;
        }
        return wrong;
    };
    {
        gpu::LaunchOptions o;
        const gpu::LaunchOutcome u = bench.go(stm, stp, "stencil_correct", lc, sbuf, sargs, o);
        o.traced = true;
        o.event_capacity = 12 * n;
        const gpu::LaunchOutcome t = bench.go(stm, stp, "stencil_correct", lc, sbuf, sargs, o);
        std::vector<uint32_t> sms;
        for (const trace::ThreadInfo& info : t.trace.threads)
            sms.push_back(info.sm);
        std::sort(sms.begin(), sms.end());
        sms.erase(std::unique(sms.begin(), sms.end()), sms.end());
        std::printf("\ncheck stencil_correct: untraced %llu wrong of %llu; traced %llu wrong, %zu events "
                    "(%.2f per thread), "
                    "%llu dropped, threads on %zu SMs\n",
                    (unsigned long long)wrong_outputs(u.buffers), (unsigned long long)n,
                    (unsigned long long)wrong_outputs(t.buffers), t.trace.events.size(),
                    double(t.trace.events.size()) / n, (unsigned long long)t.dropped_events, sms.size());
        // Always both: the missing barrier at scale, untraced and traced.
        gpu::LaunchOptions m;
        m.launches = 1;
        uint64_t wrong_u = 0;
        for (uint32_t r = 0; r < 5; ++r)
            wrong_u +=
                wrong_outputs(bench.go(stm, stp, "stencil_missing_barrier", lc, sbuf, sargs, m).buffers);
        m.traced = true;
        m.event_capacity = 12 * n;
        const uint64_t wrong_t =
            wrong_outputs(bench.go(stm, stp, "stencil_missing_barrier", lc, sbuf, sargs, m).buffers);
        std::printf("check stencil_missing_barrier: untraced %llu wrong of %llu over 5 launches (%.1f%%); "
                    "traced %llu wrong of %llu "
                    "(%.1f%%)\n\n",
                    (unsigned long long)wrong_u, (unsigned long long)(5 * n), 100.0 * wrong_u / (5.0 * n),
                    (unsigned long long)wrong_t, (unsigned long long)n, 100.0 * wrong_t / n);
    }

    // --- atomics: every thread adds 1 to one counter --------------------------------------------------
    const scenario::Scenario& lu = *scenario::find_scenario("lost_update");
    const ptx::Module& lum = runner::scenario_module(lu);
    const std::string lup(lu.ptx_source());
    launch::Buffer counter{"g_counter", std::vector<uint8_t>(4, 0)};
    const std::vector<launch::Buffer> lbuf = {counter};
    const std::vector<launch::KernelArg> largs = {launch::KernelArg::pointer(0)};
    bench.run_case("atomic_add " + std::to_string(blocks) + "x256", lum, lup, "lost_update_atomic_add", lc,
                   lbuf, largs, 3 * n);
    {
        gpu::LaunchOptions o;
        const gpu::LaunchOutcome u = bench.go(lum, lup, "lost_update_atomic_add", lc, lbuf, largs, o);
        const gpu::LaunchOutcome p = bench.go(lum, lup, "lost_update_plain_increment", lc, lbuf, largs, o);
        uint32_t a = 0, b = 0;
        if (!u.buffers.empty()) std::memcpy(&a, u.buffers[0].bytes.data(), 4);
        if (!p.buffers.empty()) std::memcpy(&b, p.buffers[0].bytes.data(), 4);
        std::printf("\ncheck counters: atomic_add %u of %llu; plain_increment %u of %llu (lost updates)\n", a,
                    (unsigned long long)n, b, (unsigned long long)n);
    }

    // --- whole blocks: the tiled matrix product of tests/gpu/data ------------------------------------
    {
        std::ifstream file(std::string(SYNCLAB_SOURCE_DIR) + "/tests/gpu/data/tiled_matmul.ptx");
        const std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
        const ptx::Module mm = ptx::parse_module(text, "tiled_matmul.ptx");
        std::string kernel;
        for (const std::string& name : mm.entry_names())
            if (name.find("NoLoadBarrier") == std::string::npos) kernel = name;
        const uint32_t width = 256;
        const uint64_t elems = uint64_t(width) * width;
        std::vector<float> a(elems), b(elems);
        for (uint64_t i = 0; i < elems; ++i) {
            a[i] = float(i % 7) - 3;
            b[i] = float(i % 5) - 2;
        }
        const std::vector<launch::Buffer> mbuf = {floats("C", std::vector<float>(elems, 0.0f)),
                                                  floats("A", a), floats("B", b)};
        const std::vector<launch::KernelArg> margs = {
            launch::KernelArg::pointer(0), launch::KernelArg::pointer(1), launch::KernelArg::pointer(2),
            launch::KernelArg::scalar(width), launch::KernelArg::scalar(width)};
        const launch::LaunchConfig mlc{{width / 16, width / 16, 1}, {16, 16, 1}, 0};
        using Clock = std::chrono::steady_clock;
        auto ms_since = [](Clock::time_point t0) {
            return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
        };
        std::printf("\nwhole-block tracing, %s (%ux%u blocks of 16x16), wall time of the whole traced run:\n",
                    kernel.c_str(), width / 16, width / 16);
        gpu::LaunchOptions base;
        base.timeout_s = 10;
        base.grace_s = 60;
        const gpu::LaunchOutcome u = gpu::launch(worker, mm, text, kernel, mlc, mbuf, margs, base);
        std::printf("  untraced                         kernel %8.3f ms\n",
                    u.kernel_ms.empty() ? 0 : u.kernel_ms.back());
        gpu::LaunchOptions t = base;
        t.traced = true;
        for (int round = 0; round < 2; ++round) { // the second round reuses the worker's trace area
            t.event_capacity = 48u << 20;
            auto t0 = Clock::now();
            const gpu::LaunchOutcome one = gpu::launch(worker, mm, text, kernel, mlc, mbuf, margs, t);
            std::printf(
                "  one launch, buffer of %s     kernel %8.3f ms, run %8.1f ms, %llu events, %llu dropped\n",
                gpu::count_text(48u << 20).c_str(), one.kernel_ms.empty() ? 0 : one.kernel_ms.back(),
                ms_since(t0), (unsigned long long)one.trace.events.size(),
                (unsigned long long)one.dropped_events);
            for (const uint64_t cap : {gpu::kDefaultTraceCap, uint64_t(256) << 20}) {
                gpu::TraceSizing sizing;
                sizing.cap_bytes = cap;
                t0 = Clock::now();
                const gpu::LaunchOutcome w =
                    gpu::launch_traced(worker, mm, text, kernel, mlc, mbuf, margs, t, sizing);
                std::printf("  launch_traced, cap %-8s     kernel %8.3f ms, run %8.1f ms, %llu events, %u "
                            "launches: %s\n",
                            gpu::bytes_text(cap).c_str(), w.kernel_ms.empty() ? 0 : w.kernel_ms.back(),
                            ms_since(t0), (unsigned long long)w.trace.events.size(), w.plan.launches,
                            w.plan.summary.c_str());
            }
        }
    }

    std::printf("\nsummary (medians):\n");
    for (const Row& r : g_rows)
        if (r.mode != "untraced")
            std::printf("  %-26s %-28s overhead %7.2fx   capture %7.2f G events/s\n", r.kernel.c_str(),
                        r.mode.c_str(), r.overhead, r.events ? r.events / (r.median_ms * 1e-3) / 1e9 : 0.0);
    return 0;
}
