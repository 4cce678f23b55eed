// Compile-time check of gpu/driver_api.h against the CUDA toolkit's cuda.h (built only where the
// toolkit is installed; the worker itself never includes cuda.h).
#include "gpu/driver_api.h"

#include <cuda.h>

namespace cu = synclab::gpu::cu;

static_assert(sizeof(CUresult) == sizeof(cu::Result));
static_assert(sizeof(CUdevice) == sizeof(cu::Device));
static_assert(sizeof(CUdeviceptr) == sizeof(cu::DevicePtr));
static_assert(cu::kSuccess == CUDA_SUCCESS);
static_assert(cu::kErrorNoDevice == CUDA_ERROR_NO_DEVICE);
static_assert(cu::kErrorNotReady == CUDA_ERROR_NOT_READY);
static_assert(cu::kErrorNotFound == CUDA_ERROR_NOT_FOUND);
static_assert(cu::kErrorCooperativeLaunchTooLarge == CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE);
static_assert(cu::kAttrCooperativeLaunch == CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH);
static_assert(cu::kAttrMultiprocessorCount == CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
static_assert(cu::kAttrCanMapHostMemory == CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY);
static_assert(cu::kAttrUnifiedAddressing == CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING);
static_assert(cu::kAttrComputeCapabilityMajor == CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
static_assert(cu::kAttrComputeCapabilityMinor == CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
static_assert(cu::kFuncAttrMaxDynamicSharedSizeBytes == CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES);
static_assert(cu::kJitInfoLogBuffer == CU_JIT_INFO_LOG_BUFFER);
static_assert(cu::kJitInfoLogBufferSizeBytes == CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES);
static_assert(cu::kJitErrorLogBuffer == CU_JIT_ERROR_LOG_BUFFER);
static_assert(cu::kJitErrorLogBufferSizeBytes == CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES);
static_assert(cu::kJitLogVerbose == CU_JIT_LOG_VERBOSE);
static_assert(cu::kJitGenerateLineInfo == CU_JIT_GENERATE_LINE_INFO);
static_assert(cu::kMemHostAllocPortable == CU_MEMHOSTALLOC_PORTABLE);
static_assert(cu::kMemHostAllocDeviceMap == CU_MEMHOSTALLOC_DEVICEMAP);
static_assert(cu::kStreamNonBlocking == CU_STREAM_NON_BLOCKING);
static_assert(cu::kEventDefault == CU_EVENT_DEFAULT);

// The entry points, by the versioned names the worker looks up, have the shapes it declares
// (modulo CUresult/int and the opaque handle types).
static_assert(std::is_same_v<decltype(&cuMemAlloc_v2), CUresult (*)(CUdeviceptr*, size_t)>);
static_assert(std::is_same_v<decltype(&cuMemGetInfo_v2), CUresult (*)(size_t*, size_t*)>);
static_assert(
    std::is_same_v<decltype(&cuMemcpyDtoHAsync_v2), CUresult (*)(void*, CUdeviceptr, size_t, CUstream)>);
static_assert(std::is_same_v<decltype(&cuEventElapsedTime_v2), CUresult (*)(float*, CUevent, CUevent)>);
static_assert(
    std::is_same_v<decltype(&cuMemHostGetDevicePointer_v2), CUresult (*)(CUdeviceptr*, void*, unsigned int)>);
static_assert(std::is_same_v<decltype(&cuDeviceTotalMem_v2), CUresult (*)(size_t*, CUdevice)>);
// The CPU reader's host-mapped buffers (and the mapped trace buffer).
static_assert(std::is_same_v<decltype(&cuMemHostAlloc), CUresult (*)(void**, size_t, unsigned int)>);
static_assert(std::is_same_v<decltype(&cuMemFreeHost), CUresult (*)(void*)>);
static_assert(std::is_same_v<decltype(&cuMemsetD8_v2), CUresult (*)(CUdeviceptr, unsigned char, size_t)>);
static_assert(std::is_same_v<decltype(&cuModuleLoadDataEx),
                             CUresult (*)(CUmodule*, const void*, unsigned int, CUjit_option*, void**)>);
static_assert(
    std::is_same_v<decltype(&cuLaunchKernel),
                   CUresult (*)(CUfunction, unsigned int, unsigned int, unsigned int, unsigned int,
                                unsigned int, unsigned int, unsigned int, CUstream, void**, void**)>);
// The memory map of a traced run: where the module's `__device__` variables are.
static_assert(std::is_same_v<decltype(&cuModuleGetGlobal_v2),
                             CUresult (*)(CUdeviceptr*, size_t*, CUmodule, const char*)>);
// Cooperative launch and occupancy (the grid_sync lesson).
static_assert(std::is_same_v<decltype(&cuLaunchCooperativeKernel),
                             CUresult (*)(CUfunction, unsigned int, unsigned int, unsigned int, unsigned int,
                                          unsigned int, unsigned int, unsigned int, CUstream, void**)>);
static_assert(std::is_same_v<decltype(&cuOccupancyMaxActiveBlocksPerMultiprocessor),
                             CUresult (*)(int*, CUfunction, int, size_t)>);
