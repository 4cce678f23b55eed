// The keyboard help (F1 or H): every key of the app on a centred, translucent panel, readable from
// the back of a lecture hall in presenter mode. Drawn last, over everything; any key in the list, a
// click or Esc closes it.
#pragma once

#include "ui/core/app_state.h"

#include <imgui.h>

namespace synclab::ui {

struct KeyHelp {
    const char* keys;
    const char* what;
};

// The keys, in the order the help lists them (also used by the README and the presenter footer).
const KeyHelp* key_help(int& count);

class HelpOverlay {
  public:
    // `heading` may be null (the current font is used).
    void draw(AppState& state, ImFont* heading);
};

} // namespace synclab::ui
