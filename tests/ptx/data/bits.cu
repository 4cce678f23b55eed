// Bit manipulation (brev/popc/clz/prmt/bfe-like masks), double hi/lo packing through vector
// mov, and named barriers with thread counts written as inline PTX.
extern "C" __global__ void bits(double* d, int* out, unsigned long long* u) {
  int t = threadIdx.x;
  double x = d[t];
  int hi = __double2hiint(x), lo = __double2loint(x);
  d[t] = __hiloint2double(lo, hi) ;
  unsigned v = (unsigned)out[t];
  out[t] = __brev(v) + __popc(v) + __clz(v) + __popcll(u[t]) + __clzll(u[t]) + ((v >> 5) & 0x3f) + __byte_perm(v, hi, 0x3210) + __usad(v, 3, 4) * 0 + __mul24(t, t) + __umul24(v, v) + (int)__brevll(u[t]);
  u[t] = ((unsigned long long)v << 40) | (u[t] & 0xffff000000ull) | __umul64hi(u[t], u[t]);
  asm volatile("bar.sync 1, 64;");
  asm volatile("barrier.sync 2;");
  asm volatile("bar.arrive 3, 64;");
  asm volatile("barrier.sync.aligned 4, 32;");
}
