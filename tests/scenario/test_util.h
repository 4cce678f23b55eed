// Helpers of the scenario tests, written independently of the library's own (scenario_util.h), so
// that the gold tests do not trust the code they test.
#pragma once

#include "scenario/scenario.h"

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace synclab::scenario::test {

template <typename T> std::vector<T> values_of(const launch::Buffer& buffer) {
    std::vector<T> values(buffer.bytes.size() / sizeof(T));
    std::memcpy(values.data(), buffer.bytes.data(), values.size() * sizeof(T));
    return values;
}

template <typename T> launch::Buffer buffer_of(const std::string& name, const std::vector<T>& values) {
    launch::Buffer buffer;
    buffer.name = name;
    buffer.bytes.resize(values.size() * sizeof(T));
    std::memcpy(buffer.bytes.data(), values.data(), buffer.bytes.size());
    return buffer;
}

// Takes the id by value (a view): with `const std::string&`, g++ 13 warns that the returned reference
// may dangle, since a string literal argument binds a temporary (-Wdangling-reference).
inline const Scenario& scenario(std::string_view id) {
    const Scenario* s = find_scenario(id);
    if (s == nullptr) throw std::runtime_error("no scenario " + std::string(id));
    return *s;
}

} // namespace synclab::scenario::test
