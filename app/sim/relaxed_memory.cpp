// The relaxed memory model: histories of writes, views, release/acquire, store buffers and L1
// (relaxed_memory.h says what each part stands for).
#include "sim/relaxed_memory.h"

#include "sim/atomic_ops.h"
#include "sim/memory.h"

#include <algorithm>
#include <cstring>

namespace synclab::sim {

namespace {

constexpr uint32_t kGlobalBlock = UINT32_MAX; // LocKey::block of a global word
constexpr uint32_t kNobody = UINT32_MAX;

// One 4-byte word of shared memory (of one block) or of global memory.
struct LocKey {
    uint64_t word = 0;  // word-aligned address in its space
    uint32_t block = 0; // shared: the block; global: kGlobalBlock
    bool operator==(const LocKey&) const = default;
};
struct LocKeyHash {
    size_t operator()(const LocKey& k) const {
        return std::hash<uint64_t>{}((k.word * 0x9e3779b97f4a7c15ull) ^ (uint64_t(k.block) << 1));
    }
};

// A view: per word, the coherence timestamp of the oldest message a thread may still read (absent:
// 0, the word's value before the kernel). Two levels, because a block's barrier gives all its
// threads the same view: `base` is shared (immutable; the join made at the last barrier), `delta`
// holds what the thread raised since. Copying a view copies its delta only.
using ViewMap = std::unordered_map<LocKey, double, LocKeyHash>;

class View {
  public:
    double get(const LocKey& key) const {
        if (const auto it = delta_.find(key); it != delta_.end()) return it->second;
        if (base_)
            if (const auto it = base_->find(key); it != base_->end()) return it->second;
        return 0.0;
    }
    void raise(const LocKey& key, double ts) {
        if (get(key) >= ts) return;
        delta_[key] = ts;
    }
    void join(const View& other) {
        if (other.base_ && other.base_ != base_)
            for (const auto& [key, ts] : *other.base_)
                raise(key, ts);
        for (const auto& [key, ts] : other.delta_)
            raise(key, ts);
    }
    // Folds the delta into a new shared base (a barrier's join, handed to every thread of a block).
    std::shared_ptr<const ViewMap> fold() const {
        auto map = base_ ? std::make_shared<ViewMap>(*base_) : std::make_shared<ViewMap>();
        for (const auto& [key, ts] : delta_) {
            double& slot = (*map)[key];
            if (slot < ts) slot = ts;
        }
        return map;
    }
    void reset(std::shared_ptr<const ViewMap> base) {
        base_ = std::move(base);
        delta_.clear();
    }

  private:
    std::shared_ptr<const ViewMap> base_;
    ViewMap delta_;
};
using ViewPtr = std::shared_ptr<const View>;

void join_into(View& into, const View& from) {
    into.join(from);
}

ViewPtr joined(const ViewPtr& a, const ViewPtr& b) {
    if (!a) return b;
    if (!b || a == b) return a;
    auto v = std::make_shared<View>(*a);
    v->join(*b);
    return v;
}

bool reaches_other_blocks(ptx::MemScope scope) {
    return scope == ptx::MemScope::Gpu || scope == ptx::MemScope::Sys;
}

bool acquires(ptx::MemOrder o) {
    return o == ptx::MemOrder::Acquire || o == ptx::MemOrder::AcqRel || o == ptx::MemOrder::Sc;
}
bool releases(ptx::MemOrder o) {
    return o == ptx::MemOrder::Release || o == ptx::MemOrder::AcqRel || o == ptx::MemOrder::Sc;
}

// A write in a word's history.
struct Message {
    double ts = 0;       // coherence order
    uint32_t value = 0;  // the word after the write
    uint32_t writer = kNobody;
    uint32_t writer_block = kGlobalBlock;
    bool strong = false; // not a plain st: may synchronise
    bool rmw = false;    // an atomic: nothing may be ordered between it and the message it read
    bool device = false; // the write's scope reaches other blocks (.gpu/.sys)
    ViewPtr rel_block;   // the view it releases to threads of its block
    ViewPtr rel_device;  // ... and to threads of other blocks (a gpu/sys-scope release)
};

struct Location {
    uint8_t* host = nullptr; // the word's backing bytes; only `known` bytes are ever touched
    uint8_t known = 0;       // bytes some access covered (their value before the kernel is recorded)
    std::vector<Message> messages; // in coherence order (ts ascending); [0] = before the kernel
};

// A view collected by a strong read, joined by a later acquire.
struct Pending {
    ViewPtr view;
    bool other_block = false; // the writer was in another block: only a gpu/sys acquire joins it
};

// A store waiting in its thread's store buffer.
struct Buffered {
    LocKey key;
    uint32_t value = 0; // the bytes of `mask` (at their place in the word)
    uint8_t mask = 0;
    uint32_t age = 0; // the thread's memory operations since
    Message proto;    // strength, scope and views as of the store
};

struct ThreadState {
    uint32_t id = 0; // global thread index
    uint32_t block = 0;
    uint32_t sm = 0;
    View view;
    ViewPtr rel_block, rel_device; // what the last release fence (or barrier) released
    std::vector<Pending> pending;
    std::vector<Buffered> buffer;
};

struct L1Line {
    double ts = 0; // the message the line holds
    uint32_t hits = 0;
};

uint32_t merge_bytes(uint32_t base, uint32_t value, uint8_t mask) {
    uint32_t m = 0;
    for (int b = 0; b < 4; ++b)
        if (mask & (1u << b)) m |= 0xffu << (8 * b);
    return (base & ~m) | (value & m);
}

// One word of one lane's access: the word, its bytes in the access, where they sit.
struct WordPart {
    LocKey key;
    uint8_t* host_word = nullptr;
    uint8_t mask = 0;   // bytes of the word the access covers
    uint32_t shift = 0; // the access's first byte in the word (sub-word accesses)
};

} // namespace

struct RelaxedMemory::Impl {
    Choices& choices;
    Schedule schedule;
    bool explore;
    std::unordered_map<LocKey, Location, LocKeyHash> locations;
    std::unordered_map<uint32_t, std::vector<uint64_t>> shared_words; // block -> its shared words
    std::unordered_map<uint32_t, ThreadState> threads;
    std::unordered_map<uint32_t, View> sc_block; // fence.sc.cta, per block
    View sc_device;                              // fence.sc.gpu / .sys
    std::unordered_map<uint32_t, std::unordered_map<LocKey, L1Line, LocKeyHash>> l1; // per SM

    Impl(Choices& c, Schedule s) : choices(c), schedule(s), explore(s == Schedule::Exhaustive) {}

    ThreadState& thread(const Issuer& who, uint32_t lane) {
        auto [it, inserted] = threads.try_emplace(who.first_thread + lane);
        if (inserted) {
            it->second.id = who.first_thread + lane;
            it->second.block = who.block;
            it->second.sm = who.sm;
        }
        return it->second;
    }

    // The lane's access split into words (1 for up to 4 bytes, 2 for 8).
    static uint32_t words_of(const WarpAccess& a, uint32_t l, uint32_t block, WordPart out[2]) {
        const bool shared = a.space[l] == trace::Space::Shared;
        const uint32_t key_block = shared ? block : kGlobalBlock;
        const uint64_t addr = a.address[l];
        if (a.size >= 4) {
            const uint32_t n = a.size == 8 ? 2 : 1;
            for (uint32_t i = 0; i < n; ++i)
                out[i] = {{addr + 4 * i, key_block}, a.host[l] + 4 * i, 0xf, 0};
            return n;
        }
        const uint32_t offset = static_cast<uint32_t>(addr & 3);
        out[0] = {{addr - offset, key_block},
                  a.host[l] - offset,
                  static_cast<uint8_t>(((1u << a.size) - 1) << offset),
                  8 * offset};
        return 1;
    }

    Location& location(const WordPart& part) {
        auto [it, inserted] = locations.try_emplace(part.key);
        Location& loc = it->second;
        if (inserted) {
            loc.host = part.host_word;
            loc.messages.push_back(Message{});
            if (part.key.block != kGlobalBlock) shared_words[part.key.block].push_back(part.key.word);
        }
        // Bytes no access covered before hold their value from before the kernel in every message
        // (no write touched them): record it now, before any write does.
        const uint8_t fresh = part.mask & ~loc.known;
        if (fresh) {
            for (int b = 0; b < 4; ++b) {
                if (!(fresh & (1u << b))) continue;
                const uint32_t byte = uint32_t(loc.host[b]) << (8 * b);
                for (Message& m : loc.messages)
                    m.value = (m.value & ~(0xffu << (8 * b))) | byte;
            }
            loc.known |= fresh;
        }
        return loc;
    }

    static double floor_of(const ThreadState& t, const LocKey& key) { return t.view.get(key); }

    static size_t index_of(const Location& loc, double ts) {
        const auto it = std::lower_bound(loc.messages.begin(), loc.messages.end(), ts,
                                         [](const Message& m, double t) { return m.ts < t; });
        return static_cast<size_t>(it - loc.messages.begin());
    }

    void write_back(Location& loc) {
        const uint32_t v = loc.messages.back().value;
        for (int b = 0; b < 4; ++b)
            if (loc.known & (1u << b)) loc.host[b] = static_cast<uint8_t>(v >> (8 * b));
    }

    // [SECTION] Reads

    // The message a load of `part` by `t` reads (see the header: the choice within the view).
    // `strong`/`scope`: the load's; weak_global: a plain global load (the L1 serves those).
    const Message& read(ThreadState& t, const WordPart& part, bool weak_global, bool strong, ptx::MemScope scope) {
        Location& loc = location(part);
        const double floor = floor_of(t, part.key);
        const size_t first = index_of(loc, floor);
        const size_t n = loc.messages.size() - first;
        size_t pick = loc.messages.size() - 1; // the newest
        if (explore) {
            pick -= choices.choose(static_cast<uint32_t>(n));
        } else {
            bool from_l1 = false;
            if (weak_global) {
                auto& lines = l1[t.sm];
                const auto line = lines.find(part.key);
                if (line != lines.end() && line->second.ts >= floor) {
                    pick = index_of(loc, line->second.ts);
                    from_l1 = true;
                    ++line->second.hits;
                    const bool evict = schedule == Schedule::Adversarial ? line->second.hits > 64
                                                                         : choices.choose(16) == 0;
                    if (evict) lines.erase(line);
                }
            }
            if (!from_l1 && n > 1) {
                if (schedule == Schedule::Adversarial) {
                    if (choices.choose(16) != 0) pick = first; // as stale as the view allows
                } else if (schedule == Schedule::Random && choices.choose(8) == 0) {
                    pick = first + choices.choose(static_cast<uint32_t>(n - 1)); // still on its way
                }
            }
            if (weak_global && !from_l1) l1[t.sm][part.key] = {loc.messages[pick].ts, 0};
        }
        const Message& m = loc.messages[pick];
        // Coherence (PTX: SC per location) binds morally strong pairs only: reading a write of the
        // thread itself, or a strong write whose scope and the load's include each other, keeps
        // the thread from reading older writes of the word later; a plain read, or one out of
        // scope, binds nothing (CoRR's "new, then old" is allowed there).
        const bool same_block = m.writer_block == t.block;
        const bool morally_strong =
            strong && m.strong && (same_block || (m.device && reaches_other_blocks(scope)));
        if (m.ts > floor && (m.writer == t.id || morally_strong)) t.view.raise(part.key, m.ts);
        return m;
    }

    // Which message an atomic of `t` at `scope` reads (its index). PTX's atomicity binds morally
    // strong writes only: no write morally strong with the atomic may come between the message it
    // reads and its own write. A strong write of another block where one of the two has block
    // scope (atomicAdd_block() in two blocks, or one .cta and one .gpu atomic) is not morally strong
    // with it, so the atomic may read a message older than such writes (not older than its view):
    // both blocks' updates read the same old value and one is lost. Plain writes are not skipped
    // (a plain store racing with an atomic is a race of its own). Under the sequentially consistent
    // model (ScMemory) every atomic reads the newest value. Random: now and then an older allowed
    // message; adversarial: mostly the oldest allowed; exhaustive: each one; rr: the newest.
    size_t rmw_pick(const ThreadState& t, const WordPart& part, const Location& loc, ptx::MemScope scope) {
        const size_t newest = loc.messages.size() - 1;
        if (schedule == Schedule::RoundRobin && !explore) return newest;
        const bool wide = reaches_other_blocks(scope == ptx::MemScope::None ? ptx::MemScope::Gpu : scope);
        const size_t lowest = index_of(loc, floor_of(t, part.key));
        size_t oldest = newest;
        while (oldest > lowest) {
            const Message& newer = loc.messages[oldest];
            // A plain write, the thread's own, or one morally strong with the atomic: not skipped.
            const bool binds = !newer.strong || newer.writer == t.id || newer.writer_block == t.block ||
                               (newer.device && wide);
            if (binds) break;
            --oldest;
        }
        const uint32_t allowed = static_cast<uint32_t>(newest - oldest + 1);
        if (allowed == 1) return newest;
        if (explore) return newest - choices.choose(allowed);
        if (schedule == Schedule::Adversarial) return choices.choose(16) != 0 ? oldest : newest;
        if (choices.choose(4) != 0) return newest;
        return oldest + choices.choose(allowed - 1);
    }

    // A strong read of `m`: collect (or, for an acquire, join) the view it releases to `t`.
    void observe(ThreadState& t, const Message& m, ptx::MemScope scope, bool acquire) {
        if (!m.strong) return;
        const bool other_block = m.writer_block != t.block;
        ViewPtr v;
        if (!other_block)
            v = joined(m.rel_block, m.rel_device);
        else if (m.device && reaches_other_blocks(scope))
            v = m.rel_device;
        if (!v) return;
        if (acquire)
            join_into(t.view, *v);
        else
            t.pending.push_back({std::move(v), other_block});
    }

    void acquire_pending(ThreadState& t, ptx::MemScope scope) {
        const bool device = reaches_other_blocks(scope);
        auto keep = t.pending.begin();
        for (auto it = t.pending.begin(); it != t.pending.end(); ++it) {
            if (!it->other_block || device)
                join_into(t.view, *it->view);
            else
                *keep++ = std::move(*it);
        }
        t.pending.erase(keep, t.pending.end());
    }

    // [SECTION] Writes

    // Orders a write of `t` into the word's history: at the end, or (exhaustive) at any place above
    // the writer's view that does not split an atomic from the message it read.
    void place(ThreadState& t, const WordPart& part, uint32_t value, uint8_t mask, Message proto) {
        Location& loc = location(part);
        std::vector<Message>& ms = loc.messages;
        size_t after = ms.size() - 1; // insert after this message
        // Random: now and then a drained store is overtaken on its way to memory by a write of
        // another thread that drained later (2+2W's weak outcome, also between fenced stores).
        const bool reorder = !explore && schedule == Schedule::Random && ms.size() > 1 && choices.choose(8) == 0;
        if (explore || reorder) {
            const size_t lowest = index_of(loc, floor_of(t, part.key));
            // Places, newest first: after ms.size()-1, ms.size()-2, ..., lowest.
            uint32_t options = 0;
            size_t places[64];
            for (size_t i = ms.size(); i-- > lowest && options < 64;)
                if (i + 1 == ms.size() || !ms[i + 1].rmw) places[options++] = i;
            if (options > 1) after = places[choices.choose(options)];
        }
        proto.value = merge_bytes(ms[after].value, value, mask);
        proto.ts = after + 1 == ms.size() ? ms[after].ts + 1 : (ms[after].ts + ms[after + 1].ts) / 2;
        ms.insert(ms.begin() + static_cast<std::ptrdiff_t>(after + 1), std::move(proto));
        const double ts = ms[after + 1].ts;
        t.view.raise(part.key, ts);
        if (after + 2 == ms.size()) write_back(loc);
        // Write-through: the writer's own SM sees its write.
        if (!explore && part.key.block == kGlobalBlock) {
            auto& lines = l1[t.sm];
            if (auto line = lines.find(part.key); line != lines.end()) line->second.ts = ts;
        }
    }

    Message prototype(const ThreadState& t, ptx::MemOrder order, ptx::MemScope scope) {
        Message m;
        m.writer = t.id;
        m.writer_block = t.block;
        m.strong = order != ptx::MemOrder::Weak;
        m.device = order == ptx::MemOrder::Volatile || reaches_other_blocks(scope);
        if (m.strong) {
            m.rel_block = t.rel_block;
            m.rel_device = t.rel_device;
        }
        return m;
    }

    // A release write: it carries the writer's whole view.
    void release_into(const ThreadState& t, Message& m, ptx::MemScope scope) {
        auto snapshot = std::make_shared<const View>(t.view);
        m.rel_block = snapshot;
        if (reaches_other_blocks(scope)) m.rel_device = snapshot;
    }

    // [SECTION] Store buffers (random, adversarial, rr)

    WordPart part_of(const Buffered& b) {
        const Location& loc = locations.at(b.key);
        return {b.key, loc.host, b.mask, 0};
    }

    void drain_at(ThreadState& t, size_t i) {
        Buffered b = std::move(t.buffer[i]);
        t.buffer.erase(t.buffer.begin() + static_cast<std::ptrdiff_t>(i));
        place(t, part_of(b), b.value, b.mask, std::move(b.proto));
    }

    void flush(ThreadState& t) {
        while (!t.buffer.empty())
            drain_at(t, 0);
    }

    void flush_word(ThreadState& t, const LocKey& key) {
        for (size_t i = 0; i < t.buffer.size();)
            if (t.buffer[i].key == key)
                drain_at(t, i);
            else
                ++i;
    }

    // After each memory operation of `t`: some of its buffered stores drain, out of order across
    // words, in order within one.
    void age_buffer(ThreadState& t) {
        if (t.buffer.empty()) return;
        for (Buffered& b : t.buffer)
            ++b.age;
        if (schedule == Schedule::RoundRobin) {
            flush(t);
            return;
        }
        for (size_t i = 0; i < t.buffer.size();) {
            bool oldest_of_word = true;
            for (size_t j = 0; j < i; ++j)
                if (t.buffer[j].key == t.buffer[i].key) oldest_of_word = false;
            const bool drain = oldest_of_word && (schedule == Schedule::Adversarial
                                                      ? t.buffer[i].age > 32 || t.buffer.size() > 8
                                                      : choices.choose(4) == 0);
            if (drain)
                drain_at(t, i);
            else
                ++i;
        }
    }

    // The bytes of `part` this thread's buffer holds, laid over `value`.
    static uint32_t forwarded(const ThreadState& t, const LocKey& key, uint32_t value, uint8_t& covered) {
        covered = 0;
        for (const Buffered& b : t.buffer)
            if (b.key == key) {
                value = merge_bytes(value, b.value, b.mask);
                covered |= b.mask;
            }
        return value;
    }
};

RelaxedMemory::RelaxedMemory(Choices& choices, Schedule schedule)
    : impl_(std::make_unique<Impl>(choices, schedule)) {}
RelaxedMemory::~RelaxedMemory() = default;

namespace {

bool modelled(trace::Space s) {
    return s == trace::Space::Shared || s == trace::Space::Global;
}

} // namespace

void RelaxedMemory::load(WarpAccess& a) {
    Impl& m = *impl_;
    const bool strong = a.order != ptx::MemOrder::Weak;
    const bool acquire = acquires(a.order);
    for_each_lane(a.mask, [&](uint32_t l) {
        if (!modelled(a.space[l])) {
            a.value[l] = load_bytes(a.host[l], a.size);
            return;
        }
        ThreadState& t = m.thread(a.who, l);
        WordPart parts[2];
        const uint32_t n = Impl::words_of(a, l, a.who.block, parts);
        uint64_t value = 0;
        for (uint32_t i = 0; i < n; ++i) {
            // The thread's own buffered bytes first (forwarding); memory only for the rest.
            uint8_t covered = 0;
            const uint32_t own = Impl::forwarded(t, parts[i].key, 0, covered);
            uint32_t word = own;
            if ((covered & parts[i].mask) != parts[i].mask) {
                const bool weak_global = !strong && a.space[l] == trace::Space::Global;
                const ptx::MemScope scope = a.scope == ptx::MemScope::None ? ptx::MemScope::Sys : a.scope;
                const Message& msg = m.read(t, parts[i], weak_global, strong, scope);
                word = merge_bytes(msg.value, own, covered);
                if (strong) m.observe(t, msg, scope, acquire);
            }
            value |= uint64_t(word >> parts[i].shift) << (32 * i);
        }
        if (a.size < 4) value &= (uint64_t(1) << (8 * a.size)) - 1;
        a.value[l] = value;
        if (acquire && reaches_other_blocks(a.scope)) m.l1[t.sm].clear();
        if (!m.explore) m.age_buffer(t);
    });
}

void RelaxedMemory::store(WarpAccess& a) {
    Impl& m = *impl_;
    for_each_lane(a.mask, [&](uint32_t l) {
        if (!modelled(a.space[l])) {
            store_bytes(a.host[l], a.size, a.value[l]);
            return;
        }
        ThreadState& t = m.thread(a.who, l);
        const ptx::MemScope scope =
            a.order == ptx::MemOrder::Volatile && a.scope == ptx::MemScope::None ? ptx::MemScope::Sys : a.scope;
        const bool release = releases(a.order);
        if (release && !m.explore) m.flush(t); // everything before it is visible before it
        WordPart parts[2];
        const uint32_t n = Impl::words_of(a, l, a.who.block, parts);
        for (uint32_t i = 0; i < n; ++i) {
            const uint32_t word = static_cast<uint32_t>(a.value[l] >> (32 * i)) << parts[i].shift;
            Message proto = m.prototype(t, a.order, scope);
            if (release) m.release_into(t, proto, scope);
            m.location(parts[i]); // record the bytes' old values before the write
            if (m.explore || release) {
                m.place(t, parts[i], word, parts[i].mask, std::move(proto));
            } else {
                t.buffer.push_back({parts[i].key, word, parts[i].mask, 0, std::move(proto)});
            }
        }
        if (!m.explore) m.age_buffer(t);
    });
}

void RelaxedMemory::atomic(WarpAccess& a) {
    Impl& m = *impl_;
    const bool acquire = acquires(a.order);
    const bool release = releases(a.order);
    for (uint32_t mask = a.mask; mask; mask &= mask - 1) {
        const uint32_t l = static_cast<uint32_t>(std::countr_zero(mask));
        if (!modelled(a.space[l])) {
            const uint64_t old = load_bytes(a.host[l], a.size);
            uint64_t result = old;
            apply_atomic(a.type, a.atom_op, old, a.value[l], a.operand_c[l], result);
            store_bytes(a.host[l], a.size, result);
            a.value[l] = old;
            continue;
        }
        ThreadState& t = m.thread(a.who, l);
        WordPart parts[2];
        const uint32_t n = Impl::words_of(a, l, a.who.block, parts);
        if (!m.explore) {
            if (release)
                m.flush(t);
            else
                for (uint32_t i = 0; i < n; ++i)
                    m.flush_word(t, parts[i].key);
        }
        // Atomicity: the newest message of each word, or, for a one-word atomic, an older one where
        // every newer message is not morally strong with it (rmw_pick).
        uint64_t old = 0;
        Message* read[2] = {nullptr, nullptr};
        for (uint32_t i = 0; i < n; ++i) {
            Location& loc = m.location(parts[i]);
            read[i] = &loc.messages[n == 1 ? m.rmw_pick(t, parts[i], loc, a.scope) : loc.messages.size() - 1];
            old |= uint64_t(read[i]->value >> parts[i].shift) << (32 * i);
        }
        if (a.size < 4) old &= (uint64_t(1) << (8 * a.size)) - 1;
        for (uint32_t i = 0; i < n; ++i)
            m.observe(t, *read[i], a.scope, acquire);
        uint64_t result = old;
        apply_atomic(a.type, a.atom_op, old, a.value[l], a.operand_c[l], result);
        for (uint32_t i = 0; i < n; ++i) {
            Message proto = m.prototype(t, ptx::MemOrder::Relaxed, a.scope);
            proto.rmw = true;
            if (release) m.release_into(t, proto, a.scope);
            // Release sequence: what the message it read released, it releases too.
            proto.rel_block = joined(proto.rel_block, read[i]->rel_block);
            proto.rel_device = joined(proto.rel_device, read[i]->rel_device);
            Location& loc = m.locations.at(parts[i].key);
            Message& last = loc.messages.back();
            const uint32_t word = static_cast<uint32_t>(result >> (32 * i)) << parts[i].shift;
            proto.value = merge_bytes(last.value, word, parts[i].mask);
            proto.ts = last.ts + 1;
            loc.messages.push_back(std::move(proto));
            t.view.raise(parts[i].key, loc.messages.back().ts);
            m.write_back(loc);
            if (!m.explore && parts[i].key.block == kGlobalBlock) m.l1[t.sm].erase(parts[i].key);
        }
        if (acquire && reaches_other_blocks(a.scope)) m.l1[t.sm].clear();
        if (!m.explore) m.age_buffer(t);
        a.value[l] = old;
    }
}

void RelaxedMemory::fence(const FenceRequest& f) {
    Impl& m = *impl_;
    // Cluster scope: every block is a cluster of one here, so .cluster orders what .cta does.
    const ptx::MemScope scope = f.scope == ptx::MemScope::None ? ptx::MemScope::Gpu : f.scope;
    const bool device = reaches_other_blocks(scope);
    for_each_lane(f.mask, [&](uint32_t l) {
        ThreadState& t = m.thread(f.who, l);
        if (!m.explore) m.flush(t);
        m.acquire_pending(t, scope);
        if (f.order == ptx::MemOrder::Sc) {
            View& sc = device ? m.sc_device : m.sc_block[t.block];
            join_into(t.view, sc);
            join_into(sc, t.view);
        }
        auto snapshot = std::make_shared<const View>(t.view);
        t.rel_block = snapshot;
        if (device) {
            t.rel_device = snapshot;
            if (!m.explore) m.l1[t.sm].clear();
        }
    });
}

void RelaxedMemory::barrier_completed(const BarrierRelease& r) {
    Impl& m = *impl_;
    std::vector<ThreadState*> released;
    for (const Waiter& w : r.released)
        for_each_lane(w.lanes, [&](uint32_t l) {
            Issuer who{r.block, w.warp, r.sm, r.first_thread + w.warp * kWarpSize};
            ThreadState& t = m.thread(who, l);
            if (!m.explore) m.flush(t);
            m.acquire_pending(t, ptx::MemScope::Cta);
            released.push_back(&t);
        });
    if (released.empty()) return;
    // The join of the block's views; threads that share the base of the last barrier add only
    // what they raised since.
    View all = released.front()->view;
    for (size_t i = 1; i < released.size(); ++i)
        all.join(released[i]->view);
    const std::shared_ptr<const ViewMap> base = all.fold();
    View folded;
    folded.reset(base);
    auto snapshot = std::make_shared<const View>(folded);
    for (ThreadState* t : released) {
        t->view.reset(base);
        t->rel_block = snapshot;
    }
}

void RelaxedMemory::thread_exited(uint32_t thread) {
    Impl& m = *impl_;
    auto it = m.threads.find(thread);
    if (it == m.threads.end()) return;
    m.flush(it->second);
    m.threads.erase(it);
}

void RelaxedMemory::kernel_ended() {
    Impl& m = *impl_;
    std::vector<uint32_t> ids;
    for (auto& [id, t] : m.threads)
        if (!t.buffer.empty()) ids.push_back(id);
    std::sort(ids.begin(), ids.end());
    for (uint32_t id : ids)
        m.flush(m.threads.at(id));
}

void RelaxedMemory::block_finished(uint32_t block) {
    Impl& m = *impl_;
    const auto it = m.shared_words.find(block);
    if (it != m.shared_words.end()) {
        for (uint64_t word : it->second)
            m.locations.erase(LocKey{word, block});
        m.shared_words.erase(it);
    }
    m.sc_block.erase(block);
}

std::unique_ptr<MemorySystem> make_memory_system(const Options& options, Choices& choices) {
    if (options.memory == MemoryModel::Relaxed) return std::make_unique<RelaxedMemory>(choices, options.schedule);
    return std::make_unique<ScMemory>();
}

} // namespace synclab::sim
