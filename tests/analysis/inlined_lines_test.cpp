// Findings at lines of inlined __device__ helpers (trace::Site::origin): a finding names the line
// where the access is, inside the helper, with the calls that lead there; one helper line reached
// through two calls is two places; the harm of a pair follows the program's order through the
// calls; views of the kernel's file get the line that calls a helper living in another file.
#include "analysis/findings.h"
#include "trace_builder.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace synclab::analysis {
namespace {

using testing::dump;
using testing::TraceBuilder;
using V = std::vector<uint32_t>;

// A site at `line` of a helper `function` inlined at `call` (in the kernel's body), in `file`
// ("" = the kernel's file).
uint16_t helper_site(TraceBuilder& b, uint32_t line, const std::string& function, uint32_t call,
                     const std::string& file = "") {
    const uint16_t s = b.site(line);
    b.mutable_trace().sites[s].origin = {file, {{function, "", call}}};
    return s;
}

// Verdict: lane 1 writes s[4] inside reduce<true> (its line 20, called at line 29), lane 2 then
// reads it at line 40 of the kernel: one RAW, named at the helper's line with its call.
TEST(analysis_inlined, ARaceInAHelperNamesTheHelpersLineAndItsCall) {
    TraceBuilder b(1, 32);
    const uint16_t store = helper_site(b, 20, "reduce<true>", 29), load = b.site(40);
    b.store(1, store, 0x10).load(2, load, 0x10).exit_all();
    const auto found = find_shared_races(b.trace());
    ASSERT_EQ(found.size(), 1u) << dump(found);
    const Finding& f = found[0];
    EXPECT_EQ(f.lines, (V{20, 40}));
    ASSERT_EQ(f.origins.size(), 2u);
    EXPECT_EQ(f.origins[0], (trace::LineOrigin{"", {{"reduce<true>", "", 29}}}));
    EXPECT_TRUE(f.origins[1].empty());
    EXPECT_EQ(
        f.message,
        "RAW hazard on __shared__ address 0x10: block 0 thread 2 (warp 0, lane 2) at line 40 reads a value "
        "block 0 thread 1 (warp 0, lane 1) wrote at line 20 in `reduce<true>`, called from line 29 within "
        "a warp: no __syncwarp() between them (it did no harm in this run: right by luck)");
    EXPECT_EQ(kernel_file_lines(f), (V{20, 40})) << "a helper of the kernel's own file lights its own line";
}

// Verdict: the same helper line reached from two calls (lines 29 and 31) races with line 40 in
// both: two findings, not one (the key is the line and its calls), each naming its call.
TEST(analysis_inlined, OneHelperLineCalledFromTwoPlacesIsTwoFindings) {
    TraceBuilder b(1, 32);
    const uint16_t first = helper_site(b, 20, "reduce<true>", 29),
                   second = helper_site(b, 20, "reduce<true>", 31), load = b.site(40);
    b.store(1, first, 0x10).load(2, load, 0x10);
    b.store(3, second, 0x20).load(4, load, 0x20).exit_all();
    const auto found = analyze(b.trace());
    ASSERT_EQ(found.size(), 2u) << dump(found);
    std::vector<std::string> calls;
    for (const Finding& f : found) {
        EXPECT_EQ(f.lines, (V{20, 40})) << f.message;
        calls.push_back(std::to_string(f.origins.at(0).inlined.at(0).line));
    }
    std::sort(calls.begin(), calls.end());
    EXPECT_EQ(calls, (std::vector<std::string>{"29", "31"}));
    // Merged with another run, each still finds its own twin only.
    std::vector<Finding> merged = found;
    merge_findings(merged, found);
    ASSERT_EQ(merged.size(), 2u) << dump(merged);
    EXPECT_EQ(merged[0].runs, 2u);
    // at_finding_line tells the two call paths apart.
    EXPECT_TRUE(at_finding_line(b.trace(), found[0], found[0].sites[0]));
    const uint16_t other = found[0].sites[0] == first ? second : first;
    EXPECT_FALSE(at_finding_line(b.trace(), found[0], other));
}

// Verdict: two copies of one helper line from one call (an unrolled loop in the helper) are one
// place: one finding listing line 20 once.
TEST(analysis_inlined, CopiesOfOneHelperLineFromOneCallAreOnePlace) {
    TraceBuilder b(1, 32);
    const uint16_t a = helper_site(b, 20, "reduce<true>", 29), c = helper_site(b, 20, "reduce<true>", 29);
    b.store(1, a, 0x10).store(2, c, 0x10).exit_all();
    const auto found = find_shared_races(b.trace());
    ASSERT_EQ(found.size(), 1u) << dump(found);
    EXPECT_EQ(found[0].lines, (V{20}));
    EXPECT_EQ(found[0].origins.size(), 1u);
}

// Harm follows the program through the calls: the kernel stores s[1] = 7 at line 32, then calls a
// helper at line 39 whose line 14 loads s[1]. The load ran first and read the 0 the slot held: it
// ran against the program's order (32 before 39, although the helper's own line 14 is lower), so
// it did harm. Near-twin: the load after the store is right by luck.
TEST(analysis_inlined, HarmComparesTheCallLineNotTheHelpersOwnLine) {
    for (const bool load_first : {true, false}) {
        SCOPED_TRACE(load_first ? "load first" : "store first");
        TraceBuilder b(1, 64);
        const uint16_t store = b.site(32), load = helper_site(b, 14, "load_neighbour", 39);
        if (load_first) b.load(0, load, 0x4).value(0);
        b.store(1, store, 0x4).value(7);
        if (!load_first) b.load(0, load, 0x4).value(7);
        b.exit_all();
        const auto found = find_shared_races(b.trace());
        ASSERT_EQ(found.size(), 1u) << dump(found);
        EXPECT_EQ(found[0].harmful, load_first ? 1u : 0u) << found[0].message;
    }
}

// A helper in a header: its line is no line of the kernel's file; the kernel's file shows the
// line that calls it, and messages name the file.
TEST(analysis_inlined, AHelperInAHeaderLightsTheCallInTheKernelsFile) {
    TraceBuilder b(1, 32);
    const uint16_t store = helper_site(b, 6, "header_store", 33, "inlined_helpers.cuh"), load = b.site(12);
    b.store(1, store, 0x10).load(2, load, 0x10).exit_all();
    const auto found = find_shared_races(b.trace());
    ASSERT_EQ(found.size(), 1u) << dump(found);
    EXPECT_EQ(found[0].lines, (V{6, 12}));
    EXPECT_EQ(kernel_file_lines(found[0]), (V{33, 12}));
    EXPECT_NE(found[0].message.find("wrote at line 6 of inlined_helpers.cuh in `header_store`, called from "
                                    "line 33 within a warp"),
              std::string::npos)
        << found[0].message;
}

// Findings built without origins (lines given by hand) and findings with empty origins are the
// same places: they merge.
TEST(analysis_inlined, MissingAndEmptyOriginsMerge) {
    Finding a;
    a.lines = {5, 7};
    a.count = 1;
    Finding c = a;
    c.origins = {{}, {}};
    std::vector<Finding> into = {a};
    merge_findings(into, {c});
    ASSERT_EQ(into.size(), 1u);
    EXPECT_EQ(into[0].count, 2u);
    EXPECT_TRUE(origin_of(a, 1).empty());
}

} // namespace
} // namespace synclab::analysis
