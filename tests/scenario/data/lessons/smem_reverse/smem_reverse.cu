// Lesson "smem_reverse" (a test lesson made of data alone): each block reverses its slice of g_in
// through shared memory. The tile is dynamic shared memory (the lesson file's shared_bytes), one
// element per thread, so the kernel works for any block size.

// correct: store, barrier, load. Thread t reads the slot thread (n - 1 - t) stored, which is in
// another warp for most t, so the barrier must order every store before every load.
extern "C" __global__ void smem_reverse_correct(const int* g_in, int* g_out)
{
    extern __shared__ int s_tile[];
    int t = threadIdx.x;
    int gid = blockIdx.x * blockDim.x + t;

    s_tile[t] = g_in[gid];
    __syncthreads();
    g_out[gid] = s_tile[blockDim.x - 1 - t];
}

// missing_barrier: the same without the __syncthreads(): a thread may read its partner's slot
// before the partner has stored into it. Wrong outputs under random schedules and a "race" finding
// on s_tile between the store line and the load line.
extern "C" __global__ void smem_reverse_missing_barrier(const int* g_in, int* g_out)
{
    extern __shared__ int s_tile[];
    int t = threadIdx.x;
    int gid = blockIdx.x * blockDim.x + t;

    s_tile[t] = g_in[gid];
    g_out[gid] = s_tile[blockDim.x - 1 - t];
}
