// The lesson format's parameters ([param.NAME]), per-thread latency buffers ([latency]) and step
// budget (max_steps): the test lesson tests/scenario/data/fixtures/ticket_counter (a scalar and a size
// parameter, [latency]) and the built-in atomics lessons parse to what their files say, with_params
// applies a choice to the inputs, and each mistake in those tables is an error naming the file,
// the line and the field. The broken files are ticket_counter's, one change at a time.
#include "scenario/lesson.h"
#include "scenario/lesson_files.h"
#include "scenario/scenario.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <regex>
#include <string>

namespace synclab::scenario {
namespace {

using test::error_of;
using test::expect_error;
using test::line_of;
using test::with;

// The ticket_counter test lesson's files (its kernel is PTX alone), to be broken one change at a time.
struct Files : test::LessonFiles {
    Files()
        : LessonFiles("ticket_counter", "tests/scenario/data/fixtures/ticket_counter/", "ticket_counter.ptx",
                      "tests/scenario/data/fixtures/ticket_counter/no_cuda_source", "ticket_counter.ptx",
                      "tests/scenario/data/fixtures/ticket_counter/ticket_counter.ptx") {}
};

// The test lesson, built once.
const Scenario& ticket_counter() {
    static const Scenario s = build_lesson(test::sources(Files{}));
    return s;
}

std::string at(const Files& f, const std::string& needle) {
    return "lesson.toml:" + std::to_string(line_of(f.toml, needle)) + ": ";
}

// ticket_counter's lesson.toml with its one `from` replaced by `to` fails with `message`, at the line
// of `anchor` in the broken file.
void expect_broken(const std::string& from, const std::string& to, const std::string& anchor,
                   const std::string& message) {
    SCOPED_TRACE("'" + from + "' -> '" + to + "'"); // which case of the test failed
    Files f;
    f.toml = with(f.toml, from, to);
    expect_error(f, at(f, anchor) + message);
}

// [SECTION] The built-in lessons say what their files say

TEST(LessonParams, TicketCounterHasKAndLatencyBuffers) {
    const Scenario& s = ticket_counter();
    ASSERT_EQ(s.params.size(), 2u);
    const Param& k = s.params[0];
    EXPECT_EQ(k.name, "k");
    EXPECT_EQ(k.choice_names(), "1, 32, 1024");
    EXPECT_EQ(k.choices[k.default_choice].name, "32");
    EXPECT_EQ(k.arg, 4);
    EXPECT_EQ(k.choices[2].scalar_bits, 1024u);
    EXPECT_EQ(s.latency.cycles_buffer, "g_cycles");
    EXPECT_EQ(s.latency.sm_buffer, "g_smid");
    ASSERT_EQ(s.chosen.size(), 2u);
    EXPECT_EQ(s.chosen[0].second, "32");
    // The size parameter: the grid and the per-thread buffers, the [latency] ones included.
    const Param& threads = s.params[1];
    EXPECT_EQ(threads.name, "threads");
    EXPECT_TRUE(threads.sets_grid);
    EXPECT_TRUE(threads.is_size);
    EXPECT_FALSE(k.is_size);
    EXPECT_EQ(threads.arg, -1);
    EXPECT_EQ(threads.choice_names(), "2048, 16384, 1048576");
    EXPECT_EQ(threads.choices[2].grid_x, 4096u);
    EXPECT_EQ(threads.buffer_names, (std::vector<std::string>{"g_ticket", "g_cycles", "g_smid"}));
    EXPECT_EQ(s.max_steps, 0u);
    EXPECT_EQ(find_scenario("cas_loop")->max_steps, 2'000'000u);
    EXPECT_FALSE(find_scenario("stencil")->latency.present());
    // atomic_counter's sums drop their atomics' results (a RED, nothing to time): no [latency].
    EXPECT_FALSE(find_scenario("atomic_counter")->latency.present());
}

TEST(LessonParams, WithParamsSetsTheScalarArgument) {
    const Scenario& s = ticket_counter();
    EXPECT_EQ(s.make_inputs(1).args[4].bits, 32u);
    const Scenario one = with_params(s, {{"k", "1"}});
    EXPECT_EQ(one.make_inputs(1).args[4].bits, 1u);
    EXPECT_EQ(one.chosen[0].second, "1");
    EXPECT_EQ(s.make_inputs(1).args[4].bits, 32u) << "the lesson is left as it was";
    EXPECT_EQ(with_params(s, {}).make_inputs(1).args[4].bits, 32u);
}

TEST(LessonParams, WithParamsSetsBufferSpecs) {
    const Scenario& s = *find_scenario("histogram");
    const Scenario skewed = with_params(s, {{"input", "skewed"}});
    const Inputs in = skewed.make_inputs(7);
    ASSERT_EQ(in.buffers[0].name, "g_data");
    std::vector<uint32_t> data(in.buffers[0].bytes.size() / 4);
    std::memcpy(data.data(), in.buffers[0].bytes.data(), in.buffers[0].bytes.size());
    ASSERT_EQ(data.size(), 1048576u) << "g_data holds the largest 'items' choice; a run counts the first n";
    EXPECT_EQ(std::count(data.begin(), data.end(), 3u), 1048576) << "skewed: every value in bin 3";
    const Inputs uniform = s.make_inputs(7);
    std::memcpy(data.data(), uniform.buffers[0].bytes.data(), uniform.buffers[0].bytes.size());
    EXPECT_LT(std::count(data.begin(), data.end(), 3u), 1048576 / 4) << "uniform over 8 bins";
}

// A size parameter that sets the grid: the launch, the per-thread buffers and the reference (which
// counts the launch's threads) all follow the choice; the catalog's lesson is left as it was.
TEST(LessonParams, WithParamsSetsTheGridAndTheReferenceFollows) {
    const Scenario& s = *find_scenario("atomic_counter");
    const Scenario big = with_params(s, {{"threads", "1048576"}});
    EXPECT_EQ(big.launch.grid.x, 4096u);
    EXPECT_EQ(s.launch.grid.x, 64u);
    for (const Variant& v : big.variants)
        EXPECT_EQ(v.launch.grid.x, 4096u) << v.id << ": a variant runs with Variant::launch";
    const Inputs in = big.make_inputs(1);
    ASSERT_EQ(in.buffers[0].name, "g_in");
    EXPECT_EQ(in.buffers[0].bytes.size(), 1048576u * 4);
    ASSERT_EQ(in.buffers[3].name, "g_ticket");
    EXPECT_EQ(in.buffers[3].bytes.size(), 1048576u * 4);
    // Right tickets for 1048576 threads: g_count at 1048576, tickets 0 .. 1048575.
    std::vector<launch::Buffer> after = in.buffers;
    const uint32_t total = 1048576;
    std::memcpy(after[2].bytes.data(), &total, 4);
    for (uint32_t t = 0; t < total; ++t)
        std::memcpy(after[3].bytes.data() + 4 * t, &t, 4);
    const CheckResult right = big.check(in, after);
    EXPECT_EQ(right.wrong, 0u) << right.summary;
    EXPECT_EQ(right.checked, 1u + 1 + 1048576);
    // The same count checked as the default's 16384 threads is wrong: the binding matters.
    const Inputs small = s.make_inputs(1);
    std::vector<launch::Buffer> small_after = small.buffers;
    std::memcpy(small_after[2].bytes.data(), &total, 4);
    EXPECT_GT(s.check(small, small_after).wrong, 0u);
}

TEST(LessonParams, WithParamsRefusesWhatTheLessonDoesNotOffer) {
    const Scenario& s = ticket_counter();
    auto message = [&](const ParamValues& v) {
        try {
            with_params(s, v);
        } catch (const ParamError& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    EXPECT_EQ(message({{"j", "1"}}), "lesson ticket_counter has no parameter 'j' (parameters: k, threads)");
    EXPECT_EQ(message({{"k", "2"}}),
              "lesson ticket_counter: parameter 'k' has no choice '2' (choices: 1, 32, 1024)");
    EXPECT_EQ(message({{"k", "1"}, {"k", "32"}}), "parameter 'k' is given twice");
    EXPECT_EQ(parse_param_text("k=32"), (std::pair<std::string, std::string>{"k", "32"}));
    EXPECT_THROW(parse_param_text("k"), ParamError);
    EXPECT_THROW(parse_param_text("=1"), ParamError);
    EXPECT_THROW(parse_param_text("k="), ParamError);
}

// The latency lesson's atomics must have their results used: nvcc then keeps atom (ptxas turns an
// atom whose result is unused into a fire-and-forget RED, which does not wait for the queue). Every
// variant's entry has an atom whose destination register is read again later in the entry.
TEST(LessonParams, TicketCounterAtomicsHaveTheirResultsUsed) {
    const Scenario& s = ticket_counter();
    const std::string ptx(s.ptx_source());
    for (const Variant& v : s.variants) {
        SCOPED_TRACE(v.id);
        const size_t begin = ptx.find(".entry " + v.kernel + "(");
        ASSERT_NE(begin, std::string::npos);
        const std::string body = ptx.substr(begin, ptx.find(".entry", begin + 1) - begin);
        EXPECT_EQ(body.find("\tred."), std::string::npos) << "a red: the result is dropped";
        size_t at = body.find("atom.global.add.u32");
        ASSERT_NE(at, std::string::npos) << "no global atomicAdd";
        for (; at != std::string::npos; at = body.find("\tatom.", at + 1)) {
            const size_t reg = body.find('%', at);
            const std::string dest = body.substr(reg, body.find(',', reg) - reg);
            const std::string after = body.substr(body.find('\n', at));
            EXPECT_TRUE(std::regex_search(after, std::regex(dest + "(?![0-9])")))
                << dest << ", the result of '" << body.substr(at, body.find('\n', at) - at)
                << "', is never read";
        }
    }
}

// [SECTION] Mistakes in [param.NAME]

TEST(LessonParamErrors, TheLessonItselfIsFine) {
    EXPECT_EQ(error_of(Files{}), "");
}

TEST(LessonParamErrors, DefaultNotAChoice) {
    expect_broken("default = \"32\"", "default = \"33\"", "default = \"33\"",
                  "[param.k]: default '33' is not one of the choices (1, 32, 1024)");
}

TEST(LessonParamErrors, ArgMustBeAScalarAndTheDefault) {
    expect_broken("arg = 4", "arg = 0", "arg = 0",
                  "[param.k]: arg = 0 must be the index of a scalar in args (0 .. 4)");
    expect_broken("\"g_smid\", 32]", "\"g_smid\", 16]", "\"g_smid\", 16]",
                  "[param.k]: args[4] must be the default choice '32'");
    expect_broken("choices = [\"1\", \"32\", \"1024\"]", "choices = [\"1\", \"32\", \"many\"]", "\"many\"",
                  "[param.k]: choice 'many' sets a scalar argument, so it must be a number");
    expect_broken("choices = [\"1\", \"32\", \"1024\"]", "choices = [\"1\", \"32\", \"4294967296\"]",
                  "\"4294967296\"", "[param.k]: args[4] (parameter");
}

TEST(LessonParamErrors, ChoicesAreFewAndWellFormed) {
    expect_broken("choices = [\"1\", \"32\", \"1024\"]", "choices = [\"32\"]", "choices = [\"32\"]",
                  "[param.k]: 'choices' needs at least two choices, got 1");
    expect_broken("choices = [\"1\", \"32\", \"1024\"]", "choices = [\"1\", \"32\", \"32\"]", "choices = [",
                  "[param.k]: choice '32' is listed twice");
    expect_broken("choices = [\"1\", \"32\", \"1024\"]", "choices = [\"1\", \"32\", \"A B\"]", "choices = [",
                  "[param.k]: choice 'A B' must be lower-case letters, digits, _, - or .");
}

TEST(LessonParamErrors, UnknownKeyOrNothingSet) {
    expect_broken("arg = 4", "arg = 4\nargs = 4", "args = 4",
                  "[param.k]: unknown key 'args' (keys: en, zh, choices, default, arg, grid, "
                  "size; or a buffer's name)");
    expect_broken("arg = 4\n", "", "[param.k]", "[param.k]: it sets nothing");
    expect_broken("[param.k]", "[param.K]", "[param.K]",
                  "parameter name 'K' must be lower-case letters, digits and _");
}

TEST(LessonParamErrors, BufferSpecsPerChoice) {
    expect_broken("arg = 4", "arg = 4\ng_counters = [\"buf:u32:1024\", \"buf:u32:1024\"]", "g_counters = [",
                  "[param.k]: g_counters: 2 specs for 3 choices");
    expect_broken("arg = 4", "arg = 4\ng_counters = [\"buf:u32:1024\", \"buf:u32:1024\", \"buf:f32:1024\"]",
                  "g_counters = [",
                  "[param.k]: g_counters: choice '1024': the kernel takes u32 elements, "
                  "the spec says f32");
    expect_broken("arg = 4", "arg = 4\ng_counters = [\"buf:u32:1024\", \"buf:u32:8\", \"buf:u32:1024\"]",
                  "g_counters = [",
                  "[param.k]: g_counters: the default choice '32' must have the spec of "
                  "[buffers] ('buf:u32:1024')");
    expect_broken("arg = 4", "arg = 4\ng_counters = [\"buf:u32:1024\", \"buf:u32:1024\", \"buf:u33:1\"]",
                  "g_counters = [", "[param.k]: g_counters: choice '1024': ");
    expect_broken("arg = 4", "arg = 4\ng_cycles = [\"buf:u64:2048\", \"buf:u64:2048\", \"buf:u64:2048\"]",
                  "g_cycles = [\"buf:u64:2048\", \"buf:u64:2048\"",
                  "[param.k]: g_cycles: holds [latency] timings (one element per thread): only a parameter "
                  "that sets 'grid' can change it");
}

TEST(LessonParamErrors, GridPerChoiceFollowedByTheLatencyBuffers) {
    expect_broken("grid = [8, 64, 4096]", "grid = [8, 64]", "grid = [8, 64]",
                  "[param.threads]: 'grid' has 2 block counts for 3 choices");
    expect_broken("grid = [8, 64, 4096]", "grid = [16, 64, 4096]", "grid = [16",
                  "[param.threads]: 'grid' for the default choice '2048' is 16, but the "
                  "lesson's grid is 8");
    expect_broken("grid = [8, 64, 4096]", "grid = [8, 0, 4096]", "grid = [8, 0",
                  "[param.threads]: 'grid' for choice '16384' must be a block count");
    expect_broken("\"buf:u64:16384\"", "\"buf:u64:16000\"", "g_cycles = [",
                  "[param.threads]: g_cycles: holds [latency] timings for every thread: "
                  "choice '16384' launches 16384 threads, its spec has 16000");
    expect_broken("arg = 4", "arg = 4\ngrid = [8, 8, 8]", "[param.threads]",
                  "[param.threads]: it sets what [param.k] sets already");
    expect_broken("grid = [8, 64, 4096]", "grid = \"8\"", "grid = \"8\"",
                  "[param.threads]: 'grid' must be an array of block counts");
}

// [SECTION] Mistakes in [latency] and max_steps

TEST(LessonLatencyErrors, BuffersMustExistHoldOnePerThreadAndStayUnchecked) {
    expect_broken("cycles = \"g_cycles\"", "cycles = \"g_cycle\"", "cycles = \"g_cycle\"",
                  "[latency]: cycles = 'g_cycle' names no buffer");
    expect_broken("g_cycles = \"buf:u64:2048\"", "g_cycles = \"buf:u64:2047\"", "g_cycles = \"buf",
                  "[latency]: buffer 'g_cycles' holds cycles for every thread: it "
                  "needs one element per thread of the launch (2048), it has 2047");
    expect_broken("g_cycles = \"buf:u64:2048\"", "g_cycles = \"buf:f64:2048\"", "g_cycles = \"buf",
                  "[latency]: buffer 'g_cycles' holds cycles: it must be of an "
                  "integer type");
    expect_broken("sm = \"g_smid\"", "sm = \"g_smid\"\nclock = \"g_cycles\"",
                  "clock = ", "[latency]: unknown key 'clock' (keys: cycles, sm)");
    expect_broken("cycles = \"g_cycles\"\n", "", "[latency]", "[latency]: missing key 'cycles'");
}

TEST(LessonLatencyErrors, MaxStepsIsAtLeastAThousand) {
    expect_broken("outputs = [", "max_steps = 10\noutputs = [", "max_steps = 10",
                  "max_steps must be at least 1000 thread-instructions, got 10");
}

} // namespace
} // namespace synclab::scenario
