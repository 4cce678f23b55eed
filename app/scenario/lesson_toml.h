// The small TOML subset lesson files are written in: `key = value` lines grouped under `[table]` and
// `[table.sub]` headers, `#` comments, values that are strings ("basic" with \" \\ \n \t \uXXXX
// escapes, or 'literal'), integers (decimal or 0x hex, `_` separators), floats, true/false and
// arrays (which may span lines and end with a comma). Keys are bare (A-Z a-z 0-9 _ -). Not
// supported, each with an error that says so: inline tables, arrays of tables, dotted and quoted
// keys, multi-line strings, dates. Entries keep their file order and line numbers, so that the
// lesson builder can say where a field is wrong.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace synclab::scenario::toml {

struct Value {
    enum class Kind : uint8_t { String, Integer, Float, Bool, Array };
    Kind kind = Kind::String;
    uint32_t line = 0; // where the value starts
    std::string string;
    int64_t integer = 0;
    double number = 0;
    bool boolean = false;
    std::vector<Value> array;
};
const char* to_string(Value::Kind kind); // "a string", "an integer", "a float", "true/false", "an array"

struct Entry {
    std::string key;
    uint32_t line = 0;
    Value value;
};

struct Table {
    std::string name;              // "" for the root, "buffers", "variant.correct"
    std::vector<std::string> path; // {"variant", "correct"}
    uint32_t line = 0;             // of the header (0 for the root)
    std::vector<Entry> entries;    // in file order

    const Entry* find(std::string_view key) const;
};

struct Document {
    std::vector<Table> tables; // tables[0] is the root; then the [tables] in file order
};

// Parses `text`; throws LessonError (scenario.h) "FILE:LINE: ..." for a syntax error, a key set twice
// or a table that appears twice.
Document parse(std::string_view text, const std::string& file);

} // namespace synclab::scenario::toml
