#include "embedded.h"

namespace synclab::scenario {

const EmbeddedFile* find_embedded(std::string_view name) {
    for (const EmbeddedFile& file : embedded_files())
        if (name == file.name) return &file;
    return nullptr;
}

std::string_view embedded_file(std::string_view name) {
    const EmbeddedFile* file = find_embedded(name);
    return file ? std::string_view(file->data, file->size) : std::string_view();
}

} // namespace synclab::scenario
