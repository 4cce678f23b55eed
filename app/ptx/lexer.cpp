// PTX lexer; see lexer.h for the token shapes. One pass over the text, no allocation per token
// (tokens are views into the text).
#include "ptx/lexer.h"

#include "ptx/parser.h"

#include <algorithm>

namespace synclab::ptx {

namespace {

bool is_ident_start(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$';
}
bool is_digit(char c) {
    return c >= '0' && c <= '9';
}
bool is_hex_digit(char c) {
    return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
bool is_ident_char(char c) {
    return is_ident_start(c) || is_digit(c);
}
bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}
bool is_punct(char c) {
    switch (c) {
    case ',':
    case ';':
    case ':':
    case '{':
    case '}':
    case '[':
    case ']':
    case '(':
    case ')':
    case '<':
    case '>':
    case '+':
    case '-':
    case '!':
    case '@':
    case '|':
    case '=':
    // only inside skipped .section blocks (DWARF label arithmetic), never in accepted code
    case '*':
    case '/':
    case '~':
    case '&':
    case '^':
    case '?':
        return true;
    default:
        return false;
    }
}

class Lexer {
  public:
    Lexer(std::string_view text, const std::string& source_name) : text_(text), source_name_(source_name) {}

    std::vector<Token> run() {
        std::vector<Token> tokens;
        tokens.reserve(text_.size() / 4 + 1);
        bool space = false;
        while (pos_ < text_.size()) {
            const char c = text_[pos_];
            if (is_space(c)) {
                if (c == '\n') ++line_;
                ++pos_;
                space = true;
                continue;
            }
            if (c == '/' && peek(1) == '/') {
                while (pos_ < text_.size() && text_[pos_] != '\n')
                    ++pos_;
                space = true;
                continue;
            }
            if (c == '/' && peek(1) == '*') {
                skip_block_comment();
                space = true;
                continue;
            }
            Token token;
            token.space_before = space;
            token.line = line_;
            const size_t start = pos_;
            if (is_ident_start(c) || c == '%') {
                ++pos_;
                scan_word_tail(true);
                token.kind = TokenKind::Word;
            } else if (c == '.' && (is_ident_start(peek(1)))) {
                ++pos_;
                scan_word_tail(false);
                token.kind = TokenKind::Directive;
            } else if (is_digit(c)) {
                scan_number();
                token.kind = TokenKind::Number;
            } else if (c == '"') {
                scan_string();
                token.kind = TokenKind::String;
            } else if (is_punct(c)) {
                ++pos_;
                token.kind = TokenKind::Punct;
            } else {
                fail(unexpected_char_message(c));
            }
            token.text = text_.substr(start, pos_ - start);
            tokens.push_back(token);
            space = false;
        }
        Token end;
        end.kind = TokenKind::End;
        end.line = line_;
        end.space_before = true;
        tokens.push_back(end);
        return tokens;
    }

  private:
    char peek(size_t ahead) const { return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0'; }

    // Identifier characters; words (not directives) also take '.' so that an opcode and its
    // modifiers, or "%tid.x", stay one token. "::" joins qualifier parts ("L1::evict_last").
    void scan_word_tail(bool allow_dot) {
        while (pos_ < text_.size()) {
            const char c = text_[pos_];
            if (is_ident_char(c) || (allow_dot && c == '.')) {
                ++pos_;
            } else if (c == ':' && peek(1) == ':' && is_ident_char(peek(2))) {
                pos_ += 2;
            } else {
                break;
            }
        }
    }

    void scan_number() {
        const char c0 = text_[pos_];
        const char c1 = peek(1);
        if (c0 == '0' && (c1 == 'x' || c1 == 'X')) {
            pos_ += 2;
            const size_t digits = scan_while(is_hex_digit);
            if (digits == 0) fail("malformed hexadecimal number");
            if (peek(0) == 'U') ++pos_;
        } else if (c0 == '0' && (c1 == 'f' || c1 == 'F' || c1 == 'd' || c1 == 'D')) {
            pos_ += 2;
            const size_t want = (c1 == 'f' || c1 == 'F') ? 8 : 16;
            if (scan_while(is_hex_digit) != want) {
                fail(want == 8 ? "malformed .f32 literal (0f needs exactly 8 hex digits)"
                               : "malformed .f64 literal (0d needs exactly 16 hex digits)");
            }
        } else if (c0 == '0' && (c1 == 'b' || c1 == 'B') && (peek(2) == '0' || peek(2) == '1')) {
            pos_ += 2;
            scan_while([](char c) { return c == '0' || c == '1'; });
            if (peek(0) == 'U') ++pos_;
        } else {
            scan_while(is_digit);
            if (peek(0) == '.' && is_digit(peek(1))) {
                ++pos_;
                scan_while(is_digit);
            }
            if ((peek(0) == 'e' || peek(0) == 'E') &&
                (is_digit(peek(1)) || ((peek(1) == '+' || peek(1) == '-') && is_digit(peek(2))))) {
                pos_ += 2;
                scan_while(is_digit);
            }
            if (peek(0) == 'U') ++pos_;
        }
        if (pos_ < text_.size() && (is_ident_char(text_[pos_]) || text_[pos_] == '.')) {
            fail("malformed number");
        }
    }

    template <typename Pred> size_t scan_while(Pred pred) {
        const size_t start = pos_;
        while (pos_ < text_.size() && pred(text_[pos_]))
            ++pos_;
        return pos_ - start;
    }

    void scan_string() {
        ++pos_; // opening quote
        while (pos_ < text_.size()) {
            const char c = text_[pos_];
            if (c == '\n') break;
            ++pos_;
            if (c == '\\' && pos_ < text_.size() && text_[pos_] != '\n') {
                ++pos_;
            } else if (c == '"') {
                return;
            }
        }
        fail("unterminated string");
    }

    void skip_block_comment() {
        const uint32_t start_line = line_;
        const size_t start = pos_;
        pos_ += 2;
        while (pos_ < text_.size()) {
            if (text_[pos_] == '*' && peek(1) == '/') {
                pos_ += 2;
                return;
            }
            if (text_[pos_] == '\n') ++line_;
            ++pos_;
        }
        line_ = start_line;
        fail_at(start, "unterminated /* comment");
    }

    static std::string unexpected_char_message(char c) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte >= 0x20 && byte < 0x7f) return std::string("unexpected character '") + c + "'";
        static const char kHex[] = "0123456789abcdef";
        std::string msg = "unexpected byte 0x";
        msg += kHex[byte >> 4];
        msg += kHex[byte & 15];
        return msg;
    }

    // The line holding byte `at`, trimmed, as the error's "instruction" text (control bytes shown
    // as '?', at most 200 characters).
    std::string line_text(size_t at) const {
        at = std::min(at, text_.size());
        size_t begin = 0;
        if (at > 0) {
            const size_t nl = text_.rfind('\n', at - 1);
            if (nl != std::string_view::npos) begin = nl + 1;
        }
        size_t end = text_.find('\n', begin);
        if (end == std::string_view::npos) end = text_.size();
        std::string out;
        for (size_t i = begin; i < end && out.size() < 200; ++i) {
            const auto byte = static_cast<unsigned char>(text_[i]);
            out += (byte == '\t') ? ' ' : (byte < 0x20 || byte >= 0x7f) ? '?' : static_cast<char>(byte);
        }
        const size_t first = out.find_first_not_of(' ');
        if (first == std::string::npos) return {};
        return out.substr(first, out.find_last_not_of(' ') - first + 1);
    }

    [[noreturn]] void fail(const std::string& what) const { fail_at(pos_, what); }
    [[noreturn]] void fail_at(size_t at, const std::string& what) const {
        throw ParseError(source_name_, line_, line_text(at), what);
    }

    std::string_view text_;
    const std::string& source_name_;
    size_t pos_ = 0;
    uint32_t line_ = 1;
};

} // namespace

const char* to_string(TokenKind kind) {
    switch (kind) {
    case TokenKind::Word:
        return "word";
    case TokenKind::Directive:
        return "directive";
    case TokenKind::Number:
        return "number";
    case TokenKind::String:
        return "string";
    case TokenKind::Punct:
        return "punctuation";
    case TokenKind::End:
        return "end of input";
    }
    return "?";
}

std::vector<Token> tokenize(std::string_view text, const std::string& source_name) {
    return Lexer(text, source_name).run();
}

} // namespace synclab::ptx
