#include "ptx/kernel_names.h"

#include <cctype>
#include <regex>

namespace synclab::ptx {

namespace {

// Without spaces, and without the u/l suffixes of integer literals ("reduce<256u>" -> "reduce<256>").
std::string normalized(std::string_view text) {
    std::string compact;
    for (const char c : text)
        if (!std::isspace(static_cast<unsigned char>(c))) compact += c;
    static const std::regex literal_suffix(R"(\b([0-9]+)[uUlL]+\b)");
    return std::regex_replace(compact, literal_suffix, "$1");
}

// A kernel in an unnamed namespace is named with or without its "(anonymous namespace)::".
std::string without_anonymous_namespace(std::string name) {
    static constexpr std::string_view kAnonymous = "(anonymous namespace)::";
    for (size_t at = name.find(kAnonymous); at != std::string::npos; at = name.find(kAnonymous))
        name.erase(at, kAnonymous.size());
    return name;
}

// "reduce<256u>" -> "reduce"; "ns::k<int>" -> "ns::k".
std::string without_template_arguments(const std::string& name) {
    std::string out;
    int depth = 0;
    for (const char c : name) {
        if (c == '<') ++depth;
        if (depth == 0) out += c;
        if (c == '>') --depth;
    }
    return out;
}

} // namespace

std::vector<const Function*> find_kernels(const Module& module, std::string_view name) {
    std::vector<const Function*> out;
    for (const Function& f : module.functions)
        if (f.is_entry && f.name == name) return {&f};
    const std::string wanted = normalized(name);
    for (const Function& f : module.functions) {
        if (!f.is_entry) continue;
        const std::string signature = demangle(f.name);
        const std::string bare = trace::without_parameters(signature);
        for (const std::string& form : {signature, bare, without_template_arguments(bare)})
            if (normalized(form) == wanted || normalized(without_anonymous_namespace(form)) == wanted) {
                out.push_back(&f);
                break;
            }
    }
    return out;
}

const Function& require_kernel(const Module& module, std::string_view name, const std::string& source_name) {
    const std::vector<const Function*> found = find_kernels(module, name);
    if (found.size() == 1) return *found.front();
    auto listing = [](const std::vector<const Function*>& kernels) {
        std::string out;
        for (const Function* f : kernels) {
            const std::string signature = demangle(f->name);
            out += "\n  " + signature + (signature == f->name ? "" : "   [" + f->name + "]");
        }
        return out;
    };
    if (found.size() > 1)
        throw KernelLookupError("'" + std::string(name) + "' matches " + std::to_string(found.size()) +
                                " kernels of " + source_name +
                                "; name one by its signature or PTX name:" + listing(found));
    std::vector<const Function*> entries;
    for (const Function& f : module.functions) {
        if (f.is_entry) entries.push_back(&f);
        if (!f.is_entry && f.name == name)
            throw KernelLookupError(source_name + ":" + std::to_string(f.decl_line) + ": '" +
                                    std::string(name) +
                                    "' is a device function (.func), not a kernel (.entry)");
    }
    throw KernelLookupError("no kernel '" + std::string(name) + "' in " + source_name +
                            "; kernels:" + (entries.empty() ? std::string(" none") : listing(entries)));
}

} // namespace synclab::ptx
