#include "ptx/param_use.h"

#include "ptx/opcodes.h"
#include "trace/naming.h"

#include <map>

namespace synclab::ptx {

std::vector<std::string> signature_parameter_types(const std::string& signature) {
    // The parameter list is the last top-level "(...)" (a template argument may hold parentheses).
    if (signature.empty() || signature.back() != ')') return {};
    int depth = 0;
    size_t open = std::string::npos;
    for (size_t i = signature.size(); i-- > 0;) {
        const char c = signature[i];
        if (c == ')') ++depth;
        if (c == '(' && --depth == 0) {
            open = i;
            break;
        }
    }
    if (open == std::string::npos) return {};
    std::vector<std::string> types;
    std::string current;
    depth = 0;
    for (size_t i = open + 1; i + 1 < signature.size(); ++i) {
        const char c = signature[i];
        if (depth == 0 && c == ',') {
            types.push_back(current);
            current.clear();
            continue;
        }
        depth += (c == '(' || c == '<') ? 1 : (c == ')' || c == '>') ? -1 : 0;
        if (!(current.empty() && c == ' ')) current += c;
    }
    if (!current.empty()) types.push_back(current);
    if (types.size() == 1 && types[0] == "void") return {};
    return types;
}

std::string element_type_of_pointer(const std::string& cpp_type) {
    if (cpp_type.empty() || cpp_type.back() != '*') return "";
    std::string base = cpp_type.substr(0, cpp_type.size() - 1);
    // The demangler writes qualifiers after the type ("int const*", "float volatile*").
    for (const char* qualifier : {" const", " volatile", " __restrict"}) {
        const std::string q = qualifier;
        for (size_t at; (at = base.find(q)) != std::string::npos;)
            base.erase(at, q.size());
    }
    static const std::map<std::string, std::string> kElement = {
        {"signed char", "i8"},       {"char", "i8"},          {"unsigned char", "u8"},
        {"short", "i16"},            {"unsigned short", "u16"}, {"int", "i32"},
        {"unsigned int", "u32"},     {"long", "i64"},         {"unsigned long", "u64"},
        {"long long", "i64"},        {"unsigned long long", "u64"}, {"float", "f32"},
        {"double", "f64"}};
    const auto it = kElement.find(base);
    return it == kElement.end() ? "" : it->second;
}

namespace {

// The parameter whose value `ld.param` at `in` loads, or SIZE_MAX.
size_t loaded_param(const Function& fn, const Instruction& in) {
    if (in.op != Op::Ld || in.space != Space::Param || in.operand_count < 2) return SIZE_MAX;
    const Operand& address = in.ops[1];
    if (address.kind != Operand::Kind::Address || address.reg != Operand::kNoReg) return SIZE_MAX;
    for (size_t i = 0; i < fn.params.size(); ++i)
        if (fn.params[i].offset == address.imm && fn.params[i].size == 8) return i;
    return SIZE_MAX;
}

// The register `in` uses as an address: cvta's source, or the base of a memory access.
uint32_t address_register(const Instruction& in) {
    if (in.op == Op::Cvta && in.operand_count >= 2 && in.ops[1].kind == Operand::Kind::Reg) return in.ops[1].reg;
    if (!has_trait(in.op, trait::kMemory) || in.space == Space::Param) return Operand::kNoReg;
    for (uint8_t i = 0; i < in.operand_count; ++i)
        if (in.ops[i].kind == Operand::Kind::Address) return in.ops[i].reg;
    return Operand::kNoReg;
}

} // namespace

std::vector<ParamInfo> param_info(const Function& fn) {
    std::vector<ParamInfo> out(fn.params.size());
    const std::vector<std::string> types = signature_parameter_types(trace::demangle(fn.name));
    if (types.size() == fn.params.size()) {
        for (size_t i = 0; i < types.size(); ++i) {
            const bool pointer = types[i].ends_with('*') || types[i].ends_with('&');
            out[i] = {pointer ? ParamKind::Pointer : ParamKind::Scalar, types[i]};
        }
        return out;
    }
    // No signature: which registers hold a parameter's value, and whether one becomes an address.
    std::map<uint32_t, size_t> param_of_register;
    for (const Instruction& in : fn.code) {
        if (const size_t p = loaded_param(fn, in); p != SIZE_MAX && in.ops[0].kind == Operand::Kind::Reg) {
            param_of_register[in.ops[0].reg] = p;
            continue;
        }
        const uint32_t reg = address_register(in);
        if (reg == Operand::kNoReg) continue;
        if (const auto it = param_of_register.find(reg); it != param_of_register.end())
            out[it->second].kind = ParamKind::Pointer;
    }
    return out;
}

} // namespace synclab::ptx
