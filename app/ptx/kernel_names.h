// Kernel names as a user writes them. nvcc mangles the name of every kernel that is not
// `extern "C"` (`block_sum(const int*, int*)` is `_Z9block_sumPKiPi` in the PTX); a user asks for
// `block_sum`, or `reduce<256>` for a template. The C++ runtime's demangler (abi::__cxa_demangle,
// wrapped by trace/naming.h, which every layer names kernels with) turns symbols back into
// signatures; the matching rules are here, in one place.
#pragma once

#include "ptx/ir.h"
#include "trace/naming.h"

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace synclab::ptx {

// "block_sum(int const*, int*)" for "_Z9block_sumPKiPi"; a name that is not mangled comes back as is.
using trace::demangle;

// The kernels of `module` that `name` means, in PTX order:
// 1. the entry whose PTX name is exactly `name` (mangled or extern "C");
// 2. otherwise every entry whose demangled signature matches `name` as a whole
//    ("block_sum(int const*, int*)"), without its parameters ("block_sum", "ns::k", "reduce<256>"), or
//    without its template arguments ("reduce", which may match several instantiations); a kernel in
//    an unnamed namespace also without its "(anonymous namespace)::".
// Spaces and the literal suffixes the demangler adds to template arguments ("256u") are ignored.
std::vector<const Function*> find_kernels(const Module& module, std::string_view name);

// No kernel, or more than one, answers to a name; what() says which there are.
struct KernelLookupError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The one kernel `name` means; throws KernelLookupError that names the kernels there are when none
// matches, or lists the candidates with their signatures and PTX names when several do.
const Function& require_kernel(const Module& module, std::string_view name, const std::string& source_name);

} // namespace synclab::ptx
