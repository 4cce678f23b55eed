// `synclab check` arguments: `buf:TYPE:COUNT[:zero|iota|random|const=V]` (launch/launch.h) binds a
// fresh buffer to a pointer parameter, `NAME:TYPE:COUNT[:...]` the same buffer named NAME (as the
// kernel's source calls it: findings then say "out[3]"); a plain number binds a scalar parameter
// (typed by the PTX parameter).
#pragma once

#include "launch/launch.h"
#include "ptx/ir.h"

#include <cstdint>
#include <string>
#include <vector>

namespace synclab::cli {

struct ArgSpec {
    bool is_buffer = false;
    std::string name; // NAME of NAME:TYPE:COUNT; "" for buf:TYPE:COUNT
    launch::BufferSpec buffer;
    std::string scalar_text; // the number as given, parsed against the parameter's type
};

// Parses one --arg value; throws UsageError naming the argument position and what is wrong.
ArgSpec parse_arg_spec(const std::string& text, size_t position);

// The kernel's parameter names as its CUDA source writes them ("in", "out" for `__global__ void
// reverse(const int* in, int* out)`), found by the kernel's name (`fn`'s demangled name without
// namespaces and template arguments); empty when the source has no such definition or its
// parameter count differs from the PTX's.
std::vector<std::string> source_parameter_names(const std::string& source_text, const ptx::Function& fn);

// The name of each parameter's buffer: the spec's NAME, else the parameter's name in the source
// (`source_names`, may be empty), else "arg<i>" (i = parameter position); "" for scalars.
std::vector<std::string> buffer_names(const ptx::Function& fn, const std::vector<ArgSpec>& specs,
                                      const std::vector<std::string>& source_names);

// Builds the inputs for a kernel from the specs (random contents from `seed`), buffers named by
// `names` (buffer_names). Throws UsageError if the specs do not fit the parameters: a count that
// differs, a number for a pointer or a buffer for a scalar (ptx/param_use.h), a bad number. Messages
// name a parameter as the source does where `source_names` (source_parameter_names) has it.
launch::Inputs build_inputs(const ptx::Function& fn, const std::vector<ArgSpec>& specs, uint64_t seed,
                            const std::vector<std::string>& names = {},
                            const std::vector<std::string>& source_names = {});

} // namespace synclab::cli
