// End to end, through the runner: stencil/missing_barrier's findings put the harm first, their
// harmful counts add up to the wrong outputs, and explain_output() traces a wrong output back to the
// stale neighbour load that made it (findings.h, "Harm"; provenance.h).
#include "analysis/findings.h"
#include "analysis/provenance.h"
#include "runner/runner.h"
#include "scenario/scenario.h"

#include <gtest/gtest.h>

#include <cstring>

namespace synclab {
namespace {

using analysis::Finding;
using analysis::FindingKind;
using analysis::Hazard;

constexpr uint32_t kBlock = 256; // the stencil's tile (assets/lessons/stencil/lesson.toml)

struct StencilRun {
    runner::RunSummary summary;
    std::vector<float> in, out;
    uint64_t out_address = 0; // global address of g_out[0]
};

StencilRun run_stencil(const char* variant, uint64_t seed) {
    const scenario::Scenario& s = *scenario::find_scenario("stencil");
    runner::RunOptions options;
    options.schedule = sim::Schedule::Random;
    options.seed = seed;
    StencilRun r;
    r.summary = runner::run_scenario(s, *s.find_variant(variant), options);
    const scenario::Inputs inputs = s.make_inputs(seed);
    auto floats = [](const std::vector<uint8_t>& bytes) {
        std::vector<float> v(bytes.size() / 4);
        std::memcpy(v.data(), bytes.data(), v.size() * 4);
        return v;
    };
    for (size_t b = 0; b < r.summary.final_buffers.size(); ++b) {
        if (r.summary.final_buffers[b].name == "g_in") r.in = floats(inputs.buffers[b].bytes);
        if (r.summary.final_buffers[b].name != "g_out") continue;
        r.out = floats(r.summary.final_buffers[b].bytes);
        if (b < r.summary.buffer_addresses.size()) r.out_address = r.summary.buffer_addresses[b];
    }
    return r;
}

// What g_out[i] must be: left + centre + right inside the block (no halo).
float expected(const std::vector<float>& in, size_t i) {
    const size_t t = i % kBlock;
    return (t > 0 ? in[i - 1] : 0.0f) + in[i] + (t + 1 < kBlock ? in[i + 1] : 0.0f);
}

std::string dump(const std::vector<Finding>& findings) {
    std::string out;
    for (const Finding& f : findings)
        out += "\n  [" + std::string(analysis::to_string(f.hazard)) + " count=" + std::to_string(f.count) +
               " harmful=" + std::to_string(f.harmful) + "] " + f.message;
    return out;
}

// Verdict, seeds 1..5 under the random schedule: the WAR findings (a neighbour load before the
// neighbour's store: stale) come before every RAW finding (store first: right by luck, harmful 0),
// finding 0 is harmful, and the harmful pairs of all race findings add up to the wrong outputs
// exactly: each wrong output is one thread that read exactly one stale neighbour (the damage is at
// warp edges, where only one of a thread's two neighbours is in another warp; the inputs are 1..9
// and the tile starts at 0, so every stale load changes the sum).
TEST(runner_harm, StencilMissingBarrierPutsTheHarmFirst) {
    for (uint64_t seed = 1; seed <= 5; ++seed) {
        SCOPED_TRACE("seed " + std::to_string(seed));
        const StencilRun r = run_stencil("missing_barrier", seed);
        const auto& findings = r.summary.findings;
        ASSERT_FALSE(findings.empty());
        ASSERT_GT(r.summary.wrong_outputs, 0u) << "the random schedule shows wrong outputs for every seed";
        EXPECT_EQ(findings[0].hazard, Hazard::WAR) << dump(findings);
        EXPECT_GT(findings[0].harmful, 0u) << dump(findings);
        EXPECT_NE(findings[0].message.find("loads read the old value in this run"), std::string::npos)
            << findings[0].message;
        bool seen_raw = false;
        uint64_t harmful = 0;
        for (const Finding& f : findings) {
            ASSERT_EQ(f.kind, FindingKind::Race) << dump(findings);
            if (f.hazard == Hazard::RAW) {
                seen_raw = true;
                EXPECT_EQ(f.harmful, 0u) << "a load after the store read the right value: " << f.message;
                EXPECT_NE(f.message.find("none did harm in this run;"), std::string::npos) << f.message;
            }
            if (f.hazard == Hazard::WAR) {
                EXPECT_FALSE(seen_raw) << "a WAR finding after a RAW one:" << dump(findings);
            }
            harmful += f.harmful;
        }
        // Every wrong output has a harmful pair behind it; under independent thread scheduling one
        // output can read both neighbours stale (its lanes split from theirs), so up to two.
        EXPECT_GE(harmful, r.summary.wrong_outputs) << dump(findings);
        EXPECT_LE(harmful, 2 * r.summary.wrong_outputs) << dump(findings);
    }
}

// Verdict: the wrong outputs of seed 1 each name a stale load of a neighbour's slot (line 45 or 46)
// whose racing writer is that neighbour (thread t - 1 or t + 1 of the same block) at the store line
// 42, and the value read is not the one the neighbour stored; the right outputs have no stale load.
TEST(runner_harm, ExplainOutputTracesAWrongStencilOutputToTheNeighbour) {
    const StencilRun r = run_stencil("missing_barrier", 1);
    ASSERT_NE(r.out_address, 0u) << "the runner reports where g_out lies";
    ASSERT_EQ(r.out.size(), r.in.size());
    const trace::Trace& t = r.summary.trace;
    size_t wrong = 0, checked = 0;
    for (size_t i = 0; i < r.out.size(); ++i) {
        const bool is_wrong = r.out[i] != expected(r.in, i);
        const bool edge = i % 32 == 0 || i % 32 == 31;
        if (!is_wrong && !(edge && i < 4096))
            continue; // every wrong output, and the right ones at warp edges
        const analysis::OutputProvenance p =
            analysis::explain_output(t, trace::Space::Global, r.out_address + 4 * i);
        ++checked;
        ASSERT_TRUE(p.written) << "g_out[" << i << "]";
        EXPECT_EQ(t.events[p.store].space(), trace::Space::Global);
        EXPECT_EQ(t.threads[p.thread].block * kBlock + t.threads[p.thread].thread_in_block, i);
        EXPECT_EQ(p.line, 48u);
        float stored = 0;
        std::memcpy(&stored, &p.value, 4);
        EXPECT_EQ(stored, r.out[i]) << "the store that left the final value";
        if (!is_wrong) {
            EXPECT_TRUE(p.stale_loads.empty()) << "g_out[" << i << "] is right: " << describe(t, p);
            continue;
        }
        ++wrong;
        ASSERT_FALSE(p.stale_loads.empty()) << "g_out[" << i << "] is wrong: " << describe(t, p);
        for (const analysis::StaleLoad& s : p.stale_loads) {
            EXPECT_EQ(s.why, analysis::Staleness::OldValue) << describe(t, p);
            const uint32_t line = t.sites[t.events[s.load].site].source_line;
            EXPECT_TRUE(line == 45 || line == 46) << describe(t, p);
            EXPECT_EQ(t.sites[s.writer_site].source_line, 42u) << describe(t, p);
            const trace::ThreadInfo& me = t.threads[p.thread];
            const trace::ThreadInfo& writer = t.threads[s.writer_thread];
            EXPECT_EQ(writer.block, me.block);
            EXPECT_TRUE(writer.thread_in_block + 1 == me.thread_in_block ||
                        writer.thread_in_block == me.thread_in_block + 1)
                << describe(t, p);
            EXPECT_NE(s.value_read, s.value_written);
        }
        EXPECT_EQ(p.racing_writer_count, 0u) << "each thread writes its own output";
    }
    EXPECT_EQ(wrong, r.summary.wrong_outputs);
    EXPECT_GT(checked, wrong);
}

// The runner keeps the reference's values of the kept repetition (for the app's output grid): they
// are the lesson's g_out, and the elements that differ from them are exactly the wrong outputs.
TEST(runner_harm, ExpectedOutputsAreTheReferencesValues) {
    const StencilRun r = run_stencil("missing_barrier", 1);
    ASSERT_EQ(r.summary.expected_outputs.size(), 1u);
    const scenario::ExpectedOutput& e = r.summary.expected_outputs[0];
    EXPECT_EQ(e.name, "g_out");
    EXPECT_EQ(e.type, launch::ElemType::F32);
    ASSERT_EQ(e.bytes.size(), r.in.size() * 4);
    std::vector<float> want(r.in.size());
    std::memcpy(want.data(), e.bytes.data(), e.bytes.size());
    uint64_t differ = 0;
    for (size_t i = 0; i < want.size(); ++i) {
        EXPECT_EQ(want[i], expected(r.in, i)) << i;
        differ += want[i] != r.out[i];
    }
    EXPECT_EQ(differ, r.summary.wrong_outputs);
}

// Verdict: the correct variant (barrier between store and loads) leaves no stale load behind any
// output (a sample: the warp edges of the first blocks and every 61st output).
TEST(runner_harm, CorrectStencilHasNoStaleLoad) {
    const StencilRun r = run_stencil("correct", 1);
    ASSERT_NE(r.out_address, 0u);
    EXPECT_EQ(r.summary.wrong_outputs, 0u);
    EXPECT_TRUE(r.summary.findings.empty());
    for (size_t i = 0; i < r.out.size(); ++i) {
        const bool edge = (i % 32 == 0 || i % 32 == 31) && i < 2048;
        if (!edge && i % 61 != 0) continue;
        const analysis::OutputProvenance p =
            analysis::explain_output(r.summary.trace, trace::Space::Global, r.out_address + 4 * i);
        ASSERT_TRUE(p.written);
        EXPECT_TRUE(p.stale_loads.empty()) << "g_out[" << i << "]: " << describe(r.summary.trace, p);
        EXPECT_EQ(p.racing_writer_count, 0u);
    }
}

} // namespace
} // namespace synclab
