// make_inputs: deterministic per seed, different across seeds (where the inputs are random), sized
// for the launch, with outputs that start at values no correct result can have.
#include "scenario/scenario.h"
#include "test_util.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace synclab::scenario {
namespace {

bool same_inputs(const Inputs& a, const Inputs& b) {
    if (a.buffers.size() != b.buffers.size() || a.args.size() != b.args.size()) return false;
    for (size_t i = 0; i < a.buffers.size(); ++i)
        if (a.buffers[i].name != b.buffers[i].name || a.buffers[i].bytes != b.buffers[i].bytes) return false;
    for (size_t i = 0; i < a.args.size(); ++i)
        if (a.args[i].kind != b.args[i].kind || a.args[i].buffer != b.args[i].buffer ||
            a.args[i].bits != b.args[i].bits)
            return false;
    return true;
}

TEST(scenario_inputs, DeterministicPerSeed) {
    for (const Scenario& s : catalog())
        for (uint64_t seed : {0ull, 1ull, 42ull, 0xffffffffffffffffull}) {
            SCOPED_TRACE(s.id + " seed " + std::to_string(seed));
            EXPECT_TRUE(same_inputs(s.make_inputs(seed), s.make_inputs(seed)));
        }
}

TEST(scenario_inputs, DifferAcrossSeeds) {
    // lost_update's only input is a counter at 0: what varies there is the schedule, not the data.
    for (const char* id : {"stencil", "divergent_barrier", "loop_barrier"}) {
        const Scenario& s = test::scenario(id);
        for (uint64_t seed : {1ull, 2ull, 3ull, 1000ull})
            EXPECT_FALSE(same_inputs(s.make_inputs(seed), s.make_inputs(seed + 1))) << id << " seed " << seed;
    }
    EXPECT_TRUE(same_inputs(test::scenario("lost_update").make_inputs(1),
                            test::scenario("lost_update").make_inputs(2)));
}

TEST(scenario_inputs, ScenariosDoNotShareData) {
    const auto stencil = test::scenario("stencil").make_inputs(7);
    const auto divergent = test::scenario("divergent_barrier").make_inputs(7);
    EXPECT_NE(stencil.buffers[0].bytes, divergent.buffers[0].bytes);
}

// Values pinned for one seed: the buffers come from the lessons' buf: specs (launch::make_buffer, our
// own SplitMix64), so these never change with the compiler or the standard library. If this fails,
// saved runs no longer replay with the same data.
TEST(scenario_inputs, PinnedForSeedOne) {
    const auto stencil = test::values_of<float>(test::scenario("stencil").make_inputs(1).buffers[0]);
    const auto divergent =
        test::values_of<int32_t>(test::scenario("divergent_barrier").make_inputs(1).buffers[0]);
    const auto lengths = test::values_of<int32_t>(test::scenario("loop_barrier").make_inputs(1).buffers[0]);
    const std::vector<float> stencil_head(stencil.begin(), stencil.begin() + 4);
    const std::vector<int32_t> divergent_head(divergent.begin(), divergent.begin() + 4);
    const std::vector<int32_t> length_head(lengths.begin(), lengths.begin() + 4);
    EXPECT_EQ(stencil_head, (std::vector<float>{2.0f, 9.0f, 7.0f, 5.0f}));
    EXPECT_EQ(divergent_head, (std::vector<int32_t>{912386, 755388, 993796, 339881}));
    EXPECT_EQ(length_head, (std::vector<int32_t>{1, 4, 3, 6}));
}

// The inputs are the buffers the lesson files declare, filled from one stream per seed in order, as
// `synclab check --arg SPEC ...` fills the same specs.
TEST(scenario_inputs, MadeFromTheLessonsBufferSpecs) {
    const std::vector<std::pair<std::string, std::vector<std::string>>> lessons = {
        {"stencil", {"buf:f32:16384:random=1..9", "buf:f32:16384"}},
        {"divergent_barrier", {"buf:i32:1024:random=1..999999", "buf:i32:1024"}},
        {"loop_barrier", {"buf:i32:1024:random=0..7", "buf:i32:7168:random=1..99", "buf:i32:1024"}},
        {"lost_update", {"buf:u32:1"}},
    };
    for (const auto& [id, specs] : lessons) {
        const Scenario& s = test::scenario(id);
        for (uint64_t seed : {1ull, 7ull}) {
            SCOPED_TRACE(id + " seed " + std::to_string(seed));
            const Inputs in = s.make_inputs(seed);
            ASSERT_EQ(in.buffers.size(), specs.size());
            uint64_t rng = launch::buffer_rng_seed(seed);
            for (size_t i = 0; i < specs.size(); ++i) {
                EXPECT_EQ(launch::to_string(s.buffers[i].spec), specs[i]);
                EXPECT_EQ(in.buffers[i].bytes,
                          launch::make_buffer(launch::parse_buffer_spec(specs[i]), "", rng).bytes)
                    << specs[i];
            }
        }
    }
}

// loop_barrier passes max_len = 7 and its lesson calls it the longest list: true for every seed the
// tests and the app use (a list of 0..7 items per thread, 1024 threads).
TEST(scenario_inputs, LoopBarrierMaxLenIsTheLongestList) {
    const Scenario& s = test::scenario("loop_barrier");
    for (uint64_t seed = 1; seed <= 100; ++seed) {
        const Inputs in = s.make_inputs(seed);
        const auto len = test::values_of<int32_t>(in.buffers[0]);
        ASSERT_EQ(static_cast<uint64_t>(*std::max_element(len.begin(), len.end())), in.args[4].bits) << seed;
    }
}

TEST(scenario_inputs, StencilShape) {
    const Scenario& s = test::scenario("stencil");
    const Inputs in = s.make_inputs(5);
    const uint64_t n = s.launch.grid.count() * s.launch.block.count();
    ASSERT_EQ(in.buffers.size(), 2u);
    EXPECT_EQ(in.buffers[0].name, "g_in");
    EXPECT_EQ(in.buffers[1].name, "g_out");
    const auto g_in = test::values_of<float>(in.buffers[0]);
    const auto g_out = test::values_of<float>(in.buffers[1]);
    ASSERT_EQ(g_in.size(), n);
    ASSERT_EQ(g_out.size(), n);
    for (float v : g_in)
        ASSERT_TRUE(v >= 1.0f && v <= 9.0f && v == static_cast<float>(static_cast<int>(v))) << v;
    EXPECT_TRUE(std::all_of(g_out.begin(), g_out.end(), [](float v) { return v == 0.0f; }));
    EXPECT_EQ(in.args[2].kind, launch::KernelArg::Kind::Scalar);
    EXPECT_EQ(in.args[2].bits, n);
}

TEST(scenario_inputs, DivergentBarrierShape) {
    const Scenario& s = test::scenario("divergent_barrier");
    const Inputs in = s.make_inputs(5);
    const uint64_t n = s.launch.grid.count() * s.launch.block.count();
    ASSERT_EQ(in.buffers.size(), 2u);
    const auto g_in = test::values_of<int32_t>(in.buffers[0]);
    const auto g_out = test::values_of<int32_t>(in.buffers[1]);
    ASSERT_EQ(g_in.size(), n);
    ASSERT_EQ(g_out.size(), n);
    EXPECT_TRUE(std::all_of(g_in.begin(), g_in.end(), [](int32_t v) { return v > 0; }));
    EXPECT_TRUE(std::all_of(g_out.begin(), g_out.end(), [](int32_t v) { return v == 0; }));
}

TEST(scenario_inputs, LoopBarrierShape) {
    const Scenario& s = test::scenario("loop_barrier");
    const uint64_t n = s.launch.grid.count() * s.launch.block.count();
    for (uint64_t seed : {1ull, 2ull, 3ull}) {
        const Inputs in = s.make_inputs(seed);
        ASSERT_EQ(in.buffers.size(), 3u);
        EXPECT_EQ(in.buffers[0].name, "g_len");
        EXPECT_EQ(in.buffers[1].name, "g_items");
        EXPECT_EQ(in.buffers[2].name, "g_out");
        const auto len = test::values_of<int32_t>(in.buffers[0]);
        ASSERT_EQ(len.size(), n);
        const int32_t max_len = *std::max_element(len.begin(), len.end());
        EXPECT_EQ(*std::min_element(len.begin(), len.end()), 0) << "some thread has an empty list";
        EXPECT_EQ(max_len, 7);
        EXPECT_EQ(in.buffers[1].bytes.size(), size_t(max_len) * n * 4);
        EXPECT_EQ(in.args[3].bits, n);
        EXPECT_EQ(in.args[4].bits, static_cast<uint64_t>(max_len));
        // Lists of different lengths inside one block, or the broken loop would not diverge.
        const auto block0_max = *std::max_element(len.begin(), len.begin() + 256);
        const auto block0_min = *std::min_element(len.begin(), len.begin() + 256);
        EXPECT_LT(block0_min, block0_max);
    }
}

TEST(scenario_inputs, LostUpdateStartsAtZero) {
    const Inputs in = test::scenario("lost_update").make_inputs(9);
    ASSERT_EQ(in.buffers.size(), 1u);
    EXPECT_EQ(in.buffers[0].name, "g_counter");
    EXPECT_EQ(test::values_of<uint32_t>(in.buffers[0]), std::vector<uint32_t>{0});
    ASSERT_EQ(in.args.size(), 1u);
    EXPECT_EQ(in.args[0].kind, launch::KernelArg::Kind::Buffer);
}

} // namespace
} // namespace synclab::scenario
