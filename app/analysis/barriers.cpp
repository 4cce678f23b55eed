// Barrier divergence: barrier phases whose threads did not all reach the same barrier instruction.
//
// A phase is (block, barrier id, phase number); its arrivals are the BarrierArrive events with that
// key. The simulator (like Volta+ hardware) completes a phase when every non-exited thread of the
// block has arrived, whatever barrier instruction (site) each used, which is how a __syncthreads()
// in one branch "pairs" with another __syncthreads() in the other branch. Three findings, all
// FindingKind::BarrierDivergence, each de-duplicated by the set of lines involved (count = phases,
// or warp phases, showing that set; the message describes the first). Lines, not sites: the
// compiler duplicates a __syncthreads() when it unrolls a loop, and those copies are one barrier to
// the reader (threads at two copies of one line are in different iterations; the message tells the
// copies apart by PTX line):
//   (a) a completed phase whose arrivals used more than one site (arrivals that never left it, i.e.
//       bar.arrive without waiting, are not compared);
//   (b) lanes of one warp arriving in one phase at different sites (completed or not): undefined on
//       pre-Volta GPUs and a sign that the barrier sits in warp-divergent code;
//   (c) the run ended (status Deadlock or Timeout) with threads waiting in a phase that threads of
//       their block never arrived at (the others wait elsewhere, run, or faulted);
//   (d) a warp executing an aligned barrier (bar.sync: __syncthreads()) while some of its live
//       lanes are elsewhere: they skipped it and went on, or wait or run elsewhere when the run
//       ends (see check_skipped for the rule and the references).
// Legal patterns give nothing: a barrier under a block-uniform condition (every thread of a block
// uses the same site, blocks may differ), barriers reached after some threads exited (exited
// threads do not take part in later phases), whole warps that return before a barrier.
//
// Only blocks with a whole history are read (coverage()): a block whose barrier events were lost
// would show phases that never happened.
#include "analysis/detail.h"

#include <algorithm>
#include <bit>
#include <map>
#include <string_view>
#include <tuple>
#include <unordered_map>

namespace synclab::analysis {

using detail::kNoThread;
using trace::Event;
using trace::EventKind;

namespace {

struct Arrival {
    uint32_t thread = 0;
    uint16_t site = 0;
    bool left = false;     // the thread's BarrierLeave of this phase was seen
    uint64_t position = 0; // index of the BarrierArrive in trace.events
};

struct Phase {
    uint32_t block = 0;
    uint32_t id = 0;
    uint32_t number = 0;
    std::vector<Arrival> arrivals; // in trace order
    bool completed = false;        // some thread left it
};

struct PhaseKey {
    uint32_t block, id, number;
    bool operator==(const PhaseKey&) const = default;
};
struct PhaseKeyHash {
    size_t operator()(const PhaseKey& k) const {
        return std::hash<uint64_t>{}(((uint64_t(k.block) << 32) ^ (uint64_t(k.id) << 24) ^ k.number) *
                                     0x9e3779b97f4a7c15ull);
    }
};

// Threads (or lanes) grouped by the site they used; groups ordered by line, then site.
struct SiteGroup {
    uint16_t site = 0;
    std::vector<uint32_t> ids; // thread_in_block or lane
    uint32_t first_thread = 0; // trace index of the first one
};

std::vector<SiteGroup> group_by_site(const trace::Trace& trace, const std::vector<Arrival>& arrivals,
                                     bool lanes) {
    std::vector<SiteGroup> groups;
    for (const Arrival& a : arrivals) {
        const trace::ThreadInfo& info = trace.threads[a.thread];
        const uint32_t id = lanes ? info.lane : info.thread_in_block;
        auto it =
            std::find_if(groups.begin(), groups.end(), [&](const SiteGroup& g) { return g.site == a.site; });
        if (it == groups.end()) {
            groups.push_back(SiteGroup{a.site, {id}, a.thread});
        } else {
            it->ids.push_back(id);
        }
    }
    std::stable_sort(groups.begin(), groups.end(), [&](const SiteGroup& x, const SiteGroup& y) {
        return std::make_pair(detail::line_key_of(trace, x.site), x.site) <
               std::make_pair(detail::line_key_of(trace, y.site), y.site);
    });
    return groups;
}

// "line 12"; "line 55 (PTX line 296)" where another group's site has the same line (the compiler
// duplicated the barrier, e.g. by unrolling a loop: threads in different iterations).
std::string group_label(const trace::Trace& trace, const std::vector<SiteGroup>& groups, size_t i) {
    std::string label = detail::line_label(trace, groups[i].site);
    // A PTX line stands in for an unknown source line already; sites outside the table have none.
    if (groups[i].site >= trace.sites.size() || trace.sites[groups[i].site].source_line == 0) return label;
    for (size_t j = 0; j < groups.size(); ++j) {
        if (j != i &&
            detail::line_key_of(trace, groups[j].site) == detail::line_key_of(trace, groups[i].site)) {
            return label + " (PTX line " + std::to_string(trace.sites[groups[i].site].ptx_line) + ")";
        }
    }
    return label;
}

// "threads 0-127 at line 12, threads 128-255 at line 15"
std::string describe_groups(const trace::Trace& trace, const std::vector<SiteGroup>& groups,
                            const char* noun) {
    std::string out;
    for (size_t i = 0; i < groups.size(); ++i) {
        if (i != 0) out += ", ";
        out += detail::noun_list(noun, groups[i].ids) + " at " + group_label(trace, groups, i);
    }
    return out;
}

// De-duplication key: a tag, then the distinct lines of `groups` (sorted). Lines, not sites: copies
// of one __syncthreads() (unrolled loops) are one barrier to the reader.
std::vector<uint64_t> line_key(const trace::Trace& trace, uint64_t tag,
                               const std::vector<SiteGroup>& groups) {
    std::vector<uint64_t> lines;
    for (const SiteGroup& g : groups)
        lines.push_back(detail::line_key_of(trace, g.site));
    std::sort(lines.begin(), lines.end());
    lines.erase(std::unique(lines.begin(), lines.end()), lines.end());
    lines.insert(lines.begin(), tag);
    return lines;
}

std::string barrier_name(uint32_t id) {
    return id == 0 ? "barrier" : "barrier " + std::to_string(id);
}

// Findings de-duplicated by a key; the first occurrence describes, later ones only count.
class Collector {
  public:
    // Returns the finding to fill when `key` is new, nullptr when it only counted.
    Finding* add(const std::vector<uint64_t>& key) {
        auto [it, inserted] = index_.try_emplace(key, findings_.size());
        if (!inserted) {
            ++counts_[it->second];
            return nullptr;
        }
        findings_.emplace_back();
        counts_.push_back(1);
        return &findings_.back();
    }

    // Appends the findings of check `check` with their counts, each a `noun` ("such phase").
    void finish(std::vector<Finding>& out, const char* check, const char* noun) {
        for (size_t i = 0; i < findings_.size(); ++i) {
            Finding& f = findings_[i];
            f.check = check;
            f.count = counts_[i];
            f.harmful = f.count; // a divergent barrier always does harm
            f.count_noun = noun;
            render_message(f);
            out.push_back(std::move(f));
        }
    }

  private:
    std::map<std::vector<uint64_t>, size_t> index_;
    std::vector<Finding> findings_;
    std::vector<uint64_t> counts_;
};

Finding barrier_finding(const Phase& phase) {
    Finding f;
    f.kind = FindingKind::BarrierDivergence;
    f.space = trace::Space::Other;
    f.address = phase.id;
    f.block = phase.block;
    return f;
}

// (a) and (b) for one phase. In a completed phase only the arrivals that waited (and left) are
// compared: a thread that arrived and never left used bar.arrive (producer side of a named
// barrier), whose site legitimately differs from the consumers' bar.sync.
void check_sites(const trace::Trace& trace, const Phase& phase, Collector& phases, Collector& warps) {
    std::vector<Arrival> waited;
    for (const Arrival& a : phase.arrivals) {
        if (a.left || !phase.completed) waited.push_back(a);
    }
    const std::vector<SiteGroup> groups = group_by_site(trace, waited, false);
    if (phase.completed && groups.size() > 1) {
        if (Finding* f = phases.add(line_key(trace, 0, groups))) {
            *f = barrier_finding(phase);
            for (const SiteGroup& g : groups) {
                detail::add_line(*f, trace, g.site);
                f->threads.push_back(g.first_thread);
            }
            f->text = barrier_name(phase.id) + " phase " + std::to_string(phase.number) + " of block " +
                      std::to_string(phase.block) + " completed by threads waiting at different " +
                      (phase.id == 0 ? "__syncthreads()" : "barrier instructions") + ": " +
                      describe_groups(trace, groups, "thread");
        }
    }
    if (groups.size() < 2) return; // every lane of every warp used the same site

    // (b): arrivals per warp, warps in order of first arrival.
    std::vector<std::pair<uint32_t, std::vector<Arrival>>> by_warp;
    for (const Arrival& a : waited) {
        const uint32_t warp = trace.threads[a.thread].warp;
        auto it =
            std::find_if(by_warp.begin(), by_warp.end(), [&](const auto& w) { return w.first == warp; });
        if (it == by_warp.end()) {
            by_warp.emplace_back(warp, std::vector<Arrival>{a});
        } else {
            it->second.push_back(a);
        }
    }
    for (const auto& [warp, arrivals] : by_warp) {
        const std::vector<SiteGroup> lanes = group_by_site(trace, arrivals, true);
        if (lanes.size() < 2) continue;
        Finding* f = warps.add(line_key(trace, 1, lanes));
        if (f == nullptr) continue;
        *f = barrier_finding(phase);
        for (const SiteGroup& g : lanes) {
            detail::add_line(*f, trace, g.site);
            f->threads.push_back(g.first_thread);
        }
        f->text = "divergent threads in warp " + std::to_string(warp) + " of block " +
                  std::to_string(phase.block) +
                  " wait at different barriers in the same phase: " + describe_groups(trace, lanes, "lane");
    }
}

// (c) for one phase that never completed.
void check_stuck(const trace::Trace& trace, const detail::BlockTable& table, const Phase& phase,
                 Collector& stuck) {
    std::vector<uint8_t> arrived(table.width(phase.block), 0);
    for (const Arrival& a : phase.arrivals)
        arrived[trace.threads[a.thread].thread_in_block] = 1;
    // Threads of the block that neither arrived nor exited, grouped by how they ended.
    std::map<std::pair<uint32_t, uint32_t>, std::vector<uint32_t>> others; // (end, end_site) -> threads
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> first_other;
    for (uint32_t local = 0; local < table.width(phase.block); ++local) {
        const uint32_t t = table.global(phase.block, local);
        if (t == kNoThread || arrived[local]) continue;
        const trace::ThreadInfo& info = trace.threads[t];
        if (info.end == trace::ThreadEnd::Exited || info.end == trace::ThreadEnd::NotStarted) continue;
        const auto group = std::make_pair(uint32_t(info.end), info.end_site);
        others[group].push_back(local);
        first_other.try_emplace(group, t);
    }
    if (others.empty()) return;

    const std::vector<SiteGroup> waiting = group_by_site(trace, phase.arrivals, false);
    std::vector<uint64_t> key = line_key(trace, 2, waiting);
    key.push_back(kNoThread);
    for (const auto& [group, ids] : others) {
        key.push_back(group.first);
        key.push_back(detail::line_key_of(trace, group.second));
    }
    Finding* f = stuck.add(key);
    if (f == nullptr) return;
    *f = barrier_finding(phase);
    std::string waiters;
    for (size_t i = 0; i < waiting.size(); ++i) {
        const SiteGroup& g = waiting[i];
        detail::add_line(*f, trace, g.site);
        f->threads.push_back(g.first_thread);
        if (!waiters.empty()) waiters += " and ";
        waiters += detail::noun_list("thread", g.ids) + (g.ids.size() == 1 ? " waits at " : " wait at ") +
                   group_label(trace, waiting, i);
    }
    std::string rest;
    for (const auto& [group, ids] : others) {
        const auto end = static_cast<trace::ThreadEnd>(group.first);
        if (end != trace::ThreadEnd::NotStarted) detail::add_line(*f, trace, group.second);
        f->threads.push_back(first_other[group]);
        if (!rest.empty()) rest += ", ";
        rest += detail::describe_end(trace, end, group.second, ids);
    }
    f->text = "in block " + std::to_string(phase.block) + ", " + waiters + " (barrier " +
              std::to_string(phase.id) + ", phase " + std::to_string(phase.number) +
              ") for threads that never arrive: " + rest;
}

// [d] Warp-level divergence at an aligned barrier --------------------------------------------------

// Whether the instruction at `site` is an aligned barrier: `bar.*` (bar.sync, bar.arrive, bar.red
// are the .aligned forms of barrier.*) or `barrier.*.aligned`. A guard ("@%p1 ") is skipped.
// The instruction at `site` without its guard ("@%p1 ") and leading blanks; "" for no site.
std::string_view unguarded_text(const trace::Trace& trace, uint32_t site) {
    if (site >= trace.sites.size()) return {};
    std::string_view text = trace.sites[site].text;
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
        text.remove_prefix(1);
    if (text.starts_with("@")) {
        const size_t space = text.find_first_of(" \t");
        text = space == std::string_view::npos ? std::string_view() : text.substr(space + 1);
        while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
            text.remove_prefix(1);
    }
    return text;
}

bool is_aligned_barrier(const trace::Trace& trace, uint32_t site) {
    const std::string_view text = unguarded_text(trace, site);
    if (text.starts_with("bar.warp")) return false; // __syncwarp: not a CTA barrier
    if (text.starts_with("bar.") || text.starts_with("bar ")) return true;
    const std::string_view opcode = text.substr(0, text.find_first_of(" \t"));
    return opcode.starts_with("barrier.") && opcode.find(".aligned") != std::string_view::npos;
}

// Whether the instruction at `site` is `barrier.sync a` / `barrier.cta.sync a` without .aligned and
// without a thread count: a barrier for every thread of the block that lanes of one warp may reach
// at different times. cooperative groups' thread_block::sync() compiles to it.
bool is_unaligned_block_barrier(const trace::Trace& trace, uint32_t site) {
    const std::string_view text = unguarded_text(trace, site);
    const std::string_view opcode = text.substr(0, text.find_first_of(" \t"));
    if (opcode != "barrier.sync" && opcode != "barrier.cta.sync") return false;
    return text.find(',') == std::string_view::npos; // one operand: the barrier id
}

// One (phase, warp, aligned site) whose warp has lanes that did not arrive anywhere in the phase.
struct SkipCandidate {
    size_t phase = 0;
    uint32_t warp = 0;
    uint16_t site = 0;
    uint64_t first = 0;   // position of the warp's first arrival at the site in the phase
    uint32_t at_site = 0; // lanes that arrived at the site
    uint32_t missing = 0; // lanes of the warp in the thread table that arrived nowhere in the phase
    uint32_t first_thread = 0;
};

// Where a lane went after the warp's first arrival: the site of its next event other than Exit,
// or kNoSite (it had none: it exited, or the run ended with it stuck).
constexpr uint32_t kNoSite = UINT32_MAX;
// The group of lanes that exited without arriving (SkipCandidate grouping: went on 0, ended 1 + end).
constexpr uint32_t kExitedGroup = 0xff;

// The (d) rule. In a phase (block, barrier id, number), the arrivals of warp W at aligned site S
// begin at W's first arrival there (trace order). A lane of W that is in the thread table, did not
// arrive in that phase (lanes at another barrier instruction of the phase are (b)'s), had not
// exited by that first arrival, and then either records another event (it skipped the barrier and
// went on: a memory access, a later barrier...) or never exits (it waits or runs elsewhere when the
// run ends) is on the other side: W executed S while that lane was live elsewhere.
//
// Lanes of W that exited without arriving (before W's first arrival, or with no other event after
// it) are reported too, as lanes that exit without reaching S: `if (p[tid]) __syncthreads();` and
// `if (tid % 2 == 0) { ...; block.sync(); ... }` (GPUVerify's barrier-div-cuda and
// divergence_thread_block) skip the barrier with a branch to the kernel's `ret`, the same PTX as an
// early `return` of those lanes, and all of them break the rule below: a barrier must be reached by
// every thread of the block. A GPU does not wait for exited lanes, so such code may seem to work;
// compute-sanitizer's synccheck reports it as "Divergent thread(s) in warp". The same goes for
// cooperative groups' thread_block::sync() (`barrier.sync 0`, not aligned: lanes may arrive at
// different times, but "all threads in the group must participate"): for it only exited lanes are
// reported, since lanes still running may yet arrive.
//
// Legal and silent: whole warps that never arrive (no lane of W at S: warps that exit before a
// barrier are not waited for, PTX counts a barrier's arrivals per warp; lesson
// divergent_barrier/exit_before_barrier).
//
// Why a warp must arrive whole: __syncthreads() compiles to bar.sync, the aligned form of
// barrier.sync. PTX ISA, "Parallel Synchronization and Communication Instructions: bar, barrier"
// (https://docs.nvidia.com/cuda/parallel-thread-execution/#parallel-synchronization-and-communication-instructions-bar-barrier):
// "barrier{.cta} instruction causes executing thread to wait for all non-exited threads from its
// warp", and the .aligned modifier "indicates that all threads in CTA will execute the same
// barrier{.cta} instruction. In conditionally executed code, an aligned barrier{.cta} instruction
// should only be used if it is known that all threads in CTA evaluate the condition identically,
// otherwise behavior is undefined." CUDA C++ Programming Guide, "Synchronization Functions"
// (https://docs.nvidia.com/cuda/cuda-c-programming-guide/#synchronization-functions):
// "__syncthreads() is allowed in conditional code but only if the conditional evaluates
// identically across the entire thread block, otherwise the code execution is likely to hang or
// produce unintended side effects." compute-sanitizer's synccheck reports this case as
// "Divergent thread(s) in warp".
void check_skipped(const trace::Trace& trace, const detail::BlockTable& table,
                   const std::vector<Phase>& phases, Collector& skipped) {
    std::vector<SkipCandidate> candidates;
    for (size_t p = 0; p < phases.size(); ++p) {
        const Phase& phase = phases[p];
        // Per warp of the phase: lanes that arrived anywhere; per (warp, aligned site) a candidate.
        std::map<uint32_t, uint32_t> arrived; // warp -> lane mask
        std::map<std::pair<uint32_t, uint16_t>, SkipCandidate> at;
        for (const Arrival& a : phase.arrivals) {
            const trace::ThreadInfo& info = trace.threads[a.thread];
            arrived[info.warp] |= 1u << info.lane;
            if (!is_aligned_barrier(trace, a.site) && !is_unaligned_block_barrier(trace, a.site)) continue;
            auto [it, inserted] = at.try_emplace({info.warp, a.site});
            SkipCandidate& c = it->second;
            if (inserted) c = SkipCandidate{p, info.warp, a.site, a.position, 0, 0, a.thread};
            c.at_site |= 1u << info.lane;
        }
        for (auto& [key, c] : at) {
            uint32_t present = 0;
            for (uint32_t lane = 0; lane < 32; ++lane) {
                const uint32_t t = table.global(phase.block, c.warp * 32 + lane);
                if (t != kNoThread && trace.threads[t].end != trace::ThreadEnd::NotStarted)
                    present |= 1u << lane;
            }
            c.missing = present & ~arrived[c.warp];
            if (c.missing != 0) candidates.push_back(c);
        }
    }
    if (candidates.empty()) return;

    // One pass over the events: each thread's first Exit, and for each candidate lane the site of
    // its first non-Exit event after the candidate's first arrival.
    struct Request {
        uint64_t after = 0;
        size_t candidate = 0;
        uint32_t lane = 0;
        uint32_t next_site = kNoSite;
    };
    std::unordered_map<uint32_t, std::vector<Request>> requests; // thread -> by `after`
    for (size_t i = 0; i < candidates.size(); ++i) {
        const SkipCandidate& c = candidates[i];
        for (uint32_t m = c.missing; m; m &= m - 1) {
            const uint32_t lane = uint32_t(std::countr_zero(m));
            requests[table.global(phases[c.phase].block, c.warp * 32 + lane)].push_back({c.first, i, lane});
        }
    }
    for (auto& [thread, list] : requests)
        std::sort(list.begin(), list.end(),
                  [](const Request& a, const Request& b) { return a.after < b.after; });
    std::unordered_map<uint32_t, uint64_t> exit_at; // thread -> position of its first Exit
    std::unordered_map<uint32_t, size_t> resolved;  // thread -> requests resolved so far
    for (uint64_t position = 0; position < trace.events.size(); ++position) {
        const Event& e = trace.events[position];
        const auto it = requests.find(e.thread);
        if (it == requests.end()) continue;
        if (e.kind == EventKind::Exit) {
            exit_at.try_emplace(e.thread, position);
            continue;
        }
        size_t& k = resolved[e.thread];
        while (k < it->second.size() && it->second[k].after < position)
            it->second[k++].next_site = e.site;
    }

    // Per candidate: its other-side lanes, grouped by where they are.
    std::vector<std::vector<const Request*>> by_candidate(candidates.size());
    for (const auto& [thread, list] : requests)
        for (const Request& r : list)
            by_candidate[r.candidate].push_back(&r);
    for (size_t i = 0; i < candidates.size(); ++i) {
        const SkipCandidate& c = candidates[i];
        const Phase& phase = phases[c.phase];
        // (went on: 0 / ended: 1 + ThreadEnd, site) -> lanes, and the first thread of each group.
        std::map<std::pair<uint32_t, uint32_t>, std::vector<uint32_t>> groups;
        std::map<std::pair<uint32_t, uint32_t>, uint32_t> first_of;
        const bool aligned = is_aligned_barrier(trace, c.site);
        for (const Request* r : by_candidate[i]) {
            const uint32_t thread = table.global(phase.block, c.warp * 32 + r->lane);
            const auto exit = exit_at.find(thread);
            const bool exited_first = exit != exit_at.end() && exit->second < c.first;
            std::pair<uint32_t, uint32_t> where;
            if (!exited_first && r->next_site != kNoSite) {
                if (!aligned) continue; // may arrive later: an unaligned barrier allows it
                where = {0, r->next_site};
            } else if (exit == exit_at.end() && trace.threads[thread].end != trace::ThreadEnd::Exited) {
                if (!aligned) continue;
                where = {1 + uint32_t(trace.threads[thread].end), trace.threads[thread].end_site};
            } else if (exit != exit_at.end()) {
                // It exited without arriving: before the warp's first arrival, or next.
                where = {kExitedGroup, trace.events[exit->second].site};
            } else {
                continue; // ended as exited with no Exit event in the trace: nothing to place it by
            }
            groups[where].push_back(r->lane);
        }
        if (groups.empty()) continue;
        for (auto& [where, lanes] : groups) {
            std::sort(lanes.begin(), lanes.end());
            first_of[where] = table.global(phase.block, c.warp * 32 + lanes.front());
        }

        std::vector<uint64_t> key{3, detail::line_key_of(trace, c.site)};
        for (const auto& [where, lanes] : groups) {
            key.push_back(where.first);
            key.push_back(detail::line_key_of(trace, where.second));
        }
        Finding* f = skipped.add(key);
        if (f == nullptr) continue;
        *f = barrier_finding(phase);
        detail::add_line(*f, trace, c.site);
        f->threads.push_back(c.first_thread);
        std::vector<uint32_t> at_lanes;
        for (uint32_t m = c.at_site; m; m &= m - 1)
            at_lanes.push_back(uint32_t(std::countr_zero(m)));
        std::string rest;
        for (const auto& [where, lanes] : groups) {
            detail::add_line(*f, trace, where.second);
            f->threads.push_back(first_of[where]);
            if (!rest.empty()) rest += ", ";
            const bool one = lanes.size() == 1;
            const std::string who = detail::noun_list("lane", lanes);
            if (where.first == kExitedGroup) {
                rest += who + (one ? " exits without reaching it (" : " exit without reaching it (") +
                        detail::line_label(trace, where.second) + ")";
            } else if (where.first == 0) {
                rest += who + (one ? " skips it and goes on to " : " skip it and go on to ") +
                        detail::line_label(trace, where.second);
            } else if (static_cast<trace::ThreadEnd>(where.first - 1) == trace::ThreadEnd::AtBarrier) {
                rest += who + (one ? " waits at " : " wait at ") + detail::line_label(trace, where.second);
            } else {
                rest += who + (one ? " was" : " were") + " still running at " +
                        detail::line_label(trace, where.second);
            }
        }
        bool only_exits = true;
        for (const auto& [where, lanes] : groups)
            only_exits = only_exits && where.first == kExitedGroup;
        const bool one_other = groups.size() == 1 && groups.begin()->second.size() == 1;
        const std::string barrier = phase.id != 0 ? barrier_name(phase.id)
                                    : aligned     ? std::string("__syncthreads()")
                                                  : std::string("block barrier (barrier.sync 0: cooperative "
                                                                "groups' thread_block::sync())");
        f->text = "divergent threads in warp " + std::to_string(c.warp) + " of block " +
                  std::to_string(phase.block) + ": " + detail::noun_list("lane", at_lanes) +
                  (at_lanes.size() == 1 ? " executes the " : " execute the ") + barrier + " at " +
                  detail::line_label(trace, c.site) +
                  (only_exits ? std::string(" while the warp's other ") + (one_other ? "lane" : "lanes") +
                                    " never reach it: " + rest +
                                    "; every thread of the block must reach it (a GPU does not wait for "
                                    "exited lanes, so it may seem to work)"
                              : std::string(" while the warp's other live ") + (one_other ? "lane is" : "lanes are") +
                                    " elsewhere: " + rest);
    }
}

} // namespace

std::vector<Finding> find_barrier_divergence(const trace::Trace& trace, const Options& options) {
    const detail::WholeBlocks whole(trace);
    std::vector<Phase> phases; // in order of first arrival
    std::unordered_map<PhaseKey, size_t, PhaseKeyHash> index;
    // (thread, barrier id) -> its open arrival: (index in phases, index in arrivals).
    std::unordered_map<uint64_t, std::pair<size_t, size_t>> open;
    for (uint64_t position = 0; position < trace.events.size(); ++position) {
        const Event& e = trace.events[position];
        if (e.kind != EventKind::BarrierArrive && e.kind != EventKind::BarrierLeave) continue;
        if (!whole.thread(e.thread)) continue;
        const PhaseKey key{trace.threads[e.thread].block, uint32_t(e.address), e.value};
        auto [it, inserted] = index.try_emplace(key, phases.size());
        if (inserted) phases.push_back(Phase{key.block, key.id, key.number, {}, false});
        Phase& phase = phases[it->second];
        const uint64_t thread_barrier = (uint64_t(e.thread) << 32) | key.id;
        if (e.kind == EventKind::BarrierArrive) {
            open[thread_barrier] = {it->second, phase.arrivals.size()};
            phase.arrivals.push_back(Arrival{e.thread, e.site, false, position});
        } else {
            phase.completed = true;
            const auto arrival = open.find(thread_barrier);
            if (arrival != open.end() && arrival->second.first == it->second) {
                phase.arrivals[arrival->second.second].left = true;
                open.erase(arrival);
            }
        }
    }

    const bool hung =
        trace.meta.status == trace::RunStatus::Deadlock || trace.meta.status == trace::RunStatus::Timeout;
    const detail::BlockTable table(trace);
    Collector by_phase, by_warp, stuck, skipped;
    for (const Phase& phase : phases) {
        check_sites(trace, phase, by_phase, by_warp);
        if (hung && !phase.completed) check_stuck(trace, table, phase, stuck);
    }
    check_skipped(trace, table, phases, skipped);
    std::vector<Finding> out;
    stuck.finish(out, "stuck_phase", "such phase");
    by_phase.finish(out, "mixed_barrier_phase", "such phase");
    by_warp.finish(out, "warp_at_different_barriers", "such warp phase");
    skipped.finish(out, "warp_skipped_barrier", "such warp phase");
    detail::sort_and_cap(out, options.max_findings_per_kind);
    return out;
}

} // namespace synclab::analysis
