// expect: clean
// check: --kernel all_threads_sync --grid 1 --block 32 --arg buf:i32:64:iota
// check: --kernel all_threads_sync --grid 1 --block 33 --arg buf:i32:64:iota
// check: --kernel all_threads_sync --grid 1 --block 97 --arg buf:i32:128:iota
// The fixed twin of cg_sync_in_branch.cu: every thread reads, the whole block meets at
// thread_block::sync(), then the even threads write. Nothing to report.
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

__global__ void all_threads_sync(int* A)
{
  cg::thread_block tb = cg::this_thread_block();
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  int next = A[idx + 2];
  tb.sync();
  if (idx % 2 == 0)
    A[idx] = next;
}
