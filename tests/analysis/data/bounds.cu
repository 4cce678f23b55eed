// Kernels for the out-of-bounds tests (analysis_e2e_test.cpp in the simulator, analysis_gpu_test.cpp
// on a GPU; issue 20). Each kernel says what the analysis must report, and its launch.
//   nvcc -ptx -lineinfo -O3 -arch=compute_75 -std=c++17 bounds.cu -o bounds.ptx

// out_of_bounds (write). Launch: 2 blocks of 64 threads, a = 16 ints. Thread i writes a[i * 1024]:
// only thread 0 stays inside a's 64 bytes; thread 1 writes 4,032 bytes past its end, thread 32
// 131,008 bytes, thread 127 520,128 bytes. A GPU may let the writes land in whatever lies there
// (status ok) or fault.
__global__ void write_far_past_the_end(int* a)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    a[i * 1024] = i;
}

// out_of_bounds (write). Launch: 1 block of 16 threads, a = 16 ints. Thread 0 writes a[-1]: 4 bytes
// before a's start.
__global__ void write_before_the_start(int* a)
{
    int i = threadIdx.x;
    a[i - 1] = i;
}

// out_of_bounds (read). Launch: 1 block of 32 threads, a = 16 ints, out = 32 ints. Threads 16-31
// read past the end of a (0 to 60 bytes past it).
__global__ void read_past_the_end(const int* a, int* out)
{
    int i = threadIdx.x;
    out[i] = a[i];
}

// out_of_bounds (write) after a read inside. Launch: 2 blocks of 64 threads, in = 128 ints, a = 16
// ints: every thread reads in[i], then writes it to a[i * 1024] as write_far_past_the_end does. A
// faulting kernel whose trace holds accesses before the fault (tests/gpu/gpu_memory_map_test.cpp).
__global__ void copy_far_past_the_end(const int* in, int* a)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    a[i * 1024] = in[i];
}

// out_of_bounds (write), far from every buffer. Launch: 2 blocks of 64 threads, a = 16 ints. Thread i
// writes 4 * 2^28 * i bytes (i GiB) past a's start: addresses no allocation is near, which a GPU
// faults on (CUDA_ERROR_ILLEGAL_ADDRESS) where nothing is mapped there.
__global__ void write_far_away(int* a)
{
    long long i = blockIdx.x * blockDim.x + threadIdx.x;
    a[i << 28] = int(i);
}

// Nothing. Launch: 2 blocks of 64 threads, a = 16 ints, n = 16: the same write, kept inside.
__global__ void write_inside(int* a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = i;
}
