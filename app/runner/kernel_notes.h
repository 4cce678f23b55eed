// Notes on what the compiler made of a kernel, for a run that found nothing: the user reads "no
// findings" as "no bug", but nvcc -O3 removes stores that nothing reads, so a racy-looking kernel
// whose shared memory is never read back compiles to one that touches no shared memory at all.
#pragma once

#include "ptx/ir.h"

#include <string>
#include <string_view>
#include <vector>

namespace synclab::runner {

// Notes for `kernel` of a module compiled from `cuda_source` (may be empty: no source, no note that
// needs it):
// - the source declares __shared__ memory in the kernel, but the compiled kernel makes no shared
//   access (no ld/st/atom on .shared or on a generic address);
// - the kernel takes pointers but the compiled kernel writes no memory at all.
std::vector<std::string> compiled_kernel_notes(const ptx::Function& kernel, std::string_view cuda_source);

} // namespace synclab::runner
