#include "ui/model/warp_collectives.h"

#include "trace/text_format.h"

#include <algorithm>
#include <numeric>
#include <unordered_map>

namespace synclab::ui {

namespace {

struct GroupKey {
    uint32_t warp = 0, mask = 0;
    uint16_t site = 0;
    bool operator==(const GroupKey&) const = default;
};

struct GroupKeyHash {
    size_t operator()(const GroupKey& k) const {
        uint64_t h = (uint64_t(k.warp) << 32 | k.mask) * 0x9e3779b97f4a7c15ull;
        return size_t(h ^ (h >> 29) ^ (uint64_t(k.site) * 0xbf58476d1ce4e5b9ull));
    }
};

// Executions of one instruction by one set of members, in order: lane L's k-th event is in marks[k].
struct Group {
    uint32_t seen[32] = {};
    std::vector<uint32_t> marks; // indices into the unsorted marks
};

uint32_t lane_bit(uint32_t lane) {
    return lane < 32 ? 1u << lane : 0;
}

bool is_ballot(const trace::Trace& trace, uint16_t site) {
    return site < trace.sites.size() && trace.sites[site].text.find(".ballot") != std::string::npos;
}

} // namespace

CollectiveIndex::CollectiveIndex(const trace::Trace& trace, std::span<const uint32_t> warp_of_thread,
                                 uint32_t warp_count) {
    struct Raw {
        CollectiveMark mark;
        uint32_t warp = 0;
    };
    std::vector<Raw> raw;
    std::vector<std::pair<uint32_t, uint32_t>> owned; // (raw mark, event)
    std::unordered_map<GroupKey, Group, GroupKeyHash> groups;
    const auto& events = trace.events;
    for (uint32_t i = 0; i < events.size(); ++i) {
        const trace::Event& e = events[i];
        if (e.kind != trace::EventKind::WarpCollective || e.thread >= warp_of_thread.size()) continue;
        const uint32_t warp = warp_of_thread[e.thread];
        if (warp >= warp_count) continue;
        const uint32_t lane = trace.threads[e.thread].lane;
        const uint32_t mask = uint32_t(e.address);
        Group& g = groups[GroupKey{warp, mask, e.site}];
        const uint32_t k = g.seen[lane & 31]++;
        if (k == g.marks.size()) {
            g.marks.push_back(uint32_t(raw.size()));
            Raw r;
            r.warp = warp;
            r.mark.t0 = r.mark.t1 = e.time;
            r.mark.mask = mask;
            r.mark.site = e.site;
            r.mark.op = static_cast<trace::Collective>(e.flags & trace::flag::kCollectiveMask);
            r.mark.ballot = r.mark.op == trace::Collective::Vote && is_ballot(trace, e.site);
            raw.push_back(r);
        }
        const uint32_t m = g.marks[k];
        CollectiveMark& mark = raw[m].mark;
        mark.t0 = std::min(mark.t0, e.time);
        mark.t1 = std::max(mark.t1, e.time);
        if (mark.met & lane_bit(lane)) continue; // a damaged trace: two events of one lane in one mark
        mark.met |= lane_bit(lane);
        owned.push_back({m, i});
    }
    // Marks by warp, then time; members by lane.
    std::vector<uint32_t> order(raw.size());
    std::iota(order.begin(), order.end(), 0u);
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
        if (raw[a].warp != raw[b].warp) return raw[a].warp < raw[b].warp;
        if (raw[a].mark.t0 != raw[b].mark.t0) return raw[a].mark.t0 < raw[b].mark.t0;
        return a < b;
    });
    std::vector<uint32_t> rank(raw.size());
    for (uint32_t r = 0; r < order.size(); ++r)
        rank[order[r]] = r;
    std::sort(owned.begin(), owned.end(), [&](const auto& a, const auto& b) {
        if (rank[a.first] != rank[b.first]) return rank[a.first] < rank[b.first];
        return trace.threads[events[a.second].thread].lane < trace.threads[events[b.second].thread].lane;
    });
    marks_.reserve(raw.size());
    offsets_.assign(size_t(warp_count) + 1, 0);
    for (uint32_t r : order) {
        marks_.push_back(raw[r].mark);
        ++offsets_[raw[r].warp + 1];
    }
    for (uint32_t w = 0; w < warp_count; ++w)
        offsets_[w + 1] += offsets_[w];
    members_.reserve(owned.size());
    uint32_t at = 0;
    for (uint32_t r = 0; r < marks_.size(); ++r) {
        CollectiveMark& mark = marks_[r];
        mark.first_member = uint32_t(members_.size());
        for (; at < owned.size() && rank[owned[at].first] == r; ++at) {
            const uint32_t ev = owned[at].second;
            members_.push_back(ev);
            const trace::Event& e = events[ev];
            const uint32_t lane = trace.threads[e.thread].lane;
            if (mark.op == trace::Collective::Shfl) {
                const uint32_t source = uint32_t(e.address >> 32);
                if (source < 32) {
                    mark.gave |= lane_bit(source);
                    mark.received |= lane_bit(lane);
                }
            } else if (mark.op == trace::Collective::Vote) {
                if (mark.ballot)
                    mark.result = e.value;
                else if (e.value != 0)
                    mark.result |= lane_bit(lane);
            }
        }
    }
    max_end_.resize(marks_.size());
    for (uint32_t w = 0; w < warp_count; ++w) {
        uint64_t running = 0;
        for (uint32_t i = offsets_[w]; i < offsets_[w + 1]; ++i) {
            running = std::max(running, marks_[i].t1);
            max_end_[i] = running;
        }
    }
}

namespace {

std::vector<uint32_t> lanes_of(uint32_t mask) {
    std::vector<uint32_t> lanes;
    for (uint32_t l = 0; l < 32; ++l)
        if (mask & (1u << l)) lanes.push_back(l);
    return lanes;
}

std::string lanes_words(uint32_t mask, Language language) {
    const CollectiveText& words = ui_text(language).collective;
    if (mask == 0) return words.no_lanes.s;
    return fill(words.lanes, {trace::format_id_list(lanes_of(mask))});
}

} // namespace

std::string lane_list(uint32_t mask) {
    return lanes_words(mask, Language::En);
}

std::vector<std::string> describe_collective(const trace::Trace& trace, const CollectiveIndex& index,
                                             const CollectiveMark& mark, Language language) {
    const CollectiveText& words = ui_text(language).collective;
    std::vector<std::string> out;
    const char* name = mark.op == trace::Collective::WarpSync ? words.warp_sync.s
                       : mark.op == trace::Collective::Shfl   ? words.shfl.s
                       : mark.op == trace::Collective::Vote   ? (mark.ballot ? words.ballot.s : words.vote.s)
                       : mark.op == trace::Collective::Match  ? words.match.s
                       : mark.op == trace::Collective::Redux  ? words.redux.s
                                                              : words.elect.s;
    out.push_back(name);
    if (mark.site < trace.sites.size() && !trace.sites[mark.site].text.empty())
        out.push_back(trace.sites[mark.site].text);
    out.push_back(fill(words.members, {trace::format_hex(mark.mask), lanes_words(mark.mask, language)}));
    if ((mark.mask & ~mark.met) != 0)
        out.push_back(fill(words.not_recorded, {lanes_words(mark.mask & ~mark.met, language)}));
    const auto members = index.members(mark);
    switch (mark.op) {
    case trace::Collective::WarpSync:
        out.push_back(words.sync_meaning.s);
        break;
    case trace::Collective::Shfl: {
        // "0←16, 1←17, ..." (receiver ← source), the first few; then who kept its own value.
        std::string pairs;
        size_t shown = 0;
        for (uint32_t ev : members) {
            const trace::Event& e = trace.events[ev];
            const uint32_t source = uint32_t(e.address >> 32);
            if (source >= 32) continue;
            if (shown == 8) {
                pairs += ", ...";
                break;
            }
            if (shown++) pairs += ", ";
            pairs += std::to_string(unsigned(trace.threads[e.thread].lane)) + "\u2190" + std::to_string(source);
        }
        if (!pairs.empty()) out.push_back(fill(words.read_from, {pairs}));
        out.push_back(fill(words.gave, {lanes_words(mark.gave, language)}));
        const uint32_t kept = mark.met & ~mark.received;
        if (kept) out.push_back(fill(words.kept, {lanes_words(kept, language)}));
        out.push_back(words.no_memory_order.s);
        break;
    }
    case trace::Collective::Vote:
        if (mark.ballot) {
            out.push_back(fill(words.ballot_result,
                               {trace::format_hex(mark.result), lanes_words(mark.result, language)}));
        } else {
            out.push_back(fill(words.vote_true, {lanes_words(mark.result, language)}));
            const uint32_t no = mark.met & ~mark.result;
            if (no) out.push_back(fill(words.vote_false, {lanes_words(no, language)}));
        }
        out.push_back(words.no_memory_order.s);
        break;
    default: {
        // match / redux / elect: the lanes' results ("lane 0: 0x3, lane 1: 0x3, ...").
        std::string values;
        size_t shown = 0;
        for (uint32_t ev : members) {
            const trace::Event& e = trace.events[ev];
            if (shown == 6) {
                values += ", ...";
                break;
            }
            if (shown++) values += ", ";
            values += fill(words.lane_value, {std::to_string(unsigned(trace.threads[e.thread].lane)),
                                              trace::format_hex(e.value)});
        }
        if (!values.empty()) out.push_back(fill(words.results, {values}));
        break;
    }
    }
    return out;
}

} // namespace synclab::ui
