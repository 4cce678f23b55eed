// By-value struct parameter, module-scope shared used by two kernels, extern shared bytes,
// initialised globals, __launch_bounds__, divergent __syncthreads in a loop.
struct Pair { double a; int b; };
__shared__ int shared_both[64];
extern __shared__ unsigned char dyn_bytes[];
__device__ int g_table[3] = {7, 8, 9};
__device__ double g_d = 2.5;
__device__ unsigned long long g_big[2] = {1ull, 0xffffffffffffffffull};
extern "C" __global__ void __launch_bounds__(128, 4) uses_both(Pair p, int* out, char c, short s) {
  shared_both[threadIdx.x % 64] = (int)p.a + p.b + c + s;
  dyn_bytes[threadIdx.x] = (unsigned char)threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = shared_both[(threadIdx.x + 1) % 64] + dyn_bytes[threadIdx.x ^ 1] + g_table[threadIdx.x % 3] + (int)g_d + (int)g_big[1];
}
extern "C" __global__ void also_uses(int* out) {
  shared_both[threadIdx.x % 64] = threadIdx.x; __syncthreads(); out[threadIdx.x] = shared_both[63 - threadIdx.x % 64];
}
extern "C" __global__ void divergent(int* out, int n) {
  if (threadIdx.x < n) { __syncthreads(); out[threadIdx.x] = 1; } else { out[threadIdx.x] = 2; }
  for (int i = 0; i < n; ++i) { if (threadIdx.x & 1) __syncthreads(); out[i] += threadIdx.y + blockIdx.x * blockDim.x + gridDim.y + threadIdx.z + blockIdx.z; }
}
