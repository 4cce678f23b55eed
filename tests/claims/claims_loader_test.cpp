// Reading claims files (scenario/claims.h): a good file gives its claims with their quotes found in
// the text, and every mistake is an error naming the file, the line, the claim and the field.
#include "scenario/claims.h"
#include "scenario/scenario.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

namespace synclab::scenario {
namespace {

const Scenario& stencil() { return *find_scenario("stencil"); }

// A claim table of stencil's that parses, to be broken one line at a time.
const std::string kGood = R"([claim.wrong_under_random]
quote = "a nonzero wrong-output count under the random and adversarial schedules"
command = "run stencil --variant missing_barrier --schedule random --reps 5"
backends = ["sim"]
findings = ["race"]
wrong_fraction = [0.01, 0.5]
)";

std::string error_of(const std::string& text, const Scenario& lesson = stencil()) {
    try {
        parse_claims(text, "claims.toml", lesson);
    } catch (const LessonError& e) {
        return e.what();
    }
    return "";
}

// `kGood` with its one `from` replaced by `to` fails with `message` at the line of `anchor`.
void expect_broken(const std::string& from, const std::string& to, const std::string& anchor, const std::string& message) {
    SCOPED_TRACE("'" + from + "' -> '" + to + "'");
    std::string text = kGood;
    const size_t at = text.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    text.replace(at, from.size(), to);
    const size_t a = text.find(anchor);
    ASSERT_NE(a, std::string::npos) << anchor;
    const auto line = 1 + std::count(text.begin(), text.begin() + static_cast<long>(a), '\n');
    const std::string want = "claims.toml:" + std::to_string(line) + ": " + message;
    const std::string got = error_of(text);
    EXPECT_EQ(got.rfind(want, 0), 0u) << "expected: " << want << "\ngot:      " << got;
}

TEST(ClaimsLoader, AGoodFileGivesItsClaimsAndWhereTheQuoteStands) {
    const LessonClaims c = parse_claims(kGood, "claims.toml", stencil());
    ASSERT_EQ(c.claims.size(), 1u);
    const Claim& claim = c.claims[0];
    EXPECT_EQ(claim.id, "wrong_under_random");
    EXPECT_EQ(claim.line, 1u);
    EXPECT_EQ(claim.where, "en.md, variant missing_barrier, What to look at");
    EXPECT_EQ(claim.command.kind, ClaimCommandKind::Run);
    EXPECT_EQ(claim.command.variant, "missing_barrier");
    EXPECT_EQ(claim.command.schedule, "random");
    EXPECT_EQ(claim.command.reps, 5u);
    EXPECT_TRUE(claim.holds_on("sim"));
    EXPECT_FALSE(claim.holds_on("gpu"));
    ASSERT_EQ(claim.expect.findings.size(), 1u);
    EXPECT_DOUBLE_EQ(claim.expect.wrong_fraction.lo, 0.01);
    EXPECT_EQ(claim.expect.count(), 2u);
}

// A quote matches whatever its spaces and line breaks (the text joins a paragraph's lines with a
// space; a claim may wrap the words otherwise), in English and in Chinese.
TEST(ClaimsLoader, QuotesMatchWhateverTheirSpacing) {
    const std::string text = R"([claim.x]
quote = "Every sum is exact,   under every schedule\nand every seed."
quote_zh = "无论哪种调度、哪个种子，每个和都精确无误。"
command = "run stencil --variant correct"
backends = ["sim"]
wrong_outputs = 0
)";
    const LessonClaims c = parse_claims(text, "claims.toml", stencil());
    EXPECT_EQ(c.claims[0].quote, "Every sum is exact, under every schedule and every seed.");
    EXPECT_EQ(c.claims[0].where, "en.md, variant correct, What it shows");
    EXPECT_EQ(c.claims[0].where_zh, "zh.md, variant correct, What it shows");
}

TEST(ClaimsLoader, TheFileItselfMustBeClaims) {
    EXPECT_EQ(error_of("quote = \"x\"\n"), "claims.toml:1: key 'quote' outside a table: every key belongs to a [claim.ID]");
    EXPECT_EQ(error_of("[claims.x]\nquote = \"x\"\n"),
              "claims.toml:1: unknown table [claims.x]: a claims file holds [claim.ID] tables only");
    EXPECT_EQ(error_of("[claim.Bad]\n"), "claims.toml:1: claim id 'Bad' must be lower-case letters, digits and _");
    EXPECT_EQ(error_of("# nothing\n"),
              "claims.toml: no claim: add a [claim.ID] table for each claim the lesson's text makes");
    EXPECT_NE(error_of("[claim.x]\nquote = \"unterminated\n").find("claims.toml:2:"), std::string::npos);
}

TEST(ClaimsLoader, KeysAreKnownAndRequiredOnesPresent) {
    expect_broken("backends = [\"sim\"]", "backend = [\"sim\"]", "backend =",
                  "claim 'wrong_under_random': unknown key 'backend' (keys: quote,");
    expect_broken("backends = [\"sim\"]\n", "", "[claim", "claim 'wrong_under_random': missing key 'backends'");
    expect_broken("command = \"run stencil --variant missing_barrier --schedule random --reps 5\"\n", "", "[claim",
                  "claim 'wrong_under_random': missing key 'command'");
    expect_broken("findings = [\"race\"]\nwrong_fraction = [0.01, 0.5]\n", "", "[claim",
                  "claim 'wrong_under_random': no predicate: say what the command must show");
}

TEST(ClaimsLoader, AQuoteMustBeTheTextsOwnWords) {
    expect_broken("a nonzero wrong-output count", "a zero wrong-output count", "quote =",
                  "claim 'wrong_under_random': quote: not in en.md (the words must be the text's own, line breaks aside)");
    expect_broken("backends = [\"sim\"]", "quote_zh = \"不存在的话\"\nbackends = [\"sim\"]", "quote_zh",
                  "claim 'wrong_under_random': quote_zh: not in zh.md");
}

TEST(ClaimsLoader, TheCommandIsCheckedAgainstTheLesson) {
    const std::string cmd = "run stencil --variant missing_barrier --schedule random --reps 5";
    const auto broken = [&](const std::string& to, const std::string& message) {
        expect_broken(cmd, to, "command =", "claim 'wrong_under_random': command: " + message);
    };
    broken("table --seeds 3", "must start with run or ladder (a synclab command), got 'table'");
    broken("run histogram --variant global_atomics", "names lesson 'histogram', but this file is lesson stencil's");
    broken("run stencil --variant nope", "lesson stencil has no variant 'nope' (variants: correct, missing_barrier)");
    broken("run stencil --schedule random", "run needs --variant V");
    broken("run stencil --variant correct --frobnicate 1", "unknown option --frobnicate (run in a claim takes");
    broken("run stencil --variant correct --reps 0", "--reps takes a whole number 1..100000, got '0'");
    broken("run stencil --variant correct --seed", "--seed needs a value");
    broken("run stencil --variant correct --seed 1 --seed 2", "--seed given twice");
    broken("run stencil --variant correct --param k=1", "--param k=1: lesson stencil has no parameter 'k'");
    broken("run stencil --variant correct --histogram g_nope", "--histogram g_nope: lesson stencil has no buffer of that name");
    broken("run stencil --variant correct --per 2", "--per N needs --histogram BUFFER");
    broken("run stencil --variant correct --memory weak", "--memory must be sc or relaxed, got 'weak'");
    broken("ladder stencil --variant correct", "unknown option --variant (ladder in a claim takes --param, --sm-count, --reps)");
}

TEST(ClaimsLoader, BackendsAndOptionsMustAgree) {
    expect_broken("backends = [\"sim\"]", "backends = [\"tpu\"]", "backends",
                  "claim 'wrong_under_random': backends: 'tpu' is not a backend (sim, gpu)");
    expect_broken("backends = [\"sim\"]", "backends = [\"sim\", \"sim\"]", "backends",
                  "claim 'wrong_under_random': backends: 'sim' given twice");
    expect_broken("--reps 5\"\nbackends = [\"sim\"]", "--reps 5 --memory relaxed\"\nbackends = [\"gpu\"]", "backends",
                  "claim 'wrong_under_random': backends: gpu, but the command sets the simulator's own behaviour");
    expect_broken("--reps 5\"", "--reps 5 --untraced\"", "backends",
                  "claim 'wrong_under_random': backends: sim, but --untraced is a GPU option");
    expect_broken("findings = [\"race\"]", "traced_status = \"timeout\"", "backends",
                  "claim 'wrong_under_random': backends: sim, but traced_status, cpu_stale and cpu_flags_seen are about GPU launches");
    expect_broken("findings = [\"race\"]", "device = \"H200\"", "device",
                  "claim 'wrong_under_random': device: a GPU's name (\"H200\") on a claim whose backends are [\"gpu\"] only");
}

TEST(ClaimsLoader, PredicatesAreTypedAndInRange) {
    const auto broken = [&](const std::string& to, const std::string& anchor, const std::string& message) {
        expect_broken("wrong_fraction = [0.01, 0.5]", to, anchor, "claim 'wrong_under_random': " + message);
    };
    broken("wrong_fraction = [0.5, 0.01]", "wrong_fraction", "wrong_fraction: LO 0.5 is above HI 0.01");
    broken("wrong_fraction = 2", "wrong_fraction", "wrong_fraction must lie in 0..1, got 2");
    broken("wrong_fraction = \"most\"", "wrong_fraction", "wrong_fraction must be a number or [LO, HI], got a string");
    broken("wrong_outputs = [1.5, 3]", "wrong_outputs", "wrong_outputs counts: whole numbers, got 1.5..3");
    broken("reps_with_wrong = 6", "reps_with_wrong", "reps_with_wrong must lie in 0..5, got 6");
    broken("no_findings = [\"races\"]", "no_findings", "no_findings: unknown finding kind 'races'");
    broken("status = \"hung\"", "status", "status: unknown status 'hung'");
    broken("finding_lines = [\"race 42\"]", "finding_lines", "finding_lines: 'race 42' must be \"KIND: LINE LINE ...\"");
    broken("finding_lines = [\"race: 4x\"]", "finding_lines", "finding_lines: '4x' in 'race: 4x' is not a line number");
    broken("finding_says = [\"race\"]", "finding_says", "finding_says: 'race' must be \"KIND: words\"");
    broken("wrong_at = \"i % 32 in 40: 0.5..1\"", "wrong_at", "wrong_at: 'i % 32 in 40: 0.5..1' must be \"i % M in A..B, C: LO..HI\"");
    broken("output = \"g_nope[0]: 1\"", "output =", "output: lesson stencil has no buffer 'g_nope'");
    broken("output = \"g_out[16384]: 1\"", "output =", "output: g_out holds 16384 elements, index 16384 is past its end");
    broken("output = \"g_out: 1\"", "output =", "output: 'g_out: 1' must be \"BUFFER[I]: LO..HI\"");
    broken("outcomes_seen = [\"1,0\"]", "outcomes_seen",
           "outcomes_seen reads the outcome histogram: the command needs --histogram BUFFER (lesson stencil has no [outcomes])");
    broken("slowest = \"correct\"", "slowest", "slowest is about a ladder, but the command is run");
}

TEST(ClaimsLoader, LadderPredicatesNameVariantsAndRatios) {
    const std::string ladder = R"([claim.l]
quote = "a nonzero wrong-output count under the random and adversarial schedules"
command = "ladder stencil"
backends = ["sim"]
ratios = ["missing_barrier / correct in 0.5..2"]
)";
    const LessonClaims c = parse_claims(ladder, "claims.toml", stencil());
    ASSERT_EQ(c.claims[0].expect.ratios.size(), 1u);
    EXPECT_EQ(c.claims[0].expect.ratios[0].a, "missing_barrier");
    EXPECT_EQ(c.claims[0].command.reps, 20u) << "a ladder's GPU launches default to 20, as synclab ladder's";
    const auto error = [&](const std::string& from, const std::string& to) {
        std::string t = ladder;
        t.replace(t.find(from), from.size(), to);
        return error_of(t);
    };
    EXPECT_EQ(error("ratios = [\"missing_barrier / correct in 0.5..2\"]", "ratios = [\"missing_barrier > correct\"]"),
              "claims.toml:5: claim 'l': ratios: 'missing_barrier > correct' must be \"A / B >= X\", \"A / B <= X\" or "
              "\"A / B in LO..HI\"");
    EXPECT_EQ(error("ratios = [\"missing_barrier / correct in 0.5..2\"]", "ratios = [\"missing_barrier / nope >= 2\"]"),
              "claims.toml:5: claim 'l': ratios: lesson stencil has no variant 'nope' (variants: correct, missing_barrier)");
    EXPECT_EQ(error("ratios = [\"missing_barrier / correct in 0.5..2\"]", "order = [\"correct\"]"),
              "claims.toml:5: claim 'l': order needs at least two variants");
    EXPECT_EQ(error("ratios = [\"missing_barrier / correct in 0.5..2\"]", "wrong_outputs = 0"),
              "claims.toml:5: claim 'l': wrong_outputs is about a run, but the command is ladder");
}

// The built-in lessons each have a claims file, and it reads.
TEST(ClaimsLoader, EveryBuiltInLessonHasClaims) {
    for (const Scenario& s : catalog()) {
        const LessonClaims c = builtin_claims(s);
        EXPECT_EQ(c.file, "assets/lessons/" + s.id + "/claims.toml");
        EXPECT_FALSE(c.claims.empty()) << s.id;
        EXPECT_FALSE(builtin_recording(s.id).empty()) << s.id << " has no h200.json";
    }
}

} // namespace
} // namespace synclab::scenario
