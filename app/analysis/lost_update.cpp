// Lost updates: non-atomic read-modify-write of one global address by several threads.
//
// An RMW of address X by thread T: T loads X (a plain or volatile ld.global) and later stores to X (a
// plain st.global: neither volatile nor ordered) with no other load of X by T in between (the latest
// load pairs with the store). Addresses match exactly (the access's first byte); atomics never
// count, as loads, stores or RMWs.
//
// Two RMWs of X by different threads are unsynchronised unless happens-before orders them: threads
// of different blocks are never ordered (locks, flags and fences are not modelled yet); threads of
// one block are ordered when one RMW's store is in an earlier barrier epoch (happens_before.h) than
// the other's load. An RMW is reported when some RMW of another thread on X is unsynchronised with
// it, and only where at least two distinct threads RMW X.
//
// An RMW overlapped when another thread wrote X (store, atomic or reduction) between its load and
// its store in the trace: that write was overwritten, so its update was lost in this run.
//
// One finding per (load site, store site): count = distinct threads with an unsynchronised RMW,
// summed over the addresses (a thread counts once per address); lost = those RMWs that overlapped
// (each overwrote another thread's update). The message gives both and an example (preferably an
// overlapped one: the thread whose update was lost comes second in `threads`).
//
// Only blocks with a whole history are read (coverage()). The accesses of every reported RMW go
// into LostUpdates::accesses, so that the global race analysis does not report them again.
#include "analysis/detail.h"
#include "analysis/happens_before.h"

#include <algorithm>
#include <array>
#include <map>
#include <memory>
#include <unordered_map>

namespace synclab::analysis {

using detail::kNoThread;
using trace::Event;
using trace::EventKind;

namespace {

struct Rmw {
    uint32_t thread = 0;
    uint16_t load_site = 0;
    uint16_t store_site = 0;
    uint32_t load_epoch = 0;
    uint32_t store_epoch = 0;
    bool overlapped = false;
    uint32_t overwritten = kNoThread; // the other thread whose write this RMW's store overwrote
};

struct PendingLoad {
    uint64_t writes_at_load = 0; // the address's write counter at the load
    uint32_t epoch = 0;
    uint32_t own_writes = 0; // T's own atomic writes of the address since the load
    uint16_t site = 0;
};

struct AddressState {
    uint64_t writes = 0;
    uint32_t last_writer = kNoThread;
    int32_t rmws = -1; // index into the RMW lists, -1: none yet
};

struct AddressHash {
    size_t operator()(uint64_t address) const { return detail::mix(address); }
};

// AddressState of every written address: word-aligned addresses in pages of 64 words (neighbouring
// threads write neighbouring words, so most accesses find the page they need cached), others in
// a map.
class AddressStates {
  public:
    // The state of `address`, created on first use.
    AddressState& at(uint64_t address) {
        if (address % 4 != 0) return odd_[address];
        return page(address / 4 / kPageWords, true)->states[address / 4 % kPageWords];
    }
    // The state of `address` if it was ever written, else null.
    const AddressState* find(uint64_t address) {
        if (address % 4 != 0) {
            const auto it = odd_.find(address);
            return it == odd_.end() ? nullptr : &it->second;
        }
        Page* p = page(address / 4 / kPageWords, false);
        return p ? &p->states[address / 4 % kPageWords] : nullptr;
    }

  private:
    static constexpr uint64_t kPageWords = 64;
    struct Page {
        std::array<AddressState, kPageWords> states{};
    };
    Page* page(uint64_t index, bool create) {
        if (index == cached_index_ && cached_ != nullptr) return cached_;
        auto it = pages_.find(index);
        if (it == pages_.end()) {
            if (!create) return nullptr;
            it = pages_.emplace(index, std::make_unique<Page>()).first;
        }
        cached_index_ = index;
        cached_ = it->second.get();
        return cached_;
    }
    std::unordered_map<uint64_t, std::unique_ptr<Page>, AddressHash> pages_;
    uint64_t cached_index_ = UINT64_MAX;
    Page* cached_ = nullptr;
    std::unordered_map<uint64_t, AddressState, AddressHash> odd_;
};

// The global words that some thread with a whole history stores to plainly (the stores an RMW
// ends with): only loads of these can begin an RMW, and only writes of these can overlap one. A
// kernel that reads arrays it never writes (the operands of a matrix product) keeps no pending load
// of them. Word-grained: an address that shares a word with a stored one is read as before.
class PlainlyStored {
  public:
    PlainlyStored(const trace::Trace& trace, const detail::WholeBlocks& whole) {
        for (const Event& e : trace.events)
            if (e.kind == EventKind::Store && e.space() == trace::Space::Global && plain(e) &&
                whole.thread(e.thread))
                words_.add(e.address, 1);
    }
    static bool plain(const Event& e) { return !e.is_volatile() && (e.flags & trace::flag::kOrdered) == 0; }

    bool contains(uint64_t address) { return words_.any(address, 1); }

  private:
    detail::WordSet words_;
};

// The loads of each thread that a later store of that thread may pair with, by address. Most
// threads hold a few at a time: a short list per thread, searched linearly (no hash lookup, which
// is a cache miss per access over millions of threads), its entries in one pool recycled through a
// free list (no allocation per thread); a thread that holds many (a loop over an array) moves to a
// map of its own.
class PendingLoads {
  public:
    explicit PendingLoads(size_t threads) : heads_(threads, kNone), counts_(threads, 0) {}

    PendingLoad* find(uint32_t thread, uint64_t address) {
        if (counts_[thread] > kListMax) {
            auto& map = many_[thread];
            const auto it = map.find(address);
            return it == map.end() ? nullptr : &it->second;
        }
        for (uint32_t i = heads_[thread]; i != kNone; i = pool_[i].next)
            if (pool_[i].address == address) return &pool_[i].load;
        return nullptr;
    }

    // Records `load` as the thread's latest load of `address`.
    void put(uint32_t thread, uint64_t address, const PendingLoad& load) {
        if (PendingLoad* slot = find(thread, address)) {
            *slot = load;
            return;
        }
        if (counts_[thread] > kListMax) {
            many_[thread].emplace(address, load);
            return;
        }
        if (counts_[thread] == kListMax) { // the list is long: move it to a map
            auto& map = many_[thread];
            for (uint32_t i = heads_[thread]; i != kNone; i = pool_[i].next)
                map.emplace(pool_[i].address, pool_[i].load);
            release_list(thread);
            map.emplace(address, load);
            counts_[thread] = kListMax + 1;
            return;
        }
        uint32_t entry;
        if (free_ != kNone) {
            entry = free_;
            free_ = pool_[entry].next;
        } else {
            entry = uint32_t(pool_.size());
            pool_.emplace_back();
        }
        pool_[entry] = Entry{address, load, heads_[thread]};
        heads_[thread] = entry;
        ++counts_[thread];
    }

    void erase(uint32_t thread, uint64_t address) {
        if (counts_[thread] > kListMax) {
            many_[thread].erase(address);
            return;
        }
        for (uint32_t* link = &heads_[thread]; *link != kNone; link = &pool_[*link].next) {
            const uint32_t i = *link;
            if (pool_[i].address != address) continue;
            *link = pool_[i].next;
            pool_[i].next = free_;
            free_ = i;
            --counts_[thread];
            return;
        }
    }

    // The thread exited: none of its loads pairs with anything any more.
    void clear(uint32_t thread) {
        if (counts_[thread] > kListMax) many_.erase(thread);
        release_list(thread);
        counts_[thread] = 0;
    }

  private:
    static constexpr uint32_t kNone = UINT32_MAX;
    static constexpr uint16_t kListMax = 16;
    struct Entry {
        uint64_t address = 0;
        PendingLoad load;
        uint32_t next = kNone;
    };

    void release_list(uint32_t thread) {
        uint32_t i = heads_[thread];
        while (i != kNone) {
            const uint32_t next = pool_[i].next;
            pool_[i].next = free_;
            free_ = i;
            i = next;
        }
        heads_[thread] = kNone;
    }

    std::vector<uint32_t> heads_;  // per thread: first entry of its list
    std::vector<uint16_t> counts_; // per thread: entries; kListMax + 1: the thread is in many_
    std::vector<Entry> pool_;
    uint32_t free_ = kNone;
    std::unordered_map<uint32_t, std::unordered_map<uint64_t, PendingLoad, AddressHash>> many_;
};

// One (load site, store site) finding being built.
struct Aggregate {
    uint16_t load_site = 0;
    uint16_t store_site = 0;
    uint64_t threads = 0;    // distinct threads per address, summed
    uint64_t overlapped = 0; // unsynchronised RMWs that overlapped
    uint64_t addresses = 0;
    bool example_overlapped = false;
    uint64_t address = 0;
    uint32_t first_thread = 0;
    uint32_t second_thread = 0;
};

// Marks each RMW of one address that some RMW of another thread leaves unsynchronised.
std::vector<uint8_t> unsynchronised(const trace::Trace& trace, const std::vector<Rmw>& rmws) {
    std::vector<uint8_t> out(rmws.size(), 0);
    const uint32_t block = trace.threads[rmws.front().thread].block;
    bool one_block = true;
    uint32_t distinct_thread = kNoThread; // some thread other than rmws[0]'s, if any
    for (const Rmw& r : rmws) {
        one_block = one_block && trace.threads[r.thread].block == block;
        if (r.thread != rmws.front().thread) distinct_thread = r.thread;
    }
    if (distinct_thread == kNoThread) return out; // one thread only
    if (!one_block) {
        // Every RMW has a partner in another block, and blocks are never ordered.
        std::fill(out.begin(), out.end(), 1);
        return out;
    }
    // One block: two RMWs are concurrent iff their epoch intervals [load, store] share an epoch.
    // Per epoch: a covering thread, and whether a second distinct thread covers it.
    std::map<uint32_t, std::pair<uint32_t, bool>> cover;
    for (const Rmw& r : rmws) {
        for (uint32_t e = r.load_epoch; e <= r.store_epoch; ++e) {
            auto [it, inserted] = cover.try_emplace(e, r.thread, false);
            if (!inserted && it->second.first != r.thread) it->second.second = true;
        }
    }
    for (size_t i = 0; i < rmws.size(); ++i) {
        for (uint32_t e = rmws[i].load_epoch; e <= rmws[i].store_epoch && !out[i]; ++e)
            out[i] = cover[e].second;
    }
    return out;
}

} // namespace

namespace detail {

LostUpdates lost_updates(const trace::Trace& trace, const Options& options) {
    LostUpdates result;
    const WholeBlocks whole(trace);
    PlainlyStored stored(trace, whole);
    BarrierClock clock(trace);
    // Dropped when a thread exits: a kernel that only reads would otherwise keep every load.
    PendingLoads pending(trace.threads.size());
    AddressStates addresses;
    std::vector<uint64_t> rmw_addresses;     // in order of first RMW
    std::vector<std::vector<Rmw>> rmw_lists; // parallel to rmw_addresses

    for (const Event& e : trace.events) {
        if (!whole.thread(e.thread)) continue;
        if (!e.is_memory_access()) {
            clock.observe(e);
            if (e.kind == EventKind::Exit) pending.clear(e.thread);
            continue;
        }
        if (e.space() != trace::Space::Global || !stored.contains(e.address)) continue;
        if (e.kind == EventKind::Load) {
            const AddressState* state = addresses.find(e.address);
            // The latest load pairs with the store.
            pending.put(e.thread, e.address,
                        PendingLoad{state ? state->writes : 0, clock.stamp(e.thread).epoch, 0, e.site});
            continue;
        }
        AddressState& state = addresses.at(e.address);
        PendingLoad* const load = pending.find(e.thread, e.address);
        if (e.kind == EventKind::Store) {
            const bool plain = PlainlyStored::plain(e);
            if (load != nullptr) {
                if (plain) {
                    Rmw rmw;
                    rmw.thread = e.thread;
                    rmw.load_site = load->site;
                    rmw.store_site = e.site;
                    rmw.load_epoch = load->epoch;
                    rmw.store_epoch = clock.stamp(e.thread).epoch;
                    rmw.overlapped = state.writes - load->writes_at_load > load->own_writes;
                    if (rmw.overlapped && state.last_writer != e.thread) rmw.overwritten = state.last_writer;
                    if (state.rmws < 0) {
                        state.rmws = int32_t(rmw_lists.size());
                        rmw_addresses.push_back(e.address);
                        rmw_lists.emplace_back();
                    }
                    rmw_lists[size_t(state.rmws)].push_back(rmw);
                }
                pending.erase(e.thread, e.address); // a store ends the RMW window, whatever its kind
            }
        } else if (load != nullptr) {
            ++load->own_writes; // T's own atomic on X between its load and its store
        }
        ++state.writes;
        state.last_writer = e.thread;
    }

    std::vector<Aggregate> aggregates;
    std::map<std::pair<uint16_t, uint16_t>, size_t> index;
    for (size_t a = 0; a < rmw_lists.size(); ++a) {
        const std::vector<Rmw>& rmws = rmw_lists[a];
        const std::vector<uint8_t> flagged = unsynchronised(trace, rmws);
        // Per site pair at this address: its unsynchronised RMWs.
        std::map<std::pair<uint16_t, uint16_t>, std::vector<size_t>> by_sites;
        for (size_t i = 0; i < rmws.size(); ++i) {
            if (!flagged[i]) continue;
            by_sites[{rmws[i].load_site, rmws[i].store_site}].push_back(i);
            result.accesses.add(rmw_addresses[a], rmws[i].thread, rmws[i].load_site);
            result.accesses.add(rmw_addresses[a], rmws[i].thread, rmws[i].store_site);
        }
        for (const auto& [sites, members] : by_sites) {
            auto [it, inserted] = index.try_emplace(sites, aggregates.size());
            if (inserted) aggregates.push_back(Aggregate{sites.first, sites.second});
            Aggregate& agg = aggregates[it->second];
            std::vector<uint32_t> threads;
            const Rmw* overlapped = nullptr;
            for (size_t i : members) {
                threads.push_back(rmws[i].thread);
                if (rmws[i].overlapped) {
                    ++agg.overlapped;
                    if (overlapped == nullptr && rmws[i].overwritten != kNoThread) overlapped = &rmws[i];
                }
            }
            std::sort(threads.begin(), threads.end());
            threads.erase(std::unique(threads.begin(), threads.end()), threads.end());
            agg.threads += threads.size();
            ++agg.addresses;
            // Example: the first address; replaced once by the first address with an overlap.
            if (agg.addresses == 1 || (!agg.example_overlapped && overlapped != nullptr)) {
                agg.address = rmw_addresses[a];
                if (overlapped != nullptr) {
                    agg.example_overlapped = true;
                    // The overwriting RMW's thread loaded first; the overwritten write is lost.
                    agg.first_thread = overlapped->thread;
                    agg.second_thread = overlapped->overwritten;
                } else {
                    agg.first_thread = rmws[members.front()].thread;
                    agg.second_thread = agg.first_thread;
                    for (size_t i : members) {
                        if (rmws[i].thread != agg.first_thread) {
                            agg.second_thread = rmws[i].thread;
                            break;
                        }
                    }
                }
            }
        }
    }

    result.accesses.seal();
    std::vector<Finding>& out = result.findings;
    for (const Aggregate& agg : aggregates) {
        Finding f;
        f.kind = FindingKind::LostUpdate;
        f.space = trace::Space::Global;
        add_line(f, trace, agg.load_site);
        add_line(f, trace, agg.store_site);
        f.threads = {agg.first_thread, agg.second_thread};
        f.count = agg.threads;
        f.check = "plain_read_modify_write";
        f.count_noun = "thread";
        f.lost = agg.overlapped;
        f.harmful = f.lost;
        f.address = agg.address;
        f.block = trace.threads[agg.first_thread].block;
        const bool many = agg.addresses > 1;
        name_memory(f, trace);
        f.text = "lost update on " + f.memory +
                 (many ? " and " + std::to_string(agg.addresses - 1) + " other address" +
                             (agg.addresses > 2 ? "es" : "")
                       : std::string()) +
                 ": threads read-modify-write " + (many ? "them" : "it") + " without an atomic (load " +
                 line_label(trace, agg.load_site) + ", store " + line_label(trace, agg.store_site) +
                 ") and nothing orders them; ";
        if (agg.example_overlapped) {
            f.text += "e.g. " + block_thread(trace, agg.first_thread) + " overwrote the update of " +
                      block_thread(trace, agg.second_thread);
        } else {
            f.text += "e.g. " + block_thread(trace, agg.first_thread) + " and " +
                      block_thread(trace, agg.second_thread);
        }
        render_message(f);
        out.push_back(std::move(f));
    }
    sort_and_cap(out, options.max_findings_per_kind);
    return result;
}

} // namespace detail
} // namespace synclab::analysis
