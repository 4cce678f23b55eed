// Analysis over one trace: each analysis reads trace::Trace only (never the simulator or the GPU),
// so the same findings come from a fresh run, a GPU run or a saved .slt file.
#pragma once

#include "trace/trace.h"

#include <cstdint>
#include <string>
#include <vector>

namespace synclab::analysis {

enum class FindingKind : uint8_t {
    Race,              // unordered conflicting accesses (hazard says RAW / WAR / WAW)
    BarrierDivergence, // a barrier phase completed by arrivals at different barrier instructions,
                       // lanes of one warp at different barriers, or a warp executing an aligned
                       // barrier while some of its live lanes are elsewhere
    LostUpdate,        // non-atomic read-modify-write of one global address by several threads
    Deadlock,          // the run ended with threads waiting forever (from RunMeta + thread table)
};
const char* to_string(FindingKind kind); // "race", "barrier_divergence", "lost_update", "deadlock"

enum class Hazard : uint8_t { None, RAW, WAR, WAW };
const char* to_string(Hazard hazard); // "", "RAW", "WAR", "WAW"

// Field conventions (all analyses):
// - sites: one instruction index per distinct line involved (first access first); a site's line is
//   its CUDA source line, or its PTX line where it has none (Site::source_line == 0).
// - lines: the CUDA source lines of those sites, deduplicated, in the same order; a site without a
//   source line is not in `lines` but its PTX line is in `ptx_lines`. Messages say "line 12" for the
//   one and "PTX line 40" for the other.
// - space: the memory space for Race / LostUpdate; trace::Space::Other for BarrierDivergence and
//   Deadlock (no memory involved).
// - address: Race / LostUpdate: a byte address in `space`; barrier findings: the barrier id.
// - text names threads by their index inside the block ("thread 31 ... in block 0"), or by
//   "block B thread T" where a finding spans blocks.
// - message = text + the counts ("(12 racing access pairs)"), rendered from count, lost, runs and
//   count_noun by render_message(): after a merge of several runs the message is rendered again, so
//   its numbers always agree with the fields.
struct Finding {
    FindingKind kind = FindingKind::Race;
    // Which check of the kind found it (a barrier phase completed at different instructions, a warp
    // split at a barrier, ...): findings of different checks stay apart when findings merge.
    std::string check;
    Hazard hazard = Hazard::None;
    trace::Space space = trace::Space::Shared;
    std::vector<uint32_t> lines;     // CUDA source lines involved (see above)
    std::vector<uint32_t> ptx_lines; // PTX lines of the sites that have no CUDA source line
    std::vector<uint32_t> sites;     // one instruction index per distinct line (see above)
    std::vector<uint32_t> threads;   // example threads (trace thread indices), first access's thread first
    uint64_t count = 0;              // occurrences, each one a `count_noun`
    uint64_t lost = 0;               // LostUpdate: of the updates counted, those seen overwritten
    uint32_t runs = 1;               // runs whose findings were merged into this one (merge_findings)
    uint64_t address = 0;            // an example address (space-relative)
    uint32_t block = 0;              // an example block
    std::string count_noun;          // what one occurrence is, singular: "racing access pair"
    std::string text;                // one readable sentence with lines and threads, without counts
    std::string message;             // text and counts (render_message)
};

// Sets finding.message from its text and counts: the text, then, where count > 1 or runs > 1,
// " (N <count_noun>s[, L updates lost][ in R runs])".
void render_message(Finding& finding);

// Merges `more` (the findings of another run) into `into`: findings of the same kind, check, hazard,
// space, lines and PTX lines add their counts and runs, keep the first run's example, and get their
// message rendered again; the others are appended.
void merge_findings(std::vector<Finding>& into, const std::vector<Finding>& more);

// Within one run: findings the reader cannot tell apart (same kind, check, hazard, space and lines, e.g.
// the copies of one line in an unrolled loop) become one, their counts added (runs unchanged).
// analyze() does this; the order of first appearance is kept.
void merge_same_lines(std::vector<Finding>& findings);

// Whether `site`'s line is one of the finding's: its CUDA source line is in `lines`, or it has none
// and its PTX line is in `ptx_lines`.
bool at_finding_line(const trace::Trace& trace, const Finding& finding, uint32_t site);

// Which blocks the analyses used. They use the events of blocks whose history is whole only
// (trace::BlockHistory): an access whose barrier events were lost would look unordered.
struct Coverage {
    uint32_t blocks = 0;                // blocks of the launch
    uint32_t analysed = 0;              // of them, with a whole history
    std::vector<uint32_t> partial;      // lost some of their events
    std::vector<uint32_t> not_recorded; // not traced (left out to fit the trace buffer)
    std::vector<uint32_t> not_started;  // not traced: they never started (the run stopped first)
    bool recorded = true;               // the trace has a thread table (else nothing was analysed)
    bool complete() const { return recorded && analysed == blocks; }
    // "analysed all 64 blocks", or e.g. "analysed 12 of 64 blocks: blocks 12-15 lost events (the
    // trace buffer was full), blocks 16-63 were not recorded".
    std::string summary;
};
Coverage coverage(const trace::Trace& trace);

struct Options {
    uint32_t max_findings_per_kind = 64;
};

// Runs every analysis over the blocks with a whole history (coverage()) and returns the findings,
// most important first: deadlock, barrier divergence, race (shared, then global), lost update;
// inside a kind ordered by lines (then sites, hazard), at most options.max_findings_per_kind of each
// kind (shared and global races are capped separately).
std::vector<Finding> analyze(const trace::Trace& trace, const Options& options = {});

// Individual analyses (exposed for tests).
std::vector<Finding> find_shared_races(const trace::Trace& trace, const Options& options = {});
// Races on global memory, leaving out the pairs of accesses that a lost_update finding explains.
// `stats`, when given, receives the size of the analysis's shadow state.
struct ShadowStats {
    uint64_t words = 0;       // 4-byte words with shadow state
    uint64_t bytes = 0;       // bytes of shadow state at the peak (cells, pages, reader sets)
    uint64_t split_words = 0; // of them, tracked byte by byte (sub-word accesses)
};
std::vector<Finding> find_global_races(const trace::Trace& trace, const Options& options = {},
                                       ShadowStats* stats = nullptr);
std::vector<Finding> find_barrier_divergence(const trace::Trace& trace, const Options& options = {});
std::vector<Finding> find_lost_updates(const trace::Trace& trace, const Options& options = {});
std::vector<Finding> find_deadlock(const trace::Trace& trace);

// The line that stands for `site` where findings tell sites apart: its CUDA source line, or its PTX
// line when the source line is unknown (0); 0 when `site` is not in the site table. Lines of both
// kinds share one number space here: use it to group sites, at_finding_line() to match them.
uint32_t line_of(const trace::Trace& trace, uint32_t site);

} // namespace synclab::analysis
