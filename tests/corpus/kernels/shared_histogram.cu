// expect: clean
// check: --kernel histogram --grid 2 --block 128 --arg buf:u32:256:random --arg buf:u32:16
// Shared-memory privatised histogram: zero the bins, barrier, atomically count, barrier, then one
// global atomic per bin and block.
__global__ void histogram(const unsigned* values, unsigned* bins) {
    __shared__ unsigned s_bins[16];
    if (threadIdx.x < 16) s_bins[threadIdx.x] = 0;
    __syncthreads();
    atomicAdd(&s_bins[values[blockIdx.x * blockDim.x + threadIdx.x] % 16], 1u);
    __syncthreads();
    if (threadIdx.x < 16) atomicAdd(&bins[threadIdx.x], s_bins[threadIdx.x]);
}
