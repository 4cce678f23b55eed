// The GLSL of shaders/, embedded at build time (scripts/embed_shaders.cmake), with the file each came
// from for error messages.
#pragma once

namespace synclab::ui::shaders {
extern const char* const kHeatmapVert;
extern const char* const kHeatmapVertFile;
extern const char* const kHeatmapFrag;
extern const char* const kHeatmapFragFile;
} // namespace synclab::ui::shaders
