#include "ui/shell/screenshot.h"

#include <glad/gl.h>
#include <stb/stb_image_write.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace synclab::ui {
namespace {

// The GL state read_back_buffer changes, saved and put back as one unit.
struct ReadState {
    GLint pack_alignment = 4;
    GLint pack_row_length = 0;
    GLint pack_buffer = 0;
    GLint read_framebuffer = 0;
    GLint read_buffer = GL_BACK;

    static ReadState save() {
        ReadState s;
        glGetIntegerv(GL_PACK_ALIGNMENT, &s.pack_alignment);
        glGetIntegerv(GL_PACK_ROW_LENGTH, &s.pack_row_length);
        glGetIntegerv(GL_PIXEL_PACK_BUFFER_BINDING, &s.pack_buffer);
        glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &s.read_framebuffer);
        glGetIntegerv(GL_READ_BUFFER, &s.read_buffer);
        return s;
    }
    void restore() const {
        glBindFramebuffer(GL_READ_FRAMEBUFFER, GLuint(read_framebuffer));
        glReadBuffer(GLenum(read_buffer));
        glBindBuffer(GL_PIXEL_PACK_BUFFER, GLuint(pack_buffer));
        glPixelStorei(GL_PACK_ROW_LENGTH, pack_row_length);
        glPixelStorei(GL_PACK_ALIGNMENT, pack_alignment);
    }
};

} // namespace

Image read_back_buffer(int width, int height) {
    Image image;
    if (width <= 0 || height <= 0) return image;
    const ReadState saved = ReadState::save();
    glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
    glReadBuffer(GL_BACK);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    glPixelStorei(GL_PACK_ROW_LENGTH, 0);
    glPixelStorei(GL_PACK_ALIGNMENT, 1); // rows of 3-byte pixels are not 4-byte aligned
    std::vector<uint8_t> bottom_up(size_t(width) * size_t(height) * 3);
    glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE, bottom_up.data());
    saved.restore();

    // GL's rows start at the bottom; PNG's at the top.
    image.width = width;
    image.height = height;
    image.rgb.resize(bottom_up.size());
    const size_t row = size_t(width) * 3;
    for (int y = 0; y < height; ++y)
        std::memcpy(image.rgb.data() + size_t(y) * row, bottom_up.data() + size_t(height - 1 - y) * row, row);
    return image;
}

std::string write_png(const Image& image, const std::string& path) {
    if (image.width <= 0 || image.height <= 0) return path + ": nothing to save (the window has no pixels)";
    const std::filesystem::path parent = std::filesystem::path(path).parent_path();
    if (!parent.empty()) {
        std::error_code ec;
        if (!std::filesystem::is_directory(parent, ec))
            return path + ": could not write (folder " + parent.string() + " does not exist)";
    }
    errno = 0;
    if (!stbi_write_png(path.c_str(), image.width, image.height, 3, image.rgb.data(), image.width * 3))
        return path + ": could not write" +
               (errno ? std::string(" (") + std::strerror(errno) + ")" : std::string());
    return "";
}

} // namespace synclab::ui
