// Out-of-bounds accesses: global loads, stores, atomics and reductions whose bytes are not all inside
// one Global region of the trace's memory map (findings.h: find_out_of_bounds).
//
// Why it needs a complete map (trace::MemoryMap::complete): an address outside every region is out
// of bounds only where the map holds every allocation the kernel may legally reach. The simulator's
// map does; a traced GPU run's does when the worker reported where it placed every buffer and
// `__device__` variable. A map that only names memory (an .slt saved before the flag, a cooperative
// launch whose grid barrier uses the runtime's own workspace) gives no finding: the check would
// report that workspace, or every access of an old trace.
//
// What it cannot see: an access that lands inside another region (a[i] run so far past a's end that
// it reaches b) is inside a region and is not reported; the simulator's gaps between allocations
// and a GPU's sparse address space make that rare, but not impossible.
//
// Every block's events count, also those of a block whose history is partial: the other analyses
// leave such blocks out because a lost barrier event would make two accesses look unordered, but
// one access out of bounds needs no ordering to be one, and a faulted GPU run's partial trace is
// where the faulting kernel's accesses are.
#include "analysis/detail.h"

#include <algorithm>
#include <string_view>
#include <unordered_map>

namespace synclab::analysis {

using trace::Event;
using trace::MemoryRegion;

namespace {

// How far from a region an address may be for the message to name it ("131008 bytes past the end of
// a"): an index run past an array's end lands within a few MB of it, while a wild pointer (null,
// uninitialised, a host pointer) is far from every allocation of the launch.
constexpr uint64_t kNearBytes = uint64_t(64) << 20;

// Whether the instruction at `site` names the constant state space (ld.const): its address is the
// constant bank's, which no memory map describes. Read from the site's PTX text (a guard "@%p1"
// may precede the opcode).
bool is_const_access(const trace::Trace& trace, uint32_t site) {
    if (site >= trace.sites.size()) return false;
    std::string_view text = trace.sites[site].text;
    size_t at = text.find_first_not_of(" \t");
    if (at != std::string_view::npos && text[at] == '@') at = text.find_first_of(" \t", at);
    if (at == std::string_view::npos) return false;
    at = text.find_first_not_of(" \t", at);
    if (at == std::string_view::npos) return false;
    std::string_view opcode = text.substr(at);
    opcode = opcode.substr(0, opcode.find_first_of(" \t"));
    for (size_t start = 0; start <= opcode.size();) {
        const size_t dot = opcode.find('.', start);
        if (opcode.substr(start, dot == std::string_view::npos ? opcode.npos : dot - start) == "const")
            return true;
        if (dot == std::string_view::npos) break;
        start = dot + 1;
    }
    return false;
}

// The global regions of the map, by base (MemoryMap keeps them ordered by space, then base).
std::vector<const MemoryRegion*> global_regions(const trace::MemoryMap& map) {
    std::vector<const MemoryRegion*> out;
    for (const MemoryRegion& r : map.regions())
        if (r.space == trace::Space::Global) out.push_back(&r);
    return out;
}

// Whether [address, address + size) lies inside one region (written so that no sum can wrap: a
// kernel may compute any 64-bit address).
bool inside(const trace::MemoryMap& map, uint64_t address, uint32_t size) {
    const MemoryRegion* r = map.find(trace::Space::Global, address);
    return r != nullptr && size <= r->bytes && address - r->base <= r->bytes - size;
}

std::string bytes_of(const MemoryRegion& r) {
    return r.name + " (" + std::to_string(r.bytes) + (r.bytes == 1 ? " byte)" : " bytes)");
}

// Where an access outside every region lies, in the simulator's words (sim::GlobalMemory::describe):
// "131008 bytes past the end of a (64 bytes)", "4 bytes before the start of a (64 bytes)", for an
// access that begins inside a region and runs past its end "from byte 62 of a (64 bytes), 2 bytes
// past its end", and "global address 0x10, not inside any buffer" where no region is within
// kNearBytes. The nearest region is named (the one below on a tie, as the simulator does).
std::string describe_outside(const std::vector<const MemoryRegion*>& regions, uint64_t address,
                             uint32_t size) {
    // The last region starting at or below the address, and the first above it.
    const auto above = std::upper_bound(regions.begin(), regions.end(), address,
                                        [](uint64_t a, const MemoryRegion* r) { return a < r->base; });
    const MemoryRegion* below = above == regions.begin() ? nullptr : *(above - 1);
    const MemoryRegion* next = above == regions.end() ? nullptr : *above;
    if (below && address - below->base < below->bytes) {
        const uint64_t offset = address - below->base;
        const uint64_t past = offset + size - below->bytes; // > 0: the access is not inside
        return "from byte " + std::to_string(offset) + " of " + bytes_of(*below) + ", " +
               std::to_string(past) + (past == 1 ? " byte" : " bytes") + " past its end";
    }
    const uint64_t past_end = below ? address - (below->base + below->bytes) : UINT64_MAX;
    const uint64_t before_start = next ? next->base - address : UINT64_MAX;
    if (std::min(past_end, before_start) > kNearBytes)
        return "global address " + detail::hex(address) + ", not inside any buffer";
    if (past_end <= before_start)
        return std::to_string(past_end) + (past_end == 1 ? " byte" : " bytes") + " past the end of " +
               bytes_of(*below);
    return std::to_string(before_start) + (before_start == 1 ? " byte" : " bytes") + " before the start of " +
           bytes_of(*next);
}

struct SiteAccesses {
    uint64_t count = 0;
    size_t first = 0; // index of the first such event
};

} // namespace

std::vector<Finding> find_out_of_bounds(const trace::Trace& trace, const Options& options) {
    if (!trace.memory.complete()) return {};
    const std::vector<const MemoryRegion*> regions = global_regions(trace.memory);
    std::unordered_map<uint16_t, SiteAccesses> by_site;
    std::vector<uint16_t> order; // sites in order of their first access out of bounds
    // Per site: 0 unknown, 1 a .const access, 2 not (the PTX text is read once per site).
    std::vector<uint8_t> constness(trace.sites.size(), 0);
    for (size_t i = 0; i < trace.events.size(); ++i) {
        const Event& e = trace.events[i];
        if (!e.is_memory_access() || e.space() != trace::Space::Global) continue;
        if (e.thread >= trace.threads.size()) continue;
        if (inside(trace.memory, e.address, e.size())) continue;
        if (e.site < constness.size()) {
            if (constness[e.site] == 0) constness[e.site] = is_const_access(trace, e.site) ? 1 : 2;
            if (constness[e.site] == 1) continue;
        }
        auto [it, added] = by_site.try_emplace(e.site);
        if (added) {
            it->second.first = i;
            order.push_back(e.site);
        }
        ++it->second.count;
    }

    std::vector<Finding> findings;
    for (const uint16_t site : order) {
        const SiteAccesses& s = by_site.at(site);
        const Event& e = trace.events[s.first];
        Finding f;
        f.kind = FindingKind::OutOfBounds;
        f.check = "outside_memory";
        f.space = trace::Space::Global;
        detail::add_line(f, trace, site);
        f.threads = {e.thread};
        f.block = trace.threads[e.thread].block;
        f.count = s.count;
        f.harmful = s.count;
        f.address = e.address;
        f.count_noun = "out-of-bounds access";
        detail::name_memory(f, trace);
        const uint32_t size = e.size();
        f.text = std::string("out-of-bounds ") + (e.writes_memory() ? "write" : "read") + " of " +
                 std::to_string(size) + (size == 1 ? " byte" : " bytes") + " at " +
                 detail::line_label(trace, site) + " by " + detail::block_thread(trace, e.thread) + ": " +
                 describe_outside(regions, e.address, size);
        render_message(f);
        findings.push_back(std::move(f));
    }
    detail::sort_and_cap(findings, options.max_findings_per_kind);
    return findings;
}

} // namespace synclab::analysis
