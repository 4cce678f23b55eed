// Scenario "message_passing": one block hands a value to another block through a flag in global memory.
//
// Blocks come in pairs, one thread each: block 2p writes for pair p, block 2p + 1 reads. The pair
// count is gridDim.x / 2, so the same kernel runs 32 pairs in the simulator and 1,024 on a GPU.
//   reader: looks at g_data[p] (0: nothing there yet; kept in g_before[p]), asks for the data by
//           raising g_ready[p], spins on the volatile flag g_flag[p] until it reads 1, reads g_data[p]
//           again and records (flag seen, data seen) in g_out[2p], g_out[2p + 1]
//   writer: waits for the request, stores g_data[p] = 1, raises the flag: atomicExch(&g_flag[p], 1)
// "1,1" is a hand-over that worked; "1,0" is a stale read: the reader saw the flag, not the data.
// The first look matters: it brings the data's line into the reader's L1 cache holding 0, and a
// plain load after the flag may be served from that line. That is how the bug shows on an H200.
// The request is there so that the first look always comes before the data is written, and is
// written correctly in every variant (a release store, an acquire load: the first look races with
// nothing); only the answer, data then flag, differs from variant to variant.
//
// The PTX memory model promises the reader the data only when a release on the writer's side
// (a fence, or a release store, before the flag) meets an acquire on the reader's side (a fence,
// or an acquire load, after the flag), at a scope that holds both blocks. One side is not enough.
//
// Launch: blockDim.x = 1, gridDim.x even; g_data, g_flag, g_ready and g_before hold gridDim.x / 2
// values, g_out twice that; all start at 0.
#include <cuda/atomic>

// no_fence: nothing orders the writer's two stores, nothing orders the reader's two loads. The
// flag can become visible before the data, and the reader's second load may come from the stale L1
// line its first look filled. The student sees "1,0" records (wrong outputs) and a stale_read
// finding on the second load of g_data, even in runs where every record comes out "1,1".
extern "C" __global__ void message_passing_no_fence(unsigned int* g_data, unsigned int* g_flag,
                                                    unsigned int* g_ready, unsigned int* g_before,
                                                    unsigned int* g_out)
{
    const unsigned int p = blockIdx.x / 2;
    volatile unsigned int* flag = &g_flag[p];
    cuda::atomic_ref<unsigned int, cuda::thread_scope_device> ready(g_ready[p]);
    if (blockIdx.x % 2 == 0) {
        while (ready.load(cuda::memory_order_acquire) != 1) {
        }
        g_data[p] = 1;
        atomicExch(&g_flag[p], 1u);
    } else {
        g_before[p] = g_data[p];
        ready.store(1u, cuda::memory_order_release);
        while (*flag != 1) {
        }
        g_out[2 * p] = 1;
        g_out[2 * p + 1] = g_data[p];
    }
}

// writer_fence_only: the seed tutorials' fix, on one side. __threadfence() makes the data visible
// before the flag, but the reader still reads its old L1 line: nothing on its side says "the flag
// came first". On an H200, 97% of the pairs recorded "1,0", as with no fence. Expect "1,0"
// records and stale_read.
extern "C" __global__ void message_passing_writer_fence_only(unsigned int* g_data, unsigned int* g_flag,
                                                             unsigned int* g_ready, unsigned int* g_before,
                                                             unsigned int* g_out)
{
    const unsigned int p = blockIdx.x / 2;
    volatile unsigned int* flag = &g_flag[p];
    cuda::atomic_ref<unsigned int, cuda::thread_scope_device> ready(g_ready[p]);
    if (blockIdx.x % 2 == 0) {
        while (ready.load(cuda::memory_order_acquire) != 1) {
        }
        g_data[p] = 1;
        __threadfence();
        atomicExch(&g_flag[p], 1u);
    } else {
        g_before[p] = g_data[p];
        ready.store(1u, cuda::memory_order_release);
        while (*flag != 1) {
        }
        g_out[2 * p] = 1;
        g_out[2 * p + 1] = g_data[p];
    }
}

// reader_fence_only: the other half alone. The reader's fence after the flag drops its stale view,
// but the writer's stores may still reach memory in either order: the flag can be there before the
// data. The H200 never showed it (0 of 51,200 pairs); the PTX model allows it, and the stale_read
// finding must fire all the same: "it passed" is not "it is right".
extern "C" __global__ void message_passing_reader_fence_only(unsigned int* g_data, unsigned int* g_flag,
                                                             unsigned int* g_ready, unsigned int* g_before,
                                                             unsigned int* g_out)
{
    const unsigned int p = blockIdx.x / 2;
    volatile unsigned int* flag = &g_flag[p];
    cuda::atomic_ref<unsigned int, cuda::thread_scope_device> ready(g_ready[p]);
    if (blockIdx.x % 2 == 0) {
        while (ready.load(cuda::memory_order_acquire) != 1) {
        }
        g_data[p] = 1;
        atomicExch(&g_flag[p], 1u);
    } else {
        g_before[p] = g_data[p];
        ready.store(1u, cuda::memory_order_release);
        while (*flag != 1) {
        }
        __threadfence();
        g_out[2 * p] = 1;
        g_out[2 * p + 1] = g_data[p];
    }
}

// both_fences: correct. The writer's fence before its flag write is a release, the reader's fence
// after its flag read is an acquire (both fence.sc at gpu scope: membar.gl), so the data write
// happens before the second read, which must return 1. Every record is "1,1"; no finding fires.
extern "C" __global__ void message_passing_both_fences(unsigned int* g_data, unsigned int* g_flag,
                                                       unsigned int* g_ready, unsigned int* g_before,
                                                       unsigned int* g_out)
{
    const unsigned int p = blockIdx.x / 2;
    volatile unsigned int* flag = &g_flag[p];
    cuda::atomic_ref<unsigned int, cuda::thread_scope_device> ready(g_ready[p]);
    if (blockIdx.x % 2 == 0) {
        while (ready.load(cuda::memory_order_acquire) != 1) {
        }
        g_data[p] = 1;
        __threadfence();
        atomicExch(&g_flag[p], 1u);
    } else {
        g_before[p] = g_data[p];
        ready.store(1u, cuda::memory_order_release);
        while (*flag != 1) {
        }
        __threadfence();
        g_out[2 * p] = 1;
        g_out[2 * p + 1] = g_data[p];
    }
}

// release_acquire: correct, and says what it means. The ordering rides on the flag itself: a
// release store (st.release.gpu) and an acquire load (ld.acquire.gpu) through cuda::atomic_ref, no
// separate fences. Every record is "1,1"; no finding fires.
extern "C" __global__ void message_passing_release_acquire(unsigned int* g_data, unsigned int* g_flag,
                                                           unsigned int* g_ready, unsigned int* g_before,
                                                           unsigned int* g_out)
{
    const unsigned int p = blockIdx.x / 2;
    cuda::atomic_ref<unsigned int, cuda::thread_scope_device> flag(g_flag[p]);
    cuda::atomic_ref<unsigned int, cuda::thread_scope_device> ready(g_ready[p]);
    if (blockIdx.x % 2 == 0) {
        while (ready.load(cuda::memory_order_acquire) != 1) {
        }
        g_data[p] = 1;
        flag.store(1u, cuda::memory_order_release);
    } else {
        g_before[p] = g_data[p];
        ready.store(1u, cuda::memory_order_release);
        while (flag.load(cuda::memory_order_acquire) != 1) {
        }
        g_out[2 * p] = 1;
        g_out[2 * p + 1] = g_data[p];
    }
}
