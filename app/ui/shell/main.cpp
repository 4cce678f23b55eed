// synclab-app: the desktop app. Without arguments it opens the app; with options it runs a script
// (see script.h and --help). Without a display it says so and, when not scripted, shows the command
// line's table instead (the `synclab` binary next to this one), so that `synclab-app` on a server
// still shows something useful.
#include "ui/shell/app.h"
#include "ui/model/lesson_library.h"
#include "ui/shell/script.h"
#include "ui/shell/shell.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <unistd.h>

namespace {

// Replaces this process with `synclab table`. Returns only if that could not start.
int show_cli_table() {
    std::error_code ec;
    const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
    const std::filesystem::path cli = (ec ? std::filesystem::path(".") : self.parent_path()) / "synclab";
    std::cerr << "no display: showing the command-line table instead\n";
    std::cout.flush();
    std::cerr.flush();
    const std::string path = cli.string();
    char* const argv[] = {const_cast<char*>("synclab"), const_cast<char*>("table"), nullptr};
    execv(path.c_str(), argv);
    std::cerr << "synclab-app: could not run " << path << " (" << std::strerror(errno) << ")\n";
    return synclab::ui::kExitNoDisplay;
}

} // namespace

int main(int argc, char** argv) {
    using namespace synclab::ui;
    const ParsedArgs parsed = parse_app_args(std::vector<std::string>(argv + 1, argv + argc));
    switch (parsed.what) {
    case ParsedArgs::What::Help:
        std::cout << app_usage();
        return 0;
    case ParsedArgs::What::Version:
        std::cout << "synclab-app 0.1.0\n";
        return 0;
    case ParsedArgs::What::Error:
        std::cerr << "synclab-app: " << parsed.error << "\n";
        return kExitUsage;
    case ParsedArgs::What::Run:
        break;
    }
    const ScriptOptions& options = parsed.options;
    // Before anything reads the lessons (the App, its fonts' glyphs, the settings' last lesson).
    if (parsed.lessons) install_lessons(std::move(*parsed.lessons));
    if (!options.lessons_error.empty())
        std::cerr << "synclab-app: the lessons in " << options.lessons_dir
                  << " could not be loaded: " << options.lessons_error << "\n";

    try {
        Shell shell;
        ShellOptions shell_options;
        shell_options.width = options.width;
        shell_options.height = options.height;
        std::string error;
        if (!shell.open(shell_options, error)) {
            std::cerr << "synclab-app: " << error << "\n";
            return options.any ? kExitNoDisplay : show_cli_table();
        }

        AppOptions app_options;
        app_options.remember_settings = !options.any || !options.settings.empty();
        app_options.settings_file = options.settings;
        App app(shell, app_options); // declared after the shell: destroyed (worker joined) before it
        app.init();
        Script script(options);
        if (options.any) {
            script.start(app);
            shell.set_ignore_mouse(true);
        }

        while (!shell.should_close() && !script.finished()) {
            app.before_frame();
            shell.begin_frame();
            app.frame();
            if (options.any) script.after_frame(app, shell);
            shell.render();
            app.after_render();
            if (options.any) {
                script.after_render(app, shell);
                // Once the script is done (and the app stays open), the mouse is the user's again.
                if (script.done()) shell.set_ignore_mouse(false);
            }
            shell.present();
        }
        return script.exit_code();
    } catch (const std::exception& e) {
        std::cerr << "synclab-app: internal error: " << e.what() << "\n";
        return 1;
    }
}
