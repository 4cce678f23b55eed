#include "ui/views/ladder_view.h"

#include "ui/views/panel_widgets.h"
#include "ui/model/source_lines.h"
#include "ui/model/theme.h"
#include "ui/model/ui_text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace synclab::ui {

namespace {

std::string grouped(uint64_t v) {
    std::string s = std::to_string(v);
    for (int i = int(s.size()) - 3; i > 0; i -= 3)
        s.insert(size_t(i), ",");
    return s;
}

std::string fixed(double v, int digits) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.*f", digits, v);
    return buf;
}

} // namespace

std::string ladder_ratio_words(const runner::Ladder& ladder, const runner::LadderRung& rung, Language language) {
    const LadderText& t = ui_text(language).ladder;
    if (!rung.timed || rung.ratio <= 0)
        return fill(t.not_timed, {rung.message.empty() ? std::string("-") : rung.message});
    if (rung.variant == ladder.baseline) return std::string(t.baseline);
    // Within 5% of the baseline is no change worth a word (the GPU's run-to-run noise is about that).
    if (std::fabs(rung.ratio - 1.0) < 0.05) return std::string(t.same);
    if (rung.ratio < 1.0) return fill(t.faster, {fixed(1.0 / rung.ratio, 1)});
    return fill(t.slower, {fixed(rung.ratio, 1)});
}

std::string ladder_time_words(const runner::Ladder& ladder, const runner::LadderRung& rung, Language language) {
    const LadderText& t = ui_text(language).ladder;
    if (!rung.timed) return "-";
    if (ladder.unit == "cycles") return grouped(uint64_t(rung.time)) + " " + t.unit_cycles.s;
    return fixed(rung.time, rung.time < 0.1 ? 4 : 3) + " " + t.unit_ms.s;
}

Outcome ladder_rung_outcome(const runner::LadderRung& rung, Language language) {
    Outcome out;
    out.outcome = runner::run_outcome(rung.status, rung.wrong_outputs, rung.checked_outputs);
    out.tone = outcome_tone(out.outcome, false);
    out.words = outcome_word(out.outcome, language);
    if (out.outcome == runner::RunOutcome::WrongOutputs)
        out.words += " \u00b7 " + fill(ui_text(language).ladder.wrong,
                                        {thousands(rung.wrong_outputs), thousands(rung.checked_outputs)});
    return out;
}

void LadderView::draw(AppState& state) {
    const UiText& text = ui_text(shown_language(state));
    const LadderText& t = text.ladder;
    bars_rect_ = ImVec4(0, 0, 0, 0);
    LadderRuns& l = state.ladder;
    ImGui::BeginDisabled(l.running || !state.scenario);
    if (ImGui::Button(t.run)) state.requests.run_ladder = true;
    ImGui::EndDisabled();
    if (l.running) {
        ImGui::SameLine();
        ImGui::ProgressBar(float(l.fraction), ImVec2(ImGui::GetFontSize() * 8, 0));
        ImGui::SameLine();
        if (ImGui::SmallButton(t.cancel)) state.requests.cancel = true;
    }
    ImGui::SameLine();
    widgets::about_button(t.about);
    if (!l.error.empty()) widgets::coloured_text_wrapped(theme::kDeadlock, fill(t.failed, {l.error}).c_str());
    const runner::Ladder* ladder = l.result.get();
    // A ladder of another lesson is not this one's.
    if (!ladder || !state.scenario || ladder->scenario != state.scenario->id) {
        if (l.running && state.scenario)
            widgets::disabled_wrapped(fill(t.running, {state.scenario->id}).c_str());
        else
            widgets::disabled_wrapped(t.idle);
        return;
    }
    widgets::disabled_wrapped(ladder->backend == "gpu"
                                  ? fill(t.backend_gpu, {ladder->device, std::to_string(ladder->reps)}).c_str()
                                  : t.backend_sim.s);
    if (ladder->not_modelled) {
        // No bars of nothing: the note, and what did come back (each variant ran and was checked).
        widgets::coloured_text_wrapped(theme::palette(state.presenter).warning, t.not_modelled);
        for (const runner::LadderRung& r : ladder->rungs) {
            ImGui::Bullet();
            ImGui::TextUnformatted(r.variant.c_str());
            ImGui::SameLine();
            const Outcome o = ladder_rung_outcome(r, shown_language(state));
            widgets::coloured_text(theme::tone_ink(o.tone, state.presenter), o.words.c_str());
        }
        return;
    }
    draw_bars(state, *ladder);
}

void LadderView::draw_bars(const AppState& state, const runner::Ladder& ladder) {
    const Language lang = shown_language(state);
    const float em = ImGui::GetFontSize();
    const float line = ImGui::GetTextLineHeightWithSpacing();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const size_t n = ladder.rungs.size();
    if (n == 0) return;
    // Bars side by side, the naive variant first; each column: the bar (height: time), under it the
    // variant, its time and the ratio.
    const float labels_h = line * 3.2f;
    const float bars_h = std::max(em * 3, avail.y - labels_h - em * 0.5f);
    const float gap = em * 0.8f;
    const float col_w = std::max(em * 4, (avail.x - gap * float(n + 1)) / float(n));
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const double top = ladder.max_time();
    const ImU32 ink = ImGui::GetColorU32(ImGuiCol_Text), dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    const ImU32 axis = ImGui::GetColorU32(ImGuiCol_Border);
    const float base_y = origin.y + bars_h;
    dl->AddLine(ImVec2(origin.x, base_y), ImVec2(origin.x + avail.x, base_y), axis);
    for (size_t i = 0; i < n; ++i) {
        const runner::LadderRung& r = ladder.rungs[i];
        const float x0 = origin.x + gap + float(i) * (col_w + gap);
        const bool base = r.variant == ladder.baseline;
        if (r.timed && top > 0) {
            const float h = std::max(2.0f, float(r.time / top) * (bars_h - line * 1.2f));
            const ImU32 fill_colour = base ? theme::kLostUpdate : theme::kOutcomeSim;
            dl->AddRectFilled(ImVec2(x0, base_y - h), ImVec2(x0 + col_w, base_y), fill_colour);
            // GPU: the spread over the launches as a whisker.
            if (r.time_max > r.time_min && ladder.backend == "gpu") {
                const float yl = base_y - float(r.time_min / top) * (bars_h - line * 1.2f);
                const float yh = base_y - float(r.time_max / top) * (bars_h - line * 1.2f);
                const float xc = x0 + col_w * 0.5f;
                dl->AddLine(ImVec2(xc, yl), ImVec2(xc, yh), ink, 1.5f);
            }
            const std::string ratio = ladder_ratio_words(ladder, r, lang);
            const float w = ImGui::CalcTextSize(ratio.c_str()).x;
            dl->PushClipRect(ImVec2(x0, origin.y), ImVec2(x0 + col_w, base_y), true);
            dl->AddText(ImVec2(x0 + std::max(0.0f, (col_w - w) * 0.5f), base_y - h - line), ink, ratio.c_str());
            dl->PopClipRect();
        } else {
            const std::string why = ladder_ratio_words(ladder, r, lang);
            dl->AddText(nullptr, 0, ImVec2(x0, base_y - line * 2), dim, why.c_str(), nullptr, col_w);
        }
        // Under the bar: variant id, time, outputs.
        dl->PushClipRect(ImVec2(x0, base_y), ImVec2(x0 + col_w, base_y + labels_h), true);
        dl->AddText(ImVec2(x0, base_y + 2), ink, r.variant.c_str());
        dl->AddText(ImVec2(x0, base_y + 2 + line), dim, ladder_time_words(ladder, r, lang).c_str());
        const Outcome outcome = ladder_rung_outcome(r, lang);
        dl->AddText(ImVec2(x0, base_y + 2 + line * 2), theme::tone_ink(outcome.tone, state.presenter),
                    outcome.words.c_str());
        dl->PopClipRect();
        const ImVec2 mouse = ImGui::GetIO().MousePos;
        if (mouse.x >= x0 && mouse.x < x0 + col_w && mouse.y >= origin.y && mouse.y < base_y + labels_h &&
            ImGui::IsWindowHovered()) {
            ImGui::BeginTooltip();
            ImGui::TextUnformatted((r.variant + ": " + r.title).c_str());
            ImGui::TextUnformatted((ladder_time_words(ladder, r, lang) + " \u00b7 " + ladder_ratio_words(ladder, r, lang)).c_str());
            ImGui::EndTooltip();
        }
    }
    bars_rect_ = ImVec4(origin.x, origin.y, origin.x + avail.x, base_y);
    ImGui::Dummy(ImVec2(avail.x, bars_h + labels_h));
}

} // namespace synclab::ui
