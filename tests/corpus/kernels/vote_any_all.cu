// expect: clean
// check: --kernel voteAny --grid 1 --block 96 --arg buf:u32:96:random=0..1 --arg buf:u32:96
// check: --kernel voteAll --grid 2 --block 64 --arg buf:u32:128:random=0..1 --arg buf:u32:128
// check: --kernel voteHalfWarps --grid 1 --block 96 --arg buf:u32:288
// Warp votes in the shape of the CUDA samples' vote-intrinsics test (our code, written after
// reading it): every lane gets __any_sync / __all_sync of the warp's inputs, and a directed test
// votes on conditions that split warps and half warps by thread index. Votes read no memory and
// order none: nothing races. A CPU gold checks every result (corpus_gold_test.cpp).
__global__ void voteAny(const unsigned* input, unsigned* result) {
    const int tx = blockIdx.x * blockDim.x + threadIdx.x;
    result[tx] = __any_sync(0xffffffffu, input[tx]);
}

__global__ void voteAll(const unsigned* input, unsigned* result) {
    const int tx = blockIdx.x * blockDim.x + threadIdx.x;
    result[tx] = __all_sync(0xffffffffu, input[tx]);
}

// Three votes per thread into info[3 * tx ..]: any(tx >= 48) is false in warp 0 only; all(tx < 48)
// is true in warp 0 only; all(tx % 32 < 16 || tx >= 64) is true in warp 2 only.
__global__ void voteHalfWarps(unsigned* info) {
    const int tx = threadIdx.x;
    unsigned* offs = info + tx * 3;
    offs[0] = __any_sync(0xffffffffu, tx >= 48) ? 1 : 0;
    offs[1] = __all_sync(0xffffffffu, tx < 48) ? 1 : 0;
    offs[2] = __all_sync(0xffffffffu, tx % 32 < 16 || tx >= 64) ? 1 : 0;
}
