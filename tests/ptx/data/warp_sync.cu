// Fences, volatile spin-wait, __syncwarp, shuffles, votes, __activemask, clock64, %laneid.
extern "C" __global__ void fences(volatile int* flag, int* data, int* out) {
  int t = threadIdx.x;
  if (t == 0) { data[0] = 42; __threadfence(); flag[0] = 1; }
  __threadfence_block(); __threadfence_system();
  while (flag[0] == 0) {}
  out[t] = data[0];
  __syncwarp();
  __syncwarp(0x0000ffff);
}
extern "C" __global__ void warp(int* out, float* fo) {
  int t = threadIdx.x; int v = t * 3; float f = t * 0.5f;
  v += __shfl_down_sync(0xffffffff, v, 16); v += __shfl_xor_sync(0xffffffff, v, 8); v += __shfl_sync(0xffffffff, v, 0);
  v += __shfl_up_sync(0xffffffff, v, 1);
  f += __shfl_down_sync(0xffffffff, f, 4);
  unsigned b = __ballot_sync(0xffffffff, v > 10); int a = __all_sync(0xffffffff, v > 3); int an = __any_sync(0xffffffff, v < 0);
  unsigned m = __activemask();
  long long c = clock64(); unsigned lane; asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  out[t] = v + b + a + an + m + (int)c + lane + __popc(v) + __clz(v) + __brev(v);
  fo[t] = f;
}
