// Index:
//   [SECTION] Errors
//   [SECTION] Opening and closing
//   [SECTION] Keys
//   [SECTION] Frames
//   [SECTION] Fullscreen
#include "ui/shell/shell.h"

#include "ui/model/layout_plan.h"

// glad first: it provides the GL declarations, and GLFW must not pull in a system GL header.
#include <glad/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <algorithm>
#include <cfloat>
#include <cstdlib>

namespace synclab::ui {
namespace {

// [SECTION] Errors

// GLFW reports why it failed through glfwGetError (3.3+), which avoids a global error callback.
std::string glfw_error_text() {
    const char* description = nullptr;
    const int code = glfwGetError(&description);
    if (code == GLFW_NO_ERROR) return "no GLFW error reported";
    return "GLFW error " + std::to_string(code) + ": " + (description ? description : "no description");
}

bool has_display_variable() {
    const char* x11 = std::getenv("DISPLAY");
    const char* wayland = std::getenv("WAYLAND_DISPLAY");
    return (x11 && *x11) || (wayland && *wayland);
}

const char* kNoDisplayAdvice =
    "the desktop app needs a graphical session; run 'synclab table' for the command line, or xvfb-run for a "
    "virtual display";

} // namespace

// [SECTION] Opening and closing

Shell::~Shell() {
    close();
}

bool Shell::open(const ShellOptions& options, std::string& error) {
    close();
    if (!glfwInit()) {
        const std::string why = glfw_error_text();
        error = std::string("no display (") + (has_display_variable() ? "" : "DISPLAY is not set / ") + why +
                "): " + kNoDisplayAdvice;
        return false;
    }
    glfw_initialised_ = true;

    GLFWmonitor* monitor = glfwGetPrimaryMonitor();
    if (!monitor) {
        error = "no display (GLFW found no monitor: " + glfw_error_text() + "): " + kNoDisplayAdvice;
        close();
        return false;
    }
    float scale_x = 1, scale_y = 1;
    glfwGetMonitorContentScale(monitor, &scale_x, &scale_y);
    content_scale_ = std::clamp(std::max(scale_x, scale_y), 1.0f, 4.0f);

    int width = options.width, height = options.height;
    // No size asked for: one that fits the work area (plan_window: a margin on a large screen, all
    // of it on a laptop's, where the layout needs every pixel of 1280x720).
    const bool fit = width <= 0 || height <= 0;
    int wx = 0, wy = 0, ww = 1280, wh = 800;
    const int min_w = int(1280 * content_scale_), min_h = int(720 * content_scale_);
    if (fit) {
        glfwGetMonitorWorkarea(monitor, &wx, &wy, &ww, &wh);
        const WindowSize size = plan_window(ww, wh, 0, 0, min_w, min_h);
        width = size.width;
        height = size.height;
    }

    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    glfwWindowHint(GLFW_DOUBLEBUFFER, GLFW_TRUE);
    window_ = glfwCreateWindow(width, height, options.title.c_str(), nullptr, nullptr);
    if (!window_) {
        error = "could not open a window with OpenGL 3.3 core (" + glfw_error_text() +
                "); the desktop app needs OpenGL 3.3 (Mesa's llvmpipe works); run 'synclab table' for the "
                "command line";
        close();
        return false;
    }
    if (fit) {
        // The window manager's decorations are known once the window exists: with them the window
        // must still fit the work area (a title bar pushed the bottom row off a 768-pixel screen).
        int left = 0, top = 0, right = 0, bottom = 0;
        glfwGetWindowFrameSize(window_, &left, &top, &right, &bottom);
        const WindowSize size = plan_window(ww, wh, left + right, top + bottom, min_w, min_h);
        if (size.width != width || size.height != height) glfwSetWindowSize(window_, size.width, size.height);
        if (size.width + left + right >= ww || size.height + top + bottom >= wh)
            glfwSetWindowPos(window_, wx + left, wy + top);
    }
    glfwMakeContextCurrent(window_);
    if (gladLoadGL(glfwGetProcAddress) == 0) {
        error = "could not load the OpenGL 3.3 functions (glad); run 'synclab table' for the command line";
        close();
        return false;
    }
    glfwSwapInterval(options.vsync ? 1 : 0);

    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    // The App lays every window out itself each frame; an imgui.ini would only make runs (and the
    // screenshots of the GUI tests) depend on what happened before.
    io.IniFilename = nullptr;
    io.LogFilename = nullptr;
    imgui_glfw_ = ImGui_ImplGlfw_InitForOpenGL(window_, true);
    imgui_gl_ = imgui_glfw_ && ImGui_ImplOpenGL3_Init("#version 330");
    if (!imgui_gl_) {
        error = "could not start Dear ImGui's GLFW/OpenGL3 backends";
        close();
        return false;
    }
    // Ours go in after ImGui's (which chain to what was there before them: nothing), so that every
    // key reaches ImGui through the queue.
    glfwSetWindowUserPointer(window_, this);
    imgui_key_ = glfwSetKeyCallback(window_, &Shell::on_key);
    imgui_char_ = glfwSetCharCallback(window_, &Shell::on_char);
    return true;
}

void Shell::close() {
    if (imgui_gl_) ImGui_ImplOpenGL3_Shutdown();
    if (imgui_glfw_) ImGui_ImplGlfw_Shutdown();
    if (ImGui::GetCurrentContext()) ImGui::DestroyContext();
    imgui_gl_ = imgui_glfw_ = false;
    if (window_) glfwDestroyWindow(window_);
    window_ = nullptr;
    imgui_key_ = nullptr;
    imgui_char_ = nullptr;
    keys_ = KeyQueue{};
    if (glfw_initialised_) glfwTerminate();
    glfw_initialised_ = false;
    fullscreen_ = false;
}

bool Shell::should_close() const {
    return !window_ || glfwWindowShouldClose(window_);
}

void Shell::request_close() {
    if (window_) glfwSetWindowShouldClose(window_, GLFW_TRUE);
}

int Shell::framebuffer_width() const {
    int w = 0, h = 0;
    if (window_) glfwGetFramebufferSize(window_, &w, &h);
    return w;
}

int Shell::framebuffer_height() const {
    int w = 0, h = 0;
    if (window_) glfwGetFramebufferSize(window_, &w, &h);
    return h;
}

// [SECTION] Keys

void Shell::on_key(GLFWwindow* window, int key, int scancode, int action, int mods) {
    auto* self = static_cast<Shell*>(glfwGetWindowUserPointer(window));
    if (!self) return;
    KeyEvent e = KeyEvent::press(key, mods);
    e.scancode = scancode;
    e.action = action == GLFW_RELEASE  ? KeyEvent::Action::Release
               : action == GLFW_REPEAT ? KeyEvent::Action::Repeat
                                       : KeyEvent::Action::Press;
    self->keys_.push(e);
}

void Shell::on_char(GLFWwindow* window, unsigned int codepoint) {
    auto* self = static_cast<Shell*>(glfwGetWindowUserPointer(window));
    if (self) self->keys_.push(KeyEvent::character(codepoint));
}

void Shell::feed_keys() {
    for (const KeyEvent& e : keys_.take_frame()) {
        if (e.kind == KeyEvent::Kind::Char) {
            if (imgui_char_) imgui_char_(window_, e.codepoint);
            continue;
        }
        const int action = e.action == KeyEvent::Action::Release  ? GLFW_RELEASE
                           : e.action == KeyEvent::Action::Repeat ? GLFW_REPEAT
                                                                  : GLFW_PRESS;
        if (imgui_key_) imgui_key_(window_, e.key, e.scancode, action, e.mods);
    }
}

// [SECTION] Frames

void Shell::begin_frame() {
    glfwPollEvents();
    feed_keys();
    // A minimised window has a 0x0 framebuffer: wait instead of spinning at full speed.
    while (window_ && !glfwWindowShouldClose(window_) && framebuffer_width() == 0)
        glfwWaitEventsTimeout(0.1);
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    if (ignore_mouse_) {
        ImGuiIO& io = ImGui::GetIO();
        io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
        for (bool& down : io.MouseDown)
            down = false;
        io.MouseWheel = io.MouseWheelH = 0;
    }
    ImGui::NewFrame();
}

void Shell::render() {
    ImGui::Render();
    // Viewport and clear colour are the only state set here; put them back afterwards so that
    // whatever else draws into this context finds what it left.
    GLint viewport[4];
    GLfloat clear[4];
    glGetIntegerv(GL_VIEWPORT, viewport);
    glGetFloatv(GL_COLOR_CLEAR_VALUE, clear);
    glViewport(0, 0, framebuffer_width(), framebuffer_height());
    const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
    glClearColor(bg.x, bg.y, bg.z, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    glClearColor(clear[0], clear[1], clear[2], clear[3]);
    glViewport(viewport[0], viewport[1], viewport[2], viewport[3]);
}

void Shell::present() {
    if (window_) glfwSwapBuffers(window_);
}

// [SECTION] Fullscreen

void Shell::toggle_fullscreen() {
    if (!window_) return;
    if (!fullscreen_) {
        GLFWmonitor* monitor = glfwGetPrimaryMonitor();
        const GLFWvidmode* mode = monitor ? glfwGetVideoMode(monitor) : nullptr;
        if (!mode) return;
        glfwGetWindowPos(window_, &windowed_x_, &windowed_y_);
        glfwGetWindowSize(window_, &windowed_w_, &windowed_h_);
        glfwSetWindowMonitor(window_, monitor, 0, 0, mode->width, mode->height, mode->refreshRate);
        fullscreen_ = true;
    } else {
        glfwSetWindowMonitor(window_, nullptr, windowed_x_, windowed_y_, windowed_w_, windowed_h_,
                             GLFW_DONT_CARE);
        fullscreen_ = false;
    }
}

} // namespace synclab::ui
