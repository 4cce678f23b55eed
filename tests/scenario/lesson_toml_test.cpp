// The lesson files' TOML subset: values, tables, comments and line numbers, and an error naming the
// file and line for every syntax it does not accept.
#include "scenario/lesson_toml.h"
#include "scenario/scenario.h"

#include <gtest/gtest.h>

#include <string>

namespace synclab::scenario::toml {
namespace {

using Kind = Value::Kind;

// The error's text, or "" when the text parses.
std::string error_of(const std::string& text) {
    try {
        parse(text, "x.toml");
    } catch (const LessonError& e) {
        return e.what();
    }
    return "";
}

TEST(LessonToml, ValuesTablesAndLines) {
    const Document d = parse("# a comment\n"
                             "id = \"stencil\"   # trailing comment\n"
                             "grid = 64\n"
                             "neg = -12\n"
                             "hex = 0xff\n"
                             "big = 1_000_000\n"
                             "ratio = 0.25\n"
                             "exp = 1e3\n"
                             "flag = true\n"
                             "lit = 'C:\\path # not a comment'\n"
                             "esc = \"a\\\"b\\\\c\\n\\u4e2d\"\n"
                             "dims = [256, 1, 1]\n"
                             "\n"
                             "[buffers]\n"
                             "g_in = \"buf:f32:16\"\n"
                             "[variant.correct]\n"
                             "must = [\n"
                             "  \"race\",   # one\n"
                             "  \"deadlock\",\n"
                             "]\n"
                             "empty = []\n",
                             "x.toml");
    ASSERT_EQ(d.tables.size(), 3u);
    const Table& root = d.tables[0];
    EXPECT_TRUE(root.name.empty());
    ASSERT_EQ(root.entries.size(), 11u);
    EXPECT_EQ(root.entries[0].key, "id");
    EXPECT_EQ(root.entries[0].line, 2u);
    EXPECT_EQ(root.find("id")->value.string, "stencil");
    EXPECT_EQ(root.find("grid")->value.integer, 64);
    EXPECT_EQ(root.find("neg")->value.integer, -12);
    EXPECT_EQ(root.find("hex")->value.integer, 255);
    EXPECT_EQ(root.find("big")->value.integer, 1000000);
    EXPECT_EQ(root.find("ratio")->value.kind, Kind::Float);
    EXPECT_DOUBLE_EQ(root.find("ratio")->value.number, 0.25);
    EXPECT_DOUBLE_EQ(root.find("exp")->value.number, 1000.0);
    EXPECT_TRUE(root.find("flag")->value.boolean);
    EXPECT_EQ(root.find("lit")->value.string, "C:\\path # not a comment");
    EXPECT_EQ(root.find("esc")->value.string, "a\"b\\c\n\xe4\xb8\xad");
    const Value& dims = root.find("dims")->value;
    ASSERT_EQ(dims.kind, Kind::Array);
    ASSERT_EQ(dims.array.size(), 3u);
    EXPECT_EQ(dims.array[0].integer, 256);
    EXPECT_EQ(root.find("nothing"), nullptr);

    EXPECT_EQ(d.tables[1].name, "buffers");
    EXPECT_EQ(d.tables[1].line, 14u);
    EXPECT_EQ(d.tables[2].name, "variant.correct");
    EXPECT_EQ(d.tables[2].path, (std::vector<std::string>{"variant", "correct"}));
    const Value& must = d.tables[2].find("must")->value;
    ASSERT_EQ(must.array.size(), 2u);
    EXPECT_EQ(must.array[0].string, "race");
    EXPECT_EQ(must.array[0].line, 18u) << "each element keeps its own line";
    EXPECT_EQ(must.array[1].line, 19u);
    EXPECT_TRUE(d.tables[2].find("empty")->value.array.empty());
}

TEST(LessonToml, CrLfLinesAndNoFinalNewline) {
    const Document d = parse("a = 1\r\nb = \"x\"\r\n[t]\r\nc = [1,\r\n 2]", "x.toml");
    EXPECT_EQ(d.tables[0].find("b")->value.string, "x");
    EXPECT_EQ(d.tables[1].find("c")->value.array.size(), 2u);
    EXPECT_EQ(d.tables[1].find("c")->line, 4u);
}

TEST(LessonToml, AByteOrderMarkIsNotPartOfTheFirstKey) {
    const Document d = parse("\xEF\xBB\xBFid = \"x\"\nn = 0x1_f\n", "bom.toml");
    EXPECT_EQ(d.tables[0].find("id")->value.string, "x");
    EXPECT_EQ(d.tables[0].find("n")->value.integer, 31);
}

TEST(LessonToml, SyntaxErrorsNameFileAndLine) {
    struct Case {
        std::string text, error;
    };
    const Case cases[] = {
        {"a = 1\nb 2\n", "x.toml:2: expected '=' after key 'b', got '2'"},
        {"a =\n", "x.toml:1: key 'a' has no value"},
        {"a = \"open\n", "x.toml:1: the string is not closed on its line"},
        {"a = 'open\n", "x.toml:1: the string is not closed on its line"},
        {"a = \"bad \\q\"\n", "x.toml:1: unknown escape '\\q'"},
        {"a = \"\\u12\"\n", "x.toml:1: \\u needs four hex digits"},
        {"\n\na = [1, 2\n", "x.toml:3: the array is not closed: ']' is missing"},
        {"a = [1 2]\n", "x.toml:1: expected ',' or ']' in the array, got '2]'"},
        {"a = 1 2\n", "x.toml:1: unexpected text '2' after the value"},
        {"a = {x = 1}\n", "x.toml:1: inline tables ({...}) are not supported"},
        {"[[v]]\n", "x.toml:1: arrays of tables ([[...]]) are not supported"},
        {"a.b = 1\n", "x.toml:1: dotted keys ('a.…') are not supported"},
        {"\"a\" = 1\n", "x.toml:1: quoted keys are not supported"},
        {"a = \"\"\"x\"\"\"\n", "x.toml:1: multi-line strings (\"\"\") are not supported"},
        {"a = 1\na = 2\n", "x.toml:2: key 'a' is set twice (first on line 1)"},
        {"[t]\na = 1\n[t]\n", "x.toml:3: table [t] appears twice (first on line 1)"},
        {"[t]\nx = 1\nx = 1\n", "x.toml:3: key 'x' is set twice in [t] (first on line 2)"},
        {"[t\n", "x.toml:1: expected ']' to close the table header"},
        {"[]\n", "x.toml:1: expected a table name"},
        {"a = yes\n", "x.toml:1: expected a value"},
        {"a = 12abc\n", "x.toml:1: '12abc' is not a number"},
        {"a = 007\n", "x.toml:1: '007': leading zeros are not allowed"},
        {"a = 1__0\n", "x.toml:1: '1__0' is not a number"},
        {"a = 99999999999999999999\n",
         "x.toml:1: '99999999999999999999' is not a number (too large for 64 bits)"},
        {"a = 1.\n", "x.toml:1: '1.' is not a number"},
        {"a = 1979-05-27\n", "x.toml:1: '1979-05-27' is not a number"},
        {"= 1\n", "x.toml:1: expected a key, got '= 1'"},
        {"a = \"abc\\", "x.toml:1: the string is not closed on its line"},
        {"a = \"abc\\\n", "x.toml:1: the string is not closed on its line"},
        {"a = \"\\uD800\"\n", "x.toml:1: \\u escape of a UTF-16 surrogate, not a character"},
        {"a = 1_e5\n", "x.toml:1: '1_e5' is not a number"},
        {"a = 0b101\n", "x.toml:1: '0b101': binary and octal numbers are not supported"},
        {"a = 0o17\n", "x.toml:1: '0o17': binary and octal numbers are not supported"},
        {"a = +0x10\n", "x.toml:1: '+0x10': a hex number takes no sign"},
    };
    for (const Case& c : cases) {
        const std::string e = error_of(c.text);
        EXPECT_EQ(e.rfind(c.error, 0), 0u)
            << "text: " << c.text << "\nerror: " << e << "\nwanted: " << c.error;
    }
}

TEST(LessonToml, ErrorCarriesFileAndLine) {
    try {
        parse("a = 1\n\n\nb = [\n", "dir/lesson.toml");
        FAIL() << "no error";
    } catch (const LessonError& e) {
        EXPECT_EQ(e.file, "dir/lesson.toml");
        EXPECT_EQ(e.line, 4u);
    }
}

} // namespace
} // namespace synclab::scenario::toml
