// What a run and a lesson's expectation say, in words a student reads right, with the colours they
// deserve. Pure (no ImGui): every view that says these things draws them from here (browser badges,
// run panel, status line, findings header, lesson panel, outcomes view, ladder, compare headers).
//
// The vocabulary (runner/outcome.h defines the three things and their English words; here they are
// in English and Chinese with a tone each, theme.h's tone_ink gives the colour):
//
//   the run's own outcome        right · wrong outputs · completed · hung · stopped · refused · error ·
//                                cancelled     (正确 · 输出错误 · 已完成 · 挂起 · 被停止 · 被拒绝 · 出错 · 已取消)
//       right is Good unless a bug was found (Warning: right by luck); completed (nothing checked) and
//       cancelled are Neutral; everything else is Bad.
//   whether it matched the lesson  as expected · a surprise   (符合预期 · 出乎预期)
//       as expected is Accent (the lesson showed what it should: never green, it sits beside hangs
//       and wrong outputs); a surprise is Warning.
//   a memory model's verdict     forbidden · allowed, and seen or not   (禁止 · 允许，出现了 · 未出现)
//       forbidden and seen is Bad (the model broken); an allowed weak outcome that was seen is Warning
//       (it happens: "flag seen, data stale"), never Good; forbidden and never seen is Good (the
//       promise held); the rest Neutral.
//
// The browser's badge joins two of them: its shape says whether the last run matched the lesson
// (disc: as expected, square: a surprise), its colour is the run's own outcome.
#pragma once

#include "runner/outcome.h"
#include "ui/core/app_state.h"
#include "ui/model/theme.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace synclab::ui {

// "16,384" (both languages write the comma).
std::string thousands(uint64_t n);

// A finding kind in words: "a race" / "数据竞争" (with_article: "a race", else "race").
std::string kind_words(analysis::FindingKind kind, Language language, bool with_article = true);

// [SECTION] The run's own outcome

// "right" / "正确", "wrong outputs" / "输出错误", ... (the vocabulary above).
const char* outcome_word(runner::RunOutcome outcome, Language language);
// Its tone; `findings`: whether the run's analysis found a bug (runner::found_a_bug; right with one:
// Warning, right by luck; contention alone is about speed and leaves right Good).
theme::Tone outcome_tone(runner::RunOutcome outcome, bool findings);

struct Outcome {
    std::string words; // "wrong outputs · 331 of 16,384 wrong · 1 finding"
    theme::Tone tone = theme::Tone::Neutral;
    runner::RunOutcome outcome = runner::RunOutcome::Completed;
};

// The one judgement of a run, used wherever a run's result is shown: its outcome word first, then
// what makes it so, then the findings:
//   "right · 16,384 outputs checked · no findings"            Good
//   "right · 128 outputs checked · 2 findings"                 Warning (right by luck)
//   "wrong outputs · 331 of 16,384 wrong · 4 findings"         Bad
//   "wrong outputs · g_counter = 21, expected 4,096 · 1 finding"  (the key number: key_values)
//   "hung: deadlock · 1 finding", "hung: stopped at the timeout"  Bad
//   "stopped: the step budget ran out after 2,000,064 thread-instructions, 64 threads still running
//    at line 30 (a loop that may never end?) · raise the step budget in the run panel"  Bad
//   "refused: too many blocks in cooperative launch: ..."     Bad
//   "cancelled"                                                Neutral
// The app's own words: no command-line option is named (the run panel has the controls).
Outcome outcome_of(const runner::RunSummary& summary, Language language);

// The key numbers of a run: each checked output of a single element, as its type writes it, beside
// the value it should have: "g_counter = 21, expected 4,096" ("g_counter = 21，应为 4,096"). Empty
// where no output of one element was checked (a grid of outputs says "331 of 16,384 wrong").
std::vector<std::string> key_values(const runner::RunSummary& summary, Language language);

// The CUDA line most of a stopped run's still-running threads were at, and how many were running
// (0, 0 where none was or the trace has no line).
struct StillRunning {
    uint32_t line = 0;
    uint32_t threads = 0;
};
StillRunning still_running(const trace::Trace& trace);

// [SECTION] Whether it matched the lesson

// "as expected" / "符合预期", "a surprise" / "出乎预期".
const char* match_word(runner::LessonMatch match, Language language);
theme::Tone match_tone(runner::LessonMatch match);

// [SECTION] A memory model's verdict on an outcome

// runner::verdict_words ("allowed, seen", "forbidden, yet seen", ...) and its Chinese.
std::string verdict_words(const runner::OutcomeVerdict& verdict, Language language);
theme::Tone verdict_tone(const runner::OutcomeVerdict& verdict);

// Every word of the vocabulary, for the font's glyphs and the tests.
std::vector<std::string> vocabulary_words(Language language);

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

// A run's result in one line (the status line, run_summary_line.h draws it):
// Whether a record matched its lesson; nullopt where that is no lesson's verdict (a loaded trace of
// a user's kernel, a GPU run, a cancelled or live one: source_lines.h's badge_for).
std::optional<runner::LessonMatch> record_match(const RunRecord& record);

// The line as words: the outcome's, then " · " and the match's where there is one.
std::string record_summary_words(const RunRecord& record, Language language);

} // namespace synclab::ui
