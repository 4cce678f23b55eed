// synclab: the headless command line over SyncLab's libraries.
//
//   synclab list [--json]
//   synclab run SCENARIO --variant V [run options] [--out FILE.slt] [--json]
//               run options: --backend sim|gpu, --schedule, --seed, --reps; GPU: --untraced, --live,
//               --timeout S, --trace-buffer MB
//   synclab check FILE.cu|FILE.ptx --kernel NAME --grid X[,Y,Z] --block X[,Y,Z] [--shared BYTES]
//                 --arg SPEC ... [--dump NAME] [run options] [--out FILE.slt] [--json]
//   synclab report FILE.slt
//   synclab export FILE.slt --chrome OUT.json
//   synclab table [--seeds N]          every scenario variant on the simulator, with verdicts
//   synclab table --backend gpu        every scenario variant on the GPU, untraced and traced
//
// Exit codes: 0 it ran (whatever it found), 2 usage error, 3 input error (also: the GPU cannot be
// used here, e.g. "no NVIDIA driver found (...): use --backend sim").
#include "cli/args.h"
#include "cli/kernel_args.h"
#include "cli/report.h"
#include "gpu/client.h"
#include "ptx/parser.h"
#include "runner/runner.h"
#include "scenario/scenario.h"
#include "trace/chrome_export.h"
#include "trace/slt_file.h"

#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

namespace synclab::cli {
namespace {

const char* kUsage = R"(SyncLab: CUDA synchronization bugs, run and shown.

Usage:
  synclab list [--json]
      The scenarios and their variants.
  synclab run SCENARIO --variant V [--backend sim|gpu] [--schedule rr|random|adversarial]
              [--seed N] [--reps N] [--untraced] [--live] [--timeout S] [--trace-buffer MB]
              [--out FILE.slt] [--json]
      Runs one variant, checks its outputs against the CPU reference and reports findings.
      --backend gpu runs it on the GPU (through the worker synclab-gpu): N untraced launches (the
      hardware's own outcome and kernel time) and one traced launch (events, findings), both
      reported. --untraced: no traced launch. --live: the trace goes to mapped host memory and is
      shown as it arrives. --timeout S (default 5): a kernel still running then is stopped, and the
      run reports which threads wait where. --trace-buffer MB (default 4096): the most the traced
      launch's events may take; the buffer is sized from a first launch and the GPU's free memory,
      and where the launch's events do not fit, a sample of blocks is recorded whole (the report
      names them; the analyses use only blocks whose history is whole).
  synclab check FILE.cu|FILE.ptx --kernel NAME --grid X[,Y,Z] --block X[,Y,Z] [--shared BYTES]
              --arg SPEC ... [--dump NAME] [same run options] [--json]
      Runs your own kernel in the simulator (or --backend gpu). SPEC: buf:TYPE:COUNT[:zero|iota|random|const=V]
      for a pointer (TYPE: i8 u8 i16 u16 i32 u32 i64 u64 f32 f64), a plain number for a scalar.
      Buffers are named arg0, arg1 ... (parameter position); --dump arg1 prints one afterwards.
  synclab report FILE.slt
      The findings of a saved trace, in a compute-sanitizer-like form.
  synclab export FILE.slt --chrome OUT.json
      Chrome trace-event JSON (open it in ui.perfetto.dev or chrome://tracing).
  synclab table [--seeds N] [--json]
      Every variant of every scenario on the simulator (N random seeds, default 3), with verdicts.
  synclab table --backend gpu [--seeds N] [--timeout S] [--json]
      Every variant on the GPU: N untraced launches beside one traced launch.

Exit codes: 0 it ran (whatever it found), 2 usage error, 3 input error.
)";

const std::vector<std::string> kRunValued = {"backend", "schedule",  "seed",    "reps",
                                             "out",     "max-steps", "timeout", "trace-buffer"};
const std::vector<std::string> kRunFlags = {"json", "untraced", "live"};

// [SECTION] Shared option handling

runner::RunOptions run_options(const Args& a) {
    runner::RunOptions o;
    o.backend = a.value_or("backend", "sim");
    if (o.backend != "sim" && o.backend != "gpu")
        throw UsageError("--backend must be 'sim' or 'gpu', got '" + o.backend + "'");
    if (o.backend == "sim")
        for (const char* gpu_only : {"untraced", "live", "timeout", "trace-buffer"})
            if (a.flag(gpu_only)) throw UsageError(std::string("--") + gpu_only + " needs --backend gpu");
    if (a.flag("untraced") && a.flag("live"))
        throw UsageError("--live shows the trace as it arrives: it cannot go with --untraced");
    o.gpu.traced = !a.flag("untraced");
    o.gpu.live = a.flag("live");
    o.gpu.timeout_s = a.double_or("timeout", 5, 0.05, 3600);
    o.gpu.trace.cap_bytes = a.uint_or("trace-buffer", gpu::kDefaultTraceCap >> 20, 1, uint64_t(1) << 24)
                            << 20;
    if (a.flag("untraced") && a.value("trace-buffer"))
        throw UsageError("--trace-buffer sizes the traced launch: it cannot go with --untraced");
    const std::string schedule = a.value_or("schedule", "random");
    if (!sim::parse_schedule(schedule, o.schedule))
        throw UsageError("--schedule must be rr, random or adversarial, got '" + schedule + "'");
    o.seed = a.uint_or("seed", 1, 0, UINT64_MAX / 2);
    o.reps = static_cast<uint32_t>(a.uint_or("reps", 1, 1, 100000));
    o.limits.max_steps = a.uint_or("max-steps", o.limits.max_steps, 1000, UINT64_MAX / 2);
    return o;
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

// [SECTION] Commands

int cmd_list(const std::vector<std::string>& argv) {
    Args a(argv, "list", {}, {"json"});
    if (!a.positional().empty())
        throw UsageError("'list' takes no arguments, got '" + a.positional()[0] + "'");
    if (a.flag("json")) {
        nlohmann::json out = nlohmann::json::array();
        for (const scenario::Scenario& s : scenario::catalog()) {
            nlohmann::json vs = nlohmann::json::array();
            for (const scenario::Variant& v : s.variants)
                vs.push_back({{"id", v.id},
                              {"kernel", v.kernel},
                              {"title", v.en.title},
                              {"must_find", v.expect.must_find}});
            out.push_back({{"id", s.id},
                           {"topic", s.topic},
                           {"title", s.en.title},
                           {"title_zh", s.zh.title},
                           {"source", s.source_file},
                           {"variants", vs}});
        }
        std::cout << out.dump(2) << "\n";
        return kExitOk;
    }
    for (const scenario::Scenario& s : scenario::catalog()) {
        std::cout << s.id << "  [" << s.topic << "]  " << s.en.title << "\n";
        for (const scenario::Variant& v : s.variants)
            std::cout << "    " << std::left << std::setw(22) << v.id << v.en.title << "\n";
    }
    return kExitOk;
}

const scenario::Scenario& scenario_arg(const std::string& id) {
    const scenario::Scenario* s = scenario::find_scenario(id);
    if (!s) {
        std::string ids;
        for (const scenario::Scenario& c : scenario::catalog())
            ids += (ids.empty() ? "" : ", ") + c.id;
        throw UsageError("unknown scenario '" + id + "' (scenarios: " + ids + ")");
    }
    return *s;
}

int cmd_run(const std::vector<std::string>& argv) {
    std::vector<std::string> valued = kRunValued;
    valued.push_back("variant");
    Args a(argv, "run", valued, kRunFlags);
    if (a.positional().size() != 1) throw UsageError("'run' needs exactly one SCENARIO (see 'synclab list')");
    const scenario::Scenario& s = scenario_arg(a.positional()[0]);
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
    const runner::RunSummary summary = run_job_or_explain(nullptr, &s, v, o, !a.flag("json"));
    save_if_asked(a, summary);
    print_run(a, summary, o);
    return kExitOk;
}

// Compiles a .cu to PTX with nvcc (the CUDA toolkit), into a temporary file.
std::string compile_cu(const std::string& path) {
    std::string nvcc;
    for (const char* candidate : {"/usr/local/cuda/bin/nvcc", "/usr/bin/nvcc"})
        if (access(candidate, X_OK) == 0) nvcc = candidate;
    if (const char* home = std::getenv("CUDA_HOME")) {
        const std::string c = std::string(home) + "/bin/nvcc";
        if (access(c.c_str(), X_OK) == 0) nvcc = c;
    }
    if (nvcc.empty())
        throw InputError(path + ": compiling CUDA needs nvcc (the CUDA toolkit), which is not installed; "
                                "compile it elsewhere with 'nvcc -ptx -lineinfo' and pass the .ptx");
    char tmpl[] = "/tmp/synclab-check-XXXXXX";
    const int fd = mkstemp(tmpl);
    if (fd < 0) throw InputError("cannot create a temporary file for nvcc's output");
    close(fd);
    const std::string out = std::string(tmpl) + ".ptx";
    const std::string log = std::string(tmpl) + ".log";
    // The same flags the build compiles kernels/ with (CMakeLists.txt: SYNCLAB_NVCC_FLAGS). nvcc runs
    // without a shell, so no file name can be misread as shell syntax.
    std::vector<std::string> words = {nvcc};
    std::stringstream flags(SYNCLAB_NVCC_FLAGS);
    for (std::string flag; flags >> flag;)
        words.push_back(flag);
    for (const std::string& w : {path, std::string("-o"), out})
        words.push_back(w);
    std::vector<char*> argv;
    for (std::string& w : words)
        argv.push_back(w.data());
    argv.push_back(nullptr);
    int rc = -1;
    if (const pid_t pid = fork(); pid == 0) {
        const int log_fd = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (log_fd >= 0) {
            dup2(log_fd, STDOUT_FILENO);
            dup2(log_fd, STDERR_FILENO);
        }
        execv(argv[0], argv.data());
        _exit(127);
    } else if (pid > 0) {
        int status = 0;
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
        rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }
    std::string text;
    if (rc == 0) text = read_file(out);
    const std::string messages = rc == -1 ? std::string("could not start ") + nvcc : read_file(log);
    std::remove(out.c_str());
    std::remove(log.c_str());
    std::remove(tmpl);
    if (rc != 0) throw InputError(path + ": nvcc failed:\n" + messages);
    return text;
}

int cmd_check(const std::vector<std::string>& argv) {
    std::vector<std::string> valued = kRunValued;
    for (const char* v : {"kernel", "grid", "block", "shared", "dump"})
        valued.push_back(v);
    Args a(argv, "check", valued, kRunFlags, {"arg"});
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
    const std::string source = read_file(path);
    const std::string ptx_text = is_cu ? compile_cu(path) : source;
    ptx::Module module;
    try {
        module = ptx::parse_module(ptx_text,
                                   std::filesystem::path(path).filename().replace_extension(".ptx").string());
    } catch (const ptx::ParseError& e) {
        throw InputError(e.what());
    }
    const ptx::Function* fn = module.find_entry(*kernel);
    if (!fn) {
        std::string names;
        for (const std::string& n : module.entry_names())
            names += (names.empty() ? "" : ", ") + n;
        throw UsageError("no kernel '" + *kernel + "' in " + path +
                         " (kernels: " + (names.empty() ? "none" : names) +
                         "; a C++ kernel's name is mangled unless declared extern \"C\")");
    }
    // Validate the bindings once, before running.
    build_inputs(*fn, specs, o.seed);

    runner::KernelJob job;
    job.module = &module;
    job.kernel = *kernel;
    job.launch.grid = parse_dim3(*grid, "--grid");
    job.launch.block = parse_dim3(*block, "--block");
    job.launch.dynamic_shared_bytes = static_cast<uint32_t>(a.uint_or("shared", 0, 0, 227 * 1024));
    job.make_inputs = [fn, specs](uint64_t seed) { return build_inputs(*fn, specs, seed); };
    job.source_name = std::filesystem::path(path).filename().string();
    if (is_cu) job.source_text = source;
    job.ptx_text = ptx_text;
    const runner::RunSummary summary = run_job_or_explain(&job, nullptr, nullptr, o, !a.flag("json"));
    save_if_asked(a, summary);
    print_run(a, summary, o);
    if (const auto dump = a.value("dump")) {
        size_t index = SIZE_MAX;
        for (size_t i = 0; i < fn->params.size(); ++i)
            if (*dump == "arg" + std::to_string(i) || *dump == fn->params[i].name) index = i;
        if (index == SIZE_MAX || !specs[index].is_buffer)
            throw UsageError("--dump " + *dump +
                             ": no buffer of that name (buffers are arg<i> for buf: arguments)");
        size_t buffer = 0;
        for (size_t i = 0; i < index; ++i)
            buffer += specs[i].is_buffer ? 1 : 0;
        if (buffer < summary.final_buffers.size())
            std::cout << "arg" << index << " (" << launch::to_string(specs[index].buffer.type) << " x "
                      << specs[index].buffer.count << "):\n"
                      << launch::format_buffer(summary.final_buffers[buffer].bytes, specs[index].buffer.type);
    }
    return kExitOk;
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

// `table --backend gpu`: every variant on the GPU, untraced beside traced. The lessons' verdicts are
// about the simulator, so no verdict column: the hardware's outcome is the lesson here.
int cmd_table_gpu(const Args& a) {
    runner::RunOptions o;
    o.backend = "gpu";
    o.reps = static_cast<uint32_t>(a.uint_or("seeds", 3, 1, 1000));
    o.gpu.timeout_s = a.double_or("timeout", 5, 0.05, 3600);
    nlohmann::json rows = nlohmann::json::array();
    bool header = false;
    for (const scenario::Scenario& s : scenario::catalog())
        for (const scenario::Variant& v : s.variants) {
            runner::RunSummary r;
            try {
                r = runner::run_scenario(s, v, o);
            } catch (const gpu::Unavailable& e) {
                throw InputError(std::string(e.what()) + ": use 'synclab table' (the simulator)");
            }
            const runner::GpuSide& u = r.gpu_untraced;
            const runner::GpuSide& t = r.gpu_traced;
            std::string kinds;
            for (const std::string& k : runner::finding_kinds(r))
                kinds += (kinds.empty() ? "" : ",") + k;
            if (a.flag("json")) {
                rows.push_back(summary_json(r, o));
                continue;
            }
            if (!header) {
                std::cout << "device: " << r.device << "\n"
                          << std::left << std::setw(20) << "scenario" << std::setw(22) << "variant"
                          << std::setw(9) << "untraced" << std::setw(14) << "wrong/checked" << std::setw(11)
                          << "kernel ms" << std::setw(9) << "traced" << std::setw(10) << "events"
                          << std::setw(11) << "kernel ms"
                          << "findings\n";
                header = true;
            }
            char ums[32], tms[32];
            std::snprintf(ums, sizeof ums, "%.4f", u.kernel_ms);
            std::snprintf(tms, sizeof tms, "%.4f", t.kernel_ms);
            std::cout << std::left << std::setw(20) << s.id << std::setw(22) << v.id << std::setw(9)
                      << trace::to_string(u.status) << std::setw(14)
                      << (std::to_string(u.wrong_outputs) + "/" + std::to_string(u.checked_outputs))
                      << std::setw(11) << (u.kernel_ms > 0 ? ums : "-") << std::setw(9)
                      << trace::to_string(t.status) << std::setw(10) << t.events << std::setw(11)
                      << (t.kernel_ms > 0 ? tms : "-") << (kinds.empty() ? "-" : kinds) << "\n";
            if (r.status != trace::RunStatus::Ok) std::cout << "    " << r.message << "\n";
        }
    if (a.flag("json"))
        std::cout << rows.dump(2) << "\n";
    else
        std::cout << "\n(GPU: " << o.reps << " untraced launches and one traced launch per variant, timeout "
                  << o.gpu.timeout_s << " s; 'synclab run SCENARIO --variant V --backend gpu' for details)\n";
    return kExitOk;
}

int cmd_table(const std::vector<std::string>& argv) {
    Args a(argv, "table", {"seeds", "backend", "timeout"}, {"json"});
    if (!a.positional().empty()) throw UsageError("'table' takes no arguments");
    const std::string backend = a.value_or("backend", "sim");
    if (backend == "gpu") return cmd_table_gpu(a);
    if (backend != "sim") throw UsageError("--backend must be 'sim' or 'gpu', got '" + backend + "'");
    if (a.value("timeout")) throw UsageError("--timeout needs --backend gpu");
    const uint32_t seeds = static_cast<uint32_t>(a.uint_or("seeds", 3, 1, 1000));
    nlohmann::json rows = nlohmann::json::array();
    if (!a.flag("json"))
        std::cout << std::left << std::setw(20) << "scenario" << std::setw(22) << "variant" << std::setw(10)
                  << "status" << std::setw(16) << "wrong/checked" << std::setw(34) << "findings"
                  << "verdict\n";
    int failures = 0;
    for (const scenario::Scenario& s : scenario::catalog())
        for (const scenario::Variant& v : s.variants) {
            runner::RunOptions o;
            o.schedule = sim::Schedule::Random;
            o.seed = 1;
            o.reps = seeds;
            const runner::RunSummary r = runner::run_scenario(s, v, o);
            const runner::VerdictCheck verdict = runner::check_expectation(v.expect, r, true);
            failures += verdict.pass ? 0 : 1;
            std::string kinds;
            for (const std::string& k : runner::finding_kinds(r))
                kinds += (kinds.empty() ? "" : ",") + k;
            if (a.flag("json")) {
                rows.push_back({{"scenario", s.id},
                                {"variant", v.id},
                                {"status", trace::to_string(r.status)},
                                {"wrong_outputs", r.wrong_outputs},
                                {"checked_outputs", r.checked_outputs},
                                {"findings", runner::finding_kinds(r)},
                                {"as_expected", verdict.pass},
                                {"problems", verdict.problems}});
                continue;
            }
            std::cout << std::left << std::setw(20) << s.id << std::setw(22) << v.id << std::setw(10)
                      << trace::to_string(r.status) << std::setw(16)
                      << (std::to_string(r.wrong_outputs) + "/" + std::to_string(r.checked_outputs))
                      << std::setw(34) << (kinds.empty() ? "-" : kinds)
                      << (verdict.pass ? "as expected" : "UNEXPECTED") << "\n";
            for (const std::string& p : verdict.problems)
                std::cout << "    ! " << p << "\n";
        }
    if (a.flag("json"))
        std::cout << rows.dump(2) << "\n";
    else
        std::cout << "\n"
                  << (failures ? std::to_string(failures) + " variants did not behave as their lessons say\n"
                               : "every variant behaved as its lesson says\n")
                  << "(simulator, random schedule, " << seeds
                  << " seeds each; 'synclab run SCENARIO --variant V' for details)\n";
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
        std::cout << kUsage;
        return kExitOk;
    }
    if (command == "--version" || command == "version") {
        std::cout << "synclab 0.1.0\n";
        return kExitOk;
    }
    if (command == "list") return cmd_list(args);
    if (command == "run") return cmd_run(args);
    if (command == "check") return cmd_check(args);
    if (command == "report") return cmd_report(args);
    if (command == "export") return cmd_export(args);
    if (command == "table") return cmd_table(args);
    throw UsageError("unknown command '" + command +
                     "' (commands: list, run, check, report, export, table, help)");
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
