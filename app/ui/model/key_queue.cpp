#include "ui/model/key_queue.h"

#include <algorithm>

namespace synclab::ui {

void KeyQueue::push(const KeyEvent& event) {
    if (events_.size() >= kMaxPending) {
        ++dropped_;
        return;
    }
    events_.push_back(event);
}

void KeyQueue::tap(int key, int mods) {
    push(KeyEvent::press(key, mods));
    push(KeyEvent::release(key, mods));
}

std::vector<KeyEvent> KeyQueue::take_frame() {
    std::vector<KeyEvent> out;
    std::vector<int> moved; // keys with a transition in this frame (few: a linear search is fine)
    while (!events_.empty()) {
        const KeyEvent& e = events_.front();
        if (e.transition()) {
            if (std::find(moved.begin(), moved.end(), e.key) != moved.end()) break;
            moved.push_back(e.key);
        }
        out.push_back(e);
        events_.pop_front();
    }
    return out;
}

} // namespace synclab::ui
