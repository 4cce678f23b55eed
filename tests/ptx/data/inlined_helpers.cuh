// A __device__ helper in a header, inlined into tests/ptx/data/inlined.cu's kernel: its line is a
// line of this file, not of the kernel's.
#pragma once

__device__ inline int header_load(const int* s, unsigned t) {
    return s[t + 2];
}
