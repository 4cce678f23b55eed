// Internal helpers shared by the analyses (not part of the analysis contract; only app/analysis/*.cpp
// include this header).
#pragma once

#include "analysis/findings.h"
#include "analysis/sync_order.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <vector>

namespace synclab::analysis::detail {

constexpr uint32_t kNoThread = UINT32_MAX;

// A 64-bit mixer (splitmix64's finaliser) for hash keys built from addresses and thread indices:
// std::hash<uint64_t> is the identity, and structured keys (base + 4 * t) then crowd a few buckets.
inline uint64_t mix(uint64_t x) {
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

// "line 12" for a site with a CUDA source line (with its file and inlined calls where it has them:
// "line 20 in `reduce<true>`, called from line 29", trace::site_line_text), "PTX line 40" when only
// its PTX line is known, "an unknown line" for a site outside the site table.
std::string line_label(const trace::Trace& trace, uint32_t site);

// Adds `site` to the finding unless a site of the same line (line_of) is listed already: `site` goes
// to finding.sites, its CUDA source line to finding.lines, or, where it has none, its PTX line to
// finding.ptx_lines.
void add_line(Finding& finding, const trace::Trace& trace, uint32_t site);

// A hash of a line's origin (file and inlined calls): 0 for the kernel's body, else never 0.
uint64_t origin_hash(const trace::LineOrigin& origin);

// A site's line as a key that keeps CUDA and PTX lines apart: line_of() is the line a reader sees,
// but CUDA line 40 and a site known only by its PTX line 40 are different places; and so are line 20
// of a helper inlined at line 29 and line 20 of the same helper inlined at line 31 (the high bits
// hold a hash of the line's origin, 0 for the kernel's body: two origins could share a hash, which
// would merge their findings; same_place() compares them exactly).
inline uint64_t line_key_of(const trace::Trace& trace, uint32_t site) {
    const bool cuda = site < trace.sites.size() && trace.sites[site].source_line != 0;
    const uint64_t origin = cuda ? origin_hash(trace.sites[site].origin) & 0x7fffffffu : 0;
    return (origin << 33) | (cuda ? 0 : uint64_t(1) << 32) | line_of(trace, site);
}

// Whether two sites are one place to the reader: the same line (line_key_of) of the same origin.
inline bool same_place(const trace::Trace& trace, uint32_t a, uint32_t b) {
    if (line_key_of(trace, a) != line_key_of(trace, b)) return false;
    if (a >= trace.sites.size() || b >= trace.sites.size()) return true;
    return trace.sites[a].origin == trace.sites[b].origin;
}

// "block 3 thread 17" (trace::thread_name).
std::string block_thread(const trace::Trace& trace, uint32_t thread);

// Sets finding.memory and finding.region from its space, address and sites (memory_name); call it
// once they are set.
void name_memory(Finding& finding, const trace::Trace& trace);

// The blocks whose events the analyses use: those with a whole history (trace::BlockHistory).
class WholeBlocks {
  public:
    explicit WholeBlocks(const trace::Trace& trace);
    bool all() const { return all_; }
    bool block(uint32_t block) const { return all_ || trace_.block_is_whole(block); }
    // Whether the thread is in the table and its block is whole.
    bool thread(uint32_t thread) const {
        return thread < trace_.threads.size() &&
               (all_ || trace_.block_is_whole(trace_.threads[thread].block));
    }

  private:
    const trace::Trace& trace_;
    bool all_ = true;
};

// A set of 4-byte words of one address space: a bit per word, in pages of 64 words (neighbouring
// threads touch neighbouring words, so most lookups find the page they need cached). The analyses
// build one in a first pass to leave out what cannot matter: a load of a word that nothing ever
// writes can neither race nor read a stale value, and the operands of a matrix product are most
// of its events (docs/PERF_NOTES.md, "Loads of words nothing writes").
class WordSet {
  public:
    // Adds every word that bytes [address, address + bytes) touch.
    void add(uint64_t address, uint32_t bytes) {
        const uint64_t last = (address + std::max(bytes, 1u) - 1) / 4;
        for (uint64_t word = address / 4; word <= last; ++word) {
            if (word / 64 != cached_page_ || cached_ == nullptr) {
                cached_ = &pages_[word / 64]; // (a map's values stay where they are)
                cached_page_ = word / 64;
            }
            *cached_ |= uint64_t(1) << (word % 64);
        }
    }
    // Whether any word that bytes [address, address + bytes) touch is in the set.
    bool any(uint64_t address, uint32_t bytes) {
        const uint64_t last = (address + std::max(bytes, 1u) - 1) / 4;
        for (uint64_t word = address / 4; word <= last; ++word) {
            if (word / 64 != cached_page_) {
                const auto it = pages_.find(word / 64);
                cached_ = it == pages_.end() ? nullptr : &it->second;
                cached_page_ = word / 64;
            }
            if (cached_ != nullptr && ((*cached_ >> (word % 64)) & 1)) return true;
        }
        return false;
    }
    bool empty() const { return pages_.empty(); }

  private:
    struct PageHash {
        size_t operator()(uint64_t page) const { return mix(page); }
    };
    std::unordered_map<uint64_t, uint64_t, PageHash> pages_;
    uint64_t cached_page_ = UINT64_MAX;
    uint64_t* cached_ = nullptr; // the cached page's bits; null: it has none
};

// Accesses, by (thread, site), that belong to a read-modify-write the lost-update analysis
// reported, per global address: a race between two of them is that lost update, not a second
// finding. Built by lost_updates(); read by the global race analysis.
class RmwAccesses {
  public:
    void add(uint64_t address, uint32_t thread, uint16_t site);
    void seal(); // sorts; call once after the last add()
    bool empty() const { return by_address_.empty(); }
    bool has_address(uint64_t address) const { return by_address_.count(address) != 0; }
    bool contains(uint64_t address, uint32_t thread, uint16_t site) const;

  private:
    std::unordered_map<uint64_t, std::vector<uint64_t>> by_address_; // sorted (thread << 16 | site)
};

// The lost-update analysis's findings and the accesses they rest on.
struct LostUpdates {
    std::vector<Finding> findings;
    RmwAccesses accesses;
};
LostUpdates lost_updates(const trace::Trace& trace, const Options& options);

// Races on global memory; `stale_reads`, when given, receives the stale_read findings of the same
// pass (sync_order.h, global_races.cpp).
std::vector<Finding> global_races(const trace::Trace& trace, const Options& options,
                                  const RmwAccesses& explained, ShadowStats* stats = nullptr,
                                  std::vector<Finding>* stale_reads = nullptr);

// One stale read: the data write (by `writer`, local clock `writer_lc`) and the read of another
// value that follows it only by a flag chain (`chain`), or, `ordered`, by happens-before.
struct StaleExample {
    bool ordered = false;
    uint16_t data_write_site = 0;
    uint16_t data_read_site = 0;
    uint32_t writer = 0;
    uint32_t writer_lc = 0;
    uint32_t reader = 0;
    uint64_t address = 0;
    Seen chain; // !ordered
};
// The stale_read finding of `count` such reads (`harmful` of them read another value than the
// write's), worded after `example` (findings.h, render_message).
Finding stale_read_finding(const trace::Trace& trace, const StaleExample& example, uint64_t count,
                           uint64_t harmful);

// [SECTION] Harm (findings.h, "Harm")

// Whether instruction `a` comes before instruction `b` in the program: the lower CUDA source line
// where both have one and the lines differ, else the lower instruction index; false for a == b.
// Lines of inlined helpers compare by their calls first, outermost first (a store at line 32 comes
// before the load at line 14 of a helper called at line 39), then by their own lines.
inline bool program_before(const trace::Trace& trace, uint32_t a, uint32_t b) {
    if (a < trace.sites.size() && b < trace.sites.size()) {
        const trace::Site& sa = trace.sites[a];
        const trace::Site& sb = trace.sites[b];
        if (sa.source_line != 0 && sb.source_line != 0) {
            const auto& ca = sa.origin.inlined;
            const auto& cb = sb.origin.inlined;
            // Lines from the kernel's body inward: the calls (outermost first), then the line itself.
            const size_t na = ca.size() + 1, nb = cb.size() + 1;
            for (size_t i = 0; i < na && i < nb; ++i) {
                const uint32_t la = i + 1 < na ? ca[ca.size() - 1 - i].line : sa.source_line;
                const uint32_t lb = i + 1 < nb ? cb[cb.size() - 1 - i].line : sb.source_line;
                if (la != lb) return la < lb;
            }
        }
    }
    return a < b;
}

// The byte of `e`'s value at byte address `address` as the memory holds it after `e`, when the trace
// has it: inside the access, in the low 4 bytes that Event::value keeps, and not an atomic (whose
// value is its operand, not the memory's result).
inline bool value_byte(const trace::Event& e, uint64_t address, uint8_t& out) {
    const uint64_t offset = address - e.address;
    if (address < e.address || offset >= e.size() || offset >= 4 || e.is_atomic()) return false;
    out = uint8_t(e.value >> (8 * offset));
    return true;
}

// Byte comparisons of two values, some of whose bytes the trace may not know.
struct Comparison {
    bool differs = false; // some byte compared differs
    bool same = false;    // some byte compared is equal
    void add(const Comparison& other) {
        differs = differs || other.differs;
        same = same || other.same;
    }
    // Harm is shown by a byte that differs, or assumed where no byte could be compared.
    bool harmful() const { return differs || !same; }
};

// The memory's value of up to 8 bytes as the trace shows it (a race checker's shadow state holds
// one per granule): per byte the value it holds now (the last store's, or what a later load read)
// and whether the last write changed it. Bit i of `known` is byte i; bits 2i, 2i + 1 of `change`
// say what byte i's last write did: kUnknown, kSame or kChanged (a word's state fits 6 bytes).
template <uint32_t Bytes> struct ValueBytes {
    static_assert(Bytes <= 8);
    using ChangeBits = std::conditional_t<(Bytes <= 4), uint8_t, uint16_t>;
    static constexpr uint32_t kUnknown = 0, kSame = 1, kChanged = 2;

    std::array<uint8_t, Bytes> now{};
    uint8_t known = 0;     // `now` is known
    ChangeBits change = 0; // per byte: what its last write did

    // The value `e` (a write) leaves in byte i at `address`, compared with what the byte held.
    Comparison compare_write(const trace::Event& e, uint32_t i, uint64_t address) const {
        Comparison c;
        uint8_t v = 0;
        if (((known >> i) & 1) && value_byte(e, address, v)) (v != now[i] ? c.differs : c.same) = true;
        return c;
    }
    // Whether the last write of byte i changed it.
    Comparison last_write_changed(uint32_t i) const {
        Comparison c;
        const uint32_t what = (change >> (2 * i)) & 3;
        if (what != kUnknown) (what == kChanged ? c.differs : c.same) = true;
        return c;
    }
    // Byte i at `address` after access `e` (a load teaches the value it read, a write sets it).
    void update(const trace::Event& e, uint32_t i, uint64_t address) {
        const uint8_t bit = uint8_t(1u << i);
        uint8_t v = 0;
        const bool has = value_byte(e, address, v);
        if (!e.writes_memory()) {
            if (has) {
                now[i] = v;
                known |= bit;
            }
            return;
        }
        const Comparison c = compare_write(e, i, address);
        const uint32_t what = c.differs ? kChanged : c.same ? kSame : kUnknown;
        change = ChangeBits((change & ~(3u << (2 * i))) | (what << (2 * i)));
        if (has) {
            now[i] = v;
            known |= bit;
        } else {
            known &= uint8_t(~bit);
        }
    }
};

// A race finding (both analyses word it alike): `count` racing access pairs of `hazard` between
// the earlier access (first_thread at first_site) and the later one, e.g. "RAW hazard on
// __shared__ address 0x4 in block 0: thread 5 at line 12 reads a value thread 4 wrote (line 10)
// with no barrier between them"; global memory names threads as "block B thread T" and says why
// they are unordered (no barrier between them, or different blocks).
// The racing access pairs one race checker found (shared or global memory), aggregated by (hazard,
// earlier site, later site) in order of first discovery; the first harmful pair of each (else its
// first pair) is its example.
class RacePairs {
  public:
    // `harmful`: of the `count` pairs, those that did harm (findings.h, "Harm"). `when`: the time of
    // the later access (trace::Event::time); records of one analysis come in time order.
    void record(Hazard hazard, uint16_t first_site, uint16_t second_site, uint64_t count, uint64_t harmful,
                uint32_t first_thread, uint32_t second_thread, uint64_t address, uint64_t when);
    // Adds the pairs another analysis found in other blocks (a batch analysed as the run went on,
    // analysis/streamed.h). Which example a finding shows does not depend on how the blocks were
    // split: the earliest harmful pair, else the earliest pair, by `when`, as one pass in time
    // order picks it.
    void merge(const RacePairs& other);
    // One finding per aggregate (race_finding), ordered and capped (sort_and_cap).
    std::vector<Finding> findings(const trace::Trace& trace, trace::Space space,
                                  const Options& options) const;

  private:
    struct Key {
        Hazard hazard = Hazard::None;
        uint16_t first_site = 0;
        uint16_t second_site = 0;
        bool operator==(const Key&) const = default;
    };
    struct KeyHash {
        size_t operator()(const Key& k) const {
            return std::hash<uint64_t>{}((uint64_t(k.hazard) << 32) | (uint64_t(k.first_site) << 16) |
                                         k.second_site);
        }
    };
    struct Example {
        uint32_t first_thread = 0;  // thread of the earlier access
        uint32_t second_thread = 0; // thread of the later access
        uint64_t address = 0;
        uint64_t when = 0;
    };
    struct Aggregate {
        Key key;
        uint64_t count = 0;
        uint64_t harmful = 0;
        uint64_t first_when = 0; // the aggregate's first pair: findings keep that order on ties
        Example example;         // the first harmful pair, else the first pair
    };
    void add(const Key& key, uint64_t count, uint64_t harmful, uint64_t first_when, const Example& example);

    std::unordered_map<Key, size_t, KeyHash> index_;
    std::vector<Aggregate> aggregates_;
};

// The shared-memory race analysis (races.cpp) as pairs not yet made findings, over the blocks with a
// whole history except those `skip_blocks` marks (nonzero per block; shorter than the grid: the rest
// are read).
RacePairs shared_race_pairs(const trace::Trace& trace, const std::vector<uint8_t>* skip_blocks = nullptr);

Finding race_finding(const trace::Trace& trace, Hazard hazard, trace::Space space, uint16_t first_site,
                     uint16_t second_site, uint32_t first_thread, uint32_t second_thread, uint64_t address,
                     uint64_t count, uint64_t harmful);

std::string hex(uint64_t value);            // "0x7c"
const char* space_name(trace::Space space); // "__shared__", "global", "local", "memory"

// "thread 5" or "threads 0-127" (ids are thread indices inside a block, or lanes with noun "lane").
std::string noun_list(const char* noun, const std::vector<uint32_t>& ids);

// How a group of threads of one block ended, e.g. "threads 0-127 wait at line 12",
// "thread 7 exited", "threads 32-63 were still running at line 20". `ids` are thread_in_block.
// with_ptx_line: "line 139 (PTX line 466)", for groups at one CUDA line but different instructions
// (an unrolled loop's barriers), which the line alone would not tell apart.
std::string describe_end(const trace::Trace& trace, trace::ThreadEnd end, uint32_t end_site,
                         const std::vector<uint32_t>& ids, bool with_ptx_line = false);

// Orders findings of one kind most harmful first (order_findings(): harmful descending, count
// descending, then lines, sites, hazard; ties keep discovery order) and keeps the first `max`: a cap
// drops the least harmful.
void sort_and_cap(std::vector<Finding>& findings, uint32_t max);

// The thread table by block: trace thread index of (block, thread_in_block).
class BlockTable {
  public:
    explicit BlockTable(const trace::Trace& trace);

    uint32_t block_count() const { return static_cast<uint32_t>(threads_.size()); }
    // Threads of `block` in the table.
    uint32_t size(uint32_t block) const { return block < sizes_.size() ? sizes_[block] : 0; }
    // Local id space of `block`: its largest thread_in_block + 1.
    uint32_t width(uint32_t block) const {
        return block < threads_.size() ? static_cast<uint32_t>(threads_[block].size()) : 0;
    }
    // Trace thread index, or kNoThread when the table has no such thread.
    uint32_t global(uint32_t block, uint32_t local) const {
        return block < threads_.size() && local < threads_[block].size() ? threads_[block][local] : kNoThread;
    }

  private:
    std::vector<std::vector<uint32_t>> threads_;
    std::vector<uint32_t> sizes_;
};

} // namespace synclab::analysis::detail
