// A lesson's claims as data (claims.toml beside lesson.toml; the format is in
// assets/lessons/README.md, "claims.toml"). Each claim quotes words of the lesson's text (en.md, and
// zh.md where it says the same), names the `synclab` command that checks them, the backends on which
// they hold, and what that command's JSON must show: a run's status, findings, wrong outputs and
// outcome counts, or a ladder's order and ratios. runner/claims.h measures and judges them; this file
// only reads and checks the file against the lesson (its variants, parameters, buffers, texts).
#pragma once

#include "analysis/findings.h"
#include "launch/launch.h"
#include "scenario/scenario.h"
#include "trace/trace.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace synclab::scenario {

enum class ClaimCommandKind : uint8_t { Run, Ladder };

// The command of a claim, as `synclab` takes it after the program's name: "run stencil --variant
// missing_barrier --schedule random --reps 5" or "ladder atomic_counter --param threads=1048576".
// Only the options below are accepted (a claim's command must mean the same on every backend it
// names). Words the simulator defines (schedule, warp model) are kept as written and checked by the
// runner, which knows them (runner/claims.h, plan_claim).
struct ClaimCommand {
    ClaimCommandKind kind = ClaimCommandKind::Run;
    std::string text;    // as written in the file
    std::string variant; // run: --variant
    ParamValues params;  // --param NAME=CHOICE, in order
    // run: as `synclab run` defaults them
    std::string schedule = "random";
    std::string warp_model; // "" : the simulator's default (its)
    std::optional<launch::MemoryModel> memory;
    uint64_t seed = 1;
    uint32_t reps = 1;          // run: repetitions (seed + r); ladder: GPU launches per rung (default 20)
    bool reps_given = false;
    std::string histogram;      // run: --histogram BUFFER ("" : the lesson's [outcomes], if any)
    uint32_t per = 0;           // run: --per N
    uint64_t max_steps = 0;     // run: --max-steps N (0: the lesson's)
    bool untraced = false;      // run, GPU: --untraced (only the untraced launches)
    uint32_t sm_count = 0;      // ladder: --sm-count N (simulator)
    // Options that pick the simulator's behaviour; a claim naming one cannot hold on the GPU.
    bool simulator_only() const { return !warp_model.empty() || memory.has_value() || max_steps != 0; }
};

// [lo, hi], inclusive; a single number in the file is [n, n].
struct ClaimRange {
    double lo = 0, hi = 0;
    bool set = false;
    bool holds(double v) const { return v >= lo && v <= hi; }
};
std::string to_string(const ClaimRange& range); // "0", "1..5", "0.9..1"

// "A / B >= 5", "A / B <= 1.2", "A / B in 0.8..1.25": ladder rung A's time over rung B's.
struct ClaimRatio {
    std::string text;
    std::string a, b;
    ClaimRange bounds;
};

// "KIND: L1 L2 ...": the findings of KIND name every one of these CUDA lines.
struct ClaimFindingLines {
    std::string text;
    analysis::FindingKind kind = analysis::FindingKind::Race;
    std::vector<uint32_t> lines;
};

// "i % M in A..B, C: LO..HI": the share of a run's wrong outputs whose element index i, modulo M,
// lies in one of the ranges (i % 32 in 0, 31: lanes 31 and 0 where two warps meet; i % 256 in
// 128..255: the upper half of a 256-thread block's tile).
struct ClaimWrongAt {
    std::string text;
    uint64_t modulus = 1;
    std::vector<std::pair<uint64_t, uint64_t>> ranges; // inclusive
    ClaimRange share;
    bool covers(uint64_t index) const;
};

// "BUFFER[I]: LO..HI": an output element's final value lies in the range.
struct ClaimOutput {
    std::string text;
    std::string element; // "g_counter[0]", as measured
    std::string buffer;
    launch::ElemType type = launch::ElemType::U32; // as the lesson declares the buffer
    uint64_t index = 0;
    ClaimRange value;
};

// "KIND: words": a finding of KIND says these words (its message).
struct ClaimFindingSays {
    std::string text;
    analysis::FindingKind kind = analysis::FindingKind::Race;
    std::string words;
};

// "OUTCOME: LO..HI": the share of the histogram's records that are OUTCOME.
struct ClaimOutcomeShare {
    std::string text;
    std::string outcome;
    ClaimRange share;
};

// What the command's JSON must show. Each field is one predicate; unset ones are not checked. The
// JSON field each reads is in assets/lessons/README.md.
struct ClaimExpect {
    // run
    std::vector<trace::RunStatus> status;        // status is one of these
    std::vector<trace::RunStatus> traced_status; // GPU: the traced launch's status (gpu.traced.status)
    std::vector<analysis::FindingKind> findings;    // each fires
    std::vector<analysis::FindingKind> no_findings; // none of these fires
    bool only_findings_set = false;
    std::vector<analysis::FindingKind> only_findings; // nothing else fires ([] : no finding at all)
    std::vector<ClaimFindingLines> finding_lines;
    std::vector<ClaimFindingSays> finding_says;
    ClaimRange wrong_outputs;  // summed over the repetitions
    ClaimRange wrong_fraction; // wrong_outputs / checked_outputs
    ClaimRange reps_with_wrong;
    std::optional<ClaimWrongAt> wrong_at; // where the kept run's wrong outputs sit
    std::vector<ClaimOutput> outputs;     // the kept run's final values
    std::vector<std::string> message_has; // substrings of the run's message
    std::vector<std::string> outcomes_seen, outcomes_never;
    std::vector<ClaimOutcomeShare> outcome_share;
    ClaimRange cpu_stale;      // GPU host reader: pairs the CPU saw stale
    ClaimRange cpu_flags_seen; // GPU host reader: flags the CPU saw
    // ladder
    std::string slowest, fastest;
    std::vector<std::string> order; // slowest first, each strictly slower than the next
    std::vector<ClaimRatio> ratios;
    size_t count() const; // how many predicates are set
};

struct Claim {
    std::string id;   // [claim.ID]
    uint32_t line = 0; // of its table header
    // The words of en.md (and zh.md) the claim checks, verbatim but for line breaks, and where the
    // loader found them: "en.md, variant missing_barrier, What it shows".
    std::string quote, quote_zh;
    std::string where, where_zh;
    std::string note; // optional: why this command checks it, what it leaves out
    ClaimCommand command;
    uint32_t command_line = 0;
    std::vector<std::string> backends; // "sim", "gpu"
    // A claim about one GPU's own behaviour ("H200"): judged only on a device whose name holds
    // it; elsewhere its figures are shown as another device's (ClaimVerdict::OtherDevice).
    std::string device;
    ClaimExpect expect;
    bool holds_on(std::string_view backend) const;
};

struct LessonClaims {
    std::string lesson;
    std::string file; // "assets/lessons/stencil/claims.toml"
    std::vector<Claim> claims;
    const Claim* find(std::string_view id) const;
};

// Parses a claims file against its lesson: every key known and typed, every variant, parameter,
// buffer and outcome named exists, every quote is in the lesson's text, every command parses and
// fits its backends and predicates. Throws LessonError "FILE:LINE: claim 'ID': FIELD: what is wrong".
LessonClaims parse_claims(std::string_view text, const std::string& file, const Scenario& lesson);

// A built-in lesson's claims (the embedded assets/lessons/ID/claims.toml); an empty LessonClaims
// (file "") when the lesson has none. Throws LessonError for a broken file.
LessonClaims builtin_claims(const Scenario& lesson);
// The claims.toml of a lesson folder on disk; empty when the folder has none.
LessonClaims load_claims(const std::filesystem::path& folder, const Scenario& lesson);

// A built-in lesson's recorded GPU figures (assets/lessons/ID/h200.json, embedded), "" when there is
// none; runner/claims.h reads it.
std::string builtin_recording(std::string_view lesson_id);

} // namespace synclab::scenario
