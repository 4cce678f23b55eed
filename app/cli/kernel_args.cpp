#include "cli/kernel_args.h"

#include "cli/args.h"
#include "ptx/param_use.h"
#include "trace/naming.h"

#include <algorithm>
#include <cctype>

namespace synclab::cli {

namespace {

bool identifier_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// The NAME of "NAME:TYPE:COUNT..." (a C identifier other than "buf"), or "".
std::string buffer_name_prefix(const std::string& text) {
    const size_t colon = text.find(':');
    if (colon == std::string::npos || colon == 0 || std::isdigit(static_cast<unsigned char>(text[0])))
        return "";
    const std::string name = text.substr(0, colon);
    if (name == "buf" || !std::all_of(name.begin(), name.end(), identifier_char)) return "";
    return name;
}

} // namespace

ArgSpec parse_arg_spec(const std::string& text, size_t position) {
    const std::string where = "--arg #" + std::to_string(position + 1) + " ('" + text + "')";
    ArgSpec spec;
    if (const std::string name = buffer_name_prefix(text); !name.empty()) {
        spec = parse_arg_spec("buf" + text.substr(name.size()), position);
        spec.name = name;
        return spec;
    }
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

std::vector<std::string> source_parameter_names(const std::string& source_text, const ptx::Function& fn) {
    // "ns::reduce<256>" -> "reduce"
    std::string name = trace::kernel_name(fn.name);
    name = name.substr(0, name.find('<'));
    if (const size_t colons = name.rfind("::"); colons != std::string::npos) name = name.substr(colons + 2);
    if (name.empty()) return {};
    // The definition: the name as a whole word, followed by '(' and, after the parameter list, '{'
    // (a call or a declaration is followed by something else).
    for (size_t at = source_text.find(name); at != std::string::npos; at = source_text.find(name, at + 1)) {
        if (at > 0 && identifier_char(source_text[at - 1])) continue;
        size_t open = at + name.size();
        if (open < source_text.size() && source_text[open] == '<') { // a template's arguments
            int depth = 0;
            for (; open < source_text.size(); ++open) {
                depth += source_text[open] == '<' ? 1 : source_text[open] == '>' ? -1 : 0;
                if (depth == 0) break;
            }
            ++open;
        }
        while (open < source_text.size() && std::isspace(static_cast<unsigned char>(source_text[open])))
            ++open;
        if (open >= source_text.size() || source_text[open] != '(') continue;
        std::vector<std::string> params;
        std::string current;
        int depth = 0;
        size_t close = open + 1;
        for (; close < source_text.size(); ++close) {
            const char c = source_text[close];
            if (depth == 0 && (c == ',' || c == ')')) {
                params.push_back(current);
                current.clear();
                if (c == ')') break;
                continue;
            }
            depth += (c == '(' || c == '<' || c == '[') ? 1 : (c == ')' || c == '>' || c == ']') ? -1 : 0;
            current += c;
        }
        size_t body = close + 1;
        while (body < source_text.size() && std::isspace(static_cast<unsigned char>(source_text[body])))
            ++body;
        if (body >= source_text.size() || source_text[body] != '{') continue;
        // Each parameter's name: its last identifier before any default value or array bounds.
        std::vector<std::string> names;
        for (std::string p : params) {
            p = p.substr(0, p.find('='));
            p = p.substr(0, p.find('['));
            size_t end = p.size();
            while (end > 0 && !identifier_char(p[end - 1]))
                --end;
            size_t start = end;
            while (start > 0 && identifier_char(p[start - 1]))
                --start;
            names.push_back(p.substr(start, end - start));
        }
        if (names.size() == 1 && names[0].empty() && fn.params.empty()) return {};
        if (names.size() != fn.params.size()) return {};
        return names;
    }
    return {};
}

std::vector<std::string> buffer_names(const ptx::Function& fn, const std::vector<ArgSpec>& specs,
                                      const std::vector<std::string>& source_names) {
    std::vector<std::string> names(specs.size());
    for (size_t i = 0; i < specs.size(); ++i) {
        if (!specs[i].is_buffer) continue;
        if (!specs[i].name.empty())
            names[i] = specs[i].name;
        else if (i < source_names.size() && i < fn.params.size() && !source_names[i].empty())
            names[i] = source_names[i];
        else
            names[i] = "arg" + std::to_string(i);
    }
    return names;
}

namespace {

// "--arg #1 (float const* in)": the argument, and its parameter as the source declares it where that
// is known (the PTX's own name, "_Z6copy_nPKfPfm_param_0", only where nothing better is).
std::string argument_label(size_t i, const ptx::Param& p, const ptx::ParamInfo& info,
                           const std::vector<std::string>& source_names) {
    const std::string name = i < source_names.size() ? source_names[i] : "";
    std::string what;
    if (!info.type.empty())
        what = info.type + (name.empty() ? "" : " " + name);
    else
        what = "parameter " + (name.empty() ? p.name : name);
    return "--arg #" + std::to_string(i + 1) + " (" + what + ")";
}

} // namespace

launch::Inputs build_inputs(const ptx::Function& fn, const std::vector<ArgSpec>& specs, uint64_t seed,
                            const std::vector<std::string>& names, const std::vector<std::string>& source_names) {
    if (specs.size() != fn.params.size())
        throw UsageError("kernel " + fn.name + " takes " + std::to_string(fn.params.size()) +
                         " parameters, but " + std::to_string(specs.size()) + " --arg were given");
    launch::Inputs inputs;
    uint64_t rng = launch::buffer_rng_seed(seed);
    const std::vector<ptx::ParamInfo> info = ptx::param_info(fn);
    for (size_t i = 0; i < specs.size(); ++i) {
        const ArgSpec& s = specs[i];
        const ptx::Param& p = fn.params[i];
        const std::string where = argument_label(i, p, info[i], source_names);
        if (s.is_buffer) {
            if (p.size != 8)
                throw UsageError(where + " is a " + std::to_string(p.size) + "-byte scalar, not a pointer");
            if (info[i].kind == ptx::ParamKind::Scalar)
                throw UsageError(where + " is a scalar, not a pointer: give a number");
            inputs.args.push_back(launch::KernelArg::pointer(static_cast<uint32_t>(inputs.buffers.size())));
            const std::string name =
                i < names.size() && !names[i].empty() ? names[i] : "arg" + std::to_string(i);
            inputs.buffers.push_back(launch::make_buffer(s.buffer, name, rng));
            continue;
        }
        if (info[i].kind == ptx::ParamKind::Pointer) {
            // A number in a pointer would run, and fail far from here (a misaligned or wild access).
            const std::string element = ptx::element_type_of_pointer(info[i].type);
            throw UsageError(where + " is a pointer, but '" + s.scalar_text +
                             "' is a number: bind a buffer, e.g. buf:" + (element.empty() ? "u32" : element) +
                             ":1024 (or NAME:" + (element.empty() ? "u32" : element) + ":1024 to name it)");
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
