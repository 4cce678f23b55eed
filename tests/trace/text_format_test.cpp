// trace::format_id_list: the one spelling of id lists in messages.
#include "trace/text_format.h"

#include <gtest/gtest.h>

namespace synclab::trace {
namespace {

// Verdict: the compact list formats runs, strides, singles, and caps the pieces.
TEST(trace_id_list, CompactForms) {
    EXPECT_EQ(format_id_list({}), "");
    EXPECT_EQ(format_id_list({7}), "7");
    EXPECT_EQ(format_id_list({3, 1, 2, 2}), "1-3");
    EXPECT_EQ(format_id_list({0, 5}), "0, 5");
    std::vector<uint32_t> ids;
    for (uint32_t i = 0; i < 128; ++i)
        ids.push_back(i);
    ids.push_back(130);
    for (uint32_t i = 200; i < 256; ++i)
        ids.push_back(i);
    EXPECT_EQ(format_id_list(ids), "0-127, 130, 200-255");
    std::vector<uint32_t> odd;
    for (uint32_t i = 1; i < 32; i += 2)
        odd.push_back(i);
    EXPECT_EQ(format_id_list(odd), "1, 3, ..., 31");
    EXPECT_EQ(format_id_list({0, 2, 4, 5, 6, 7}), "0, 2, 4-7");
    EXPECT_EQ(format_id_list({1, 3, 5, 7, 9, 10, 11}), "1, 3, ..., 7, 9-11");
    EXPECT_EQ(format_id_list({0, 10, 20, 31, 45, 60}, 3), "0, 10, 20 and 3 more");
}

TEST(trace_text, LaneMasks) {
    EXPECT_EQ(format_lane_mask(0xffffffffu), "0xffffffff (lanes 0-31)");
    EXPECT_EQ(format_lane_mask(0x0000ffffu), "0xffff (lanes 0-15)");
    EXPECT_EQ(format_lane_mask(0x55555555u), "0x55555555 (lanes 0, 2, ..., 30)");
    EXPECT_EQ(format_lane_mask(0x80000001u), "0x80000001 (lanes 0, 31)");
    EXPECT_EQ(format_lane_mask(0), "0x0 (no lanes)");
}

// Each collective names itself, its mask, shfl's source lane only where there is one, and a result
// except for __syncwarp (which has none).
TEST(trace_text, WarpCollectiveEvents) {
    Event e;
    e.kind = EventKind::WarpCollective;
    e.flags = uint8_t(Collective::Shfl);
    e.address = uint64_t(17) << 32 | 0xffffffffu;
    e.value = 42;
    EXPECT_EQ(describe_event(e), "shfl, mask 0xffffffff (lanes 0-31), from lane 17, result 0x2a");
    e.address = uint64_t(kNoLane) << 32 | 0xffffffffu;
    EXPECT_EQ(describe_event(e), "shfl, mask 0xffffffff (lanes 0-31), result 0x2a");
    e.flags = uint8_t(Collective::Vote);
    e.address = uint64_t(kNoLane) << 32 | 0x0000ff00u;
    e.value = 0x300;
    EXPECT_EQ(describe_event(e), "vote, mask 0xff00 (lanes 8-15), result 0x300");
    e.flags = uint8_t(Collective::WarpSync);
    e.address = uint64_t(kNoLane) << 32 | 0xffffu;
    EXPECT_EQ(describe_event(e), "syncwarp, mask 0xffff (lanes 0-15)");
    e.flags = uint8_t(Collective::Elect);
    EXPECT_EQ(describe_event(e), "elect, mask 0xffff (lanes 0-15), result 0x300");
    Event load;
    EXPECT_EQ(describe_event(load), "load");
}

} // namespace
} // namespace synclab::trace
