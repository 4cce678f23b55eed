// Findings at the lines of inlined __device__ helpers (issue 20): the CUDA samples' reduction with a
// templated warpReduce<> missing its __syncwarp() (tests/corpus/kernels/reduce_warp_helper.cu) and a
// kernel whose racy store is in a header's helper (tests/cli/data/header_helper.cu) are reported at
// the helper's line with the calls that lead there, in the text, the JSON, the report of a saved
// trace and the Chrome export.
#include "cli_util.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <unistd.h>

namespace {

using namespace synclab::testing::cli;

std::string read(const std::string& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

// reduce6<64>: the warp's last steps are warpReduce<64>'s lines 15-20, called at line 40.
const std::string kReduce =
    "check " + source("tests/corpus/kernels/reduce_warp_helper.ptx") +
    " --kernel 'reduce6<64>' --grid 2 --block 64 --arg buf:i32:256:iota --arg buf:i32:2"
    " --arg 256 --schedule adversarial";
// shift_left: the store at line 5 of header_helper.cuh (store_tile), called at line 11.
const std::string kHeader = "check " + source("tests/cli/data/header_helper.ptx") +
                            " --kernel shift_left --grid 1 --block 64 --arg buf:i32:64:iota --arg buf:i32:64"
                            " --schedule adversarial";

TEST(CliInlined, TheTextNamesTheHelpersLineAndItsCall) {
    const Output o = run(kReduce);
    ASSERT_EQ(o.code, 0) << o.out;
    EXPECT_TRUE(contains(o.out, "race RAW (shared, lines 20, ")) << o.out;
    EXPECT_TRUE(contains(o.out, " in `warpReduce<64u>`, called from line 40, x")) << "the findings' lines\n"
                                                                                  << o.out;
    EXPECT_TRUE(contains(o.out, "wrote at line 20 in `warpReduce<64u>`, called from line 40 within a warp"))
        << o.out;
    EXPECT_FALSE(contains(o.out, "at line 40 ")) << "no access is at the call's line\n" << o.out;
}

TEST(CliInlined, JsonLinesAreTheHelpersWithTheirCalls) {
    const Output o = run(kReduce + " --json");
    ASSERT_EQ(o.code, 0) << o.out;
    const auto j = nlohmann::json::parse(o.out);
    ASSERT_FALSE(j["findings"].empty());
    for (const auto& f : j["findings"]) {
        ASSERT_EQ(f["kind"], "race");
        ASSERT_EQ(f["line_details"].size(), f["lines"].size()) << f.dump();
        for (size_t i = 0; i < f["lines"].size(); ++i) {
            const uint32_t line = f["lines"][i];
            EXPECT_GE(line, 15u) << f.dump();
            EXPECT_LE(line, 20u) << "warpReduce's own lines\n" << f.dump();
            const auto& d = f["line_details"][i];
            EXPECT_EQ(d["line"], line);
            EXPECT_EQ(d["file"], "reduce_warp_helper.cu");
            EXPECT_EQ(d["function"], "warpReduce<64u>");
            ASSERT_EQ(d["called_from"].size(), 1u) << d.dump();
            EXPECT_EQ(d["called_from"][0]["line"], 40);
            EXPECT_EQ(d["called_from"][0]["function"], "reduce6<64u>");
            EXPECT_EQ(d["called_from"][0]["file"], "reduce_warp_helper.cu");
        }
    }
}

TEST(CliInlined, AHeadersHelperIsAtItsFilesLine) {
    const Output o = run(kHeader + " --json");
    ASSERT_EQ(o.code, 0) << o.out;
    const auto j = nlohmann::json::parse(o.out);
    ASSERT_FALSE(j["findings"].empty()) << o.out;
    const auto& f = j["findings"][0];
    bool header = false, kernel = false;
    for (const auto& d : f["line_details"]) {
        if (d["file"] == "header_helper.cuh") {
            header = true;
            EXPECT_EQ(d["line"], 5);
            EXPECT_EQ(d["function"], "store_tile");
            EXPECT_EQ(d["called_from"],
                      nlohmann::json::parse(
                          R"([{"line": 11, "file": "header_helper.cu", "function": "shift_left"}])"));
        } else {
            kernel = true;
            EXPECT_EQ(d["file"], "header_helper.cu");
            EXPECT_EQ(d["line"], 12);
            EXPECT_EQ(d["function"], "shift_left");
            EXPECT_TRUE(d["called_from"].empty());
        }
    }
    EXPECT_TRUE(header && kernel) << f.dump();
    EXPECT_TRUE(contains(f["message"].get<std::string>(),
                         "line 5 of header_helper.cuh in `store_tile`, called from line 11"))
        << f["message"];
}

// A saved trace keeps the calls (the .slt's INLN section): its report lists them as device frames,
// its Chrome export gives each access its function and call lines.
TEST(CliInlined, TheReportAndTheChromeExportOfASavedTraceKeepTheCalls) {
    const std::string slt = temp("reduce.slt"), json = temp("reduce.json");
    ASSERT_EQ(run(kReduce + " --out " + slt).code, 0);
    const Output report = run("report " + slt);
    ASSERT_EQ(report.code, 0) << report.out;
    EXPECT_TRUE(contains(report.out,
                         "=========     at reduce_warp_helper.cu:20 in warpReduce<64u>  [st.volatile.shared"))
        << report.out;
    EXPECT_TRUE(
        contains(report.out, "\n=========         called from reduce_warp_helper.cu:40 in reduce6<64u>\n"))
        << report.out;
    ASSERT_EQ(run("export " + slt + " --chrome " + json).code, 0);
    const nlohmann::json chrome = nlohmann::json::parse(read(json));
    // Both helpers: load_pair (lines 24-25, called at line 34) and warpReduce<64u> (15-20, at 40).
    const std::map<std::string, uint32_t> call_of = {{"load_pair", 34}, {"warpReduce<64u>", 40}};
    std::map<std::string, size_t> inlined;
    for (const auto& e : chrome["traceEvents"]) {
        if (!e.contains("args") || !e["args"].contains("function")) continue;
        const std::string function = e["args"]["function"];
        ASSERT_EQ(call_of.count(function), 1u) << e.dump();
        ++inlined[function];
        const uint32_t call = call_of.at(function), line = e["args"]["line"];
        EXPECT_EQ(e["args"]["called_from"], nlohmann::json::array({call})) << e.dump();
        EXPECT_EQ(e["args"]["where"], "line " + std::to_string(line) + " in `" + function +
                                          "`, called from line " + std::to_string(call));
        EXPECT_TRUE(contains(e["name"].get<std::string>(), " line " + std::to_string(line))) << e.dump();
    }
    EXPECT_GT(inlined["warpReduce<64u>"], 0u) << "the warp's last steps";
    EXPECT_GT(inlined["load_pair"], 0u) << "the first level's loads";

    const std::string header_slt = temp("header.slt");
    ASSERT_EQ(run(kHeader + " --out " + header_slt).code, 0);
    const Output header_report = run("report " + header_slt);
    EXPECT_TRUE(contains(header_report.out, "at header_helper.cuh:5 in store_tile  [st.shared.u32"))
        << header_report.out;
    EXPECT_TRUE(contains(header_report.out, "called from header_helper.cu:11 in shift_left"))
        << header_report.out;
    EXPECT_TRUE(contains(header_report.out, "at header_helper.cu:12  [ld.shared.u32")) << header_report.out;
}

} // namespace
