// The window the app lives in: GLFW window + OpenGL 3.3 core context (glad for our own GL calls) +
// Dear ImGui with its GLFW and OpenGL3 backends. Knows nothing of SyncLab: the App draws, the shell
// turns frames into pixels.
//
// A frame is begin_frame() (poll events, ImGui::NewFrame), the App's drawing, render() (draw into the
// back buffer), then present() (swap). Anything that reads the finished image (screenshots) runs
// between render() and present(), while the back buffer still holds it.
#pragma once

#include "ui/model/key_queue.h"

#include <string>

struct GLFWwindow;
struct GLFWmonitor;

namespace synclab::ui {

struct ShellOptions {
    std::string title = "SyncLab";
    int width = 0; // window size in screen coordinates; 0: a share of the monitor (DPI-aware)
    int height = 0;
    bool vsync = true;
};

class Shell {
  public:
    Shell() = default;
    ~Shell();
    Shell(const Shell&) = delete;
    Shell& operator=(const Shell&) = delete;

    // Creates the window, the GL context and the ImGui context with both backends. On failure returns
    // false with a readable `error` (no display, no OpenGL 3.3) and leaves nothing half-open.
    bool open(const ShellOptions& options, std::string& error);
    bool is_open() const { return window_ != nullptr; }

    bool should_close() const;
    void request_close();

    void begin_frame();
    void render();  // ImGui::Render + draw the lists into the back buffer
    void present(); // swap buffers

    // While set, ImGui sees no mouse (as if it were outside the window): the scripted mode's
    // screenshots must not depend on where the pointer happens to rest (hover highlights, tooltips).
    void set_ignore_mouse(bool ignore) { ignore_mouse_ = ignore; }

    // Key and character events on their way to ImGui, one transition per key and frame (see
    // key_queue.h). The scripted mode pushes synthetic taps here, so they take the user's path.
    KeyQueue& keys() { return keys_; }

    void toggle_fullscreen();
    bool fullscreen() const { return fullscreen_; }

    // Monitor DPI / 96 (1 on an ordinary screen, 2 on most HiDPI laptops); fonts and style sizes are
    // multiplied by it.
    float content_scale() const { return content_scale_; }
    int framebuffer_width() const;
    int framebuffer_height() const;
    GLFWwindow* window() const { return window_; }

    void close();

  private:
    static void on_key(GLFWwindow* window, int key, int scancode, int action, int mods);
    static void on_char(GLFWwindow* window, unsigned int codepoint);
    void feed_keys(); // this frame's share of keys_ to ImGui's callbacks

    GLFWwindow* window_ = nullptr;
    KeyQueue keys_;
    // ImGui's GLFW callbacks, which ours replace and feed from the queue.
    void (*imgui_key_)(GLFWwindow*, int, int, int, int) = nullptr;
    void (*imgui_char_)(GLFWwindow*, unsigned int) = nullptr;
    bool glfw_initialised_ = false;
    bool imgui_glfw_ = false;
    bool imgui_gl_ = false;
    bool fullscreen_ = false;
    bool ignore_mouse_ = false;
    int windowed_x_ = 0, windowed_y_ = 0, windowed_w_ = 0, windowed_h_ = 0; // restored on leaving fullscreen
    float content_scale_ = 1.0f;
};

} // namespace synclab::ui
