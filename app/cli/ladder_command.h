// `synclab ladder SCENARIO [--backend sim|gpu] [--reps N] [--schedule S] [--seed N] [--param ...]
// [--json]`: every variant of a scenario timed on one backend, with the ratio to the first (naive)
// variant (runner/ladder.h). A text table with bars, or JSON.
#pragma once

#include "runner/ladder.h"

#include <nlohmann/json.hpp>

#include <ostream>
#include <string>
#include <vector>

namespace synclab::cli {

// The command, after `ladder` (argv without it). Throws UsageError / InputError (args.h).
int cmd_ladder(const std::vector<std::string>& argv);

// Its usage text, for `synclab help`.
extern const char* const kLadderUsage;

nlohmann::json ladder_json(const runner::Ladder& ladder);
void print_ladder_text(std::ostream& out, const runner::Ladder& ladder);

} // namespace synclab::cli
