// Building a Scenario from a lesson's files (their text, wherever it came from: the embedded
// built-ins or a folder on disk). Every check of the lesson format lives here; catalog.cpp and
// load.cpp only fetch the files.
#pragma once

#include "scenario/scenario.h"

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace synclab::scenario {

// The kernel a lesson file's `source` names: its CUDA text ("" for a PTX-only lesson) and PTX.
struct KernelFiles {
    std::string cuda_name, cuda_text; // names as shown in messages ("kernels/stencil.cu")
    std::string ptx_name, ptx_text;
};

struct LessonSources {
    std::string folder_id; // the lesson's folder name, which its `id` must equal
    std::string toml_name, toml_text;
    std::string en_name, en_text;
    std::string zh_name, zh_text;
    // Fetches the kernel named by `source` (value as written, its line in the lesson file); throws
    // LessonError when it cannot.
    std::function<KernelFiles(const std::string& source, uint32_t line)> kernel;
};

// Parses and checks everything: the lesson file, both texts, the kernel's PTX (every variant's
// kernel must be an entry taking the lesson's arguments). Throws LessonError naming the file, the
// line and the field.
Scenario build_lesson(const LessonSources& sources);

// The ids of a LESSONS file (one per line, `#` comments, blank lines ignored), checked: a lesson id
// is lower-case letters, digits and _, and appears once.
std::vector<std::string> parse_lesson_list(std::string_view text, const std::string& file);

// True for a valid lesson or variant id (the CLI, file names and CMake use it).
bool is_lesson_id(std::string_view id);

} // namespace synclab::scenario
