// expect: race
// also: WAW
// check: --kernel example --grid 1 --block 2 --arg buf:f32:2 --arg 1
// Threads 0 and 1 both write A[1] when x == 1: a write-write race whose winner decides the result.
__global__ void example(float* A, int x) {
    if (threadIdx.x == 0) A[threadIdx.x + x] = threadIdx.x;
    if (threadIdx.x == 1) A[threadIdx.x] = threadIdx.x;
}
