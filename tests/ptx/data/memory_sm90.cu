// Vector loads, dynamic + module shared, cuda::atomic_ref acquire/release, a local array
// (__local_depot), float/double/integer arithmetic. Compiled for sm_90.
#include <cuda/atomic>
extern __shared__ float dyn[];
__shared__ int mod_shared[32];
extern "C" __global__ void vec(const float4* in, int2* io, float* out, int n) {
  float4 v = in[threadIdx.x]; int2 w = io[threadIdx.x]; w.x += 1; io[threadIdx.x] = w;
  dyn[threadIdx.x] = v.x + v.y + v.z + v.w; mod_shared[threadIdx.x & 31] = w.y; __syncthreads();
  out[threadIdx.x] = dyn[(threadIdx.x + 1) % n] + mod_shared[0];
}
extern "C" __global__ void acqrel(int* flag, int* data, int* out) {
  cuda::atomic_ref<int, cuda::thread_scope_device> f(*flag);
  cuda::atomic_ref<int, cuda::thread_scope_block> d(*data);
  if (threadIdx.x == 0) { data[1] = 5; f.store(1, cuda::memory_order_release); }
  while (f.load(cuda::memory_order_acquire) == 0) {}
  int old = d.fetch_add(1, cuda::memory_order_acq_rel);
  d.store(old, cuda::memory_order_relaxed);
  out[threadIdx.x] = data[1] + d.load(cuda::memory_order_seq_cst) + f.exchange(3);
}
extern "C" __global__ void localarr(int* out, int k) {
  int a[16]; for (int i = 0; i < 16; ++i) a[i] = out[i] * i; out[threadIdx.x] = a[k & 15];
}
extern "C" __global__ void arith(double* d, float* f, int* i, unsigned* u, long long* l, int n) {
  int t = threadIdx.x;
  double x = d[t]; float y = f[t]; int a = i[t]; unsigned b = u[t]; long long c = l[t];
  for (int k = 0; k < n; ++k) { x = x * 1.5 + (double)a; y = fmaf(y, 2.0f, 0.25f); }
  d[t] = x / (double)b + sqrt(x);
  f[t] = sqrtf(y) + __fdividef(y, 3.0f) + y / (float)a + rsqrtf(y) + __expf(y) + __logf(y) + __sinf(y) + __cosf(y) + fminf(y, 1.f) + fmaxf(y,2.f) + fabsf(y) + copysignf(y, -1.f) + (float)c + floorf(y) + ceilf(y) + truncf(y) + rintf(y);
  i[t] = a / n + a % n + min(a, n) + max(a, n) + abs(a) + (int)y + (int)x + ((a > 3) ? 7 : 9) ;
  u[t] = b / (unsigned)n + b % (unsigned)n + min(b, (unsigned)n) + (b >> 3) + __umulhi(b, b) + __byte_perm(b, a, 0x5410) + ((b >> 4) & 0xff) + (unsigned)y;
  l[t] = c * (long long)a + (long long)a * b + c / n + (long long)x;
  unsigned bits = (b & ~0xf0u) | ((a & 0xf) << 4); u[t+1] = bits;
}
