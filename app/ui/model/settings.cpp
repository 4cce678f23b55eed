#include "ui/model/settings.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace synclab::ui {

std::string settings_path() {
    const char* xdg = std::getenv("XDG_CONFIG_HOME");
    if (xdg && *xdg == '/') return std::string(xdg) + "/synclab/settings.ini";
    const char* home = std::getenv("HOME");
    if (home && *home) return std::string(home) + "/.config/synclab/settings.ini";
    return "";
}

SettingsLoad load_settings(const std::string& path) {
    SettingsLoad out;
    if (path.empty()) return out;
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) return out; // first start: nothing to say
    std::ifstream in(path);
    if (!in) {
        out.note = "settings not read (" + path + ": " + std::strerror(errno) + "); using defaults";
        return out;
    }
    std::string line;
    int line_no = 0;
    std::vector<std::string> problems;
    while (std::getline(in, line)) {
        ++line_no;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.empty() || line[0] == '#' || line[0] == ';' || line[0] == '[') continue;
        const size_t eq = line.find('=');
        if (eq == std::string::npos || line.size() > 512) {
            problems.push_back("line " + std::to_string(line_no));
            continue;
        }
        const std::string key = line.substr(0, eq), value = line.substr(eq + 1);
        if (key == "language") {
            if (value == "en")
                out.settings.language = Language::En;
            else if (value == "zh")
                out.settings.language = Language::Zh;
            else
                problems.push_back("language '" + value + "'");
        } else if (key == "predict") {
            if (value == "on")
                out.settings.predict = true;
            else if (value == "off")
                out.settings.predict = false;
            else
                problems.push_back("predict '" + value + "' (on or off)");
        } else if (key == "scenario") {
            out.settings.scenario = value;
        } else if (key == "variant") {
            out.settings.variant = value;
        } // unknown keys: a newer version's settings; keep quiet
    }
    if (!problems.empty()) {
        std::string list;
        for (const std::string& p : problems)
            list += (list.empty() ? "" : ", ") + p;
        out.note = "ignored parts of " + path + " (" + list + ")";
    }
    return out;
}

std::string save_settings(const Settings& settings, const std::string& path) {
    if (path.empty()) return "settings not saved (neither XDG_CONFIG_HOME nor HOME is set)";
    std::error_code ec;
    std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
    if (ec) return "settings not saved (" + ec.message() + ")";
    const std::string tmp = path + ".tmp";
    {
        std::ofstream out(tmp, std::ios::trunc);
        if (!out) return "settings not saved (" + tmp + ": " + std::strerror(errno) + ")";
        out << "# SyncLab settings (written by the app)\n"
            << "language=" << (settings.language == Language::Zh ? "zh" : "en") << "\n"
            << "scenario=" << settings.scenario << "\n"
            << "variant=" << settings.variant << "\n"
            << "predict=" << (settings.predict ? "on" : "off") << "\n";
        out.flush();
        if (!out) {
            std::filesystem::remove(tmp, ec);
            return "settings not saved (" + tmp + ": write failed)";
        }
    }
    std::filesystem::rename(tmp, path, ec);
    if (ec) {
        std::filesystem::remove(tmp, ec);
        return "settings not saved (" + ec.message() + ")";
    }
    return "";
}

} // namespace synclab::ui
