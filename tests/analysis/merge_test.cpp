// render_message and merge_findings: the counts in a message always come from the finding's fields,
// also after the findings of several runs (--reps N) are merged.
#include "analysis/findings.h"

#include <gtest/gtest.h>

namespace synclab::analysis {
namespace {

using V = std::vector<uint32_t>;

Finding race(uint64_t count, V lines, V ptx_lines = {}) {
    Finding f;
    f.kind = FindingKind::Race;
    f.hazard = Hazard::RAW;
    f.space = trace::Space::Shared;
    f.lines = std::move(lines);
    f.ptx_lines = std::move(ptx_lines);
    f.count = count;
    f.count_noun = "racing access pair";
    f.text = "RAW hazard on __shared__ address 0x4 in block 0";
    render_message(f);
    return f;
}

Finding lost_update(uint64_t threads, uint64_t lost) {
    Finding f;
    f.kind = FindingKind::LostUpdate;
    f.space = trace::Space::Global;
    f.lines = {9};
    f.count = threads;
    f.lost = lost;
    f.count_noun = "thread";
    f.text = "lost update on global 0x0";
    render_message(f);
    return f;
}

// Verdict: a race always says what its pairs did (none harmful here: right by luck), in the noun's
// plural for several; a lost update says how many updates were lost.
TEST(analysis_merge, MessageRenderedFromTheCounts) {
    EXPECT_EQ(race(1, {5}).message,
              "RAW hazard on __shared__ address 0x4 in block 0 (it did no harm in this run: right by luck)");
    EXPECT_EQ(race(12, {5}).message, "RAW hazard on __shared__ address 0x4 in block 0 (none did harm in this "
                                     "run; 12 racing access pairs were right "
                                     "by luck)");
    EXPECT_EQ(lost_update(4, 0).message, "lost update on global 0x0 (4 threads, no update lost in this run)");
    EXPECT_EQ(lost_update(4, 1).message, "lost update on global 0x0 (4 threads, 1 update lost)");
}

// Verdict: the same finding from three runs adds count and runs and says so in its message; the
// first run's example stays.
TEST(analysis_merge, MergedMessageAgreesWithTheMergedCount) {
    std::vector<Finding> merged;
    merge_findings(merged, {race(3, {5, 6})});
    Finding other_run = race(5, {5, 6});
    other_run.threads = {7, 8};
    merge_findings(merged, {other_run});
    merge_findings(merged, {race(1, {5, 6})});
    ASSERT_EQ(merged.size(), 1u);
    EXPECT_EQ(merged[0].count, 9u);
    EXPECT_EQ(merged[0].runs, 3u);
    EXPECT_TRUE(merged[0].threads.empty()) << "the first run's example";
    EXPECT_EQ(merged[0].message, "RAW hazard on __shared__ address 0x4 in block 0 (none did harm in 3 runs; "
                                 "9 racing access pairs were right by "
                                 "luck)");

    std::vector<Finding> lost;
    merge_findings(lost, {lost_update(4, 1)});
    merge_findings(lost, {lost_update(4, 0)});
    ASSERT_EQ(lost.size(), 1u);
    EXPECT_EQ(lost[0].message, "lost update on global 0x0 (8 threads, 1 update lost in 2 runs)");

    std::vector<Finding> once;
    merge_findings(once, {race(1, {5})});
    merge_findings(once, {race(1, {5})});
    EXPECT_EQ(once[0].message, "RAW hazard on __shared__ address 0x4 in block 0 (none did harm in 2 runs; 2 "
                               "racing access pairs were right by "
                               "luck)");
}

// Verdict: inside one run, the findings of the copies of one line (an unrolled loop gives one site
// per copy, so one aggregate each) are one finding to the reader: their counts add up and the
// message does not speak of several runs; a run merged later still counts as one more run.
TEST(analysis_merge, CopiesOfOneLineInOneRunAreOneFinding) {
    std::vector<Finding> one_run = {race(3, {5, 6}), race(4, {5, 6}), race(2, {5, 7})};
    one_run[1].threads = {9, 10};
    merge_same_lines(one_run);
    ASSERT_EQ(one_run.size(), 2u);
    EXPECT_EQ(one_run[0].count, 7u);
    EXPECT_EQ(one_run[0].runs, 1u);
    EXPECT_TRUE(one_run[0].threads.empty()) << "the first copy's example";
    EXPECT_EQ(one_run[0].message,
              "RAW hazard on __shared__ address 0x4 in block 0 (none did harm in this run; 7 racing access "
              "pairs were right by luck)");
    EXPECT_EQ(one_run[1].lines, (V{5, 7}));
    std::vector<Finding> next_run = {race(1, {5, 6}), race(1, {5, 6})};
    merge_same_lines(next_run);
    merge_findings(one_run, next_run);
    EXPECT_EQ(one_run[0].count, 9u);
    EXPECT_EQ(one_run[0].runs, 2u);
    EXPECT_EQ(one_run[0].message, "RAW hazard on __shared__ address 0x4 in block 0 (none did harm in 2 runs; "
                                  "9 racing access pairs were right by "
                                  "luck)");
}

// Verdict: findings at other lines, other PTX lines, or of another hazard are kept apart.
TEST(analysis_merge, DifferentFindingsStayApart) {
    std::vector<Finding> merged;
    Finding war = race(2, {5, 6});
    war.hazard = Hazard::WAR;
    merge_findings(merged, {race(2, {5, 6}), race(2, {5}, {40}), race(2, {5}), war});
    merge_findings(merged, {race(2, {5}, {41})});
    ASSERT_EQ(merged.size(), 5u);
    for (const Finding& f : merged) {
        EXPECT_EQ(f.runs, 1u);
        EXPECT_EQ(f.count, 2u);
    }
}

} // namespace
} // namespace synclab::analysis
