// Scenario "divergent_barrier": __syncthreads() inside a branch.
//
// Every variant does the same job in two steps through shared memory. Block b works on its own
// 256-element tile of g_in and writes the matching tile of g_out:
//   step 1: rotate the tile by shift = 64 * b places:  s_rot[t] = s_tile[(t + shift) % 256]
//   step 2: write it out reversed:                     g_out[t] = s_rot[255 - t]
// Each step reads elements that other threads (of other warps) wrote, so each needs a barrier
// before it. The variants differ only in how they reach those barriers.
//
// The rule: a __syncthreads() must be reached by every (non-exited) thread of the block, all at
// the same __syncthreads(). A condition that is the same for the whole block is fine; a condition
// that splits the block is undefined behaviour. What it does then depends on the compiler and the
// GPU: the barriers may pair with each other, the results may go wrong, or the block may hang.
//
// Launch: 256 threads per block (the tiles are sized for it), a few blocks.

// correct: both barriers outside any branch. Every thread meets every barrier. No finding.
extern "C" __global__ void divergent_barrier_correct(const int* g_in, int* g_out)
{
    __shared__ int s_tile[256];
    __shared__ int s_rot[256];
    int tid = threadIdx.x;
    int gid = blockIdx.x * blockDim.x + tid;
    int shift = (64 * blockIdx.x) % blockDim.x;

    s_tile[tid] = g_in[gid];
    __syncthreads();
    s_rot[tid] = s_tile[(tid + shift) % blockDim.x];
    __syncthreads();
    g_out[gid] = s_rot[blockDim.x - 1 - tid];
}

// uniform_condition: legal. The first barrier sits in `if (blockIdx.x > 0)`, a condition with one
// answer for the whole block: in a block either every thread reaches it or none does. Block 0
// does not need it: its shift is 0, so each thread only reads back its own element. Results are
// exact and no finding fires.
extern "C" __global__ void divergent_barrier_uniform_condition(const int* g_in, int* g_out)
{
    __shared__ int s_tile[256];
    __shared__ int s_rot[256];
    int tid = threadIdx.x;
    int gid = blockIdx.x * blockDim.x + tid;
    int shift = (64 * blockIdx.x) % blockDim.x;

    s_tile[tid] = g_in[gid];
    if (blockIdx.x > 0)
        __syncthreads();
    s_rot[tid] = s_tile[(tid + shift) % blockDim.x];
    __syncthreads();
    g_out[gid] = s_rot[blockDim.x - 1 - tid];
}

// half_block: only threads 0..127 reach the barrier in the branch; all reach the next one. The
// lower half's first barrier pairs with the upper half's second one, so from then on the upper
// half is one barrier ahead: it reads s_rot in step 2 while the lower half may still be filling
// it. The student sees a barrier_divergence finding (one barrier phase completed at two different
// __syncthreads() lines) and, under random schedules, wrong outputs in the upper half of the tiles.
// An H200 pairs the barriers the same way: no hang, and with 4 blocks half of the outputs came out
// wrong in every run (compute-sanitizer synccheck: "Divergent thread(s) in block").
extern "C" __global__ void divergent_barrier_half_block(const int* g_in, int* g_out)
{
    __shared__ int s_tile[256];
    __shared__ int s_rot[256];
    int tid = threadIdx.x;
    int gid = blockIdx.x * blockDim.x + tid;
    int shift = (64 * blockIdx.x) % blockDim.x;

    s_tile[tid] = g_in[gid];
    if (tid < 128)
        __syncthreads();
    __syncthreads();
    s_rot[tid] = s_tile[(tid + shift) % blockDim.x];
    __syncthreads();
    g_out[gid] = s_rot[blockDim.x - 1 - tid];
}

// odd_lanes: the same mistake inside every warp: odd threads take an extra barrier, so even and
// odd lanes of one warp wait at different __syncthreads() and, since a warp arrives only when all
// its lanes are at the same barrier instruction, the block hangs: deadlock and barrier_divergence
// must fire (odd lanes at line 92, even at 93). (An untraced H200 completes it right: ptxas predicates
// the barrier for the whole warp; synccheck still reports "Divergent thread(s) in warp".)
extern "C" __global__ void divergent_barrier_odd_lanes(const int* g_in, int* g_out)
{
    __shared__ int s_tile[256];
    __shared__ int s_rot[256];
    int tid = threadIdx.x;
    int gid = blockIdx.x * blockDim.x + tid;
    int shift = (64 * blockIdx.x) % blockDim.x;

    s_tile[tid] = g_in[gid];
    if (tid & 1)
        __syncthreads();
    __syncthreads();
    s_rot[tid] = s_tile[(tid + shift) % blockDim.x];
    __syncthreads();
    g_out[gid] = s_rot[blockDim.x - 1 - tid];
}

// exit_before_barrier: legal. The upper half returns at once and the lower half does all the work,
// two elements per thread. Threads that have exited are not waited for, so the 128 remaining threads
// complete every barrier among themselves. Results are exact and no finding fires.
extern "C" __global__ void divergent_barrier_exit_before_barrier(const int* g_in, int* g_out)
{
    __shared__ int s_tile[256];
    __shared__ int s_rot[256];
    int tid = threadIdx.x;
    int base = blockIdx.x * blockDim.x;
    int shift = (64 * blockIdx.x) % blockDim.x;

    if (tid >= 128)
        return;
    s_tile[tid] = g_in[base + tid];
    s_tile[tid + 128] = g_in[base + tid + 128];
    __syncthreads();
    s_rot[tid] = s_tile[(tid + shift) % blockDim.x];
    s_rot[tid + 128] = s_tile[(tid + 128 + shift) % blockDim.x];
    __syncthreads();
    g_out[base + tid] = s_rot[blockDim.x - 1 - tid];
    g_out[base + tid + 128] = s_rot[blockDim.x - 1 - (tid + 128)];
}

// loop_per_thread: "each thread syncs in its own turn". Thread i reaches a __syncthreads() only in
// iteration i, so every thread arrives exactly once, but at a different moment and, once nvcc has
// unrolled the loop, at one of four different bar.sync instructions. The lanes of a warp wait at
// different barrier instructions for each other forever: the block hangs, in the simulator as on
// an H200. The student sees status deadlock with who waits at which copy of line 139; deadlock and
// barrier_divergence must fire.
extern "C" __global__ void divergent_barrier_loop_per_thread(const int* g_in, int* g_out)
{
    __shared__ int s_tile[256];
    __shared__ int s_rot[256];
    int tid = threadIdx.x;
    int gid = blockIdx.x * blockDim.x + tid;
    int shift = (64 * blockIdx.x) % blockDim.x;

    s_tile[tid] = g_in[gid];
    for (int i = 0; i < blockDim.x; ++i)
        if (i == tid)
            __syncthreads();
    s_rot[tid] = s_tile[(tid + shift) % blockDim.x];
    __syncthreads();
    g_out[gid] = s_rot[blockDim.x - 1 - tid];
}
