// Kernels for the end-to-end tests of the fence analysis (analysis_e2e_test.cpp, "Fences"): message
// passing between two blocks and the last-block reduction, each with and without its fences. Each
// kernel says what analyze() must report. Launch: 2 blocks of 32 threads (message passing), 4
// blocks of 32 (reduction); buffers zeroed. The seed's reduction has the writer's fence only: under
// PTX's model the last block also needs one after its ticket (an acquire), or nothing orders its
// reads of the partials.
//   nvcc -ptx -lineinfo -O3 -arch=compute_75 fences.cu -o fences.ptx

// Message passing: block 0 thread 0 writes the data, then the flag (atomicExch); block 1 thread 0
// waits for the flag (a volatile load), then reads the data into g_out[0]. Each variant is spelled
// out (no template or helper) so that the lines the findings name are the variant's own.

// stale_read: no fence on either side (the message names both).
__global__ void mp_no_fence(int* g_data, int* g_flag, int* g_out)
{
    if (threadIdx.x != 0) return;
    if (blockIdx.x == 0) {
        g_data[0] = 42;
        atomicExch(g_flag, 1);
    } else if (blockIdx.x == 1) {
        while (*(volatile int*)g_flag == 0) {
        }
        g_out[0] = g_data[0];
    }
}

// stale_read: the reader's fence is missing.
__global__ void mp_writer_fence_only(int* g_data, int* g_flag, int* g_out)
{
    if (threadIdx.x != 0) return;
    if (blockIdx.x == 0) {
        g_data[0] = 42;
        __threadfence();
        atomicExch(g_flag, 1);
    } else if (blockIdx.x == 1) {
        while (*(volatile int*)g_flag == 0) {
        }
        g_out[0] = g_data[0];
    }
}

// stale_read: the writer's fence is missing.
__global__ void mp_reader_fence_only(int* g_data, int* g_flag, int* g_out)
{
    if (threadIdx.x != 0) return;
    if (blockIdx.x == 0) {
        g_data[0] = 42;
        atomicExch(g_flag, 1);
    } else if (blockIdx.x == 1) {
        while (*(volatile int*)g_flag == 0) {
        }
        __threadfence();
        g_out[0] = g_data[0];
    }
}

// no finding.
__global__ void mp_both_fences(int* g_data, int* g_flag, int* g_out)
{
    if (threadIdx.x != 0) return;
    if (blockIdx.x == 0) {
        g_data[0] = 42;
        __threadfence();
        atomicExch(g_flag, 1);
    } else if (blockIdx.x == 1) {
        while (*(volatile int*)g_flag == 0) {
        }
        __threadfence();
        g_out[0] = g_data[0];
    }
}

// stale_read: __threadfence_block() on both sides orders nothing for the other block.
__global__ void mp_block_fences(int* g_data, int* g_flag, int* g_out)
{
    if (threadIdx.x != 0) return;
    if (blockIdx.x == 0) {
        g_data[0] = 42;
        __threadfence_block();
        atomicExch(g_flag, 1);
    } else if (blockIdx.x == 1) {
        while (*(volatile int*)g_flag == 0) {
        }
        __threadfence_block();
        g_out[0] = g_data[0];
    }
}

// no finding: the flag is a release store and an acquire load at gpu scope (what
// cuda::atomic_ref's store(release) / load(acquire) compile to).
__global__ void mp_release_acquire(int* g_data, int* g_flag, int* g_out)
{
    if (threadIdx.x != 0) return;
    if (blockIdx.x == 0) {
        g_data[0] = 42;
        asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(g_flag), "r"(1) : "memory");
    } else if (blockIdx.x == 1) {
        int seen = 0;
        while (seen == 0)
            asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(seen) : "l"(g_flag) : "memory");
        g_out[0] = g_data[0];
    }
}

// The last-block reduction (seed 000, 4.3): every block's thread 0 writes its partial (here
// blockIdx + 1) and takes a ticket; the block that draws the last ticket sums the partials into
// g_out[0] (the right total for 4 blocks is 10).

// stale_read (harmful 0 when the total comes out right): no fence on either side.
__global__ void last_block_no_fence(int* g_partial, unsigned* g_count, int* g_out)
{
    if (threadIdx.x != 0) return;
    g_partial[blockIdx.x] = blockIdx.x + 1;
    const unsigned ticket = atomicInc(g_count, gridDim.x);
    if (ticket == gridDim.x - 1) {
        int total = 0;
        for (unsigned i = 0; i < gridDim.x; ++i)
            total += g_partial[i];
        g_out[0] = total;
    }
}

// no finding: a fence before the ticket, and one after drawing the last one.
__global__ void last_block_with_fences(int* g_partial, unsigned* g_count, int* g_out)
{
    if (threadIdx.x != 0) return;
    g_partial[blockIdx.x] = blockIdx.x + 1;
    __threadfence();
    const unsigned ticket = atomicInc(g_count, gridDim.x);
    if (ticket == gridDim.x - 1) {
        __threadfence();
        int total = 0;
        for (unsigned i = 0; i < gridDim.x; ++i)
            total += g_partial[i];
        g_out[0] = total;
    }
}
