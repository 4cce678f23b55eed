// Export of a Trace as Chrome trace-event JSON, for ui.perfetto.dev and chrome://tracing.
//
// Output: {"traceEvents":[...], "displayTimeUnit":"ns", "metadata":{RunMeta fields, "clock", ...}}
//
//   process  = one block ("block 3", pid = block + 1; named with "M" process_name/process_sort_index)
//   thread   = one warp: track "warp 2" (phases and instants) and, when the warp reached a barrier,
//              a sibling track "warp 2 barriers" (barrier waits). tids are unique across the whole
//              trace (two per warp) because viewers differ in whether tids are scoped by pid.
//   "X" slices "phase k" (cat "phase"): on the warp track, from the earliest to the latest event of
//              the warp's lanes in phase k, where a lane's phase is the number of barrier leaves it
//              has seen (phase 0 is before the first barrier; a leave opens the next phase).
//   "X" slices "barrier <id>" (cat "barrier"): on the barrier track, one per warp and phase, from the
//              first lane's arrive to the last lane's leave; args: barrier, phase (the block's phase
//              number of that barrier), warp_phase, lanes, line, ptx_line, ptx. A barrier never left
//              (deadlock) is named "barrier <id> (never released)" and lasts to the end of the trace.
//   "i" instants (scope "t"): memory accesses named "<ld|st|atom|red>[.<space>] line N" (cat
//              "memory"), fences "fence[.cta|.gpu|.sys] line N" (cat "fence"), exits "exit line N"
//              (cat "exit"); args: thread, lane, address (hex string), value, size, line, ptx_line, ptx,
//              and volatile / ordered / scope when set. ("ptx N" replaces "line N" when the CUDA line is
//              unknown.) "line N" is the access's own line, inside any inlined __device__ helper; such a
//              site's args (accesses and barriers) add "function" (the helper), "called_from" (the
//              call lines, innermost first), "file" (when the line is in another file than the
//              kernel's) and "where": "line 20 in `reduce<true>`, called from line 29". With the cost model's
//              timing (Trace::timing) also issue_cycle and latency_cycles, and queue_depth for atomics:
//              modelled SM cycles (ts stays the tick).
//   metadata:  RunMeta fields, modelled_cycles among them (0: not modelled).
//
// Slices on one track never overlap (a slice that would start inside the previous one starts where
// it ends), because the JSON format only allows perfectly nested slices. On every track the events
// are written in nondecreasing ts order.
//
// Time: "ts" is in microseconds. Simulator ticks are logical: ts = tick / 1000, i.e. one tick shows
// as 1 ns. GPU times (meta.backend == "gpu") are %globaltimer ns, shifted so the first event is at 0.
// ts and dur are printed as exact decimals (at most 3 fractional digits).
//
// The export reads any Trace without crashing: events whose thread index is out of range or whose
// kind is unknown are skipped (counted in metadata.skipped_events); an out-of-range site shows line 0
// and empty PTX. Strings are JSON-escaped; invalid UTF-8 bytes become U+FFFD so the output is always
// valid JSON.
#pragma once

#include "trace/trace.h"

#include <iosfwd>
#include <string>
#include <string_view>

namespace synclab::trace {

// Writes the JSON to `out` (streaming: memory use is O(events) of small indices, not O(output)).
// Throws std::runtime_error if the stream fails.
void export_chrome_json(const Trace& trace, std::ostream& out);

// Writes the JSON to `path` atomically ("<path>.tmp", then rename). Throws TraceFileError (from
// slt_file.h) with the path and errno text on failure; `path` is then left as it was.
void export_chrome_json(const Trace& trace, const std::string& path);

// Appends `text` as a JSON string literal (with the quotes) to `out`: '"', '\\' and control
// characters escaped, valid UTF-8 passed through, each invalid byte replaced by U+FFFD.
void append_json_string(std::string& out, std::string_view text);

} // namespace synclab::trace
