// Scenario "stencil": a 1D three-point stencil that reads its neighbours from shared memory.
//
// Every block copies 256 elements of g_in into the shared tile s_tile, one element per thread, and
// then each thread adds its left neighbour, itself and its right neighbour:
//     g_out[i] = s_tile[t - 1] + s_tile[t] + s_tile[t + 1]
// A neighbour outside the block counts as 0 (the tile has no halo). The neighbours were written by
// other threads, possibly of other warps, so the tile must be complete before anyone reads it:
// that is the job of the one __syncthreads() between the store and the loads.
//
// Launch: 256 threads per block (the tile is sized for it), n = gridDim.x * 256.

// correct: store, barrier, load. The barrier orders every store into s_tile before every
// neighbour load, so each sum is exact under every schedule. No finding may fire.
extern "C" __global__ void stencil_correct(const float* g_in, float* g_out, int n)
{
    __shared__ float s_tile[256];
    int tid = threadIdx.x;
    int gid = blockIdx.x * blockDim.x + tid;

    s_tile[tid] = (gid < n) ? g_in[gid] : 0.0f;
    __syncthreads();

    float left = (tid > 0) ? s_tile[tid - 1] : 0.0f;
    float right = (tid < blockDim.x - 1) ? s_tile[tid + 1] : 0.0f;
    if (gid < n)
        g_out[gid] = left + s_tile[tid] + right;
}

// missing_barrier: the same kernel with the __syncthreads() removed. A thread may load a neighbour
// slot before the neighbour's thread has stored into it and add whatever the slot held before.
// Inside a warp the lanes usually move together, so the damage shows at warp edges (threads 31/32,
// 63/64, ...), where two warps meet. The student sees wrong sums under the random and adversarial
// schedules, and a shared-memory "race" finding between the store line and the neighbour load
// lines. (On an H200 it is far worse: without the barrier ptxas moves both neighbour loads above the
// store, and over 90% of the outputs come out wrong.)
extern "C" __global__ void stencil_missing_barrier(const float* g_in, float* g_out, int n)
{
    __shared__ float s_tile[256];
    int tid = threadIdx.x;
    int gid = blockIdx.x * blockDim.x + tid;

    s_tile[tid] = (gid < n) ? g_in[gid] : 0.0f;
    // no __syncthreads(): nothing orders the store above before the loads below

    float left = (tid > 0) ? s_tile[tid - 1] : 0.0f;
    float right = (tid < blockDim.x - 1) ? s_tile[tid + 1] : 0.0f;
    if (gid < n)
        g_out[gid] = left + s_tile[tid] + right;
}
