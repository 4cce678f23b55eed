// Kernels for `synclab check`'s argument checks (tests/cli/check_options_test.cpp): which parameters
// are pointers, from the C++ signature a mangled name carries or, for extern "C", from the PTX.
// PTX beside it: nvcc -ptx -lineinfo -O3 -arch=compute_75 -std=c++17 check_options.cu
#include <cstddef>

// C++ name: the signature says in and out are pointers and n a scalar (a 64-bit one).
__global__ void copy_n(const float* in, float* out, size_t n) {
    const size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
    if (i < n) out[i] = in[i];
}

// extern "C": no signature in the PTX; the loads through in and out make them pointers.
extern "C" __global__ void copy_c(const float* in, float* out, unsigned long long n) {
    const unsigned long long i = blockIdx.x * 1ull * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i];
}
