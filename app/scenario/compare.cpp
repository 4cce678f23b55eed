// Output comparison: element by element, exact, with a summary naming the first wrong element.
#include "scenario/scenario.h"
#include "scenario_util.h"

#include <cstdio>

namespace synclab::scenario {

namespace detail {

std::string format_element(const uint8_t* p, launch::ElemType type) {
    auto read = [p]<class T>(T) {
        T v;
        std::memcpy(&v, p, sizeof v);
        return v;
    };
    char text[40];
    switch (type) {
    case launch::ElemType::I8:
        return std::to_string(read(int8_t{}));
    case launch::ElemType::U8:
        return std::to_string(read(uint8_t{}));
    case launch::ElemType::I16:
        return std::to_string(read(int16_t{}));
    case launch::ElemType::U16:
        return std::to_string(read(uint16_t{}));
    case launch::ElemType::I32:
        return std::to_string(read(int32_t{}));
    case launch::ElemType::U32:
        return std::to_string(read(uint32_t{}));
    case launch::ElemType::I64:
        return std::to_string(read(int64_t{}));
    case launch::ElemType::U64:
        return std::to_string(read(uint64_t{}));
    case launch::ElemType::F32:
        std::snprintf(text, sizeof text, "%g", static_cast<double>(read(float{})));
        return text;
    case launch::ElemType::F64:
        std::snprintf(text, sizeof text, "%g", read(double{}));
        return text;
    }
    return "?";
}

uint64_t compare_elements(const uint8_t* expected, uint64_t count, const launch::Buffer* got,
                          launch::ElemType type, const std::string& name, Mismatch& first) {
    const uint32_t size = launch::elem_size(type);
    const uint64_t have = got ? got->bytes.size() / size : 0;
    uint64_t wrong = 0;
    for (uint64_t i = 0; i < count; ++i) {
        const uint8_t* want = expected + i * size;
        if (i < have && std::memcmp(got->bytes.data() + i * size, want, size) == 0) continue;
        if (!first.any) {
            first = {true, name, i,
                     i < have ? format_element(got->bytes.data() + i * size, type) : "(missing)",
                     format_element(want, type)};
        }
        ++wrong;
    }
    return wrong;
}

std::string summarise(uint64_t wrong, uint64_t checked, const Mismatch& first, const std::string& what) {
    if (wrong == 0) return "all " + std::to_string(checked) + " outputs match " + what;
    return std::to_string(wrong) + " of " + std::to_string(checked) + " outputs wrong; first: " + first.name +
           "[" + std::to_string(first.index) + "] = " + first.got + ", expected " + first.expected;
}

} // namespace detail

CheckResult compare_outputs(const Scenario& scenario, const std::vector<launch::Buffer>& expected,
                            const std::vector<launch::Buffer>& after, const std::string& what) {
    CheckResult result;
    detail::Mismatch first;
    for (size_t i = 0; i < scenario.buffers.size(); ++i) {
        const BufferDecl& decl = scenario.buffers[i];
        if (!decl.output) continue;
        const launch::Buffer* want = i < expected.size() ? &expected[i] : nullptr;
        const uint64_t count = decl.spec.count;
        result.checked += count;
        if (want == nullptr || want->bytes.size() < count * launch::elem_size(decl.spec.type)) {
            // No reference values: nothing can be called right.
            result.wrong += count;
            if (!first.any) first = {true, decl.name, 0, "?", "(no reference)"};
            continue;
        }
        const uint64_t size = launch::elem_size(decl.spec.type);
        result.expected.push_back(
            {decl.name, decl.spec.type,
             std::vector<uint8_t>(want->bytes.begin(), want->bytes.begin() + count * size)});
        result.wrong +=
            detail::compare_elements(want->bytes.data(), count, i < after.size() ? &after[i] : nullptr,
                                     decl.spec.type, decl.name, first);
    }
    result.summary = detail::summarise(result.wrong, result.checked, first, what);
    return result;
}

} // namespace synclab::scenario
