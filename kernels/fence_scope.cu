// Scenario "fence_scope": the message passing of the lesson before, with fences on both sides, at
// three scopes. A fence orders memory only for the threads inside its scope:
//   __threadfence_block()   membar.cta  the threads of the same block
//   __threadfence()         membar.gl   every thread of the GPU
//   __threadfence_system()  membar.sys  every thread of the GPU, the host CPU and peer GPUs
// The writer and the reader are in different blocks, so a block-scope fence orders nothing between
// them: it is as if there were no fence at all.
//
// Blocks come in pairs, one thread each. Block 2p + 1, the reader, looks at g_data[p] (0; kept in
// g_before[p]: the look brings the line into its L1), asks for the data by raising g_ready[p]
// (release store), spins on the volatile flag g_flag[p], fences, reads g_data[p] again and records
// (flag seen, data seen) in g_out[2p], g_out[2p + 1]. Block 2p, the writer, waits for the request
// (acquire load), writes g_data[p] = 1, fences, raises the flag with atomicExch. "1,0" is a stale
// read. The pair count is gridDim.x / 2.
//
// Launch: blockDim.x = 1, gridDim.x even; g_data, g_flag, g_ready and g_before hold gridDim.x / 2
// values, g_out twice that; all start at 0.
//
// The last two variants hand the data to the host CPU as well. On the GPU backend the lesson's
// [host_reader] puts g_data and g_flag in pinned host memory mapped into the GPU (cuMemHostAlloc
// with CU_MEMHOSTALLOC_DEVICEMAP), and a CPU thread of the worker waits for each g_flag[p] to turn 1
// (acquire loads) and then reads g_data[p], while the kernel runs. The kernels themselves do not
// change: what differs is who else reads the memory. The simulator runs no CPU thread, so there
// the GPU reader block is the only reader (and the run says that the CPU part is not modelled).
#include <cuda/atomic>

// block_fence_across_blocks: __threadfence_block() on both sides. Enough between two warps of one
// block, nothing between two blocks: the reader can still take the flag's 1 with its stale 0 for the
// data. Expect "1,0" records and a stale_read finding on the second load of g_data.
extern "C" __global__ void fence_scope_block_fence_across_blocks(unsigned int* g_data, unsigned int* g_flag,
                                                                 unsigned int* g_ready,
                                                                 unsigned int* g_before, unsigned int* g_out)
{
    const unsigned int p = blockIdx.x / 2;
    volatile unsigned int* flag = &g_flag[p];
    cuda::atomic_ref<unsigned int, cuda::thread_scope_device> ready(g_ready[p]);
    if (blockIdx.x % 2 == 0) {
        while (ready.load(cuda::memory_order_acquire) != 1) {
        }
        g_data[p] = 1;
        __threadfence_block();
        atomicExch(&g_flag[p], 1u);
    } else {
        g_before[p] = g_data[p];
        ready.store(1u, cuda::memory_order_release);
        while (*flag != 1) {
        }
        __threadfence_block();
        g_out[2 * p] = 1;
        g_out[2 * p + 1] = g_data[p];
    }
}

// device_fence: __threadfence() on both sides, the scope that holds both blocks: the writer's fence
// releases the data before the flag, the reader's fence acquires it after the flag. Every record is
// "1,1"; no finding fires.
extern "C" __global__ void fence_scope_device_fence(unsigned int* g_data, unsigned int* g_flag,
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

// system_fence: __threadfence_system() on both sides. Between two blocks it does what
// __threadfence() does (the system scope holds the whole GPU), at a higher cost on real hardware:
// every record is "1,1" and no finding fires. What it is for: on the GPU backend the CPU reads
// g_flag and g_data in host-mapped memory while the kernel runs, and the writer's membar.sys makes
// the data visible to the CPU before the flag is, so the CPU must see 1 for every pair it sees the
// flag of. The simulator has no CPU thread: the GPU reader stands in for it.
extern "C" __global__ void fence_scope_system_fence(unsigned int* g_data, unsigned int* g_flag,
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
        __threadfence_system();
        atomicExch(&g_flag[p], 1u);
    } else {
        g_before[p] = g_data[p];
        ready.store(1u, cuda::memory_order_release);
        while (*flag != 1) {
        }
        __threadfence_system();
        g_out[2 * p] = 1;
        g_out[2 * p + 1] = g_data[p];
    }
}

// device_fence_to_host: the writer fences with __threadfence() (membar.gl, gpu scope) and the CPU
// reads. For the GPU reader block this is device_fence and right ("1,1" records, no finding). For
// the CPU it is not: the host is outside the gpu scope, so nothing orders the data's store before
// the flag's for a host thread, and the PTX memory model allows the CPU to see the flag's 1 with the
// data's old 0. Whether an H200 and its x86 host ever show it is measured by the GPU run (the CPU
// reader's stale count), not promised either way. The simulator has no CPU thread and cannot show it.
extern "C" __global__ void fence_scope_device_fence_to_host(unsigned int* g_data, unsigned int* g_flag,
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
        __threadfence(); // enough for the GPU reader, not for the CPU
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
