// Test kernels of the cooperative-launch and residency tests (tests/coop). Compiled with
//   nvcc -ptx -lineinfo -O3 -arch=compute_75 -std=c++17 coop_kernels.cu -o coop_kernels.ptx
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

// grid.sync() between two phases: out[i] = 2 * in[i] + 2 * in[(i + blockDim.x) % n].
extern "C" __global__ void two_phase_grid_sync(const int* in, int* tmp, int* out, int n)
{
    cg::grid_group grid = cg::this_grid();
    const int gid = static_cast<int>(grid.thread_rank());
    if (gid < n) tmp[gid] = 2 * in[gid];
    grid.sync();
    if (gid < n) out[gid] = tmp[gid] + tmp[(gid + blockDim.x) % n];
}

// A hand-made grid barrier: thread 0 of each block counts itself in and spins until every block
// has; then each thread writes 1 to done[gid].
extern "C" __global__ void handmade_barrier(unsigned* arrived, int* done)
{
    if (threadIdx.x == 0) {
        atomicAdd(arrived, 1u);
        while (*(volatile unsigned*)arrived < gridDim.x) {
        }
    }
    __syncthreads();
    done[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}

// Slow but finishing: thread 0 of block 1 computes for `rounds` rounds in registers only, then
// raises *flag; thread 0 of every other block spins until it sees the flag. Blocks beyond the
// resident ones wait for a slot meanwhile. out[block] = what thread 0 saw or computed.
extern "C" __global__ void slow_flag(volatile unsigned* flag, unsigned* out, unsigned rounds)
{
    if (threadIdx.x == 0) {
        if (blockIdx.x == 1) {
            unsigned x = rounds;
            for (unsigned i = 0; i < rounds; ++i)
                x = x * 1664525u + 1013904223u;
            out[1] = x;
            __threadfence();
            *flag = 1;
        } else {
            while (*flag == 0) {
            }
            out[blockIdx.x] = *flag;
        }
    }
    __syncthreads();
}

// Block 1 returns at once, the others count to 300 first; every block writes the SM it ran on
// (%smid). With one slot per SM, the blocks after the first two take the slots that free first.
extern "C" __global__ void uneven_blocks(unsigned* g_sm) {
    if (blockIdx.x != 1)
        for (volatile int i = 0; i < 300; i = i + 1) {
        }
    unsigned sm;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    g_sm[blockIdx.x] = sm;
}
