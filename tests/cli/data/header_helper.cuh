// The store of tests/cli/data/header_helper.cu's kernel lives here, in a helper: a race on it is
// at a line of this file, called from the kernel's line.
#pragma once
__device__ inline void store_tile(int* s_tile, unsigned t, int v) {
    s_tile[t] = v;
}
