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
    // What grid.sync() would have done, in one sentence a student reads in one go.
    EXPECT_NE(p.find("nothing ran (CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE). Had it started, the resident "
                     "blocks would wait at grid.sync() forever for blocks that could not start"),
              std::string::npos)
        << p;
    // No closing full stop: the runner joins the untraced and traced messages with "; traced run: ".
    EXPECT_NE(p.back(), '.') << p;
}

TEST(CooperativeGpu, NoBlockFitsAnSmIsNotTooManyBlocks) {
    // Occupancy 0 (a block needs more registers or shared memory than an SM has): no grid of the
    // kernel runs, however small, so "too many blocks" and the driver's TOO_LARGE would mislead.
    const std::string p = cooperative_launch_problem(1, 1024, 0, 132);
    EXPECT_EQ(p.find("cooperative launch of 1 block of 1024 threads: not one block of this kernel fits an "
                     "SM (cuOccupancyMaxActiveBlocksPerMultiprocessor gives 0"),
              0u)
        << p;
    EXPECT_EQ(p.find("too many blocks"), std::string::npos) << p;
    EXPECT_EQ(p.find("TOO_LARGE"), std::string::npos) << p;
    const std::string none = cooperative_launch_problem(0, 32, 0, 132);
    EXPECT_EQ(none.find("cooperative launch of 0 blocks of 32 threads"), 0u) << none;
}

TEST(CooperativeGpu, DriverRefusalAndUnsupportedDeviceInPlainWords) {
    // The driver disagreeing with the occupancy check: its figures, so the mismatch is visible.
    EXPECT_EQ(cooperative_driver_refused(1056, 256, 8, 132),
              "the driver refused 1056 blocks of 256 threads although the kernel's occupancy allowed 1056 "
              "at once (132 SMs x 8 blocks per SM, by cuOccupancyMaxActiveBlocksPerMultiprocessor); "
              "nothing ran");
    EXPECT_EQ(cooperative_unsupported("NVIDIA H200"),
              "cooperative launch: NVIDIA H200 cannot launch cooperatively "
              "(CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH is 0), so grid.sync() cannot run on it; nothing ran");
    EXPECT_EQ(cooperative_unsupported("").find("cooperative launch: this GPU cannot"), 0u);
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
