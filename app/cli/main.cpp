// synclab: the headless command line over SyncLab's libraries.
//
//   synclab list [--lessons DIR] [--json]
//   synclab show SCENARIO [--lessons DIR] [--json]
//   synclab run SCENARIO --variant V [--lessons DIR] [run options] [--out FILE.slt] [--json]
//               run options: --backend sim|gpu, --schedule, --memory, --seed, --reps, --max-executions,
//               --histogram BUFFER [--per N]; GPU: --untraced, --live,
//               --timeout S, --trace-buffer MB
//   synclab check FILE.cu|FILE.ptx --kernel NAME --grid X[,Y,Z] --block X[,Y,Z] [--shared BYTES]
//                 [--cooperative] --arg SPEC ... [--dump NAME] [--nvcc-arg ARG ...] [run options]
//                 [--out FILE.slt] [--json] [--error-exitcode N]
//   synclab report FILE.slt
//   synclab export FILE.slt --chrome OUT.json
//   synclab table [--seeds N] [--memory sc|relaxed]   every scenario variant on the simulator, with verdicts
//   synclab table --backend gpu        every scenario variant on the GPU, untraced and traced
//   (list, run and table: --lessons DIR adds the lesson folders in DIR to the built-in ones)
//
// Exit codes: 0 it ran (whatever it found; run and check with --error-exitcode N: N when it found
// a bug or did not end right), 2 usage error, 3 input error (also: the GPU cannot be used here,
// e.g. "no NVIDIA driver found (...): use --backend sim").
#include "cli/args.h"
#include "cli/kernel_args.h"
#include "cli/claims_command.h"
#include "cli/ladder_command.h"
#include "cli/report.h"
#include "cli/run_options.h"
#include "compile/compile.h"
#include "gpu/client.h"
#include "ptx/kernel_names.h"
#include "ptx/parser.h"
#include "runner/agreement.h"
#include "runner/outcome.h"
#include "runner/runner.h"
#include "scenario/scenario.h"
#include "trace/chrome_export.h"
#include "trace/slt_file.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <optional>
#include <sstream>

namespace synclab::cli {
namespace {

const char* kUsage = R"(SyncLab: CUDA synchronization bugs, run and shown.

Usage:
  synclab list [--lessons DIR] [--json]
      The scenarios and their variants. --lessons DIR (also for run and table): the lesson folders
      in DIR as well (each a folder with lesson.toml, en.md, zh.md and its kernel's .ptx; see
      assets/lessons/README.md).
  synclab show SCENARIO [--lessons DIR] [--json]
      One lesson: its text, its variants with their expected verdicts, and its parameters.
  synclab run SCENARIO --variant V [--lessons DIR] [--param NAME=CHOICE ...] [--backend sim|gpu]
              [--schedule rr|random|adversarial|exhaustive] [--memory sc|relaxed] [--seed N] [--reps N]
              [--warp-model its|lockstep]
              [--max-executions N] [--histogram BUFFER [--per N]] [--untraced] [--live] [--timeout S]
              [--trace-buffer MB] [--out FILE.slt] [--json] [--error-exitcode N]
      Runs one variant, checks its outputs against the CPU reference and reports findings.
      --param NAME=CHOICE (repeatable): a lesson parameter (see 'synclab show SCENARIO'), e.g.
      --param k=1024; the others keep their defaults.
      --memory (simulator): sc (every access visible at once) or relaxed (the PTX memory model's weak
      behaviours: store buffers, stale L1 lines, until fences and release/acquire order them); default:
      the lesson's own. --schedule exhaustive (simulator, small kernels): every execution the memory
      model allows, once each, up to --max-executions N (default 100000; past it: status budget).
      --warp-model (simulator): its (default; Volta+ independent thread scheduling: the random and
      adversarial schedules may run some lanes of a warp ahead of the others at a memory access; rr
      and exhaustive never split a warp: exhaustive enumerates interleavings of warps only) or
      lockstep (pre-Volta: a warp's lanes never split, which is why old warp-synchronous code worked).
      --histogram BUFFER: the outcome histogram of that buffer's final contents over the runs (a
      lesson's buffer name; default: the lesson's own outcomes, if it has any); --per N counts records
      of N elements each (e.g. one record per reader/writer pair) instead of the whole buffer.
      --backend gpu runs it on the GPU (through the worker synclab-gpu): N untraced launches (the
      hardware's own outcome and kernel time) and one traced launch (events, findings), both
      reported. --untraced: no traced launch. --live: the trace goes to mapped host memory and is
      shown as it arrives. --timeout S (default 5): a kernel still running then is stopped, and the
      run reports which threads wait where. --trace-buffer MB (default 4096): the most the traced
      launch's events may take; the buffer is sized from a first launch and the GPU's free memory,
      and where the launch's events do not fit, a sample of blocks is recorded whole (the report
      names them; the analyses use only blocks whose history is whole).
      Simulator budgets (a run past one ends with status budget, never a hang or a crash):
      --max-steps N thread-instructions, --max-events N trace events, --max-memory BYTES (K, M, G)
      for the simulated state and the trace together.
  synclab check FILE.cu|FILE.ptx --kernel NAME --grid X[,Y,Z] --block X[,Y,Z] [--shared BYTES]
              [--cooperative] --arg SPEC ... [--dump NAME] [--nvcc-arg ARG ...] [same run options]
              [--json] [--error-exitcode N]
      Runs your own kernel in the simulator (or --backend gpu). NAME as in your source: block_sum,
      ns::k, reduce<256>, or a full signature where the name is overloaded (the PTX name works too).
      A .cu is compiled as the lessons are (nvcc, else NVRTC); --nvcc-arg passes one more option
      (repeatable: -G keeps what -O3 removes, -DN=64). SPEC: buf:TYPE:COUNT[:INIT] for a pointer
      (TYPE: i8 u8 i16 u16 i32 u32 i64 u64 f32 f64; INIT: zero (default), iota, random (0..99),
      random=LO..HI (whole numbers, e.g. random=1..999999), const=V), a plain number for a scalar;
      NAME:TYPE:COUNT[:INIT] names the buffer (findings then say "out[3]"). Unnamed buffers take the
      parameter's name in the CUDA source where it is at hand, else arg0, arg1 ... (parameter
      position); --dump NAME (or arg<i>) prints one afterwards.
      --histogram BUFFER [--per N]: the outcome histogram of a buffer (its name, arg<i> or its parameter name)
      over the --reps runs, or over every execution with --schedule exhaustive: a litmus test of your own.
      --cooperative launches it as cudaLaunchCooperativeKernel does (a kernel with grid.sync() needs
      it): refused before anything runs when its blocks cannot all be resident at once.
      A number given for a pointer parameter (or a buffer for a scalar) is refused before running.
  --error-exitcode N (run and check, as compute-sanitizer's): exit with N when a finding other than
      contention fired or the run did not end right (wrong outputs, hung, stopped by a budget,
      refused, an error), so that a script or CI job can use SyncLab as a checker.
  synclab report FILE.slt
      The findings of a saved trace, in a compute-sanitizer-like form.
  synclab export FILE.slt --chrome OUT.json
      Chrome trace-event JSON (open it in ui.perfetto.dev or chrome://tracing).
  synclab table [--seeds N] [--memory sc|relaxed] [--warp-model its|lockstep] [--lessons DIR]
                [--param NAME=CHOICE ...] [--json]
      Every variant of every scenario on the simulator (N random seeds, default 3), with verdicts.
      --param applies to every lesson whose parameter NAME offers CHOICE (at least one must).
  synclab table --backend gpu [--seeds N] [--timeout S] [--lessons DIR] [--json]
      Every variant on the GPU: N untraced launches beside one traced launch.

Exit codes: 0 it ran (whatever it found; with --error-exitcode N: N when it found a bug), 2 usage
error, 3 input error.
)";

// [SECTION] Shared option handling

// Column widths for the scenario and variant ids of text tables: the longest id and two spaces,
// never narrower than `minimum` (a long id such as handmade_grid_barrier_oversubscribed must not
// run into the next column).
int scenario_column(const std::vector<const scenario::Scenario*>& lessons, int minimum = 24) {
    size_t widest = 0;
    for (const scenario::Scenario* s : lessons)
        widest = std::max(widest, s->id.size());
    return std::max(minimum, int(widest) + 2);
}
// A variant's title beside its id: lesson titles begin "id: ..." (the app shows them alone), which
// a table that has the id in its own column need not say twice.
std::string title_beside_id(const scenario::Variant& v) {
    const std::string prefix = v.id + ": ";
    return v.en.title.rfind(prefix, 0) == 0 ? v.en.title.substr(prefix.size()) : v.en.title;
}
int variant_column(const std::vector<const scenario::Scenario*>& lessons, int minimum = 27) {
    size_t widest = 0;
    for (const scenario::Scenario* s : lessons)
        for (const scenario::Variant& v : s->variants)
            widest = std::max(widest, v.id.size());
    return std::max(minimum, int(widest) + 2);
}




void save_if_asked(const Args& a, const runner::RunSummary& s) {
    if (const auto out = a.value("out")) {
        try {
            trace::save_trace(s.trace, *out);
        } catch (const std::exception& e) {
            throw InputError(std::string("could not save the trace: ") + e.what());
        }
    }
}

// Runs a job, turning "the GPU cannot be used here" into an input error that says what to do.
runner::RunSummary run_job_or_explain(const runner::KernelJob* job, const scenario::Scenario* s,
                                      const scenario::Variant* v, runner::RunOptions& o, bool text_output) {
    if (o.backend == "gpu" && o.gpu.live && text_output) {
        // Updates come every 20 ms; a line every half second is enough for a terminal.
        o.gpu.on_events = [last = -1e9](const std::vector<trace::Event>&, uint64_t seen,
                                        double elapsed_ms) mutable {
            if (elapsed_ms - last < 500) return;
            last = elapsed_ms;
            std::cerr << "live: " << seen << " events after " << std::fixed << std::setprecision(0)
                      << elapsed_ms << " ms\n";
            std::cerr.unsetf(std::ios::fixed);
        };
    }
    try {
        return job ? runner::run_job(*job, o) : runner::run_scenario(*s, *v, o);
    } catch (const runner::RequestError& e) {
        throw UsageError(e.what());
    } catch (const gpu::Unavailable& e) {
        throw InputError(std::string(e.what()) + ": use --backend sim (the simulator)");
    }
}

void print_run(const Args& a, const runner::RunSummary& s, const runner::RunOptions& o) {
    if (a.flag("json"))
        std::cout << summary_json(s, o).dump(2) << "\n";
    else
        print_summary_text(std::cout, s, o);
}

// --error-exitcode N, as compute-sanitizer's: a script (a CI job) gets N when the run found a bug
// (any finding but the performance one, contention), or did not end right: wrong outputs, a hang, a
// budget stop, a refused launch, an error. Otherwise the usual exit code (0).
int exit_code_of(const Args& a, const runner::RunSummary& s) {
    const auto code = a.value("error-exitcode");
    if (!code) return kExitOk;
    const runner::RunOutcome outcome = runner::run_outcome(s);
    const bool ended_right = outcome == runner::RunOutcome::Right || outcome == runner::RunOutcome::Completed;
    return runner::found_a_bug(s) || !ended_right ? int(parse_uint(*code, "--error-exitcode", 1, 255)) : kExitOk;
}

// Checked before the run, so that a bad value is a usage error and not a surprise after it.
void check_error_exitcode(const Args& a) {
    if (const auto code = a.value("error-exitcode")) parse_uint(*code, "--error-exitcode", 1, 255);
}

trace::Dim3 parse_dim3(const std::string& text, const std::string& what) {
    trace::Dim3 d;
    std::vector<uint32_t> v;
    std::stringstream ss(text);
    std::string part;
    while (std::getline(ss, part, ','))
        v.push_back(static_cast<uint32_t>(parse_uint(part, what, 1, 0x7fffffff)));
    if (v.empty() || v.size() > 3 || text.back() == ',')
        throw UsageError(what + " must be X[,Y[,Z]], got '" + text + "'");
    d.x = v[0];
    if (v.size() > 1) d.y = v[1];
    if (v.size() > 2) d.z = v[2];
    return d;
}

std::string read_file(const std::string& path) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) throw InputError(path + ": is a directory");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError(path + ": cannot open (" + std::strerror(errno) + ")");
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// [SECTION] Lessons: the built-in catalog, and the lesson folders of --lessons DIR

class Lessons {
  public:
    explicit Lessons(const Args& a) {
        if (const auto dir = a.value("lessons")) {
            try {
                extra_ = scenario::load_extra_lessons(*dir);
            } catch (const scenario::LessonError& e) {
                throw InputError(e.what());
            }
        }
        for (const scenario::Scenario& s : scenario::catalog())
            all_.push_back(&s);
        for (const scenario::Scenario& s : extra_)
            all_.push_back(&s);
    }
    Lessons(const Lessons&) = delete;
    Lessons& operator=(const Lessons&) = delete;

    const std::vector<const scenario::Scenario*>& all() const { return all_; }

    const scenario::Scenario& find(const std::string& id) const {
        std::string ids;
        for (const scenario::Scenario* s : all_) {
            if (s->id == id) return *s;
            ids += (ids.empty() ? "" : ", ") + s->id;
        }
        throw UsageError("unknown scenario '" + id + "' (scenarios: " + ids + ")");
    }

  private:
    std::vector<scenario::Scenario> extra_; // filled once, before all_ points into it
    std::vector<const scenario::Scenario*> all_;
};

nlohmann::json kind_names(const std::vector<analysis::FindingKind>& kinds) {
    nlohmann::json out = nlohmann::json::array();
    for (analysis::FindingKind k : kinds)
        out.push_back(analysis::to_string(k));
    return out;
}

// [SECTION] Lesson parameters: --param NAME=CHOICE



// "k=32 (1, 32, 1024)": each parameter with its choice now and the choices there are.
std::string params_line(const scenario::Scenario& s) {
    std::string out;
    for (size_t i = 0; i < s.params.size(); ++i) {
        const scenario::Param& p = s.params[i];
        out += (out.empty() ? "" : "; ") + p.name + "=" + s.chosen[i].second + " (" + p.choice_names() + ")";
    }
    return out;
}

nlohmann::json params_json(const scenario::Scenario& s) {
    nlohmann::json out = nlohmann::json::array();
    for (const scenario::Param& p : s.params) {
        nlohmann::json choices = nlohmann::json::array();
        for (const scenario::ParamChoice& c : p.choices)
            choices.push_back(c.name);
        out.push_back({{"name", p.name},
                       {"en", p.en},
                       {"zh", p.zh},
                       {"default", p.choices[p.default_choice].name},
                       {"choices", choices}});
    }
    return out;
}

nlohmann::json chosen_json(const scenario::Scenario& s) {
    nlohmann::json out = nlohmann::json::object();
    for (const auto& [name, choice] : s.chosen)
        out[name] = choice;
    return out;
}

// [SECTION] Commands

int cmd_list(const std::vector<std::string>& argv) {
    Args a(argv, "list", {"lessons"}, {"json"});
    if (!a.positional().empty())
        throw UsageError("'list' takes no arguments, got '" + a.positional()[0] + "'");
    const Lessons lessons(a);
    if (a.flag("json")) {
        nlohmann::json out = nlohmann::json::array();
        for (const scenario::Scenario* s : lessons.all()) {
            nlohmann::json vs = nlohmann::json::array();
            for (const scenario::Variant& v : s->variants)
                vs.push_back({{"id", v.id},
                              {"kernel", v.kernel},
                              {"title", v.en.title},
                              {"must_find", kind_names(v.expect.must_find)},
                              {"must_not_find", kind_names(v.expect.must_not_find)},
                              {"wrong_outputs", scenario::to_string(v.expect.wrong_outputs)},
                              {"status", trace::to_string(v.expect.status)}});
            out.push_back({{"id", s->id},
                           {"topic", s->topic},
                           {"title", s->en.title},
                           {"title_zh", s->zh.title},
                           {"source", s->source_file},
                           {"lesson_file", s->lesson_file},
                           {"params", params_json(*s)},
                           {"variants", vs}});
        }
        std::cout << out.dump(2) << "\n";
        return kExitOk;
    }
    const int ids = variant_column(lessons.all());
    for (const scenario::Scenario* s : lessons.all()) {
        std::cout << s->id << "  [" << s->topic << "]  " << s->en.title << "\n";
        for (const scenario::Variant& v : s->variants)
            std::cout << "    " << std::left << std::setw(ids) << v.id << title_beside_id(v) << "\n";
        for (const scenario::Param& p : s->params)
            std::cout << "    --param " << p.name << "=" << p.choices[p.default_choice].name << "  (" << p.choice_names()
                      << "): " << p.en << "\n";
    }
    return kExitOk;
}

int cmd_show(const std::vector<std::string>& argv) {
    Args a(argv, "show", {"lessons"}, {"json"});
    if (a.positional().size() != 1) throw UsageError("'show' needs exactly one SCENARIO (see 'synclab list')");
    const Lessons lessons(a);
    const scenario::Scenario& s = lessons.find(a.positional()[0]);
    if (a.flag("json")) {
        nlohmann::json vs = nlohmann::json::array();
        for (const scenario::Variant& v : s.variants)
            vs.push_back({{"id", v.id},
                          {"title", v.en.title},
                          {"must_find", kind_names(v.expect.must_find)},
                          {"must_not_find", kind_names(v.expect.must_not_find)},
                          {"wrong_outputs", scenario::to_string(v.expect.wrong_outputs)},
                          {"status", trace::to_string(v.expect.status)}});
        std::cout << nlohmann::json{{"id", s.id},
                                    {"topic", s.topic},
                                    {"title", s.en.title},
                                    {"shows", s.en.shows},
                                    {"lesson_file", s.lesson_file},
                                    {"params", params_json(s)},
                                    {"variants", vs}}
                         .dump(2)
                  << "\n";
        return kExitOk;
    }
    std::cout << s.id << "  [" << s.topic << "]  " << s.en.title << "\n\n" << s.en.shows << "\n\nvariants:\n";
    const int ids = variant_column({&s});
    for (const scenario::Variant& v : s.variants)
        std::cout << "  " << std::left << std::setw(ids) << v.id << title_beside_id(v) << "\n"
                  << "  " << std::setw(ids) << "" << "status " << trace::to_string(v.expect.status) << ", wrong outputs "
                  << scenario::to_string(v.expect.wrong_outputs) << "\n";
    std::cout << "parameters:" << (s.params.empty() ? " none\n" : "\n");
    for (const scenario::Param& p : s.params)
        std::cout << "  --param " << p.name << "=CHOICE  choices: " << p.choice_names() << " (default "
                  << p.choices[p.default_choice].name << ")\n    " << p.en << "\n";
    return kExitOk;
}

int cmd_run(const std::vector<std::string>& argv) {
    std::vector<std::string> valued = kRunValued;
    valued.push_back("variant");
    valued.push_back("lessons");
    valued.push_back("error-exitcode");
    Args a(argv, "run", valued, kRunFlags, {"param"});
    check_error_exitcode(a);
    if (a.positional().size() != 1) throw UsageError("'run' needs exactly one SCENARIO (see 'synclab list')");
    const Lessons lessons(a);
    const scenario::Scenario s = with_user_params(lessons.find(a.positional()[0]), param_values(a));
    std::string variants;
    for (const scenario::Variant& v : s.variants)
        variants += (variants.empty() ? "" : ", ") + v.id;
    const auto variant_id = a.value("variant");
    if (!variant_id) throw UsageError("'run " + s.id + "' needs --variant (one of: " + variants + ")");
    const scenario::Variant* v = s.find_variant(*variant_id);
    if (!v)
        throw UsageError("scenario " + s.id + " has no variant '" + *variant_id + "' (variants: " + variants +
                         ")");
    runner::RunOptions o = run_options(a);
    if (const auto buffer = a.value("histogram")) {
        std::string names;
        for (const scenario::BufferDecl& b : s.buffers) {
            if (b.name == *buffer) o.histogram.buffer = b.name;
            names += (names.empty() ? "" : ", ") + b.name;
        }
        if (o.histogram.buffer.empty())
            throw UsageError("--histogram " + *buffer + ": lesson " + s.id + " has no buffer of that name (buffers: " +
                             names + ")");
    } else if (s.outcomes.present()) {
        // The lesson's own outcome histogram.
        o.histogram.buffer = s.outcomes.buffer;
        o.histogram.per = s.outcomes.per;
    }
    const runner::RunSummary summary = run_job_or_explain(nullptr, &s, v, o, !a.flag("json"));
    save_if_asked(a, summary);
    if (a.flag("json")) {
        nlohmann::json out = summary_json(summary, o);
        out["params"] = chosen_json(s);
        std::cout << out.dump(2) << "\n";
    } else {
        if (!s.params.empty()) std::cout << "parameters: " << params_line(s) << "\n";
        print_run(a, summary, o);
    }
    return exit_code_of(a, summary);
}

// A .cu file's PTX, compiled as kernels/ are (nvcc, else NVRTC) plus the user's --nvcc-arg options.
std::string compile_cu(const std::string& path, const std::vector<std::string>& nvcc_args) {
    try {
        return compile::compile_file(path, compile::Options{nvcc_args}).ptx;
    } catch (const compile::CompileError& e) {
        throw InputError(std::string(e.what()) + (e.log().empty() ? "" : ":\n" + e.log()));
    }
}

// The CUDA source a kernel's line info points at (`.file N "x.cu"`), as given or next to the .ptx:
// (file name, text), or nothing when it is not on this machine.
std::optional<std::pair<std::string, std::string>>
source_of_ptx(const ptx::Function& kernel, const ptx::Module& module, const std::string& ptx_path) {
    const uint32_t file = kernel.source_file; // the kernel's own file, not a header a helper is in
    if (file == 0 || file >= module.files.size() || module.files[file].empty()) return std::nullopt;
    const std::filesystem::path named(module.files[file]);
    for (const std::filesystem::path& candidate :
         {named, std::filesystem::path(ptx_path).parent_path() / named.filename()}) {
        std::error_code ec;
        if (!std::filesystem::is_regular_file(candidate, ec)) continue;
        std::ifstream in(candidate, std::ios::binary);
        std::ostringstream text;
        text << in.rdbuf();
        if (in) return std::make_pair(named.filename().string(), text.str());
    }
    return std::nullopt;
}

// The parameter `name` names: "arg<i>", its PTX name or its buffer's name (`names`, buffer_names);
// SIZE_MAX for none.
size_t param_index(const ptx::Function& fn, const std::string& name, const std::vector<std::string>& names) {
    for (size_t i = 0; i < fn.params.size(); ++i)
        if (name == "arg" + std::to_string(i) || name == fn.params[i].name ||
            (i < names.size() && name == names[i]))
            return i;
    return SIZE_MAX;
}

int cmd_check(const std::vector<std::string>& argv) {
    std::vector<std::string> valued = kRunValued;
    for (const char* v : {"kernel", "grid", "block", "shared", "dump", "error-exitcode"})
        valued.push_back(v);
    std::vector<std::string> flags = kRunFlags;
    flags.push_back("cooperative");
    Args a(argv, "check", valued, flags, {"arg", "nvcc-arg"});
    check_error_exitcode(a);
    if (a.positional().size() != 1) throw UsageError("'check' needs exactly one FILE.cu or FILE.ptx");
    const std::string path = a.positional()[0];
    const auto kernel = a.value("kernel");
    if (!kernel) throw UsageError("'check' needs --kernel NAME");
    const auto grid = a.value("grid");
    const auto block = a.value("block");
    if (!grid || !block) throw UsageError("'check' needs --grid X[,Y,Z] and --block X[,Y,Z]");
    std::vector<ArgSpec> specs;
    const std::vector<std::string> arg_texts = a.values("arg");
    for (size_t i = 0; i < arg_texts.size(); ++i)
        specs.push_back(parse_arg_spec(arg_texts[i], i));
    runner::RunOptions o = run_options(a);

    const bool is_cu = path.size() > 3 && path.ends_with(".cu");
    if (!is_cu && !path.ends_with(".ptx"))
        throw UsageError("'check' takes a .cu or .ptx file, got '" + path + "'");
    const std::vector<std::string> nvcc_args = a.values("nvcc-arg");
    if (!is_cu && !nvcc_args.empty())
        throw UsageError("--nvcc-arg needs a .cu file (a .ptx is compiled already)");
    const std::string source = read_file(path);
    const std::string ptx_text = is_cu ? compile_cu(path, nvcc_args) : source;
    const std::string ptx_name = std::filesystem::path(path).filename().replace_extension(".ptx").string();
    ptx::Module module;
    const ptx::Function* fn = nullptr;
    try {
        module = ptx::parse_module(ptx_text, ptx_name);
    } catch (const ptx::ParseError& e) {
        throw InputError(e.what());
    }
    try {
        fn = &ptx::require_kernel(module, *kernel, ptx_name);
    } catch (const ptx::KernelLookupError& e) {
        throw UsageError(e.what()); // a --kernel that names no kernel (or several) of the file
    }
    // The CUDA source, for the parameters' names: the .cu itself, or the one a .ptx made with
    // -lineinfo names where it is on this machine.
    std::string source_name = std::filesystem::path(path).filename().string(), source_text;
    if (is_cu) {
        source_text = source;
    } else if (const auto cu = source_of_ptx(*fn, module, path)) {
        source_name = cu->first;
        source_text = cu->second;
    }
    // Buffers are named as the user or the source names them, so that findings say "out[3]".
    const std::vector<std::string> source_names = source_parameter_names(source_text, *fn);
    const std::vector<std::string> names = buffer_names(*fn, specs, source_names);
    // Validate the bindings once, before running.
    build_inputs(*fn, specs, o.seed, names, source_names);
    if (const auto buffer = a.value("histogram")) {
        const size_t index = param_index(*fn, *buffer, names);
        if (index == SIZE_MAX || !specs[index].is_buffer)
            throw UsageError("--histogram " + *buffer +
                             (index == SIZE_MAX ? ": no parameter of that name"
                                                : ": parameter " + fn->params[index].name + " is a scalar") +
                             " (buffers are named by NAME:TYPE:COUNT, arg<i> or their parameter names)");
        o.histogram.buffer = names[index];
        o.histogram.type = specs[index].buffer.type;
    }
    // --dump: which parameter, and which of the run's buffers it is (checked before running).
    size_t dump_param = SIZE_MAX, dump_buffer = 0;
    if (const auto dump = a.value("dump")) {
        dump_param = param_index(*fn, *dump, names);
        if (dump_param == SIZE_MAX || !specs[dump_param].is_buffer)
            throw UsageError("--dump " + *dump +
                             (dump_param == SIZE_MAX
                                  ? ": no parameter of that name"
                                  : ": parameter " + fn->params[dump_param].name + " is a scalar") +
                             " (buffers are named by NAME:TYPE:COUNT, arg<i> or their parameter names)");
        for (size_t i = 0; i < dump_param; ++i)
            dump_buffer += specs[i].is_buffer ? 1 : 0;
    }

    runner::KernelJob job;
    job.module = &module;
    job.kernel = fn->name;
    job.launch.grid = parse_dim3(*grid, "--grid");
    job.launch.block = parse_dim3(*block, "--block");
    if (const std::string problem = launch::launch_problem(job.launch.grid, job.launch.block);
        !problem.empty())
        throw UsageError("--grid " + *grid + " --block " + *block + ": " + problem);
    job.launch.dynamic_shared_bytes =
        static_cast<uint32_t>(a.uint_or("shared", 0, 0, launch::kMaxSharedBytes));
    // cudaLaunchCooperativeKernel: every block resident at once (refused, before anything runs, when
    // they cannot be), and cooperative groups' grid.sync() gets its workspace.
    job.launch.cooperative = a.flag("cooperative");
    job.make_inputs = [fn, specs, names](uint64_t seed) { return build_inputs(*fn, specs, seed, names); };
    // A .ptx made with -lineinfo names its .cu: show (and check) the CUDA lines where it is here.
    job.source_name = source_name;
    job.source_text = source_text;
    job.ptx_text = ptx_text;
    const runner::RunSummary summary = run_job_or_explain(&job, nullptr, nullptr, o, !a.flag("json"));
    save_if_asked(a, summary);
    const bool dumped = dump_param != SIZE_MAX && dump_buffer < summary.final_buffers.size();
    const launch::ElemType dump_type = dumped ? specs[dump_param].buffer.type : launch::ElemType{};
    if (a.flag("json")) {
        // One JSON document: the dump is a field of it, its values as the histogram writes them.
        nlohmann::json j = summary_json(summary, o);
        if (dumped) {
            const std::vector<uint8_t>& bytes = summary.final_buffers[dump_buffer].bytes;
            j["dump"] = {{"buffer", "arg" + std::to_string(dump_param)},
                         {"type", launch::to_string(dump_type)},
                         {"count", specs[dump_param].buffer.count},
                         {"values", launch::format_values(bytes, dump_type, 0, specs[dump_param].buffer.count)}};
        }
        std::cout << j.dump(2) << "\n";
    } else {
        print_run(a, summary, o);
        if (dumped)
            std::cout << "arg" << dump_param << " (" << launch::to_string(dump_type) << " x "
                      << specs[dump_param].buffer.count << "):\n"
                      << launch::format_buffer(summary.final_buffers[dump_buffer].bytes, dump_type);
    }
    return exit_code_of(a, summary);
}

trace::Trace load(const std::string& path) {
    try {
        return trace::load_trace(path);
    } catch (const std::exception& e) {
        throw InputError(e.what());
    }
}

int cmd_report(const std::vector<std::string>& argv) {
    Args a(argv, "report", {}, {});
    if (a.positional().size() != 1) throw UsageError("'report' needs exactly one FILE.slt");
    const trace::Trace t = load(a.positional()[0]);
    print_findings_report(std::cout, t, analysis::analyze(t));
    return kExitOk;
}

int cmd_export(const std::vector<std::string>& argv) {
    Args a(argv, "export", {"chrome"}, {});
    if (a.positional().size() != 1) throw UsageError("'export' needs exactly one FILE.slt");
    const auto out = a.value("chrome");
    if (!out) throw UsageError("'export' needs --chrome OUT.json");
    const trace::Trace t = load(a.positional()[0]);
    try {
        trace::export_chrome_json(t, *out);
    } catch (const std::exception& e) {
        throw InputError(std::string("could not write ") + *out + ": " + e.what());
    }
    std::cout << "wrote " << *out << " (" << t.events.size() << " events); open it in ui.perfetto.dev\n";
    return kExitOk;
}

// `table --backend gpu`: every variant on the GPU, untraced beside traced, and beside the simulator's
// outcome of the same variant (random schedule, as many seeds as GPU launches): does the model agree
// with the hardware (completes or hangs; wrong outputs or not)? The lessons' verdicts are about the
// simulator, so no verdict column: the hardware's outcome is the lesson here.
int cmd_table_gpu(const Args& a, const std::vector<const scenario::Scenario*>& lessons) {
    const int scenario_w = scenario_column(lessons), variant_w = variant_column(lessons);
    runner::RunOptions o;
    o.backend = "gpu";
    o.reps = static_cast<uint32_t>(a.uint_or("seeds", 3, 1, 1000));
    o.gpu.timeout_s = a.double_or("timeout", 5, 0.05, 3600);
    runner::RunOptions sim_options;
    sim_options.schedule = sim::Schedule::Random;
    sim_options.reps = o.reps;
    nlohmann::json rows = nlohmann::json::array();
    bool header = false;
    uint32_t variants = 0, agreeing = 0;
    for (const scenario::Scenario* lesson : lessons)
        for (const scenario::Variant& v : lesson->variants) {
            const scenario::Scenario& s = *lesson;
            runner::RunSummary r;
            try {
                r = runner::run_scenario(s, v, o);
            } catch (const gpu::Unavailable& e) {
                throw InputError(std::string(e.what()) + ": use 'synclab table' (the simulator)");
            }
            const runner::RunSummary simulated = runner::run_scenario(s, v, sim_options);
            const runner::Outcome sim_outcome = runner::simulator_outcome(simulated);
            const runner::Outcome gpu_outcome = runner::gpu_outcome(r.gpu_untraced);
            const bool agree = runner::outcomes_agree(sim_outcome, gpu_outcome);
            ++variants;
            agreeing += agree ? 1 : 0;
            const runner::GpuSide& u = r.gpu_untraced;
            const runner::GpuSide& t = r.gpu_traced;
            const std::string kinds = runner::finding_kind_list(r);
            if (a.flag("json")) {
                nlohmann::json row = summary_json(r, o);
                row["simulator"] = {{"status", trace::to_string(simulated.status)},
                                    {"wrong_outputs", simulated.wrong_outputs},
                                    {"checked_outputs", simulated.checked_outputs},
                                    {"outcome", sim_outcome.text}};
                row["gpu_outcome"] = gpu_outcome.text;
                row["simulator_agrees"] = agree;
                rows.push_back(row);
                continue;
            }
            if (!header) {
                std::cout << "device: " << r.device << "\n"
                          << std::left << std::setw(scenario_w) << "scenario" << std::setw(variant_w) << "variant"
                          << std::setw(9) << "untraced" << std::setw(14) << "wrong/checked" << std::setw(11)
                          << "kernel ms" << std::setw(9) << "traced" << std::setw(10) << "events"
                          << std::setw(11) << "kernel ms" << std::setw(34) << "findings"
                          << "simulator (agrees?)\n";
                header = true;
            }
            char ums[32], tms[32];
            std::snprintf(ums, sizeof ums, "%.4f", u.kernel_ms);
            std::snprintf(tms, sizeof tms, "%.4f", t.kernel_ms);
            std::cout << std::left << std::setw(scenario_w) << s.id << std::setw(variant_w) << v.id << std::setw(9)
                      << trace::to_string(u.status) << std::setw(14)
                      << (std::to_string(u.wrong_outputs) + "/" + std::to_string(u.checked_outputs))
                      << std::setw(11) << (u.kernel_ms > 0 ? ums : "-") << std::setw(9)
                      << trace::to_string(t.status) << std::setw(10) << t.events << std::setw(11)
                      << (t.kernel_ms > 0 ? tms : "-") << std::setw(34) << (kinds.empty() ? "-" : kinds)
                      << sim_outcome.text << (agree ? " (yes)" : " (NO)") << "\n";
            if (r.status != trace::RunStatus::Ok) std::cout << "    " << r.message << "\n";
        }
    if (a.flag("json")) {
        std::cout << rows.dump(2) << "\n";
        return kExitOk;
    }
    std::cout << "\nthe simulator agrees with the untraced GPU on " << agreeing << " of " << variants
              << " variants (completes or hangs; wrong outputs or not)\n"
              << "(GPU: " << o.reps << " untraced launches and one traced launch per variant, timeout "
              << o.gpu.timeout_s << " s; simulator: random schedule, " << o.reps
              << " seeds; 'synclab run SCENARIO --variant V --backend gpu' for details)\n";
    return kExitOk;
}

int cmd_table(const std::vector<std::string>& argv) {
    Args a(argv, "table", {"seeds", "backend", "timeout", "lessons", "memory", "warp-model"}, {"json"}, {"param"});
    if (!a.positional().empty()) throw UsageError("'table' takes no arguments");
    const std::string backend = a.value_or("backend", "sim");
    const sim::WarpModel warp_model = warp_model_option(a, backend);
    std::optional<launch::MemoryModel> memory; // unset: each lesson's own
    if (const auto m = a.value("memory")) {
        if (backend == "gpu")
            throw UsageError("--memory picks the simulator's memory model: it cannot go with --backend gpu "
                             "(the GPU has its own)");
        launch::MemoryModel model;
        if (!launch::parse_memory_model(*m, model))
            throw UsageError("--memory must be sc or relaxed, got '" + *m + "'");
        memory = model;
    }
    const Lessons lessons(a);
    // --param NAME=CHOICE goes to every lesson whose parameter NAME offers CHOICE (lessons may share
    // a name, e.g. input, with different choices); one that no lesson offers is a usage error.
    const scenario::ParamValues values = param_values(a);
    auto offers = [](const scenario::Scenario& s, const std::pair<std::string, std::string>& v) {
        return std::any_of(s.params.begin(), s.params.end(), [&](const scenario::Param& p) {
            return p.name == v.first && p.find(v.second) != nullptr;
        });
    };
    for (const auto& v : values) {
        std::string known;
        for (const scenario::Scenario* s : lessons.all())
            for (const scenario::Param& p : s->params)
                if (p.name == v.first) known += (known.empty() ? "" : "; ") + s->id + ": " + p.choice_names();
        if (std::none_of(lessons.all().begin(), lessons.all().end(),
                         [&](const scenario::Scenario* s) { return offers(*s, v); }))
            throw UsageError("--param " + v.first + "=" + v.second + ": " +
                             (known.empty() ? "no lesson has a parameter '" + v.first + "'"
                                            : "no lesson's parameter '" + v.first + "' offers '" + v.second +
                                                  "' (" + known + ")"));
    }
    std::vector<scenario::Scenario> chosen;
    chosen.reserve(lessons.all().size());
    for (const scenario::Scenario* s : lessons.all()) {
        scenario::ParamValues mine;
        for (const auto& v : values)
            if (offers(*s, v)) mine.push_back(v);
        chosen.push_back(with_user_params(*s, mine));
    }
    std::vector<const scenario::Scenario*> with_choices;
    for (const scenario::Scenario& s : chosen)
        with_choices.push_back(&s);
    if (backend == "gpu") return cmd_table_gpu(a, with_choices);
    if (backend != "sim") throw UsageError("--backend must be 'sim' or 'gpu', got '" + backend + "'");
    if (a.value("timeout")) throw UsageError("--timeout needs --backend gpu");
    const uint32_t seeds = static_cast<uint32_t>(a.uint_or("seeds", 3, 1, 1000));
    nlohmann::json rows = nlohmann::json::array();
    const int scenario_w = scenario_column(with_choices), variant_w = variant_column(with_choices);
    if (!a.flag("json"))
        std::cout << std::left << std::setw(scenario_w) << "scenario" << std::setw(variant_w) << "variant" << std::setw(15)
                  << "outcome" << std::setw(16) << "wrong/checked" << std::setw(34) << "findings"
                  << "verdict\n";
    int failures = 0;
    for (const scenario::Scenario* lesson : with_choices)
        for (const scenario::Variant& v : lesson->variants) {
            const scenario::Scenario& s = *lesson;
            runner::RunOptions o;
            o.schedule = sim::Schedule::Random;
            o.seed = 1;
            o.reps = seeds;
            o.memory = memory;
            o.limits.warp_model = warp_model;
            const runner::RunSummary r = runner::run_scenario(s, v, o);
            const runner::VerdictCheck verdict = runner::check_expectation(v.expect, r, true);
            failures += verdict.pass ? 0 : 1;
            const std::string kinds = runner::finding_kind_list(r);
            if (a.flag("json")) {
                rows.push_back({{"scenario", s.id},
                                {"variant", v.id},
                                {"params", chosen_json(s)},
                                {"memory_model", launch::to_string(r.memory)},
                                {"status", trace::to_string(r.status)},
                                {"outcome", runner::to_string(runner::run_outcome(r))},
                                {"wrong_outputs", r.wrong_outputs},
                                {"checked_outputs", r.checked_outputs},
                                {"findings", kind_names(runner::finding_kinds(r))},
                                {"as_expected", verdict.pass},
                                {"verdict", runner::to_string(runner::lesson_match(verdict))},
                                {"problems", verdict.problems}});
                continue;
            }
            std::cout << std::left << std::setw(scenario_w) << s.id << std::setw(variant_w) << v.id << std::setw(15)
                      << runner::to_string(runner::run_outcome(r)) << std::setw(16)
                      << (std::to_string(r.wrong_outputs) + "/" + std::to_string(r.checked_outputs))
                      << std::setw(34) << (kinds.empty() ? "-" : kinds)
                      << runner::to_string(runner::lesson_match(verdict)) << "\n";
            for (const std::string& p : verdict.problems)
                std::cout << "    ! " << p << "\n";
        }
    if (a.flag("json"))
        std::cout << rows.dump(2) << "\n";
    else
        std::cout << "\n"
                  << (failures ? std::to_string(failures) + " variants did not behave as their lessons say\n"
                               : "every variant behaved as its lesson says\n")
                  << "(simulator, random schedule, " << seeds << " seeds each, memory "
                  << (memory ? launch::to_string(*memory) : "as each lesson says")
                  << "; 'synclab run SCENARIO --variant V' for details)\n";
    return kExitOk;
}

int dispatch(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty()) {
        std::cerr << kUsage;
        return kExitUsage;
    }
    const std::string command = args.front();
    args.erase(args.begin());
    if (command == "help" || command == "--help" || command == "-h") {
        std::cout << kUsage << "\nThe optimisation ladder:\n" << kLadderUsage << "\nThe lessons' claims:\n" << kClaimsUsage;
        return kExitOk;
    }
    if (command == "--version" || command == "version") {
        std::cout << "synclab 0.1.0\n";
        return kExitOk;
    }
    if (command == "list") return cmd_list(args);
    if (command == "show") return cmd_show(args);
    if (command == "run") return cmd_run(args);
    if (command == "check") return cmd_check(args);
    if (command == "report") return cmd_report(args);
    if (command == "export") return cmd_export(args);
    if (command == "table") return cmd_table(args);
    if (command == "ladder") return cmd_ladder(args);
    if (command == "claims") return cmd_claims(args);
    throw UsageError("unknown command '" + command +
                     "' (commands: list, run, check, report, export, table, ladder, claims, help)");
}

} // namespace
} // namespace synclab::cli

int main(int argc, char** argv) {
    using namespace synclab::cli;
    try {
        return dispatch(argc, argv);
    } catch (const UsageError& e) {
        std::cerr << "synclab: " << e.what() << "\n";
        return kExitUsage;
    } catch (const InputError& e) {
        std::cerr << "synclab: " << e.what() << "\n";
        return kExitInput;
    } catch (const synclab::ptx::ParseError& e) {
        std::cerr << "synclab: " << e.what() << "\n";
        return kExitInput;
    } catch (const std::exception& e) {
        std::cerr << "synclab: internal error: " << e.what() << "\n";
        return 1;
    }
}
