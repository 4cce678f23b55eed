// The source view: the kernel's CUDA source with line numbers, and optionally its PTX beside it.
// Lines of the selected finding get a strong background in the finding's colour, every line named by
// any finding of the run gets a gutter mark, and the line (and PTX instruction) of the event under the
// timeline's mouse is highlighted; the lines of an output explained in the output grid get a cyan
// bar. Clicking a marked line selects its finding.
#pragma once

#include "ui/core/app_state.h"
#include "ui/model/source_lines.h"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <imgui.h>

struct ImFont;

namespace synclab::ui {

class SourceView {
  public:
    // Draws into the current window.
    void draw(AppState& state);
    // The font for code; nullptr (the default) draws code in the current font. The App owns the font
    // (fonts.cpp loads a monospace one where available).
    void set_mono_font(ImFont* font) { mono_font_ = font; }
    // Last frame's CUDA column, screen pixels (x0, y0, x1, y1): its visible part (without scrollbar)
    // and the box of its widest drawn row (presenter mode shrinks and wraps so that it fits).
    ImVec4 cuda_visible() const { return cuda_visible_; }
    ImVec4 cuda_code() const { return cuda_code_; }

  private:
    // A text split into display lines, kept while the same text is shown (splitting a PTX file every
    // frame would cost more than drawing the visible part of it).
    struct Lines {
        const char* data = nullptr;
        size_t size = 0;
        uint64_t serial = 0;
        std::vector<std::string> lines; // tabs expanded
        size_t code_columns = 0;        // the longest line that is not only a comment
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
        uint32_t playhead_line = 0;       // the line of the playhead's current instruction
        std::vector<uint32_t> provenance; // the lines of the explained output
        bool operator==(const ScrollKey&) const = default;
    };

    // One drawn row: a whole line, or (presenter mode, a line too wide for the column) a piece of one
    // cut at a space, drawn `indent` columns further in. Rows are in line order.
    struct Row {
        uint32_t line = 0; // 1-based
        size_t begin = 0, length = 0;
        size_t indent = 0;
    };
    static std::vector<Row> layout_rows(const Lines& text, size_t wrap_at);
    static size_t first_row_of(const std::vector<Row>& rows, uint32_t line);

    void update_scroll(const AppState& state, const SourceChoice& choice, const SourceMarks& marks);
    void draw_header(AppState& state, const SourceChoice& choice);
    void draw_column(const char* id, const Lines& text, const LineMarks& marks, PendingScroll& scroll,
                     AppState& state, float width);

    ImFont* mono_font_ = nullptr;
    ImVec4 cuda_visible_{}, cuda_code_{};
    Lines cuda_, ptx_;
    PendingScroll cuda_scroll_, ptx_scroll_;
    ScrollKey seen_;
};

} // namespace synclab::ui
