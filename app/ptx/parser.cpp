// PTX parser: tokens (lexer.h) -> ptx::Module (ir.h). See parser.h for the contract and
// parser_impl.h for the design and for which file holds which part of the Parser.
//
// This file: the entry point, ParseError, the token cursor and error reporting, and the module level
// (.version .target .address_size .file .section .pragma, linkage, declarations).
//
// Index
//   [SECTION] ParseError
//   [SECTION] Entry point
//   [SECTION] Token cursor, errors
//   [SECTION] Module level
#include "ptx/parser_impl.h"

#include <limits>

namespace synclab::ptx {

// =================================================================================================
// [SECTION] ParseError
// =================================================================================================

namespace {

std::string format_error(const std::string& source_name, uint32_t line, const std::string& instruction,
                         const std::string& what) {
    std::string message = source_name + ":" + std::to_string(line) + ": " + what;
    if (!instruction.empty()) message += "\n    " + instruction;
    return message;
}

} // namespace

// what() = "<source>:<line>: <what>", followed by "\n    <instruction>" when there is one.
ParseError::ParseError(std::string source_name, uint32_t line, std::string instruction,
                       const std::string& what)
    : std::runtime_error(format_error(source_name, line, instruction, what)),
      source_name_(std::move(source_name)), line_(line), instruction_(std::move(instruction)) {}

// =================================================================================================
// [SECTION] Entry point
// =================================================================================================

Module parse_module(std::string_view text, const std::string& source_name) {
    return detail::Parser(text, source_name).run();
}

namespace detail {

// =================================================================================================
// [SECTION] Token cursor, errors
// =================================================================================================

void Parser::expect_punct(char c, const char* context) {
    if (accept_punct(c)) return;
    fail_at(peek(), std::string("expected '") + c + "' " + context + ", found " + describe(peek()));
}

const Token& Parser::expect_word(const char* context) {
    if (peek().kind != TokenKind::Word)
        fail_at(peek(), std::string("expected ") + context + ", found " + describe(peek()));
    return take();
}

uint64_t Parser::expect_uint(const char* context, uint64_t max) {
    const Token& token = peek();
    if (token.kind != TokenKind::Number)
        fail_at(token, std::string("expected ") + context + ", found " + describe(token));
    auto value = parse_int_magnitude(token.text);
    if (!value)
        fail_at(token, std::string("malformed integer '") + std::string(token.text) + "' for " + context);
    if (*value > max)
        fail_at(token, std::string(context) + " " + std::string(token.text) + " is too large (at most " +
                           std::to_string(max) + ")");
    take();
    return *value;
}

std::string Parser::describe(const Token& token) {
    if (token.kind == TokenKind::End) return "end of input";
    std::string text(token.text.substr(0, 60));
    return "'" + text + "'";
}

// Inside an instruction the error names the instruction's line and text (cut to 200 characters: a
// missing ';' can make a "statement" run far).
void Parser::fail(uint32_t line, const std::string& what) const {
    if (stmt_ != nullptr) {
        const std::string& text = stmt_->text;
        throw ParseError(source_name_, stmt_->line, text.size() > 200 ? text.substr(0, 200) + " ..." : text,
                         what);
    }
    throw ParseError(source_name_, line, line_text(line), what);
}

// The source line, trimmed and with whitespace runs collapsed (for error messages).
std::string Parser::line_text(uint32_t line) const {
    size_t begin = 0;
    uint32_t current = 1;
    while (current < line) {
        const size_t nl = text_.find('\n', begin);
        if (nl == std::string_view::npos) return {};
        begin = nl + 1;
        ++current;
    }
    size_t end = text_.find('\n', begin);
    if (end == std::string_view::npos) end = text_.size();
    std::string out;
    bool space = false;
    for (size_t i = begin; i < end && out.size() < 200; ++i) {
        const auto byte = static_cast<unsigned char>(text_[i]);
        if (byte == ' ' || byte == '\t' || byte == '\r') {
            space = !out.empty();
            continue;
        }
        if (space) out += ' ';
        space = false;
        out += (byte < 0x20 || byte >= 0x7f) ? '?' : static_cast<char>(byte);
    }
    return out;
}

// Tokens [begin, end) as one line: single spaces where the source had whitespace or comments.
std::string Parser::join_tokens(size_t begin, size_t end) const {
    std::string out;
    for (size_t i = begin; i < end && i < tokens_.size(); ++i) {
        const Token& token = tokens_[i];
        if (token.kind == TokenKind::End) break;
        if (i != begin && token.space_before) out += ' ';
        out.append(token.text);
    }
    return out;
}

// =================================================================================================
// [SECTION] Module level
// =================================================================================================

Module Parser::run() {
    module_.files.assign(1, std::string());
    while (peek().kind != TokenKind::End)
        parse_module_statement();
    resolve_inlining();
    // Every source_file index used by an instruction has an entry (possibly "" when no .file named it).
    if (module_.files.size() <= max_source_file_) module_.files.resize(max_source_file_ + 1);
    return std::move(module_);
}

void Parser::parse_module_statement() {
    const Token& token = peek();
    if (token.is_punct(';')) {
        take();
        return;
    }
    if (token.kind != TokenKind::Directive) {
        if (token.kind == TokenKind::Word) {
            fail_at(token, "unexpected '" + std::string(token.text) +
                               "' at module scope (instructions must be inside a function body)");
        }
        fail_at(token, "unexpected " + describe(token) + " at module scope");
    }
    const std::string_view name = token.text;
    if (name == ".version") {
        take();
        const Token& v = peek();
        if (v.kind != TokenKind::Number)
            fail_at(v, "expected a version number after .version, found " + describe(v));
        module_.version = std::string(take().text);
    } else if (name == ".target") {
        take();
        module_.target = std::string(expect_word("a target architecture after .target").text);
        while (accept_punct(','))
            expect_word("a target option after ','"); // e.g. "debug", "texmode_*"
    } else if (name == ".address_size") {
        take();
        const uint64_t size = expect_uint("the address size", 64);
        if (size != 32 && size != 64) fail_at(token, ".address_size must be 32 or 64");
        module_.address_size = static_cast<uint32_t>(size);
    } else if (name == ".file") {
        parse_file_directive();
    } else if (name == ".section") {
        skip_section();
    } else if (name == ".pragma") {
        parse_pragma();
    } else if (name == ".loc") {
        parse_loc(nullptr);
    } else if (name == ".visible" || name == ".weak" || name == ".extern" || name == ".common" ||
               name == ".entry" || name == ".func" || name == ".global" || name == ".const" ||
               name == ".shared" || name == ".shared::cta" || name == ".local") {
        parse_linkage_declaration();
    } else if (find_performance_directive(name) != nullptr) {
        fail_at(token, "performance directive '" + std::string(name) + "' outside a function declaration");
    } else {
        fail_at(token, "unknown or unsupported directive '" + std::string(name) + "'");
    }
}

// `.file N "name" [, timestamp, size]`: files[N] = name.
void Parser::parse_file_directive() {
    const Token& directive = take();
    const uint64_t index = expect_uint("a file number after .file", kMaxFileIndex);
    const Token& name = peek();
    if (name.kind != TokenKind::String)
        fail_at(name, "expected a quoted file name after '.file " + std::to_string(index) + "'");
    take();
    while (accept_punct(','))
        expect_uint("a .file timestamp or size", std::numeric_limits<uint64_t>::max());
    if (index == 0) fail_at(directive, ".file number 0 is reserved (file numbers start at 1)");
    if (module_.files.size() <= index) module_.files.resize(index + 1);
    // The name as written between the quotes (PTX file names carry no escapes worth decoding).
    module_.files[index] = std::string(name.text.substr(1, name.text.size() - 2));
}

// `.section NAME { ... }`: debug data (DWARF), skipped by brace matching; .debug_str's strings are
// read first (the names `.loc ... function_name LABEL` refers to).
void Parser::skip_section() {
    const Token& directive = take();
    const Token& name = peek();
    if (name.kind != TokenKind::Directive && name.kind != TokenKind::Word)
        fail_at(name, "expected a section name after .section");
    take();
    if (!peek().is_punct('{'))
        fail_at(peek(), "expected '{' after '.section " + std::string(name.text) + "'");
    take();
    if (name.text == ".debug_str") parse_debug_str(); // the names of inlined functions
    int depth = 1;
    while (depth > 0) {
        const Token& token = take();
        if (token.kind == TokenKind::End) fail_at(directive, "unterminated .section block (missing '}')");
        if (token.is_punct('{')) ++depth;
        if (token.is_punct('}')) --depth;
    }
}

// `.pragma "text";` (e.g. "nounroll"): a compiler hint, no effect on execution.
void Parser::parse_pragma() {
    take();
    do {
        if (peek().kind != TokenKind::String) fail_at(peek(), "expected a quoted string after .pragma");
        take();
    } while (accept_punct(','));
    expect_punct(';', "after .pragma");
}

// [.visible|.weak|.extern|.common]* then .entry/.func/.global/.const/.shared
void Parser::parse_linkage_declaration() {
    bool is_extern = false;
    while (true) {
        const Token& token = peek();
        if (token.is_directive(".extern")) {
            is_extern = true;
        } else if (!token.is_directive(".visible") && !token.is_directive(".weak") &&
                   !token.is_directive(".common")) {
            break;
        }
        take();
    }
    const Token& what = peek();
    if (what.is_directive(".entry") || what.is_directive(".func")) {
        take();
        parse_function(what, is_extern);
    } else if (what.is_directive(".global") || what.is_directive(".const") || what.is_directive(".shared") ||
               what.is_directive(".shared::cta")) {
        take();
        parse_module_variable(what, is_extern);
    } else if (what.is_directive(".local")) {
        fail_at(what, "module-scope .local variables are not supported");
    } else {
        fail_at(what, "expected .entry, .func or a variable declaration, found " + describe(what));
    }
}

void Parser::declare_module_name(const Token& at, std::string_view name, const Symbol& symbol) {
    auto [it, inserted] = module_names_.try_emplace(std::string(name), symbol);
    if (!inserted) fail_at(at, "'" + std::string(name) + "' is already declared in this module");
}

} // namespace detail

} // namespace synclab::ptx
