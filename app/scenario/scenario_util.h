// Private helpers of the scenario library: typed views of launch::Buffer bytes, buffers found by
// name, and the element-by-element comparison every check uses.
#pragma once

#include "scenario/scenario.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace synclab::scenario::detail {

template <typename T> std::vector<T> read_buffer(const launch::Buffer& buffer) {
    static_assert(std::is_trivially_copyable_v<T>);
    std::vector<T> values(buffer.bytes.size() / sizeof(T));
    if (!values.empty()) std::memcpy(values.data(), buffer.bytes.data(), values.size() * sizeof(T));
    return values;
}

// The index of the buffer named `name` among a run's inputs (the runners keep the buffers in that
// order after the run), or SIZE_MAX.
inline size_t buffer_index(const Inputs& inputs, std::string_view name) {
    for (size_t i = 0; i < inputs.buffers.size(); ++i)
        if (inputs.buffers[i].name == name) return i;
    return SIZE_MAX;
}

// The values of input buffer `name` before the run ({} when there is none).
template <typename T> std::vector<T> input_values(const Inputs& before, std::string_view name) {
    const size_t i = buffer_index(before, name);
    return i == SIZE_MAX ? std::vector<T>{} : read_buffer<T>(before.buffers[i]);
}

// Buffer `name` after the run, or nullptr when the run did not give it back.
inline const launch::Buffer* result_buffer(const Inputs& before, const std::vector<launch::Buffer>& after,
                                           std::string_view name) {
    const size_t i = buffer_index(before, name);
    return i < after.size() ? &after[i] : nullptr;
}

// One element as text ("12", "0.5").
std::string format_element(const uint8_t* bytes, launch::ElemType type);

// Compares element by element with exact equality (the lessons use values whose arithmetic is
// exact). A missing or short output counts every missing element as wrong. Counts into `result`;
// sets `first` (the first wrong element) when none is set yet. Returns the wrong count.
struct Mismatch {
    bool any = false;
    std::string name;
    uint64_t index = 0;
    std::string got, expected;
};
uint64_t compare_elements(const uint8_t* expected, uint64_t count, const launch::Buffer* got,
                          launch::ElemType type, const std::string& name, Mismatch& first);

// "all N outputs match WHAT" or "W of N outputs wrong; first: NAME[i] = got, expected e".
std::string summarise(uint64_t wrong, uint64_t checked, const Mismatch& first, const std::string& what);

template <typename T> constexpr launch::ElemType elem_type_of() {
    if constexpr (std::is_same_v<T, float>)
        return launch::ElemType::F32;
    else if constexpr (std::is_same_v<T, int32_t>)
        return launch::ElemType::I32;
    else if constexpr (std::is_same_v<T, uint32_t>)
        return launch::ElemType::U32;
    else if constexpr (std::is_same_v<T, double>)
        return launch::ElemType::F64;
    else
        static_assert(sizeof(T) == 0, "add the type here");
}

// compare_elements over a typed vector of expected values, summarised against the CPU reference.
template <typename T>
CheckResult compare_with_cpu(const std::vector<T>& expected, const launch::Buffer* got,
                             const std::string& name) {
    CheckResult result;
    Mismatch first;
    result.checked = expected.size();
    ExpectedOutput& right = result.expected.emplace_back();
    right.name = name;
    right.type = elem_type_of<T>();
    right.bytes.resize(expected.size() * sizeof(T));
    if (!expected.empty()) std::memcpy(right.bytes.data(), expected.data(), right.bytes.size());
    if (got == nullptr) {
        result.wrong = expected.size();
        result.summary =
            "output buffer " + name + " missing: " + std::to_string(expected.size()) + " outputs unchecked";
        return result;
    }
    result.wrong = compare_elements(reinterpret_cast<const uint8_t*>(expected.data()), expected.size(), got,
                                    elem_type_of<T>(), name, first);
    result.summary = summarise(result.wrong, result.checked, first, "the CPU reference");
    return result;
}

} // namespace synclab::scenario::detail
