// The app's run orchestration without a window (ui/model/run_director.h): real simulator runs of the
// stencil lesson through the RunController's worker thread, and what they make of the AppState.
#include "ui/model/lesson_library.h"
#include "ui/model/run_director.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <thread>

namespace synclab::ui {
namespace {

const scenario::Scenario& stencil() {
    const scenario::Scenario* s = lessons().find("stencil");
    EXPECT_NE(s, nullptr);
    return *s;
}

const scenario::Variant& variant(const char* id) {
    const scenario::Variant* v = stencil().find_variant(id);
    EXPECT_NE(v, nullptr) << id;
    return *v;
}

// Polls until the director's jobs are done (a frame loop would), or fails after 60 s.
void finish(RunDirector& director) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    do {
        director.poll();
        if (!director.busy()) {
            director.poll(); // what finished with the last batch
            return;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    } while (std::chrono::steady_clock::now() < until);
    FAIL() << "the runs did not finish in 60 s";
}

void select(AppState& state, RunDirector& director, const char* variant_id) {
    state.scenario = &stencil();
    state.variant = &variant(variant_id);
    director.follow_selection();
}

TEST(RunDirector, ARunOfTheSelectedVariantBecomesCurrentWithItsBadgeAndItsFirstFindingFocused) {
    AppState state;
    RunDirector director(state);
    select(state, director, "missing_barrier");
    director.start_run(false);
    EXPECT_TRUE(director.busy());
    finish(director);
    ASSERT_NE(state.current, nullptr);
    EXPECT_EQ(state.current->scenario_id, "stencil");
    EXPECT_EQ(state.current->variant_id, "missing_barrier");
    EXPECT_FALSE(state.current->summary.findings.empty()); // the race the lesson is about
    EXPECT_EQ(state.requests.focus_finding, 0);             // opened at its most harmful finding
    EXPECT_TRUE(state.badges.count("stencil/missing_barrier"));
    EXPECT_EQ(director.jobs_finished(), 1u);
    EXPECT_TRUE(director.last_job_error().empty());
    EXPECT_NE(state.status.find(state.current->label), std::string::npos) << state.status;
}

TEST(RunDirector, GoingBackToAVariantShowsItsLastRunAndAnotherLessonResetsTheLessonsControls) {
    AppState state;
    RunDirector director(state);
    select(state, director, "missing_barrier");
    director.start_run(false);
    finish(director);
    const std::shared_ptr<const RunRecord> racy = state.current;
    ASSERT_NE(racy, nullptr);

    select(state, director, "correct");
    EXPECT_EQ(state.current, nullptr); // not run yet
    select(state, director, "missing_barrier");
    EXPECT_EQ(state.current, racy);

    state.controls.max_steps = 1000;
    state.scenario = lessons().all().back() == &stencil() ? lessons().all().front() : lessons().all().back();
    state.variant = &state.scenario->variants.front();
    director.follow_selection();
    EXPECT_FALSE(state.controls.max_steps.has_value());
    EXPECT_EQ(state.current, nullptr);
}

TEST(RunDirector, TheComparePairIsTheCorrectVariantBesideAnotherEvenWhenTheCorrectOneIsSelected) {
    AppState state;
    RunDirector director(state);
    select(state, director, "correct");
    director.start_run(true);
    finish(director);
    ASSERT_NE(state.compare_left, nullptr);
    ASSERT_NE(state.compare_right, nullptr);
    EXPECT_EQ(state.compare_left->variant_id, "correct");
    EXPECT_NE(state.compare_right->variant_id, "correct"); // comparing a variant with itself teaches nothing
    EXPECT_EQ(director.jobs_finished(), 2u);
}

TEST(RunDirector, AGpuThatIsNotThereSendsTheRunToTheSimulatorAndSaysWhy) {
    AppState state;
    RunDirector director(state);
    select(state, director, "correct");
    state.controls.backend = "gpu";
    director.mark_gpu_unavailable("no NVIDIA driver (libcuda.so.1 not found)");
    EXPECT_EQ(state.controls.backend, "sim");
    EXPECT_FALSE(state.gpu.available);
    EXPECT_FALSE(state.status.empty());
    const std::string note = state.status;
    director.start_run(false);
    finish(director);
    ASSERT_NE(state.current, nullptr);
    EXPECT_EQ(state.current->options.backend, "sim");
    // The reason is still there beside the result, which replaced the rest of the status line.
    EXPECT_EQ(state.status.rfind(note, 0), 0u) << state.status;
}

TEST(RunDirector, ADamagedTraceFileIsAnErrorNamedAndNothingIsReplaced) {
    AppState state;
    RunDirector director(state);
    const std::filesystem::path path = std::filesystem::temp_directory_path() / "synclab_director_missing.slt";
    std::filesystem::remove(path);
    director.open_trace(path.string());
    finish(director);
    EXPECT_FALSE(director.last_job_error().empty());
    EXPECT_EQ(state.error, director.last_job_error());
    EXPECT_EQ(state.current, nullptr);

    director.save_trace(path.string()); // nothing to save yet
    EXPECT_FALSE(state.error.empty());
    EXPECT_FALSE(std::filesystem::exists(path));
}

TEST(RunDirector, ASavedTraceOpensAgainAsTheVariantItIsOf) {
    AppState state;
    RunDirector director(state);
    select(state, director, "missing_barrier");
    director.start_run(false);
    finish(director);
    ASSERT_NE(state.current, nullptr);
    const std::filesystem::path path = std::filesystem::temp_directory_path() / "synclab_director_saved.slt";
    director.save_trace(path.string());
    ASSERT_TRUE(std::filesystem::exists(path)) << state.error;

    select(state, director, "correct");
    director.open_trace(path.string());
    finish(director);
    ASSERT_NE(state.current, nullptr);
    EXPECT_EQ(state.variant, &variant("missing_barrier")); // the trace selects what it is of
    EXPECT_TRUE(director.last_job_error().empty()) << director.last_job_error();
    EXPECT_FALSE(state.current->summary.findings.empty()); // the race, found again in the file's events
    director.follow_selection(); // a loaded trace's selection is not a change that drops it
    EXPECT_NE(state.current, nullptr);
    std::filesystem::remove(path);
}

} // namespace
} // namespace synclab::ui
