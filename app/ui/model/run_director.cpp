// Index:
//   [SECTION] Start, selection
//   [SECTION] The GPU probe
//   [SECTION] Starting runs
//   [SECTION] Finished runs
//   [SECTION] Files
#include "ui/model/run_director.h"

#include "trace/chrome_export.h"
#include "trace/slt_file.h"
#include "ui/model/lesson_library.h"
#include "ui/model/outcome_rows.h"
#include "ui/model/outcome_words.h"
#include "ui/model/source_lines.h"
#include "ui/model/ui_text.h"

namespace synclab::ui {
namespace {

std::string variant_key(const std::string& scenario, const std::string& variant) {
    return scenario + "/" + variant;
}

// The run's result for the status line. English: the status line is.
std::string record_summary(const RunRecord& r) {
    return record_summary_words(r, Language::En);
}

} // namespace

// [SECTION] Start, selection =========================================================================

void RunDirector::start(const std::string& gpu_worker_path) {
    gpu_probe_.start(gpu_worker_path);
    seen_scenario_ = state_.scenario;
    seen_variant_ = state_.variant;
}

bool RunDirector::poll() {
    const bool probed = poll_gpu_probe();
    const bool run_said = poll_runs();
    return probed || run_said;
}

// Views change state.scenario/variant directly; this acts once per change, whoever made it.
void RunDirector::follow_selection() {
    if (state_.scenario == seen_scenario_ && state_.variant == seen_variant_) return;
    // The memory model and step budget picked in the run panel were for that lesson: another lesson
    // starts at its own.
    if (state_.scenario != seen_scenario_) {
        state_.controls.memory.reset();
        state_.controls.max_steps.reset();
    }
    seen_scenario_ = state_.scenario;
    seen_variant_ = state_.variant;
    state_.selection = Selection{};
    state_.camera = TimelineCamera{};
    state_.current = nullptr;
    if (state_.scenario && state_.variant) {
        const auto it = last_runs_.find(variant_key(state_.scenario->id, state_.variant->id));
        if (it != last_runs_.end()) state_.current = it->second;
    }
    // Compare records belong to one scenario; another scenario's would compare the wrong kernels.
    if (state_.compare_right &&
        (!state_.scenario || state_.compare_right->scenario_id != state_.scenario->id)) {
        state_.compare_left = nullptr;
        state_.compare_right = nullptr;
    }
}

void RunDirector::cancel() {
    runs_.cancel();
    state_.status = ui_text(shown_language(state_)).shell.cancelling;
}

// [SECTION] The GPU probe ============================================================================

bool RunDirector::poll_gpu_probe() {
    const std::optional<GpuAvailability> found = gpu_probe_.take();
    if (!found) return false;
    state_.gpu.probing = false;
    if (!found->available) {
        mark_gpu_unavailable(found->reason);
        return true;
    }
    state_.gpu.available = true;
    state_.gpu.device = found->device;
    state_.gpu.reason.clear();
    return true;
}

void RunDirector::mark_gpu_unavailable(const std::string& reason) {
    state_.gpu.probing = false;
    state_.gpu.available = false;
    state_.gpu.reason = reason;
    // A script (or a later settings file) that asked for the GPU gets the simulator, and is told why.
    if (state_.controls.backend == "gpu") fall_back_to_simulator();
}

void RunDirector::fall_back_to_simulator() {
    state_.controls.backend = "sim";
    fallback_note_ = fill(ui_text(shown_language(state_)).shell.fallback,
                          {gpu_reason_words(state_.gpu.reason, shown_language(state_))});
    state_.status = fallback_note_;
}

// [SECTION] Starting runs ==========================================================================

void RunDirector::start_run(bool both) {
    if (!state_.scenario || !state_.variant) return;
    // While the probe is still out a GPU run simply starts: it waits for the shared worker the probe
    // holds and then runs, or comes back saying why it could not (RunRecord::gpu_unavailable).
    if (state_.controls.backend == "gpu" && !state_.gpu.probing && !state_.gpu.available)
        fall_back_to_simulator();
    std::vector<RunJob> jobs;
    if (both) {
        // Left: the reference (the first variant that is always correct; not always the first:
        // lost_update lists the broken one first). Right: the selected variant, or when that is the
        // reference itself, the first other one: comparing a variant with itself teaches nothing.
        const auto& variants = state_.scenario->variants;
        const scenario::Variant* left = &variants.front();
        for (const scenario::Variant& v : variants)
            if (v.expect.always_correct()) {
                left = &v;
                break;
            }
        const scenario::Variant* right = state_.variant;
        if (right == left)
            for (const scenario::Variant& v : variants)
                if (&v != left) {
                    right = &v;
                    break;
                }
        jobs.push_back(make_scenario_job(*state_.scenario, *left, state_.controls, RunSlot::CompareLeft));
        jobs.push_back(make_scenario_job(*state_.scenario, *right, state_.controls, RunSlot::CompareRight));
        state_.status = fill(ui_text(shown_language(state_)).shell.running_pair, {left->id, right->id});
    } else {
        jobs.push_back(
            make_scenario_job(*state_.scenario, *state_.variant, state_.controls, RunSlot::Current));
        state_.status = fill(ui_text(shown_language(state_)).shell.status_running,
                             {state_.scenario->id + " / " + state_.variant->id});
    }
    runs_.start(std::move(jobs));
    outcomes_in_flight_ = ladder_in_flight_ = false;
}

void RunDirector::start_outcomes() {
    if (!state_.scenario || !state_.variant) return;
    const OutcomeSubject subject = outcome_subject(*state_.scenario);
    if (!subject.request.wanted()) return;
    OutcomeRuns& o = state_.outcomes;
    o.scenario_id = state_.scenario->id;
    o.variant_id = state_.variant->id;
    o.sim = nullptr;
    o.gpu = nullptr;
    o.error.clear();
    std::vector<RunJob> jobs;
    jobs.push_back(make_outcomes_job(*state_.scenario, *state_.variant,
                                     outcome_run_options(state_.controls, subject, o.runs, false),
                                     RunSlot::OutcomesSim));
    // The hardware beside the model, where there is one (untraced launches: its own outcome).
    if (state_.gpu.available)
        jobs.push_back(make_outcomes_job(*state_.scenario, *state_.variant,
                                         outcome_run_options(state_.controls, subject, o.runs, true),
                                         RunSlot::OutcomesGpu));
    state_.status = fill(ui_text(shown_language(state_)).outcomes.running,
                         {state_.scenario->id + " / " + state_.variant->id});
    runs_.start(std::move(jobs));
    outcomes_in_flight_ = true;
    ladder_in_flight_ = false;
}

void RunDirector::start_ladder() {
    if (!state_.scenario) return;
    LadderRuns& l = state_.ladder;
    l.error.clear();
    Controls c = state_.controls;
    // The run panel's backend, where it can be used (else the simulator, as a run falls back).
    if (c.backend == "gpu" && !state_.gpu.available) c.backend = "sim";
    std::vector<RunJob> jobs;
    jobs.push_back(make_ladder_job(*state_.scenario, c));
    state_.status = fill(ui_text(shown_language(state_)).ladder.running, {state_.scenario->id});
    runs_.start(std::move(jobs));
    outcomes_in_flight_ = ladder_in_flight_ = false;
    ladder_in_flight_ = true;
}

void RunDirector::open_outcome(const runner::OutcomeCount& outcome) {
    const RunRecord* from = state_.outcomes.sim.get();
    if (!state_.scenario || !state_.variant || from == nullptr) return;
    // The run that produced it, again, traced, as a run of the selected variant: the same seed with
    // the same schedule and memory model (the simulator is deterministic per seed), or the same
    // exhaustive execution replayed from its choices.
    Controls c = state_.controls;
    c.backend = "sim";
    c.schedule = from->options.schedule;
    c.memory = from->options.memory;
    c.seed = outcome.seed;
    c.reps = 1;
    if (c.schedule == sim::Schedule::Exhaustive) c.replay = outcome.choices;
    std::vector<RunJob> jobs;
    jobs.push_back(make_scenario_job(*state_.scenario, *state_.variant, c, RunSlot::Current));
    state_.status = fill(ui_text(shown_language(state_)).outcomes.opened, {outcome.outcome});
    runs_.start(std::move(jobs));
    outcomes_in_flight_ = ladder_in_flight_ = false;
}

// [SECTION] Finished runs ==========================================================================

bool RunDirector::poll_runs() {
    bool gpu_changed = false;
    for (RunDone& done : runs_.poll()) {
        if (done.provisional) {
            accept_provisional(done.slot, std::move(done.record));
            continue;
        }
        ++jobs_finished_;
        const bool outcomes = done.slot == RunSlot::OutcomesSim || done.slot == RunSlot::OutcomesGpu;
        if (done.slot == RunSlot::Ladder) {
            // The ladder view's result (or why there is none): the view shows it, no modal.
            last_job_error_ = done.record ? std::string() : done.error.empty() ? "no result" : done.error;
            state_.ladder.error = last_job_error_;
            if (done.record && done.record->ladder) {
                state_.ladder.result = done.record->ladder;
                state_.ladder.heat = done.record->ladder_heat;
                state_.status = fill(ui_text(shown_language(state_)).ladder.done,
                                     {done.record->ladder->scenario, std::to_string(done.record->ladder->rungs.size())});
            }
            continue;
        }
        if (outcomes && (!done.error.empty() || !done.record)) {
            // (e.g. a histogram buffer the kernel does not have: the view says so, no modal)
            last_job_error_ = done.error.empty() ? "the job produced no result" : done.error;
            state_.outcomes.error = last_job_error_;
            continue;
        }
        if (!done.error.empty() || !done.record) {
            last_job_error_ = done.error.empty() ? "the job produced no result" : done.error;
            state_.error = last_job_error_;
            state_.status = fill(ui_text(shown_language(state_)).shell.failed, {last_job_error_});
            continue;
        }
        last_job_error_.clear();
        if (!done.record->gpu_unavailable.empty()) {
            mark_gpu_unavailable(done.record->gpu_unavailable);
            gpu_changed = true;
        }
        accept_record(done.slot, std::move(done.record));
    }
    state_.progress.running = runs_.busy();
    state_.progress.fraction = runs_.progress();
    state_.progress.what = state_.progress.running ? runs_.what() : std::string();
    if (!runs_.busy()) outcomes_in_flight_ = ladder_in_flight_ = false;
    state_.outcomes.running = outcomes_in_flight_;
    state_.ladder.running = ladder_in_flight_;
    state_.ladder.fraction = ladder_in_flight_ ? runs_.progress() : 0.0;
    state_.outcomes.fraction = outcomes_in_flight_ ? runs_.progress() : 0.0;
    return gpu_changed;
}

void RunDirector::accept_record(RunSlot slot, std::shared_ptr<const RunRecord> record) {
    const RunRecord& r = *record;
    const scenario::Scenario* s = r.scenario_id.empty() ? nullptr : lessons().find(r.scenario_id);
    const scenario::Variant* v = s ? s->find_variant(r.variant_id) : nullptr;
    const std::string key = variant_key(r.scenario_id, r.variant_id);
    state_.status = r.label + ": " + record_summary(r);
    if (const std::string sides = gpu_sides_text(r); !sides.empty()) state_.status += " \u00b7 " + sides;
    if (!r.gpu_unavailable.empty())
        state_.status = fill(ui_text(shown_language(state_)).shell.gpu_unavailable,
                             {gpu_reason_words(r.gpu_unavailable, shown_language(state_))});
    if (!fallback_note_.empty() && slot != RunSlot::Loaded) {
        state_.status = fallback_note_ + " \u00b7 " + state_.status;
        if (slot != RunSlot::CompareLeft) fallback_note_.clear();
    }
    if (slot == RunSlot::OutcomesSim || slot == RunSlot::OutcomesGpu) {
        // The outcomes view's counts, kept for the variant they are of (the view shows them only
        // while it is selected); not a run of the timeline, nor a badge.
        if (record->scenario_id != state_.outcomes.scenario_id || record->variant_id != state_.outcomes.variant_id)
            return;
        // (in the shown language: the outcome counts are not the timeline's run, whose summary the
        // status line would otherwise translate)
        if (r.gpu_unavailable.empty())
            state_.status = fill(ui_text(shown_language(state_)).outcomes.done,
                                 {record_label(r, shown_language(state_)), thousands(r.summary.reps_run)});
        (slot == RunSlot::OutcomesSim ? state_.outcomes.sim : state_.outcomes.gpu) = std::move(record);
        return;
    }
    if (slot == RunSlot::Loaded) {
        // A trace shows what it is of, never the lesson that happened to be selected: a catalog
        // variant's trace selects that variant (lesson and source match the timeline); a user's
        // kernel (or a variant this build does not have) selects none, and its own source and PTX
        // show (choose_source: the record's texts when nothing is selected).
        state_.scenario = seen_scenario_ = s && v ? s : nullptr;
        state_.variant = seen_variant_ = s && v ? v : nullptr;
        if (!(s && v)) {
            state_.focus_view = View::Source;
            if (!r.summary.trace.meta.ptx_text.empty()) state_.show_ptx = true;
        }
        state_.compare = false;
        state_.current = std::move(record);
        state_.selection = Selection{};
        state_.camera = TimelineCamera{}; // the whole trace, its time axis from 0
        return;
    }
    // The badges are the lessons' verdicts, which are about the simulator (the GPU's outcome is shown
    // as it is, both sides): a GPU run does not change them (badge_for).
    if (s && v && r.summary.status != trace::RunStatus::Cancelled && r.gpu_unavailable.empty())
        last_runs_[key] = record;
    if (s && v) {
        if (const Badge badge = badge_for(*v, r); badge.ran) state_.badges[key] = badge;
    }
    if (slot == RunSlot::CompareLeft) state_.compare_left = record;
    if (slot == RunSlot::CompareRight) state_.compare_right = record;
    // A run becomes current only if its variant is still selected (the user may have moved on); in
    // compare mode that is the right-hand (selected) one, whose findings the panels then show.
    // (The right-hand side is not always the selected variant: with the correct one selected it is
    // the first other one, and its findings are the ones to show and focus.)
    const bool is_selected =
        s && v && s == state_.scenario && (v == state_.variant || slot == RunSlot::CompareRight);
    if (is_selected && slot != RunSlot::CompareLeft) {
        state_.current = std::move(record);
        state_.selection = Selection{};
        state_.camera.fit_requested = true;
        focus_first_finding();
    }
}

// A finished run starts at its most harmful finding (findings come most harmful
// first): its block open, its threads pinned, both accesses marked and its lines lit, so that a
// student sees at once what went wrong and where, without touching anything.
void RunDirector::focus_first_finding() {
    if (state_.current && !state_.current->summary.findings.empty() && !state_.current->provisional)
        state_.requests.focus_finding = 0;
}

void RunDirector::accept_provisional(RunSlot slot, std::shared_ptr<const RunRecord> record) {
    // Live events go where the final record will: the current run of the selected variant (or the
    // right-hand side of compare mode). Nothing else (badges, last runs) sees a partial record.
    const RunRecord& r = *record;
    const bool is_selected = state_.scenario && state_.variant && r.scenario_id == state_.scenario->id &&
                             r.variant_id == state_.variant->id;
    if (!is_selected || slot == RunSlot::CompareLeft || slot == RunSlot::Loaded) return;
    if (slot == RunSlot::CompareRight) state_.compare_right = record;
    const bool first = !state_.current || !state_.current->provisional;
    state_.current = std::move(record);
    if (first) state_.selection = Selection{};
    // Follow the growing trace: the camera fits it on every update while the kernel runs.
    state_.camera.fit_requested = true;
}

// [SECTION] Files ==================================================================================

void RunDirector::open_trace(const std::string& path) {
    state_.status = fill(ui_text(shown_language(state_)).shell.opening, {path});
    runs_.start({make_load_job(path)});
    outcomes_in_flight_ = ladder_in_flight_ = false;
}

void RunDirector::save_trace(const std::string& path) {
    if (!state_.current) {
        state_.error = ui_text(shown_language(state_)).shell.nothing_to_save;
        return;
    }
    try {
        trace::save_trace(state_.current->summary.trace, path);
        state_.status = fill(ui_text(shown_language(state_)).shell.saved_trace, {path});
    } catch (const std::exception& e) {
        state_.error = fill(ui_text(shown_language(state_)).shell.could_not_save, {e.what()});
    }
}

void RunDirector::export_chrome(const std::string& path) {
    if (!state_.current) {
        state_.error = ui_text(shown_language(state_)).shell.nothing_to_export;
        return;
    }
    try {
        trace::export_chrome_json(state_.current->summary.trace, path);
        state_.status = fill(ui_text(shown_language(state_)).shell.wrote_json, {path});
    } catch (const std::exception& e) {
        state_.error = fill(ui_text(shown_language(state_)).shell.could_not_export, {e.what()});
    }
}

} // namespace synclab::ui
