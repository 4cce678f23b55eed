// An event's value as its instruction's type says: `ld.shared.f32` loading 0x40c00000 shows "6.0",
// not "1086324736". One implementation for every layer that writes values: the analyses' output
// explanation, the CLI and the app's tooltips.
#pragma once

#include "trace/trace.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace synclab::trace {

// The element type of a PTX instruction's opcode ("ld.shared.v2.f32 %f1, [%r2]" -> "f32",
// "atom.global.add.u32 ..." -> "u32", "st.volatile.global.b64 ..." -> "b64"); "" when the opcode
// names none of f16 f16x2 bf16 f32 f64 s8..s64 u8..u64 b8..b64 pred.
std::string_view value_type(std::string_view instruction);

// The value an event recorded (the low 32 bits of what was loaded, stored or given to an atomic;
// `size_bytes` is the access size) in the instruction's type:
//   f32 "6.0", "-0.5", "1e+30", "nan", "inf"; f16 / bf16 the same from the low 16 bits;
//   s8 / s16 / s32 signed decimal ("-1"); u8 / u16 / u32 decimal; b8..b32 hex padded to the width
//   ("0x000000ff"); pred "true" / "false";
//   64-bit types: only the low half was recorded, and the text says so:
//   u64 / s64 "6 (low 32 bits)", b64 / f64 "0x00000006 (low 32 bits)";
//   no type known: "1086324736 (0x40c00000)" (and " (low 32 bits)" for an 8-byte access).
std::string format_value(std::string_view instruction, uint32_t value, uint32_t size_bytes);

// format_value() of a memory event, typed by its site's instruction (untyped when the site is not in
// the trace's site table).
std::string event_value(const Trace& trace, const Event& event);

} // namespace synclab::trace
