// expect: clean
// check: --kernel histogram --grid 4 --block 64 --arg buf:u32:256:random --arg buf:u32:64
// check: --kernel histogram --grid 3 --block 33 --arg buf:u32:99:random --arg buf:u32:48
// The fixed twin: each block counts into its own 16 bins of the global array, so block scope holds
// every thread that touches them.
__global__ void histogram(const unsigned* values, unsigned* bins) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd_block(&bins[blockIdx.x * 16 + values[i] % 16], 1u);
}
