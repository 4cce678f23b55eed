// The few CUDA driver API entry points the worker uses, declared here and loaded from libcuda.so.1
// with dlopen at run time. Why not link against the driver: a machine without the NVIDIA driver has
// no libcuda.so.1, and a binary linked against it would not even start; this way the worker starts
// everywhere and says "no NVIDIA driver found" where there is none, and it builds without the CUDA
// toolkit. The enum values are the driver API's (checked against the real cuda.h by
// driver_api_check.cpp wherever the toolkit is installed).
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace synclab::gpu::cu {

using Result = int;
using Device = int;
using DevicePtr = unsigned long long;
struct CtxSt;
struct ModSt;
struct FuncSt;
struct StreamSt;
struct EventSt;
using Context = CtxSt*;
using Module = ModSt*;
using Function = FuncSt*;
using Stream = StreamSt*;
using Event = EventSt*;

constexpr Result kSuccess = 0;
constexpr Result kErrorNoDevice = 100;
constexpr Result kErrorNotFound = 500; // cuModuleGetGlobal: no such symbol in the module
constexpr Result kErrorNotReady = 600;
constexpr Result kErrorCooperativeLaunchTooLarge = 720;

// CUdevice_attribute
constexpr int kAttrMultiprocessorCount = 16;
constexpr int kAttrCanMapHostMemory = 19;
constexpr int kAttrUnifiedAddressing = 41;
constexpr int kAttrComputeCapabilityMajor = 75;
constexpr int kAttrComputeCapabilityMinor = 76;
constexpr int kAttrCooperativeLaunch = 95;
// CUfunction_attribute
constexpr int kFuncAttrMaxDynamicSharedSizeBytes = 8;
// CUjit_option
constexpr int kJitInfoLogBuffer = 3;
constexpr int kJitInfoLogBufferSizeBytes = 4;
constexpr int kJitErrorLogBuffer = 5;
constexpr int kJitErrorLogBufferSizeBytes = 6;
constexpr int kJitLogVerbose = 12;
constexpr int kJitGenerateLineInfo = 13;
// flags
constexpr unsigned kMemHostAllocPortable = 0x01;
constexpr unsigned kMemHostAllocDeviceMap = 0x02;
constexpr unsigned kStreamNonBlocking = 0x1;
constexpr unsigned kEventDefault = 0x0;

// Function table, filled by load(). Every entry is set once load() returned true.
struct Api {
    Result (*Init)(unsigned) = nullptr;
    Result (*DriverGetVersion)(int*) = nullptr;
    Result (*DeviceGetCount)(int*) = nullptr;
    Result (*DeviceGet)(Device*, int) = nullptr;
    Result (*DeviceGetName)(char*, int, Device) = nullptr;
    Result (*DeviceGetAttribute)(int*, int, Device) = nullptr;
    Result (*DeviceTotalMem)(size_t*, Device) = nullptr;
    Result (*DevicePrimaryCtxRetain)(Context*, Device) = nullptr;
    Result (*CtxSetCurrent)(Context) = nullptr;
    Result (*CtxSynchronize)() = nullptr;
    Result (*ModuleLoadDataEx)(Module*, const void*, unsigned, int*, void**) = nullptr;
    Result (*ModuleUnload)(Module) = nullptr;
    Result (*ModuleGetFunction)(Function*, Module, const char*) = nullptr;
    // Where a module-scope `__device__` variable lives (device address and bytes): the traced run's
    // memory map names accesses to it.
    Result (*ModuleGetGlobal)(DevicePtr*, size_t*, Module, const char*) = nullptr;
    Result (*FuncSetAttribute)(Function, int, int) = nullptr;
    Result (*MemGetInfo)(size_t* free, size_t* total) = nullptr;
    Result (*MemAlloc)(DevicePtr*, size_t) = nullptr;
    Result (*MemFree)(DevicePtr) = nullptr;
    Result (*MemcpyHtoD)(DevicePtr, const void*, size_t) = nullptr;
    Result (*MemcpyDtoH)(void*, DevicePtr, size_t) = nullptr;
    Result (*MemcpyDtoHAsync)(void*, DevicePtr, size_t, Stream) = nullptr;
    Result (*MemsetD8)(DevicePtr, unsigned char, size_t) = nullptr;
    Result (*MemHostAlloc)(void**, size_t, unsigned) = nullptr;
    Result (*MemHostGetDevicePointer)(DevicePtr*, void*, unsigned) = nullptr;
    Result (*MemFreeHost)(void*) = nullptr;
    Result (*StreamCreate)(Stream*, unsigned) = nullptr;
    Result (*StreamQuery)(Stream) = nullptr;
    Result (*StreamSynchronize)(Stream) = nullptr;
    Result (*EventCreate)(Event*, unsigned) = nullptr;
    Result (*EventRecord)(Event, Stream) = nullptr;
    Result (*EventQuery)(Event) = nullptr;
    Result (*EventSynchronize)(Event) = nullptr;
    Result (*EventElapsedTime)(float*, Event, Event) = nullptr;
    Result (*LaunchKernel)(Function, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                           Stream, void**, void**) = nullptr;
    // Cooperative launch (grid.sync()): every block resident at once, or CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE.
    Result (*LaunchCooperativeKernel)(Function, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                                      unsigned, Stream, void**) = nullptr;
    Result (*OccupancyMaxActiveBlocksPerMultiprocessor)(int*, Function, int, size_t) = nullptr;
    Result (*GetErrorName)(Result, const char**) = nullptr;
    Result (*GetErrorString)(Result, const char**) = nullptr;
};

// Loads the driver library (the path in $SYNCLAB_CUDA_DRIVER, else libcuda.so.1). On failure returns
// false and sets `why` (dlerror's text, or the entry point that is missing).
bool load(Api& api, std::string& why);

// "CUDA_ERROR_INVALID_PTX (a PTX JIT compilation failed)" for a result code.
std::string describe(const Api& api, Result result);

// A failed driver call: "cuModuleLoadDataEx failed: CUDA_ERROR_INVALID_PTX (...)".
class Error : public std::runtime_error {
  public:
    Error(std::string call, Result result, const std::string& what)
        : std::runtime_error(what), call_(std::move(call)), result_(result) {}
    const std::string& call() const { return call_; }
    Result result() const { return result_; }

  private:
    std::string call_;
    Result result_;
};

// Throws Error unless `result` is kSuccess; `detail` is appended (e.g. the JIT log).
void check(const Api& api, Result result, const char* call, const std::string& detail = "");

} // namespace synclab::gpu::cu
