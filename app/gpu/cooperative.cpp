// The cooperative-launch check in plain words (cooperative.h).
#include "gpu/cooperative.h"

namespace synclab::gpu {

std::string cooperative_launch_problem(uint64_t blocks, uint32_t threads, uint32_t per_sm, uint32_t sm_count) {
    const uint64_t fit = uint64_t(per_sm) * sm_count;
    if (blocks <= fit) return "";
    std::string out = "too many blocks in cooperative launch: ";
    out += std::to_string(blocks);
    out += blocks == 1 ? " block of " : " blocks of ";
    out += std::to_string(threads);
    out += threads == 1 ? " thread" : " threads";
    out += ", at most ";
    out += std::to_string(fit);
    out += " fit at once (";
    out += std::to_string(sm_count);
    out += sm_count == 1 ? " SM x " : " SMs x ";
    out += std::to_string(per_sm);
    out += per_sm == 1 ? " block per SM" : " blocks per SM";
    out += ", by cuOccupancyMaxActiveBlocksPerMultiprocessor); nothing ran (CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE): "
           "started anyway, the resident blocks would wait at grid.sync() for blocks that could never start";
    return out;
}

} // namespace synclab::gpu
