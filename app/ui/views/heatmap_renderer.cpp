#include "ui/views/heatmap_renderer.h"

#include "ui/model/colour_map.h"
#include "ui/views/shaders.h"

#include <glad/gl.h>

#include <vector>

namespace synclab::ui {

namespace {

// The GL state render() changes, saved and put back as one unit.
struct SavedState {
    GLint framebuffer = 0, program = 0, vao = 0, texture = 0, active_texture = GL_TEXTURE0;
    GLint viewport[4] = {0, 0, 0, 0};
    GLboolean scissor = GL_FALSE, blend = GL_FALSE, depth = GL_FALSE, cull = GL_FALSE;
    GLint unpack_alignment = 4;
    static SavedState save() {
        SavedState s;
        glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &s.framebuffer);
        glGetIntegerv(GL_CURRENT_PROGRAM, &s.program);
        glGetIntegerv(GL_VERTEX_ARRAY_BINDING, &s.vao);
        glGetIntegerv(GL_ACTIVE_TEXTURE, &s.active_texture);
        glActiveTexture(GL_TEXTURE0);
        glGetIntegerv(GL_TEXTURE_BINDING_2D, &s.texture);
        glGetIntegerv(GL_VIEWPORT, s.viewport);
        glGetIntegerv(GL_UNPACK_ALIGNMENT, &s.unpack_alignment);
        s.scissor = glIsEnabled(GL_SCISSOR_TEST);
        s.blend = glIsEnabled(GL_BLEND);
        s.depth = glIsEnabled(GL_DEPTH_TEST);
        s.cull = glIsEnabled(GL_CULL_FACE);
        return s;
    }
    void restore() const {
        glBindFramebuffer(GL_DRAW_FRAMEBUFFER, GLuint(framebuffer));
        glUseProgram(GLuint(program));
        glBindVertexArray(GLuint(vao));
        glActiveTexture(GL_TEXTURE0);
        glBindTexture(GL_TEXTURE_2D, GLuint(texture));
        glActiveTexture(GLenum(active_texture));
        glViewport(viewport[0], viewport[1], viewport[2], viewport[3]);
        glPixelStorei(GL_UNPACK_ALIGNMENT, unpack_alignment);
        const auto set = [](GLenum cap, GLboolean on) { on ? glEnable(cap) : glDisable(cap); };
        set(GL_SCISSOR_TEST, scissor);
        set(GL_BLEND, blend);
        set(GL_DEPTH_TEST, depth);
        set(GL_CULL_FACE, cull);
    }
};

std::string shader_log(GLuint shader) {
    GLint n = 0;
    glGetShaderiv(shader, GL_INFO_LOG_LENGTH, &n);
    std::string log(size_t(std::max(n, 1)), '\0');
    glGetShaderInfoLog(shader, n, nullptr, log.data());
    while (!log.empty() && (log.back() == '\0' || log.back() == '\n'))
        log.pop_back();
    return log;
}

GLuint compile(GLenum kind, const char* source, const char* file, std::string& error) {
    const GLuint s = glCreateShader(kind);
    glShaderSource(s, 1, &source, nullptr);
    glCompileShader(s);
    GLint ok = GL_FALSE;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        error = std::string(file) + " does not compile on this GL driver (" +
                reinterpret_cast<const char*>(glGetString(GL_RENDERER)) + "):\n" + shader_log(s);
        glDeleteShader(s);
        return 0;
    }
    return s;
}

} // namespace

HeatmapRenderer::~HeatmapRenderer() {
    release();
}

void HeatmapRenderer::release() {
    if (gl_.program) glDeleteProgram(gl_.program);
    if (gl_.vao) glDeleteVertexArrays(1, &gl_.vao);
    if (gl_.cells) glDeleteTextures(1, &gl_.cells);
    if (gl_.target) glDeleteTextures(1, &gl_.target);
    if (gl_.fbo) glDeleteFramebuffers(1, &gl_.fbo);
    gl_ = Gl{};
}

bool HeatmapRenderer::build_program() {
    const GLuint vs = compile(GL_VERTEX_SHADER, shaders::kHeatmapVert, shaders::kHeatmapVertFile, error_);
    if (!vs) return false;
    const GLuint fs = compile(GL_FRAGMENT_SHADER, shaders::kHeatmapFrag, shaders::kHeatmapFragFile, error_);
    if (!fs) {
        glDeleteShader(vs);
        return false;
    }
    const GLuint p = glCreateProgram();
    glAttachShader(p, vs);
    glAttachShader(p, fs);
    glLinkProgram(p);
    glDeleteShader(vs);
    glDeleteShader(fs);
    GLint ok = GL_FALSE;
    glGetProgramiv(p, GL_LINK_STATUS, &ok);
    if (!ok) {
        GLint n = 0;
        glGetProgramiv(p, GL_INFO_LOG_LENGTH, &n);
        std::string log(size_t(std::max(n, 1)), '\0');
        glGetProgramInfoLog(p, n, nullptr, log.data());
        error_ = std::string("the heatmap shaders (") + shaders::kHeatmapVertFile + ", " + shaders::kHeatmapFragFile +
                 ") do not link:\n" + log.c_str();
        glDeleteProgram(p);
        return false;
    }
    gl_.program = p;
    gl_.u_view = glGetUniformLocation(p, "u_view");
    gl_.u_cells = glGetUniformLocation(p, "u_cells");
    gl_.u_stops = glGetUniformLocation(p, "u_stops");
    gl_.u_range = glGetUniformLocation(p, "u_range");
    gl_.u_log = glGetUniformLocation(p, "u_log");
    gl_.u_empty = glGetUniformLocation(p, "u_empty");
    gl_.u_cell_px = glGetUniformLocation(p, "u_cell_px");
    gl_.u_grid_size = glGetUniformLocation(p, "u_grid_size");
    glGenVertexArrays(1, &gl_.vao);
    return true;
}

bool HeatmapRenderer::ready() {
    if (!tried_) {
        tried_ = true;
        const SavedState saved = SavedState::save();
        build_program();
        saved.restore();
    }
    return gl_.program != 0;
}

void HeatmapRenderer::upload(const HeatGrid& grid) {
    if (!ready() || grid.empty()) return;
    const SavedState saved = SavedState::save();
    if (!gl_.cells) glGenTextures(1, &gl_.cells);
    glBindTexture(GL_TEXTURE_2D, gl_.cells);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    // Row 0 of the grid is texture row 0 (t = 0): the vertex shader's v0 is the top row.
    glTexImage2D(GL_TEXTURE_2D, 0, GL_R32F, GLsizei(grid.cols), GLsizei(grid.rows), 0, GL_RED, GL_FLOAT,
                 grid.values.data());
    gl_.cols = int(grid.cols);
    gl_.rows = int(grid.rows);
    ++uploads_;
    saved.restore();
}

uint32_t HeatmapRenderer::render(int width, int height, const HeatmapDraw& d) {
    if (!ready() || !gl_.cells || width <= 0 || height <= 0) return 0;
    const SavedState saved = SavedState::save();
    if (width != gl_.target_w || height != gl_.target_h || !gl_.fbo) {
        if (!gl_.target) glGenTextures(1, &gl_.target);
        glBindTexture(GL_TEXTURE_2D, gl_.target);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
        if (!gl_.fbo) glGenFramebuffers(1, &gl_.fbo);
        glBindFramebuffer(GL_DRAW_FRAMEBUFFER, gl_.fbo);
        glFramebufferTexture2D(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, gl_.target, 0);
        if (glCheckFramebufferStatus(GL_DRAW_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
            error_ = "the heatmap's framebuffer is incomplete on this GL driver";
            saved.restore();
            release();
            return 0;
        }
        gl_.target_w = width;
        gl_.target_h = height;
    }
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, gl_.fbo);
    glViewport(0, 0, width, height);
    glDisable(GL_SCISSOR_TEST);
    glDisable(GL_BLEND);
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_CULL_FACE);
    glUseProgram(gl_.program);
    glBindVertexArray(gl_.vao);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, gl_.cells);
    glUniform1i(gl_.u_cells, 0);
    glUniform4f(gl_.u_view, d.u0, d.v0, d.u1, d.v1);
    std::vector<float> stops;
    for (const heat::Rgb& c : heat::stops()) {
        stops.push_back(c.r);
        stops.push_back(c.g);
        stops.push_back(c.b);
    }
    glUniform3fv(gl_.u_stops, heat::kStops, stops.data());
    glUniform2f(gl_.u_range, d.lo, d.hi);
    glUniform1i(gl_.u_log, d.log_scale ? 1 : 0);
    glUniform3f(gl_.u_empty, float((d.empty_rgb >> 16) & 0xff) / 255.0f, float((d.empty_rgb >> 8) & 0xff) / 255.0f,
                float(d.empty_rgb & 0xff) / 255.0f);
    const float du = std::max(1e-9f, d.u1 - d.u0), dv = std::max(1e-9f, d.v1 - d.v0);
    glUniform2f(gl_.u_cell_px, float(width) / (du * float(gl_.cols)), float(height) / (dv * float(gl_.rows)));
    glUniform4f(gl_.u_grid_size, float(gl_.cols), float(gl_.rows), 1.0f / float(gl_.cols), 1.0f / float(gl_.rows));
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    saved.restore();
    return gl_.target;
}

} // namespace synclab::ui
