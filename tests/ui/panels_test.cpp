// The panels (scenario browser, lesson, run controls, source view, findings): their pure logic
// (source_lines.h) against hand-made and real runs, then every panel drawn headless (an ImGui context
// without a window or renderer) for a state without a run, with a real run, with a failed run, and
// with mouse clicks that must raise the right requests.
//
// Index
//   [SECTION] Fixtures: runs and synthetic traces
//   [SECTION] Text: lines, tabs, kernels
//   [SECTION] Which source, which lines
//   [SECTION] Findings as text
//   [SECTION] Runs, verdicts, badges, catalog, controls
//   [SECTION] Headless ImGui harness
//   [SECTION] Smoke: every panel, every state
//   [SECTION] Clicks raise requests
#include "ui/views/findings_panel.h"
#include "ui/views/lesson_panel.h"
#include "ui/views/run_panel.h"
#include "ui/views/scenario_browser.h"
#include "ui/model/source_lines.h"
#include "ui/views/source_view.h"
#include "ui/model/theme.h"

#include "headless_panel.h"

#include <gtest/gtest.h>
#include <imgui.h>

#include <algorithm>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace synclab::ui {
namespace {

// [SECTION] Fixtures: runs and synthetic traces ------------------------------------------------------

const scenario::Scenario& stencil() {
    const scenario::Scenario* s = scenario::find_scenario("stencil");
    EXPECT_NE(s, nullptr) << "the catalog lost the stencil scenario";
    return *s;
}

const scenario::Variant& missing_barrier() {
    const scenario::Variant* v = stencil().find_variant("missing_barrier");
    EXPECT_NE(v, nullptr);
    return *v;
}

// stencil / missing_barrier under the adversarial schedule: a race on shared memory and wrong outputs
// (the verdict tests guarantee both). Run once for the whole file.
std::shared_ptr<const RunRecord> stencil_run() {
    static const std::shared_ptr<const RunRecord> record = [] {
        auto r = std::make_shared<RunRecord>();
        r->scenario_id = "stencil";
        r->variant_id = "missing_barrier";
        r->label = "stencil / missing_barrier  (adversarial, seed 1)";
        r->options.schedule = sim::Schedule::Adversarial;
        r->options.seed = 1;
        r->summary = runner::run_scenario(stencil(), missing_barrier(), r->options);
        r->serial = 1;
        return r;
    }();
    return record;
}

// A trace with 40 threads in blocks of 32 and three sites, the last without a CUDA line.
trace::Trace synthetic_trace() {
    trace::Trace t;
    for (uint32_t i = 0; i < 40; ++i) {
        trace::ThreadInfo info;
        info.block = i / 32;
        info.thread_in_block = i % 32;
        t.threads.push_back(info);
    }
    t.sites = {
        {10, 20, "st.shared.f32 [%r4], %f1"}, {14, 23, "ld.shared.f32 %f2, [%r5]"}, {41, 0, "bar.sync 0"}};
    return t;
}

analysis::Finding race(std::vector<uint32_t> sites, std::vector<uint32_t> lines,
                       std::vector<uint32_t> threads, std::vector<uint32_t> ptx_lines = {}) {
    analysis::Finding f;
    f.kind = analysis::FindingKind::Race;
    f.hazard = analysis::Hazard::RAW;
    f.space = trace::Space::Shared;
    f.sites = std::move(sites);
    f.lines = std::move(lines);
    f.ptx_lines = std::move(ptx_lines);
    f.threads = std::move(threads);
    f.count = 3;
    f.message = "a race";
    return f;
}

// [SECTION] Text: lines, tabs, kernels -----------------------------------------------------------------

using Lines = std::vector<std::string_view>;

TEST(SplitLines, HandlesEveryLineEnding) {
    EXPECT_EQ(split_lines(""), Lines{});
    EXPECT_EQ(split_lines("a"), Lines{"a"});
    EXPECT_EQ(split_lines("a\nb"), (Lines{"a", "b"}));
    EXPECT_EQ(split_lines("a\nb\n"), (Lines{"a", "b"})) << "a final newline starts no empty line";
    EXPECT_EQ(split_lines("a\r\nb\r\n"), (Lines{"a", "b"})) << "CRLF must not leave a stray \\r";
    EXPECT_EQ(split_lines("a\rb"), (Lines{"a", "b"}));
    EXPECT_EQ(split_lines("a\n\nb"), (Lines{"a", "", "b"}));
    EXPECT_EQ(split_lines("x\r\n\r\n"), (Lines{"x", ""}));
    EXPECT_EQ(split_lines("\n"), Lines{""});
    EXPECT_EQ(split_lines("a\r\n\nb"), (Lines{"a", "", "b"})) << "CRLF then LF is two line ends";
}

TEST(ExpandTabs, AlignsToTabStops) {
    EXPECT_EQ(expand_tabs("\tld.u32\t%r1"), "    ld.u32  %r1");
    EXPECT_EQ(expand_tabs("abcd\tx"), "abcd    x") << "a tab at a stop moves a whole stop";
    EXPECT_EQ(expand_tabs("no tabs"), "no tabs");
    EXPECT_EQ(expand_tabs("\t", 8), "        ");
}

TEST(KernelLine, FindsEachVariantInTheCudaAndThePtx) {
    const Lines cuda = split_lines(stencil().cuda_source());
    const Lines ptx = split_lines(stencil().ptx_source());
    for (const scenario::Variant& v : stencil().variants) {
        const uint32_t c = kernel_line(cuda, v.kernel), p = kernel_line(ptx, v.kernel);
        ASSERT_NE(c, 0u) << v.kernel << " not found in stencil.cu";
        ASSERT_NE(p, 0u) << v.kernel << " not found in stencil.ptx";
        EXPECT_NE(cuda[c - 1].find("__global__"), std::string_view::npos)
            << "line " << c << ": " << cuda[c - 1];
        EXPECT_NE(ptx[p - 1].find(".entry"), std::string_view::npos) << "line " << p << ": " << ptx[p - 1];
    }
    EXPECT_EQ(kernel_line(cuda, "no_such_kernel"), 0u);
    EXPECT_EQ(kernel_line(cuda, ""), 0u);
    // "stencil_correct(" must not match inside a longer name: the variants' names are not prefixes.
    EXPECT_LT(kernel_line(cuda, "stencil_correct"), kernel_line(cuda, "stencil_missing_barrier"));
}

TEST(LeadingCommentStart, FindsTheKernelsExplanation) {
    const Lines lines = split_lines("int a;\n\n// what is wrong\n  // and why\n__global__ void k()\n// x\n");
    EXPECT_EQ(leading_comment_start(lines, 5), 3u);
    EXPECT_EQ(leading_comment_start(lines, 2), 2u) << "no comment above";
    EXPECT_EQ(leading_comment_start(lines, 3), 3u);
    EXPECT_EQ(leading_comment_start(lines, 0), 0u);
    EXPECT_EQ(leading_comment_start(lines, 99), 99u);
    const Lines cuda = split_lines(stencil().cuda_source());
    const uint32_t start = leading_comment_start(cuda, kernel_line(cuda, "stencil_missing_barrier"));
    EXPECT_NE(cuda[start - 1].find("// missing_barrier"), std::string_view::npos)
        << "line " << start << ": " << cuda[start - 1];
}

TEST(DecimalDigits, CountsDigits) {
    EXPECT_EQ(decimal_digits(0), 1u);
    EXPECT_EQ(decimal_digits(9), 1u);
    EXPECT_EQ(decimal_digits(10), 2u);
    EXPECT_EQ(decimal_digits(174), 3u);
    EXPECT_EQ(decimal_digits(4294967295u), 10u);
}

// [SECTION] Which source, which lines ----------------------------------------------------------------

TEST(ChooseSource, BeforeAnyRunShowsTheSelectedScenario) {
    const SourceChoice c = choose_source(nullptr, &stencil());
    EXPECT_EQ(c.cuda, stencil().cuda_source());
    EXPECT_EQ(c.ptx, stencil().ptx_source());
    EXPECT_EQ(c.name, "stencil.cu");
    EXPECT_FALSE(c.run_applies);
    EXPECT_TRUE(choose_source(nullptr, nullptr).cuda.empty());
}

TEST(ChooseSource, PrefersTheRunsOwnText) {
    RunRecord r;
    r.scenario_id = "stencil";
    r.summary.trace.meta.source_text = "// edited\n";
    r.summary.trace.meta.source_name = "mine.cu";
    const SourceChoice c = choose_source(&r, &stencil());
    EXPECT_EQ(c.cuda, "// edited\n");
    EXPECT_EQ(c.ptx, stencil().ptx_source()) << "no PTX in the trace: the scenario's, which is what ran";
    EXPECT_EQ(c.name, "mine.cu");
    EXPECT_TRUE(c.run_applies);
}

TEST(ChooseSource, ARunOfAnotherScenarioDoesNotHideTheSelectedKernel) {
    RunRecord r;
    r.scenario_id = "lost_update";
    r.summary.trace.meta.source_text = "// lost update\n";
    const SourceChoice c = choose_source(&r, &stencil());
    EXPECT_EQ(c.cuda, stencil().cuda_source());
    EXPECT_FALSE(c.run_applies) << "the run's lines name another file";
}

TEST(ChooseSource, ALoadedTraceWithoutScenarioShowsItsText) {
    RunRecord r; // a .slt of a user's kernel: no scenario id
    r.summary.trace.meta.source_text = "__global__ void k() {}\n";
    const SourceChoice c = choose_source(&r, &stencil());
    EXPECT_EQ(c.cuda, "__global__ void k() {}\n");
    EXPECT_TRUE(c.run_applies);
    EXPECT_TRUE(c.ptx.empty()) << "a user's trace without PTX must not borrow the selected scenario's";
}

TEST(FindingLines, CudaLinesAndPtxLinesApart) {
    const trace::Trace t = synthetic_trace();
    // Lines as the analysis writes them: the third site has no CUDA line, so its PTX line 41 is in
    // ptx_lines, not in lines.
    const analysis::Finding f = race({1, 0, 2}, {23, 20}, {3, 34}, {41});
    EXPECT_EQ(finding_cuda_lines(f), (std::vector<uint32_t>{20, 23})) << "PTX line 41 is no CUDA line";
    EXPECT_EQ(finding_ptx_lines(t, f), (std::vector<uint32_t>{10, 14, 41}));
    EXPECT_EQ(lines_text(f), "23, 20, PTX 41");

    const analysis::Finding ptx_only = race({2}, {}, {3}, {41});
    EXPECT_TRUE(finding_cuda_lines(ptx_only).empty());
    EXPECT_EQ(lines_text(ptx_only), "PTX 41");

    analysis::Finding no_sites = race({}, {7, 5, 0}, {});
    EXPECT_EQ(finding_cuda_lines(no_sites), (std::vector<uint32_t>{5, 7})) << "lines as given, 0 dropped";
    EXPECT_TRUE(finding_ptx_lines(t, no_sites).empty());
}

TEST(PtxLineOfSite, MapsSitesAndRejectsOthers) {
    const trace::Trace t = synthetic_trace();
    EXPECT_EQ(ptx_line_of_site(t, 0), 10u);
    EXPECT_EQ(ptx_line_of_site(t, 2), 41u);
    EXPECT_EQ(ptx_line_of_site(t, 3), 0u);
    EXPECT_EQ(ptx_line_of_site(t, UINT32_MAX), 0u);
}

TEST(SourceMarks, SyntheticRunAndSelection) {
    RunRecord r;
    r.summary.trace = synthetic_trace();
    analysis::Finding divergence;
    divergence.kind = analysis::FindingKind::BarrierDivergence;
    divergence.space = trace::Space::Other;
    divergence.sites = {2, 0};
    divergence.lines = {20};
    divergence.ptx_lines = {41};
    r.summary.findings = {divergence, race({0, 1}, {20, 23}, {3, 34})};

    Selection sel;
    SourceMarks m = source_marks(&r, sel, true);
    EXPECT_TRUE(m.cuda.selected.empty());
    EXPECT_EQ(m.cuda.by_line.at(20), (std::vector<int>{0, 1}));
    EXPECT_EQ(m.cuda.by_line.at(23), (std::vector<int>{1}));
    EXPECT_EQ(m.cuda.by_line.count(41), 0u) << "a PTX stand-in line must not mark CUDA line 41";
    EXPECT_EQ(m.cuda.gutter_colour(20, r.summary.findings), theme::kDivergence)
        << "the first (most important) finding";
    EXPECT_EQ(m.cuda.gutter_colour(23, r.summary.findings), theme::kRaceArrow);
    EXPECT_EQ(m.cuda.gutter_colour(24, r.summary.findings), 0u);
    EXPECT_EQ(m.ptx.by_line.at(41), (std::vector<int>{0}));

    sel.selected_finding = 0;
    sel.hovered_line = 23;
    sel.hovered_site = 1;
    m = source_marks(&r, sel, true);
    EXPECT_EQ(m.cuda.selected, (std::vector<uint32_t>{20}));
    EXPECT_EQ(m.cuda.selected_colour, theme::kDivergence);
    EXPECT_EQ(m.ptx.selected, (std::vector<uint32_t>{10, 41}));
    EXPECT_EQ(m.cuda.hovered, 23u);
    EXPECT_EQ(m.ptx.hovered, 14u);
    EXPECT_EQ(m.cuda.first_selected(), 20u);

    // Lines given by the App without a finding (e.g. from the timeline): as given, in the race colour.
    sel = {};
    sel.finding_lines = {23, 0, 20, 23};
    m = source_marks(&r, sel, true);
    EXPECT_EQ(m.cuda.selected, (std::vector<uint32_t>{20, 23}));
    EXPECT_EQ(m.cuda.selected_colour, theme::kRaceArrow);
    EXPECT_EQ(m.ptx.hovered, 0u) << "hovered_site UINT32_MAX means none";

    // A selected index out of range falls back to finding_lines.
    sel.selected_finding = 7;
    EXPECT_EQ(source_marks(&r, sel, true).cuda.selected, (std::vector<uint32_t>{20, 23}));

    // Texts the run does not refer to get no marks at all.
    sel.selected_finding = 0;
    sel.hovered_line = 23;
    m = source_marks(&r, sel, false);
    EXPECT_TRUE(m.cuda.selected.empty());
    EXPECT_TRUE(m.cuda.by_line.empty());
    EXPECT_EQ(m.cuda.hovered, 0u);
    EXPECT_TRUE(source_marks(nullptr, sel, true).cuda.by_line.empty());

    // The playhead's lines, only while it is on and on this record.
    Playhead playhead;
    playhead.serial = r.serial;
    playhead.lines = {20, 23};
    EXPECT_TRUE(source_marks(&r, sel, true, &playhead).cuda.playhead.empty()) << "not active";
    playhead.active = true;
    EXPECT_EQ(source_marks(&r, sel, true, &playhead).cuda.playhead, (std::vector<uint32_t>{20, 23}));
    playhead.serial = r.serial + 1;
    EXPECT_TRUE(source_marks(&r, sel, true, &playhead).cuda.playhead.empty()) << "another record";
}

TEST(SourceMarks, RealStencilRaceLightsTheTileLines) {
    const auto record = stencil_run();
    const auto& findings = record->summary.findings;
    auto it = std::find_if(findings.begin(), findings.end(),
                           [](const analysis::Finding& f) { return f.kind == analysis::FindingKind::Race; });
    ASSERT_NE(it, findings.end()) << "stencil/missing_barrier under adversarial must find a race";
    Selection sel;
    sel.selected_finding = int(it - findings.begin());
    const SourceChoice choice = choose_source(record.get(), &stencil());
    ASSERT_TRUE(choice.run_applies);
    const SourceMarks m = source_marks(record.get(), sel, choice.run_applies);
    ASSERT_GE(m.cuda.selected.size(), 2u) << "the store line and a neighbour load line";
    EXPECT_EQ(m.cuda.selected_colour, theme::kRaceArrow);
    const Lines cuda = split_lines(choice.cuda);
    const uint32_t kernel = kernel_line(cuda, "stencil_missing_barrier");
    for (uint32_t line : m.cuda.selected) {
        ASSERT_LE(line, cuda.size());
        EXPECT_NE(cuda[line - 1].find("s_tile"), std::string_view::npos)
            << "line " << line << ": " << cuda[line - 1];
        EXPECT_GT(line, kernel) << "the race is in the broken kernel, not in stencil_correct";
        EXPECT_EQ(m.cuda.gutter_colour(line, findings), theme::kRaceArrow);
    }
    const Lines ptx = split_lines(choice.ptx);
    ASSERT_FALSE(m.ptx.selected.empty());
    for (uint32_t line : m.ptx.selected) {
        ASSERT_LE(line, ptx.size());
        EXPECT_NE(ptx[line - 1].find(".shared"), std::string_view::npos)
            << "PTX line " << line << ": " << ptx[line - 1];
    }
}

TEST(TextColourOn, ReadableOnEveryHighlight) {
    EXPECT_EQ(text_colour_on(theme::kDivergence), theme::rgba(0, 0, 0)) << "black on yellow";
    EXPECT_EQ(text_colour_on(theme::kRaceArrow), theme::rgba(0, 0, 0)) << "white on the race pink is 3.9:1";
    EXPECT_EQ(text_colour_on(theme::kDeadlock), theme::rgba(255, 255, 255));
    EXPECT_EQ(theme::finding_mark(analysis::FindingKind::Race), theme::kRaceArrow);
    EXPECT_EQ(theme::finding_mark(analysis::FindingKind::BarrierDivergence), theme::kDivergence);
    EXPECT_EQ(theme::finding_mark(analysis::FindingKind::LostUpdate), theme::kLostUpdate);
    EXPECT_EQ(theme::finding_mark(analysis::FindingKind::Deadlock), theme::kDeadlock);
}

// [SECTION] Findings as text --------------------------------------------------------------------------

TEST(ThreadExample, PairsTheTwoThreadsOfARace) {
    const trace::Trace t = synthetic_trace();
    EXPECT_EQ(thread_label(t, 33), "block 1 thread 1");
    EXPECT_EQ(thread_label(t, 33, Language::Zh), "线程块 1 的线程 1");
    EXPECT_EQ(thread_label(t, 99), "thread #99") << "not in the thread table";
    EXPECT_EQ(thread_example(t, race({}, {}, {31, 32})), "block 0 thread 31 \u2194 block 1 thread 0");
    EXPECT_EQ(thread_example(t, race({}, {}, {31, 32}), "<->"), "block 0 thread 31 <-> block 1 thread 0");
    EXPECT_EQ(thread_example(t, race({}, {}, {1, 2, 3, 4}), "<->"),
              "block 0 thread 1 <-> block 0 thread 2 (+2 more)");
    EXPECT_EQ(thread_example(t, race({}, {}, {5})), "block 0 thread 5");
    EXPECT_EQ(thread_example(t, race({}, {}, {})), "");
}

TEST(ThreadExample, ListsDeadlockedThreads) {
    const trace::Trace t = synthetic_trace();
    analysis::Finding f;
    f.kind = analysis::FindingKind::Deadlock;
    f.threads = {0, 1, 2, 3, 4};
    EXPECT_EQ(thread_example(t, f), "block 0 thread 0, block 0 thread 1 and 3 more");
}

TEST(FindingText, SpaceAndExplanations) {
    analysis::Finding f = race({}, {}, {});
    EXPECT_EQ(space_text(f), "shared");
    f.kind = analysis::FindingKind::Deadlock;
    EXPECT_EQ(space_text(f), "") << "a deadlock involves no memory";
    for (auto kind : {analysis::FindingKind::Race, analysis::FindingKind::BarrierDivergence,
                      analysis::FindingKind::LostUpdate, analysis::FindingKind::Deadlock})
        EXPECT_NE(std::string(kind_explanation(kind)).find(analysis::to_string(kind)[0]), std::string::npos);
    EXPECT_STREQ(hazard_explanation(analysis::Hazard::None), "");
    EXPECT_EQ(std::string(hazard_explanation(analysis::Hazard::WAR)).rfind("WAR", 0), 0u);
}

// [SECTION] Runs, verdicts, badges, catalog, controls -------------------------------------------------

TEST(WrongOutputsText, SaysHowManyOfHowMany) {
    runner::RunSummary s;
    s.wrong_outputs = 3;
    s.checked_outputs = 512;
    s.reps_with_wrong_outputs = 2;
    s.reps_run = 5;
    EXPECT_EQ(wrong_outputs_text(s, Language::En), "3 wrong of 512 checked (2 of 5 reps had wrong outputs)");
    s.reps_run = 1;
    s.reps_with_wrong_outputs = 1;
    EXPECT_EQ(wrong_outputs_text(s, Language::En), "3 wrong of 512 checked (1 of 1 rep had wrong outputs)");
    const std::string zh = wrong_outputs_text(s, Language::Zh);
    EXPECT_NE(zh.find("512"), std::string::npos);
    EXPECT_NE(zh.find("3 个错误"), std::string::npos) << zh;
    s.checked_outputs = 0;
    EXPECT_EQ(wrong_outputs_text(s, Language::En), "no outputs checked");
}

TEST(Verdict, RealRunIsAsExpected) {
    const auto record = stencil_run();
    const runner::VerdictCheck v = verdict_for(missing_barrier(), *record);
    EXPECT_TRUE(v.pass) << (v.problems.empty() ? "" : v.problems.front());
    EXPECT_GT(record->summary.wrong_outputs, 0u);
    EXPECT_TRUE(record_is_of(record.get(), &stencil(), &missing_barrier()));
    EXPECT_FALSE(record_is_of(record.get(), &stencil(), &stencil().variants.front()));
    EXPECT_FALSE(record_is_of(nullptr, &stencil(), &missing_barrier()));
}

TEST(Verdict, RoundRobinIsNotAskedForWrongOutputs) {
    RunRecord r = *stencil_run();
    r.summary.wrong_outputs = 0;
    r.summary.reps_with_wrong_outputs = 0;
    r.options.schedule = sim::Schedule::Random;
    runner::VerdictCheck v = verdict_for(missing_barrier(), r);
    ASSERT_FALSE(v.pass) << "random schedule, missing barrier, no wrong outputs: not what the lesson says";
    EXPECT_NE(v.problems.front().find("no wrong outputs"), std::string::npos) << v.problems.front();
    r.options.schedule = sim::Schedule::RoundRobin;
    v = verdict_for(missing_barrier(), r);
    EXPECT_TRUE(v.pass) << "round-robin is deterministic: it cannot be asked to expose wrong outputs";
}

TEST(ExpectationText, SaysWhatMustAndMustNotBeFound) {
    const std::string text = expectation_text(missing_barrier().expect);
    EXPECT_NE(text.find("must find: race"), std::string::npos) << text;
    EXPECT_NE(text.find("must not find: barrier_divergence, lost_update, deadlock"), std::string::npos)
        << text;
    EXPECT_NE(text.find("wrong outputs expected"), std::string::npos) << text;
    EXPECT_NE(text.find("status ok"), std::string::npos) << text;
}

// A badge joins two separate things: its shape whether the run matched the lesson, its colour the
// run's own outcome. A hang the lesson expected is as expected and red; a right run green.
TEST(Badges, KeyLookupAndColour) {
    AppState state;
    EXPECT_EQ(badge_key(stencil(), missing_barrier()), "stencil/missing_barrier");
    EXPECT_FALSE(badge_of(state, stencil(), missing_barrier()).ran);
    EXPECT_EQ(badge_colour(Badge{}), 0u) << "not run: drawn hollow";
    Badge hung{true, runner::LessonMatch::AsExpected, runner::RunOutcome::Hung, true};
    state.badges["stencil/missing_barrier"] = hung;
    EXPECT_TRUE(badge_of(state, stencil(), missing_barrier()).as_expected());
    EXPECT_EQ(badge_colour(hung), theme::palette(false).bad) << "as expected, and hung: not green";
    EXPECT_EQ(badge_text(hung), "last run: hung \u00b7 as expected");
    const Badge right{true, runner::LessonMatch::Surprise, runner::RunOutcome::Right, false};
    EXPECT_EQ(badge_colour(right), theme::palette(false).good);
    EXPECT_EQ(badge_colour(right, true), theme::palette(true).good);
    EXPECT_EQ(badge_text(right, Language::Zh), "上次运行：正确 \u00b7 出乎预期");
    const Badge lucky{true, runner::LessonMatch::AsExpected, runner::RunOutcome::Right, true};
    EXPECT_EQ(badge_colour(lucky), theme::palette(false).warning) << "right, with findings: right by luck";
}

// The badge of a real run: the broken stencil's wrong outputs are as expected, and wrong; a GPU run
// and a cancelled one are no lesson's verdict.
TEST(Badges, ForARecordOfItsVariant) {
    RunRecord r = *stencil_run();
    const Badge b = badge_for(missing_barrier(), r);
    EXPECT_TRUE(b.ran);
    EXPECT_EQ(b.match, runner::LessonMatch::AsExpected);
    EXPECT_EQ(b.outcome, runner::RunOutcome::WrongOutputs);
    r.options.backend = "gpu";
    EXPECT_FALSE(badge_for(missing_barrier(), r).ran);
    r.options.backend = "sim";
    r.summary.status = trace::RunStatus::Cancelled;
    EXPECT_FALSE(badge_for(missing_barrier(), r).ran);
}

TEST(GroupByTopic, KnownTopicsInTeachingOrderThenOthers) {
    std::vector<scenario::Scenario> catalog(5);
    const char* topics[] = {"atomics", "zeta", "barriers", "warps", "barriers"};
    for (size_t i = 0; i < catalog.size(); ++i) {
        catalog[i].id = "s" + std::to_string(i);
        catalog[i].topic = topics[i];
    }
    const std::vector<TopicGroup> groups = group_by_topic(catalog);
    ASSERT_EQ(groups.size(), 4u) << "fences has no scenario and is left out";
    EXPECT_EQ(groups[0].topic, "barriers");
    EXPECT_EQ(groups[1].topic, "warps");
    EXPECT_EQ(groups[2].topic, "atomics");
    EXPECT_EQ(groups[3].topic, "zeta");
    ASSERT_EQ(groups[0].scenarios.size(), 2u);
    EXPECT_EQ(groups[0].scenarios[0]->id, "s2") << "catalog order inside a topic";
    EXPECT_EQ(groups[0].scenarios[1]->id, "s4");
    EXPECT_EQ(topic_label("barriers", Language::En), "Barriers");
    EXPECT_EQ(topic_label("atomics", Language::Zh), "原子操作");
    EXPECT_EQ(topic_label("zeta", Language::Zh), "zeta");

    size_t listed = 0;
    for (const TopicGroup& g : group_by_topic(scenario::catalog()))
        listed += g.scenarios.size();
    EXPECT_EQ(listed, scenario::catalog().size()) << "every scenario of the real catalog appears once";
}

TEST(RunControls, RepsAndSchedules) {
    EXPECT_EQ(clamp_reps(0), 1u);
    EXPECT_EQ(clamp_reps(-3), 1u);
    EXPECT_EQ(clamp_reps(5), 5u);
    EXPECT_EQ(clamp_reps(1000), 1000u);
    EXPECT_EQ(clamp_reps(5000), 1000u);
    EXPECT_EQ(std::string(schedule_label(sim::Schedule::RoundRobin)).rfind("rr", 0), 0u);
    for (auto s : {sim::Schedule::RoundRobin, sim::Schedule::Random, sim::Schedule::Adversarial})
        EXPECT_GT(std::string(schedule_explanation(s)).size(), 20u);
}

// [SECTION] Headless ImGui harness --------------------------------------------------------------------

// One ImGui context without a window: the font atlas is built in memory and frames are rendered to
// draw data only. Mouse input is fed through io the way a backend would.
class Headless : public testing::HeadlessPanel {
  public:
    explicit Headless(ImVec2 window_size = {1280, 800})
        : HeadlessPanel(window_size, {std::max(1280.0f, window_size.x), std::max(800.0f, window_size.y)}) {}

    // Clicks on a grid of points, top to bottom then left to right, until `done` holds. After each
    // click another one far down in the window closes any popup or text field it opened. Returns
    // whether `done` came true.
    bool click_until(const std::function<void()>& body, ImVec2 from, ImVec2 to, ImVec2 step,
                     const std::function<bool()>& done) {
        for (int i = 0; i < 3; ++i)
            frame(body); // tables and auto-fit columns settle
        const ImVec2 blank{window().x - 8.0f, window().y - 8.0f};
        for (float y = from.y; y <= to.y; y += step.y)
            for (float x = from.x; x <= to.x; x += step.x) {
                click(body, {x, y});
                if (done()) return true;
                click(body, blank);
            }
        return false;
    }

    // Whether the last frame drew any vertex in `colour` (exactly), optionally only right of min_x.
    static bool drew_colour(uint32_t colour, float min_x = -FLT_MAX) {
        const ImDrawData* data = ImGui::GetDrawData();
        for (int l = 0; l < data->CmdListsCount; ++l)
            for (const ImDrawVert& v : data->CmdLists[l]->VtxBuffer)
                if (v.col == colour && v.pos.x >= min_x) return true;
        return false;
    }

    // The solid rectangles of the last frame in `colour` (AddRectFilled without rounding emits four
    // consecutive vertices): tells a highlighted line (as wide as its column) from a gutter mark.
    struct Rect {
        float x0, y0, x1, y1;
        float width() const { return x1 - x0; }
    };
    static std::vector<Rect> rects(uint32_t colour) {
        std::vector<Rect> out;
        const ImDrawData* data = ImGui::GetDrawData();
        for (int l = 0; l < data->CmdListsCount; ++l) {
            const ImVector<ImDrawVert>& v = data->CmdLists[l]->VtxBuffer;
            for (int i = 0; i + 3 < v.Size; ++i) {
                if (v[i].col != colour || v[i + 1].col != colour || v[i + 2].col != colour ||
                    v[i + 3].col != colour)
                    continue;
                Rect r{v[i].pos.x, v[i].pos.y, v[i].pos.x, v[i].pos.y};
                for (int k = 1; k < 4; ++k) {
                    r.x0 = std::min(r.x0, v[i + k].pos.x);
                    r.x1 = std::max(r.x1, v[i + k].pos.x);
                    r.y0 = std::min(r.y0, v[i + k].pos.y);
                    r.y1 = std::max(r.y1, v[i + k].pos.y);
                }
                out.push_back(r);
            }
        }
        return out;
    }
    // The widest of those rectangles with its left edge right of min_x; -1 when none.
    static float widest_rect(uint32_t colour, float min_x = -FLT_MAX) {
        float widest = -1.0f;
        for (const Rect& r : rects(colour))
            if (r.x0 >= min_x) widest = std::max(widest, r.width());
        return widest;
    }

    ImVec2 size() const { return window(); }
};

struct Panels {
    ScenarioBrowser browser;
    LessonPanel lesson;
    RunPanel run;
    SourceView source;
    FindingsPanel findings;
};

AppState selected_state() {
    AppState state;
    state.scenario = &stencil();
    state.variant = &missing_barrier();
    return state;
}

AppState run_state() {
    AppState state = selected_state();
    state.current = stencil_run();
    state.badges["stencil/missing_barrier"] = Badge{true, runner::LessonMatch::AsExpected,
                                                    runner::RunOutcome::WrongOutputs, true};
    state.badges["stencil/correct"] = Badge{true, runner::LessonMatch::Surprise, runner::RunOutcome::Right, false};
    return state;
}

// Draws each panel alone for `state` and expects draw data every time.
void draw_every_panel(Headless& h, Panels& p, AppState& state, const char* what) {
    EXPECT_GT(h.frame([&] { p.browser.draw(state); }), 0) << "browser, " << what;
    EXPECT_GT(h.frame([&] { p.lesson.draw(state); }), 0) << "lesson, " << what;
    EXPECT_GT(h.frame([&] { p.run.draw(state); }), 0) << "run panel, " << what;
    EXPECT_GT(h.frame([&] { p.source.draw(state); }), 0) << "source view, " << what;
    EXPECT_GT(h.frame([&] { p.findings.draw(state); }), 0) << "findings, " << what;
}

// [SECTION] Smoke: every panel, every state ---------------------------------------------------------------

TEST(PanelsSmoke, NothingSelected) {
    Headless h;
    Panels p;
    AppState state;
    draw_every_panel(h, p, state, "nothing selected");
    EXPECT_FALSE(state.requests.run || state.requests.run_both || state.requests.cancel);
    EXPECT_EQ(state.requests.focus_finding, -1);
}

TEST(PanelsSmoke, SelectedButNotRun) {
    Headless h;
    Panels p;
    AppState state = selected_state();
    draw_every_panel(h, p, state, "selected, no run");
    state.language = Language::Zh; // without a CJK font: English, no crash
    draw_every_panel(h, p, state, "Chinese chosen, no CJK font");
    state.cjk_font = true; // the default font lacks the glyphs: drawn as '?', still no crash
    draw_every_panel(h, p, state, "Chinese with a (pretend) CJK font");
    state.show_ptx = true;
    draw_every_panel(h, p, state, "PTX shown");
}

TEST(PanelsSmoke, WithARealRun) {
    Headless h;
    Panels p;
    AppState state = run_state();
    draw_every_panel(h, p, state, "real run");

    // Everything at once: a selected finding, a hovered event, PTX, a run in flight, compare mode.
    state.selection.selected_finding = 0;
    state.selection.finding_lines = state.current->summary.findings.front().lines;
    state.selection.hovered_line = 20;
    state.selection.hovered_site = 0;
    state.show_ptx = true;
    state.progress = {true, 0.42, "stencil / missing_barrier"};
    state.compare = true;
    state.compare_left = state.compare_right = state.current;
    state.presenter = true;
    draw_every_panel(h, p, state, "selection, hover, PTX, running");
    state.selection.selected_finding = 9999; // stale index after a new run: ignored
    draw_every_panel(h, p, state, "stale selection");
}

TEST(PanelsSmoke, RunOfAnotherVariantAndAFailedRun) {
    Headless h;
    Panels p;
    AppState state = run_state();
    state.scenario = scenario::find_scenario("lost_update");
    ASSERT_NE(state.scenario, nullptr);
    state.variant = &state.scenario->variants.back();
    draw_every_panel(h, p, state, "run of another scenario");

    auto failed = std::make_shared<RunRecord>(*stencil_run());
    failed->summary.status = trace::RunStatus::Deadlock;
    failed->summary.message = "block 0: 128 threads wait at line 21 forever";
    failed->summary.findings.clear();
    failed->serial = 2;
    state = selected_state();
    state.current = failed;
    draw_every_panel(h, p, state, "deadlocked run without findings");
    h.frame([&] { p.findings.draw(state); });
    EXPECT_TRUE(Headless::drew_colour(theme::kDeadlock)) << "the status on top of the findings, in red";

    auto empty = std::make_shared<RunRecord>(); // a loaded trace with nothing in it
    empty->serial = 3;
    state = AppState{};
    state.current = empty;
    draw_every_panel(h, p, state, "empty loaded trace");
}

TEST(PanelsSmoke, UntracedRunAndGpuBackend) {
    Headless h;
    Panels p;
    auto untraced = std::make_shared<RunRecord>(*stencil_run());
    untraced->summary.traced = false;
    untraced->summary.findings.clear();
    untraced->serial = 4;
    AppState state = selected_state();
    state.current = untraced;
    state.controls.backend = "gpu";
    draw_every_panel(h, p, state, "untraced run, backend gpu (unavailable)");
    p.run.set_gpu_backend(true);
    draw_every_panel(h, p, state, "backend gpu (available)");
    p.run.set_gpu_backend(false, "no CUDA driver");
    state.controls.backend = "quantum";
    draw_every_panel(h, p, state, "unknown backend from a settings file");
    EXPECT_EQ(state.controls.backend, "quantum")
        << "the panel shows a backend it cannot offer, never rewrites it";
}

TEST(PanelsSmoke, SourceViewHighlightsInThemeColours) {
    Headless h;
    Panels p;
    AppState state = run_state();
    const auto& findings = state.current->summary.findings;
    auto it = std::find_if(findings.begin(), findings.end(),
                           [](const analysis::Finding& f) { return f.kind == analysis::FindingKind::Race; });
    ASSERT_NE(it, findings.end());
    state.selection.selected_finding = int(it - findings.begin());
    state.selection.hovered_line = 20;
    state.show_ptx = true;
    // The first frames scroll both columns to the finding (a new child learns its scroll range first).
    for (int i = 0; i < 4; ++i)
        h.frame([&] { p.source.draw(state); });
    const float half = h.size().x * 0.5f;
    EXPECT_GT(Headless::widest_rect(theme::kRaceArrow), half * 0.8f)
        << "selected race lines: a pink background";
    EXPECT_GT(Headless::widest_rect(theme::kHoverLine), half * 0.8f) << "the hovered line";
    EXPECT_GT(Headless::widest_rect(theme::kRaceArrow, half), half * 0.8f)
        << "the race's PTX instructions, scrolled into view in the right-hand column";

    // Without a selected finding only the gutter marks every line a finding names.
    state.selection = {};
    h.frame([&] { p.source.draw(state); });
    const float font = ImGui::GetFontSize();
    const auto marks = Headless::rects(theme::kRaceArrow);
    EXPECT_TRUE(std::any_of(marks.begin(), marks.end(), [&](const Headless::Rect& r) {
        return r.y0 > 3.0f * font;
    })) << "gutter marks of the race lines (below the header and its legend)";
    EXPECT_LT(Headless::widest_rect(theme::kRaceArrow), font) << "no line background";

    AppState before_run = selected_state();
    h.frame([&] { p.source.draw(before_run); });
    EXPECT_FALSE(Headless::drew_colour(theme::kRaceArrow)) << "no highlights before a run";
}

TEST(PanelsSmoke, BrowserBadgesInThemeColours) {
    Headless h;
    Panels p;
    AppState state = run_state();
    h.frame([&] { p.browser.draw(state); });
    EXPECT_TRUE(Headless::drew_colour(theme::palette(false).bad)) << "the wrong run's badge";
    EXPECT_TRUE(Headless::drew_colour(theme::palette(false).good)) << "the right run's badge";
}

TEST(PanelsSmoke, MonoFontIsUsed) {
    Headless h;
    ImFont* mono = ImGui::GetIO().Fonts->Fonts[0]; // stands in for the App's monospace font
    Panels p;
    p.source.set_mono_font(mono);
    AppState state = run_state();
    EXPECT_GT(h.frame([&] { p.source.draw(state); }), 0);
}

// [SECTION] Clicks raise requests ---------------------------------------------------------------------------

TEST(PanelsClick, FindingRowFocusesThatFinding) {
    Headless h;
    FindingsPanel panel;
    AppState state = run_state();
    auto body = [&] { panel.draw(state); };
    ASSERT_TRUE(h.click_until(body, {30, 0}, {30, 400}, {1, 3}, [&] {
        return state.requests.focus_finding >= 0;
    })) << "no click on the table selected a finding";
    EXPECT_EQ(state.requests.focus_finding, 0) << "the first row is hit first, top to bottom";
    EXPECT_EQ(state.selection.selected_finding, -1) << "the App, not the panel, selects";
}

TEST(PanelsClick, BrowserSelectsEveryVariantAndKeepsTheRun) {
    Headless h({900, 1400}); // tall enough for every lesson's variants (34 with the atomics lessons)
    ScenarioBrowser panel;
    AppState state;
    state.current = stencil_run();
    // A click on a topic header (framed, as wide as the window) folds it; the scan reopens the topics
    // before every frame so that it reaches every variant. Scenario nodes are only as wide as their
    // titles, which end well left of the column the scan clicks in.
    auto body = [&] {
        ImGui::PushID("scenario_browser");
        for (const char* topic : {"barriers", "warps", "fences", "atomics"})
            ImGui::GetStateStorage()->SetInt(ImGui::GetID(topic), 1);
        ImGui::PopID();
        panel.draw(state);
    };
    size_t total = 0;
    for (const scenario::Scenario& s : scenario::catalog())
        total += s.variants.size();
    std::set<const scenario::Variant*> selected;
    bool consistent = true;
    auto all_seen = [&] {
        if (state.variant == nullptr) return false;
        const auto& variants = state.scenario->variants;
        consistent =
            consistent && std::any_of(variants.begin(), variants.end(),
                                      [&](const scenario::Variant& v) { return &v == state.variant; });
        selected.insert(state.variant);
        return selected.size() == total;
    };
    EXPECT_TRUE(h.click_until(body, {860, 0}, {860, 1390}, {1, 3}, all_seen))
        << "clicking down the list selected " << selected.size() << " of " << total << " variants";
    EXPECT_TRUE(consistent) << "a variant was selected with another scenario";
    EXPECT_EQ(state.current, stencil_run()) << "selecting keeps the current run";
}

TEST(PanelsSmoke, BrowserOpensTheTopicOfASelectionMadeElsewhere) {
    Headless h;
    ScenarioBrowser panel;
    AppState state;
    ImGuiID barriers = 0;
    auto body = [&] {
        ImGui::PushID("scenario_browser");
        barriers = ImGui::GetID("barriers");
        ImGui::PopID();
        panel.draw(state);
    };
    h.frame(body);
    auto is_open = [&] {
        int open = -1;
        h.frame([&] {
            body();
            open = ImGui::GetStateStorage()->GetInt(barriers, -1);
        });
        return open;
    };
    EXPECT_EQ(is_open(), 1) << "topics start open";
    h.frame([&] {
        body();
        ImGui::GetStateStorage()->SetInt(barriers, 0); // the student folds "Barriers"
    });
    EXPECT_EQ(is_open(), 0);
    state.scenario = &stencil(); // a script or the lesson selects a variant in that topic
    state.variant = &missing_barrier();
    EXPECT_EQ(is_open(), 1) << "the selection must be visible in the browser";
}

TEST(PanelsClick, LessonRunButtonRequestsARun) {
    Headless h({700, 800});
    LessonPanel panel;
    AppState state = selected_state();
    auto body = [&] { panel.draw(state); };
    ASSERT_TRUE(h.click_until(body, {350, 0}, {350, 790}, {1, 4}, [&] { return state.requests.run; }));

    state.requests = {};
    state.progress.running = true; // a run in flight: the button is disabled
    EXPECT_FALSE(h.click_until(body, {350, 0}, {350, 790}, {1, 8}, [&] { return state.requests.run; }));
}

TEST(PanelsClick, LessonLanguageSwitchNeedsACjkFont) {
    // Tall enough for the lesson's text without a scrollbar (the harness's blank click would scroll it).
    Headless h({700, 900});
    LessonPanel panel;
    AppState state = selected_state();
    state.cjk_hint = "install fonts-wqy-microhei";
    auto body = [&] { panel.draw(state); };
    const float top = ImGui::GetStyle().WindowPadding.y + 20.0f; // title bar + first line
    EXPECT_FALSE(h.click_until(body, {4, top}, {400, top + 16}, {6, 4}, [&] {
        return state.language == Language::Zh;
    })) << "without a CJK font the Chinese switch is disabled";
    state.cjk_font = true;
    EXPECT_TRUE(h.click_until(body, {4, top}, {400, top + 16}, {6, 4},
                              [&] { return state.language == Language::Zh; }));
}

TEST(PanelsClick, RunPanelButtons) {
    Headless h({600, 400});
    RunPanel panel;
    AppState state = selected_state();
    auto body = [&] { panel.draw(state); };
    const ImVec2 from{4, 20}, to{590, 300}, step{12, 5};
    ASSERT_TRUE(h.click_until(body, from, to, step, [&] { return state.requests.run; }));
    state.requests = {};
    ASSERT_TRUE(h.click_until(body, from, to, step, [&] { return state.requests.run_both; }));
    EXPECT_TRUE(state.compare) << "side by side turns compare mode on";
    EXPECT_GE(state.controls.reps, kMinReps) << "whatever the clicks did to the inputs";
    EXPECT_LE(state.controls.reps, kMaxReps);

    state = selected_state();
    state.progress = {true, 0.5, "stencil / missing_barrier"};
    ASSERT_TRUE(h.click_until(body, from, to, step, [&] { return state.requests.cancel; }));
    EXPECT_FALSE(state.requests.run) << "Run is disabled while a run is in flight";

    state = AppState{};
    state.scenario = &stencil();
    state.variant = &stencil().variants.front(); // the correct variant: nothing to compare it with
    EXPECT_FALSE(h.click_until(body, from, to, step,
                               [&] { return state.requests.run_both || state.requests.cancel; }));
}

TEST(PanelsClick, SourceGutterLineSelectsItsFinding) {
    Headless h({900, 800});
    SourceView panel;
    AppState state = run_state();
    auto body = [&] { panel.draw(state); };
    ASSERT_TRUE(
        h.click_until(body, {450, 0}, {450, 790}, {1, 3}, [&] { return state.requests.focus_finding >= 0; }));
    EXPECT_LT(size_t(state.requests.focus_finding), state.current->summary.findings.size());
}

} // namespace
} // namespace synclab::ui
