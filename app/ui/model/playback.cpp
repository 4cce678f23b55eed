#include "ui/model/playback.h"

#include <algorithm>
#include <map>

namespace synclab::ui {

using trace::Event;
using trace::EventKind;

Playback::Playback(const trace::Trace& trace, uint32_t block) : trace_(&trace), block_(block) {
    order_.reserve(trace.events.size());
    // Events of threads missing from the thread table (a trace without one) cannot be placed: left out.
    for (uint32_t i = 0; i < trace.events.size(); ++i) {
        const uint32_t t = trace.events[i].thread;
        if (t < trace.threads.size() && (block == kAllBlocks || trace.threads[t].block == block))
            order_.push_back(i);
    }
    std::stable_sort(order_.begin(), order_.end(),
                     [&](uint32_t a, uint32_t b) { return trace.events[a].time < trace.events[b].time; });
    time_begin_ = order_.empty() ? 0 : trace.events[order_.front()].time;
}

void Playback::seek(size_t cursor) {
    cursor_ = std::min(cursor, order_.size());
}

void Playback::step_event(int delta) {
    const long long to = (long long)cursor_ + delta;
    seek(size_t(std::max(0LL, to)));
}

bool Playback::same_instruction(size_t a, size_t b) const {
    const Event& x = trace_->events[order_[a]];
    const Event& y = trace_->events[order_[b]];
    if (x.time != y.time || x.site != y.site || x.kind != y.kind) return false;
    const trace::ThreadInfo& tx = trace_->threads[x.thread];
    const trace::ThreadInfo& ty = trace_->threads[y.thread];
    return tx.block == ty.block && tx.warp == ty.warp;
}

void Playback::step_instruction(int delta) {
    if (trace_ == nullptr || order_.empty()) return;
    for (; delta > 0 && cursor_ < order_.size(); --delta) {
        // Apply the next event and every later one of the same warp instruction.
        size_t end = cursor_ + 1;
        while (end < order_.size() && same_instruction(cursor_, end))
            ++end;
        cursor_ = end;
    }
    for (; delta < 0 && cursor_ > 0; ++delta) {
        // Undo the instruction the last applied event belongs to.
        size_t begin = cursor_ - 1;
        while (begin > 0 && same_instruction(begin - 1, cursor_ - 1))
            --begin;
        cursor_ = begin;
    }
}

double Playback::camera_time() const {
    if (cursor_ == 0 || order_.empty()) return 0;
    return double(trace_->events[order_[cursor_ - 1]].time - time_begin_);
}

uint32_t Playback::current_event() const {
    return cursor_ == 0 ? UINT32_MAX : order_[cursor_ - 1];
}

std::vector<uint32_t> Playback::current_instruction() const {
    std::vector<uint32_t> out;
    if (cursor_ == 0) return out;
    size_t begin = cursor_ - 1;
    while (begin > 0 && same_instruction(begin - 1, cursor_ - 1))
        --begin;
    for (size_t i = begin; i < cursor_; ++i)
        out.push_back(order_[i]);
    return out;
}

std::vector<Playback::WarpAt> Playback::warps_at() const {
    std::map<std::pair<uint32_t, uint32_t>, WarpAt> warps;
    for (size_t i = 0; i < cursor_; ++i) {
        const Event& e = trace_->events[order_[i]];
        const trace::ThreadInfo& t = trace_->threads[e.thread];
        warps[{t.block, t.warp}] = WarpAt{t.block, t.warp, e.site, order_[i]};
    }
    std::vector<WarpAt> out;
    out.reserve(warps.size());
    for (const auto& [key, at] : warps)
        out.push_back(at);
    return out;
}

std::vector<uint32_t> Playback::current_lines() const {
    std::vector<uint32_t> lines;
    for (const WarpAt& w : warps_at())
        // The line of the kernel's file it stands at (a helper in a header: the line calling it).
        if (w.site < trace_->sites.size() && trace_->sites[w.site].kernel_file_line() != 0)
            lines.push_back(trace_->sites[w.site].kernel_file_line());
    std::sort(lines.begin(), lines.end());
    lines.erase(std::unique(lines.begin(), lines.end()), lines.end());
    return lines;
}

uint32_t Playback::current_block() const {
    if (order_.empty()) return 0;
    const Event& e = trace_->events[order_[cursor_ == 0 ? 0 : cursor_ - 1]];
    return trace_->threads[e.thread].block;
}

std::vector<Playback::Slot> Playback::shared_memory(uint32_t block, size_t max_words) const {
    std::vector<Slot> out;
    if (trace_ == nullptr) return out;
    const auto& events = trace_->events;
    auto in_block = [&](const Event& e) { return trace_->threads[e.thread].block == block; };
    // Every word the block's shared accesses touch, and the times of its barrier releases.
    std::map<uint64_t, Slot> words;
    std::vector<uint64_t> releases; // time order (order_ is)
    for (uint32_t i : order_) {
        const Event& e = events[i];
        if (!in_block(e)) continue;
        if (e.kind == EventKind::BarrierLeave) releases.push_back(e.time);
        if (!e.is_memory_access() || e.space() != trace::Space::Shared) continue;
        for (uint64_t a = e.address & ~uint64_t(3); a < e.address + e.size(); a += 4) {
            words[a].address = a;
            if (words.size() > max_words) return out;
        }
    }
    // The state at the cursor: the last store before it, the first after it.
    const uint64_t now = cursor_ == 0 ? 0 : events[order_[cursor_ - 1]].time;
    for (size_t p = 0; p < order_.size(); ++p) {
        const Event& e = events[order_[p]];
        if (!in_block(e) || !e.writes_memory() || e.space() != trace::Space::Shared) continue;
        for (uint64_t a = e.address & ~uint64_t(3); a < e.address + e.size(); a += 4) {
            Slot& s = words[a];
            if (p < cursor_) {
                s.written = true;
                s.value = e.value;
                s.writer = order_[p];
            } else if (s.next_writer == UINT32_MAX) {
                s.next_writer = order_[p];
            }
        }
    }
    // Stale: the next store comes before the block's next release after now (or there is none).
    for (auto& [address, s] : words) {
        if (s.next_writer == UINT32_MAX) continue;
        const uint64_t store_time = events[s.next_writer].time;
        const auto release = std::upper_bound(releases.begin(), releases.end(), now);
        s.stale = release == releases.end() || store_time <= *release;
    }
    for (uint32_t i : current_instruction()) {
        const Event& e = events[i];
        if (e.kind != EventKind::Load || e.space() != trace::Space::Shared || !in_block(e)) continue;
        for (uint64_t a = e.address & ~uint64_t(3); a < e.address + e.size(); a += 4)
            words[a].read_now = true;
    }
    out.reserve(words.size());
    for (auto& [address, s] : words)
        out.push_back(s);
    return out;
}

} // namespace synclab::ui
