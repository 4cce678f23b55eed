// Analysis over one trace: each analysis reads trace::Trace only (never the simulator or the GPU),
// so the same findings come from a fresh run, a GPU run or a saved .slt file.
#pragma once

#include "trace/naming.h"
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
    StaleRead,         // a load ordered after a write only by a flag it observed (no fence, or a
                       // fence whose scope excludes the other thread): it may read the value from
                       // before that write; harmful = the loads that did (check
                       // "flag_without_fence"); or a load ordered after a write by happens-before
                       // that still read an older value: the trace breaks the memory model
                       // ("ordered_read_stale"; harmful = count). Such a pair is not also a race.
    Contention,        // a performance finding, not a bug: many atomics on one hot address queue
                       // behind each other (the cost model's queue depth and latency), with the
                       // source line that issues them
    OutOfBounds,       // a global access not wholly inside one buffer or `__device__` variable of
                       // the launch (find_out_of_bounds; only where the trace's memory map is
                       // complete)
};
const char* to_string(FindingKind kind); // "race", "barrier_divergence", "lost_update", "deadlock",
                                         // "stale_read", "contention", "out_of_bounds"

enum class Hazard : uint8_t { None, RAW, WAR, WAW };

// What a stale read's flag chain lacks (Finding::missing), writer's half and reader's half.
namespace missing {
constexpr uint8_t kWriterFence = 1u << 0; // no fence (or release) between the data and the flag write
constexpr uint8_t kWriterScope = 1u << 1; // the writer's fence or release has a scope without the reader
constexpr uint8_t kReaderFence = 1u << 2; // no fence (or acquire) between seeing the flag and the read
constexpr uint8_t kReaderScope = 1u << 3; // the reader's fence or acquire has a scope without the writer
constexpr uint8_t kFlagScope = 1u << 4;   // both halves there, the flag accesses not morally strong
} // namespace missing
const char* to_string(Hazard hazard); // "", "RAW", "WAR", "WAW"

// Field conventions (all analyses):
// - sites: one instruction index per distinct line involved (first access first); a site's line is
//   its CUDA source line, or its PTX line where it has none (Site::source_line == 0).
// - lines: the CUDA source lines of those sites, deduplicated, in the same order; a site without a
//   source line is not in `lines` but its PTX line is in `ptx_lines`. Messages say "line 12" for the
//   one and "PTX line 40" for the other. A line is the access's own line (trace::Site::source_line):
//   inside an inlined __device__ helper, the helper's line, and messages name the calls that lead
//   there: "line 20 in `reduce<true>`, called from line 29" (trace::site_line_text).
// - origins: parallel to `lines`, where each line is beyond its number (trace::LineOrigin: its file
//   when not the kernel's, the inlined calls); empty entries for lines of the kernel's body, and
//   entries past the end of `origins` are empty too. One line reached through two different calls
//   (a helper called twice) is two places: two entries of `lines`, two findings where they differ.
// - space: the memory space for Race / LostUpdate; trace::Space::Other for BarrierDivergence and
//   Deadlock (no memory involved).
// - address: Race / LostUpdate: a byte address in `space`; barrier findings: the barrier id.
// - text names a thread as trace::thread_name does, "block 0 thread 31" (with "(warp 0, lane 31)"
//   where lanes matter), and memory as the source names it, "s_tile[159]" (trace::memory_name;
//   the address where no variable or buffer holds it).
// - memory, region: the example address named (see the fields).
// - message = text + the counts, rendered from count, harmful, lost, runs and count_noun by
//   render_message(): after a merge of several runs the message is rendered again, so its numbers
//   always agree with the fields.
// - harmful: of the `count` occurrences, those that did harm in this run (see "Harm" below).
//
// Harm. A race finding counts every racing pair, but most of them may have run in the order the
// programmer meant and left the right values (the stencil without its barrier: about 16,000 pairs
// where the store came before the neighbour's load, and a few hundred where the load came first and
// read the old value: only those are the wrong outputs). `harmful` counts the pairs whose order in
// this run made a thread read a stale value or lose a write:
// - Intended order. The checker cannot know what the programmer meant; it takes the order of the
//   two accesses in the program: the access whose instruction comes first (the lower CUDA source line
//   where both sites have one and the lines differ, else the lower instruction index) is the one a
//   barrier placed between them would make happen first (stencil: store line 42, loads lines 45 and
//   46; an in-place reverse: the load, then the store). A pair that ran in that order did what the
//   missing synchronisation would have enforced: it did no harm (right by luck).
// - A pair that ran against that order did harm when the values say so:
//     WAR (the load ran before the store it should have followed): the value the load read differs
//         from the value the store wrote: "the load read the old value";
//     RAW (the store ran before the load that should have come first): the store changed the value
//         (the store's value differs from what the memory held before it): "the load read the new
//         value too early";
//     WAW (the store meant to be last was overwritten; also two stores at one site): the two
//         stores wrote different values: "a write was lost".
//   Values are the low 32 bits the trace records (trace::Event::value), compared byte by byte where
//   the accesses overlap; a pair none of whose bytes can be compared (bytes 4-7 of an 8-byte access,
//   the memory's value after an atomic) counts as harmful: nothing shows it was right. The value a
//   load read is the memory's value since the last write (the trace's order is the order of the
//   simulator's sequentially consistent memory; for a GPU trace or a relaxed memory model it is an
//   approximation).
// - Limits: in a loop, a pair of different iterations is judged by the places of its two
//   instructions in the loop body, not by the iterations (a store at the end of iteration k and a
//   load at the top of iteration k + 1 count as "load first").
// - LostUpdate: harmful = lost (the updates seen overwritten). Deadlock and BarrierDivergence always
//   do harm: harmful = count.
struct Finding {
    FindingKind kind = FindingKind::Race;
    // Which check of the kind found it (a barrier phase completed at different instructions, a warp
    // split at a barrier, ...): findings of different checks stay apart when findings merge.
    std::string check;
    Hazard hazard = Hazard::None;
    trace::Space space = trace::Space::Shared;
    std::vector<uint32_t> lines;     // CUDA source lines involved (see above)
    std::vector<trace::LineOrigin> origins; // parallel to `lines`: their files and inlined calls (see above)
    std::vector<uint32_t> ptx_lines; // PTX lines of the sites that have no CUDA source line
    std::vector<uint32_t> sites;     // one instruction index per distinct line (see above)
    std::vector<uint32_t> threads;   // example threads (trace thread indices), first access's thread first
    uint64_t count = 0;              // occurrences, each one a `count_noun`
    uint64_t harmful = 0;            // of the `count`, those that did harm in this run (see "Harm")
    uint64_t lost = 0;               // LostUpdate: of the updates counted, those seen overwritten
    uint32_t runs = 1;               // runs whose findings were merged into this one (merge_findings)
    uint64_t address = 0;            // an example address (space-relative)
    // Race, LostUpdate, StaleRead, Contention: `address` as the kernel's source names it
    // ("s_tile[159]", "g_counters[0]"), else its address ("__shared__ address 0x27c"); "" for
    // findings about no memory. `region`: the variable or buffer holding it ("s_tile"), "" for none.
    std::string memory;
    std::string region;
    uint32_t block = 0;              // an example block
    std::string count_noun;          // what one occurrence is, singular: "racing access pair"
    uint8_t missing = 0;             // StaleRead: what the flag chain lacks (missing:: bits), for the
                                     // app's words in every language
    std::string text;                // one readable sentence with lines and threads, without counts
    std::string message;             // text and counts (render_message)
};

// The finding's example address (Finding::address in Finding::space) as the kernel's source names
// it, "s_tile[159]", an untyped array indexed by the width of the access at the finding's last site
// (a race's later access, a lost update's store, a stale read's load); where no variable or buffer
// holds it, the address in words ("__shared__ address 0x27c"). Finding::memory holds it in English;
// the app asks for it in its language.
std::string memory_name(const trace::Trace& trace, const Finding& finding,
                        trace::Language language = trace::Language::En);

// Sets finding.message from its text and counts (numbers with thousands separators: "16,151").
// Races always say what the pairs did: the text, then " (H <harm>[; N more <count_noun>s were
// right by luck])" where harmful H > 0 (harm per hazard: WAR "loads read the old value", RAW "loads
// read the new value too early", WAW "writes were lost"), else " (none did harm in this run; N
// <count_noun>s were right by luck)" ("it did no harm in this run: right by luck" for one pair);
// "in this run" becomes "in R runs" after a merge; a scope race (check "scope_race", whose harm the
// trace cannot show) says its count alone: " (N racing access pairs[ in R runs])". Stale reads of a
// flag chain (check "flag_without_fence") alike, in loads: " (H loads read the old value[; N more
// loads were right by luck])", " (none read the old value in this run; N loads were right by
// luck)" or " (it read the new value in this run: right by luck)". Contention: its text has its
// figures; after a merge " (figures of the first of R runs)". Other kinds: the text, then, where
// count > 1 or runs > 1 (or for a lost update), " (N <count_noun>s[, L updates lost][ in R runs])".
void render_message(Finding& finding);

// "16,151"
std::string with_thousands(uint64_t n);

// Merges `more` (the findings of another run) into `into`: findings of the same kind, check, hazard,
// space, lines and PTX lines add their counts, harmful, lost and runs, keep the first run's example,
// and get their message rendered again; the others are appended (order_findings() orders the result).
void merge_findings(std::vector<Finding>& into, const std::vector<Finding>& more);

// The order findings are shown in: correctness findings first (contention, a performance finding,
// after all of them), and among those the most harmful first: harmful descending, then count descending,
// then as the analyses rank them (deadlock, out-of-bounds access, barrier divergence, race on shared,
// then global memory, stale read, lost update), then by lines, PTX lines, sites and hazard. Stable: equal
// findings keep their order. analyze() returns findings in this order; call it again after merge_findings
// (the runner does).
void order_findings(std::vector<Finding>& findings);
// Whether `a` comes before `b` in that order.
bool shown_before(const Finding& a, const Finding& b);

// Within one run: findings the reader cannot tell apart (same kind, check, hazard, space and lines, e.g.
// the copies of one line in an unrolled loop) become one, their counts added (runs unchanged).
// analyze() does this; the order of first appearance is kept.
void merge_same_lines(std::vector<Finding>& findings);

// The origin of finding.lines[i] (Finding::origins; an empty one past its end).
const trace::LineOrigin& origin_of(const Finding& finding, size_t i);

// The lines of the kernel's own source file that stand for the finding's lines: each line itself,
// or, for a line in another file (a helper in a header), the innermost call in the kernel's file
// (trace::Site::kernel_file_line); lines with no such call are left out. What a view of the
// kernel's file marks. In the order of `lines`, deduplicated.
std::vector<uint32_t> kernel_file_lines(const Finding& finding);

// Whether `site`'s line is one of the finding's: its CUDA source line, with the same origin, is in
// `lines`, or it has none and its PTX line is in `ptx_lines`.
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

class StreamedAnalysis; // streamed.h

struct Options {
    uint32_t max_findings_per_kind = 64;
    // A trace recorded with analysis as the run went (streamed.h): its shared races come from there,
    // after StreamedAnalysis::finish().
    const StreamedAnalysis* streamed = nullptr;
};

// Runs every analysis over the blocks with a whole history (coverage(); the bounds check reads every
// block) and returns the findings most harmful first (order_findings(): harmful descending, then count
// descending, then deadlock, out-of-bounds access, barrier divergence, race (shared, then global),
// stale read, lost update, then lines): finding 0, which the app focuses first, is the one that did
// the most harm in this run. At most
// options.max_findings_per_kind of each kind are kept, the most harmful (shared and global races are
// capped separately).
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
// Stale reads on global memory (FindingKind::StaleRead): a read that follows a write of another
// thread only through a flag it observed, with no fence (or a fence of too narrow a scope) on one
// side (check "flag_without_fence"), or a read ordered after a write that returned another value
// (check "ordered_read_stale"). Synchronisation as global_races.cpp and sync_order.h describe it.
std::vector<Finding> find_stale_reads(const trace::Trace& trace, const Options& options = {});
// Scope races on global memory (FindingKind::Race, check "scope_race"): two strong accesses of
// threads of different blocks (atomics, .volatile/.relaxed/.acquire/.release loads and stores), at
// least one a write, that nothing orders and that are not morally strong because one has block
// scope (atomicAdd_block() used by several blocks on one counter). scoped_atomics.cpp says which
// pairs are counted; the global race analysis leaves every pair of two strong accesses to it.
std::vector<Finding> find_scope_races(const trace::Trace& trace, const Options& options = {});
std::vector<Finding> find_barrier_divergence(const trace::Trace& trace, const Options& options = {});
std::vector<Finding> find_lost_updates(const trace::Trace& trace, const Options& options = {});
std::vector<Finding> find_deadlock(const trace::Trace& trace);
// Out-of-bounds accesses (FindingKind::OutOfBounds, check "outside_memory", bounds.cpp): every load,
// store, atomic and reduction of global memory whose bytes are not all inside one Global region of
// the trace's memory map. One finding per instruction (site): count = its accesses out of bounds
// (harmful = count: every one touched memory the kernel does not own), the example is the first
// such access in the trace, worded as the simulator words its fault: "out-of-bounds write of 4 bytes
// at line 7 by block 1 thread 3: 131008 bytes past the end of a (64 bytes)" ("N bytes before the
// start of a (64 bytes)", "from byte 62 of a (64 bytes), 2 bytes past its end" for an access that
// straddles the end, "global address 0x10, not inside any buffer" where no region is near). Runs
// only where the map is complete (trace::MemoryMap::complete): a map that only names memory (an old
// .slt, a cooperative launch) gives none. Reads every block's events, also of blocks with a partial
// history: one access out of bounds needs no ordering to be one. `.const` accesses are left alone
// (their addresses are the constant bank's on a GPU, not global addresses).
std::vector<Finding> find_out_of_bounds(const trace::Trace& trace, const Options& options = {});

// [SECTION] Contention (contention.cpp)
// One address's atomics: how many, from whom, from where, and (with the cost model's timing) how
// deep they queued and how long they took.
struct HotAddress {
    trace::Space space = trace::Space::Global;
    uint64_t address = 0; // global: device address; shared: offset (every block's copy together)
    uint64_t atomics = 0; // atomic and red events on it
    uint32_t threads = 0; // distinct threads
    uint32_t warps = 0;   // distinct warps (of all blocks)
    uint32_t blocks = 0;  // shared: blocks whose copy took atomics; global: 0
    uint32_t example_thread = 0;
    std::vector<std::pair<uint32_t, uint64_t>> sites; // (site, atomics), most first
    bool timed = false;                               // the trace has Trace::timing: the fields below are set
    uint32_t max_depth = 0;                           // most atomics queued ahead of one at this address
    double mean_depth = 0;
    uint32_t p50 = 0, p90 = 0, p99 = 0; // latency percentiles, modelled cycles
    bool hot = false;                   // meets the contention finding's threshold (contention.cpp)
};
struct ContentionStats {
    bool timed = false;              // Trace::timing present
    uint64_t atomics = 0;            // atomics on global and shared memory (whole blocks)
    uint64_t addresses = 0;          // distinct addresses they hit
    std::vector<HotAddress> hottest; // at most `top`, deepest queue first, then most atomics
};
ContentionStats contention_stats(const trace::Trace& trace, size_t top = 8);
// FindingKind::Contention, check "hot_address": one finding per line that issues hot atomics (the
// hottest address's figures; other hot addresses at that line are counted in its text), at most 4.
std::vector<Finding> find_contention(const trace::Trace& trace, const Options& options = {});

// The line that stands for `site` where findings tell sites apart: its CUDA source line, or its PTX
// line when the source line is unknown (0); 0 when `site` is not in the site table. Lines of both
// kinds share one number space here: use it to group sites, at_finding_line() to match them.
uint32_t line_of(const trace::Trace& trace, uint32_t site);

} // namespace synclab::analysis
