// expect: clean
// check: --kernel example --grid 1 --block 2 --arg buf:f32:4 --arg 2
// The same kernel launched with x == 2: the writes land on different elements.
__global__ void example(float* A, int x) {
    if (threadIdx.x == 0) A[threadIdx.x + x] = threadIdx.x;
    if (threadIdx.x == 1) A[threadIdx.x] = threadIdx.x;
}
