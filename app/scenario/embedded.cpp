#include "embedded.h"

namespace synclab::scenario {

std::string_view embedded_file(std::string_view name) {
    for (const EmbeddedFile& file : embedded_files())
        if (name == file.name) return {file.data, file.size};
    return {};
}

} // namespace synclab::scenario
