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

} // namespace
} // namespace synclab::trace
