// The app's fonts: DejaVu Sans for the interface, DejaVu Sans Mono for code, a larger DejaVu Sans for
// headings, each with a Chinese font merged in when one is installed (so the lessons read in 简体中文).
//
// Sizes are built into the atlas at the size they are shown (content scale x presenter factor),
// because ImGui's FontGlobalScale only stretches the bitmaps: on a projector that is blur. Changing
// the size rebuilds the atlas and the GL texture, between frames (see rebuild()).
#pragma once

#include <imgui.h>

#include <string>
#include <vector>

namespace synclab::ui {

struct FontReport {
    bool cjk = false;     // a Chinese font was found and merged
    std::string cjk_file; // which one
    std::string cjk_hint; // when none: what to install
    std::string note;     // anything that fell back (e.g. DejaVu missing: ImGui's default font)
};

class Fonts {
  public:
    // Builds the atlas for `scale` (pixels per 1.0 of the 16 px base size). Call before the first
    // frame (the backend creates the texture on its first NewFrame) or through rebuild().
    FontReport build(float scale);

    // Rebuilds at a new scale and recreates the backend's font texture. Only between frames (after
    // present(), before the next begin_frame()).
    FontReport rebuild(float scale);

    ImFont* ui() const { return ui_; }
    ImFont* mono() const { return mono_; }
    ImFont* heading() const { return heading_; }
    float scale() const { return scale_; }

    static constexpr float kUiSize = 16.0f;
    static constexpr float kMonoSize = 15.0f;
    static constexpr float kHeadingSize = 23.0f;

  private:
    ImFont* ui_ = nullptr;
    ImFont* mono_ = nullptr;
    ImFont* heading_ = nullptr;
    float scale_ = 1.0f;
    // Glyph ranges must outlive the atlas build (ImGui keeps the pointers until Build()).
    ImVector<ImWchar> latin_ranges_;
    ImVector<ImWchar> cjk_ranges_;
    ImVector<ImWchar> cjk_heading_ranges_;
};

// The first installed Chinese font (path and face index in a .ttc), or an empty path.
struct CjkFontFile {
    std::string path;
    int index = 0;
};
CjkFontFile find_cjk_font();

// The Chinese words of the UI itself: every string of ui_text(Language::Zh) and the Chinese words the
// views build (kind names, explanations, schedules, event kinds, badges, topics). The CJK font holds
// their characters beside ImGui's common set and the lessons' (words_test.cpp checks with it).
std::vector<std::string> chinese_ui_words();

} // namespace synclab::ui
