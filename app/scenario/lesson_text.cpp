#include "scenario/lesson_text.h"

#include "scenario/scenario.h"

namespace synclab::scenario::text {

const char* heading(Section section) {
    switch (section) {
    case Section::Shows:
        return "What it shows";
    case Section::Predict:
        return "Predict";
    case Section::LookAt:
        return "What to look at";
    case Section::Fix:
        return "The fix";
    }
    return "?";
}

const Block* Document::find_variant(std::string_view id) const {
    for (const Block& b : blocks)
        if (!b.variant.empty() && b.variant == id) return &b;
    return nullptr;
}

namespace {

constexpr std::string_view kVariant = "Variant ";
constexpr std::string_view kFullWidthColon = "\xef\xbc\x9a"; // "："

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

bool is_id_char(char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

std::string section_list() {
    std::string out;
    for (size_t i = 0; i < kSections; ++i)
        out += std::string(i ? ", " : "") + "## " + heading(static_cast<Section>(i));
    return out;
}

class Builder {
  public:
    explicit Builder(const std::string& file) : file_(file) {}

    void heading_line(std::string_view title, uint32_t line) {
        finish_section();
        if (title.empty()) fail(line, "a # heading needs a title");
        Block block;
        block.line = line;
        if (title.starts_with(kVariant)) {
            const std::string_view rest = title.substr(kVariant.size());
            size_t n = 0;
            while (n < rest.size() && is_id_char(rest[n]))
                ++n;
            const std::string_view after = rest.substr(n);
            if (n == 0 || !(after.empty() || after.starts_with(":") || after.starts_with(kFullWidthColon)))
                fail(line, "a variant heading is '# Variant ID: title' (ID: letters, digits, _), got '# " +
                               std::string(title) + "'");
            block.variant = std::string(rest.substr(0, n));
            block.title = std::string(rest);
            if (doc_.blocks.empty())
                fail(line, "the file must open with the lesson's '# title' before any variant");
            for (const Block& b : doc_.blocks)
                if (b.variant == block.variant)
                    fail(line, "variant '" + block.variant + "' has two headings (first on line " +
                                   std::to_string(b.line) + ")");
        } else {
            if (!doc_.blocks.empty())
                fail(line, "a second lesson title '# " + std::string(title) +
                               "': every # heading after the first is '# Variant ID: title'");
            block.title = std::string(title);
        }
        doc_.blocks.push_back(std::move(block));
    }

    void section_line(std::string_view name, uint32_t line) {
        finish_section();
        if (doc_.blocks.empty()) fail(line, "the file must open with the lesson's '# title'");
        for (size_t i = 0; i < kSections; ++i)
            if (name == heading(static_cast<Section>(i))) {
                Block& block = doc_.blocks.back();
                if (block.section_lines[i] != 0)
                    fail(line, where(block) + "section '## " + std::string(name) +
                                   "' appears twice (first on line " +
                                   std::to_string(block.section_lines[i]) + ")");
                block.section_lines[i] = line;
                section_ = static_cast<int>(i);
                section_line_ = line;
                return;
            }
        fail(line, where(doc_.blocks.back()) + "unknown section '## " + std::string(name) +
                       "' (sections: " + section_list() + ")");
    }

    void text_line(std::string_view text, uint32_t line) {
        if (text.empty()) {
            paragraph_open_ = false;
            return;
        }
        if (doc_.blocks.empty()) fail(line, "text before the lesson's '# title'");
        if (section_ < 0)
            fail(line,
                 where(doc_.blocks.back()) + "text outside a section: put it under one of " + section_list());
        std::string& out = doc_.blocks.back().sections[static_cast<size_t>(section_)];
        if (!out.empty()) out += paragraph_open_ ? " " : "\n\n";
        out += text;
        paragraph_open_ = true;
    }

    Document finish(uint32_t last_line) {
        finish_section();
        if (doc_.blocks.empty()) fail(last_line, "no '# title': the file is empty");
        return std::move(doc_);
    }

  private:
    [[noreturn]] void fail(uint32_t line, const std::string& message) const {
        throw LessonError(file_, line, message);
    }
    static std::string where(const Block& block) {
        return block.variant.empty() ? "" : "variant '" + block.variant + "': ";
    }
    void finish_section() {
        if (section_ >= 0 && doc_.blocks.back().sections[static_cast<size_t>(section_)].empty())
            fail(section_line_, where(doc_.blocks.back()) + "section '## " +
                                    heading(static_cast<Section>(section_)) + "' is empty");
        section_ = -1;
        paragraph_open_ = false;
    }

    const std::string& file_;
    Document doc_;
    int section_ = -1;
    uint32_t section_line_ = 0;
    bool paragraph_open_ = false;
};

} // namespace

Document parse(std::string_view text, const std::string& file) {
    Builder builder(file);
    uint32_t line = 0;
    size_t pos = 0;
    while (pos < text.size()) {
        const size_t end = text.find('\n', pos);
        const std::string_view raw =
            text.substr(pos, end == std::string_view::npos ? std::string_view::npos : end - pos);
        pos = end == std::string_view::npos ? text.size() : end + 1;
        ++line;
        const std::string_view content = trim(raw);
        if (content.starts_with("###"))
            throw LessonError(file, line,
                              "only # and ## headings are used, got '" + std::string(content) + "'");
        if (content.starts_with("## ") || content == "##")
            builder.section_line(trim(content.substr(2)), line);
        else if (content.starts_with("# ") || content == "#")
            builder.heading_line(trim(content.substr(1)), line);
        else
            builder.text_line(content, line);
    }
    return builder.finish(line);
}

} // namespace synclab::scenario::text
