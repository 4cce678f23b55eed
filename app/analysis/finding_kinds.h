// One table of finding kinds, as ptx/opcodes.h is for opcodes: what each kind is called (in JSON,
// lesson files, the CLI and both UI languages), what it means, how it ranks, whether it is a bug or
// advice about speed, and how views mark it. Every place that names or shows a kind reads it here;
// a new kind is a new row (and the code that finds it), not a case added to switches across the tree.
//
// Per-kind *behaviour* stays where it is done (the callout's sentence with its hazard, which events a
// finding's arrow joins): that is code, not data.
#pragma once

#include "analysis/findings.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace synclab::analysis {

// How a view draws a kind: its mark on the timeline and its colour role (the UI's palette maps a
// role to ink; several kinds share one, e.g. a stale read is drawn as the race it resembles).
enum class FindingLook : uint8_t { Race, Divergence, LostUpdate, Deadlock };

struct FindingKindInfo {
    FindingKind kind;
    const char* id; // "race": JSON, lesson.toml (must_find), claims, the CLI
    // The analyses' order (analyze() appends in it; ties in order_findings): 0 first. Deadlock first:
    // it stops the kernel; contention last: it is advice about speed.
    uint8_t rank;
    bool performance; // advice about speed, not a bug: --error-exitcode and "found a bug" ignore it
    FindingLook look;
    const char* en;         // "race", as a label
    const char* en_article; // "a race", in a sentence
    const char* zh;         // "数据竞争"
    // The compute-sanitizer-like title of `synclab report`: {hazard} and {space} stand for the
    // finding's ("{hazard} hazard on __{space}__ memory" -> "RAW hazard on __shared__ memory").
    const char* report_en;
    const char* explain_en; // one sentence for a hover: what the kind means
    const char* explain_zh;
};

// Every kind, in enum order.
std::span<const FindingKindInfo> finding_kinds();
// The row of `kind`.
const FindingKindInfo& info(FindingKind kind);
// The kind whose id is `id` ("lost_update"); false for none.
bool parse_finding_kind(std::string_view id, FindingKind& out);
// `synclab report`'s title of one finding (report_en filled in).
std::string report_title(const Finding& finding);

} // namespace synclab::analysis
