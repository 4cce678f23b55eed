// The lesson-error tests' helpers (lesson_errors_test.cpp, lesson_params_test.cpp): a lesson's files
// read from the source tree, broken one change at a time, built, and the error it gives checked
// against the one wanted (file, line and field).
#pragma once

#include "scenario/lesson.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>

namespace synclab::scenario::test {

// A file of the source tree, by its path from the repository's root ("" when it cannot be read).
inline std::string read_source(const std::string& relative) {
    std::ifstream in(std::string(SYNCLAB_SOURCE_DIR) + "/" + relative, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// One lesson's files as text: lesson.toml, en.md and zh.md of `dir`, and its kernel (`cuda_name`,
// the name lesson.toml's `source` gives, with its PTX).
struct LessonFiles {
    LessonFiles(std::string folder_id, const std::string& dir, std::string cuda_name_,
                const std::string& cuda_path, std::string ptx_name_, const std::string& ptx_path)
        : toml(read_source(dir + "lesson.toml")), en(read_source(dir + "en.md")),
          zh(read_source(dir + "zh.md")), cuda(read_source(cuda_path)), ptx(read_source(ptx_path)),
          folder(std::move(folder_id)), cuda_name(std::move(cuda_name_)), ptx_name(std::move(ptx_name_)) {}
    std::string toml, en, zh, cuda, ptx;
    std::string folder; // the lesson's id, its folder's name
    std::string cuda_name, ptx_name;
};

inline LessonSources sources(const LessonFiles& f) {
    LessonSources s;
    s.folder_id = f.folder;
    s.toml_name = "lesson.toml";
    s.en_name = "en.md";
    s.zh_name = "zh.md";
    s.toml_text = f.toml;
    s.en_text = f.en;
    s.zh_text = f.zh;
    s.kernel = [f](const std::string& source, uint32_t line) {
        if (source != f.cuda_name) throw LessonError("lesson.toml", line, "test: no file " + source);
        return KernelFiles{f.cuda_name, f.cuda, f.ptx_name, f.ptx};
    };
    return s;
}

// The error building the lesson gives ("" when it builds).
inline std::string error_of(const LessonFiles& f) {
    try {
        build_lesson(sources(f));
    } catch (const LessonError& e) {
        return e.what();
    }
    return "";
}

// `text` with its one occurrence of `from` replaced (the test fails loudly when it is not there once).
inline std::string with(std::string text, const std::string& from, const std::string& to) {
    const size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << "the lesson file has no '" << from << "'";
    EXPECT_EQ(text.find(from, at + 1), std::string::npos) << "'" << from << "' is not unique";
    return at == std::string::npos ? text : text.replace(at, from.size(), to);
}

// The 1-based line of the first line containing `needle`.
inline uint32_t line_of(const std::string& text, const std::string& needle) {
    const size_t at = text.find(needle);
    EXPECT_NE(at, std::string::npos) << needle;
    return static_cast<uint32_t>(std::count(text.begin(), text.begin() + static_cast<long>(at), '\n') + 1);
}

// The lesson's error starts with `wanted`.
inline void expect_error(const LessonFiles& f, const std::string& wanted) {
    const std::string e = error_of(f);
    EXPECT_EQ(e.rfind(wanted, 0), 0u) << "error: " << e << "\nwanted: " << wanted;
}

} // namespace synclab::scenario::test
