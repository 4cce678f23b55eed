// Names of the trace enums and the Event::flags encoder.
//
// Contract of every to_string here: it returns a static, lowercase, stable name (the names appear in
// files, JSON and CLI output, so they are part of the interface) and "unknown" for a value outside
// the enum (a corrupt or hand-built record), never nullptr.
#include "trace/trace.h"

#include <stdexcept>

namespace synclab::trace {

const char* to_string(EventKind kind) {
    switch (kind) {
    case EventKind::Load:
        return "load";
    case EventKind::Store:
        return "store";
    case EventKind::Atomic:
        return "atomic";
    case EventKind::Reduction:
        return "reduction";
    case EventKind::BarrierArrive:
        return "barrier_arrive";
    case EventKind::BarrierLeave:
        return "barrier_leave";
    case EventKind::Fence:
        return "fence";
    case EventKind::Exit:
        return "exit";
    case EventKind::WarpCollective:
        return "warp_collective";
    }
    return "unknown";
}

const char* to_string(Collective collective) {
    switch (collective) {
    case Collective::WarpSync:
        return "syncwarp";
    case Collective::Shfl:
        return "shfl";
    case Collective::Vote:
        return "vote";
    case Collective::Match:
        return "match";
    case Collective::Redux:
        return "redux";
    case Collective::Elect:
        return "elect";
    }
    return "unknown";
}

const char* to_string(Space space) {
    switch (space) {
    case Space::Global:
        return "global";
    case Space::Shared:
        return "shared";
    case Space::Local:
        return "local";
    case Space::Other:
        return "other";
    }
    return "unknown";
}

const char* to_string(Scope scope) {
    switch (scope) {
    case Scope::None:
        return "none";
    case Scope::Block:
        return "block";
    case Scope::Device:
        return "device";
    case Scope::System:
        return "system";
    }
    return "unknown";
}

const char* to_string(ThreadEnd end) {
    switch (end) {
    case ThreadEnd::Exited:
        return "exited";
    case ThreadEnd::AtBarrier:
        return "at_barrier";
    case ThreadEnd::Running:
        return "running";
    case ThreadEnd::Faulted:
        return "faulted";
    case ThreadEnd::NotStarted:
        return "not_started";
    }
    return "unknown";
}

const char* to_string(RunStatus status) {
    switch (status) {
    case RunStatus::Ok:
        return "ok";
    case RunStatus::Deadlock:
        return "deadlock";
    case RunStatus::Budget:
        return "budget";
    case RunStatus::Error:
        return "error";
    case RunStatus::Timeout:
        return "timeout";
    case RunStatus::Cancelled:
        return "cancelled";
    }
    return "unknown";
}

// Accepts exactly the names to_string(RunStatus) produces (case-sensitive), so that a status
// printed by one tool reads back in another. `out` is left untouched when the text is not a name.
bool parse_run_status(const std::string& text, RunStatus& out) {
    static constexpr RunStatus kAll[] = {RunStatus::Ok,    RunStatus::Deadlock, RunStatus::Budget,
                                         RunStatus::Error, RunStatus::Timeout,  RunStatus::Cancelled};
    for (RunStatus status : kAll) {
        if (text == to_string(status)) {
            out = status;
            return true;
        }
    }
    return false;
}

// size_bytes must be 1, 2, 4 or 8 (the 2-bit log2 field holds nothing else); 0 is accepted for
// events that have no access size (barriers, fences, exits) and encodes like 1. Anything else, and
// a Space or Scope outside its enum, is a caller bug: std::invalid_argument, so that a wrong size
// never silently becomes a different one in the trace.
std::vector<ThreadInfo> thread_layout(const Dim3& grid, const Dim3& block) {
    const uint64_t per_block = block.count();
    const uint64_t blocks = grid.count();
    std::vector<ThreadInfo> threads(static_cast<size_t>(blocks * per_block));
    // Nested loops, not a division per thread: a simulated launch builds this table every run.
    ThreadInfo* t = threads.data();
    for (uint64_t b = 0; b < blocks; ++b)
        for (uint64_t i = 0; i < per_block; ++i, ++t) {
            t->block = static_cast<uint32_t>(b);
            t->thread_in_block = static_cast<uint32_t>(i);
            t->warp = static_cast<uint16_t>(i / 32);
            t->lane = static_cast<uint8_t>(i % 32);
        }
    return threads;
}

uint8_t make_flags(Space space, uint32_t size_bytes, bool is_volatile, Scope scope, bool ordered) {
    uint8_t log2_size = 0;
    switch (size_bytes) {
    case 0:
    case 1:
        log2_size = 0;
        break;
    case 2:
        log2_size = 1;
        break;
    case 4:
        log2_size = 2;
        break;
    case 8:
        log2_size = 3;
        break;
    default:
        throw std::invalid_argument("make_flags: access size " + std::to_string(size_bytes) +
                                    " is not 1, 2, 4 or 8 bytes");
    }
    const auto space_bits = static_cast<uint8_t>(space);
    const auto scope_bits = static_cast<uint8_t>(scope);
    if (space_bits > flag::kSpaceMask) {
        throw std::invalid_argument("make_flags: space " + std::to_string(space_bits) + " is not a Space");
    }
    if (scope_bits > (flag::kScopeMask >> flag::kScopeShift)) {
        throw std::invalid_argument("make_flags: scope " + std::to_string(scope_bits) + " is not a Scope");
    }
    uint8_t flags = static_cast<uint8_t>(space_bits | (log2_size << flag::kSizeShift) |
                                         (scope_bits << flag::kScopeShift));
    if (is_volatile) flags |= flag::kVolatile;
    if (ordered) flags |= flag::kOrdered;
    return flags;
}

const char* to_string(BlockHistory history) {
    switch (history) {
    case BlockHistory::Whole:
        return "whole";
    case BlockHistory::Partial:
        return "partial";
    case BlockHistory::NotRecorded:
        return "not recorded";
    }
    return "?";
}

uint32_t Site::kernel_file_line() const {
    if (origin.file.empty()) return source_line;
    for (const InlinedCall& call : origin.inlined)
        if (call.file.empty()) return call.line;
    return 0;
}

bool Trace::every_block_whole() const {
    for (BlockHistory h : block_history)
        if (h != BlockHistory::Whole) return false;
    return true;
}

} // namespace synclab::trace
