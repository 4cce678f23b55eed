// Index:
//   [SECTION] Finding font files
//   [SECTION] Glyph ranges
//   [SECTION] Building the atlas
#include "ui/shell/fonts.h"

#include "ui/model/lesson_library.h"

#include "scenario/scenario.h"
#include "ui/model/outcome_words.h"
#include "ui/model/source_lines.h"
#include "ui/model/ui_text.h"

#include <imgui_impl_opengl3.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>
#include <vector>

namespace synclab::ui {
namespace {

// [SECTION] Finding font files

const char* kDejaVuSans = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
const char* kDejaVuMono = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf";

bool readable(const std::string& path) {
    return !path.empty() && access(path.c_str(), R_OK) == 0;
}

// fontconfig's own answer, when fc-list is installed: "file|index" per font that covers Chinese.
std::vector<CjkFontFile> fontconfig_cjk_fonts() {
    std::vector<CjkFontFile> out;
    FILE* pipe = popen("fc-list -f '%{file}|%{index}\\n' :lang=zh 2>/dev/null", "r");
    if (!pipe) return out;
    std::array<char, 1024> line{};
    while (fgets(line.data(), int(line.size()), pipe)) {
        std::string text(line.data());
        while (!text.empty() && (text.back() == '\n' || text.back() == '\r'))
            text.pop_back();
        const size_t bar = text.rfind('|');
        if (bar == std::string::npos) continue;
        CjkFontFile f{text.substr(0, bar), std::atoi(text.c_str() + bar + 1)};
        // stb_truetype reads TrueType and OpenType (CFF) outlines but not bitmap-only or Type 1 fonts.
        const std::string ext = f.path.size() > 4 ? f.path.substr(f.path.size() - 4) : "";
        if (ext == ".ttf" || ext == ".ttc" || ext == ".otf" || ext == ".otc") out.push_back(f);
    }
    pclose(pipe);
    return out;
}

} // namespace

CjkFontFile find_cjk_font() {
    // SYNCLAB_CJK_FONT overrides the search: a font file, or "none" to run as if none were installed
    // (how the GUI tests check the English-only fallback).
    if (const char* forced = std::getenv("SYNCLAB_CJK_FONT")) {
        const std::string path = forced;
        if (path == "none" || path.empty()) return {};
        return readable(path) ? CjkFontFile{path, 0} : CjkFontFile{};
    }
    // Known good faces first (Simplified Chinese shapes; index 2 of Noto's collection is SC), then
    // whatever fontconfig knows.
    const std::array<CjkFontFile, 6> known = {{
        {"/usr/share/fonts/truetype/wqy/wqy-microhei.ttc", 0},
        {"/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc", 2},
        {"/usr/share/fonts/opentype/noto/NotoSansCJKsc-Regular.otf", 0},
        {"/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc", 0},
        {"/usr/share/fonts/truetype/arphic/uming.ttc", 0},
        {"/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf", 0},
    }};
    for (const CjkFontFile& f : known)
        if (readable(f.path)) return f;
    for (const CjkFontFile& f : fontconfig_cjk_fonts())
        if (readable(f.path)) return f;
    return {};
}

namespace {

// [SECTION] Glyph ranges

// Latin text plus the symbols the views use: dashes, ellipsis and quotes (General Punctuation),
// arrows (keys in the help), ≤ ≥ × (Mathematical Operators), boxes and triangles (Geometric Shapes),
// ✓ ✗ (Dingbats). Glyphs a font lacks are simply not added.
const ImWchar kLatinRanges[] = {
    0x0020, 0x00FF, 0x0100, 0x017F, 0x2000, 0x206F, 0x2190, 0x21FF, 0x2200,
    0x22FF, 0x2500, 0x25FF, 0x2600, 0x26FF, 0x2700, 0x27BF, 0,
};

// CJK punctuation (、。「」…) and full-width forms (，：！？（）) used by the lesson texts.
const ImWchar kCjkPunctuation[] = {0x3000, 0x303F, 0xFF00, 0xFFEF, 0};

void add_lesson_text(ImFontGlyphRangesBuilder& b, const scenario::LessonText& t, bool titles_only) {
    b.AddText(t.title.c_str());
    if (titles_only) return;
    for (const std::string* s : {&t.shows, &t.predict, &t.look_at, &t.fix})
        b.AddText(s->c_str());
}

// Every character of the Chinese lesson texts, so that no lesson ever shows a missing glyph, even
// outside ImGui's list of common characters.
void add_catalog_chinese(ImFontGlyphRangesBuilder& b, bool titles_only) {
    for (const scenario::Scenario* s : lessons().all()) {
        add_lesson_text(b, s->zh, titles_only);
        for (const scenario::OutcomeClass& c : s->outcomes.classes)
            b.AddText(c.label_zh.c_str()); // the outcomes view's "meaning" column
        for (const scenario::Variant& v : s->variants)
            add_lesson_text(b, v.zh, titles_only);
    }
}

} // namespace

std::vector<std::string> chinese_ui_words() {
    const Language zh = Language::Zh;
    std::vector<std::string> out;
    for (const char* text : all_texts(zh))
        out.emplace_back(text);
    for (analysis::FindingKind kind : scenario::all_finding_kinds()) {
        out.push_back(kind_words(kind, zh));
        out.emplace_back(kind_explanation(kind, zh));
    }
    for (analysis::Hazard h : {analysis::Hazard::RAW, analysis::Hazard::WAR, analysis::Hazard::WAW})
        out.emplace_back(hazard_explanation(h, zh));
    for (sim::Schedule s : {sim::Schedule::RoundRobin, sim::Schedule::Random, sim::Schedule::Adversarial,
                            sim::Schedule::Exhaustive}) {
        out.emplace_back(schedule_label(s, zh));
        out.emplace_back(schedule_explanation(s, zh));
        out.emplace_back(schedule_words(s, zh));
    }
    for (int k = 1; k < trace::kEventKindCount; ++k)
        out.emplace_back(event_kind_words(trace::EventKind(k), zh));
    for (int e = 0; e <= int(trace::ThreadEnd::NotStarted); ++e)
        out.emplace_back(thread_end_words(trace::ThreadEnd(e), zh));
    for (trace::Space space :
         {trace::Space::Shared, trace::Space::Global, trace::Space::Local, trace::Space::Other})
        out.emplace_back(space_words(space, zh));
    for (std::string& word : vocabulary_words(zh))
        out.push_back(std::move(word));
    out.push_back(badge_text(Badge{}, zh));
    for (const char* topic : {"barriers", "warps", "fences", "atomics"})
        out.push_back(topic_label(topic, zh));
    for (const char* reason : {"no NVIDIA driver found", "no CUDA device", "checking for a GPU",
                               "the GPU runner is not built yet", "the GPU check failed"})
        out.push_back(gpu_reason_words(reason, zh));
    for (trace::Space space : {trace::Space::Shared, trace::Space::Global, trace::Space::Local}) {
        analysis::Finding f;
        f.space = space;
        out.push_back(space_text(f, zh));
    }
    return out;
}

// [SECTION] Building the atlas

FontReport Fonts::build(float scale) {
    scale_ = scale;
    FontReport report;
    ImGuiIO& io = ImGui::GetIO();
    ImFontAtlas& atlas = *io.Fonts;
    atlas.Clear();
    ui_ = mono_ = heading_ = nullptr;

    const CjkFontFile cjk = find_cjk_font();
    report.cjk = !cjk.path.empty();
    report.cjk_file = cjk.path;
    // Said in English only: without a CJK font the words 简体中文 would show as "????".
    if (!report.cjk)
        report.cjk_hint =
            "Install fonts-wqy-microhei (or fonts-noto-cjk) to read the lessons in Simplified Chinese";

    {
        ImFontGlyphRangesBuilder b;
        b.AddRanges(kLatinRanges);
        latin_ranges_.clear();
        b.BuildRanges(&latin_ranges_);
    }
    if (report.cjk) {
        ImFontGlyphRangesBuilder b;
        b.AddRanges(atlas.GetGlyphRangesChineseSimplifiedCommon());
        b.AddRanges(kCjkPunctuation);
        add_catalog_chinese(b, false);
        for (const std::string& words : chinese_ui_words())
            b.AddText(words.c_str());
        cjk_ranges_.clear();
        b.BuildRanges(&cjk_ranges_);
        ImFontGlyphRangesBuilder h; // headings: titles and UI words, hundreds of glyphs, not thousands
        h.AddRanges(kCjkPunctuation);
        add_catalog_chinese(h, true);
        for (const std::string& words : chinese_ui_words()) // the key help's title, the callout
            h.AddText(words.c_str());
        cjk_heading_ranges_.clear();
        h.BuildRanges(&cjk_heading_ranges_);
    }

    const bool have_sans = readable(kDejaVuSans);
    const bool have_mono = readable(kDejaVuMono);
    if (!have_sans || !have_mono)
        report.note = "DejaVu fonts not found (install fonts-dejavu-core); using ImGui's built-in font";

    auto add = [&](const char* file, bool have, float size, const ImWchar* cjk_ranges) -> ImFont* {
        ImFontConfig cfg;
        cfg.OversampleH = 2;
        cfg.OversampleV = 1;
        ImFont* font = nullptr;
        if (have) {
            font = atlas.AddFontFromFileTTF(file, size, &cfg, latin_ranges_.Data);
        } else {
            cfg.SizePixels = size;
            font = atlas.AddFontDefault(&cfg);
        }
        if (font && cjk_ranges) {
            ImFontConfig merge;
            merge.MergeMode = true;
            merge.OversampleH = 1; // thousands of glyphs: keep the atlas small
            merge.OversampleV = 1;
            merge.FontNo = cjk.index;
            merge.PixelSnapH = true;
            atlas.AddFontFromFileTTF(cjk.path.c_str(), size, &merge, cjk_ranges);
        }
        return font;
    };
    ui_ = add(kDejaVuSans, have_sans, kUiSize * scale, report.cjk ? cjk_ranges_.Data : nullptr);
    mono_ = add(kDejaVuMono, have_mono, kMonoSize * scale, nullptr);
    heading_ =
        add(kDejaVuSans, have_sans, kHeadingSize * scale, report.cjk ? cjk_heading_ranges_.Data : nullptr);

    if (!atlas.Build()) {
        // A damaged font file: fall back to the built-in font rather than start without text.
        atlas.Clear();
        ImFontConfig cfg;
        cfg.SizePixels = kUiSize * scale;
        ui_ = mono_ = heading_ = atlas.AddFontDefault(&cfg);
        atlas.Build();
        report.cjk = false;
        report.cjk_hint = "the font files could not be read; using ImGui's built-in font (English only)";
        report.note = report.cjk_hint;
    }
    io.FontDefault = ui_;
    return report;
}

FontReport Fonts::rebuild(float scale) {
    ImGui_ImplOpenGL3_DestroyFontsTexture();
    FontReport report = build(scale);
    ImGui_ImplOpenGL3_CreateFontsTexture();
    return report;
}

} // namespace synclab::ui
