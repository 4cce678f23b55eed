#include "compile/compile.h"

#include "compile/nvrtc_api.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

namespace synclab::compile {

namespace {

constexpr int kCompileTimeoutSeconds = 300; // a template-heavy kernel compiles in seconds

std::string read_whole_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

bool executable(const std::string& path) {
    return !path.empty() && access(path.c_str(), X_OK) == 0;
}

// Runs argv[0] with `argv` (no shell), stdout and stderr into `log_path`, for at most `timeout_s`
// seconds (then it is killed). Returns the exit code; -1 when it could not be started or did not
// exit normally; -2 when it ran out of time.
int run_process(std::vector<std::string> argv, const std::string& log_path, int timeout_s) {
    std::vector<char*> args;
    for (std::string& a : argv)
        args.push_back(a.data());
    args.push_back(nullptr);
    const pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        // O_EXCL: the log is new in a folder only we can write to.
        const int log_fd = open(log_path.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0600);
        if (log_fd >= 0) {
            dup2(log_fd, STDOUT_FILENO);
            dup2(log_fd, STDERR_FILENO);
        }
        execv(args[0], args.data());
        _exit(127);
    }
    int status = 0;
    for (int waited_ms = 0;; waited_ms += 20) {
        const pid_t done = waitpid(pid, &status, WNOHANG);
        if (done == pid) break;
        if (done < 0 && errno != EINTR) return -1;
        if (waited_ms >= timeout_s * 1000) {
            kill(pid, SIGKILL);
            while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
            }
            return -2;
        }
        usleep(20'000);
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// A private temporary folder (mkdtemp: mode 0700, a fresh name), removed with what is in it.
class TempDir {
  public:
    TempDir() {
        char tmpl[] = "/tmp/synclab-nvcc-XXXXXX";
        if (mkdtemp(tmpl) == nullptr)
            throw CompileError("cannot create a temporary folder for nvcc's output (" +
                                   std::string(std::strerror(errno)) + ")",
                               "");
        path_ = tmpl;
    }
    ~TempDir() {
        for (const char* name : {"/kernel.ptx", "/nvcc.log"})
            std::remove((path_ + name).c_str());
        rmdir(path_.c_str());
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    std::string file(const char* name) const { return path_ + "/" + name; }

  private:
    std::string path_;
};

// [SECTION] NVRTC, loaded at run time (nvrtc_api.h; nvrtc_api_check.cpp checks the declarations
// against the real header where the toolkit is installed).
struct NvrtcProgramTag;
using nvrtcProgram = NvrtcProgramTag*;
using nvrtcResult = int;

struct Nvrtc : detail::NvrtcApi<nvrtcResult, nvrtcProgram> {
    std::string why_not; // empty when loaded
};

template <class Fn> bool resolve(void* lib, Fn& slot, const char* name, std::string& why) {
    slot = reinterpret_cast<Fn>(dlsym(lib, name));
    if (!slot) why = std::string("the NVRTC library has no ") + name;
    return slot != nullptr;
}

const Nvrtc& nvrtc() {
    static Nvrtc api;
    static std::once_flag once;
    std::call_once(once, [] {
        const char* env = std::getenv("SYNCLAB_NVRTC");
        std::vector<std::string> candidates;
        if (env && *env) {
            candidates.push_back(env);
        } else {
            for (const char* name : {"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so"}) {
                candidates.push_back(name);
                candidates.push_back(std::string("/usr/local/cuda/lib64/") + name);
            }
        }
        void* lib = nullptr;
        std::string first_error;
        for (const std::string& c : candidates) {
            lib = dlopen(c.c_str(), RTLD_NOW | RTLD_LOCAL);
            if (lib) break;
            if (first_error.empty()) {
                const char* e = dlerror();
                first_error = e ? e : c + ": cannot be loaded";
            }
        }
        if (!lib) {
            api.why_not = "NVRTC not found (" + first_error + ")";
            return;
        }
        std::string why;
        const bool ok = resolve(lib, api.Version, "nvrtcVersion", why) &&
                        resolve(lib, api.GetErrorString, "nvrtcGetErrorString", why) &&
                        resolve(lib, api.CreateProgram, "nvrtcCreateProgram", why) &&
                        resolve(lib, api.DestroyProgram, "nvrtcDestroyProgram", why) &&
                        resolve(lib, api.CompileProgram, "nvrtcCompileProgram", why) &&
                        resolve(lib, api.GetPTXSize, "nvrtcGetPTXSize", why) &&
                        resolve(lib, api.GetPTX, "nvrtcGetPTX", why) &&
                        resolve(lib, api.GetProgramLogSize, "nvrtcGetProgramLogSize", why) &&
                        resolve(lib, api.GetProgramLog, "nvrtcGetProgramLog", why);
        if (!ok) api.why_not = why;
    });
    return api;
}

} // namespace

std::vector<std::string> build_flags() {
    std::vector<std::string> flags;
    std::stringstream words(SYNCLAB_NVCC_FLAGS);
    for (std::string flag; words >> flag;)
        flags.push_back(flag);
    return flags;
}

std::optional<std::string> find_nvcc() {
    if (const char* forced = std::getenv("SYNCLAB_NVCC"); forced && *forced) {
        if (std::string(forced) == "none") return std::nullopt;
        return executable(forced) ? std::optional<std::string>(forced) : std::nullopt;
    }
    if (const char* home = std::getenv("CUDA_HOME"); home && *home) {
        const std::string c = std::string(home) + "/bin/nvcc";
        if (executable(c)) return c;
    }
    if (executable("/usr/local/cuda/bin/nvcc")) return std::string("/usr/local/cuda/bin/nvcc");
    if (const char* path = std::getenv("PATH")) {
        std::stringstream dirs(path);
        for (std::string dir; std::getline(dirs, dir, ':');) {
            const std::string c = (dir.empty() ? "." : dir) + "/nvcc";
            if (executable(c)) return c;
        }
    }
    return std::nullopt;
}

Result compile_with_nvcc(const std::string& path, const Options& options) {
    const std::optional<std::string> nvcc = find_nvcc();
    if (!nvcc) throw CompileError(path + ": nvcc (the CUDA toolkit) is not installed here", "");
    const TempDir dir;
    const std::string out = dir.file("kernel.ptx");
    const std::string log = dir.file("nvcc.log");
    std::vector<std::string> argv = {*nvcc};
    for (const std::string& f : build_flags())
        argv.push_back(f);
    for (const std::string& f : options.extra_args)
        argv.push_back(f);
    for (const std::string& w : {path, std::string("-o"), out})
        argv.push_back(w);
    const int rc = run_process(argv, log, kCompileTimeoutSeconds);
    Result result;
    result.compiler = "nvcc";
    result.log = read_whole_file(log);
    if (rc == 0) result.ptx = read_whole_file(out);
    if (rc == -2)
        throw CompileError(path + ": nvcc did not finish within " + std::to_string(kCompileTimeoutSeconds) +
                               " s",
                           result.log);
    if (rc == -1 || rc == 127) throw CompileError(path + ": could not run " + *nvcc, result.log);
    if (rc != 0) throw CompileError(path + ": nvcc failed", result.log);
    if (result.ptx.empty()) throw CompileError(path + ": nvcc wrote no PTX", result.log);
    return result;
}

// The CUDA toolkit's header folders that exist here: $CUDA_HOME/include (else /usr/local/cuda's)
// and its cccl folder (libcu++, CUB, Thrust).
static std::vector<std::string> toolkit_include_dirs() {
    std::vector<std::string> roots;
    if (const char* home = std::getenv("CUDA_HOME"); home && *home) roots.push_back(std::string(home) + "/include");
    roots.push_back("/usr/local/cuda/include");
    std::vector<std::string> dirs;
    for (const std::string& root : roots) {
        std::error_code ec;
        if (!std::filesystem::is_directory(root, ec)) continue;
        if (std::filesystem::is_directory(root + "/cccl", ec)) dirs.push_back(root + "/cccl");
        dirs.push_back(root);
        break;
    }
    return dirs;
}

bool nvrtc_available(std::string* why) {
    const Nvrtc& api = nvrtc();
    if (why) *why = api.why_not;
    return api.why_not.empty();
}

Result compile_with_nvrtc(const std::string& source, const std::string& name, const Options& options) {
    const Nvrtc& api = nvrtc();
    if (!api.why_not.empty()) throw CompileError(name + ": " + api.why_not, "");
    // The build's flags, less the nvcc-only ones (NVRTC always makes PTX and always optimises).
    std::vector<std::string> flags;
    for (const std::string& f : build_flags())
        if (f != "-ptx" && !f.starts_with("-O")) flags.push_back(f);
    // nvcc knows where the toolkit's headers are; NVRTC knows only its built-in ones, so
    // <cuda/atomic> (libcu++, in include/cccl since CUDA 12.8) needs the toolkit's folders.
    for (const std::string& dir : toolkit_include_dirs())
        flags.push_back("--include-path=" + dir);
    for (const std::string& f : options.extra_args)
        flags.push_back(f);
    std::vector<const char*> argv;
    for (const std::string& f : flags)
        argv.push_back(f.c_str());

    nvrtcProgram program = nullptr;
    if (nvrtcResult r = api.CreateProgram(&program, source.c_str(), name.c_str(), 0, nullptr, nullptr);
        r != 0)
        throw CompileError(name + ": NVRTC could not create a program (" + api.GetErrorString(r) + ")", "");
    struct Destroy {
        const Nvrtc& api;
        nvrtcProgram* p;
        ~Destroy() { api.DestroyProgram(p); }
    } destroy{api, &program};

    const nvrtcResult compiled = api.CompileProgram(program, int(argv.size()), argv.data());
    Result result;
    int major = 0, minor = 0;
    api.Version(&major, &minor);
    result.compiler = "NVRTC " + std::to_string(major) + "." + std::to_string(minor);
    size_t log_size = 0;
    if (api.GetProgramLogSize(program, &log_size) == 0 && log_size > 1) {
        result.log.resize(log_size);
        api.GetProgramLog(program, result.log.data());
        result.log.resize(log_size - 1); // the terminating NUL
    }
    if (compiled != 0)
        throw CompileError(name + ": NVRTC failed (" + std::string(api.GetErrorString(compiled)) + ")",
                           result.log);
    size_t ptx_size = 0;
    if (api.GetPTXSize(program, &ptx_size) != 0 || ptx_size < 2)
        throw CompileError(name + ": NVRTC returned no PTX", result.log);
    result.ptx.resize(ptx_size);
    api.GetPTX(program, result.ptx.data());
    result.ptx.resize(ptx_size - 1);
    return result;
}

Result compile_file(const std::string& path, const Options& options) {
    if (find_nvcc()) return compile_with_nvcc(path, options);
    std::string why;
    if (nvrtc_available(&why)) {
        std::ifstream in(path, std::ios::binary);
        if (!in) throw CompileError(path + ": cannot open (" + std::string(std::strerror(errno)) + ")", "");
        std::ostringstream ss;
        ss << in.rdbuf();
        // nvcc finds headers beside the .cu; NVRTC has no file, so it is told where.
        const std::string::size_type slash = path.find_last_of('/');
        Options with_folder = options;
        with_folder.extra_args.insert(
            with_folder.extra_args.begin(),
            "--include-path=" + (slash == std::string::npos ? std::string(".") : path.substr(0, slash)));
        return compile_with_nvrtc(ss.str(), slash == std::string::npos ? path : path.substr(slash + 1),
                                  with_folder);
    }
    throw CompileError(path +
                           ": compiling CUDA needs nvcc or NVRTC (the CUDA toolkit), and neither is here (" +
                           why + "); compile it elsewhere with 'nvcc -ptx -lineinfo' and pass the .ptx",
                       "");
}

} // namespace synclab::compile
