// How the CLI prints runs and findings: JSON (one object per run, a stable contract) and text.
#pragma once

#include "analysis/findings.h"
#include "runner/runner.h"
#include "trace/trace.h"

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

namespace synclab::cli {

nlohmann::json finding_json(const analysis::Finding& finding, const trace::Trace& trace);
// Which blocks the findings rest on (analysis::coverage), e.g. {"blocks": 64, "analysed": 12, ...}.
nlohmann::json coverage_json(const analysis::Coverage& coverage);

// The JSON summary of `synclab run` / `synclab check` (fields are part of the CLI contract).
nlohmann::json summary_json(const runner::RunSummary& summary, const runner::RunOptions& options);

// RunSummary::histogram as JSON: `histogram` (outcome -> count) and its details (buffer, records,
// each outcome's count, percent and one run that produced it); null where none was asked for.
nlohmann::json histogram_json(const runner::RunSummary& summary);
nlohmann::json histogram_details_json(const runner::RunSummary& summary);
// The histogram as a table (outcome, count, percent, one run); nothing where none was asked for.
void print_histogram_text(std::ostream& out, const runner::RunSummary& summary);

void print_summary_text(std::ostream& out, const runner::RunSummary& summary,
                        const runner::RunOptions& options);

// compute-sanitizer-like listing of the findings of one trace.
void print_findings_report(std::ostream& out, const trace::Trace& trace,
                           const std::vector<analysis::Finding>& findings);

} // namespace synclab::cli
