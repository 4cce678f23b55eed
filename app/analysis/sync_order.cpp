// Release/acquire happens-before and flag chains on global memory (see sync_order.h).
#include "analysis/sync_order.h"

#include <algorithm>

namespace synclab::analysis::detail {

using trace::Event;
using trace::EventKind;
using trace::Scope;

namespace {

bool is_global_access(const Event& e) {
    return e.is_memory_access() && e.space() == trace::Space::Global;
}

// Strong in the PTX sense: .volatile / .relaxed / .acquire / .release, and every atomic.
bool is_strong(const Event& e) {
    return e.is_atomic() || e.is_volatile();
}

bool is_ordered(const Event& e) {
    return (e.flags & trace::flag::kOrdered) != 0;
}

// A strong access's scope: the recorded one, else .sys for a load or store (.volatile is
// .relaxed.sys) and .gpu for an atomic or a fence (PTX's defaults).
Scope scope_of(const Event& e) {
    const Scope s = e.scope();
    if (s != Scope::None) return s;
    return e.is_atomic() || e.kind == EventKind::Fence ? Scope::Device : Scope::System;
}

bool is_wide(Scope s) {
    return s != Scope::Block;
}

// Whether an atomic's recorded value (operand b) is the value it writes: only an exchange.
bool writes_its_value(const trace::Trace& trace, const Event& e) {
    if (e.kind != EventKind::Atomic || e.site >= trace.sites.size()) return false;
    return trace.sites[e.site].text.find(".exch") != std::string::npos;
}

} // namespace

// [SECTION] Bounds

uint32_t Bounds::get(uint32_t key) const {
    const auto it = std::lower_bound(entries_.begin(), entries_.end(), key,
                                     [](const auto& entry, uint32_t k) { return entry.first < k; });
    return it != entries_.end() && it->first == key ? it->second : 0;
}

void Bounds::raise(uint32_t key, uint32_t bound) {
    const auto it = std::lower_bound(entries_.begin(), entries_.end(), key,
                                     [](const auto& entry, uint32_t k) { return entry.first < k; });
    if (it != entries_.end() && it->first == key) {
        it->second = std::max(it->second, bound);
    } else {
        entries_.insert(it, {key, bound});
    }
}

void Bounds::join(const Bounds& other) {
    if (other.entries_.empty()) return;
    if (entries_.empty()) {
        entries_ = other.entries_;
        return;
    }
    if (other.entries_.size() <= 4) { // a release's own entries: no new vector
        for (const auto& [key, bound] : other.entries_)
            raise(key, bound);
        return;
    }
    std::vector<std::pair<uint32_t, uint32_t>> out;
    out.reserve(entries_.size() + other.entries_.size());
    auto a = entries_.cbegin();
    auto b = other.entries_.cbegin();
    while (a != entries_.end() || b != other.entries_.end()) {
        if (b == other.entries_.end() || (a != entries_.end() && a->first < b->first)) {
            out.push_back(*a++);
        } else if (a == entries_.end() || b->first < a->first) {
            out.push_back(*b++);
        } else {
            out.emplace_back(a->first, std::max(a->second, b->second));
            ++a;
            ++b;
        }
    }
    entries_ = std::move(out);
}

// [SECTION] Setup

std::unique_ptr<SyncOrder> SyncOrder::make(const trace::Trace& trace) {
    // Under the relaxed model a read ordered by barriers alone must still be checked for an old
    // value (global_races.cpp, "ordered_read_stale").
    if (trace.meta.memory_model == "relaxed") return std::make_unique<SyncOrder>(trace);
    for (const Event& e : trace.events)
        if (e.kind == EventKind::Fence || (is_global_access(e) && is_strong(e)))
            return std::make_unique<SyncOrder>(trace);
    return nullptr;
}

SyncOrder::SyncOrder(const trace::Trace& trace)
    : trace_(trace), threads_(trace.threads.size()), lc_(trace.threads.size(), 0),
      wrote_(trace.threads.size(), 0), defer_(trace.meta.backend != "sim") {
    sites_.resize(trace.sites.size());
    for (const Event& e : trace.events) {
        if (!is_global_access(e) || e.site >= sites_.size()) continue;
        sites_[e.site].strong = is_strong(e);
        sites_[e.site].scope = scope_of(e);
    }
}

SyncOrder::ThreadState& SyncOrder::state(uint32_t thread) {
    std::unique_ptr<ThreadState>& s = threads_[thread];
    if (!s) s = std::make_unique<ThreadState>();
    return *s;
}

Snapshot SyncOrder::snapshot(const ThreadState& s, uint32_t thread, uint32_t epoch, uint32_t bound) const {
    auto k = std::make_shared<Knowledge>(s.known);
    k->threads.raise(thread, bound);
    k->blocks.raise(block_of(thread), epoch);
    return k;
}

Seen SyncOrder::writer_side(const ThreadState* s, uint32_t thread, const Event& e, uint32_t lc) const {
    Seen w;
    w.writer = thread;
    w.bound = lc;
    w.write_site = e.site;
    w.write_atomic = e.is_atomic();
    w.write_release = is_ordered(e);
    w.write_scope = scope_of(e);
    if (s) {
        w.fence_lc = s->fence_lc;
        w.fence_site = s->fence_site;
        w.fence_scope = s->fence_scope;
        w.wide_fence_lc = s->wide_fence_lc;
    }
    return w;
}

// [SECTION] Fences and barriers

void SyncOrder::fence(const Event& e, uint32_t epoch) {
    const uint32_t t = e.thread;
    ThreadState& s = state(t);
    const Scope scope = scope_of(e);
    const bool wide = is_wide(scope);
    // Acquire first: a fence.acq_rel that follows a read passes what it acquired on to the writes
    // after it (causality is transitive).
    s.known.join(s.pending_local);
    s.pending_local = Knowledge{};
    for (const PendingAtomic& p : s.pending_atomics)
        acquire_atomics(s, t, p, wide);
    if (wide) {
        s.known.join(s.pending_wide);
        s.pending_wide = Knowledge{};
        s.pending_atomics.clear();
    }
    // Only the thread that saw a flag can complete its acquire pattern (a fence in its own program
    // order); a chain that came through a barrier keeps what its reader did.
    for (Seen& seen : s.seen) {
        if (seen.reader != t) continue;
        if (seen.reader_fence_site == kNoSite) {
            seen.reader_fence_site = e.site;
            seen.reader_fence_scope = scope;
        }
        seen.reader_wide_fence = seen.reader_wide_fence || wide;
    }
    for (SeenAtomics& seen : s.seen_atomics) {
        if (seen.reader_side.reader != t) continue;
        if (seen.reader_side.reader_fence_site == kNoSite) {
            seen.reader_side.reader_fence_site = e.site;
            seen.reader_side.reader_fence_scope = scope;
        }
        seen.reader_side.reader_wide_fence = seen.reader_side.reader_wide_fence || wide;
    }
    // Then the release: the accesses before the fence (lc below the fence's) are what it orders.
    const uint32_t lc = ++lc_[t];
    const Snapshot snap = snapshot(s, t, epoch, lc);
    s.release_local = snap;
    if (wide) {
        s.release_wide = snap;
        s.wide_fence_lc = lc;
    }
    s.fence_lc = lc;
    s.fence_site = e.site;
    s.fence_scope = scope;
}

void SyncOrder::arrive(const Event& e) {
    ThreadState* s = threads_[e.thread].get();
    if (!s) return;
    // A barrier orders the block's accesses (the epochs do that); for what the thread acquired
    // from its own block, it acts as a fence.cta.
    s->known.join(s->pending_local);
    s->pending_local = Knowledge{};
    if (s->known.empty() && s->seen.empty() && s->seen_atomics.empty()) return;
    const PhaseKey key{block_of(e.thread), uint32_t(e.address), e.value};
    PhaseJoin& join = phases_[key];
    join.known.join(s->known);
    for (const Seen& seen : s->seen)
        add_seen(join.seen, seen);
    for (const SeenAtomics& seen : s->seen_atomics)
        add_seen_atomics(join.seen_atomics, seen);
}

void SyncOrder::leave(const Event& e, bool block_wide) {
    const PhaseKey key{block_of(e.thread), uint32_t(e.address), e.value};
    if (e.value > 0) phases_.erase(PhaseKey{key.block, key.id, e.value - 1}); // every leave of it is done
    if (!block_wide) return;
    const auto it = phases_.find(key);
    if (it == phases_.end()) return;
    ThreadState& s = state(e.thread);
    s.known.join(it->second.known);
    for (const Seen& seen : it->second.seen)
        add_seen(s.seen, seen);
    for (const SeenAtomics& seen : it->second.seen_atomics)
        add_seen_atomics(s.seen_atomics, seen);
}

// [SECTION] Accesses

uint32_t SyncOrder::access(const Event& e, uint32_t epoch) {
    const uint32_t t = e.thread;
    if (e.kind == EventKind::Load) {
        if (is_strong(e)) observe_load(e);
        return lc_[t];
    }
    if (e.is_atomic()) {
        atomic(e, epoch);
        return lc_[t];
    }
    wrote_[t] = 1;
    if (!is_strong(e)) return lc_[t];
    // A strong store: a message a strong load may read, releasing what the thread's newest fence
    // (or the store itself, when it is st.release) orders.
    const uint32_t lc = ++lc_[t];
    Message m;
    m.writer = t;
    m.lc = lc;
    m.site = e.site;
    m.value = e.value;
    m.value_known = true;
    const ThreadState* s = threads_[t].get();
    if (is_ordered(e)) {
        const Snapshot snap = snapshot(state(t), t, epoch, lc);
        s = threads_[t].get();
        m.release_local = snap;
        if (is_wide(scope_of(e))) m.release_wide = snap;
    } else if (s) {
        m.release_local = s->release_local;
        m.release_wide = s->release_wide;
    }
    m.writer_side = writer_side(s, t, e, lc);
    AddressState& a = addresses_[e.address];
    std::deque<Message>& recent = a.recent;
    if (recent.size() >= kRecent) recent.pop_front();
    recent.push_back(std::move(m));
    resolve(a, recent.back());
    return lc;
}

void SyncOrder::atomic(const Event& e, uint32_t epoch) {
    const uint32_t t = e.thread;
    const uint32_t block = block_of(t);
    AddressState& a = addresses_[e.address];
    const uint32_t position = a.atomics++;
    const uint32_t lc = ++lc_[t];
    const bool ordered = is_ordered(e);
    const Scope scope = scope_of(e);

    // The write half's release (taken before the read half acquires: what it acquires comes
    // after it).
    Message m;
    m.writer = t;
    m.lc = lc;
    m.site = e.site;
    m.value = e.value;
    m.value_known = writes_its_value(trace_, e);
    m.atomic = true;
    m.position = position;
    if (ordered) {
        const Snapshot snap = snapshot(state(t), t, epoch, lc);
        m.release_local = snap;
        if (is_wide(scope)) m.release_wide = snap;
    } else if (const ThreadState* s = threads_[t].get()) {
        m.release_local = s->release_local;
        m.release_wide = s->release_wide;
    }
    if (m.release_wide) a.releases.push_back(Contribution{position, block, true, m.release_wide});
    if (m.release_local && m.release_local != m.release_wide) {
        a.releases.push_back(Contribution{position, block, false, m.release_local});
        a.local_releases.push_back(a.releases.back());
    }
    m.writer_side = writer_side(threads_[t].get(), t, e, lc);

    // The read half observes every earlier atomic of the address (atom; red only writes).
    if (e.kind == EventKind::Atomic && position > 0) {
        const PendingAtomic p{e.address, position};
        if (!a.releases.empty() && a.releases.front().position < position) {
            ThreadState& s = state(t);
            if (ordered) {
                acquire_atomics(s, t, p, is_wide(scope));
            } else {
                add_pending(s, p);
            }
        }
        if (!a.records.empty()) {
            SeenAtomics seen{e.address, position, Seen{}};
            seen.reader_side.reader = t;
            seen.reader_side.read_site = e.site;
            seen.reader_side.read_atomic = true;
            seen.reader_side.read_acquire = ordered;
            seen.reader_side.read_scope = scope;
            add_seen_atomics(state(t).seen_atomics, seen);
        }
    }
    // A flag chain can start here only if the thread wrote global memory before.
    if (wrote_[t]) {
        a.records[t].push_back(AtomicRecord{lc, position, m.writer_side});
        wrote_[t] = 0;
    }
    std::deque<Message>& recent = a.recent;
    if (recent.size() >= kRecent) recent.pop_front();
    recent.push_back(std::move(m));
    resolve(a, recent.back());
}

void SyncOrder::observe_load(const Event& e) {
    auto found = addresses_.find(e.address);
    if (found == addresses_.end()) {
        if (!defer_ || e.value == 0) return; // 0: the value before the launch
        found = addresses_.try_emplace(e.address).first;
    }
    AddressState& a = found->second;
    const Message* m = nullptr;
    for (size_t i = a.recent.size(); i-- > 0;) {
        const Message& candidate = a.recent[i];
        if (candidate.value_known ? candidate.value == e.value : i + 1 == a.recent.size()) {
            m = &candidate;
            break;
        }
    }
    if (m == nullptr) {
        if (!defer_ || (a.recent.empty() && e.value == 0)) return;
        const Unresolved u{e.thread, e.site, e.value, e.flags};
        for (Unresolved& w : a.unresolved)
            if (w.reader == e.thread) {
                w = u; // a thread's newer load stands for its older one
                return;
            }
        if (a.unresolved.size() >= kRecent) a.unresolved.erase(a.unresolved.begin());
        a.unresolved.push_back(u);
        return;
    }
    observe(e, a, *m);
}

void SyncOrder::resolve(AddressState& a, const Message& m) {
    if (a.unresolved.empty()) return;
    std::vector<Unresolved> waiting;
    waiting.swap(a.unresolved);
    for (const Unresolved& u : waiting) {
        if (!m.value_known || u.value != m.value) continue;
        Event e;
        e.kind = EventKind::Load;
        e.thread = u.reader;
        e.site = uint16_t(u.site);
        e.value = u.value;
        e.flags = u.flags;
        observe(e, a, m);
    }
}

void SyncOrder::observe(const Event& e, AddressState& a, const Message& message) {
    const Message* m = &message;
    const uint32_t t = e.thread;
    if (m->writer == t) return;
    const uint32_t rb = block_of(t), wb = block_of(m->writer);
    const bool ordered = is_ordered(e);
    const Scope read_scope = scope_of(e);
    ThreadState& s = state(t);

    Seen seen = m->writer_side;
    seen.reader = t;
    seen.read_site = e.site;
    seen.read_acquire = ordered;
    seen.read_scope = read_scope;
    add_seen(s.seen, seen);

    const bool morally_strong =
        scope_includes(m->writer_side.write_scope, wb, rb) && scope_includes(read_scope, rb, wb);
    if (!morally_strong) return;
    if (m->atomic && m == &a.recent.back() && !a.releases.empty()) {
        // The newest atomic: it carries the releases of every atomic before it too.
        const PendingAtomic p{e.address, m->position + 1};
        if (ordered) {
            acquire_atomics(s, t, p, is_wide(read_scope));
        } else {
            add_pending(s, p); // a spin on the counter keeps one entry
        }
        return;
    }
    const Snapshot& snap = rb == wb ? m->release_local : m->release_wide;
    if (!snap) return;
    if (ordered) {
        s.known.join(*snap);
    } else {
        (rb == wb ? s.pending_local : s.pending_wide).join(*snap);
    }
}

void SyncOrder::acquire_atomics(ThreadState& s, uint32_t thread, const PendingAtomic& p, bool wide) {
    const auto found = addresses_.find(p.address);
    if (found == addresses_.end()) return;
    AddressState& a = found->second;
    const uint32_t block = block_of(thread);
    if (!wide || p.position < a.wide_upto) {
        // Any fence acquires the releases of the thread's own block; an older position than the
        // running join's needs the releases one by one.
        for (const Contribution& c : a.releases) {
            if (c.position >= p.position) break;
            if (c.block == block || (c.wide && wide)) s.known.join(*c.release);
        }
        return;
    }
    while (a.wide_index < a.releases.size() && a.releases[a.wide_index].position < p.position) {
        const Contribution& c = a.releases[a.wide_index++];
        if (c.wide) a.wide_prefix.join(*c.release);
    }
    a.wide_upto = p.position;
    s.known.join(a.wide_prefix);
    for (const Contribution& c : a.local_releases) {
        if (c.position >= p.position) break;
        if (c.block == block) s.known.join(*c.release);
    }
}

void SyncOrder::add_pending(ThreadState& s, const PendingAtomic& p) {
    for (PendingAtomic& q : s.pending_atomics)
        if (q.address == p.address) {
            q.position = std::max(q.position, p.position);
            return;
        }
    s.pending_atomics.push_back(p);
}

void SyncOrder::add_seen(std::vector<Seen>& into, const Seen& seen) {
    const auto it = std::lower_bound(into.begin(), into.end(), seen.writer,
                                     [](const Seen& s, uint32_t writer) { return s.writer < writer; });
    if (it != into.end() && it->writer == seen.writer) {
        // The newer write stands for the older (it follows more of the writer's accesses); an
        // equal one keeps the first read, whose fences after it are recorded.
        if (seen.bound > it->bound) *it = seen;
        return;
    }
    into.insert(it, seen);
}

void SyncOrder::add_seen_atomics(std::vector<SeenAtomics>& into, const SeenAtomics& seen) {
    for (SeenAtomics& s : into) {
        if (s.address != seen.address) continue;
        if (seen.position > s.position) s = seen;
        return;
    }
    into.push_back(seen);
}

// [SECTION] Queries

bool SyncOrder::knows(uint32_t thread, const SyncStamp& earlier) const {
    const ThreadState* s = find_state(thread);
    return s != nullptr && s->known.covers(earlier);
}

bool SyncOrder::knows_something(uint32_t thread) const {
    const ThreadState* s = find_state(thread);
    return s != nullptr && !s->known.empty();
}

std::optional<Seen> SyncOrder::chain(uint32_t thread, const SyncStamp& earlier) const {
    const ThreadState* s = find_state(thread);
    if (s == nullptr) return std::nullopt;
    const auto it = std::lower_bound(s->seen.begin(), s->seen.end(), earlier.thread,
                                     [](const Seen& seen, uint32_t writer) { return seen.writer < writer; });
    if (it != s->seen.end() && it->writer == earlier.thread && it->bound > earlier.lc) return *it;
    for (const SeenAtomics& seen : s->seen_atomics) {
        const auto a = addresses_.find(seen.address);
        if (a == addresses_.end()) continue;
        const auto records = a->second.records.find(earlier.thread);
        if (records == a->second.records.end()) continue;
        const auto first_after =
            std::upper_bound(records->second.begin(), records->second.end(), earlier.lc,
                             [](uint32_t lc, const AtomicRecord& r) { return lc < r.lc; });
        if (first_after == records->second.end() || first_after->position >= seen.position) continue;
        Seen out = first_after->writer_side;
        const Seen& r = seen.reader_side;
        out.reader = r.reader;
        out.read_site = r.read_site;
        out.read_atomic = true;
        out.read_acquire = r.read_acquire;
        out.read_scope = r.read_scope;
        out.reader_fence_site = r.reader_fence_site;
        out.reader_fence_scope = r.reader_fence_scope;
        out.reader_wide_fence = r.reader_wide_fence;
        return out;
    }
    return std::nullopt;
}

void synchronise(const trace::Event& e, BarrierClock& clock, SyncOrder& sync) {
    switch (e.kind) {
    case trace::EventKind::Fence:
        sync.fence(e, clock.stamp(e.thread).epoch);
        break;
    case trace::EventKind::BarrierArrive:
        sync.arrive(e);
        clock.observe(e);
        break;
    case trace::EventKind::BarrierLeave: {
        const uint32_t before = clock.stamp(e.thread).epoch;
        clock.observe(e);
        sync.leave(e, clock.stamp(e.thread).epoch != before);
        break;
    }
    default:
        clock.observe(e);
        break;
    }
}

} // namespace synclab::analysis::detail
