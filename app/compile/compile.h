// CUDA C++ -> PTX, for a user's own kernel (`synclab check FILE.cu`, the playground of a later issue).
//
// Two compilers, both optional at run time (SyncLab builds and starts without either):
// - nvcc, run as a child process without a shell, with the flags the build compiles kernels/ with
//   (so a user's kernel compiles exactly as the lessons do), plus the user's own (`--nvcc-arg`);
// - NVRTC, the CUDA runtime compiler, loaded with dlopen (libnvrtc.so.13/.12/...), for machines or
//   apps that have the library but no nvcc on PATH; it needs no temporary files.
// Neither needs a GPU or a driver. Every failure is a CompileError whose what() says what went wrong
// and whose log() holds the compiler's own messages.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace synclab::compile {

struct Options {
    // Appended after the build's own flags, in order (nvcc: "-O0", "-G", "-DN=64"; NVRTC takes the
    // options it knows, e.g. "-DN=64", "-G").
    std::vector<std::string> extra_args;
};

struct Result {
    std::string ptx;
    std::string log;      // warnings (may be empty)
    std::string compiler; // "nvcc" or "NVRTC 13.0"
};

class CompileError : public std::runtime_error {
  public:
    CompileError(const std::string& what, std::string log) : std::runtime_error(what), log_(std::move(log)) {}
    const std::string& log() const { return log_; }

  private:
    std::string log_;
};

// The build's flags for kernels/ (CMakeLists.txt SYNCLAB_NVCC_FLAGS), one per element.
std::vector<std::string> build_flags();

// nvcc's path: $SYNCLAB_NVCC (a path, or "none" for no nvcc), else $CUDA_HOME/bin/nvcc, else
// /usr/local/cuda/bin/nvcc, else nvcc on PATH; nullopt if none.
std::optional<std::string> find_nvcc();

// Compiles the .cu file at `path` with nvcc. Throws CompileError (no nvcc, nvcc failed: its messages
// in log(), temporary files cannot be made).
Result compile_with_nvcc(const std::string& path, const Options& options = {});

// Whether NVRTC can be loaded here ($SYNCLAB_NVRTC names the library, else libnvrtc.so.13, .12, ...
// on the loader's path or in /usr/local/cuda/lib64); when not, `why` says why (the dlopen error).
bool nvrtc_available(std::string* why = nullptr);

// Compiles `source` (named `name` in messages and line info) with NVRTC, with the build's
// architecture, -lineinfo and C++ standard. Throws CompileError.
Result compile_with_nvrtc(const std::string& source, const std::string& name, const Options& options = {});

// nvcc where it exists, else NVRTC where it loads, else a CompileError saying that neither is here and
// how to compile elsewhere (nvcc -ptx -lineinfo, then pass the .ptx).
Result compile_file(const std::string& path, const Options& options = {});

} // namespace synclab::compile
