// Helpers shared by the PTX front-end tests.
#pragma once

#include "ptx/parser.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <string_view>

namespace synclab::ptx::test {

// The module header used by wrap(): the kernel body's first line is line kBodyLine.
inline constexpr std::string_view kHeader =
    ".version 9.0\n"
    ".target sm_75\n"
    ".address_size 64\n"
    ".visible .entry k(.param .u64 k_param_0, .param .u32 k_param_1)\n"
    "{\n";
inline constexpr uint32_t kBodyLine = 6;

// The standard registers most instruction tests use (declared on line kBodyLine).
inline constexpr std::string_view kRegs = ".reg .pred %p<5>; .reg .b16 %rs<5>; .reg .b32 %r<10>; .reg .f32 "
                                          "%f<10>; .reg .b64 %rd<10>; .reg .f64 %fd<5>;\n";

// A module with one kernel `k` whose body is `body` (starting on line kBodyLine).
inline std::string wrap(std::string_view body) {
    std::string text(kHeader);
    text += body;
    text += "\n}\n";
    return text;
}

inline Module parse(std::string_view text) {
    return parse_module(text, "test.ptx");
}

// Parses kRegs + `instructions` and returns the kernel; instruction i is on line kBodyLine + 1 + i
// when each instruction is on its own line.
inline Function parse_body(std::string_view instructions) {
    std::string body(kRegs);
    body += instructions;
    Module module = parse(wrap(body));
    EXPECT_EQ(module.functions.size(), 1u);
    return module.functions.at(0);
}

// The single instruction of a body made of kRegs + `instruction`.
inline Instruction parse_one(std::string_view instruction) {
    Function fn = parse_body(std::string(instruction) + ";");
    EXPECT_EQ(fn.code.size(), 1u);
    return fn.code.at(0);
}

// Register slot of `name` in `fn` (fails the test when absent).
inline uint32_t slot(const Function& fn, std::string_view name) {
    for (uint32_t i = 0; i < fn.registers.size(); ++i) {
        if (fn.registers[i].name == name) return i;
    }
    ADD_FAILURE() << "no register " << name;
    return Operand::kNoReg;
}
inline uint32_t slot(std::string_view name) {
    return slot(parse_body(""), name);
}

inline std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    EXPECT_TRUE(in.good()) << path;
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

inline std::string data_path(std::string_view name) {
    return std::string(SYNCLAB_SOURCE_DIR) + "/tests/ptx/data/" + std::string(name);
}

// Expects `text` to fail with a ParseError on `line` whose message contains `needle`.
inline void expect_error(std::string_view text, uint32_t line, std::string_view needle) {
    try {
        parse_module(text, "err.ptx");
        ADD_FAILURE() << "expected a ParseError containing '" << needle << "'";
    } catch (const ParseError& e) {
        const std::string what = e.what();
        EXPECT_EQ(e.line(), line) << what;
        EXPECT_EQ(e.source_name(), "err.ptx");
        EXPECT_EQ(what.rfind("err.ptx:" + std::to_string(line) + ": ", 0), 0u) << what;
        EXPECT_NE(what.find(needle), std::string::npos)
            << "message: " << what << "\nexpected to contain: " << needle;
    }
}

// An error in the single instruction of kRegs + `instruction` (the instruction is on kBodyLine + 1).
inline void expect_instruction_error(std::string_view instruction, std::string_view needle) {
    std::string body(kRegs);
    body += instruction;
    body += ";";
    expect_error(wrap(body), kBodyLine + 1, needle);
}

} // namespace synclab::ptx::test
