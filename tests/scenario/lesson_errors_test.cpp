// Every kind of mistake in a lesson's files gets an error that names the file, the line and the field:
// each case below breaks one thing in the data-only test lesson (tests/scenario/data/lessons/
// smem_reverse) and states the error it must give.
#include "scenario/lesson.h"
#include "scenario/lesson_files.h"
#include "scenario/scenario.h"

#include <gtest/gtest.h>

#include <string>

namespace synclab::scenario {
namespace {

using test::error_of;
using test::expect_error;
using test::line_of;
using test::sources;
using test::with;

const std::string kDir = "tests/scenario/data/lessons/smem_reverse/";

// The test lesson's files, to be broken one at a time.
struct Files : test::LessonFiles {
    Files()
        : LessonFiles("smem_reverse", kDir, "smem_reverse.cu", kDir + "smem_reverse.cu", "smem_reverse.ptx",
                      kDir + "smem_reverse.ptx") {}
};

TEST(LessonErrors, TheTestLessonItselfIsFine) {
    EXPECT_EQ(error_of(Files{}), "");
}

TEST(LessonErrors, Syntax) {
    Files f;
    f.toml = with(f.toml, "grid = 5", "grid = 5 6");
    expect_error(f, "lesson.toml:5: unexpected text '6' after the value");
}

TEST(LessonErrors, UnknownKeyAndTable) {
    Files f;
    f.toml = with(f.toml, "grid = 5", "gird = 5");
    expect_error(f, "lesson.toml:5: unknown key 'gird' (keys: id, topic, source, grid, block, shared_bytes, "
                    "reference, args, outputs, memory, max_steps, cooperative)");
    Files g;
    g.toml = with(g.toml, "wrong_outputs = \"possible\"", "wrong_outputs = \"possible\"\nmust_finds = []");
    expect_error(g, "lesson.toml:26: variant 'missing_barrier': unknown key 'must_finds' (keys: kernel, "
                    "must_find, must_not_find, wrong_outputs, status, forbidden_outcomes, forbidden_because, grid, "
                    "cooperative)");
    Files h;
    h.toml = with(h.toml, "[buffers]", "[buffer]");
    expect_error(h, "lesson.toml:12: unknown table [buffer] (tables: [buffers], [outcomes], [latency], [param.NAME], "
                    "[variant.ID])");
    Files i;
    i.toml = with(i.toml, "[variant.correct]", "[variant.correct.x]");
    expect_error(i, "lesson.toml:16: a variant's table is [variant.ID], got [variant.correct.x]");
    Files j;
    j.toml = with(j.toml, "[variant.correct]", "[variant.Correct]");
    expect_error(j, "lesson.toml:16: variant id 'Correct' must be lower-case letters, digits and _");
}

TEST(LessonErrors, MissingKeyOrTable) {
    Files f;
    f.toml = with(f.toml, "topic = \"barriers\"\n", "");
    expect_error(f, "lesson.toml: missing key 'topic' (barriers, warps, fences or atomics)");
    Files g;
    g.toml = with(g.toml, "wrong_outputs = \"possible\"", "");
    expect_error(g,
                 "lesson.toml:21: variant 'missing_barrier': missing key 'wrong_outputs' (never, possible or "
                 "unchecked)");
    Files h;
    h.toml = with(h.toml, "kernel = \"smem_reverse_correct\"\n", "");
    expect_error(h, "lesson.toml:16: variant 'correct': missing key 'kernel'");
    Files i;
    i.toml = i.toml.substr(0, i.toml.find("[variant.correct]"));
    expect_error(i, "lesson.toml: no variant: add a [variant.ID] table");
}

TEST(LessonErrors, WrongType) {
    Files f;
    f.toml = with(f.toml, "topic = \"barriers\"", "topic = 3");
    expect_error(f, "lesson.toml:3: 'topic' must be a string, got an integer");
    Files g;
    g.toml = with(g.toml, "grid = 5", "grid = \"5\"");
    expect_error(g, "lesson.toml:5: 'grid' must be a whole number >= 1 or [X, Y, Z] of them (1 to 3)");
    Files h;
    h.toml = with(h.toml, "kernel = \"smem_reverse_correct\"", "kernel = [\"smem_reverse_correct\"]");
    expect_error(h, "lesson.toml:17: variant 'correct': 'kernel' must be a string, got an array");
    Files i;
    i.toml = with(i.toml, "must_find = [\"race\"]", "must_find = [\"race\", 2]");
    expect_error(i,
                 "lesson.toml:23: variant 'missing_barrier': 'must_find' holds strings, but element 2 is an "
                 "integer");
    Files j;
    j.toml = with(j.toml, "outputs = [\"g_out\"]", "outputs = \"g_out\"");
    expect_error(j, "lesson.toml:10: 'outputs' must be an array, got a string");
    Files k;
    k.toml = with(k.toml, "block = 96", "block = [32, 0]");
    expect_error(k, "lesson.toml:6: 'block' must be a whole number >= 1");
    Files l;
    l.toml = with(l.toml, "shared_bytes = 384", "shared_bytes = 300000");
    expect_error(l, "lesson.toml:7: shared_bytes must be 0 .. 232448");
    Files m;
    m.toml = with(m.toml, "g_out = \"buf:i32:480\"", "g_out = 480");
    expect_error(m,
                 "lesson.toml:14: buffer 'g_out' must be a string \"buf:TYPE:COUNT[:init]\", got an integer");
}

TEST(LessonErrors, UnknownFindingKindStatusOrOutputs) {
    Files f;
    f.toml = with(f.toml, "must_find = [\"race\"]", "must_find = [\"raze\"]");
    expect_error(f, "lesson.toml:23: variant 'missing_barrier': unknown finding kind 'raze' (race, "
                    "barrier_divergence, lost_update, deadlock, stale_read, contention, out_of_bounds)");
    Files g;
    g.toml = with(g.toml, "wrong_outputs = \"possible\"", "wrong_outputs = \"possible\"\nstatus = \"hang\"");
    expect_error(g, "lesson.toml:26: variant 'missing_barrier': unknown status 'hang' (ok, deadlock, budget, "
                    "error, timeout, cancelled)");
    Files h;
    h.toml = with(h.toml, "wrong_outputs = \"possible\"", "wrong_outputs = \"sometimes\"");
    expect_error(
        h, "lesson.toml:25: variant 'missing_barrier': unknown wrong_outputs 'sometimes' (never: always "
           "right;");
    Files i;
    i.toml = with(i.toml, "must_find = [\"race\"]", "must_find = [\"race\", \"race\"]");
    expect_error(i, "lesson.toml:23: variant 'missing_barrier': 'must_find' lists 'race' twice");
    Files j;
    j.toml = with(j.toml, "must_find = [\"race\"]", "must_find = [\"deadlock\"]");
    expect_error(
        j, "lesson.toml:24: variant 'missing_barrier': 'deadlock' is in both must_find and must_not_find");
}

TEST(LessonErrors, BufferSpecTheGrammarRejects) {
    Files f;
    f.toml = with(f.toml, "random=1..1000000", "random=1000000..1");
    expect_error(f, "lesson.toml:13: buffer 'g_in': random=LO..HI needs LO <= HI");
    Files g;
    g.toml = with(g.toml, "\"buf:i32:480\"", "\"buf:i33:480\"");
    expect_error(g, "lesson.toml:14: buffer 'g_out': unknown element type 'i33'");
    Files h;
    h.toml = with(h.toml, "g_out = ", "g-out = ");
    expect_error(h, "lesson.toml:14: buffer name 'g-out' must be letters, digits and _");
}

TEST(LessonErrors, ArgumentsAndOutputsMustNameBuffers) {
    Files f;
    f.toml = with(f.toml, "args = [\"g_in\", \"g_out\"]", "args = [\"g_in\", \"g_ot\"]");
    expect_error(f, "lesson.toml:9: args[1]: 'g_ot' names no buffer (buffers: g_in, g_out)");
    Files g;
    g.toml = with(g.toml, "outputs = [\"g_out\"]", "outputs = [\"g_result\"]");
    expect_error(g, "lesson.toml:10: outputs: 'g_result' names no buffer (buffers: g_in, g_out)");
    Files h;
    h.toml = with(h.toml, "g_out = \"buf:i32:480\"", "g_out = \"buf:i32:480\"\ng_tmp = \"buf:i32:4\"");
    expect_error(h, "lesson.toml:15: buffer 'g_tmp' is not passed to the kernel (args)");
    Files i;
    i.toml = with(i.toml, "args = [\"g_in\", \"g_out\"]", "args = [\"g_in\", \"g_out\", true]");
    expect_error(i, "lesson.toml:9: args[2]: an argument is a buffer name or a number, got true/false");
    Files j;
    j.toml = with(j.toml, "outputs = [\"g_out\"]", "outputs = []");
    expect_error(j, "lesson.toml:10: 'outputs' is empty");
}

TEST(LessonErrors, VariantKernelThePtxDoesNotHave) {
    Files f;
    f.toml = with(f.toml, "kernel = \"smem_reverse_correct\"", "kernel = \"smem_reverse_corect\"");
    expect_error(f, "lesson.toml:17: variant 'correct': no kernel 'smem_reverse_corect' in smem_reverse.ptx "
                    "(kernels: smem_reverse_correct, smem_reverse_missing_barrier;");
    Files g;
    g.toml = with(g.toml, "args = [\"g_in\", \"g_out\"]", "args = [\"g_in\", \"g_out\", 7]");
    expect_error(
        g, "lesson.toml:9: variant 'correct': kernel smem_reverse_correct takes 2 parameters, args has 3");
}

TEST(LessonErrors, PtxThatDoesNotParse) {
    Files f;
    f.ptx = with(f.ptx, "bar.sync \t0;", "bar.snyc \t0;");
    const std::string e = error_of(f);
    EXPECT_EQ(e.rfind("smem_reverse.ptx:" + std::to_string(line_of(f.ptx, "bar.snyc")) + ": ", 0), 0u) << e;
    EXPECT_NE(e.find("bar.snyc"), std::string::npos) << e;
}

TEST(LessonErrors, Reference) {
    Files f;
    f.toml = with(f.toml, "reference = \"rr:correct\"", "reference = \"rr:corect\"");
    expect_error(f, "lesson.toml:8: reference 'rr:corect': no variant 'corect' (variants: correct, "
                    "missing_barrier)");
    Files g;
    g.toml = with(g.toml, "reference = \"rr:correct\"", "reference = \"rr:missing_barrier\"");
    expect_error(g,
                 "lesson.toml:8: reference 'rr:missing_barrier': variant 'missing_barrier' is the reference, "
                 "so its wrong_outputs must be \"never\", not \"possible\"");
    Files h;
    h.toml = with(h.toml, "reference = \"rr:correct\"", "reference = \"stencl\"");
    expect_error(h, "lesson.toml:8: unknown reference 'stencl' (C++ references: stencil, divergent_barrier, "
                    "loop_barrier, lost_update, message_passing, last_block_reduction, atomic_counter, "
                    "histogram, cas_loop, atomic_ops, warp_reduce, warp_neighbour, syncthreads_predicates, grid_sync; or "
                    "\"rr:VARIANT\"");
    Files i;
    i.toml = with(i.toml, "reference = \"rr:correct\"", "reference = \"stencil\"");
    expect_error(i, "lesson.toml:8: reference 'stencil': needs a buffer 'g_in' of type f32");
    Files j; // the right buffers, but the outputs do not say what the reference checks
    j.toml = with(j.toml, "reference = \"rr:correct\"", "reference = \"divergent_barrier\"");
    j.toml = with(j.toml, "outputs = [\"g_out\"]", "outputs = [\"g_in\", \"g_out\"]");
    expect_error(j,
                 "lesson.toml:10: reference 'divergent_barrier': it checks g_out, so outputs must be exactly "
                 "that");
    Files k; // a tile-based reference with a 2-D block would compare against the wrong tiles
    k.toml = with(k.toml, "reference = \"rr:correct\"", "reference = \"divergent_barrier\"");
    k.toml = with(k.toml, "g_in = \"buf:i32:480:random=1..1000000\"", "g_in = \"buf:i32:480\"");
    k.toml = with(k.toml, "block = 96", "block = [32, 3]");
    expect_error(k,
                 "lesson.toml:8: reference 'divergent_barrier': the reference 'divergent_barrier' reads each "
                 "block's tile as blockDim.x elements: it needs a one-dimensional block, not 32x3x1");
}

TEST(LessonErrors, IdAndSource) {
    Files f;
    f.toml = with(f.toml, "id = \"smem_reverse\"", "id = \"smem\"");
    expect_error(f, "lesson.toml:2: id 'smem' differs from the lesson's folder 'smem_reverse'");
    Files g;
    g.toml = with(g.toml, "id = \"smem_reverse\"", "id = \"Smem\"");
    expect_error(g, "lesson.toml:2: id 'Smem' must be lower-case letters, digits and _");
    Files h;
    h.toml = with(h.toml, "source = \"smem_reverse.cu\"", "source = \"smem_reverse.c\"");
    expect_error(h, "lesson.toml:4: source 'smem_reverse.c' must be a file name ending in .cu or .ptx");
    Files i;
    i.toml = with(i.toml, "block = 96", "block = [32, 33]");
    expect_error(i, "lesson.toml:6: block 32x33x1 has more than 1024 threads; CUDA allows at most 1024");
    Files j; // a thread count that wraps to 0 in 64-bit arithmetic must not pass as small
    j.toml = with(j.toml, "block = 96", "block = [1073741824, 1073741824, 16]");
    expect_error(j,
                 "lesson.toml:6: block 1073741824x1073741824x16 has more than 1024 threads; CUDA allows at "
                 "most 1024");
    Files k;
    k.toml = with(k.toml, "block = 96", "block = [32, 1, 65]");
    expect_error(k, "lesson.toml:6: block 32x1x65 has more than 1024 threads; CUDA allows at most 1024");
    Files l;
    l.toml = with(l.toml, "block = 96", "block = [1, 1, 65]");
    expect_error(l, "lesson.toml:6: block 1x1x65: the block's z dimension is at most 64");
    Files m;
    m.toml = with(m.toml, "grid = 5", "grid = [1, 70000]");
    expect_error(m, "lesson.toml:5: grid 1x70000x1: the grid's y and z dimensions are at most 65535");
}

TEST(LessonErrors, TextSectionMissingInOneLanguage) {
    Files f; // an optional section in one language only
    f.zh = with(f.zh, "## The fix\n无需修改：这是参考版本。\n", "");
    expect_error(f, "zh.md:" + std::to_string(line_of(f.zh, "# Variant correct")) +
                        ": variant 'correct': section '## The fix' is missing (en.md has it, line " +
                        std::to_string(line_of(Files{}.en, "## The fix\nNothing")) + ")");
    Files g; // and the other way round
    g.en = with(g.en, "## The fix\nNothing to fix: this is the reference version.\n", "");
    expect_error(g, "en.md:" + std::to_string(line_of(g.en, "# Variant correct")) +
                        ": variant 'correct': section '## The fix' is missing (zh.md has it");
    Files h; // a section every lesson needs
    h.zh = with(h.zh, "## Predict\n去掉屏障后，哪些输出可能出错？\n", "");
    expect_error(h, "zh.md:1: the lesson: section '## Predict' is missing");
    Files i; // a section every variant needs
    i.en = with(i.en, "## What to look at\n0 wrong outputs and no findings.\n", "");
    expect_error(i, "en.md:" + std::to_string(line_of(i.en, "# Variant correct")) +
                        ": variant 'correct': section '## What to look at' is missing");
}

TEST(LessonErrors, TextVariantMissingOrUnknown) {
    Files f;
    f.zh = f.zh.substr(0, f.zh.find("# Variant missing_barrier"));
    expect_error(f, "zh.md: variant 'missing_barrier': no '# Variant missing_barrier: title' (it is in "
                    "lesson.toml line 21)");
    Files g;
    g.en += "\n# Variant extra: not in the lesson file\n\n## What it shows\nx\n\n## What to look at\ny\n";
    expect_error(g, "en.md:" + std::to_string(line_of(g.en, "# Variant extra")) +
                        ": variant 'extra' is not in lesson.toml (variants: correct, missing_barrier)");
    Files h;
    h.en = with(h.en, "## The fix\nPut", "## Fix\nPut");
    expect_error(h, "en.md:" + std::to_string(line_of(h.en, "## Fix")) + ": unknown section '## Fix'");
}

// The same checks on the PTX's parameters, with a kernel that takes a scalar (kernels/stencil.cu).
TEST(LessonErrors, ScalarArgumentsAreTypedByThePtx) {
    const std::string stencil_toml =
        "id = \"t\"\ntopic = \"barriers\"\nsource = \"stencil.cu\"\ngrid = 2\n"
        "block = 256\nreference = \"rr:correct\"\n"
        "args = ARGS\noutputs = [\"g_out\"]\n"
        "[buffers]\ng_in = \"buf:f32:512\"\ng_out = \"buf:f32:512\"\n"
        "[variant.correct]\nkernel = \"stencil_correct\"\nwrong_outputs = \"never\"\n";
    const std::string en = "# T\n## What it shows\na\n## Predict\nb\n## What to look at\nc\n## The fix\nd\n"
                           "# Variant correct: c\n## What it shows\ne\n## What to look at\nf\n";
    auto attempt = [&](const std::string& args) -> std::string {
        LessonSources s;
        s.folder_id = "t";
        s.toml_name = "lesson.toml";
        s.en_name = "en.md";
        s.zh_name = "zh.md";
        s.toml_text = with(stencil_toml, "ARGS", args);
        s.en_text = en;
        s.zh_text = en;
        s.kernel = [](const std::string&, uint32_t) {
            return KernelFiles{"stencil.cu", test::read_source("kernels/stencil.cu"), "stencil.ptx",
                               test::read_source("assets/ptx/stencil.ptx")};
        };
        try {
            const Scenario sc = build_lesson(s);
            EXPECT_EQ(sc.args.size(), 3u);
            return "ok bits=" + std::to_string(sc.args.back().bits);
        } catch (const LessonError& e) {
            return e.what();
        }
    };
    EXPECT_EQ(attempt("[\"g_in\", \"g_out\", 512]"), "ok bits=512");
    EXPECT_EQ(attempt("[\"g_in\", \"g_out\", -1]"), "ok bits=4294967295") << "an int parameter holds 4 bytes";
    EXPECT_EQ(attempt("[\"g_in\", \"g_out\", 1.5]")
                  .rfind("lesson.toml:7: variant 'correct': args[2] (parameter "
                         "stencil_correct_param_2 of stencil_correct): an integer "
                         "parameter, got 1.5",
                         0),
              0u)
        << attempt("[\"g_in\", \"g_out\", 1.5]");
    EXPECT_NE(attempt("[\"g_in\", \"g_out\", 5000000000]").find("5000000000 does not fit a 4-byte parameter"),
              std::string::npos);
    EXPECT_NE(attempt("[\"g_in\", \"g_out\", \"g_in\"]")
                  .find("args[2] (parameter stencil_correct_param_2 of "
                        "stencil_correct): a buffer goes to a pointer, but "
                        "this is a 4-byte scalar"),
              std::string::npos);
}

// [SECTION] memory, [outcomes] and forbidden outcomes (the fence lessons' fields)

// The test lesson with an [outcomes] table on g_out (480 i32: records of `per` elements) before its
// variants, and `variant_extra` added to the missing_barrier variant.
Files with_outcomes(const std::string& outcomes, const std::string& variant_extra = "") {
    Files f;
    f.toml = with(f.toml, "[variant.correct]", "[outcomes]\n" + outcomes + "\n[variant.correct]");
    if (!variant_extra.empty())
        f.toml = with(f.toml, "wrong_outputs = \"possible\"", "wrong_outputs = \"possible\"\n" + variant_extra);
    return f;
}

const std::string kOutcomes = "buffer = \"g_out\"\nper = 2\nvalues = [\"1,1\", \"1,0\", \"-3,0\"]\n"
                              "en = [\"both\", \"stale\", \"negative\"]\nzh = [\"都看到\", \"旧值\", \"负数\"]";

TEST(LessonFields, MemoryDefaultsToScAndReadsRelaxed) {
    const Scenario plain = build_lesson(sources(Files{}));
    EXPECT_EQ(plain.memory, launch::MemoryModel::Sc);
    EXPECT_FALSE(plain.outcomes.present());
    Files f;
    f.toml = with(f.toml, "grid = 5", "memory = \"relaxed\"\ngrid = 5");
    EXPECT_EQ(build_lesson(sources(f)).memory, launch::MemoryModel::Relaxed);
    Files g;
    g.toml = with(g.toml, "grid = 5", "memory = \"sc\"\ngrid = 5");
    EXPECT_EQ(build_lesson(sources(g)).memory, launch::MemoryModel::Sc);
}

TEST(LessonFields, OutcomesAndForbiddenOutcomesAreRead) {
    const Files f = with_outcomes(kOutcomes, "forbidden_outcomes = [\"1,0\", \"-3,0\"]\n"
                                             "forbidden_because = \"a rule\"");
    const Scenario s = build_lesson(sources(f));
    EXPECT_EQ(s.outcomes.buffer, "g_out");
    EXPECT_EQ(s.outcomes.per, 2u);
    ASSERT_EQ(s.outcomes.classes.size(), 3u);
    EXPECT_EQ(s.outcomes.classes[1].value, "1,0");
    EXPECT_EQ(s.outcomes.classes[1].label_en, "stale");
    EXPECT_EQ(s.outcomes.classes[2].label_zh, "负数");
    const Variant& bad = *s.find_variant("missing_barrier");
    EXPECT_EQ(bad.forbidden_outcomes, (std::vector<std::string>{"1,0", "-3,0"}));
    EXPECT_EQ(bad.forbidden_because, "a rule");
    EXPECT_TRUE(s.find_variant("correct")->forbidden_outcomes.empty());
    EXPECT_TRUE(s.find_variant("correct")->forbidden_because.empty());
    // per left out: the whole buffer is one outcome, so a value names all 480 elements.
    std::string all = "0";
    for (int i = 1; i < 480; ++i)
        all += ",0";
    const Scenario whole = build_lesson(sources(with_outcomes(
        "buffer = \"g_out\"\nvalues = [\"" + all + "\"]\nen = [\"untouched\"]\nzh = [\"未写入\"]")));
    EXPECT_EQ(whole.outcomes.per, 0u);
    EXPECT_EQ(whole.outcomes.classes.at(0).value, all);
}

TEST(LessonErrors, Memory) {
    Files f;
    f.toml = with(f.toml, "grid = 5", "memory = \"weak\"\ngrid = 5");
    expect_error(f, "lesson.toml:5: unknown memory 'weak' (sc: sequentially consistent, the default; relaxed:");
    Files g;
    g.toml = with(g.toml, "grid = 5", "memory = 1\ngrid = 5");
    expect_error(g, "lesson.toml:5: 'memory' must be a string, got an integer");
}

TEST(LessonErrors, OutcomesTable) {
    const auto outcomes_line = [](const Files& f, const std::string& needle) {
        return std::to_string(line_of(f.toml, needle));
    };
    Files a = with_outcomes(with(kOutcomes, "buffer = \"g_out\"", "buffer = \"g_result\""));
    expect_error(a, "lesson.toml:" + outcomes_line(a, "buffer = ") +
                        ": [outcomes]: buffer 'g_result' names no buffer (buffers: g_in, g_out)");
    Files b = with_outcomes(with(kOutcomes, "buffer = \"g_out\"\n", ""));
    expect_error(b, "lesson.toml:" + outcomes_line(b, "[outcomes]") +
                        ": [outcomes]: missing key 'buffer' (the buffer whose final contents are the outcome)");
    Files c = with_outcomes(with(kOutcomes, "per = 2", "per = 7"));
    expect_error(c, "lesson.toml:" + outcomes_line(c, "per = 7") +
                        ": [outcomes]: per must be 0 (the whole buffer) or divide the 480 elements of 'g_out' "
                        "into records, got 7");
    Files d = with_outcomes(with(kOutcomes, "per = 2", "per = -2"));
    expect_error(d, "lesson.toml:" + outcomes_line(d, "per = -2") + ": [outcomes]: per must be 0");
    Files e = with_outcomes(with(kOutcomes, "\"1,0\", \"-3,0\"]", "\"1,0,0\", \"-3,0\"]"));
    expect_error(e, "lesson.toml:" + outcomes_line(e, "values = ") +
                        ": [outcomes]: outcome '1,0,0' has 3 values; a record of 'g_out' has 2 (per)");
    Files g = with_outcomes(with(kOutcomes, "\"1,0\", \"-3,0\"]", "\"1, 0\", \"-3,0\"]"));
    expect_error(g, "lesson.toml:" + outcomes_line(g, "values = ") +
                        ": [outcomes]: outcome '1, 0' must be written as the histogram writes it: '1,0'");
    Files g2 = with_outcomes(with(kOutcomes, "\"1,0\", \"-3,0\"]", "\"1,x\", \"-3,0\"]"));
    expect_error(g2, "lesson.toml:" + outcomes_line(g2, "values = ") +
                         ": [outcomes]: outcome '1,x': element 2 'x' is not a i32 value");
    Files h = with_outcomes(with(kOutcomes, "\"1,0\", \"-3,0\"]", "\"1,0x0\", \"-3,0\"]"));
    expect_error(h, "lesson.toml:" + outcomes_line(h, "values = ") +
                        ": [outcomes]: outcome '1,0x0' must be written as the histogram writes it: '1,0'");
    Files i = with_outcomes(with(kOutcomes, "\"1,0\", \"-3,0\"]", "\"1,1\", \"-3,0\"]"));
    expect_error(i, "lesson.toml:" + outcomes_line(i, "values = ") + ": [outcomes]: '1,1' is listed twice");
    Files j = with_outcomes(with(kOutcomes, "\"旧值\", ", ""));
    expect_error(j, "lesson.toml:" + outcomes_line(j, "zh = ") +
                        ": [outcomes]: 'zh' has 2 labels for 3 values: one label per value, in the same order");
    Files k = with_outcomes(with(kOutcomes, "\"stale\"", "\"\""));
    expect_error(k, "lesson.toml:" + outcomes_line(k, "en = ") + ": [outcomes]: the label of '1,0' is empty");
    Files l = with_outcomes(kOutcomes + "\nlabels = []");
    expect_error(l, "lesson.toml:" + outcomes_line(l, "labels = ") +
                        ": [outcomes]: unknown key 'labels' (keys: buffer, per, values, en, zh)");
    Files m = with_outcomes(with(kOutcomes, "[\"1,1\", \"1,0\", \"-3,0\"]", "[]"));
    expect_error(m, "lesson.toml:" + outcomes_line(m, "values = ") + ": [outcomes]: 'values' is empty");
    // A value of an unsigned buffer that the histogram could never write.
    Files n = with_outcomes(kOutcomes);
    n.toml = with(n.toml, "g_out = \"buf:i32:480\"", "g_out = \"buf:u32:480\"");
    expect_error(n, "lesson.toml:" + outcomes_line(n, "values = ") +
                        ": [outcomes]: outcome '-3,0' must be written as the histogram writes it: '4294967293,0'");
}

TEST(LessonErrors, ForbiddenOutcomes) {
    Files a = with_outcomes(kOutcomes, "forbidden_outcomes = [\"0,1\"]\nforbidden_because = \"r\"");
    expect_error(a, "lesson.toml:" + std::to_string(line_of(a.toml, "forbidden_outcomes")) +
                        ": variant 'missing_barrier': forbidden outcome '0,1' is not one of [outcomes] values "
                        "(\"1,1\", \"1,0\", \"-3,0\")");
    Files b = with_outcomes(kOutcomes, "forbidden_outcomes = [\"1,0\"]");
    expect_error(b, "lesson.toml:" + std::to_string(line_of(b.toml, "forbidden_outcomes")) +
                        ": variant 'missing_barrier': forbidden_outcomes needs forbidden_because: the rule of the "
                        "PTX memory model that forbids them");
    Files c = with_outcomes(kOutcomes, "forbidden_because = \"r\"");
    expect_error(c, "lesson.toml:" + std::to_string(line_of(c.toml, "forbidden_because")) +
                        ": variant 'missing_barrier': forbidden_because without forbidden_outcomes");
    Files d = with_outcomes(kOutcomes, "forbidden_outcomes = [\"1,0\", \"1,0\"]\nforbidden_because = \"r\"");
    expect_error(d, "lesson.toml:" + std::to_string(line_of(d.toml, "forbidden_outcomes")) +
                        ": variant 'missing_barrier': 'forbidden_outcomes' lists '1,0' twice");
    Files e;
    e.toml = with(e.toml, "wrong_outputs = \"possible\"",
                  "wrong_outputs = \"possible\"\nforbidden_outcomes = [\"1,0\"]\nforbidden_because = \"r\"");
    expect_error(e, "lesson.toml:26: variant 'missing_barrier': forbidden_outcomes needs an [outcomes] table");
    Files f = with_outcomes(kOutcomes, "forbidden_outcomes = \"1,0\"\nforbidden_because = \"r\"");
    expect_error(f, "lesson.toml:" + std::to_string(line_of(f.toml, "forbidden_outcomes")) +
                        ": variant 'missing_barrier': 'forbidden_outcomes' must be an array, got a string");
}

TEST(LessonErrors, LessonList) {
    EXPECT_EQ(parse_lesson_list("# c\n\nstencil\n  lost_update  # why\n", "LESSONS"),
              (std::vector<std::string>{"stencil", "lost_update"}));
    auto error = [](const std::string& text) -> std::string {
        try {
            parse_lesson_list(text, "LESSONS");
        } catch (const LessonError& e) {
            return e.what();
        }
        return "";
    };
    EXPECT_EQ(error("stencil\nStencil\n"),
              "LESSONS:2: 'Stencil' is not a lesson id (lower-case letters, digits and _)");
    EXPECT_EQ(error("a\nb\na\n"), "LESSONS:3: lesson 'a' is listed twice (first on line 1)");
    EXPECT_EQ(error("a b\n"), "LESSONS:1: 'a b' is not a lesson id (lower-case letters, digits and _)");
}

} // namespace
} // namespace synclab::scenario
