// Inputs at the edge of 64 bits: an address near 2^64 is out of bounds (not a wrapped sum that
// lands inside a buffer), and a launch shape outside CUDA's limits, or one whose thread count does
// not fit in 64 bits, is refused with words, never run as "ok".
#include "sim/sim_test_util.h"

#include <gtest/gtest.h>

namespace synclab::sim {
namespace {

using testing::launch;

// One valid store (so the allocation is the cached one), then a store at 2^64 - 8 + the buffer's
// base: both address + size sums wrap.
const char* kWrapPtx = R"(
.version 8.0
.target sm_75
.address_size 64
.visible .entry wrap(.param .u64 p, .param .u64 far)
{
    .reg .b32 %r<2>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [p];
    ld.param.u64 %rd2, [far];
    mov.u32 %r1, 7;
    st.global.u32 [%rd1], %r1;
    st.global.u64 [%rd2], %rd2;
    ret;
}
)";

Result run_wrap(uint64_t far) {
    const ptx::Module m = ptx::parse_module(kWrapPtx, "wrap.ptx");
    std::vector<Buffer> buffers = {testing::make_buffer<uint32_t>("g_out", {0, 0})};
    const std::vector<KernelArg> args = {KernelArg::pointer(0), KernelArg::scalar(far)};
    return simulate(m, "wrap", launch({1, 1, 1}, {1, 1, 1}), buffers, args, Options{}, nullptr);
}

TEST(LaunchBounds, AnAddressNear2To64IsOutOfBounds) {
    for (uint64_t far : {0xfffffffffffffff8ull, 0xfffffffffffffff0ull, 0x8000000000000000ull}) {
        const Result r = run_wrap(far);
        EXPECT_EQ(r.status, trace::RunStatus::Error) << r.message;
        EXPECT_NE(r.message.find("out-of-bounds write of 8 bytes at global address"), std::string::npos)
            << r.message;
    }
}

Result run_shape(trace::Dim3 grid, trace::Dim3 block) {
    const ptx::Module m = ptx::parse_module(kWrapPtx, "wrap.ptx");
    std::vector<Buffer> buffers = {testing::make_buffer<uint32_t>("g_out", {0, 0})};
    const std::vector<KernelArg> args = {KernelArg::pointer(0), KernelArg::scalar(0)};
    return simulate(m, "wrap", launch(grid, block), buffers, args, Options{}, nullptr);
}

TEST(LaunchBounds, ShapesOutsideCudasLimitsAreRefused) {
    struct Case {
        trace::Dim3 grid, block;
        const char* says;
    };
    const Case cases[] = {
        {{1, 1, 1}, {1073741824, 1073741824, 16}, "has more than 1024 threads"}, // count() wraps to 0
        {{1, 1, 1}, {2048, 1, 1}, "has more than 1024 threads"},
        {{1, 1, 1}, {1, 1, 65}, "z dimension is at most 64"},
        {{2147483648u, 1, 1}, {1, 1, 1}, "x dimension is at most 2147483647"},
        {{1, 65536, 1}, {1, 1, 1}, "y and z dimensions are at most 65535"},
        {{1, 0, 1}, {32, 1, 1}, "every dimension must be at least 1"},
    };
    for (const Case& c : cases) {
        const Result r = run_shape(c.grid, c.block);
        EXPECT_EQ(r.status, trace::RunStatus::Error) << c.says << ": " << r.message;
        EXPECT_NE(r.message.find(c.says), std::string::npos) << r.message;
    }
}

// Within CUDA's limits the grid can still hold more threads than 64 bits count: the thread budget
// refuses it, naming the count, instead of a wrapped product passing as a small launch.
TEST(LaunchBounds, AThreadCountPast64BitsIsOverTheBudget) {
    const Result r = run_shape({2147483647u, 65535, 65535}, {1024, 1, 1});
    EXPECT_EQ(r.status, trace::RunStatus::Budget) << r.message;
    EXPECT_NE(r.message.find("more than 2^64 threads"), std::string::npos) << r.message;
    // 2^30 x 2^15 x 2^15 blocks of 16: exactly 2^64 threads, which wraps to 0 unchecked.
    const Result wraps_to_zero = run_shape({1073741824, 32768, 32768}, {16, 1, 1});
    EXPECT_EQ(wraps_to_zero.status, trace::RunStatus::Budget) << wraps_to_zero.message;
    EXPECT_NE(wraps_to_zero.message.find("more than 2^64 threads"), std::string::npos)
        << wraps_to_zero.message;
}

} // namespace
} // namespace synclab::sim
