// `synclab check` arguments: `buf:TYPE:COUNT[:zero|iota|random|const=V]` (launch/launch.h) binds a
// fresh buffer to a pointer parameter; a plain number binds a scalar parameter (typed by the PTX
// parameter).
#pragma once

#include "launch/launch.h"
#include "ptx/ir.h"

#include <cstdint>
#include <string>
#include <vector>

namespace synclab::cli {

struct ArgSpec {
    bool is_buffer = false;
    launch::BufferSpec buffer;
    std::string scalar_text; // the number as given, parsed against the parameter's type
};

// Parses one --arg value; throws UsageError naming the argument position and what is wrong.
ArgSpec parse_arg_spec(const std::string& text, size_t position);

// Builds the inputs for a kernel from the specs (random contents from `seed`). Buffers are named
// "arg<i>" (i = parameter position). Throws UsageError if the specs do not fit the parameters.
launch::Inputs build_inputs(const ptx::Function& fn, const std::vector<ArgSpec>& specs, uint64_t seed);

} // namespace synclab::cli
