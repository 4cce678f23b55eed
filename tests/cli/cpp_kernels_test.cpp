// `synclab check` on kernels written as public suites write them (tests/cli/data/cpp_kernels.cu:
// plain C++ names, templates, overloads, a namespace, -O3): the user names a kernel as in the
// source, reports show the signature, and a kernel nvcc emptied says so.
#include "cli_util.h"
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>

namespace {

using namespace synclab::testing::cli;

bool have_nvcc() {
    for (const char* p : {"/usr/local/cuda/bin/nvcc", "/usr/bin/nvcc"})
        if (std::filesystem::exists(p)) return true;
    const char* home = std::getenv("CUDA_HOME");
    return home && std::filesystem::exists(std::string(home) + "/bin/nvcc");
}

const std::string kSum = " --grid 2 --block 128 --arg buf:i32:256:iota --arg buf:i32:2";

TEST(CliCppKernels, APlainNameFindsTheMangledKernel) {
    const Output o = run("check " + data("cpp_kernels.ptx") + " --kernel block_sum" + kSum + " --dump arg1");
    ASSERT_EQ(o.code, 0) << o.out;
    EXPECT_TRUE(contains(o.out, "block_sum(int const*, int*)")) << o.out;
    EXPECT_TRUE(contains(o.out, "findings: none")) << o.out;
    EXPECT_TRUE(contains(o.out, "[0] 8128 24512")) << "sums of 0..127 and 128..255\n" << o.out;
    const Output j = run("check " + data("cpp_kernels.ptx") + " --kernel block_sum" + kSum + " --json");
    ASSERT_EQ(j.code, 0) << j.out;
    const auto json = nlohmann::json::parse(j.out);
    EXPECT_EQ(json["kernel"], "_Z9block_sumPKiPi");
    EXPECT_EQ(json["kernel_name"], "block_sum(int const*, int*)");
}

TEST(CliCppKernels, TemplatesAreNamedWithTheirArguments) {
    const Output racy = run("check " + data("cpp_kernels.ptx") +
                            " --kernel 'block_sum_t<64, false>' --grid 2 --block 64 --arg buf:i32:128:iota "
                            "--arg buf:i32:2 --schedule adversarial --json");
    ASSERT_EQ(racy.code, 0) << racy.out;
    const auto j = nlohmann::json::parse(racy.out);
    EXPECT_EQ(j["kernel_name"], "void block_sum_t<64u, false>(int const*, int*)");
    ASSERT_FALSE(j["findings"].empty()) << "the instantiation without the barrier races";
    EXPECT_EQ(j["findings"][0]["kind"], "race");
    const Output clean = run("check " + data("cpp_kernels.ptx") + " --kernel 'block_sum_t<128,true>'" + kSum +
                             " --schedule adversarial");
    ASSERT_EQ(clean.code, 0) << clean.out;
    EXPECT_TRUE(contains(clean.out, "findings: none")) << clean.out;
}

TEST(CliCppKernels, AnAmbiguousNameListsTheCandidates) {
    const Output o = run("check " + data("cpp_kernels.ptx") +
                         " --kernel scale --grid 1 --block 32 --arg buf:f32:32 --arg 2 --arg 32");
    EXPECT_EQ(o.code, 2) << o.out;
    EXPECT_TRUE(contains(o.out, "'scale' matches 2 kernels")) << o.out;
    EXPECT_TRUE(contains(o.out, "scale(float*, float, int)   [_Z5scalePffi]")) << o.out;
    EXPECT_TRUE(contains(o.out, "scale(int*, int, int)   [_Z5scalePiii]")) << o.out;
    const Output t = run("check " + data("cpp_kernels.ptx") + " --kernel block_sum_t" + kSum);
    EXPECT_EQ(t.code, 2) << t.out;
    EXPECT_TRUE(contains(t.out, "void block_sum_t<128u, true>(int const*, int*)")) << t.out;
    const Output one =
        run("check " + data("cpp_kernels.ptx") +
            " --kernel 'scale(int*, int, int)' --grid 1 --block 32 --arg buf:i32:32:iota --arg 3 "
            "--arg 32 --dump arg0");
    ASSERT_EQ(one.code, 0) << one.out;
    EXPECT_TRUE(contains(one.out, "[0] 0 3 6 9")) << one.out;
}

TEST(CliCppKernels, AnUnknownNameListsTheKernels) {
    const Output o = run("check " + data("cpp_kernels.ptx") + " --kernel nope --grid 1 --block 32");
    EXPECT_EQ(o.code, 2) << o.out;
    EXPECT_TRUE(contains(o.out, "no kernel 'nope' in cpp_kernels.ptx")) << o.out;
    EXPECT_TRUE(contains(o.out, "lab::fill(int*, int)   [_ZN3lab4fillEPii]")) << o.out;
}

// At -O3 nvcc removes the stores to s_tile (nothing reads them): the run says why it found nothing.
// The .ptx names its .cu in its line info, so the CUDA source is found next to it.
TEST(CliCppKernels, AKernelWhoseAccessesNvccRemovedSaysSo) {
    const Output o = run("check " + data("cpp_kernels.ptx") +
                         " --kernel dead_shared --grid 1 --block 128 "
                         "--arg buf:i32:1 --json");
    ASSERT_EQ(o.code, 0) << o.out;
    const auto j = nlohmann::json::parse(o.out);
    EXPECT_TRUE(j["findings"].empty());
    ASSERT_EQ(j["notes"].size(), 1u) << o.out;
    EXPECT_TRUE(contains(j["notes"][0], "makes no shared-memory access")) << o.out;
    EXPECT_TRUE(contains(j["notes"][0], "--nvcc-arg -G")) << o.out;
    // A kernel with findings, or one whose accesses are there, gets no such note.
    const Output clean = run("check " + data("cpp_kernels.ptx") + " --kernel block_sum" + kSum + " --json");
    EXPECT_TRUE(nlohmann::json::parse(clean.out)["notes"].empty()) << clean.out;
}

TEST(CliCppKernels, NvccArgsReachTheCompiler) {
    if (!have_nvcc()) GTEST_SKIP() << "no nvcc here";
    // -G keeps the stores nvcc removed at -O3: now the race between the two stores is there.
    const Output o = run("check " + data("cpp_kernels.cu") +
                         " --kernel dead_shared --grid 1 --block 128 "
                         "--arg buf:i32:1 --schedule adversarial --nvcc-arg -G --json");
    ASSERT_EQ(o.code, 0) << o.out;
    const auto j = nlohmann::json::parse(o.out);
    ASSERT_FALSE(j["findings"].empty()) << o.out;
    EXPECT_EQ(j["findings"][0]["kind"], "race");
    EXPECT_TRUE(j["notes"].empty());
    // An option nvcc rejects: its own message comes back, as an input error.
    const Output bad = run("check " + data("cpp_kernels.cu") +
                           " --kernel dead_shared --grid 1 --block 32 "
                           "--arg buf:i32:1 --nvcc-arg --no-such-flag");
    EXPECT_EQ(bad.code, 3) << bad.out;
    EXPECT_TRUE(contains(bad.out, "nvcc failed")) << bad.out;
}

TEST(CliCppKernels, NvccArgNeedsACuFile) {
    const Output o =
        run("check " + data("cpp_kernels.ptx") + " --kernel block_sum" + kSum + " --nvcc-arg -G");
    EXPECT_EQ(o.code, 2) << o.out;
    EXPECT_TRUE(contains(o.out, "--nvcc-arg needs a .cu file")) << o.out;
}

} // namespace
