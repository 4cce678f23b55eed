// Files embedded at build time (scripts/embed_files.cmake): the kernels' CUDA source and PTX
// ("stencil.cu", "stencil.ptx") and the built-in lessons ("lessons/LESSONS",
// "lessons/stencil/lesson.toml", "lessons/stencil/en.md", ...).
#pragma once

#include <string_view>
#include <vector>

namespace synclab::scenario {

struct EmbeddedFile {
    const char* name;
    const char* data;
    unsigned long size;
};

const std::vector<EmbeddedFile>& embedded_files();

// The file of that name, or nullptr.
const EmbeddedFile* find_embedded(std::string_view name);
// The file's contents, or an empty view when there is none of that name.
std::string_view embedded_file(std::string_view name);

} // namespace synclab::scenario
