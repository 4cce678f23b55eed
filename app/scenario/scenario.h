// The scenario catalog. A lesson is data: a folder assets/lessons/<id>/ with a lesson file
// (lesson.toml: launch shape, buffers in the buf: grammar, kernel arguments, how outputs are checked,
// and per variant its PTX entry and the verdict it must give) and its text in English and Simplified
// Chinese (en.md, zh.md). The kernel is kernels/<id>.cu, compiled to PTX. The built-in lessons are
// embedded at build time and parsed once at start-up; load_lesson() reads more from disk. The format
// is described in assets/lessons/README.md. The catalog knows nothing of how kernels run.
#pragma once

#include "analysis/findings.h"
#include "launch/launch.h"
#include "scenario/host_reader.h"
#include "ptx/ir.h"
#include "trace/trace.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace synclab::scenario {

// [SECTION] Expectations

// What a variant's outputs must be, measured against the lesson's reference.
enum class WrongOutputs : uint8_t {
    Never,     // "never": 0 wrong outputs under every schedule and seed
    Possible,  // "possible": wrong outputs expected under the random and adversarial schedules
    Unchecked, // "unchecked": no claim (e.g. right in the simulator, a hang on the GPU)
};
const char* to_string(WrongOutputs value); // "never", "possible", "unchecked"
bool parse_wrong_outputs(std::string_view text, WrongOutputs& out);

// What a variant must show, checked by the verdict tests and shown as badges in the app.
struct Expectation {
    std::vector<analysis::FindingKind> must_find;
    std::vector<analysis::FindingKind> must_not_find;
    WrongOutputs wrong_outputs = WrongOutputs::Unchecked;
    trace::RunStatus status = trace::RunStatus::Ok; // the run's status in the simulator

    bool always_correct() const { return wrong_outputs == WrongOutputs::Never; }
    bool wrong_outputs_possible() const { return wrong_outputs == WrongOutputs::Possible; }
};

// Every finding kind the analyses report, in FindingKind order, and the lookup by name.
const std::vector<analysis::FindingKind>& all_finding_kinds();
bool parse_finding_kind(std::string_view text, analysis::FindingKind& out);
// "race, barrier_divergence, lost_update, deadlock" (for error messages); the same for run statuses.
std::string finding_kind_names();
std::string run_status_names();

// [SECTION] Lessons

struct LessonText {
    std::string title;   // one line
    std::string shows;   // what the scenario/variant shows
    std::string predict; // the question to ask before running
    std::string look_at; // what to look at in the results
    std::string fix;     // how to fix it (or why it is already right)
};

// A lesson's outcome histogram (lesson.toml `[outcomes]`): which buffer holds each trial's outcome,
// cut into records of `per` elements (0: the whole buffer), and the outcomes worth naming.
struct OutcomeClass {
    std::string value;   // as launch::format_values writes it: "1,0"
    std::string label_en; // "flag seen, data stale"
    std::string label_zh;
};
struct OutcomeSpec {
    std::string buffer; // empty: the lesson has no outcome histogram
    uint32_t per = 0;
    std::vector<OutcomeClass> classes;
    bool present() const { return !buffer.empty(); }
};

struct Variant {
    std::string id;     // CLI contract, e.g. "missing_barrier"
    std::string kernel; // PTX entry name, e.g. "stencil_missing_barrier"
    Expectation expect;
    // Outcomes (OutcomeSpec values) the memory model forbids for this variant, each with the rule of
    // the PTX memory model that forbids it; every other outcome is allowed.
    std::vector<std::string> forbidden_outcomes;
    std::string forbidden_because; // "fence.sc ... (PTX ISA, Memory Consistency Model, Causality)"
    LessonText en, zh; // per-variant notes (title + shows/look_at; predict/fix where they differ)
    // The launch this variant runs with: the lesson's (Scenario::launch), with the variant's own
    // `grid` and `cooperative` where lesson.toml gives them.
    launch::LaunchConfig launch;
};

using launch::Inputs;

// The right values of one checked output, as its reference computed them, so that a run's output
// can be shown element by element (the app's output grid). Right means bytewise equal to these
// (the comparison every check makes).
struct ExpectedOutput {
    std::string name; // the buffer's name ("g_out")
    launch::ElemType type = launch::ElemType::U32;
    std::vector<uint8_t> bytes; // the checked elements, in order
    // A buffer this variant must leave as it was (atomic_counter's ticket counter in a sum): checked,
    // but not the run's result, so the app does not show it as the lesson's key number.
    bool guard = false;
};

struct CheckResult {
    uint64_t wrong = 0;
    uint64_t checked = 0;
    std::string summary;                  // e.g. "counter = 12345, expected 16384"
    std::vector<ExpectedOutput> expected; // each checked output's right values
};

// One buffer of the launch, as the lesson file declares it (`g_in = "buf:f32:16384:random=1..9"`).
struct BufferDecl {
    std::string name;
    launch::BufferSpec spec;
    bool output = false; // listed in `outputs`: compared with the reference
};

// A lesson whose kernels time their own atomics (`[latency]` in lesson.toml): each thread writes
// clock64() after minus before an atomic whose result it uses, and its %smid. On the GPU these are
// the hardware's cycles and SMs; in the simulator %clock64 reads the cost model's clock, so the same
// kernel gives the modelled latency. The app draws them as heatmaps (SM x warp, block x thread).
struct LatencySpec {
    std::string cycles_buffer; // a declared buffer, one element per thread ("" : no [latency] table)
    std::string sm_buffer;     // a declared buffer, one element per thread ("" : not recorded)
    bool present() const { return !cycles_buffer.empty(); }
};

// A lesson parameter (lesson.toml `[param.NAME]`): a choice the user makes before a run (`synclab
// run|table --param NAME=CHOICE`, the app's run panel). Each choice sets the scalar argument `arg`
// to a number, gives buffers other specs, or (`grid`) launches another number of blocks; the default
// choice is what the lesson file's grid, [buffers] and args say. Outputs and kernels stay.
struct ParamChoice {
    std::string name; // as the user types it: "32", "skewed"
    // arg >= 0: args[arg] takes this scalar (bits as the kernel's parameter type wants them).
    uint64_t scalar_bits = 0;
    // Param::sets_grid: the launch's grid.x under this choice (a size parameter: the same kernel on
    // more blocks, e.g. so that a GPU ladder measures contention rather than launch overhead).
    uint32_t grid_x = 0;
    // buffer index -> its spec under this choice (one entry per buffer the parameter sets).
    std::vector<std::pair<uint32_t, launch::BufferSpec>> buffers;
};
struct Param {
    std::string name;               // "k", "input" (letters, digits, _)
    std::string en, zh;             // one line: what it sets
    int32_t arg = -1;               // the scalar argument it sets, or -1
    bool sets_grid = false;         // each choice sets grid.x (ParamChoice::grid_x)
    // `size = true`: the choices change how much work a run does, not what the kernel computes (the
    // ladder's measuring sizes). The verdict tests leave its other choices to the ladder order test,
    // which runs them and checks their outputs.
    bool is_size = false;
    std::vector<std::string> buffer_names; // the buffers it sets, in the order of ParamChoice::buffers
    std::vector<ParamChoice> choices;
    uint32_t default_choice = 0;    // index into choices
    const ParamChoice* find(std::string_view choice) const;
    std::string choice_names() const; // "1, 32, 1024"
};

// NAME -> CHOICE, as the user picked them (unnamed parameters keep their defaults).
using ParamValues = std::vector<std::pair<std::string, std::string>>;

struct Scenario {
    std::string id;          // CLI contract, e.g. "stencil"
    std::string topic;       // "barriers", "warps", "fences", "atomics"
    std::string source_file; // "stencil.cu" (its PTX: "stencil.ptx"); a .ptx for PTX-only lessons
    launch::LaunchConfig launch;
    LessonText en, zh; // the lesson as a whole
    std::vector<Variant> variants;
    std::vector<BufferDecl> buffers;     // in declaration order: buffer i of the inputs
    std::vector<launch::KernelArg> args; // in parameter order
    // How outputs are checked: a C++ reference registered under `reference` (references.h), or,
    // when `reference_variant` is set, that variant's outputs under the rr schedule with the same
    // inputs (the runner computes them: runner::run_scenario).
    std::string reference;
    std::string reference_variant;
    // The simulator's memory model unless the user picks one (`memory = "relaxed"` for the fence
    // lessons; the barrier lessons keep "sc").
    launch::MemoryModel memory = launch::MemoryModel::Sc;
    OutcomeSpec outcomes;
    LatencySpec latency;
    HostReaderSpec host_reader; // `[host_reader]`: a CPU thread reads host-mapped buffers (GPU backend)
    std::vector<Param> params; // [param.NAME] tables, in file order
    // The step budget a run of this lesson gets unless the user sets one (`max_steps`; 0: the
    // simulator's default): a lesson whose variant spins forever reaches its diagnosis quickly.
    uint64_t max_steps = 0;
    // The choices this Scenario's inputs were built with ("k=32"), one per parameter; see with_params.
    ParamValues chosen;
    std::string lesson_file; // where the lesson came from, for messages ("assets/lessons/x/lesson.toml")
    std::string cuda_text, ptx_text;
    std::shared_ptr<const ptx::Module> module; // ptx_text, parsed

    // Builds the inputs for a run from the buffer specs; the same seed gives the same inputs (the
    // same as `synclab check --arg SPEC ... --seed N` with these specs).
    std::function<Inputs(uint64_t seed)> make_inputs;
    // Compares the buffers after the run with the C++ reference computed from `before`. Empty when
    // the reference is a variant's rr run (`reference_variant`).
    std::function<CheckResult(const Inputs& before, const std::vector<launch::Buffer>& after)> check;

    const Variant* find_variant(std::string_view variant_id) const;
    std::string_view cuda_source() const { return cuda_text; } // kernels/<source_file>; "" for PTX only
    std::string_view ptx_source() const { return ptx_text; }
    const ptx::Module& ptx_module() const; // throws std::logic_error for a Scenario not built here
};

// A parameter choice the lesson does not offer: what() names the parameter, the lesson and the
// choices there are ("lesson atomic_counter has no parameter 'j' (parameters: k)").
struct ParamError : std::invalid_argument {
    using std::invalid_argument::invalid_argument;
};

// The scenario with `values` applied: buffer specs and scalar arguments replaced, make_inputs
// rebuilt, `chosen` filled (every parameter, defaults included). Throws ParamError for an unknown
// parameter, an unknown choice or a parameter given twice. The kernels, launch and checks are shared.
Scenario with_params(const Scenario& scenario, const ParamValues& values);
// "NAME=CHOICE" (the CLI's --param text) split; throws ParamError naming the text when there is no '='.
std::pair<std::string, std::string> parse_param_text(std::string_view text);
// The function make_inputs is built from: buffers filled in order from one stream seeded by `seed`.
std::function<Inputs(uint64_t seed)> input_builder(std::vector<BufferDecl> buffers,
                                                   std::vector<launch::KernelArg> args);

// A lesson file, text file or kernel that is wrong. what(): "FILE:LINE: [variant 'v': ]message"
// (LINE left out where the mistake has no line, e.g. a missing file).
struct LessonError : std::runtime_error {
    LessonError(std::string file, uint32_t line, const std::string& message);
    std::string file;
    uint32_t line = 0;
};

// The built-in lessons in teaching order (assets/lessons/LESSONS), parsed from the embedded files on
// first use (thread-safe). A broken built-in lesson throws LessonError (the build's tests parse them).
const std::vector<Scenario>& catalog();
const Scenario* find_scenario(std::string_view id);

// A lesson folder on disk: lesson.toml, en.md, zh.md and the kernel the lesson file names in
// `source`: a .ptx, or a .cu (its .ptx beside it is used where there is one; else it is compiled
// now, with nvcc or NVRTC: app/compile). Throws LessonError.
Scenario load_lesson(const std::filesystem::path& folder);
// Every lesson folder in `dir`: in the order of `dir`/LESSONS where there is one, else every
// sub-folder holding a lesson.toml, by name. Throws LessonError (also for an empty folder).
std::vector<Scenario> load_lessons(const std::filesystem::path& dir);
// load_lessons for lessons offered beside the built-in ones (`--lessons DIR` of the CLI and the app):
// a lesson with the id of a built-in lesson is a LessonError naming its lesson file too.
std::vector<Scenario> load_extra_lessons(const std::filesystem::path& dir);

// The buffers the lesson marks as outputs, compared element by element with `expected` (the
// reference run's buffers, in the same order): exact equality. `what` names the reference in the
// summary ("the rr run of variant 'correct'").
CheckResult compare_outputs(const Scenario& scenario, const std::vector<launch::Buffer>& expected,
                            const std::vector<launch::Buffer>& after, const std::string& what);

} // namespace synclab::scenario
