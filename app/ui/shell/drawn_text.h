// The text a frame drew, read back from ImGui's draw data: every glyph quad whose texture
// coordinates are a glyph of the font atlas, joined into runs (one run per piece of text on one
// line; a gap of a space's width or more inside a run is written as one space). It sees every text,
// whoever drew it (ImGui widgets, window titles, menus, tooltips, draw lists' AddText), which is the
// point: the GUI test that checks "no English left in Chinese" reads this from the --layout file.
// Glyphs cut by a clip rectangle have other texture coordinates and are left out.
#pragma once

#include <string>
#include <vector>

struct ImDrawData;
struct ImFontAtlas;

namespace synclab::ui {

struct DrawnText {
    std::string text;   // UTF-8
    float x = 0, y = 0; // top-left of the first glyph's line, in window pixels
};

std::vector<DrawnText> drawn_text(const ImDrawData& data, const ImFontAtlas& atlas);

} // namespace synclab::ui
