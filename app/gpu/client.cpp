#include "gpu/client.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <sys/socket.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace synclab::gpu {

namespace {

using Clock = std::chrono::steady_clock;

Clock::time_point deadline_after(double seconds) {
    return Clock::now() + std::chrono::microseconds(static_cast<int64_t>(seconds * 1e6));
}

bool executable(const std::filesystem::path& p) {
    std::error_code ec;
    return std::filesystem::is_regular_file(p, ec) && access(p.c_str(), X_OK) == 0;
}

} // namespace

std::string find_worker(const std::string& explicit_path) {
    if (!explicit_path.empty()) {
        if (!executable(explicit_path))
            throw Unavailable("the GPU worker " + explicit_path + " does not exist or is not executable");
        return explicit_path;
    }
    if (const char* env = std::getenv("SYNCLAB_GPU_WORKER"); env && *env) {
        if (!executable(env))
            throw Unavailable(std::string("SYNCLAB_GPU_WORKER=") + env + " is not an executable file");
        return env;
    }
    std::error_code ec;
    const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        const std::filesystem::path beside = self.parent_path() / "synclab-gpu";
        if (executable(beside)) return beside.string();
    }
    if (const char* path = std::getenv("PATH")) {
        std::string dirs = path;
        size_t start = 0;
        while (start <= dirs.size()) {
            const size_t end = dirs.find(':', start);
            const std::string dir =
                dirs.substr(start, end == std::string::npos ? std::string::npos : end - start);
            if (!dir.empty() && executable(std::filesystem::path(dir) / "synclab-gpu"))
                return (std::filesystem::path(dir) / "synclab-gpu").string();
            if (end == std::string::npos) break;
            start = end + 1;
        }
    }
    throw Unavailable("the GPU worker synclab-gpu was not found (looked next to " +
                      (ec ? std::string("this program") : self.string()) +
                      ", in $SYNCLAB_GPU_WORKER and on PATH); build it with the rest of SyncLab");
}

Worker::Worker(std::string path) : path_(std::move(path)) {}

Worker::~Worker() {
    stop();
}

void Worker::spawn() {
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
        throw Unavailable(std::string("cannot create the GPU worker's pipe: ") + std::strerror(errno));
    const std::string arg0 = path_;
    const pid_t pid = fork();
    if (pid < 0) {
        close(sv[0]);
        close(sv[1]);
        throw Unavailable(std::string("cannot start the GPU worker: fork failed: ") + std::strerror(errno));
    }
    if (pid == 0) {
        // Child: only async-signal-safe calls until exec.
        dup2(sv[1], 0);
        dup2(sv[1], 1);
        char* argv[] = {const_cast<char*>(arg0.c_str()), const_cast<char*>("serve"), nullptr};
        execv(arg0.c_str(), argv);
        _exit(127);
    }
    close(sv[1]);
    pid_ = pid;
    fd_ = sv[0];
}

const Hello& Worker::start(double timeout_s) {
    if (running()) return hello_;
    spawn();
    MessageType type{};
    std::string payload;
    ReadStatus s;
    try {
        s = read_message(fd_, type, payload, deadline_after(timeout_s));
    } catch (const ProtocolError& e) {
        kill_now();
        throw Unavailable(std::string("the GPU worker ") + path_ +
                          " broke its protocol at start: " + e.what());
    }
    if (s != ReadStatus::Ok) {
        kill_now();
        throw Unavailable("the GPU worker " + path_ +
                          (s == ReadStatus::Eof
                               ? " exited at start (could it run here?)"
                               : " did not start within " + std::to_string(int(timeout_s)) + " s"));
    }
    if (type != MessageType::Hello) {
        kill_now();
        throw Unavailable("the GPU worker " + path_ + " did not greet (another program?)");
    }
    try {
        decode(payload, hello_);
    } catch (const ProtocolError& e) {
        kill_now();
        throw Unavailable(e.what());
    }
    if (hello_.state != WorkerState::Ready) {
        const std::string why = hello_.message;
        reap(1.0);
        throw Unavailable(why);
    }
    return hello_;
}

RunResult Worker::run(const RunRequest& request, double deadline_s,
                      const std::function<void(const Progress&)>& progress,
                      const std::function<void(BlockEvents&&)>& block_events,
                      const std::function<std::vector<trace::Event>()>& spare_events) {
    RunResult result;
    start();
    const auto deadline = deadline_after(deadline_s);
    try {
        write_message(fd_, MessageType::Run, encode(request));
        std::string payload; // (kept from message to message: no fresh memory for each)
        for (;;) {
            MessageType type{};
            BlockEvents b; // a batch is read straight into it (it leaves with the batch)
            if (spare_events && block_events) b.events = spare_events();
            const ReadStatus s = read_message(fd_, type, payload, deadline, &b);
            if (s == ReadStatus::Timeout) {
                kill_now();
                result.status = ResultStatus::Timeout;
                char buf[64];
                std::snprintf(buf, sizeof buf, "%g", deadline_s);
                result.message =
                    std::string("the GPU worker did not answer within ") + buf + " s and was killed";
                return result;
            }
            if (s == ReadStatus::Eof) {
                reap(1.0);
                result.status = ResultStatus::Error;
                result.message = "the GPU worker exited without an answer (crashed?)";
                return result;
            }
            if (type == MessageType::Progress) {
                Progress p;
                decode(payload, p);
                if (progress) progress(p);
                continue;
            }
            if (type == MessageType::BlockEvents) {
                if (!block_events) throw ProtocolError("block events that were not asked for");
                try {
                    block_events(std::move(b));
                } catch (...) {
                    kill_now(); // the worker is still sending: it cannot be left half-read
                    throw;
                }
                continue;
            }
            if (type != MessageType::Result)
                throw ProtocolError("unexpected message type " + std::to_string(static_cast<uint32_t>(type)));
            decode(payload, result);
            break;
        }
    } catch (const ProtocolError& e) {
        kill_now();
        result = RunResult{};
        result.status = ResultStatus::Error;
        result.message = std::string("talking to the GPU worker failed: ") + e.what();
        return result;
    }
    // After a hang or a fault the worker exits by itself; give it a moment, then make sure.
    if (result.status == ResultStatus::Timeout || result.status == ResultStatus::Fault) reap(2.0);
    return result;
}

void Worker::reap(double wait_s) {
    if (fd_ >= 0) {
        close(fd_);
        fd_ = -1;
    }
    if (pid_ <= 0) return;
    const auto deadline = deadline_after(wait_s);
    while (Clock::now() < deadline) {
        int status = 0;
        const pid_t r = waitpid(pid_, &status, WNOHANG);
        if (r == pid_ || (r < 0 && errno == ECHILD)) {
            pid_ = -1;
            return;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    kill_now();
}

void Worker::kill_now() {
    if (fd_ >= 0) {
        close(fd_);
        fd_ = -1;
    }
    if (pid_ <= 0) return;
    const pid_t pid = pid_;
    pid_ = -1;
    kill(pid, SIGKILL);
    // A process tearing down a hung CUDA context can take a while to go; nobody should wait for it.
    std::thread([pid] {
        int status = 0;
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
    }).detach();
}

void Worker::stop() {
    if (pid_ <= 0) return;
    if (fd_ >= 0) {
        try {
            write_message(fd_, MessageType::Quit, "");
        } catch (const ProtocolError&) {
        }
    }
    reap(1.0);
}

SharedWorker& shared_worker(const std::string& path) {
    static std::mutex mutex;
    // Never destroyed: workers outlive static destruction order questions and die with the process
    // (end of input makes them quit).
    static auto* workers = new std::map<std::string, std::unique_ptr<SharedWorker>>();
    std::lock_guard lock(mutex);
    auto& slot = (*workers)[path];
    if (!slot) slot = std::make_unique<SharedWorker>(path);
    return *slot;
}

} // namespace synclab::gpu
