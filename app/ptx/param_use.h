// Which of a kernel's parameters are pointers. `synclab check` binds a buffer to a pointer and a
// number to a scalar; a number given for a pointer would run and end in a misaligned or wild access
// far from its cause, so the binding is checked before anything runs.
//
// Two sources, the better first:
// - the C++ signature a mangled kernel name carries ("reverse(int const*, int*)"): exact;
// - the PTX itself, for an extern "C" kernel: a parameter whose loaded value becomes an address
//   (`ld.param.u64 %rd1, [p]; cvta.to.global.u64 %rd2, %rd1`, or %rd1 used as [%rd1] directly) is a
//   pointer. A 64-bit parameter used otherwise stays unknown: it may be a pointer never
//   dereferenced, or a size_t.
#pragma once

#include "ptx/ir.h"

#include <string>
#include <vector>

namespace synclab::ptx {

enum class ParamKind : uint8_t { Unknown, Pointer, Scalar };

struct ParamInfo {
    ParamKind kind = ParamKind::Unknown;
    std::string type; // the C++ type where the signature says it ("int const*", "unsigned long"), else ""
};

// One entry per parameter of `fn`, in order.
std::vector<ParamInfo> param_info(const Function& fn);

// The parameter types of a demangled signature, as written between its outermost parentheses:
// "void reduce<256u>(float const*, float*, int)" -> {"float const*", "float*", "int"}; empty for a
// name without parameters (not mangled) or "()". Commas inside template arguments or nested
// parentheses (function pointers) do not split.
std::vector<std::string> signature_parameter_types(const std::string& signature);

// The `synclab check` element type (launch::ElemType spelling: "i32", "f32", ...) of what a pointer
// type points at: "int const*" -> "i32", "float*" -> "f32", "unsigned char*" -> "u8"; "" when it
// is not one of those (a struct, a template type).
std::string element_type_of_pointer(const std::string& cpp_type);

} // namespace synclab::ptx
