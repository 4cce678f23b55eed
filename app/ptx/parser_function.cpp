// PTX parser: functions (.entry / .func): signature, parameter list, performance directives, the body
// (blocks, labels, directives, statements), .reg declarations, and .loc source positions.
//
// Index
//   [SECTION] Functions: signature, parameters, body, registers
//   [SECTION] .loc and inlining
#include "ptx/parser_impl.h"

#include "trace/naming.h"

#include <algorithm>
#include <limits>

namespace synclab::ptx::detail {

// =================================================================================================
// [SECTION] Functions: signature, parameters, body, registers
// =================================================================================================

void Parser::parse_function(const Token& kind_token, bool is_extern) {
    FunctionState st;
    st.fn.is_entry = kind_token.is_directive(".entry");
    st.fn.decl_line = kind_token.line;
    st.names.push(); // parameter scope
    if (!st.fn.is_entry && peek().is_punct('(')) parse_param_list(st, true);
    const Token& name =
        expect_word(st.fn.is_entry ? "a kernel name after .entry" : "a function name after .func");
    st.fn.name = std::string(name.text);
    if (peek().is_punct('(')) parse_param_list(st, false);
    st.fn.param_bytes = static_cast<uint32_t>(st.param_bytes);
    parse_performance_directives();
    if (accept_punct(';')) {
        // A prototype (e.g. `.extern .func vprintf(...)`): nothing to run. Its name is known so that a
        // later definition or a call names it; calls themselves are rejected where they appear.
        if (!module_names_.contains(name.text))
            declare_module_name(name, name.text, Symbol{Symbol::Kind::Function, true, 0, 0});
        return;
    }
    if (is_extern) fail_at(name, ".extern function '" + st.fn.name + "' must not have a body");
    auto existing = module_names_.find(name.text);
    if (existing != module_names_.end() && existing->second.kind != Symbol::Kind::Function) {
        fail_at(name, "'" + st.fn.name + "' is already declared in this module");
    }
    for (const Function& f : module_.functions) {
        if (f.name == st.fn.name) fail_at(name, "function '" + st.fn.name + "' is defined twice");
    }
    if (existing == module_names_.end())
        declare_module_name(name, name.text, Symbol{Symbol::Kind::Function, true, 0, 0});
    if (!peek().is_punct('{'))
        fail_at(peek(), "expected '{' to start the body of '" + st.fn.name + "', found " + describe(peek()));
    parse_body(st);
    finish_function(st);
    // The function's own file: where its first positioned instruction is before any inlining.
    for (const Instruction& in : st.fn.code) {
        if (in.source_line == 0) continue;
        st.fn.source_file = in.inlined != 0 ? st.chains[in.inlined - 1].back().file : in.source_file;
        break;
    }
    if (!st.chains.empty())
        pending_chains_.push_back(PendingChains{module_.functions.size(), std::move(st.chains)});
    module_.functions.push_back(std::move(st.fn));
}

// `( .param [.align N] .type name[N], ... )`. Input parameters are packed in order, each at its
// alignment (the explicit .align, else the element size). Return parameters of a .func get their
// own offsets from 0 (only st.param inside the never-executed .func refers to them).
void Parser::parse_param_list(FunctionState& st, bool is_return) {
    expect_punct('(', "to open the parameter list");
    if (accept_punct(')')) return;
    do {
        const Token& kind = peek();
        if (kind.is_directive(".reg") && !st.fn.is_entry) {
            take();
            if (peek().kind != TokenKind::Directive) fail_at(peek(), "expected a type after .reg");
            const Type type = take_register_type();
            const Token& reg = expect_word("a register name");
            declare_register(st, reg, reg.text, type);
            continue;
        }
        if (!kind.is_directive(".param"))
            fail_at(kind, "expected .param in the parameter list, found " + describe(kind));
        take();
        Param param;
        bool after_ptr = false;
        while (peek().kind == TokenKind::Directive) {
            const Token& token = take();
            const std::string_view d = token.text.substr(1);
            if (d == "align") {
                const uint32_t align = expect_align(token);
                if (!after_ptr) param.align = align; // after .ptr: the pointee's alignment
            } else if (d == "ptr") {
                after_ptr = true;
            } else if (after_ptr && space_from_name(d)) {
                // `.ptr .global`: where the pointer points; no effect on the parameter itself
            } else if (auto type = type_from_name(d)) {
                if (param.type != Type::None) fail_at(token, "two types in one parameter");
                param.type = *type;
            } else if (is_unsupported_type_name(d)) {
                fail_at(token, "unsupported parameter type '" + std::string(token.text) + "'");
            } else {
                fail_at(token, "unexpected '" + std::string(token.text) + "' in a parameter declaration");
            }
        }
        if (param.type == Type::None || param.type == Type::Pred)
            fail_at(peek(), "missing or invalid parameter type");
        const Token& name = expect_word("a parameter name");
        param.name = std::string(name.text);
        uint64_t count = 1;
        if (accept_punct('[')) {
            count = expect_uint("a parameter array size", kMaxBytes);
            expect_punct(']', "after the parameter array size");
        }
        const uint64_t size = count * type_size(param.type);
        if (param.align == 0) param.align = type_size(param.type);
        uint64_t& cursor = is_return ? st.return_param_bytes : st.param_bytes;
        const uint64_t offset = align_up(cursor, param.align);
        if (offset + size > kMaxBytes) fail_at(name, "parameter list is too large");
        cursor = offset + size;
        param.offset = static_cast<uint32_t>(offset);
        param.size = static_cast<uint32_t>(size);
        declare_local_name(st, name, name.text, Symbol{Symbol::Kind::Param, false, 0, offset});
        if (!is_return) st.fn.params.push_back(std::move(param));
    } while (accept_punct(','));
    expect_punct(')', "to close the parameter list");
}

// .maxntid / .reqntid / .minnctapersm / ... between the signature and the body: tuning hints for
// the real compiler, accepted and ignored (they do not change what the kernel computes).
void Parser::parse_performance_directives() {
    while (peek().kind == TokenKind::Directive) {
        const Token& token = peek();
        const std::string_view d = token.text;
        if (const PerformanceDirective* directive = find_performance_directive(d)) {
            take();
            if (directive->numbers) {
                do {
                    expect_uint("a number after the performance directive",
                                std::numeric_limits<uint32_t>::max());
                } while (accept_punct(','));
            }
        } else if (d == ".pragma") {
            parse_pragma();
        } else {
            fail_at(token, "unexpected directive '" + std::string(d) + "' before the function body");
        }
    }
}

void Parser::declare_local_name(FunctionState& st, const Token& at, std::string_view name,
                                const Symbol& symbol) {
    if (!st.names.declare(name, symbol))
        fail_at(at, "'" + std::string(name) + "' is already declared in this scope");
}

void Parser::parse_body(FunctionState& st) {
    fn_ = &st;
    st.names.push(); // function body block
    take();          // '{'
    uint32_t depth = 1;
    while (true) {
        const Token& token = peek();
        if (token.kind == TokenKind::End) {
            fail(st.fn.decl_line, "missing '}' at the end of function '" + st.fn.name + "'");
        }
        if (token.is_punct('}')) {
            take();
            st.names.pop();
            if (--depth == 0) break;
            continue;
        }
        if (token.is_punct('{')) {
            take();
            st.names.push();
            ++depth;
            continue;
        }
        if (token.is_punct(';')) {
            take();
            continue;
        }
        if (token.kind == TokenKind::Directive) {
            const std::string_view d = token.text;
            if (d == ".reg") {
                parse_reg_decl(st);
            } else if (d == ".loc") {
                parse_loc(&st);
            } else if (d == ".pragma") {
                parse_pragma();
            } else if (d == ".shared" || d == ".shared::cta" || d == ".local" || d == ".param") {
                take();
                parse_function_variable(st, token, false);
            } else if (d == ".extern") {
                take();
                const Token& space = peek();
                if (!space.is_directive(".shared"))
                    fail_at(space, "only .extern .shared is supported inside a function");
                take();
                parse_function_variable(st, space, true);
            } else if (d == ".global" || d == ".const") {
                fail_at(token, "function-scope " + std::string(d) +
                                   " variables are not supported (declare them at module scope)");
            } else {
                fail_at(token,
                        "unexpected directive '" + std::string(d) + "' inside function '" + st.fn.name + "'");
            }
            continue;
        }
        if (token.kind == TokenKind::Word && peek(1).is_punct(':') && !token.text.starts_with("%")) {
            take();
            take();
            const Label label{static_cast<uint32_t>(st.fn.code.size()), token.line};
            auto [it, inserted] = st.labels.try_emplace(token.text, label);
            if (!inserted) {
                fail_at(token, "duplicate label '" + std::string(token.text) + "' (first defined on line " +
                                   std::to_string(it->second.line) + ")");
            }
            continue;
        }
        if (token.kind == TokenKind::Word || token.is_punct('@')) {
            parse_instruction(st);
            continue;
        }
        fail_at(token, "unexpected " + describe(token) + " inside function '" + st.fn.name + "'");
    }
    fn_ = nullptr;
}

// `.reg .type %r<N>;` declares %r0..%r(N-1); `.reg .type a, b;` declares a list. One slot each.
void Parser::parse_reg_decl(FunctionState& st) {
    const Token& directive = take();
    const Token& type_token = peek();
    if (type_token.is_directive(".v2") || type_token.is_directive(".v4")) {
        fail_at(type_token, "vector registers (.reg .v2/.v4) are not supported");
    }
    if (type_token.kind != TokenKind::Directive)
        fail_at(type_token, "expected a type after .reg, found " + describe(type_token));
    const Type type = take_register_type();
    do {
        const Token& name = expect_word("a register name");
        if (accept_punct('<')) {
            const uint64_t count = expect_uint("a register count", kMaxRegisters);
            expect_punct('>', "after the register count");
            if (st.fn.registers.size() + count > kMaxRegisters)
                fail_at(directive, "too many registers in one function");
            std::string reg_name(name.text);
            const size_t prefix = reg_name.size();
            for (uint64_t i = 0; i < count; ++i) {
                reg_name.resize(prefix);
                reg_name += std::to_string(i);
                declare_register(st, name, reg_name, type);
            }
        } else {
            if (st.fn.registers.size() + 1 > kMaxRegisters)
                fail_at(directive, "too many registers in one function");
            declare_register(st, name, name.text, type);
        }
    } while (accept_punct(','));
    expect_punct(';', "after the register declaration");
}

// The `.type` directive after .reg (the caller has checked that a directive follows).
Type Parser::take_register_type() {
    const Token& type_token = peek();
    auto type = type_from_name(type_token.text.substr(1));
    if (!type) fail_at(type_token, "unsupported register type '" + std::string(type_token.text) + "'");
    take();
    return *type;
}

// One register slot named `name`, in the current block.
void Parser::declare_register(FunctionState& st, const Token& at, std::string_view name, Type type) {
    const uint32_t slot = static_cast<uint32_t>(st.fn.registers.size());
    declare_local_name(st, at, name, Symbol{Symbol::Kind::Register, false, slot, 0});
    st.fn.registers.push_back(Register{std::string(name), type});
}

// =================================================================================================
// [SECTION] .loc and inlining
// =================================================================================================

// `.loc F L C [, function_name LABEL[+N]] [, inlined_at F2 L2 C2]*`
// The instruction's source position is F:L itself, however deep it was inlined (ir.h, "Source
// positions"). nvcc writes an inlining chain as a run of .loc lines, outermost first, each naming
// the position it was inlined at, so that position's latest record (or the position itself, when
// no .loc named it) is the caller's frame. With several inlined_at the last one counts.
void Parser::parse_loc(FunctionState* st) {
    take();
    LocKey key;
    key.file = static_cast<uint32_t>(expect_uint("a file number after .loc", kMaxFileIndex));
    key.line =
        static_cast<uint32_t>(expect_uint("a line number in .loc", std::numeric_limits<uint32_t>::max()));
    key.column =
        static_cast<uint32_t>(expect_uint("a column number in .loc", std::numeric_limits<uint32_t>::max()));
    std::optional<LocKey> inlined_at;
    std::string_view label;
    uint64_t label_offset = 0;
    while (accept_punct(',')) {
        const Token& word = expect_word("function_name or inlined_at in .loc");
        if (word.text == "function_name") {
            label = expect_word("a label after function_name").text;
            if (accept_punct('+'))
                label_offset = expect_uint("an offset", std::numeric_limits<uint64_t>::max());
        } else if (word.text == "inlined_at") {
            LocKey at;
            at.file = static_cast<uint32_t>(expect_uint("a file number after inlined_at", kMaxFileIndex));
            at.line = static_cast<uint32_t>(
                expect_uint("a line number after inlined_at", std::numeric_limits<uint32_t>::max()));
            at.column = static_cast<uint32_t>(
                expect_uint("a column number after inlined_at", std::numeric_limits<uint32_t>::max()));
            inlined_at = at;
        } else {
            fail_at(word, "unexpected '" + std::string(word.text) + "' in .loc");
        }
    }
    if (st == nullptr) return;
    st->loc = SourcePos{key.file, key.line};
    if (!inlined_at) {
        st->loc_record = kNoLoc;
        return;
    }
    uint32_t parent = kNoLoc;
    if (auto it = st->loc_latest.find(*inlined_at); it != st->loc_latest.end()) {
        parent = it->second;
    } else {
        parent = static_cast<uint32_t>(st->locs.size());
        st->locs.push_back(LocRecord{*inlined_at, {}, 0, kNoLoc});
    }
    const uint32_t record = static_cast<uint32_t>(st->locs.size());
    st->locs.push_back(LocRecord{key, label, label_offset, parent});
    st->loc_latest[key] = record;
    st->loc_record = record;
}

// The chain of the current .loc as a pending chain of the function (1-based; 0 when not inlined).
// Records are only ever appended and a parent precedes its child, so the walk ends.
uint32_t Parser::pending_chain(FunctionState& st) {
    if (st.loc_record == kNoLoc) return 0;
    if (auto it = st.chain_of_record.find(st.loc_record); it != st.chain_of_record.end()) return it->second;
    std::vector<RawPosition> chain;
    for (uint32_t r = st.loc_record; r != kNoLoc && chain.size() < kMaxInlineDepth; r = st.locs[r].parent) {
        const LocRecord& rec = st.locs[r];
        chain.push_back(RawPosition{rec.at.file, rec.at.line, rec.label, rec.offset});
    }
    st.chains.push_back(std::move(chain));
    const uint32_t index = static_cast<uint32_t>(st.chains.size());
    st.chain_of_record[st.loc_record] = index;
    return index;
}

// `.section .debug_str { LABEL: .b8 95,90,...,0 ... }` (the section's opening token is next): the
// strings `function_name` refers to, kept as bytes with each label's offset. Anything but labels
// and .b8 lists ends the reading (names after it stay unknown); the rest of the section is skipped
// by the caller.
void Parser::parse_debug_str() {
    while (true) {
        const Token& token = peek();
        if (token.kind == TokenKind::Word && peek(1).is_punct(':')) {
            debug_labels_[token.text] = debug_str_.size();
            take();
            take();
            continue;
        }
        if (!token.is_directive(".b8")) return;
        take();
        do {
            const Token& number = peek();
            if (number.kind != TokenKind::Number) return;
            const auto value = parse_int_magnitude(number.text);
            if (!value || *value > 255 || debug_str_.size() >= kMaxInitBytes) return;
            take();
            debug_str_.push_back(static_cast<uint8_t>(*value));
        } while (accept_punct(','));
    }
}

// Gives every function's pending chains their names and files: each instruction's source position
// becomes the innermost position in the user's code (positions in the toolkit's headers are left
// out, ir.h), its calls Function::inlined.
void Parser::resolve_inlining() {
    auto file_name = [&](uint32_t file) -> std::string_view {
        return file < module_.files.size() ? std::string_view(module_.files[file]) : std::string_view();
    };
    // The demangled function a label names ("" when the section does not have it).
    auto function_of = [&](const RawPosition& p) -> std::string {
        if (p.label.empty()) return "";
        const auto it = debug_labels_.find(p.label);
        if (it == debug_labels_.end() || it->second + p.offset >= debug_str_.size()) return "";
        const size_t begin = static_cast<size_t>(it->second + p.offset);
        size_t end = begin;
        while (end < debug_str_.size() && debug_str_[end] != 0)
            ++end;
        return trace::demangle(std::string(debug_str_.begin() + begin, debug_str_.begin() + end));
    };
    for (PendingChains& pending : pending_chains_) {
        Function& fn = module_.functions[pending.function];
        struct Resolved {
            uint32_t inlined = 0; // Function::inlined index
            SourcePos own;        // the innermost position in the user's code
        };
        std::vector<Resolved> resolved(pending.chains.size());
        for (size_t c = 0; c < pending.chains.size(); ++c) {
            const std::vector<RawPosition>& raw = pending.chains[c];
            struct Kept {
                RawPosition at;
                std::string function; // demangled; "" for the function itself or unknown
            };
            std::vector<Kept> kept;
            for (size_t i = 0; i < raw.size(); ++i) {
                std::string function = function_of(raw[i]);
                const bool outermost = i + 1 == raw.size();
                if (!outermost && is_toolkit_source(file_name(raw[i].file), function)) continue;
                kept.push_back(Kept{raw[i], std::move(function)});
            }
            resolved[c].own = SourcePos{kept.front().at.file, kept.front().at.line};
            std::vector<InlinedCall> calls;
            for (size_t i = 0; i + 1 < kept.size(); ++i) {
                calls.push_back(InlinedCall{trace::without_parameters(kept[i].function), kept[i + 1].at.file,
                                            kept[i + 1].at.line});
                max_source_file_ = std::max(max_source_file_, kept[i + 1].at.file);
            }
            if (calls.empty()) continue; // only toolkit frames: at the function's own position
            auto same = std::find(fn.inlined.begin(), fn.inlined.end(), calls);
            if (same == fn.inlined.end()) {
                fn.inlined.push_back(std::move(calls));
                same = fn.inlined.end() - 1;
            }
            resolved[c].inlined = static_cast<uint32_t>(same - fn.inlined.begin());
        }
        for (Instruction& in : fn.code) {
            if (in.inlined == 0) continue;
            const Resolved& r = resolved[in.inlined - 1];
            in.inlined = r.inlined;
            in.source_file = r.own.file;
            in.source_line = r.own.line;
        }
    }
    pending_chains_.clear();
}

} // namespace synclab::ptx::detail
