#include "ui/shell/drawn_text.h"

#include <imgui.h>

#include <cmath>
#include <map>
#include <utility>

namespace synclab::ui {
namespace {

struct GlyphRef {
    const ImFontGlyph* glyph = nullptr;
    const ImFont* font = nullptr;
};

void append_utf8(std::string& out, unsigned c) {
    if (c < 0x80) {
        out += char(c);
    } else if (c < 0x800) {
        out += char(0xC0 | (c >> 6));
        out += char(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
        out += char(0xE0 | (c >> 12));
        out += char(0x80 | ((c >> 6) & 0x3F));
        out += char(0x80 | (c & 0x3F));
    } else {
        out += char(0xF0 | (c >> 18));
        out += char(0x80 | ((c >> 12) & 0x3F));
        out += char(0x80 | ((c >> 6) & 0x3F));
        out += char(0x80 | (c & 0x3F));
    }
}

} // namespace

std::vector<DrawnText> drawn_text(const ImDrawData& data, const ImFontAtlas& atlas) {
    // A glyph is known by the texture coordinates of its top-left corner (ImFont::RenderText copies
    // them unchanged into the quad's first vertex unless the glyph is clipped).
    std::map<std::pair<float, float>, GlyphRef> glyphs;
    for (const ImFont* font : atlas.Fonts)
        for (const ImFontGlyph& g : font->Glyphs)
            if (g.Visible) glyphs.emplace(std::make_pair(g.U0, g.V0), GlyphRef{&g, font});

    std::vector<DrawnText> out;
    for (int l = 0; l < data.CmdListsCount; ++l) {
        const ImDrawList& list = *data.CmdLists[l];
        bool open = false;  // a run is being built
        float line_top = 0; // of the open run
        float pen_next = 0; // where the next glyph of the open run would start
        float em = 0;       // font size of the open run
        auto close = [&] { open = false; };
        for (const ImDrawCmd& cmd : list.CmdBuffer) {
            if (cmd.UserCallback != nullptr) continue;
            const ImDrawIdx* idx = list.IdxBuffer.Data + cmd.IdxOffset;
            for (unsigned p = 0; p + 6 <= cmd.ElemCount;) {
                const unsigned a = idx[p];
                // ImDrawList::PrimRectUV: vertices TL, TR, BR, BL; triangles (a,a+1,a+2) (a,a+2,a+3).
                const bool quad = idx[p + 1] == a + 1 && idx[p + 2] == a + 2 && idx[p + 3] == a &&
                                  idx[p + 4] == a + 2 && idx[p + 5] == a + 3;
                if (!quad) {
                    close();
                    p += 3;
                    continue;
                }
                p += 6;
                const ImDrawVert* v = list.VtxBuffer.Data + cmd.VtxOffset + a;
                const auto found = glyphs.find({v[0].uv.x, v[0].uv.y});
                if (found == glyphs.end() || found->second.glyph->U1 != v[2].uv.x ||
                    found->second.glyph->V1 != v[2].uv.y) {
                    close();
                    continue;
                }
                const ImFontGlyph& g = *found->second.glyph;
                const float glyph_h = g.Y1 - g.Y0;
                const float quad_h = v[2].pos.y - v[0].pos.y;
                const float scale = glyph_h > 0 && quad_h > 0
                                        ? quad_h / glyph_h
                                        : (em > 0 ? em / found->second.font->FontSize : 1.0f);
                const float size = found->second.font->FontSize * scale;
                const float pen = v[0].pos.x - g.X0 * scale;
                const float top = v[0].pos.y - g.Y0 * scale;
                const bool same_line =
                    open && std::fabs(top - line_top) < 1.0f && std::fabs(size - em) < 0.5f;
                const float gap = pen - pen_next;
                if (!same_line || gap < -1.0f || gap > 2.0f * size) {
                    out.push_back({"", pen, top});
                } else if (gap > 0.15f * size) {
                    out.back().text += ' ';
                }
                append_utf8(out.back().text, g.Codepoint);
                open = true;
                line_top = top;
                em = size;
                pen_next = pen + g.AdvanceX * scale;
            }
        }
    }
    return out;
}

} // namespace synclab::ui
