// expect: clean
// check: --kernel definitions --grid 2 --block 64 --arg buf:i32:1:const=5 --arg buf:u32:1:const=5 --arg buf:u64:1:const=5
// check: --kernel definitions --grid 3 --block 33 --arg buf:i32:1:const=5 --arg buf:u32:1:const=5 --arg buf:u64:1:const=5
// Every thread applies atomics of several widths to one address each: atomics never race with atomics.
__global__ void definitions(int* A, unsigned int* B, unsigned long long int* C) {
    atomicCAS(A, 2, 11);
    atomicAdd(B, 1u);
    atomicMax(C, 7ull);
}
