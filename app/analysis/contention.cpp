// Atomic contention (FindingKind::Contention, check "hot_address"): the addresses whose atomics
// queue behind each other, with counts, queue depths, latency percentiles, who issues them and
// from which lines.
//
// When it fires. An address is hot when
//   - it takes at least kMinAtomics atomics (per block, for shared memory: each block has its own
//     copy) from at least kMinWarps different warps: one warp's atomics can be merged by its
//     programmer with a shuffle, many warps' cannot; and
//   - with the cost model's timing (simulator): its queue was deep: some atomic found at least
//     kMinDepth others queued ahead of it at that address (a warp's worth of lanes);
//     without timing (GPU trace) there is no queue to see, so it asks for a pile-up that must
//     queue: at least kMinUntimedAtomics from kMinUntimedWarps warps; the message says it counted
//     only. (A small kernel's 300 atomics from 12 warps are left alone on the GPU trace as they are
//     on the simulator's, whose queue shows they hardly wait.)
// So a counter that every thread bumps fires (16,384 atomics, queue depth in the thousands), and a
// block-hierarchical reduction does not (one global atomic per block: 64 on the address, and 8
// shared atomics per block); nor does a histogram whose values spread over many bins.
#include "analysis/detail.h"
#include "analysis/findings.h"

#include <algorithm>
#include <unordered_map>

namespace synclab::analysis {

namespace {

constexpr uint64_t kMinAtomics = 256;
constexpr uint32_t kMinWarps = 8;
constexpr uint32_t kMinDepth = 32;
constexpr uint64_t kMinUntimedAtomics = 1024;
constexpr uint32_t kMinUntimedWarps = 32;
constexpr size_t kMaxHot = 4; // addresses described: the hottest, not all

struct Tally {
    trace::Space space = trace::Space::Global;
    uint64_t address = 0;
    uint64_t atomics = 0;
    std::vector<uint32_t> threads;
    std::vector<uint64_t> warps; // (block << 16) | warp
    std::vector<uint32_t> blocks;
    std::unordered_map<uint32_t, uint64_t> sites; // site -> atomics
    std::vector<uint32_t> latencies;
    uint64_t depth_sum = 0;
    uint32_t max_depth = 0;
};

template <class T> uint32_t distinct(std::vector<T>& v) {
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    return static_cast<uint32_t>(v.size());
}

uint32_t percentile(std::vector<uint32_t>& sorted, double q) {
    if (sorted.empty()) return 0;
    const size_t i = std::min(sorted.size() - 1, static_cast<size_t>(q * double(sorted.size())));
    return sorted[i];
}

// "atomicAdd" for "atom.global.add.u32 ..." / "red.global.add.u32 ...", "atomicCAS", ...
std::string operation(const trace::Trace& trace, uint32_t site) {
    if (site >= trace.sites.size()) return "atomic";
    const std::string& t = trace.sites[site].text;
    static const std::pair<const char*, const char*> names[] = {
        {".add", "atomicAdd"}, {".cas", "atomicCAS"}, {".exch", "atomicExch"}, {".min", "atomicMin"},
        {".max", "atomicMax"}, {".inc", "atomicInc"}, {".dec", "atomicDec"},   {".and", "atomicAnd"},
        {".or", "atomicOr"},   {".xor", "atomicXor"}};
    const std::string op = t.substr(0, t.find_first_of(" \t"));
    for (const auto& [suffix, name] : names)
        if (op.find(std::string(suffix) + ".") != std::string::npos) return name;
    return "atomic";
}

} // namespace

ContentionStats contention_stats(const trace::Trace& trace, size_t top) {
    ContentionStats out;
    out.timed = !trace.timing.empty() && trace.timing.size() == trace.events.size();
    const detail::WholeBlocks whole(trace);
    // Shared memory: one copy per block, grouped by offset (the same counter in every block).
    std::unordered_map<uint64_t, Tally> tallies;
    for (size_t i = 0; i < trace.events.size(); ++i) {
        const trace::Event& e = trace.events[i];
        if (!e.is_atomic() || !whole.thread(e.thread)) continue;
        const trace::Space space = e.space();
        if (space != trace::Space::Global && space != trace::Space::Shared) continue;
        ++out.atomics;
        const uint64_t key = detail::mix(e.address * 4 + static_cast<uint64_t>(space));
        Tally& t = tallies[key];
        if (t.atomics == 0) {
            t.space = space;
            t.address = e.address;
        }
        ++t.atomics;
        const trace::ThreadInfo& info = trace.threads[e.thread];
        t.threads.push_back(e.thread);
        t.warps.push_back((uint64_t(info.block) << 16) | info.warp);
        if (space == trace::Space::Shared) t.blocks.push_back(info.block);
        ++t.sites[e.site];
        if (out.timed) {
            const trace::EventTiming& timing = trace.timing[i];
            t.latencies.push_back(timing.latency);
            t.depth_sum += timing.queue_depth;
            t.max_depth = std::max(t.max_depth, timing.queue_depth);
        }
    }
    out.addresses = tallies.size();
    std::vector<Tally*> order;
    order.reserve(tallies.size());
    for (auto& [key, t] : tallies)
        order.push_back(&t);
    // Hottest first: deepest queue (timed), then most atomics, then lowest address (stable output).
    std::sort(order.begin(), order.end(), [](const Tally* a, const Tally* b) {
        if (a->max_depth != b->max_depth) return a->max_depth > b->max_depth;
        if (a->atomics != b->atomics) return a->atomics > b->atomics;
        if (a->space != b->space) return a->space < b->space;
        return a->address < b->address;
    });
    for (size_t k = 0; k < order.size() && k < top; ++k) {
        Tally& t = *order[k];
        HotAddress h;
        h.space = t.space;
        h.address = t.address;
        h.atomics = t.atomics;
        h.threads = distinct(t.threads);
        h.warps = distinct(t.warps);
        h.blocks = t.space == trace::Space::Shared ? distinct(t.blocks) : 0;
        h.example_thread = t.threads.empty() ? 0 : t.threads.front();
        for (const auto& [site, n] : t.sites)
            h.sites.push_back({site, n});
        std::sort(h.sites.begin(), h.sites.end(), [](const auto& a, const auto& b) {
            return a.second != b.second ? a.second > b.second : a.first < b.first;
        });
        h.timed = out.timed;
        if (out.timed) {
            std::sort(t.latencies.begin(), t.latencies.end());
            h.p50 = percentile(t.latencies, 0.50);
            h.p90 = percentile(t.latencies, 0.90);
            h.p99 = percentile(t.latencies, 0.99);
            h.max_depth = t.max_depth;
            h.mean_depth = double(t.depth_sum) / double(t.atomics);
        }
        const uint64_t per_copy = h.blocks > 0 ? h.atomics / h.blocks : h.atomics;
        h.hot = out.timed ? per_copy >= kMinAtomics && h.warps >= kMinWarps && h.max_depth >= kMinDepth
                          : per_copy >= kMinUntimedAtomics && h.warps >= kMinUntimedWarps;
        out.hottest.push_back(std::move(h));
    }
    return out;
}

std::vector<Finding> find_contention(const trace::Trace& trace, const Options& options) {
    std::vector<Finding> found;
    const ContentionStats stats = contention_stats(trace, 64);
    size_t described = 0;
    for (size_t k = 0; k < stats.hottest.size(); ++k) {
        const HotAddress& h = stats.hottest[k];
        if (!h.hot) continue;
        if (described == kMaxHot || found.size() >= options.max_findings_per_kind) break;
        Finding f;
        f.kind = FindingKind::Contention;
        f.check = "hot_address";
        f.space = h.space;
        f.address = h.address;
        f.count = h.atomics;
        f.harmful = 0; // slow, not wrong
        f.count_noun = "atomic";
        for (const auto& [site, n] : h.sites)
            detail::add_line(f, trace, site);
        f.threads.push_back(h.example_thread);
        if (h.example_thread < trace.threads.size()) f.block = trace.threads[h.example_thread].block;
        // Other hot addresses issued from the same lines belong to this finding (one per line: 32
        // counters bumped at one line are one problem).
        uint32_t more = 0;
        uint64_t more_atomics = 0;
        for (size_t j = k + 1; j < stats.hottest.size(); ++j) {
            const HotAddress& o = stats.hottest[j];
            if (!o.hot || o.space != h.space) continue;
            Finding probe;
            for (const auto& [site, n] : o.sites)
                detail::add_line(probe, trace, site);
            if (probe.lines == f.lines && probe.ptx_lines == f.ptx_lines && probe.origins == f.origins) {
                ++more;
                more_atomics += o.atomics;
            }
        }
        bool merged = false;
        for (const Finding& g : found)
            if (g.lines == f.lines && g.ptx_lines == f.ptx_lines && g.origins == f.origins &&
                g.space == f.space)
                merged = true;
        if (merged) continue;

        const std::string op = h.sites.empty() ? "atomic" : operation(trace, h.sites.front().first);
        detail::name_memory(f, trace);
        std::string where = f.memory + (h.space == trace::Space::Shared && h.blocks > 1
                                            ? " (in each of " + with_thousands(h.blocks) + " blocks)"
                                            : "");
        std::string lines;
        for (size_t i = 0; i < h.sites.size() && i < 3; ++i)
            lines += (i ? ", " : "") + detail::line_label(trace, h.sites[i].first);
        std::string text = with_thousands(h.atomics) + " " + op + "s from " + with_thousands(h.warps) +
                           " warps (" + with_thousands(h.threads) + " threads) queued on " + where + " (" +
                           lines + ")";
        if (h.timed) {
            text += ": up to " + with_thousands(h.max_depth) + " waiting, median " + with_thousands(h.p50) +
                    " cycles each (p90 " + with_thousands(h.p90) + ", p99 " + with_thousands(h.p99) +
                    "; modelled): they complete one at a time";
        } else {
            text += ": counts only (this trace has no modelled timing: a GPU trace records no queue)";
        }
        uint64_t failed = 0; // a CAS loop's retries at these lines (simulator: Trace::cas_failures)
        for (const auto& [site, n] : h.sites)
            if (site < trace.cas_failures.size()) failed += trace.cas_failures[site];
        if (failed > 0)
            text += "; " + with_thousands(failed) + " compare-and-swaps at " +
                    (h.sites.size() > 1 ? "these lines" : "this line") + " failed and were retried";
        if (more > 0)
            text += "; " + with_thousands(more) + " more address" + (more == 1 ? "" : "es") +
                    " at the same line" + (f.lines.size() + f.ptx_lines.size() > 1 ? "s" : "") + " took " +
                    with_thousands(more_atomics) + " more";
        f.text = text;
        render_message(f);
        found.push_back(std::move(f));
        ++described;
    }
    return found;
}

} // namespace synclab::analysis
