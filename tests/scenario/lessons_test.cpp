// Lessons from folders on disk (scenario::load_lesson / load_lessons): the data-only test lesson in
// tests/scenario/data/lessons/smem_reverse, built with no C++ of its own, and the errors for folders
// that are not lessons. Its verdicts run in tests/verdict with the built-in lessons'.
#include "compile/compile.h"
#include "scenario/scenario.h"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace synclab::scenario {
namespace {

namespace fs = std::filesystem;

const fs::path kLessons = fs::path(SYNCLAB_SOURCE_DIR) / "tests/scenario/data/lessons";

std::vector<int32_t> ints(const launch::Buffer& b) {
    std::vector<int32_t> v(b.bytes.size() / 4);
    std::memcpy(v.data(), b.bytes.data(), b.bytes.size());
    return v;
}

// A scratch folder with copies of the test lesson, removed afterwards.
class Scratch {
  public:
    Scratch()
        : dir_(fs::temp_directory_path() /
               ("synclab-lessons-" + std::to_string(getpid()) + "-" + std::to_string(counter_++))) {
        fs::remove_all(dir_);
        fs::create_directories(dir_);
    }
    ~Scratch() {
        std::error_code ec;
        fs::remove_all(dir_, ec);
    }
    const fs::path& dir() const { return dir_; }
    fs::path copy_lesson(const std::string& as) const {
        const fs::path to = dir_ / as;
        fs::copy(kLessons / "smem_reverse", to, fs::copy_options::recursive);
        return to;
    }
    static void replace_in(const fs::path& file, const std::string& from, const std::string& to) {
        std::ifstream in(file);
        std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        const size_t at = text.find(from);
        ASSERT_NE(at, std::string::npos) << from;
        text.replace(at, from.size(), to);
        std::ofstream(file, std::ios::trunc) << text;
    }

  private:
    static inline int counter_ = 0;
    fs::path dir_;
};

std::string load_error(const fs::path& folder) {
    try {
        load_lesson(folder);
    } catch (const LessonError& e) {
        return e.what();
    }
    return "";
}

TEST(Lessons, DataOnlyLessonLoads) {
    const Scenario s = load_lesson(kLessons / "smem_reverse");
    EXPECT_EQ(s.id, "smem_reverse");
    EXPECT_EQ(s.topic, "barriers");
    EXPECT_EQ(s.source_file, "smem_reverse.cu");
    EXPECT_EQ(s.lesson_file, (kLessons / "smem_reverse" / "lesson.toml").string());
    EXPECT_EQ(s.launch.grid, (trace::Dim3{5, 1, 1}));
    EXPECT_EQ(s.launch.block, (trace::Dim3{96, 1, 1}));
    EXPECT_EQ(s.launch.dynamic_shared_bytes, 384u);
    EXPECT_EQ(s.reference_variant, "correct");
    EXPECT_TRUE(s.reference.empty());
    EXPECT_FALSE(s.check) << "an rr reference is computed by the runner";
    ASSERT_EQ(s.buffers.size(), 2u);
    EXPECT_EQ(s.buffers[0].name, "g_in");
    EXPECT_FALSE(s.buffers[0].output);
    EXPECT_TRUE(s.buffers[1].output);
    EXPECT_EQ(launch::to_string(s.buffers[0].spec), "buf:i32:480:random=1..1000000");
    ASSERT_EQ(s.args.size(), 2u);
    EXPECT_EQ(s.args[1].kind, launch::KernelArg::Kind::Buffer);
    EXPECT_EQ(s.args[1].buffer, 1u);

    ASSERT_EQ(s.variants.size(), 2u);
    EXPECT_EQ(s.variants[0].kernel, "smem_reverse_correct");
    EXPECT_TRUE(s.variants[0].expect.always_correct());
    EXPECT_EQ(s.variants[1].expect.must_find,
              std::vector<analysis::FindingKind>{analysis::FindingKind::Race});
    EXPECT_TRUE(s.variants[1].expect.wrong_outputs_possible());
    EXPECT_EQ(s.en.title, "Reversing a tile through shared memory");
    EXPECT_EQ(s.zh.title, "借助共享内存把一段数据倒过来");
    EXPECT_EQ(s.variants[1].zh.title, "missing_barrier：屏障不见了");
    EXPECT_TRUE(s.variants[1].en.fix.empty()) << "the variant keeps the lesson's fix";

    EXPECT_NE(s.cuda_source().find("smem_reverse_missing_barrier"), std::string_view::npos);
    ASSERT_NE(s.module, nullptr);
    EXPECT_NE(s.ptx_module().find_entry("smem_reverse_correct"), nullptr);
}

TEST(Lessons, InputsComeFromTheBufferSpecs) {
    const Scenario s = load_lesson(kLessons / "smem_reverse");
    const Inputs a = s.make_inputs(3), b = s.make_inputs(3), c = s.make_inputs(4);
    ASSERT_EQ(a.buffers.size(), 2u);
    EXPECT_EQ(a.buffers[0].name, "g_in");
    EXPECT_EQ(a.buffers[0].bytes, b.buffers[0].bytes);
    EXPECT_NE(a.buffers[0].bytes, c.buffers[0].bytes);
    for (int32_t v : ints(a.buffers[0]))
        ASSERT_TRUE(v >= 1 && v <= 1000000) << v;
    for (int32_t v : ints(a.buffers[1]))
        ASSERT_EQ(v, 0);
    // The same as `synclab check --arg buf:i32:480:random=1..1000000 --arg buf:i32:480 --seed 3`.
    uint64_t rng = launch::buffer_rng_seed(3);
    EXPECT_EQ(launch::make_buffer(launch::parse_buffer_spec("buf:i32:480:random=1..1000000"), "x", rng).bytes,
              a.buffers[0].bytes);
}

TEST(Lessons, CompareOutputsCountsExactlyTheWrongOnes) {
    const Scenario s = load_lesson(kLessons / "smem_reverse");
    const Inputs in = s.make_inputs(1);
    std::vector<launch::Buffer> expected = in.buffers;
    expected[1] = in.buffers[0]; // any reference values will do
    CheckResult r = compare_outputs(s, expected, expected, "the test's values");
    EXPECT_EQ(r.wrong, 0u);
    EXPECT_EQ(r.checked, 480u) << "g_out only: g_in is no output";
    EXPECT_EQ(r.summary, "all 480 outputs match the test's values");
    std::vector<launch::Buffer> after = expected;
    std::vector<int32_t> out = ints(after[1]);
    const int32_t want = out[7];
    out[7] = -5;
    out[300] += 1;
    std::memcpy(after[1].bytes.data(), out.data(), after[1].bytes.size());
    r = compare_outputs(s, expected, after, "the test's values");
    EXPECT_EQ(r.wrong, 2u);
    EXPECT_EQ(r.summary, "2 of 480 outputs wrong; first: g_out[7] = -5, expected " + std::to_string(want));
    after[1].bytes.resize(40);
    EXPECT_EQ(compare_outputs(s, expected, after, "x").wrong, 1u + 470u)
        << "g_out[7], and the short buffer's tail";
    EXPECT_EQ(compare_outputs(s, expected, {}, "x").wrong, 480u) << "no buffers back: all wrong";
}

TEST(Lessons, LoadLessonsFollowsTheListFile) {
    const std::vector<Scenario> all = load_lessons(kLessons);
    ASSERT_EQ(all.size(), 1u);
    EXPECT_EQ(all[0].id, "smem_reverse");
}

TEST(Lessons, LoadLessonsWithoutAListTakesEveryLessonFolderByName) {
    Scratch scratch;
    scratch.copy_lesson("b_second");
    scratch.copy_lesson("a_first");
    fs::create_directories(scratch.dir() / "not_a_lesson");
    Scratch::replace_in(scratch.dir() / "b_second" / "lesson.toml", "id = \"smem_reverse\"",
                        "id = \"b_second\"");
    Scratch::replace_in(scratch.dir() / "a_first" / "lesson.toml", "id = \"smem_reverse\"",
                        "id = \"a_first\"");
    const std::vector<Scenario> all = load_lessons(scratch.dir());
    ASSERT_EQ(all.size(), 2u);
    EXPECT_EQ(all[0].id, "a_first");
    EXPECT_EQ(all[1].id, "b_second");
    // With a list, only what it names, in its order; a listed folder that is missing is an error.
    std::ofstream(scratch.dir() / "LESSONS") << "b_second\n";
    ASSERT_EQ(load_lessons(scratch.dir()).size(), 1u);
    std::ofstream(scratch.dir() / "LESSONS") << "b_second\nmissing_one\n";
    try {
        load_lessons(scratch.dir());
        FAIL() << "no error for a listed folder that is not there";
    } catch (const LessonError& e) {
        EXPECT_NE(std::string(e.what()).find("missing_one: not a lesson folder"), std::string::npos)
            << e.what();
    }
}

TEST(Lessons, FolderErrors) {
    Scratch scratch;
    EXPECT_NE(load_error(scratch.dir() / "nope").find("nope: not a lesson folder"), std::string::npos);
    try {
        load_lessons(scratch.dir());
        FAIL() << "an empty folder of lessons";
    } catch (const LessonError& e) {
        EXPECT_NE(std::string(e.what()).find(": no lessons here"), std::string::npos) << e.what();
    }

    const fs::path no_text = scratch.copy_lesson("no_text");
    fs::remove(no_text / "zh.md");
    EXPECT_EQ(load_error(no_text), (no_text / "zh.md").string() +
                                       ": missing: the lesson's Chinese text (see assets/lessons/README.md)");

    // The folder's name is the lesson's id.
    const fs::path renamed = scratch.copy_lesson("other_name");
    EXPECT_NE(load_error(renamed).find("id 'smem_reverse' differs from the lesson's folder 'other_name'"),
              std::string::npos);

    // A source that is not there.
    const fs::path wrong_source = scratch.copy_lesson("wrong_source");
    Scratch::replace_in(wrong_source / "lesson.toml", "id = \"smem_reverse\"", "id = \"wrong_source\"");
    Scratch::replace_in(wrong_source / "lesson.toml", "source = \"smem_reverse.cu\"",
                        "source = \"other.cu\"");
    EXPECT_NE(load_error(wrong_source).find("lesson.toml:4: source 'other.cu': no such file in "),
              std::string::npos)
        << load_error(wrong_source);
}

// A .cu without its .ptx is compiled when the lesson loads (nvcc, else NVRTC), and gives the same
// kernels as the committed PTX.
TEST(Lessons, ACuWithoutItsPtxIsCompiledOnLoad) {
    if (!compile::find_nvcc() && !compile::nvrtc_available()) GTEST_SKIP() << "no nvcc or NVRTC here";
    Scratch scratch;
    const fs::path folder = scratch.copy_lesson("smem_reverse");
    fs::remove(folder / "smem_reverse.ptx");
    const Scenario s = load_lesson(folder);
    EXPECT_NE(s.ptx_source().find(".entry smem_reverse_correct"), std::string_view::npos);
    EXPECT_NE(s.ptx_source().find(".entry smem_reverse_missing_barrier"), std::string_view::npos);
}

// Without a compiler, the error says what is missing and how to make the .ptx. (NVRTC is looked
// up once per process: a fresh one, with neither found.)
TEST(Lessons, ACuWithoutItsPtxAndNoCompilerSaysWhatToDo) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_EXIT(
        {
            setenv("SYNCLAB_NVCC", "none", 1);
            setenv("SYNCLAB_NVRTC", "/nonexistent/libnvrtc.so", 1);
            Scratch scratch;
            const fs::path no_ptx = scratch.copy_lesson("smem_reverse");
            fs::remove(no_ptx / "smem_reverse.ptx");
            const std::string e = load_error(no_ptx);
            std::fprintf(stderr, "%s\n", e.c_str());
            const bool says = e.rfind((no_ptx / "lesson.toml").string() +
                                          ":4: source 'smem_reverse.cu': no smem_reverse.ptx beside it, and "
                                          "compiling it failed",
                                      0) == 0 &&
                              e.find("nvcc -ptx -lineinfo") != std::string::npos;
            std::exit(says ? 0 : 1);
        },
        testing::ExitedWithCode(0), "compiling it failed");
}

TEST(Lessons, PtxOnlyLessonAndTrailingSlash) {
    Scratch scratch;
    const fs::path folder = scratch.copy_lesson("smem_reverse");
    fs::remove(folder / "smem_reverse.cu");
    Scratch::replace_in(folder / "lesson.toml", "source = \"smem_reverse.cu\"",
                        "source = \"smem_reverse.ptx\"");
    const Scenario s = load_lesson(folder.string() + "/");
    EXPECT_EQ(s.id, "smem_reverse");
    EXPECT_TRUE(s.cuda_source().empty());
    EXPECT_NE(s.ptx_source().find(".entry smem_reverse_correct"), std::string_view::npos);
}

} // namespace
} // namespace synclab::scenario
