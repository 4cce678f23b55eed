// Screenshots of the window: the back buffer read with glReadPixels after the frame is drawn and
// before it is swapped (the front buffer of a window may be covered, scaled or not readable at all),
// flipped to top-down rows and written as an RGB PNG.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace synclab::ui {

struct Image {
    int width = 0, height = 0;
    std::vector<uint8_t> rgb; // top row first, 3 bytes per pixel
};

// Reads the current back buffer (width x height from the lower-left corner). Restores every piece
// of GL state it touches.
Image read_back_buffer(int width, int height);

// Writes `image` to `path` as PNG. Returns "" or a readable error ("x.png: could not write (...)").
std::string write_png(const Image& image, const std::string& path);

} // namespace synclab::ui
