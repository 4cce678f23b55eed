// Built only where the CUDA toolkit's nvrtc.h exists: the declarations SyncLab calls NVRTC through
// (nvrtc_api.h) must match the real ones, or a call through dlsym would be undefined.
#include "compile/nvrtc_api.h"

#include <nvrtc.h>

#include <type_traits>

namespace {
using Api = synclab::compile::detail::NvrtcApi<nvrtcResult, nvrtcProgram>;
static_assert(std::is_same_v<decltype(Api::Version), decltype(&nvrtcVersion)>);
static_assert(std::is_same_v<decltype(Api::GetErrorString), decltype(&nvrtcGetErrorString)>);
static_assert(std::is_same_v<decltype(Api::CreateProgram), decltype(&nvrtcCreateProgram)>);
static_assert(std::is_same_v<decltype(Api::DestroyProgram), decltype(&nvrtcDestroyProgram)>);
static_assert(std::is_same_v<decltype(Api::CompileProgram), decltype(&nvrtcCompileProgram)>);
static_assert(std::is_same_v<decltype(Api::GetPTXSize), decltype(&nvrtcGetPTXSize)>);
static_assert(std::is_same_v<decltype(Api::GetPTX), decltype(&nvrtcGetPTX)>);
static_assert(std::is_same_v<decltype(Api::GetProgramLogSize), decltype(&nvrtcGetProgramLogSize)>);
static_assert(std::is_same_v<decltype(Api::GetProgramLog), decltype(&nvrtcGetProgramLog)>);
// compile.cpp passes the result as int and the program as an opaque pointer: same representation.
static_assert(sizeof(nvrtcResult) == sizeof(int) && std::is_enum_v<nvrtcResult>);
static_assert(std::is_pointer_v<nvrtcProgram>);
} // namespace
