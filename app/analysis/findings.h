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
                       // or lanes of one warp at different barriers
    LostUpdate,        // non-atomic read-modify-write of one global address by several threads
    Deadlock,          // the run ended with threads waiting forever (from RunMeta + thread table)
};
const char* to_string(FindingKind kind); // "race", "barrier_divergence", "lost_update", "deadlock"

enum class Hazard : uint8_t { None, RAW, WAR, WAW };
const char* to_string(Hazard hazard); // "", "RAW", "WAR", "WAW"

// Field conventions (all analyses):
// - lines: the CUDA source line of each site; where a site has no source line (Site::source_line ==
//   0) its PTX line stands in, and the message then says "PTX line N" instead of "line N".
// - space: the memory space for Race / LostUpdate; trace::Space::Other for BarrierDivergence and
//   Deadlock (no memory involved).
// - address: Race / LostUpdate: a byte address in `space`; barrier findings: the barrier id.
// - messages name threads by their index inside the block ("thread 31 ... in block 0"), or by
//   "block B thread T" where a finding spans blocks.
struct Finding {
    FindingKind kind = FindingKind::Race;
    Hazard hazard = Hazard::None;
    trace::Space space = trace::Space::Shared;
    std::vector<uint32_t> lines;   // CUDA source lines involved, first access first (deduplicated)
    std::vector<uint32_t> sites;   // instruction indices matching `lines` (first occurrence)
    std::vector<uint32_t> threads; // example threads (trace thread indices), first access's thread first
    uint64_t count = 0;            // occurrences (racing access pairs, divergent phases, threads ...)
    uint64_t address = 0;          // an example address (space-relative)
    uint32_t block = 0;            // an example block
    std::string message;           // one readable sentence with lines and threads
};

struct Options {
    uint32_t max_findings_per_kind = 64;
};

// Runs every analysis and returns the findings, most important first: deadlock, barrier divergence,
// race, lost update; inside a kind ordered by lines (then sites, hazard), at most
// options.max_findings_per_kind of each kind.
std::vector<Finding> analyze(const trace::Trace& trace, const Options& options = {});

// Individual analyses (exposed for tests).
std::vector<Finding> find_shared_races(const trace::Trace& trace, const Options& options = {});
std::vector<Finding> find_barrier_divergence(const trace::Trace& trace, const Options& options = {});
std::vector<Finding> find_lost_updates(const trace::Trace& trace, const Options& options = {});
std::vector<Finding> find_deadlock(const trace::Trace& trace);

// Line a finding uses for `site`: its CUDA source line, or its PTX line when the source line is
// unknown (0); 0 when `site` is not in the site table.
uint32_t line_of(const trace::Trace& trace, uint32_t site);

// Formats ids (thread or lane indices) compactly: sorted, duplicates dropped, consecutive runs as
// "0-127", runs of 4 or more with one stride > 1 as "1, 3, ..., 31"; e.g. "0-127, 130, 200-255".
// After `max_pieces` pieces the rest is summarised as "and N more".
std::string format_thread_list(std::vector<uint32_t> ids, size_t max_pieces = 8);

} // namespace synclab::analysis
