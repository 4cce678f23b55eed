// The kernels' CUDA source and PTX, embedded at build time (scripts/embed_files.cmake).
#pragma once

#include <string_view>
#include <vector>

namespace synclab::scenario {

struct EmbeddedFile {
    const char* name; // base name, e.g. "stencil.cu", "stencil.ptx"
    const char* data;
    unsigned long size;
};

const std::vector<EmbeddedFile>& embedded_files();

// The file's contents, or an empty view when there is none of that name.
std::string_view embedded_file(std::string_view name);

} // namespace synclab::scenario
