// expect: lost_update
// check: --kernel count --grid 2 --block 64 --arg buf:i32:1
// check: --kernel count --grid 1 --block 7 --arg buf:i32:1
// Every thread increments one counter without an atomic: a lost update (reported once, not again
// as a race between the same load and store).
__global__ void count(int* counter) { *counter = *counter + 1; }
