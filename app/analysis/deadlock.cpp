// Deadlock: the run ended (RunMeta::status Deadlock or Timeout) with threads that never finished.
// Read from the run status and the thread table only (ThreadInfo::end, end_site), so it also holds
// for a trace whose events were dropped.
//
// One finding: lines = the barrier lines threads wait at (ordered by line; where no thread waits at a
// barrier, e.g. a spin loop that timed out, the lines where threads were still running); threads =
// the first thread waiting at each of those lines; count = threads waiting at a barrier (or, where
// none waits, threads that did not finish); block = the first block with such threads; address = 0.
// The message lists, per block, how its threads ended, blocks with the same picture merged:
//   "run ended in deadlock: block 0: threads 0-127 wait at line 12, threads 128-255 exited".
// Blocks where every thread exited or never started are left out of the pictures (the blocks that
// never started, in a hung run with unfinished blocks, are named at the end: "blocks 64-255 never
// started: no slot freed"), and so are blocks whose history
// is not whole (coverage()): the run status still says the run hung, but only whole blocks are
// described ("run timed out; no block recorded whole shows unfinished threads" where none is).
#include "analysis/detail.h"

#include <algorithm>
#include <map>

namespace synclab::analysis {

using trace::ThreadEnd;

namespace {

constexpr size_t kMaxPatterns = 4; // block pictures spelled out in the message

// A hung run whose blocks are all partial (a spin loop fills any trace buffer) still says where its
// unfinished threads were last seen: the line of each one's last recorded event, the most common
// first. It names places, not an order of events, so a partial history is enough; the words say
// it is the last recorded event. Adds those lines to the finding where it has none.
std::string last_seen_running(const trace::Trace& trace, const detail::WholeBlocks& whole, Finding& f) {
    std::vector<uint32_t> last_site(trace.threads.size(), UINT32_MAX);
    for (const trace::Event& e : trace.events)
        if (e.thread < last_site.size() && e.kind != trace::EventKind::Exit) last_site[e.thread] = e.site;
    std::map<std::pair<uint64_t, uint32_t>, std::pair<uint64_t, uint32_t>> at; // line -> (threads, first)
    for (uint32_t t = 0; t < trace.threads.size(); ++t) {
        const trace::ThreadInfo& info = trace.threads[t];
        if (whole.block(info.block) || info.end != ThreadEnd::Running || last_site[t] == UINT32_MAX) continue;
        // try_emplace keeps the first thread seen at a line as its example.
        ++at.try_emplace({detail::line_key_of(trace, last_site[t]), last_site[t]}, 0, t).first->second.first;
    }
    if (at.empty()) return "";
    std::vector<std::pair<uint64_t, std::pair<uint64_t, uint32_t>>> ranked; // (threads, (site, first))
    for (const auto& [key, v] : at)
        ranked.push_back({v.first, {key.second, v.second}});
    std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    std::string out = "; the last events recorded show ";
    for (size_t i = 0; i < ranked.size() && i < 2; ++i) {
        const auto& [threads, where] = ranked[i];
        if (i) out += ", ";
        out += with_thousands(threads) + (threads == 1 ? " thread" : " threads") + " still running at " +
               detail::line_label(trace, where.first);
        if (f.lines.empty() || i > 0) {
            detail::add_line(f, trace, where.first);
            f.threads.push_back(where.second);
        }
    }
    return out + " (a loop that never ends?)";
}

} // namespace

std::vector<Finding> find_deadlock(const trace::Trace& trace) {
    const bool deadlock = trace.meta.status == trace::RunStatus::Deadlock;
    if (!deadlock && trace.meta.status != trace::RunStatus::Timeout) return {};

    const detail::BlockTable table(trace);
    const detail::WholeBlocks whole(trace);
    uint64_t waiting = 0;
    uint64_t unfinished = 0;
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> waits;   // (line, site) -> first waiting thread
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> running; // same for threads still running
    uint32_t first_block = detail::kNoThread;
    // Block picture -> blocks showing it, in block order.
    std::vector<std::pair<std::string, std::vector<uint32_t>>> patterns;

    std::vector<uint32_t> never_started; // blocks none of whose threads ever ran
    for (uint32_t block = 0; block < table.block_count(); ++block) {
        if (!whole.block(block)) continue;
        bool none_ran = table.width(block) > 0;
        for (uint32_t local = 0; local < table.width(block) && none_ran; ++local) {
            const uint32_t t = table.global(block, local);
            none_ran = t != detail::kNoThread && trace.threads[t].end == ThreadEnd::NotStarted;
        }
        if (none_ran) never_started.push_back(block);
        // Threads grouped by (end, end_site), groups in order of their first thread.
        std::vector<std::pair<std::pair<ThreadEnd, uint32_t>, std::vector<uint32_t>>> groups;
        bool stuck = false;
        for (uint32_t local = 0; local < table.width(block); ++local) {
            const uint32_t t = table.global(block, local);
            if (t == detail::kNoThread) continue;
            const trace::ThreadInfo& info = trace.threads[t];
            const uint32_t site =
                info.end == ThreadEnd::Exited || info.end == ThreadEnd::NotStarted ? 0 : info.end_site;
            const auto group_key = std::make_pair(info.end, site);
            auto it = std::find_if(groups.begin(), groups.end(),
                                   [&](const auto& g) { return g.first == group_key; });
            if (it == groups.end()) {
                groups.emplace_back(group_key, std::vector<uint32_t>{local});
            } else {
                it->second.push_back(local);
            }
            if (info.end == ThreadEnd::Exited || info.end == ThreadEnd::NotStarted) continue;
            stuck = true;
            ++unfinished;
            const auto line_key = std::make_pair(detail::line_key_of(trace, site), site);
            if (info.end == ThreadEnd::AtBarrier) {
                ++waiting;
                waits.try_emplace(line_key, t);
            } else if (info.end == ThreadEnd::Running) {
                running.try_emplace(line_key, t);
            }
        }
        if (!stuck) continue;
        if (first_block == detail::kNoThread) first_block = block;
        std::string picture;
        for (const auto& [key, ids] : groups) {
            if (!picture.empty()) picture += ", ";
            // Another group stopped at a different instruction of the same line: name the PTX line.
            const bool shared_line = std::any_of(groups.begin(), groups.end(), [&](const auto& other) {
                return other.first.second != key.second && other.first.first != ThreadEnd::Exited &&
                       other.first.first != ThreadEnd::NotStarted && key.first != ThreadEnd::Exited &&
                       key.first != ThreadEnd::NotStarted &&
                       detail::line_label(trace, other.first.second) == detail::line_label(trace, key.second);
            });
            picture += detail::describe_end(trace, key.first, key.second, ids, shared_line);
        }
        auto it =
            std::find_if(patterns.begin(), patterns.end(), [&](const auto& p) { return p.first == picture; });
        if (it == patterns.end()) {
            patterns.emplace_back(picture, std::vector<uint32_t>{block});
        } else {
            it->second.push_back(block);
        }
    }

    Finding f;
    f.kind = FindingKind::Deadlock;
    f.space = trace::Space::Other;
    f.block = first_block == detail::kNoThread ? 0 : first_block;
    f.count = waiting > 0 ? waiting : unfinished;
    f.harmful = f.count; // a hang always does harm
    f.check = "run_ended_hung";
    f.count_noun = waiting > 0 ? "waiting thread" : "unfinished thread";
    for (const auto& [line_key, thread] : waiting > 0 ? waits : running) {
        detail::add_line(f, trace, line_key.second);
        f.threads.push_back(thread);
    }
    std::string& text = f.text;
    text = deadlock ? "run ended in deadlock" : "run timed out";
    if (patterns.empty() && !whole.all()) {
        text += "; no block recorded whole shows unfinished threads";
        text += last_seen_running(trace, whole, f);
    } else if (patterns.empty()) {
        text += " with no thread left unfinished in the thread table";
    } else {
        text += ": ";
        size_t shown = 0;
        size_t hidden_blocks = 0;
        for (const auto& [picture, blocks] : patterns) {
            if (shown == kMaxPatterns) {
                hidden_blocks += blocks.size();
                continue;
            }
            if (shown++ != 0) text += "; ";
            text += detail::noun_list("block", blocks) + ": " + picture;
        }
        if (hidden_blocks != 0) text += "; and " + std::to_string(hidden_blocks) + " more blocks";
    }
    // A hung grid with blocks that never started: they waited for a slot that no resident block
    // freed (a spin-wait grid barrier with more blocks than fit at once waits for them forever).
    if (!never_started.empty() && !patterns.empty())
        text += "; " + detail::noun_list("block", never_started) + " never started: no slot freed";
    render_message(f);
    return {f};
}

} // namespace synclab::analysis
