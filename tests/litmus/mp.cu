// Message passing (MP) as a user would write it in CUDA, to run with `synclab check` on the
// simulator (and with --backend gpu on the hardware). Block 0 writes the data, then the flag; block 1
// reads the flag, then the data. The weak outcome is "flag seen, data not": out = 1,0.
//
//   synclab check tests/litmus/mp.cu --kernel mp --grid 2 --block 32 \
//       --arg buf:u32:2 --arg buf:u32:64 --memory relaxed --schedule exhaustive --histogram arg0
//
// arg0 = out (r0 = the flag block 1 read, r1 = the data it read), arg1 = memory (data at [0], flag
// at [32]: its own 128-byte line). Every variant below is a kernel of this file (--kernel NAME);
// what the PTX memory model says of 1,0 (the litmus suite's table, tests/litmus/expectations.h):
//   mp                   allowed    nothing orders the two stores or the two loads
//   mp_block_fence       allowed    __threadfence_block() orders nothing for another block
//   mp_fence             forbidden  __threadfence() on both sides (fence.sc.gpu)
//   mp_writer_fence      allowed    a fence on one side only synchronizes with nothing
//   mp_release_acquire   forbidden  cuda::atomic_ref release store / acquire load of the flag
// With --grid 1 --block 64 the two roles are warps 0 and 1 of one block: then mp_block_fence
// forbids 1,0 too. The data and the flag are cuda::atomic_ref relaxed (ld/st.relaxed.gpu): plain
// accesses would be a data race, for which PTX promises nothing at all.
#include <cuda/atomic>

using Ref = cuda::atomic_ref<unsigned, cuda::thread_scope_device>;

// Role 0: thread 0 of block 0 (or of warp 0); role 1: thread 0 of block 1 (or of warp 1).
__device__ unsigned role() { return blockIdx.x + threadIdx.x / 32; }

__global__ void mp(unsigned* out, unsigned* mem) {
    if (threadIdx.x % 32 != 0) return;
    Ref data(mem[0]), flag(mem[32]);
    if (role() == 0) {
        data.store(1, cuda::memory_order_relaxed);
        flag.store(1, cuda::memory_order_relaxed);
    } else if (role() == 1) {
        const unsigned r0 = flag.load(cuda::memory_order_relaxed);
        const unsigned r1 = data.load(cuda::memory_order_relaxed);
        out[0] = r0;
        out[1] = r1;
    }
}

__global__ void mp_block_fence(unsigned* out, unsigned* mem) {
    if (threadIdx.x % 32 != 0) return;
    Ref data(mem[0]), flag(mem[32]);
    if (role() == 0) {
        data.store(1, cuda::memory_order_relaxed);
        __threadfence_block();
        flag.store(1, cuda::memory_order_relaxed);
    } else if (role() == 1) {
        const unsigned r0 = flag.load(cuda::memory_order_relaxed);
        __threadfence_block();
        const unsigned r1 = data.load(cuda::memory_order_relaxed);
        out[0] = r0;
        out[1] = r1;
    }
}

__global__ void mp_fence(unsigned* out, unsigned* mem) {
    if (threadIdx.x % 32 != 0) return;
    Ref data(mem[0]), flag(mem[32]);
    if (role() == 0) {
        data.store(1, cuda::memory_order_relaxed);
        __threadfence();
        flag.store(1, cuda::memory_order_relaxed);
    } else if (role() == 1) {
        const unsigned r0 = flag.load(cuda::memory_order_relaxed);
        __threadfence();
        const unsigned r1 = data.load(cuda::memory_order_relaxed);
        out[0] = r0;
        out[1] = r1;
    }
}

__global__ void mp_writer_fence(unsigned* out, unsigned* mem) {
    if (threadIdx.x % 32 != 0) return;
    Ref data(mem[0]), flag(mem[32]);
    if (role() == 0) {
        data.store(1, cuda::memory_order_relaxed);
        __threadfence();
        flag.store(1, cuda::memory_order_relaxed);
    } else if (role() == 1) {
        const unsigned r0 = flag.load(cuda::memory_order_relaxed);
        const unsigned r1 = data.load(cuda::memory_order_relaxed);
        out[0] = r0;
        out[1] = r1;
    }
}

__global__ void mp_release_acquire(unsigned* out, unsigned* mem) {
    if (threadIdx.x % 32 != 0) return;
    Ref data(mem[0]), flag(mem[32]);
    if (role() == 0) {
        data.store(1, cuda::memory_order_relaxed);
        flag.store(1, cuda::memory_order_release);
    } else if (role() == 1) {
        const unsigned r0 = flag.load(cuda::memory_order_acquire);
        const unsigned r1 = data.load(cuda::memory_order_relaxed);
        out[0] = r0;
        out[1] = r1;
    }
}
