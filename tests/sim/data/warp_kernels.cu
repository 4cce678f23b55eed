// Kernels for the warp-collective tests (tests/sim/warp_collective_test.cpp, warp_model_test.cpp).
// Compiled once with
//   nvcc -ptx -lineinfo -O3 -arch=sm_90 warp_kernels.cu -o warp_kernels.ptx
// (sm_90 for elect.sync) and the PTX is committed, so the tests need no CUDA toolkit. Every kernel
// writes per-thread results that the tests check against a CPU model of the PTX ISA's rules.

// The lanes of this thread's warp that exist (a partial last warp has fewer). Not __activemask():
// under independent thread scheduling that names only the lanes running together at that moment.
__device__ unsigned lanes_that_exist() {
    unsigned first = threadIdx.x / 32 * 32;
    unsigned n = blockDim.x - first < 32 ? blockDim.x - first : 32;
    return n == 32 ? 0xffffffffu : (1u << n) - 1;
}

// Every shfl mode with a width (segment) and the predicate of "source in range": out[g*8 + k].
extern "C" __global__ void shfl_modes(const int* g_in, int* g_out, int width, int delta) {
    unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
    int v = g_in[g];
    unsigned mask = lanes_that_exist();
    int r[8];
    asm volatile("{ .reg .pred p; shfl.sync.idx.b32 %0|p, %2, %3, %4, %5; selp.s32 %1, 1, 0, p; }"
                 : "=r"(r[0]), "=r"(r[1])
                 : "r"(v), "r"(delta), "r"(((32 - width) << 8) | 31), "r"(mask));
    asm volatile("{ .reg .pred p; shfl.sync.up.b32 %0|p, %2, %3, %4, %5; selp.s32 %1, 1, 0, p; }"
                 : "=r"(r[2]), "=r"(r[3])
                 : "r"(v), "r"(delta), "r"((32 - width) << 8), "r"(mask));
    asm volatile("{ .reg .pred p; shfl.sync.down.b32 %0|p, %2, %3, %4, %5; selp.s32 %1, 1, 0, p; }"
                 : "=r"(r[4]), "=r"(r[5])
                 : "r"(v), "r"(delta), "r"(((32 - width) << 8) | 31), "r"(mask));
    asm volatile("{ .reg .pred p; shfl.sync.bfly.b32 %0|p, %2, %3, %4, %5; selp.s32 %1, 1, 0, p; }"
                 : "=r"(r[6]), "=r"(r[7])
                 : "r"(v), "r"(delta), "r"(((32 - width) << 8) | 31), "r"(mask));
    for (int k = 0; k < 8; ++k) g_out[g * 8 + k] = r[k];
}

// Votes, match, redux and elect over the lanes that exist (a partial last warp included):
// out[g*16 + k].
extern "C" __global__ void warp_queries(const int* g_in, int* g_out) {
    unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
    int v = g_in[g];
    unsigned u = (unsigned)v;
    unsigned mask = lanes_that_exist();
    int* o = g_out + g * 16;
    o[0] = (int)__ballot_sync(mask, v & 1);
    o[1] = __any_sync(mask, v > 90);
    o[2] = __all_sync(mask, v >= 10);
    o[3] = __uni_sync(mask, v & 1);
    o[4] = (int)__match_any_sync(mask, v % 4);
    int pred = 0;
    o[5] = (int)__match_all_sync(mask, (long long)(v % 4) << 33, &pred);
    o[6] = pred;
    o[7] = (int)__reduce_add_sync(mask, u);
    o[8] = __reduce_min_sync(mask, v - 50);
    o[9] = __reduce_max_sync(mask, v - 50);
    o[10] = (int)__reduce_min_sync(mask, u);
    o[11] = (int)__reduce_max_sync(mask, u);
    o[12] = (int)__reduce_and_sync(mask, u | 0x100);
    o[13] = (int)__reduce_or_sync(mask, u);
    o[14] = (int)__reduce_xor_sync(mask, u);
    unsigned leader;
    int elected;
    asm volatile("{ .reg .pred p; elect.sync %0|p, %2; selp.s32 %1, 1, 0, p; }"
                 : "=r"(leader), "=r"(elected)
                 : "r"(mask));
    o[15] = (int)(leader | (elected << 8));
}

// Collectives whose mask is the lane's half-warp (16 lanes; a tile): out[g*4 + k].
extern "C" __global__ void half_warp_queries(const int* g_in, int* g_out) {
    unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned lane = threadIdx.x % 32;
    int v = g_in[g];
    unsigned mask = (0xffffu << (lane & 16)) & lanes_that_exist();
    g_out[g * 4 + 0] = (int)__reduce_add_sync(mask, (unsigned)v);
    g_out[g * 4 + 1] = (int)__ballot_sync(mask, v & 1);
    g_out[g * 4 + 2] = (int)__match_any_sync(mask, v % 3);
    g_out[g * 4 + 3] = __shfl_sync(mask, v, 0, 16);
}

// __syncthreads_count / _and / _or (bar.red): out[g*3 + k].
extern "C" __global__ void block_predicates(const int* g_in, int* g_out) {
    unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
    int v = g_in[g];
    g_out[g * 3 + 0] = __syncthreads_count(v > 50);
    g_out[g * 3 + 1] = __syncthreads_and(v > 5);
    g_out[g * 3 + 2] = __syncthreads_or(v > 98);
}

// Mask rules, one kernel each (the tests expect an error naming the lanes).
// A lane executes a shuffle with a mask that does not name it.
extern "C" __global__ void not_in_own_mask(int* g_out) {
    unsigned lane = threadIdx.x % 32;
    g_out[threadIdx.x] = __shfl_sync(0xffffu, (int)lane, 0); // lanes 16-31 are not in 0xffff
}
// Lanes 16-31 return; lanes 0-15 __syncwarp() with the full mask: bar.warp.sync waits for all
// members, and half of them exited.
extern "C" __global__ void syncwarp_after_exit(int* g_out) {
    unsigned lane = threadIdx.x % 32;
    if (lane >= 16) return;
    g_out[threadIdx.x] = 1;
    __syncwarp();
    g_out[threadIdx.x] = 2;
}
// Lanes 16-31 return; lanes 0-15 shuffle down by 16 with the full mask: they read exited lanes.
extern "C" __global__ void shfl_from_exited(const int* g_in, int* g_out) {
    unsigned lane = threadIdx.x % 32;
    int v = g_in[threadIdx.x];
    if (lane >= 16) return;
    g_out[threadIdx.x] = v + __shfl_down_sync(0xffffffffu, v, 16);
}
// Lanes 16-31 return; lanes 0-15 vote with the full mask: a vote counts non-exited members only.
extern "C" __global__ void vote_after_exit(const int* g_in, int* g_out) {
    unsigned lane = threadIdx.x % 32;
    int v = g_in[threadIdx.x];
    if (lane >= 16) return;
    g_out[threadIdx.x] = (int)__ballot_sync(0xffffffffu, v & 1);
}
// The two halves of a warp wait at different collectives for each other.
extern "C" __global__ void split_collectives(const int* g_in, int* g_out) {
    unsigned lane = threadIdx.x % 32;
    int v = g_in[threadIdx.x];
    if (lane < 16)
        v = __shfl_down_sync(0xffffffffu, v, 1);
    else
        v = (int)__ballot_sync(0xffffffffu, v & 1);
    g_out[threadIdx.x] = v;
}
// Lanes 0-15 shuffle with the full mask while lanes 16-31 wait at __syncthreads().
extern "C" __global__ void collective_vs_barrier(const int* g_in, int* g_out) {
    unsigned lane = threadIdx.x % 32;
    int v = g_in[threadIdx.x];
    if (lane < 16) v = __shfl_xor_sync(0xffffffffu, v, 1);
    else __syncthreads();
    g_out[threadIdx.x] = v;
}

// The warp-synchronous tail of a block reduction as pre-Volta code wrote it: no __syncwarp() between
// the steps, only volatile. Right when a warp's lanes run in lockstep; a race once they do not.
extern "C" __global__ void warp_sync_reduce(const int* g_in, int* g_out) {
    __shared__ volatile int s[64];
    unsigned tid = threadIdx.x;
    s[tid] = g_in[blockIdx.x * 32 + tid];
    s[tid + 32] = 0;
    s[tid] += s[tid + 16];
    s[tid] += s[tid + 8];
    s[tid] += s[tid + 4];
    s[tid] += s[tid + 2];
    s[tid] += s[tid + 1];
    if (tid == 0) g_out[blockIdx.x] = s[0];
}

// The same with __syncwarp() between the reads and the writes of each step: right under both models.
extern "C" __global__ void warp_reduce_syncwarp(const int* g_in, int* g_out) {
    __shared__ int s[64];
    unsigned tid = threadIdx.x;
    s[tid] = g_in[blockIdx.x * 32 + tid];
    s[tid + 32] = 0;
    __syncwarp();
    for (int off = 16; off > 0; off /= 2) {
        int x = s[tid + off];
        __syncwarp();
        s[tid] += x;
        __syncwarp();
    }
    if (tid == 0) g_out[blockIdx.x] = s[0];
}

// Two lanes of one warp write and read one shared word with no __syncwarp() between: a race within a
// warp (lanes 5 and 21 of each warp). With `sync`, a __syncwarp() orders them.
extern "C" __global__ void lane_handoff(int* g_out, int sync) {
    __shared__ int s[32];
    unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    if (lane == 5) s[warp] = 42;
    if (sync) __syncwarp();
    if (lane == 21) g_out[blockIdx.x * 32 + warp] = s[warp];
}

// The hand-off between lanes 5 and 21 with a __syncwarp() whose mask names only lanes 0-15 (and
// only those lanes execute it): lane 21 is not ordered after lane 5's write.
extern "C" __global__ void lane_handoff_partial_mask(int* g_out) {
    __shared__ int s[32];
    unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    if (lane == 5) s[warp] = 42;
    if (lane < 16) __syncwarp(0xffffu);
    if (lane == 21) g_out[blockIdx.x * 32 + warp] = s[warp];
}

// elect.sync waits for every lane of its mask, exited or not (PTX ISA: "all threads in the
// membermask"): lanes 16-31 return first, so lanes 0-15 wait at the election forever.
extern "C" __global__ void elect_after_exit(int* g_out) {
    unsigned lane = threadIdx.x % 32;
    if (lane >= 16) return;
    unsigned leader;
    asm volatile("{ .reg .pred p; elect.sync %0|p, %1; }" : "=r"(leader) : "r"(0xffffffffu));
    g_out[threadIdx.x] = (int)leader;
}

// Two __syncwarp() calls, one on each side of a branch, meet: lanes 0-15 at one, lanes 16-31 at
// the other (bar.warp.sync: any bar.warp.sync with the same mask).
extern "C" __global__ void two_syncwarps(int* g_out) {
    __shared__ int s[32];
    unsigned lane = threadIdx.x % 32;
    if (lane < 16) {
        s[lane] = 1;
        __syncwarp();
        g_out[threadIdx.x] = s[lane + 16];
    } else {
        s[lane] = 2;
        __syncwarp();
        g_out[threadIdx.x] = s[lane - 16] + 10;
    }
}
