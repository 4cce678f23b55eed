// `synclab check` arguments: `buf:TYPE:COUNT[:zero|iota|random|const=V]` binds a fresh buffer to a
// pointer parameter; a plain number binds a scalar parameter (typed by the PTX parameter).
#pragma once

#include "ptx/ir.h"
#include "scenario/scenario.h"

#include <cstdint>
#include <string>
#include <vector>

namespace synclab::cli {

enum class ElemType : uint8_t { I8, U8, I16, U16, I32, U32, I64, U64, F32, F64 };

struct BufferSpec {
    ElemType type = ElemType::U32;
    uint64_t count = 0;
    enum class Init : uint8_t { Zero, Iota, Random, Const } init = Init::Zero;
    double constant = 0;
};

struct ArgSpec {
    bool is_buffer = false;
    BufferSpec buffer;
    std::string scalar_text; // the number as given, parsed against the parameter's type
};

// Parses one --arg value; throws UsageError naming the argument position and what is wrong.
ArgSpec parse_arg_spec(const std::string& text, size_t position);

uint32_t elem_size(ElemType type);
const char* to_string(ElemType type);

// Builds the inputs for a kernel from the specs (random contents from `seed`). Buffers are named
// "arg<i>" (i = parameter position). Throws UsageError if the specs do not fit the parameters.
scenario::Inputs build_inputs(const ptx::Function& fn, const std::vector<ArgSpec>& specs, uint64_t seed);

// The buffer's contents as text, `per_line` values a line.
std::string format_buffer(const std::vector<uint8_t>& bytes, ElemType type, size_t per_line = 8);

} // namespace synclab::cli
