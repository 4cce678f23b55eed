// Chrome trace-event JSON export. Contract and mapping: chrome_export.h.
//
// A hand-written streaming writer: every per-event string that depends only on the site (name
// suffix, escaped PTX text, line numbers) is formatted once per site, so the per-event work is a
// few integer conversions and memcpys. nlohmann::json would build the whole document in memory.
#include "trace/chrome_export.h"

#include "trace/naming.h"
#include "trace/slt_file.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <ostream>
#include <stdexcept>
#include <vector>

namespace synclab::trace {

namespace {

constexpr size_t kFlushBytes = 1 << 16;

// Output buffer in front of the ostream.
class JsonOut {
  public:
    explicit JsonOut(std::ostream& os) : os_(os) { buf_.reserve(kFlushBytes + 4096); }

    void raw(std::string_view s) { buf_.append(s.data(), s.size()); }
    void ch(char c) { buf_.push_back(c); }
    void u64(uint64_t v) {
        char tmp[24];
        const auto r = std::to_chars(tmp, tmp + sizeof tmp, v);
        buf_.append(tmp, size_t(r.ptr - tmp));
    }
    void hex(uint64_t v) {
        char tmp[24] = {'"', '0', 'x'};
        const auto r = std::to_chars(tmp + 3, tmp + sizeof tmp - 1, v, 16);
        *r.ptr = '"';
        buf_.append(tmp, size_t(r.ptr + 1 - tmp));
    }
    void dbl(double v) {
        char tmp[32];
        const auto r = std::to_chars(tmp, tmp + sizeof tmp, v);
        buf_.append(tmp, size_t(r.ptr - tmp));
    }
    // Nanoseconds as exact decimal microseconds: 12345 -> "12.345", 12000 -> "12".
    void micros(uint64_t ns) {
        u64(ns / 1000);
        const auto frac = unsigned(ns % 1000);
        if (frac != 0) {
            const char digits[4] = {'.', char('0' + frac / 100), char('0' + frac / 10 % 10),
                                    char('0' + frac % 10)};
            buf_.append(digits, 4);
        }
    }
    void str(std::string_view s) { append_json_string(buf_, s); }
    void maybe_flush() {
        if (buf_.size() >= kFlushBytes) flush();
    }
    void flush() {
        os_.write(buf_.data(), std::streamsize(buf_.size()));
        buf_.clear();
        if (!os_) throw std::runtime_error("chrome export: write to the output stream failed");
    }

  private:
    std::ostream& os_;
    std::string buf_;
};

// What the per-event writer needs of each site, formatted once.
struct SiteText {
    std::string name_suffix; // " line 5", or " ptx 42" when the CUDA line is unknown
    std::string args_tail;   // ,"line":5,"ptx_line":42,"ptx":"..."}}  (closes args and the event)
    uint32_t line = 0;
    uint32_t ptx_line = 0;
    std::string ptx_json; // escaped PTX text with quotes
};

std::vector<SiteText> format_sites(const Trace& trace) {
    std::vector<SiteText> out(trace.sites.size() + 1); // last entry: an out-of-range site
    for (size_t i = 0; i <= trace.sites.size(); ++i) {
        SiteText& s = out[i];
        const Site empty{};
        const Site& site = i < trace.sites.size() ? trace.sites[i] : empty;
        s.line = site.source_line;
        s.ptx_line = site.ptx_line;
        s.name_suffix = site.source_line != 0 ? " line " + std::to_string(site.source_line)
                                              : " ptx " + std::to_string(site.ptx_line);
        append_json_string(s.ptx_json, site.text);
        s.args_tail = ",\"line\":" + std::to_string(site.source_line);
        // A line of an inlined helper (or in another file): where it is, in words and as the call lines.
        if (site.source_line != 0 && !site.origin.empty()) {
            if (!site.origin.file.empty()) {
                s.args_tail += ",\"file\":";
                append_json_string(s.args_tail, site.origin.file);
            }
            if (!site.origin.inlined.empty()) {
                s.args_tail += ",\"function\":";
                append_json_string(s.args_tail, site.origin.inlined.front().function);
                s.args_tail += ",\"called_from\":[";
                for (size_t c = 0; c < site.origin.inlined.size(); ++c)
                    s.args_tail += (c ? "," : "") + std::to_string(site.origin.inlined[c].line);
                s.args_tail += "]";
            }
            s.args_tail += ",\"where\":";
            append_json_string(s.args_tail, site_line_text(site));
        }
        s.args_tail += ",\"ptx_line\":" + std::to_string(site.ptx_line) + ",\"ptx\":" + s.ptx_json + "}}";
    }
    return out;
}

const char* access_op(EventKind kind) {
    switch (kind) {
    case EventKind::Load:
        return "ld";
    case EventKind::Store:
        return "st";
    case EventKind::Atomic:
        return "atom";
    case EventKind::Reduction:
        return "red";
    default:
        return "";
    }
}

const char* space_suffix(Space space) {
    switch (space) {
    case Space::Global:
        return ".global";
    case Space::Shared:
        return ".shared";
    case Space::Local:
        return ".local";
    case Space::Other:
        return "";
    }
    return "";
}

const char* scope_suffix(Scope scope) { // PTX spelling
    switch (scope) {
    case Scope::None:
        return "";
    case Scope::Block:
        return ".cta";
    case Scope::Device:
        return ".gpu";
    case Scope::System:
        return ".sys";
    }
    return "";
}

bool known_kind(EventKind kind) {
    const auto k = static_cast<uint8_t>(kind);
    return k >= 1 && k < kEventKindCount;
}

struct PhaseSpan {
    uint64_t start = 0, end = 0;
    bool present = false;
};

struct BarrierSpan {
    uint64_t first_arrive = 0; // time
    size_t arrive_event = 0;   // the event of the first arrive (args)
    uint32_t arrived = 0;      // lanes that arrived
    uint32_t left = 0;         // lanes that left
    uint64_t last_leave = 0;
    uint32_t last_leave_lane = 0;
};

struct Slice {
    uint64_t start = 0, end = 0;
    size_t index = 0; // phase k, or barrier k
};

// Makes a start-ordered list of slices non-overlapping (see chrome_export.h).
void clip_slices(std::vector<Slice>& slices) {
    std::stable_sort(slices.begin(), slices.end(),
                     [](const Slice& a, const Slice& b) { return a.start < b.start; });
    uint64_t previous_end = 0;
    bool first = true;
    for (Slice& s : slices) {
        if (!first && s.start < previous_end) s.start = previous_end;
        if (s.end < s.start) s.end = s.start;
        previous_end = s.end;
        first = false;
    }
}

void write_meta_field(JsonOut& out, bool& first, std::string_view key) {
    if (!first) out.ch(',');
    first = false;
    out.str(key);
    out.ch(':');
}

std::string dims_text(const Dim3& d) {
    return std::to_string(d.x) + "x" + std::to_string(d.y) + "x" + std::to_string(d.z);
}

class Exporter {
  public:
    Exporter(const Trace& trace, std::ostream& os) : trace_(trace), out_(os) {}

    void run() {
        const bool gpu = trace_.meta.backend == "gpu";
        sites_ = format_sites(trace_);
        site_width_.assign(std::max<size_t>(trace_.sites.size(), 1), 0);
        for (size_t s = 0; s < trace_.sites.size(); ++s)
            site_width_[s] = access_size(trace_, uint32_t(s));
        assign_warps();
        group_events();
        if (gpu && have_time_) time_base_ = min_time_;
        end_time_ = have_time_ ? max_time_ - time_base_ : 0;

        out_.raw("{\"traceEvents\":[\n");
        for (size_t w = 0; w < warp_keys_.size(); ++w)
            write_warp(w);
        out_.raw("\n],\n\"displayTimeUnit\":\"ns\",\n\"metadata\":");
        write_metadata(gpu);
        out_.raw("}\n");
        out_.flush();
    }

  private:
    // Dense warp numbering: (block, warp) pairs of the thread table, sorted. Bounded by the thread
    // count whatever the block/warp values are, so a hand-built trace cannot make us allocate more.
    void assign_warps() {
        const auto& threads = trace_.threads;
        warp_keys_.reserve(threads.size() / 32 + 1);
        std::vector<uint64_t> keys(threads.size());
        for (size_t i = 0; i < threads.size(); ++i)
            keys[i] = (uint64_t(threads[i].block) << 16) | threads[i].warp;
        thread_warp_.resize(threads.size());
        if (std::is_sorted(keys.begin(), keys.end())) { // the usual thread table: block by block
            for (size_t i = 0; i < keys.size(); ++i) {
                if (warp_keys_.empty() || warp_keys_.back() != keys[i]) warp_keys_.push_back(keys[i]);
                thread_warp_[i] = uint32_t(warp_keys_.size() - 1);
            }
            return;
        }
        std::vector<uint64_t> sorted = keys;
        std::sort(sorted.begin(), sorted.end());
        sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
        warp_keys_ = std::move(sorted);
        for (size_t i = 0; i < threads.size(); ++i) {
            thread_warp_[i] = uint32_t(std::lower_bound(warp_keys_.begin(), warp_keys_.end(), keys[i]) -
                                       warp_keys_.begin());
        }
    }

    // Per event: its lane's phase; then a counting sort of the events by warp, each warp's events
    // in time order (program order per thread kept for equal times).
    void group_events() {
        const auto& events = trace_.events;
        const size_t thread_count = trace_.threads.size();
        phase_.assign(events.size(), 0);
        std::vector<uint32_t> leaves(thread_count, 0);
        warp_begin_.assign(warp_keys_.size() + 1, 0);
        for (size_t i = 0; i < events.size(); ++i) {
            const Event& e = events[i];
            if (e.thread >= thread_count || !known_kind(e.kind)) {
                ++skipped_;
                continue;
            }
            if (e.kind == EventKind::BarrierLeave) ++leaves[e.thread];
            phase_[i] = leaves[e.thread];
            ++warp_begin_[thread_warp_[e.thread] + 1];
            if (!have_time_ || e.time < min_time_) min_time_ = e.time;
            if (!have_time_ || e.time > max_time_) max_time_ = e.time;
            have_time_ = true;
        }
        for (size_t w = 0; w < warp_keys_.size(); ++w)
            warp_begin_[w + 1] += warp_begin_[w];
        order_.resize(warp_begin_.back());
        std::vector<size_t> fill(warp_begin_.begin(), warp_begin_.end() - 1);
        for (size_t i = 0; i < events.size(); ++i) {
            const Event& e = events[i];
            if (e.thread >= thread_count || !known_kind(e.kind)) continue;
            order_[fill[thread_warp_[e.thread]]++] = i;
        }
        auto by_time = [&](size_t a, size_t b) { return events[a].time < events[b].time; };
        for (size_t w = 0; w < warp_keys_.size(); ++w) {
            const auto first = order_.begin() + std::ptrdiff_t(warp_begin_[w]);
            const auto last = order_.begin() + std::ptrdiff_t(warp_begin_[w + 1]);
            if (!std::is_sorted(first, last, by_time)) std::stable_sort(first, last, by_time);
        }
    }

    uint64_t when(const Event& e) const { return e.time - time_base_; }

    void separator() {
        if (!first_event_) out_.raw(",\n");
        first_event_ = false;
    }

    void write_names(size_t w, uint64_t block, uint32_t warp, bool barrier_track) {
        const uint64_t pid = block + 1;
        if (!have_block_ || block != current_block_) {
            have_block_ = true;
            current_block_ = block;
            separator();
            out_.raw("{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":");
            out_.u64(pid);
            out_.raw(",\"args\":{\"name\":\"block ");
            out_.u64(block);
            out_.raw("\"}},\n{\"name\":\"process_sort_index\",\"ph\":\"M\",\"pid\":");
            out_.u64(pid);
            out_.raw(",\"args\":{\"sort_index\":");
            out_.u64(block);
            out_.raw("}}");
        }
        for (int track = 0; track < (barrier_track ? 2 : 1); ++track) {
            separator();
            out_.raw("{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":");
            out_.u64(pid);
            out_.raw(",\"tid\":");
            out_.u64(2 * w + 1 + uint64_t(track));
            out_.raw(",\"args\":{\"name\":\"warp ");
            out_.u64(warp);
            out_.raw(track == 0 ? "\"}},\n" : " barriers\"}},\n");
            out_.raw("{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":");
            out_.u64(pid);
            out_.raw(",\"tid\":");
            out_.u64(2 * w + 1 + uint64_t(track));
            out_.raw(",\"args\":{\"sort_index\":");
            out_.u64(2 * uint64_t(warp) + uint64_t(track));
            out_.raw("}}");
        }
    }

    void event_head(const char* cat, const char* ph, uint64_t pid, uint64_t tid, uint64_t ts) {
        separator();
        out_.raw("{\"cat\":\"");
        out_.raw(cat);
        out_.raw("\",\"ph\":\"");
        out_.raw(ph);
        out_.raw("\",\"pid\":");
        out_.u64(pid);
        out_.raw(",\"tid\":");
        out_.u64(tid);
        out_.raw(",\"ts\":");
        out_.micros(ts);
    }

    void write_phase(const Slice& s, uint64_t pid, uint64_t tid) {
        event_head("phase", "X", pid, tid, s.start);
        out_.raw(",\"dur\":");
        out_.micros(s.end - s.start);
        out_.raw(",\"name\":\"phase ");
        out_.u64(s.index);
        out_.raw("\",\"args\":{\"phase\":");
        out_.u64(s.index);
        out_.raw("}}");
        out_.maybe_flush();
    }

    void write_instant(const Event& e, size_t index, uint64_t pid, uint64_t tid) {
        const SiteText& site = sites_[std::min<size_t>(e.site, trace_.sites.size())];
        const ThreadInfo& thread = trace_.threads[e.thread];
        const bool access = e.is_memory_access();
        const bool collective = e.kind == EventKind::WarpCollective;
        const char* cat = access                        ? "memory"
                          : e.kind == EventKind::Fence ? "fence"
                          : collective                 ? "warp"
                                                       : "exit";
        event_head(cat, "i", pid, tid, when(e));
        out_.raw(",\"s\":\"t\",\"name\":\"");
        if (access) {
            out_.raw(access_op(e.kind));
            out_.raw(space_suffix(e.space()));
        } else if (e.kind == EventKind::Fence) {
            out_.raw("fence");
            out_.raw(scope_suffix(e.scope()));
        } else if (collective) {
            out_.raw(to_string(static_cast<Collective>(e.flags & flag::kCollectiveMask)));
        } else {
            out_.raw("exit");
        }
        out_.raw(site.name_suffix);
        out_.raw("\",\"args\":{\"thread\":");
        out_.u64(e.thread);
        // The thread as every view names it: its block (the process) and its index in the block.
        out_.raw(",\"thread_in_block\":");
        out_.u64(thread.thread_in_block);
        out_.raw(",\"lane\":");
        out_.u64(thread.lane);
        if (access) {
            out_.raw(",\"address\":");
            out_.hex(e.address);
            // The variable or buffer element, where the trace's memory map names it ("s_tile[159]").
            if (!trace_.memory.empty()) {
                const MemoryPlace place = memory_place(trace_.memory, e.space(), e.address,
                                                       site_width_[e.site < site_width_.size() ? e.site : 0]);
                if (place.region != nullptr) {
                    out_.raw(",\"memory\":");
                    memory_text_ = place.region->name;
                    memory_text_ += '[';
                    memory_text_ += std::to_string(place.element);
                    memory_text_ += ']';
                    out_.str(memory_text_);
                }
            }
            out_.raw(",\"value\":");
            out_.u64(e.value);
            out_.raw(",\"size\":");
            out_.u64(e.size());
        }
        if (collective) {
            out_.raw(",\"member_mask\":");
            out_.hex(e.address & 0xffffffffu);
            if (const uint32_t source = uint32_t(e.address >> 32); source != kNoLane) {
                out_.raw(",\"source_lane\":");
                out_.u64(source);
            }
            out_.raw(",\"value\":");
            out_.u64(e.value);
        }
        if (access || e.kind == EventKind::Fence) {
            if (e.scope() != Scope::None) {
                out_.raw(",\"scope\":\"");
                out_.raw(to_string(e.scope()));
                out_.ch('"');
            }
            if (e.is_volatile()) out_.raw(",\"volatile\":true");
            if ((e.flags & flag::kOrdered) != 0) out_.raw(",\"ordered\":true");
        }
        // The cost model's timing (simulator): modelled cycles, beside the logical ts.
        if (index < trace_.timing.size()) {
            const EventTiming& t = trace_.timing[index];
            out_.raw(",\"issue_cycle\":");
            out_.u64(t.issue);
            out_.raw(",\"latency_cycles\":");
            out_.u64(t.latency);
            if (e.is_atomic()) {
                out_.raw(",\"queue_depth\":");
                out_.u64(t.queue_depth);
            }
        }
        out_.raw(site.args_tail);
        out_.maybe_flush();
    }

    void write_barrier(const Slice& s, const BarrierSpan& b, uint64_t pid, uint64_t tid) {
        const Event& arrive = trace_.events[b.arrive_event];
        const SiteText& site = sites_[std::min<size_t>(arrive.site, trace_.sites.size())];
        const bool released = b.left != 0;
        event_head("barrier", "X", pid, tid, s.start);
        out_.raw(",\"dur\":");
        out_.micros(s.end - s.start);
        out_.raw(",\"name\":\"barrier ");
        out_.u64(arrive.address);
        if (!released) out_.raw(" (never released)");
        out_.raw("\",\"args\":{\"barrier\":");
        out_.u64(arrive.address);
        out_.raw(",\"phase\":");
        out_.u64(arrive.value);
        out_.raw(",\"warp_phase\":");
        out_.u64(s.index);
        out_.raw(",\"first_lane\":");
        out_.u64(trace_.threads[arrive.thread].lane);
        if (released) {
            out_.raw(",\"last_lane\":");
            out_.u64(b.last_leave_lane);
        }
        out_.raw(",\"lanes_arrived\":");
        out_.u64(b.arrived);
        out_.raw(",\"lanes_left\":");
        out_.u64(b.left);
        out_.raw(site.args_tail);
        out_.maybe_flush();
    }

    void write_warp(size_t w) {
        const auto& events = trace_.events;
        const size_t begin = warp_begin_[w], end = warp_begin_[w + 1];
        if (begin == end) return; // a warp that recorded nothing gets no track
        const uint64_t block = warp_keys_[w] >> 16;
        const auto warp = uint32_t(warp_keys_[w] & 0xffff);
        const uint64_t pid = block + 1, warp_tid = 2 * uint64_t(w) + 1, barrier_tid = warp_tid + 1;

        phases_.clear();
        barriers_.clear();
        for (size_t k = begin; k < end; ++k) {
            const size_t i = order_[k];
            const Event& e = events[i];
            const uint64_t t = when(e);
            const uint32_t phase = phase_[i];
            if (phase >= phases_.size()) phases_.resize(size_t(phase) + 1);
            PhaseSpan& p = phases_[phase];
            if (!p.present || t < p.start) p.start = t;
            if (!p.present || t > p.end) p.end = t;
            p.present = true;
            if (e.kind == EventKind::BarrierArrive) {
                if (phase >= barriers_.size()) barriers_.resize(size_t(phase) + 1);
                BarrierSpan& b = barriers_[phase];
                if (b.arrived == 0 || t < b.first_arrive) {
                    b.first_arrive = t;
                    b.arrive_event = i;
                }
                ++b.arrived;
            } else if (e.kind == EventKind::BarrierLeave && phase > 0) {
                if (phase - 1 >= barriers_.size()) barriers_.resize(phase);
                BarrierSpan& b = barriers_[phase - 1];
                if (b.left == 0 || t >= b.last_leave) {
                    b.last_leave = t;
                    b.last_leave_lane = trace_.threads[e.thread].lane;
                }
                ++b.left;
            }
        }

        slices_.clear();
        for (size_t k = 0; k < phases_.size(); ++k) {
            if (phases_[k].present) slices_.push_back({phases_[k].start, phases_[k].end, k});
        }
        clip_slices(slices_);
        barrier_slices_.clear();
        for (size_t k = 0; k < barriers_.size(); ++k) {
            const BarrierSpan& b = barriers_[k];
            if (b.arrived == 0) continue; // a leave without an arrive (lost event): nothing to draw
            const uint64_t stop = b.left != 0 ? b.last_leave : end_time_;
            barrier_slices_.push_back({b.first_arrive, std::max(stop, b.first_arrive), k});
        }
        clip_slices(barrier_slices_);

        write_names(w, block, warp, !barrier_slices_.empty());

        // Warp track: phase slices and instants merged by time, a slice before instants at its ts.
        size_t next_slice = 0;
        for (size_t k = begin; k < end; ++k) {
            const Event& e = events[order_[k]];
            if (e.kind == EventKind::BarrierArrive || e.kind == EventKind::BarrierLeave) continue;
            const uint64_t t = when(e);
            while (next_slice < slices_.size() && slices_[next_slice].start <= t) {
                write_phase(slices_[next_slice++], pid, warp_tid);
            }
            write_instant(e, order_[k], pid, warp_tid);
        }
        while (next_slice < slices_.size())
            write_phase(slices_[next_slice++], pid, warp_tid);

        for (const Slice& s : barrier_slices_)
            write_barrier(s, barriers_[s.index], pid, barrier_tid);
    }

    void write_metadata(bool gpu) {
        const RunMeta& m = trace_.meta;
        bool first = true;
        out_.ch('{');
        auto text = [&](std::string_view key, std::string_view value) {
            write_meta_field(out_, first, key);
            out_.str(value);
        };
        auto number = [&](std::string_view key, uint64_t value) {
            write_meta_field(out_, first, key);
            out_.u64(value);
        };
        text("tool", "SyncLab");
        text("scenario", m.scenario);
        text("variant", m.variant);
        text("kernel", m.kernel);
        text("kernel_name", kernel_name(m.kernel));
        text("backend", m.backend);
        text("device", m.device);
        number("sm_count", m.sm_count);
        text("schedule", m.schedule);
        number("seed", m.seed);
        text("memory_model", m.memory_model);
        text("grid", dims_text(m.grid));
        text("block", dims_text(m.block));
        number("dynamic_shared_bytes", m.dynamic_shared_bytes);
        text("status", to_string(m.status));
        text("status_message", m.status_message);
        write_meta_field(out_, first, "elapsed_ms");
        if (m.elapsed_ms == m.elapsed_ms && std::abs(m.elapsed_ms) <= std::numeric_limits<double>::max()) {
            out_.dbl(m.elapsed_ms);
        } else {
            out_.raw("null"); // JSON has no NaN / infinity
        }
        number("thread_instructions", m.thread_instructions);
        number("warp_instructions", m.warp_instructions);
        number("modelled_cycles", m.modelled_cycles);
        number("dropped_events", m.dropped_events);
        number("wrong_outputs", m.wrong_outputs);
        number("checked_outputs", m.checked_outputs);
        text("source_name", m.source_name);
        number("threads", trace_.threads.size());
        number("events", trace_.events.size());
        number("skipped_events", skipped_);
        text("clock",
             gpu ? "%globaltimer ns since the first event" : "logical simulator ticks, 1 tick shown as 1 ns");
        number("time_base", time_base_);
        out_.ch('}');
    }

    const Trace& trace_;
    JsonOut out_;
    std::vector<SiteText> sites_;
    std::vector<uint32_t>
        site_width_;          // per site: its access width (access_size), which indexes untyped arrays
    std::string memory_text_; // reused: an access's "s_tile[159]"
    std::vector<uint64_t> warp_keys_;   // (block << 16) | warp, sorted
    std::vector<uint32_t> thread_warp_; // thread -> index in warp_keys_
    std::vector<uint32_t> phase_;       // event -> its lane's phase
    std::vector<size_t> warp_begin_;    // warp -> first position in order_
    std::vector<size_t> order_;         // event indices grouped by warp, by time
    uint64_t skipped_ = 0;
    bool have_time_ = false;
    uint64_t min_time_ = 0, max_time_ = 0, time_base_ = 0, end_time_ = 0;
    bool first_event_ = true;
    bool have_block_ = false;
    uint64_t current_block_ = 0;
    // Per-warp scratch, reused.
    std::vector<PhaseSpan> phases_;
    std::vector<BarrierSpan> barriers_;
    std::vector<Slice> slices_, barrier_slices_;
};

// Length of the valid UTF-8 sequence starting at s[i] (2..4), or 0 if the bytes there are not one.
size_t utf8_sequence(std::string_view s, size_t i) {
    const auto b = [&](size_t k) { return uint8_t(s[i + k]); };
    const size_t left = s.size() - i;
    const uint8_t c = b(0);
    auto cont = [&](size_t k, uint8_t lo = 0x80, uint8_t hi = 0xbf) {
        return k < left && b(k) >= lo && b(k) <= hi;
    };
    if (c >= 0xc2 && c <= 0xdf) return cont(1) ? 2 : 0;
    if (c == 0xe0) return cont(1, 0xa0) && cont(2) ? 3 : 0;
    if ((c >= 0xe1 && c <= 0xec) || c == 0xee || c == 0xef) return cont(1) && cont(2) ? 3 : 0;
    if (c == 0xed) return cont(1, 0x80, 0x9f) && cont(2) ? 3 : 0; // no UTF-16 surrogates
    if (c == 0xf0) return cont(1, 0x90) && cont(2) && cont(3) ? 4 : 0;
    if (c >= 0xf1 && c <= 0xf3) return cont(1) && cont(2) && cont(3) ? 4 : 0;
    if (c == 0xf4) return cont(1, 0x80, 0x8f) && cont(2) && cont(3) ? 4 : 0;
    return 0;
}

} // namespace

void append_json_string(std::string& out, std::string_view text) {
    out.push_back('"');
    size_t run = 0; // start of the pending run of bytes copied as they are
    for (size_t i = 0; i < text.size();) {
        const auto c = uint8_t(text[i]);
        if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
            ++i;
            continue;
        }
        if (c >= 0x80) {
            if (const size_t n = utf8_sequence(text, i)) {
                i += n;
                continue;
            }
        }
        out.append(text.data() + run, i - run);
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        case '\b':
            out += "\\b";
            break;
        case '\f':
            out += "\\f";
            break;
        default:
            if (c < 0x20) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\u%04x", c);
                out += buf;
            } else {
                out += "\\ufffd"; // a byte that does not start a valid UTF-8 sequence
            }
        }
        ++i;
        run = i;
    }
    out.append(text.data() + run, text.size() - run);
    out.push_back('"');
}

void export_chrome_json(const Trace& trace, std::ostream& out) {
    Exporter(trace, out).run();
}

void export_chrome_json(const Trace& trace, const std::string& path) {
    const std::string tmp = path + ".tmp";
    auto fail = [&](const std::string& what, int err) {
        std::remove(tmp.c_str());
        throw TraceFileError(path, what + ": " + (err != 0 ? std::strerror(err) : "I/O error"));
    };
    std::ofstream file;
    std::vector<char> buffer(1 << 20);
    file.rdbuf()->pubsetbuf(buffer.data(), std::streamsize(buffer.size()));
    errno = 0;
    file.open(tmp, std::ios::binary | std::ios::trunc);
    if (!file) fail("cannot create " + tmp, errno);
    try {
        export_chrome_json(trace, file);
    } catch (const std::runtime_error&) {
        fail("cannot write " + tmp, errno);
    } catch (...) {
        std::remove(tmp.c_str());
        throw;
    }
    file.close();
    if (!file) fail("cannot write " + tmp, errno);
    if (std::rename(tmp.c_str(), path.c_str()) != 0) fail("cannot rename " + tmp + " to " + path, errno);
}

} // namespace synclab::trace
