// `synclab claims [LESSON ...] [--lessons DIR] [--backend sim|gpu] [--recorded] [--record DIR]
// [--timeout S] [--json]`: every claim a lesson's text makes (claims.toml) checked by running the
// command it names, on the simulator or on the GPU here, or against the lesson's recorded H200
// figures (h200.json); each claim printed with its quote, its command, every predicate with what
// was measured, and whether it holds (runner/claims.h). Exit 0 when every claim checked holds,
// 1 when one fails or could not run.
#pragma once

#include <string>
#include <vector>

namespace synclab::cli {

int cmd_claims(const std::vector<std::string>& argv);

extern const char* const kClaimsUsage;

} // namespace synclab::cli
