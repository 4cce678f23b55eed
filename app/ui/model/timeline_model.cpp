// The timeline's data model (see timeline_model.h for the contracts).
//
// Index of this file
// [SECTION] Helpers: searches over a row's events
// [SECTION] TimelineIndex: rows, events, waits, bands
// [SECTION] Layout
// [SECTION] Preprocess
// [SECTION] Findings
// [SECTION] Hit testing, fit and focus
#include "ui/model/timeline_model.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace synclab::ui {

using trace::Event;
using trace::EventKind;

// [SECTION] Helpers: searches over a row's events ----------------------------------------------------

namespace {

// First position p in [lo, hi) with events[items[p]].time >= target (hi if none).
size_t lower_bound_time(const std::vector<Event>& events, std::span<const uint32_t> items, size_t lo,
                        size_t hi, uint64_t target) {
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (events[items[mid]].time < target) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

// Time searches over one row: galloping over the row's coarse times (contiguous, cache-friendly),
// then a binary search over at most kCoarseStride events. O(log distance): short skips (zoomed in)
// stay cheap and long ones (zoomed out) cost no more than one binary search.
struct RowSearch {
    const std::vector<Event>& events;
    std::span<const uint32_t> items;
    std::span<const uint64_t> coarse;

    RowSearch(const std::vector<Event>& e, const RowEvents& level, size_t row)
        : events(e), items(level.row(row)), coarse(level.coarse_row(row)) {}

    // First position p in [from, n) with time >= target (n if none).
    size_t seek(size_t from, uint64_t target) const {
        constexpr size_t kStride = RowEvents::kCoarseStride;
        const size_t n = items.size();
        if (from >= n || events[items[from]].time >= target) return from;
        // Coarse entry c holds the time of item c * kStride; find the first c past `from` with a time
        // >= target (cn if none).
        const size_t cn = coarse.size();
        size_t known = from / kStride; // item known * kStride <= from: its time < target
        size_t hit = cn;
        for (size_t step = 1;; step *= 2) {
            const size_t probe = known + step;
            if (probe >= cn || coarse[probe] >= target) {
                const size_t end = std::min(probe, cn);
                hit = size_t(std::lower_bound(coarse.begin() + std::ptrdiff_t(known + 1),
                                              coarse.begin() + std::ptrdiff_t(end), target) -
                             coarse.begin());
                break;
            }
            known = probe;
        }
        // Items up to (hit - 1) * kStride are < target; item hit * kStride (if any) is >= target.
        const size_t lo = std::max(from + 1, (hit - 1) * kStride + 1);
        const size_t hi = hit < cn ? hit * kStride : n;
        return lower_bound_time(events, items, lo, hi, target);
    }
};

// First span index in [lo, hi) of a row whose max_end >= target.
size_t lower_bound_end(const std::vector<uint64_t>& max_end, size_t lo, size_t hi, uint64_t target) {
    return size_t(
        std::lower_bound(max_end.begin() + std::ptrdiff_t(lo), max_end.begin() + std::ptrdiff_t(hi), target) -
        max_end.begin());
}

bool touches(const Event& e, uint64_t address) {
    return e.address <= address && address < e.address + e.size();
}

bool event_before(const std::vector<Event>& events, uint32_t a, uint32_t b) {
    return events[a].time != events[b].time ? events[a].time < events[b].time : a < b;
}

} // namespace

// [SECTION] TimelineIndex: rows, events, waits, bands ------------------------------------------------

TimelineIndex::TimelineIndex(const trace::Trace& trace) : trace_(&trace) {
    if (!trace.events.empty()) {
        time_begin_ = UINT64_MAX;
        for (const Event& e : trace.events) {
            time_begin_ = std::min(time_begin_, e.time);
            time_end_ = std::max(time_end_, e.time);
        }
    }
    build_rows();
    build_events();
    build_waits();
    build_bands();
    std::vector<uint32_t> warp_of_thread(trace.threads.size(), kNoRow);
    for (uint32_t t = 0; t < warp_of_thread.size(); ++t)
        warp_of_thread[t] = warp_slot_of_thread(t);
    collectives_ = CollectiveIndex(trace, warp_of_thread, uint32_t(warps_.size()));
}

uint64_t TimelineIndex::ceil_trace_time(double c) const {
    if (!(c > 0)) return time_begin_; // also NaN
    const double limit = double(time_end_ - time_begin_) + 2;
    if (c >= limit) return time_end_ + 1;
    return time_begin_ + uint64_t(std::ceil(c));
}

uint32_t TimelineIndex::warp_slot_of_thread(uint32_t thread) const {
    const uint32_t slot = thread_slot(thread);
    return slot == kNoRow ? kNoRow : thread_rows_[slot].warp_slot;
}

uint32_t TimelineIndex::block_slot_of_thread(uint32_t thread) const {
    const uint32_t warp = warp_slot_of_thread(thread);
    return warp == kNoRow ? kNoRow : warps_[warp].block_slot;
}

uint32_t TimelineIndex::block_slot(uint32_t block) const {
    auto it = std::lower_bound(blocks_.begin(), blocks_.end(), block,
                               [](const BlockRowInfo& b, uint32_t id) { return b.block < id; });
    return it != blocks_.end() && it->block == block ? uint32_t(it - blocks_.begin()) : kNoRow;
}

// Rows come from the thread table, not from the events, so that threads that never ran (or whose
// events were dropped) still get a row. Order: block, warp, lane.
void TimelineIndex::build_rows() {
    const auto& threads = trace_->threads;
    std::vector<uint32_t> order(threads.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
        const trace::ThreadInfo& x = threads[a];
        const trace::ThreadInfo& y = threads[b];
        if (x.block != y.block) return x.block < y.block;
        if (x.warp != y.warp) return x.warp < y.warp;
        if (x.lane != y.lane) return x.lane < y.lane;
        return x.thread_in_block < y.thread_in_block;
    });
    slot_of_thread_.assign(threads.size(), kNoRow);
    thread_rows_.reserve(order.size());
    for (uint32_t t : order) {
        const trace::ThreadInfo& info = threads[t];
        if (blocks_.empty() || blocks_.back().block != info.block) {
            BlockRowInfo b;
            b.block = info.block;
            b.first_warp = uint32_t(warps_.size());
            blocks_.push_back(b);
        }
        BlockRowInfo& block = blocks_.back();
        if (block.warp_count == 0 || warps_.back().warp != info.warp) {
            WarpRowInfo w;
            w.block_slot = uint32_t(blocks_.size() - 1);
            w.warp = info.warp;
            w.first_lane = uint32_t(thread_rows_.size());
            warps_.push_back(w);
            ++block.warp_count;
        }
        WarpRowInfo& warp = warps_.back();
        ThreadRowInfo row;
        row.thread = t;
        row.warp_slot = uint32_t(warps_.size() - 1);
        row.waiting = info.end == trace::ThreadEnd::AtBarrier;
        slot_of_thread_[t] = uint32_t(thread_rows_.size());
        thread_rows_.push_back(row);
        ++warp.lane_count;
        ++block.threads;
        warp.waiting = warp.waiting || row.waiting;
        block.waiting = block.waiting || row.waiting;
        deadlocked_ = deadlocked_ || row.waiting;
    }
}

// Three counting sorts (block, warp, lane) in one pass each; ties keep the trace's order. A trace
// whose events are not in time order (a GPU trace merged from SMs) gets each row sorted afterwards.
void TimelineIndex::build_events() {
    const auto& events = trace_->events;
    const size_t thread_count = trace_->threads.size();
    RowEvents* lists[3] = {&block_events_, &warp_events_, &thread_events_};
    const size_t sizes[3] = {blocks_.size(), warps_.size(), thread_rows_.size()};
    // Per trace thread: its row in each level.
    std::vector<uint32_t> row_of[3];
    for (auto& r : row_of)
        r.assign(thread_count, kNoRow);
    for (uint32_t t = 0; t < thread_count; ++t) {
        const uint32_t slot = slot_of_thread_[t];
        row_of[2][t] = slot;
        row_of[1][t] = thread_rows_[slot].warp_slot;
        row_of[0][t] = warps_[row_of[1][t]].block_slot;
    }
    for (int level = 0; level < 3; ++level)
        lists[level]->offsets.assign(sizes[level] + 1, 0);
    size_t valid = 0;
    bool sorted = true;
    for (size_t i = 0; i < events.size(); ++i) {
        const Event& e = events[i];
        if (i > 0 && e.time < events[i - 1].time) sorted = false;
        if (e.thread >= thread_count) continue; // damaged record: no row to put it on
        ++valid;
        for (int level = 0; level < 3; ++level)
            ++lists[level]->offsets[row_of[level][e.thread] + 1];
    }
    for (int level = 0; level < 3; ++level) {
        RowEvents& list = *lists[level];
        std::partial_sum(list.offsets.begin(), list.offsets.end(), list.offsets.begin());
        list.items.resize(valid);
        std::vector<uint32_t> cursor(list.offsets.begin(), list.offsets.end() - 1);
        const std::vector<uint32_t>& rows = row_of[level];
        for (size_t i = 0; i < events.size(); ++i) {
            const uint32_t thread = events[i].thread;
            if (thread >= thread_count) continue;
            list.items[cursor[rows[thread]]++] = uint32_t(i);
        }
        if (!sorted) {
            for (size_t r = 0; r + 1 < list.offsets.size(); ++r) {
                std::stable_sort(list.items.begin() + list.offsets[r],
                                 list.items.begin() + list.offsets[r + 1],
                                 [&](uint32_t a, uint32_t b) { return events[a].time < events[b].time; });
            }
        }
        list.coarse_offsets.assign(1, 0);
        list.coarse.reserve(valid / RowEvents::kCoarseStride + list.rows());
        for (size_t r = 0; r < list.rows(); ++r) {
            for (size_t k = list.offsets[r]; k < list.offsets[r + 1]; k += RowEvents::kCoarseStride)
                list.coarse.push_back(events[list.items[k]].time);
            list.coarse_offsets.push_back(uint32_t(list.coarse.size()));
        }
    }
}

namespace {

// Spans of one row sorted by t0, with their running max of t1.
void finish_row(RowSpans& out, std::vector<WaitSpan>& row) {
    std::stable_sort(row.begin(), row.end(),
                     [](const WaitSpan& a, const WaitSpan& b) { return a.t0 < b.t0; });
    uint64_t max_end = 0;
    for (const WaitSpan& s : row) {
        max_end = std::max(max_end, s.t1);
        out.spans.push_back(s);
        out.max_end.push_back(max_end);
    }
    out.offsets.push_back(uint32_t(out.spans.size()));
}

// Merges spans of one (barrier, phase) into one span: first arrive to last leave.
void merge_phases(std::vector<WaitSpan>& spans, const std::vector<Event>& events) {
    std::sort(spans.begin(), spans.end(), [](const WaitSpan& a, const WaitSpan& b) {
        return a.barrier != b.barrier ? a.barrier < b.barrier : a.phase < b.phase;
    });
    size_t out = 0;
    for (size_t i = 0; i < spans.size(); ++i) {
        if (out > 0 && spans[out - 1].barrier == spans[i].barrier && spans[out - 1].phase == spans[i].phase) {
            WaitSpan& m = spans[out - 1];
            const uint32_t before = m.arrive;
            if (spans[i].t0 < m.t0 || (spans[i].t0 == m.t0 && spans[i].arrive != kNoEvent &&
                                       (m.arrive == kNoEvent || events[spans[i].arrive].time < events[m.arrive].time))) {
                m.arrive = spans[i].arrive;
                m.site = spans[i].site;
            }
            // other_arrive: any arrival of the merged spans at another instruction than m's.
            const auto site = [&](uint32_t e) { return events[e].site; };
            if (!m.mixed() || site(m.other_arrive) == m.site) {
                m.other_arrive = kNoEvent;
                for (uint32_t e : {before, spans[i].arrive, spans[i].other_arrive})
                    if (e != kNoEvent && site(e) != m.site) {
                        m.other_arrive = e;
                        break;
                    }
            }
            m.t0 = std::min(m.t0, spans[i].t0);
            m.t1 = std::max(m.t1, spans[i].t1);
            m.threads += spans[i].threads;
            m.open = m.open || spans[i].open;
        } else {
            spans[out++] = spans[i];
        }
    }
    spans.resize(out);
}

} // namespace

// Per thread: an arrive opens a wait for its barrier id, the leave of the same id and phase closes
// it (bar.arrive has no leave: the next arrive at that id replaces it). A thread that ends waiting
// (deadlock, timeout) keeps its wait open to the end of the trace. Warp and block rows merge their
// threads' waits per (barrier, phase).
void TimelineIndex::build_waits() {
    const auto& events = trace_->events;
    for (RowSpans* s : {&block_waits_, &warp_waits_, &thread_waits_})
        s->offsets.assign(1, 0);
    std::vector<WaitSpan> row, warp_row, block_row;
    std::vector<std::pair<uint32_t, uint32_t>> pending; // (barrier id, arrive event)
    for (uint32_t b = 0; b < blocks_.size(); ++b) {
        block_row.clear();
        for (uint32_t w = blocks_[b].first_warp; w < blocks_[b].first_warp + blocks_[b].warp_count; ++w) {
            warp_row.clear();
            for (uint32_t slot = warps_[w].first_lane; slot < warps_[w].first_lane + warps_[w].lane_count;
                 ++slot) {
                row.clear();
                pending.clear();
                for (uint32_t i : thread_events_.row(slot)) {
                    const Event& e = events[i];
                    if (e.kind == EventKind::BarrierArrive) {
                        auto it = std::find_if(pending.begin(), pending.end(),
                                               [&](const auto& p) { return p.first == e.address; });
                        if (it != pending.end()) {
                            it->second = i;
                        } else {
                            pending.emplace_back(uint32_t(e.address), i);
                        }
                    } else if (e.kind == EventKind::BarrierLeave) {
                        auto it = std::find_if(pending.begin(), pending.end(), [&](const auto& p) {
                            return p.first == e.address && events[p.second].value == e.value;
                        });
                        if (it == pending.end()) continue; // a leave without its arrival (dropped events)
                        const Event& a = events[it->second];
                        row.push_back(WaitSpan{a.time, e.time, it->second, e.value, uint32_t(e.address), 1,
                                               false, kNoEvent, a.site});
                        pending.erase(it);
                    }
                }
                const trace::ThreadInfo& info = trace_->threads[thread_rows_[slot].thread];
                if (thread_rows_[slot].waiting) {
                    // Where it is stuck is its end site (the deadlock finding says the same): the
                    // arrival recorded there, or, where its warp never executed that barrier (no
                    // arrival), from its last event on. Never an earlier barrier it passed.
                    const auto it = std::find_if(pending.begin(), pending.end(), [&](const auto& p) {
                        return events[p.second].site == info.end_site;
                    });
                    if (it != pending.end()) {
                        const Event& a = events[it->second];
                        row.push_back(WaitSpan{a.time, time_end_, it->second, a.value, uint32_t(a.address), 1,
                                               true, kNoEvent, a.site});
                    } else {
                        const auto own = thread_events_.row(slot);
                        const uint64_t from = own.empty() ? time_begin_ : events[own.back()].time;
                        row.push_back(WaitSpan{from, time_end_, kNoEvent, info.end_site, kUnrecordedBarrier, 1,
                                               true, kNoEvent, info.end_site});
                    }
                }
                warp_row.insert(warp_row.end(), row.begin(), row.end());
                finish_row(thread_waits_, row);
            }
            merge_phases(warp_row, events);
            block_row.insert(block_row.end(), warp_row.begin(), warp_row.end());
            finish_row(warp_waits_, warp_row);
        }
        merge_phases(block_row, events);
        finish_row(block_waits_, block_row);
    }
}

// Phases per block in the order of their first release, from the block's leaves.
void TimelineIndex::build_bands() {
    const auto& events = trace_->events;
    struct Release {
        uint32_t barrier, phase;
        uint64_t first, last;
    };
    std::vector<Release> releases;
    for (uint32_t b = 0; b < blocks_.size(); ++b) {
        const auto items = block_events_.row(b);
        if (items.empty()) continue;
        releases.clear();
        uint64_t first = UINT64_MAX, last = 0;
        for (uint32_t i : items) {
            const Event& e = events[i];
            first = std::min(first, e.time);
            last = std::max(last, e.time);
            if (e.kind != EventKind::BarrierLeave) continue;
            // Releases of one phase are adjacent in practice; search backwards a little for the rest.
            auto it = std::find_if(releases.rbegin(), releases.rend(), [&](const Release& r) {
                return r.barrier == e.address && r.phase == e.value;
            });
            if (it != releases.rend()) {
                it->first = std::min(it->first, e.time);
                it->last = std::max(it->last, e.time);
            } else {
                releases.push_back(Release{uint32_t(e.address), e.value, e.time, e.time});
            }
        }
        if (releases.empty()) continue;
        std::stable_sort(releases.begin(), releases.end(),
                         [](const Release& x, const Release& y) { return x.first < y.first; });
        auto& bands = blocks_[b].bands;
        for (size_t k = 0; k < releases.size(); ++k) {
            const uint64_t t0 = k == 0 ? first : releases[k - 1].first;
            bands.push_back(PhaseBand{t0, releases[k].last, uint32_t(k)});
        }
        const uint64_t end = blocks_[b].waiting ? time_end_ : last;
        bands.push_back(PhaseBand{releases.back().first, std::max(end, releases.back().first),
                                  uint32_t(releases.size())});
        std::stable_sort(bands.begin(), bands.end(),
                         [](const PhaseBand& x, const PhaseBand& y) { return x.t1 < y.t1; });
    }
}

// [SECTION] Layout -----------------------------------------------------------------------------------

void TimelineExpansion::toggle_block(uint32_t slot) {
    if (slot >= blocks.size()) blocks.resize(slot + 1, 0);
    blocks[slot] = !blocks[slot];
}

void TimelineExpansion::toggle_warp(uint32_t slot) {
    if (slot >= warps.size()) warps.resize(slot + 1, 0);
    warps[slot] = !warps[slot];
}

void TimelineExpansion::pin_lane(uint32_t slot) {
    if (slot >= pinned.size()) pinned.resize(slot + 1, 0);
    pinned[slot] = 1;
}

void TimelineExpansion::fold_between_pins(const TimelineIndex& index) {
    clear_folds();
    const auto& lanes = index.thread_rows();
    const auto& warp_rows = index.warps();
    const auto& block_rows = index.blocks();
    // Slots are in layout order (blocks, their warps, their lanes): the story runs from the first
    // pinned lane's warp to the last pinned lane.
    uint32_t first = kNoRow, last = kNoRow, pins = 0;
    std::vector<uint8_t> warp_has_pin(warp_rows.size(), 0), block_has_pin(block_rows.size(), 0);
    for (uint32_t t = 0; t < lanes.size(); ++t) {
        if (!lane_pinned(t)) continue;
        if (first == kNoRow) first = t;
        last = t;
        ++pins;
        warp_has_pin[lanes[t].warp_slot] = 1;
        block_has_pin[warp_rows[lanes[t].warp_slot].block_slot] = 1;
    }
    if (pins < 2) return;
    const uint32_t w0 = lanes[first].warp_slot, w1 = lanes[last].warp_slot;
    const uint32_t b0 = warp_rows[w0].block_slot, b1 = warp_rows[w1].block_slot;
    folded_warps.assign(warp_rows.size(), 0);
    folded_blocks.assign(block_rows.size(), 0);
    for (uint32_t w = w0 + 1; w < w1; ++w)
        if (!warp_has_pin[w] && block_has_pin[warp_rows[w].block_slot]) folded_warps[w] = 1;
    for (uint32_t b = b0 + 1; b < b1; ++b)
        if (!block_has_pin[b]) folded_blocks[b] = 1;
}

void TimelineExpansion::unfold(const TimelineFold& fold) {
    for (uint32_t w = fold.first_warp; w < fold.first_warp + fold.warps && w < folded_warps.size(); ++w)
        folded_warps[w] = 0;
    for (uint32_t b = fold.first_block; b < fold.first_block + fold.blocks && b < folded_blocks.size(); ++b)
        folded_blocks[b] = 0;
}

TimelineExpansion TimelineExpansion::initial(const TimelineIndex& index, uint32_t open_blocks_up_to) {
    TimelineExpansion x;
    const size_t blocks = index.blocks().size();
    x.blocks.assign(blocks, blocks <= open_blocks_up_to ? 1 : 0);
    if (blocks > 0) x.blocks[0] = 1;
    x.warps.assign(index.warps().size(), 0);
    return x;
}

TimelineLayout layout_rows(const TimelineIndex& index, const TimelineExpansion& expansion,
                           const RowMetrics& metrics) {
    TimelineLayout layout;
    layout.block_row.assign(index.blocks().size(), kNoRow);
    layout.warp_row.assign(index.warps().size(), kNoRow);
    layout.lane_row.assign(index.thread_rows().size(), kNoRow);
    layout.block_extent.assign(index.blocks().size(), {0.f, 0.f});
    float y = 0;
    bool after_fold = false; // nothing laid out since the last fold
    auto add = [&](RowKind kind, uint32_t slot, float height) {
        layout.rows.push_back(TimelineRow{kind, slot, y, height});
        y += height + metrics.gap;
        after_fold = false;
        return uint32_t(layout.rows.size() - 1);
    };
    // A folded slot joins the fold right above it (nothing laid out since: a block's last warps are
    // followed by the blocks after it), else starts one.
    auto fold = [&](RowKind kind, uint32_t slot) {
        if (!after_fold) {
            layout.folds.push_back(TimelineFold{slot, 0, slot, 0, y, metrics.thread_height});
            y += metrics.thread_height + metrics.gap;
            after_fold = true;
        }
        TimelineFold& f = layout.folds.back();
        if (kind == RowKind::Warp) {
            if (f.warps == 0) f.first_warp = slot;
            ++f.warps;
        } else {
            if (f.blocks == 0) f.first_block = slot;
            ++f.blocks;
        }
    };
    for (uint32_t b = 0; b < index.blocks().size(); ++b) {
        const BlockRowInfo& block = index.blocks()[b];
        const float top = y;
        if (expansion.block_folded(b)) {
            fold(RowKind::Block, b);
            layout.block_extent[b] = {top, top};
            continue;
        }
        layout.block_row[b] = add(RowKind::Block, b, metrics.block_height);
        if (expansion.block_open(b)) {
            for (uint32_t w = block.first_warp; w < block.first_warp + block.warp_count; ++w) {
                if (expansion.warp_folded(w)) {
                    fold(RowKind::Warp, w);
                    continue;
                }
                layout.warp_row[w] = add(RowKind::Warp, w, metrics.warp_height);
                const bool open = expansion.warp_open(w);
                const WarpRowInfo& warp = index.warps()[w];
                for (uint32_t t = warp.first_lane; t < warp.first_lane + warp.lane_count; ++t)
                    if (open || expansion.lane_pinned(t))
                        layout.lane_row[t] = add(RowKind::Thread, t, metrics.thread_height);
            }
        }
        layout.block_extent[b] = {top, y - metrics.gap};
    }
    layout.height = std::max(0.f, y - metrics.gap);
    return layout;
}

const TimelineFold* TimelineLayout::fold_at(float y) const {
    for (const TimelineFold& f : folds)
        if (f.y <= y && y < f.bottom()) return &f;
    return nullptr;
}

std::pair<uint32_t, uint32_t> TimelineLayout::rows_in(float y0, float y1) const {
    auto first = std::partition_point(rows.begin(), rows.end(),
                                      [&](const TimelineRow& r) { return r.bottom() <= y0; });
    auto last = std::partition_point(first, rows.end(), [&](const TimelineRow& r) { return r.y < y1; });
    return {uint32_t(first - rows.begin()), uint32_t(last - rows.begin())};
}

uint32_t TimelineLayout::row_at(float y) const {
    auto it =
        std::partition_point(rows.begin(), rows.end(), [&](const TimelineRow& r) { return r.bottom() <= y; });
    return it != rows.end() && it->y <= y ? uint32_t(it - rows.begin()) : kNoRow;
}

uint32_t TimelineLayout::row_of_thread(const TimelineIndex& index, uint32_t thread) const {
    const uint32_t slot = index.thread_slot(thread);
    if (slot == kNoRow) return kNoRow;
    if (slot < lane_row.size() && lane_row[slot] != kNoRow) return lane_row[slot];
    const uint32_t warp = index.thread_rows()[slot].warp_slot;
    if (warp < warp_row.size() && warp_row[warp] != kNoRow) return warp_row[warp];
    const uint32_t block = index.warps()[warp].block_slot;
    return block < block_row.size() ? block_row[block] : kNoRow;
}

// [SECTION] Preprocess -------------------------------------------------------------------------------

void TimelineFrame::clear() {
    first_row = last_row = 0;
    events.clear();
    waits.clear();
    bands.clear();
    markers.clear();
    collectives.clear();
}

const RowEvents& row_events_level(const TimelineIndex& index, RowKind kind) {
    switch (kind) {
    case RowKind::Block:
        return index.block_events();
    case RowKind::Warp:
        return index.warp_events();
    case RowKind::Thread:
        return index.thread_events();
    }
    return index.thread_events();
}

std::span<const uint32_t> row_events(const TimelineIndex& index, const TimelineRow& row) {
    return row_events_level(index, row.kind).row(row.slot);
}

const RowSpans& row_spans_level(const TimelineIndex& index, RowKind kind) {
    switch (kind) {
    case RowKind::Block:
        return index.block_waits();
    case RowKind::Warp:
        return index.warp_waits();
    case RowKind::Thread:
        return index.thread_waits();
    }
    return index.thread_waits();
}

namespace {

bool row_waiting(const TimelineIndex& index, const TimelineRow& row) {
    switch (row.kind) {
    case RowKind::Block:
        return index.blocks()[row.slot].waiting;
    case RowKind::Warp:
        return index.warps()[row.slot].waiting;
    case RowKind::Thread:
        return index.thread_rows()[row.slot].waiting;
    }
    return false;
}

// Events of one row: a run of events each closer than fold_px to the previous one becomes one folded
// item. Each step jumps (galloping search) to the first event at least fold_px further right, so a
// row costs O(width / fold_px) searches however many events it holds.
void preprocess_events(const TimelineIndex& index, const Viewport& view, uint32_t row_index,
                       const RowEvents& level, uint32_t slot, TimelineFrame& out) {
    const auto& events = index.trace().events;
    const RowSearch search(events, level, slot);
    const std::span<const uint32_t> items = search.items;
    const size_t n = items.size();
    if (n == 0) return;
    const double scale = view.px_per_time();
    const double margin = double(view.fold_px) / scale;
    const double right = view.range.t1 + margin;
    auto x_of = [&](uint32_t event) { return view.x_of(index.to_camera(events[event].time)); };
    auto next_after = [&](float x) { return index.ceil_trace_time(view.time_at(x + view.fold_px)); };
    size_t i = search.seek(0, index.ceil_trace_time(view.range.t0 - margin));
    while (i < n) {
        const uint32_t first = items[i];
        if (index.to_camera(events[first].time) > right) break;
        const float x = x_of(first);
        size_t j = search.seek(i + 1, next_after(x));
        while (j < n) {
            const float xj = x_of(items[j]);
            if (xj - x_of(items[j - 1]) >= view.fold_px || xj > view.width + view.fold_px) break;
            j = search.seek(j + 1, next_after(xj));
        }
        EventItem item;
        item.x0 = x;
        item.x1 = x_of(items[j - 1]);
        item.row = row_index;
        item.event = first;
        item.last = items[j - 1];
        item.count = uint32_t(j - i);
        item.kind = events[first].kind;
        item.uniform = item.count == 1;
        if (item.count > 1 && item.count <= kUniformScan) {
            item.uniform =
                std::all_of(items.begin() + std::ptrdiff_t(i + 1), items.begin() + std::ptrdiff_t(j),
                            [&](uint32_t e) { return events[e].kind == item.kind; });
        }
        out.events.push_back(item);
        i = j;
    }
}

float clip_x(float x, const Viewport& view) {
    return std::clamp(x, -1.f, view.width + 1.f);
}

// Wait spans of one row, clipped; spans closer than a pixel merge (skipping those wholly inside).
void preprocess_waits(const TimelineIndex& index, const Viewport& view, uint32_t row_index,
                      const RowSpans& level, uint32_t slot, TimelineFrame& out) {
    const size_t lo = level.offsets[slot], hi = level.offsets[slot + 1];
    if (lo == hi) return;
    size_t i = lower_bound_end(level.max_end, lo, hi, index.ceil_trace_time(view.range.t0));
    const size_t first_item = out.waits.size();
    while (i < hi) {
        const WaitSpan& s = level.spans[i];
        if (index.to_camera(s.t0) > view.range.t1) break;
        const float x0 = clip_x(view.x_of(index.to_camera(s.t0)), view);
        const float x1 = clip_x(view.x_of(index.to_camera(s.t1)), view);
        // Two waits at different barriers that meet end to end (a thread released at one barrier
        // and stuck at the next) stay two when both are wide enough to show: each is labelled with its
        // own line. At most one item per few pixels either way.
        const auto apart = [&](const SpanItem& prev) {
            constexpr float kWide = 3.0f;
            return prev.x1 - prev.x0 >= kWide && x1 - x0 >= kWide && level.spans[prev.span].site != s.site;
        };
        if (out.waits.size() > first_item && x0 <= out.waits.back().x1 + 1 && !apart(out.waits.back())) {
            SpanItem& prev = out.waits.back();
            prev.x1 = std::max(prev.x1, x1);
            prev.count += 1;
            prev.open = prev.open || s.open;
            prev.one_site = prev.one_site && level.spans[prev.span].site == s.site;
        } else {
            out.waits.push_back(SpanItem{x0, x1, row_index, uint32_t(i), 1, s.open});
        }
        // Spans ending before the merged item's right pixel lie inside it: count them, skip them
        // (unread: the item no longer says which barrier it is).
        const size_t next = lower_bound_end(level.max_end, i + 1, hi,
                                            index.ceil_trace_time(view.time_at(out.waits.back().x1 + 1)));
        out.waits.back().count += uint32_t(next - (i + 1));
        if (next > i + 1) out.waits.back().one_site = false;
        i = next;
    }
}

void preprocess_bands(const TimelineIndex& index, const TimelineLayout& layout, const Viewport& view,
                      uint32_t block, TimelineFrame& out) {
    const auto& bands = index.blocks()[block].bands;
    if (bands.empty()) return;
    const auto [ey0, ey1] = layout.block_extent[block];
    const float y0 = std::max(ey0, view.y0), y1 = std::min(ey1, view.y1);
    if (y1 <= y0) return;
    auto it = std::lower_bound(bands.begin(), bands.end(), index.ceil_trace_time(view.range.t0),
                               [](const PhaseBand& b, uint64_t t) { return b.t1 < t; });
    auto x_at = [&](uint64_t t) { return clip_x(view.x_of(index.to_camera(t)), view); };
    auto first_ending_after = [&](auto from, float x) {
        return std::lower_bound(from, bands.end(), index.ceil_trace_time(view.time_at(x)),
                                [](const PhaseBand& b, uint64_t t) { return b.t1 < t; });
    };
    while (it != bands.end() && index.to_camera(it->t0) <= view.range.t1) {
        BandItem cur{x_at(it->t0), x_at(it->t1), y0, y1, block, it->phase, 1};
        ++it;
        if (cur.x1 - cur.x0 >= 2) {
            out.bands.push_back(cur);
            continue;
        }
        // A run of bands narrower than 2 px becomes one item: skip those ending within 2 px, absorb
        // the next narrow adjacent one, repeat. Each round moves the item's end by >= 2 px.
        while (it != bands.end()) {
            auto next = first_ending_after(it, cur.x1 + 2);
            if (next != it) {
                cur.count += uint32_t(next - it);
                cur.x1 = std::max(cur.x1, x_at(std::prev(next)->t1));
                it = next;
            }
            if (it == bands.end() || index.to_camera(it->t0) > view.range.t1) break;
            const float bx0 = x_at(it->t0), bx1 = x_at(it->t1);
            if (bx1 - bx0 >= 2 || bx0 > cur.x1 + 1) break;
            cur.x1 = std::max(cur.x1, bx1);
            ++cur.count;
            ++it;
        }
        out.bands.push_back(cur);
    }
}

// Warp collectives of one warp row, clipped; marks closer than fold_px merge, and the marks wholly
// inside a merged item are skipped by binary search (a frame's cost stays bounded by its pixels).
void preprocess_collectives(const TimelineIndex& index, const Viewport& view, uint32_t row_index,
                            uint32_t warp_slot, TimelineFrame& out) {
    const CollectiveIndex& c = index.collectives();
    if (c.empty()) return;
    const size_t lo = c.offset(warp_slot), hi = c.offset(warp_slot + 1);
    if (lo == hi) return;
    size_t i = lower_bound_end(c.max_end(), lo, hi, index.ceil_trace_time(view.range.t0));
    const size_t first_item = out.collectives.size();
    while (i < hi) {
        const CollectiveMark& m = c.mark(uint32_t(i));
        if (index.to_camera(m.t0) > view.range.t1) break;
        const float x0 = clip_x(view.x_of(index.to_camera(m.t0)), view);
        const float x1 = clip_x(view.x_of(index.to_camera(m.t1)), view);
        if (out.collectives.size() > first_item && x0 <= out.collectives.back().x1 + view.fold_px) {
            CollectiveItem& prev = out.collectives.back();
            prev.x1 = std::max(prev.x1, x1);
            prev.count += 1;
        } else {
            out.collectives.push_back(CollectiveItem{x0, x1, row_index, uint32_t(i), 1});
        }
        const size_t next =
            lower_bound_end(c.max_end(), i + 1, hi,
                            index.ceil_trace_time(view.time_at(out.collectives.back().x1 + view.fold_px)));
        out.collectives.back().count += uint32_t(next - (i + 1));
        i = next;
    }
}

} // namespace

void preprocess(const TimelineIndex& index, const TimelineLayout& layout, const Viewport& view,
                TimelineFrame& out) {
    out.clear();
    if (index.empty() || !view.range.valid() || !(view.width > 0) || !(view.y1 > view.y0)) return;
    const auto [first, last] = layout.rows_in(view.y0, view.y1);
    out.first_row = first;
    out.last_row = last;
    const double end = index.to_camera(index.time_end());
    const float end_x = view.x_of(end);
    uint32_t last_block = kNoRow;
    for (uint32_t r = first; r < last; ++r) {
        const TimelineRow& row = layout.rows[r];
        const uint32_t block = row.kind == RowKind::Block ? row.slot
                               : row.kind == RowKind::Warp
                                   ? index.warps()[row.slot].block_slot
                                   : index.warps()[index.thread_rows()[row.slot].warp_slot].block_slot;
        if (block != last_block) {
            preprocess_bands(index, layout, view, block, out);
            last_block = block;
        }
        preprocess_waits(index, view, r, row_spans_level(index, row.kind), row.slot, out);
        preprocess_events(index, view, r, row_events_level(index, row.kind), row.slot, out);
        if (row.kind == RowKind::Warp) preprocess_collectives(index, view, r, row.slot, out);
        if (row_waiting(index, row) && end >= view.range.t0 && end <= view.range.t1)
            out.markers.push_back(MarkerItem{end_x, r, MarkerKind::Deadlock, kNoEvent});
    }
}

// [SECTION] Findings ---------------------------------------------------------------------------------

namespace {

// Accesses of `thread` touching `address`, preferring those at `site`, then those at any of the
// finding's lines, then any.
std::vector<uint32_t> accesses(const TimelineIndex& index, const analysis::Finding& f, uint32_t thread,
                               uint32_t site) {
    std::vector<uint32_t> out;
    const uint32_t slot = index.thread_slot(thread);
    if (slot == kNoRow) return out;
    const auto& trace = index.trace();
    const bool shared = f.space == trace::Space::Shared;
    if (shared && trace.threads[thread].block != f.block) return out;
    const auto items = index.thread_events().row(slot);
    for (int pass = 0; pass < 3 && out.empty(); ++pass) {
        for (uint32_t i : items) {
            const Event& e = trace.events[i];
            if (!e.is_memory_access() || e.space() != f.space || !touches(e, f.address)) continue;
            if (pass == 0 && e.site != site) continue;
            if (pass == 1 && !analysis::at_finding_line(trace, f, e.site)) continue;
            out.push_back(i);
        }
    }
    return out;
}

// Every access of `thread` to the finding's address (any site), in time order.
std::vector<uint32_t> accesses_to_address(const TimelineIndex& index, const analysis::Finding& f,
                                          uint32_t thread) {
    std::vector<uint32_t> out;
    const uint32_t slot = index.thread_slot(thread);
    if (slot == kNoRow) return out;
    const auto& trace = index.trace();
    for (uint32_t i : index.thread_events().row(slot)) {
        const Event& e = trace.events[i];
        if (e.is_memory_access() && e.space() == f.space && touches(e, f.address)) out.push_back(i);
    }
    return out;
}

// A lost update's interleaving: a read-modify-write of each of the two threads (a load, then the
// store after it) that overlap in time, so that one store overwrites the other's update: the four
// events in time order (load, load, store, store), or nothing when the trace shows no such overlap.
std::vector<uint32_t> lost_update_steps(const TimelineIndex& index, const analysis::Finding& f) {
    if (f.threads.size() < 2) return {};
    const auto& events = index.trace().events;
    struct Rmw {
        uint32_t load, store;
    };
    auto updates = [&](uint32_t thread) {
        std::vector<Rmw> out;
        uint32_t load = kNoEvent;
        for (uint32_t e : accesses_to_address(index, f, thread)) {
            if (events[e].kind == EventKind::Load) load = e;
            if (events[e].kind == EventKind::Store && load != kNoEvent) {
                out.push_back({load, e});
                load = kNoEvent;
            }
        }
        return out;
    };
    const std::vector<Rmw> a = updates(f.threads[0]), b = updates(f.threads[1]);
    for (const Rmw& x : a)
        for (const Rmw& y : b)
            if (event_before(events, x.load, y.store) && event_before(events, y.load, x.store)) {
                std::vector<uint32_t> steps{x.load, y.load, x.store, y.store};
                std::sort(steps.begin(), steps.end(),
                          [&](uint32_t p, uint32_t q) { return event_before(events, p, q); });
                return steps;
            }
    return {};
}

// Barrier divergence: the arrival of `thread` at the finding's lines. Deadlock: where the thread is
// when the run ends, which is where the finding says it is (its end site): its arrival there, else
// its last event (a thread spinning in a loop; a lane stuck at a barrier its warp never executed,
// which records no arrival). Never an earlier barrier the thread passed on its way.
uint32_t arrival(const TimelineIndex& index, const analysis::Finding& f, uint32_t thread) {
    const uint32_t slot = index.thread_slot(thread);
    if (slot == kNoRow) return kNoEvent;
    const auto& trace = index.trace();
    const uint32_t end_site = thread < trace.threads.size() ? trace.threads[thread].end_site : UINT32_MAX;
    uint32_t at_end = kNoEvent, last = kNoEvent;
    for (uint32_t i : index.thread_events().row(slot)) {
        const Event& e = trace.events[i];
        last = i;
        if (e.kind != EventKind::BarrierArrive) continue;
        if (f.kind == analysis::FindingKind::Deadlock) {
            if (e.site == end_site) at_end = i;
        } else if (analysis::at_finding_line(trace, f, e.site)) {
            return i;
        }
    }
    if (f.kind != analysis::FindingKind::Deadlock) return kNoEvent;
    return at_end != kNoEvent ? at_end : last;
}

} // namespace

FindingEvents resolve_finding(const TimelineIndex& index, const analysis::Finding& f) {
    FindingEvents out;
    if (index.empty()) return out;
    const auto& events = index.trace().events;
    switch (f.kind) {
    case analysis::FindingKind::Race:
    case analysis::FindingKind::StaleRead:
    case analysis::FindingKind::LostUpdate: {
        if (f.threads.size() < 2 || f.sites.empty()) return out;
        const uint32_t site0 = f.sites[0];
        const uint32_t site1 = f.sites.size() > 1 ? f.sites[1] : f.sites[0];
        const std::vector<uint32_t> a = accesses(index, f, f.threads[0], site0);
        const std::vector<uint32_t> b = accesses(index, f, f.threads[1], site1);
        if (a.empty() || b.empty()) return out;
        // The closest pair with the first access before the second (both lists are in time order).
        uint64_t best = UINT64_MAX;
        size_t k = 0;
        for (uint32_t second : b) {
            while (k < a.size() && event_before(events, a[k], second))
                ++k;
            if (k == 0) continue;
            const uint64_t gap = events[second].time - events[a[k - 1]].time;
            if (gap < best) {
                best = gap;
                out.first = a[k - 1];
                out.second = second;
            }
        }
        if (!out.has_pair()) { // the recorded order disagrees with the finding's: show the first ones
            out.first = a.front();
            out.second = b.front();
        }
        if (f.kind == analysis::FindingKind::LostUpdate) out.steps = lost_update_steps(index, f);
        break;
    }
    case analysis::FindingKind::Contention: // a hot address, not a pair: nothing to point at yet
        break;
    case analysis::FindingKind::OutOfBounds: // one access: its example's, marked as a point
        if (!f.threads.empty() && !f.sites.empty()) {
            const std::vector<uint32_t> a = accesses(index, f, f.threads[0], f.sites[0]);
            if (!a.empty()) out.others.push_back(a.front());
        }
        break;
    case analysis::FindingKind::BarrierDivergence:
    case analysis::FindingKind::Deadlock:
        for (uint32_t t : f.threads) {
            const uint32_t e = arrival(index, f, t);
            if (e != kNoEvent) out.others.push_back(e);
        }
        break;
    }
    return out;
}

FindingMarks finding_marks(const TimelineIndex& index, const TimelineLayout& layout,
                           const std::vector<analysis::Finding>& findings,
                           const std::vector<FindingEvents>& resolved, int only) {
    FindingMarks marks;
    if (index.empty()) return marks;
    const auto& events = index.trace().events;
    auto end_of = [&](uint32_t event) {
        return ArrowEnd{layout.row_of_thread(index, events[event].thread),
                        index.to_camera(events[event].time), event};
    };
    const size_t count = std::min(findings.size(), resolved.size());
    for (size_t i = 0; i < count; ++i) {
        if (only >= 0 && size_t(only) != i) continue;
        const FindingEvents& r = resolved[i];
        if (r.has_pair()) {
            FindingArrow arrow{uint32_t(i), findings[i].kind, end_of(r.first), end_of(r.second)};
            if (arrow.from.row != kNoRow && arrow.to.row != kNoRow) marks.arrows.push_back(arrow);
        }
        for (uint32_t e : r.others) {
            FindingPoint p{uint32_t(i), findings[i].kind, end_of(e)};
            if (p.at.row != kNoRow) marks.points.push_back(p);
        }
    }
    return marks;
}

// [SECTION] Hit testing, fit and focus ---------------------------------------------------------------

Hit hit_test(const TimelineFrame& frame, const TimelineLayout& layout, float x, float y, float radius) {
    Hit hit;
    const uint32_t row = layout.row_at(y);
    if (row == kNoRow) return hit;
    hit.row = row;
    auto first = std::partition_point(frame.events.begin(), frame.events.end(),
                                      [&](const EventItem& e) { return e.row < row; });
    float best = radius;
    for (size_t i = 0; i < frame.collectives.size(); ++i) {
        const CollectiveItem& c = frame.collectives[i];
        if (c.row != row) continue;
        const float d = x < c.x0 ? c.x0 - x : x > c.x1 ? x - c.x1 : 0.f;
        if (d <= best) {
            best = d;
            hit.what = Hit::What::Collective;
            hit.item = uint32_t(i);
        }
    }
    if (hit.what != Hit::What::None) return hit;
    for (auto it = first; it != frame.events.end() && it->row == row; ++it) {
        if (it->x0 - radius > x) break;
        const float d = x < it->x0 ? it->x0 - x : x > it->x1 ? x - it->x1 : 0.f;
        if (d <= best) {
            best = d;
            hit.what = Hit::What::Event;
            hit.item = uint32_t(it - frame.events.begin());
            if (d == 0) break;
        }
    }
    if (hit.what != Hit::What::None) return hit;
    for (size_t i = 0; i < frame.waits.size(); ++i) {
        const SpanItem& s = frame.waits[i];
        if (s.row == row && x >= s.x0 - 1 && x <= s.x1 + 1) {
            hit.what = Hit::What::Wait;
            hit.item = uint32_t(i);
            break;
        }
    }
    return hit;
}

TimeRange fit_range(const TimelineIndex& index, double margin) {
    if (index.empty()) return {0, 1};
    const double length = index.to_camera(index.time_end());
    if (length <= 0) return {-1, 1};
    // The axis starts at the first event (0): a negative time on the ruler would mean nothing. The
    // margin is all on the right, so the zoom is the same as with one on each side.
    return {0, length * (1 + 2 * margin)};
}

TimeRange focus_range(const TimelineIndex& index, const FindingEvents& events, double margin,
                      double min_width) {
    if (index.empty()) return fit_range(index);
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    auto add = [&](uint32_t e) {
        if (e == kNoEvent || e >= index.trace().events.size()) return;
        const double t = index.to_camera(index.event_time(e));
        lo = std::min(lo, t);
        hi = std::max(hi, t);
    };
    add(events.first);
    add(events.second);
    for (uint32_t e : events.others)
        add(e);
    if (!(hi >= lo)) return fit_range(index);
    const double width = std::max((hi - lo) * (1 + 2 * margin), min_width);
    const double centre = (lo + hi) / 2;
    // Camera time 0 is the run's first event: a finding near it is shown from 0, not from before
    // the run began (an axis labelled -10).
    const double t0 = std::max(0.0, centre - width / 2);
    return {t0, t0 + width};
}

TimeRange zoom_range(const TimeRange& range, double anchor, double factor, double min_width) {
    const double length = std::max(range.length() * factor, min_width);
    const double ratio = range.length() > 0 ? (anchor - range.t0) / range.length() : 0.5;
    const double t0 = anchor - ratio * length;
    return {t0, t0 + length};
}

std::vector<float> spread_marks(std::vector<float> x, float gap) {
    // Left to right; a mark moves past the rightmost earlier mark it would touch. Marks drawn out of
    // time order (1, 3 on one row, 2, 4 on the next) are still placed by position.
    std::vector<size_t> order(x.size());
    std::iota(order.begin(), order.end(), size_t(0));
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return x[a] < x[b]; });
    for (size_t k = 1; k < order.size(); ++k)
        x[order[k]] = std::max(x[order[k]], x[order[k - 1]] + gap);
    return x;
}

} // namespace synclab::ui
