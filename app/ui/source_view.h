// The source view: the kernel's CUDA source with line numbers, and optionally its PTX beside it.
// Lines of the selected finding get a strong background in the finding's colour, every line named by
// any finding of the run gets a gutter mark, and the line (and PTX instruction) of the event under the
// timeline's mouse is highlighted. Clicking a marked line selects its finding.
#pragma once

#include "ui/app_state.h"
#include "ui/source_lines.h"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

struct ImFont;

namespace synclab::ui {

class SourceView {
  public:
    // Draws into the current window.
    void draw(AppState& state);
    // The font for code; nullptr (the default) draws code in the current font. The App owns the font
    // (fonts.cpp loads a monospace one where available).
    void set_mono_font(ImFont* font) { mono_font_ = font; }

  private:
    // A text split into display lines, kept while the same text is shown (splitting a PTX file every
    // frame would cost more than drawing the visible part of it).
    struct Lines {
        const char* data = nullptr;
        size_t size = 0;
        uint64_t serial = 0;
        std::vector<std::string> lines; // tabs expanded
        void refresh(std::string_view text, uint64_t record_serial);
    };
    // A line one column should bring into view. Whether to scroll is decided once (not when the line
    // is in view already); the scroll is then applied for a few frames, because a child window that
    // has just appeared does not know its scroll range yet and clamps the first attempt.
    struct PendingScroll {
        uint32_t line = 0;
        int frames_left = 0;
        bool decided = false;
        float target_y = 0;
        void request(uint32_t target) {
            line = target;
            frames_left = target != 0 ? 3 : 0;
            decided = false;
        }
    };
    // What the view last scrolled for; a change of any part scrolls again.
    struct ScrollKey {
        uint64_t serial = 0;
        int finding = -1;
        std::vector<uint32_t> lines;
        const scenario::Variant* variant = nullptr;
        bool show_ptx = false;
        uint32_t playhead_line = 0; // the line of the playhead's current instruction
        bool operator==(const ScrollKey&) const = default;
    };

    void update_scroll(const AppState& state, const SourceChoice& choice, const SourceMarks& marks);
    void draw_header(AppState& state, const SourceChoice& choice);
    void draw_column(const char* id, const Lines& text, const LineMarks& marks, PendingScroll& scroll,
                     AppState& state, float width);

    ImFont* mono_font_ = nullptr;
    Lines cuda_, ptx_;
    PendingScroll cuda_scroll_, ptx_scroll_;
    ScrollKey seen_;
};

} // namespace synclab::ui
