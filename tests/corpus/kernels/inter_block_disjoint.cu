// expect: clean
// check: --kernel neighbour_add --grid 4 --block 32 --arg buf:i32:128:iota --arg buf:i32:160:iota
// The twin without the race: the blocks read one buffer and write another.
__global__ void neighbour_add(int* out, const int* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] + in[i + blockDim.x];
}
