// What a run and a lesson's expectation say, in words a student reads right: the outcome of a run
// with the colour it deserves (status "ok" means the kernel completed, not that it was right), the
// expected verdict as a sentence, and the student's prediction checked against the run. Pure (no
// ImGui): the lesson panel, the run panel, the timeline header and the status line all draw these.
#pragma once

#include "ui/app_state.h"
#include "ui/theme.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace synclab::ui {

// "16,384" (both languages write the comma).
std::string thousands(uint64_t n);

// A finding kind in words: "a race" / "数据竞争" (with_article: "a race", else "race").
std::string kind_words(analysis::FindingKind kind, Language language, bool with_article = true);

// [SECTION] The outcome of a run

struct Outcome {
    std::string words; // "completed · 331 of 16,384 outputs wrong · 1 finding"
    theme::Tone tone = theme::Tone::Neutral;
};

// The one judgement of a run, used wherever a run's result is shown:
//   hung / stopped / error / timeout -> Bad ("hung: deadlock", "stopped: ...")
//   completed with wrong outputs     -> Bad ("completed · 331 of 16,384 outputs wrong")
//   completed, right, findings       -> Warning ("completed · outputs right · 2 findings")
//   completed, right, nothing found  -> Good ("correct · 16,384 outputs right · no findings")
//   cancelled, unchecked, untraced   -> Neutral or Warning, never Good
Outcome outcome_of(const runner::RunSummary& summary, Language language);

// [SECTION] The expected verdict as a sentence

// "This variant should show a race between lines 20 and 23, and some outputs should come out wrong
// under the random and adversarial schedules. It should show no barrier divergence, lost update or
// deadlock." Lines come from `findings` (a run's, may be empty): the lines of the first finding of
// each expected kind. Never the raw expectation fields or kind ids.
std::string expectation_sentence(const scenario::Expectation& expect, Language language,
                                 const std::vector<analysis::Finding>& findings = {});

// [SECTION] Predict, then run

enum class Guess : uint8_t { Unset, Yes, No };

struct Prediction {
    Guess wrong_outputs = Guess::Unset;           // Yes: some results will be wrong
    bool finding_set = false;                     // the finding question was answered...
    std::optional<analysis::FindingKind> finding; // ... with this kind, or nullopt: no finding
    Guess hang = Guess::Unset;                    // Yes: the kernel will hang

    bool any() const { return wrong_outputs != Guess::Unset || finding_set || hang != Guess::Unset; }
};

enum class Came : uint8_t { True, False, Unknown };

struct PredictionPart {
    std::string guess;  // what the student said: "some results wrong"
    std::string actual; // what the run did: "331 of 16,384 wrong"
    Came came = Came::Unknown;
};

// One part per answered question, in the order results, finding, hang. Unknown where the run
// cannot tell (no outputs checked, no trace).
std::vector<PredictionPart> check_prediction(const Prediction& prediction, const runner::RunSummary& summary,
                                             Language language);

} // namespace synclab::ui
