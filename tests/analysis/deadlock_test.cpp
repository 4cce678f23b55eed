// find_deadlock: one summary finding from RunMeta::status and the thread table.
#include "analysis/findings.h"
#include "trace_builder.h"

#include <gtest/gtest.h>

namespace synclab::analysis {
namespace {

using testing::dump;
using testing::TraceBuilder;
using trace::ThreadEnd;
using V = std::vector<uint32_t>;

// Verdict: status Deadlock, threads 0-127 wait at line 12, 128-255 exited -> one finding, count 128.
TEST(analysis_deadlock, FindingFromStatusAndThreadTable) {
    TraceBuilder b(1, 256);
    const uint16_t sync = b.site(12);
    for (uint32_t t = 0; t < 128; ++t)
        b.end(t, ThreadEnd::AtBarrier, sync);
    for (uint32_t t = 128; t < 256; ++t)
        b.end(t, ThreadEnd::Exited, 0);
    b.status(trace::RunStatus::Deadlock);
    const auto found = find_deadlock(b.trace());
    ASSERT_EQ(found.size(), 1u) << dump(found);
    const Finding& f = found[0];
    EXPECT_EQ(f.kind, FindingKind::Deadlock);
    EXPECT_EQ(f.lines, (V{12}));
    EXPECT_EQ(f.sites, (V{sync}));
    EXPECT_EQ(f.threads, (V{0}));
    EXPECT_EQ(f.count, 128u);
    EXPECT_EQ(f.block, 0u);
    EXPECT_EQ(f.message,
              "run ended in deadlock: block 0: threads 0-127 wait at line 12, threads 128-255 exited "
              "(128 waiting threads)");
}

// Threads waiting at two barrier instructions of one CUDA line (an unrolled loop) are told apart by
// their PTX lines; a group alone at its line keeps the short form.
TEST(analysis_deadlock, GroupsAtOneLineButDifferentInstructionsNameThePtxLine) {
    TraceBuilder b(1, 64);
    const uint16_t first = b.site(139, 456), second = b.site(139, 466), other = b.site(150, 500);
    for (uint32_t t = 0; t < 64; ++t)
        b.end(t, ThreadEnd::AtBarrier, t < 30 ? first : t < 60 ? second : other);
    b.status(trace::RunStatus::Deadlock);
    const auto found = find_deadlock(b.trace());
    ASSERT_EQ(found.size(), 1u) << dump(found);
    EXPECT_EQ(found[0].message,
              "run ended in deadlock: block 0: threads 0-29 wait at line 139 (PTX line 456), threads 30-59 wait "
              "at line 139 (PTX line 466), threads 60-63 wait at line 150 (64 waiting threads)");
}

// Verdict: blocks with the same picture are merged; lines sorted; every waiting thread counted.
TEST(analysis_deadlock, BlocksWithTheSamePictureMerged) {
    TraceBuilder b(4, 64);
    const uint16_t late = b.site(15), early = b.site(12);
    for (uint32_t block = 0; block < 4; ++block) {
        for (uint32_t t = 0; t < 64; ++t) {
            if (block == 3) {
                b.end(b.thread(block, t), ThreadEnd::Exited, 0);
            } else {
                b.end(b.thread(block, t), ThreadEnd::AtBarrier, t < 32 ? early : late);
            }
        }
    }
    b.status(trace::RunStatus::Deadlock);
    const auto found = find_deadlock(b.trace());
    ASSERT_EQ(found.size(), 1u) << dump(found);
    EXPECT_EQ(found[0].lines, (V{12, 15}));
    EXPECT_EQ(found[0].threads, (V{0, 32}));
    EXPECT_EQ(found[0].count, 192u);
    EXPECT_EQ(
        found[0].message,
        "run ended in deadlock: blocks 0-2: threads 0-31 wait at line 12, threads 32-63 wait at line 15 "
        "(192 waiting threads)");
}

// Verdict: a timeout with nobody at a barrier still summarises where threads were running.
TEST(analysis_deadlock, TimeoutWithSpinningThreads) {
    TraceBuilder b(1, 32);
    const uint16_t spin = b.site(20);
    b.end(0, ThreadEnd::Running, spin);
    for (uint32_t t = 1; t < 32; ++t)
        b.end(t, ThreadEnd::Exited, 0);
    b.status(trace::RunStatus::Timeout);
    const auto found = find_deadlock(b.trace());
    ASSERT_EQ(found.size(), 1u) << dump(found);
    EXPECT_EQ(found[0].lines, (V{20}));
    EXPECT_EQ(found[0].count, 1u);
    EXPECT_EQ(found[0].message,
              "run timed out: block 0: thread 0 was still running at line 20, threads 1-31 exited");
}

// Verdict: status Ok (or Budget) -> nothing, whatever the thread table says.
TEST(analysis_deadlock, NothingWhenTheRunDidNotHang) {
    TraceBuilder b(1, 32);
    const uint16_t sync = b.site(12);
    b.end(0, ThreadEnd::AtBarrier, sync);
    for (auto status : {trace::RunStatus::Ok, trace::RunStatus::Budget, trace::RunStatus::Cancelled}) {
        b.status(status);
        const auto found = find_deadlock(b.trace());
        EXPECT_TRUE(found.empty()) << "status " << int(status) << ": " << dump(found);
    }
}

} // namespace
} // namespace synclab::analysis
