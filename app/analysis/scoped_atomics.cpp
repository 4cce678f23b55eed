// Scope races on global memory (check "scope_race"): two strong accesses of threads of different
// blocks, at least one of them a write, that nothing orders, and that are not morally strong
// because one of them has block scope (.cta: atomicAdd_block(), __nv_atomic_*(...,
// __NV_THREAD_SCOPE_BLOCK), cuda::atomic_ref<T, cuda::thread_scope_block>, ld/st.relaxed.cta).
//
// Why (PTX ISA, "Memory Consistency Model": scope, morally strong, atomicity): two operations are
// morally strong only if both are strong and each one's scope includes the other's thread. A .cta
// access includes the threads of its own block only, so a block-scope atomic is atomic with respect
// to the atomics of its own block and nobody else's: two blocks' atom.cta.add on one counter may
// both read the same old value, and one update is lost. Mixing scopes does not help: a .cta atomic
// of block 0 and a .gpu atomic of block 1 are not morally strong either (the .cta one's scope
// leaves block 1 out). The fix is device scope on every access that other blocks share (atomicAdd(),
// cuda::thread_scope_device), or a counter per block, which block scope serves well.
//
// Which pairs. Global memory only (an access through a generic address counts once it resolved to
// global: the trace records the space it reached). Shared memory is per block: a block's threads are
// the only ones that can reach its shared variables, so every scope (.cta, .cluster, .gpu) includes
// every other thread that touches them. Strong accesses only: a pair with a plain (weak) access is a
// race whatever the scopes, and the global race analysis reports it (global_races.cpp), which in
// turn leaves every pair of two strong accesses to this check (morally strong: no race; scope too
// narrow: here). Counting follows the global race analysis: WAW once per write and the strong write
// it overwrites (an atomic is a write), RAW once per strong read and the strong write it follows,
// WAR once per (reader, read site) since that write and the write that follows them.
//
// Ordering: a pair that happens-before orders (release/acquire through fences, flags and atomics of
// a wide enough scope: sync_order.h; a barrier orders threads of one block only) does not race: a
// block-scope counter that blocks hand over to each other in turn, properly synchronised, is fine.
//
// Harm: an atomic's event records its operand, not the value it read, so the trace cannot show
// whether an update was lost; the sequentially consistent simulator keeps every atomic indivisible
// and the relaxed one may not (relaxed_memory.h). The finding's harmful count stays 0 and its message
// says how many pairs there were; the wrong outputs say whether updates were lost.
//
// Cost: a pass over the events with its own barrier clocks and SyncOrder, only for traces that have a
// block-scope strong access to global memory (a scan finds out first); its state is one small list
// per word those accesses touch.
#include "analysis/detail.h"
#include "analysis/happens_before.h"
#include "analysis/sync_order.h"
#include "trace/text_format.h"

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <tuple>
#include <unordered_map>

namespace synclab::analysis {

using trace::Event;
using trace::Scope;

namespace {

constexpr uint32_t kWordBytes = 4;

bool is_strong(const Event& e) {
    return e.is_atomic() || e.is_volatile();
}

// The strong access's scope as PTX defines it: the recorded one, else .gpu for an atomic and .sys
// for a .volatile load or store (sync_order.h, "Strong access").
Scope scope_of(const Event& e) {
    const Scope s = e.scope();
    if (s != Scope::None) return s;
    return e.is_atomic() ? Scope::Device : Scope::System;
}

bool global_strong(const Event& e) {
    return e.is_memory_access() && e.space() == trace::Space::Global && is_strong(e);
}

// One strong access as the shadow state keeps it.
struct Access {
    uint32_t thread = 0;
    uint32_t block = 0;
    uint32_t epoch = 0;
    uint32_t lc = 0;
    uint16_t site = 0;
    uint8_t mask = 0; // bytes of the word it covers
    Scope scope = Scope::None;
    trace::EventKind kind = trace::EventKind::Load;
};

// A word's last strong writes (by the bytes they still own) and the strong reads since.
struct Word {
    std::vector<Access> writes;
    std::vector<Access> reads;
};

// The racing pairs of one (hazard, earlier site, later site): the first pair is the example.
struct Aggregate {
    Hazard hazard = Hazard::None;
    Access first, second;
    uint64_t address = 0;
    uint64_t count = 0;
    std::set<uint32_t> blocks;
};

const char* scope_words(Scope s) {
    switch (s) {
    case Scope::Block:
        return "block scope (.cta)";
    case Scope::System:
        return "system scope (.sys)";
    case Scope::Device:
    case Scope::None:
        break;
    }
    return "device scope (.gpu)";
}

// "updates it with an atomic of block scope (.cta)", "reads it with a load of device scope (.gpu)".
std::string what_it_does(const Access& a) {
    switch (a.kind) {
    case trace::EventKind::Atomic:
    case trace::EventKind::Reduction:
        return std::string("updates it with an atomic of ") + scope_words(a.scope);
    case trace::EventKind::Store:
        return std::string("writes it with a store of ") + scope_words(a.scope);
    default:
        break;
    }
    return std::string("reads it with a load of ") + scope_words(a.scope);
}

bool is_atomic(const Access& a) {
    return a.kind == trace::EventKind::Atomic || a.kind == trace::EventKind::Reduction;
}

class ScopeChecker {
  public:
    explicit ScopeChecker(const trace::Trace& trace)
        : trace_(trace), whole_(trace), clock_(trace), sync_(std::make_unique<detail::SyncOrder>(trace)) {}

    void run() {
        for (const Event& e : trace_.events) {
            if (!whole_.thread(e.thread)) continue;
            if (!e.is_memory_access()) {
                synchronise(e);
                continue;
            }
            if (e.space() == trace::Space::Global) access(e);
        }
    }

    std::vector<Finding> findings(const Options& options) const {
        std::vector<Finding> out;
        out.reserve(aggregates_.size());
        for (const Aggregate& a : aggregates_)
            out.push_back(finding(a));
        detail::sort_and_cap(out, options.max_findings_per_kind);
        return out;
    }

  private:
    // As global_races.cpp feeds them: barriers to both clocks, fences to the SyncOrder.
    void synchronise(const Event& e) { detail::synchronise(e, clock_, *sync_); }

    // Whether `earlier` (another block's) happens before the current point of `thread`.
    bool ordered(const Access& earlier, uint32_t thread) const {
        return sync_->knows(thread,
                            detail::SyncStamp{earlier.thread, earlier.block, earlier.epoch, earlier.lc});
    }

    // Of another block, unordered, not morally strong with `now` (which one's scope leaves the
    // other's block out).
    bool races(const Access& earlier, const Access& now) const {
        if (earlier.block == now.block) return false;
        if (detail::scope_includes(earlier.scope, earlier.block, now.block) &&
            detail::scope_includes(now.scope, now.block, earlier.block))
            return false;
        return !ordered(earlier, now.thread);
    }

    void access(const Event& e) {
        const uint32_t epoch = clock_.stamp(e.thread).epoch;
        const bool writes = e.writes_memory();
        // As global_races.cpp: a write enters the SyncOrder first, a read after its checks.
        const uint32_t lc = writes ? sync_->access(e, epoch) : sync_->lc(e.thread);
        if (is_strong(e)) check(e, epoch, lc, writes);
        if (!writes) sync_->access(e, epoch);
    }

    void check(const Event& e, uint32_t epoch, uint32_t lc, bool writes) {
        Access now;
        now.thread = e.thread;
        now.block = trace_.threads[e.thread].block;
        now.epoch = epoch;
        now.lc = lc;
        now.site = e.site;
        now.scope = scope_of(e);
        now.kind = e.kind;
        const uint64_t begin = e.address, end = e.address + e.size();
        for (uint64_t word = begin / kWordBytes; word * kWordBytes < end; ++word) {
            const uint64_t base = word * kWordBytes;
            uint8_t mask = 0;
            for (uint64_t b = std::max(begin, base); b < std::min(end, base + kWordBytes); ++b)
                mask |= uint8_t(1u << (b - base));
            now.mask = mask;
            Word& w = words_[word];
            for (const Access& earlier : w.writes)
                if ((earlier.mask & mask) && races(earlier, now))
                    record(writes ? Hazard::WAW : Hazard::RAW, earlier, now, e.address);
            if (!writes) {
                const auto same = std::find_if(w.reads.begin(), w.reads.end(), [&](const Access& r) {
                    return r.thread == now.thread && r.site == now.site;
                });
                if (same != w.reads.end()) {
                    same->mask |= mask;
                    same->epoch = now.epoch; // the newer read stands for both
                    same->lc = now.lc;
                } else {
                    w.reads.push_back(now);
                }
                continue;
            }
            for (const Access& reader : w.reads)
                if ((reader.mask & mask) && races(reader, now)) record(Hazard::WAR, reader, now, e.address);
            // The write owns its bytes now: older writes and reads keep only the others.
            auto trim = [mask](std::vector<Access>& list) {
                for (Access& a : list)
                    a.mask = uint8_t(a.mask & ~mask);
                list.erase(
                    std::remove_if(list.begin(), list.end(), [](const Access& a) { return a.mask == 0; }),
                    list.end());
            };
            trim(w.writes);
            trim(w.reads);
            w.writes.push_back(now);
        }
    }

    // One racing pair; a pair over two words of one 8-byte access counts once (its second word
    // finds the same aggregate with the same two accesses). Two writes race the same way in either
    // order (a .cta atomic then a .gpu one, or the other way round): their pairs make one finding,
    // whose example runs in program order where some pair did.
    void record(Hazard hazard, const Access& first, const Access& second, uint64_t address) {
        const bool in_order = !detail::program_before(trace_, second.site, first.site);
        const auto key = hazard == Hazard::WAW && !in_order
                             ? std::make_tuple(hazard, second.site, first.site)
                             : std::make_tuple(hazard, first.site, second.site);
        auto [it, inserted] = index_.try_emplace(key, aggregates_.size());
        if (inserted) aggregates_.push_back(Aggregate{hazard, first, second, address, 0, {}});
        Aggregate& a = aggregates_[it->second];
        if (!inserted && in_order && detail::program_before(trace_, a.second.site, a.first.site)) {
            a.first = first;
            a.second = second;
            a.address = address;
        }
        const auto pair = std::make_tuple(first.thread, first.lc, second.thread, second.lc, second.site);
        if (pair == last_pair_ && it->second == last_aggregate_) return;
        last_pair_ = pair;
        last_aggregate_ = it->second;
        ++a.count;
        a.blocks.insert(first.block);
        a.blocks.insert(second.block);
    }

    Finding finding(const Aggregate& a) const {
        Finding f;
        f.kind = FindingKind::Race;
        f.check = "scope_race";
        f.hazard = a.hazard;
        f.space = trace::Space::Global;
        detail::add_line(f, trace_, a.first.site);
        detail::add_line(f, trace_, a.second.site);
        f.threads = {a.first.thread, a.second.thread};
        f.count = a.count;
        f.harmful = 0; // see the header: the trace cannot show a lost update
        f.count_noun = "racing access pair";
        f.address = a.address;
        f.block = a.first.block;
        detail::name_memory(f, trace_);

        const std::string first = detail::block_thread(trace_, a.first.thread);
        const std::string second = detail::block_thread(trace_, a.second.thread);
        const std::string first_at = detail::line_label(trace_, a.first.site);
        const std::string second_at = detail::line_label(trace_, a.second.site);
        const bool atomics = is_atomic(a.first) && is_atomic(a.second);
        std::string who;
        if (atomics && a.first.scope == a.second.scope && first_at == second_at) {
            who = second + " and " + first + " at " + second_at + " both update it with atomics of " +
                  scope_words(a.second.scope);
        } else {
            who = second + " at " + second_at + " " + what_it_does(a.second) + ", " + first + " at " +
                  first_at + " " + what_it_does(a.first);
        }
        // Which of the two has the narrow scope (both may).
        std::string why;
        if (a.first.scope == Scope::Block && a.second.scope == Scope::Block) {
            const std::vector<uint32_t> blocks(a.blocks.begin(), a.blocks.end());
            why = "block scope makes an access atomic and ordered only among the threads of its own block, "
                  "not between " +
                  detail::noun_list("block", blocks);
        } else {
            const Access& narrow = a.second.scope == Scope::Block ? a.second : a.first;
            why = "block scope makes the one at " + detail::line_label(trace_, narrow.site) +
                  " atomic and ordered only among the threads of block " + std::to_string(narrow.block);
        }
        std::string harm;
        if (atomics)
            harm = ": an update can be lost";
        else if (a.hazard == Hazard::RAW)
            harm = ": the load can read an old value";
        else if (a.hazard == Hazard::WAW)
            harm = ": a write can be lost";
        else
            harm = ": the two are not ordered";
        f.text = std::string(to_string(a.hazard)) + " hazard on " + f.memory + ", a scope race: " + who +
                 "; " + why + harm +
                 "; use device scope for both (atomicAdd(), cuda::thread_scope_device), or keep block scope "
                 "for memory that one block alone uses";
        render_message(f);
        return f;
    }

    const trace::Trace& trace_;
    detail::WholeBlocks whole_;
    detail::BarrierClock clock_;
    std::unique_ptr<detail::SyncOrder> sync_;
    std::unordered_map<uint64_t, Word> words_; // word index -> its strong accesses
    std::map<std::tuple<Hazard, uint16_t, uint16_t>, size_t> index_;
    std::vector<Aggregate> aggregates_;
    std::tuple<uint32_t, uint32_t, uint32_t, uint32_t, uint16_t> last_pair_{UINT32_MAX, 0, 0, 0, 0};
    size_t last_aggregate_ = SIZE_MAX;
};

} // namespace

std::vector<Finding> find_scope_races(const trace::Trace& trace, const Options& options) {
    const detail::WholeBlocks whole(trace);
    const bool narrow = std::any_of(trace.events.begin(), trace.events.end(), [&](const Event& e) {
        return global_strong(e) && e.scope() == Scope::Block && whole.thread(e.thread);
    });
    if (!narrow) return {};
    ScopeChecker checker(trace);
    checker.run();
    return checker.findings(options);
}

} // namespace synclab::analysis
