// Live GPU runs: the runner calls GpuOptions::on_events (on the run's thread) with the events that
// appeared in the mapped trace buffer since its last call. LiveTrace gathers them into a partial
// trace and, at most once per interval, makes a provisional RunRecord of it (a new serial, so the
// timeline rebuilds its index), which the RunController hands to the UI thread; the final record
// replaces the last one. Separate from the runner so that it can be tested without a GPU: a test
// calls add() exactly as the runner would.
//
// Cost: each provisional record copies the events so far (the UI holds them while the runner keeps
// adding), so the interval grows with the trace (about 50 ms more per million events) and at most
// `max_events` are kept; the final record has them all.
#pragma once

#include "ui/core/app_state.h"

#include <chrono>
#include <cstdint>
#include <memory>
#include <vector>

namespace synclab::ui {

class LiveTrace {
  public:
    using Clock = std::chrono::steady_clock;

    // `skeleton`: the record as the run will look (ids, label, options) whose trace has its meta
    // (grid, block, kernel, source) and sites but no events or threads (live_skeleton makes one).
    explicit LiveTrace(RunRecord skeleton, Clock::duration interval = std::chrono::milliseconds(100),
                       size_t max_events = size_t(1) << 21);

    // From the runner's thread (one thread: no locking). Returns a provisional record when one is
    // due (new events and the interval since the last one passed), else null.
    std::shared_ptr<const RunRecord> add(const std::vector<trace::Event>& events, uint64_t seen,
                                         double elapsed_ms, Clock::time_point now = Clock::now());
    // A provisional record of what arrived so far, due or not.
    std::shared_ptr<const RunRecord> snapshot() const;

    uint64_t events_kept() const { return events_.size(); }
    uint64_t events_seen() const { return seen_; }
    uint64_t published() const { return published_; } // by add()

  private:
    Clock::duration due_interval() const;

    RunRecord skeleton_;
    uint64_t thread_count_ = 0;
    std::vector<trace::Event> events_;
    uint64_t seen_ = 0;
    double elapsed_ms_ = 0;
    Clock::duration interval_;
    size_t max_events_;
    Clock::time_point last_publish_{};
    uint64_t published_ = 0;
    size_t events_at_last_publish_ = 0;
};

// The skeleton of a live GPU run of a scenario variant (see LiveTrace).
RunRecord live_skeleton(const scenario::Scenario& scenario, const scenario::Variant& variant,
                        const Controls& controls);

} // namespace synclab::ui
