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

void merge_findings(std::vector<Finding>& into, const std::vector<Finding>& more) {
    auto key = [](const Finding& f) { return std::tie(f.kind, f.hazard, f.space, f.lines, f.ptx_lines); };
    for (const Finding& f : more) {
        bool merged = false;
        for (Finding& g : into) {
            if (key(g) != key(f)) continue;
            g.count += f.count;
            g.lost += f.lost;
            g.runs += f.runs;
            render_message(g);
            merged = true;
            break;
        }
        if (!merged) into.push_back(f);
    }
}

} // namespace synclab::analysis
