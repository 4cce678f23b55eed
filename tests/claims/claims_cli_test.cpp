// `synclab claims` as a user runs it: usage errors (exit 2), a lesson's claims as text and JSON, the
// recorded figures, and a broken claims file in a lesson folder (exit 3, naming file and line).
#include "common/run_command.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

namespace {

synclab::testing::CommandOutput run(const std::string& args) {
    return synclab::testing::run_command(std::string(SYNCLAB_CLI) + " claims " + args);
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

TEST(ClaimsCli, UsageErrorsSayWhatIsWrong) {
    const std::pair<std::string, std::string> bad[] = {
        {"nosuch", "unknown lesson 'nosuch' (lessons: stencil,"},
        {"--backend tpu", "--backend must be 'sim' or 'gpu', got 'tpu'"},
        {"--recorded --backend gpu", "--recorded checks the GPU claims against the recorded figures"},
        {"--record /tmp/x", "--record DIR writes what the GPU measured: it needs --backend gpu"},
        {"--timeout 3", "--timeout needs --backend gpu"},
        {"--frobnicate", "unknown option --frobnicate"},
    };
    for (const auto& [args, says] : bad) {
        const auto o = run(args);
        EXPECT_EQ(o.code, 2) << "synclab claims " << args << "\n" << o.out;
        EXPECT_TRUE(contains(o.out, says)) << "synclab claims " << args << ": expected '" << says << "' in:\n" << o.out;
    }
}

TEST(ClaimsCli, TextNamesEveryClaimItsQuoteCommandAndMeasurement) {
    const auto o = run("stencil");
    ASSERT_EQ(o.code, 0) << o.out;
    EXPECT_TRUE(contains(o.out, "holds        race_names_store_and_loads")) << o.out;
    EXPECT_TRUE(contains(o.out, "(en.md, lesson, What to look at)")) << o.out;
    EXPECT_TRUE(contains(o.out, "synclab run stencil --variant missing_barrier --schedule random")) << o.out;
    EXPECT_TRUE(contains(o.out, "finding lines race: 42 45 46: race: lines 42 45 46")) << o.out;
    EXPECT_TRUE(contains(o.out, "claims hold on the simulator")) << o.out;
}

TEST(ClaimsCli, JsonHasEveryCheckAndTheCounts) {
    const auto o = run("lost_update --json");
    ASSERT_EQ(o.code, 0) << o.out;
    const nlohmann::json j = nlohmann::json::parse(o.out);
    EXPECT_EQ(j["backend"], "sim");
    EXPECT_EQ(j["fails"], 0);
    EXPECT_GT(j["holds"].get<int>(), 3);
    const nlohmann::json& c = j["lessons"][0]["claims"][0];
    EXPECT_EQ(c["verdict"], "holds");
    EXPECT_TRUE(c["command"].get<std::string>().starts_with("synclab run lost_update")) << c.dump(2);
    EXPECT_TRUE(c["checks"].is_array() && !c["checks"].empty()) << c.dump(2);
    EXPECT_TRUE(c["measurement"].contains("wrong_outputs")) << c.dump(2);
}

TEST(ClaimsCli, RecordedFiguresAreCheckedWithoutAGpu) {
    const auto o = run("stencil --recorded");
    ASSERT_EQ(o.code, 0) << o.out;
    EXPECT_TRUE(contains(o.out, "holds        missing_barrier_most_outputs_wrong_on_h200")) << o.out;
    EXPECT_TRUE(contains(o.out, "76.6% (62,783 of 81,920 wrong over 5 runs)")) << o.out;
}

// A teacher's lesson folder with a claims file that has a mistake: the error names the file, the
// line and the claim, and nothing runs.
TEST(ClaimsCli, ABrokenClaimsFileIsAnInputErrorNamingFileAndLine) {
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / "synclab_claims_cli_test";
    fs::remove_all(dir);
    fs::create_directories(dir);
    fs::copy(fs::path(SYNCLAB_SOURCE_DIR) / "tests/scenario/data/lessons/smem_reverse", dir / "smem_reverse");
    {
        std::ofstream f(dir / "smem_reverse" / "claims.toml");
        f << "[claim.x]\nquote = \"words the text does not have\"\ncommand = \"run smem_reverse --variant correct\"\n"
             "backends = [\"sim\"]\nwrong_outputs = 0\n";
    }
    const auto o = run("--lessons " + dir.string());
    EXPECT_EQ(o.code, 3) << o.out;
    EXPECT_TRUE(contains(o.out, (dir / "smem_reverse" / "claims.toml").string() + ":2: claim 'x': quote: not in en.md"))
        << o.out;
    fs::remove_all(dir);
}

} // namespace
