// Lexer: token kinds and text, numbers, comments, line numbers, and lexical errors.
#include "ptx/lexer.h"

#include "ptx/parser.h"

#include <gtest/gtest.h>

#include <vector>

namespace synclab::ptx {
namespace {

struct Expected {
    TokenKind kind;
    std::string_view text;
};

void expect_tokens(std::string_view text, const std::vector<Expected>& expected) {
    const std::vector<Token> tokens = tokenize(text, "lex.ptx");
    ASSERT_EQ(tokens.size(), expected.size() + 1) << text;
    for (size_t i = 0; i < expected.size(); ++i) {
        EXPECT_EQ(tokens[i].kind, expected[i].kind) << "token " << i << " '" << tokens[i].text << "'";
        EXPECT_EQ(tokens[i].text, expected[i].text) << "token " << i;
    }
    EXPECT_EQ(tokens.back().kind, TokenKind::End);
}

constexpr TokenKind W = TokenKind::Word;
constexpr TokenKind D = TokenKind::Directive;
constexpr TokenKind N = TokenKind::Number;
constexpr TokenKind P = TokenKind::Punct;
constexpr TokenKind S = TokenKind::String;

TEST(ptx_lexer, OpcodeWithModifiersIsOneWord) {
    expect_tokens("ld.global.L1::evict_last.v4.f32 {%f1, _}, [%rd5+-4];",
                  {{W, "ld.global.L1::evict_last.v4.f32"},
                   {P, "{"},
                   {W, "%f1"},
                   {P, ","},
                   {W, "_"},
                   {P, "}"},
                   {P, ","},
                   {P, "["},
                   {W, "%rd5"},
                   {P, "+"},
                   {P, "-"},
                   {N, "4"},
                   {P, "]"},
                   {P, ";"}});
}

TEST(ptx_lexer, DirectivesRegisterRangesAndSpecialRegisters) {
    expect_tokens(".reg .b32 %r<10>; mov.u32 %r1, %tid.x;", {{D, ".reg"},
                                                             {D, ".b32"},
                                                             {W, "%r"},
                                                             {P, "<"},
                                                             {N, "10"},
                                                             {P, ">"},
                                                             {P, ";"},
                                                             {W, "mov.u32"},
                                                             {W, "%r1"},
                                                             {P, ","},
                                                             {W, "%tid.x"},
                                                             {P, ";"}});
}

TEST(ptx_lexer, GuardLabelAndSetpPair) {
    expect_tokens("$L__BB0_2:\n@!%p1 bra $L__BB0_2; setp.lt.s32 %p1|%p2, %r1, 0;", {{W, "$L__BB0_2"},
                                                                                    {P, ":"},
                                                                                    {P, "@"},
                                                                                    {P, "!"},
                                                                                    {W, "%p1"},
                                                                                    {W, "bra"},
                                                                                    {W, "$L__BB0_2"},
                                                                                    {P, ";"},
                                                                                    {W, "setp.lt.s32"},
                                                                                    {W, "%p1"},
                                                                                    {P, "|"},
                                                                                    {W, "%p2"},
                                                                                    {P, ","},
                                                                                    {W, "%r1"},
                                                                                    {P, ","},
                                                                                    {N, "0"},
                                                                                    {P, ";"}});
}

TEST(ptx_lexer, NumberForms) {
    expect_tokens("42 0x1fU 0f3F800000 0d4000000000000000 9.0 1e-3 2.5E+4 0b101 017 4294967295U",
                  {{N, "42"},
                   {N, "0x1fU"},
                   {N, "0f3F800000"},
                   {N, "0d4000000000000000"},
                   {N, "9.0"},
                   {N, "1e-3"},
                   {N, "2.5E+4"},
                   {N, "0b101"},
                   {N, "017"},
                   {N, "4294967295U"}});
}

TEST(ptx_lexer, StringsKeepQuotes) {
    expect_tokens(
        ".file 1 \"dir/a b.cu\", 123, 456",
        {{D, ".file"}, {N, "1"}, {S, "\"dir/a b.cu\""}, {P, ","}, {N, "123"}, {P, ","}, {N, "456"}});
}

TEST(ptx_lexer, CommentsAreDroppedAndMarkSpace) {
    const std::vector<Token> tokens = tokenize("add.s32/*x*/%r1,%r2 // tail\n/* a\n b */ ret;", "lex.ptx");
    ASSERT_EQ(tokens.size(), 7u);
    EXPECT_EQ(tokens[0].text, "add.s32");
    EXPECT_FALSE(tokens[0].space_before);
    EXPECT_EQ(tokens[1].text, "%r1");
    EXPECT_TRUE(tokens[1].space_before); // a comment counts as space
    EXPECT_EQ(tokens[2].text, ",");
    EXPECT_FALSE(tokens[2].space_before);
    EXPECT_FALSE(tokens[3].space_before);
    EXPECT_EQ(tokens[4].text, "ret");
    EXPECT_EQ(tokens[4].line, 3u); // after a line comment and a two-line block comment
    EXPECT_EQ(tokens[0].line, 1u);
}

TEST(ptx_lexer, LineNumbersCountNewlines) {
    const std::vector<Token> tokens = tokenize("a\n\nb\r\n c\n", "lex.ptx");
    ASSERT_EQ(tokens.size(), 4u);
    EXPECT_EQ(tokens[0].line, 1u);
    EXPECT_EQ(tokens[1].line, 3u);
    EXPECT_EQ(tokens[2].line, 4u);
    EXPECT_EQ(tokens[3].kind, TokenKind::End);
    EXPECT_EQ(tokens[3].line, 5u);
}

TEST(ptx_lexer, EmptyInputIsJustEnd) {
    const std::vector<Token> tokens = tokenize("", "lex.ptx");
    ASSERT_EQ(tokens.size(), 1u);
    EXPECT_EQ(tokens[0].kind, TokenKind::End);
}

void expect_lex_error(std::string_view text, uint32_t line, std::string_view needle) {
    try {
        tokenize(text, "lex.ptx");
        ADD_FAILURE() << "expected a lexer error for: " << text;
    } catch (const ParseError& e) {
        EXPECT_EQ(e.line(), line) << e.what();
        EXPECT_EQ(e.source_name(), "lex.ptx");
        EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
}

TEST(ptx_lexer, Errors) {
    expect_lex_error("ret;\n.file 1 \"abc\n", 2, "unterminated string");
    expect_lex_error("ret;\n/* never closed\nret;\n", 2, "unterminated /* comment");
    expect_lex_error("mov.u32 %r1, 1;\nmov.u32 %r1, #2;", 2, "unexpected character '#'");
    expect_lex_error("\n\n\xc3\xa9", 3, "unexpected byte 0xc3");
    expect_lex_error("mov.f32 %f1, 0f3F80;", 1, "0f needs exactly 8 hex digits");
    expect_lex_error("mov.f64 %fd1, 0d3FF0;", 1, "0d needs exactly 16 hex digits");
    expect_lex_error("add.s32 %r1, %r2, 12abc;", 1, "malformed number");
    expect_lex_error("mov.u32 %r1, 0x;", 1, "malformed hexadecimal number");
}

TEST(ptx_lexer, ErrorQuotesTheLine) {
    try {
        tokenize("ret;\n\tmov.u32 %r1, `x;\n", "lex.ptx");
        FAIL();
    } catch (const ParseError& e) {
        EXPECT_EQ(e.instruction(), "mov.u32 %r1, `x;");
    }
}

} // namespace
} // namespace synclab::ptx
