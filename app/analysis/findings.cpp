// analyze(), the enum names, and the helpers every analysis shares (line naming, thread lists,
// ordering and capping of findings).
#include "analysis/detail.h"
#include "analysis/finding_kinds.h"
#include "analysis/streamed.h"
#include "trace/naming.h"
#include "trace/text_format.h"

#include <algorithm>
#include <cstdio>
#include <tuple>

namespace synclab::analysis {

const char* to_string(FindingKind kind) {
    return static_cast<size_t>(kind) < finding_kinds().size() ? info(kind).id : "unknown";
}

const char* to_string(Hazard hazard) {
    switch (hazard) {
    case Hazard::None:
        return "";
    case Hazard::RAW:
        return "RAW";
    case Hazard::WAR:
        return "WAR";
    case Hazard::WAW:
        return "WAW";
    }
    return "";
}

std::string memory_name(const trace::Trace& trace, const Finding& finding, trace::Language language) {
    const uint32_t width = finding.sites.empty() ? 0 : trace::access_size(trace, finding.sites.back());
    return trace::memory_name(trace, finding.space, finding.address, width, language);
}

uint32_t line_of(const trace::Trace& trace, uint32_t site) {
    if (site >= trace.sites.size()) return 0;
    const trace::Site& s = trace.sites[site];
    return s.source_line != 0 ? s.source_line : s.ptx_line;
}

const trace::LineOrigin& origin_of(const Finding& finding, size_t i) {
    static const trace::LineOrigin kNone;
    return i < finding.origins.size() ? finding.origins[i] : kNone;
}

std::vector<uint32_t> kernel_file_lines(const Finding& finding) {
    std::vector<uint32_t> out;
    for (size_t i = 0; i < finding.lines.size(); ++i) {
        trace::Site site;
        site.source_line = finding.lines[i];
        site.origin = origin_of(finding, i);
        const uint32_t line = site.kernel_file_line();
        if (line != 0 && std::find(out.begin(), out.end(), line) == out.end()) out.push_back(line);
    }
    return out;
}

bool at_finding_line(const trace::Trace& trace, const Finding& finding, uint32_t site) {
    if (site >= trace.sites.size()) return false;
    const trace::Site& s = trace.sites[site];
    if (s.source_line == 0)
        return std::find(finding.ptx_lines.begin(), finding.ptx_lines.end(), s.ptx_line) !=
               finding.ptx_lines.end();
    for (size_t i = 0; i < finding.lines.size(); ++i)
        if (finding.lines[i] == s.source_line && origin_of(finding, i) == s.origin) return true;
    return false;
}

std::vector<Finding> find_lost_updates(const trace::Trace& trace, const Options& options) {
    return detail::lost_updates(trace, options).findings;
}

std::vector<Finding> find_global_races(const trace::Trace& trace, const Options& options,
                                       ShadowStats* stats) {
    return detail::global_races(trace, options, detail::lost_updates(trace, options).accesses, stats);
}

std::vector<Finding> find_stale_reads(const trace::Trace& trace, const Options& options) {
    std::vector<Finding> stale;
    detail::global_races(trace, options, detail::lost_updates(trace, options).accesses, nullptr, &stale);
    return stale;
}

std::vector<Finding> analyze(const trace::Trace& trace, const Options& options) {
    // Most important first: a hang explains everything after it, and so does a fault (an access out
    // of bounds stops the simulator's run, and may stop the GPU's); a divergent barrier makes the
    // barrier-based ordering of the race analysis questionable; lost updates are global races
    // of a more specific shape (the global race analysis leaves out the pairs they explain).
    std::vector<Finding> all = find_deadlock(trace);
    if (all.size() > options.max_findings_per_kind) all.resize(options.max_findings_per_kind);
    auto append = [&all](std::vector<Finding>&& found) {
        all.insert(all.end(), std::make_move_iterator(found.begin()), std::make_move_iterator(found.end()));
    };
    append(find_out_of_bounds(trace, options));
    append(find_barrier_divergence(trace, options));
    append(options.streamed ? options.streamed->shared_races(trace, options) : find_shared_races(trace, options));
    detail::LostUpdates lost = detail::lost_updates(trace, options);
    std::vector<Finding> stale;
    append(detail::global_races(trace, options, lost.accesses, nullptr, &stale));
    append(std::move(stale));
    append(find_scope_races(trace, options));
    append(std::move(lost.findings));
    append(find_contention(trace, options));
    merge_same_lines(all);
    // Then the most harmful first: the kind order above only breaks ties.
    order_findings(all);
    return all;
}

namespace detail {

std::string line_label(const trace::Trace& trace, uint32_t site) {
    if (site >= trace.sites.size()) return "an unknown line";
    const trace::Site& s = trace.sites[site];
    if (s.source_line != 0) return trace::site_line_text(s);
    return "PTX line " + std::to_string(s.ptx_line);
}

void add_line(Finding& finding, const trace::Trace& trace, uint32_t site) {
    const uint32_t line = line_of(trace, site);
    for (uint32_t listed : finding.sites)
        if (same_place(trace, listed, site)) return;
    finding.sites.push_back(site);
    if (site >= trace.sites.size()) return; // no line of either kind
    const trace::Site& s = trace.sites[site];
    if (s.source_line == 0) {
        finding.ptx_lines.push_back(line);
        return;
    }
    finding.origins.resize(finding.lines.size()); // entries of lines given without origins: empty
    finding.lines.push_back(line);
    finding.origins.push_back(s.origin);
}

uint64_t origin_hash(const trace::LineOrigin& origin) {
    if (origin.empty()) return 0;
    uint64_t h = std::hash<std::string>{}(origin.file);
    for (const trace::InlinedCall& call : origin.inlined) {
        h = mix(h ^ std::hash<std::string>{}(call.function));
        h = mix(h ^ std::hash<std::string>{}(call.file));
        h = mix(h ^ call.line);
    }
    return h == 0 ? 1 : h;
}

std::string block_thread(const trace::Trace& trace, uint32_t thread) {
    return trace::thread_name(trace, thread);
}

void name_memory(Finding& finding, const trace::Trace& trace) {
    finding.memory = memory_name(trace, finding);
    finding.region = trace::region_name(trace, finding.space, finding.address);
}

void RmwAccesses::add(uint64_t address, uint32_t thread, uint16_t site) {
    by_address_[address].push_back((uint64_t(thread) << 16) | site);
}

void RmwAccesses::seal() {
    for (auto& [address, keys] : by_address_) {
        std::sort(keys.begin(), keys.end());
        keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    }
}

bool RmwAccesses::contains(uint64_t address, uint32_t thread, uint16_t site) const {
    const auto it = by_address_.find(address);
    return it != by_address_.end() &&
           std::binary_search(it->second.begin(), it->second.end(), (uint64_t(thread) << 16) | site);
}

std::string hex(uint64_t value) {
    return trace::format_hex(value);
}

const char* space_name(trace::Space space) {
    switch (space) {
    case trace::Space::Global:
        return "global";
    case trace::Space::Shared:
        return "__shared__";
    case trace::Space::Local:
        return "local";
    case trace::Space::Other:
        break;
    }
    return "memory";
}

std::string noun_list(const char* noun, const std::vector<uint32_t>& ids) {
    std::string out = noun;
    if (ids.size() != 1) out += "s";
    return out + " " + trace::format_id_list(ids);
}

std::string describe_end(const trace::Trace& trace, trace::ThreadEnd end, uint32_t end_site,
                         const std::vector<uint32_t>& ids, bool with_ptx_line) {
    const bool one = ids.size() == 1;
    const std::string who = noun_list("thread", ids);
    std::string where = line_label(trace, end_site);
    if (with_ptx_line && end_site < trace.sites.size() && trace.sites[end_site].source_line != 0)
        where += " (PTX line " + std::to_string(trace.sites[end_site].ptx_line) + ")";
    switch (end) {
    case trace::ThreadEnd::Exited:
        return who + " exited";
    case trace::ThreadEnd::AtBarrier:
        return who + (one ? " waits at " : " wait at ") + where;
    case trace::ThreadEnd::Running:
        return who + (one ? " was" : " were") + " still running at " + where;
    case trace::ThreadEnd::Faulted:
        return who + " faulted at " + where;
    case trace::ThreadEnd::NotStarted:
        return who + " never started";
    }
    return who + " ended at " + where;
}

void sort_and_cap(std::vector<Finding>& findings, uint32_t max) {
    order_findings(findings);
    if (findings.size() > max) findings.resize(max);
}

BlockTable::BlockTable(const trace::Trace& trace) {
    for (uint32_t t = 0; t < trace.threads.size(); ++t) {
        const trace::ThreadInfo& info = trace.threads[t];
        if (info.block >= threads_.size()) {
            threads_.resize(size_t(info.block) + 1);
            sizes_.resize(size_t(info.block) + 1, 0);
        }
        std::vector<uint32_t>& row = threads_[info.block];
        if (info.thread_in_block >= row.size()) row.resize(size_t(info.thread_in_block) + 1, kNoThread);
        if (row[info.thread_in_block] == kNoThread) ++sizes_[info.block];
        row[info.thread_in_block] = t;
    }
}

} // namespace detail
} // namespace synclab::analysis
