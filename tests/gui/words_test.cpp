// Words and colours that do not mislead (issue 8): the outcome of a run in words and its tone, the
// expectation as a sentence for every variant of every lesson, predictions checked against runs,
// the findings table's selected row in a readable colour,
// and the lesson panel's predict-then-run cycle driven headless.
//
// Index
//   [SECTION] Fixtures
//   [SECTION] Outcome words
//   [SECTION] The expectation as a sentence
//   [SECTION] Predictions
//   [SECTION] Panels, headless
#include "ui/views/callout_view.h"
#include "ui/shell/drawn_text.h"
#include "ui/views/findings_panel.h"
#include "ui/shell/fonts.h"
#include "ui/headless_panel.h" // tests/ui
#include "ui/views/lesson_panel.h"
#include "ui/model/outcome_words.h"
#include "ui/views/predict_card.h"
#include "ui/model/source_lines.h"
#include "ui/model/theme.h"
#include "ui/model/ui_text.h"

#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h> // ImTextCharFromUtf8

#include <algorithm>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace synclab::ui {
namespace {

using theme::Tone;

// [SECTION] Fixtures -----------------------------------------------------------------------------------

const scenario::Scenario& stencil() {
    const scenario::Scenario* s = scenario::find_scenario("stencil");
    EXPECT_NE(s, nullptr) << "the catalog lost the stencil scenario";
    return *s;
}

analysis::Finding finding(analysis::FindingKind kind, std::vector<uint32_t> lines = {}) {
    analysis::Finding f;
    f.kind = kind;
    f.lines = std::move(lines);
    f.count = 1;
    f.message = "a finding";
    return f;
}

runner::RunSummary summary(trace::RunStatus status, uint64_t wrong, uint64_t checked,
                           std::vector<analysis::Finding> findings = {}) {
    runner::RunSummary s;
    s.status = status;
    s.wrong_outputs = wrong;
    s.checked_outputs = checked;
    s.reps_run = 1;
    s.reps_with_wrong_outputs = wrong > 0 ? 1 : 0;
    s.findings = std::move(findings);
    return s;
}

// stencil / missing_barrier under the adversarial schedule: a race and wrong outputs.
std::shared_ptr<const RunRecord> stencil_run() {
    static const std::shared_ptr<const RunRecord> record = [] {
        auto r = std::make_shared<RunRecord>();
        r->scenario_id = "stencil";
        r->variant_id = "missing_barrier";
        r->label = "stencil / missing_barrier  (adversarial, seed 3)";
        r->options.schedule = sim::Schedule::Adversarial;
        r->options.seed = 3;
        r->summary = runner::run_scenario(stencil(), *stencil().find_variant("missing_barrier"), r->options);
        r->serial = 1;
        return r;
    }();
    return record;
}

// [SECTION] Outcome words ------------------------------------------------------------------------------

TEST(OutcomeWords, ThousandsSeparators) {
    EXPECT_EQ(thousands(0), "0");
    EXPECT_EQ(thousands(999), "999");
    EXPECT_EQ(thousands(1000), "1,000");
    EXPECT_EQ(thousands(16384), "16,384");
    EXPECT_EQ(thousands(1234567), "1,234,567");
}

TEST(OutcomeWords, CompletedWithWrongOutputsIsBadNotOk) {
    const Outcome o = outcome_of(
        summary(trace::RunStatus::Ok, 331, 16384, {finding(analysis::FindingKind::Race)}), Language::En);
    EXPECT_EQ(o.words, "wrong outputs \u00b7 331 of 16,384 wrong \u00b7 1 finding");
    EXPECT_EQ(o.tone, Tone::Bad);
    EXPECT_EQ(o.words.find("ok"), std::string::npos) << "status ok means completed, and says so: " << o.words;
    const Outcome zh = outcome_of(summary(trace::RunStatus::Ok, 331, 16384), Language::Zh);
    EXPECT_EQ(zh.words, "输出错误 \u00b7 16,384 个中有 331 个错误 \u00b7 没有发现");
    EXPECT_EQ(zh.tone, Tone::Bad);
}

TEST(OutcomeWords, HangIsBad) {
    const Outcome o = outcome_of(
        summary(trace::RunStatus::Deadlock, 0, 0, {finding(analysis::FindingKind::Deadlock)}), Language::En);
    EXPECT_EQ(o.words, "hung: deadlock \u00b7 1 finding");
    EXPECT_EQ(o.tone, Tone::Bad);
    EXPECT_EQ(outcome_of(summary(trace::RunStatus::Deadlock, 0, 0), Language::Zh).words,
              "挂起：死锁 \u00b7 没有发现");
    EXPECT_EQ(outcome_of(summary(trace::RunStatus::Timeout, 0, 0), Language::En).tone, Tone::Bad);
}

TEST(OutcomeWords, FindingsWithRightOutputsAreAWarning) {
    const Outcome o =
        outcome_of(summary(trace::RunStatus::Ok, 0, 128,
                           {finding(analysis::FindingKind::Race), finding(analysis::FindingKind::Race)}),
                   Language::En);
    EXPECT_EQ(o.words, "right \u00b7 128 outputs checked \u00b7 2 findings");
    EXPECT_EQ(o.tone, Tone::Warning);
    // Contention is about speed: right outputs with only that finding are right, and green.
    const Outcome slow = outcome_of(summary(trace::RunStatus::Ok, 0, 128, {finding(analysis::FindingKind::Contention)}),
                                    Language::En);
    EXPECT_EQ(slow.words, "right \u00b7 128 outputs checked \u00b7 1 finding");
    EXPECT_EQ(slow.tone, Tone::Good);
}

TEST(OutcomeWords, CorrectOnlyWhenNothingIsWrongAndNothingFired) {
    const Outcome o = outcome_of(summary(trace::RunStatus::Ok, 0, 16384), Language::En);
    EXPECT_EQ(o.words, "right \u00b7 16,384 outputs checked \u00b7 no findings");
    EXPECT_EQ(o.tone, Tone::Good);
    EXPECT_EQ(outcome_of(summary(trace::RunStatus::Ok, 0, 16384), Language::Zh).words,
              "正确 \u00b7 检查了 16,384 个输出 \u00b7 没有发现");
    // Every other combination is never Good.
    for (trace::RunStatus status :
         {trace::RunStatus::Ok, trace::RunStatus::Deadlock, trace::RunStatus::Budget, trace::RunStatus::Error,
          trace::RunStatus::Timeout, trace::RunStatus::Cancelled})
        for (uint64_t wrong : {0, 1})
            for (uint64_t checked : {0, 2})
                for (bool found : {false, true})
                    for (bool traced : {false, true})
                        for (Language language : {Language::En, Language::Zh}) {
                            if (wrong > checked) continue;
                            runner::RunSummary s = summary(status, wrong, checked);
                            if (found) s.findings.push_back(finding(analysis::FindingKind::LostUpdate));
                            s.traced = traced;
                            const bool correct = status == trace::RunStatus::Ok && wrong == 0 &&
                                                 checked > 0 && !found && traced;
                            const Outcome o = outcome_of(s, language);
                            EXPECT_EQ(o.tone == Tone::Good, correct)
                                << o.words << " (status " << trace::to_string(status) << ", wrong " << wrong
                                << ", checked " << checked << ", findings " << found << ", traced " << traced
                                << ")";
                            if (wrong > 0 && status != trace::RunStatus::Cancelled) {
                                EXPECT_EQ(o.tone, Tone::Bad) << o.words;
                            }
                            EXPECT_FALSE(o.words.empty());
                        }
}

// The vocabulary's three things, each in its own words and colours (outcome_words.h).
TEST(OutcomeWords, TheRunsOwnOutcomeInOneWordEach) {
    using runner::RunOutcome;
    const std::vector<std::pair<RunOutcome, const char*>> en = {
        {RunOutcome::Right, "right"},   {RunOutcome::WrongOutputs, "wrong outputs"}, {RunOutcome::Completed, "completed"},
        {RunOutcome::Hung, "hung"},     {RunOutcome::Stopped, "stopped"},            {RunOutcome::Refused, "refused"},
        {RunOutcome::Error, "error"},   {RunOutcome::Cancelled, "cancelled"}};
    for (const auto& [outcome, word] : en) {
        EXPECT_STREQ(outcome_word(outcome, Language::En), word);
        EXPECT_STREQ(runner::to_string(outcome), word) << "the CLI says the same word";
        EXPECT_NE(outcome_tone(outcome, false), Tone::Accent);
    }
    // Green only for a right run with nothing found; hangs, refusals and wrong outputs are bad.
    EXPECT_EQ(outcome_tone(RunOutcome::Right, false), Tone::Good);
    EXPECT_EQ(outcome_tone(RunOutcome::Right, true), Tone::Warning);
    for (RunOutcome bad : {RunOutcome::WrongOutputs, RunOutcome::Hung, RunOutcome::Stopped, RunOutcome::Refused,
                           RunOutcome::Error})
        for (bool found : {false, true})
            EXPECT_EQ(outcome_tone(bad, found), Tone::Bad) << runner::to_string(bad);
    EXPECT_STREQ(outcome_word(RunOutcome::Refused, Language::Zh), "被拒绝");
    EXPECT_STREQ(outcome_word(RunOutcome::Hung, Language::Zh), "挂起");
}

TEST(OutcomeWords, WhetherItMatchedTheLessonIsNeverGreen) {
    EXPECT_STREQ(match_word(runner::LessonMatch::AsExpected, Language::En), "as expected");
    EXPECT_STREQ(match_word(runner::LessonMatch::Surprise, Language::En), "a surprise");
    EXPECT_STREQ(match_word(runner::LessonMatch::AsExpected, Language::Zh), "符合预期");
    EXPECT_STREQ(match_word(runner::LessonMatch::Surprise, Language::Zh), "出乎预期");
    EXPECT_EQ(match_tone(runner::LessonMatch::AsExpected), Tone::Accent);
    EXPECT_EQ(match_tone(runner::LessonMatch::Surprise), Tone::Warning);
}

// A launch refused before any thread ran (grid_sync/too_many_blocks) is "refused", in the bad
// colour, with the reason; an error after threads ran stays "error".
TEST(OutcomeWords, ARefusedLaunchSaysRefused) {
    runner::RunSummary s = summary(trace::RunStatus::Error, 0, 0);
    s.message = "too many blocks in cooperative launch: 4224 blocks of 256 threads";
    Outcome o = outcome_of(s, Language::En);
    EXPECT_EQ(o.outcome, runner::RunOutcome::Refused);
    EXPECT_EQ(o.words, "refused: too many blocks in cooperative launch: 4224 blocks of 256 threads");
    EXPECT_EQ(o.tone, Tone::Bad);
    s.trace.meta.grid = {4224, 1, 1};
    EXPECT_EQ(outcome_of(s, Language::Zh).words, "被拒绝：这次 4,224 个线程块的启动在任何线程运行之前就被拒绝了")
        << "the English reason stays out of a Chinese frame";
    s.trace.threads.resize(1);
    EXPECT_EQ(outcome_of(s, Language::En).outcome, runner::RunOutcome::Error);
    const scenario::Scenario& grid = *scenario::find_scenario("grid_sync");
    const runner::RunSummary real =
        runner::run_scenario(grid, *grid.find_variant("too_many_blocks"), runner::RunOptions{});
    EXPECT_EQ(runner::run_outcome(real), runner::RunOutcome::Refused) << real.message;
}

// The key number of a lesson whose output is one value: lost_update's counter beside 4,096.
TEST(OutcomeWords, TheKeyNumberInTheOutcome) {
    const scenario::Scenario& lost = *scenario::find_scenario("lost_update");
    const runner::RunSummary run = runner::run_scenario(lost, *lost.find_variant("plain_increment"), runner::RunOptions{});
    ASSERT_EQ(run.wrong_outputs, 1u);
    const std::vector<std::string> keys = key_values(run, Language::En);
    ASSERT_EQ(keys.size(), 1u);
    EXPECT_TRUE(keys[0].starts_with("g_counter = ")) << keys[0];
    EXPECT_TRUE(keys[0].ends_with(", expected 4,096")) << keys[0];
    const Outcome o = outcome_of(run, Language::En);
    EXPECT_TRUE(o.words.starts_with("wrong outputs \u00b7 g_counter = ")) << o.words;
    EXPECT_NE(outcome_of(run, Language::Zh).words.find("，应为 4,096"), std::string::npos);
    const runner::RunSummary right = runner::run_scenario(lost, *lost.find_variant("atomic_add"), runner::RunOptions{});
    EXPECT_EQ(key_values(right, Language::En), std::vector<std::string>{"g_counter = 4,096"});
    // A float output in its type, not its bits.
    runner::RunSummary f;
    f.final_buffers.push_back(launch::Buffer{"g_sum", {0, 0, 0x80, 0x41}});
    f.expected_outputs.push_back(scenario::ExpectedOutput{"g_sum", launch::ElemType::F32, {0, 0, 0x00, 0x42}});
    EXPECT_EQ(key_values(f, Language::En), std::vector<std::string>{"g_sum = 16.0, expected 32.0"});
    // A grid of outputs has no key number: the outcome counts its wrong elements.
    EXPECT_TRUE(key_values(stencil_run()->summary, Language::En).empty());
}

// atomic_counter checks every output, but each variant has one result: a sum shows g_sum (its ticket
// counter, left at 0 as it must be, is a guard, not a key number), the ticket variant shows g_count.
TEST(OutcomeWords, TheKeyNumberIsTheVariantsOwnResult) {
    const scenario::Scenario& counter = *scenario::find_scenario("atomic_counter");
    const runner::RunSummary sum =
        runner::run_scenario(counter, *counter.find_variant("block_hierarchical"), runner::RunOptions{});
    ASSERT_EQ(sum.wrong_outputs, 0u);
    const std::vector<std::string> sum_keys = key_values(sum, Language::En);
    ASSERT_EQ(sum_keys.size(), 1u);
    EXPECT_TRUE(sum_keys[0].starts_with("g_sum = ")) << sum_keys[0];
    const runner::RunSummary tickets =
        runner::run_scenario(counter, *counter.find_variant("int_ticket"), runner::RunOptions{});
    ASSERT_EQ(tickets.wrong_outputs, 0u);
    EXPECT_EQ(key_values(tickets, Language::En), std::vector<std::string>{"g_count = 16,384"});
    // A guard that changed is shown: it is what went wrong.
    runner::RunSummary broken;
    broken.final_buffers.push_back(launch::Buffer{"g_count", {5, 0, 0, 0}});
    scenario::ExpectedOutput guard{"g_count", launch::ElemType::U32, {0, 0, 0, 0}};
    guard.guard = true;
    broken.expected_outputs.push_back(guard);
    EXPECT_EQ(key_values(broken, Language::En), std::vector<std::string>{"g_count = 5, expected 0"});
}

// cas_loop's NaN compare spins until the step budget stops it: the app says so in its own words (no
// command-line option), with the line the threads spin at.
TEST(OutcomeWords, ABudgetStopInTheAppsWords) {
    const scenario::Scenario& cas = *scenario::find_scenario("cas_loop");
    const runner::RunSummary run = runner::run_scenario(cas, *cas.find_variant("float_compare_nan"), runner::RunOptions{});
    ASSERT_EQ(run.status, trace::RunStatus::Budget);
    ASSERT_NE(run.message.find("--max-steps"), std::string::npos) << "the simulator's own words name the option";
    for (Language language : {Language::En, Language::Zh}) {
        const Outcome o = outcome_of(run, language);
        EXPECT_EQ(o.outcome, runner::RunOutcome::Stopped);
        EXPECT_EQ(o.tone, Tone::Bad);
        EXPECT_EQ(o.words.find("--"), std::string::npos) << o.words;
        const StillRunning where = still_running(run.trace);
        ASSERT_GT(where.line, 0u);
        EXPECT_NE(o.words.find(std::to_string(where.line)), std::string::npos) << o.words;
    }
    EXPECT_NE(outcome_of(run, Language::En).words.find("raise the step budget in the run panel"), std::string::npos);
}

// [SECTION] The expectation as a sentence ------------------------------------------------------------

// The raw names of the expectation format, which must never reach a student.
bool has_raw_words(const std::string& text) {
    for (const char* raw : {"must", "must_find", "must_not_find", "wrong_outputs", "status ok", "unchecked"})
        if (text.find(raw) != std::string::npos) return true;
    for (analysis::FindingKind kind : scenario::all_finding_kinds()) {
        const std::string id = analysis::to_string(kind);
        if (id.find('_') != std::string::npos && text.find(id) != std::string::npos) return true;
    }
    return text.find('_') != std::string::npos;
}

TEST(ExpectationSentence, EveryVariantOfEveryLessonReadsAsASentence) {
    // Every lesson folder of assets/lessons is in the catalog (so the loop below sees them all).
    size_t folders = 0;
    for (const auto& entry : std::filesystem::directory_iterator(SYNCLAB_SOURCE_DIR "/assets/lessons"))
        if (entry.is_directory() && std::filesystem::exists(entry.path() / "lesson.toml")) {
            ++folders;
            EXPECT_NE(scenario::find_scenario(entry.path().filename().string()), nullptr) << entry.path();
        }
    EXPECT_EQ(folders, scenario::catalog().size());
    size_t variants = 0;
    for (const scenario::Scenario& s : scenario::catalog())
        for (const scenario::Variant& v : s.variants) {
            ++variants;
            const std::string where = s.id + "/" + v.id;
            const std::string en = expectation_sentence(v.expect, Language::En);
            const std::string zh = expectation_sentence(v.expect, Language::Zh);
            SCOPED_TRACE(where + ": " + en + " | " + zh);
            EXPECT_EQ(en.rfind("This variant should", 0), 0u);
            EXPECT_EQ(en.back(), '.');
            EXPECT_FALSE(has_raw_words(en));
            EXPECT_FALSE(has_raw_words(zh));
            EXPECT_EQ(zh.rfind("这个版本", 0), 0u);
            EXPECT_TRUE(zh.ends_with("。"));
            EXPECT_EQ(en.find("wrong") != std::string::npos, v.expect.wrong_outputs_possible());
            EXPECT_EQ(en.find("every output should come out right") != std::string::npos,
                      v.expect.always_correct());
            EXPECT_EQ(en.find("hang") != std::string::npos, v.expect.status == trace::RunStatus::Deadlock);
            for (analysis::FindingKind kind : v.expect.must_find) {
                EXPECT_NE(en.find(kind_words(kind, Language::En)), std::string::npos);
                EXPECT_NE(zh.find(kind_words(kind, Language::Zh)), std::string::npos);
            }
        }
    EXPECT_GE(variants, 10u);
}

TEST(ExpectationSentence, NamesTheLinesOfTheFindings) {
    const scenario::Variant& v = *stencil().find_variant("missing_barrier");
    const std::vector<analysis::Finding> found = {finding(analysis::FindingKind::Race, {23, 20, 23, 0})};
    EXPECT_EQ(
        expectation_sentence(v.expect, Language::En, found),
        "This variant should show a race between lines 20 and 23, and some outputs should come out wrong "
        "under the random and adversarial schedules. Nothing else should be found.");
    EXPECT_EQ(expectation_sentence(v.expect, Language::Zh, found),
              "这个版本应当出现数据竞争（第 20 行和第 23 行之间），在随机和对抗调度下部分输出会出错。"
              "不应出现其他发现。");
    EXPECT_EQ(
        expectation_sentence(stencil().variants.front().expect, Language::En),
        "This variant should show no race, barrier divergence, lost update, deadlock or stale read, and every output "
        "should come out right under every schedule.");
}

TEST(ExpectationSentence, AHangSaysSo) {
    scenario::Expectation e;
    e.must_find = {analysis::FindingKind::BarrierDivergence, analysis::FindingKind::Deadlock};
    e.must_not_find = {analysis::FindingKind::LostUpdate};
    e.status = trace::RunStatus::Deadlock;
    e.wrong_outputs = scenario::WrongOutputs::Unchecked;
    EXPECT_EQ(
        expectation_sentence(e, Language::En, {finding(analysis::FindingKind::BarrierDivergence, {12})}),
        "This variant should show barrier divergence at line 12 and a deadlock, the run should hang in a "
        "deadlock, and a hung run leaves no outputs to check. It should show no lost update.");
}

// Whether the app's CJK font atlas has a glyph for every character of `text`: it holds ImGui's common
// simplified Chinese set, CJK punctuation and full-width forms, and every character of the lessons'
// Chinese texts and the UI's own words (app/ui/shell/fonts.cpp). A word outside those shows as a missing-glyph
// box (it did: 歧).
bool font_covers(const std::string& text, std::string* missing) {
    static const std::vector<ImWchar> ranges = [] {
        ImFontAtlas atlas;
        ImFontGlyphRangesBuilder b;
        b.AddRanges(atlas.GetGlyphRangesChineseSimplifiedCommon());
        // The Latin font's symbols too (fonts.cpp kLatinRanges): · ↔ ▸.
        static const ImWchar punctuation[] = {0x00A0, 0x00FF, 0x2000, 0x206F, 0x2190, 0x21FF, 0x25A0,
                                              0x25FF, 0x3000, 0x303F, 0xFF00, 0xFFEF, 0};
        b.AddRanges(punctuation);
        for (const scenario::Scenario& sc : scenario::catalog()) {
            for (const scenario::LessonText* t : {&sc.zh})
                for (const std::string* part : {&t->title, &t->shows, &t->predict, &t->look_at, &t->fix})
                    b.AddText(part->c_str());
            for (const scenario::Variant& v : sc.variants)
                for (const std::string* part :
                     {&v.zh.title, &v.zh.shows, &v.zh.predict, &v.zh.look_at, &v.zh.fix})
                    b.AddText(part->c_str());
        }
        for (const std::string& words : chinese_ui_words()) // as Fonts::build adds them
            b.AddText(words.c_str());
        ImVector<ImWchar> out;
        b.BuildRanges(&out);
        return std::vector<ImWchar>(out.begin(), out.end());
    }();
    bool all = true;
    for (const char* p = text.c_str(); *p;) {
        unsigned c = 0;
        p += std::max(1, ImTextCharFromUtf8(&c, p, nullptr));
        if (c < 0x80) continue;
        bool in = false;
        for (size_t i = 0; i + 1 < ranges.size() && ranges[i] != 0; i += 2)
            in = in || (c >= ranges[i] && c <= ranges[i + 1]);
        if (!in) {
            all = false;
            *missing += std::string(p - (c < 0x800 ? 2 : c < 0x10000 ? 3 : 4), p) + " ";
        }
    }
    return all;
}

TEST(OutcomeWords, EveryChineseWordHasAGlyph) {
    std::vector<std::string> texts;
    for (const scenario::Scenario& sc : scenario::catalog())
        for (const scenario::Variant& v : sc.variants)
            texts.push_back(
                expectation_sentence(v.expect, Language::Zh, {finding(analysis::FindingKind::Race, {1, 2})}));
    for (analysis::FindingKind kind : scenario::all_finding_kinds())
        texts.push_back(kind_words(kind, Language::Zh));
    for (const std::string& word : vocabulary_words(Language::Zh))
        texts.push_back(word);
    for (sim::Budget budget : {sim::Budget::Steps, sim::Budget::Events, sim::Budget::Memory, sim::Budget::Threads}) {
        runner::RunSummary s = summary(trace::RunStatus::Budget, 0, 0);
        s.budget = budget;
        texts.push_back(outcome_of(s, Language::Zh).words);
    }
    for (trace::RunStatus status :
         {trace::RunStatus::Ok, trace::RunStatus::Deadlock, trace::RunStatus::Budget, trace::RunStatus::Error,
          trace::RunStatus::Timeout, trace::RunStatus::Cancelled})
        for (uint64_t wrong : {0, 1})
            for (uint64_t checked : {0, 2}) {
                runner::RunSummary s =
                    summary(status, wrong, checked, {finding(analysis::FindingKind::Race)});
                texts.push_back(outcome_of(s, Language::Zh).words);
                s.findings.clear();
                texts.push_back(outcome_of(s, Language::Zh).words);
                s.traced = false;
                texts.push_back(outcome_of(s, Language::Zh).words);
                Prediction p;
                p.wrong_outputs = Guess::Yes;
                p.finding_set = true;
                p.hang = Guess::No;
                for (const PredictionPart& part : check_prediction(p, s, Language::Zh))
                    texts.push_back(part.guess + part.actual);
                p.wrong_outputs = Guess::No;
                p.finding = analysis::FindingKind::Deadlock;
                p.hang = Guess::Yes;
                for (const PredictionPart& part : check_prediction(p, s, Language::Zh))
                    texts.push_back(part.guess + part.actual);
            }
    std::string lacking;
    EXPECT_FALSE(font_covers("屏障龘", &lacking)) << "the check itself: 龘 is in no list";
    for (const std::string& text : texts) {
        std::string missing;
        EXPECT_TRUE(font_covers(text, &missing)) << "no glyph for " << missing << "in: " << text;
    }
}

// Every string of the Chinese table and every sentence the views build in Chinese from data (a
// finding's message and callout, thread names, a run's label, result lines, GPU reasons) has its
// glyphs, and every Chinese string of the table is given (not the English one copied).
TEST(UiText, EveryChineseStringHasAGlyph) {
    const std::vector<const char*> en = all_texts(Language::En), zh = all_texts(Language::Zh);
    ASSERT_EQ(en.size(), zh.size());
    std::vector<std::string> texts(zh.begin(), zh.end());
    for (size_t i = 0; i < zh.size(); ++i)
        EXPECT_TRUE(zh[i] != nullptr && en[i] != nullptr) << "string " << i << " of the tables is null";

    const std::shared_ptr<const RunRecord> run = stencil_run();
    const trace::Trace& trace = run->summary.trace;
    const std::string_view cuda = stencil().cuda_source();
    ASSERT_FALSE(run->summary.findings.empty());
    for (analysis::FindingKind kind : scenario::all_finding_kinds())
        for (analysis::Hazard hazard :
             {analysis::Hazard::None, analysis::Hazard::RAW, analysis::Hazard::WAR, analysis::Hazard::WAW}) {
            analysis::Finding f = run->summary.findings.front();
            f.kind = kind;
            f.hazard = hazard;
            f.harmful = f.lost = 3;
            f.runs = 2;
            f.ptx_lines = {40, 41};
            texts.push_back(finding_message(f, trace, cuda, Language::Zh));
            texts.push_back(callout_text(f, trace, "", Language::Zh));
            texts.push_back(thread_example(trace, f, "\u2194", Language::Zh));
            f.check = "scope_race";
            texts.push_back(finding_message(f, trace, cuda, Language::Zh));
            texts.push_back(callout_text(f, trace, "", Language::Zh));
        }
    texts.push_back(record_label(*run, Language::Zh));
    texts.push_back(
        check_summary_words("331 of 16384 outputs wrong; first: g_out[31] = 5, expected 7", Language::Zh));
    texts.push_back(check_summary_words("counter = 12, expected 4096", Language::Zh));
    texts.push_back(check_summary_words("all 16384 outputs match the reference", Language::Zh));
    for (const std::string& text : texts) {
        std::string missing;
        EXPECT_TRUE(font_covers(text, &missing)) << "no glyph for " << missing << "in: " << text;
    }
    EXPECT_EQ(check_summary_words("counter = 12, expected 4096", Language::Zh), "counter = 12，应为 4096");
    EXPECT_EQ(
        check_summary_words("331 of 16384 outputs wrong; first: g_out[31] = 5, expected 7", Language::Zh),
        "16384 个输出中有 331 个错误；第一个：g_out[31] = 5，应为 7");
}

TEST(UiText, FillPutsTheArgumentsWhereThePatternSays) {
    EXPECT_EQ(fill("{0} of {1}", {"3", "12"}), "3 of 12");
    EXPECT_EQ(fill("{1} 个中有 {0} 个", {"3", "12"}), "12 个中有 3 个");
    EXPECT_EQ(fill("{0} and {2}", {"a"}), "a and {2}") << "a missing argument leaves the braces";
    EXPECT_EQ(fill(ui_text(Language::Zh).browser.ran_as_expected, {"3", "12", "2"}),
              "已运行 12 个版本中的 3 个 \u00b7 2 个符合预期");
}

// A finding's message in Chinese is built from its fields (the analysis writes English only); in
// English it is the analysis's own.
TEST(UiText, FindingMessagesInChineseComeFromTheFields) {
    const std::shared_ptr<const RunRecord> run = stencil_run();
    const analysis::Finding& f = run->summary.findings.front();
    EXPECT_EQ(finding_message(f, run->summary.trace, stencil().cuda_source(), Language::En), f.message);
    const std::string zh = finding_message(f, run->summary.trace, stencil().cuda_source(), Language::Zh);
    EXPECT_NE(zh.find("s_tile["), std::string::npos) << zh;
    EXPECT_NE(zh.find("线程"), std::string::npos) << zh;
    EXPECT_EQ(zh.find("thread"), std::string::npos) << zh;
}

// [SECTION] Predictions ----------------------------------------------------------------------------------

TEST(Prediction, EachPartComesTrueOrNot) {
    const runner::RunSummary wrong_race =
        summary(trace::RunStatus::Ok, 331, 16384, {finding(analysis::FindingKind::Race)});
    Prediction p;
    EXPECT_FALSE(p.any());
    EXPECT_TRUE(check_prediction(p, wrong_race, Language::En).empty())
        << "nothing predicted, nothing checked";

    p.wrong_outputs = Guess::Yes;
    p.finding_set = true;
    p.finding = analysis::FindingKind::Race;
    p.hang = Guess::No;
    std::vector<PredictionPart> parts = check_prediction(p, wrong_race, Language::En);
    ASSERT_EQ(parts.size(), 3u);
    for (const PredictionPart& part : parts)
        EXPECT_EQ(part.came, Came::True) << part.guess << " / " << part.actual;
    EXPECT_EQ(parts[0].guess, "some results wrong");
    EXPECT_EQ(parts[0].actual, "331 of 16,384 wrong");
    EXPECT_EQ(parts[1].actual, "found: race");

    p.wrong_outputs = Guess::No;
    p.finding.reset(); // "no finding"
    p.hang = Guess::Yes;
    parts = check_prediction(p, wrong_race, Language::Zh);
    ASSERT_EQ(parts.size(), 3u);
    for (const PredictionPart& part : parts)
        EXPECT_EQ(part.came, Came::False) << part.guess << " / " << part.actual;

    // A hung run checked no outputs: the results part cannot be judged; the hang part can.
    const runner::RunSummary hung =
        summary(trace::RunStatus::Deadlock, 0, 0, {finding(analysis::FindingKind::Deadlock)});
    parts = check_prediction(p, hung, Language::En);
    EXPECT_EQ(parts[0].came, Came::Unknown);
    EXPECT_EQ(parts[1].came, Came::False) << "said no finding, a deadlock was found";
    EXPECT_EQ(parts[2].came, Came::True);
    EXPECT_EQ(parts[2].actual, "it hung");

    // Untraced: no finding can be judged.
    runner::RunSummary untraced = summary(trace::RunStatus::Ok, 0, 10);
    untraced.traced = false;
    p = {};
    p.finding_set = true;
    EXPECT_EQ(check_prediction(p, untraced, Language::En).at(0).came, Came::Unknown);
}

// [SECTION] Panels, headless -------------------------------------------------------------------------------

// One ImGui context without a window (tests/ui/headless_panel.h).
class Headless : public testing::HeadlessPanel {
  public:
    explicit Headless(ImVec2 size = {900, 1000}) : HeadlessPanel(size, size) {}
    // Clicks down a column of points until `done` holds.
    bool click_until(const std::function<void()>& body, float x, const std::function<bool()>& done) {
        for (int i = 0; i < 3; ++i)
            frame(body);
        for (float y = 20; y < window().y - 10; y += 3) {
            click(body, {x, y});
            if (done()) return true;
        }
        return false;
    }
};

AppState selected(const char* variant) {
    AppState state;
    state.scenario = &stencil();
    state.variant = stencil().find_variant(variant);
    return state;
}

// In presenter mode with the pane's whole width, the question sits beside the setting (its column
// starts at the top, on the right) and the Run button under the choices, both above the pane's bottom
// at a room's font size; at the desk they follow the setting.
TEST(LessonPanelPredict, PresenterModePutsTheQuestionBesideTheSetting) {
    Headless h({1260, 620});
    LessonPanel panel;
    AppState state = selected("missing_barrier");
    state.presenter = true;
    ImGui::GetIO().FontGlobalScale = 2.0f; // a room's font: 26 px, 48 em across
    h.frame([&] { panel.draw(state); });
    h.frame([&] { panel.draw(state); }); // (a table settles its columns in its first frame)
    const PredictCard::Rects r = panel.predict_rects();
    EXPECT_GT(r.question.x, 1260 * 0.4f) << "the question in the right-hand column";
    EXPECT_LT(r.question.y, 80) << "at the top of its column";
    EXPECT_GT(r.choices.w, r.question.w);
    EXPECT_GT(panel.run_button().y, r.choices.w - 1) << "the Run button under the choices";
    EXPECT_LT(panel.run_button().w, 620) << "in sight";

    state.presenter = false;
    h.frame([&] { panel.draw(state); });
    EXPECT_LT(panel.predict_rects().question.x, 1260 * 0.1f) << "at the desk: one column";
}

TEST(LessonPanelPredict, ARadioButtonRecordsThePrediction) {
    Headless h;
    LessonPanel panel;
    AppState state = selected("missing_barrier");
    auto body = [&] { panel.draw(state); };
    // The first radio of each question sits at the left, after its label: click along a column.
    EXPECT_TRUE(h.click_until(body, 90, [&] { return panel.prediction().any(); }))
        << "clicking the prediction's radio buttons records an answer";
    EXPECT_FALSE(state.requests.run) << "a prediction is picked before the Run button, which is below it";
}

TEST(LessonPanelPredict, ResetWhenTheVariantIsSelectedAgain) {
    Headless h;
    LessonPanel panel;
    AppState state = selected("missing_barrier");
    auto body = [&] { panel.draw(state); };
    h.frame(body);
    panel.prediction().wrong_outputs = Guess::Yes;
    panel.prediction().finding_set = true;
    panel.prediction().finding = analysis::FindingKind::Race;
    state.current = stencil_run(); // the run comes in: results, with the prediction checked
    h.frame(body);
    EXPECT_TRUE(panel.prediction().any()) << "the run keeps the prediction it is checked against";
    EXPECT_GT(panel.sections().look_at.w, 0.0f) << "results are shown, with what to look at";
    EXPECT_GT(panel.sections().fix.w, panel.sections().look_at.w) << "the fix comes after what to look at";
    EXPECT_TRUE(Headless::drew_colour(theme::palette(false).good)) << "the parts that came true, in green";

    state.variant = &stencil().variants.front(); // another variant...
    h.frame(body);
    EXPECT_FALSE(panel.prediction().any()) << "a new variant, a new prediction";
    state.variant = stencil().find_variant("missing_barrier"); // ... and back
    h.frame(body);
    EXPECT_FALSE(panel.prediction().any());
    EXPECT_EQ(panel.sections().look_at.w, 0.0f)
        << "back on the variant: predict first, the old run stays hidden";

    auto again = std::make_shared<RunRecord>(*stencil_run());
    again->serial = 2; // the next run of it
    state.current = again;
    h.frame(body);
    EXPECT_GT(panel.sections().look_at.w, 0.0f) << "a new run shows its results";
}

// Everything the last frame drew, as one string (drawn_text's runs joined by spaces).
std::string drawn() {
    std::string out;
    for (const DrawnText& t : drawn_text(*ImGui::GetDrawData(), *ImGui::GetIO().Fonts))
        out += t.text + " ";
    return out;
}

TEST(PredictCard, RevealedOnlyOnceAnsweredOrRun) {
    Prediction p;
    EXPECT_FALSE(prediction_complete(p));
    EXPECT_FALSE(variant_revealed(true, p, false));
    EXPECT_TRUE(variant_revealed(false, p, false)) << "prediction off: the variant's text shows at once";
    EXPECT_TRUE(variant_revealed(true, p, true)) << "it ran: nothing left to give away";
    p.wrong_outputs = Guess::Yes;
    p.finding_set = true; // "no finding" is an answer too
    EXPECT_FALSE(variant_revealed(true, p, false)) << "two of three answered";
    p.hang = Guess::No;
    EXPECT_TRUE(prediction_complete(p));
    EXPECT_TRUE(variant_revealed(true, p, false));
}

TEST(LessonPanelPredict, WhatTheVariantDoesShowsOnceAllThreeAreAnswered) {
    Headless h;
    LessonPanel panel;
    AppState state = selected("missing_barrier");
    const std::string first_words = "Nothing orders"; // the variant's own text (en.md), which says what breaks
    ASSERT_EQ(stencil().find_variant("missing_barrier")->en.shows.rfind(first_words, 0), 0u);
    auto body = [&] { panel.draw(state); };
    h.frame(body);
    EXPECT_EQ(drawn().find(first_words), std::string::npos) << "before predicting: hidden";
    EXPECT_GT(panel.predict_rects().choices.w, 0.0f) << "the choices are drawn";
    EXPECT_EQ(panel.predict_rects().variant.w, 0.0f);
    EXPECT_GT(panel.run_button().w, panel.predict_rects().choices.w) << "the Run button under the choices";

    panel.prediction().wrong_outputs = Guess::Yes;
    panel.prediction().finding_set = true;
    panel.prediction().finding = analysis::FindingKind::Race;
    h.frame(body);
    EXPECT_EQ(drawn().find(first_words), std::string::npos) << "two answers of three: still hidden";
    panel.prediction().hang = Guess::No;
    h.frame(body);
    EXPECT_NE(drawn().find(first_words), std::string::npos) << "all three answered: revealed";
    EXPECT_GT(panel.predict_rects().variant.y, panel.run_button().w) << "under the Run button";
}

TEST(LessonPanelPredict, PredictionOffShowsTheVariantAndNoChoices) {
    Headless h;
    LessonPanel panel;
    AppState state = selected("missing_barrier");
    state.predict = false;
    auto body = [&] { panel.draw(state); };
    h.frame(body);
    EXPECT_NE(drawn().find("Nothing orders"), std::string::npos) << "the variant's text, as before predictions";
    EXPECT_EQ(panel.predict_rects().choices.w, 0.0f) << "no choices to pick";
    EXPECT_GT(panel.predict_rects().question.w, 0.0f) << "the question stays: the teacher asks the room";
    // After a run, no "No prediction this time" line: none was asked for.
    state.current = stencil_run();
    h.frame(body);
    EXPECT_EQ(drawn().find(ui_text(Language::En).lesson.no_prediction.s), std::string::npos);
}

TEST(LessonPanelPredict, TheFirstMinuteSaysWhatToDo) {
    Headless h;
    LessonPanel panel;
    AppState state = selected("missing_barrier");
    auto body = [&] { panel.draw(state); };
    h.frame(body);
    const std::string start = "Start here";
    EXPECT_NE(drawn().find(start), std::string::npos) << "nothing has run yet";
    state.badges["stencil/correct"] = Badge{.ran = true}; // something ran this session
    h.frame(body);
    EXPECT_EQ(drawn().find(start), std::string::npos);
    state.badges.clear();
    state.presenter = true; // a speaker's room has no browser to pick from
    h.frame(body);
    EXPECT_EQ(drawn().find(start), std::string::npos);
}

TEST(LessonPanelPredict, WrongOutputsAreNeverGreen) {
    Headless h;
    LessonPanel panel;
    AppState state = selected("missing_barrier");
    state.current = stencil_run();
    ASSERT_GT(state.current->summary.wrong_outputs, 0u) << "adversarial seed 3 gives wrong outputs";
    h.frame([&] { panel.draw(state); });
    EXPECT_TRUE(Headless::drew_colour(theme::palette(false).bad)) << "the outcome in the bad ink";
    EXPECT_FALSE(Headless::drew_colour(theme::palette(false).good)) << "no prediction, so nothing green";
}

TEST(FindingsPanelContrast, ASelectedRowIsWrittenInTheTextColour) {
    Headless h({1200, 400});
    FindingsPanel panel;
    auto one = std::make_shared<RunRecord>(*stencil_run());
    ASSERT_FALSE(one->summary.findings.empty());
    one->summary.findings.resize(1);
    AppState state = selected("missing_barrier");
    state.current = one;
    const uint32_t ink = theme::finding_ink(one->summary.findings[0].kind, false);
    for (int i = 0; i < 3; ++i) // the table sizes its columns in the first frames
        h.frame([&] { panel.draw(state); });
    EXPECT_TRUE(Headless::drew_colour(ink)) << "unselected: the kind in its text colour";
    EXPECT_TRUE(Headless::drew_colour(theme::finding_mark(one->summary.findings[0].kind)))
        << "and its swatch";
    state.selection.selected_finding = 0;
    h.frame([&] { panel.draw(state); });
    EXPECT_FALSE(Headless::drew_colour(ink))
        << "selected: the kind colour would be too faint on the highlight";
    EXPECT_TRUE(Headless::drew_colour(theme::finding_mark(one->summary.findings[0].kind)));
}

} // namespace
} // namespace synclab::ui
