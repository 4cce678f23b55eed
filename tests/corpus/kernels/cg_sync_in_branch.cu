// expect: barrier_divergence
// check: --kernel even_threads_sync --grid 1 --block 32 --arg buf:i32:64:iota
// check: --kernel even_threads_sync --grid 1 --block 33 --arg buf:i32:64:iota
// check: --kernel even_threads_sync --grid 1 --block 97 --arg buf:i32:128:iota
// A cooperative-groups block barrier inside a branch that only the even threads take, in the shape
// of GPUVerify's cooperative_groups divergence tests: thread_block::sync() compiles to the unaligned
// `barrier.sync 0`, the odd threads branch to the kernel's end and exit. Every thread of the group
// must call sync(): barrier_divergence, naming the odd lanes that never reach it.
#include <cooperative_groups.h>

using namespace cooperative_groups;

__global__ void even_threads_sync(int* A)
{
  thread_block tb = this_thread_block();
  int idx = blockIdx.x * blockDim.x + threadIdx.x;

  if (idx % 2 == 0) {
    int next = A[idx + 2];
    sync(tb);
    A[idx] = next;
  }
}
