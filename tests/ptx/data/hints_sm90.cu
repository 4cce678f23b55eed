// Cache-hinted loads/stores (__ldg, __ldcs, __stcg ...), nanosleep, trap, volatile shared,
// scoped atomics (atomicAdd_block/_system). Compiled for sm_90.
extern "C" __global__ void hints(const float* __restrict__ in, float* out, unsigned* flag, int n) {
  int t = threadIdx.x;
  float a = __ldg(in + t) + __ldcs(in + t + 1) + __ldcg(in + t + 2) + __ldca(in + t + 3) + __ldlu(in + t + 4) + __ldcv(in + t + 5);
  __stcg(out + t, a); __stcs(out + t + 1, a); __stwb(out + t + 2, a); __stwt(out + t + 3, a);
  if (t == 0) { __nanosleep(100); }
  if (n < 0) __trap();
  volatile __shared__ int vs[32]; vs[t & 31] = t; __syncthreads(); out[t + 4] = vs[(t + 1) & 31];
  atomicAdd(flag, 1u);
  atomicAdd_block(flag + 1, 1u); atomicAdd_system(flag + 2, 1u);
  unsigned r = atomicInc(flag+3, 5u); (void)r;
  out[t+5] = (float)clock() + (float)(clock64() & 3);
}
