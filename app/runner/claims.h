// Checking a lesson's claims (scenario/claims.h): each claim's command is run on a backend (the
// simulator, or the GPU here), or its figures are read from the lesson's recording (h200.json, what
// an H200 measured), and every predicate is judged against the measurement, with the value it read.
// No ImGui: the CLI's `synclab claims` and the tests call it.
//
// A measurement holds exactly the fields of `synclab run --json` and `synclab ladder --json` that
// predicates read (status, findings' kinds and lines, wrong and checked outputs, the outcome
// histogram, the CPU reader's counts, a ladder's rung times), under the same names, so that a
// recording is that JSON cut down to what its claims need.
#pragma once

#include "runner/ladder.h"
#include "runner/runner.h"
#include "scenario/claims.h"
#include "scenario/scenario.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace synclab::runner {

struct ClaimMeasurement {
    std::string device; // "SyncLab simulator", "NVIDIA H200"
    bool ladder = false;
    // run (each optional: a recording may hold some of them only)
    std::optional<trace::RunStatus> status;
    std::optional<trace::RunStatus> traced_status; // GPU: the traced launch's own status
    std::optional<std::string> message;
    std::optional<std::vector<std::string>> finding_kinds;   // in order, each once
    std::map<std::string, std::vector<uint32_t>> finding_lines; // kind -> the CUDA lines its findings name
    std::map<std::string, std::vector<std::string>> finding_messages; // kind -> its findings' messages
    std::optional<uint64_t> wrong_outputs, checked_outputs;
    std::optional<uint32_t> reps, reps_with_wrong;
    // The kept run's wrong outputs (of its first checked output): their element indices.
    std::optional<std::vector<uint64_t>> wrong_indices;
    // The kept run's final values of the elements the claim names ("g_counter[0]" -> 21).
    std::map<std::string, double> outputs;
    std::optional<std::map<std::string, uint64_t>> histogram; // outcome -> records
    std::optional<uint64_t> cpu_flags_seen, cpu_stale;
    // ladder: each timed rung's time, in `unit`
    std::optional<std::map<std::string, double>> rung_times;
    std::string unit;
};

// One predicate of a claim, judged.
struct ClaimCheck {
    std::string what;     // "status", "findings", "order", ...
    std::string expected; // as the file says it
    std::string measured; // what the measurement shows ("" : not measured)
    enum class Verdict : uint8_t { Holds, Fails, NotMeasured } verdict = Verdict::NotMeasured;
};

enum class ClaimVerdict : uint8_t {
    Holds,       // every predicate holds
    Fails,       // one does not
    NotRecorded, // (recording) no figure for it, or for one of its predicates
    Error,       // the command could not run (e.g. no GPU here)
    OtherDevice, // a claim about one GPU (Claim::device) measured on another: its checks are shown,
                 // not judged
};
// "holds", "FAILS", "not recorded", "error", "other device"
const char* to_string(ClaimVerdict verdict);

struct ClaimResult {
    const scenario::Claim* claim = nullptr;
    std::string backend; // "sim", "gpu", or "h200" (the recording)
    ClaimVerdict verdict = ClaimVerdict::Error;
    std::vector<ClaimCheck> checks;
    std::string note;  // an error's reason; a recording's source or why it has no figure
    double seconds = 0; // running the command
    std::optional<ClaimMeasurement> measurement;
};

// The claim's command as runner options for `backend` ("sim" or "gpu"). Throws scenario::LessonError
// "FILE:LINE: claim 'ID': command: ..." for what the loader could not check (schedule and warp model
// names, an exhaustive schedule with --reps).
struct ClaimPlan {
    scenario::Scenario lesson; // with the command's parameters
    const scenario::Variant* variant = nullptr; // run
    RunOptions run;
    LadderOptions ladder;
};
ClaimPlan plan_claim(const scenario::Scenario& lesson, const scenario::LessonClaims& claims,
                     const scenario::Claim& claim, const std::string& backend);

struct ClaimRunOptions {
    std::string gpu_worker;              // "" : found as the CLI finds it
    double gpu_timeout_s = 5;            // per launch
    const std::atomic<bool>* cancel = nullptr;
};

// Runs the command (gpu::Unavailable and RequestError propagate).
ClaimMeasurement measure_claim(const scenario::Claim& claim, const ClaimPlan& plan, const ClaimRunOptions& options);
// `claim` names the output elements to keep (ClaimExpect::outputs); null: none.
ClaimMeasurement measurement_of(const RunSummary& summary, const scenario::Claim* claim = nullptr);
ClaimMeasurement measurement_of(const Ladder& ladder);

// Every predicate of the claim against a measurement.
std::vector<ClaimCheck> judge_claim(const scenario::Claim& claim, const ClaimMeasurement& m);
ClaimVerdict verdict_of(const std::vector<ClaimCheck>& checks);

// Whether `measurement` comes from the device the claim is about (any, where it names none).
bool on_claims_device(const scenario::Claim& claim, const ClaimMeasurement& measurement);

// Plans, runs and judges one claim on `backend`; a request the runner refuses is an Error result.
// A claim about another GPU than this one (Claim::device) is OtherDevice, its checks shown.
// gpu::Unavailable propagates: without a GPU no GPU claim can run, which is said once, not per claim.
ClaimResult check_claim(const scenario::Scenario& lesson, const scenario::LessonClaims& claims,
                        const scenario::Claim& claim, const std::string& backend, const ClaimRunOptions& options);

// [SECTION] Recordings: what an H200 measured (assets/lessons/ID/h200.json)

struct RecordedClaim {
    std::string command;      // the claim's command the figures answer (a changed command needs new ones)
    std::string source;       // how and when they were measured
    std::string not_recorded; // instead of figures: why there are none yet, what to run
    ClaimMeasurement measurement;
};
struct ClaimRecording {
    std::string file;
    std::string device;
    std::map<std::string, RecordedClaim> claims; // by claim id
};

// Parses a recording; throws scenario::LessonError naming the file and the claim for a malformed one.
ClaimRecording parse_recording(std::string_view json_text, const std::string& file);
// The JSON of a measurement (the recording's fields for one claim, as `synclab run --json` names them).
nlohmann::json measurement_json(const ClaimMeasurement& m);

// A GPU claim judged against its recorded figures: NotRecorded where the recording has none, or
// lacks a field a predicate reads, or answers another command.
ClaimResult check_recorded(const scenario::Claim& claim, const ClaimRecording& recording);

} // namespace synclab::runner
