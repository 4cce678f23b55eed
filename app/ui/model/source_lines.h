// Pure logic behind the panels (scenario browser, lesson, run controls, source view, findings): no
// ImGui, no GL, so that every decision a panel makes about *what* to show is unit-testable and the
// panels themselves only lay it out (Tracy's Preprocess()/Draw() split, applied to text views).
//
// Index
//   [SECTION] Text: lines, tabs, kernels
//   [SECTION] Which source to show
//   [SECTION] Line highlights (source view)
//   [SECTION] Findings as text (findings panel)
//   [SECTION] Runs and verdicts (lesson panel, browser badges)
//   [SECTION] Catalog grouping (scenario browser)
//   [SECTION] Run controls
#pragma once

#include "ui/core/app_state.h"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace synclab::ui {

// The language text is shown in: Chinese only when chosen and a CJK font is loaded (as lesson_text).
inline Language shown_language(const AppState& state) {
    return state.language == Language::Zh && state.cjk_font ? Language::Zh : Language::En;
}

// [SECTION] Text: lines, tabs, kernels -----------------------------------------------------------

// Splits text into lines without their terminators. "\n", "\r\n" and a lone "\r" each end a line (a
// file saved on Windows must not show a stray glyph at every line end); a terminator at the very end
// does not start an extra empty line. The views point into `text`, which must outlive them.
std::vector<std::string_view> split_lines(std::string_view text);

// Replaces tabs by spaces up to the next multiple of `tab_width` (PTX indents and aligns operands with
// tabs; ImGui would draw each tab as a fixed advance and lose the columns).
std::string expand_tabs(std::string_view line, uint32_t tab_width = 4);

// 1-based number of the first line that contains `needle`, 0 if none (or needle is empty).
uint32_t find_line(const std::vector<std::string_view>& lines, std::string_view needle);

// 1-based line where `kernel` (a PTX entry name, e.g. "stencil_missing_barrier") is declared: the first
// line that contains "kernel(". Both the CUDA file and the PTX spell it that way.
uint32_t kernel_line(const std::vector<std::string_view>& lines, std::string_view kernel);

// The first line of the block of "//" comment lines that ends right above `line` (1-based), or `line`
// itself when none does: where a kernel's explanation starts (every variant's kernel in kernels/ is
// preceded by a comment saying what is wrong with it).
uint32_t leading_comment_start(const std::vector<std::string_view>& lines, uint32_t line);

// Number of decimal digits of n (at least 1): the width of the line-number gutter.
uint32_t decimal_digits(uint32_t n);

// [SECTION] Which source to show -----------------------------------------------------------------

struct SourceChoice {
    std::string_view cuda; // the CUDA text to show ("" if none)
    std::string_view ptx;  // the PTX text to show ("" if none)
    std::string name;      // file name for the header ("stencil.cu"), "" if unknown
    // True when the record's sites, findings and hovered events refer to these texts, i.e. the
    // highlights of the current run apply. False when the texts are the selected scenario's and the
    // current run is of another scenario.
    bool run_applies = false;
};

// The texts the source view shows: the run's own (meta.source_text / ptx_text) when the record is of
// the selected scenario (or of no catalog scenario, or nothing is selected), each falling back to the
// scenario's embedded file; when the run is of another scenario than the one selected, the selected
// scenario's files without run highlights (a student predicting a new variant must see its kernel,
// not the last run's).
SourceChoice choose_source(const RunRecord* record, const scenario::Scenario* selected);

// [SECTION] Line highlights (source view) ----------------------------------------------------------

// Black or white, whichever has more contrast with `background` (0xAABBGGRR; theme::ink_on):
// highlighted lines keep the exact theme colour as background (the GUI tests look for it), so the
// text must adapt.
uint32_t text_colour_on(uint32_t background);

// PTX line of a site (1-based), 0 when the site is not in the trace's site table.
uint32_t ptx_line_of_site(const trace::Trace& trace, uint32_t site);

// CUDA lines of a finding as the kernel's source shows them (Finding::lines: a site without a CUDA
// line is in Finding::ptx_lines instead, so it lights up no CUDA line; a line of a helper inlined
// from another file, a header, stands as the line of the kernel's file that calls it:
// analysis::kernel_file_lines). Sorted, unique. A helper in the kernel's own file lights its own
// line, the innermost one, where the access is.
std::vector<uint32_t> finding_cuda_lines(const analysis::Finding& finding);

// PTX lines of a finding's sites. Sorted, unique.
std::vector<uint32_t> finding_ptx_lines(const trace::Trace& trace, const analysis::Finding& finding);

// The marks of one text (the CUDA or the PTX column).
struct LineMarks {
    std::vector<uint32_t> selected;               // strong background, sorted unique (selected finding)
    uint32_t selected_colour = 0;                 // colour of that background (by the finding's kind)
    uint32_t hovered = 0;                         // line under the timeline's hovered event, 0: none
    std::vector<uint32_t> playhead;               // lines where warps are at the playhead, sorted
    std::vector<uint32_t> provenance;             // lines of an explained output (ProvenanceMarks), sorted
    std::map<uint32_t, std::vector<int>> by_line; // line -> indices of the findings naming it (gutter)

    bool is_selected(uint32_t line) const;
    // Gutter colour of a line: the colour of the most important finding naming it (findings come
    // most important first), 0 when no finding names the line.
    uint32_t gutter_colour(uint32_t line, const std::vector<analysis::Finding>& findings) const;
    // The line to scroll to: the first selected line, else 0.
    uint32_t first_selected() const { return selected.empty() ? 0 : selected.front(); }
};

struct SourceMarks {
    LineMarks cuda, ptx;
};

// Which lines to highlight, for a run and a selection. With a valid selection.selected_finding the
// selected lines are that finding's (CUDA lines via its sites, PTX lines of its sites); otherwise
// selection.finding_lines as given, in the race colour. Every finding of the run marks its lines in
// the gutter; with a playhead on this record, the lines its warps are at; with provenance of this
// record (a wrong output explained), its CUDA lines and the PTX lines of its events. Nothing is
// marked when `record` is null or `run_applies` is false.
SourceMarks source_marks(const RunRecord* record, const Selection& selection, bool run_applies,
                         const Playhead* playhead = nullptr, const ProvenanceMarks* provenance = nullptr);

// [SECTION] Findings as text (findings panel) ------------------------------------------------------

// "block 0 thread 33" (trace::thread_name, as every view names a thread).
std::string thread_label(const trace::Trace& trace, uint32_t thread, Language language = Language::En);

// An example of the threads involved: "block 0 thread 31 <arrow> block 0 thread 32"
// for two threads (the first access's thread first; " (+N more)" when the finding names more), a
// comma-separated list for deadlocks ("... and N more" past two), "" when it names none. `arrow` is
// a parameter because the font may lack U+2194.
std::string thread_example(const trace::Trace& trace, const analysis::Finding& finding,
                           std::string_view arrow = "\u2194", Language language = Language::En);

// The finding's lines as written in the table: its CUDA lines "20, 23, 24", then the PTX lines of its
// sites that have no CUDA line, each written "PTX 41". A line inlined from a helper shows the
// kernel's line that calls it, "19 ← 39", and its file where that is not the kernel's,
// "3 (reduce.cuh) ← 15".
std::string lines_text(const analysis::Finding& finding);

// Where a site's line is, for hovers: "line 19 in `warpReduce<64u>`, called from line 39"
// (trace::site_line_text in `language`).
std::string site_origin_text(const trace::Site& site, Language language);

// "shared" / "global" / "local"; "" for findings that involve no memory (barriers, deadlock).
std::string space_text(const analysis::Finding& finding, Language language = Language::En);

// One sentence each, for tooltips.
const char* kind_explanation(analysis::FindingKind kind, Language language = Language::En);
const char* hazard_explanation(analysis::Hazard hazard, Language language = Language::En);

// [SECTION] Runs and verdicts (lesson panel, browser badges) ---------------------------------------

// Whether `record` is a run of exactly this scenario variant.
bool record_is_of(const RunRecord* record, const scenario::Scenario* scenario,
                  const scenario::Variant* variant);

// "X wrong of Y checked (Z of N reps had wrong outputs)" (or its Chinese wording); "no outputs
// checked" when nothing was checked (a run that stopped before the check).
std::string wrong_outputs_text(const runner::RunSummary& summary, Language language);

// [SECTION] GPU runs: both sides ------------------------------------------------------------------

// One side of a GPU run in words. Untraced: "untraced: 15 of 16384 wrong in 5 launches, 0.013 ms";
// traced: "traced: 0 wrong, 0.74 ms, 19.4 M events" (dropped events and a partial trace said too);
// a side that did not finish: "traced: timeout, 1.2 k events (partial)"; not run: "untraced: not run".
std::string gpu_side_text(const runner::GpuSide& side, bool traced);
// Both sides, untraced first, joined by " · " (tracing perturbs: the untraced side is the hardware's
// own outcome). "" for a record that is not a GPU run, a provisional one, or one that never ran.
std::string gpu_sides_text(const RunRecord& record);
// "0.013 ms", "0.74 ms", "12.5 ms"; "19.4 M events", "1.2 k", "812".
std::string ms_text(double ms);
std::string count_short(uint64_t n);

// The verdict of a record against its variant's expectation. Round-robin is deterministic and
// cannot expose wrong outputs, so "wrong outputs possible" is only demanded of other schedules.
runner::VerdictCheck verdict_for(const scenario::Variant& variant, const RunRecord& record);

// The expectation in words: "must find: race; must not find: lost_update, deadlock; wrong outputs
// possible under random/adversarial schedules; status ok".
std::string expectation_text(const scenario::Expectation& expect);

// "stencil/missing_barrier": the key of AppState::badges.
std::string badge_key(const scenario::Scenario& scenario, const scenario::Variant& variant);
Badge badge_of(const AppState& state, const scenario::Scenario& scenario, const scenario::Variant& variant);
// The badge of a record of `variant` (its verdict and outcome); a GPU run's or a cancelled one's is
// not a lesson's verdict (the verdicts are about the simulator): not ran.
Badge badge_for(const scenario::Variant& variant, const RunRecord& record);
// The colour of its run's outcome (outcome_words.h's tone, as the text of that outcome is drawn);
// 0 when it did not run (drawn hollow in the text colour).
uint32_t badge_colour(const Badge& badge, bool presenter = false);
// "last run: wrong outputs · as expected" / "上次运行：输出错误 · 符合预期"; "not run yet".
std::string badge_text(const Badge& badge, Language language = Language::En);

// [SECTION] Catalog grouping (scenario browser) ----------------------------------------------------

struct TopicGroup {
    std::string topic;
    std::vector<const scenario::Scenario*> scenarios; // in catalog order
};

// Scenarios grouped by topic: barriers, warps, fences, atomics first (those that exist), then any
// other topic in order of first appearance.
std::vector<TopicGroup> group_by_topic(const std::vector<scenario::Scenario>& catalog);

// "Barriers" / "屏障" etc.; an unknown topic is shown as it is spelled.
std::string topic_label(std::string_view topic, Language language);

// [SECTION] Run controls -----------------------------------------------------------------------------

constexpr uint32_t kMinReps = 1;
constexpr uint32_t kMaxReps = 1000;
uint32_t clamp_reps(int64_t reps);

const char* schedule_label(sim::Schedule schedule,
                           Language language = Language::En); // "rr: deterministic round-robin", ...
const char* schedule_explanation(sim::Schedule schedule,
                                 Language language = Language::En); // one line for the tooltip

} // namespace synclab::ui
