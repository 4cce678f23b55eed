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
// SM, by cuOccupancyMaxActiveBlocksPerMultiprocessor); nothing ran (CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE)".
std::string cooperative_launch_problem(uint64_t blocks, uint32_t threads, uint32_t per_sm, uint32_t sm_count);

} // namespace synclab::gpu
