// The app's GPU run path, headless. These tests do what the desktop app does when its Backend is
// GPU -- ui::make_scenario_job with the run panel's Controls, ui::RunController::start, then poll()
// as each frame does until the final record arrives -- with no window, ImGui or GL (they link only
// synclab_app_core), so the GPU machine, which builds with -DSYNCLAB_GUI=OFF, checks that:
//   - the start-up probe (ui::GpuProbe) finds the device;
//   - a run shows both sides: the untraced launches' wrong outputs (stencil/missing_barrier is
//     wrong on the hardware, GPU_FACTS.md) and the traced launch's events and race finding;
//     stencil/correct is right on both sides, with no findings;
//   - live mode: while a hung kernel waits, provisional records with events arrive; the final one
//     is a timeout that says where the threads wait;
//   - Cancel during a hung live run ends it within the kernel timeout, and the GPU stays usable;
//   - without a driver the record says why ("GPU unavailable: no NVIDIA driver found (...)")
//     instead of throwing.
// AppGpu.* (ctest label `gpu`) skip, reported as skipped, where the worker finds no driver or no
// device. AppNoGpu.* forces "no driver" and runs everywhere, CI included.
#include "gpu/client.h"
#include "gpu/require_gpu.h"
#include "runner/runner.h"
#include "ui/core/gpu_probe.h"
#include "ui/core/run_controller.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace synclab::ui {
namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

double seconds_between(Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double>(b - a).count();
}

// [SECTION] The worker and the GPU check

// The app finds its worker through gpu::find_worker("") ($SYNCLAB_GPU_WORKER first); point it at the
// one built with these tests.
void use_built_worker() {
    setenv("SYNCLAB_GPU_WORKER", SYNCLAB_GPU_WORKER, 1);
}

// Skips the test unless the worker has a device (the one built with these tests).
#define REQUIRE_APP_GPU()                                                                                    \
    do {                                                                                                     \
        use_built_worker();                                                                                  \
        REQUIRE_GPU();                                                                                       \
    } while (0)

// Sets an environment variable for one scope, then puts back what was there.
class ScopedEnv {
  public:
    ScopedEnv(const char* name, const std::string& value) : name_(name) {
        if (const char* old = std::getenv(name)) old_ = old;
        setenv(name, value.c_str(), 1);
    }
    ~ScopedEnv() {
        if (old_)
            setenv(name_, old_->c_str(), 1);
        else
            unsetenv(name_);
    }
    ScopedEnv(const ScopedEnv&) = delete;
    ScopedEnv& operator=(const ScopedEnv&) = delete;

  private:
    const char* name_;
    std::optional<std::string> old_;
};

// [SECTION] Running jobs as the app does

// The run panel with Backend GPU (Launches: untraced + traced).
Controls gpu_controls(uint32_t reps = 1) {
    Controls c;
    c.backend = "gpu";
    c.reps = reps;
    c.gpu_traced = true;
    c.gpu_live = false;
    c.gpu_timeout_s = 5;
    return c;
}

// The hanging variant (its lanes wait at different bar.sync instructions; GPU_FACTS.md), live.
constexpr double kHangTimeout = 2.0;
// The app always runs the untraced launches too (run_options), so the hanging variant hangs twice,
// untraced and traced; each ends at the timeout, then the worker is replaced and the partial trace
// read (gpu_test.cpp allows the same).
constexpr double kHangBound = 2 * kHangTimeout + 20;

Controls hang_controls() {
    Controls c = gpu_controls(1);
    c.gpu_live = true;
    c.gpu_timeout_s = kHangTimeout;
    return c;
}

RunJob scenario_job(const char* scenario_id, const char* variant_id, const Controls& controls) {
    const scenario::Scenario* s = scenario::find_scenario(scenario_id);
    const scenario::Variant* v = s ? s->find_variant(variant_id) : nullptr;
    if (!v) throw std::runtime_error(std::string("no lesson ") + scenario_id + " / " + variant_id);
    return make_scenario_job(*s, *v, controls, RunSlot::Current);
}

// What the UI thread saw of a one-job batch: a live run's provisional records, then the final one.
struct Seen {
    std::vector<RunDone> provisional; // before the final one, in order
    std::optional<RunDone> final_done;
    size_t provisional_after_final = 0; // must stay 0: nothing partial replaces the final record
    Clock::time_point final_at{};
    bool busy_after = true; // RunController::busy() at the end
};

// Polls like the app's frame loop until the final record arrived and the controller is idle, or
// `limit_s` passed. `on_provisional` runs on this thread for each provisional record (a test may
// press Cancel there).
Seen poll_to_end(RunController& runs, double limit_s,
                 const std::function<void(const RunDone&)>& on_provisional = {}) {
    Seen seen;
    const Clock::time_point deadline =
        Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(limit_s));
    while (Clock::now() < deadline) {
        for (RunDone& d : runs.poll()) {
            if (!d.provisional) {
                seen.final_done = std::move(d);
                seen.final_at = Clock::now();
            } else if (seen.final_done) {
                ++seen.provisional_after_final;
            } else {
                if (on_provisional) on_provisional(d);
                seen.provisional.push_back(std::move(d));
            }
        }
        if (seen.final_done && !runs.busy()) break;
        std::this_thread::sleep_for(5ms);
    }
    seen.busy_after = runs.busy();
    return seen;
}

bool has_finding(const runner::RunSummary& s, analysis::FindingKind kind) {
    for (const analysis::Finding& f : s.findings)
        if (f.kind == kind) return true;
    return false;
}

// One line per run for the GPU session's log.
void print_run(const RunRecord& r) {
    const runner::RunSummary& s = r.summary;
    const std::string kinds = runner::finding_kind_list(s);
    std::printf("%s: %s | untraced %s %llu/%llu wrong in %u launches | traced %s %llu events (%s) | findings "
                "%s | %s\n",
                r.label.c_str(), trace::to_string(s.status), trace::to_string(s.gpu_untraced.status),
                (unsigned long long)s.gpu_untraced.wrong_outputs,
                (unsigned long long)s.gpu_untraced.checked_outputs, s.gpu_untraced.reps,
                trace::to_string(s.gpu_traced.status), (unsigned long long)s.gpu_traced.events,
                s.gpu_traced.trace_buffer.c_str(), kinds.empty() ? "-" : kinds.c_str(), s.message.c_str());
}

// [SECTION] On the GPU

TEST(AppGpu, TheProbeFindsTheDevice) {
    REQUIRE_APP_GPU();
    GpuProbe probe;
    probe.start(SYNCLAB_GPU_WORKER, 30);
    std::optional<GpuAvailability> a;
    const Clock::time_point deadline = Clock::now() + 40s;
    while (!a && Clock::now() < deadline) {
        a = probe.take();
        if (!a) std::this_thread::sleep_for(5ms);
    }
    ASSERT_TRUE(a.has_value()) << "the probe did not answer within 40 s";
    EXPECT_TRUE(a->available) << a->reason;
    EXPECT_FALSE(a->device.empty());
    EXPECT_EQ(a->reason, "");
    std::printf("probe: %s\n", a->device.c_str());
}

TEST(AppGpu, MissingBarrierShowsWrongOutputsUntracedAndTheRaceTraced) {
    REQUIRE_APP_GPU();
    RunController runs;
    runs.start({scenario_job("stencil", "missing_barrier", gpu_controls(5))});
    const Seen seen = poll_to_end(runs, 120);
    ASSERT_TRUE(seen.final_done) << "no final record within 120 s";
    ASSERT_TRUE(seen.final_done->record) << seen.final_done->error;
    const RunRecord& r = *seen.final_done->record;
    print_run(r);
    EXPECT_TRUE(seen.provisional.empty()); // live was off
    EXPECT_FALSE(seen.busy_after);
    EXPECT_FALSE(r.provisional);
    EXPECT_EQ(r.gpu_unavailable, "");
    EXPECT_EQ(r.label, "stencil / missing_barrier (GPU, seeds 1-5)");
    EXPECT_EQ(r.options.backend, "gpu");
    EXPECT_TRUE(r.options.gpu.untraced && r.options.gpu.traced);

    const runner::RunSummary& s = r.summary;
    EXPECT_EQ(s.status, trace::RunStatus::Ok) << s.message;
    EXPECT_FALSE(s.device.empty());
    // The untraced side: the hardware's own outcome, one launch per repetition. ptxas hoists the
    // neighbour loads above the store, so most outputs are wrong (GPU_FACTS.md).
    const runner::GpuSide& u = s.gpu_untraced;
    EXPECT_TRUE(u.ran);
    EXPECT_EQ(u.status, trace::RunStatus::Ok) << u.message;
    EXPECT_EQ(u.reps, 5u);
    EXPECT_GT(u.checked_outputs, 0u);
    EXPECT_GT(u.wrong_outputs, 0u) << u.check_summary;
    EXPECT_GT(u.reps_with_wrong_outputs, 0u);
    EXPECT_GT(u.kernel_ms, 0.0);
    EXPECT_EQ(s.wrong_outputs, u.wrong_outputs); // the headline is the untraced side's
    EXPECT_EQ(s.checked_outputs, u.checked_outputs);
    // The traced side: one launch of the instrumented kernel; its events and findings.
    const runner::GpuSide& t = s.gpu_traced;
    EXPECT_TRUE(t.ran);
    EXPECT_EQ(t.status, trace::RunStatus::Ok) << t.message;
    EXPECT_EQ(t.reps, 1u);
    EXPECT_EQ(t.trace_buffer, "device");
    EXPECT_FALSE(t.partial_trace);
    EXPECT_TRUE(s.traced);
    EXPECT_EQ(s.trace.meta.backend, "gpu");
    EXPECT_FALSE(s.trace.events.empty());
    EXPECT_EQ(t.events, s.trace.events.size());
    EXPECT_TRUE(has_finding(s, analysis::FindingKind::Race));
}

TEST(AppGpu, CorrectStencilIsRightWithNoFindings) {
    REQUIRE_APP_GPU();
    RunController runs;
    runs.start({scenario_job("stencil", "correct", gpu_controls(3))});
    const Seen seen = poll_to_end(runs, 120);
    ASSERT_TRUE(seen.final_done) << "no final record within 120 s";
    ASSERT_TRUE(seen.final_done->record) << seen.final_done->error;
    const RunRecord& r = *seen.final_done->record;
    print_run(r);
    const runner::RunSummary& s = r.summary;
    EXPECT_EQ(s.status, trace::RunStatus::Ok) << s.message;
    EXPECT_EQ(s.gpu_untraced.reps, 3u);
    EXPECT_GT(s.gpu_untraced.checked_outputs, 0u);
    EXPECT_EQ(s.gpu_untraced.wrong_outputs, 0u) << s.gpu_untraced.check_summary;
    EXPECT_EQ(s.gpu_traced.status, trace::RunStatus::Ok) << s.gpu_traced.message;
    EXPECT_GT(s.gpu_traced.checked_outputs, 0u);
    EXPECT_EQ(s.gpu_traced.wrong_outputs, 0u) << s.gpu_traced.check_summary;
    EXPECT_FALSE(s.trace.events.empty());
    EXPECT_TRUE(s.findings.empty()) << s.findings.size() << " findings, the first: " << s.findings[0].message;
}

TEST(AppGpu, LiveRunOfAHungKernelShowsEventsThenTheTimeout) {
    REQUIRE_APP_GPU();
    RunController runs;
    const Clock::time_point t0 = Clock::now();
    runs.start({scenario_job("divergent_barrier", "loop_per_thread", hang_controls())});
    const Seen seen = poll_to_end(runs, kHangBound + 30);
    ASSERT_TRUE(seen.final_done) << "no final record within " << kHangBound + 30 << " s";
    ASSERT_TRUE(seen.final_done->record) << seen.final_done->error;
    const RunRecord& r = *seen.final_done->record;
    const double took = seconds_between(t0, seen.final_at);
    print_run(r);
    std::printf("live: %zu provisional records, the last with %zu events; final after %.1f s\n",
                seen.provisional.size(),
                seen.provisional.empty() ? size_t(0)
                                         : seen.provisional.back().record->summary.trace.events.size(),
                took);

    // While the traced kernel hung: partial traces, each newer than the one before.
    ASSERT_FALSE(seen.provisional.empty()) << "no provisional record while the kernel hung";
    uint64_t last_serial = 0;
    for (const RunDone& p : seen.provisional) {
        ASSERT_TRUE(p.record);
        EXPECT_TRUE(p.record->provisional);
        EXPECT_FALSE(p.record->summary.trace.events.empty());
        EXPECT_EQ(p.record->summary.trace.meta.backend, "gpu");
        EXPECT_GT(p.record->serial, last_serial);
        last_serial = p.record->serial;
    }
    EXPECT_EQ(seen.provisional_after_final, 0u);
    EXPECT_GT(r.serial, last_serial);

    // The final record: a timeout on both sides, the partial trace, and where the threads wait.
    EXPECT_FALSE(r.provisional);
    const runner::RunSummary& s = r.summary;
    EXPECT_EQ(s.status, trace::RunStatus::Timeout) << s.message;
    EXPECT_TRUE(contains(s.message, "wait at line")) << s.message;
    EXPECT_EQ(s.gpu_untraced.status, trace::RunStatus::Timeout) << s.gpu_untraced.message;
    EXPECT_EQ(s.gpu_traced.status, trace::RunStatus::Timeout) << s.gpu_traced.message;
    EXPECT_EQ(s.gpu_traced.trace_buffer, "mapped");
    EXPECT_TRUE(s.gpu_traced.partial_trace);
    EXPECT_FALSE(s.trace.events.empty());
    EXPECT_TRUE(has_finding(s, analysis::FindingKind::Deadlock));
    EXPECT_LT(took, kHangBound) << "the hang took too long to end";
    EXPECT_FALSE(seen.busy_after);
}

TEST(AppGpu, CancelOfAHungLiveRunEndsItAndTheGpuStaysUsable) {
    REQUIRE_APP_GPU();
    RunController runs;
    runs.start({scenario_job("divergent_barrier", "loop_per_thread", hang_controls())});
    std::optional<Clock::time_point> cancelled_at;
    const Seen seen = poll_to_end(runs, kHangBound + 30, [&](const RunDone&) {
        if (cancelled_at) return;
        runs.cancel(); // the Cancel button, once the first partial trace shows
        cancelled_at = Clock::now();
    });
    ASSERT_TRUE(cancelled_at.has_value()) << "no provisional record came to cancel after";
    ASSERT_TRUE(seen.final_done) << "no final record after Cancel";
    ASSERT_TRUE(seen.final_done->record) << seen.final_done->error;
    const RunRecord& r = *seen.final_done->record;
    print_run(r);
    // The runner does not stop a launch in flight: the traced kernel ends at its timeout.
    const trace::RunStatus status = r.summary.status;
    EXPECT_TRUE(status == trace::RunStatus::Cancelled || status == trace::RunStatus::Timeout)
        << trace::to_string(status) << ": " << r.summary.message;
    const double after_cancel = seconds_between(*cancelled_at, seen.final_at);
    std::printf("cancel: final record %.1f s after Cancel\n", after_cancel);
    EXPECT_LT(after_cancel, kHangTimeout + 20);
    EXPECT_FALSE(seen.busy_after);
    EXPECT_EQ(seen.provisional_after_final, 0u);

    // The next run gets a fresh worker and a working GPU.
    runs.start({scenario_job("stencil", "correct", gpu_controls(2))});
    const Seen next = poll_to_end(runs, 120);
    ASSERT_TRUE(next.final_done) << "no final record within 120 s";
    ASSERT_TRUE(next.final_done->record) << next.final_done->error;
    const runner::RunSummary& s = next.final_done->record->summary;
    print_run(*next.final_done->record);
    EXPECT_EQ(s.status, trace::RunStatus::Ok) << s.message;
    EXPECT_GT(s.checked_outputs, 0u);
    EXPECT_EQ(s.wrong_outputs, 0u) << s.check_summary;
    EXPECT_FALSE(s.trace.events.empty());
    EXPECT_FALSE(next.busy_after);
}

// [SECTION] Without a GPU (runs everywhere)

TEST(AppNoGpu, WithoutADriverTheRecordSaysWhy) {
    const std::string no_driver = "/nonexistent/libcuda.so.1";
    ScopedEnv driver("SYNCLAB_CUDA_DRIVER", no_driver);
    // The shared worker is per path: this spelling of the built worker's path gets one of its own,
    // started under the missing driver, so that a worker an AppGpu test already started in this
    // process (with the real driver) does not answer.
    const std::filesystem::path built(SYNCLAB_GPU_WORKER);
    const std::string worker = (built.parent_path() / "." / built.filename()).string();
    ScopedEnv worker_env("SYNCLAB_GPU_WORKER", worker);

    // The probe says why, as the run panel shows it beside the disabled GPU choice.
    const GpuAvailability a = probe_gpu(worker, 10);
    EXPECT_FALSE(a.available);
    EXPECT_TRUE(contains(a.reason, "no NVIDIA driver found")) << a.reason;

    // A GPU run (live on) comes back as a record saying so, not as an error.
    Controls c = hang_controls();
    RunController runs;
    runs.start({scenario_job("stencil", "missing_barrier", c)});
    const Seen seen = poll_to_end(runs, 30);
    ASSERT_TRUE(seen.final_done) << "no answer within 30 s";
    EXPECT_TRUE(seen.provisional.empty());
    EXPECT_EQ(seen.final_done->error, ""); // not the error dialog: the record says it
    ASSERT_TRUE(seen.final_done->record);
    const RunRecord& r = *seen.final_done->record;
    EXPECT_TRUE(contains(r.gpu_unavailable, "no NVIDIA driver found")) << r.gpu_unavailable;
    EXPECT_TRUE(contains(r.gpu_unavailable, no_driver)) << r.gpu_unavailable;
    EXPECT_EQ(r.summary.status, trace::RunStatus::Error);
    EXPECT_TRUE(contains(r.summary.message, "GPU unavailable: no NVIDIA driver found")) << r.summary.message;
    EXPECT_FALSE(r.summary.traced);
    EXPECT_FALSE(r.summary.gpu_untraced.ran);
    EXPECT_FALSE(r.summary.gpu_traced.ran);
    EXPECT_EQ(r.summary.trace.meta.backend, "gpu");
    EXPECT_EQ(r.options.backend, "gpu");
    EXPECT_TRUE(r.options.gpu.live);
    EXPECT_FALSE(r.options.gpu.on_events); // never points into the finished job
    EXPECT_FALSE(seen.busy_after);
}

} // namespace
} // namespace synclab::ui
