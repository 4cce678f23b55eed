#include "ui/core/heatmap_model.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <unordered_map>

namespace synclab::ui {

void HeatGrid::finish() {
    bool any = false;
    min = max = min_positive = 0;
    for (float v : values) {
        if (v < 0) continue; // kNoData
        if (!any) {
            min = max = v;
            any = true;
        }
        min = std::min(min, v);
        max = std::max(max, v);
        if (v > 0 && (min_positive == 0 || v < min_positive)) min_positive = v;
    }
}

// [SECTION] Contention

namespace {

struct AddressKey {
    uint64_t address;
    uint32_t block; // UINT32_MAX for global
    uint8_t space;
    bool operator==(const AddressKey&) const = default;
};
struct AddressKeyHash {
    size_t operator()(const AddressKey& k) const {
        return std::hash<uint64_t>()(k.address * 0x9E3779B97F4A7C15ull ^ (uint64_t(k.block) << 8) ^ k.space);
    }
};

// Visible events up to this many are binned exactly from the time-sorted arrays; more than that
// from the fine histogram (each fine bin goes to the column its centre falls in).
constexpr size_t kExactLimit = 1u << 18;

} // namespace

void ContentionIndex::build(const trace::Trace& trace, uint32_t max_rows) {
    *this = ContentionIndex{};
    max_rows = std::clamp<uint32_t>(max_rows, 1, 65535);
    timed_ = !trace.timing.empty() && trace.timing.size() == trace.events.size();
    // Timed: the cycle the atomic completed (issue + queueing + service). Issue cycles bunch at the
    // start (every warp reaches its atomic at about the same time); completions spread over the time
    // the address's queue takes to drain, which is what contention looks like.
    const auto time_of = [&](size_t i) {
        return timed_ ? trace.timing[i].issue + trace.timing[i].latency : trace.events[i].time;
    };

    // Pass 1: every atomic's address, with a key id per event (consecutive atomics mostly hit the
    // same address: the last key is tried first).
    std::unordered_map<AddressKey, uint32_t, AddressKeyHash> ids;
    std::vector<ContentionRow> keys;
    std::vector<uint32_t> key_of;    // per atomic event
    std::vector<uint32_t> atomics;   // their event indices
    AddressKey last{~0ull, 0, 0xff};
    uint32_t last_id = 0;
    for (size_t i = 0; i < trace.events.size(); ++i) {
        const trace::Event& e = trace.events[i];
        if (!e.is_atomic()) continue;
        const bool shared = e.space() == trace::Space::Shared;
        const uint32_t block =
            shared && e.thread < trace.threads.size() ? trace.threads[e.thread].block : UINT32_MAX;
        const AddressKey k{e.address, block, uint8_t(e.space())};
        if (!(k == last)) {
            auto [it, fresh] = ids.try_emplace(k, uint32_t(keys.size()));
            if (fresh) {
                ContentionRow r;
                r.space = e.space();
                r.block = block;
                r.address = e.address;
                r.site = e.site;
                keys.push_back(r);
            }
            last = k;
            last_id = it->second;
        }
        ContentionRow& r = keys[last_id];
        ++r.ops;
        if (timed_) r.max_depth = std::max(r.max_depth, trace.timing[i].queue_depth);
        key_of.push_back(last_id);
        atomics.push_back(uint32_t(i));
    }
    events_ = atomics.size();
    if (events_ == 0) return;

    // Rows: the hottest addresses, in address order; the rest in one row.
    std::vector<uint32_t> order(keys.size());
    std::iota(order.begin(), order.end(), 0u);
    const bool fold = keys.size() > max_rows;
    const size_t kept = fold ? max_rows - 1 : keys.size();
    if (fold)
        std::nth_element(order.begin(), order.begin() + kept, order.end(),
                         [&](uint32_t a, uint32_t b) { return keys[a].ops > keys[b].ops; });
    order.resize(kept);
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
        const ContentionRow &x = keys[a], &y = keys[b];
        if (x.space != y.space) return x.space < y.space;
        if (x.block != y.block) return x.block < y.block;
        return x.address < y.address;
    });
    const uint16_t other_row = uint16_t(kept);
    std::vector<uint16_t> row_of_key(keys.size(), other_row);
    for (size_t r = 0; r < kept; ++r) {
        row_of_key[order[r]] = uint16_t(r);
        rows_.push_back(keys[order[r]]);
    }
    if (fold) {
        ContentionRow o;
        o.other = true;
        o.addresses = keys.size() - kept;
        for (size_t k = 0; k < keys.size(); ++k)
            if (row_of_key[k] == other_row) {
                o.ops += keys[k].ops;
                o.max_depth = std::max(o.max_depth, keys[k].max_depth);
            }
        rows_.push_back(o);
    }

    // Time-sorted arrays (a simulator trace's event time is already in order; modelled issue
    // cycles and GPU timestamps need sorting).
    // (time, position) pairs sort with the key at hand, several times faster than an index sort
    // that looks the time up; ties keep trace order.
    std::vector<std::pair<uint64_t, uint32_t>> order_by_time(events_);
    bool sorted = true;
    for (size_t j = 0; j < events_; ++j) {
        order_by_time[j] = {time_of(atomics[j]), uint32_t(j)};
        sorted = sorted && (j == 0 || order_by_time[j - 1].first <= order_by_time[j].first);
    }
    if (!sorted) std::sort(order_by_time.begin(), order_by_time.end());
    times_.resize(events_);
    row_of_.resize(events_);
    depth_of_.resize(events_);
    for (size_t j = 0; j < events_; ++j) {
        const uint32_t a = order_by_time[j].second;
        times_[j] = order_by_time[j].first;
        row_of_[j] = row_of_key[key_of[a]];
        depth_of_[j] = timed_ ? uint16_t(std::min<uint32_t>(trace.timing[atomics[a]].queue_depth, 65535)) : 0;
    }
    t_begin_ = times_.front();
    t_end_ = times_.back() + 1;
    t_origin_ = t_begin_;
    for (size_t i = 0; i < trace.events.size(); ++i)
        t_origin_ = std::min<uint64_t>(t_origin_, timed_ ? trace.timing[i].issue : trace.events[i].time);

    // The fine histogram over the whole extent.
    const double span = double(t_end_ - t_begin_);
    fine_bins_ = uint32_t(std::min<double>(kFineBins, span));
    fine_width_ = span / fine_bins_;
    fine_ops_.assign(size_t(rows_.size()) * fine_bins_, 0);
    fine_depth_.assign(fine_ops_.size(), 0);
    for (size_t j = 0; j < events_; ++j) {
        const uint32_t b = std::min<uint32_t>(fine_bins_ - 1, uint32_t(double(times_[j] - t_begin_) / fine_width_));
        const size_t cell = size_t(row_of_[j]) * fine_bins_ + b;
        ++fine_ops_[cell];
        fine_depth_[cell] = std::max<uint32_t>(fine_depth_[cell], depth_of_[j]);
    }
}

HeatGrid ContentionIndex::bin(double t0, double t1, uint32_t cols, ContentionValue value) const {
    HeatGrid g;
    g.rows = uint32_t(rows_.size());
    g.cols = std::max(1u, cols);
    g.x0 = t0;
    g.x1 = t1 > t0 ? t1 : t0 + 1;
    // Cells no atomic fell in stay kNoData ("nothing happened", the background); a cell with
    // atomics whose queue was empty is 0 (the coldest colour).
    g.values.assign(size_t(g.rows) * g.cols, kNoData);
    if (g.rows == 0) return g;
    const double width = (g.x1 - g.x0) / g.cols;
    const bool depth = value == ContentionValue::QueueDepth;
    const auto put = [&](uint32_t row, double t, uint32_t ops, uint32_t d) {
        const double c = std::floor((t - g.x0) / width);
        if (c < 0 || c >= g.cols) return;
        float& cell = g.values[size_t(row) * g.cols + size_t(c)];
        if (cell < 0) cell = 0;
        cell = depth ? std::max(cell, float(d)) : cell + float(ops);
    };
    const auto lo = std::lower_bound(times_.begin(), times_.end(), uint64_t(std::max(0.0, std::ceil(g.x0))));
    const auto hi = std::lower_bound(times_.begin(), times_.end(), uint64_t(std::max(0.0, std::ceil(g.x1))));
    const size_t visible = size_t(hi - lo);
    // A fine bin one time unit wide holds one time value: binning from it is exact. Wider fine bins
    // are used only where a column spans at least two of them.
    const bool fine_exact = fine_width_ <= 1.0;
    if (visible <= kExactLimit || (!fine_exact && width < fine_width_ * 2)) {
        for (size_t j = size_t(lo - times_.begin()), end = size_t(hi - times_.begin()); j < end; ++j)
            put(row_of_[j], double(times_[j]), 1, depth_of_[j]);
    } else {
        const uint32_t b0 = uint32_t(std::clamp((g.x0 - double(t_begin_)) / fine_width_, 0.0, double(fine_bins_)));
        const uint32_t b1 = uint32_t(std::clamp(std::ceil((g.x1 - double(t_begin_)) / fine_width_), 0.0, double(fine_bins_)));
        for (uint32_t r = 0; r < g.rows; ++r) {
            const uint32_t* ops = &fine_ops_[size_t(r) * fine_bins_];
            const uint32_t* dep = &fine_depth_[size_t(r) * fine_bins_];
            for (uint32_t b = b0; b < b1; ++b)
                if (ops[b]) put(r, double(t_begin_) + (fine_exact ? b : (b + 0.5) * fine_width_), ops[b], dep[b]);
        }
    }
    // The folded row holds many addresses: counted per address (their mean), so that it compares
    // with the rows of one address and with other runs (colour_range), instead of always looking
    // the hottest because it adds them up.
    if (value == ContentionValue::Operations)
        for (uint32_t r = 0; r < g.rows; ++r)
            if (rows_[r].other && rows_[r].addresses > 1)
                for (uint32_t c = 0; c < g.cols; ++c) {
                    float& cell = g.values[size_t(r) * g.cols + c];
                    if (cell > 0) cell /= float(rows_[r].addresses);
                }
    g.finish();
    return g;
}

std::vector<std::pair<double, double>> ContentionIndex::ops_profile() const {
    std::vector<std::pair<double, double>> out;
    if (fine_bins_ == 0 || rows_.empty()) return out;
    // Per row, the fine bins summed in aligned pairs, then pairs of pairs, ...: each level's busiest
    // window.
    std::vector<uint64_t> level(fine_ops_.begin(), fine_ops_.end());
    uint32_t bins = fine_bins_;
    double width = fine_width_;
    const size_t rows = rows_.size();
    while (true) {
        double most = 0;
        for (size_t r = 0; r < rows; ++r) {
            // The folded row per address, as bin() draws it.
            const double per = rows_[r].other && rows_[r].addresses > 1 ? double(rows_[r].addresses) : 1.0;
            for (uint32_t b = 0; b < bins; ++b)
                most = std::max(most, double(level[r * bins + b]) / per);
        }
        out.emplace_back(width, most);
        if (bins <= 1) break;
        const uint32_t next = (bins + 1) / 2;
        std::vector<uint64_t> up(rows * next, 0);
        for (size_t r = 0; r < rows; ++r)
            for (uint32_t b = 0; b < bins; ++b)
                up[r * next + b / 2] += level[r * bins + b];
        level = std::move(up);
        bins = next;
        width *= 2;
    }
    return out;
}

uint32_t ContentionIndex::peak_depth() const {
    uint32_t most = 0;
    for (uint32_t d : fine_depth_)
        most = std::max(most, d);
    return most;
}

// [SECTION] Latency

std::vector<double> buffer_values(const launch::Buffer& buffer, launch::ElemType type) {
    const uint32_t size = launch::elem_size(type);
    std::vector<double> out(buffer.bytes.size() / size);
    for (size_t i = 0; i < out.size(); ++i)
        out[i] = launch::element_value(buffer.bytes.data() + i * size, type);
    return out;
}

namespace {

const launch::Buffer* find_buffer(const std::vector<launch::Buffer>& buffers, const std::string& name) {
    for (const launch::Buffer& b : buffers)
        if (b.name == name) return &b;
    return nullptr;
}

bool decl_type(const scenario::Scenario& s, const std::string& name, launch::ElemType& type) {
    for (const scenario::BufferDecl& d : s.buffers)
        if (d.name == name) {
            type = d.spec.type;
            return true;
        }
    return false;
}

} // namespace

ThreadLatencies thread_latencies(const trace::Trace& trace, const scenario::Scenario* scenario,
                                 const std::vector<launch::Buffer>& final_buffers) {
    ThreadLatencies lat;
    const size_t n = trace.threads.size();
    lat.cycles.assign(n, kNoData);
    lat.sm.resize(n);
    for (size_t i = 0; i < n; ++i)
        lat.sm[i] = trace.threads[i].sm;

    launch::ElemType type{};
    if (scenario && scenario->latency.present()) {
        const launch::Buffer* cycles = find_buffer(final_buffers, scenario->latency.cycles_buffer);
        if (cycles && decl_type(*scenario, scenario->latency.cycles_buffer, type)) {
            const std::vector<double> v = buffer_values(*cycles, type);
            for (size_t i = 0; i < std::min(n, v.size()); ++i)
                lat.cycles[i] = float(v[i]);
            lat.source = scenario->latency.cycles_buffer;
            const std::string& sm_name = scenario->latency.sm_buffer;
            const launch::Buffer* sm = sm_name.empty() ? nullptr : find_buffer(final_buffers, sm_name);
            if (sm && decl_type(*scenario, sm_name, type)) {
                const std::vector<double> s = buffer_values(*sm, type);
                for (size_t i = 0; i < std::min(n, s.size()); ++i)
                    lat.sm[i] = int32_t(s[i]);
                lat.measured_sm = true;
            }
            return lat;
        }
    }
    if (trace.timing.size() == trace.events.size() && !trace.timing.empty()) {
        std::vector<double> sum(n, 0);
        std::vector<uint32_t> count(n, 0);
        for (size_t i = 0; i < trace.events.size(); ++i) {
            const trace::Event& e = trace.events[i];
            if (!e.is_atomic() || e.thread >= n) continue;
            sum[e.thread] += trace.timing[i].latency;
            ++count[e.thread];
        }
        bool any = false;
        for (size_t i = 0; i < n; ++i)
            if (count[i]) {
                lat.cycles[i] = float(sum[i] / count[i]);
                any = true;
            }
        if (any) lat.source = "cost model";
    }
    return lat;
}

HeatGrid block_thread_grid(const trace::Trace& trace, const ThreadLatencies& lat, uint32_t max_rows) {
    HeatGrid g;
    uint32_t blocks = 0, per_block = 0;
    for (const trace::ThreadInfo& t : trace.threads) {
        blocks = std::max(blocks, t.block + 1);
        per_block = std::max(per_block, t.thread_in_block + 1);
    }
    if (!lat.any() || blocks == 0) return g;
    g.row_fold = (blocks + max_rows - 1) / std::max(1u, max_rows);
    g.rows = (blocks + g.row_fold - 1) / g.row_fold;
    g.cols = per_block;
    g.x0 = 0;
    g.x1 = per_block;
    std::vector<double> sum(size_t(g.rows) * g.cols, 0);
    std::vector<uint32_t> count(sum.size(), 0);
    for (size_t i = 0; i < trace.threads.size() && i < lat.cycles.size(); ++i) {
        if (lat.cycles[i] < 0) continue;
        const size_t cell = size_t(trace.threads[i].block / g.row_fold) * g.cols + trace.threads[i].thread_in_block;
        sum[cell] += lat.cycles[i];
        ++count[cell];
    }
    g.values.resize(sum.size());
    for (size_t c = 0; c < sum.size(); ++c)
        g.values[c] = count[c] ? float(sum[c] / count[c]) : kNoData;
    g.finish();
    return g;
}

HeatGrid sm_warp_grid(const trace::Trace& trace, const ThreadLatencies& lat, std::vector<uint32_t>* warp_ids) {
    HeatGrid g;
    if (!lat.any()) return g;
    uint32_t warps_per_block = 0;
    for (const trace::ThreadInfo& t : trace.threads)
        warps_per_block = std::max<uint32_t>(warps_per_block, uint32_t(t.warp) + 1);
    struct Warp {
        double sum = 0;
        uint32_t n = 0;
        int32_t sm = -1;
    };
    std::vector<Warp> warps;
    for (size_t i = 0; i < trace.threads.size() && i < lat.cycles.size(); ++i) {
        const trace::ThreadInfo& t = trace.threads[i];
        const size_t w = size_t(t.block) * warps_per_block + t.warp;
        if (w >= warps.size()) warps.resize(w + 1);
        if (warps[w].sm < 0 && i < lat.sm.size()) warps[w].sm = lat.sm[i];
        if (lat.cycles[i] < 0) continue;
        warps[w].sum += lat.cycles[i];
        ++warps[w].n;
    }
    int32_t top_sm = -1;
    std::vector<uint32_t> per_sm;
    for (const Warp& w : warps)
        if (w.n && w.sm >= 0) {
            top_sm = std::max(top_sm, w.sm);
            if (size_t(w.sm) >= per_sm.size()) per_sm.resize(size_t(w.sm) + 1, 0);
            ++per_sm[size_t(w.sm)];
        }
    if (top_sm < 0) return g;
    g.rows = uint32_t(top_sm) + 1;
    g.cols = *std::max_element(per_sm.begin(), per_sm.end());
    g.x0 = 0;
    g.x1 = g.cols;
    g.values.assign(size_t(g.rows) * g.cols, kNoData);
    if (warp_ids) warp_ids->assign(g.values.size(), UINT32_MAX);
    std::vector<uint32_t> slot(g.rows, 0);
    for (size_t w = 0; w < warps.size(); ++w) {
        if (!warps[w].n || warps[w].sm < 0) continue;
        const size_t cell = size_t(warps[w].sm) * g.cols + slot[size_t(warps[w].sm)]++;
        g.values[cell] = float(warps[w].sum / warps[w].n);
        if (warp_ids) (*warp_ids)[cell] = uint32_t(w);
    }
    g.finish();
    return g;
}

// [SECTION] One colour scale for the runs shown together

HeatPeaks heat_peaks(const ContentionIndex& contention, const HeatGrid& block_thread, const HeatGrid& sm_warp) {
    HeatPeaks p;
    p.timed = contention.timed();
    p.ops_profile = contention.ops_profile();
    p.depth = float(contention.peak_depth());
    p.latency = block_thread.has_data() || sm_warp.has_data();
    p.block_thread_lo = block_thread.min;
    p.block_thread_hi = block_thread.max;
    p.sm_warp_lo = sm_warp.min;
    p.sm_warp_hi = sm_warp.max;
    return p;
}

double ops_at(const std::vector<std::pair<double, double>>& profile, double width) {
    if (profile.empty() || width <= 0) return 0;
    if (width <= profile.front().first) return profile.front().second * width / profile.front().first;
    for (size_t i = 0; i + 1 < profile.size(); ++i)
        if (width < profile[i + 1].first)
            return std::min(profile[i].second * width / profile[i].first, profile[i + 1].second);
    return profile.back().second;
}

ColourRange colour_range(HeatScale scale, const HeatGrid& grid, const std::vector<HeatPeaks>& others, bool timed,
                         bool log_scale) {
    const bool counts = scale == HeatScale::Operations || scale == HeatScale::QueueDepth;
    float lo = counts ? 0.0f : grid.min;
    float hi = grid.max;
    float min_positive = grid.min_positive;
    const double cell = grid.cols ? (grid.x1 - grid.x0) / grid.cols : 0.0;
    for (const HeatPeaks& p : others) {
        switch (scale) {
        case HeatScale::Operations:
            if (p.timed == timed) hi = std::max(hi, float(ops_at(p.ops_profile, cell)));
            break;
        case HeatScale::QueueDepth:
            hi = std::max(hi, p.depth);
            break;
        case HeatScale::BlockThread:
        case HeatScale::SmWarp:
            if (!p.latency) break;
            lo = std::min(lo, scale == HeatScale::BlockThread ? p.block_thread_lo : p.sm_warp_lo);
            hi = std::max(hi, scale == HeatScale::BlockThread ? p.block_thread_hi : p.sm_warp_hi);
            if (lo > 0 && (min_positive == 0 || lo < min_positive)) min_positive = lo;
            break;
        }
    }
    if (log_scale) lo = min_positive > 0 ? min_positive : 1.0f;
    if (!(hi > lo)) {
        lo = hi - 1;
        hi = hi + 1;
        if (log_scale && lo <= 0) lo = hi / 4;
    }
    return {lo, hi};
}

// [SECTION] Cells

bool cell_at(const HeatGrid& grid, double u, double v, double u0, double u1, double v0, double v1, CellHit& hit) {
    if (grid.empty() || u < 0 || u >= 1 || v < 0 || v >= 1) return false;
    const double gx = u0 + u * (u1 - u0), gy = v0 + v * (v1 - v0);
    if (gx < 0 || gx >= 1 || gy < 0 || gy >= 1) return false;
    hit.col = std::min(grid.cols - 1, uint32_t(gx * grid.cols));
    hit.row = std::min(grid.rows - 1, uint32_t(gy * grid.rows));
    return true;
}

void column_time(const HeatGrid& grid, uint32_t col, double& from, double& to) {
    const double w = (grid.x1 - grid.x0) / std::max(1u, grid.cols);
    from = grid.x0 + col * w;
    to = from + w;
}

} // namespace synclab::ui
