#include "ui/help_overlay.h"

#include "ui/source_lines.h"
#include "ui/ui_text.h"

#include <algorithm>
#include <array>
#include <iterator>

namespace synclab::ui {

namespace {
// The key column stays as the keys are labelled, but for "Space" and "F1 or H", which are words.
constexpr KeyHelp kKeys[] = {
    {"Space", "run the selected variant (both, in compare mode)"},
    {"\u2190 / \u2192", "previous / next scenario (presenter mode)"},
    {"\u2191 / \u2193", "previous / next variant (presenter mode)"},
    {"Tab", "lesson \u2192 source \u2192 timeline (presenter mode)"},
    {"] / [", "next / previous finding: its lines, its events, what happened"},
    {"PgDn / PgUp", "the same in presenter mode (a clicker's keys); before a run: scroll"},
    {"C", "compare: the correct variant beside the selected one"},
    {"P", "presenter mode: large text, high contrast, keyboard only"},
    {"F", "fullscreen on / off (over a timeline: fit the whole run)"},
    {"F1 or H", "this help"},
    {"Esc", "close this help; leave presenter mode"},
};

std::array<KeyHelp, std::size(kKeys)> keys_in(Language language) {
    const HelpText& t = ui_text(language).help;
    const Text* what[] = {&t.space,   &t.scenario,  &t.variant,    &t.tab,  &t.finding, &t.pgdn,
                          &t.compare, &t.presenter, &t.fullscreen, &t.help, &t.esc};
    static_assert(std::size(what) == std::size(kKeys));
    std::array<KeyHelp, std::size(kKeys)> out{};
    for (size_t i = 0; i < out.size(); ++i)
        out[i] = {kKeys[i].keys, what[i]->s};
    out[0].keys = t.space_keys;
    out[9].keys = t.f1_or_h;
    return out;
}
} // namespace

const KeyHelp* key_help(int& count) {
    count = int(std::size(kKeys));
    return kKeys;
}

void HelpOverlay::draw(AppState& state, ImFont* heading) {
    if (!state.show_help) return;
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(
        ImVec2(vp->WorkPos.x + vp->WorkSize.x * 0.5f, vp->WorkPos.y + vp->WorkSize.y * 0.5f),
        ImGuiCond_Always, ImVec2(0.5f, 0.5f));
    // Translucent enough to keep the app in view behind it, opaque enough that text behind it does
    // not bleed through the key names.
    ImGui::SetNextWindowBgAlpha(0.94f);
    ImGui::SetNextWindowFocus();
    const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoMove |
                                   ImGuiWindowFlags_NoNav;
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding,
                        ImVec2(ImGui::GetFontSize() * 1.5f, ImGui::GetFontSize()));
    ImGui::PushStyleVar(ImGuiStyleVar_WindowRounding, ImGui::GetFontSize() * 0.5f);
    ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, std::max(1.0f, ImGui::GetFontSize() * 0.08f));
    if (ImGui::Begin("##synclab_help", nullptr, flags)) {
        if (heading) ImGui::PushFont(heading);
        const HelpText& t = ui_text(shown_language(state)).help;
        ImGui::TextUnformatted(t.title);
        if (heading) ImGui::PopFont();
        ImGui::Separator();
        const auto keys = keys_in(shown_language(state));
        const int count = int(keys.size());
        float key_width = 0;
        for (int i = 0; i < count; ++i)
            key_width = std::max(key_width, ImGui::CalcTextSize(keys[i].keys).x);
        const ImVec4 key_colour(1.0f, 0.85f, 0.35f, 1.0f);
        for (int i = 0; i < count; ++i) {
            ImGui::TextColored(key_colour, "%s", keys[i].keys);
            ImGui::SameLine(key_width + ImGui::GetFontSize() * 2.5f);
            ImGui::TextUnformatted(keys[i].what);
        }
        ImGui::Spacing();
        ImGui::TextDisabled("%s", t.closes.s);
        if (ImGui::IsWindowHovered() && ImGui::IsMouseClicked(ImGuiMouseButton_Left)) state.show_help = false;
    }
    ImGui::End();
    ImGui::PopStyleVar(3);
}

} // namespace synclab::ui
