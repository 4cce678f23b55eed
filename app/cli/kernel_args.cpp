#include "cli/kernel_args.h"

#include "cli/args.h"

namespace synclab::cli {

ArgSpec parse_arg_spec(const std::string& text, size_t position) {
    const std::string where = "--arg #" + std::to_string(position + 1) + " ('" + text + "')";
    ArgSpec spec;
    if (!launch::is_buffer_spec(text)) {
        if (text.empty()) throw UsageError(where + ": empty value");
        spec.scalar_text = text;
        return spec;
    }
    spec.is_buffer = true;
    try {
        spec.buffer = launch::parse_buffer_spec(text);
    } catch (const launch::SpecError& e) {
        throw UsageError(where + ": " + e.what());
    }
    return spec;
}

launch::Inputs build_inputs(const ptx::Function& fn, const std::vector<ArgSpec>& specs, uint64_t seed) {
    if (specs.size() != fn.params.size())
        throw UsageError("kernel " + fn.name + " takes " + std::to_string(fn.params.size()) +
                         " parameters, but " + std::to_string(specs.size()) + " --arg were given");
    launch::Inputs inputs;
    uint64_t rng = launch::buffer_rng_seed(seed);
    for (size_t i = 0; i < specs.size(); ++i) {
        const ArgSpec& s = specs[i];
        const ptx::Param& p = fn.params[i];
        const std::string where = "--arg #" + std::to_string(i + 1) + " (parameter " + p.name + ")";
        if (s.is_buffer) {
            if (p.size != 8)
                throw UsageError(where + " is a " + std::to_string(p.size) + "-byte scalar, not a pointer");
            inputs.args.push_back(launch::KernelArg::pointer(static_cast<uint32_t>(inputs.buffers.size())));
            inputs.buffers.push_back(launch::make_buffer(s.buffer, "arg" + std::to_string(i), rng));
            continue;
        }
        try {
            inputs.args.push_back(launch::KernelArg::scalar(launch::parse_scalar_bits(
                s.scalar_text, p.type == ptx::Type::F32, p.type == ptx::Type::F64)));
        } catch (const launch::SpecError& e) {
            throw UsageError(where + ": " + e.what());
        }
    }
    return inputs;
}

} // namespace synclab::cli
