// Where one output value came from: the store that left it, the loads of that store's thread that
// read a stale value before it, and the stores of other threads that raced with it. For the app's
// timeline and output grid (a click on a wrong output marks these events); no UI here.
//
// An output element i of a buffer is the global address runner::RunSummary::buffer_addresses[b] +
// i * element size (the simulator's placement of the buffer in the kept repetition's trace).
#pragma once

#include "analysis/findings.h"
#include "trace/naming.h"
#include "trace/trace.h"

#include <cstdint>
#include <string>
#include <vector>

namespace synclab::analysis {

constexpr uint64_t kNoEvent = UINT64_MAX;

// Why a load's value was stale (findings.h, "Harm").
enum class Staleness : uint8_t {
    OldValue,    // WAR: it ran before a racing store that comes first in the program and read the old
                 // value (the stencil's neighbour load before the neighbour's store)
    TooEarly,    // RAW: it ran after a racing store that comes later in the program, which changed the
                 // value (an in-place reverse whose store overtook the other thread's load)
    Overwritten, // lost update: it loaded the address its thread then stored to (the output), and a
                 // racing store of another thread changed it in between; that update was lost
};
const char* to_string(Staleness staleness); // "old_value", "too_early", "overwritten"

// A load that read a stale value: a racing load that did harm.
struct StaleLoad {
    uint64_t load = kNoEvent;   // event index (into trace.events) of the load
    uint64_t writer = kNoEvent; // event index of the racing store (OldValue: the value it should have
                                // read; TooEarly: the value it read; Overwritten: the lost update)
    Staleness why = Staleness::OldValue;
    uint32_t writer_thread = 0; // trace thread index of `writer`
    uint32_t writer_site = 0;   // site of `writer` (instruction index)
    uint32_t value_read = 0;    // the load's value (trace::Event::value)
    uint32_t value_written = 0; // the racing store's value
};

struct OutputProvenance {
    bool written = false;      // a store (of a block with a whole history) wrote the address
    uint64_t store = kNoEvent; // event index of the store that left the final value: the last write
                               // of the address in trace order
    uint32_t thread = 0;       // its trace thread index
    uint32_t site = 0;         // its site (instruction index)
    uint32_t line = 0;         // its CUDA source line (0: unknown)
    uint32_t value = 0;        // its value (trace::Event::value)
    // Loads of `thread` before `store` (of shared or global memory) that read a stale value, in
    // trace order, each once (with the first racing store that shows it).
    std::vector<StaleLoad> stale_loads;
    // Stores of other threads to the bytes of `store`, before it, that nothing orders with it (it
    // overwrote them: WAW), in trace order; the first kMaxRacingWriters of racing_writer_count.
    static constexpr size_t kMaxRacingWriters = 64;
    std::vector<uint64_t> racing_writers;
    uint64_t racing_writer_count = 0;
};

// Explains the final value of byte `address` of `space` (Global for an output buffer; Shared needs
// `block`, whose window the address is in). Reads the events of blocks with a whole history only
// (coverage()), with the race analyses' happens-before (barrier epochs inside a block; different
// blocks are never ordered) and their notion of intended order and values (findings.h, "Harm").
// Cost: two passes over the trace.
OutputProvenance explain_output(const trace::Trace& trace, trace::Space space, uint64_t address,
                                uint32_t block = 0);

// The patterns describe() writes its paragraph with, {0}, {1}... filled in order: English here; the
// app passes the same sentences in Chinese, so that both languages come from one function.
struct ProvenanceWords {
    const char* none = "no store wrote this address";
    trace::Language language = trace::Language::En; // of thread names (trace::thread_name)
    const char* line = "line {0}";               // CUDA line
    const char* ptx_line = "PTX line {0}";       // a site without a CUDA line
    const char* unknown_line = "an unknown line";
    const char* stored = "{0} stored {1} ({2})"; // thread, value, line
    const char* old_value =
        "; its load at {0} read {1}, the old value: {2} stored {3} there ({4}) after it, {5}";
    const char* too_early =
        "; its load at {0} read {1} too early: {2} had stored it ({3}, later in the program), {4}";
    const char* overwritten = "; its load at {0} read {1}, then {2} stored {3} there ({4}) before this store "
                              "overwrote it: that update was lost";
    const char* no_barrier = "with no barrier between them";
    const char* other_blocks = "threads of different blocks are not ordered";
    const char* more = "; and {0} more stale loads";
    const char* none_stale = "; none of its loads read a stale value";
    const char* overwrote_one = "; it overwrote {0} racing store of other threads (e.g. {1}, {2})";
    const char* overwrote_many = "; it overwrote {0} racing stores of other threads (e.g. {1}, {2})";
};

// One readable paragraph, values in their type (trace::event_value), e.g. "block 0 thread 31 stored
// 9.0 (line 48); its load at line 46 read 0.0, the old value: block 0 thread 32 stored 7.0 there
// (line 42) after it, with no barrier between them"; "no store wrote this address" when !written.
std::string describe(const trace::Trace& trace, const OutputProvenance& provenance,
                     const ProvenanceWords& words = {});

} // namespace synclab::analysis
