// The table of finding kinds (analysis/finding_kinds.h): one row per kind, ids that read back, one
// rank each, and the report title filled from the finding.
#include "analysis/finding_kinds.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace synclab::analysis {
namespace {

TEST(analysis_finding_kinds, EveryKindHasOneRowWithWordsInBothLanguages) {
    std::set<std::string> ids;
    std::set<int> ranks;
    for (const FindingKindInfo& row : finding_kinds()) {
        EXPECT_EQ(&info(row.kind), &row);
        EXPECT_TRUE(ids.insert(row.id).second) << row.id;
        EXPECT_TRUE(ranks.insert(row.rank).second) << row.id << ": two kinds with one rank";
        for (const char* text : {row.en, row.en_article, row.zh, row.report_en, row.explain_en, row.explain_zh})
            EXPECT_GT(std::string(text).size(), 3u) << row.id;
        FindingKind back{};
        ASSERT_TRUE(parse_finding_kind(row.id, back)) << row.id;
        EXPECT_EQ(back, row.kind);
        EXPECT_EQ(std::string(to_string(row.kind)), row.id);
    }
    EXPECT_EQ(ids.size(), 7u);
    FindingKind unused{};
    EXPECT_FALSE(parse_finding_kind("races", unused));
    EXPECT_FALSE(parse_finding_kind("", unused));
}

TEST(analysis_finding_kinds, OnlyContentionIsAboutSpeedAndDeadlockComesFirst) {
    for (const FindingKindInfo& row : finding_kinds())
        EXPECT_EQ(row.performance, row.kind == FindingKind::Contention) << row.id;
    EXPECT_EQ(info(FindingKind::Deadlock).rank, 0);
    EXPECT_EQ(info(FindingKind::StaleRead).look, FindingLook::Race) << "drawn as the race it resembles";
}

// Issue 20's kind: a bug, right after deadlock (a fault ends a run as a hang does), drawn as one.
TEST(analysis_finding_kinds, OutOfBoundsRanksRightAfterDeadlock) {
    const FindingKindInfo& row = info(FindingKind::OutOfBounds);
    EXPECT_STREQ(row.id, "out_of_bounds");
    EXPECT_STREQ(row.zh, "越界访问");
    EXPECT_FALSE(row.performance);
    EXPECT_EQ(row.look, FindingLook::Deadlock);
    for (const FindingKindInfo& other : finding_kinds()) {
        if (other.kind != FindingKind::Deadlock && other.kind != FindingKind::OutOfBounds) {
            EXPECT_LT(row.rank, other.rank) << other.id;
        }
    }
    EXPECT_EQ(row.rank, info(FindingKind::Deadlock).rank + 1);
}

TEST(analysis_finding_kinds, ReportTitlesNameHazardAndSpace) {
    Finding race;
    race.kind = FindingKind::Race;
    race.hazard = Hazard::WAR;
    race.space = trace::Space::Shared;
    EXPECT_EQ(report_title(race), "WAR hazard on __shared__ memory");
    Finding stale;
    stale.kind = FindingKind::StaleRead;
    stale.space = trace::Space::Global;
    EXPECT_EQ(report_title(stale), "Stale read on __global__ memory (missing fence)");
    Finding hang;
    hang.kind = FindingKind::Deadlock;
    EXPECT_EQ(report_title(hang), "Deadlock");
}

} // namespace
} // namespace synclab::analysis
