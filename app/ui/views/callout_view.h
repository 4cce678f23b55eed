// The presenter's callout: one large line over the source and the timeline that says in words what the
// selected finding is about ("thread 31 read s_tile[32] before thread 32 wrote it: nothing orders the
// two (lines 45 and 47)"), so that the room hears the same sentence the screen shows.
//
// callout_text() is pure (findings, trace, CUDA source; no ImGui) and unit-tested; CalloutView draws it.
#pragma once

#include "analysis/findings.h"
#include "ui/core/app_state.h"

#include <string>
#include <string_view>

struct ImFont;

namespace synclab::ui {

// The memory a finding is about as the kernel's source names it, "s_tile[159]": from the trace's
// memory map (analysis::memory_name, in `language`). A trace without a map (a file saved before
// traces had one) is named from the kernel's source where that is sure: when the kernel function
// that holds the finding's first line declares exactly one __shared__ array, of a 4-byte element
// type, that the line mentions (static shared memory then starts with it at 0). Otherwise the
// address in words: "__shared__ address 0x27c" / "global address 0x1000".
std::string memory_name(const analysis::Finding& finding, const trace::Trace& trace,
                        std::string_view cuda_source, Language language = Language::En);

// The callout's sentence for one finding (no counts: the findings list has them), built from the
// finding's fields in `language` (the analysis library writes its texts in English only).
std::string callout_text(const analysis::Finding& finding, const trace::Trace& trace,
                         std::string_view cuda_source, Language language = Language::En);

// The findings panel's message of a finding: in English the analysis's own (finding.message); in
// Chinese callout_text() and the counts.
std::string finding_message(const analysis::Finding& finding, const trace::Trace& trace,
                            std::string_view cuda_source, Language language);

class CalloutView {
  public:
    // Draws into the current window, wrapped at its width, in `font` (nullptr: the current font).
    // Without a selected finding it says which key brings the first one.
    void draw(const AppState& state, ImFont* font);
    // The height draw() needs at `width` in `font` (for the layout to reserve before drawing).
    float height(const AppState& state, ImFont* font, float width) const;

  private:
    std::string text_of(const AppState& state, bool& have_finding, uint32_t& colour) const;
};

} // namespace synclab::ui
