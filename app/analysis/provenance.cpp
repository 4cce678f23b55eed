// explain_output(): the provenance of one output value (provenance.h).
//
// Pass 1 (backwards) finds the store S that left the final value and its thread T. Pass 2 collects
// the bytes T loaded before S. Pass 3 replays the trace in order with the barrier clock, keeping for
// each of those bytes its last write, whether that write changed the byte, and the byte's value now
// (as the race analyses' value shadow does), and judges each load L of T before S:
//   TooEarly    at L: the last write W of its bytes is another thread's, unordered with L, comes
//               later in the program than L, and changed the value;
//   OldValue    at a later write W of another thread, unordered with L, that comes earlier in the
//               program than L: the values of L and W differ;
//   Overwritten at such a write W between L and S that does not come earlier in the program (the
//               store of another thread's read-modify-write), where L overlaps S: the values differ.
// A byte the trace does not know (findings.h, "Harm") cannot show a pair harmless: where no byte
// can be compared the load counts as stale.
#include "analysis/provenance.h"

#include "trace/value_format.h"

#include "analysis/detail.h"
#include "analysis/happens_before.h"

#include <algorithm>
#include <initializer_list>
#include <string>
#include <unordered_map>

namespace synclab::analysis {

using trace::Event;

const char* to_string(Staleness staleness) {
    switch (staleness) {
    case Staleness::OldValue:
        return "old_value";
    case Staleness::TooEarly:
        return "too_early";
    case Staleness::Overwritten:
        return "overwritten";
    }
    return "unknown";
}

namespace {

struct Stamp {
    uint32_t thread = 0;
    uint32_t block = 0;
    uint32_t epoch = 0;
};

// Whether the earlier access `a` happens before the later `b` (the global race analysis's rule).
bool ordered(const Stamp& a, const Stamp& b) {
    return a.thread == b.thread || (a.block == b.block && a.epoch != b.epoch);
}

bool overlaps(const Event& a, const Event& b) {
    return a.address < b.address + b.size() && b.address < a.address + a.size();
}

// The values of `a` and `b` over the bytes both cover.
detail::Comparison compare_values(const Event& a, const Event& b) {
    detail::Comparison c;
    const uint64_t begin = std::max(a.address, b.address);
    const uint64_t end = std::min(a.address + a.size(), b.address + b.size());
    for (uint64_t x = begin; x < end; ++x) {
        uint8_t va = 0, vb = 0;
        if (detail::value_byte(a, x, va) && detail::value_byte(b, x, vb))
            (va != vb ? c.differs : c.same) = true;
    }
    return c;
}

struct ByteKey {
    uint64_t address = 0;
    uint32_t block = 0; // shared memory: the block whose window it is in; global: 0
    trace::Space space = trace::Space::Global;
    bool operator==(const ByteKey&) const = default;
};
struct ByteKeyHash {
    size_t operator()(const ByteKey& k) const {
        return detail::mix(k.address ^ (uint64_t(k.block) << 40) ^ (uint64_t(k.space) << 62));
    }
};

struct ByteState {
    uint64_t last_write = kNoEvent;
    Stamp writer;
    detail::Comparison changed; // did the last write change the byte (as far as the trace knows)
    uint8_t now = 0;
    bool known = false;
    std::vector<uint32_t> pending; // loads (indices into `loads`) not yet shown stale
};

struct PendingLoad {
    uint64_t event = 0;
    Stamp stamp;
    bool stale = false;
};

bool tracked_space(trace::Space space) {
    return space == trace::Space::Shared || space == trace::Space::Global;
}

} // namespace

OutputProvenance explain_output(const trace::Trace& trace, trace::Space space, uint64_t address,
                                uint32_t block) {
    OutputProvenance out;
    const detail::WholeBlocks whole(trace);
    const std::vector<Event>& events = trace.events;
    auto block_of = [&](const Event& e) { return trace.threads[e.thread].block; };
    auto key_of = [&](const Event& e, uint64_t byte) {
        const trace::Space s = e.space();
        return ByteKey{byte, s == trace::Space::Shared ? block_of(e) : 0, s};
    };

    // Pass 1: the last write of the address.
    for (uint64_t i = events.size(); i-- > 0;) {
        const Event& e = events[i];
        if (!e.writes_memory() || e.space() != space || !whole.thread(e.thread)) continue;
        if (space == trace::Space::Shared && block_of(e) != block) continue;
        if (address < e.address || address - e.address >= e.size()) continue;
        out.written = true;
        out.store = i;
        break;
    }
    if (!out.written) return out;
    const Event& store = events[out.store];
    out.thread = store.thread;
    out.site = store.site;
    out.line = trace.source_line(store);
    out.value = store.value;

    // Pass 2: the bytes the store's thread loaded before it (and their address range per space).
    std::unordered_map<ByteKey, ByteState, ByteKeyHash> bytes;
    uint64_t lo[2] = {UINT64_MAX, UINT64_MAX}, hi[2] = {0, 0}; // [global, shared]
    for (uint64_t i = 0; i < out.store; ++i) {
        const Event& e = events[i];
        if (e.thread != out.thread || e.kind != trace::EventKind::Load || !tracked_space(e.space())) continue;
        const int s = e.space() == trace::Space::Shared ? 1 : 0;
        lo[s] = std::min(lo[s], e.address);
        hi[s] = std::max(hi[s], e.address + e.size());
        for (uint64_t x = e.address; x < e.address + e.size(); ++x)
            bytes.try_emplace(key_of(e, x));
    }

    // Pass 3: replay.
    detail::BarrierClock clock(trace);
    std::vector<PendingLoad> loads;
    std::vector<std::pair<uint64_t, Stamp>> writes_before; // other threads' writes of the store's bytes
    Stamp store_stamp;
    struct Candidate {
        uint64_t writer;
        detail::Comparison values;
    };
    std::vector<Candidate> candidates; // scratch
    for (uint64_t i = 0; i < events.size(); ++i) {
        const Event& e = events[i];
        if (!whole.thread(e.thread)) continue;
        if (!e.is_memory_access()) {
            clock.observe(e);
            continue;
        }
        if (!tracked_space(e.space())) continue;
        const Stamp now{e.thread, block_of(e), clock.stamp(e.thread).epoch};
        if (i == out.store) store_stamp = now;
        if (i < out.store && e.writes_memory() && e.thread != out.thread && e.space() == space &&
            (space != trace::Space::Shared || now.block == block) && overlaps(e, store))
            writes_before.emplace_back(i, now);
        const int s = e.space() == trace::Space::Shared ? 1 : 0;
        if (e.address + e.size() <= lo[s] || e.address >= hi[s]) continue;

        if (e.thread == out.thread && i < out.store && e.kind == trace::EventKind::Load) {
            // TooEarly: the last write of its bytes overtook it.
            candidates.clear();
            for (uint64_t x = e.address; x < e.address + e.size(); ++x) {
                const ByteState& b = bytes.at(key_of(e, x));
                if (b.last_write == kNoEvent || b.writer.thread == e.thread || ordered(b.writer, now))
                    continue;
                if (!detail::program_before(trace, e.site, events[b.last_write].site)) continue;
                auto c = std::find_if(candidates.begin(), candidates.end(),
                                      [&](const Candidate& k) { return k.writer == b.last_write; });
                if (c == candidates.end()) {
                    candidates.push_back({b.last_write, b.changed});
                } else {
                    c->values.add(b.changed);
                }
            }
            const auto harmful = std::find_if(candidates.begin(), candidates.end(),
                                              [](const Candidate& k) { return k.values.harmful(); });
            if (harmful != candidates.end()) {
                const Event& w = events[harmful->writer];
                out.stale_loads.push_back(
                    {i, harmful->writer, Staleness::TooEarly, w.thread, w.site, e.value, w.value});
            } else {
                loads.push_back({i, now, false});
                for (uint64_t x = e.address; x < e.address + e.size(); ++x)
                    bytes.at(key_of(e, x)).pending.push_back(uint32_t(loads.size() - 1));
            }
        }

        for (uint64_t x = e.address; x < e.address + e.size(); ++x) {
            const auto it = bytes.find(key_of(e, x));
            if (it == bytes.end()) continue;
            ByteState& b = it->second;
            uint8_t v = 0;
            const bool has = detail::value_byte(e, x, v);
            if (!e.writes_memory()) {
                if (has) {
                    b.now = v;
                    b.known = true;
                }
                continue;
            }
            // OldValue / Overwritten: the loads still pending on this byte.
            for (uint32_t p : b.pending) {
                PendingLoad& load = loads[p];
                if (load.stale || load.stamp.thread == e.thread || ordered(load.stamp, now)) continue;
                const Event& l = events[load.event];
                Staleness why = Staleness::OldValue;
                if (!detail::program_before(trace, e.site, l.site)) {
                    if (i >= out.store || !overlaps(l, store)) continue;
                    why = Staleness::Overwritten;
                }
                if (!compare_values(l, e).harmful()) continue;
                load.stale = true;
                out.stale_loads.push_back({load.event, i, why, e.thread, e.site, l.value, e.value});
            }
            b.changed = {};
            if (b.known && has) (v != b.now ? b.changed.differs : b.changed.same) = true;
            b.last_write = i;
            b.writer = now;
            b.now = v;
            b.known = has;
        }
    }
    std::sort(out.stale_loads.begin(), out.stale_loads.end(),
              [](const StaleLoad& a, const StaleLoad& b) { return a.load < b.load; });

    for (const auto& [event, stamp] : writes_before) {
        if (ordered(stamp, store_stamp)) continue;
        ++out.racing_writer_count;
        if (out.racing_writers.size() < OutputProvenance::kMaxRacingWriters)
            out.racing_writers.push_back(event);
    }
    return out;
}

namespace {

// `pattern` with {0}, {1}... replaced by args (a missing argument leaves the braces).
std::string fill(const char* pattern, std::initializer_list<std::string> args) {
    std::string out;
    for (const char* c = pattern; *c != '\0'; ++c) {
        if (c[0] == '{' && c[1] >= '0' && c[1] <= '9' && c[2] == '}' && size_t(c[1] - '0') < args.size()) {
            out += *(args.begin() + (c[1] - '0'));
            c += 2;
        } else {
            out += *c;
        }
    }
    return out;
}

} // namespace

std::string describe(const trace::Trace& trace, const OutputProvenance& p, const ProvenanceWords& w) {
    if (!p.written) return w.none;
    const std::vector<Event>& events = trace.events;
    const uint32_t block = trace.threads[p.thread].block;
    auto thread = [&](uint32_t t) {
        return trace::thread_name(trace, t, trace::ThreadDetail::Block, w.language);
    };
    auto value = [&](uint64_t event) { return trace::event_value(trace, events[event]); };
    auto line = [&](uint32_t site) {
        if (site >= trace.sites.size()) return std::string(w.unknown_line);
        const trace::Site& s = trace.sites[site];
        return s.source_line != 0 ? fill(w.line, {std::to_string(s.source_line)})
                                  : fill(w.ptx_line, {std::to_string(s.ptx_line)});
    };
    auto why_unordered = [&](uint32_t other) {
        return std::string(trace.threads[other].block == block ? w.no_barrier : w.other_blocks);
    };
    std::string out = fill(w.stored, {thread(p.thread), value(p.store), line(p.site)});
    constexpr size_t kShown = 3;
    for (size_t i = 0; i < p.stale_loads.size() && i < kShown; ++i) {
        const StaleLoad& s = p.stale_loads[i];
        const std::string at = line(events[s.load].site), read = value(s.load);
        const std::string writer = thread(s.writer_thread), written = line(s.writer_site);
        switch (s.why) {
        case Staleness::OldValue:
            out += fill(w.old_value,
                        {at, read, writer, value(s.writer), written, why_unordered(s.writer_thread)});
            break;
        case Staleness::TooEarly:
            out += fill(w.too_early, {at, read, writer, written, why_unordered(s.writer_thread)});
            break;
        case Staleness::Overwritten:
            out += fill(w.overwritten, {at, read, writer, value(s.writer), written});
            break;
        }
    }
    if (p.stale_loads.size() > kShown) out += fill(w.more, {std::to_string(p.stale_loads.size() - kShown)});
    if (p.stale_loads.empty()) out += w.none_stale;
    if (p.racing_writer_count > 0) {
        const Event& e = events[p.racing_writers.front()];
        out += fill(p.racing_writer_count == 1 ? w.overwrote_one : w.overwrote_many,
                    {with_thousands(p.racing_writer_count), thread(e.thread), line(e.site)});
    }
    return out;
}

} // namespace synclab::analysis
