// Keyboard events queued between the window system and Dear ImGui. ImGui 1.86 has no input queue:
// its GLFW backend sets io.KeysDown[key] in the key callback, so a press and its release that arrive
// in one glfwPollEvents() (a quick tap, a presentation clicker, xdotool) leave the key up again before
// the next frame looks at it, and the tap is lost. The shell pushes every key and character event
// here instead and hands ImGui, each frame, the events up to the second transition (press or release)
// of any one key: a press and its release reach ImGui in different frames, so even a zero-length tap
// is down for exactly one frame.
//
// Window-free (plain ints, no GLFW or ImGui) so that app_logic_tests can drive it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <vector>

namespace synclab::ui {

struct KeyEvent {
    enum class Kind : uint8_t { Key, Char };
    enum class Action : uint8_t { Release, Press, Repeat }; // GLFW's order (GLFW_RELEASE = 0, ...)
    Kind kind = Kind::Key;
    Action action = Action::Press;
    int key = 0;            // Kind::Key: the window system's key code (GLFW_KEY_*)
    int scancode = 0;       // Kind::Key: passed through unchanged
    int mods = 0;           // Kind::Key: passed through unchanged
    uint32_t codepoint = 0; // Kind::Char

    static KeyEvent press(int key, int mods = 0) { return {Kind::Key, Action::Press, key, 0, mods, 0}; }
    static KeyEvent release(int key, int mods = 0) { return {Kind::Key, Action::Release, key, 0, mods, 0}; }
    static KeyEvent repeat(int key, int mods = 0) { return {Kind::Key, Action::Repeat, key, 0, mods, 0}; }
    static KeyEvent character(uint32_t c) { return {Kind::Char, Action::Press, 0, 0, 0, c}; }
    bool transition() const { return kind == Kind::Key && action != Action::Repeat; }
};

class KeyQueue {
  public:
    // Events beyond this many are dropped, oldest kept (a stuck frame loop must not grow without
    // bound); a dropped release is the risk, and kMaxPending is far beyond any human's typing.
    static constexpr size_t kMaxPending = 1024;

    void push(const KeyEvent& event);
    // A press and its release together, as a clicker (or a script) sends them.
    void tap(int key, int mods = 0);

    // The events for this frame, in arrival order: everything up to (not including) the first event
    // that would be a second press/release of a key already pressed/released in this frame. Repeats
    // and characters never end a frame by themselves, but wait behind a key event that does, so the
    // order of keys and characters (text fields: a letter, then Backspace) is kept.
    std::vector<KeyEvent> take_frame();

    size_t pending() const { return events_.size(); }
    bool empty() const { return events_.empty(); }
    size_t dropped() const { return dropped_; }

  private:
    std::deque<KeyEvent> events_;
    size_t dropped_ = 0;
};

} // namespace synclab::ui
