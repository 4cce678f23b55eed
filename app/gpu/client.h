// The parent's side of the GPU worker: finds the `synclab-gpu` executable, starts it on demand, talks
// to it (gpu/protocol.h) with a deadline on every answer, and kills it when it does not answer.
#pragma once

#include "gpu/protocol.h"

#include <functional>
#include <mutex>
#include <stdexcept>
#include <string>
#include <sys/types.h>

namespace synclab::gpu {

// The GPU cannot be used here, and why: "no NVIDIA driver found (...)", "no CUDA device (...)", or
// the worker executable is missing. The CLI exits 3 with it; the app offers the simulator.
class Unavailable : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// The worker executable: `explicit_path` if given, else $SYNCLAB_GPU_WORKER, else synclab-gpu next
// to the running executable, else on PATH. Throws Unavailable naming the places it looked.
std::string find_worker(const std::string& explicit_path = "");

class Worker {
  public:
    explicit Worker(std::string path);
    ~Worker();
    Worker(const Worker&) = delete;
    Worker& operator=(const Worker&) = delete;

    // Starts the worker unless it runs already and returns its Hello; throws Unavailable when it
    // cannot run kernels here (the reason in the message) or cannot be started.
    const Hello& start(double timeout_s = 60);
    bool running() const { return pid_ > 0; }
    const std::string& path() const { return path_; }

    // Sends `request` and waits for the Result at most `deadline_s` seconds (the kernel's timeout
    // plus a grace for JIT and copies). A worker that does not answer in time is killed and the
    // answer is status Timeout; one that dies or garbles the stream gives status Error. After a
    // Timeout or Fault answer the worker has exited; the next run starts a fresh one. `block_events`
    // takes the batches of a request with events_by_block, in block order, as they arrive; what it
    // throws kills the worker and leaves run(). `spare_events` gives the vector each batch is read
    // into (one an earlier batch left behind: trace::BlockSink::spare_events).
    RunResult run(const RunRequest& request, double deadline_s,
                  const std::function<void(const Progress&)>& progress = {},
                  const std::function<void(BlockEvents&&)>& block_events = {},
                  const std::function<std::vector<trace::Event>()>& spare_events = {});

    // Asks the worker to quit and reaps it (killing it if it does not go within a second).
    void stop();

  private:
    void spawn();
    void kill_now();          // SIGKILL, reaped in the background
    void reap(double wait_s); // wait for an exiting worker, kill it after wait_s

    std::string path_;
    pid_t pid_ = -1;
    int fd_ = -1;
    Hello hello_;
};

// One worker per process and executable path, shared by every run (runs take turns: lock the mutex).
struct SharedWorker {
    std::mutex mutex;
    Worker worker;
    explicit SharedWorker(std::string path) : worker(std::move(path)) {}
};
SharedWorker& shared_worker(const std::string& path);

} // namespace synclab::gpu
