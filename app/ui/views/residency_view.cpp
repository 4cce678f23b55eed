#include "ui/views/residency_view.h"

#include "ui/views/panel_widgets.h"
#include "ui/model/source_lines.h"
#include "ui/model/theme.h"
#include "ui/model/ui_text.h"

#include <algorithm>
#include <cmath>

namespace synclab::ui {

// [SECTION] The model (no ImGui)

std::vector<BlockRange> block_ranges(const std::vector<uint32_t>& sorted_blocks) {
    std::vector<BlockRange> out;
    for (uint32_t b : sorted_blocks) {
        if (!out.empty() && out.back().last + 1 == b)
            out.back().last = b;
        else
            out.push_back({b, b});
    }
    return out;
}

std::string range_words(const std::vector<BlockRange>& ranges, size_t shown, const char* more) {
    std::string s;
    const size_t n = std::min(ranges.size(), shown);
    for (size_t i = 0; i < n; ++i) {
        if (i) s += ", ";
        s += std::to_string(ranges[i].first);
        if (ranges[i].last != ranges[i].first) s += "\u2013" + std::to_string(ranges[i].last);
    }
    if (ranges.size() > n) s += " " + fill(more, {std::to_string(ranges.size() - n)});
    return s;
}

ResidencyModel build_residency_model(const trace::Trace& trace) {
    ResidencyModel m;
    const auto& table = trace.residency;
    if (table.empty()) return m;
    m.available = true;
    m.blocks = uint32_t(table.size());
    // The time axis ends after the last thing that happened: an event, an admission or a retirement.
    uint64_t last = 0;
    if (!trace.events.empty()) last = trace.events.back().time;
    for (const trace::Event& e : trace.events)
        last = std::max(last, e.time);
    uint32_t sm_count = 0;
    for (const trace::BlockResidency& r : table) {
        if (r.admitted == trace::BlockResidency::kNever) continue;
        last = std::max(last, r.admitted);
        if (r.retired != trace::BlockResidency::kNever) last = std::max(last, r.retired);
        sm_count = std::max(sm_count, r.sm + 1);
    }
    m.end = last + 1;
    // Every modelled SM gets a row, an idle one too (a grid smaller than the machine leaves SMs idle).
    m.sms.resize(std::max(sm_count, trace.meta.sm_count));
    std::vector<uint32_t> never, waited;
    for (uint32_t b = 0; b < m.blocks; ++b) {
        const trace::BlockResidency& r = table[b];
        if (r.admitted == trace::BlockResidency::kNever) {
            never.push_back(b);
            ++m.never;
            continue;
        }
        ResidentBar bar;
        bar.block = b;
        bar.from = r.admitted;
        bar.retired = r.retired != trace::BlockResidency::kNever;
        bar.to = bar.retired ? std::max(r.retired, r.admitted) : m.end;
        bar.waited = r.waited != 0;
        if (bar.waited) waited.push_back(b);
        if (!bar.retired)
            ++m.stuck;
        else if (bar.waited)
            ++m.waited;
        else
            ++m.ran;
        m.sms[r.sm].bars.push_back(bar);
    }
    m.never_started = block_ranges(never);
    m.waited_ranges = block_ranges(waited);
    // Slots: interval partitioning by admission tick, lowest free slot first (a block retiring at
    // tick t frees its slot for a block admitted at t: the simulator hands the slot on).
    for (ResidencySm& sm : m.sms) {
        std::stable_sort(sm.bars.begin(), sm.bars.end(),
                         [](const ResidentBar& a, const ResidentBar& b) { return a.from < b.from; });
        std::vector<uint64_t> free_at; // per slot: the tick it frees
        for (ResidentBar& bar : sm.bars) {
            uint32_t slot = 0;
            while (slot < free_at.size() && free_at[slot] > bar.from)
                ++slot;
            if (slot == free_at.size()) free_at.push_back(0);
            free_at[slot] = bar.retired ? bar.to : UINT64_MAX;
            bar.slot = slot;
        }
        sm.slots = uint32_t(free_at.size());
        m.max_slots = std::max(m.max_slots, sm.slots);
        if (sm.slots) m.max_bars_per_slot = std::max(m.max_bars_per_slot, double(sm.bars.size()) / sm.slots);
    }
    return m;
}

std::vector<uint32_t> ResidencyModel::occupancy(uint32_t sm_first, uint32_t sm_last, uint64_t t0, uint64_t t1,
                                                uint32_t bins) const {
    std::vector<uint32_t> out(bins, 0);
    if (bins == 0 || t1 <= t0) return out;
    // A difference array: +1 where a bar starts overlapping, -1 after its last bin (bars x 2 + bins).
    std::vector<int64_t> diff(size_t(bins) + 1, 0);
    const double span = double(t1 - t0);
    auto bin_of = [&](uint64_t t) {
        return uint32_t(std::min<double>(bins - 1, std::floor(double(t - t0) / span * bins)));
    };
    for (uint32_t s = sm_first; s <= sm_last && s < sms.size(); ++s)
        for (const ResidentBar& b : sms[s].bars) {
            // A bar covers ticks [from, to); an empty one (admitted and retired at once) its tick.
            const uint64_t to = std::max(b.to, b.from + 1);
            if (to <= t0 || b.from >= t1) continue;
            diff[bin_of(std::max(b.from, t0))] += 1;
            diff[size_t(bin_of(std::min(to, t1) - 1)) + 1] -= 1;
        }
    int64_t run = 0;
    for (uint32_t i = 0; i < bins; ++i) {
        run += diff[i];
        out[i] = uint32_t(run);
    }
    return out;
}

const ResidentBar* ResidencyModel::bar_at(uint32_t sm, uint32_t slot, uint64_t tick) const {
    if (sm >= sms.size()) return nullptr;
    for (const ResidentBar& b : sms[sm].bars)
        if (b.slot == slot && tick >= b.from && tick < std::max(b.to, b.from + 1)) return &b;
    return nullptr;
}

// [SECTION] The view

namespace {

uint32_t bar_colour(const ResidentBar& b) {
    return !b.retired ? residency_colour::kStuck : b.waited ? residency_colour::kWaited : residency_colour::kRan;
}

void swatch(uint32_t colour, const char* words) {
    const float h = ImGui::GetTextLineHeight();
    const ImVec2 p = ImGui::GetCursorScreenPos();
    ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(p.x, p.y + h * 0.2f), ImVec2(p.x + h * 1.2f, p.y + h * 0.8f),
                                              colour);
    ImGui::Dummy(ImVec2(h * 1.3f, h));
    ImGui::SameLine();
    ImGui::TextUnformatted(words);
}

} // namespace

void ResidencyView::draw(AppState& state) {
    const ResidencyText& t = ui_text(shown_language(state)).residency;
    rows_rect_ = never_rect_ = ImVec4(0, 0, 0, 0);
    // The legend comes before the rows, which choose bars or strips: it follows last frame's choice.
    const bool occupancy_key = drawn_mode_ == 2;
    drawn_mode_ = 0;
    const RunRecord* record = state.current.get();
    if (!record || record->provisional) {
        widgets::disabled_wrapped(t.idle);
        return;
    }
    if (record->serial != serial_) {
        model_ = build_residency_model(record->summary.trace);
        serial_ = record->serial;
    }
    if (!model_.available) {
        // A simulator run with no threads at all was refused before it started (a cooperative grid
        // too large to be resident): that is not "no data", it is the lesson's outcome.
        const trace::Trace& tr = record->summary.trace;
        if (tr.meta.backend != "gpu" && tr.threads.empty() && tr.meta.status == trace::RunStatus::Error)
            widgets::coloured_text_wrapped(theme::palette(state.presenter).deadlock,
                                           fill(t.refused, {std::to_string(tr.meta.grid.count())}).c_str());
        else
            widgets::disabled_wrapped(t.none);
        return;
    }
    const ResidencyModel& m = model_;
    widgets::wrapped(fill(t.summary, {std::to_string(m.blocks), std::to_string(m.sms.size()), std::to_string(m.ran),
                                      std::to_string(m.waited), std::to_string(m.stuck), std::to_string(m.never)})
                         .c_str());

    draw_legend(state, occupancy_key);
    // The fate of every block first (the never-started tail is the lesson's point, and must not be
    // the part that is cut off when the room is small), then the SM rows in what is left.
    draw_never(state);
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    // All of what is left (less the spacing ImGui adds after an item): no scrollbar for a few pixels.
    draw_rows(state, ImVec2(avail.x, std::max(ImGui::GetTextLineHeightWithSpacing() * 3,
                                              avail.y - ImGui::GetStyle().ItemSpacing.y)));
}

void ResidencyView::draw_legend(const AppState& state, bool occupancy_key) {
    const ResidencyText& t = ui_text(shown_language(state)).residency;
    const ResidencyModel& m = model_;
    bool first = true;
    auto item = [&](uint32_t colour, const char* words, uint32_t count) {
        if (!count) return;
        if (!first) widgets::same_line_if_fits(ImGui::CalcTextSize(words).x + ImGui::GetFontSize() * 2.5f);
        first = false;
        swatch(colour, words);
    };
    item(residency_colour::kRan, t.legend_ran, m.ran);
    item(residency_colour::kWaited, t.legend_waited, m.waited);
    item(residency_colour::kStuck, t.legend_stuck, m.stuck);
    item(residency_colour::kNever, t.legend_never, m.never);
    // Occupancy strips need their key.
    if (occupancy_key) {
        widgets::same_line_if_fits(ImGui::CalcTextSize(t.faint).x + ImGui::GetFontSize());
        ImGui::TextDisabled("%s", t.faint.s);
    }
    // The about button ends the legend line (beside the wrapped summary it would cover its words).
    widgets::about_button(t.about);
}

void ResidencyView::draw_rows(const AppState& state, ImVec2 size) {
    const ResidencyText& t = ui_text(shown_language(state)).residency;
    const ResidencyModel& m = model_;
    const uint32_t sms = uint32_t(m.sms.size());
    const float line = ImGui::GetTextLineHeight();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const ImU32 ink = ImGui::GetColorU32(ImGuiCol_Text), dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    const ImU32 grid_line = ImGui::GetColorU32(ImGuiCol_Border);
    if (sms == 0) {
        // Nothing was ever resident (every block waited for good): no rows, the words below say why.
        ImGui::Dummy(ImVec2(size.x, line));
        return;
    }
    const float label_w = ImGui::CalcTextSize("SM 0000\u2013000").x;
    const float axis_h = line * 1.3f;
    const float x0 = origin.x + label_w, x1 = origin.x + size.x - ImGui::GetFontSize() * 0.5f;
    const float rows_h = std::max(line, size.y - axis_h);
    // SMs per row: a row needs a readable label (a line) unless there are too many of them.
    const float min_row = std::max(4.0f, line * 0.5f);
    sms_per_row_ = std::max<uint32_t>(1, uint32_t(std::ceil(float(sms) * min_row / rows_h)));
    const uint32_t rows = (sms + sms_per_row_ - 1) / sms_per_row_;
    const float row_h = std::min(rows_h / float(rows), line * 4.0f);
    // A bar per block when each slot gets 2 pixels and one SM a row, and each slot's blocks get 3
    // pixels of width on average (a long queue of short blocks does not); else occupancy strips.
    const bool bars = sms_per_row_ == 1 && row_h * 0.85f / float(std::max(1u, m.max_slots)) >= 2.0f &&
                      m.max_bars_per_slot * 3.0 <= double(x1 - x0);
    drawn_mode_ = bars ? 1 : 2;
    const double span = double(m.end);
    auto x_of = [&](uint64_t tick) { return x0 + float(double(tick) / span) * (x1 - x0); };
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    const bool hovered_window = ImGui::IsWindowHovered();
    std::string hover;
    // Labels every few rows so that they never overlap.
    const uint32_t label_every = std::max<uint32_t>(1, uint32_t(std::ceil(line / row_h)));
    for (uint32_t row = 0; row < rows; ++row) {
        const uint32_t s0 = row * sms_per_row_, s1 = std::min(sms, s0 + sms_per_row_) - 1;
        const float y = origin.y + float(row) * row_h;
        if (row % label_every == 0) {
            const std::string label = s0 == s1 ? fill(t.sm, {std::to_string(s0)})
                                               : fill(t.sms, {std::to_string(s0), std::to_string(s1)});
            dl->AddText(ImVec2(origin.x, y + std::max(0.0f, (row_h - line) * 0.5f)), dim, label.c_str());
        }
        dl->AddLine(ImVec2(x0, y + row_h), ImVec2(x1, y + row_h), grid_line);
        const bool mouse_in_row = hovered_window && mouse.y >= y && mouse.y < y + row_h && mouse.x >= x0 && mouse.x < x1;
        const uint64_t mouse_tick =
            mouse_in_row ? std::min<uint64_t>(m.end - 1, uint64_t(double(mouse.x - x0) / double(x1 - x0) * span)) : 0;
        if (bars) {
            const ResidencySm& sm = m.sms[s0];
            const float slot_h = row_h * 0.85f / float(std::max(1u, m.max_slots));
            const float pad = slot_h > 5 ? 1.0f : 0.0f;
            for (const ResidentBar& b : sm.bars) {
                const float bx0 = x_of(b.from), bx1 = std::max(bx0 + 2.0f, x_of(b.to));
                const float by = y + row_h * 0.075f + float(b.slot) * slot_h;
                dl->AddRectFilled(ImVec2(bx0, by), ImVec2(bx1, by + slot_h - pad), bar_colour(b));
            }
            if (mouse_in_row) {
                const uint32_t slot = uint32_t(std::max(0.0f, (mouse.y - y - row_h * 0.075f) / slot_h));
                if (const ResidentBar* b = m.bar_at(s0, slot, mouse_tick)) {
                    hover = fill(t.hover_bar, {std::to_string(b->block), std::to_string(s0), std::to_string(b->from),
                                               b->retired ? std::to_string(b->to) : std::string(t.hover_end)});
                    if (b->waited) hover += std::string("\n") + t.hover_waited.s;
                    if (!b->retired) hover += std::string("\n") + t.hover_stuck.s;
                }
            }
        } else {
            // Occupancy: a column per two pixels, brighter where more of the row's slots are taken;
            // the colour of the worst thing in it (still resident at the end, then waited).
            const uint32_t bins = std::max<uint32_t>(1, uint32_t((x1 - x0) / 2));
            const std::vector<uint32_t> occ = m.occupancy(s0, s1, 0, m.end, bins);
            uint32_t capacity = 0;
            for (uint32_t s = s0; s <= s1; ++s)
                capacity += std::max(1u, m.sms[s].slots);
            // Which kinds a row holds: its bars' colours (rows are few; bars per row are scanned once).
            bool any_stuck = false, any_waited = false;
            for (uint32_t s = s0; s <= s1; ++s)
                for (const ResidentBar& b : m.sms[s].bars) {
                    any_stuck |= !b.retired;
                    any_waited |= b.waited;
                }
            const uint32_t base = any_stuck ? residency_colour::kStuck
                                  : any_waited ? residency_colour::kWaited
                                               : residency_colour::kRan;
            const float bw = (x1 - x0) / float(bins);
            // Full rows in the exact colour (the GUI tests find it); partial ones fainter. Runs of
            // equal bins are one rectangle, so a steady row costs one quad, not one per bin.
            auto alpha_of = [&](uint32_t count) {
                const float f = std::min(1.0f, float(count) / float(capacity));
                return count == 0 ? 0u : f >= 0.999f ? 255u : uint32_t(80 + 150 * f);
            };
            for (uint32_t i = 0; i < bins;) {
                const uint32_t alpha = alpha_of(occ[i]);
                uint32_t j = i + 1;
                while (j < bins && alpha_of(occ[j]) == alpha)
                    ++j;
                if (alpha)
                    dl->AddRectFilled(ImVec2(x0 + float(i) * bw, y + 1), ImVec2(x0 + float(j) * bw, y + row_h - 1),
                                      (base & 0x00FFFFFFu) | (alpha << 24));
                i = j;
            }
            if (mouse_in_row) {
                const uint32_t i = std::min(bins - 1, uint32_t((mouse.x - x0) / bw));
                const uint64_t a = uint64_t(double(i) / bins * span), z = uint64_t(double(i + 1) / bins * span);
                hover = fill(t.hover_occupancy, {s0 == s1 ? fill(t.sm, {std::to_string(s0)})
                                                          : fill(t.sms, {std::to_string(s0), std::to_string(s1)}),
                                                 std::to_string(a), std::to_string(z), std::to_string(occ[i]),
                                                 std::to_string(capacity)});
            }
        }
    }
    const float rows_bottom = origin.y + float(rows) * row_h;
    // The time axis: 0, the end, and the unit.
    dl->AddLine(ImVec2(x0, rows_bottom), ImVec2(x1, rows_bottom), dim);
    dl->AddText(ImVec2(x0, rows_bottom + 2), dim, "0");
    const std::string end_words = fill(t.axis_end, {std::to_string(m.end - 1)});
    dl->AddText(ImVec2(x1 - ImGui::CalcTextSize(end_words.c_str()).x, rows_bottom + 2), dim, end_words.c_str());
    (void)ink;
    rows_rect_ = ImVec4(x0, origin.y, x1, rows_bottom);
    ImGui::Dummy(ImVec2(size.x, float(rows) * row_h + axis_h));
    if (!hover.empty()) widgets::tooltip(hover.c_str(), ImGuiHoveredFlags_AllowWhenBlockedByActiveItem);
}

void ResidencyView::draw_never(const AppState& state) {
    const ResidencyText& t = ui_text(shown_language(state)).residency;
    const ResidencyModel& m = model_;
    const auto& table = state.current->summary.trace.residency;
    // The block strip: every block in index order, coloured by what became of it, so that the
    // never-started tail is seen at a glance (a column per pixel: its blocks' worst fate).
    ImGui::TextDisabled("%s", fill(t.strip, {std::to_string(m.blocks - 1)}).c_str());
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float w = ImGui::GetContentRegionAvail().x - ImGui::GetFontSize() * 0.5f;
    const float h = ImGui::GetTextLineHeight() * 1.1f;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const uint32_t cols = std::max<uint32_t>(1, std::min<uint32_t>(m.blocks, uint32_t(w)));
    const float cw = w / float(cols);
    auto fate = [&](uint32_t b) {
        const trace::BlockResidency& r = table[b];
        if (r.admitted == trace::BlockResidency::kNever) return 3;
        if (r.retired == trace::BlockResidency::kNever) return 2;
        return r.waited ? 1 : 0;
    };
    constexpr uint32_t colours[4] = {residency_colour::kRan, residency_colour::kWaited, residency_colour::kStuck,
                                     residency_colour::kNever};
    std::vector<int> fates(cols, 0);
    for (uint32_t c = 0; c < cols; ++c) {
        const uint32_t b0 = uint32_t(uint64_t(c) * m.blocks / cols);
        const uint32_t b1 = std::max(b0 + 1, uint32_t(uint64_t(c + 1) * m.blocks / cols));
        int worst = 0;
        for (uint32_t b = b0; b < b1 && b < m.blocks; ++b)
            worst = std::max(worst, fate(b));
        fates[c] = worst;
    }
    for (uint32_t c = 0; c < cols;) {
        uint32_t d = c + 1;
        while (d < cols && fates[d] == fates[c])
            ++d;
        dl->AddRectFilled(ImVec2(p.x + float(c) * cw, p.y), ImVec2(p.x + float(d) * cw, p.y + h), colours[fates[c]]);
        c = d;
    }
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    if (ImGui::IsWindowHovered() && mouse.x >= p.x && mouse.x < p.x + w && mouse.y >= p.y && mouse.y < p.y + h) {
        const uint32_t b = std::min(m.blocks - 1, uint32_t((mouse.x - p.x) / w * float(m.blocks)));
        const char* words[4] = {t.legend_ran, t.legend_waited, t.legend_stuck, t.legend_never};
        widgets::tooltip(fill(t.hover_strip, {std::to_string(b), words[fate(b)]}).c_str());
    }
    ImGui::Dummy(ImVec2(w, h));
    const float top = p.y;
    if (m.never) {
        const std::string ranges = range_words(m.never_started, 4, t.more);
        widgets::coloured_text_wrapped(theme::palette(state.presenter).deadlock,
                                       fill(m.never == 1 ? t.never_one : t.never_many,
                                            {ranges, std::to_string(m.never)})
                                           .c_str());
    }
    if (!m.waited_ranges.empty())
    {
        uint32_t n = 0;
        for (const BlockRange& r : m.waited_ranges)
            n += r.count();
        widgets::wrapped(fill(t.waited_words, {range_words(m.waited_ranges, 4, t.more), std::to_string(n)}).c_str());
    }
    never_rect_ = ImVec4(p.x, top, p.x + w, ImGui::GetCursorScreenPos().y);
}

} // namespace synclab::ui
