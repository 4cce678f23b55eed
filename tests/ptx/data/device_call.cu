// A __noinline__ device function: its call is rejected (the simulator runs kernels only).
__device__ __noinline__ int helper(int x) { return x * x + 1; }
extern "C" __global__ void calls(int* out) { out[threadIdx.x] = helper(threadIdx.x); }
