// A kernel whose racy store is inside a helper from a header (tests/cli/inlined_lines_test.cpp):
// each thread stores its element through store_tile() and reads its neighbour's slot with no
// __syncthreads() between. Compiled with (then the .file paths cut to base names, as
// scripts/normalize_ptx.cmake does):
//   nvcc -ptx -lineinfo -O3 -arch=compute_75 -std=c++17 header_helper.cu -o header_helper.ptx
#include "header_helper.cuh"

__global__ void shift_left(const int* g_in, int* g_out) {
    __shared__ int s_tile[64];
    unsigned t = threadIdx.x;
    store_tile(s_tile, t, g_in[t]);
    g_out[t] = s_tile[(t + 1) % 64];
}
