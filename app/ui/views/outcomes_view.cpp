// The outcomes view's drawing; its rows are ui/model/outcome_rows.cpp.
#include "ui/views/outcomes_view.h"

#include "ui/model/outcome_words.h"
#include "ui/views/panel_widgets.h"
#include "ui/core/run_controller.h"
#include "ui/model/source_lines.h"
#include "ui/model/theme.h"
#include "ui/model/ui_text.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

namespace synclab::ui {

// [SECTION] Drawing

namespace {

std::string percent_text(double share) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f%%", share * 100.0);
    return buf;
}

// A bar filling `share` of the cell's left part, then "count (share%)".
void count_cell(uint64_t count, double share, uint32_t colour, bool presenter) {
    const float em = ImGui::GetFontSize();
    const float avail = ImGui::GetContentRegionAvail().x;
    const std::string text = thousands(count) + " (" + percent_text(share) + ")";
    const float text_w = ImGui::CalcTextSize(text.c_str()).x;
    const float bar_w = std::max(em * 2.0f, avail - text_w - ImGui::GetStyle().ItemSpacing.x);
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float h = ImGui::GetTextLineHeight();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->AddRectFilled(ImVec2(p.x, p.y + h * 0.15f), ImVec2(p.x + bar_w, p.y + h * 0.85f),
                      theme::palette(presenter).frame_bg);
    if (count > 0)
        dl->AddRectFilled(ImVec2(p.x, p.y + h * 0.15f),
                          ImVec2(p.x + std::max(2.0f, bar_w * float(std::clamp(share, 0.0, 1.0))), p.y + h * 0.85f),
                          colour);
    ImGui::Dummy(ImVec2(bar_w, h));
    ImGui::SameLine();
    ImGui::TextUnformatted(text.c_str());
}

// The line under the buttons about one side's runs: how many were counted, or how far the
// exhaustive exploration went, and a status that was not ok.
void side_summary(const RunRecord& record, const char* side, Language language, bool presenter) {
    const OutcomesText& t = ui_text(language).outcomes;
    const runner::RunSummary& s = record.summary;
    std::string line;
    if (s.exploration.ran)
        line = s.exploration.complete ? fill(t.every_execution, {thousands(s.exploration.executions)})
                                      : fill(t.bound, {thousands(s.exploration.executions)});
    else if (s.histogram)
        line = fill(t.counted, {thousands(s.histogram->runs), thousands(s.histogram->records)});
    ImGui::TextDisabled("%s", fill(t.status_line, {side, line}).c_str());
    if (s.status != trace::RunStatus::Ok && !(s.exploration.ran && s.status == trace::RunStatus::Budget)) {
        const Outcome o = outcome_of(s, language);
        widgets::coloured_text_wrapped(theme::tone_ink(o.tone, presenter),
                                       fill(t.status_line, {side, o.words}).c_str());
    }
}

} // namespace

void OutcomesView::draw_controls(AppState& state) {
    const Language language = shown_language(state);
    const OutcomesText& t = ui_text(language).outcomes;
    const bool exhaustive = state.controls.schedule == sim::Schedule::Exhaustive;
    const bool running = state.progress.running;
    const bool have_variant = state.scenario != nullptr && state.variant != nullptr;

    ImGui::BeginDisabled(exhaustive);
    uint32_t runs = state.outcomes.runs;
    const uint32_t step = 10, fast = 100;
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8.0f);
    if (ImGui::InputScalar(t.runs, ImGuiDataType_U32, &runs, &step, &fast, "%u"))
        state.outcomes.runs = std::clamp<uint32_t>(runs, 1, 100'000);
    ImGui::EndDisabled();
    widgets::tooltip(exhaustive ? ui_text(language).run.tip_reps_exhaustive.s : t.tip_runs.s,
                     ImGuiHoveredFlags_AllowWhenDisabled);

    const std::string run = exhaustive                  ? std::string(t.run_all)
                            : state.outcomes.runs == 1 ? std::string(t.run_once)
                                                       : fill(t.run, {thousands(state.outcomes.runs)});
    widgets::same_line_if_fits(widgets::button_width(run.c_str()));
    ImGui::BeginDisabled(running || !have_variant);
    if (ImGui::Button((run + "###run_outcomes").c_str())) state.requests.run_outcomes = true;
    ImGui::EndDisabled();
    widgets::same_line_if_fits(widgets::button_width(t.cancel));
    ImGui::BeginDisabled(!state.outcomes.running);
    if (ImGui::Button((std::string(t.cancel) + "###cancel_outcomes").c_str())) state.requests.cancel = true;
    ImGui::EndDisabled();

    const float fraction = state.outcomes.running ? float(state.outcomes.fraction) : 0.0f;
    const std::string overlay =
        state.outcomes.running && have_variant
            ? fill(t.running, {state.scenario->id + " / " + state.variant->id}) + "  " +
                  std::to_string(int(fraction * 100.0f + 0.5f)) + "%"
            : std::string();
    ImGui::ProgressBar(fraction, ImVec2(-FLT_MIN, 0.0f), overlay.c_str());
}

void OutcomesView::draw_table(AppState& state, const std::vector<OutcomeRow>& rows, bool gpu_column) {
    const Language language = shown_language(state);
    const OutcomesText& t = ui_text(language).outcomes;
    const bool presenter = state.presenter;
    const theme::Palette& pal = theme::palette(presenter);
    const bool exhaustive = state.outcomes.sim && state.outcomes.sim->summary.exploration.ran;
    const int columns = gpu_column ? 5 : 4;
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV |
                                  ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_ScrollY;
    const ImVec2 start = ImGui::GetCursorScreenPos();
    const float width = ImGui::GetContentRegionAvail().x;
    if (!ImGui::BeginTable("##outcomes", columns, flags, ImVec2(0, 0))) return;
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn(t.col_outcome, ImGuiTableColumnFlags_WidthStretch, 1.0f);
    ImGui::TableSetupColumn(t.col_meaning, ImGuiTableColumnFlags_WidthStretch, 1.6f);
    ImGui::TableSetupColumn(t.col_model, ImGuiTableColumnFlags_WidthStretch, 1.3f);
    ImGui::TableSetupColumn(t.col_sim, ImGuiTableColumnFlags_WidthStretch, 1.8f);
    if (gpu_column) ImGui::TableSetupColumn(t.col_gpu, ImGuiTableColumnFlags_WidthStretch, 1.8f);
    ImGui::TableHeadersRow();
    for (size_t i = 0; i < rows.size(); ++i) {
        const OutcomeRow& r = rows[i];
        ImGui::PushID(int(i));
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        const bool broken = r.verdict.broken();
        const uint32_t ink = broken ? pal.bad : pal.text;
        ImGui::PushStyleColor(ImGuiCol_Text, ink);
        // The whole row is the click target: a simulator run that gave this outcome opens.
        if (ImGui::Selectable(r.outcome.c_str(), false,
                              ImGuiSelectableFlags_SpanAllColumns | ImGuiSelectableFlags_AllowItemOverlap) &&
            r.sim_run != nullptr)
            state.requests.open_outcome = *r.sim_run;
        ImGui::PopStyleColor();
        if (r.sim_run != nullptr)
            widgets::tooltip(exhaustive ? t.tip_open_exec.s
                                        : fill(t.tip_open, {std::to_string(r.sim_run->seed)}).c_str());
        ImGui::TableNextColumn();
        widgets::wrapped(r.meaning.c_str());
        ImGui::TableNextColumn();
        // The model's verdict in the vocabulary's words and colours (outcome_words.h): an allowed weak
        // outcome that came out is a warning, never green.
        widgets::coloured_text_wrapped(theme::tone_ink(verdict_tone(r.verdict), presenter),
                                       verdict_words(r.verdict, language).c_str());
        if (r.verdict.verdict == runner::ModelVerdict::Forbidden) {
            // Why, from the lesson (its own words, in English only: a Chinese view leaves them out).
            const std::string why = language == Language::En && state.variant && !state.variant->forbidden_because.empty()
                                        ? std::string(t.tip_forbidden) + ": " + state.variant->forbidden_because
                                        : std::string(t.tip_forbidden);
            widgets::tooltip(why.c_str());
        }
        ImGui::TableNextColumn();
        count_cell(r.sim_count, r.sim_share, broken && r.sim_count ? pal.bad : theme::kOutcomeSim, presenter);
        if (gpu_column) {
            ImGui::TableNextColumn();
            if (state.outcomes.gpu)
                count_cell(r.gpu_count, r.gpu_share, broken && r.gpu_count ? pal.bad : theme::kOutcomeGpu,
                           presenter);
            else
                ImGui::TextDisabled("-");
            widgets::tooltip(t.tip_gpu);
        }
        ImGui::PopID();
    }
    ImGui::EndTable();
    // (the table fills what the view leaves: from where it started to where the cursor went)
    const float bottom = ImGui::GetCursorScreenPos().y - ImGui::GetStyle().ItemSpacing.y;
    table_rect_ = ImVec4(start.x, start.y, start.x + width, std::max(start.y, bottom));
}

void OutcomesView::draw(AppState& state) {
    table_rect_ = ImVec4(0, 0, 0, 0);
    ImGui::PushID("outcomes_view");
    const Language language = shown_language(state);
    const OutcomesText& t = ui_text(language).outcomes;
    if (state.scenario && state.variant)
        ImGui::Text("%s / %s", state.scenario->id.c_str(), state.variant->id.c_str());
    else
        ImGui::TextDisabled("%s", ui_text(language).run.no_variant.s);
    widgets::about_button(t.about);
    if (!state.scenario || !state.variant) {
        ImGui::PopID();
        return;
    }
    const OutcomeSubject subject = outcome_subject(*state.scenario);
    if (!subject.request.wanted()) {
        widgets::disabled_wrapped(t.idle);
        ImGui::PopID();
        return;
    }
    const std::string what =
        !subject.lesson_named ? fill(t.subject_first, {subject.request.buffer})
        : subject.request.per > 0 ? fill(t.subject_per, {subject.request.buffer, std::to_string(subject.request.per)})
                                  : fill(t.subject, {subject.request.buffer});
    widgets::disabled_wrapped(what.c_str());
    draw_controls(state);
    if (!state.outcomes.error.empty())
        widgets::coloured_text_wrapped(theme::palette(state.presenter).bad,
                                       fill(t.failed, {state.outcomes.error}).c_str());

    // The GPU column only where a GPU can run; otherwise one line says why.
    const bool gpu_column = state.gpu.available;
    if (state.gpu.probing)
        ImGui::TextDisabled("%s", t.gpu_probing.s);
    else if (!state.gpu.available)
        widgets::disabled_wrapped(fill(t.gpu_none, {gpu_reason_words(state.gpu.reason, language)}).c_str());

    const bool ours = state.outcomes.sim != nullptr && state.outcomes.scenario_id == state.scenario->id &&
                      state.outcomes.variant_id == state.variant->id;
    const RunRecord* sim = ours ? state.outcomes.sim.get() : nullptr;
    const RunRecord* gpu = ours && gpu_column ? state.outcomes.gpu.get() : nullptr;
    if (sim) {
        const RunPanelText& rp = ui_text(language).run;
        const char* model = sim->summary.memory == launch::MemoryModel::Relaxed ? rp.memory_relaxed : rp.memory_sc;
        side_summary(*sim, fill(t.sim_side, {model}).c_str(), language, state.presenter);
    }
    if (gpu) side_summary(*gpu, t.col_gpu, language, state.presenter);
    else if (sim && gpu_column) ImGui::TextDisabled("%s", t.gpu_not_run.s);
    if (!sim && !state.outcomes.running) widgets::disabled_wrapped(t.idle);

    const std::vector<OutcomeRow> rows =
        outcome_rows(state.scenario, state.variant, sim && sim->summary.histogram ? &*sim->summary.histogram : nullptr,
                     gpu && gpu->summary.histogram ? &*gpu->summary.histogram : nullptr, language);
    // (the rows point into the records, which state.outcomes holds while the table draws)
    if (!rows.empty()) draw_table(state, rows, gpu_column);
    ImGui::PopID();
}

} // namespace synclab::ui
