// The UI's fixed words, in English and Simplified Chinese: one struct per view, one table per
// language (ui_text.cpp), looked up with ui_text(language). Views never spell a word of the UI
// themselves; they take it from here.
//
// How to add a string (for new views too, e.g. the output grid and the shared-memory view):
//   1. add a `Text name;` member to the view's struct below (or a new struct, and a member of it in
//      UiText), with a comment giving the English where the name does not say it;
//   2. give it a value in BOTH kEnglish and kChinese in ui_text.cpp. Text has no default
//      constructor, so a table that forgets a member does not compile;
//   3. draw it: `const UiText& t = ui_text(shown_language(state)); ImGui::TextUnformatted(t.view.name);`
//      Words with numbers or names in them are patterns with {0}, {1}...: fill(t.view.name, {a, b})
//      (the languages put them in different orders: "{0} of {1}" / "{1} 个中有 {0} 个").
//   4. every Chinese character used must be in the app's CJK font: tests/gui/words_test.cpp checks
//      every Text of kChinese, and gui_zh_has_no_english checks what a frame in Chinese draws.
// Code, identifiers, file names, CUDA keywords and key names (Tab, Esc, F1) stay as they are.
// Sentences built from data (a run's outcome, a finding) are functions here or in outcome_words.h.
#pragma once

#include "analysis/findings.h"
#include "ui/core/app_state.h"

#include <initializer_list>
#include <string>
#include <string_view>

namespace synclab::ui {

// One string of the table: must be given (no default constructor), reads as a const char*.
struct Text {
    const char* s;
    constexpr Text(const char* text) : s(text) {}
    constexpr operator const char*() const { return s; }
    constexpr const char* c_str() const { return s; }
};

// "{0} of {1}" with {0}, {1}... replaced by args (a missing argument leaves the braces).
std::string fill(const char* pattern, std::initializer_list<std::string> args);

struct MenuText {
    Text file, open_trace, save_trace, export_json, save_png, quit;
    Text run, run_selected, cancel;
    Text view, presenter, compare, ptx_beside, fullscreen, english, help_keys;
    Text key_space; // the shortcut shown beside "Run selected"
};

struct ShellText {
    Text tab_lesson, tab_source, tab_source_ptx;
    Text own_kernel;    // header beside a trace with a kernel of its own
    Text schedule_seed; // "{0}, seed {1}"
    Text live_header;   // "live: {0} events, {1}, kernel still running"
    Text compare_hint;  // "Compare: press Space (or Run ▸ {0}) to run ..."
    Text running_both, running;
    Text no_run_timeline;
    Text cancel;
    Text status_running;  // "running {0}…"
    Text keys_presenter;  // "H: keys · Esc: leave presenter mode"
    Text keys_normal;     // "F1: keys"
    Text no_findings_yet; // "this run has no findings"
    Text no_run_yet;      // "no run yet: press Space to run"
    Text cancelling;
    Text saved;           // "saved {0}"
    Text saved_trace;     // "saved the trace to {0}"
    Text wrote_json;      // "wrote {0} (open it in ui.perfetto.dev)"
    Text opening;         // "opening {0}…"
    Text running_pair;    // "running {0} and {1}…"
    Text failed;          // "failed: {0}"
    Text gpu_unavailable; // "GPU unavailable: {0} (use the simulator)"
    Text fallback;        // "GPU unavailable: {0}; running on the simulator"
    Text nothing_to_save, nothing_to_export;
    Text could_not_save, could_not_export; // "...: {0}"
    Text checking_gpu;
};

struct DialogText {
    Text file_title, open_title, save_title, export_title, png_title;
    Text relative_paths; // "Relative paths start in {0}"
    Text open, save, cancel;
    Text error_title, keeps_running, ok;
    // "The lessons in {0} could not be loaded (the built-in lessons are all here):\n{1}" ({1}: "FILE:LINE: what")
    Text lessons_broken;
};

struct RunPanelText {
    Text backend, simulator, gpu, schedule, seed, reps, run, run_both, cancel, side_by_side;
    Text idle;
    Text last_run; // "last run: {0}  ({1} ms)"
    Text no_variant;
    Text gpu_probing;     // "GPU: {0}"
    Text gpu_unavailable; // "GPU unavailable: {0}"
    Text launches, launches_both, launches_untraced, live, timeout;
    Text tip_schedule_gpu, tip_seed, tip_reps, tip_run, tip_select, tip_both, tip_both_select, tip_side;
    Text seed_word;  // "seed {0}" in a run's label
    Text seeds_word; // "seeds {0}-{1}"
    Text tip_backend, tip_gpu_real, tip_launches, tip_live, tip_live_off, tip_timeout;
    Text memory;         // "Memory model"
    Text memory_lesson;  // "{0} (the lesson's)" in the combo's preview
    Text memory_sc, memory_relaxed;         // the models' names: "sc", "relaxed" (the CLI's ids)
    Text tip_memory_sc, tip_memory_relaxed; // what each one is
    Text tip_memory, tip_memory_gpu;
    Text warp_model;                              // "Warp"
    Text warp_model_its, warp_model_lockstep;     // "its", "lockstep" (the CLI's ids)
    Text tip_warp_model_its, tip_warp_model_lockstep; // what each one is
    Text tip_warp_model, tip_warp_model_gpu;
    Text tip_reps_exhaustive; // why the repetitions are greyed out under schedule exhaustive
    Text step_budget;         // "Step budget": the simulator's thread-instructions before it stops a run
    Text tip_step_budget;     // what it is; {0}: the lesson's own budget
    Text tip_step_budget_gpu; // the GPU has a timeout instead
    Text raise_budget;        // "Run again with a step budget of {0}" (after a run the budget stopped)
};

struct BrowserText {
    Text ran_as_expected; // "{0} of {1} variants run · {2} as expected" (once something ran)
    Text scenario_tip;    // "scenario \"{0}\" ({1})"
    Text folder_heading;  // "Lessons from {0}": a teacher's folder (--lessons DIR), by its name
};

struct FindingsText {
    Text no_run, live, not_traced;
    Text count_one, count_many; // "{0} finding" / "{0} findings"
    Text in_run;                // "in {0}"
    Text until_then;            // " - the trace shows what ran until then."
    Text no_findings;           // "No findings — the analysis saw no race ..."
    Text no_findings_partial;
    Text no_trace; // the run left no thread table at all (a refused launch): nothing to analyse
    Text kind, hazard, space, lines, count, example, message; // column headers
    Text shared, global, ptx_line;                            // "shared", "global", "PTX {0}"
    Text hazard_none;                                         // the hazard cell where there is none ("-")
};

struct TimelineText {
    Text ruler_ticks, ruler_ns; // "time (ticks)", "time (ns)"
    Text block, warp, thread_lane, line,
        line_pair; // "block {0}", "warp {0}", "thread {0} · lane {1}", "line {0}", "line {0} | {1}"
    Text timeout, deadlock;
    Text legend_load, legend_store, legend_race, legend_wait, legend_stuck, legend_divergence, legend_atomic,
        legend_fence, legend_exit, legend_folded;
    Text short_load, short_store, short_race, short_wait, short_stuck, short_divergence, short_atomic,
        short_fence, short_exit, short_folded;
    // Tooltips: the help mark, an event, an arrow, a fold, a wait, a row label.
    Text tip_about, tip_keys, tip_time, tip_access, tip_volatile, tip_cuda_ptx, tip_ptx,
        tip_address, tip_barrier, tip_at, tip_from, tip_to, tip_first_access, tip_second_access,
        tip_click_select, tip_events, tip_folded, tip_first_of_them, tip_waiting, tip_several,
        tip_threads_waited, tip_site, tip_never_released, tip_ended, tip_click_warps, tip_click_lanes;
    // A wait no arrival records: lanes of one warp at different barrier instructions.
    Text tip_waiting_unrecorded;
    // The captions of the numbered story marks: a lost update's interleaving, an explained output.
    Text story_thread;     // "thread {0}"
    Text story_lost;       // "1 {0} loads · 2 {1} loads · 3 {2} stores · 4 {3} stores over it: ..."
    Text story_wrote;      // "3 {0} wrote {1}"
    Text story_stale;      // "1 racing store · 2 {0}'s stale load · 3 it wrote {1} from it"
    Text story_the_output; // "the output"
    // Warp collectives: the legend's shuffle/vote mark and warp barrier (__syncwarp), a fold of them.
    Text legend_collective, legend_warp_sync, short_collective, short_warp_sync;
    Text tip_collectives; // "{0} warp collectives (zoom in)"
    // Rows folded to keep a finding's far-apart threads in sight: the fold's label, its hover text.
    Text fold_warps, fold_blocks; // "warps {0}–{1}", "blocks {0}–{1}"
    Text tip_fold;
};

// The hover text of a warp collective on the timeline (warp_collectives.h).
struct CollectiveText {
    Text warp_sync, shfl, vote, ballot, match, redux, elect; // what it is, one line
    Text members;        // "members: mask {0} ({1})"
    Text not_recorded;   // "not in the trace: {0}"
    Text lanes, no_lanes; // "lanes {0}", "no lanes"
    Text sync_meaning;   // __syncwarp: what it guarantees
    Text read_from;      // "read from (lane←source): {0}"
    Text gave, kept;     // "gave a value: {0}", "kept its own value: {0}"
    Text ballot_result;  // "ballot {0}: {1}"
    Text vote_true, vote_false;
    Text no_memory_order; // shfl and vote do not order memory
    Text results, lane_value; // "results: {0}", "lane {0}: {1}"
    Text lane_event, from_lane; // one lane's event: "{0}  mask {1}  result {2}{3}", "  from lane {0}"
};

struct PlaybackText {
    Text to_start, back_instruction, back_event, forward_event, forward_instruction, to_end, stop, hide;
    Text idle;       // "step through block {0}: . and , (events), > and < (warp instructions)"
    Text before;     // "block {0}: before the first of its {1} events"
    Text at;         // "event {0} of {1} · block {2} · warp {3}{4} · {5}{6}"
    Text lanes;      // " ({0} lanes)"
    Text line;       // " · line {0}"
    Text idle_short; // "block {0}: . , > <" (where the long hint does not fit)
};

struct SharedMemoryText {
    Text title;      // "shared memory of block {0} at event {1}"
    Text none;       // "no shared-memory access to show (none, or more than {0} words)"
    Text stale_read; // "this instruction reads {0} stale slots: values not written yet"
    Text counts;     // "{0} words · {1} stale"
    Text tip_stale;  // what "stale" means
    Text written, stale, read_now, stale_read_legend;
    Text tip_offset;      // "offset 0x{0} (word {1})"
    Text tip_value;       // "value {0}, stored by {1}"
    Text tip_not_written; // "not written yet"
    Text tip_next;        // "next store: {0}"
    Text tip_next_stale;  // "next store: {0}, before the next barrier: a load now reads a stale value"
    Text who;             // "thread {0} at line {1}"
};

struct HelpText {
    Text title, closes;
    Text space, space_keys, scenario, variant, tab, finding, pgdn, compare, presenter, fullscreen, help, esc;
    Text step_event, step_instruction, step_ends; // the playback bar's keys
    Text f1_or_h;                                 // the key column's "F1 or H"
};

struct CalloutText {
    Text first_of;                       // "] or PgDn: the first of {0} findings"
    Text a_thread; // "a thread" (threads are named by trace::thread_name)
    Text line, lines, and_, comma, ptx_line, ptx_lines, semicolon;
    Text no_barrier, other_blocks; // why a race happened: same block / different blocks
    Text within_warp;              // ... lanes of one warp with no __syncwarp() between them
    Text war, raw, waw, raced, lost, diverged, diverged_all, deadlock, contention;
    // out_of_bounds: "{0} accessed {1}, outside every buffer of the launch{2}"
    Text out_of_bounds;
    // A race of check "scope_race": "{0} and {1} accessed {2} from different blocks, but block scope
    // (.cta) ... use device scope{3}"
    Text scope_race;
    // stale_read: "{reader} saw {writer}'s flag but read old {what}: {why}", why from Finding::missing
    Text stale, stale_ordered, stale_writer, stale_reader, stale_both, stale_writer_scope,
        stale_reader_scope, stale_flag_scope;
    Text at; // " ({0})" (memory is named by analysis::memory_name)
    // The counts after a finding's sentence (finding_message in Chinese; English keeps the
    // analysis's own message): " ({0})" around "{0} times", ", {0} of them did harm", ...
    Text counts, times, harmful, lost_updates, runs;
};

struct SourceText {
    Text no_source, select_scenario, no_file, ptx, tip_ptx, other_scenario, empty, click_next, click_this;
    Text own_kernel; // "own kernel {0}"
};

// The lesson panel's frame around the lesson text (the text itself comes from the catalog).
struct LessonFrameText {
    // predict_hint: under the choices until all three are answered (what the variant does shows then)
    Text what_it_shows, this_variant, predict, predict_hint, your_prediction;
    Text results_q, right, wrong, finding_q, none, hang_q, completes, hangs;
    Text run, run_again, running, no_prediction, verdict;
    Text as_expected; // "{0}: the run did what the lesson says." ({0}: outcome_words.h's match word)
    Text surprise;    // "{0}: the run did not do what the lesson says."
    Text findings; // "{0} findings:"
    Text no_findings, not_traced, look_at, fix, details, the_question, the_lesson, pick;
    Text other_run, earlier_run, on_gpu, gpu_note;
    Text run_how; // "  ({0}, seed {1}, {2} reps)"
    Text rep_one; // "  ({0}, seed {1}, 1 rep)"
};

// The "?" of each panel: what it shows and how to use it.
struct AboutText {
    Text lesson, run, findings, source, browser;
};

// An explained output: the patterns of analysis::ProvenanceWords ({0}, {1}... as there), so that
// analysis::describe() writes the paragraph in the shown language.
struct ProvenanceText {
    Text none, line, ptx_line, unknown_line, stored, old_value, too_early, overwritten, no_barrier,
        other_blocks, more, none_stale, overwrote_one, overwrote_many;
};

// The outcomes view: a variant's outcome histogram over N runs, simulator beside GPU.
struct OutcomesText {
    Text tab;           // "Outcomes"
    Text runs;          // the input's label: "Runs"
    Text run;           // "Run {0} times"
    Text run_once;      // "Run once" (N = 1)
    Text run_all;       // "Run every execution" (schedule exhaustive)
    Text cancel;
    Text idle;          // before any run: what the view will show
    Text running;       // "counting the outcomes of {0}…"
    Text subject;       // "{0}: the final contents, one outcome per run"
    Text subject_per;   // "{0}: the final contents, one outcome per {1} elements"
    Text subject_first; // "{0}[0]: this lesson names no outcomes, so its first output's first element"
    Text col_outcome, col_meaning, col_model, col_sim, col_gpu;
    Text sim_side; // "simulator ({0})": the memory model the counts ran under
    Text counted;        // "{0} runs, {1} outcomes counted"
    Text every_execution; // "allowed by the model (every execution: {0})"
    Text bound;           // "the first {0} executions only: the bound stopped the exploration"
    Text gpu_none;        // "no GPU here ({0}): the simulator's column only"
    Text gpu_probing;     // "looking for a GPU…"
    Text gpu_not_run;     // "not run on the GPU"
    Text status_line;     // "{0}: {1}" (side: status message), where a side did not end ok
    Text tip_open;        // "click: open one run that produced it on the timeline (seed {0})"
    Text tip_open_exec;   // "click: open the execution that produced it on the timeline"
    Text tip_gpu;         // why a GPU count does not open a run
    Text tip_runs;
    Text tip_forbidden;   // "the memory model forbids it for this variant"
    Text opened;          // status line: "opened a run that gave {0}"
    Text done;            // status line: "{0}: outcomes counted over {1} runs"
    Text about;           // the "?" text
    Text failed;          // "the outcome runs failed: {0}"
};

// The heatmaps: contention by address x time, latency by block x thread and by SM x warp.
struct HeatmapText {
    Text tab; // "Heatmap"
    Text mode_contention, mode_block_thread, mode_sm_warp;
    Text value_ops, value_depth; // what a contention cell counts
    Text log_scale, reset_zoom;
    Text no_run, no_atomics, no_latency, no_sm;
    Text preparing; // "binning {0} events…"
    Text time_modelled; // the time axis is the cost model's issue cycles
    Text time_events;   // ... the events' own time (not timed)
    Text time_gpu;      // ... the GPU's %globaltimer
    Text source_buffer; // "latency: the kernel's own clock64() deltas in {0}"
    Text source_model;  // "latency: the cost model's ..."
    Text sm_measured, sm_trace;
    Text steps_not_cycles; // the simulator ran without its cost model: %clock64 counted steps
    Text unit_ops, unit_depth, unit_cycles;
    Text no_data;
    Text other_addresses; // "other addresses ({0})"
    Text tip_address, tip_time, tip_ops, tip_depth, tip_line;
    Text tip_ops_mean; // the folded row: "{0} atomic operations per address (the mean of {1})"
    Text tip_block_thread, tip_blocks_thread, tip_sm_warp, tip_latency, tip_no_data;
    Text axis_address, axis_time, axis_block, axis_thread, axis_sm, axis_warp;
    Text zoom_hint;
    Text shader_error; // "the heatmap's shader failed on this GL driver: {0}"
    Text scale_shared;  // "colour scale shared with {0}": the runs shown together (compare, ladder)
    Text scale_compare; // {0} of scale_shared: "the other run of the comparison"
    Text scale_ladder;  // {0} of scale_shared: "the ladder's {0} variants"
    Text no_gl;
    Text about;
};

// The optimisation ladder: every variant's time side by side, with its ratio to the first.
struct LadderText {
    Text tab; // "Ladder"
    Text run, cancel, running, idle;
    Text backend_sim;  // "simulator: modelled cycles of one run per variant (schedule rr)"
    Text backend_gpu;  // "{0}: median kernel time of {1} untraced launches per variant"
    Text not_modelled;
    Text baseline, faster, slower, same, not_timed;
    Text wrong; // "{0} of {1} outputs wrong"
    Text unit_cycles, unit_ms;
    Text failed, done;
    Text about;
};

// The residency view: which blocks ran on which SM, which waited for a slot, which never started.
struct ResidencyText {
    Text tab;          // "Residency"
    Text idle, none;   // before a run; a run without residency data (one line)
    Text refused;      // a launch refused before any block was resident ({0}: its blocks)
    Text summary;      // "{0} blocks on {1} SMs: ..." {0} blocks {1} SMs {2} ran {3} waited {4} stuck {5} never
    Text legend_ran, legend_waited, legend_stuck, legend_never;
    Text sm, sms;      // "SM {0}", "SMs {0}-{1}"
    Text axis_end;     // "tick {0}"
    Text faint;        // the occupancy strips' key
    Text strip;        // "blocks 0-{0} in index order"
    Text never_one, never_many; // {0} the ranges, {1} how many blocks
    Text waited_words; // {0} the ranges, {1} how many blocks
    Text more;         // "and {0} more ranges"
    Text hover_bar;    // {0} block {1} SM {2} admitted {3} retired
    Text hover_end, hover_waited, hover_stuck;
    Text hover_occupancy; // {0} SM(s) {1}-{2} ticks {3} resident {4} slots
    Text hover_strip;     // {0} block {1} its fate
    Text about;
};

// The first minute and "predict, then run": what the app says before anything has run, and the
// prediction a teacher may turn off.
struct ClassroomText {
    Text first_steps;    // before anything ran: "Pick a variant on the left, predict ..., then press Run"
    Text browser_start;  // the browser's header before anything ran: "{0} lessons, {1} variants: ..."
    Text predict_menu;   // the View menu's setting: ask for a prediction before each run
    Text variant_does;   // heading of the variant's own text, once revealed
};

struct UiText {
    MenuText menu;
    ShellText shell;
    DialogText dialog;
    RunPanelText run;
    BrowserText browser;
    FindingsText findings;
    TimelineText timeline;
    CollectiveText collective;
    PlaybackText playback;
    SharedMemoryText shared_memory;
    HelpText help;
    CalloutText callout;
    ProvenanceText provenance;
    SourceText source;
    LessonFrameText lesson;
    AboutText about;
    OutcomesText outcomes;
    HeatmapText heatmap;
    LadderText ladder;
    ResidencyText residency;
    ClassroomText classroom;
};

const UiText& ui_text(Language language);

// Every string of a table, for the glyph test (words_test.cpp).
std::vector<const char*> all_texts(Language language);

// [SECTION] Words built from data

// A schedule as the UI names it: "random" / "随机".
const char* schedule_words(sim::Schedule schedule, Language language);

// A run's label in the shown language: "stencil / missing_barrier (adversarial, seed 3)" /
// "stencil / missing_barrier（对抗，种子 3）"; a trace opened from a file keeps its file name.
std::string record_label(const RunRecord& record, Language language);

// A race's hazard in words: "RAW" stays in English (it is the term), "-" where there is none.
const char* hazard_words(analysis::Hazard hazard, Language language);

// An event kind: "load" stays trace::to_string's id in English; "读取" etc. in Chinese.
const char* event_kind_words(trace::EventKind kind, Language language);

// The output check's result line (runner::RunSummary::check_summary, English from the scenario
// library) in the shown language: "counter = 12, expected 4096" / "counter = 12，应为 4096", "331 of 16384
// outputs wrong; first: g_out[31] = 5, expected 7" / "16384 个输出中有 331 个错误；第一个：g_out[31] =
// 5，应为 7". Lines of another shape stay as they are.
std::string check_summary_words(const std::string& summary, Language language);

// How a thread ended: "at_barrier" (trace::to_string) / "停在屏障处".
const char* thread_end_words(trace::ThreadEnd end, Language language);

// A memory space: "shared" (trace::to_string) / "共享内存".
const char* space_words(trace::Space space, Language language);

// Why the GPU cannot be used, in the shown language. The GPU worker writes its reasons in English
// ("no NVIDIA driver found (libcuda.so.1: ...)"); Chinese names the known ones and leaves out the
// system's own English detail. Unknown reasons stay as they are.
std::string gpu_reason_words(const std::string& reason, Language language);

} // namespace synclab::ui
