// PTX lexer: text -> tokens. Internal to the PTX front end (the parser is its only user).
//
// Token shapes (what the parser can rely on):
//   Word       identifiers, registers and opcodes with their modifiers in one token:
//              "ld.global.L1::evict_last.v4.f32", "%tid.x", "%r5", "$L__BB0_2", "_Z6helperi", "_"
//   Directive  '.' followed by identifier characters: ".reg", ".b32", ".debug_str", ".shared::cta"
//   Number     starts with a digit; raw text kept ("42", "0x1fU", "0f3F800000", "0d4000...", "9.0", "1e-3")
//   String     "..." including the quotes (escapes kept as written)
//   Punct      one character of , ; : { } [ ] ( ) < > + - ! @ | =
//   End        end of input (always the last token)
// Comments (// and /* */) and whitespace separate tokens and are dropped; Token::space_before records
// that some were there, so the parser can rebuild an instruction's text with single spaces.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace synclab::ptx {

enum class TokenKind : uint8_t { Word, Directive, Number, String, Punct, End };

struct Token {
    TokenKind kind = TokenKind::End;
    bool space_before = false; // whitespace or a comment precedes the token
    uint32_t line = 0;         // 1-based
    std::string_view text;     // view into the lexed text (which must outlive the tokens)

    bool is_punct(char c) const { return kind == TokenKind::Punct && text.size() == 1 && text[0] == c; }
    bool is_directive(std::string_view name) const { return kind == TokenKind::Directive && text == name; }
    bool is_word(std::string_view name) const { return kind == TokenKind::Word && text == name; }
};

const char* to_string(TokenKind kind);

// Splits `text` into tokens ending with one End token. Throws ParseError ("<source_name>:<line>: ...")
// for a character that cannot start a token, an unterminated string or block comment, or a
// malformed number.
std::vector<Token> tokenize(std::string_view text, const std::string& source_name);

} // namespace synclab::ptx
