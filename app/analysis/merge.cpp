// Messages rendered from a finding's counts, and the merge of the findings of several runs.
#include "analysis/findings.h"

#include <tuple>

namespace synclab::analysis {

namespace {

std::string counted(uint64_t n, const std::string& noun) {
    return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

} // namespace

void render_message(Finding& f) {
    f.message = f.text;
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

// The same finding to the reader: one kind, found by one check, with one hazard on one space at the
// same source (and PTX) lines. Copies of one line (an unrolled loop gives one site per copy) are one
// finding.
auto same_finding_key(const Finding& f) {
    return std::tie(f.kind, f.check, f.hazard, f.space, f.lines, f.ptx_lines);
}

// Adds `f` into the matching finding of `into` (keeping that one's example), or appends it.
// `same_run`: `f` comes from the run the match came from (its runs are counted already).
void merge_one(std::vector<Finding>& into, const Finding& f, bool same_run) {
    for (Finding& g : into) {
        if (same_finding_key(g) != same_finding_key(f)) continue;
        g.count += f.count;
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

void merge_same_lines(std::vector<Finding>& findings) {
    std::vector<Finding> merged;
    merged.reserve(findings.size());
    for (const Finding& f : findings)
        merge_one(merged, f, true);
    findings = std::move(merged);
}

} // namespace synclab::analysis
