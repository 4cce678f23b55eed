// Kernels for the end-to-end tests of the global-memory race analysis (analysis_e2e_test.cpp),
// written as a new user writes them: plain C++ names (mangled in the PTX), templates, -O3.
// Each kernel says what the analysis must report, and the launch it is run with.
//   nvcc -ptx -lineinfo -O3 -arch=compute_75 global_races.cu -o global_races.ptx

// race RAW (global), across blocks. Launch: 3 blocks of 100 threads, n = 300.
// Each thread writes its own element, then reads the element one block further on: a value a
// thread of another block wrote, and nothing orders blocks within a launch.
template <typename T> __global__ void read_next_block(T* g_data, T* g_out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    g_data[i] = T(i);
    g_out[i] = g_data[(i + blockDim.x) % n];
}
template __global__ void read_next_block<int>(int*, int*, int);

// race RAW (global), inside each block, no barrier: each thread reads its neighbour's element of
// its block's tile. Launch: 3 blocks of 100 threads.
__global__ void neighbour_no_barrier(int* g_data, int* g_out)
{
    int base = blockIdx.x * blockDim.x;
    int t = threadIdx.x;
    g_data[base + t] = t;
    g_out[base + t] = g_data[base + (t + 1) % blockDim.x];
}

// no finding: the same with a __syncthreads() between the write and the read (any grid).
__global__ void neighbour_with_barrier(int* g_data, int* g_out)
{
    int base = blockIdx.x * blockDim.x;
    int t = threadIdx.x;
    g_data[base + t] = t;
    __syncthreads();
    g_out[base + t] = g_data[base + (t + 1) % blockDim.x];
}

// race WAR (global), inside a block: each thread reads its neighbour's element, then overwrites
// its own, which its other neighbour has read. Launch: 1 block of 100 threads.
__global__ void shift_left_in_place(int* g_data)
{
    int t = threadIdx.x;
    int next = g_data[(t + 1) % blockDim.x];
    g_data[t] = next;
}

// race WAW (global), across blocks: every block writes the same 100 elements. Launch: 3 x 100.
__global__ void every_block_writes_the_same(int* g_out)
{
    g_out[threadIdx.x] = blockIdx.x;
}

// no finding: atomics on one counter never race with each other. Launch: 3 x 100.
__global__ void count_with_atomics(unsigned int* g_count)
{
    atomicAdd(g_count, 1u);
}

// lost_update, no race: `counter[i % 4]++` from every thread (a plain read-modify-write of four
// words). The WAR/WAW/RAW pairs are the lost update itself. Launch: 3 x 100.
__global__ void increment_mod_four(int* g_count)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    g_count[i % 4]++;
}

// race WAW (global): `slot` comes back from an atomic, and every thread after the first gets the
// same one (the maximum only grows to 7), so their stores collide. Launch: 3 x 100, g_max = 0.
__global__ void slot_from_atomic_max(int* g_max, int* g_out)
{
    int slot = atomicMax(g_max, 7);
    g_out[slot] = threadIdx.x;
}

// no finding: the compaction idiom: atomicAdd hands every thread its own slot. Launch: 3 x 100.
__global__ void slot_from_atomic_add(int* g_next, int* g_out)
{
    int slot = atomicAdd(g_next, 1);
    g_out[slot] = threadIdx.x;
}
