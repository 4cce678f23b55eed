// How messages spell ids and addresses, one way for every layer that writes them (the simulator's
// errors and deadlock report, the analyses' findings, the app): ids as a person reads them ("0-127,
// 130, 200-255", "1, 3, ..., 31", "0, 10, 20 and 3 more") and addresses in hex ("0x7c").
#pragma once

#include "trace/trace.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace synclab::trace {

// Sorted, duplicates dropped; consecutive runs as "0-127", runs of four or more with one stride > 1
// as "1, 3, ..., 31". After `max_pieces` pieces (0: no limit) the rest is summarised as "and N more".
std::string format_id_list(std::vector<uint32_t> ids, size_t max_pieces = 8);

// "0x7c".
std::string format_hex(uint64_t value);

// A warp's lane mask as a person reads it: "0xffff (lanes 0-15)", "0x0 (no lanes)".
std::string format_lane_mask(uint32_t mask);

// One WarpCollective event in words (CLI, logs, messages): "shfl, mask 0xffffffff (lanes 0-31),
// from lane 17, result 0x2a"; "syncwarp, mask 0xffff (lanes 0-15)". Other kinds: their name.
std::string describe_event(const Event& event);

} // namespace synclab::trace
