// Store buffering (SB) as a user would write it in CUDA, to run with `synclab check`. Block 0 writes
// x, then reads y; block 1 writes y, then reads x. The weak outcome is "each missed the other's
// write": out = 0,0.
//
//   synclab check tests/litmus/sb.cu --kernel sb --grid 2 --block 32 \
//       --arg buf:u32:2 --arg buf:u32:64 --memory relaxed --schedule exhaustive --histogram arg0
//
// arg0 = out (r0 = the y block 0 read, r1 = the x block 1 read), arg1 = memory (x at [0], y at [32]).
// What the PTX memory model says of 0,0 (tests/litmus/expectations.h):
//   sb                   allowed    nothing orders a store before a later load
//   sb_acq_rel_fence     allowed    fence.acq_rel orders no store before a later load (the H200
//                                   never showed 0,0 with it: allowed is not the same as seen)
//   sb_fence             forbidden  __threadfence() = fence.sc.gpu on both sides
//   sb_release_acquire   allowed    release store then acquire load: still unordered
#include <cuda/atomic>

using Ref = cuda::atomic_ref<unsigned, cuda::thread_scope_device>;

__device__ unsigned role() { return blockIdx.x + threadIdx.x / 32; }

__global__ void sb(unsigned* out, unsigned* mem) {
    if (threadIdx.x % 32 != 0) return;
    const unsigned me = role();
    if (me > 1) return;
    Ref mine(mem[me == 0 ? 0 : 32]), other(mem[me == 0 ? 32 : 0]);
    mine.store(1, cuda::memory_order_relaxed);
    out[me] = other.load(cuda::memory_order_relaxed);
}

__global__ void sb_acq_rel_fence(unsigned* out, unsigned* mem) {
    if (threadIdx.x % 32 != 0) return;
    const unsigned me = role();
    if (me > 1) return;
    Ref mine(mem[me == 0 ? 0 : 32]), other(mem[me == 0 ? 32 : 0]);
    mine.store(1, cuda::memory_order_relaxed);
    cuda::atomic_thread_fence(cuda::memory_order_acq_rel, cuda::thread_scope_device);
    out[me] = other.load(cuda::memory_order_relaxed);
}

__global__ void sb_fence(unsigned* out, unsigned* mem) {
    if (threadIdx.x % 32 != 0) return;
    const unsigned me = role();
    if (me > 1) return;
    Ref mine(mem[me == 0 ? 0 : 32]), other(mem[me == 0 ? 32 : 0]);
    mine.store(1, cuda::memory_order_relaxed);
    __threadfence();
    out[me] = other.load(cuda::memory_order_relaxed);
}

__global__ void sb_release_acquire(unsigned* out, unsigned* mem) {
    if (threadIdx.x % 32 != 0) return;
    const unsigned me = role();
    if (me > 1) return;
    Ref mine(mem[me == 0 ? 0 : 32]), other(mem[me == 0 ? 32 : 0]);
    mine.store(1, cuda::memory_order_release);
    out[me] = other.load(cuda::memory_order_acquire);
}
