// `synclab list/run/table --lessons DIR`: a lesson folder made of data alone, used from the command
// line as a teacher would, next to the built-in lessons.
#include "common/run_command.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <unistd.h>

namespace {

using Output = synclab::testing::CommandOutput;

const std::string kDir = std::string(SYNCLAB_SOURCE_DIR) + "/tests/scenario/data/lessons";

Output run(const std::string& args) {
    return synclab::testing::run_command(std::string(SYNCLAB_CLI) + " " + args);
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

TEST(LessonsCli, ListShowsTheFolderLessonAfterTheBuiltIns) {
    const Output text = run("list --lessons " + kDir);
    ASSERT_EQ(text.code, 0) << text.out;
    EXPECT_TRUE(contains(text.out, "smem_reverse  [barriers]  Reversing a tile through shared memory"))
        << text.out;
    EXPECT_LT(text.out.find("atomic_ops"), text.out.find("smem_reverse"));
    EXPECT_LT(text.out.find("warp_reduce"), text.out.find("smem_reverse"));

    const Output o = run("list --json --lessons " + kDir);
    ASSERT_EQ(o.code, 0) << o.out;
    const auto j = nlohmann::json::parse(o.out);
    // The built-in lessons (as many as assets/lessons/LESSONS lists), then the folder's.
    std::ifstream list(std::string(SYNCLAB_SOURCE_DIR) + "/assets/lessons/LESSONS");
    size_t built_in = 0;
    for (std::string line; std::getline(list, line);)
        built_in += !line.empty() && line[0] != '#' ? 1 : 0;
    ASSERT_EQ(j.size(), built_in + 1) << "the built-in lessons, then the folder's";
    const auto& s = j.back();
    EXPECT_EQ(s["id"], "smem_reverse");
    EXPECT_EQ(s["source"], "smem_reverse.cu");
    ASSERT_EQ(s["variants"].size(), 2u);
    const auto& v = s["variants"][1];
    EXPECT_EQ(v["id"], "missing_barrier");
    EXPECT_EQ(v["must_find"], nlohmann::json::array({"race"}));
    // (out_of_bounds: every lesson's without being listed)
    EXPECT_EQ(v["must_not_find"],
              nlohmann::json::array({"barrier_divergence", "lost_update", "deadlock", "out_of_bounds"}));
    EXPECT_EQ(v["wrong_outputs"], "possible");
    EXPECT_EQ(v["status"], "ok");
    // Without --lessons the folder's lesson is not there.
    const Output plain = run("list --json");
    EXPECT_EQ(nlohmann::json::parse(plain.out).size(), built_in);
}

TEST(LessonsCli, RunChecksAgainstTheCorrectVariantsRrRun) {
    const Output bad =
        run("run smem_reverse --variant missing_barrier --schedule adversarial --seed 2 --json "
            "--lessons " +
            kDir);
    ASSERT_EQ(bad.code, 0) << bad.out;
    const auto b = nlohmann::json::parse(bad.out);
    EXPECT_EQ(b["scenario"], "smem_reverse");
    EXPECT_GT(b["wrong_outputs"].get<uint64_t>(), 0u) << bad.out;
    EXPECT_EQ(b["checked_outputs"], 480);
    std::set<std::string> kinds;
    for (const auto& f : b["findings"])
        kinds.insert(f["kind"].get<std::string>());
    EXPECT_TRUE(kinds.count("race")) << bad.out;

    const Output good = run("run smem_reverse --variant correct --lessons " + kDir);
    ASSERT_EQ(good.code, 0) << good.out;
    EXPECT_TRUE(contains(good.out, "all 480 outputs match the rr run of variant 'correct'")) << good.out;
}

TEST(LessonsCli, TableGivesTheFolderLessonItsVerdicts) {
    const Output o = run("table --seeds 2 --json --lessons " + kDir);
    ASSERT_EQ(o.code, 0) << o.out;
    int rows = 0;
    for (const auto& row : nlohmann::json::parse(o.out))
        if (row["scenario"] == "smem_reverse") {
            ++rows;
            EXPECT_TRUE(row["as_expected"].get<bool>()) << row.dump();
        }
    EXPECT_EQ(rows, 2);
}

TEST(LessonsCli, Errors) {
    const Output missing = run("list --lessons /no/such/dir");
    EXPECT_EQ(missing.code, 3) << missing.out;
    EXPECT_TRUE(contains(missing.out, "/no/such/dir: not a folder of lessons")) << missing.out;
    const Output unknown = run("run smem_reverse --variant correct");
    EXPECT_EQ(unknown.code, 2) << unknown.out;
    EXPECT_TRUE(contains(unknown.out, "unknown scenario 'smem_reverse'")) << unknown.out;
    const Output variant = run("run smem_reverse --variant nope --lessons " + kDir);
    EXPECT_EQ(variant.code, 2) << variant.out;
    EXPECT_TRUE(contains(variant.out, "no variant 'nope' (variants: correct, missing_barrier)"))
        << variant.out;
}

// A folder lesson with a built-in lesson's id is refused, not silently shadowed.
TEST(LessonsCli, BuiltInIdsAreNotShadowed) {
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / ("synclab-lessons-cli-" + std::to_string(getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    fs::copy(kDir + "/smem_reverse", dir / "stencil", fs::copy_options::recursive);
    const fs::path toml = dir / "stencil" / "lesson.toml";
    std::ifstream in(toml);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    in.close();
    text.replace(text.find("id = \"smem_reverse\""), 19, "id = \"stencil\"");
    std::ofstream(toml, std::ios::trunc) << text;
    const Output clash = run("list --lessons " + dir.string());
    fs::remove_all(dir);
    EXPECT_EQ(clash.code, 3) << clash.out;
    EXPECT_TRUE(contains(clash.out, "lesson 'stencil' has the id of a built-in lesson")) << clash.out;
}

} // namespace
