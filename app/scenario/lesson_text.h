// A lesson's text file (en.md, zh.md): fixed sections under fixed headings, the same in every
// language, so that a program can find each part and check that the translations are complete.
//
//   # <lesson title>
//   ## What it shows        (also: Predict, What to look at, The fix)
//   <paragraphs>
//   # Variant <id>: <title>  (or "<id>：<title>"; the title keeps the id: "correct: store, barrier, then
//   load")
//   ## What it shows
//   ...
//
// A paragraph's lines are joined with a space, paragraphs with a blank line ("\n\n"); the text is
// taken as written (no Markdown is interpreted), so write each paragraph of Chinese on one line.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace synclab::scenario::text {

enum class Section : uint8_t { Shows, Predict, LookAt, Fix };
constexpr size_t kSections = 4;
const char* heading(Section section); // "What it shows", "Predict", "What to look at", "The fix"

struct Block {
    std::string variant; // "" for the lesson itself
    uint32_t line = 0;   // of its # heading
    std::string title;
    std::array<std::string, kSections> sections{};   // "" where the section is absent
    std::array<uint32_t, kSections> section_lines{}; // 0 where absent
    bool has(Section s) const { return section_lines[static_cast<size_t>(s)] != 0; }
    const std::string& get(Section s) const { return sections[static_cast<size_t>(s)]; }
};

struct Document {
    std::vector<Block> blocks; // blocks[0] is the lesson, then its variants in file order
    const Block* find_variant(std::string_view id) const;
};

// Parses one text file; throws LessonError "FILE:LINE: ..." for text outside a section, an unknown or
// repeated heading, an empty section, a missing lesson title or a variant heading without an id.
Document parse(std::string_view text, const std::string& file);

} // namespace synclab::scenario::text
