// Scenario "grid_sync": a barrier across the whole grid, and why it needs every block resident.
//
// Two phases over n elements: phase 1 doubles g_in into g_tmp; phase 2 adds to each element the
// element one block further on (gid + blockDim.x, wrapping), which another block wrote in phase 1:
//     g_out[i] = 2 * g_in[i] + 2 * g_in[(i + blockDim.x) % n].
// Between the phases every block must have finished phase 1: a barrier across the whole grid.
// __syncthreads() only waits for the threads of one block; cooperative groups' grid.sync() waits
// for all of them, and works only when every block is resident at once, which a cooperative
// launch (cudaLaunchCooperativeKernel) guarantees or refuses.
//
// Launch: 256 threads per block. lesson.toml gives each variant its grid: 64 blocks fit both the
// simulator's 8 modelled SMs (8 x 8 blocks of 256 threads) and an H200 (132 SMs x 8); 4,224 blocks
// are 4 x the H200's 1,056 and 66 x the simulator's 64, too many for either.
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

// Phase 2's read: the element one block further on, written by another block in phase 1.
__device__ __forceinline__ void phase_two(const float* g_tmp, float* g_out, int gid, int n)
{
    if (gid < n) g_out[gid] = g_tmp[gid] + g_tmp[(gid + blockDim.x) % n];
}

// cooperative_launch: the lesson launches it cooperatively (cooperative = true) with 64 blocks, which
// all fit at once. grid.sync() compiles to a block barrier, an atom.add.release.gpu by thread 0 of
// each block on the grid workspace the launch provides (%envreg1/%envreg2), a spin on
// ld.acquire.gpu until the last block arrives, and another block barrier. Every output is right
// under every schedule and no finding fires.
extern "C" __global__ void grid_sync_cooperative_launch(const float* g_in, float* g_tmp, float* g_out, int n,
                                                        unsigned* /*g_arrived: the hand-made barrier's*/)
{
    cg::grid_group grid = cg::this_grid();
    const int gid = static_cast<int>(grid.thread_rank());
    if (gid < n) g_tmp[gid] = 2.0f * g_in[gid];
    grid.sync();
    phase_two(g_tmp, g_out, gid, n);
}

// too_many_blocks: the same kernel, launched cooperatively with 4,224 blocks. They cannot all be
// resident, so the launch itself fails before any thread runs: on the GPU, refused from the driver's
// occupancy figures (cudaErrorCooperativeLaunchTooLarge), and in the simulator "too many blocks in
// cooperative launch: 4224 blocks of 256 threads, at most 64 fit at once (8 SMs x 8 blocks per SM,
// limited by threads per SM)". The student sees status error and no outputs; no finding fires
// (nothing ran). The fix: at most what fits (cudaOccupancyMaxActiveBlocksPerMultiprocessor x SMs),
// with a grid-stride loop for more elements.
extern "C" __global__ void grid_sync_too_many_blocks(const float* g_in, float* g_tmp, float* g_out, int n,
                                                     unsigned* /*g_arrived: the hand-made barrier's*/)
{
    cg::grid_group grid = cg::this_grid();
    const int gid = static_cast<int>(grid.thread_rank());
    if (gid < n) g_tmp[gid] = 2.0f * g_in[gid];
    grid.sync();
    phase_two(g_tmp, g_out, gid, n);
}

// handmade_grid_barrier_oversubscribed: a grid barrier made by hand, launched normally with 4,224
// blocks. Thread 0 of each block adds one to g_arrived and spins until it reaches gridDim.x. The
// first blocks to become resident spin forever: the count can only reach gridDim.x when the
// blocks still waiting for a slot arrive, and those start only when a resident block finishes,
// which none does. The student sees, in the simulator, status deadlock: the deadlock finding
// names the blocks spinning at the volatile load of line 75 (and their other threads waiting at
// the __syncthreads() of line 79) and says that blocks 64-4223 never started because no slot
// freed. On an H200 (1,056 resident) the run times out, and its diagnosis names the same line.
// The fix is the cooperative launch above, which guarantees residency or refuses to start.
extern "C" __global__ void grid_sync_handmade_grid_barrier_oversubscribed(const float* g_in, float* g_tmp,
                                                                         float* g_out, int n,
                                                                         unsigned* g_arrived)
{
    const int gid = blockIdx.x * blockDim.x + threadIdx.x;
    if (gid < n) g_tmp[gid] = 2.0f * g_in[gid];
    __syncthreads();
    if (threadIdx.x == 0) {
        __threadfence(); // this block's phase-1 writes before its arrival
        atomicAdd(g_arrived, 1u);
        while (*(volatile unsigned*)g_arrived < gridDim.x) {
        }
        __threadfence(); // the others' phase-1 writes after seeing them all arrive
    }
    __syncthreads();
    phase_two(g_tmp, g_out, gid, n);
}
