// A lesson's text files (en.md, zh.md): the fixed sections, paragraphs, variant headings in both
// languages' punctuation, and an error naming file and line for every way the layout can be wrong.
#include "scenario/lesson_text.h"
#include "scenario/scenario.h"

#include <gtest/gtest.h>

#include <string>

namespace synclab::scenario::text {
namespace {

std::string error_of(const std::string& text) {
    try {
        parse(text, "en.md");
    } catch (const LessonError& e) {
        return e.what();
    }
    return "";
}

TEST(LessonText, SectionsAndVariants) {
    const Document d = parse("# The lesson\n"
                             "\n"
                             "## What it shows\n"
                             "First line\n"
                             "continues here.\n"
                             "\n"
                             "Second paragraph.\n"
                             "## Predict\n"
                             "Will it hang?\n"
                             "## What to look at\n"
                             "The finding.\n"
                             "## The fix\n"
                             "Add a barrier.\n"
                             "\n"
                             "# Variant correct: store, barrier, then load\n"
                             "## What it shows\n"
                             "Right.\n"
                             "## What to look at\n"
                             "Nothing.\n"
                             "# Variant odd_lanes：只有奇数线程\n"
                             "## What it shows\n"
                             "同一个 warp。\n"
                             "## What to look at\n"
                             "看。\n",
                             "en.md");
    ASSERT_EQ(d.blocks.size(), 3u);
    const Block& lesson = d.blocks[0];
    EXPECT_TRUE(lesson.variant.empty());
    EXPECT_EQ(lesson.title, "The lesson");
    EXPECT_EQ(lesson.line, 1u);
    EXPECT_EQ(lesson.get(Section::Shows), "First line continues here.\n\nSecond paragraph.");
    EXPECT_EQ(lesson.get(Section::Predict), "Will it hang?");
    EXPECT_EQ(lesson.get(Section::LookAt), "The finding.");
    EXPECT_EQ(lesson.get(Section::Fix), "Add a barrier.");
    EXPECT_EQ(lesson.section_lines[static_cast<size_t>(Section::Predict)], 8u);

    const Block* correct = d.find_variant("correct");
    ASSERT_NE(correct, nullptr);
    EXPECT_EQ(correct->title, "correct: store, barrier, then load") << "the title keeps its id";
    EXPECT_EQ(correct->line, 15u);
    EXPECT_TRUE(correct->has(Section::Shows));
    EXPECT_FALSE(correct->has(Section::Predict));
    EXPECT_TRUE(correct->get(Section::Fix).empty());

    const Block* odd = d.find_variant("odd_lanes");
    ASSERT_NE(odd, nullptr);
    EXPECT_EQ(odd->title, "odd_lanes：只有奇数线程");
    EXPECT_EQ(odd->get(Section::Shows), "同一个 warp。");
    EXPECT_EQ(d.find_variant("missing"), nullptr);
    EXPECT_EQ(d.find_variant(""), nullptr) << "the lesson is not a variant";
}

TEST(LessonText, VariantWithoutTitleText) {
    const Document d = parse("# T\n## What it shows\nx\n# Variant plain\n## What it shows\ny\n", "en.md");
    ASSERT_NE(d.find_variant("plain"), nullptr);
    EXPECT_EQ(d.find_variant("plain")->title, "plain");
}

TEST(LessonText, LayoutErrorsNameFileAndLine) {
    struct Case {
        std::string text, error;
    };
    const Case cases[] = {
        {"", "en.md: no '# title': the file is empty"},
        {"Some text\n# T\n", "en.md:1: text before the lesson's '# title'"},
        {"## What it shows\nx\n", "en.md:1: the file must open with the lesson's '# title'"},
        {"# T\nloose text\n",
         "en.md:2: text outside a section: put it under one of ## What it shows, ## Predict, "
         "## What to look at, ## The fix"},
        {"# T\n## Summary\nx\n", "en.md:2: unknown section '## Summary' (sections: ## What it shows"},
        {"# T\n## Predict\nx\n## Predict\ny\n",
         "en.md:4: section '## Predict' appears twice (first on line 2)"},
        {"# T\n## Predict\n\n## The fix\nx\n", "en.md:2: section '## Predict' is empty"},
        {"# T\n## The fix\n", "en.md:2: section '## The fix' is empty"},
        {"# T\n# Other title\n", "en.md:2: a second lesson title '# Other title'"},
        {"# Variant correct: x\n",
         "en.md:1: the file must open with the lesson's '# title' before any variant"},
        {"# T\n# Variant : x\n", "en.md:2: a variant heading is '# Variant ID: title'"},
        {"# T\n# Variant bad-id: x\n", "en.md:2: a variant heading is '# Variant ID: title'"},
        {"# T\n# Variant a: x\n## What it shows\ny\n# Variant a: z\n",
         "en.md:5: variant 'a' has two headings (first on line 2)"},
        {"# T\n# Variant a: x\n## Fix\ny\n", "en.md:3: variant 'a': unknown section '## Fix'"},
        {"# T\n### Deeper\n", "en.md:2: only # and ## headings are used"},
        {"#\n", "en.md:1: a # heading needs a title"},
    };
    for (const Case& c : cases) {
        const std::string e = error_of(c.text);
        EXPECT_EQ(e.rfind(c.error, 0), 0u)
            << "text: " << c.text << "\nerror: " << e << "\nwanted: " << c.error;
    }
}

} // namespace
} // namespace synclab::scenario::text
