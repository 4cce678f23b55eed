// The cooperative-launch check in plain words (cooperative.h).
#include "gpu/cooperative.h"

namespace synclab::gpu {

namespace {

std::string blocks_of(uint64_t blocks, uint32_t threads) {
    return std::to_string(blocks) + (blocks == 1 ? " block of " : " blocks of ") + std::to_string(threads) +
           (threads == 1 ? " thread" : " threads");
}

std::string sms_times(uint32_t per_sm, uint32_t sm_count) {
    return std::to_string(sm_count) + (sm_count == 1 ? " SM x " : " SMs x ") + std::to_string(per_sm) +
           (per_sm == 1 ? " block per SM" : " blocks per SM");
}

} // namespace

std::string cooperative_launch_problem(uint64_t blocks, uint32_t threads, uint32_t per_sm,
                                       uint32_t sm_count) {
    // Occupancy 0: not even one block fits an SM, whatever the grid. That is no "too many blocks" (the
    // launch would fail for its block, not for its grid), so it is said apart.
    if (per_sm == 0)
        return "cooperative launch of " + blocks_of(blocks, threads) +
               ": not one block of this kernel fits an SM (cuOccupancyMaxActiveBlocksPerMultiprocessor "
               "gives 0: its threads, registers or shared memory per block exceed what an SM has), so no "
               "grid of it can run; nothing ran";
    const uint64_t fit = uint64_t(per_sm) * sm_count;
    if (blocks <= fit) return "";
    return "too many blocks in cooperative launch: " + blocks_of(blocks, threads) + ", at most " +
           std::to_string(fit) + " fit at once (" + sms_times(per_sm, sm_count) +
           ", by cuOccupancyMaxActiveBlocksPerMultiprocessor); nothing ran "
           "(CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE). Had it started, the resident blocks would wait at "
           "grid.sync() forever for blocks that could not start";
}

std::string cooperative_driver_refused(uint64_t blocks, uint32_t threads, uint32_t per_sm,
                                       uint32_t sm_count) {
    return "the driver refused " + blocks_of(blocks, threads) + " although the kernel's occupancy allowed " +
           std::to_string(uint64_t(per_sm) * sm_count) + " at once (" + sms_times(per_sm, sm_count) +
           ", by cuOccupancyMaxActiveBlocksPerMultiprocessor); nothing ran";
}

std::string cooperative_unsupported(const std::string& device) {
    return "cooperative launch: " + (device.empty() ? std::string("this GPU") : device) +
           " cannot launch cooperatively (CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH is 0), so grid.sync() "
           "cannot run on it; nothing ran";
}

} // namespace synclab::gpu
