// Gold tests of the CPU references: each check is fed buffers that hold the right answer (computed
// here by a straightforward simulation of the correct kernel, independent of the library's code), then
// outputs corrupted on purpose: it must count exactly the corrupted ones.
#include "scenario/scenario.h"
#include "test_util.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace synclab::scenario {
namespace {

constexpr int kB = 256; // threads per block in every scenario

// The correct stencil, block by block, as the kernel does it: a tile, then left + centre + right.
std::vector<float> stencil_answer(const std::vector<float>& in) {
    std::vector<float> out(in.size());
    for (size_t base = 0; base < in.size(); base += kB) {
        float tile[kB];
        for (int t = 0; t < kB; ++t)
            tile[t] = in[base + t];
        for (int t = 0; t < kB; ++t) {
            float left = t > 0 ? tile[t - 1] : 0.0f;
            float right = t < kB - 1 ? tile[t + 1] : 0.0f;
            out[base + t] = left + tile[t] + right;
        }
    }
    return out;
}

// The correct divergent_barrier kernel: rotate the tile by 64 * block into s_rot, write s_rot reversed.
std::vector<int32_t> divergent_answer(const std::vector<int32_t>& in) {
    std::vector<int32_t> out(in.size());
    for (size_t block = 0; block * kB < in.size(); ++block) {
        const int32_t* tile = &in[block * kB];
        int32_t rot[kB];
        const int shift = static_cast<int>((64 * block) % kB);
        for (int t = 0; t < kB; ++t)
            rot[t] = tile[(t + shift) % kB];
        for (int t = 0; t < kB; ++t)
            out[block * kB + t] = rot[kB - 1 - t];
    }
    return out;
}

// The correct loop_barrier kernel, round by round: every thread publishes item i or 0, then adds
// its partner's slot.
std::vector<int32_t> loop_answer(const std::vector<int32_t>& len, const std::vector<int32_t>& items,
                                 int max_len) {
    const size_t n = len.size();
    std::vector<int32_t> sum(n, 0);
    for (size_t base = 0; base < n; base += kB)
        for (int i = 0; i < max_len; ++i) {
            int32_t slot[kB];
            for (int t = 0; t < kB; ++t)
                slot[t] = i < len[base + t] ? items[size_t(i) * n + base + t] : 0;
            for (int t = 0; t < kB; ++t)
                sum[base + t] += slot[kB - 1 - t];
        }
    return sum;
}

// The buffers after a run that left `outputs` in buffer `index`.
template <typename T>
std::vector<launch::Buffer> after_with(const Inputs& before, size_t index, const std::vector<T>& outputs) {
    std::vector<launch::Buffer> after = before.buffers;
    after[index] = test::buffer_of(after[index].name, outputs);
    return after;
}

// Corrupts `count` outputs spread over the array (first, last and in between), each to a value no
// correct run gives.
template <typename T> std::vector<T> corrupt(std::vector<T> values, size_t count) {
    for (size_t k = 0; k < count; ++k) {
        const size_t i = count == 1 ? 0 : k * (values.size() - 1) / (count - 1);
        values[i] = values[i] + static_cast<T>(1000);
    }
    return values;
}

TEST(scenario_gold, StencilCorrectAnswerHasNoWrongOutputs) {
    const Scenario& s = test::scenario("stencil");
    for (uint64_t seed : {1ull, 2ull, 99ull}) {
        const Inputs in = s.make_inputs(seed);
        const auto answer = stencil_answer(test::values_of<float>(in.buffers[0]));
        const CheckResult r = s.check(in, after_with(in, 1, answer));
        EXPECT_EQ(r.wrong, 0u) << r.summary;
        EXPECT_EQ(r.checked, answer.size());
        EXPECT_EQ(r.summary, "all 16384 outputs match the CPU reference");
    }
}

TEST(scenario_gold, StencilCountsExactlyTheCorruptedOutputs) {
    const Scenario& s = test::scenario("stencil");
    const Inputs in = s.make_inputs(3);
    const auto answer = stencil_answer(test::values_of<float>(in.buffers[0]));
    for (size_t count : {1u, 2u, 31u, 500u}) {
        const CheckResult r = s.check(in, after_with(in, 1, corrupt(answer, count)));
        EXPECT_EQ(r.wrong, count) << r.summary;
        EXPECT_EQ(r.checked, answer.size());
    }
    // The untouched output buffer (all zeros) is entirely wrong: every centre value is at least 1.
    EXPECT_EQ(s.check(in, in.buffers).wrong, answer.size());
}

TEST(scenario_gold, StencilBlockEdgesReadZero) {
    // A block edge uses only one neighbour: a reference that wrapped around or crossed into the next
    // block would disagree with this.
    const Scenario& s = test::scenario("stencil");
    Inputs in = s.make_inputs(4);
    std::vector<float> ones(test::values_of<float>(in.buffers[0]).size(), 1.0f);
    in.buffers[0] = test::buffer_of("g_in", ones);
    std::vector<float> out(ones.size(), 3.0f);
    for (size_t i = 0; i < out.size(); i += kB) {
        out[i] = 2.0f;
        out[i + kB - 1] = 2.0f;
    }
    EXPECT_EQ(s.check(in, after_with(in, 1, out)).wrong, 0u);
}

TEST(scenario_gold, StencilSummaryNamesTheFirstWrongOutput) {
    const Scenario& s = test::scenario("stencil");
    Inputs in = s.make_inputs(4);
    std::vector<float> ones(test::values_of<float>(in.buffers[0]).size(), 1.0f);
    in.buffers[0] = test::buffer_of("g_in", ones);
    auto answer = stencil_answer(ones);
    answer[40] = 2.0f; // a thread that read one neighbour slot before it was written
    answer[41] = 7.5f;
    const CheckResult r = s.check(in, after_with(in, 1, answer));
    EXPECT_EQ(r.wrong, 2u);
    EXPECT_EQ(r.summary, "2 of 16384 outputs wrong; first: g_out[40] = 2, expected 3");
}

TEST(scenario_gold, DivergentBarrierCorrectAnswerHasNoWrongOutputs) {
    const Scenario& s = test::scenario("divergent_barrier");
    for (uint64_t seed : {1ull, 2ull, 99ull}) {
        const Inputs in = s.make_inputs(seed);
        const auto answer = divergent_answer(test::values_of<int32_t>(in.buffers[0]));
        const CheckResult r = s.check(in, after_with(in, 1, answer));
        EXPECT_EQ(r.wrong, 0u) << r.summary;
        EXPECT_EQ(r.checked, 1024u);
    }
}

TEST(scenario_gold, DivergentBarrierCountsExactlyTheCorruptedOutputs) {
    const Scenario& s = test::scenario("divergent_barrier");
    const Inputs in = s.make_inputs(8);
    const auto answer = divergent_answer(test::values_of<int32_t>(in.buffers[0]));
    for (size_t count : {1u, 3u, 128u, 1024u})
        EXPECT_EQ(s.check(in, after_with(in, 1, corrupt(answer, count))).wrong, count);
    EXPECT_EQ(s.check(in, in.buffers).wrong, 1024u);
}

TEST(scenario_gold, DivergentBarrierRejectsTheNearMisses) {
    // What a broken variant plausibly writes: the tile reversed without the rotation (wrong in every
    // block but block 0), or the input copied through unchanged.
    const Scenario& s = test::scenario("divergent_barrier");
    const Inputs in = s.make_inputs(8);
    const auto g_in = test::values_of<int32_t>(in.buffers[0]);
    std::vector<int32_t> reversed(g_in.size());
    for (size_t i = 0; i < g_in.size(); ++i)
        reversed[i] = g_in[(i / kB) * kB + kB - 1 - i % kB];
    EXPECT_EQ(s.check(in, after_with(in, 1, reversed)).wrong, 768u);
    EXPECT_EQ(s.check(in, after_with(in, 1, g_in)).wrong, 1024u);
}

TEST(scenario_gold, LoopBarrierCorrectAnswerHasNoWrongOutputs) {
    const Scenario& s = test::scenario("loop_barrier");
    for (uint64_t seed : {1ull, 2ull, 99ull}) {
        const Inputs in = s.make_inputs(seed);
        const auto answer =
            loop_answer(test::values_of<int32_t>(in.buffers[0]), test::values_of<int32_t>(in.buffers[1]),
                        static_cast<int>(in.args[4].bits));
        const CheckResult r = s.check(in, after_with(in, 2, answer));
        EXPECT_EQ(r.wrong, 0u) << r.summary;
        EXPECT_EQ(r.checked, 1024u);
    }
}

TEST(scenario_gold, LoopBarrierCountsExactlyTheCorruptedOutputs) {
    const Scenario& s = test::scenario("loop_barrier");
    const Inputs in = s.make_inputs(5);
    const auto answer =
        loop_answer(test::values_of<int32_t>(in.buffers[0]), test::values_of<int32_t>(in.buffers[1]),
                    static_cast<int>(in.args[4].bits));
    for (size_t count : {1u, 2u, 77u, 1024u})
        EXPECT_EQ(s.check(in, after_with(in, 2, corrupt(answer, count))).wrong, count);
}

TEST(scenario_gold, LoopBarrierRejectsTheUnguardedLoop) {
    // Looping to max_len without the guard adds items past a list's end: every partner whose list is
    // shorter than max_len gives a wrong sum.
    const Scenario& s = test::scenario("loop_barrier");
    const Inputs in = s.make_inputs(5);
    const auto len = test::values_of<int32_t>(in.buffers[0]);
    const auto items = test::values_of<int32_t>(in.buffers[1]);
    const int max_len = static_cast<int>(in.args[4].bits);
    const auto full = std::vector<int32_t>(len.size(), max_len);
    const auto unguarded = loop_answer(full, items, max_len);
    uint64_t short_partners = 0;
    for (size_t i = 0; i < len.size(); ++i)
        short_partners += len[(i / kB) * kB + kB - 1 - i % kB] < max_len;
    EXPECT_GT(short_partners, 0u);
    EXPECT_EQ(s.check(in, after_with(in, 2, unguarded)).wrong, short_partners);
}

TEST(scenario_gold, LostUpdateCounter) {
    const Scenario& s = test::scenario("lost_update");
    const Inputs in = s.make_inputs(1);
    const uint32_t threads = static_cast<uint32_t>(s.launch.grid.count() * s.launch.block.count());
    ASSERT_EQ(threads, 4096u);

    CheckResult r = s.check(in, after_with(in, 0, std::vector<uint32_t>{threads}));
    EXPECT_EQ(r.wrong, 0u);
    EXPECT_EQ(r.checked, 1u);
    EXPECT_EQ(r.summary, "counter = 4096, expected 4096");

    r = s.check(in, after_with(in, 0, std::vector<uint32_t>{128}));
    EXPECT_EQ(r.wrong, 1u);
    EXPECT_EQ(r.checked, 1u);
    EXPECT_EQ(r.summary, "counter = 128, expected 4096");

    EXPECT_EQ(s.check(in, after_with(in, 0, std::vector<uint32_t>{threads + 1})).wrong, 1u);
    EXPECT_EQ(s.check(in, in.buffers).wrong, 1u) << "a counter still at 0";
}

// Every reader records (1, 1); a stale record (1, 0) is one wrong element, a reader that never wrote
// its record two. fence_scope is checked by the same reference.
TEST(scenario_gold, MessagePassingRecords) {
    for (const char* id : {"message_passing", "fence_scope"}) {
        SCOPED_TRACE(id);
        const Scenario& s = test::scenario(id);
        const Inputs in = s.make_inputs(1);
        ASSERT_EQ(in.buffers[4].name, "g_out");
        const size_t pairs = s.launch.grid.count() / 2;
        ASSERT_EQ(pairs, 32u);
        std::vector<uint32_t> records(2 * pairs, 1);
        CheckResult r = s.check(in, after_with(in, 4, records));
        EXPECT_EQ(r.wrong, 0u) << r.summary;
        EXPECT_EQ(r.checked, 2 * pairs);
        records[2 * 5 + 1] = 0;  // pair 5 read stale data
        records[2 * 31 + 1] = 0; // and the last pair
        r = s.check(in, after_with(in, 4, records));
        EXPECT_EQ(r.wrong, 2u);
        EXPECT_NE(r.summary.find("g_out[11] = 0, expected 1"), std::string::npos) << r.summary;
        records[2 * 7] = 0;
        records[2 * 7 + 1] = 0; // pair 7 never recorded
        EXPECT_EQ(s.check(in, after_with(in, 4, records)).wrong, 4u);
        EXPECT_EQ(s.check(in, in.buffers).wrong, 2 * pairs) << "no reader recorded anything";
    }
}

// The total is the plain sum of the inputs; a total that missed one block's partial (read as the 0
// it started at) is wrong.
TEST(scenario_gold, LastBlockReductionTotal) {
    const Scenario& s = test::scenario("last_block_reduction");
    const Inputs in = s.make_inputs(3);
    ASSERT_EQ(in.buffers[0].name, "g_in");
    ASSERT_EQ(in.buffers[3].name, "g_total");
    const std::vector<uint32_t> values = test::values_of<uint32_t>(in.buffers[0]);
    ASSERT_EQ(values.size(), 4096u);
    uint32_t total = 0, block_3 = 0;
    for (size_t i = 0; i < values.size(); ++i) {
        total += values[i];
        if (i / kB == 3) block_3 += values[i];
    }
    ASSERT_GT(block_3, 0u);
    CheckResult r = s.check(in, after_with(in, 3, std::vector<uint32_t>{total}));
    EXPECT_EQ(r.wrong, 0u) << r.summary;
    EXPECT_EQ(r.checked, 1u);
    EXPECT_EQ(r.summary, "total = " + std::to_string(total) + ", expected " + std::to_string(total));
    EXPECT_EQ(s.check(in, after_with(in, 3, std::vector<uint32_t>{total - block_3})).wrong, 1u);
    EXPECT_EQ(s.check(in, in.buffers).wrong, 1u) << "a total still at 0";
    // Other inputs, another total: the reference reads g_in, it does not remember.
    const Inputs other = s.make_inputs(4);
    EXPECT_EQ(s.check(other, after_with(other, 3, std::vector<uint32_t>{total})).wrong, 1u);
}

TEST(scenario_gold, MissingOutputBuffersCountAsWrong) {
    // A run that failed before giving buffers back must not pass as correct.
    for (const Scenario& s : catalog()) {
        const Inputs in = s.make_inputs(1);
        const CheckResult r = s.check(in, {});
        EXPECT_GT(r.checked, 0u) << s.id;
        EXPECT_EQ(r.wrong, r.checked) << s.id << ": " << r.summary;
        EXPECT_FALSE(r.summary.empty());
    }
}

TEST(scenario_gold, ShortOutputBufferCountsTheMissingTail) {
    const Scenario& s = test::scenario("stencil");
    const Inputs in = s.make_inputs(2);
    auto answer = stencil_answer(test::values_of<float>(in.buffers[0]));
    answer.resize(answer.size() - 10);
    EXPECT_EQ(s.check(in, after_with(in, 1, answer)).wrong, 10u);
}

} // namespace
} // namespace synclab::scenario
