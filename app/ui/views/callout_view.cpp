#include "ui/views/callout_view.h"

#include "ui/model/outcome_words.h"
#include "ui/model/source_lines.h"
#include "ui/model/theme.h"
#include "ui/model/ui_text.h"

#include <imgui.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <vector>

namespace synclab::ui {
namespace {

bool ident_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// Whether `line` has the identifier `name` as a whole word.
bool mentions(std::string_view line, std::string_view name) {
    for (size_t at = line.find(name); at != std::string_view::npos; at = line.find(name, at + 1)) {
        const bool left = at == 0 || !ident_char(line[at - 1]);
        const bool right = at + name.size() >= line.size() || !ident_char(line[at + name.size()]);
        if (left && right) return true;
    }
    return false;
}

struct SharedArray {
    std::string name;
    uint64_t elements = 0;
    bool four_bytes = false;
};

// `__shared__ float s_tile[256];` -> {s_tile, 256, true}; false for anything it does not understand.
bool parse_shared(std::string_view line, SharedArray& out) {
    const size_t at = line.find("__shared__");
    if (at == std::string_view::npos) return false;
    std::string_view rest = line.substr(at + 10);
    std::vector<std::string_view> words;
    size_t i = 0;
    while (i < rest.size() && rest[i] != '[' && rest[i] != ';') {
        while (i < rest.size() && std::isspace(static_cast<unsigned char>(rest[i])))
            ++i;
        const size_t start = i;
        while (i < rest.size() && ident_char(rest[i]))
            ++i;
        if (i == start) break;
        words.push_back(rest.substr(start, i - start));
    }
    if (words.size() < 2 || i >= rest.size() || rest[i] != '[') return false;
    out.name = std::string(words.back());
    const std::string_view type = words[words.size() - 2];
    out.four_bytes =
        type == "float" || type == "int" || type == "unsigned" || type == "uint32_t" || type == "int32_t";
    out.elements = 0;
    for (++i; i < rest.size() && std::isdigit(static_cast<unsigned char>(rest[i])); ++i)
        out.elements = out.elements * 10 + uint64_t(rest[i] - '0');
    return i < rest.size() && rest[i] == ']';
}

// "line 12" / "lines 19 and 16"; lines inlined from a helper with the calls that lead there: "lines
// 19 and 16 in `warpReduce<64u>`, called from line 39" when they share them, else each line with its
// own ("line 19 in `f`, called from line 39 and line 32").
std::string where_text(const analysis::Finding& f, const CalloutText& t, Language language) {
    bool one_origin = true;
    for (size_t i = 1; i < f.lines.size(); ++i)
        one_origin = one_origin && analysis::origin_of(f, i) == analysis::origin_of(f, 0);
    auto site_of = [&](size_t i) {
        trace::Site site;
        site.source_line = f.lines[i];
        site.origin = analysis::origin_of(f, i);
        return site;
    };
    std::vector<std::string> parts;
    for (size_t i = 0; i < f.lines.size(); ++i)
        parts.push_back(one_origin ? std::to_string(f.lines[i])
                                   : trace::site_line_text(site_of(i), language));
    std::string ptx;
    for (const uint32_t l : f.ptx_lines)
        ptx += (ptx.empty() ? "" : t.comma.s) + std::to_string(l);
    std::string out;
    std::string list;
    for (size_t i = 0; i < parts.size(); ++i)
        list += (i == 0 ? "" : i + 1 == parts.size() ? t.and_.s : t.comma.s) + parts[i];
    if (!one_origin) {
        out = list;
    } else if (!parts.empty()) {
        out = fill(parts.size() == 1 ? t.line : t.lines, {list});
        const trace::Site first = site_of(0);
        if (!first.origin.file.empty()) {
            const std::string file = trace::file_base_name(first.origin.file);
            out = language == Language::Zh ? file + " " + out : out + " of " + file;
        }
        out += trace::inlined_text(first, language);
    }
    if (!ptx.empty())
        out += (out.empty() ? "" : t.semicolon.s) +
               fill(f.ptx_lines.size() > 1 ? t.ptx_lines : t.ptx_line, {ptx});
    return out;
}

} // namespace

std::string memory_name(const analysis::Finding& f, const trace::Trace& trace, std::string_view source,
                        Language language) {
    const bool shared = f.space == trace::Space::Shared;
    const std::string named = analysis::memory_name(trace, f, language);
    if (!trace.memory.empty()) return named;
    const std::string fallback = named; // the address in words
    // (The line must be one of the source at hand: not one of a helper in another file.)
    if (!shared || f.lines.empty() || source.empty() || !analysis::origin_of(f, 0).file.empty())
        return fallback;
    const std::vector<std::string_view> lines = split_lines(source);
    const uint32_t at = f.lines.front();
    if (at == 0 || at > lines.size()) return fallback;
    // The kernel function holding the line: back to the nearest __global__.
    size_t begin = at - 1;
    while (begin > 0 && lines[begin].find("__global__") == std::string_view::npos)
        --begin;
    if (lines[begin].find("__global__") == std::string_view::npos) return fallback;
    std::vector<SharedArray> arrays;
    for (size_t i = begin; i < at; ++i) {
        SharedArray a;
        if (lines[i].find("__shared__") != std::string_view::npos) {
            if (!parse_shared(lines[i], a)) return fallback; // a declaration it cannot read
            arrays.push_back(a);
        }
    }
    if (arrays.size() != 1 || !arrays[0].four_bytes || !mentions(lines[at - 1], arrays[0].name))
        return fallback;
    const uint64_t index = f.address / 4;
    if (f.address % 4 != 0 || (arrays[0].elements != 0 && index >= arrays[0].elements)) return fallback;
    return arrays[0].name + "[" + std::to_string(index) + "]";
}

std::string callout_text(const analysis::Finding& f, const trace::Trace& trace, std::string_view source,
                         Language language) {
    const CalloutText& t = ui_text(language).callout;
    auto block_of = [&](size_t i) -> int64_t {
        if (i >= f.threads.size() || f.threads[i] >= trace.threads.size()) return -1;
        return trace.threads[f.threads[i]].block;
    };
    // Two lanes of one warp (independent thread scheduling: no lockstep to rely on).
    const bool same_warp = block_of(0) >= 0 && block_of(0) == block_of(1) &&
                           trace.threads[f.threads[0]].warp == trace.threads[f.threads[1]].warp;
    // Threads as every view names them (trace::thread_name), with warp and lane where the finding
    // is about lanes of one warp.
    const trace::ThreadDetail detail = same_warp && f.kind == analysis::FindingKind::Race
                                           ? trace::ThreadDetail::Lane
                                           : trace::ThreadDetail::Block;
    auto thread = [&](size_t i) -> std::string {
        if (i >= f.threads.size() || f.threads[i] >= trace.threads.size()) return t.a_thread.s;
        return trace::thread_name(trace, f.threads[i], detail, language);
    };
    const std::string where = where_text(f, t, language);
    const std::string at = where.empty() ? "" : fill(t.at, {where});
    const std::string what = memory_name(f, trace, source, language);
    switch (f.kind) {
    case analysis::FindingKind::Race: {
        if (f.check == "scope_race") return fill(t.scope_race, {thread(0), thread(1), what, at});
        const bool same_block = block_of(0) == block_of(1);
        const std::string why = same_warp ? t.within_warp.s : same_block ? t.no_barrier.s : t.other_blocks.s;
        switch (f.hazard) {
        case analysis::Hazard::WAR:
            return fill(t.war, {thread(0), thread(1), what, why + at});
        case analysis::Hazard::RAW:
            return fill(t.raw, {thread(0), thread(1), what, why + at});
        case analysis::Hazard::WAW:
            return fill(t.waw, {thread(0), thread(1), what, why + at});
        case analysis::Hazard::None:
            break;
        }
        return fill(t.raced, {thread(0), thread(1), what}) + at;
    }
    case analysis::FindingKind::StaleRead: {
        // threads: the writer, the reader (and the thread that saw the flag, where another).
        if (f.check == "ordered_read_stale") return fill(t.stale_ordered, {thread(1), thread(0), what}) + at;
        namespace m = analysis::missing;
        const uint8_t bits = f.missing;
        std::string why;
        auto add = [&](const Text& clause) {
            if (!why.empty()) why += t.semicolon.s;
            why += clause.s;
        };
        if ((bits & m::kWriterFence) && (bits & m::kReaderFence)) {
            add(t.stale_both);
        } else {
            if (bits & m::kWriterFence) add(t.stale_writer);
            if (bits & m::kReaderFence) add(t.stale_reader);
        }
        if (bits & m::kWriterScope) add(t.stale_writer_scope);
        if (bits & m::kReaderScope) add(t.stale_reader_scope);
        if (bits & m::kFlagScope) add(t.stale_flag_scope);
        return fill(t.stale, {thread(1), thread(0), what, why}) + at;
    }
    case analysis::FindingKind::LostUpdate:
        return fill(t.lost, {thread(0), thread(1), what}) + at;
    case analysis::FindingKind::BarrierDivergence:
        if (f.threads.size() >= 2)
            return fill(t.diverged, {std::to_string(f.block), thread(0), thread(1)}) + at;
        return fill(t.diverged_all, {std::to_string(f.block)}) + at;
    case analysis::FindingKind::Deadlock:
        return t.deadlock.s + at;
    case analysis::FindingKind::Contention:
        return fill(t.contention, {thousands(f.count), what, at});
    case analysis::FindingKind::OutOfBounds:
        return fill(t.out_of_bounds, {thread(0), what, at});
    }
    return f.text;
}

std::string finding_message(const analysis::Finding& f, const trace::Trace& trace, std::string_view source,
                            Language language) {
    if (language == Language::En) return f.message;
    const CalloutText& t = ui_text(language).callout;
    std::string counts = fill(t.times, {thousands(f.count)});
    // Harm is a race's (render_message says it for races only).
    if (f.kind == analysis::FindingKind::Race && f.harmful > 0)
        counts += fill(t.harmful, {thousands(f.harmful)});
    if (f.lost > 0) counts += fill(t.lost_updates, {thousands(f.lost)});
    if (f.runs > 1) counts += fill(t.runs, {std::to_string(f.runs)});
    return callout_text(f, trace, source, language) + fill(t.counts, {counts});
}

std::string CalloutView::text_of(const AppState& state, bool& have, uint32_t& colour) const {
    have = false;
    colour = 0;
    const RunRecord* r = state.current.get();
    const int i = state.selection.selected_finding;
    if (!r || r->provisional) return "";
    const auto& findings = r->summary.findings;
    if (i < 0 || size_t(i) >= findings.size()) {
        if (findings.empty()) return "";
        const FindingsText& words = ui_text(shown_language(state)).findings;
        return fill(ui_text(shown_language(state)).callout.first_of,
                    {fill(findings.size() == 1 ? words.count_one : words.count_many,
                          {std::to_string(findings.size())})});
    }
    have = true;
    colour = theme::finding_mark(findings[size_t(i)].kind);
    char position[32];
    std::snprintf(position, sizeof position, "%d/%zu  ", i + 1, findings.size());
    // The text the source view shows: the finding's line numbers are lines of it.
    const SourceChoice source = choose_source(r, state.scenario);
    return position + callout_text(findings[size_t(i)], r->summary.trace,
                                   source.run_applies ? source.cuda : "", shown_language(state));
}

float CalloutView::height(const AppState& state, ImFont* font, float width) const {
    bool have = false;
    uint32_t colour = 0;
    const std::string text = text_of(state, have, colour);
    if (text.empty()) return 0;
    if (font) ImGui::PushFont(font);
    const float swatch = ImGui::GetFontSize() * 1.2f;
    const float h = ImGui::CalcTextSize(text.c_str(), nullptr, false, std::max(1.0f, width - swatch)).y;
    if (font) ImGui::PopFont();
    return std::ceil(h + ImGui::GetStyle().ItemSpacing.y);
}

void CalloutView::draw(const AppState& state, ImFont* font) {
    bool have = false;
    uint32_t colour = 0;
    const std::string text = text_of(state, have, colour);
    if (text.empty()) return;
    if (font) ImGui::PushFont(font);
    const float size = ImGui::GetFontSize();
    if (have) {
        // A solid bar in the finding's colour (the GUI tests find the callout by it).
        const ImVec2 p = ImGui::GetCursorScreenPos();
        ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(p.x, p.y + size * 0.1f),
                                                  ImVec2(p.x + size * 0.45f, p.y + size * 1.0f), colour);
    }
    ImGui::SetCursorPosX(ImGui::GetCursorPosX() + size * 1.2f);
    ImGui::PushTextWrapPos(0);
    if (have)
        ImGui::TextUnformatted(text.c_str());
    else
        ImGui::TextDisabled("%s", text.c_str());
    ImGui::PopTextWrapPos();
    if (font) ImGui::PopFont();
}

} // namespace synclab::ui
