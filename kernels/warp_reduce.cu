// Scenario "warp_reduce": each warp sums its 32 values, four ways.
//
// Thread t of a block loads g_in[i] (i its global index); each warp adds up its 32 values and its
// lane 0 writes the sum to g_out[i / 32]. Three variants do it in shared memory, the old
// "warp-synchronous" way: a tree of five steps in which, at step `offset` (16, 8, 4, 2, 1), lane
// l < offset adds s_val[t + offset] into s_val[t]. Lane l's new value at one step is read by lane
// l - offset/2 at the next, so every step must see the previous step's stores of other lanes. The
// fourth variant passes the values in registers with shuffles.
//
// The rule (CUDA C++ Programming Guide, Independent Thread Scheduling and Warp Synchronous
// Intrinsics): since Volta the lanes of a warp are not a lockstep unit. Lanes that exchange data
// through memory need __syncwarp() (or another warp-level barrier) between the store and the load;
// shuffles carry their own synchronisation and need no memory at all.
//
// Launch: whole warps (blockDim.x a multiple of 32, at most 256); g_out holds one sum per warp.

// no_syncwarp: the tree in plain shared memory with nothing between the steps. To the compiler
// each thread runs alone: nvcc -O3 keeps the thread's running sum in a register (s_val[t] is never
// reloaded) and keeps each partner load after the store it depends on, but nothing ties lane l's
// store to lane l - offset/2's load. Below PTX, ptxas moved all five loads of s_val[t + offset]
// above the stores to s_val[t] (different addresses, as far as one thread can tell; the H200's SASS),
// and under independent thread scheduling the lanes may run at different steps: either way a lane adds
// a partner's stale value. On an H200, 97-100% of warp sums came out wrong. The student sees a race
// finding "within a warp" on s_val in every run and wrong sums under --warp-model its (random and
// adversarial schedules); --warp-model lockstep runs the PTX as a pre-Volta warp would, and the
// sums come out right. Must find: race.
extern "C" __global__ void warp_reduce_no_syncwarp(const int* g_in, int* g_out)
{
    __shared__ int s_val[256];
    const unsigned t = threadIdx.x, lane = t % 32;
    const unsigned i = blockIdx.x * blockDim.x + t;
    s_val[t] = g_in[i];
    for (unsigned offset = 16; offset > 0; offset /= 2) {
        if (lane < offset) s_val[t] += s_val[t + offset];
    }
    if (lane == 0) g_out[i / 32] = s_val[t];
}

// volatile_legacy: the same tree through a volatile pointer, the pre-Volta idiom (the CUDA
// samples' old reduction unrolled its last warp this way). volatile forces every load and store to
// memory, in program order, so the compiler can no longer cache or hoist; on a lockstep warp each
// step's stores land before the next step's loads. On an H200 it gave 0 wrong sums. But volatile
// orders one thread's accesses, not two threads': nothing in the memory model makes lane l's store
// visible to lane l - offset/2 before that lane loads, so independent thread scheduling may let a
// lane run a step ahead. The student sees the race finding "within a warp" in every run, and wrong
// sums when the schedule interleaves the lanes (--warp-model its); --warp-model lockstep shows
// why it "worked": 0 wrong. Must find: race.
extern "C" __global__ void warp_reduce_volatile_legacy(const int* g_in, int* g_out)
{
    __shared__ int s_val[256];
    volatile int* v_val = s_val;
    const unsigned t = threadIdx.x, lane = t % 32;
    const unsigned i = blockIdx.x * blockDim.x + t;
    v_val[t] = g_in[i];
    for (unsigned offset = 16; offset > 0; offset /= 2) {
        if (lane < offset) v_val[t] += v_val[t + offset];
    }
    if (lane == 0) g_out[i / 32] = v_val[t];
}

// syncwarp: __syncwarp() before every step, outside the `if` so that all 32 lanes execute it. It
// is a warp barrier and a memory fence among the lanes it names: every store before it is visible
// to every named lane after it, and the compiler may not move shared accesses across it. The
// student sees right sums under every schedule and warp model, and no race. Must not find: race.
extern "C" __global__ void warp_reduce_syncwarp(const int* g_in, int* g_out)
{
    __shared__ int s_val[256];
    const unsigned t = threadIdx.x, lane = t % 32;
    const unsigned i = blockIdx.x * blockDim.x + t;
    s_val[t] = g_in[i];
    for (unsigned offset = 16; offset > 0; offset /= 2) {
        __syncwarp();
        if (lane < offset) s_val[t] += s_val[t + offset];
    }
    __syncwarp();
    if (lane == 0) g_out[i / 32] = s_val[t];
}

// shuffle: the values never touch memory. __shfl_down_sync(mask, v, offset) hands each lane the v
// of lane + offset; all lanes named in the mask meet at the shuffle, so no lane can read a value
// that is not ready yet. After five steps lane 0 holds the sum (the other lanes hold partial sums;
// a lane whose source, lane + offset, is past lane 31 gets its own v back and adds that). The
// student sees right sums, no shared memory, no race, and in the trace one shuffle per step for
// the whole warp. Must not find: race.
__device__ int warp_reduce_sum(int v)
{
    const unsigned all = 0xffffffffu;
    v += __shfl_down_sync(all, v, 16);
    v += __shfl_down_sync(all, v, 8);
    v += __shfl_down_sync(all, v, 4);
    v += __shfl_down_sync(all, v, 2);
    v += __shfl_down_sync(all, v, 1);
    return v;
}

extern "C" __global__ void warp_reduce_shuffle(const int* g_in, int* g_out)
{
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    const int sum = warp_reduce_sum(g_in[i]);
    if (threadIdx.x % 32 == 0) g_out[i / 32] = sum;
}
