// expect: race
// also: global
// check: --kernel neighbour_add --grid 4 --block 32 --arg buf:i32:160:iota
// check: --kernel neighbour_add --grid 3 --block 7 --arg buf:i32:28:iota
// Each thread adds the element one block further on: block b reads what block b+1 writes, and
// nothing orders two blocks of one launch (GPUVerify's "bad inter group" case).
__global__ void neighbour_add(int* A) {
    A[blockIdx.x * blockDim.x + threadIdx.x] += A[(blockIdx.x + 1) * blockDim.x + threadIdx.x];
}
