// Runs a shell command for tests that drive SyncLab's executables as a user would, and returns its
// exit code and everything it printed (stdout and stderr together).
#pragma once

#include <array>
#include <cstdio>
#include <string>
#include <sys/wait.h>

namespace synclab::testing {

struct CommandOutput {
    int code = -1; // exit status; -1 if it could not run or was killed by a signal
    std::string out;
};

inline CommandOutput run_command(const std::string& command) {
    CommandOutput o;
    FILE* p = popen((command + " 2>&1").c_str(), "r");
    if (!p) return o;
    std::array<char, 4096> buf;
    size_t n;
    while ((n = fread(buf.data(), 1, buf.size(), p)) > 0)
        o.out.append(buf.data(), n);
    const int status = pclose(p);
    o.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return o;
}

} // namespace synclab::testing
