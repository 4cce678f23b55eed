// The analyses' side of analysing as the run goes (trace/block_stream.h): the shared-memory race
// analysis of each batch of finished blocks runs on a worker thread while the simulator goes on,
// and the batch's plain shared-memory accesses leave the trace. After the run, analyze() with
// Options::streamed takes the shared races from here: the batches' pairs, merged in batch order,
// and the pairs of the blocks the trace still holds whole.
//
// The findings equal those of a whole trace, whatever the number of worker threads and however the
// blocks were batched: shared memory is per block, a batch holds every event of its blocks, and the
// pairs merge by count and by the earliest example (detail::RacePairs::merge). Tested against the
// whole-trace analysis of every lesson variant and corpus kernel (tests/analysis/streamed_test.cpp).
#pragma once

#include "analysis/detail.h"
#include "trace/block_stream.h"

#include <cstdint>
#include <deque>
#include <future>
#include <mutex>
#include <vector>

namespace synclab::analysis {

class StreamedAnalysis final : public trace::BlockSink {
  public:
    // `workers`: batches analysed at once beside the simulating thread (0: one per spare core, at
    // least one and at most kDefaultWorkers). A batch waits for a worker before the simulator goes
    // on, so that memory stays bounded by the window and `workers` batches.
    // `spares`: vectors of analysed batches kept for the next ones (spare_events). One is enough
    // where the batches are few and large (the simulator's: its hand-over fills one while a worker
    // returns another); the GPU receiver's many small ones come faster than the workers give them
    // back, so it keeps one per worker (they are memory that was in flight anyway).
    explicit StreamedAnalysis(unsigned workers = 0, size_t spares = 1);
    // The simulator makes the batches on one thread, and analysing one takes less than simulating
    // the next (`perf` of the tiled matmul's check: the race pairs 18% of the samples, the
    // simulating thread most of the rest), so two workers keep up; each more would only hold one
    // more batch in memory (a simulator batch is up to its window, 128 MB by default: 15 workers
    // on a 16-core machine took that check to 1.6 GB).
    static constexpr unsigned kDefaultWorkers = 2;
    // A GPU worker's batches are small (gpu::kBlockEventsTarget, 16 MB) and come as fast as the
    // socket carries them: there every spare core analyses one (on a 16-core H100 machine two
    // workers left the runner waiting 1.8 s of the matmul check's 4.4, fifteen 0.5-0.7 s).
    static unsigned spare_cores();
    ~StreamedAnalysis() override;
    StreamedAnalysis(const StreamedAnalysis&) = delete;
    StreamedAnalysis& operator=(const StreamedAnalysis&) = delete;

    void take(const trace::Trace& recording, trace::FinishedBlocks batch) override;
    // Plain (not atomic) shared-memory accesses: only the shared race analysis reads them.
    bool drops(const trace::Event& e) const override { return dropped(e); }
    void keep(const std::vector<trace::Event>& events, std::vector<trace::Event>& kept) const override;
    static bool dropped(const trace::Event& e) {
        return e.is_memory_access() && !e.is_atomic() && e.space() == trace::Space::Shared;
    }
    // A batch's vector once its analysis is done (at most `spares` are kept).
    std::vector<trace::Event> spare_events() override;

    // Waits for every batch (call once the run has ended).
    void finish();
    // Shared races of the whole run: the batches' and those of the blocks `trace` still holds (the
    // ones never handed over). After finish().
    std::vector<Finding> shared_races(const trace::Trace& trace, const Options& options) const;

    uint32_t blocks_taken() const { return blocks_taken_; }

  private:
    void merge_oldest();
    void give_back(std::vector<trace::Event>&& events);

    size_t max_spares_;
    std::mutex spare_mutex_;
    std::vector<std::vector<trace::Event>> spares_;

    unsigned workers_;
    std::deque<std::future<detail::RacePairs>> running_; // in batch order
    detail::RacePairs merged_;                           // the batches done, merged in batch order
    std::vector<uint8_t> taken_;                          // per block: handed over
    uint32_t blocks_taken_ = 0;
};

} // namespace synclab::analysis
