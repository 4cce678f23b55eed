// Findings name memory as the kernel's source does (issue 19): `s_tile[...]` of a lesson's shared
// array, a `__device__` variable, a --arg buffer by the name given to it or by the kernel's
// parameter name in its source, in the text, the JSON (with the address kept), the report of a saved
// trace and the Chrome export.
#include "cli_util.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace {

using namespace synclab::testing::cli;

TEST(Naming, TheStencilsRaceNamesItsSharedArrayElement) {
    const Output o = run("run stencil --variant missing_barrier");
    ASSERT_EQ(o.code, 0) << o.out;
    EXPECT_TRUE(contains(o.out, "hazard on s_tile[")) << o.out;
    EXPECT_FALSE(contains(o.out, "__shared__ address"))
        << "every shared access of the stencil lies in s_tile";
    EXPECT_TRUE(contains(o.out, ": block ")) << "threads by block and thread index: " << o.out;
}

TEST(Naming, JsonKeepsTheAddressBesideTheName) {
    const Output o = run("run stencil --variant missing_barrier --json");
    ASSERT_EQ(o.code, 0) << o.out;
    const auto j = nlohmann::json::parse(o.out);
    ASSERT_FALSE(j["findings"].empty());
    for (const auto& f : j["findings"]) {
        ASSERT_TRUE(f.contains("memory")) << f.dump();
        EXPECT_EQ(f["region"], "s_tile");
        // s_tile starts the shared window and the stencil's accesses are 4 bytes wide.
        const uint64_t address = f["address"];
        EXPECT_EQ(f["memory"], "s_tile[" + std::to_string(address / 4) + "]");
    }
}

TEST(Naming, ADeviceVariableIsNamed) {
    const Output o =
        run("check " + data("naming_kernels.ptx") + " --kernel count_hits --grid 2 --block 64 --json");
    ASSERT_EQ(o.code, 0) << o.out;
    const auto j = nlohmann::json::parse(o.out);
    ASSERT_EQ(j["findings"].size(), 1u) << o.out;
    EXPECT_EQ(j["findings"][0]["kind"], "lost_update");
    EXPECT_EQ(j["findings"][0]["memory"], "g_hits[0]");
    EXPECT_EQ(j["findings"][0]["region"], "g_hits");
    EXPECT_TRUE(contains(j["findings"][0]["message"], "lost update on g_hits[0]"));
}

TEST(Naming, ACheckedKernelsBufferIsNamedAsTheArgNamesIt) {
    const std::string base =
        "check " + data("naming_kernels.ptx") + " --kernel bump_slot --grid 2 --block 64 ";
    const Output named = run(base + "--arg slots:u32:4");
    ASSERT_EQ(named.code, 0) << named.out;
    EXPECT_TRUE(contains(named.out, "lost update on slots[1]")) << named.out;
    // Unnamed, with no source at hand: by its position.
    const Output unnamed = run(base + "--arg buf:u32:4 --json");
    ASSERT_EQ(unnamed.code, 0) << unnamed.out;
    const auto j = nlohmann::json::parse(unnamed.out);
    ASSERT_EQ(j["findings"].size(), 1u);
    EXPECT_EQ(j["findings"][0]["memory"], "arg0[1]");
    // The name also picks the buffer to dump.
    const Output dumped = run(base + "--arg slots:u32:4 --dump slots --schedule rr");
    ASSERT_EQ(dumped.code, 0) << dumped.out;
    EXPECT_TRUE(contains(dumped.out, "arg0 (u32 x 4)")) << dumped.out;
}

TEST(Naming, AKernelsParameterNamesComeFromItsSource) {
    // user_kernels.ptx was made with -lineinfo from user_kernels.cu (beside it), whose
    // reverse_no_sync takes `const int* g_in, int* g_out`: a histogram of g_out by that name.
    const Output o =
        run("check " + data("user_kernels.ptx") +
            " --kernel reverse_no_sync --grid 1 --block 128 --arg buf:i32:128:iota --arg buf:i32:128 "
            "--histogram g_out --reps 2 --json");
    ASSERT_EQ(o.code, 0) << o.out;
    const auto j = nlohmann::json::parse(o.out);
    EXPECT_FALSE(j["histogram"].empty()) << o.out;
    const Output wrong =
        run("check " + data("user_kernels.ptx") +
            " --kernel reverse_no_sync --grid 1 --block 128 --arg buf:i32:128 --arg buf:i32:128 "
            "--histogram nothing");
    EXPECT_EQ(wrong.code, 2);
    EXPECT_TRUE(contains(wrong.out, "--histogram nothing: no parameter of that name")) << wrong.out;
}

TEST(Naming, TheReportAndTheChromeExportOfASavedTraceNameMemory) {
    const std::string slt = temp("stencil.slt"), json = temp("stencil.json");
    ASSERT_EQ(run("run stencil --variant missing_barrier --out " + slt).code, 0);
    const Output report = run("report " + slt);
    ASSERT_EQ(report.code, 0) << report.out;
    EXPECT_TRUE(contains(report.out, "hazard on __shared__ memory at s_tile[")) << report.out;
    EXPECT_TRUE(contains(report.out, " by block 0 thread ")) << report.out;
    ASSERT_EQ(run("export " + slt + " --chrome " + json).code, 0);
    std::ifstream in(json);
    std::stringstream text;
    text << in.rdbuf();
    EXPECT_TRUE(contains(text.str(), "\"memory\":\"s_tile[")) << "accesses name their element";
    EXPECT_TRUE(contains(text.str(), "\"kernel_name\":\"stencil_missing_barrier\""))
        << "the kernel demangled";
}

} // namespace
