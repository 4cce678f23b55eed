#include "gpu/block_receiver.h"

#include <algorithm>

namespace synclab::gpu {

BlockEventsReceiver::BlockEventsReceiver(trace::BlockSink& sink, const trace::Trace& recording)
    : sink_(sink), recording_(recording),
      threads_per_block_(std::max<uint64_t>(recording.meta.block.count(), 1)),
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
    received_ += batch.events.size();
    for (const trace::Event& e : batch.events) {
        const uint64_t block = e.thread / threads_per_block_;
        if (block < batch.first_block || block >= end)
            throw ProtocolError("an event of thread " + std::to_string(e.thread) + " in the batch of blocks " +
                                std::to_string(batch.first_block) + " to " + std::to_string(end));
        ++per_block_[block];
        ends_.see(e);
        if (!sink_.drops(e)) {
            kept_.push_back(e);
            ++kept_total_;
        }
    }
    finished.events = std::move(batch.events);
    sink_.take(recording_, std::move(finished));
}

} // namespace synclab::gpu
