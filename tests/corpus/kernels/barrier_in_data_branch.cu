// expect: barrier_divergence
// check: --kernel guarded_sync --grid 1 --block 64 --arg buf:i32:64:random=0..1
// check: --kernel guarded_sync --grid 2 --block 65 --arg buf:i32:130:random=0..1
// A __syncthreads() under a condition read from memory, as GPUVerify's documentation example of
// barrier divergence has it: which threads reach the barrier depends on the data, so some lanes of
// a warp execute it while the others exit. nvcc -O3 keeps nothing else of the kernel.
__global__ void guarded_sync(int *p) {
  if (p[threadIdx.x]) {
    // only the threads whose element is nonzero get here
    __syncthreads();
  }
}
