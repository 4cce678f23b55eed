// Gold tests for the corpus's atomic-intrinsics kernel (kernels/atomic_intrinsics.cu): what every
// slot holds after `synclab check`, against a CPU gold written from the CUDA Programming Guide's
// definitions of the atomic functions, over launch shapes (odd block sizes) and schedules.
#include "common/run_command.h"
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

const fs::path kPtx = fs::path(SYNCLAB_SOURCE_DIR) / "tests" / "corpus" / "kernels" / "atomic_intrinsics.ptx";

// What n threads leave in the 11 slots, starting from `start`, where the order does not matter; the
// two order-dependent slots (exch = 2, cas = 7) are checked by `possible` below instead.
std::vector<int64_t> gold(uint32_t n, std::vector<int64_t> s) {
    for (uint32_t t = 0; t < n; ++t) {
        s[0] += 10;
        s[1] -= 10;
        s[3] = std::max<int64_t>(s[3], t);
        s[4] = std::min<int64_t>(s[4], t);
        const uint32_t inc = static_cast<uint32_t>(s[5]);
        s[5] = inc >= 17 ? 0 : inc + 1; // atomicInc: ((old >= val) ? 0 : (old + 1))
        const uint32_t dec = static_cast<uint32_t>(s[6]);
        s[6] = (dec == 0 || dec > 137) ? 137 : dec - 1; // atomicDec: ((old == 0) | (old > val)) ? val : old - 1
        s[8] &= 2 * int64_t(t) + 7;
        s[9] = static_cast<int32_t>(static_cast<uint32_t>(s[9]) | (1u << (t % 32)));
        s[10] ^= t;
    }
    return s;
}

std::vector<int64_t> parse_values(const std::string& text) {
    std::vector<int64_t> out;
    std::istringstream in(text);
    for (std::string v; std::getline(in, v, ',');)
        out.push_back(std::stoll(v));
    return out;
}

std::vector<int64_t> run(const std::string& kernel, uint32_t grid, uint32_t block, const std::string& schedule,
                         uint64_t seed) {
    const uint32_t slots = kernel == "testKernel" ? 11 : 11 * grid;
    const std::string command = std::string(SYNCLAB_CLI) + " check " + kPtx.string() + " --kernel '" + kernel +
                                "' --grid " + std::to_string(grid) + " --block " + std::to_string(block) +
                                " --arg buf:i32:" + std::to_string(slots) + " --dump arg0 --schedule " +
                                schedule + " --seed " + std::to_string(seed) + " --json";
    const synclab::testing::CommandOutput o = synclab::testing::run_command(command);
    EXPECT_EQ(o.code, 0) << command << "\n" << o.out;
    if (o.code != 0) return {};
    const nlohmann::json j = nlohmann::json::parse(o.out);
    EXPECT_EQ(j["status"], "ok") << command;
    return parse_values(j["dump"]["values"].get<std::string>());
}

void expect_slots(const std::vector<int64_t>& got, uint32_t n, const std::vector<int64_t>& start,
                  const std::string& what) {
    ASSERT_EQ(got.size(), 11u) << what;
    const std::vector<int64_t> want = gold(n, start);
    for (int k : {0, 1, 3, 4, 5, 6, 8, 9, 10})
        EXPECT_EQ(got[k], want[k]) << what << ": slot " << k;
    // exch leaves the index of whichever thread ran it last; cas(t - 1, t) climbs from the start by
    // one for each thread that found its predecessor's value, so it ends on some thread's index.
    EXPECT_GE(got[2], 0) << what;
    EXPECT_LT(got[2], int64_t(n)) << what;
    EXPECT_GE(got[7], 0) << what;
    EXPECT_LT(got[7], int64_t(n)) << what;
}

struct Shape {
    uint32_t grid, block;
};

TEST(CorpusGold, GlobalAtomicsMatchTheGold) {
    for (const Shape shape : {Shape{1, 7}, Shape{2, 64}, Shape{3, 33}, Shape{2, 97}})
        for (const char* schedule : {"rr", "random", "adversarial"})
            for (uint64_t seed : {1, 2}) {
                const std::string what = "testKernel " + std::to_string(shape.grid) + "x" +
                                         std::to_string(shape.block) + " " + schedule + " seed " +
                                         std::to_string(seed);
                const std::vector<int64_t> got = run("testKernel", shape.grid, shape.block, schedule, seed);
                expect_slots(got, shape.grid * shape.block, std::vector<int64_t>(11, 0), what);
            }
}

TEST(CorpusGold, SharedAtomicsMatchTheGoldPerBlock) {
    std::vector<int64_t> start(11, 0);
    start[4] = 1 << 20;
    start[8] = 0xff;
    for (const Shape shape : {Shape{1, 7}, Shape{2, 97}, Shape{3, 33}})
        for (const char* schedule : {"rr", "random", "adversarial"}) {
            const std::vector<int64_t> got = run("sharedAtomics<int>", shape.grid, shape.block, schedule, 3);
            ASSERT_EQ(got.size(), 11u * shape.grid);
            for (uint32_t b = 0; b < shape.grid; ++b)
                expect_slots(std::vector<int64_t>(got.begin() + 11 * b, got.begin() + 11 * (b + 1)), shape.block,
                             start, "sharedAtomics block " + std::to_string(b) + " of " + std::to_string(shape.grid) +
                                        "x" + std::to_string(shape.block) + " " + schedule);
        }
}

} // namespace
