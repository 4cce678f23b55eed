// Message passing (MP), a litmus test for `synclab check --histogram`: in every block, thread 0
// writes the data and then the flag; thread 32 (another warp, so the two interleave) reads the flag
// and then the data, and records what it saw in g_seen[2 * block] (flag, data).
// Under sequential consistency the outcome "1,0" (flag seen, data stale) cannot happen: the data is
// written before the flag and read after it. A relaxed memory may show it where nothing orders the
// two stores and the two loads (mp_no_fence); mp_fences orders them with __threadfence() on both sides.
// volatile keeps the compiler from merging or reordering the accesses: the order is the hardware's.

extern "C" __global__ void mp_no_fence(volatile int* g_data, volatile int* g_flag, int* g_seen) {
    const int b = blockIdx.x;
    if (threadIdx.x == 0) {
        g_data[b] = 1;
        g_flag[b] = 1;
    } else if (threadIdx.x == 32) {
        const int flag = g_flag[b];
        const int data = g_data[b];
        g_seen[2 * b] = flag;
        g_seen[2 * b + 1] = data;
    }
}

extern "C" __global__ void mp_fences(volatile int* g_data, volatile int* g_flag, int* g_seen) {
    const int b = blockIdx.x;
    if (threadIdx.x == 0) {
        g_data[b] = 1;
        __threadfence(); // the data before the flag, for every block
        g_flag[b] = 1;
    } else if (threadIdx.x == 32) {
        const int flag = g_flag[b];
        __threadfence(); // the flag before the data
        const int data = g_data[b];
        g_seen[2 * b] = flag;
        g_seen[2 * b + 1] = data;
    }
}
