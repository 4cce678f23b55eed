// PTX front end: text -> ptx::Module. Supports the PTX that nvcc 13 emits for SyncLab's kernels and
// for ordinary user kernels of the same kind; anything else is a ParseError naming the PTX line and
// the instruction, never a crash and never a silent skip.
#pragma once

#include "ptx/ir.h"

#include <stdexcept>
#include <string>
#include <string_view>

namespace synclab::ptx {

class ParseError : public std::runtime_error {
  public:
    ParseError(std::string source_name, uint32_t line, std::string instruction, const std::string& what);
    const std::string& source_name() const { return source_name_; }
    uint32_t line() const { return line_; }                         // 1-based PTX line
    const std::string& instruction() const { return instruction_; } // offending text ("" if none)

  private:
    std::string source_name_;
    uint32_t line_;
    std::string instruction_;
};

// Parses a whole module. `source_name` is used in error messages ("stencil.ptx:42: ...").
Module parse_module(std::string_view text, const std::string& source_name = "<ptx>");

} // namespace synclab::ptx
