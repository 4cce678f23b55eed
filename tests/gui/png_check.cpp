// png_check: asserts what a screenshot of synclab-app shows. Used by the GUI tests (run_gui_test.sh);
// regions come from the app's --layout file, colours by their theme.h names, so the tests say what
// they mean ("the race-arrow colour is in the timeline") rather than pixel coordinates.
//
//   png_check IMAGE.png [--layout LAYOUT.json] [--size WxH] [--min-colours N]
//             [--has COLOUR[@REGION]]... [--lacks COLOUR[@REGION]]... [--tolerance T] [--min-pixels N]
//             [--dark-background]
//             [--text-taller-than OTHER.png OTHER.json REGION RATIO]
//             [--differs-from OTHER.png REGION MIN_FRACTION]
//             [--skip-unless-cjk] [--skip-if-gpu] [--expect KEY=VALUE]... [--expect-not KEY~=TEXT]...
//             [--inside INNER OUTER]...
//             [--no-english] [--no-english-in OTHER.json]...
//             [--all-inside OUTER] [--no-region NAME]... [--min-height REGION PX]...
//             [--text-in REGION FIELD]... [--drawn TEXT]... [--not-drawn TEXT]...
//             [--variant-text drawn|hidden]
//
// COLOUR: a theme name (race_arrow, divergence, deadlock, lost_update, load, store, atomic, fence,
// collective, warp_sync, shuffle_arrow, wrong_output, provenance, heat_hot and heat_cold (the heatmap colour map's ends); the outcome inks good, bad, warning and in presenter mode p_good, p_bad,
// p_warning) or RRGGBB. REGION: a name
// from the layout's "regions" (timeline, source, lesson, ...). Exit 0 when every assertion holds; otherwise 1
// with one line per failure saying what was expected, what was found, and where. --skip-unless-cjk: exit 77
// (ctest: skipped) when the layout says the app found no Chinese font; --skip-if-gpu: exit 77 when it says a
// GPU is available. --expect compares a top-level field of the layout file (strings as they are, other values
// as JSON text), or checks that it contains a text with KEY~=TEXT; --expect-not the opposite. --inside: region INNER lies wholly inside
// region OUTER (e.g. a lesson section in sight without scrolling). --no-english: every text the frame drew
// (the layout's drawn_text) is free of English words and missing glyphs, but for code, ids and names (see
// english_words); --no-english-in checks another shot's layout the same way. --all-inside: every region of
// the layout lies inside region OUTER (e.g. "window": nothing drawn past the window's edge). --no-region:
// the frame has no region NAME (a panel the screen leaves out). --min-height: region REGION is at least
// PX pixels tall. --text-in: the text of the layout's string field FIELD is drawn whole inside REGION
// (the drawn texts there, joined in drawing order, hold its words in order; spacing may differ).
// --drawn / --not-drawn: TEXT is (is not) among the texts the frame drew, joined the same way.
// --variant-text drawn|hidden: the first sentence of what the selected variant does (its lesson text's
// "What it shows", in the layout's language) is (is not) drawn.
//
// Index:
//   [SECTION] Images and regions
//   [SECTION] Measurements
//   [SECTION] English left in a Chinese frame
//   [SECTION] Main
#include "scenario/scenario.h"
#include "ui/model/colour_map.h"
#include "ui/model/theme.h"

#include <nlohmann/json.hpp>
#include <stb/stb_image.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace {

// [SECTION] Images and regions

struct Rgb {
    int r = 0, g = 0, b = 0;
};

struct Image {
    int width = 0, height = 0;
    std::vector<unsigned char> px; // RGB, top row first
    Rgb at(int x, int y) const {
        const unsigned char* p = &px[(size_t(y) * size_t(width) + size_t(x)) * 3];
        return {p[0], p[1], p[2]};
    }
};

std::optional<Image> load_png(const std::string& path, std::string& error) {
    int w = 0, h = 0, n = 0;
    unsigned char* data = stbi_load(path.c_str(), &w, &h, &n, 3);
    if (!data) {
        error = path + ": cannot read (" +
                (stbi_failure_reason() ? stbi_failure_reason() : "unknown reason") + ")";
        return std::nullopt;
    }
    Image img;
    img.width = w;
    img.height = h;
    img.px.assign(data, data + size_t(w) * size_t(h) * 3);
    stbi_image_free(data);
    return img;
}

struct Rect {
    int x0 = 0, y0 = 0, x1 = 0, y1 = 0; // [x0, x1) x [y0, y1), clipped to the image
    std::string name = "whole image";
};

struct Layout {
    std::map<std::string, Rect> regions;
    bool cjk_font = false;
    nlohmann::json doc;
};

std::optional<Layout> load_layout(const std::string& path, std::string& error) {
    std::ifstream in(path);
    if (!in) {
        error = path + ": cannot read the layout";
        return std::nullopt;
    }
    try {
        const nlohmann::json doc = nlohmann::json::parse(in);
        Layout layout;
        layout.cjk_font = doc.value("cjk_font", false);
        layout.doc = doc;
        for (const auto& [name, r] : doc.at("regions").items()) {
            Rect rect;
            rect.x0 = int(std::lround(r.at(0).get<double>()));
            rect.y0 = int(std::lround(r.at(1).get<double>()));
            rect.x1 = rect.x0 + int(std::lround(r.at(2).get<double>()));
            rect.y1 = rect.y0 + int(std::lround(r.at(3).get<double>()));
            rect.name = name;
            layout.regions[name] = rect;
        }
        return layout;
    } catch (const std::exception& e) {
        error = path + ": not a layout file (" + e.what() + ")";
        return std::nullopt;
    }
}

Rect clip(Rect r, const Image& img) {
    r.x0 = std::clamp(r.x0, 0, img.width);
    r.x1 = std::clamp(r.x1, 0, img.width);
    r.y0 = std::clamp(r.y0, 0, img.height);
    r.y1 = std::clamp(r.y1, 0, img.height);
    return r;
}

std::optional<Rgb> parse_colour(const std::string& text) {
    using namespace synclab::ui;
    static const std::map<std::string, uint32_t> names = {
        {"race_arrow", theme::kRaceArrow},
        {"divergence", theme::kDivergence},
        {"deadlock", theme::kDeadlock},
        {"lost_update", theme::kLostUpdate},
        {"load", theme::kLoad},
        {"store", theme::kStore},
        {"atomic", theme::kAtomic},
        {"fence", theme::kFence},
        {"collective", theme::kCollective},
        {"warp_sync", theme::kWarpSync},
        {"shuffle_arrow", theme::kShuffleArrow},
        {"wrong_output", theme::kWrongOutput},
        {"provenance", theme::kProvenance},
        {"outcome_sim", theme::kOutcomeSim},
        {"outcome_gpu", theme::kOutcomeGpu},
        // The heatmap colour map's ends (ui/model/colour_map.h: the shader's stops), IM_COL32 packed.
        {"heat_hot", heat::colour_u32(1.0f)},
        {"heat_cold", heat::colour_u32(0.0f)},
        // Text inks (theme::Palette): outcome words, normal and presenter theme.
        {"good", theme::palette(false).good},
        {"bad", theme::palette(false).bad},
        {"warning", theme::palette(false).warning},
        {"p_good", theme::palette(true).good},
        {"p_bad", theme::palette(true).bad},
        {"p_warning", theme::palette(true).warning},
    };
    if (const auto it = names.find(text); it != names.end())
        return Rgb{int(it->second & 0xff), int((it->second >> 8) & 0xff), int((it->second >> 16) & 0xff)};
    if (text.size() == 6 && text.find_first_not_of("0123456789abcdefABCDEF") == std::string::npos) {
        const unsigned long v = std::strtoul(text.c_str(), nullptr, 16);
        return Rgb{int((v >> 16) & 0xff), int((v >> 8) & 0xff), int(v & 0xff)};
    }
    return std::nullopt;
}

// [SECTION] Measurements

int luma(Rgb c) {
    return (299 * c.r + 587 * c.g + 114 * c.b) / 1000;
}

size_t count_colour(const Image& img, const Rect& r, Rgb want, int tolerance) {
    size_t n = 0;
    for (int y = r.y0; y < r.y1; ++y)
        for (int x = r.x0; x < r.x1; ++x) {
            const Rgb c = img.at(x, y);
            if (std::abs(c.r - want.r) <= tolerance && std::abs(c.g - want.g) <= tolerance &&
                std::abs(c.b - want.b) <= tolerance)
                ++n;
        }
    return n;
}

size_t distinct_colours(const Image& img) {
    std::set<uint32_t> seen;
    for (size_t i = 0; i + 2 < img.px.size(); i += 3)
        seen.insert(uint32_t(img.px[i]) << 16 | uint32_t(img.px[i + 1]) << 8 | img.px[i + 2]);
    return seen.size();
}

// The most common colour of a rectangle: its background.
Rgb background(const Image& img, const Rect& r) {
    std::map<uint32_t, size_t> counts;
    for (int y = r.y0; y < r.y1; ++y)
        for (int x = r.x0; x < r.x1; ++x) {
            const Rgb c = img.at(x, y);
            ++counts[uint32_t(c.r) << 16 | uint32_t(c.g) << 8 | uint32_t(c.b)];
        }
    uint32_t best = 0;
    size_t best_n = 0;
    for (const auto& [c, n] : counts)
        if (n > best_n) best = c, best_n = n;
    return {int(best >> 16), int((best >> 8) & 0xff), int(best & 0xff)};
}

// The median height of text lines in a region: rows that hold "ink" (pixels far from the
// background) form runs, one per line of text. The region is inset so that the child window's
// borders and scrollbar (ink in every row) do not join all lines into one.
double median_text_height(const Image& img, Rect r) {
    const int inset = 12;
    r.x0 += inset;
    r.y0 += inset;
    r.x1 = r.x0 + std::max(0, (r.x1 - inset - r.x0) * 7 / 10);
    r.y1 -= inset;
    r = clip(r, img);
    const int bg = luma(background(img, r));
    std::vector<int> runs;
    int run = 0;
    for (int y = r.y0; y < r.y1; ++y) {
        int ink = 0;
        for (int x = r.x0; x < r.x1; ++x)
            ink += std::abs(luma(img.at(x, y)) - bg) > 70 ? 1 : 0;
        const bool text_row = ink >= 2 && ink < (r.x1 - r.x0) * 9 / 10; // a full-width line is a separator
        if (text_row) {
            ++run;
        } else {
            if (run >= 4) runs.push_back(run);
            run = 0;
        }
    }
    if (run >= 4) runs.push_back(run);
    if (runs.empty()) return 0;
    std::sort(runs.begin(), runs.end());
    return runs[runs.size() / 2];
}

double differing_fraction(const Image& a, const Image& b, Rect r) {
    r = clip(r, a);
    r = clip(r, b);
    size_t diff = 0, total = 0;
    for (int y = r.y0; y < r.y1; ++y)
        for (int x = r.x0; x < r.x1; ++x) {
            const Rgb p = a.at(x, y), q = b.at(x, y);
            diff += (std::abs(p.r - q.r) + std::abs(p.g - q.g) + std::abs(p.b - q.b)) > 30 ? 1 : 0;
            ++total;
        }
    return total ? double(diff) / double(total) : 0;
}

// [SECTION] Main

struct Failures {
    std::string image;
    int count = 0;
    void add(const std::string& what) {
        std::cerr << "png_check: " << image << ": " << what << "\n";
        ++count;
    }
};

// [SECTION] English left in a Chinese frame

// Words that may stand in Chinese text as they are: code (every identifier of the catalog's kernels,
// CUDA and PTX, comments left out), the catalog's ids and file names, key names and a few names and
// terms.
const std::set<std::string>& code_words() {
    static const std::set<std::string> words = [] {
        std::set<std::string> out = {"PTX", "CUDA", "GPU", "SM", "English", "Chrome", "Perfetto", "JSON",
                                     "PNG", "NVIDIA", "Home", "End", "Tab", "Esc", "PgDn", "PgUp", "Space",
                                     "Shift", "warp", "rr", "cu", "ptx", "slt", "json", "png", "toml",
                                     // tools, named as their commands are
                                     "compute", "sanitizer", "synccheck", "ptxas", "nvcc"};
        // Code only: comments are English prose.
        auto without_comments = [](std::string_view text) {
            std::string code;
            for (size_t i = 0; i < text.size(); ++i) {
                if (text.substr(i, 2) == "//") {
                    i = std::min(text.size(), text.find('\n', i));
                    code += '\n';
                } else if (text.substr(i, 2) == "/*") {
                    const size_t end = text.find("*/", i + 2);
                    i = end == std::string_view::npos ? text.size() : end + 1;
                    code += ' ';
                } else {
                    code += text[i];
                }
            }
            return code;
        };
        auto add_identifiers = [&](std::string_view text) {
            std::string word;
            for (const char c : without_comments(text) + " ") {
                if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') {
                    word += c;
                } else {
                    if (!word.empty()) out.insert(word);
                    word.clear();
                }
            }
        };
        for (const synclab::scenario::Scenario& s : synclab::scenario::catalog()) {
            add_identifiers(s.id);
            add_identifiers(s.source_file);
            add_identifiers(s.cuda_source());
            add_identifiers(s.ptx_source());
            for (const synclab::scenario::Variant& v : s.variants) {
                add_identifiers(v.id);
                add_identifiers(v.kernel);
            }
        }
        return out;
    }();
    return words;
}

// The English words of `text`: runs of ASCII letters that are not code. A token with a digit or an
// underscore is an identifier or a number, an all-capitals one an acronym (RAW, SIMT), one letter a
// name (t, r, H). What stands in Chinese quotation marks (“Divergent thread(s) in block”, a tool's
// own words) is quoted as it is.
std::vector<std::string> english_words(const std::string& quoted_text) {
    std::string text;
    for (size_t i = 0; i < quoted_text.size();) {
        const size_t open = quoted_text.find("\u201c", i);
        const size_t close = open == std::string::npos ? open : quoted_text.find("\u201d", open);
        if (close == std::string::npos) {
            text += quoted_text.substr(i);
            break;
        }
        text += quoted_text.substr(i, open - i) + " ";
        i = close + 3;
    }
    std::vector<std::string> out;
    std::string word;
    auto check = [&] {
        if (word.size() < 2) return;
        const bool identifier = std::any_of(word.begin(), word.end(), [](char c) {
            return c == '_' || std::isdigit(static_cast<unsigned char>(c));
        });
        const bool acronym = std::none_of(word.begin(), word.end(),
                                          [](char c) { return std::islower(static_cast<unsigned char>(c)); });
        if (!identifier && !acronym && !code_words().count(word)) out.push_back(word);
    };
    for (const char c : text + " ") {
        if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') {
            word += c;
        } else {
            check();
            word.clear();
        }
    }
    return out;
}

// Fails for every drawn text of `layout` (the app's "drawn_text", see app/ui/shell/drawn_text.h) that has an
// English word or a missing glyph (U+FFFD or "??"), but for the source code itself (region source_code).
void check_no_english(const Layout& layout, const std::string& name, Failures& fail) {
    if (!layout.doc.contains("drawn_text")) {
        fail.add(name + ": the layout has no drawn_text");
        return;
    }
    const auto code = layout.regions.find("source_code");
    size_t texts = 0, bad = 0;
    for (const auto& t : layout.doc.at("drawn_text")) {
        ++texts;
        const std::string text = t.value("text", "");
        const double x = t.value("x", 0.0), y = t.value("y", 0.0);
        if (code != layout.regions.end() && x >= code->second.x0 && x < code->second.x1 &&
            y >= code->second.y0 && y < code->second.y1)
            continue;
        std::string why;
        for (const std::string& w : english_words(text))
            why += (why.empty() ? "" : ", ") + w;
        // A glyph the font lacks is drawn as U+FFFD, or as '?' by a font without that either.
        if (text.find("\xEF\xBF\xBD") != std::string::npos || text.find("??") != std::string::npos)
            why += std::string(why.empty() ? "" : ", ") + "a missing glyph";
        if (why.empty()) continue;
        ++bad;
        fail.add(name + ": at (" + std::to_string(int(x)) + ", " + std::to_string(int(y)) + ") \"" + text +
                 "\": expected Chinese, found " + why);
    }
    std::cout << name << ": " << texts << " drawn texts, " << bad << " with English or a missing glyph\n";
}

// The words of `text` (runs between white space), in order.
std::vector<std::string> words_of(const std::string& text) {
    std::vector<std::string> out;
    std::string word;
    for (const char c : text + " ") {
        if (c == ' ' || c == '\n' || c == '\t') {
            if (!word.empty()) out.push_back(word);
            word.clear();
        } else {
            word += c;
        }
    }
    return out;
}

// Whether the drawn texts of `layout` that start inside `r`, joined in drawing order, hold every word
// of `want` in order, with nothing between them; `got` is what was drawn there. (A line broken
// between two words draws two texts; Chinese breaks between characters, so the comparison ignores
// where the spaces are.)
bool drawn_inside(const Layout& layout, const Rect& r, const std::string& want, std::string& got) {
    got.clear();
    for (const auto& t : layout.doc.value("drawn_text", nlohmann::json::array())) {
        const double x = t.value("x", 0.0), y = t.value("y", 0.0);
        if (x >= r.x0 - 1 && x < r.x1 && y >= r.y0 - 1 && y < r.y1) got += t.value("text", "") + " ";
    }
    std::string a, b;
    for (const std::string& w : words_of(got))
        a += w;
    for (const std::string& w : words_of(want))
        b += w;
    return !b.empty() && a.find(b) != std::string::npos;
}

} // namespace

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty()) {
        std::cerr
            << "usage: png_check IMAGE.png [--layout L.json] [--size WxH] [--min-colours N] [--has C[@R]] "
               "[--lacks C[@R]] [--tolerance T] [--min-pixels N] [--dark-background] "
               "[--text-taller-than OTHER.png OTHER.json REGION RATIO] [--differs-from OTHER.png REGION "
               "FRACTION]\n";
        return 2;
    }
    Failures fail{args[0]};
    std::string error;
    const std::optional<Image> image = load_png(args[0], error);
    if (!image) {
        std::cerr << "png_check: " << error << "\n";
        return 1;
    }
    std::optional<Layout> layout;
    int tolerance = 10;
    size_t min_pixels = 4;
    size_t min_colours = 64;
    auto need = [&](size_t i, size_t n) {
        if (i + n >= args.size()) {
            std::cerr << "png_check: " << args[i] << " needs " << n << " value(s)\n";
            std::exit(2);
        }
    };
    auto region = [&](const std::string& name, const Layout* from) -> std::optional<Rect> {
        if (name.empty()) return Rect{0, 0, image->width, image->height};
        if (!from) {
            fail.add("region '" + name + "' needs --layout");
            return std::nullopt;
        }
        const auto it = from->regions.find(name);
        if (it == from->regions.end()) {
            std::string names;
            for (const auto& [n, r] : from->regions)
                names += (names.empty() ? "" : ", ") + n;
            fail.add("the layout has no region '" + name + "' (regions this frame: " + names + ")");
            return std::nullopt;
        }
        return clip(it->second, *image);
    };

    // Options that set parameters first, so that their order on the command line does not matter.
    for (size_t i = 1; i < args.size(); ++i) {
        if (args[i] == "--layout") {
            need(i, 1);
            layout = load_layout(args[++i], error);
            if (!layout) {
                std::cerr << "png_check: " << error << "\n";
                return 1;
            }
        } else if (args[i] == "--tolerance") {
            need(i, 1);
            tolerance = std::atoi(args[++i].c_str());
        } else if (args[i] == "--min-pixels") {
            need(i, 1);
            min_pixels = size_t(std::atol(args[++i].c_str()));
        } else if (args[i] == "--min-colours") {
            need(i, 1);
            min_colours = size_t(std::atol(args[++i].c_str()));
        }
    }

    // Always: not blank.
    const size_t colours = distinct_colours(*image);
    if (colours < min_colours)
        fail.add("looks blank: " + std::to_string(colours) + " distinct colours, expected at least " +
                 std::to_string(min_colours));

    for (size_t i = 1; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--layout" || a == "--tolerance" || a == "--min-pixels" || a == "--min-colours") {
            ++i;
        } else if (a == "--size") {
            need(i, 1);
            const std::string want = args[++i];
            const std::string got = std::to_string(image->width) + "x" + std::to_string(image->height);
            if (want != got) fail.add("size " + got + ", expected " + want);
        } else if (a == "--has" || a == "--lacks") {
            need(i, 1);
            const std::string spec = args[++i];
            const size_t at = spec.find('@');
            const std::string colour_name = spec.substr(0, at);
            const std::optional<Rgb> colour = parse_colour(colour_name);
            if (!colour) {
                std::cerr << "png_check: unknown colour '" << colour_name << "'\n";
                return 2;
            }
            const std::optional<Rect> r =
                region(at == std::string::npos ? "" : spec.substr(at + 1), layout ? &*layout : nullptr);
            if (!r) continue;
            const size_t n = count_colour(*image, *r, *colour, tolerance);
            const std::string where = " in " + r->name + " [" + std::to_string(r->x0) + "," +
                                      std::to_string(r->y0) + " - " + std::to_string(r->x1) + "," +
                                      std::to_string(r->y1) + ")";
            if (a == "--has" && n < min_pixels)
                fail.add("expected " + colour_name + " (at least " + std::to_string(min_pixels) +
                         " pixels within " + std::to_string(tolerance) + ")" + where + ", found " +
                         std::to_string(n));
            if (a == "--lacks" && n >= min_pixels)
                fail.add("expected no " + colour_name + where + ", found " + std::to_string(n) + " pixels");
            std::cout << colour_name << where << ": " << n << " pixels\n";
        } else if (a == "--expect" || a == "--expect-not") {
            need(i, 1);
            const bool negate = a == "--expect-not";
            const std::string spec = args[++i];
            const size_t eq = spec.find('=');
            if (eq == std::string::npos || eq == 0) {
                std::cerr << "png_check: " << a << " needs KEY=VALUE or KEY~=TEXT, got '" << spec << "'\n";
                return 2;
            }
            const bool contains = spec[eq - 1] == '~';
            const std::string key = spec.substr(0, contains ? eq - 1 : eq), want = spec.substr(eq + 1);
            if (!layout || !layout->doc.contains(key)) {
                fail.add("the layout file has no field '" + key + "'");
                continue;
            }
            const nlohmann::json& v = layout->doc[key];
            const std::string got = v.is_string() ? v.get<std::string>() : v.dump();
            const bool matches = contains ? got.find(want) != std::string::npos : got == want;
            if (matches == negate)
                fail.add("layout field " + key + " is '" + got + "', expected " + (negate ? "it not " : "") +
                         (contains ? "to contain '" : negate ? "to be '" : "'") + want + "'");
        } else if (a == "--inside") {
            need(i, 2);
            const std::string inner = args[i + 1], outer = args[i + 2];
            i += 2;
            if (!layout) {
                fail.add("--inside needs --layout");
                continue;
            }
            const auto a_it = layout->regions.find(inner), b_it = layout->regions.find(outer);
            if (a_it == layout->regions.end() || b_it == layout->regions.end()) {
                fail.add("--inside: the layout has no region '" +
                         (a_it == layout->regions.end() ? inner : outer) + "'");
                continue;
            }
            const Rect &in = a_it->second, &out = b_it->second;
            auto text = [](const Rect& r) {
                return "[" + std::to_string(r.x0) + "," + std::to_string(r.y0) + " - " +
                       std::to_string(r.x1) + "," + std::to_string(r.y1) + ")";
            };
            std::cout << inner << " " << text(in) << " in " << outer << " " << text(out) << "\n";
            if (in.x0 < out.x0 || in.y0 < out.y0 || in.x1 > out.x1 || in.y1 > out.y1)
                fail.add("expected " + inner + " " + text(in) + " inside " + outer + " " + text(out) +
                         " (in sight without scrolling)");
        } else if (a == "--all-inside") {
            need(i, 1);
            const std::string outer = args[++i];
            const auto o = layout ? layout->regions.find(outer) : std::map<std::string, Rect>::iterator{};
            if (!layout || o == layout->regions.end()) {
                fail.add("--all-inside: the layout has no region '" + outer + "'");
                continue;
            }
            size_t checked = 0;
            for (const auto& [name, in] : layout->regions) {
                if (name == outer) continue;
                ++checked;
                const Rect& out = o->second;
                if (in.x0 < out.x0 || in.y0 < out.y0 || in.x1 > out.x1 || in.y1 > out.y1)
                    fail.add("expected region " + name + " [" + std::to_string(in.x0) + "," + std::to_string(in.y0) +
                             " - " + std::to_string(in.x1) + "," + std::to_string(in.y1) + ") inside " + outer +
                             " [" + std::to_string(out.x0) + "," + std::to_string(out.y0) + " - " +
                             std::to_string(out.x1) + "," + std::to_string(out.y1) + ")");
            }
            std::cout << checked << " regions checked inside " << outer << "\n";
        } else if (a == "--no-region") {
            need(i, 1);
            const std::string name = args[++i];
            if (layout && layout->regions.count(name))
                fail.add("expected no region '" + name + "' in this frame, found one");
        } else if (a == "--min-height") {
            need(i, 2);
            const std::string name = args[i + 1];
            const int want = std::atoi(args[i + 2].c_str());
            i += 2;
            const std::optional<Rect> r = region(name, layout ? &*layout : nullptr);
            if (!r) continue;
            std::cout << name << ": " << r->y1 - r->y0 << " px tall\n";
            if (r->y1 - r->y0 < want)
                fail.add("expected " + name + " at least " + std::to_string(want) + " px tall, found " +
                         std::to_string(r->y1 - r->y0));
        } else if (a == "--text-in") {
            need(i, 2);
            const std::string name = args[i + 1], field = args[i + 2];
            i += 2;
            const std::optional<Rect> r = region(name, layout ? &*layout : nullptr);
            if (!r) continue;
            if (!layout->doc.contains(field) || !layout->doc[field].is_string() ||
                layout->doc[field].get<std::string>().empty()) {
                fail.add("--text-in: the layout has no text in field '" + field + "'");
                continue;
            }
            const std::string want = layout->doc[field].get<std::string>();
            std::string got;
            if (!drawn_inside(*layout, *r, want, got))
                fail.add("expected the whole of " + field + " (\"" + want + "\") drawn inside " + name + ", found \"" +
                         got + "\"");
            else
                std::cout << field << " drawn whole inside " << name << "\n";
        } else if (a == "--drawn" || a == "--not-drawn") {
            need(i, 1);
            const std::string want = args[++i];
            if (!layout) {
                fail.add(a + " needs --layout");
                continue;
            }
            std::string got;
            const bool found = drawn_inside(*layout, Rect{-1, -1, 1 << 20, 1 << 20}, want, got);
            if (a == "--drawn" && !found) fail.add("expected \"" + want + "\" among the drawn texts, found none");
            if (a == "--not-drawn" && found) fail.add("expected \"" + want + "\" not to be drawn, found it");
            std::cout << "\"" << want << "\" " << (found ? "drawn" : "not drawn") << "\n";
        } else if (a == "--variant-text") {
            need(i, 1);
            const std::string want = args[++i];
            if (want != "drawn" && want != "hidden") {
                std::cerr << "png_check: --variant-text takes drawn or hidden, got '" << want << "'\n";
                return 2;
            }
            const synclab::scenario::Scenario* sc =
                layout ? synclab::scenario::find_scenario(layout->doc.value("scenario", "")) : nullptr;
            const synclab::scenario::Variant* v = sc ? sc->find_variant(layout->doc.value("variant", "")) : nullptr;
            if (!v) {
                fail.add("--variant-text: the layout names no catalog variant");
                continue;
            }
            const std::string& shows = layout->doc.value("language", "en") == "zh" ? v->zh.shows : v->en.shows;
            // Its first sentence (to the first full stop, Western or Chinese).
            const size_t stop = std::min(shows.find(". "), shows.find("\u3002"));
            const std::string sentence = shows.substr(0, stop);
            std::string got;
            const bool found = !sentence.empty() &&
                               drawn_inside(*layout, Rect{-1, -1, 1 << 20, 1 << 20}, sentence, got);
            std::cout << "the variant's text (\"" << sentence << "\") " << (found ? "drawn" : "not drawn") << "\n";
            if (sentence.empty()) fail.add("--variant-text: the variant has no text of its own");
            if (want == "drawn" && !found) fail.add("expected the variant's own text drawn: \"" + sentence + "\"");
            if (want == "hidden" && found) fail.add("expected the variant's own text hidden: \"" + sentence + "\"");
        } else if (a == "--skip-unless-cjk") {
            if (!layout) {
                fail.add("--skip-unless-cjk needs --layout");
            } else if (!layout->cjk_font) {
                std::cout << "SKIP: no Chinese font installed (fonts-wqy-microhei or fonts-noto-cjk)\n";
                return 77;
            }
        } else if (a == "--skip-if-gpu") {
            // The GPU-unavailable tests check how the app says "no GPU"; where one works there is
            // nothing of that to see.
            if (!layout) {
                fail.add("--skip-if-gpu needs --layout");
            } else if (layout->doc.value("gpu_available", false)) {
                std::cout << "SKIP: a GPU is available here\n";
                return 77;
            }
        } else if (a == "--no-english") {
            // Every text the frame drew is Chinese (for a --lang zh shot): see check_no_english.
            if (!layout)
                fail.add("--no-english needs --layout");
            else
                check_no_english(*layout, args[0], fail);
        } else if (a == "--no-english-in") {
            // The same for another shot's layout file.
            need(i, 1);
            const std::optional<Layout> other = load_layout(args[++i], error);
            if (!other)
                fail.add(error);
            else
                check_no_english(*other, args[i], fail);
        } else if (a == "--dark-background") {
            const Rgb bg = background(*image, Rect{0, 0, image->width, image->height});
            std::cout << "background: " << bg.r << "," << bg.g << "," << bg.b << " (luma " << luma(bg)
                      << ")\n";
            if (luma(bg) > 16)
                fail.add("expected a near-black background (luma <= 16), found " + std::to_string(bg.r) +
                         "," + std::to_string(bg.g) + "," + std::to_string(bg.b));
        } else if (a == "--text-taller-than") {
            need(i, 4);
            const std::optional<Image> other = load_png(args[i + 1], error);
            const std::optional<Layout> other_layout = load_layout(args[i + 2], error);
            const std::string name = args[i + 3];
            const double ratio = std::atof(args[i + 4].c_str());
            i += 4;
            if (!other || !other_layout) {
                fail.add(error);
                continue;
            }
            const std::optional<Rect> mine = region(name, layout ? &*layout : nullptr);
            const auto theirs = other_layout->regions.find(name);
            if (!mine || theirs == other_layout->regions.end()) {
                if (mine) fail.add("region '" + name + "' missing from " + args[i - 2]);
                continue;
            }
            const double h_mine = median_text_height(*image, *mine);
            const double h_other = median_text_height(*other, clip(theirs->second, *other));
            std::cout << "text height in " << name << ": " << h_mine << " px here, " << h_other << " px in "
                      << args[i - 3] << "\n";
            if (h_other <= 0 || h_mine < ratio * h_other)
                fail.add("text in " + name + " is " + std::to_string(h_mine) +
                         " px tall, expected at least " + std::to_string(ratio) + " x " +
                         std::to_string(h_other) + " px (" + args[i - 3] + ")");
        } else if (a == "--differs-from") {
            need(i, 3);
            const std::optional<Image> other = load_png(args[i + 1], error);
            const std::string name = args[i + 2];
            const double min_fraction = std::atof(args[i + 3].c_str());
            i += 3;
            if (!other) {
                fail.add(error);
                continue;
            }
            const std::optional<Rect> r = region(name, layout ? &*layout : nullptr);
            if (!r) continue;
            const double f = differing_fraction(*image, *other, *r);
            std::cout << "pixels differing from " << args[i - 2] << " in " << name << ": " << f * 100
                      << "%\n";
            if (f < min_fraction)
                fail.add("expected at least " + std::to_string(min_fraction * 100) + "% of " + name +
                         " to differ from " + args[i - 2] + ", found " + std::to_string(f * 100) + "%");
        } else {
            std::cerr << "png_check: unknown option '" << a << "'\n";
            return 2;
        }
    }
    if (fail.count == 0) std::cout << "png_check: " << args[0] << ": ok (" << colours << " colours)\n";
    return fail.count == 0 ? 0 : 1;
}
