// A cooperative launch on the GPU (cuLaunchCooperativeKernel): every block of the grid must be
// resident at once, which the driver checks from the kernel's occupancy; a larger grid fails with
// CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE before anything runs. Here: that check, in plain words,
// from cuOccupancyMaxActiveBlocksPerMultiprocessor x the SM count (the simulator's twin is
// sim/residency.h, from its modelled limits).
#pragma once

#include <cstdint>
#include <string>

namespace synclab::gpu {

// "" when `blocks` blocks of `threads` threads fit `per_sm` x `sm_count`; else "too many blocks in
// cooperative launch: 4224 blocks of 256 threads, at most 1056 fit at once (132 SMs x 8 blocks per
// SM, by cuOccupancyMaxActiveBlocksPerMultiprocessor); nothing ran (CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE).
// Had it started, ..." (what grid.sync() would have done). With `per_sm` 0 (not one block fits an
// SM) it says that instead: no grid of the kernel can run, however small.
std::string cooperative_launch_problem(uint64_t blocks, uint32_t threads, uint32_t per_sm, uint32_t sm_count);

// The driver refused a launch that cooperative_launch_problem let through (its occupancy figures
// given), the detail after cuLaunchCooperativeKernel's error: "the driver refused 1056 blocks of 256
// threads although the kernel's occupancy allowed 1056 at once (132 SMs x 8 blocks per SM, by
// cuOccupancyMaxActiveBlocksPerMultiprocessor); nothing ran".
std::string cooperative_driver_refused(uint64_t blocks, uint32_t threads, uint32_t per_sm, uint32_t sm_count);

// A device whose CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH is 0 runs no cooperative launch at all.
std::string cooperative_unsupported(const std::string& device);

} // namespace synclab::gpu
