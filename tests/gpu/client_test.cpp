// The GPU runner's parts that need no GPU (these run in CI): the worker protocol, the "no NVIDIA
// driver" path from worker to CLI, the runner's own watchdog (a worker that stalls on purpose), and
// the thread table and hang diagnosis built from a partial trace.
#include "gpu/client.h"
#include "gpu/gpu_run.h"
#include "gpu/protocol.h"
#include "runner/runner.h"
#include "scenario/scenario.h"

#include "common/run_command.h"
#include <gtest/gtest.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

namespace synclab {
namespace {

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// Sets an environment variable for the scope of a test (workers inherit it).
class ScopedEnv {
  public:
    ScopedEnv(const char* name, const char* value) : name_(name) {
        if (const char* old = std::getenv(name)) old_ = old;
        setenv(name, value, 1);
    }
    ~ScopedEnv() {
        if (old_.empty())
            unsetenv(name_);
        else
            setenv(name_, old_.c_str(), 1);
    }

  private:
    const char* name_;
    std::string old_;
};

constexpr const char* kNoDriver = "/nonexistent/libcuda.so.1";

constexpr size_t kHelloBytes = 54, kRequestBytes = 129, kResultBytes = 174;

TEST(GpuProtocol, MessagesRoundTrip) {
    gpu::RunRequest q;
    q.ptx = ".version 8.0";
    q.kernel = "k";
    q.grid = {3, 2, 1};
    q.block = {64, 1, 1};
    q.dynamic_shared_bytes = 128;
    q.buffers = {{"a", {1, 2, 3}}, {"b", {}}};
    q.args = {{gpu::ArgSpec::Kind::Buffer, 1, 8, 0}, {gpu::ArgSpec::Kind::Scalar, 0, 4, 0xdeadbeef}};
    q.mode = gpu::RunMode::Traced;
    q.trace_buffer = gpu::TraceBuffer::Mapped;
    q.trace_layout = {16, 99};
    q.warp_count = 6;
    q.timeout_s = 2.5;
    q.launches = 3;
    q.live = true;
    q.block_ranks = {0, trace::kBlockNotRecorded, 1};
    q.events_if_dropped = false;
    q.globals = {"_ZN2ns7counterE", "g_flag"};
    gpu::RunRequest q2;
    gpu::decode(gpu::encode(q), q2);
    EXPECT_EQ(q2.ptx, q.ptx);
    EXPECT_EQ(q2.grid, q.grid);
    EXPECT_EQ(q2.buffers[0].bytes, q.buffers[0].bytes);
    EXPECT_EQ(q2.args[1].bits, 0xdeadbeefu);
    EXPECT_EQ(q2.args[1].size, 4u);
    EXPECT_EQ(q2.trace_buffer, gpu::TraceBuffer::Mapped);
    EXPECT_EQ(q2.timeout_s, 2.5);
    EXPECT_TRUE(q2.live);
    EXPECT_EQ(q2.trace_layout.stripes, 16u);
    EXPECT_EQ(q2.trace_layout.stripe_capacity, 99u);
    EXPECT_EQ(q2.block_ranks, q.block_ranks);
    EXPECT_FALSE(q2.events_if_dropped);
    EXPECT_EQ(q2.globals, q.globals);
    EXPECT_TRUE(gpu::RunRequest{}.events_if_dropped);

    gpu::RunResult r;
    r.status = gpu::ResultStatus::Timeout;
    r.message = "late";
    r.kernel_ms = {1.5f, 2.5f};
    r.cursor = 7;
    r.cursor_known = true;
    r.events.resize(2);
    r.events[1].kind = trace::EventKind::Exit;
    r.events[1].site = 12;
    r.warps = {1, 0, 5};
    r.warp_dropped = {0, 12, 0};
    r.drops_known = true;
    r.warp_attempted = {40, 52, 40};
    r.events_withheld = true;
    r.device_free_bytes = uint64_t(139) << 30;
    r.trace_area_bytes = 4096;
    // (a timed-out answer still says where the memory was: the addresses are known before the launch)
    r.buffer_addresses = {0x7f1200000000ull, 0x7f1200000200ull};
    r.global_addresses = {0x7f1300000000ull, 0};
    r.shared_addresses = {0x400, 0x500};
    r.phases = {120.5, 30.25, 2.0, 900.0};
    gpu::RunResult r2;
    gpu::decode(gpu::encode(r), r2);
    EXPECT_EQ(r2.status, gpu::ResultStatus::Timeout);
    EXPECT_EQ(r2.kernel_ms, r.kernel_ms);
    ASSERT_EQ(r2.events.size(), 2u);
    EXPECT_EQ(r2.events[1].site, 12);
    EXPECT_EQ(r2.warps, r.warps);
    EXPECT_EQ(r2.warp_dropped, r.warp_dropped);
    EXPECT_TRUE(r2.drops_known);
    EXPECT_EQ(r2.warp_attempted, r.warp_attempted);
    EXPECT_TRUE(r2.events_withheld);
    EXPECT_EQ(r2.device_free_bytes, r.device_free_bytes);
    EXPECT_EQ(r2.trace_area_bytes, 4096u);
    EXPECT_EQ(r2.buffer_addresses, r.buffer_addresses);
    EXPECT_EQ(r2.shared_addresses, r.shared_addresses);
    EXPECT_EQ(r2.global_addresses, r.global_addresses);
    EXPECT_EQ(r2.phases.module_ms, 120.5);
    EXPECT_EQ(r2.phases.setup_ms, 30.25);
    EXPECT_EQ(r2.phases.launch_ms, 2.0);
    EXPECT_EQ(r2.phases.readback_ms, 900.0);
    gpu::Hello hello;
    hello.device = "NVIDIA H200";
    hello.memory_bytes = uint64_t(141) << 30;
    hello.free_memory_bytes = uint64_t(139) << 30;
    gpu::Hello hello2;
    gpu::decode(gpu::encode(hello), hello2);
    EXPECT_EQ(hello2.free_memory_bytes, hello.free_memory_bytes);
    EXPECT_EQ(hello2.memory_bytes, hello.memory_bytes);
    // The layout of version 9 (8 + RunResult::phases): a field added or removed changes
    // these sizes; then bump kProtocolVersion (a worker of another build must be refused, not
    // misread) and update them.
    EXPECT_EQ(gpu::kProtocolVersion, 9u);
    EXPECT_EQ(gpu::encode(gpu::Hello{}).size(), kHelloBytes);
    EXPECT_EQ(gpu::encode(gpu::RunRequest{}).size(), kRequestBytes);
    EXPECT_EQ(gpu::encode(gpu::RunResult{}).size(), kResultBytes);

    // A batch of whole blocks' events (RunRequest::events_by_block).
    gpu::BlockEvents chunk;
    chunk.first_block = 6;
    chunk.blocks = 2;
    chunk.events = r.events;
    gpu::BlockEvents chunk2;
    gpu::decode(gpu::encode(chunk), chunk2);
    EXPECT_EQ(chunk2.first_block, 6u);
    EXPECT_EQ(chunk2.blocks, 2u);
    ASSERT_EQ(chunk2.events.size(), 2u);
    EXPECT_EQ(chunk2.events[1].site, 12);
    std::string torn_chunk = gpu::encode(chunk);
    torn_chunk.resize(torn_chunk.size() - 1);
    EXPECT_THROW(gpu::decode(torn_chunk, chunk2), gpu::ProtocolError);

    // A torn message is an error, never a crash or a silent default.
    std::string torn = gpu::encode(r);
    torn.resize(torn.size() - 3);
    EXPECT_THROW(gpu::decode(torn, r2), gpu::ProtocolError);
    // A request whose list of globals is cut inside a name, or claims more names than it has bytes.
    std::string request = gpu::encode(q);
    request.resize(request.size() - 2);
    EXPECT_THROW(gpu::decode(request, q2), gpu::ProtocolError);
    gpu::RunRequest many;
    std::string huge = gpu::encode(many);
    const uint64_t lie = uint64_t(1) << 40;
    std::memcpy(huge.data() + huge.size() - 8, &lie, 8); // the globals' count is the last field
    EXPECT_THROW(gpu::decode(huge, q2), gpu::ProtocolError);
    gpu::Hello h;
    h.version = gpu::kProtocolVersion + 1;
    gpu::Hello h2;
    try {
        gpu::decode(gpu::encode(h), h2);
        FAIL() << "version mismatch accepted";
    } catch (const gpu::ProtocolError& e) {
        EXPECT_TRUE(contains(e.what(), "protocol version")) << e.what();
    }
}

// What both ends of a socket pair hold after `write` ran on one of them.
std::string through_socket(const std::function<void(int)>& write) {
    int fds[2];
    EXPECT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0);
    write(fds[1]);
    close(fds[1]);
    std::string bytes;
    char buf[4096];
    for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) > 0;)
        bytes.append(buf, static_cast<size_t>(n));
    close(fds[0]);
    return bytes;
}

// The worker writes a batch of block events straight from its events (no payload built first),
// and the runner reads one straight into a batch: the same bytes as the message encode() makes,
// and a batch whose count disagrees with the message's size is refused, not read past.
TEST(GpuProtocol, BlockEventsGoStraightThroughTheSocket) {
    gpu::BlockEvents batch;
    batch.first_block = 3;
    batch.blocks = 2;
    batch.events.resize(5);
    for (size_t i = 0; i < batch.events.size(); ++i) {
        batch.events[i].thread = static_cast<uint32_t>(100 + i);
        batch.events[i].address = 0x400 + 4 * i;
    }
    const std::string direct = through_socket([&](int fd) { gpu::write_block_events(fd, batch); });
    const std::string encoded = through_socket(
        [&](int fd) { gpu::write_message(fd, gpu::MessageType::BlockEvents, gpu::encode(batch)); });
    EXPECT_EQ(direct, encoded);

    auto read_back = [](const std::string& bytes, gpu::BlockEvents& out) {
        int fds[2];
        EXPECT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0);
        EXPECT_EQ(write(fds[1], bytes.data(), bytes.size()), static_cast<ssize_t>(bytes.size()));
        close(fds[1]);
        gpu::MessageType type{};
        std::string payload = "left over from the last message";
        const gpu::ReadStatus s =
            gpu::read_message(fds[0], type, payload, std::chrono::steady_clock::time_point::max(), &out);
        close(fds[0]);
        EXPECT_EQ(type, gpu::MessageType::BlockEvents);
        EXPECT_TRUE(payload.empty());
        return s;
    };
    gpu::BlockEvents got;
    ASSERT_EQ(read_back(direct, got), gpu::ReadStatus::Ok);
    EXPECT_EQ(got.first_block, 3u);
    EXPECT_EQ(got.blocks, 2u);
    ASSERT_EQ(got.events.size(), 5u);
    EXPECT_EQ(got.events[4].thread, 104u);
    EXPECT_EQ(got.events[4].address, 0x410u);

    std::string lying = direct;
    const uint64_t claimed = 6; // one more event than the message holds
    std::memcpy(lying.data() + 24, &claimed, 8);
    EXPECT_THROW(read_back(lying, got), gpu::ProtocolError);
    std::string torn = direct.substr(0, direct.size() - 7);
    EXPECT_THROW(read_back(torn, got), gpu::ProtocolError);
}

TEST(GpuWorker, SaysNoDriverWhereThereIsNone) {
    ScopedEnv env("SYNCLAB_CUDA_DRIVER", kNoDriver);
    gpu::Worker worker(SYNCLAB_GPU_WORKER);
    try {
        worker.start();
        FAIL() << "a worker without a driver claimed a device";
    } catch (const gpu::Unavailable& e) {
        EXPECT_TRUE(contains(e.what(), "no NVIDIA driver found")) << e.what();
        EXPECT_TRUE(contains(e.what(), kNoDriver)) << e.what();
    }
    EXPECT_FALSE(worker.running());
}

TEST(GpuWorker, MissingOrBrokenWorkerIsExplained) {
    EXPECT_THROW(gpu::find_worker("/nonexistent/synclab-gpu"), gpu::Unavailable);
    gpu::Worker not_a_worker("/bin/false");
    try {
        not_a_worker.start(5);
        FAIL() << "/bin/false greeted";
    } catch (const gpu::Unavailable& e) {
        EXPECT_TRUE(contains(e.what(), "exited at start")) << e.what();
    }
}

TEST(GpuWorker, RunnerReportsNoDriverAsUnavailable) {
    ScopedEnv env("SYNCLAB_CUDA_DRIVER", kNoDriver);
    const scenario::Scenario& s = *scenario::find_scenario("stencil");
    runner::RunOptions o;
    o.backend = "gpu";
    o.gpu.worker = SYNCLAB_GPU_WORKER;
    EXPECT_THROW(runner::run_scenario(s, *s.find_variant("correct"), o), gpu::Unavailable);
}

using Output = synclab::testing::CommandOutput;

Output run_cli(const std::string& args) {
    return synclab::testing::run_command(std::string(SYNCLAB_CLI) + " " + args);
}

TEST(GpuCli, NoDriverIsAnInputErrorThatOffersTheSimulator) {
    ScopedEnv env("SYNCLAB_CUDA_DRIVER", kNoDriver);
    ScopedEnv worker("SYNCLAB_GPU_WORKER", SYNCLAB_GPU_WORKER);
    for (const char* args :
         {"run stencil --variant correct --backend gpu",
          "run stencil --variant correct --backend gpu --untraced --json", "table --backend gpu"}) {
        const Output o = run_cli(args);
        EXPECT_EQ(o.code, 3) << args << "\n" << o.out;
        EXPECT_TRUE(contains(o.out, "no NVIDIA driver found (")) << o.out;
        EXPECT_TRUE(contains(o.out, "(the simulator)")) << o.out;
    }
    const Output usage = run_cli("run stencil --variant correct --backend gpu --untraced --live");
    EXPECT_EQ(usage.code, 2) << usage.out;
    const Output timeout = run_cli("run stencil --variant correct --backend gpu --timeout 0");
    EXPECT_EQ(timeout.code, 2) << timeout.out;
    EXPECT_TRUE(contains(timeout.out, "--timeout must be between")) << timeout.out;
}

TEST(GpuCli, TraceBufferOption) {
    ScopedEnv env("SYNCLAB_CUDA_DRIVER", kNoDriver);
    ScopedEnv worker("SYNCLAB_GPU_WORKER", SYNCLAB_GPU_WORKER);
    // Accepted with the GPU backend (then the missing driver is the answer).
    Output o = run_cli("run stencil --variant correct --backend gpu --trace-buffer 64");
    EXPECT_EQ(o.code, 3) << o.out;
    EXPECT_TRUE(contains(o.out, "no NVIDIA driver found (")) << o.out;
    o = run_cli(
        "check " + std::string(SYNCLAB_SOURCE_DIR) +
        "/tests/cli/data/user_kernels.ptx --kernel reverse_sync --grid 2 --block 128 --arg buf:i32:256:iota "
        "--arg buf:i32:256 --backend gpu --trace-buffer 1");
    EXPECT_EQ(o.code, 3) << o.out;
    // Usage errors that say what is wrong.
    o = run_cli("run stencil --variant correct --trace-buffer 64");
    EXPECT_EQ(o.code, 2) << o.out;
    EXPECT_TRUE(contains(o.out, "--trace-buffer needs --backend gpu")) << o.out;
    o = run_cli("run stencil --variant correct --backend gpu --untraced --trace-buffer 64");
    EXPECT_EQ(o.code, 2) << o.out;
    EXPECT_TRUE(contains(o.out, "--trace-buffer sizes the traced launch")) << o.out;
    for (const char* bad : {"0", "-5", "lots", "99999999999"}) {
        o = run_cli(std::string("run stencil --variant correct --backend gpu --trace-buffer ") + bad);
        EXPECT_EQ(o.code, 2) << bad << "\n" << o.out;
        EXPECT_TRUE(contains(o.out, "--trace-buffer")) << o.out;
    }
    EXPECT_TRUE(contains(run_cli("help").out, "--trace-buffer MB"));
}

TEST(GpuWatchdog, AWorkerThatDoesNotAnswerIsKilledAndReplaced) {
    ScopedEnv env("SYNCLAB_GPU_WORKER_TEST", "stall");
    gpu::Worker worker(SYNCLAB_GPU_WORKER);
    ASSERT_EQ(worker.start().device, "SyncLab test worker (stalls)");
    gpu::RunRequest q;
    q.kernel = "k";
    const auto t0 = std::chrono::steady_clock::now();
    const gpu::RunResult r = worker.run(q, 0.5);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_EQ(r.status, gpu::ResultStatus::Timeout);
    EXPECT_TRUE(contains(r.message, "did not answer within 0.5 s and was killed")) << r.message;
    EXPECT_LT(s, 3.0);
    EXPECT_FALSE(worker.running());
    // The next run starts a fresh worker.
    EXPECT_EQ(worker.start().device, "SyncLab test worker (stalls)");
    EXPECT_TRUE(worker.running());
    worker.stop();
    EXPECT_FALSE(worker.running());
}

TEST(GpuWatchdog, RunnerReportsATimeoutOnBothSides) {
    ScopedEnv env("SYNCLAB_GPU_WORKER_TEST", "stall");
    const scenario::Scenario& s = *scenario::find_scenario("stencil");
    runner::RunOptions o;
    o.backend = "gpu";
    o.reps = 3;
    o.gpu.worker = SYNCLAB_GPU_WORKER;
    o.gpu.timeout_s = 0.2;
    o.gpu.grace_s = 0.3;
    const runner::RunSummary r = runner::run_scenario(s, *s.find_variant("correct"), o);
    EXPECT_EQ(r.status, trace::RunStatus::Timeout);
    EXPECT_EQ(r.gpu_untraced.status, trace::RunStatus::Timeout);
    EXPECT_EQ(r.gpu_untraced.reps, 1u); // no further reps after a hang
    EXPECT_EQ(r.gpu_traced.status, trace::RunStatus::Timeout);
    EXPECT_TRUE(r.gpu_traced.ran);
    EXPECT_TRUE(contains(r.message, "did not answer")) << r.message;
}

TEST(GpuTrace, ThreadTableAndHangDiagnosisFromAPartialTrace) {
    // One block of 64 threads: warp 0 waits at the barrier (site 3), warp 1's threads exited at site 7,
    // except thread 40, which was still running (last event a load at site 5).
    trace::Trace t;
    t.meta.status = trace::RunStatus::Timeout;
    t.meta.grid = {2, 1, 1};
    t.meta.block = {64, 1, 1};
    for (uint32_t i = 0; i < 8; ++i)
        t.sites.push_back({10 + i, 20 + i, "i" + std::to_string(i)});
    auto event = [](uint32_t thread, trace::EventKind kind, uint16_t site) {
        trace::Event e;
        e.time = 1000 + thread;
        e.thread = thread;
        e.kind = kind;
        e.site = site;
        return e;
    };
    for (uint32_t th = 0; th < 64; ++th) {
        t.events.push_back(event(th, trace::EventKind::Store, 1));
        if (th < 32)
            t.events.push_back(event(th, trace::EventKind::BarrierArrive, 3));
        else if (th == 40)
            t.events.push_back(event(th, trace::EventKind::Load, 5));
        else
            t.events.push_back(event(th, trace::EventKind::Exit, 7));
    }
    // Block 1: warp 2 started (SM 4) but recorded nothing; warp 3 never started.
    const std::vector<uint32_t> warps = {3, 3, 5, 0};
    t.threads = gpu::thread_table(t.meta.grid, t.meta.block, t.events, warps, false);
    ASSERT_EQ(t.threads.size(), 128u);
    EXPECT_EQ(t.threads[0].end, trace::ThreadEnd::AtBarrier);
    EXPECT_EQ(t.threads[0].end_site, 3u);
    EXPECT_EQ(t.threads[0].sm, 2);
    EXPECT_EQ(t.threads[33].end, trace::ThreadEnd::Exited);
    EXPECT_EQ(t.threads[40].end, trace::ThreadEnd::Running);
    EXPECT_EQ(t.threads[64].end, trace::ThreadEnd::Running);
    EXPECT_EQ(t.threads[64].sm, 4);
    EXPECT_EQ(t.threads[127].end, trace::ThreadEnd::NotStarted);
    EXPECT_EQ(t.threads[127].block, 1u);
    EXPECT_EQ(t.threads[127].thread_in_block, 63u);
    EXPECT_EQ(t.threads[127].lane, 31);
    const std::string d = runner::diagnose_hang(t);
    EXPECT_TRUE(contains(d, "threads 0-31 wait at line 23")) << d;
    EXPECT_TRUE(contains(d, "exited")) << d;
    EXPECT_TRUE(contains(d, "never started")) << d;
    // A finished kernel: every thread exited.
    for (const trace::ThreadInfo& info : gpu::thread_table(t.meta.grid, t.meta.block, t.events, warps, true))
        EXPECT_EQ(info.end, trace::ThreadEnd::Exited);
}

} // namespace
} // namespace synclab
