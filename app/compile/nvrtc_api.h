// NVRTC's entry points as SyncLab calls them through dlsym (private to app/compile). Written after
// nvrtc.h without including it, so that SyncLab builds where the toolkit is absent. The result and
// program types are parameters: compile.cpp uses int and an opaque pointer; nvrtc_api_check.cpp
// instantiates the same declarations with the header's own types and checks them against it.
#pragma once

#include <cstddef>

namespace synclab::compile::detail {

template <class Result, class Program> struct NvrtcApi {
    Result (*Version)(int*, int*) = nullptr;
    const char* (*GetErrorString)(Result) = nullptr;
    Result (*CreateProgram)(Program*, const char*, const char*, int, const char* const*,
                            const char* const*) = nullptr;
    Result (*DestroyProgram)(Program*) = nullptr;
    Result (*CompileProgram)(Program, int, const char* const*) = nullptr;
    Result (*GetPTXSize)(Program, size_t*) = nullptr;
    Result (*GetPTX)(Program, char*) = nullptr;
    Result (*GetProgramLogSize)(Program, size_t*) = nullptr;
    Result (*GetProgramLog)(Program, char*) = nullptr;
};

} // namespace synclab::compile::detail
