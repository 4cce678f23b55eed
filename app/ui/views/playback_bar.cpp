#include "ui/views/playback_bar.h"

#include "ui/model/source_lines.h"
#include "ui/model/ui_text.h"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h> // key codes only (ImGui 1.86 indexes KeysDown by the backend's codes)
#include <imgui.h>

#include <algorithm>
#include <cstdio>

namespace synclab::ui {

// The block to step through: the selected finding's (where the bug is), else block 0.
uint32_t PlaybackBar::wanted_block(const AppState& state, const RunRecord& record) const {
    const int f = state.selection.selected_finding;
    const auto& findings = record.summary.findings;
    return f >= 0 && size_t(f) < findings.size() ? findings[size_t(f)].block : 0;
}

void PlaybackBar::update(const RunRecord& record, AppState& state) {
    const trace::Trace& trace = record.summary.trace;
    const uint32_t block = wanted_block(state, record);
    if (record.serial == serial_ && &trace == trace_ && block == block_) return;
    serial_ = record.serial;
    trace_ = &trace;
    block_ = block;
    // Built on the first step, not here: sorting a 10 M-event trace takes a while, and most runs are
    // never stepped through.
    playback_ = Playback();
    built_ = false;
    // A new run: the playhead is off until the student steps.
    state.playhead = Playhead{};
    state.playhead.serial = serial_;
}

Playback& PlaybackBar::built() {
    if (!built_) {
        playback_ = Playback(*trace_, block_);
        built_ = true;
    }
    return playback_;
}

void PlaybackBar::publish(AppState& state) {
    Playhead& p = state.playhead;
    p.active = true;
    p.serial = serial_;
    p.camera_time = playback_.camera_time();
    p.events = playback_.current_instruction();
    p.lines = playback_.current_lines();
    const uint32_t e = playback_.current_event();
    p.line = e == UINT32_MAX ? 0 : trace_->source_line(trace_->events[e]);
    moved_ = true;
}

void PlaybackBar::step_event(AppState& state, int delta) {
    built().step_event(delta);
    publish(state);
}

void PlaybackBar::step_instruction(AppState& state, int delta) {
    built().step_instruction(delta);
    publish(state);
}

void PlaybackBar::seek(AppState& state, size_t cursor) {
    built().seek(cursor);
    publish(state);
}

void PlaybackBar::handle_keys(AppState& state) {
    const ImGuiIO& io = ImGui::GetIO();
    if (io.WantTextInput || io.KeyCtrl || io.KeyAlt || io.KeySuper) return;
    if (ImGui::IsPopupOpen(nullptr, ImGuiPopupFlags_AnyPopupId | ImGuiPopupFlags_AnyPopupLevel)) return;
    const bool shift = io.KeyShift;
    if (ImGui::IsKeyPressed(GLFW_KEY_PERIOD)) shift ? step_instruction(state, +1) : step_event(state, +1);
    if (ImGui::IsKeyPressed(GLFW_KEY_COMMA)) shift ? step_instruction(state, -1) : step_event(state, -1);
    if (ImGui::IsKeyPressed(GLFW_KEY_HOME, false)) seek(state, 0);
    if (ImGui::IsKeyPressed(GLFW_KEY_END, false)) seek(state, built().size());
}

// Keeps the playhead on screen: when a step takes it out of the visible range, the range moves so
// that the playhead sits a third of the way in (the zoom stays).
void PlaybackBar::follow(const AppState& state, TimelineCamera& camera) const {
    // A zoom still to be applied (a finding focused this frame) is the range that will be shown.
    const bool pending = camera.focus_t1 > camera.focus_t0;
    double& t0 = pending ? camera.focus_t0 : camera.t0;
    double& t1 = pending ? camera.focus_t1 : camera.t1;
    const double t = state.playhead.camera_time, length = t1 - t0;
    if (!(length > 0) || (t >= t0 && t <= t1)) return;
    t0 = t - length / 3;
    t1 = t0 + length;
}

void PlaybackBar::draw(AppState& state, const RunRecord& record, TimelineCamera& camera) {
    update(record, state);
    moved_ = false;
    if (record.provisional || trace_->events.empty()) return;
    if (state.requests.step_playhead != 0) {
        step_instruction(state, state.requests.step_playhead);
        state.requests.step_playhead = 0;
    }
    handle_keys(state);

    ImGui::PushID("playback");
    const PlaybackText& t = ui_text(shown_language(state)).playback;
    auto button = [&](const char* label, const char* tip) {
        const bool clicked = ImGui::SmallButton(label);
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tip);
        ImGui::SameLine();
        return clicked;
    };
    if (button("|\u25c2", t.to_start)) seek(state, 0);
    if (button("\u25c2\u25c2", t.back_instruction)) step_instruction(state, -1);
    if (button("\u25c2", t.back_event)) step_event(state, -1);
    if (button("\u25b8", t.forward_event)) step_event(state, +1);
    if (button("\u25b8\u25b8", t.forward_instruction)) step_instruction(state, +1);
    if (button("\u25b8|", t.to_end)) seek(state, built().size());
    if (state.playhead.on(serial_)) {
        if (button((std::string(t.stop) + "##stop").c_str(), t.hide)) state.playhead.active = false;
    }

    const uint32_t e = playback_.current_event();
    if (!state.playhead.on(serial_)) {
        // The long hint where it fits, else the keys alone (presenter mode at 1280x720): never cut.
        const std::string block = std::to_string(block_);
        const std::string hint = fill(t.idle, {block});
        const bool fits = ImGui::CalcTextSize(hint.c_str()).x <= ImGui::GetContentRegionAvail().x;
        ImGui::TextDisabled("%s", fits ? hint.c_str() : fill(t.idle_short, {block}).c_str());
    } else if (e == UINT32_MAX) {
        ImGui::TextDisabled(
            "%s",
            fill(t.before, {std::to_string(playback_.block()), std::to_string(playback_.size())}).c_str());
    } else {
        const trace::Event& ev = trace_->events[e];
        const trace::ThreadInfo& info = trace_->threads[ev.thread];
        const uint32_t line = trace_->source_line(ev);
        const size_t lanes = state.playhead.events.size();
        const std::string text =
            fill(t.at, {std::to_string(playback_.cursor()), std::to_string(playback_.size()),
                        std::to_string(info.block), std::to_string(unsigned(info.warp)),
                        lanes > 1 ? fill(t.lanes, {std::to_string(lanes)}) : std::string(),
                        event_kind_words(ev.kind, shown_language(state)),
                        line ? fill(t.line, {std::to_string(line)}) : std::string()});
        ImGui::TextUnformatted(text.c_str());
    }
    ImGui::PopID();
    if (moved_ || follow_again_) follow(state, camera);
    // A finding focused in the same frame zooms the camera after this (App::handle_requests): follow
    // the playhead once more next frame, into that zoom.
    follow_again_ = moved_ && state.requests.focus_finding >= 0;
}

} // namespace synclab::ui
