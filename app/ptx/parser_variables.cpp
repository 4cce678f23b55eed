// PTX parser: variable declarations ([.align N] [.v2|.v4] .type name[dims] [= init]) and their
// initialisers, at module scope (.global .const .shared) and in a function (.shared .local .param).
#include "ptx/parser_impl.h"

namespace synclab::ptx::detail {

// After the state-space directive: [.align N] [.v2|.v4] .type name [dims] [= init] ;
Parser::VarDecl Parser::parse_var_decl(const Token& space_token, bool allow_init) {
    VarDecl decl;
    decl.line = space_token.line;
    uint32_t vector = 1;
    while (peek().kind == TokenKind::Directive) {
        const Token& token = take();
        const std::string_view d = token.text.substr(1);
        if (d == "align") {
            decl.align = expect_align(token);
        } else if (d == "v2" || d == "v4") {
            vector = d == "v2" ? 2 : 4;
        } else if (d == "attribute") {
            // `.attribute(.managed)` (__managed__): the variable is still ordinary global memory here.
            expect_punct('(', "after .attribute");
            while (!peek().is_punct(')')) {
                if (!peek().is_directive(".managed"))
                    fail_at(peek(), "unsupported variable attribute " + describe(peek()));
                take();
                accept_punct(',');
            }
            take();
        } else if (auto type = type_from_name(d)) {
            if (decl.type != Type::None) fail_at(token, "two types in one variable declaration");
            decl.type = *type;
        } else if (d == "texref" || d == "samplerref" || d == "surfref") {
            fail_at(token, "texture/sampler/surface references are not supported");
        } else if (is_unsupported_type_name(d)) {
            fail_at(token, "unsupported type '." + std::string(d) + "' in a variable declaration");
        } else {
            fail_at(token, "unexpected '" + std::string(token.text) + "' in a variable declaration");
        }
    }
    if (decl.type == Type::None) fail_at(peek(), "missing type in variable declaration");
    if (decl.type == Type::Pred) fail_at(peek(), ".pred variables are not supported outside registers");
    const Token& name = expect_word("a variable name");
    decl.name = name.text;
    const uint32_t elem_size = type_size(decl.type) * vector;
    uint64_t count = 1;
    bool first_dim = true;
    while (accept_punct('[')) {
        if (peek().is_punct(']')) {
            if (!first_dim) fail_at(peek(), "only the first array dimension may be left empty");
            decl.unsized = true;
        } else {
            const uint64_t dim = expect_uint("an array size", kMaxBytes);
            if (dim != 0 && count > kMaxBytes / dim)
                fail_at(name, "variable '" + std::string(name.text) + "' is too large");
            count *= dim;
            if (count * elem_size > kMaxBytes)
                fail_at(name, "variable '" + std::string(name.text) + "' is too large");
        }
        expect_punct(']', "after the array size");
        first_dim = false;
    }
    if (accept_punct('=')) {
        if (!allow_init) fail_at(name, "variables in this state space cannot have an initialiser");
        decl.has_init = true;
        const uint64_t capacity = decl.unsized ? kMaxInitBytes : count * elem_size;
        if (capacity > kMaxInitBytes)
            fail_at(name, "initialised variable '" + std::string(name.text) + "' is too large");
        parse_initializer(decl, decl.type, type_size(decl.type), capacity, 0);
        if (decl.unsized) {
            count = (decl.init.size() + elem_size - 1) / elem_size;
            decl.unsized = false;
        }
        decl.init.resize(count * elem_size, 0);
    }
    decl.size = decl.unsized ? 0 : count * elem_size;
    if (decl.align == 0) decl.align = elem_size;
    expect_punct(';', "after the variable declaration");
    return decl;
}

// `.align N` after the `.align` token: N, a power of two.
uint32_t Parser::expect_align(const Token& directive) {
    const uint64_t align = expect_uint("an alignment after .align", 1u << 16);
    if (align == 0 || (align & (align - 1)) != 0) fail_at(directive, ".align must be a power of two");
    return static_cast<uint32_t>(align);
}

// A .shared variable as parser_layout.cpp lays it out; an unsized array must be `.extern` (dynamic).
SharedVar Parser::shared_var(const VarDecl& decl, bool is_extern, const Token& at) const {
    if (decl.unsized && !is_extern)
        fail_at(at, "shared array '" + std::string(decl.name) + "[]' needs a size or .extern");
    return SharedVar{std::string(decl.name), decl.type, decl.size, decl.align, is_extern && decl.unsized};
}

// `= scalar` or `= {a, b, {c, d}}`; elements are little-endian, missing trailing ones are zero.
void Parser::parse_initializer(VarDecl& decl, Type elem_type, uint32_t elem_size, uint64_t capacity,
                               int depth) {
    if (!accept_punct('{')) {
        parse_init_scalar(decl, elem_type, elem_size, capacity);
        return;
    }
    if (depth >= kMaxInitDepth) fail_at(peek(), "initialiser nested too deeply");
    if (accept_punct('}')) return;
    do {
        if (peek().is_punct('{')) {
            parse_initializer(decl, elem_type, elem_size, capacity, depth + 1);
        } else {
            parse_init_scalar(decl, elem_type, elem_size, capacity);
        }
    } while (accept_punct(','));
    expect_punct('}', "to close the initialiser list");
}

void Parser::parse_init_scalar(VarDecl& decl, Type elem_type, uint32_t elem_size, uint64_t capacity) {
    const Token& first = peek();
    if (first.kind == TokenKind::Word) {
        fail_at(first, "address initialisers ('" + std::string(first.text) + "') are not supported");
    }
    const bool negative = accept_punct('-');
    const Token& number = peek();
    if (number.kind != TokenKind::Number)
        fail_at(number, "expected a number in the initialiser, found " + describe(number));
    take();
    auto lit = parse_literal(number.text, negative);
    if (!lit) fail_at(number, "malformed number '" + std::string(number.text) + "'");
    std::string error;
    auto bits = encode_literal(*lit, elem_type, &error);
    if (!bits) fail_at(number, error);
    if (decl.init.size() + elem_size > capacity) {
        fail_at(number, "too many initialisers for '" + std::string(decl.name) + "'");
    }
    for (uint32_t i = 0; i < elem_size; ++i)
        decl.init.push_back(static_cast<uint8_t>(*bits >> (8 * i)));
}

void Parser::parse_module_variable(const Token& space_token, bool is_extern) {
    const bool shared = space_token.text.starts_with(".shared");
    VarDecl decl = parse_var_decl(space_token, !shared);
    if (shared) {
        SharedVar var = shared_var(decl, is_extern, space_token);
        declare_module_name(
            space_token, decl.name,
            Symbol{Symbol::Kind::Shared, true, static_cast<uint32_t>(module_shared_.size()), 0});
        module_shared_.push_back(std::move(var));
        return;
    }
    if (is_extern) {
        fail_at(space_token, ".extern " + std::string(space_token.text) + " variable '" +
                                 std::string(decl.name) +
                                 "' is not supported (it has no definition in this module)");
    }
    if (decl.unsized)
        fail_at(space_token, "array '" + std::string(decl.name) + "[]' needs a size or an initialiser");
    GlobalVar var;
    var.name = std::string(decl.name);
    var.space = space_token.is_directive(".const") ? Space::Const : Space::Global;
    var.type = decl.type;
    var.size = static_cast<uint32_t>(decl.size);
    var.align = decl.align;
    var.init = std::move(decl.init);
    declare_module_name(space_token, decl.name,
                        Symbol{Symbol::Kind::Global, true, static_cast<uint32_t>(module_.globals.size()), 0});
    module_.globals.push_back(std::move(var));
}

// Function-scope .shared (laid out when the function ends), .local (the per-thread frame, e.g.
// __local_depot) and .param (call-site arguments, only meaningful before the unsupported `call`).
void Parser::parse_function_variable(FunctionState& st, const Token& space_token, bool is_extern) {
    const Token& at = peek();
    VarDecl decl = parse_var_decl(space_token, false);
    const Token name_token{TokenKind::Word, false, decl.line, decl.name};
    if (space_token.text.starts_with(".shared")) {
        SharedVar var = shared_var(decl, is_extern, at);
        declare_local_name(st, name_token, decl.name,
                           Symbol{Symbol::Kind::Shared, false, static_cast<uint32_t>(st.shared.size()), 0});
        st.shared.push_back(std::move(var));
        return;
    }
    if (decl.unsized) fail_at(at, "array '" + std::string(decl.name) + "[]' needs a size");
    uint64_t& cursor = space_token.is_directive(".local") ? st.local_bytes : st.call_param_bytes;
    const uint64_t offset = align_up(cursor, decl.align);
    if (offset + decl.size > kMaxBytes) fail_at(at, "function-scope variables are too large");
    cursor = offset + decl.size;
    const Symbol::Kind kind = space_token.is_directive(".local") ? Symbol::Kind::Local : Symbol::Kind::Param;
    declare_local_name(st, name_token, decl.name, Symbol{kind, false, 0, offset});
}

} // namespace synclab::ptx::detail
