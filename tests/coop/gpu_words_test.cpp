// The GPU side of a cooperative launch, without a GPU: the refusal in plain words (from the
// occupancy figures GPU_FACTS gives for the H200) and the request field that carries the flag.
#include "gpu/cooperative.h"
#include "gpu/protocol.h"

#include <gtest/gtest.h>

namespace synclab::gpu {
namespace {

TEST(CooperativeGpu, TooLargeGridInPlainWords) {
    // H200: a 256-thread kernel fits 8 blocks per SM, 132 SMs: 1,056.
    EXPECT_EQ(cooperative_launch_problem(1056, 256, 8, 132), "");
    const std::string p = cooperative_launch_problem(4224, 256, 8, 132);
    EXPECT_EQ(p.find("too many blocks in cooperative launch: 4224 blocks of 256 threads, at most 1056 fit at once "
                     "(132 SMs x 8 blocks per SM, by cuOccupancyMaxActiveBlocksPerMultiprocessor)"),
              0u)
        << p;
    EXPECT_NE(p.find("CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE"), std::string::npos);
    // A kernel that does not fit an SM at all (occupancy 0) fits no grid.
    EXPECT_NE(cooperative_launch_problem(1, 1024, 0, 132), "");
}

TEST(CooperativeGpu, TheRequestCarriesTheFlag) {
    for (bool coop : {false, true}) {
        RunRequest req;
        req.kernel = "k";
        req.grid = {64, 1, 1};
        req.block = {256, 1, 1};
        req.cooperative = coop;
        RunRequest back;
        decode(encode(req), back);
        EXPECT_EQ(back.cooperative, coop);
        EXPECT_EQ(back.grid.x, 64u);
    }
}

} // namespace
} // namespace synclab::gpu
