// Judging claims (runner/claims.h): predicates against measurements made up to hold and to fail,
// a real run, and recordings: their errors, a changed command, a missing figure.
#include "runner/claims.h"

#include <gtest/gtest.h>

#include <string>

namespace synclab::runner {
namespace {

using scenario::Claim;
using scenario::LessonClaims;
using Verdict = ClaimCheck::Verdict;

const scenario::Scenario& stencil() { return *scenario::find_scenario("stencil"); }

LessonClaims claims_of(const std::string& predicates,
                       const std::string& command = "run stencil --variant missing_barrier --schedule random --reps 5",
                       const std::string& backends = "[\"sim\"]") {
    const std::string text = "[claim.c]\nquote = \"a nonzero wrong-output count under the random and adversarial "
                             "schedules\"\ncommand = \"" + command + "\"\nbackends = " + backends + "\n" + predicates;
    return scenario::parse_claims(text, "claims.toml", stencil());
}

ClaimMeasurement run_measurement() {
    ClaimMeasurement m;
    m.status = trace::RunStatus::Ok;
    m.finding_kinds = std::vector<std::string>{"race"};
    m.finding_lines["race"] = {42, 45, 46};
    m.finding_messages["race"] = {"WAR hazard ... (169 loads read the old value in this run)"};
    m.wrong_outputs = 331;
    m.checked_outputs = 16384;
    m.reps = 5;
    m.reps_with_wrong = 5;
    m.wrong_indices = std::vector<uint64_t>{31, 32, 63, 64, 70};
    m.outputs["g_out[0]"] = 12;
    return m;
}

std::vector<ClaimCheck> judge(const std::string& predicates, const ClaimMeasurement& m) {
    const LessonClaims c = claims_of(predicates);
    return judge_claim(c.claims[0], m);
}

TEST(ClaimsJudge, EveryRunPredicateHoldsWhereTheMeasurementSaysSo) {
    const auto checks = judge(R"(status = "ok"
findings = ["race"]
no_findings = ["deadlock"]
only_findings = ["race"]
finding_lines = ["race: 42 45"]
finding_says = ["race: loads read the old value"]
wrong_outputs = [1, 500]
wrong_fraction = [0.01, 0.05]
reps_with_wrong = 5
wrong_at = "i % 32 in 0, 31: 0.8..1"
output = "g_out[0]: 12"
)", run_measurement());
    ASSERT_EQ(checks.size(), 11u);
    for (const ClaimCheck& c : checks)
        EXPECT_EQ(c.verdict, Verdict::Holds) << c.what << " " << c.expected << ": " << c.measured;
    EXPECT_EQ(verdict_of(checks), ClaimVerdict::Holds);
}

// A claim the measurement contradicts fails, each predicate on its own, with what was measured.
TEST(ClaimsJudge, AClaimThatMustFailFails) {
    const ClaimMeasurement m = run_measurement();
    const std::pair<std::string, std::string> failing[] = {
        {"status = \"deadlock\"", "ok"},
        {"findings = [\"deadlock\"]", "race"},
        {"no_findings = [\"race\"]", "race"},
        {"only_findings = []", "race"},
        {"finding_lines = [\"race: 99\"]", "race: lines 42 45 46"},
        {"finding_says = [\"race: writes were lost\"]", "169 loads read the old value"},
        {"wrong_outputs = 0", "331 of 16,384 wrong over 5 runs"},
        {"wrong_fraction = [0.5, 1]", "2.0%"},
        {"reps_with_wrong = [0, 4]", "5 of 5"},
        {"wrong_at = \"i % 32 in 5..10: 0.5..1\"", "0.0% of the kept run's 5 wrong outputs"},
        {"output = \"g_out[0]: 13..20\"", "g_out[0] = 12"},
    };
    for (const auto& [predicate, measured] : failing) {
        const auto checks = judge(predicate + "\n", m);
        ASSERT_EQ(checks.size(), 1u) << predicate;
        EXPECT_EQ(checks[0].verdict, Verdict::Fails) << predicate << ": " << checks[0].measured;
        EXPECT_NE(checks[0].measured.find(measured), std::string::npos) << predicate << ": " << checks[0].measured;
        EXPECT_EQ(verdict_of(checks), ClaimVerdict::Fails);
    }
}

TEST(ClaimsJudge, LadderOrderSlowestFastestAndRatios) {
    const LessonClaims good = claims_of(R"(slowest = "missing_barrier"
fastest = "correct"
order = ["missing_barrier", "correct"]
ratios = ["missing_barrier / correct in 1.5..2.5", "correct / missing_barrier <= 1"]
)", "ladder stencil");
    ClaimMeasurement m;
    m.ladder = true;
    m.unit = "cycles";
    m.rung_times = std::map<std::string, double>{{"correct", 1000}, {"missing_barrier", 2000}};
    const auto checks = judge_claim(good.claims[0], m);
    ASSERT_EQ(checks.size(), 5u);
    for (const ClaimCheck& c : checks)
        EXPECT_EQ(c.verdict, Verdict::Holds) << c.what << " " << c.expected << ": " << c.measured;
    m.rung_times = std::map<std::string, double>{{"correct", 3000}, {"missing_barrier", 2000}};
    const auto swapped = judge_claim(good.claims[0], m);
    for (const ClaimCheck& c : swapped)
        EXPECT_EQ(c.verdict, Verdict::Fails) << c.what << " " << c.expected << ": " << c.measured;
    EXPECT_EQ(swapped[0].measured, "correct 3000 > missing_barrier 2000 cycles");
}

// What a measurement lacks is not measured: a recording without that field is "not recorded", never
// a pass.
TEST(ClaimsJudge, AMissingFieldIsNotMeasuredNotAPass) {
    ClaimMeasurement m;
    m.status = trace::RunStatus::Ok;
    const auto checks = judge("status = \"ok\"\nwrong_outputs = 0\n", m);
    ASSERT_EQ(checks.size(), 2u);
    EXPECT_EQ(checks[0].verdict, Verdict::Holds);
    EXPECT_EQ(checks[1].verdict, Verdict::NotMeasured);
    EXPECT_EQ(verdict_of(checks), ClaimVerdict::NotRecorded);
}

// A real run of the simulator: a true claim holds and a false one fails.
TEST(ClaimsJudge, ARealRunHoldsOrFails) {
    const LessonClaims holds = claims_of("findings = [\"race\"]\nreps_with_wrong = 5\n");
    const ClaimResult r = check_claim(stencil(), holds, holds.claims[0], "sim", {});
    EXPECT_EQ(r.verdict, ClaimVerdict::Holds);
    ASSERT_TRUE(r.measurement.has_value());
    EXPECT_GT(*r.measurement->wrong_outputs, 0u);
    const LessonClaims fails = claims_of("wrong_outputs = 0\n");
    EXPECT_EQ(check_claim(stencil(), fails, fails.claims[0], "sim", {}).verdict, ClaimVerdict::Fails);
}

// Words the loader leaves to the simulator are checked when the claim is planned, naming the line.
TEST(ClaimsJudge, PlanningNamesAScheduleTheSimulatorDoesNotKnow) {
    const LessonClaims c = claims_of("findings = [\"race\"]\n", "run stencil --variant missing_barrier --schedule chaos");
    try {
        plan_claim(stencil(), c, c.claims[0], "sim");
        FAIL() << "no error";
    } catch (const scenario::LessonError& e) {
        EXPECT_EQ(std::string(e.what()), "claims.toml:3: claim 'c': command: --schedule must be rr, random, adversarial or "
                                         "exhaustive, got 'chaos'");
    }
}

// [SECTION] Recordings

const std::string kRecording = R"({
  "device": "NVIDIA H200",
  "claims": {
    "c": {"command": "run stencil --variant missing_barrier --reps 5 --untraced", "source": "test",
          "status": "ok", "wrong_outputs": 76991, "checked_outputs": 81920, "reps": 5, "reps_with_wrong_outputs": 5}
  }
})";

TEST(ClaimsRecording, AGpuClaimIsJudgedAgainstItsFigures) {
    const ClaimRecording rec = parse_recording(kRecording, "h200.json");
    const LessonClaims holds = claims_of("wrong_fraction = [0.9, 1]\n", "run stencil --variant missing_barrier --reps 5 --untraced",
                                         "[\"gpu\"]");
    const ClaimResult r = check_recorded(holds.claims[0], rec);
    EXPECT_EQ(r.verdict, ClaimVerdict::Holds) << r.note;
    EXPECT_EQ(r.backend, "h200");
    EXPECT_EQ(r.measurement->device, "NVIDIA H200");
    const LessonClaims fails = claims_of("wrong_fraction = [0, 0.5]\n", "run stencil --variant missing_barrier --reps 5 --untraced",
                                         "[\"gpu\"]");
    EXPECT_EQ(check_recorded(fails.claims[0], rec).verdict, ClaimVerdict::Fails);
    // Figures for another command say nothing about this one.
    const LessonClaims other = claims_of("wrong_fraction = [0.9, 1]\n", "run stencil --variant missing_barrier --reps 6 --untraced",
                                         "[\"gpu\"]");
    const ClaimResult moved = check_recorded(other.claims[0], rec);
    EXPECT_EQ(moved.verdict, ClaimVerdict::NotRecorded);
    EXPECT_NE(moved.note.find("recorded for another command"), std::string::npos) << moved.note;
    // No entry at all.
    EXPECT_EQ(check_recorded(holds.claims[0], parse_recording("{\"claims\": {}}", "h200.json")).verdict,
              ClaimVerdict::NotRecorded);
}

// A claim about one GPU's own behaviour (device = "H200") is judged on that GPU; figures of
// another are shown, not judged, whatever they say.
TEST(ClaimsRecording, AClaimAboutTheH200IsNotJudgedOnAnotherGpu) {
    const std::string command = "run stencil --variant missing_barrier --reps 5 --untraced";
    const LessonClaims h200 = claims_of("device = \"H200\"\nwrong_fraction = [0.9, 1]\n", command, "[\"gpu\"]");
    ASSERT_EQ(h200.claims[0].device, "H200");
    EXPECT_EQ(check_recorded(h200.claims[0], parse_recording(kRecording, "h200.json")).verdict, ClaimVerdict::Holds);
    std::string h100 = kRecording;
    h100.replace(h100.find("NVIDIA H200"), 11, "NVIDIA H100 80GB HBM3");
    const ClaimResult other = check_recorded(h200.claims[0], parse_recording(h100, "h100.json"));
    EXPECT_EQ(other.verdict, ClaimVerdict::OtherDevice);
    EXPECT_FALSE(other.checks.empty()) << "the figures are still shown";
    EXPECT_STREQ(to_string(other.verdict), "other device");
    const LessonClaims any = claims_of("wrong_fraction = [0.9, 1]\n", command, "[\"gpu\"]");
    EXPECT_EQ(check_recorded(any.claims[0], parse_recording(h100, "h100.json")).verdict, ClaimVerdict::Holds);
    ClaimMeasurement m;
    m.device = "NVIDIA H100 80GB HBM3";
    EXPECT_FALSE(on_claims_device(h200.claims[0], m));
    m.device = "NVIDIA H200";
    EXPECT_TRUE(on_claims_device(h200.claims[0], m));
}

TEST(ClaimsRecording, AMeasurementRoundTripsThroughItsJson) {
    ClaimMeasurement m = run_measurement();
    m.histogram = std::map<std::string, uint64_t>{{"1,0", 3}, {"1,1", 29}};
    m.cpu_flags_seen = 32;
    m.cpu_stale = 0;
    nlohmann::json entry = measurement_json(m);
    entry["command"] = "run x";
    entry["source"] = "test";
    const nlohmann::json doc = {{"device", "GPU"}, {"claims", {{"c", entry}}}};
    const ClaimRecording rec = parse_recording(doc.dump(), "h200.json");
    const ClaimMeasurement& back = rec.claims.at("c").measurement;
    EXPECT_EQ(measurement_json(back), measurement_json(m));
}

TEST(ClaimsRecording, AMalformedRecordingSaysWhatIsWrong) {
    const auto error = [](const std::string& json) {
        try {
            parse_recording(json, "h200.json");
        } catch (const scenario::LessonError& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    EXPECT_EQ(error("[]"), "h200.json: must be a JSON object with \"device\" and \"claims\"");
    EXPECT_EQ(error("{\"claim\": {}}"), "h200.json: unknown key \"claim\" (keys: about, device, claims)");
    EXPECT_EQ(error("{\"claims\": {\"c\": {\"source\": \"x\"}}}"),
              "h200.json: claim 'c': \"command\" is missing: the claim's command these figures answer");
    EXPECT_EQ(error("{\"claims\": {\"c\": {\"command\": \"run x\"}}}"),
              "h200.json: claim 'c': give \"source\" (how and when the figures were measured) or \"not_recorded\" (why none "
              "yet), one of them");
    EXPECT_EQ(error("{\"claims\": {\"c\": {\"command\": \"run x\", \"source\": \"s\", \"status\": \"hung\"}}}").rfind(
                  "h200.json: claim 'c': \"status\" must be a run status", 0),
              0u);
    EXPECT_EQ(error("{\"claims\": {\"c\": {\"command\": \"run x\", \"source\": \"s\", \"wrong_outputs\": -1}}}"),
              "h200.json: claim 'c': \"wrong_outputs\" must be a whole number >= 0");
    EXPECT_EQ(error("{\"claims\": {\"c\": {\"command\": \"run x\", \"source\": \"s\", \"rungs\": {\"a\": 1}}}}"),
              "h200.json: claim 'c': \"rungs\" need a \"unit\" (ms)");
    EXPECT_EQ(error("{").rfind("h200.json: not JSON", 0), 0u);
}

} // namespace
} // namespace synclab::runner
