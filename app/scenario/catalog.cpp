// The catalog: the scenarios in teaching order, and the lookups over them. Each scenario is built by
// its own file (scenario_<id>.cpp); this file only lists them.
#include "embedded.h"
#include "scenario/scenario.h"
#include "scenario_util.h"

#include <cstdio>

namespace synclab::scenario {

namespace detail {

std::string format_value(int32_t value) {
    return std::to_string(value);
}

std::string format_value(float value) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", static_cast<double>(value));
    return text;
}

} // namespace detail

const Variant* Scenario::find_variant(std::string_view variant_id) const {
    for (const Variant& variant : variants)
        if (variant.id == variant_id) return &variant;
    return nullptr;
}

std::string_view Scenario::cuda_source() const {
    return embedded_file(source_file);
}

std::string_view Scenario::ptx_source() const {
    std::string_view base = source_file;
    if (base.size() > 3 && base.substr(base.size() - 3) == ".cu") base.remove_suffix(3);
    return embedded_file(std::string(base) + ".ptx");
}

const std::vector<Scenario>& catalog() {
    static const std::vector<Scenario> scenarios = {
        detail::make_stencil(),
        detail::make_divergent_barrier(),
        detail::make_loop_barrier(),
        detail::make_lost_update(),
    };
    return scenarios;
}

const Scenario* find_scenario(std::string_view id) {
    for (const Scenario& scenario : catalog())
        if (scenario.id == id) return &scenario;
    return nullptr;
}

} // namespace synclab::scenario
