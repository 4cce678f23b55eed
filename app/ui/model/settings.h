// What the app remembers between sessions: the lesson language, the last scenario/variant and whether
// to ask for a prediction before each run, as
// key=value lines in $XDG_CONFIG_HOME/synclab/settings.ini (else ~/.config/synclab/settings.ini).
// A missing, unreadable or damaged file never stops the app: it starts with defaults and says why.
#pragma once

#include "ui/core/app_state.h"

#include <string>

namespace synclab::ui {

struct Settings {
    Language language = Language::En;
    std::string scenario; // catalog id ("" = the first)
    std::string variant;
    bool predict = true; // "predict=off": a teacher turned predictions off (e.g. for a talk)

    bool operator==(const Settings&) const = default;
};

// The settings file's path, or "" when neither XDG_CONFIG_HOME nor HOME is set.
std::string settings_path();

struct SettingsLoad {
    Settings settings;
    std::string note; // "" when the file was read (or simply absent); else what was ignored and why
};
SettingsLoad load_settings(const std::string& path);

// Writes atomically (a temporary file renamed over the old one). Returns "" or what went wrong.
std::string save_settings(const Settings& settings, const std::string& path);

} // namespace synclab::ui
