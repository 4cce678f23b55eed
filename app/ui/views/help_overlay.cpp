#include "ui/views/help_overlay.h"

#include "ui/model/source_lines.h"
#include "ui/model/ui_text.h"

#include <algorithm>
#include <array>
#include <iterator>

namespace synclab::ui {

namespace {
// The keys as they are labelled; what they do and the two key names that are words ("Space",
// "F1 or H") come from ui_text.h.
constexpr const char* kKeyNames[] = {"Space",
                                     "\u2190 / \u2192",
                                     "\u2191 / \u2193",
                                     "Tab",
                                     "] / [",
                                     "PgDn / PgUp",
                                     ". / ,",
                                     "> / <",
                                     "Home / End",
                                     "C",
                                     "P",
                                     "F",
                                     "F1 or H",
                                     "Esc"};
constexpr size_t kKeyCount = std::size(kKeyNames);

std::array<KeyHelp, kKeyCount> keys_in(Language language) {
    const HelpText& t = ui_text(language).help;
    const Text* what[] = {&t.space,     &t.scenario, &t.variant,    &t.tab,
                          &t.finding,   &t.pgdn,     &t.step_event, &t.step_instruction,
                          &t.step_ends, &t.compare,  &t.presenter,  &t.fullscreen,
                          &t.help,      &t.esc};
    static_assert(std::size(what) == kKeyCount);
    std::array<KeyHelp, kKeyCount> out{};
    for (size_t i = 0; i < out.size(); ++i)
        out[i] = {kKeyNames[i], what[i]->s};
    out[0].keys = t.space_keys;
    out[12].keys = t.f1_or_h; // kKeyNames' "F1 or H"
    return out;
}
} // namespace

const KeyHelp* key_help(int& count) {
    static const std::array<KeyHelp, kKeyCount> keys = keys_in(Language::En);
    count = int(keys.size());
    return keys.data();
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
