// Warp collectives on the timeline (trace::EventKind::WarpCollective): the per-lane events of one
// shuffle, vote or __syncwarp grouped back into the one warp-wide operation they were, so that the
// timeline can draw it as one mark on the warp's row with its masks (which lanes took part, which
// gave a value, which received one, what a vote said) and name it when hovered. Pure: no ImGui.
//
// Grouping: the k-th event of lane L at (warp, site, member mask) belongs to the k-th execution of
// that instruction by those members. Two halves of a diverged warp running one shfl with masks of
// their own are two marks; one loop iteration is one mark per iteration. Built once per trace,
// O(collective events log) time.
#pragma once

#include "trace/trace.h"
#include "ui/model/ui_text.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace synclab::ui {

struct CollectiveMark {
    uint64_t t0 = 0, t1 = 0;   // first and last member event (trace time)
    uint32_t first_member = 0; // CollectiveIndex::members(): [first_member, first_member + met lanes)
    uint32_t mask = 0;         // the member mask the instruction named
    uint32_t met = 0;          // lanes that recorded it (a partial trace may lack some)
    uint32_t gave = 0;         // shfl: lanes whose value some member read (their own included)
    uint32_t received = 0;     // shfl: lanes that read a lane's value (not clamped to their own)
    uint32_t result = 0;       // vote: the ballot (.ballot) or the lanes whose vote came out true
    uint16_t site = 0;
    trace::Collective op = trace::Collective::WarpSync;
    bool ballot = false; // vote.sync.ballot (its result is a mask, the same in every lane)
    uint32_t lanes() const { return uint32_t(__builtin_popcount(met)); }
};

class CollectiveIndex {
  public:
    CollectiveIndex() = default;
    // warp_of_thread[t]: the warp row slot of trace thread t (UINT32_MAX: none); warp_count slots.
    CollectiveIndex(const trace::Trace& trace, std::span<const uint32_t> warp_of_thread, uint32_t warp_count);

    bool empty() const { return marks_.empty(); }
    size_t size() const { return marks_.size(); }
    const CollectiveMark& mark(uint32_t i) const { return marks_[i]; }
    // The marks of one warp, sorted by t0 ([offset(w), offset(w + 1)) of all marks), and the
    // running maximum of their t1 (for the first one reaching into a time window).
    uint32_t offset(uint32_t warp_slot) const { return offsets_[warp_slot]; }
    const std::vector<uint64_t>& max_end() const { return max_end_; }
    // The member events of a mark (trace indices), by lane.
    std::span<const uint32_t> members(const CollectiveMark& m) const {
        return {members_.data() + m.first_member, m.lanes()};
    }

  private:
    std::vector<CollectiveMark> marks_;
    std::vector<uint32_t> offsets_; // warp_count + 1
    std::vector<uint64_t> max_end_;
    std::vector<uint32_t> members_;
};

// "lanes 0-15" style list of a lane mask ("no lanes" when empty).
std::string lane_list(uint32_t mask);

// What the hover text says about a mark, one line each: the instruction (its PTX text), the members
// (mask and lanes), then per kind: shfl who read from whom and who kept its own value; a vote's
// result; __syncwarp as a warp barrier; match/redux/elect their results. In `language`.
std::vector<std::string> describe_collective(const trace::Trace& trace, const CollectiveIndex& index,
                                             const CollectiveMark& mark, Language language);

} // namespace synclab::ui
