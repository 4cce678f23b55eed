#include "analysis/streamed.h"

#include "trace/trace_buffer.h"

#include <algorithm>
#include <memory>
#include <thread>
#include <utility>

namespace synclab::analysis {

StreamedAnalysis::StreamedAnalysis(unsigned workers, size_t spares)
    : max_spares_(spares),
      workers_(workers ? workers
                       : std::clamp(std::thread::hardware_concurrency(), 2u, kDefaultWorkers + 1) - 1) {}

unsigned StreamedAnalysis::spare_cores() {
    return std::max(2u, std::thread::hardware_concurrency()) - 1;
}

StreamedAnalysis::~StreamedAnalysis() {
    // A run that threw: the workers still read their own copies; wait for them before going.
    for (std::future<detail::RacePairs>& f : running_)
        if (f.valid()) f.wait();
}

void StreamedAnalysis::keep(const std::vector<trace::Event>& events, std::vector<trace::Event>& kept) const {
    for (const trace::Event& e : events)
        if (!dropped(e)) kept.push_back(e);
}

void StreamedAnalysis::take(const trace::Trace& recording, trace::FinishedBlocks batch) {
    if (taken_.empty()) taken_.assign(recording.meta.grid.count(), 0);
    for (uint32_t b : batch.blocks) {
        if (b >= taken_.size()) taken_.resize(size_t(b) + 1, 0);
        taken_[b] = 1;
    }
    blocks_taken_ += static_cast<uint32_t>(batch.blocks.size());
    // The worker gets a trace of its own: the recording's tables as they are now (the simulating
    // thread goes on changing them) and the batch's events. Every block of the batch finished, so
    // its history is whole.
    auto part = std::make_shared<trace::Trace>();
    part->meta.grid = recording.meta.grid;
    part->meta.block = recording.meta.block;
    part->threads = recording.threads;
    part->sites = recording.sites;
    part->memory = recording.memory;
    part->events = std::move(batch.events);
    while (running_.size() >= workers_)
        merge_oldest();
    const bool merge = !batch.in_trace_order;
    running_.push_back(std::async(std::launch::async, [this, part, merge] {
        if (merge) trace::merge_by_time(part->events);
        detail::RacePairs pairs = detail::shared_race_pairs(*part);
        give_back(std::move(part->events));
        return pairs;
    }));
}

void StreamedAnalysis::give_back(std::vector<trace::Event>&& events) {
    events.clear();
    const std::lock_guard<std::mutex> lock(spare_mutex_);
    if (spares_.size() < max_spares_) spares_.push_back(std::move(events));
}

std::vector<trace::Event> StreamedAnalysis::spare_events() {
    const std::lock_guard<std::mutex> lock(spare_mutex_);
    if (spares_.empty()) return {};
    std::vector<trace::Event> v = std::move(spares_.back());
    spares_.pop_back();
    return v;
}

void StreamedAnalysis::merge_oldest() {
    merged_.merge(running_.front().get());
    running_.pop_front();
}

void StreamedAnalysis::finish() {
    while (!running_.empty())
        merge_oldest();
}

std::vector<Finding> StreamedAnalysis::shared_races(const trace::Trace& trace, const Options& options) const {
    detail::RacePairs all = merged_;
    all.merge(detail::shared_race_pairs(trace, &taken_));
    return all.findings(trace, trace::Space::Shared, options);
}

} // namespace synclab::analysis
