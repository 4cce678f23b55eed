// Kernels for the end-to-end tests of the scope race analysis (analysis_e2e_test.cpp, "Scoped
// atomics"): atomics whose scope is the block, the device, or mixed, spelled in each way CUDA
// offers, on global memory, on shared memory, and through generic pointers. Each kernel says what
// analyze() must report. Launch: 3 blocks of 64 threads; buffers zeroed.
//   nvcc -ptx -lineinfo -O3 -arch=compute_75 -std=c++17 scoped_atomics.cu -o scoped_atomics.ptx
#include <cuda/atomic>

// scope_race: cuda::atomic_ref with thread_scope_block on a counter every block shares.
__global__ void ref_block_scope(int* g_count)
{
    cuda::atomic_ref<int, cuda::thread_scope_block> count(*g_count);
    count.fetch_add(1, cuda::memory_order_relaxed);
}

// Nothing: the same with thread_scope_device.
__global__ void ref_device_scope(int* g_count)
{
    cuda::atomic_ref<int, cuda::thread_scope_device> count(*g_count);
    count.fetch_add(1, cuda::memory_order_relaxed);
}

// scope_race: the built-in at block scope, through a generic pointer that resolves to global memory.
__global__ void builtin_block_scope(int* g_count)
{
    __nv_atomic_fetch_add(g_count, 1, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_BLOCK);
}

// scope_race: block 0 counts with atomicAdd_block(), the other blocks with atomicAdd(): mixing
// scopes is not atomic either.
__global__ void mixed_scopes(int* g_count)
{
    if (blockIdx.x == 0)
        atomicAdd_block(g_count, 1);
    else
        atomicAdd(g_count, 1);
}

// Nothing: block scope on __shared__ memory, through a generic pointer (each block has its own
// copy), then one device-scope atomic per block.
__global__ void shared_block_scope(int* g_count)
{
    __shared__ int s_count;
    if (threadIdx.x == 0)
        s_count = 0;
    __syncthreads();
    int* p = &s_count;
    __nv_atomic_fetch_add(p, 1, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_BLOCK);
    __syncthreads();
    if (threadIdx.x == 0)
        atomicAdd(g_count, s_count);
}

// scope_race (RAW): block 0's threads count with a block-scope atomic; block 1's thread 0 reads the
// counter with a device-scope relaxed load (strong, but the writer's scope leaves block 1 out).
__global__ void block_counter_read_elsewhere(int* g_count, int* g_out)
{
    if (blockIdx.x == 0) {
        cuda::atomic_ref<int, cuda::thread_scope_block> count(*g_count);
        count.fetch_add(1, cuda::memory_order_relaxed);
    } else if (blockIdx.x == 1 && threadIdx.x == 0) {
        cuda::atomic_ref<int, cuda::thread_scope_device> count(*g_count);
        g_out[0] = count.load(cuda::memory_order_relaxed);
    }
}
