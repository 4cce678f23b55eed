// The runner's side of RunRequest::events_by_block: a traced launch's events arrive a batch of whole
// blocks at a time (BlockEvents), each batch goes to a trace::BlockSink (the shared-memory race
// analysis of analysis/streamed.h, on worker threads) and the trace keeps only the events the sink
// does not drop. So a big grid is checked without the whole trace ever being held: not by the
// worker, not on the socket, not here. What the thread table and the block history need of the
// dropped events (each thread's last event, each block's count) is taken as they pass.
#pragma once

#include "gpu/protocol.h"
#include "trace/block_stream.h"

#include <cstdint>
#include <vector>

namespace synclab::gpu {

// Each thread's last event (program order): where it stopped (gpu::thread_table).
struct ThreadEnds {
    std::vector<uint8_t> kind; // trace::EventKind, 0: none
    std::vector<uint16_t> site;

    explicit ThreadEnds(size_t threads) : kind(threads, 0), site(threads, 0) {}
    void see(const trace::Event& e) {
        if (e.thread >= kind.size()) return;
        kind[e.thread] = static_cast<uint8_t>(e.kind);
        site[e.thread] = e.site;
    }
};

class BlockEventsReceiver {
  public:
    // `recording`: the launch's grid, block, thread layout and sites, as the sink's batches need
    // them (its events are not read). `expected_events`: about how many events will come (0: not
    // known); the kept events' vector is then sized once, from the first batch's share of them,
    // rather than grown step by step (each step faults in fresh pages and copies what it holds).
    BlockEventsReceiver(trace::BlockSink& sink, const trace::Trace& recording, uint64_t expected_events = 0);

    // One batch, in block order after the last (a worker that skips or repeats blocks is a
    // ProtocolError: the analysis would be wrong without a word).
    void take(BlockEvents&& batch);
    // A vector to read the next batch into (the sink's spare: trace::BlockSink::spare_events).
    std::vector<trace::Event> spare_events() { return sink_.spare_events(); }

    // After the last batch: the kept events (not yet merged by time), each thread's last event,
    // each block's events (kept or not), the blocks and the events received and of them dropped.
    std::vector<trace::Event>& kept() { return kept_; }
    const ThreadEnds& ends() const { return ends_; }
    const std::vector<uint64_t>& per_block() const { return per_block_; }
    uint32_t blocks() const { return next_block_; }
    uint64_t received() const { return received_; }
    uint64_t dropped() const { return received_ - kept_total_; }

  private:
    trace::BlockSink& sink_;
    const trace::Trace& recording_;
    uint64_t threads_per_block_;
    uint64_t expected_events_;
    std::vector<trace::Event> kept_;
    ThreadEnds ends_;
    std::vector<uint64_t> per_block_;
    uint32_t next_block_ = 0;
    uint64_t received_ = 0, kept_total_ = 0;
};

} // namespace synclab::gpu
