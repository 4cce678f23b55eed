// `synclab check` and `run` as a script or CI job uses them: arguments bound to the right kind of
// parameter before anything runs, --cooperative for a kernel with grid.sync(), and --error-exitcode
// N (compute-sanitizer's option) when a bug was found.
#include "cli_util.h"
#include <gtest/gtest.h>

#include <string>

namespace {

using namespace synclab::testing::cli;

// [SECTION] Pointers and scalars

// A C++ kernel's signature says which parameters are pointers: a number for `const float* in` is
// refused before running, naming the argument, the parameter as the source declares it (the .cu
// beside the .ptx) and a buffer to give.
TEST(CliCheckArgs, ANumberForAPointerOfACppKernelIsRefusedBeforeRunning) {
    const Output o = run("check " + data("check_options.ptx") +
                         " --kernel copy_n --grid 1 --block 32 --arg 5 --arg buf:f32:32 --arg 32");
    EXPECT_EQ(o.code, 2) << o.out;
    EXPECT_TRUE(contains(o.out, "--arg #1 (float const* in) is a pointer, "
                                "but '5' is a number: bind a buffer, e.g. buf:f32:1024"))
        << o.out;
    EXPECT_FALSE(contains(o.out, "status:")) << "nothing may run: " << o.out;
}

// ... and a buffer for its 64-bit scalar `size_t n`, which the PTX alone cannot tell from a pointer.
TEST(CliCheckArgs, ABufferForA64BitScalarOfACppKernelIsRefused) {
    const Output o = run("check " + data("check_options.ptx") +
                         " --kernel copy_n --grid 1 --block 32 --arg buf:f32:32 --arg buf:f32:32 --arg buf:u64:1");
    EXPECT_EQ(o.code, 2) << o.out;
    EXPECT_TRUE(contains(o.out, "--arg #3 (unsigned long n) is a scalar, "
                                "not a pointer: give a number"))
        << o.out;
}

// extern "C" has no signature: the PTX's use of the parameter as an address makes it a pointer.
TEST(CliCheckArgs, ANumberForAPointerOfAnExternCKernelIsFoundFromThePtx) {
    Output o = run("check " + data("check_options.ptx") +
                   " --kernel copy_c --grid 1 --block 32 --arg buf:f32:32 --arg 5 --arg 32");
    EXPECT_EQ(o.code, 2) << o.out;
    EXPECT_TRUE(contains(o.out, "--arg #2 (parameter out) is a pointer, but '5' is a number"))
        << o.out;
    // Its 64-bit count stays a number the PTX cannot judge: the right binding runs.
    o = run("check " + data("check_options.ptx") +
            " --kernel copy_c --grid 1 --block 32 --arg buf:f32:32:iota --arg buf:f32:32 --arg 32 --dump arg1");
    EXPECT_EQ(o.code, 0) << o.out;
    EXPECT_TRUE(contains(o.out, "[0] 0 1 2 3 4 5 6 7")) << o.out;
}

// The case: a plain number for a pointer of a kernel the user wrote (reverse_no_sync's in).
TEST(CliCheckArgs, ThePlainNumberThatEndedInAMisalignedAccessIsNowAUsageError) {
    const Output o = run("check " + data("user_kernels.ptx") +
                         " --kernel reverse_no_sync --grid 1 --block 32 --arg 5 --arg buf:i32:32");
    EXPECT_EQ(o.code, 2) << o.out;
    EXPECT_TRUE(contains(o.out, "is a pointer, but '5' is a number")) << o.out;
}

// [SECTION] --cooperative

std::string grid_sync(const std::string& grid) {
    return "check " + std::string(SYNCLAB_SOURCE_DIR) +
           "/assets/ptx/grid_sync.ptx --kernel grid_sync_cooperative_launch --grid " + grid +
           " --block 256 --arg buf:f32:16384:iota --arg buf:f32:16384 --arg buf:f32:16384 --arg 16384 "
           "--arg buf:u32:1";
}

TEST(CliCheckCooperative, GridSyncRunsOnlyInACooperativeLaunch) {
    // A normal launch: cooperative groups' own check traps, and the message says how to launch it.
    Output o = run(grid_sync("64") + " --json");
    EXPECT_EQ(o.code, 0) << o.out;
    EXPECT_TRUE(contains(o.out, "\"status\": \"error\"")) << o.out;
    EXPECT_TRUE(contains(o.out, "synclab check --cooperative")) << o.out;
    // Cooperative: every block resident, grid.sync() works, no finding.
    o = run(grid_sync("64") + " --cooperative --error-exitcode 9");
    EXPECT_EQ(o.code, 0) << o.out;
    EXPECT_TRUE(contains(o.out, "status:   ok")) << o.out;
    EXPECT_TRUE(contains(o.out, "findings: none")) << o.out;
}

TEST(CliCheckCooperative, TooManyBlocksAreRefusedAsTheLessonsAre) {
    const Output o = run(grid_sync("4224") + " --cooperative");
    EXPECT_EQ(o.code, 0) << o.out;
    EXPECT_TRUE(contains(o.out, "refused")) << o.out;
    EXPECT_TRUE(contains(o.out, "too many blocks in cooperative launch")) << o.out;
}

// [SECTION] --error-exitcode

TEST(CliErrorExitcode, CheckExitsWithNOnlyWhenABugWasFound) {
    const std::string base = "check " + data("user_kernels.ptx") +
                             " --grid 2 --block 128 --arg buf:i32:256:iota --arg buf:i32:256 --error-exitcode 7";
    EXPECT_EQ(run(base + " --kernel reverse_no_sync --schedule adversarial").code, 7);
    EXPECT_EQ(run(base + " --kernel reverse_sync --schedule adversarial").code, 0);
    // --json too: the document is printed and the code still says it.
    const Output o = run(base + " --kernel reverse_no_sync --schedule adversarial --json");
    EXPECT_EQ(o.code, 7);
    EXPECT_TRUE(contains(o.out, "\"findings\"")) << o.out;
}

TEST(CliErrorExitcode, RunCountsWrongOutputsAndHangsButNotContention) {
    EXPECT_EQ(run("run stencil --variant missing_barrier --error-exitcode 5").code, 5);
    EXPECT_EQ(run("run stencil --variant correct --error-exitcode 5").code, 0);
    // A hang: the deadlock finding, and the run did not complete.
    EXPECT_EQ(run("run divergent_barrier --variant half_block --error-exitcode 5").code, 5);
    // Contention is a performance finding, not a bug: a right sum with it exits 0.
    const Output o = run("run atomic_counter --variant per_thread_atomics --param threads=2048 --error-exitcode 5");
    EXPECT_TRUE(contains(o.out, "contention")) << o.out;
    EXPECT_EQ(o.code, 0) << o.out;
}

TEST(CliErrorExitcode, ABadValueIsAUsageErrorBeforeRunning) {
    for (const char* bad : {"0", "256", "x", "-1"}) {
        const Output o = run(std::string("run stencil --variant missing_barrier --error-exitcode ") + bad);
        EXPECT_EQ(o.code, 2) << bad << ": " << o.out;
        EXPECT_TRUE(contains(o.out, "--error-exitcode")) << o.out;
        EXPECT_FALSE(contains(o.out, "status:")) << o.out;
    }
}

} // namespace
