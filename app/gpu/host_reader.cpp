#include "gpu/host_reader.h"

#include <algorithm>

namespace synclab::gpu {

HostReader::HostReader(uint32_t* flags, uint32_t* data, uint32_t pairs, Clock::time_point deadline)
    : flags_(flags), data_(data), pairs_(pairs), deadline_(deadline), flag_before_(flags, flags + pairs),
      data_before_(data, data + pairs) {
    result_.pairs = pairs;
    // Allocated here, not in the thread: nothing the thread does can throw.
    result_.records.resize(size_t(pairs) * 2);
    for (uint32_t p = 0; p < pairs; ++p) {
        result_.records[2 * p] = flag_before_[p];
        result_.records[2 * p + 1] = data_before_[p];
    }
    pending_.resize(pairs);
    for (uint32_t p = 0; p < pairs; ++p)
        pending_[p] = p;
}

HostReader::~HostReader() {
    if (thread_.joinable()) {
        writer_ended_.store(true, std::memory_order_release);
        thread_.join();
    }
}

void HostReader::start() {
    thread_ = std::thread([this] { run(); });
}

void HostReader::writer_ended() {
    writer_ended_.store(true, std::memory_order_release);
}

HostReaderLaunch HostReader::join() {
    writer_ended();
    if (thread_.joinable()) thread_.join();
    return result_;
}

void HostReader::run() {
    const auto t0 = Clock::now();
    HostReaderLaunch& r = result_;
    // Sweeps over the pairs not seen yet, so that each flag is looked at soon after it is raised
    // whatever order the writers run in (a reader stuck on pair 0 would see pair 5 only late, after
    // its data had long arrived, and hide the window where a stale read can happen).
    std::vector<uint32_t>& pending = pending_;
    bool timed_out = false;
    for (;;) {
        // Read before the sweep: a sweep begun after the writer ended observes nothing "live".
        const bool ended = writer_ended_.load(std::memory_order_acquire);
        size_t kept = 0;
        for (const uint32_t p : pending) {
            const uint32_t flag = std::atomic_ref<uint32_t>(flags_[p]).load(std::memory_order_acquire);
            if (flag == flag_before_[p]) {
                pending[kept++] = p;
                continue;
            }
            const uint32_t data = std::atomic_ref<uint32_t>(data_[p]).load(std::memory_order_relaxed);
            r.records[2 * p] = flag;
            r.records[2 * p + 1] = data;
            ++r.seen;
            if (data == data_before_[p]) ++r.stale;
            if (ended) ++r.after_kernel;
        }
        pending.resize(kept);
        if (pending.empty() || ended) break;
        if (Clock::now() >= deadline_) {
            timed_out = true;
            break;
        }
    }
    r.gave_up = static_cast<uint32_t>(pending.size());
    if (r.gave_up > 0) {
        std::string which = "pair " + std::to_string(pending[0]);
        if (r.gave_up > 1) which += " and " + std::to_string(r.gave_up - 1) + " more";
        r.message = "the CPU reader gave up on " + std::to_string(r.gave_up) + " of " +
                    std::to_string(pairs_) + " pairs (" + which + "): their flag never changed " +
                    (timed_out ? "before its deadline" : "before the kernel ended");
    }
    r.reader_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

} // namespace synclab::gpu
