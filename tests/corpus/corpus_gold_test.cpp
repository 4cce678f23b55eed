// Gold tests for the corpus's atomic-intrinsics kernel (kernels/atomic_intrinsics.cu): what every
// slot holds after `synclab check`, against a CPU gold written from the CUDA Programming Guide's
// definitions of the atomic functions, over launch shapes (odd block sizes) and schedules. And for
// its warp-level kernels (shfl_scan, vote_any_all, warp_tree_syncwarp): what they compute, under
// the rr, random and adversarial schedules, against a CPU gold of what the code means.
#include "common/run_command.h"
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <random>
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

// [SECTION] The warp-level kernels

// Runs one corpus kernel with `synclab check` and returns the values of one of its buffers (`dump`:
// "arg0", "arg1", ...) with the run's JSON summary. The inputs are iota or const specs, so that the
// gold knows them whatever the seed.
struct Dumped {
    std::vector<int64_t> values;
    nlohmann::json summary;
};

Dumped check_dump(const std::string& file, const std::string& kernel, uint32_t grid, uint32_t block,
                  const std::vector<std::string>& args, const std::string& dump, const std::string& schedule,
                  uint64_t seed) {
    const fs::path ptx = fs::path(SYNCLAB_SOURCE_DIR) / "tests" / "corpus" / "kernels" / (file + ".ptx");
    std::string command = std::string(SYNCLAB_CLI) + " check " + ptx.string() + " --kernel '" + kernel +
                          "' --grid " + std::to_string(grid) + " --block " + std::to_string(block);
    for (const std::string& a : args)
        command += " --arg " + a;
    command += " --dump " + dump + " --schedule " + schedule + " --seed " + std::to_string(seed) + " --json";
    const synclab::testing::CommandOutput o = synclab::testing::run_command(command);
    EXPECT_EQ(o.code, 0) << command << "\n" << o.out;
    if (o.code != 0) return {};
    Dumped d;
    d.summary = nlohmann::json::parse(o.out);
    EXPECT_EQ(d.summary["status"], "ok") << command;
    d.values = parse_values(d.summary["dump"]["values"].get<std::string>());
    return d;
}

// shflScan: data becomes each block's inclusive prefix sum, partial_sums the block totals.
TEST(CorpusGold, ShuffleScanIsTheInclusivePrefixSumPerBlock) {
    for (const Shape shape : {Shape{2, 96}, Shape{3, 160}, Shape{1, 32}})
        for (const char* schedule : {"rr", "random", "adversarial"})
            for (uint64_t seed : {1, 2}) {
                const uint32_t n = shape.grid * shape.block;
                const std::string what = "shflScan " + std::to_string(shape.grid) + "x" + std::to_string(shape.block) +
                                         " " + schedule + " seed " + std::to_string(seed);
                const std::vector<std::string> args = {"buf:i32:" + std::to_string(n) + ":iota",
                                                       "buf:i32:" + std::to_string(shape.grid)};
                const Dumped data = check_dump("shfl_scan", "shflScan<int>", shape.grid, shape.block, args, "arg0",
                                               schedule, seed);
                const Dumped totals = check_dump("shfl_scan", "shflScan<int>", shape.grid, shape.block, args,
                                                 "arg1", schedule, seed);
                ASSERT_EQ(data.values.size(), n) << what;
                ASSERT_EQ(totals.values.size(), shape.grid) << what;
                for (uint32_t b = 0; b < shape.grid; ++b) {
                    int64_t sum = 0;
                    for (uint32_t t = 0; t < shape.block; ++t) {
                        sum += b * shape.block + t; // iota
                        ASSERT_EQ(data.values[b * shape.block + t], sum) << what << ": element " << b * shape.block + t;
                    }
                    EXPECT_EQ(totals.values[b], sum) << what << ": block " << b << "'s total";
                }
                EXPECT_TRUE(data.summary["findings"].empty()) << what << ": " << data.summary["findings"].dump();
            }
}

// voteAny / voteAll: every lane holds the warp's any / all of the inputs. The inputs are patterns
// the gold knows: const=0 (no lane), const=1 (every lane) and iota (only thread 0 is 0: warp 0 is
// not all non-zero, the other warps are).
TEST(CorpusGold, VotesAreTheWarpsAnyAndAll) {
    struct Input {
        const char* init;
        bool any_warp, all_warp, all_warp0;
    };
    for (const Input in : {Input{"const=0", false, false, false}, Input{"const=1", true, true, true},
                           Input{"iota", true, true, false}})
        for (const char* schedule : {"rr", "random", "adversarial"})
            for (const char* kernel : {"voteAny", "voteAll"}) {
                const std::string what = std::string(kernel) + " " + in.init + " " + schedule;
                const Dumped d = check_dump("vote_any_all", kernel, 2, 96,
                                            {std::string("buf:u32:192:") + in.init, "buf:u32:192"}, "arg1", schedule, 3);
                ASSERT_EQ(d.values.size(), 192u) << what;
                const bool any = std::string(kernel) == "voteAny";
                for (uint32_t i = 0; i < 192; ++i) {
                    const bool want = any ? in.any_warp : (i < 32 ? in.all_warp0 : in.all_warp);
                    ASSERT_EQ(d.values[i] != 0, want) << what << ": thread " << i;
                }
            }
}

// voteHalfWarps: per thread, any(tx >= 48), all(tx < 48), all(lane < 16 || tx >= 64), each over
// the thread's warp (warps 0-31, 32-63, 64-95).
TEST(CorpusGold, HalfWarpVotesSplitAsTheConditionsSay) {
    for (const char* schedule : {"rr", "random", "adversarial"}) {
        const Dumped d = check_dump("vote_any_all", "voteHalfWarps", 1, 96, {"buf:u32:288"}, "arg0", schedule, 5);
        ASSERT_EQ(d.values.size(), 288u) << schedule;
        for (uint32_t tx = 0; tx < 96; ++tx) {
            const uint32_t first = tx / 32 * 32;
            bool any = false, all_lt = true, all_half = true;
            for (uint32_t u = first; u < first + 32; ++u) {
                any = any || u >= 48;
                all_lt = all_lt && u < 48;
                all_half = all_half && (u % 32 < 16 || u >= 64);
            }
            EXPECT_EQ(d.values[3 * tx + 0], any ? 1 : 0) << schedule << " thread " << tx;
            EXPECT_EQ(d.values[3 * tx + 1], all_lt ? 1 : 0) << schedule << " thread " << tx;
            EXPECT_EQ(d.values[3 * tx + 2], all_half ? 1 : 0) << schedule << " thread " << tx;
        }
    }
}

// warpTree: the five steps as the warp barriers order them, run on the CPU phase by phase (every
// lane's reads of a phase see the writes of the phases before it, none of the phase's own).
TEST(CorpusGold, WarpTreeFoldsAsItsBarriersOrderIt) {
    std::vector<int64_t> buf(64);
    for (size_t i = 0; i < buf.size(); ++i)
        buf[i] = int64_t(i); // iota
    std::vector<int64_t> v(32);
    for (uint32_t t = 0; t < 32; ++t)
        v[t] = buf[t];
    for (uint32_t offset : {16u, 8u, 4u, 2u, 1u}) {
        for (uint32_t t = 0; t < 32; ++t)
            v[t] += buf[t + offset];
        for (uint32_t t = 0; t < 32; ++t)
            buf[t] = v[t];
    }
    for (const Shape shape : {Shape{1, 32}, Shape{3, 32}})
        for (const char* schedule : {"rr", "random", "adversarial"})
            for (uint64_t seed : {1, 2}) {
                const std::string what = "warpTree " + std::to_string(shape.grid) + "x32 " + schedule + " seed " +
                                         std::to_string(seed);
                const Dumped d = check_dump("warp_tree_syncwarp", "warpTree<int>", shape.grid, shape.block,
                                            {"buf:i32:64:iota"}, "arg0", schedule, seed);
                ASSERT_EQ(d.values.size(), 64u) << what;
                for (size_t i = 0; i < 64; ++i)
                    ASSERT_EQ(d.values[i], buf[i]) << what << ": element " << i;
            }
}

} // namespace
