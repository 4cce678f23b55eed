// Races on global memory: conflicting accesses of two threads that nothing orders.
//
// Happens-before (happens_before.h): an access of thread A happens before a later access of thread
// B when A == B, or when both are in one block and A's barrier epoch is older than B's, or when
// they are lanes of one warp in one epoch and a chain of __syncwarp()s leads from A's access to B's
// (happens_before.h, "Warp edges"), or through release/acquire synchronisation (fences, flags,
// atomics; see "Fences" below). Two accesses race
// when they overlap in a byte, at least one writes, they are unordered, and they are not both
// strong (atomics, .volatile/.relaxed/.acquire/.release): two strong accesses are morally strong (each
// in the other's scope: no race), or a block scope keeps them apart, which is a scope race, reported
// by scoped_atomics.cpp. Hazards, counting and wording follow the shared-memory analysis
// (races.cpp): RAW once per racing read and writer whose value it sees, WAR once per (reader thread,
// read site) since the last write and racing write, WAW once per write and the write it overwrites.
//
// Harm (findings.h, "Harm"): beside the cells, each page keeps its words' bytes as the trace shows
// them (detail::ValueBytes, 6 bytes per word): what each byte holds now and whether its last write
// changed it; a pair that ran against program order is harmful as in races.cpp.
//
// Lost updates. A race between two accesses that both belong to read-modify-writes the lost-update
// analysis reported (detail::RmwAccesses: same address, (thread, site) of the RMW's load or store)
// is that lost update: it is not counted here a second time.
//
// Shadow state, per 4-byte word, in pages of kPageWords words (a page exists once one of its words
// is accessed): one 24-byte Cell holding the last write (thread, barrier epoch, site, atomic) and
// the plain reads since that write, inline while they are one (thread, site) pair, else a ReaderSet:
// one ReadGroup per (block, site) holding its first reader and, from the second reader on, two
// bitsets over the block's threads (readers in the group's newest epoch, and in older ones; a
// same-block write races only with the former). A 4 M-thread kernel whose threads each write their
// own word thus needs about 30 bytes per word (see ShadowStats). A word accessed by a 1- or 2-byte
// access, or at an unaligned address, is split: its four bytes get a Cell each. Words that no
// access writes get no cells: a first pass notes the written words (detail::WordSet), and loads
// of the others are left out.
//
// Fences, release/acquire (sync_order.h). Where the trace has fences or strong global accesses, a
// SyncOrder also follows release/acquire synchronisation: an access is then stamped with its
// thread's local clock too (kept beside the cells, in a page's SyncCells, allocated only then), and
// two accesses are also ordered when the later thread's knowledge covers the earlier stamp. Two
// strong accesses never race here (see above).
//
// Stale reads. A read R_d of a value written by W_d (another thread) that nothing orders after
// W_d, but whose thread (or a thread of its block, before a barrier) saw a flag the writer set
// after W_d (SyncOrder::chain), is the missing-fence pattern: it is reported as stale_read (check
// "flag_without_fence"), not as a race, harmful when R_d's value differs from W_d's. A read that is
// ordered after W_d and still returned another value (check "ordered_read_stale") means the trace
// breaks the memory model (e.g. a GPU trace, or a simulator bug); a write that raced with the one
// before it is left out there (either may come last in the coherence order).
//
// Limits: an access whose epoch is older than a cell's entry from its own block (a trace not in
// execution order, e.g. a GPU trace ordered by a skewed clock) is not compared with that entry.
#include "analysis/detail.h"
#include "analysis/happens_before.h"
#include "analysis/sync_order.h"

#include <algorithm>
#include <array>
#include <bit>
#include <map>
#include <memory>
#include <optional>
#include <tuple>
#include <unordered_map>

namespace synclab::analysis {

using detail::kNoThread;
using trace::Event;

namespace {

constexpr uint32_t kWordBytes = 4;
constexpr uint32_t kPageWords = 64;
constexpr uint32_t kNoBits = UINT32_MAX;

enum class Readers : uint8_t { None, One, Set };

struct Cell {
    uint32_t w_thread = kNoThread; // last write (trace thread index); kNoThread: none yet
    uint32_t w_epoch = 0;
    uint32_t r_thread = kNoThread; // Readers::One: the reader; Readers::Set: index into sets_
    uint32_t r_epoch = 0;
    uint16_t w_site = 0;
    uint16_t r_site = 0;
    bool w_atomic = false;
    Readers readers = Readers::None;
    bool split = false;   // the word's bytes have cells of their own (split_)
    bool counted = false; // counted in ShadowStats::words
};
static_assert(sizeof(Cell) == 24, "a shadowed word costs 24 bytes");

// A cell's synchronisation state (only where the trace has a SyncOrder): the local clocks of its
// last write and inline reader, and the bytes the last write stored.
struct SyncCell {
    uint32_t w_lc = 0;
    uint32_t r_lc = 0;
    uint32_t w_value = 0;  // byte i of the cell's span in bits 8i..8i+7
    uint8_t w_known = 0;   // bit i: byte i of w_value is known
    bool w_raced = false;  // the last write was unordered with the write before it
};
using SyncCells = std::array<SyncCell, kPageWords>;

// A cell's warp sync counts (happens_before.h, "Warp edges"): the __syncwarp()s its last writer and
// inline reader had completed at their accesses. Allocated for a page once an access made after a
// __syncwarp() is stored there; a page without them reads 0.
struct WarpCell {
    uint32_t w_sync = 0;
    uint32_t r_sync = 0;
};
using WarpCells = std::array<WarpCell, kPageWords>;

struct Page {
    std::array<Cell, kPageWords> cells{};
    std::array<detail::ValueBytes<kWordBytes>, kPageWords> values{}; // per word, also of split ones
    std::unique_ptr<SyncCells> sync;                                 // with a SyncOrder only
    std::unique_ptr<WarpCells> warp;                                 // once a warp has synced
};

// A word split into bytes: a cell per byte (and their sync state, with a SyncOrder).
struct SplitWord {
    std::array<Cell, kWordBytes> cells{};
    std::array<SyncCell, kWordBytes> sync{};
    std::array<WarpCell, kWordBytes> warp{};
};
static_assert(sizeof(detail::ValueBytes<kWordBytes>) == 6, "a word's values cost 6 bytes");

// Readers of one site in one block since the last write.
struct ReadGroup {
    uint32_t block = 0;
    uint32_t epoch = 0; // newest epoch of a reader
    uint32_t first = 0; // thread_in_block of the first reader
    uint32_t lc = 0;    // newest local clock of a reader (sync_order.h)
    uint16_t site = 0;
    std::unique_ptr<uint64_t[]> bits; // null: `first` is the only reader; else [now | older] bitsets
    detail::ReaderSyncs syncs;        // warp sync counts of the readers in `epoch`
};

struct ReaderSet {
    std::vector<ReadGroup> groups;
    // (block, site) -> group, built once a set has many groups (a word every block reads).
    std::unique_ptr<std::unordered_map<uint64_t, uint32_t>> index;
};
constexpr size_t kIndexFrom = 16;

uint64_t group_key(uint32_t block, uint16_t site) {
    return (uint64_t(block) << 16) | site;
}

struct Stamp {
    uint32_t thread = 0;
    uint32_t block = 0;
    uint32_t epoch = 0;
    uint32_t lc = 0;   // local clock (sync_order.h); 0 without a SyncOrder
    uint32_t sync = 0; // warp syncs the thread had completed (happens_before.h)
};

// Whether `earlier` happens before `later` (see the header comment); an earlier access of the
// same block in a newer epoch (out-of-order trace) counts as ordered: it is not compared.
bool ordered(const Stamp& earlier, const Stamp& later) {
    if (earlier.thread == later.thread) return true;
    if (earlier.block != later.block) return false;
    return earlier.epoch != later.epoch;
}

class GlobalRaceChecker {
  public:
    GlobalRaceChecker(const trace::Trace& trace, const detail::RmwAccesses& explained)
        : trace_(trace), whole_(trace), table_(trace), clock_(trace), explained_(explained),
          sync_(detail::SyncOrder::make(trace)) {}

    void run() {
        // A load of words nothing writes races with nothing and reads no stale value: it is left
        // out (most of a matrix product's events are loads of its operands).
        detail::WordSet written;
        for (const Event& e : trace_.events)
            if (e.writes_memory() && e.space() == trace::Space::Global && whole_.thread(e.thread))
                written.add(e.address, e.size());
        for (const Event& e : trace_.events) {
            if (!whole_.thread(e.thread)) continue;
            if (!e.is_memory_access()) {
                if (sync_) {
                    synchronise(e);
                } else {
                    clock_.observe(e);
                }
                continue;
            }
            if (e.space() != trace::Space::Global) continue;
            if (e.kind == trace::EventKind::Load && !written.any(e.address, e.size())) continue;
            access(e);
        }
    }

    std::vector<Finding> findings(const Options& options) const {
        return pairs_.findings(trace_, trace::Space::Global, options);
    }
    std::vector<Finding> stale_findings(const Options& options) const {
        std::vector<Finding> out;
        out.reserve(stale_.size());
        for (const StaleAggregate& a : stale_)
            out.push_back(detail::stale_read_finding(trace_, a.example, a.count, a.harmful));
        detail::sort_and_cap(out, options.max_findings_per_kind);
        return out;
    }

    ShadowStats stats() const {
        ShadowStats s;
        s.words = words_;
        s.split_words = split_.size();
        // A page map node: the key, the pointer, the next pointer and the bucket slot.
        s.bytes = pages_.size() * (sizeof(Page) + (sync_ ? sizeof(SyncCells) : 0) + 4 * sizeof(void*)) +
                  warp_pages_ * sizeof(WarpCells) +
                  split_.size() * (sizeof(SplitWord) + 4 * sizeof(void*)) + peak_set_bytes_;
        return s;
    }

  private:
    struct Target {
        Cell* cell;
        SyncCell* sync;                         // null without a SyncOrder
        WarpCell* warp;                         // null while its page has no warp sync counts
        uint64_t address;                       // first byte the cell stands for
        uint32_t bytes;                         // bytes it stands for (4, or 1 for a split word's byte)
        detail::ValueBytes<kWordBytes>* values; // of its word
        uint32_t first;                         // index of `address` in its word
    };

    // --- locating cells -------------------------------------------------------------------------

    Cell& word_cell(uint64_t word) {
        const uint64_t page = word / kPageWords;
        if (page != cached_page_ || cached_ == nullptr) {
            auto [it, inserted] = pages_.try_emplace(page);
            if (inserted) {
                it->second = std::make_unique<Page>();
                if (sync_) it->second->sync = std::make_unique<SyncCells>();
            }
            cached_page_ = page;
            cached_ = it->second.get();
        }
        Cell& c = cached_->cells[word % kPageWords];
        if (!c.counted) {
            c.counted = true;
            ++words_;
        }
        return c;
    }

    SplitWord& split_word(uint64_t word, Cell& whole, const SyncCell* whole_sync, const WarpCell* whole_warp) {
        auto [it, inserted] = split_.try_emplace(word);
        if (inserted) {
            for (Cell& byte : it->second.cells)
                byte = clone(whole);
            if (whole_sync)
                for (uint32_t i = 0; i < kWordBytes; ++i) {
                    SyncCell& b = it->second.sync[i];
                    b = *whole_sync;
                    b.w_value = (whole_sync->w_value >> (8 * i)) & 0xff;
                    b.w_known = (whole_sync->w_known >> i) & 1;
                }
            if (whole_warp) it->second.warp.fill(*whole_warp);
            release_readers(whole);
            whole = Cell{};
            whole.split = true;
            whole.counted = true;
        }
        return it->second;
    }

    // The cells an access covers: whole words where it covers them and the word is not split,
    // else the bytes of the split word. `warp`: the access carries a warp sync count to store.
    void targets_of(const Event& e, bool warp, std::vector<Target>& out) {
        out.clear();
        const uint64_t begin = e.address;
        const uint64_t end = e.address + e.size();
        for (uint64_t word = begin / kWordBytes; word * kWordBytes < end; ++word) {
            const uint64_t base = word * kWordBytes;
            Cell& c = word_cell(word);
            detail::ValueBytes<kWordBytes>* values = &cached_->values[word % kPageWords];
            SyncCell* sync = cached_->sync ? &(*cached_->sync)[word % kPageWords] : nullptr;
            if (warp && !cached_->warp) {
                cached_->warp = std::make_unique<WarpCells>();
                ++warp_pages_;
            }
            WarpCell* warps = cached_->warp ? &(*cached_->warp)[word % kPageWords] : nullptr;
            const bool covers = begin <= base && end >= base + kWordBytes;
            if (covers && !c.split) {
                out.push_back({&c, sync, warps, base, kWordBytes, values, 0});
                continue;
            }
            SplitWord& bytes = split_word(word, c, sync, warps);
            for (uint64_t b = std::max(begin, base); b < std::min(end, base + kWordBytes); ++b)
                out.push_back({&bytes.cells[b - base], sync ? &bytes.sync[b - base] : nullptr,
                               &bytes.warp[b - base], b, 1, values, uint32_t(b - base)});
        }
    }

    // --- reader sets ----------------------------------------------------------------------------

    size_t words_for(uint32_t block) const { return (table_.width(block) + 63) / 64; }

    uint32_t new_set() {
        if (!free_sets_.empty()) {
            const uint32_t id = free_sets_.back();
            free_sets_.pop_back();
            return id;
        }
        sets_.emplace_back();
        return uint32_t(sets_.size() - 1);
    }

    void release_readers(Cell& c) {
        if (c.readers == Readers::Set) {
            ReaderSet& set = sets_[c.r_thread];
            set_bytes_ -= set_cost(set);
            std::vector<ReadGroup>().swap(set.groups);
            set.index.reset();
            free_sets_.push_back(c.r_thread);
        }
        c.readers = Readers::None;
        c.r_thread = kNoThread;
    }

    size_t set_cost(const ReaderSet& set) const {
        size_t bytes = sizeof(ReaderSet) + set.groups.capacity() * sizeof(ReadGroup);
        for (const ReadGroup& g : set.groups) {
            if (g.bits) bytes += 2 * words_for(g.block) * sizeof(uint64_t);
            bytes += g.syncs.bytes();
        }
        if (set.index) bytes += set.index->size() * (sizeof(uint64_t) + sizeof(uint32_t) + 3 * sizeof(void*));
        return bytes;
    }

    Cell clone(const Cell& c) {
        Cell copy = c;
        if (c.readers != Readers::Set) return copy;
        const uint32_t id = new_set();
        ReaderSet& from = sets_[c.r_thread];
        ReaderSet& to = sets_[id];
        for (const ReadGroup& g : from.groups) {
            ReadGroup h{g.block, g.epoch, g.first, g.lc, g.site, nullptr, g.syncs};
            if (g.bits) {
                const size_t n = 2 * words_for(g.block);
                h.bits = std::make_unique<uint64_t[]>(n);
                std::copy(g.bits.get(), g.bits.get() + n, h.bits.get());
            }
            to.groups.push_back(std::move(h));
        }
        if (from.index) to.index = std::make_unique<std::unordered_map<uint64_t, uint32_t>>(*from.index);
        set_bytes_ += set_cost(to);
        peak_set_bytes_ = std::max(peak_set_bytes_, set_bytes_);
        copy.r_thread = id;
        return copy;
    }

    ReadGroup* find_group(ReaderSet& set, uint32_t block, uint16_t site) {
        if (!set.groups.empty() && set.groups.back().block == block && set.groups.back().site == site)
            return &set.groups.back();
        if (set.index) {
            const auto it = set.index->find(group_key(block, site));
            return it == set.index->end() ? nullptr : &set.groups[it->second];
        }
        for (ReadGroup& g : set.groups)
            if (g.block == block && g.site == site) return &g;
        return nullptr;
    }

    void add_group(ReaderSet& set, uint32_t block, uint16_t site, uint32_t local, uint32_t epoch,
                   uint32_t lc, uint32_t sync) {
        set_bytes_ -= set_cost(set);
        set.groups.push_back(ReadGroup{block, epoch, local, lc, site, nullptr, {}});
        set.groups.back().syncs.note(local, sync);
        if (set.index) {
            set.index->emplace(group_key(block, site), uint32_t(set.groups.size() - 1));
        } else if (set.groups.size() >= kIndexFrom) {
            set.index = std::make_unique<std::unordered_map<uint64_t, uint32_t>>();
            for (uint32_t i = 0; i < set.groups.size(); ++i)
                set.index->emplace(group_key(set.groups[i].block, set.groups[i].site), i);
        }
        set_bytes_ += set_cost(set);
        peak_set_bytes_ = std::max(peak_set_bytes_, set_bytes_);
    }

    static void set_bit(uint64_t* bits, uint32_t local) { bits[local / 64] |= uint64_t(1) << (local % 64); }

    // Sync counts go with the readers of the group's newest epoch only: an older epoch's readers are
    // ordered before every access of their block in the newer one.
    void add_to_group(ReadGroup& g, uint32_t local, uint32_t epoch, uint32_t lc, uint32_t sync) {
        g.lc = std::max(g.lc, lc);
        const size_t words = words_for(g.block);
        if (!g.bits) {
            if (local == g.first) {
                g.epoch = std::max(g.epoch, epoch); // the newer read stands for both
                g.syncs.note(local, sync);
                return;
            }
            g.bits = std::make_unique<uint64_t[]>(2 * words); // zeroed
            set_bytes_ += 2 * words * sizeof(uint64_t);
            peak_set_bytes_ = std::max(peak_set_bytes_, set_bytes_);
            set_bit(g.bits.get(), g.first); // `first` is a reader of g.epoch
        }
        uint64_t* now = g.bits.get();
        uint64_t* older = now + words;
        if (epoch > g.epoch) {
            for (size_t w = 0; w < words; ++w) {
                older[w] |= now[w];
                now[w] = 0;
            }
            g.epoch = epoch;
            set_bit(now, local);
            set_bytes_ -= g.syncs.bytes();
            g.syncs.clear();
            g.syncs.note(local, sync);
            set_bytes_ += g.syncs.bytes();
        } else if (epoch == g.epoch) {
            set_bit(now, local);
            set_bytes_ -= g.syncs.bytes();
            g.syncs.note(local, sync);
            set_bytes_ += g.syncs.bytes();
            peak_set_bytes_ = std::max(peak_set_bytes_, set_bytes_);
        } else {
            set_bit(older, local); // out-of-order trace: never compared with its own block's writes
        }
    }

    void add_reader(const Target& t, const Stamp& now, uint32_t local, uint16_t site) {
        Cell& c = *t.cell;
        if (c.readers == Readers::None) {
            c.readers = Readers::One;
            c.r_thread = now.thread;
            c.r_epoch = now.epoch;
            c.r_site = site;
            if (t.sync) t.sync->r_lc = now.lc;
            if (t.warp) t.warp->r_sync = now.sync;
            return;
        }
        if (c.readers == Readers::One) {
            if (c.r_thread == now.thread && c.r_site == site) {
                c.r_epoch = std::max(c.r_epoch, now.epoch);
                if (t.sync) t.sync->r_lc = std::max(t.sync->r_lc, now.lc);
                if (t.warp) t.warp->r_sync = std::max(t.warp->r_sync, now.sync);
                return;
            }
            const trace::ThreadInfo& was = trace_.threads[c.r_thread];
            const uint32_t id = new_set();
            add_group(sets_[id], was.block, c.r_site, was.thread_in_block, c.r_epoch, t.sync ? t.sync->r_lc : 0,
                      t.warp ? t.warp->r_sync : 0);
            c.readers = Readers::Set;
            c.r_thread = id;
        }
        ReaderSet& set = sets_[c.r_thread];
        if (ReadGroup* g = find_group(set, now.block, site)) {
            add_to_group(*g, local, now.epoch, now.lc, now.sync);
        } else {
            add_group(set, now.block, site, local, now.epoch, now.lc, now.sync);
        }
    }

    // Readers of `c` that race with a write stamped `now`: appended to racing_ (site, thread).
    // `site`: the write's. Readers ordered before it through synchronisation, or morally strong
    // with it, do not race.
    void racing_readers(const Target& t, const Stamp& now, uint32_t local, uint16_t site) {
        const Cell& c = *t.cell;
        if (c.readers == Readers::One) {
            const Stamp reader{c.r_thread, trace_.threads[c.r_thread].block, c.r_epoch, t.sync ? t.sync->r_lc : 0,
                               t.warp ? t.warp->r_sync : 0};
            if (!happens_before(reader, now) && !both_strong(c.r_site, site))
                racing_.push_back({c.r_site, c.r_thread});
            return;
        }
        if (c.readers != Readers::Set) return;
        const bool knows = sync_ && sync_->knows_something(now.thread);
        const bool warp_edges = clock_.warp_synced(now.thread);
        for (const ReadGroup& g : sets_[c.r_thread].groups) {
            const bool same_block = g.block == now.block;
            if (same_block && g.epoch != now.epoch) continue; // ordered before, or out of order
            if (both_strong(g.site, site)) continue;
            // The whole group (every reader's epoch is at most g.epoch) through its block's epoch.
            if (knows && sync_->knows(now.thread, detail::SyncStamp{kNoThread, g.block, g.epoch, 0})) continue;
            auto add = [&](uint32_t reader_local) {
                const uint32_t reader = table_.global(g.block, reader_local);
                if (knows && sync_->knows(now.thread, detail::SyncStamp{reader, g.block, g.epoch, g.lc})) return;
                if (same_block && warp_edges &&
                    warp_ordered(Stamp{reader, g.block, g.epoch, 0, g.syncs.of(reader_local)}, now))
                    return;
                racing_.push_back({g.site, reader});
            };
            if (!g.bits) {
                if (!same_block || g.first != local) add(g.first);
                continue;
            }
            const size_t words = words_for(g.block);
            for (size_t w = 0; w < words; ++w) {
                uint64_t bits = g.bits[w] | (same_block ? 0 : g.bits[words + w]);
                while (bits) {
                    const uint32_t reader = uint32_t(w * 64 + std::countr_zero(bits));
                    bits &= bits - 1;
                    if (same_block && reader == local) continue;
                    add(reader);
                }
            }
        }
    }

    // --- synchronisation (sync_order.h) -----------------------------------------------------------

    // A non-memory event with a SyncOrder: barriers go to both clocks, fences to the SyncOrder.
    void synchronise(const Event& e) { detail::synchronise(e, clock_, *sync_); }

    // Whether `earlier` happens before `later`: program order and barrier epochs (ordered()), a
    // __syncwarp() chain, or release/acquire synchronisation. `later` is the access being checked.
    bool happens_before(const Stamp& earlier, const Stamp& later) const {
        if (ordered(earlier, later) || warp_ordered(earlier, later)) return true;
        return sync_ && sync_->knows(later.thread, detail::SyncStamp{earlier.thread, earlier.block,
                                                                     earlier.epoch, earlier.lc});
    }
    // Two lanes of one warp in one epoch, ordered by a chain of __syncwarp()s (happens_before.h).
    bool warp_ordered(const Stamp& earlier, const Stamp& later) const {
        return earlier.block == later.block && earlier.epoch == later.epoch &&
               clock_.warp_ordered(detail::Stamp{earlier.thread, earlier.epoch, earlier.sync},
                                   detail::Stamp{later.thread, later.epoch, later.sync});
    }
    // Two strong accesses are never this analysis's race: morally strong ones do not race at all,
    // and those a block scope keeps apart are the scope check's (scoped_atomics.cpp).
    bool both_strong(uint16_t site_a, uint16_t site_b) const {
        return sync_ && sync_->strong_site(site_a) && sync_->strong_site(site_b);
    }

    // How the bytes load `e` read compare with what the last write of `t` stored.
    static detail::Comparison compare_read(const Target& t, const Event& e) {
        detail::Comparison c;
        for (uint32_t i = 0; i < t.bytes; ++i) {
            uint8_t v = 0;
            if (!((t.sync->w_known >> i) & 1) || !detail::value_byte(e, t.address + i, v)) continue;
            (v != uint8_t(t.sync->w_value >> (8 * i)) ? c.differs : c.same) = true;
        }
        return c;
    }
    static void store_written(const Target& t, const Event& e) {
        SyncCell& s = *t.sync;
        s.w_value = 0;
        s.w_known = 0;
        for (uint32_t i = 0; i < t.bytes; ++i) {
            uint8_t v = 0;
            if (!detail::value_byte(e, t.address + i, v)) continue;
            s.w_value |= uint32_t(v) << (8 * i);
            s.w_known |= uint8_t(1u << i);
        }
    }

    void record_stale(const detail::StaleExample& example, bool harmful) {
        const auto key = std::make_tuple(example.ordered, example.data_write_site, example.data_read_site,
                                         example.chain.write_site, example.chain.read_site);
        auto [it, inserted] = stale_index_.try_emplace(key, stale_.size());
        if (inserted) stale_.push_back(StaleAggregate{example, 0, 0});
        StaleAggregate& a = stale_[it->second];
        if (a.harmful == 0 && harmful) a.example = example; // a harmful read is the better example
        ++a.count;
        if (harmful) ++a.harmful;
    }

    // --- checking -------------------------------------------------------------------------------

    void access(const Event& e) {
        const trace::ThreadInfo& info = trace_.threads[e.thread];
        const detail::Stamp clock = clock_.stamp(e.thread);
        const uint32_t epoch = clock.epoch;
        const bool writes = e.writes_memory();
        // A write enters the SyncOrder first (a strong write raises the clock it is stamped with); a
        // read after its checks (what an acquiring read acquires orders what comes after it).
        const uint32_t lc = !sync_ ? 0 : writes ? sync_->access(e, epoch) : sync_->lc(e.thread);
        const Stamp now{e.thread, info.block, epoch, lc, clock.sync};
        const bool atomic = e.is_atomic();
        const bool rmw_address = !explained_.empty() && explained_.has_address(e.address);
        targets_of(e, clock.sync != 0, targets_);

        // The last writes: RAW for a read, WAW for a write, once per distinct writer and site,
        // harmful when a byte of the writer's says so (findings.h, "Harm"); or, for a read, a stale
        // read (see the header comment).
        writers_seen_.clear();
        if (sync_) raced_.assign(targets_.size(), 0);
        for (size_t i = 0; i < targets_.size(); ++i) {
            const Target& t = targets_[i];
            const Cell& c = *t.cell;
            if (c.w_thread == kNoThread || (atomic && c.w_atomic)) continue;
            const Stamp writer{c.w_thread, trace_.threads[c.w_thread].block, c.w_epoch, t.sync ? t.sync->w_lc : 0,
                               t.warp ? t.warp->w_sync : 0};
            Verdict verdict = Verdict::Race;
            std::optional<detail::Seen> chain;
            detail::Comparison values;
            if (happens_before(writer, now)) {
                // Ordered, yet another value: the trace breaks the model (not for the thread's own
                // writes, nor after two unordered writes, whose coherence order is not known).
                if (writes || !t.sync || c.w_thread == e.thread || t.sync->w_raced) continue;
                values = compare_read(t, e);
                if (!values.differs) continue;
                verdict = Verdict::OrderedStale;
            } else if (!writes && t.sync && (chain = sync_->chain(e.thread, {writer.thread, writer.block, writer.epoch, writer.lc}))) {
                verdict = Verdict::Stale;
                values = compare_read(t, e);
            } else {
                if (sync_) raced_[i] = 1;
                if (both_strong(c.w_site, e.site)) continue;
                values = writes ? compare_write(t, e) : last_write_changed(t);
            }
            const auto seen = std::find_if(writers_seen_.begin(), writers_seen_.end(), [&](const Writer& w) {
                return w.thread == c.w_thread && w.site == c.w_site && w.verdict == verdict;
            });
            if (seen != writers_seen_.end()) {
                seen->values.add(values);
                continue;
            }
            const bool is_explained =
                rmw_address && explained(e.address, c.w_thread, c.w_site, e.thread, e.site);
            writers_seen_.push_back(
                Writer{c.w_thread, c.w_site, t.address, values, is_explained, verdict, writer.lc, chain});
        }
        for (const Writer& w : writers_seen_) {
            if (w.explained) continue;
            if (w.verdict != Verdict::Race) {
                detail::StaleExample example;
                example.ordered = w.verdict == Verdict::OrderedStale;
                example.data_write_site = w.site;
                example.data_read_site = e.site;
                example.writer = w.thread;
                example.writer_lc = w.lc;
                example.reader = e.thread;
                example.address = w.address;
                if (w.chain) example.chain = *w.chain;
                record_stale(example, w.values.differs);
                continue;
            }
            const bool harmful = !detail::program_before(trace_, w.site, e.site) && w.values.harmful();
            pairs_.record(writes ? Hazard::WAW : Hazard::RAW, w.site, e.site, 1, harmful ? 1 : 0, w.thread,
                          e.thread, w.address, e.time);
        }

        if (!writes) {
            for (const Target& t : targets_)
                add_reader(t, now, info.thread_in_block, e.site);
            update_values(e);
            if (sync_) sync_->access(e, epoch);
            return;
        }

        // WAR with the reads since those writes, each (site, reader) once over the cells covered;
        // a reader is harmful as its bytes say (the value it read is each byte's value now).
        racing_.clear();
        for (const Target& t : targets_) {
            const size_t from = racing_.size();
            racing_readers(t, now, info.thread_in_block, e.site);
            const detail::Comparison values = compare_write(t, e);
            for (size_t i = from; i < racing_.size(); ++i)
                racing_[i].values = values;
        }
        if (targets_.size() > 1) {
            std::sort(racing_.begin(), racing_.end(), [](const RacingReader& a, const RacingReader& b) {
                return std::tie(a.site, a.reader) < std::tie(b.site, b.reader);
            });
            size_t kept = 0;
            for (size_t i = 0; i < racing_.size(); ++i) {
                if (kept > 0 && racing_[kept - 1].site == racing_[i].site &&
                    racing_[kept - 1].reader == racing_[i].reader) {
                    racing_[kept - 1].values.add(racing_[i].values);
                } else {
                    racing_[kept++] = racing_[i];
                }
            }
            racing_.resize(kept);
        }
        for (const RacingReader& r : racing_) {
            if (rmw_address && explained(e.address, r.reader, r.site, e.thread, e.site)) continue;
            const bool harmful = !detail::program_before(trace_, r.site, e.site) && r.values.harmful();
            pairs_.record(Hazard::WAR, r.site, e.site, 1, harmful ? 1 : 0, r.reader, e.thread,
                          targets_.front().address, e.time);
        }
        for (size_t i = 0; i < targets_.size(); ++i) {
            const Target& t = targets_[i];
            Cell& c = *t.cell;
            release_readers(c);
            c.w_thread = e.thread;
            c.w_epoch = now.epoch;
            c.w_site = e.site;
            c.w_atomic = atomic;
            if (t.warp) t.warp->w_sync = now.sync;
            if (t.sync) {
                t.sync->w_lc = now.lc;
                t.sync->w_raced = raced_[i] != 0;
                store_written(t, e);
            }
        }
        update_values(e);
    }

    // --- values (findings.h, "Harm") -------------------------------------------------------------

    // How write `e` compares with the bytes of `t` (which the readers read and the last write left).
    static detail::Comparison compare_write(const Target& t, const Event& e) {
        detail::Comparison c;
        for (uint32_t i = 0; i < t.bytes; ++i)
            c.add(t.values->compare_write(e, t.first + i, t.address + i));
        return c;
    }
    // Whether the last write of the bytes of `t` changed them.
    static detail::Comparison last_write_changed(const Target& t) {
        detail::Comparison c;
        for (uint32_t i = 0; i < t.bytes; ++i)
            c.add(t.values->last_write_changed(t.first + i));
        return c;
    }
    void update_values(const Event& e) {
        for (const Target& t : targets_)
            for (uint32_t i = 0; i < t.bytes; ++i)
                t.values->update(e, t.first + i, t.address + i);
    }

    bool explained(uint64_t address, uint32_t first_thread, uint16_t first_site, uint32_t second_thread,
                   uint16_t second_site) const {
        return explained_.contains(address, first_thread, first_site) &&
               explained_.contains(address, second_thread, second_site);
    }

    const trace::Trace& trace_;
    detail::WholeBlocks whole_;
    detail::BlockTable table_;
    detail::BarrierClock clock_;
    const detail::RmwAccesses& explained_;
    std::unique_ptr<detail::SyncOrder> sync_; // null: no fences or strong global accesses

    std::unordered_map<uint64_t, std::unique_ptr<Page>> pages_; // page index -> cells
    uint64_t cached_page_ = UINT64_MAX;
    Page* cached_ = nullptr;
    std::unordered_map<uint64_t, SplitWord> split_; // word index -> byte cells
    std::vector<ReaderSet> sets_;
    std::vector<uint32_t> free_sets_;
    uint64_t words_ = 0;
    uint64_t warp_pages_ = 0; // pages with WarpCells
    size_t set_bytes_ = 0;
    size_t peak_set_bytes_ = 0;

    detail::RacePairs pairs_;

    // Stale reads, aggregated by (check, data write and read sites, flag write and read sites) in
    // order of first discovery.
    struct StaleAggregate {
        detail::StaleExample example;
        uint64_t count = 0;
        uint64_t harmful = 0;
    };
    using StaleKey = std::tuple<bool, uint16_t, uint16_t, uint32_t, uint32_t>;
    std::map<StaleKey, size_t> stale_index_;
    std::vector<StaleAggregate> stale_;

    enum class Verdict : uint8_t { Race, Stale, OrderedStale };
    struct Writer {
        uint32_t thread = 0;
        uint16_t site = 0;
        uint64_t address = 0;
        detail::Comparison values; // over its bytes: RAW: did it change them; WAW: does this write;
                                   // stale: does the read differ from it
        bool explained = false;    // by a lost update
        Verdict verdict = Verdict::Race;
        uint32_t lc = 0;                   // the write's local clock
        std::optional<detail::Seen> chain; // Verdict::Stale: the flag chain
    };
    std::vector<uint8_t> raced_; // scratch: per target, its last write is unordered with this one
    struct RacingReader {
        uint16_t site = 0;
        uint32_t reader = 0; // trace thread index
        detail::Comparison values{};
    };

    std::vector<Target> targets_;      // scratch
    std::vector<Writer> writers_seen_; // scratch
    std::vector<RacingReader> racing_; // scratch
};

} // namespace

namespace detail {

std::vector<Finding> global_races(const trace::Trace& trace, const Options& options,
                                  const RmwAccesses& explained, ShadowStats* stats,
                                  std::vector<Finding>* stale_reads) {
    GlobalRaceChecker checker(trace, explained);
    checker.run();
    if (stats) *stats = checker.stats();
    if (stale_reads) *stale_reads = checker.stale_findings(options);
    return checker.findings(options);
}

} // namespace detail
} // namespace synclab::analysis
