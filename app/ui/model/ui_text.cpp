// The two tables of ui_text.h. Keep the members in the order of the header: the designated
// initializers must follow it, and a member left out does not compile (Text has no default).
#include "ui/model/ui_text.h"

#include <vector>

namespace synclab::ui {

namespace {

constexpr UiText kEnglish = {
    .menu =
        {
            .file = "File",
            .open_trace = "Open trace\u2026",
            .save_trace = "Save trace\u2026",
            .export_json = "Export Chrome JSON\u2026",
            .save_png = "Save PNG\u2026",
            .quit = "Quit",
            .run = "Run",
            .run_selected = "Run selected",
            .cancel = "Cancel",
            .view = "View",
            .presenter = "Presenter mode",
            .compare = "Compare",
            .ptx_beside = "PTX beside source",
            .fullscreen = "Fullscreen",
            .english = "English",
            .help_keys = "Help: keys",
            .key_space = "Space",
        },
    .shell =
        {
            .tab_lesson = "Lesson",
            .tab_source = "Source",
            .tab_source_ptx = "Source + PTX",
            .own_kernel = "own kernel",
            .schedule_seed = "{0}, seed {1}",
            .live_header = "live: {0} events, {1}, kernel still running",
            .compare_hint = "Compare: press Space (or Run \u25b8 {0}) to run the scenario's correct variant "
                            "beside the selected one.",
            .running_both = "Running both variants\u2026",
            .running = "Running\u2026",
            .no_run_timeline = "No run of this variant yet. Predict what will happen, then press Space (or "
                               "Run) to see every thread's accesses and barriers here.",
            .cancel = "Cancel",
            .status_running = "running {0}\u2026",
            .keys_presenter = "H: keys \u00b7 Esc: leave presenter mode",
            .keys_normal = "F1: keys",
            .no_findings_yet = "this run has no findings",
            .no_run_yet = "no run yet: press Space to run",
            .cancelling = "cancelling\u2026",
            .saved = "saved {0}",
            .saved_trace = "saved the trace to {0}",
            .wrote_json = "wrote {0} (open it in ui.perfetto.dev)",
            .opening = "opening {0}\u2026",
            .running_pair = "running {0} and {1}\u2026",
            .failed = "failed: {0}",
            .gpu_unavailable = "GPU unavailable: {0} (use the simulator)",
            .fallback = "GPU unavailable: {0}; running on the simulator",
            .nothing_to_save = "nothing to save yet: run a variant first",
            .nothing_to_export = "nothing to export yet: run a variant first",
            .could_not_save = "could not save the trace: {0}",
            .could_not_export = "could not export: {0}",
            .checking_gpu = "checking for a GPU\u2026",
        },
    .dialog =
        {
            .file_title = "File",
            .open_title = "Open a trace (.slt)",
            .save_title = "Save the trace as .slt",
            .export_title = "Export Chrome/Perfetto JSON",
            .png_title = "Save a PNG of the window",
            .relative_paths = "Relative paths start in {0}",
            .open = "Open",
            .save = "Save",
            .cancel = "Cancel",
            .error_title = "Something went wrong",
            .keeps_running = "The app keeps running; nothing else was changed.",
            .ok = "OK",
            .lessons_broken = "The lessons in {0} could not be loaded (the built-in lessons are all here). "
                              "In file and line:\n{1}",
        },
    .run =
        {
            .backend = "Backend",
            .simulator = "Simulator",
            .gpu = "GPU",
            .schedule = "Schedule",
            .seed = "Seed",
            .reps = "Repetitions",
            .run = "Run",
            .run_both = "Run correct + broken side by side",
            .cancel = "Cancel",
            .side_by_side = "Side by side",
            .idle = "idle",
            .last_run = "last run: {0}  ({1} ms)",
            .no_variant = "no variant selected",
            .gpu_probing = "GPU: {0}",
            .gpu_unavailable = "GPU unavailable: {0}",
            .launches = "Launches",
            .launches_both = "untraced + traced",
            .launches_untraced = "untraced only",
            .live = "Live",
            .timeout = "Timeout (s)",
            .tip_schedule_gpu = "The GPU schedules its warps itself; the schedule is the simulator's.",
            .tip_seed = "The same seed replays the same run. Repetition r uses seed + r.",
            .tip_reps = "How many runs (1 to 1000), each with the next seed; results are added up.",
            .tip_run = "Run the selected variant with these settings.",
            .tip_select = "Select a variant first.",
            .tip_both = "Runs the scenario's correct variant and the selected one with the same settings and "
                        "shows both timelines with one shared zoom.",
            .tip_both_select = "Select a broken variant (not the first, correct one) to compare it.",
            .tip_side = "Show the correct and the broken run side by side.",
            .seed_word = "seed {0}",
            .seeds_word = "seeds {0}-{1}",
            .tip_backend = "Simulator: the SyncLab SIMT simulator, with a chosen schedule. GPU: {0}",
            .tip_gpu_real = "the real GPU (traced and untraced launches).",
            .tip_launches = "Untraced launches (one per repetition) give the hardware's own outcome and "
                            "time. The traced launch records every access and barrier for the timeline and "
                            "the findings, but runs slower, which can change what the kernel does.",
            .tip_live = "Show the traced launch's events on the timeline while the kernel runs (the trace "
                        "goes to host memory the GPU writes directly).",
            .tip_live_off = "Live shows the traced launch: choose untraced + traced.",
            .tip_timeout = "A kernel still running after this many seconds is stopped; the run then shows "
                           "where its threads were waiting (a hang ends as a diagnosis, not a frozen GPU).",
            .memory = "Memory",
            .memory_lesson = "{0} (the lesson's)",
            .memory_sc = "sc",
            .memory_relaxed = "relaxed",
            .tip_memory_sc = "sequentially consistent: every access is visible to every thread at once",
            .tip_memory_relaxed = "the PTX memory model's weak behaviours: store buffers, stale L1 lines, "
                                  "until fences and release/acquire order them",
            .tip_memory = "The simulator's memory model. sc: every load sees the latest store (sequentially "
                          "consistent). relaxed: stores wait in store buffers and an SM's L1 may hold stale "
                          "lines, as PTX allows, until fences, barriers, release/acquire and atomics order "
                          "them. The default is the lesson's.",
            .tip_memory_gpu = "The GPU has its own memory system: the model is the simulator's.",
            .warp_model = "Warp",
            .warp_model_its = "its",
            .warp_model_lockstep = "lockstep",
            .tip_warp_model_its = "independent thread scheduling (Volta and later): lanes of one warp may run "
                                  "apart at a memory access",
            .tip_warp_model_lockstep = "pre-Volta: a warp's lanes never split; each instruction completes for "
                                       "all of them before the next",
            .tip_warp_model = "How the simulator schedules the lanes of a warp. its: the random and adversarial "
                              "schedules may run some lanes ahead of the others at a shared- or global-memory "
                              "access, as GPUs since Volta do. lockstep: they never split, as before Volta: the "
                              "reason old warp-synchronous code without __syncwarp() seemed to work.",
            .tip_warp_model_gpu = "The GPU schedules its warps' lanes itself: the warp model is the simulator's.",
            .tip_reps_exhaustive = "The exhaustive schedule runs every execution the memory model allows once: "
                                   "repetitions mean nothing there.",
            .step_budget = "Step budget",
            .tip_step_budget = "The simulator stops a run after this many thread-instructions, so that a loop "
                               "that never ends comes back as \"stopped\" with the line it spins at. This "
                               "lesson's own budget: {0}.",
            .tip_step_budget_gpu = "The GPU has no step budget: its Timeout stops a kernel that runs too long.",
            .raise_budget = "Run again with a step budget of {0}",
        },
    .browser =
        {
            .ran_as_expected = "{0} of {1} variants run \u00b7 {2} as expected",
            .scenario_tip = "scenario \"{0}\" ({1})",
            .folder_heading = "Lessons from {0}",
        },
    .findings =
        {
            .no_run = "No run yet: run a variant to see what the analysis finds.",
            .live = "Live: the kernel is still running. The timeline shows its events as they arrive; the "
                    "analysis runs on the whole trace when the kernel ends.",
            .not_traced =
                "This run was not traced (untraced GPU launches only): there is no trace to analyse, "
                "so there are no findings either way.",
            .count_one = "{0} finding",
            .count_many = "{0} findings",
            .in_run = "in {0}",
            .until_then = " - the trace shows what ran until then.",
            .no_findings =
                "No findings {0} the analysis saw no race, barrier divergence, lost update or deadlock.",
            .no_findings_partial =
                "No findings {0} the analysis saw no race, barrier divergence, lost update or "
                "deadlock in the blocks it analysed.",
            .no_trace = "No trace was recorded (nothing ran that could be traced): nothing was analysed, so "
                        "there are no findings either way.",
            .kind = "kind",
            .hazard = "hazard",
            .space = "space",
            .lines = "lines",
            .count = "count",
            .example = "example",
            .message = "message",
            .shared = "shared",
            .global = "global",
            .ptx_line = "PTX {0}",
            .hazard_none = "",
        },
    .timeline =
        {
            .ruler_ticks = "time (ticks)",
            .ruler_ns = "time (ns)",
            .block = "block {0}",
            .warp = "warp {0}",
            .thread_lane = "thread {0} \u00b7 lane {1}",
            .line = "line {0}",
            .line_pair = "line {0} | {1}",
            .timeout = "timeout",
            .deadlock = "deadlock",
            .legend_load = "load",
            .legend_store = "store",
            .legend_race = "race",
            .legend_wait = "barrier wait",
            .legend_stuck = "waiting at the end",
            .legend_divergence = "divergence",
            .legend_atomic = "atomic",
            .legend_fence = "fence",
            .legend_exit = "exit",
            .legend_folded = "folded (count)",
            .short_load = "ld",
            .short_store = "st",
            .short_race = "race",
            .short_wait = "wait",
            .short_stuck = "stuck",
            .short_divergence = "diverge",
            .short_atomic = "atom",
            .short_fence = "fence",
            .short_exit = "exit",
            .short_folded = "folded",
            .tip_about =
                "Each row is a block, a warp or one lane (thread); time runs left to right. Marks are the "
                "thread's loads, stores, atomics, fences and exits; grey spans are waits at a barrier; the "
                "coloured bands behind a block are its barrier phases. Marks closer than 3 pixels fold into "
                "one grey bar with their count; one warp instruction (all lanes at one tick) keeps its "
                "colour. Race arrows go from the first access to the second.",
            .tip_keys = "Wheel: zoom at the mouse    Shift+wheel: scroll rows\nDrag: pan    F: fit the whole "
                        "run    +/-, arrows: zoom, pan\nClick a label: open/close    Double-click a fold: "
                        "zoom into it\nClick a race arrow: select its finding",
            .tip_time = "{0} {1}",
            .tip_access = "{0}  {1}, {2} bytes{3}",
            .tip_volatile = ", volatile",
            .tip_cuda_ptx = "CUDA line {0}   PTX line {1}",
            .tip_ptx = "PTX line {0}",
            .tip_address = "{0}   value {1}",
            .tip_barrier = "barrier {0}, phase {1}",
            .tip_at = "time",
            .tip_from = "from",
            .tip_to = "to  ",
            .tip_first_access = "first access:",
            .tip_second_access = "second access:",
            .tip_click_select = "click to select this finding",
            .tip_events = "{0} {1} events",
            .tip_folded = "{0} events folded (double-click to zoom in)",
            .tip_first_of_them = "first of them:",
            .tip_waiting = "waiting at barrier {0} (phase {1}){2}",
            .tip_several = "  (several waits, zoom in)",
            .tip_threads_waited = "{0} threads waited",
            .tip_site = "{0}  (CUDA line {1}, PTX line {2})",
            .tip_never_released = "never released: the run ended with it waiting",
            .tip_ended = "ended: {0}",
            .tip_click_warps = "click to show or hide its warps",
            .tip_click_lanes = "click to show or hide its lanes",
            .tip_waiting_unrecorded = "waiting at a barrier its warp never reached whole\n(lanes of the warp "
                                      "wait at other instructions), so no arrival\nwas recorded: from its last "
                                      "event on",
            .story_thread = "thread {0}",
            .story_lost = "1 {0} loads \u00b7 2 {1} loads \u00b7 3 {2} stores \u00b7 4 {3} stores over it: "
                          "one update is lost",
            .story_wrote = "3 {0} wrote {1}",
            .story_stale = "1 racing store \u00b7 2 {0}'s stale load \u00b7 3 it wrote {1} from it",
            .story_the_output = "the output",
            .legend_collective = "shuffle / vote",
            .legend_warp_sync = "warp barrier",
            .short_collective = "shfl/vote",
            .short_warp_sync = "syncwarp",
            .tip_collectives = "{0} warp collectives (zoom in)",
            .fold_warps = "warps {0}\u2013{1}",
            .fold_blocks = "blocks {0}\u2013{1}",
            .tip_fold = "Folded: these rows lie between the finding's two threads. Click to show them.",
        },
    .collective =
        {
            .warp_sync = "__syncwarp: a warp barrier",
            .shfl = "shuffle (shfl.sync): lanes read each other's registers",
            .vote = "vote (vote.sync): one answer for the members",
            .ballot = "ballot (vote.sync.ballot): one bit per member",
            .match = "match (match.sync): lanes holding the same value",
            .redux = "warp reduction (redux.sync)",
            .elect = "elect (elect.sync): one leader lane",
            .members = "members: mask {0} ({1})",
            .not_recorded = "not in the trace: {0}",
            .lanes = "lanes {0}",
            .no_lanes = "no lanes",
            .sync_meaning = "the members wait for each other here; their memory accesses before it are "
                            "visible to each other after it",
            .read_from = "read (lane\u2190source): {0}",
            .gave = "gave a value: {0}",
            .kept = "kept its own value: {0}",
            .ballot_result = "ballot {0}: {1}",
            .vote_true = "true in {0}",
            .vote_false = "false in {0}",
            .no_memory_order = "exchanges registers only: it does not order memory",
            .results = "results: {0}",
            .lane_value = "lane {0}: {1}",
            .lane_event = "{0}  mask {1}  result {2}{3}",
            .from_lane = "  from lane {0}",
        },
    .playback =
        {
            .to_start = "back to the start (Home)",
            .back_instruction = "back one warp instruction (<)",
            .back_event = "back one event (,)",
            .forward_event = "forward one event (.)",
            .forward_instruction = "forward one warp instruction (>)",
            .to_end = "to the end (End)",
            .stop = "stop",
            .hide = "hide the playhead",
            .idle = "step through block {0}: . and , (events), > and < (warp instructions)",
            .before = "block {0}: before the first of its {1} events",
            .at = "event {0} of {1} \u00b7 block {2} \u00b7 warp {3}{4} \u00b7 {5}{6}",
            .lanes = " ({0} lanes)",
            .line = " \u00b7 line {0}",
            .idle_short = "block {0}: . , > <",
        },
    .shared_memory =
        {
            .title = "shared memory of block {0} at event {1}",
            .none = "no shared-memory access to show (none, or more than {0} words)",
            .stale_read = "this instruction reads {0} stale slot(s): values not written yet",
            .counts = "{0} words \u00b7 {1} stale",
            .tip_stale = "stale: the block stores to it again before its next barrier, so a load of it now\n"
                         "reads a value the program has not written yet",
            .written = "written",
            .stale = "stale",
            .read_now = "read now",
            .stale_read_legend = "stale read",
            .tip_offset = "offset 0x{0} (word {1})",
            .tip_value = "value {0}, stored by {1}",
            .tip_not_written = "not written yet",
            .tip_next = "next store: {0}",
            .tip_next_stale = "next store: {0}, before the next barrier: a load now reads a stale value",
            .who = "thread {0} at line {1}",
        },
    .help =
        {
            .title = "Keys",
            .closes = "Esc, F1, H or a click closes this help.",
            .space = "run the selected variant (both, in compare mode)",
            .space_keys = "Space",
            .scenario = "previous / next scenario (presenter mode)",
            .variant = "previous / next variant (presenter mode)",
            .tab = "lesson \u2192 source \u2192 timeline (presenter mode)",
            .finding = "next / previous finding: its lines, its events, what happened",
            .pgdn = "the same in presenter mode (a clicker's keys); before a run: scroll",
            .compare = "compare: the correct variant beside the selected one",
            .presenter = "presenter mode: large text, high contrast, keyboard only",
            .fullscreen = "fullscreen on / off (over a timeline: fit the whole run)",
            .help = "this help",
            .esc = "close this help; leave presenter mode",
            .step_event = "step the playhead one event forward / back",
            .step_instruction = "step it one warp instruction forward / back",
            .step_ends = "the playhead to the start / the end of the block",
            .f1_or_h = "F1 or H",
        },
    .callout =
        {
            .first_of = "] or PgDn: the first of {0}",
            .a_thread = "a thread",
            .line = "line {0}",
            .lines = "lines {0}",
            .and_ = " and ",
            .comma = ", ",
            .ptx_line = "PTX line {0}",
            .ptx_lines = "PTX lines {0}",
            .semicolon = "; ",
            .no_barrier = ": no barrier orders the two",
            .other_blocks = ": different blocks are not ordered",
            .within_warp = ": within a warp, and no __syncwarp() orders the two lanes",
            .war = "{0} read {2} before {1} wrote it{3}",
            .raw = "{1} read {2} just after {0} wrote it{3}",
            .waw = "{0} and {1} both wrote {2}{3}",
            .raced = "{0} and {1} raced on {2}",
            .lost = "{0} and {1} both updated {2} without an atomic, so one update was lost",
            .diverged = "{1} and {2} did not meet at the same barrier",
            .diverged_all = "block {0}: its threads did not meet at the same barrier",
            .deadlock = "the run never finished: threads are still waiting at a barrier",
            .contention = "{0} atomics queued on {1}{2}: they complete one at a time, so this one address "
                          "sets the kernel's pace",
            .out_of_bounds = "{0} accessed {1}, outside every buffer of the launch{2}",
            .scope_race = "{0} and {1} accessed {2} from different blocks, but block scope (.cta) makes an "
                          "atomic atomic only inside one block: an update can be lost; use device scope{3}",
            .stale = "{0} saw the flag {1} set, then read {2} from before it: {3}",
            .stale_ordered = "{0} read an old value of {2} although {1}'s store is ordered before it",
            .stale_writer = "the writer has no fence between the data and the flag",
            .stale_reader = "the reader has no fence between the flag and the data",
            .stale_both = "neither side has a fence",
            .stale_writer_scope = "the writer's fence does not reach the reader's block",
            .stale_reader_scope = "the reader's fence does not reach the writer's block",
            .stale_flag_scope = "the flag's accesses have scopes that leave the other block out",
            .at = " ({0})",
            .counts = " ({0})",
            .times = "{0} times",
            .harmful = ", {0} of them did harm",
            .lost_updates = ", {0} updates lost",
            .runs = ", in {0} runs",
        },
    .provenance =
        {
            .none = "no store wrote this address",
            .line = "line {0}",
            .ptx_line = "PTX line {0}",
            .unknown_line = "an unknown line",
            .stored = "{0} stored {1} ({2})",
            .old_value =
                "; its load at {0} read {1}, the old value: {2} stored {3} there ({4}) after it, {5}",
            .too_early =
                "; its load at {0} read {1} too early: {2} had stored it ({3}, later in the program), {4}",
            .overwritten = "; its load at {0} read {1}, then {2} stored {3} there ({4}) before this store "
                           "overwrote it: that update was lost",
            .no_barrier = "with no barrier between them",
            .other_blocks = "threads of different blocks are not ordered",
            .more = "; and {0} more stale loads",
            .none_stale = "; none of its loads read a stale value",
            .overwrote_one = "; it overwrote {0} racing store of other threads (e.g. {1}, {2})",
            .overwrote_many = "; it overwrote {0} racing stores of other threads (e.g. {1}, {2})",
        },
    .source =
        {
            .no_source = "This trace carries no CUDA source (it was recorded without one).",
            .select_scenario = "Select a scenario to see its kernel.",
            .no_file = "(no file)",
            .ptx = "PTX",
            .tip_ptx = "Show the PTX beside the CUDA source.",
            .other_scenario = "The last run was of another scenario: run this one to see its findings here.",
            .empty = "(empty)",
            .click_next = "click: select the next of these findings",
            .click_this = "click: select this finding",
            .own_kernel = "own kernel {0}",
        },
    .lesson =
        {
            .what_it_shows = "What it shows",
            .this_variant = "This variant",
            .predict = "Predict",
            .predict_hint = "Answer all three before you run: then you see what this variant does.",
            .your_prediction = "Your prediction",
            .results_q = "Results:",
            .right = "all right",
            .wrong = "some wrong",
            .finding_q = "Finding:",
            .none = "none",
            .hang_q = "The kernel:",
            .completes = "completes",
            .hangs = "hangs",
            .run = "Run",
            .run_again = "Run again",
            .running = "Running...",
            .no_prediction = "No prediction this time: pick one before the next run.",
            .verdict = "Verdict",
            .as_expected = "{0}: the run did what the lesson says.",
            .surprise = "{0}: the run did not do what the lesson says.",
            .findings = "{0} finding(s):",
            .no_findings = "no findings",
            .not_traced = "not traced: no findings either way",
            .look_at = "What to look at",
            .fix = "The fix",
            .details = "Details",
            .the_question = "The question",
            .the_lesson = "The lesson",
            .pick = "Pick a scenario and a variant in the scenario browser.",
            .other_run = "The views show the last run, of another variant; run this one to see its results.",
            .earlier_run = "The views show an earlier run of this variant: predict, then run it again.",
            .on_gpu = "On the GPU",
            .gpu_note =
                "The lesson's verdict is about the simulator. On the GPU, compare the untraced outcome "
                "(the hardware's own) with the traced one: tracing slows the kernel and can hide a race.",
            .run_how = "  ({0}, seed {1}, {2} reps)",
            .rep_one = "  ({0}, seed {1}, 1 rep)",
        },
    .about =
        {
            .lesson = "The lesson of the selected variant, in two steps.\n\n"
                      "Predict: read what the kernel does, answer the question and pick your prediction "
                      "(will results be "
                      "wrong, which finding will fire, will it hang) before running it. The results stay "
                      "hidden until "
                      "this variant has been run; selecting another variant starts a new prediction.\n\n"
                      "Run: the outcome appears here (\"completed\" only means the kernel ended; \"correct\" "
                      "means no "
                      "wrong output and no finding), which parts of your prediction came true, and whether "
                      "the run showed "
                      "what the lesson expects (the same check the verdict tests make). Then: what to look "
                      "at in the "
                      "source, timeline and findings, and how to fix the kernel. Details fold out below.\n\n"
                      "The language switch changes the lesson text; Chinese needs a CJK font.",
            .run = "How the next run is made.\n\n"
                   "Schedule: the order in which the simulator runs warps. Round-robin is deterministic and "
                   "hides most "
                   "races; random and adversarial schedules, seeded, show them. The same seed replays the "
                   "same run.\n\n"
                   "Repetitions run the variant that many times with seeds seed, seed+1, ...; wrong outputs "
                   "and findings "
                   "are added up, and the kept trace is the first repetition that went wrong.\n\n"
                   "Run correct + broken side by side runs the scenario's correct variant and the selected "
                   "one and shows "
                   "both timelines with one shared zoom.\n\n"
                   "GPU: the same kernel on the real GPU. Every run makes untraced launches (the hardware's "
                   "own outcome, "
                   "one per repetition) and, unless 'untraced only', one traced launch whose events fill the "
                   "timeline. "
                   "Tracing slows the kernel down and can hide a race, so both outcomes are shown side by "
                   "side. Live: "
                   "the traced launch's events appear on the timeline while it runs. Timeout: a kernel still "
                   "running "
                   "then is stopped; the run shows where its threads were waiting.",
            .findings =
                "What the analysis found in the current run's trace, most serious first: deadlock, barrier "
                "divergence, race, lost update. The analysis reads the trace only, so a saved trace gives "
                "the same "
                "findings.\n\n"
                "hazard: for races, which access came second (RAW: a read after a write, WAR, WAW).\n"
                "space: the memory involved.\n"
                "lines: the CUDA lines of the accesses, first access first (\"PTX n\" where no CUDA line is "
                "known).\n"
                "count: how often it happened (racing pairs, divergent phases, threads), added over "
                "repetitions.\n"
                "Only blocks whose trace is whole are analysed: where some lost events (a full trace buffer, "
                "a "
                "budget) or were not recorded, a line above the table says which.\n"
                "example: two of the threads involved, by trace index, block and thread index in the "
                "block.\n\n"
                "Click a row to zoom the timeline to it and highlight its lines in the source.",
            .source = "The kernel's CUDA source, as the run recorded it (or the selected scenario's file "
                      "before a run).\n\n"
                      "A coloured mark in the gutter: a finding of the run names this line (pink: race, "
                      "yellow: barrier "
                      "divergence, orange: lost update, red: deadlock). Hover it to read the finding; click "
                      "it to select "
                      "it (clicking again cycles through the findings on that line).\n\n"
                      "A line with a full coloured background belongs to the selected finding (pick one in "
                      "the findings "
                      "panel). The faint white line is the one the event under the mouse in the timeline "
                      "came from.\n\n"
                      "A cyan bar beside the line number: a line of the output explained in the output grid "
                      "(the store that left the value, the loads that read a stale value and the stores they "
                      "raced with). A lime frame: a warp is at this line at the playhead.\n\n"
                      "PTX shows the PTX the simulator ran beside the source: the instruction of the hovered "
                      "event and the "
                      "instructions of the selected finding are highlighted there too.",
            .browser = "Scenarios, grouped by topic. Each scenario is one kernel file with a correct variant "
                       "and broken ones. "
                       "Click a variant to open its lesson, then predict what will happen and run it.\n\n"
                       "Badges show what the variant's last run gave:\n"
                       "  hollow circle: not run yet\n"
                       "  green circle: the run showed what the lesson expects\n"
                       "  red square: it did not, or the run failed (hover for details)",
        },
    .outcomes =
        {
            .tab = "Outcomes",
            .runs = "Runs",
            .run = "Run {0} times",
            .run_once = "Run once",
            .run_all = "Run every execution",
            .cancel = "Cancel",
            .idle = "Run the selected variant many times and count what it leaves behind: each outcome, "
                    "how often it came, and whether the memory model allows it.",
            .running = "counting the outcomes of {0}\u2026",
            .subject = "{0}: its final contents, one outcome per run",
            .subject_per = "{0}: its final contents, one outcome per {1} elements",
            .subject_first = "{0}[0]: this lesson names no outcomes, so its first output's first element",
            .col_outcome = "outcome",
            .col_meaning = "meaning",
            .col_model = "model",
            .col_sim = "simulator",
            .col_gpu = "GPU",
            .sim_side = "simulator ({0})",
            .counted = "{0} runs, {1} outcomes counted",
            .every_execution = "allowed by the model (every execution: {0})",
            .bound = "the first {0} executions only: the bound stopped the exploration",
            .gpu_none = "No GPU here ({0}): the simulator's column only.",
            .gpu_probing = "looking for a GPU\u2026",
            .gpu_not_run = "not run on the GPU",
            .status_line = "{0}: {1}",
            .tip_open = "click: open one run that produced it on the timeline (seed {0})",
            .tip_open_exec = "click: open the execution that produced it on the timeline",
            .tip_gpu = "counted from the GPU's untraced launches: the hardware does not replay a launch, "
                       "so click the simulator's count to see a run that gave it",
            .tip_runs = "How many runs to count, with the seeds seed, seed+1, ... (the run panel's seed, "
                        "schedule and memory model)",
            .tip_forbidden = "the memory model forbids this outcome for this variant",
            .opened = "opened a run that gave {0}",
            .done = "{0}: outcomes counted over {1} runs",
            .about = "The outcome histogram of the selected variant: run it N times (each with its own seed) "
                     "and count the final contents of the lesson's outcome buffer. Simulator and GPU side by "
                     "side, where there is a GPU.\n\nEach outcome says whether the memory model allows it for "
                     "this variant; a forbidden outcome that appeared is red. With the exhaustive schedule "
                     "(run panel) the simulator runs every execution the model allows, so its column is the "
                     "model's whole outcome set, not a sample.\n\nClick a simulator count to open one run "
                     "that produced it on the timeline.",
            .failed = "the outcome runs failed: {0}",
        },
    .heatmap =
        {
            .tab = "Heatmap",
            .mode_contention = "Contention: address \u00d7 time",
            .mode_block_thread = "Latency: block \u00d7 thread",
            .mode_sm_warp = "Latency: SM \u00d7 warp",
            .value_ops = "operations",
            .value_depth = "queue depth",
            .log_scale = "log scale",
            .reset_zoom = "Reset zoom",
            .no_run = "Run a variant to see where its atomic operations pile up.",
            .no_atomics = "This run has no atomic operations: nothing contends for an address.",
            .no_latency = "No per-thread latencies: this lesson does not time its atomics (a [latency] table in "
                          "its lesson file) and the run was not timed by the cost model.",
            .no_sm = "The latencies name no SM: the lesson records no %smid and the trace has no SM table.",
            .preparing = "binning {0} events\u2026",
            .time_modelled = "time: the cycle each atomic completed in the cost model (issue + queueing + service)",
            .time_events = "time: the simulator's step counter (this run was not timed by the cost model)",
            .time_gpu = "time: the GPU's %globaltimer (ns) of each traced atomic",
            .source_buffer = "latency: each thread's own clock64() before and after its atomic, from {0}",
            .source_model = "latency: the cost model's modelled cycles per atomic (queueing + service), mean "
                            "per thread",
            .sm_measured = "SM: each thread's %smid, as the kernel read it",
            .sm_trace = "SM: the SM the run placed the block on",
            .steps_not_cycles = "(this simulator has no cost model: clock64() counted its steps, not cycles)",
            .unit_ops = "atomic operations per cell",
            .unit_depth = "deepest queue in the cell (accesses ahead)",
            .unit_cycles = "cycles",
            .no_data = "no data",
            .other_addresses = "other addresses ({0})",
            .tip_address = "address: {0}",
            .tip_time = "time {0} \u2013 {1}",
            .tip_ops = "{0} atomic operations",
            .tip_depth = "deepest queue: {0} accesses ahead",
            .tip_line = "issued mostly by line {0}",
            .tip_ops_mean = "{0} atomic operations per address (the mean of {1})",
            .tip_block_thread = "block {0}, thread {1}",
            .tip_blocks_thread = "blocks {0}\u2013{1} (mean), thread {2}",
            .tip_sm_warp = "SM {0}, its warp #{1}: block {2}, warp {3}",
            .tip_latency = "latency: {0} cycles",
            .tip_no_data = "no data",
            .axis_address = "address",
            .axis_time = "time \u2192",
            .axis_block = "block",
            .axis_thread = "thread in block \u2192",
            .axis_sm = "SM",
            .axis_warp = "warps the SM ran, in launch order \u2192",
            .zoom_hint = "wheel: zoom \u00b7 drag: pan \u00b7 double-click: reset",
            .shader_error = "The heatmap could not be drawn on this GL driver:\n{0}",
            .scale_shared = "colour scale shared with {0}: equal colours, equal heat",
            .scale_compare = "the other run of the comparison",
            .scale_ladder = "the ladder's {0} variants",
            .no_gl = "The heatmap is drawn by a shader and needs the app's OpenGL window.",
            .about = "Where the atomics pile up. Contention: one row per hot address (the rest folded into "
                     "one row), time to the right; a bright cell is many operations (or a deep queue) on one "
                     "address at one time: those operations wait for each other. Latency: how long each "
                     "thread's atomic took, per block and thread, or per SM and warp; a lesson that times its "
                     "own atomics with clock64() shows the hardware's cycles on the GPU and the cost model's "
                     "in the simulator.\n\nThe colours run from dark blue (low) to yellow (high); grey cells "
                     "have no data. The log scale spreads values that span 100 to 100,000 cycles. Wheel to "
                     "zoom, drag to pan, double-click to see it all.",
        },
    .ladder =
        {
            .tab = "Ladder",
            .run = "Run the ladder",
            .cancel = "Cancel",
            .running = "running every variant of {0}\u2026",
            .idle = "Run every variant of this lesson and compare their times. The first variant is the naive "
                    "one; each bar says how much faster or slower the others are.",
            .backend_sim = "simulator: the cost model's cycles, one run per variant (schedule rr)",
            .backend_gpu = "{0}: median kernel time of {1} untraced launches per variant",
            .not_modelled = "Not modelled: this simulator has no cost model (every variant took 0 modelled "
                            "cycles), so there is nothing to rank. Run the ladder on the GPU where there is one.",
            .baseline = "baseline",
            .faster = "{0}\u00d7 faster",
            .slower = "{0}\u00d7 slower",
            .same = "about the same",
            .not_timed = "not timed: {0}",
            .wrong = "{0} of {1} wrong",
            .unit_cycles = "cycles",
            .unit_ms = "ms",
            .failed = "the ladder failed: {0}",
            .done = "{0}: the ladder of {1} variants",
            .about = "The optimisation ladder: every variant of the lesson run on one backend, its time as a "
                     "bar and its ratio to the first (naive) variant. On the GPU the time is the median of N "
                     "untraced launches (CUDA events); in the simulator it is the cost model's modelled "
                     "cycles, which rank the variants as the hardware does without claiming its speed.",
        },
    .residency =
        {
            .tab = "Residency",
            .idle = "Run the variant to see which blocks were resident on which SM.",
            .none = "No residency data in this run: only simulator runs record which block was on which SM "
                    "(GPU runs and older .slt files do not).",
            .refused = "No block ever became resident: the launch of {0} blocks was refused before it started "
                       "(the status line says why).",
            .summary = "{0} blocks on {1} SMs: {2} ran and retired, {3} waited for a free slot first, {4} still "
                       "resident when the run ended, {5} never started.",
            .legend_ran = "resident from the start, retired",
            .legend_waited = "waited for a free slot, then ran",
            .legend_stuck = "still resident at the end (never retired)",
            .legend_never = "never resident",
            .sm = "SM {0}",
            .sms = "SMs {0}\u2013{1}",
            .axis_end = "tick {0}",
            .faint = "fainter: fewer slots taken (hover for counts)",
            .strip = "every block, 0\u2013{0}, in index order:",
            .never_one = "block {0} never started: no slot freed",
            .never_many = "blocks {0} never started: no slot freed ({1} blocks)",
            .waited_words = "blocks {0} waited for a free slot ({1} blocks)",
            .more = "and {0} more ranges",
            .hover_bar = "block {0} on SM {1}: resident from tick {2} to {3}",
            .hover_end = "the end of the run",
            .hover_waited = "it waited for another block to free a slot",
            .hover_stuck = "it never retired: its threads were still running when the run ended",
            .hover_occupancy = "{0}, ticks {1}\u2013{2}: {3} blocks resident in this span ({4} slots at once)",
            .hover_strip = "block {0}: {1}",
            .about = "Residency: an SM holds only so many blocks at once (threads, blocks, shared memory and "
                     "registers per SM limit it); the other blocks of a launch wait until a resident block "
                     "retires and frees its slot. Each row is an SM, each bar a block from the tick it became "
                     "resident to the tick it retired. A grid barrier needs every block resident at once: when "
                     "the resident blocks wait at it for blocks that cannot start, no slot ever frees and the "
                     "rest never start. Many blocks: a row shows how many of its slots are taken over time.",
        },
    .classroom =
        {
            .first_steps = "Start here: pick a variant on the left, predict below what it will do, then press "
                           "Run (or Space).",
            .browser_start = "{0} lessons, {1} variants: pick one to begin",
            .predict_menu = "Ask for a prediction before each run",
            .variant_does = "What this variant does",
        },
};

constexpr UiText kChinese = {
    .menu =
        {
            .file = "文件",
            .open_trace = "打开跟踪\u2026",
            .save_trace = "保存跟踪\u2026",
            .export_json = "导出 Chrome JSON\u2026",
            .save_png = "保存 PNG\u2026",
            .quit = "退出",
            .run = "运行",
            .run_selected = "运行所选版本",
            .cancel = "取消",
            .view = "视图",
            .presenter = "演示模式",
            .compare = "对比",
            .ptx_beside = "在源代码旁显示 PTX",
            .fullscreen = "全屏",
            .english = "English",
            .help_keys = "帮助：快捷键",
            .key_space = "空格",
        },
    .shell =
        {
            .tab_lesson = "课程",
            .tab_source = "源代码",
            .tab_source_ptx = "源代码 + PTX",
            .own_kernel = "自带内核",
            .schedule_seed = "{0}，种子 {1}",
            .live_header = "实时：{0} 个事件，{1}，内核仍在运行",
            .compare_hint = "对比：按空格键（或 运行 \u25b8 {0}），把这个场景的正确版本和所选版本并排运行。",
            .running_both = "正在运行两个版本\u2026",
            .running = "正在运行\u2026",
            .no_run_timeline = "这个版本还没有运行过。先预测会发生什么，再按空格键（或点击运行），"
                               "这里会显示每个线程的访问和屏障。",
            .cancel = "取消",
            .status_running = "正在运行 {0}\u2026",
            .keys_presenter = "H：快捷键 \u00b7 Esc：退出演示模式",
            .keys_normal = "F1：快捷键",
            .no_findings_yet = "这次运行没有发现",
            .no_run_yet = "还没有运行：按空格键运行",
            .cancelling = "正在取消\u2026",
            .saved = "已保存 {0}",
            .saved_trace = "跟踪已保存到 {0}",
            .wrote_json = "已写入 {0}（可在 ui.perfetto.dev 中打开）",
            .opening = "正在打开 {0}\u2026",
            .running_pair = "正在运行 {0} 和 {1}\u2026",
            .failed = "失败：{0}",
            .gpu_unavailable = "GPU 不可用：{0}（请使用模拟器）",
            .fallback = "GPU 不可用：{0}；改在模拟器上运行",
            .nothing_to_save = "还没有可保存的内容：请先运行一个版本",
            .nothing_to_export = "还没有可导出的内容：请先运行一个版本",
            .could_not_save = "无法保存跟踪：{0}",
            .could_not_export = "无法导出：{0}",
            .checking_gpu = "正在检查 GPU\u2026",
        },
    .dialog =
        {
            .file_title = "文件",
            .open_title = "打开跟踪（.slt）",
            .save_title = "把跟踪保存为 .slt",
            .export_title = "导出 Chrome/Perfetto JSON",
            .png_title = "把窗口保存为 PNG",
            .relative_paths = "相对路径从 {0} 开始",
            .open = "打开",
            .save = "保存",
            .cancel = "取消",
            .error_title = "出错了",
            .keeps_running = "程序会继续运行；其他内容都没有改变。",
            .ok = "确定",
            .lessons_broken = "无法载入 {0} 中的课程（内置课程都还在）。出错的文件和行：\n{1}",
        },
    .run =
        {
            .backend = "后端",
            .simulator = "模拟器",
            .gpu = "GPU",
            .schedule = "调度",
            .seed = "种子",
            .reps = "运行次数",
            .run = "运行",
            .run_both = "并排运行正确版本和错误版本",
            .cancel = "取消",
            .side_by_side = "并排显示",
            .idle = "空闲",
            .last_run = "上次运行：{0}（{1} 毫秒）",
            .no_variant = "没有选择版本",
            .gpu_probing = "GPU：{0}",
            .gpu_unavailable = "GPU 不可用：{0}",
            .launches = "启动方式",
            .launches_both = "不记录 + 记录跟踪",
            .launches_untraced = "只做不记录跟踪的启动",
            .live = "实时",
            .timeout = "超时（秒）",
            .tip_schedule_gpu = "GPU 自己调度线程束；这里的调度只对模拟器有效。",
            .tip_seed = "同一个种子会重现同一次运行。第 r 次运行使用种子 + r。",
            .tip_reps = "运行多少次（1 到 1000），每次使用下一个种子；结果会累加。",
            .tip_run = "用这些设置运行所选版本。",
            .tip_select = "请先选择一个版本。",
            .tip_both = "用相同的设置运行这个场景的正确版本和所选版本，两条时间线共用同一个缩放。",
            .tip_both_select = "请选择一个错误版本（不是第一个正确版本）来对比。",
            .tip_side = "把正确的运行和错误的运行并排显示。",
            .seed_word = "种子 {0}",
            .seeds_word = "种子 {0}-{1}",
            .tip_backend = "模拟器：SyncLab 的 SIMT 模拟器，使用所选的调度。GPU：{0}",
            .tip_gpu_real = "真实的 GPU（记录和不记录跟踪的启动）。",
            .tip_launches = "不记录跟踪的启动（每次运行一次）给出硬件本身的结果和用时。记录跟踪的启动会把每次"
                            "访问和屏障记录下来，供时间线和发现使用，但运行更慢，可能改变内核的行为。",
            .tip_live = "内核运行时就在时间线上显示记录跟踪的启动的事件（跟踪写入 GPU 直接写的主机内存）。",
            .tip_live_off = "实时显示的是记录跟踪的启动：请选择“不记录 + 记录跟踪”。",
            .tip_timeout = "超过这么多秒还在运行的内核会被停止；这次运行会显示它的线程在哪里等待（挂起会变成"
                           "诊断，而不是卡死的 GPU）。",
            .memory = "内存模型",
            .memory_lesson = "{0}（课程的默认）",
            .memory_sc = "顺序一致",
            .memory_relaxed = "宽松",
            .tip_memory_sc = "顺序一致：每次访问立即对所有线程可见",
            .tip_memory_relaxed = "PTX 内存模型允许的弱行为：写缓冲区、过期的 L1 缓存行，直到栅栏和释放/获取给它们排好"
                                  "顺序",
            .tip_memory = "模拟器的内存模型。顺序一致：每次读取都看到最新的写入。宽松：写入先留在写缓冲"
                          "区里，SM 的 L1 可能保留过期的缓存行，这些都是 PTX 允许的，直到栅栏、屏障、释放/获取"
                          "和原子操作给它们排好顺序。默认是课程指定的模型。",
            .tip_memory_gpu = "GPU 有自己的内存系统：内存模型只用于模拟器。",
            .warp_model = "线程束",
            .warp_model_its = "独立调度",
            .warp_model_lockstep = "锁步",
            .tip_warp_model_its = "独立线程调度（Volta 及以后）：同一线程束的各通道可能在访存处各走各的",
            .tip_warp_model_lockstep = "Volta 之前：线程束的通道从不分开；每条指令对所有通道都执行完才执行下一条",
            .tip_warp_model = "模拟器如何调度一个线程束里的各通道。独立调度：随机和对抗调度可能在共享或全局内存"
                              "访问处让部分通道先走，正如 Volta 以来的 GPU。锁步：通道从不分开，如同 Volta 之前："
                              "这就是没有 __syncwarp() 的旧式线程束同步代码看起来能工作的原因。",
            .tip_warp_model_gpu = "GPU 自己调度线程束的通道：线程束模型只用于模拟器。",
            .tip_reps_exhaustive = "穷举调度把内存模型允许的每一种执行各运行一次：运行次数在这里没有意义。",
            .step_budget = "步数预算",
            .tip_step_budget = "模拟器在执行了这么多条线程指令后停止运行，这样永不结束的循环会以“被停止”返回，"
                               "并指出它在哪一行打转。这个课程自己的预算：{0}。",
            .tip_step_budget_gpu = "GPU 没有步数预算：运行太久的内核由它的超时设置停止。",
            .raise_budget = "用 {0} 的步数预算再运行一次",
        },
    .browser =
        {
            .ran_as_expected = "已运行 {1} 个版本中的 {0} 个 \u00b7 {2} 个符合预期",
            .scenario_tip = "场景 \"{0}\"（{1}）",
            .folder_heading = "来自 {0} 的课程",
        },
    .findings =
        {
            .no_run = "还没有运行：运行一个版本，看看分析会发现什么。",
            .live = "实时：内核仍在运行。时间线会随时显示到达的事件；内核结束后才会分析整个跟踪。",
            .not_traced = "这次运行没有记录跟踪（只有不记录跟踪的 GPU 启动）：没有跟踪可以分析，"
                          "所以无法给出发现。",
            .count_one = "{0} 项发现",
            .count_many = "{0} 项发现",
            .in_run = "来自 {0}",
            .until_then = " - 跟踪显示的是到那时为止运行的内容。",
            .no_findings = "没有发现 {0} 分析没有看到数据竞争、屏障不一致、丢失更新或死锁。",
            .no_findings_partial =
                "没有发现 {0} 在分析过的块中没有看到数据竞争、屏障不一致、丢失更新或死锁。",
            .no_trace = "没有记录到跟踪（没有可以跟踪的运行）：什么都没有分析，所以无论如何都没有发现。",
            .kind = "类型",
            .hazard = "冒险",
            .space = "内存",
            .lines = "行",
            .count = "次数",
            .example = "示例",
            .message = "说明",
            .shared = "共享内存",
            .global = "全局内存",
            .ptx_line = "PTX {0}",
            .hazard_none = "-",
        },
    .timeline =
        {
            .ruler_ticks = "时间（刻）",
            .ruler_ns = "时间（纳秒）",
            .block = "块 {0}",
            .warp = "线程束 {0}",
            .thread_lane = "线程 {0} \u00b7 通道 {1}",
            .line = "第 {0} 行",
            .line_pair = "第 {0} | {1} 行",
            .timeout = "超时",
            .deadlock = "死锁",
            .legend_load = "读取",
            .legend_store = "写入",
            .legend_race = "数据竞争",
            .legend_wait = "屏障等待",
            .legend_stuck = "结束时仍在等待",
            .legend_divergence = "分歧",
            .legend_atomic = "原子操作",
            .legend_fence = "内存栅栏",
            .legend_exit = "退出",
            .legend_folded = "折叠（次数）",
            .short_load = "读",
            .short_store = "写",
            .short_race = "竞争",
            .short_wait = "等待",
            .short_stuck = "卡住",
            .short_divergence = "分歧",
            .short_atomic = "原子",
            .short_fence = "栅栏",
            .short_exit = "退出",
            .short_folded = "折叠",
            .tip_about =
                "每一行是一个块、一个线程束或一个通道（线程）；时间从左到右。标记是线程的读取、写入、原子操作"
                "、内存栅栏和退出；灰色区间是在屏障处的等待；块后面的彩色条带是它的屏障阶段。相距不到 3 "
                "像素的标记会折叠成一个带次数的灰条；一条线程束指令（所有通道在同一刻）保留它的颜色。数据竞争"
                "的箭头从第一次访问指向第二次访问。",
            .tip_keys = "滚轮：在鼠标处缩放    Shift+滚轮：滚动行\n拖动：平移    F：显示整个运行    "
                        "+/-、方向键：缩放、平移\n点击标签：展开/收起    "
                        "双击折叠条：放大到它\n点击数据竞争箭头：选择它的发现",
            .tip_time = "{0} {1}",
            .tip_access = "{0}  {1}，{2} 字节{3}",
            .tip_volatile = "，volatile",
            .tip_cuda_ptx = "CUDA 第 {0} 行   PTX 第 {1} 行",
            .tip_ptx = "PTX 第 {0} 行",
            .tip_address = "{0}   值 {1}",
            .tip_barrier = "屏障 {0}，阶段 {1}",
            .tip_at = "时间",
            .tip_from = "从",
            .tip_to = "到",
            .tip_first_access = "第一次访问：",
            .tip_second_access = "第二次访问：",
            .tip_click_select = "点击选择这项发现",
            .tip_events = "{0} 个{1}事件",
            .tip_folded = "折叠了 {0} 个事件（双击放大）",
            .tip_first_of_them = "其中第一个：",
            .tip_waiting = "在屏障 {0} 处等待（阶段 {1}）{2}",
            .tip_several = "（多次等待，请放大）",
            .tip_threads_waited = "{0} 个线程等待过",
            .tip_site = "{0}（CUDA 第 {1} 行，PTX 第 {2} 行）",
            .tip_never_released = "一直没有被放行：运行结束时它还在等待",
            .tip_ended = "结束方式：{0}",
            .tip_click_warps = "点击显示或隐藏它的线程束",
            .tip_click_lanes = "点击显示或隐藏它的通道",
            .tip_waiting_unrecorded = "在一个它的线程束从未整体到达的屏障处等待\n（同一线程束的其他通道停在别的指令），"
                                      "\n所以没有记录到达事件：从它的最后一个事件开始",
            .story_thread = "线程 {0}",
            .story_lost =
                "1 {0} 读取 \u00b7 2 {1} 读取 \u00b7 3 {2} 写入 \u00b7 4 {3} 覆盖写入：一次更新丢失了",
            .story_wrote = "3 {0} 写入了 {1}",
            .story_stale = "1 竞争的写入 \u00b7 2 {0} 读到过期值 \u00b7 3 它用这个值写入了 {1}",
            .story_the_output = "这个输出",
            .legend_collective = "洗牌 / 投票",
            .legend_warp_sync = "线程束屏障",
            .short_collective = "洗牌/投票",
            .short_warp_sync = "束同步",
            .tip_collectives = "{0} 次线程束集体操作（请放大）",
            .fold_warps = "线程束 {0}\u2013{1}",
            .fold_blocks = "块 {0}\u2013{1}",
            .tip_fold = "已折叠：这些行位于该发现的两个线程之间。点击即可展开。",
        },
    .collective =
        {
            .warp_sync = "__syncwarp：线程束屏障",
            .shfl = "洗牌（shfl.sync）：通道互相读取寄存器",
            .vote = "投票（vote.sync）：成员得到同一个答案",
            .ballot = "选票（vote.sync.ballot）：每个成员一位",
            .match = "匹配（match.sync）：持有相同值的通道",
            .redux = "线程束归约（redux.sync）",
            .elect = "选举（elect.sync）：选出一个领头通道",
            .members = "成员：掩码 {0}（{1}）",
            .not_recorded = "不在跟踪中：{0}",
            .lanes = "通道 {0}",
            .no_lanes = "没有通道",
            .sync_meaning = "成员在这里互相等待；它们在此之前的内存访问，在此之后彼此可见",
            .read_from = "读取（通道\u2190来源）：{0}",
            .gave = "提供了值：{0}",
            .kept = "保留自己的值：{0}",
            .ballot_result = "选票 {0}：{1}",
            .vote_true = "为真：{0}",
            .vote_false = "为假：{0}",
            .no_memory_order = "只交换寄存器：它不对内存排序",
            .results = "结果：{0}",
            .lane_value = "通道 {0}：{1}",
            .lane_event = "{0}  掩码 {1}  结果 {2}{3}",
            .from_lane = "  来自通道 {0}",
        },
    .playback =
        {
            .to_start = "回到开头（Home）",
            .back_instruction = "后退一条线程束指令（<）",
            .back_event = "后退一个事件（,）",
            .forward_event = "前进一个事件（.）",
            .forward_instruction = "前进一条线程束指令（>）",
            .to_end = "到结尾（End）",
            .stop = "停止",
            .hide = "隐藏播放头",
            .idle = "逐步查看块 {0}：. 和 ,（事件），> 和 <（线程束指令）",
            .before = "块 {0}：在它的 {1} 个事件中的第一个之前",
            .at = "第 {0} 个事件，共 {1} 个 \u00b7 块 {2} \u00b7 线程束 {3}{4} \u00b7 {5}{6}",
            .lanes = "（{0} 个通道）",
            .line = " \u00b7 第 {0} 行",
            .idle_short = "块 {0}：. , > <",
        },
    .shared_memory =
        {
            .title = "块 {0} 的共享内存（第 {1} 个事件时）",
            .none = "没有可显示的共享内存访问（没有，或者多于 {0} 个字）",
            .stale_read = "这条指令读了 {0} 个过期的槽：这些值还没有写入",
            .counts = "{0} 个字 \u00b7 {1} 个过期",
            .tip_stale = "过期：块在下一个屏障之前还会再写它，所以现在读它，\n"
                         "读到的是程序还没有写入的值",
            .written = "已写入",
            .stale = "过期",
            .read_now = "正在读",
            .stale_read_legend = "读到过期值",
            .tip_offset = "偏移 0x{0}（第 {1} 个字）",
            .tip_value = "值 {0}，由{1}写入",
            .tip_not_written = "还没有写入",
            .tip_next = "下一次写入：{0}",
            .tip_next_stale = "下一次写入：{0}，在下一个屏障之前：现在读会读到过期值",
            .who = "线程 {0}（第 {1} 行）",
        },
    .help =
        {
            .title = "快捷键",
            .closes = "按 Esc、F1、H 或点击鼠标关闭这个帮助。",
            .space = "运行所选版本（对比模式下运行两个）",
            .space_keys = "空格",
            .scenario = "上一个 / 下一个场景（演示模式）",
            .variant = "上一个 / 下一个版本（演示模式）",
            .tab = "课程 \u2192 源代码 \u2192 时间线（演示模式）",
            .finding = "下一个 / 上一个发现：它的行、它的事件、发生了什么",
            .pgdn = "演示模式下同上（翻页笔的按键）；运行之前：滚动",
            .compare = "对比：把正确版本放在所选版本旁边",
            .presenter = "演示模式：大字体、高对比度、只用键盘",
            .fullscreen = "打开 / 关闭全屏（在时间线上：显示整个运行）",
            .help = "这个帮助",
            .esc = "关闭这个帮助；退出演示模式",
            .step_event = "播放头前进 / 后退一个事件",
            .step_instruction = "播放头前进 / 后退一条线程束指令",
            .step_ends = "播放头到块的开头 / 结尾",
            .f1_or_h = "F1 或 H",
        },
    .callout =
        {
            .first_of = "] 或 PgDn：{0}中的第一项",
            .a_thread = "某个线程",
            .line = "第 {0} 行",
            .lines = "第 {0} 行",
            .and_ = " 和 ",
            .comma = "、",
            .ptx_line = "PTX 第 {0} 行",
            .ptx_lines = "PTX 第 {0} 行",
            .semicolon = "；",
            .no_barrier = "：没有屏障规定两者的先后",
            .other_blocks = "：不同的块之间没有先后顺序",
            .within_warp = "：在同一个线程束内，两个通道之间没有 __syncwarp() 规定先后",
            .war = "{0} 在{1} 写入 {2} 之前读取了它{3}",
            .raw = "{0} 写入 {2} 之后，{1} 紧接着读取了它{3}",
            .waw = "{0} 和{1} 都写入了 {2}{3}",
            .raced = "{0} 和{1} 在 {2} 上发生了数据竞争",
            .lost = "{0} 和{1} 都没有用原子操作更新 {2}，所以有一次更新丢失了",
            .diverged = "{1} 和{2} 没有到达同一个屏障",
            .diverged_all = "块 {0}：它的线程没有到达同一个屏障",
            .deadlock = "运行一直没有结束：还有线程在屏障处等待",
            .contention = "{0} 次原子操作排队等待 {1}{2}：它们只能一个接一个地完成，所以这一个地址决定了整个内核的速度",
            .out_of_bounds = "{0} 访问了 {1}，越出了本次启动的所有缓冲区{2}",
            .scope_race = "{0} 和{1} 从不同的块访问了 {2}，但块级作用域（.cta）的原子操作只在一个块内是原子的："
                          "更新可能丢失；请改用设备级作用域{3}",
            .stale = "{0} 看到了{1} 设置的标志，却读到了 {2} 在那之前的旧值：{3}",
            .stale_ordered = "{1} 的写入排在前面，{0} 却读到了 {2} 的旧值",
            .stale_writer = "写者在数据和标志之间没有栅栏",
            .stale_reader = "读者在标志和数据之间没有栅栏",
            .stale_both = "两边都没有栅栏",
            .stale_writer_scope = "写者的栅栏作用域不包括读者所在的块",
            .stale_reader_scope = "读者的栅栏作用域不包括写者所在的块",
            .stale_flag_scope = "标志的访问作用域不包括对方的块",
            .at = "（{0}）",
            .counts = "（{0}）",
            .times = "{0} 次",
            .harmful = "，其中 {0} 次造成了错误",
            .lost_updates = "，丢失了 {0} 次更新",
            .runs = "，共 {0} 次运行",
        },
    .provenance =
        {
            .none = "没有任何写入写过这个地址",
            .line = "第 {0} 行",
            .ptx_line = "PTX 第 {0} 行",
            .unknown_line = "未知的行",
            .stored = "{0} 写入了 {1}（{2}）",
            .old_value = "；它在{0}的读取读到 {1}，是旧值：{2} 之后才在那里写入 {3}（{4}），{5}",
            .too_early = "；它在{0}的读取读到 {1}，读得太早：{2} 已经写入了它（{3}，在程序里更靠后），{4}",
            .overwritten =
                "；它在{0}读到 {1}，随后 {2} 在那里写入 {3}（{4}），又被这次写入覆盖：那次更新丢失了",
            .no_barrier = "两者之间没有屏障",
            .other_blocks = "不同块的线程之间没有顺序",
            .more = "；还有 {0} 次过期的读取",
            .none_stale = "；它的读取都没有读到过期值",
            .overwrote_one = "；它覆盖了其他线程的 {0} 次竞争写入（例如 {1}，{2}）",
            .overwrote_many = "；它覆盖了其他线程的 {0} 次竞争写入（例如 {1}，{2}）",
        },
    .source =
        {
            .no_source = "这个跟踪不带 CUDA 源代码（记录时没有源代码）。",
            .select_scenario = "选择一个场景来查看它的内核。",
            .no_file = "（没有文件）",
            .ptx = "PTX",
            .tip_ptx = "在 CUDA 源代码旁显示 PTX。",
            .other_scenario = "上次运行的是另一个场景：运行这个场景，才能在这里看到它的发现。",
            .empty = "（空）",
            .click_next = "点击：选择这些发现中的下一项",
            .click_this = "点击：选择这项发现",
            .own_kernel = "自带内核 {0}",
        },
    .lesson =
        {
            .what_it_shows = "演示内容",
            .this_variant = "这个版本",
            .predict = "先预测",
            .predict_hint = "运行之前先回答这三个问题，然后就能看到这个版本做了什么。",
            .your_prediction = "你的预测",
            .results_q = "结果：",
            .right = "全部正确",
            .wrong = "部分错误",
            .finding_q = "发现：",
            .none = "没有",
            .hang_q = "内核：",
            .completes = "能运行结束",
            .hangs = "会挂起",
            .run = "运行",
            .run_again = "再运行一次",
            .running = "正在运行……",
            .no_prediction = "这次没有预测：下次运行前先选一个。",
            .verdict = "结论",
            .as_expected = "{0}：这次运行和课程说的一样。",
            .surprise = "{0}：这次运行和课程说的不一样。",
            .findings = "{0} 项发现：",
            .no_findings = "没有发现",
            .not_traced = "未记录跟踪：无法给出发现",
            .look_at = "看什么",
            .fix = "怎么修",
            .details = "详细信息",
            .the_question = "问题",
            .the_lesson = "课程内容",
            .pick = "请在场景浏览器里选择一个场景和版本。",
            .other_run = "各视图显示的是上一次运行（另一个版本）；运行这个版本才能看到它的结果。",
            .earlier_run = "各视图显示的是这个版本之前的一次运行：先预测，再运行一次。",
            .on_gpu = "在 GPU 上",
            .gpu_note = "课程的结论针对模拟器。在 GPU 上请比较未记录跟踪的结果（硬件本身的行为）和记录跟踪"
                        "的结果：记录跟踪会让内核变慢，可能掩盖竞争。",
            .run_how = "（{0}，种子 {1}，运行 {2} 次）",
            .rep_one = "（{0}，种子 {1}，运行 1 次）",
        },
    .about =
        {
            .lesson = "所选版本的课程，分两步。\n\n预测：读一读内核做了什么，回答问题，并在运行之前选好你的预"
                      "测（结果会不会出错、会出现哪种发现、会不会挂起）。这个版本运行之前结果不会显示；选择另"
                      "一个版本会开始新的预测。\n\n运行：这里会显示结果（“完成”只表示内核结束了；“正确”表示没"
                      "有错误输出，也没有发现）、你的预测哪些部分成真，以及这次运行是否显示了课程所预期的内容"
                      "（和结论测试做的检查相同）。然后是：在源代码、时间线和发现里看什么，以及怎么修好这个内"
                      "核。详细信息在下面展开。\n\n语言开关会切换课程文字；中文需要一个 CJK 字体。",
            .run =
                "下一次运行怎么做。\n\n调度：模拟器运行线程束的顺序。轮转是固定的，会掩盖大多数数据竞争；随机"
                "和对抗调度（带种子）会把它们暴露出来。同一个种子会重现同一次运行。\n\n运行次数：把这个版本运"
                "行这么多次，种子依次为 "
                "种子、种子+"
                "1……；错误输出和发现会累加，保留的跟踪是第一次出错的那次运行。\n\n并排运行正确版本和错误版本"
                "：运行这个场景的正确版本和所选版本，并用同一个缩放显示两条时间线。\n\nGPU：在真实的 GPU "
                "上运行同一个内核。每次运行都会做不记录跟踪的启动（硬件本身的结果，每次运行一次），除非选择“"
                "只做不记录跟踪的启动”，还会做一次记录跟踪的启动，它的事件会填满时间线。记录跟踪会让内核变慢"
                "，可能掩盖数据竞争，所以两种结果会并排显示。实时：记录跟踪的启动运行时，它的事件就出现在时间"
                "线上。超时：到那时还在运行的内核会被停止；这次运行会显示它的线程在哪里等待。",
            .findings = "分析在当前运行的跟踪中发现的问题，最严重的在前：死锁、屏障不一致、数据竞争、丢失更新"
                        "。分析只读跟踪，所以保存的跟踪会给出同样的发现。\n\n冒险：对数据竞争来说，哪一次访问"
                        "在后（RAW：写后读，WAR，WAW）。\n内存：涉及的内存。\n行：这些访问所在的 CUDA "
                        "行，先访问的在前（没有 CUDA 行时写作“PTX "
                        "n”）。\n次数：发生了多少次（竞争的访问对、不一致的阶段、线程），多次运行时累加。\n只"
                        "分析跟踪完整的块：如果有的块丢了事件（跟踪缓冲区满了、超出预算）或没有被记录，表格上"
                        "方会有一行说明是哪些。\n示例：涉及的两个线程，按跟踪编号、块和块内线程编号。\n\n点击"
                        "一行：时间线会缩放到它，源代码里会高亮它的行。",
            .source =
                "内核的 CUDA "
                "源代码，和运行时记录的一样（运行之前是所选场景的文件）。\n\n行号旁的彩色标记：这次运行的某项"
                "发现提到了这一行（粉色：数据竞争，黄色：屏障不一致，橙色：丢失更新，红色：死锁）。把鼠标放在"
                "上面可以读这项发现；点击可以选中它（再点击会在这一行的各项发现之间轮换）。\n\n整行带彩色背景"
                "的，属于所选的发现（在发现面板里选一项）。淡白色的那一行，是时间线上鼠标下那个事件所在的行。"
                "\n\n行号旁的青色竖条：在输出网格里解释的那个输出涉及的行（留下这个值的写入、读到过期值的读取"
                "，以及"
                "与它们竞争的写入）。黄绿色边框：播放头处有线程束停在这一行。"
                "\n\nPTX 会在源代码旁显示模拟器运行的 PTX：鼠标下事件的指令和所选发现的指令在那里也会高亮。",
            .browser = "场景按主题分组。每个场景是一个内核文件，里面有一个正确版本和若干错误版本。点击一个版"
                       "本打开它的课程，然后预测会发生什么，再运行它。\n\n标记表示这个版本上次运行的结果：\n "
                       " 空心圆：还没有运行\n  绿色圆：这次运行显示了课程所预期的内容\n  "
                       "红色方块：没有显示，或者运行失败（把鼠标放在上面看详细信息）",
        },
    .outcomes =
        {
            .tab = "结果分布",
            .runs = "运行次数",
            .run = "运行 {0} 次",
            .run_once = "运行 1 次",
            .run_all = "运行每一种执行",
            .cancel = "取消",
            .idle = "把所选版本运行很多次，统计它留下的结果：每种结果出现了几次，以及内存模型是否允许它。",
            .running = "正在统计 {0} 的结果\u2026",
            .subject = "{0}：最终内容，每次运行一个结果",
            .subject_per = "{0}：最终内容，每 {1} 个元素一个结果",
            .subject_first = "{0}[0]：这个课程没有指定结果，所以取它第一个输出的第一个元素",
            .col_outcome = "结果",
            .col_meaning = "含义",
            .col_model = "模型",
            .col_sim = "模拟器",
            .col_gpu = "GPU",
            .sim_side = "模拟器（{0}）",
            .counted = "{0} 次运行，统计了 {1} 个结果",
            .every_execution = "内存模型允许的结果（每一种执行：{0}）",
            .bound = "只有前 {0} 种执行：探索在上限处停止了",
            .gpu_none = "这里没有 GPU（{0}）：只有模拟器一列。",
            .gpu_probing = "正在查找 GPU\u2026",
            .gpu_not_run = "没有在 GPU 上运行",
            .status_line = "{0}：{1}",
            .tip_open = "点击：在时间线上打开产生这个结果的一次运行（种子 {0}）",
            .tip_open_exec = "点击：在时间线上打开产生这个结果的那种执行",
            .tip_gpu = "来自 GPU 上不插桩的启动：硬件无法重现一次启动，点击模拟器的计数可以看到产生它的运行",
            .tip_runs = "统计多少次运行，种子依次为 种子、种子+1……（使用运行面板的种子、调度和内存模型）",
            .tip_forbidden = "对这个版本，内存模型禁止这个结果",
            .opened = "打开了一次得到 {0} 的运行",
            .done = "{0}：统计了 {1} 次运行的结果",
            .about = "所选版本的结果分布：把它运行 N 次（每次用自己的种子），统计课程指定的结果缓冲区的最终内容。"
                     "有 GPU 时模拟器和 GPU 并排显示。\n\n每个结果都标出内存模型对这个版本是否允许它；出现了的"
                     "禁止结果显示为红色。使用穷举调度（运行面板）时，模拟器会运行模型允许的每一种执行，所以它"
                     "那一列是模型的全部结果，而不是抽样。\n\n点击模拟器的计数，可以在时间线上打开产生这个结果"
                     "的一次运行。",
            .failed = "结果统计失败：{0}",
        },
    .heatmap =
        {
            .tab = "热力图",
            .mode_contention = "争用：地址 \u00d7 时间",
            .mode_block_thread = "延迟：线程块 \u00d7 线程",
            .mode_sm_warp = "延迟：SM \u00d7 线程束",
            .value_ops = "操作次数",
            .value_depth = "队列深度",
            .log_scale = "对数刻度",
            .reset_zoom = "重置缩放",
            .no_run = "运行一个版本，看看它的原子操作在哪里堆积。",
            .no_atomics = "这次运行没有原子操作：没有线程争用同一个地址。",
            .no_latency = "没有每个线程的延迟：这个课程没有为原子操作计时（课程文件中的 [latency] 表），"
                          "这次运行也没有用成本模型计时。",
            .no_sm = "这些延迟没有对应的 SM：课程没有记录 %smid，追踪里也没有 SM 表。",
            .preparing = "正在统计 {0} 个事件\u2026",
            .time_modelled = "时间：成本模型中每个原子操作完成的周期（发射 + 排队 + 服务）",
            .time_events = "时间：模拟器的步数计数（这次运行没有用成本模型计时）",
            .time_gpu = "时间：GPU 的 %globaltimer（纳秒），每个被追踪的原子操作",
            .source_buffer = "延迟：每个线程在原子操作前后自己读取的 clock64()，来自 {0}",
            .source_model = "延迟：成本模型给每个原子操作的建模周期（排队 + 服务），按线程取平均",
            .sm_measured = "SM：内核读取的每个线程的 %smid",
            .sm_trace = "SM：这次运行把线程块放在的 SM",
            .steps_not_cycles = "（这个模拟器没有成本模型：clock64() 数的是它的步数，不是周期）",
            .unit_ops = "每格的原子操作次数",
            .unit_depth = "格内最深的队列（前面排队的访问数）",
            .unit_cycles = "周期",
            .no_data = "无数据",
            .other_addresses = "其他地址（{0} 个）",
            .tip_address = "地址：{0}",
            .tip_time = "时间 {0} \u2013 {1}",
            .tip_ops = "{0} 次原子操作",
            .tip_depth = "最深队列：前面有 {0} 个访问",
            .tip_line = "主要由第 {0} 行发出",
            .tip_ops_mean = "每个地址 {0} 次原子操作（{1} 个地址的平均值）",
            .tip_block_thread = "线程块 {0}，线程 {1}",
            .tip_blocks_thread = "线程块 {0}\u2013{1}（平均），线程 {2}",
            .tip_sm_warp = "SM {0} 的第 {1} 个线程束：线程块 {2}，线程束 {3}",
            .tip_latency = "延迟：{0} 个周期",
            .tip_no_data = "无数据",
            .axis_address = "地址",
            .axis_time = "时间 \u2192",
            .axis_block = "线程块",
            .axis_thread = "块内线程 \u2192",
            .axis_sm = "SM",
            .axis_warp = "SM 运行的线程束，按启动顺序 \u2192",
            .zoom_hint = "滚轮：缩放 \u00b7 拖动：平移 \u00b7 双击：重置",
            .shader_error = "热力图无法在这个 GL 驱动上绘制：\n{0}",
            .scale_shared = "与{0}共用一个颜色刻度：颜色相同，热度相同",
            .scale_compare = "对比中的另一次运行",
            .scale_ladder = "阶梯图的 {0} 个版本",
            .no_gl = "热力图由着色器绘制，需要应用程序的 OpenGL 窗口。",
            .about = "原子操作在哪里堆积。争用：每个热点地址一行（其余地址合并为一行），时间向右；亮的格子表示"
                     "同一时间在同一地址上有很多操作（或很深的队列）：这些操作在互相等待。延迟：每个线程的原子"
                     "操作用了多久，按线程块和线程，或按 SM 和线程束排列；用 clock64() 为原子操作计时的课程，"
                     "在 GPU 上显示硬件的周期，在模拟器中显示成本模型的周期。\n\n颜色从深蓝（低）到黄色（高）；"
                     "灰色的格子没有数据。对数刻度能拉开从 100 到 100,000 个周期的数值。滚轮缩放，拖动平移，"
                     "双击查看全部。",
        },
    .ladder =
        {
            .tab = "优化阶梯",
            .run = "运行优化阶梯",
            .cancel = "取消",
            .running = "正在运行 {0} 的每个版本\u2026",
            .idle = "运行这个课程的每个版本，比较它们的时间。第一个版本是最朴素的写法；每一条都说明其他版本"
                    "快了或慢了多少。",
            .backend_sim = "模拟器：成本模型的周期数，每个版本运行一次（rr 调度）",
            .backend_gpu = "{0}：每个版本 {1} 次不插桩启动的内核时间中位数",
            .not_modelled = "没有建模：这个模拟器没有成本模型（每个版本都是 0 个建模周期），所以无法排序。"
                            "有 GPU 时请在 GPU 上运行优化阶梯。",
            .baseline = "基准",
            .faster = "快 {0} 倍",
            .slower = "慢 {0} 倍",
            .same = "差不多",
            .not_timed = "没有计时：{0}",
            .wrong = "{1} 个中有 {0} 个错误",
            .unit_cycles = "周期",
            .unit_ms = "毫秒",
            .failed = "优化阶梯运行失败：{0}",
            .done = "{0}：{1} 个版本的优化阶梯",
            .about = "优化阶梯：在同一个后端上运行课程的每个版本，用条形显示它的时间，并给出它与第一个（最朴素"
                     "的）版本之比。在 GPU 上，时间是 N 次不插桩启动的中位数（CUDA 事件）；在模拟器中是成本模型"
                     "的建模周期，它像硬件一样给版本排序，但不代表硬件的速度。",
        },
    .residency =
        {
            .tab = "驻留",
            .idle = "运行这个版本，查看哪些线程块驻留在哪个 SM 上。",
            .none = "这次运行没有驻留数据：只有模拟器运行会记录每个线程块在哪个 SM 上（GPU 运行和较早的 .slt "
                    "文件没有）。",
            .refused = "没有任何线程块驻留过：这次 {0} 个线程块的启动在开始之前就被拒绝了（状态栏说明了原因）。",
            .summary = "{0} 个线程块，{1} 个 SM：{2} 个运行并退出，{3} 个先等待空闲槽位，{4} 个在运行结束时仍驻留，"
                       "{5} 个从未开始。",
            .legend_ran = "一开始就驻留，已退出",
            .legend_waited = "等待空闲槽位后运行",
            .legend_stuck = "结束时仍驻留（从未退出）",
            .legend_never = "从未驻留",
            .sm = "SM {0}",
            .sms = "SM {0}\u2013{1}",
            .axis_end = "时刻 {0}",
            .faint = "越淡：占用的槽位越少（悬停查看数目）",
            .strip = "所有线程块 0\u2013{0}，按编号排列：",
            .never_one = "线程块 {0} 从未开始：没有槽位空出来",
            .never_many = "线程块 {0} 从未开始：没有槽位空出来（共 {1} 个）",
            .waited_words = "线程块 {0} 等待过空闲槽位（共 {1} 个）",
            .more = "另有 {0} 段",
            .hover_bar = "线程块 {0}，SM {1}：从时刻 {2} 驻留到 {3}",
            .hover_end = "运行结束",
            .hover_waited = "它等待另一个线程块退出、空出槽位",
            .hover_stuck = "它从未退出：运行结束时它的线程仍在运行",
            .hover_occupancy = "{0}，时刻 {1}\u2013{2}：这段时间内有 {3} 个线程块驻留（同时最多 {4} 个槽位）",
            .hover_strip = "线程块 {0}：{1}",
            .about = "驻留：一个 SM 同时只能容纳有限个线程块（受每个 SM 的线程数、线程块数、共享内存和寄存器限制）；"
                     "启动中的其他线程块要等某个驻留的线程块退出、空出槽位。每一行是一个 SM，每一条是一个线程块，"
                     "从它开始驻留的时刻到它退出的时刻。网格屏障要求所有线程块同时驻留：驻留的线程块在屏障处等待"
                     "无法开始的线程块时，永远不会有槽位空出来，其余线程块也就永远不会开始。线程块很多时，一行显示"
                     "它的槽位随时间被占用了多少。",
        },
    .classroom =
        {
            .first_steps = "从这里开始：在左边选一个版本，在下面预测它会怎样，然后按“运行”（或空格键）。",
            .browser_start = "{0} 个课程，{1} 个版本：选一个开始",
            .predict_menu = "每次运行前先做预测",
            .variant_does = "这个版本做了什么",
        },
};

// UiText is nothing but Text members (structs of them), so it reads as an array of Text.
static_assert(sizeof(UiText) % sizeof(Text) == 0);

} // namespace

std::string fill(const char* pattern, std::initializer_list<std::string> args) {
    const std::string_view pattern_view = pattern != nullptr ? pattern : "";
    std::string out;
    out.reserve(pattern_view.size() + 16);
    for (size_t i = 0; i < pattern_view.size(); ++i) {
        if (pattern[i] == '{' && i + 2 < pattern_view.size() && pattern[i + 2] == '}' &&
            pattern[i + 1] >= '0' && pattern[i + 1] <= '9' && size_t(pattern[i + 1] - '0') < args.size()) {
            out += *(args.begin() + (pattern[i + 1] - '0'));
            i += 2;
        } else {
            out += pattern[i];
        }
    }
    return out;
}

const UiText& ui_text(Language language) {
    return language == Language::Zh ? kChinese : kEnglish;
}

std::vector<const char*> all_texts(Language language) {
    const Text* first = reinterpret_cast<const Text*>(&ui_text(language));
    std::vector<const char*> out;
    for (size_t i = 0; i < sizeof(UiText) / sizeof(Text); ++i)
        out.push_back(first[i].s);
    return out;
}

const char* schedule_words(sim::Schedule schedule, Language language) {
    if (language == Language::En) return sim::to_string(schedule);
    switch (schedule) {
    case sim::Schedule::RoundRobin:
        return "轮转";
    case sim::Schedule::Random:
        return "随机";
    case sim::Schedule::Adversarial:
        return "对抗";
    case sim::Schedule::Exhaustive:
        return "穷举";
    }
    return "";
}

std::string record_label(const RunRecord& r, Language language) {
    if (language == Language::En || r.scenario_id.empty()) return r.label;
    const RunPanelText& t = ui_text(language).run;
    const std::string how =
        r.options.backend == "gpu" ? std::string("GPU") : schedule_words(r.options.schedule, language);
    const std::string seeds = r.options.reps > 1
                                  ? fill(t.seeds_word, {std::to_string(r.options.seed),
                                                        std::to_string(r.options.seed + r.options.reps - 1)})
                                  : fill(t.seed_word, {std::to_string(r.options.seed)});
    return r.scenario_id + " / " + r.variant_id + "（" + how + "，" + seeds + "）";
}

const char* hazard_words(analysis::Hazard hazard, Language language) {
    if (hazard == analysis::Hazard::None) return ui_text(language).findings.hazard_none;
    return analysis::to_string(hazard);
}

const char* event_kind_words(trace::EventKind kind, Language language) {
    if (language == Language::En) return trace::to_string(kind);
    switch (kind) {
    case trace::EventKind::Load:
        return "读取";
    case trace::EventKind::Store:
        return "写入";
    case trace::EventKind::Atomic:
        return "原子操作";
    case trace::EventKind::Reduction:
        return "原子归约";
    case trace::EventKind::BarrierArrive:
        return "到达屏障";
    case trace::EventKind::BarrierLeave:
        return "离开屏障";
    case trace::EventKind::Fence:
        return "内存栅栏";
    case trace::EventKind::Exit:
        return "退出";
    case trace::EventKind::WarpCollective:
        return "线程束集体操作";
    }
    return trace::to_string(kind);
}

std::string check_summary_words(const std::string& s, Language language) {
    if (language == Language::En) return s;
    std::string out = s;
    // "A of B outputs wrong; first: " -> "B 个输出中有 A 个错误；第一个："
    if (const size_t of = out.find(" of "), wrong = out.find(" outputs wrong");
        of != std::string::npos && wrong != std::string::npos && of < wrong) {
        const std::string a = out.substr(0, of), b = out.substr(of + 4, wrong - of - 4);
        std::string rest = out.substr(wrong + 14);
        if (rest.starts_with("; first: ")) rest = "；第一个：" + rest.substr(9);
        out = b + " 个输出中有 " + a + " 个错误" + rest;
    } else if (out.starts_with("all ") && out.find(" outputs match ") != std::string::npos) {
        const size_t match = out.find(" outputs match ");
        out = out.substr(4, match - 4) + " 个输出全部正确";
    }
    if (const size_t at = out.find(", expected "); at != std::string::npos)
        out = out.substr(0, at) + "，应为 " + out.substr(at + 11);
    if (const size_t at = out.find(" missing"); at != std::string::npos && out.starts_with("counter"))
        out = "counter 缺失" + out.substr(at + 8);
    return out;
}

const char* thread_end_words(trace::ThreadEnd end, Language language) {
    if (language == Language::Zh) {
        switch (end) {
        case trace::ThreadEnd::Exited:
            return "已退出";
        case trace::ThreadEnd::AtBarrier:
            return "停在屏障处";
        case trace::ThreadEnd::Running:
            return "仍在运行";
        case trace::ThreadEnd::Faulted:
            return "它的指令出错";
        case trace::ThreadEnd::NotStarted:
            return "没有开始";
        }
    }
    return trace::to_string(end);
}

const char* space_words(trace::Space space, Language language) {
    if (language == Language::Zh) {
        switch (space) {
        case trace::Space::Shared:
            return "共享内存";
        case trace::Space::Global:
            return "全局内存";
        case trace::Space::Local:
            return "局部内存";
        case trace::Space::Other:
            return "其他内存";
        }
    }
    return trace::to_string(space);
}

std::string gpu_reason_words(const std::string& reason, Language language) {
    if (language == Language::En) return reason;
    struct Known {
        std::string_view en;
        const char* zh;
    };
    static constexpr Known kKnown[] = {
        {"no NVIDIA driver found", "没有找到 NVIDIA 驱动"},
        {"no CUDA device", "没有 CUDA 设备"},
        {"checking for a GPU", "正在检查 GPU\u2026"},
        {"the GPU runner is not built yet", "GPU 运行程序还没有构建"},
        {"the GPU check failed", "GPU 检查失败"},
    };
    for (const Known& k : kKnown)
        if (reason.starts_with(k.en)) return k.zh;
    return reason;
}

} // namespace synclab::ui
