// Which blocks the analyses use (those with a whole history) and why the others are left out.
#include "analysis/detail.h"

#include <algorithm>

namespace synclab::analysis {

namespace detail {

WholeBlocks::WholeBlocks(const trace::Trace& trace) : trace_(trace), all_(trace.every_block_whole()) {}

} // namespace detail

namespace {

// Why a Partial block lost events, from how the run ended.
std::string partial_reason(const trace::RunMeta& meta) {
    if (meta.dropped_events > 0) return "the trace buffer was full";
    if (meta.status == trace::RunStatus::Budget) return "the run stopped at its budget";
    if (meta.status == trace::RunStatus::Timeout || meta.status == trace::RunStatus::Cancelled)
        return "the run was stopped while they ran";
    return "their trace is incomplete";
}

bool never_started(const trace::Trace& trace, const detail::BlockTable& table, uint32_t block) {
    if (table.size(block) == 0) return false;
    for (uint32_t local = 0; local < table.width(block); ++local) {
        const uint32_t t = table.global(block, local);
        if (t != detail::kNoThread && trace.threads[t].end != trace::ThreadEnd::NotStarted) return false;
    }
    return true;
}

} // namespace

Coverage coverage(const trace::Trace& trace) {
    Coverage c;
    if (trace.threads.empty()) {
        // No thread table: an untraced run, a launch refused before it ran, a worker that died.
        c.recorded = false;
        c.summary = "no trace was recorded: nothing was analysed";
        return c;
    }
    const detail::BlockTable table(trace);
    // The blocks the thread table holds (a loaded trace's table is exactly the grid; slt_file.h).
    c.blocks = std::max<uint32_t>(table.block_count(),
                                  uint32_t(std::min<size_t>(trace.block_history.size(), UINT32_MAX)));
    for (uint32_t block = 0; block < c.blocks; ++block) {
        switch (trace.history_of(block)) {
        case trace::BlockHistory::Whole:
            ++c.analysed;
            break;
        case trace::BlockHistory::Partial:
            c.partial.push_back(block);
            break;
        case trace::BlockHistory::NotRecorded:
            (never_started(trace, table, block) ? c.not_started : c.not_recorded).push_back(block);
            break;
        }
    }
    if (c.complete()) {
        c.summary =
            c.blocks == 1 ? "analysed the one block" : "analysed all " + std::to_string(c.blocks) + " blocks";
        return c;
    }
    c.summary = "analysed " + std::to_string(c.analysed) + " of " + std::to_string(c.blocks) + " blocks";
    std::vector<std::string> parts;
    auto group = [](const std::vector<uint32_t>& blocks) { return detail::noun_list("block", blocks) + " "; };
    if (!c.partial.empty())
        parts.push_back(group(c.partial) + "lost events (" + partial_reason(trace.meta) + ")");
    if (!c.not_recorded.empty())
        parts.push_back(group(c.not_recorded) + (c.not_recorded.size() == 1 ? "was" : "were") +
                        " not recorded");
    if (!c.not_started.empty()) parts.push_back(group(c.not_started) + "never started");
    for (size_t i = 0; i < parts.size(); ++i)
        c.summary += (i == 0 ? ": " : ", ") + parts[i];
    return c;
}

} // namespace synclab::analysis
