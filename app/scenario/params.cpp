// Lesson parameters applied: a Scenario whose inputs follow the user's choices (`--param k=1024`,
// the app's run panel). The lesson file's checks live in lesson.cpp; this file only picks choices.
#include "scenario/references.h"
#include "scenario/scenario.h"

#include <algorithm>

namespace synclab::scenario {

const ParamChoice* Param::find(std::string_view choice) const {
    for (const ParamChoice& c : choices)
        if (c.name == choice) return &c;
    return nullptr;
}

std::string Param::choice_names() const {
    std::string out;
    for (const ParamChoice& c : choices)
        out += (out.empty() ? "" : ", ") + c.name;
    return out;
}

std::pair<std::string, std::string> parse_param_text(std::string_view text) {
    const size_t eq = text.find('=');
    if (eq == std::string_view::npos || eq == 0 || eq + 1 == text.size())
        throw ParamError("--param " + std::string(text) + ": expected NAME=CHOICE (e.g. --param k=32)");
    return {std::string(text.substr(0, eq)), std::string(text.substr(eq + 1))};
}

std::function<Inputs(uint64_t seed)> input_builder(std::vector<BufferDecl> buffers,
                                                   std::vector<launch::KernelArg> args) {
    return [buffers = std::move(buffers), args = std::move(args)](uint64_t seed) {
        Inputs inputs;
        uint64_t rng = launch::buffer_rng_seed(seed);
        for (const BufferDecl& b : buffers)
            inputs.buffers.push_back(launch::make_buffer(b.spec, b.name, rng));
        inputs.args = args;
        return inputs;
    };
}

Scenario with_params(const Scenario& scenario, const ParamValues& values) {
    std::string names;
    for (const Param& p : scenario.params)
        names += (names.empty() ? "" : ", ") + p.name;
    std::vector<const ParamChoice*> picked(scenario.params.size(), nullptr);
    for (const auto& [name, choice] : values) {
        const auto p = std::find_if(scenario.params.begin(), scenario.params.end(),
                                    [&](const Param& q) { return q.name == name; });
        if (p == scenario.params.end())
            throw ParamError("lesson " + scenario.id + " has no parameter '" + name + "' (parameters: " +
                             (names.empty() ? "none" : names) + ")");
        const size_t i = static_cast<size_t>(p - scenario.params.begin());
        if (picked[i] != nullptr) throw ParamError("parameter '" + name + "' is given twice");
        picked[i] = p->find(choice);
        if (picked[i] == nullptr)
            throw ParamError("lesson " + scenario.id + ": parameter '" + name + "' has no choice '" + choice +
                             "' (choices: " + p->choice_names() + ")");
    }
    Scenario out = scenario;
    out.chosen.clear();
    for (size_t i = 0; i < out.params.size(); ++i) {
        const Param& p = out.params[i];
        const ParamChoice& c = picked[i] ? *picked[i] : p.choices[p.default_choice];
        if (p.arg >= 0) out.args[static_cast<size_t>(p.arg)].bits = c.scalar_bits;
        if (p.sets_grid) {
            // Variants without a grid of their own run the lesson's: they follow the choice too.
            for (Variant& v : out.variants)
                if (v.launch.grid == out.launch.grid) v.launch.grid.x = c.grid_x;
            out.launch.grid.x = c.grid_x;
        }
        for (const auto& [b, spec] : c.buffers)
            out.buffers[b].spec = spec;
        out.chosen.emplace_back(p.name, c.name);
    }
    if (out.launch.grid != scenario.launch.grid && !out.reference.empty() && out.reference_variant.empty())
        if (const Reference* r = find_reference(out.reference)) out.check = bind_reference(*r, out.launch);
    out.make_inputs = input_builder(out.buffers, out.args);
    return out;
}

} // namespace synclab::scenario
