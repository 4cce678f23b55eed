// What the CLI tests share: running the `synclab` they were built with (SYNCLAB_CLI) as a user
// would, and the paths of their data.
#pragma once

#include "common/run_command.h"

#include <filesystem>
#include <string>
#include <unistd.h>

namespace synclab::testing::cli {

using Output = CommandOutput;

// `synclab ARGS`, stdout and stderr together, and its exit code.
inline Output run(const std::string& args) { return run_command(std::string(SYNCLAB_CLI) + " " + args); }

// A file of the source tree ("tests/corpus/kernels/x.ptx"), and one of tests/cli/data.
inline std::string source(const std::string& relative) { return std::string(SYNCLAB_SOURCE_DIR) + "/" + relative; }
inline std::string data(const std::string& name) { return source("tests/cli/data/" + name); }

// A path in a scratch folder of this test process.
inline std::string temp(const std::string& name) {
    const auto dir = std::filesystem::temp_directory_path() / ("synclab-cli-" + std::to_string(getpid()));
    std::filesystem::create_directories(dir);
    return (dir / name).string();
}

inline bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

} // namespace synclab::testing::cli
