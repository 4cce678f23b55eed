#include "gpu/trace_plan.h"

#include <algorithm>
#include <bit>
#include <cstdio>

namespace synclab::gpu {

namespace {

constexpr uint64_t kEventBytes = sizeof(trace::Event);

uint64_t saturating_sub(uint64_t a, uint64_t b) {
    return a > b ? a - b : 0;
}

// A stripe's slots for `load` events: the load plus an eighth and 64 (see plan_blocks).
uint64_t with_headroom(uint64_t load) {
    return load + load / 8 + 64;
}

} // namespace

uint64_t device_reserve(uint64_t device_total) {
    return (uint64_t(512) << 20) + device_total / 20;
}

uint64_t trace_table_bytes(const trace::Dim3& grid, const trace::Dim3& block, uint32_t stripes,
                           TraceBuffer buffer) {
    const uint64_t warps = grid.count() * ((block.count() + 31) / 32);
    const uint64_t warp_table = buffer == TraceBuffer::Device ? warps * 4 : 0;
    return uint64_t(stripes) * trace::kCursorStride + warps * 8 + grid.count() * 4 + warp_table;
}

TraceBudget trace_budget(const MemoryFigures& memory, uint64_t cap_bytes, TraceBuffer buffer,
                         uint64_t table_bytes) {
    TraceBudget b;
    b.events = cap_bytes / kEventBytes;
    b.limit = BudgetLimit::Cap;
    b.why = "the trace-buffer cap of " + bytes_text(cap_bytes);
    if (buffer == TraceBuffer::Device) {
        const uint64_t reserve = device_reserve(memory.device_total);
        const uint64_t left = saturating_sub(memory.device_free + memory.trace_held,
                                             memory.kernel_buffers + table_bytes + reserve);
        if (left / kEventBytes < b.events) {
            b.events = left / kEventBytes;
            b.limit = BudgetLimit::DeviceMemory;
            b.why = "the GPU's free memory (" + bytes_text(memory.device_free + memory.trace_held) +
                    " free; the kernel's buffers and " + bytes_text(reserve) + " kept for the kernel)";
        }
    }
    if (memory.host_available > 0 && memory.host_available / 8 / kEventBytes < b.events) {
        b.events = memory.host_available / 8 / kEventBytes;
        b.limit = BudgetLimit::HostMemory;
        b.why = "the host's memory (" + bytes_text(memory.host_available) +
                " available; the events use an eighth)";
    }
    return b;
}

trace::TraceBufferLayout layout_for(const std::vector<uint64_t>& warp_events, uint32_t max_stripes) {
    const uint64_t warps = std::max<uint64_t>(warp_events.size(), 1);
    const uint32_t stripes =
        std::min<uint32_t>(std::max<uint32_t>(max_stripes, 1),
                           static_cast<uint32_t>(std::bit_floor(std::min<uint64_t>(warps, 1u << 30))));
    std::vector<uint64_t> loads(stripes, 0);
    for (size_t i = 0; i < warp_events.size(); ++i)
        loads[i & (stripes - 1)] += warp_events[i];
    trace::TraceBufferLayout layout;
    layout.stripes = stripes;
    layout.stripe_capacity = with_headroom(*std::max_element(loads.begin(), loads.end()));
    return layout;
}

uint32_t per_warp_stripes(uint64_t warps) {
    const uint64_t stripes = std::bit_ceil(std::max<uint64_t>(warps, 1));
    return stripes <= trace::kMaxStripes ? static_cast<uint32_t>(stripes) : 0;
}

trace::TraceBufferLayout per_warp_layout(const std::vector<uint64_t>& warp_events) {
    trace::TraceBufferLayout layout;
    layout.stripes = per_warp_stripes(warp_events.size());
    const uint64_t most = warp_events.empty() ? 0 : *std::max_element(warp_events.begin(), warp_events.end());
    layout.stripe_capacity = with_headroom(most);
    return layout;
}

BlockPlan plan_blocks(const std::vector<uint64_t>& warp_attempted, uint32_t warps_per_block,
                      uint32_t max_stripes, uint64_t budget_events) {
    BlockPlan p;
    const uint32_t wpb = std::max<uint32_t>(warps_per_block, 1);
    p.blocks = warp_attempted.size() / wpb;
    std::vector<uint64_t> block_events(p.blocks, 0);
    for (uint64_t b = 0; b < p.blocks; ++b)
        for (uint32_t w = 0; w < wpb; ++w)
            block_events[b] += warp_attempted[b * wpb + w];
    for (uint64_t e : block_events)
        p.needed_events += e;

    // The layout for a set of blocks, their warps in rank order.
    std::vector<uint64_t> warps;
    auto layout_of = [&](const std::vector<uint32_t>& chosen) {
        warps.clear();
        for (uint32_t b : chosen)
            warps.insert(warps.end(), warp_attempted.begin() + std::ptrdiff_t(uint64_t(b) * wpb),
                         warp_attempted.begin() + std::ptrdiff_t(uint64_t(b + 1) * wpb));
        return layout_for(warps, max_stripes);
    };
    auto take = [&](std::vector<uint32_t> chosen, const trace::TraceBufferLayout& layout, bool every) {
        p.fits = true;
        p.every_block = every;
        p.chosen = std::move(chosen);
        p.chosen_events = 0;
        for (uint32_t b : p.chosen)
            p.chosen_events += block_events[b];
        p.layout = layout;
        if (!every) {
            p.ranks.assign(p.blocks, trace::kBlockNotRecorded);
            for (size_t r = 0; r < p.chosen.size(); ++r)
                p.ranks[p.chosen[r]] = static_cast<uint32_t>(r);
        }
        return p;
    };
    if (p.blocks == 0) return p;

    std::vector<uint32_t> all(p.blocks);
    for (uint64_t b = 0; b < p.blocks; ++b)
        all[b] = static_cast<uint32_t>(b);
    const trace::TraceBufferLayout every = layout_of(all);
    if (every.capacity() <= budget_events) return take(std::move(all), every, true);

    // Every k-th block: the first k whose blocks' events (a quick sum first) and layout fit.
    std::vector<uint32_t> chosen;
    for (uint64_t k = 2; k <= p.blocks; ++k) {
        uint64_t sum = 0;
        for (uint64_t b = 0; b < p.blocks && sum <= budget_events; b += k)
            sum += block_events[b];
        if (sum > budget_events) continue;
        chosen.clear();
        for (uint64_t b = 0; b < p.blocks; b += k)
            chosen.push_back(static_cast<uint32_t>(b));
        const trace::TraceBufferLayout layout = layout_of(chosen);
        if (layout.capacity() <= budget_events) {
            p.stride = k;
            return take(std::move(chosen), layout, false);
        }
    }
    // Not even block 0 alone: the block with the fewest events, if it fits.
    const auto smallest = std::min_element(block_events.begin(), block_events.end()) - block_events.begin();
    chosen = {static_cast<uint32_t>(smallest)};
    const trace::TraceBufferLayout layout = layout_of(chosen);
    if (layout.capacity() <= budget_events) {
        p.stride = p.blocks;
        return take(std::move(chosen), layout, false);
    }
    return p;
}

std::vector<trace::BlockHistory> block_history(uint64_t blocks, uint32_t warps_per_block,
                                               const std::vector<uint32_t>& ranks,
                                               const std::vector<uint64_t>& warp_dropped, bool drops_known,
                                               bool dropped_known, uint64_t dropped,
                                               const std::vector<uint32_t>& warp_table,
                                               const std::vector<uint64_t>& block_events) {
    using trace::BlockHistory;
    const uint32_t wpb = std::max<uint32_t>(warps_per_block, 1);
    std::vector<BlockHistory> history(blocks, BlockHistory::Whole);
    bool all_whole = true;
    for (uint64_t b = 0; b < blocks; ++b) {
        BlockHistory& h = history[b];
        if (!ranks.empty() && b < ranks.size() && ranks[b] == trace::kBlockNotRecorded) {
            h = BlockHistory::NotRecorded;
        } else if (warp_table.size() >= (b + 1) * wpb && block_events.size() > b && block_events[b] == 0 &&
                   std::all_of(warp_table.begin() + std::ptrdiff_t(b * wpb),
                               warp_table.begin() + std::ptrdiff_t((b + 1) * wpb),
                               [](uint32_t sm) { return sm == 0; })) {
            h = BlockHistory::NotRecorded; // never started
        } else if (drops_known) {
            for (uint32_t w = 0; w < wpb && h == BlockHistory::Whole; ++w) {
                const uint64_t i = b * wpb + w;
                if (i < warp_dropped.size() && warp_dropped[i] > 0) h = BlockHistory::Partial;
            }
        } else if (!(dropped_known && dropped == 0)) {
            h = BlockHistory::Partial; // something may have been lost, and nothing says where
        }
        all_whole = all_whole && h == BlockHistory::Whole;
    }
    if (all_whole) history.clear();
    return history;
}

std::string plan_summary(const TracePlan& p) {
    const std::string buffer =
        count_text(p.capacity) + " events (" + bytes_text(p.capacity * sizeof(trace::Event)) + ")";
    std::string s;
    if (!p.first_fault.empty()) {
        s = "the first traced launch failed (" + p.first_fault +
            ") with its events in device memory, which a fault leaves unreadable; traced again into " +
            buffer + " of host-mapped memory, which can be read after a fault";
    } else if (p.launches <= 1) {
        s = "trace buffer of " + buffer;
        if (p.first_limited) s += ", set by " + p.budget.why;
        if (p.first_complete) s += ": every block recorded whole";
    } else {
        s = "a first launch tried " + count_text(p.needed_events) + " events, more than its buffer of " +
            count_text(p.first_capacity) + "; traced again ";
        if (!p.fits)
            s += "with the largest buffer, " + buffer + " (set by " + p.budget.why +
                 "), since not even one block's events fit";
        else if (!p.recorded.empty())
            s += "recording " + describe_blocks(p.recorded, p.blocks) + " whole: the trace buffer holds " +
                 buffer + ", set by " + p.budget.why + "; the analyses use these blocks only";
        else
            s +=
                "with a buffer of " + buffer + ": every block recorded" + (p.partial.empty() ? " whole" : "");
    }
    if (!p.partial.empty())
        s += "; " + describe_blocks(p.partial, p.blocks) +
             (p.losses_known ? " lost events" : " may have lost events (the drop counts could not be read)") +
             " (a partial history: the analyses leave " + (p.partial.size() == 1 ? "it" : "them") + " out)";
    return s;
}

std::vector<uint64_t> events_per_block(const std::vector<trace::Event>& events, const trace::Dim3& grid,
                                       const trace::Dim3& block) {
    const uint64_t per_block = std::max<uint64_t>(block.count(), 1);
    std::vector<uint64_t> counts(grid.count(), 0);
    for (const trace::Event& e : events) {
        const uint64_t b = e.thread / per_block;
        if (b < counts.size()) ++counts[b];
    }
    return counts;
}

std::vector<uint32_t> blocks_with(const std::vector<trace::BlockHistory>& history,
                                  trace::BlockHistory which) {
    std::vector<uint32_t> out;
    for (size_t b = 0; b < history.size(); ++b)
        if (history[b] == which) out.push_back(static_cast<uint32_t>(b));
    return out;
}

std::string describe_blocks(const std::vector<uint32_t>& blocks, uint64_t of) {
    std::string s;
    if (blocks.empty()) {
        s = "no block";
    } else {
        s = blocks.size() == 1 ? "block " : "blocks ";
        const size_t shown = blocks.size() <= 4 ? blocks.size() : 3;
        for (size_t i = 0; i < shown; ++i)
            s += (i ? ", " : "") + with_commas(blocks[i]);
        if (shown < blocks.size()) s += ", ...";
    }
    return s + " (" + with_commas(blocks.size()) + " of " + with_commas(of) + ")";
}

std::string with_commas(uint64_t n) {
    std::string digits = std::to_string(n), out;
    for (size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

std::string count_text(uint64_t n) {
    char buf[32];
    if (n < 10000) return with_commas(n);
    if (n < 1000000)
        std::snprintf(buf, sizeof buf, "%.1f k", double(n) / 1e3);
    else if (n < 1000000000)
        std::snprintf(buf, sizeof buf, "%.1f M", double(n) / 1e6);
    else
        std::snprintf(buf, sizeof buf, "%.2f G", double(n) / 1e9);
    return buf;
}

std::string bytes_text(uint64_t bytes) {
    char buf[32];
    if (bytes < (uint64_t(1) << 20))
        std::snprintf(buf, sizeof buf, "%llu KB", static_cast<unsigned long long>((bytes + 1023) >> 10));
    else if (bytes < (uint64_t(1) << 30))
        std::snprintf(buf, sizeof buf, "%.0f MB", double(bytes) / double(1 << 20));
    else
        std::snprintf(buf, sizeof buf, "%.1f GB", double(bytes) / double(1 << 30));
    return buf;
}

} // namespace synclab::gpu
