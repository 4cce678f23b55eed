#include "gpu/driver_api.h"

#include <cstdlib>
#include <dlfcn.h>
#include <initializer_list>

namespace synclab::gpu::cu {

namespace {

// Looks up the first of `names` the library exports (versioned names first: cuMemAlloc is
// cuMemAlloc_v2 in the driver API headers since CUDA 3.2, cuEventElapsedTime_v2 since 12.8).
template <class Fn>
bool resolve(void* lib, Fn& slot, std::initializer_list<const char*> names, std::string& why) {
    for (const char* name : names) {
        if (void* p = dlsym(lib, name)) {
            slot = reinterpret_cast<Fn>(p);
            return true;
        }
    }
    why = std::string("the NVIDIA driver library has no ") + *names.begin() + " (driver too old?)";
    return false;
}

} // namespace

bool load(Api& api, std::string& why) {
    const char* env = std::getenv("SYNCLAB_CUDA_DRIVER");
    const char* path = env && *env ? env : "libcuda.so.1";
    void* lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char* e = dlerror();
        why = e ? e : (std::string(path) + ": cannot be loaded");
        return false;
    }
    return resolve(lib, api.Init, {"cuInit"}, why) &&
           resolve(lib, api.DriverGetVersion, {"cuDriverGetVersion"}, why) &&
           resolve(lib, api.DeviceGetCount, {"cuDeviceGetCount"}, why) &&
           resolve(lib, api.DeviceGet, {"cuDeviceGet"}, why) &&
           resolve(lib, api.DeviceGetName, {"cuDeviceGetName"}, why) &&
           resolve(lib, api.DeviceGetAttribute, {"cuDeviceGetAttribute"}, why) &&
           resolve(lib, api.DeviceTotalMem, {"cuDeviceTotalMem_v2"}, why) &&
           resolve(lib, api.DevicePrimaryCtxRetain, {"cuDevicePrimaryCtxRetain"}, why) &&
           resolve(lib, api.CtxSetCurrent, {"cuCtxSetCurrent"}, why) &&
           resolve(lib, api.CtxSynchronize, {"cuCtxSynchronize"}, why) &&
           resolve(lib, api.ModuleLoadDataEx, {"cuModuleLoadDataEx"}, why) &&
           resolve(lib, api.ModuleUnload, {"cuModuleUnload"}, why) &&
           resolve(lib, api.ModuleGetFunction, {"cuModuleGetFunction"}, why) &&
           resolve(lib, api.ModuleGetGlobal, {"cuModuleGetGlobal_v2"}, why) &&
           resolve(lib, api.FuncSetAttribute, {"cuFuncSetAttribute"}, why) &&
           resolve(lib, api.MemGetInfo, {"cuMemGetInfo_v2"}, why) &&
           resolve(lib, api.MemAlloc, {"cuMemAlloc_v2"}, why) &&
           resolve(lib, api.MemFree, {"cuMemFree_v2"}, why) &&
           resolve(lib, api.MemcpyHtoD, {"cuMemcpyHtoD_v2"}, why) &&
           resolve(lib, api.MemcpyDtoH, {"cuMemcpyDtoH_v2"}, why) &&
           resolve(lib, api.MemcpyDtoHAsync, {"cuMemcpyDtoHAsync_v2"}, why) &&
           resolve(lib, api.MemsetD8, {"cuMemsetD8_v2"}, why) &&
           resolve(lib, api.MemHostAlloc, {"cuMemHostAlloc"}, why) &&
           resolve(lib, api.MemHostGetDevicePointer, {"cuMemHostGetDevicePointer_v2"}, why) &&
           resolve(lib, api.MemFreeHost, {"cuMemFreeHost"}, why) &&
           resolve(lib, api.StreamCreate, {"cuStreamCreate"}, why) &&
           resolve(lib, api.StreamQuery, {"cuStreamQuery"}, why) &&
           resolve(lib, api.StreamSynchronize, {"cuStreamSynchronize"}, why) &&
           resolve(lib, api.EventCreate, {"cuEventCreate"}, why) &&
           resolve(lib, api.EventRecord, {"cuEventRecord"}, why) &&
           resolve(lib, api.EventQuery, {"cuEventQuery"}, why) &&
           resolve(lib, api.EventSynchronize, {"cuEventSynchronize"}, why) &&
           resolve(lib, api.EventElapsedTime, {"cuEventElapsedTime_v2", "cuEventElapsedTime"}, why) &&
           resolve(lib, api.LaunchKernel, {"cuLaunchKernel"}, why) &&
           resolve(lib, api.LaunchCooperativeKernel, {"cuLaunchCooperativeKernel"}, why) &&
           resolve(lib, api.OccupancyMaxActiveBlocksPerMultiprocessor,
                   {"cuOccupancyMaxActiveBlocksPerMultiprocessor"}, why) &&
           resolve(lib, api.GetErrorName, {"cuGetErrorName"}, why) &&
           resolve(lib, api.GetErrorString, {"cuGetErrorString"}, why);
}

std::string describe(const Api& api, Result result) {
    const char* name = nullptr;
    const char* text = nullptr;
    if (api.GetErrorName) api.GetErrorName(result, &name);
    if (api.GetErrorString) api.GetErrorString(result, &text);
    std::string s = name ? name : "CUDA error " + std::to_string(result);
    if (text) s += std::string(" (") + text + ")";
    return s;
}

void check(const Api& api, Result result, const char* call, const std::string& detail) {
    if (result == kSuccess) return;
    std::string what = std::string(call) + " failed: " + describe(api, result);
    if (!detail.empty()) what += ": " + detail;
    throw Error(call, result, what);
}

} // namespace synclab::gpu::cu
