// expect: race
// also: WAW
// check: --kernel histogram --grid 4 --block 64 --arg buf:u32:256:random --arg buf:u32:16
// check: --kernel histogram --grid 3 --block 33 --arg buf:u32:99:random --arg buf:u32:16
// A global histogram counted with atomicAdd_block(): the atomics of one block are atomic with each
// other, not with those of another block, and every block updates the same bins (a scope race).
__global__ void histogram(const unsigned* values, unsigned* bins) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd_block(&bins[values[i] % 16], 1u);
}
