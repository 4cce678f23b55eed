// Every claim of every built-in lesson: the simulator's claims hold when run (one test per lesson, so
// that they run in parallel), and every GPU claim has an entry in the lesson's recorded H200 figures
// (h200.json) that holds, or says why there is no figure yet. The claims without a figure are
// printed: they are what the next session on an H200 measures.
#include "runner/claims.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

namespace synclab::runner {
namespace {

std::string describe(const ClaimResult& r) {
    std::string out = r.claim->id + " (" + r.claim->where + "): " + to_string(r.verdict) + "\n  synclab " +
                      r.claim->command.text + "\n";
    for (const ClaimCheck& c : r.checks)
        out += "  " + c.what + " " + c.expected + ": " + c.measured + "\n";
    if (!r.note.empty()) out += "  " + r.note + "\n";
    return out;
}

class LessonClaimsTest : public ::testing::TestWithParam<std::string> {};

TEST_P(LessonClaimsTest, SimulatorClaimsHold) {
    const scenario::Scenario& s = *scenario::find_scenario(GetParam());
    const scenario::LessonClaims claims = scenario::builtin_claims(s);
    ASSERT_FALSE(claims.claims.empty()) << s.id << " has no claims.toml";
    int run = 0;
    for (const scenario::Claim& c : claims.claims) {
        if (!c.holds_on("sim")) continue;
        ++run;
        const ClaimResult r = check_claim(s, claims, c, "sim", {});
        EXPECT_EQ(r.verdict, ClaimVerdict::Holds) << describe(r);
    }
    EXPECT_GT(run, 0) << s.id << ": no claim holds on the simulator";
}

TEST_P(LessonClaimsTest, GpuClaimsHoldOnTheRecordedFigures) {
    const scenario::Scenario& s = *scenario::find_scenario(GetParam());
    const scenario::LessonClaims claims = scenario::builtin_claims(s);
    const std::string text = scenario::builtin_recording(s.id);
    ASSERT_FALSE(text.empty()) << "assets/lessons/" << s.id << "/h200.json is missing";
    const ClaimRecording rec = parse_recording(text, "assets/lessons/" + s.id + "/h200.json");
    for (const auto& [id, entry] : rec.claims)
        EXPECT_NE(claims.find(id), nullptr) << rec.file << " records '" << id << "', which is no claim of the lesson";
    for (const scenario::Claim& c : claims.claims) {
        if (!c.holds_on("gpu")) continue;
        const auto it = rec.claims.find(c.id);
        ASSERT_NE(it, rec.claims.end()) << rec.file << " has no entry for GPU claim '" << c.id
                                        << "': its figures, or \"not_recorded\" with why";
        EXPECT_EQ(it->second.command, c.command.text) << c.id << ": the recording answers another command";
        const ClaimResult r = check_recorded(c, rec);
        if (!it->second.not_recorded.empty()) {
            std::printf("not recorded on an H200: %s/%s: synclab %s --backend gpu\n", s.id.c_str(), c.id.c_str(),
                        c.command.text.c_str());
            continue;
        }
        EXPECT_EQ(r.verdict, ClaimVerdict::Holds) << describe(r);
    }
}

std::vector<std::string> lesson_ids() {
    std::vector<std::string> ids;
    for (const scenario::Scenario& s : scenario::catalog())
        ids.push_back(s.id);
    return ids;
}

INSTANTIATE_TEST_SUITE_P(Catalog, LessonClaimsTest, ::testing::ValuesIn(lesson_ids()),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });

} // namespace
} // namespace synclab::runner
