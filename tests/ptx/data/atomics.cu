// Every atomicXxx on int/unsigned/float/unsigned long long, with used and unused results, plus
// __device__ / __constant__ variables with and without initialisers.
__device__ unsigned int g_counter;
__device__ int g_arr[4] = {1, 2, 3, 4};
__device__ float g_f = 5.0f;
__device__ unsigned long long g_ull;
__constant__ float c_coef[8];
__constant__ int c_one = 1;
extern "C" __global__ void atom_used(int* pi, unsigned* pu, float* pf, unsigned long long* pl, int* out) {
  int t = threadIdx.x; int acc = 0;
  acc += atomicAdd(pi, t); acc += atomicSub(pi, t); acc += atomicExch(pi, t); acc += atomicCAS(pi, t, t+1);
  acc += atomicMin(pi, t); acc += atomicMax(pi, t); acc += atomicInc(pu, 7u); acc += atomicDec(pu, 7u);
  acc += atomicAnd(pi, t); acc += atomicOr(pi, t); acc += atomicXor(pi, t);
  acc += atomicMin(pu, (unsigned)t); acc += atomicMax(pu, (unsigned)t);
  acc += (int)atomicAdd(pf, 1.5f); acc += (int)atomicExch(pf, 2.0f);
  acc += (int)atomicAdd(pl, 1ull); acc += (int)atomicCAS(pl, 1ull, 2ull); acc += (int)atomicMin(pl, 3ull);
  acc += (int)atomicAdd(&g_counter, 1u);
  acc += g_arr[t & 3] + (int)g_f + (int)c_coef[t & 7] + c_one;
  out[t] = acc;
}
extern "C" __global__ void atom_unused(int* pi, unsigned* pu, float* pf, unsigned long long* pl, double* pd) {
  int t = threadIdx.x;
  atomicAdd(pi, t); atomicSub(pi, t); atomicExch(pi, t);
  atomicMin(pi, t); atomicMax(pi, t); atomicInc(pu, 7u); atomicDec(pu, 7u);
  atomicAnd(pi, t); atomicOr(pi, t); atomicXor(pi, t);
  atomicAdd(pf, 1.5f); atomicAdd(pl, 1ull); atomicAdd(pd, 2.0);
  atomicAdd(&g_counter, 1u); g_ull += 1;
  __shared__ int s; if (t == 0) s = 0; __syncthreads(); atomicAdd(&s, 1); __syncthreads(); if (t==0) pi[1] = s;
}
