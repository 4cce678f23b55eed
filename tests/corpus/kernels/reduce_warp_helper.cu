// expect: race
// also: shared
// at: called from line 40
// check: --kernel 'reduce6<64>' --grid 2 --block 64 --arg buf:i32:256:iota --arg buf:i32:2 --arg 256 --schedule adversarial
// check: --kernel 'reduce6<128>' --grid 1 --block 128 --arg buf:i32:256:random=1..99 --arg buf:i32:1 --arg 256 --schedule random
// The shared-memory reduction as the CUDA samples' later variants write it (our code, written after
// reading them): each thread adds two inputs through a helper, the block folds down to 64 values
// with barriers, and the last warp finishes in a templated helper that trusts the warp to run in
// lockstep. `volatile` keeps every access in memory, but nothing orders lane t's read of
// sdata[t + 16] after lane t + 16's write of it: without __syncwarp() between the steps the helper
// races with itself. compute-sanitizer's racecheck names the helper's line; so must SyncLab, with
// the line in reduce6 that calls it.
template <unsigned blockSize>
__device__ void warpReduce(volatile int* sdata, unsigned tid) {
    if (blockSize >= 64) sdata[tid] += sdata[tid + 32];
    if (blockSize >= 32) sdata[tid] += sdata[tid + 16];
    if (blockSize >= 16) sdata[tid] += sdata[tid + 8];
    if (blockSize >= 8) sdata[tid] += sdata[tid + 4];
    if (blockSize >= 4) sdata[tid] += sdata[tid + 2];
    if (blockSize >= 2) sdata[tid] += sdata[tid + 1];
}

__device__ int load_pair(const int* g_idata, unsigned i, unsigned stride, unsigned n) {
    int sum = i < n ? g_idata[i] : 0;
    if (i + stride < n) sum += g_idata[i + stride];
    return sum;
}

template <unsigned blockSize>
__global__ void reduce6(const int* g_idata, int* g_odata, unsigned n) {
    __shared__ int sdata[blockSize];
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * (blockSize * 2) + tid;
    sdata[tid] = load_pair(g_idata, i, blockSize, n);
    __syncthreads();
    if (blockSize >= 128) {
        if (tid < 64) sdata[tid] += sdata[tid + 64];
        __syncthreads();
    }
    if (tid < 32) warpReduce<blockSize>(sdata, tid);
    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}
template __global__ void reduce6<64>(const int*, int*, unsigned);
template __global__ void reduce6<128>(const int*, int*, unsigned);
