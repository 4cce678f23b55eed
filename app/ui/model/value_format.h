// Values in their type, for the app: the event formatting is the trace layer's (one implementation
// for the analyses, the CLI and the app: trace/value_format.h); a buffer element typed by the
// launch's element type is here, since that type is the launch layer's.
#pragma once

#include "launch/launch.h"
#include "trace/value_format.h"

#include <cstdint>
#include <string>
#include <vector>

namespace synclab::ui {

using trace::event_value;
using trace::format_value;
using trace::value_type;

// One element of a buffer as its type writes it ("6.0", "-3", "4294967295"): format_value for types
// of 32 bits or less, the whole value for 64-bit ones. "" for bytes too short.
std::string element_text(const std::vector<uint8_t>& bytes, launch::ElemType type, uint64_t index);

} // namespace synclab::ui
