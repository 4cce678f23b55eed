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
// summed over the addresses (a thread counts once per address). The message also gives how many
// of those RMWs overlapped, and an example (preferably an overlapped one: the thread whose update
// was lost comes second in `threads`).
#include "analysis/detail.h"
#include "analysis/happens_before.h"

#include <algorithm>
#include <map>
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
    uint16_t site = 0;
    uint32_t epoch = 0;
    uint64_t writes_at_load = 0; // the address's write counter at the load
    uint64_t own_writes = 0;     // T's own atomic writes of the address since the load
};

struct AddressState {
    uint64_t writes = 0;
    uint32_t last_writer = kNoThread;
    int64_t rmws = -1; // index into the RMW lists, -1: none yet
};

struct ThreadAddress {
    uint32_t thread;
    uint64_t address;
    bool operator==(const ThreadAddress&) const = default;
};
struct ThreadAddressHash {
    size_t operator()(const ThreadAddress& k) const {
        return std::hash<uint64_t>{}((k.address * 0x9e3779b97f4a7c15ull) ^ k.thread);
    }
};

// One (load site, store site) finding being built.
struct Aggregate {
    uint16_t load_site = 0;
    uint16_t store_site = 0;
    uint64_t threads = 0;    // distinct threads per address, summed
    uint64_t rmws = 0;       // unsynchronised RMWs
    uint64_t overlapped = 0; // of them, overlapped
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

std::string who(const trace::Trace& trace, uint32_t thread) {
    const trace::ThreadInfo& info = trace.threads[thread];
    return "block " + std::to_string(info.block) + " thread " + std::to_string(info.thread_in_block);
}

} // namespace

std::vector<Finding> find_lost_updates(const trace::Trace& trace, const Options& options) {
    detail::BarrierClock clock(trace);
    std::unordered_map<ThreadAddress, PendingLoad, ThreadAddressHash> pending;
    // Addresses each thread put into `pending`, so that its loads are dropped when it exits (a
    // kernel that only reads would otherwise keep every load to the end).
    std::vector<std::vector<uint64_t>> pending_of(trace.threads.size());
    std::unordered_map<uint64_t, AddressState> addresses;
    std::vector<uint64_t> rmw_addresses;     // in order of first RMW
    std::vector<std::vector<Rmw>> rmw_lists; // parallel to rmw_addresses

    for (const Event& e : trace.events) {
        if (e.thread >= trace.threads.size()) continue;
        if (!e.is_memory_access()) {
            clock.observe(e);
            if (e.kind == EventKind::Exit) {
                for (uint64_t address : pending_of[e.thread])
                    pending.erase(ThreadAddress{e.thread, address});
                std::vector<uint64_t>().swap(pending_of[e.thread]);
            }
            continue;
        }
        if (e.space() != trace::Space::Global) continue;
        const ThreadAddress key{e.thread, e.address};
        if (e.kind == EventKind::Load) {
            const auto it = addresses.find(e.address);
            const PendingLoad load{e.site, clock.stamp(e.thread).epoch,
                                   it == addresses.end() ? 0 : it->second.writes, 0};
            auto [slot, inserted] = pending.try_emplace(key, load);
            if (inserted) {
                pending_of[e.thread].push_back(e.address);
            } else {
                slot->second = load; // the latest load pairs with the store
            }
            continue;
        }
        AddressState& state = addresses[e.address];
        const auto load = pending.find(key);
        if (e.kind == EventKind::Store) {
            const bool plain = !e.is_volatile() && (e.flags & trace::flag::kOrdered) == 0;
            if (load != pending.end()) {
                if (plain) {
                    Rmw rmw;
                    rmw.thread = e.thread;
                    rmw.load_site = load->second.site;
                    rmw.store_site = e.site;
                    rmw.load_epoch = load->second.epoch;
                    rmw.store_epoch = clock.stamp(e.thread).epoch;
                    rmw.overlapped = state.writes - load->second.writes_at_load > load->second.own_writes;
                    if (rmw.overlapped && state.last_writer != e.thread) rmw.overwritten = state.last_writer;
                    if (state.rmws < 0) {
                        state.rmws = int64_t(rmw_lists.size());
                        rmw_addresses.push_back(e.address);
                        rmw_lists.emplace_back();
                    }
                    rmw_lists[size_t(state.rmws)].push_back(rmw);
                }
                pending.erase(load); // a store ends the RMW window, whatever its kind
            }
        } else if (load != pending.end()) {
            ++load->second.own_writes; // T's own atomic on X between its load and its store
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
            if (flagged[i]) by_sites[{rmws[i].load_site, rmws[i].store_site}].push_back(i);
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
            agg.rmws += members.size();
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

    std::vector<Finding> out;
    for (const Aggregate& agg : aggregates) {
        Finding f;
        f.kind = FindingKind::LostUpdate;
        f.space = trace::Space::Global;
        detail::add_line(f, trace, agg.load_site);
        detail::add_line(f, trace, agg.store_site);
        f.threads = {agg.first_thread, agg.second_thread};
        f.count = agg.threads;
        f.address = agg.address;
        f.block = trace.threads[agg.first_thread].block;
        const bool many = agg.addresses > 1;
        f.message = "lost update on global " + detail::hex(agg.address) +
                    (many ? " and " + std::to_string(agg.addresses - 1) + " other address" +
                                (agg.addresses > 2 ? "es" : "")
                          : std::string()) +
                    ": " + std::to_string(agg.threads) + " threads read-modify-write " +
                    (many ? "them" : "it") + " without an atomic (load " +
                    detail::line_label(trace, agg.load_site) + ", store " +
                    detail::line_label(trace, agg.store_site) + "); ";
        if (agg.overlapped > 0) {
            f.message += std::to_string(agg.overlapped) + " of those " + std::to_string(agg.rmws) +
                         " updates overlapped another thread's and were lost";
            if (agg.example_overlapped) {
                f.message += ", e.g. " + who(trace, agg.first_thread) + " overwrote the update of " +
                             who(trace, agg.second_thread);
            }
        } else {
            f.message += "none of those " + std::to_string(agg.rmws) +
                         " updates overlapped in this run, but nothing orders them (e.g. " +
                         who(trace, agg.first_thread) + " and " + who(trace, agg.second_thread) + ")";
        }
        out.push_back(std::move(f));
    }
    detail::sort_and_cap(out, options.max_findings_per_kind);
    return out;
}

} // namespace synclab::analysis
