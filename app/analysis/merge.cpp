// Messages rendered from a finding's counts, the merge of the findings of several runs and the order
// findings are shown in.
#include "analysis/finding_kinds.h"
#include "analysis/findings.h"

#include <algorithm>
#include <tuple>

namespace synclab::analysis {

std::string with_thousands(uint64_t n) {
    std::string digits = std::to_string(n);
    std::string out;
    for (size_t i = 0; i < digits.size(); ++i) {
        if (i != 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

namespace {

std::string counted(uint64_t n, const std::string& noun) {
    // ("out-of-bounds access": accesses)
    return with_thousands(n) + " " + noun + (n == 1 ? "" : noun.ends_with('s') ? "es" : "s");
}

// "169 loads read the old value" (a race's harmful pairs, by hazard).
std::string harm_text(Hazard hazard, uint64_t n) {
    switch (hazard) {
    case Hazard::WAR:
        return counted(n, "load") + " read the old value";
    case Hazard::RAW:
        return counted(n, "load") + " read the new value too early";
    case Hazard::WAW:
    case Hazard::None:
        break;
    }
    return counted(n, "write") + (n == 1 ? " was" : " were") + " lost";
}

// What the pairs of a race did: see render_message in findings.h.
std::string race_counts(const Finding& f) {
    const std::string when = f.runs > 1 ? " in " + std::to_string(f.runs) + " runs" : " in this run";
    const std::string noun = f.count_noun.empty() ? std::string("racing access pair") : f.count_noun;
    const uint64_t lucky = f.count > f.harmful ? f.count - f.harmful : 0;
    if (f.harmful == 0) {
        if (f.count == 1) return "it did no harm" + when + ": right by luck";
        return "none did harm" + when + "; " + counted(f.count, noun) + (f.count == 1 ? " was" : " were") +
               " right by luck";
    }
    std::string out = harm_text(f.hazard, f.harmful) + when;
    if (lucky > 0)
        out += "; " + with_thousands(lucky) + " more " + noun + (lucky == 1 ? " was" : "s were") +
               " right by luck";
    return out;
}

// What the loads of a stale read did: see render_message in findings.h.
std::string stale_counts(const Finding& f) {
    const std::string when = f.runs > 1 ? " in " + std::to_string(f.runs) + " runs" : " in this run";
    const std::string noun = f.count_noun.empty() ? std::string("load") : f.count_noun;
    const uint64_t lucky = f.count > f.harmful ? f.count - f.harmful : 0;
    if (f.harmful == 0) {
        if (f.count == 1) return "it read the new value" + when + ": right by luck";
        return "none read the old value" + when + "; " + counted(f.count, noun) +
               (f.count == 1 ? " was" : " were") + " right by luck";
    }
    std::string out = counted(f.harmful, noun) + " read the old value" + when;
    if (lucky > 0)
        out += "; " + with_thousands(lucky) + " more " + noun + (lucky == 1 ? " was" : "s were") + " right by luck";
    return out;
}

} // namespace

void render_message(Finding& f) {
    f.message = f.text;
    if (f.kind == FindingKind::Race && f.check == "scope_race") {
        // Atomics record their operand, not what they read: no pair can be shown harmful or right.
        f.message +=
            " (" + counted(f.count, f.count_noun.empty() ? std::string("racing access pair") : f.count_noun) +
            (f.runs > 1 ? " in " + std::to_string(f.runs) + " runs" : "") + ")";
        return;
    }
    if (f.kind == FindingKind::Race) {
        f.message += " (" + race_counts(f) + ")";
        return;
    }
    if (f.kind == FindingKind::StaleRead && f.check == "flag_without_fence") {
        f.message += " (" + stale_counts(f) + ")";
        return;
    }
    if (f.kind == FindingKind::Contention) {
        // Its text carries its own figures (counts, queue depth, latencies) from its first run.
        if (f.runs > 1) f.message += " (figures of the first of " + std::to_string(f.runs) + " runs)";
        return;
    }
    const bool lost_update = f.kind == FindingKind::LostUpdate;
    if (f.count <= 1 && f.runs <= 1 && !lost_update) return;
    std::string counts = counted(f.count, f.count_noun.empty() ? std::string("occurrence") : f.count_noun);
    if (lost_update) {
        counts += f.lost == 0
                      ? (f.runs > 1 ? ", no update lost in these runs" : ", no update lost in this run")
                      : ", " + counted(f.lost, "update") + " lost";
    }
    if (f.runs > 1) counts += " in " + std::to_string(f.runs) + " runs";
    f.message += " (" + counts + ")";
}

namespace {

// A finding's origins without the empty entries at their end (a finding whose lines were given
// without origins and one with empty origins are at the same places).
std::vector<trace::LineOrigin> trimmed_origins(const Finding& f) {
    std::vector<trace::LineOrigin> origins = f.origins;
    if (origins.size() > f.lines.size()) origins.resize(f.lines.size());
    while (!origins.empty() && origins.back().empty())
        origins.pop_back();
    return origins;
}

// The same finding to the reader: one kind, found by one check, with one hazard on one space at the
// same source (and PTX) lines, reached through the same inlined calls. Copies of one line (an
// unrolled loop gives one site per copy) are one finding; one line of a helper called from two
// places is two.
auto same_finding_key(const Finding& f) {
    return std::make_tuple(f.kind, f.check, f.hazard, f.space, f.lines, f.ptx_lines, trimmed_origins(f));
}

// Adds `f` into the matching finding of `into` (keeping that one's example), or appends it.
// `same_run`: `f` comes from the run the match came from (its runs are counted already).
void merge_one(std::vector<Finding>& into, const Finding& f, bool same_run) {
    for (Finding& g : into) {
        if (same_finding_key(g) != same_finding_key(f)) continue;
        g.count += f.count;
        g.harmful += f.harmful;
        g.lost += f.lost;
        if (!same_run) g.runs += f.runs;
        render_message(g);
        return;
    }
    into.push_back(f);
}

} // namespace

void merge_findings(std::vector<Finding>& into, const std::vector<Finding>& more) {
    for (const Finding& f : more)
        merge_one(into, f, false);
}

namespace {

// The order analyze() appends the kinds in (finding_kinds.h: deadlock first, contention last).
int kind_rank(FindingKind kind) { return info(kind).rank; }

// Shared memory before global memory (the race analyses' order), then the others.
int space_rank(trace::Space space) {
    switch (space) {
    case trace::Space::Shared:
        return 0;
    case trace::Space::Global:
        return 1;
    case trace::Space::Local:
        return 2;
    case trace::Space::Other:
        break;
    }
    return 3;
}

} // namespace

bool shown_before(const Finding& a, const Finding& b) {
    // A performance finding comes after every correctness finding, however many atomics it counts.
    const bool pa = a.kind == FindingKind::Contention, pb = b.kind == FindingKind::Contention;
    if (pa != pb) return pb;
    if (a.harmful != b.harmful) return a.harmful > b.harmful;
    if (a.count != b.count) return a.count > b.count;
    const int ka = kind_rank(a.kind), kb = kind_rank(b.kind);
    const int sa = space_rank(a.space), sb = space_rank(b.space);
    return std::tie(ka, sa, a.lines, a.ptx_lines, a.sites, a.hazard) <
           std::tie(kb, sb, b.lines, b.ptx_lines, b.sites, b.hazard);
}

void order_findings(std::vector<Finding>& findings) {
    std::stable_sort(findings.begin(), findings.end(), shown_before);
}

void merge_same_lines(std::vector<Finding>& findings) {
    std::vector<Finding> merged;
    merged.reserve(findings.size());
    for (const Finding& f : findings)
        merge_one(merged, f, true);
    findings = std::move(merged);
}

} // namespace synclab::analysis
