// PTX parser: the finish of a function, once its closing brace is reached: branch targets resolved,
// the shared window and the .local frame laid out, shared-variable offsets patched into operands.
#include "ptx/parser_impl.h"

namespace synclab::ptx::detail {

// Resolves branch targets, lays out .shared and the .local frame, and patches shared offsets.
// Shared window layout: module-scope variables this function references (declaration order), then
// the function's own static variables (declaration order), each at its alignment from offset 0.
// `extern .shared` arrays all start at shared_dynamic_offset = static end rounded up to
// max(16, their alignment).
void Parser::finish_function(FunctionState& st) {
    Function& fn = st.fn;
    for (const LabelRef& ref : st.label_refs) {
        auto it = st.labels.find(ref.name);
        if (it == st.labels.end()) {
            throw ParseError(source_name_, ref.line, fn.text[ref.instr],
                             "unknown label '" + std::string(ref.name) + "'");
        }
        const Label& label = it->second;
        if (label.instr >= fn.code.size()) {
            throw ParseError(source_name_, label.line, line_text(label.line),
                             "label '" + std::string(ref.name) + "' is not followed by an instruction");
        }
        fn.code[ref.instr].target = label.instr;
    }

    std::vector<bool> module_used(module_shared_.size(), false);
    for (const SharedRef& ref : st.shared_refs) {
        if (ref.module_scope) module_used[ref.index] = true;
    }
    std::vector<uint64_t> module_offset(module_shared_.size(), 0);
    std::vector<uint64_t> local_offset(st.shared.size(), 0);
    uint64_t cursor = 0;
    uint64_t dynamic_align = 16;
    auto place = [&](const SharedVar& var, uint64_t& offset) {
        if (var.is_extern) {
            dynamic_align = std::max<uint64_t>(dynamic_align, var.align);
            return;
        }
        offset = align_up(cursor, var.align);
        cursor = offset + var.size;
        if (cursor > kMaxBytes)
            throw ParseError(source_name_, fn.decl_line, "",
                             "shared memory of '" + fn.name + "' is too large");
    };
    for (size_t i = 0; i < module_shared_.size(); ++i) {
        if (module_used[i]) place(module_shared_[i], module_offset[i]);
    }
    for (size_t i = 0; i < st.shared.size(); ++i)
        place(st.shared[i], local_offset[i]);
    fn.shared_static_bytes = static_cast<uint32_t>(cursor);
    fn.shared_dynamic_offset = static_cast<uint32_t>(align_up(cursor, dynamic_align));
    auto name = [&](const SharedVar& var, uint64_t offset) {
        const uint64_t at = var.is_extern ? fn.shared_dynamic_offset : offset;
        fn.shared_symbols.push_back(
            {var.name, uint32_t(at), var.is_extern ? 0 : var.size, var.type, var.is_extern});
    };
    for (size_t i = 0; i < module_shared_.size(); ++i)
        if (module_used[i]) name(module_shared_[i], module_offset[i]);
    for (size_t i = 0; i < st.shared.size(); ++i)
        name(st.shared[i], local_offset[i]);
    std::stable_sort(fn.shared_symbols.begin(), fn.shared_symbols.end(),
                     [](const SharedSymbol& a, const SharedSymbol& b) { return a.offset < b.offset; });
    for (const SharedRef& ref : st.shared_refs) {
        const SharedVar& var = ref.module_scope ? module_shared_[ref.index] : st.shared[ref.index];
        const uint64_t base = var.is_extern
                                  ? fn.shared_dynamic_offset
                                  : (ref.module_scope ? module_offset[ref.index] : local_offset[ref.index]);
        fn.code[ref.instr].ops[ref.slot].imm += base;
    }
    fn.local_bytes = static_cast<uint32_t>(st.local_bytes);
}

} // namespace synclab::ptx::detail
