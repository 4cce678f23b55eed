#include "ui/views/run_panel.h"

#include "ui/model/outcome_words.h"
#include "ui/views/panel_widgets.h"
#include "ui/model/source_lines.h"
#include "ui/model/theme.h"
#include "ui/model/ui_text.h"

#include <imgui.h>

#include <algorithm>
#include <array>
#include <optional>
#include <string>

namespace synclab::ui {

namespace {

constexpr std::array<sim::Schedule, 4> kSchedules = {sim::Schedule::RoundRobin, sim::Schedule::Random,
                                                     sim::Schedule::Adversarial, sim::Schedule::Exhaustive};

// Combos and inputs fill the panel up to their labels (the longest is "Repetitions"), so that the
// labels stay visible however narrow the panel and however large the font; at most 14 font sizes.
float field_width() {
    const float label =
        ImGui::CalcTextSize(ui_text(Language::En).run.reps).x + ImGui::GetStyle().ItemInnerSpacing.x;
    return std::max(ImGui::GetFontSize() * 4.0f,
                    std::min(ImGui::GetFontSize() * 14.0f, ImGui::GetContentRegionAvail().x - label));
}

void draw_schedule(AppState& state) {
    // The GPU schedules its warps itself: the simulator's schedule means nothing there.
    const bool gpu = state.controls.backend == "gpu";
    const Language language = shown_language(state);
    const RunPanelText& t = ui_text(language).run;
    ImGui::BeginDisabled(gpu);
    ImGui::SetNextItemWidth(field_width());
    if (ImGui::BeginCombo(t.schedule, schedule_label(state.controls.schedule, language))) {
        for (sim::Schedule schedule : kSchedules) {
            const bool selected = state.controls.schedule == schedule;
            if (ImGui::Selectable(schedule_label(schedule, language), selected))
                state.controls.schedule = schedule;
            widgets::tooltip(schedule_explanation(schedule, language));
            if (selected) ImGui::SetItemDefaultFocus();
        }
        ImGui::EndCombo();
    }
    ImGui::EndDisabled();
    widgets::tooltip(gpu ? t.tip_schedule_gpu.s : schedule_explanation(state.controls.schedule, language),
                     ImGuiHoveredFlags_AllowWhenDisabled);
}

// The simulator's memory model: the lesson's own until the student picks one.
void draw_memory(AppState& state) {
    const bool gpu = state.controls.backend == "gpu";
    const RunPanelText& t = ui_text(shown_language(state)).run;
    const launch::MemoryModel lesson =
        state.scenario != nullptr ? state.scenario->memory : launch::MemoryModel::Sc;
    auto name = [&t](launch::MemoryModel m) { return m == launch::MemoryModel::Relaxed ? t.memory_relaxed : t.memory_sc; };
    const std::string preview = state.controls.memory ? std::string(name(*state.controls.memory).s)
                                                      : fill(t.memory_lesson, {name(lesson).s});
    ImGui::BeginDisabled(gpu);
    ImGui::SetNextItemWidth(field_width());
    if (ImGui::BeginCombo(t.memory, preview.c_str())) {
        for (const launch::MemoryModel model : {launch::MemoryModel::Sc, launch::MemoryModel::Relaxed}) {
            const bool selected = state.controls.memory.value_or(lesson) == model;
            // Picking the lesson's own model goes back to following the lesson.
            if (ImGui::Selectable(name(model).s, selected))
                state.controls.memory = model == lesson ? std::nullopt : std::optional(model);
            widgets::tooltip(model == launch::MemoryModel::Relaxed ? t.tip_memory_relaxed : t.tip_memory_sc);
            if (selected) ImGui::SetItemDefaultFocus();
        }
        ImGui::EndCombo();
    }
    ImGui::EndDisabled();
    widgets::tooltip(gpu ? t.tip_memory_gpu.s : t.tip_memory.s, ImGuiHoveredFlags_AllowWhenDisabled);
}

// The simulator's warp model: independent thread scheduling (default) or lockstep.
void draw_warp_model(AppState& state) {
    const bool gpu = state.controls.backend == "gpu";
    const RunPanelText& t = ui_text(shown_language(state)).run;
    auto name = [&t](sim::WarpModel m) { return m == sim::WarpModel::Lockstep ? t.warp_model_lockstep : t.warp_model_its; };
    ImGui::BeginDisabled(gpu);
    ImGui::SetNextItemWidth(field_width());
    if (ImGui::BeginCombo(t.warp_model, name(state.controls.warp_model).s)) {
        for (const sim::WarpModel model : {sim::WarpModel::Its, sim::WarpModel::Lockstep}) {
            const bool selected = state.controls.warp_model == model;
            if (ImGui::Selectable(name(model).s, selected)) state.controls.warp_model = model;
            widgets::tooltip(model == sim::WarpModel::Lockstep ? t.tip_warp_model_lockstep : t.tip_warp_model_its);
            if (selected) ImGui::SetItemDefaultFocus();
        }
        ImGui::EndCombo();
    }
    ImGui::EndDisabled();
    widgets::tooltip(gpu ? t.tip_warp_model_gpu.s : t.tip_warp_model.s, ImGuiHoveredFlags_AllowWhenDisabled);
}

// The lesson's parameters (lesson.toml [param.NAME]), one combo each, named as in the lesson file
// and explained in the shown language; the choices go to Controls::params for the next run.
void draw_params(AppState& state) {
    if (state.scenario == nullptr || state.scenario->params.empty()) return;
    const bool zh = shown_language(state) == Language::Zh;
    scenario::ParamValues& values = state.controls.params[state.scenario->id];
    for (const scenario::Param& p : state.scenario->params) {
        auto it = std::find_if(values.begin(), values.end(), [&](const auto& v) { return v.first == p.name; });
        const std::string current = it != values.end() && p.find(it->second) != nullptr
                                        ? it->second
                                        : p.choices[p.default_choice].name;
        ImGui::SetNextItemWidth(field_width());
        if (ImGui::BeginCombo(p.name.c_str(), current.c_str())) {
            for (const scenario::ParamChoice& c : p.choices) {
                const bool selected = c.name == current;
                if (ImGui::Selectable(c.name.c_str(), selected)) {
                    if (it == values.end())
                        values.emplace_back(p.name, c.name);
                    else
                        it->second = c.name;
                }
                if (selected) ImGui::SetItemDefaultFocus();
            }
            ImGui::EndCombo();
        }
        widgets::tooltip(zh ? p.zh.c_str() : p.en.c_str());
    }
}

void draw_numbers(AppState& state) {
    const RunPanelText& t = ui_text(shown_language(state)).run;
    const uint64_t seed_step = 1, seed_fast = 10;
    ImGui::SetNextItemWidth(field_width());
    ImGui::InputScalar(t.seed, ImGuiDataType_U64, &state.controls.seed, &seed_step, &seed_fast, "%llu");
    widgets::tooltip(t.tip_seed);

    uint32_t reps = state.controls.reps;
    const uint32_t reps_step = 1, reps_fast = 10;
    // The exhaustive schedule runs every execution once: repetitions mean nothing there.
    const bool exhaustive = state.controls.schedule == sim::Schedule::Exhaustive && state.controls.backend != "gpu";
    ImGui::BeginDisabled(exhaustive);
    ImGui::SetNextItemWidth(field_width());
    if (ImGui::InputScalar(t.reps, ImGuiDataType_U32, &reps, &reps_step, &reps_fast, "%u"))
        state.controls.reps = clamp_reps(reps);
    ImGui::EndDisabled();
    state.controls.reps = clamp_reps(state.controls.reps); // also repairs a bad value from settings
    widgets::tooltip(exhaustive ? t.tip_reps_exhaustive.s : t.tip_reps.s, ImGuiHoveredFlags_AllowWhenDisabled);
}

// The lesson's own step budget, else the simulator's.
uint64_t lesson_step_budget(const AppState& state) {
    return state.scenario != nullptr && state.scenario->max_steps != 0 ? state.scenario->max_steps
                                                                       : sim::Options{}.max_steps;
}

// The step budget the next run gets: the student's, else the lesson's.
uint64_t step_budget(const AppState& state) {
    return state.controls.max_steps.value_or(lesson_step_budget(state));
}

// The simulator's step budget: a run that spins is stopped there (and says where it spun). Shown where
// it matters (a lesson with a budget of its own, one the student or a script set, a run it stopped):
// elsewhere it would push the Run button down for a number no run reaches.
void draw_step_budget(AppState& state) {
    const RunRecord* r = state.current.get();
    const bool stopped = r != nullptr && r->summary.status == trace::RunStatus::Budget &&
                         r->summary.budget == sim::Budget::Steps;
    if (!state.controls.max_steps && !stopped && (state.scenario == nullptr || state.scenario->max_steps == 0))
        return;
    const bool gpu = state.controls.backend == "gpu";
    const RunPanelText& t = ui_text(shown_language(state)).run;
    uint64_t budget = step_budget(state);
    const uint64_t step = 1'000'000, fast = 100'000'000;
    ImGui::BeginDisabled(gpu);
    ImGui::SetNextItemWidth(field_width());
    if (ImGui::InputScalar(t.step_budget, ImGuiDataType_U64, &budget, &step, &fast, "%llu"))
        state.controls.max_steps = std::clamp<uint64_t>(budget, 1000, UINT64_MAX / 2);
    ImGui::EndDisabled();
    widgets::tooltip(gpu ? t.tip_step_budget_gpu.s : fill(t.tip_step_budget, {thousands(lesson_step_budget(state))}).c_str(),
                     ImGuiHoveredFlags_AllowWhenDisabled);
}

void draw_buttons(AppState& state) {
    const bool running = state.progress.running;
    const bool have_variant = state.scenario != nullptr && state.variant != nullptr;
    const RunPanelText& t = ui_text(shown_language(state)).run;

    ImGui::BeginDisabled(running || !have_variant);
    if (ImGui::Button(t.run)) state.requests.run = true;
    ImGui::EndDisabled();
    widgets::tooltip(have_variant ? t.tip_run : t.tip_select, ImGuiHoveredFlags_AllowWhenDisabled);

    // Side by side needs a broken variant to hold against the scenario's first (correct) one.
    const bool can_compare = have_variant && state.scenario->variants.size() > 1 &&
                             state.variant != &state.scenario->variants.front();
    const char* both = t.run_both;
    widgets::same_line_if_fits(widgets::button_width(both));
    ImGui::BeginDisabled(running || !can_compare);
    if (ImGui::Button(both)) {
        state.requests.run_both = true;
        state.compare = true;
    }
    ImGui::EndDisabled();
    widgets::tooltip(can_compare ? t.tip_both : t.tip_both_select, ImGuiHoveredFlags_AllowWhenDisabled);

    widgets::same_line_if_fits(widgets::button_width(t.cancel));
    ImGui::BeginDisabled(!running);
    if (ImGui::Button(t.cancel)) state.requests.cancel = true;
    ImGui::EndDisabled();

    // Compare mode can be left again once it shows something.
    if (state.compare || (state.compare_left != nullptr && state.compare_right != nullptr)) {
        ImGui::Checkbox(t.side_by_side, &state.compare);
        widgets::tooltip(t.tip_side);
    }
}

void draw_progress(AppState& state) {
    const Language language = shown_language(state);
    const RunPanelText& t = ui_text(language).run;
    if (state.progress.running) {
        const std::string overlay = state.progress.what + "  " +
                                    std::to_string(static_cast<int>(state.progress.fraction * 100.0 + 0.5)) +
                                    "%";
        ImGui::ProgressBar(static_cast<float>(state.progress.fraction), {-FLT_MIN, 0.0f}, overlay.c_str());
        return;
    }
    // The idle bar keeps the layout still when a run starts; the last run is named below it, where
    // a long label can wrap instead of being cut off in the bar.
    ImGui::ProgressBar(0.0f, {-FLT_MIN, 0.0f}, t.idle);
    if (state.current == nullptr) return;
    const std::string last =
        fill(t.last_run, {record_label(*state.current, language),
                          std::to_string(static_cast<int>(state.current->summary.elapsed_ms + 0.5))});
    widgets::disabled_wrapped(last.c_str());
    if (state.current->provisional) return;
    const Outcome outcome = outcome_of(state.current->summary, shown_language(state));
    widgets::coloured_text_wrapped(theme::tone_ink(outcome.tone, state.presenter), outcome.words.c_str());
    draw_raise_step_budget(state);
}

} // namespace

void draw_raise_step_budget(AppState& state) {
    const RunRecord* r = state.current.get();
    if (r == nullptr || r->provisional || r->summary.status != trace::RunStatus::Budget ||
        r->summary.budget != sim::Budget::Steps || !record_is_of(r, state.scenario, state.variant) ||
        state.controls.backend == "gpu")
        return;
    const RunPanelText& t = ui_text(shown_language(state)).run;
    const uint64_t raised = std::min<uint64_t>(step_budget(state) * 10, UINT64_MAX / 2);
    ImGui::BeginDisabled(state.progress.running);
    if (ImGui::Button(fill(t.raise_budget, {thousands(raised)}).c_str())) {
        state.controls.max_steps = raised;
        state.requests.run = true;
    }
    ImGui::EndDisabled();
    widgets::tooltip(fill(t.tip_step_budget, {thousands(lesson_step_budget(state))}).c_str());
}

void RunPanel::set_gpu_backend(bool available, std::string why_not) {
    gpu_.available = available;
    gpu_.why_not = why_not.empty() && !available ? GpuBackend{}.why_not : std::move(why_not);
}

void RunPanel::draw_backend(AppState& state) {
    ImGui::SetNextItemWidth(field_width());
    // A backend the panel cannot offer (from a settings file or a script) is shown as it is, not
    // silently replaced: the App reports what it makes of it when it runs.
    const std::string& backend = state.controls.backend;
    const RunPanelText& t = ui_text(shown_language(state)).run;
    const std::string preview = backend == "sim" ? t.simulator.s : backend == "gpu" ? t.gpu.s : backend;
    if (ImGui::BeginCombo(t.backend, preview.c_str())) {
        if (ImGui::Selectable(t.simulator, backend == "sim")) state.controls.backend = "sim";
        if (gpu_.available) {
            if (ImGui::Selectable("GPU", backend == "gpu")) state.controls.backend = "gpu";
        } else {
            const std::string label = "GPU (" + gpu_.why_not + ")";
            ImGui::Selectable(label.c_str(), false, ImGuiSelectableFlags_Disabled);
            widgets::tooltip(gpu_.why_not.c_str(), ImGuiHoveredFlags_AllowWhenDisabled);
        }
        ImGui::EndCombo();
    }
    const std::string help =
        fill(t.tip_backend, {gpu_.available ? std::string(t.tip_gpu_real)
                                            : gpu_reason_words(gpu_.why_not, shown_language(state)) + "."});
    widgets::tooltip(help.c_str());

    // Why the GPU cannot be chosen stays in sight (not only in the closed combo): a student on a
    // laptop without an NVIDIA GPU should see at once that the simulator is what there is.
    note_rect_ = ImVec4(0, 0, 0, 0);
    if (!gpu_.available) {
        const float size = ImGui::GetFontSize() * 0.6f;
        const ImVec2 p = ImGui::GetCursorScreenPos();
        const float line = ImGui::GetTextLineHeight();
        ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(p.x, p.y + (line - size) * 0.5f),
                                                  ImVec2(p.x + size, p.y + (line + size) * 0.5f),
                                                  theme::kUnavailable, size * 0.2f);
        ImGui::Dummy(ImVec2(size, line));
        ImGui::SameLine();
        const std::string note = fill(state.gpu.probing ? t.gpu_probing : t.gpu_unavailable,
                                      {gpu_reason_words(gpu_.why_not, shown_language(state))});
        widgets::disabled_wrapped(note.c_str());
        const ImVec2 b = ImGui::GetItemRectMax();
        note_rect_ = ImVec4(p.x, p.y, b.x, b.y);
    }
    if (backend == "gpu") draw_gpu_options(state);
}

void RunPanel::draw_gpu_options(AppState& state) const {
    Controls& c = state.controls;
    ImGui::SetNextItemWidth(field_width());
    const RunPanelText& t = ui_text(shown_language(state)).run;
    const char* launches[] = {t.launches_both, t.launches_untraced};
    int which = c.gpu_traced ? 0 : 1;
    if (ImGui::Combo(t.launches, &which, launches, 2)) c.gpu_traced = which == 0;
    widgets::tooltip(t.tip_launches);

    ImGui::BeginDisabled(!c.gpu_traced);
    bool live = c.gpu_live && c.gpu_traced;
    if (ImGui::Checkbox(t.live, &live)) c.gpu_live = live;
    ImGui::EndDisabled();
    widgets::tooltip(c.gpu_traced ? t.tip_live : t.tip_live_off, ImGuiHoveredFlags_AllowWhenDisabled);

    ImGui::SetNextItemWidth(field_width());
    double timeout = c.gpu_timeout_s;
    const double step = 1, fast = 10;
    if (ImGui::InputScalar(t.timeout, ImGuiDataType_Double, &timeout, &step, &fast, "%.1f"))
        c.gpu_timeout_s = std::clamp(timeout, 0.1, 600.0);
    widgets::tooltip(t.tip_timeout);
}

void RunPanel::draw(AppState& state) {
    ImGui::PushID("run_panel");
    if (state.variant != nullptr && state.scenario != nullptr)
        ImGui::Text("%s / %s", state.scenario->id.c_str(), state.variant->id.c_str());
    else
        ImGui::TextDisabled("%s", ui_text(shown_language(state)).run.no_variant.s);
    widgets::about_button(ui_text(shown_language(state)).about.run);

    draw_backend(state);
    draw_schedule(state);
    draw_memory(state);
    draw_warp_model(state);
    draw_params(state);
    draw_numbers(state);
    draw_step_budget(state);
    draw_buttons(state);
    draw_progress(state);
    ImGui::PopID();
}

} // namespace synclab::ui
