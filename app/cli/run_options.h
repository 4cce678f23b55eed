// The options of a run, as `synclab run` and `synclab check` take them and the app's scripts do
// (synclab-app --schedule, --seed, --memory, --warp-model, --param ...): one grammar, one set of
// messages ("--schedule must be rr, random, adversarial or exhaustive, got 'x'"). Each throws
// UsageError naming the option and what is wrong.
#pragma once

#include "cli/args.h"
#include "runner/runner.h"
#include "scenario/scenario.h"

#include <string>
#include <vector>

namespace synclab::cli {

// The valued options and the flags of a run (Args' declaration lists); `param` is repeatable.
extern const std::vector<std::string> kRunValued;
extern const std::vector<std::string> kRunFlags;

// Every run option of `a` checked and turned into RunOptions (defaults where absent: sim, random,
// seed 1, one repetition).
runner::RunOptions run_options(const Args& a);

// --warp-model its|lockstep (simulator): whether lanes of a warp may run apart (default its).
sim::WarpModel warp_model_option(const Args& a, const std::string& backend);

// A byte count: a whole number with an optional K, M or G suffix (powers of 1024): "512M", "2G".
uint64_t parse_bytes(const Args& a, const std::string& name, uint64_t fallback);

// The --param NAME=CHOICE texts of `a`, split (not yet checked against a lesson).
scenario::ParamValues param_values(const Args& a);

// The lesson with the user's choices applied; an unknown parameter or choice is a usage error
// ("--param: lesson atomic_counter has no parameter 'j' (parameters: k)").
scenario::Scenario with_user_params(const scenario::Scenario& s, const scenario::ParamValues& values);

} // namespace synclab::cli
