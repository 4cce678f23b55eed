// Small ImGui widgets shared by the panels (browser, lesson, run controls, source, findings): the
// "about this view" button, coloured text, glyph fallbacks. Header-only and ImGui-only (no GL).
#pragma once

#include <imgui.h>
#include <imgui_internal.h> // ImTextCharFromUtf8

#include <algorithm>
#include <cfloat>
#include <cstdint>
#include <cstring>

namespace synclab::ui::widgets {

inline ImVec4 to_vec4(uint32_t rgba) {
    return ImGui::ColorConvertU32ToFloat4(rgba);
}

// Text in a theme colour.
inline void coloured_text(uint32_t rgba, const char* text) {
    ImGui::PushStyleColor(ImGuiCol_Text, rgba);
    ImGui::TextUnformatted(text);
    ImGui::PopStyleColor();
}

// Wrapped text in a theme colour.
inline void wrapped(const char* text);
inline void coloured_text_wrapped(uint32_t rgba, const char* text) {
    ImGui::PushStyleColor(ImGuiCol_Text, rgba);
    wrapped(text);
    ImGui::PopStyleColor();
}

// Chinese and Japanese text has no spaces: a line may break between any two of its characters,
// except before closing punctuation. ImGui 1.86 breaks only at spaces, which leaves ragged lines
// ("六个 kernel" alone, then a block of Chinese), so such text is broken into lines here.
inline bool is_cjk(unsigned c) {
    return (c >= 0x2E80 && c <= 0x9FFF) || (c >= 0xF900 && c <= 0xFAFF) || (c >= 0xFF00 && c <= 0xFFEF);
}
inline bool no_break_before(unsigned c) {
    switch (c) {
    case 0x3001:
    case 0x3002:
    case 0xFF0C:
    case 0xFF1A:
    case 0xFF1B:
    case 0xFF01:
    case 0xFF1F:
    case 0xFF09:
    case 0x300D:
    case 0x300F:
    case 0x201D:
    case 0x2019:
        return true;
    default:
        return false;
    }
}

// Where the first line of `text` ends when it may be `width` wide: at the last space that fits, or
// (Chinese) between any two characters, before a character that may not start a line; at least one
// character.
inline const char* first_line_end(const char* text, const char* end, float width) {
    ImFont* font = ImGui::GetFont();
    const float scale = ImGui::GetFontSize() / font->FontSize;
    float x = 0;
    const char* last_break = nullptr;
    unsigned prev = 0;
    for (const char* p = text; p < end;) {
        unsigned c = 0;
        const int n = std::max(1, ImTextCharFromUtf8(&c, p, end));
        if (c == '\n') return p;
        if (p > text && (prev == ' ' || ((is_cjk(c) || is_cjk(prev)) && !no_break_before(c)))) last_break = p;
        x += font->GetCharAdvance(static_cast<ImWchar>(c)) * scale;
        if (x > width) return last_break ? last_break : p > text ? p : p + n;
        prev = c;
        p += n;
    }
    return end;
}

// `text` on one line `width` wide: whole where it fits, else its first line (first_line_end: never
// cut inside a word or an identifier) and an ellipsis.
inline void one_line(const char* text, float width) {
    const char* end = text + std::strlen(text);
    if (ImGui::CalcTextSize(text, end).x <= width) {
        ImGui::TextUnformatted(text, end);
        return;
    }
    const char* ellipsis = ImGui::GetFont()->FindGlyphNoFallback(0x2026) != nullptr ? "\u2026" : "...";
    const char* cut = first_line_end(text, end, std::max(0.0f, width - ImGui::CalcTextSize(ellipsis).x));
    while (cut > text && cut[-1] == ' ')
        --cut;
    ImGui::TextUnformatted(text, cut);
    ImGui::SameLine(0, 0);
    ImGui::TextUnformatted(ellipsis);
}

inline void wrapped(const char* text) {
    const char* end = text + std::strlen(text);
    bool any_cjk = false;
    for (const char* p = text; p < end && !any_cjk; ++p)
        any_cjk = static_cast<unsigned char>(*p) >= 0xE2;
    if (!any_cjk) {
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextUnformatted(text, end);
        ImGui::PopTextWrapPos();
        return;
    }
    ImFont* font = ImGui::GetFont();
    const float size = ImGui::GetFontSize();
    const float scale = size / font->FontSize;
    const float max_width = std::max(ImGui::GetContentRegionAvail().x, size * 4.0f);
    const char* line = text;
    const char* last_break = nullptr;
    float width = 0.0f;
    unsigned prev = 0;
    for (const char* p = text; p < end;) {
        unsigned c = 0;
        const int n = std::max(1, ImTextCharFromUtf8(&c, p, end));
        if (c == '\n') {
            ImGui::TextUnformatted(line, p);
            line = p + n;
            p += n;
            last_break = nullptr;
            width = 0.0f;
            prev = 0;
            continue;
        }
        if (p > line && (prev == ' ' || ((is_cjk(c) || is_cjk(prev)) && !no_break_before(c)))) last_break = p;
        const float advance = font->GetCharAdvance(static_cast<ImWchar>(c)) * scale;
        if (width + advance > max_width && last_break && last_break > line) {
            ImGui::TextUnformatted(line, last_break);
            line = last_break;
            while (line < end && *line == ' ')
                ++line;
            last_break = nullptr;
            width = font->CalcTextSizeA(size, FLT_MAX, 0.0f, line, p).x;
        }
        width += advance;
        prev = c;
        p += n;
    }
    if (line < end) ImGui::TextUnformatted(line, end);
}

// Wrapped text in the disabled (secondary) text colour: hints, labels of what ran, expectations.
inline void disabled_wrapped(const char* text) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetColorU32(ImGuiCol_TextDisabled));
    wrapped(text);
    ImGui::PopStyleColor();
}

// A tooltip of wrapped text for the last item; tooltips must be readable at presenter font sizes,
// so the wrap width is in font sizes, not pixels.
inline void tooltip(const char* text, ImGuiHoveredFlags flags = 0) {
    if (text == nullptr || *text == '\0' || !ImGui::IsItemHovered(flags)) return;
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 32.0f);
    ImGui::TextUnformatted(text);
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
}

// `utf8` when the current font has `codepoint`, else `fallback` (the default ImGui font covers Latin-1
// only, and a missing glyph would show as '?').
inline const char* glyph_or(ImWchar codepoint, const char* utf8, const char* fallback) {
    return ImGui::GetFont()->FindGlyphNoFallback(codepoint) != nullptr ? utf8 : fallback;
}

// SameLine() when an item `width` wide still fits right of the last item, else nothing (the next item
// starts a new line): rows of buttons wrap in narrow panels and at presenter font sizes instead of
// running off the edge, where they could be neither seen nor clicked.
inline void same_line_if_fits(float width) {
    // (the content region's right edge: a table column's inside a table)
    const float right = ImGui::GetWindowPos().x + ImGui::GetContentRegionMax().x;
    if (ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + width <= right) ImGui::SameLine();
}

// The width of a button with this label.
inline float button_width(const char* label) {
    return ImGui::CalcTextSize(label, nullptr, true).x + ImGui::GetStyle().FramePadding.x * 2.0f;
}

// The "about this view" help: a "?" button at the right end of the current line (or of the next one
// when the line is full). Hovering shows the text; clicking (or activating it from the keyboard)
// opens it as a popup that stays until dismissed.
inline void about_button(const char* text) {
    const float width = button_width("?");
    const float local_x = ImGui::GetContentRegionMax().x - width; // (a table column's end inside a table)
    if (ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x <= ImGui::GetWindowPos().x + local_x)
        ImGui::SameLine(local_x);
    else
        ImGui::SetCursorPosX(local_x);
    if (ImGui::SmallButton("?##about")) ImGui::OpenPopup("##about_popup");
    if (!ImGui::IsPopupOpen("##about_popup")) tooltip(text);
    if (ImGui::BeginPopup("##about_popup")) {
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 32.0f);
        ImGui::TextUnformatted(text);
        ImGui::PopTextWrapPos();
        ImGui::EndPopup();
    }
}

// A heading: a label in the accent colour followed by a separator-free gap; headings stay as large as
// the body text (the App scales the font in presenter mode) and stand out by colour instead.
inline void heading(const char* text, uint32_t rgba) {
    ImGui::Spacing();
    coloured_text(rgba, text);
}

} // namespace synclab::ui::widgets
