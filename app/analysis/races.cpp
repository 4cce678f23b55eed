// Shared-memory races: conflicting accesses of two threads of one block with no barrier between them.
//
// Happens-before comes from BarrierClock (happens_before.h): accesses of one block race iff they are
// by different threads, in the same epoch, not ordered by a __syncwarp() chain (lanes of one warp),
// overlap in at least one byte, at least one writes, and they are not both atomic. Shared addresses
// are per block, so different blocks never conflict.
//
// Shadow state (FastTrack / racecheck style), per block and 8-byte granule, for the granule's current
// epoch only, per byte: the last write (thread, site, atomic?) and the plain reads since that write,
// grouped by site with their readers as a set of thread_in_block (a bitset once a site has two
// readers). Each access is checked against that state:
//   read  R: RAW with the last writer of every byte it covers (once per distinct writer and site);
//   write W: WAW with the last writer of every byte (unless both atomic), WAR with every reader since
//            those writes (per reader thread and site); then W becomes the last write of its bytes
//            and their readers are cleared.
// Atomics (atom, red) are writes flagged atomic; volatile and ordered accesses count as plain ones
// (a volatile access does not order anything between two threads of a block).
//
// Counting. A finding aggregates (hazard, earlier site, later site); count = racing access pairs
// found this way: RAW counts each racing read once per writer whose value it sees, WAR counts each
// (reader thread, read site) of the epoch once per racing write, WAW counts each write against the
// write it overwrites. A write overwritten by another write of its epoch is no longer compared with
// later accesses (they do not see its value), as in racecheck.
//
// Hazard names follow the observed order: earlier write then read = RAW, earlier read then write =
// WAR, write then write = WAW. Messages: detail::race_finding (shared with global_races.cpp).
//
// Harm (findings.h, "Harm"): each granule also keeps the memory's bytes as the trace shows them
// (detail::ValueBytes, across epochs): what each byte holds now and whether its last write changed
// it. A pair that ran against program order is harmful when a byte it shares differs: RAW: the last
// write changed the byte; WAR: the write's byte differs from the one the readers read (the byte's
// value since that last write); WAW: the write's byte differs from the overwritten one.
//
// Only blocks with a whole history are read (coverage()).
//
// Limits: an access whose epoch is older than the granule's (a trace not in execution order, e.g. a
// GPU trace ordered by a skewed clock) is not checked. An access crossing an 8-byte boundary (never
// emitted by PTX, whose accesses are naturally aligned) is checked as two accesses.
#include "analysis/detail.h"
#include "analysis/happens_before.h"
#include "trace/naming.h"

#include <algorithm>
#include <array>
#include <bit>
#include <unordered_map>

namespace synclab::analysis {

using detail::BarrierClock;
using detail::kNoThread;
using detail::ReaderSyncs;
using detail::Stamp;
using trace::Event;

namespace {

constexpr uint32_t kGranuleBytes = 8;

struct WriteCell {
    uint32_t thread = kNoThread; // trace thread index; kNoThread: no write this epoch
    uint32_t sync = 0;           // the writer's warp syncs at the write (happens_before.h)
    uint16_t site = 0;
    bool atomic = false;
};

// Plain reads of one byte at one site since its last write: the readers by thread_in_block.
struct ReadGroup {
    uint16_t site = 0;
    uint32_t first = 0;            // first reader (thread_in_block)
    uint32_t count = 0;            // distinct readers
    std::vector<uint64_t> members; // bitset over thread_in_block, allocated at the second reader
    ReaderSyncs syncs; // warp sync counts of its readers (happens_before.h)

    bool contains(uint32_t local) const {
        if (members.empty()) return count != 0 && first == local;
        return (members[local / 64] >> (local % 64)) & 1u;
    }
};

struct Granule {
    uint32_t epoch = 0;
    std::array<WriteCell, kGranuleBytes> writes{};
    std::array<std::vector<ReadGroup>, kGranuleBytes> reads{};
    detail::ValueBytes<kGranuleBytes> values; // kept across epochs

    void reset(uint32_t new_epoch) {
        epoch = new_epoch;
        writes.fill(WriteCell{});
        for (auto& r : reads)
            r.clear();
    }
};

class RaceChecker {
  public:
    // `skip`: per block, nonzero for blocks another pass analysed (may be shorter than the grid).
    RaceChecker(const trace::Trace& trace, const std::vector<uint8_t>* skip)
        : trace_(trace), whole_(trace), table_(trace), clock_(trace), skip_(skip) {
        shadow_.resize(table_.block_count());
    }

    void run() {
        for (const Event& e : trace_.events) {
            if (!whole_.thread(e.thread) || skipped(e.thread)) continue;
            if (e.is_memory_access()) {
                if (e.space() == trace::Space::Shared) access(e);
                continue;
            }
            clock_.observe(e);
            if (e.kind == trace::EventKind::Exit) {
                // A block whose threads all exited is never accessed again: free its shadow memory.
                const uint32_t block = clock_.block_of(e.thread);
                if (clock_.block_finished(block))
                    std::unordered_map<uint64_t, Granule>().swap(shadow_[block]);
            }
        }
    }

    const detail::RacePairs& pairs() const { return pairs_; }

  private:
    bool skipped(uint32_t thread) const {
        if (skip_ == nullptr || thread >= trace_.threads.size()) return false;
        const uint32_t block = trace_.threads[thread].block;
        return block < skip_->size() && (*skip_)[block] != 0;
    }

    void access(const Event& e) {
        const uint32_t block = trace_.threads[e.thread].block;
        const uint32_t size = e.size();
        // Split at granule boundaries (only a misaligned access crosses one).
        uint64_t address = e.address;
        uint64_t end = e.address + size;
        while (address < end) {
            const uint64_t granule_end = (address / kGranuleBytes + 1) * kGranuleBytes;
            const uint64_t chunk_end = std::min(end, granule_end);
            access_granule(e, block, address, uint32_t(chunk_end - address));
            address = chunk_end;
        }
    }

    void access_granule(const Event& e, uint32_t block, uint64_t address, uint32_t size) {
        const Stamp now = clock_.stamp(e.thread);
        auto [it, inserted] = shadow_[block].try_emplace(address / kGranuleBytes);
        Granule& g = it->second;
        const uint32_t first_byte = uint32_t(address % kGranuleBytes);
        const uint32_t last_byte = first_byte + size; // exclusive
        const uint64_t granule_base = address - first_byte;
        if (inserted || g.epoch < now.epoch) {
            g.reset(now.epoch); // older epochs happen before this access: forget them
        } else if (g.epoch > now.epoch) {
            update_values(g, e, granule_base, first_byte, last_byte);
            return; // out-of-order trace: see the limits above
        }
        const uint32_t local = trace_.threads[e.thread].thread_in_block;
        const uint16_t site = e.site;

        // Conflicts with the last writes (RAW for a read, WAW for a write), once per distinct writer,
        // harmful when a byte of the writer's says so (see the header comment).
        const bool writes = e.writes_memory();
        const bool atomic = e.is_atomic();
        writers_seen_.clear();
        for (uint32_t b = first_byte; b < last_byte; ++b) {
            const WriteCell& w = g.writes[b];
            if (w.thread == kNoThread || w.thread == e.thread) continue;
            if (atomic && w.atomic) continue;
            const Stamp before{w.thread, g.epoch, w.sync};
            if (clock_.warp_ordered(before, now)) continue;
            const detail::Comparison c =
                writes ? g.values.compare_write(e, b, granule_base + b) : g.values.last_write_changed(b);
            Writer* seen = nullptr;
            for (Writer& candidate : writers_seen_)
                seen = candidate.thread == w.thread && candidate.site == w.site ? &candidate : seen;
            if (seen != nullptr) {
                seen->values.add(c);
                continue;
            }
            writers_seen_.push_back(Writer{w.thread, w.site, granule_base + b, c});
        }
        for (const Writer& w : writers_seen_) {
            const bool harmful = !detail::program_before(trace_, w.site, site) && w.values.harmful();
            pairs_.record(writes ? Hazard::WAW : Hazard::RAW, w.site, site, 1, harmful ? 1 : 0, w.thread,
                          e.thread, w.address, e.time);
        }

        if (!writes) {
            for (uint32_t b = first_byte; b < last_byte; ++b)
                add_reader(g.reads[b], site, local, block, now.sync);
            update_values(g, e, granule_base, first_byte, last_byte);
            return;
        }

        // WAR with the readers since the last write of each byte: union the reader sets per site
        // over the bytes covered, so that a reader of several of those bytes counts once. Beside
        // them, the readers of bytes whose value the write changes (`differs`) and of bytes it
        // provably leaves as they were (`same`): a reader in neither read no byte that could be
        // compared.
        const size_t words = (table_.width(block) + 63) / 64;
        unions_.clear();
        const bool warp_edges = clock_.warp_synced(e.thread);
        const uint32_t warp_base = local - trace_.threads[e.thread].lane; // thread_in_block of lane 0
        for (uint32_t b = first_byte; b < last_byte; ++b) {
            const detail::Comparison c = g.values.compare_write(e, b, granule_base + b);
            for (const ReadGroup& r : g.reads[b]) {
                // Readers of this warp whose read a __syncwarp() chain orders before this write.
                uint64_t ordered_bits = 0;
                if (warp_edges)
                    for (uint32_t l = 0; l < 32; ++l) {
                        const uint32_t reader = warp_base + l;
                        if (reader == local || !r.contains(reader)) continue;
                        const uint32_t t = table_.global(block, reader);
                        if (clock_.warp_ordered(Stamp{t, g.epoch, r.syncs.of(reader)}, now))
                            ordered_bits |= uint64_t(1) << ((warp_base % 64) + l);
                    }
                SiteUnion* u = nullptr;
                for (SiteUnion& candidate : unions_)
                    u = candidate.site == r.site ? &candidate : u;
                if (u == nullptr) {
                    unions_.push_back(SiteUnion{r.site, granule_base + b, std::vector<uint64_t>(words, 0),
                                                std::vector<uint64_t>(words, 0),
                                                std::vector<uint64_t>(words, 0)});
                    u = &unions_.back();
                }
                auto add = [&](std::vector<uint64_t>& into) {
                    const size_t warp_word = warp_base / 64;
                    if (r.members.empty()) {
                        const uint64_t bit = uint64_t(1) << (r.first % 64);
                        if (!(r.first / 64 == warp_word && (ordered_bits & bit))) into[r.first / 64] |= bit;
                    } else {
                        for (size_t w = 0; w < words; ++w)
                            into[w] |= r.members[w] & (w == warp_word ? ~ordered_bits : ~uint64_t(0));
                    }
                };
                add(u->bits);
                if (c.differs) add(u->differs);
                if (c.same) add(u->same);
            }
        }
        for (SiteUnion& u : unions_) {
            if (local / 64 < u.bits.size())
                u.bits[local / 64] &= ~(uint64_t(1) << (local % 64)); // not itself
            const bool against_program = !detail::program_before(trace_, u.site, site);
            uint64_t count = 0;
            uint64_t harmful = 0;
            uint32_t example = kNoThread;         // the first reader
            uint32_t harmful_example = kNoThread; // the first harmful one
            for (size_t w = 0; w < u.bits.size(); ++w) {
                const uint64_t harm = against_program ? u.bits[w] & (u.differs[w] | ~u.same[w]) : 0;
                count += std::popcount(u.bits[w]);
                harmful += std::popcount(harm);
                if (example == kNoThread && u.bits[w] != 0)
                    example = uint32_t(w * 64 + std::countr_zero(u.bits[w]));
                if (harmful_example == kNoThread && harm != 0)
                    harmful_example = uint32_t(w * 64 + std::countr_zero(harm));
            }
            if (harmful_example != kNoThread) example = harmful_example;
            if (count == 0) continue;
            pairs_.record(Hazard::WAR, u.site, site, count, harmful, table_.global(block, example), e.thread,
                          u.address, e.time);
        }
        for (uint32_t b = first_byte; b < last_byte; ++b) {
            g.writes[b] = WriteCell{e.thread, now.sync, site, atomic};
            g.reads[b].clear();
        }
        update_values(g, e, granule_base, first_byte, last_byte);
    }

    static void update_values(Granule& g, const Event& e, uint64_t granule_base, uint32_t first_byte,
                              uint32_t last_byte) {
        for (uint32_t b = first_byte; b < last_byte; ++b)
            g.values.update(e, b, granule_base + b);
    }

    void add_reader(std::vector<ReadGroup>& groups, uint16_t site, uint32_t local, uint32_t block,
                    uint32_t sync) {
        for (ReadGroup& r : groups) {
            if (r.site != site) continue;
            r.syncs.note(local, sync);
            if (r.contains(local)) return;
            if (r.members.empty()) {
                r.members.assign((table_.width(block) + 63) / 64, 0);
                r.members[r.first / 64] |= uint64_t(1) << (r.first % 64);
            }
            r.members[local / 64] |= uint64_t(1) << (local % 64);
            ++r.count;
            return;
        }
        groups.push_back(ReadGroup{site, local, 1, {}, {}});
        groups.back().syncs.note(local, sync);
    }

    struct SiteUnion {
        uint16_t site = 0;
        uint64_t address = 0;          // first byte where a reader of this site was found
        std::vector<uint64_t> bits;    // the readers
        std::vector<uint64_t> differs; // readers of a byte the write changes
        std::vector<uint64_t> same;    // readers of a byte the write leaves as it was
    };
    struct Writer {
        uint32_t thread = 0;
        uint16_t site = 0;
        uint64_t address = 0;      // first byte it wrote among those accessed
        detail::Comparison values; // over its bytes: RAW: did it change them; WAW: does this write
    };

    const trace::Trace& trace_;
    detail::WholeBlocks whole_;
    detail::BlockTable table_;
    BarrierClock clock_;
    std::vector<std::unordered_map<uint64_t, Granule>> shadow_; // per block: granule index -> state
    detail::RacePairs pairs_;
    std::vector<Writer> writers_seen_; // scratch
    std::vector<SiteUnion> unions_;    // scratch
    const std::vector<uint8_t>* skip_ = nullptr;
};

} // namespace

namespace detail {

void RacePairs::record(Hazard hazard, uint16_t first_site, uint16_t second_site, uint64_t count,
                       uint64_t harmful, uint32_t first_thread, uint32_t second_thread, uint64_t address,
                       uint64_t when) {
    add(Key{hazard, first_site, second_site}, count, harmful, when,
        Example{first_thread, second_thread, address, when});
}

void RacePairs::add(const Key& key, uint64_t count, uint64_t harmful, uint64_t first_when,
                    const Example& example) {
    auto [it, inserted] = index_.try_emplace(key, aggregates_.size());
    if (inserted) aggregates_.push_back(Aggregate{key, 0, 0, first_when, example});
    Aggregate& a = aggregates_[it->second];
    // A harmful pair is the better example; among examples of one kind, the earlier one.
    const bool better = harmful > 0 ? a.harmful == 0 || example.when < a.example.when
                                    : a.harmful == 0 && example.when < a.example.when;
    if (better) a.example = example;
    a.first_when = std::min(a.first_when, first_when);
    a.count += count;
    a.harmful += harmful;
}

void RacePairs::merge(const RacePairs& other) {
    for (const Aggregate& a : other.aggregates_)
        add(a.key, a.count, a.harmful, a.first_when, a.example);
}

std::vector<Finding> RacePairs::findings(const trace::Trace& trace, trace::Space space,
                                         const Options& options) const {
    // In the order of their first pairs (one pass in time order made them so; merged batches may not).
    std::vector<const Aggregate*> order;
    order.reserve(aggregates_.size());
    for (const Aggregate& a : aggregates_)
        order.push_back(&a);
    std::stable_sort(order.begin(), order.end(),
                     [](const Aggregate* x, const Aggregate* y) { return x->first_when < y->first_when; });
    std::vector<Finding> out;
    out.reserve(order.size());
    for (const Aggregate* a : order)
        out.push_back(race_finding(trace, a->key.hazard, space, a->key.first_site, a->key.second_site,
                                   a->example.first_thread, a->example.second_thread, a->example.address,
                                   a->count, a->harmful));
    sort_and_cap(out, options.max_findings_per_kind);
    return out;
}

Finding race_finding(const trace::Trace& trace, Hazard hazard, trace::Space space, uint16_t first_site,
                     uint16_t second_site, uint32_t first_thread, uint32_t second_thread, uint64_t address,
                     uint64_t count, uint64_t harmful) {
    Finding f;
    f.kind = FindingKind::Race;
    f.check = space == trace::Space::Shared ? "shared_race" : "global_race";
    f.hazard = hazard;
    f.space = space;
    add_line(f, trace, first_site);
    add_line(f, trace, second_site);
    f.threads = {first_thread, second_thread};
    f.count = count;
    f.harmful = harmful;
    f.count_noun = "racing access pair";
    f.address = address;
    f.block = trace.threads[first_thread].block;
    name_memory(f, trace);
    const bool same_block = trace.threads[first_thread].block == trace.threads[second_thread].block;
    const trace::ThreadInfo& a = trace.threads[first_thread];
    const trace::ThreadInfo& b = trace.threads[second_thread];
    // Two lanes of one warp: what orders them is a __syncwarp() (a block barrier would too, but the
    // lesson is that lanes of a warp are not in lockstep). Both analyses take warp edges. Their
    // names then say their warp and lanes.
    const bool same_warp = same_block && a.warp == b.warp;
    const trace::ThreadDetail detail = same_warp ? trace::ThreadDetail::Lane : trace::ThreadDetail::Block;
    auto name = [&](uint32_t thread) { return trace::thread_name(trace, thread, detail); };
    std::string between = " with no barrier between them";
    if (same_warp)
        between = " within a warp: no __syncwarp() between them";
    else if (!same_block)
        between = "; threads of different blocks are not ordered within a launch";
    // "at line N" rather than "(line N)": a lane-detailed name already ends in "(warp w, lane l)".
    f.text = std::string(to_string(hazard)) + " hazard on " + f.memory + ": " + name(second_thread) + " at " +
             line_label(trace, second_site) +
             (hazard == Hazard::RAW ? " reads a value " : " overwrites a value ") + name(first_thread) +
             (hazard == Hazard::WAR ? " read" : " wrote") + " at " + line_label(trace, first_site) + between;
    render_message(f);
    return f;
}

RacePairs shared_race_pairs(const trace::Trace& trace, const std::vector<uint8_t>* skip_blocks) {
    RaceChecker checker(trace, skip_blocks);
    checker.run();
    return checker.pairs();
}

} // namespace detail

std::vector<Finding> find_shared_races(const trace::Trace& trace, const Options& options) {
    return detail::shared_race_pairs(trace).findings(trace, trace::Space::Shared, options);
}

} // namespace synclab::analysis
