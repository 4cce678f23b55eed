#include "scenario/lesson_toml.h"

#include "scenario/scenario.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <string>

namespace synclab::scenario::toml {

const char* to_string(Value::Kind kind) {
    switch (kind) {
    case Value::Kind::String:
        return "a string";
    case Value::Kind::Integer:
        return "an integer";
    case Value::Kind::Float:
        return "a float";
    case Value::Kind::Bool:
        return "true/false";
    case Value::Kind::Array:
        return "an array";
    }
    return "?";
}

const Entry* Table::find(std::string_view key) const {
    for (const Entry& e : entries)
        if (e.key == key) return &e;
    return nullptr;
}

namespace {

bool is_bare_key_char(char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

void append_utf8(std::string& out, uint32_t cp) {
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xc0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3f));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xe0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
        out += static_cast<char>(0x80 | (cp & 0x3f));
    } else {
        out += static_cast<char>(0xf0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3f));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
        out += static_cast<char>(0x80 | (cp & 0x3f));
    }
}

// A cursor over the whole text (arrays span lines), counting lines as it goes.
class Parser {
  public:
    Parser(std::string_view text, const std::string& file) : text_(text), file_(file) {}

    Document run() {
        Document doc;
        doc.tables.push_back(Table{});
        while (!at_end()) {
            skip_blanks();
            if (at_end()) break;
            if (peek() == '\n' || peek() == '#') {
                skip_comment_and_newline();
                continue;
            }
            if (peek() == '[') {
                Table table = header();
                for (const Table& t : doc.tables)
                    if (!t.path.empty() && t.name == table.name)
                        fail("table [" + table.name + "] appears twice (first on line " +
                             std::to_string(t.line) + ")");
                doc.tables.push_back(std::move(table));
            } else {
                Entry entry = key_value();
                Table& table = doc.tables.back();
                if (const Entry* first = table.find(entry.key))
                    fail("key '" + entry.key + "' is set twice" +
                         (table.name.empty() ? "" : " in [" + table.name + "]") + " (first on line " +
                         std::to_string(first->line) + ")");
                table.entries.push_back(std::move(entry));
            }
            end_of_line();
        }
        return doc;
    }

  private:
    [[noreturn]] void fail(const std::string& message) const { throw LessonError(file_, line_, message); }

    bool at_end() const { return pos_ >= text_.size(); }
    char peek(size_t ahead = 0) const { return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0'; }
    void advance() {
        if (text_[pos_] == '\n') ++line_;
        ++pos_;
    }

    void skip_blanks() {
        while (!at_end() && (peek() == ' ' || peek() == '\t' || (peek() == '\r' && peek(1) == '\n')))
            advance();
    }
    // A comment runs to the end of the line; then the newline itself.
    void skip_comment_and_newline() {
        while (!at_end() && peek() != '\n')
            advance();
        if (!at_end()) advance();
    }
    // After a header or a value: only blanks and a comment may follow on the line.
    void end_of_line() {
        skip_blanks();
        if (at_end()) return;
        if (peek() != '\n' && peek() != '#')
            fail("unexpected text '" + rest_of_line() + "' after the value (one key = value per line)");
        skip_comment_and_newline();
    }
    // Blanks, newlines and comments (inside arrays).
    void skip_space() {
        while (!at_end()) {
            skip_blanks();
            if (peek() == '#' || peek() == '\n')
                skip_comment_and_newline();
            else
                break;
        }
    }

    std::string rest_of_line() const {
        const size_t end = text_.find('\n', pos_);
        std::string rest(
            text_.substr(pos_, end == std::string_view::npos ? std::string_view::npos : end - pos_));
        if (!rest.empty() && rest.back() == '\r') rest.pop_back();
        return rest;
    }

    std::string bare_key(const char* what) {
        if (peek() == '"' || peek() == '\'')
            fail(std::string("quoted ") + what + "s are not supported: use A-Z a-z 0-9 _ -");
        const size_t start = pos_;
        while (!at_end() && is_bare_key_char(peek()))
            advance();
        if (pos_ == start) fail(std::string("expected a ") + what + ", got '" + rest_of_line() + "'");
        return std::string(text_.substr(start, pos_ - start));
    }

    Table header() {
        Table table;
        table.line = line_;
        advance(); // '['
        if (peek() == '[') fail("arrays of tables ([[...]]) are not supported");
        skip_blanks();
        while (true) {
            table.path.push_back(bare_key("table name"));
            skip_blanks();
            if (peek() != '.') break;
            advance();
            skip_blanks();
        }
        if (peek() != ']') fail("expected ']' to close the table header, got '" + rest_of_line() + "'");
        advance();
        for (size_t i = 0; i < table.path.size(); ++i)
            table.name += (i ? "." : "") + table.path[i];
        return table;
    }

    Entry key_value() {
        Entry entry;
        entry.line = line_;
        entry.key = bare_key("key");
        skip_blanks();
        if (peek() == '.')
            fail("dotted keys ('" + entry.key + ".…') are not supported: write a [" + entry.key +
                 "] table instead");
        if (peek() != '=') fail("expected '=' after key '" + entry.key + "', got '" + rest_of_line() + "'");
        advance();
        skip_blanks();
        if (at_end() || peek() == '\n' || peek() == '#') fail("key '" + entry.key + "' has no value");
        entry.value = value();
        return entry;
    }

    Value value() {
        Value v;
        v.line = line_;
        const char c = peek();
        if (c == '"') {
            if (text_.substr(pos_, 3) == "\"\"\"") fail("multi-line strings (\"\"\") are not supported");
            v.kind = Value::Kind::String;
            v.string = basic_string();
        } else if (c == '\'') {
            if (text_.substr(pos_, 3) == "'''") fail("multi-line strings (''') are not supported");
            v.kind = Value::Kind::String;
            v.string = literal_string();
        } else if (c == '[') {
            v.kind = Value::Kind::Array;
            advance();
            while (true) {
                skip_space();
                if (at_end()) throw LessonError(file_, v.line, "the array is not closed: ']' is missing");
                if (peek() == ']') break;
                v.array.push_back(value());
                skip_space();
                if (at_end()) throw LessonError(file_, v.line, "the array is not closed: ']' is missing");
                if (peek() == ',') {
                    advance();
                    continue;
                }
                if (peek() != ']') fail("expected ',' or ']' in the array, got '" + rest_of_line() + "'");
            }
            advance(); // ']'
        } else if (c == '{') {
            fail("inline tables ({...}) are not supported: use a [table]");
        } else if (text_.substr(pos_, 4) == "true" && !is_bare_key_char(peek(4))) {
            v.kind = Value::Kind::Bool;
            v.boolean = true;
            pos_ += 4;
        } else if (text_.substr(pos_, 5) == "false" && !is_bare_key_char(peek(5))) {
            v.kind = Value::Kind::Bool;
            pos_ += 5;
        } else if (c == '+' || c == '-' || (c >= '0' && c <= '9')) {
            number(v);
        } else {
            fail("expected a value (a \"string\", a number, true/false or an [array]), got '" +
                 rest_of_line() + "'");
        }
        return v;
    }

    std::string basic_string() {
        advance(); // '"'
        std::string out;
        while (true) {
            if (at_end() || peek() == '\n') fail("the string is not closed on its line");
            const char c = peek();
            advance();
            if (c == '"') return out;
            if (c != '\\') {
                out += c;
                continue;
            }
            if (at_end() || peek() == '\n') fail("the string is not closed on its line");
            const char e = peek();
            advance();
            switch (e) {
            case '"':
                out += '"';
                break;
            case '\\':
                out += '\\';
                break;
            case 'n':
                out += '\n';
                break;
            case 't':
                out += '\t';
                break;
            case 'u': {
                uint32_t cp = 0;
                for (int i = 0; i < 4; ++i) {
                    const char h = peek();
                    const int d = h >= '0' && h <= '9'   ? h - '0'
                                  : h >= 'a' && h <= 'f' ? h - 'a' + 10
                                  : h >= 'A' && h <= 'F' ? h - 'A' + 10
                                                         : -1;
                    if (d < 0) fail("\\u needs four hex digits");
                    cp = cp * 16 + static_cast<uint32_t>(d);
                    advance();
                }
                // A lone UTF-16 surrogate is no character: UTF-8 cannot encode it.
                if (cp >= 0xD800 && cp <= 0xDFFF) fail("\\u escape of a UTF-16 surrogate, not a character");
                append_utf8(out, cp);
                break;
            }
            default:
                fail(std::string("unknown escape '\\") + e + "' (\\\" \\\\ \\n \\t \\uXXXX)");
            }
        }
    }

    std::string literal_string() {
        advance(); // '\''
        const size_t start = pos_;
        while (!at_end() && peek() != '\'' && peek() != '\n')
            advance();
        if (at_end() || peek() != '\'') fail("the string is not closed on its line");
        std::string out(text_.substr(start, pos_ - start));
        advance();
        return out;
    }

    void number(Value& v) {
        const size_t start = pos_;
        while (!at_end() && (is_bare_key_char(peek()) || peek() == '+' || peek() == '.'))
            advance();
        const std::string raw(text_.substr(start, pos_ - start));
        const size_t sign = raw[0] == '+' || raw[0] == '-' ? 1 : 0;
        const std::string_view unsigned_part = std::string_view(raw).substr(sign);
        if (unsigned_part.starts_with("0b") || unsigned_part.starts_with("0o"))
            fail("'" + raw + "': binary and octal numbers are not supported (write it in decimal or 0x hex)");
        if (sign && unsigned_part.starts_with("0x")) fail("'" + raw + "': a hex number takes no sign");
        const bool hex = unsigned_part.starts_with("0x");
        std::string digits;
        for (size_t i = 0; i < raw.size(); ++i) {
            if (raw[i] != '_') {
                digits += raw[i];
                continue;
            }
            // TOML: an underscore sits between two digits (hex digits in a hex number).
            auto digit = [hex](char c) {
                return hex ? std::isxdigit(static_cast<unsigned char>(c)) != 0
                           : std::isdigit(static_cast<unsigned char>(c)) != 0;
            };
            const bool between = i > 0 && i + 1 < raw.size() && digit(raw[i - 1]) && digit(raw[i + 1]);
            if (!between) fail("'" + raw + "' is not a number");
        }
        const bool is_float = !hex && digits.find_first_of(".eE") != std::string::npos;
        errno = 0;
        char* end = nullptr;
        if (is_float) {
            v.kind = Value::Kind::Float;
            v.number = std::strtod(digits.c_str(), &end);
            if (*end != '\0' || errno == ERANGE || !std::isfinite(v.number) || digits.back() == '.' ||
                digits.front() == '.')
                fail("'" + raw + "' is not a number");
            return;
        }
        v.kind = Value::Kind::Integer;
        const size_t leading = digits[0] == '+' || digits[0] == '-' ? 1 : 0;
        if (!hex && digits.size() > leading + 1 && digits[leading] == '0')
            fail("'" + raw + "': leading zeros are not allowed");
        v.integer = std::strtoll(hex ? digits.c_str() + 2 : digits.c_str(), &end, hex ? 16 : 10);
        if (digits.size() == leading || *end != '\0' || errno == ERANGE || (hex && digits.size() == 2))
            fail("'" + raw + "' is not a number" + (errno == ERANGE ? " (too large for 64 bits)" : ""));
    }

    std::string_view text_;
    const std::string& file_;
    size_t pos_ = 0;
    uint32_t line_ = 1;
};

} // namespace

Document parse(std::string_view text, const std::string& file) {
    // Editors on some systems save UTF-8 with a byte-order mark: it is not part of the first key.
    if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
    return Parser(text, file).run();
}

} // namespace synclab::scenario::toml
