// ctest label `gpu`: every lesson's GPU claims run on the GPU here (skipped without one). On an H200
// they must hold, and on another GPU every claim but those about the H200's own behaviour
// (`device = "H200"`); `synclab claims --backend gpu --record assets/lessons` writes the same figures
// into the lessons' h200.json.
#include "gpu/require_gpu.h"
#include "runner/claims.h"

#include <gtest/gtest.h>

#include <cstdio>

namespace synclab::runner {
namespace {

TEST(ClaimsGpu, EveryGpuClaimHoldsOnThisGpu) {
    REQUIRE_GPU();
    ClaimRunOptions o;
    o.gpu_worker = SYNCLAB_GPU_WORKER;
    for (const scenario::Scenario& s : scenario::catalog()) {
        const scenario::LessonClaims claims = scenario::builtin_claims(s);
        for (const scenario::Claim& c : claims.claims) {
            if (!c.holds_on("gpu")) continue;
            const ClaimResult r = check_claim(s, claims, c, "gpu", o);
            std::printf("%s/%s: %s\n", s.id.c_str(), c.id.c_str(), to_string(r.verdict));
            std::string checks;
            for (const ClaimCheck& k : r.checks)
                checks += "  " + k.what + " " + k.expected + ": " + k.measured + "\n";
            // (a claim about another GPU than this one, e.g. the H200's own outcome on an H100,
            // is printed above, not judged)
            if (r.verdict == ClaimVerdict::OtherDevice) continue;
            EXPECT_EQ(r.verdict, ClaimVerdict::Holds)
                << s.id << "/" << c.id << " (" << c.where << "): synclab " << c.command.text << " --backend gpu\n"
                << checks << r.note;
        }
    }
}

} // namespace
} // namespace synclab::runner
