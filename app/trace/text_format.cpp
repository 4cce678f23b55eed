#include "trace/text_format.h"

#include <algorithm>
#include <cstdio>

namespace synclab::trace {

std::string format_id_list(std::vector<uint32_t> ids, size_t max_pieces) {
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    std::vector<std::string> pieces;
    size_t covered = 0; // ids consumed by the pieces kept
    size_t i = 0;
    while (i < ids.size()) {
        if (max_pieces != 0 && pieces.size() == max_pieces) break;
        size_t j = i; // last index of the run starting at i
        while (j + 1 < ids.size() && ids[j + 1] == ids[j] + 1)
            ++j;
        if (j > i) {
            pieces.push_back(std::to_string(ids[i]) + "-" + std::to_string(ids[j]));
        } else {
            // A strided run (1, 3, 5, 7, ...) of at least four ids, none of them part of a
            // consecutive run except possibly the last.
            size_t k = i;
            if (i + 1 < ids.size()) {
                const uint32_t stride = ids[i + 1] - ids[i];
                while (k + 1 < ids.size() && ids[k + 1] - ids[k] == stride)
                    ++k;
                // Leave the last id to a following consecutive run (1, 3, 5, 7, 8 -> "1, 3, 5", "7-8").
                if (k + 1 < ids.size() && ids[k + 1] == ids[k] + 1) --k;
            }
            if (k >= i + 3) {
                pieces.push_back(std::to_string(ids[i]) + ", " + std::to_string(ids[i + 1]) + ", ..., " +
                                 std::to_string(ids[k]));
                j = k;
            } else {
                pieces.push_back(std::to_string(ids[i]));
            }
        }
        covered += j - i + 1;
        i = j + 1;
    }
    std::string out;
    for (size_t p = 0; p < pieces.size(); ++p) {
        if (p != 0) out += ", ";
        out += pieces[p];
    }
    if (covered < ids.size()) out += " and " + std::to_string(ids.size() - covered) + " more";
    return out;
}

std::string format_hex(uint64_t value) {
    char buffer[24];
    std::snprintf(buffer, sizeof buffer, "0x%llx", static_cast<unsigned long long>(value));
    return buffer;
}

std::string format_lane_mask(uint32_t mask) {
    std::vector<uint32_t> lanes;
    for (uint32_t l = 0; l < 32; ++l)
        if (mask & (1u << l)) lanes.push_back(l);
    return format_hex(mask) + (lanes.empty() ? " (no lanes)" : " (lanes " + format_id_list(lanes) + ")");
}

std::string describe_event(const Event& e) {
    if (e.kind != EventKind::WarpCollective) return to_string(e.kind);
    const auto op = static_cast<Collective>(e.flags & flag::kCollectiveMask);
    std::string out = std::string(to_string(op)) + ", mask " + format_lane_mask(uint32_t(e.address));
    const uint32_t source = uint32_t(e.address >> 32);
    if (source != kNoLane) out += ", from lane " + std::to_string(source);
    if (op != Collective::WarpSync) out += ", result " + format_hex(e.value);
    return out;
}

} // namespace synclab::trace
