#include "gpu/block_receiver.h"

#include <algorithm>
#include <new>

namespace synclab::gpu {

BlockEventsReceiver::BlockEventsReceiver(trace::BlockSink& sink, const trace::Trace& recording,
                                         uint64_t expected_events)
    : sink_(sink), recording_(recording),
      threads_per_block_(std::max<uint64_t>(recording.meta.block.count(), 1)), expected_events_(expected_events),
      ends_(recording.meta.grid.count() * recording.meta.block.count()),
      per_block_(recording.meta.grid.count(), 0) {}

void BlockEventsReceiver::take(BlockEvents&& batch) {
    const uint64_t end = uint64_t(batch.first_block) + batch.blocks;
    if (batch.first_block != next_block_ || batch.blocks == 0 || end > per_block_.size())
        throw ProtocolError("block events of blocks " + std::to_string(batch.first_block) + " to " +
                            std::to_string(end) + " where block " + std::to_string(next_block_) +
                            " of " + std::to_string(per_block_.size()) + " came next");
    next_block_ = static_cast<uint32_t>(end);
    trace::FinishedBlocks finished;
    finished.blocks.resize(batch.blocks);
    for (uint32_t i = 0; i < batch.blocks; ++i)
        finished.blocks[i] = batch.first_block + i;
    finished.in_trace_order = false;
    const bool first = received_ == 0;
    received_ += batch.events.size();
    // A warp's events come together: the block is looked up where the thread leaves the last one's.
    uint64_t block_begin = 1, block_end = 0; // threads of the block being counted (none yet)
    uint64_t* count = nullptr;
    for (const trace::Event& e : batch.events) {
        if (e.thread < block_begin || e.thread >= block_end) {
            const uint64_t block = e.thread / threads_per_block_;
            if (block < batch.first_block || block >= end)
                throw ProtocolError("an event of thread " + std::to_string(e.thread) +
                                    " in the batch of blocks " + std::to_string(batch.first_block) + " to " +
                                    std::to_string(end));
            block_begin = block * threads_per_block_;
            block_end = block_begin + threads_per_block_;
            count = &per_block_[block];
        }
        ++*count;
        ends_.see(e);
    }
    const size_t kept_before = kept_.size();
    sink_.keep(batch.events, kept_);
    kept_total_ += kept_.size() - kept_before;
    if (first && expected_events_ > received_ && received_ > 0) {
        // The rest at the first batch's share kept, and a little over (blocks differ).
        const double share = double(kept_.size()) / double(received_);
        const double rest = double(expected_events_ - received_) * share * 1.05;
        try {
            kept_.reserve(kept_.size() + static_cast<size_t>(rest) + 1024);
        } catch (const std::bad_alloc&) {
            // (then it grows as it fills, and fails there only if the events really do not fit)
        }
    }
    finished.events = std::move(batch.events);
    sink_.take(recording_, std::move(finished));
}

} // namespace synclab::gpu
