// ptxas, where the CUDA toolkit is installed: tests that rewrite PTX check that what they wrote
// assembles for the H200 (sm_90). Shared by tests/ptx and tests/gpu.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <unistd.h>

namespace synclab::ptx::test {

// The toolkit's ptxas ("" when there is none).
inline std::string find_ptxas() {
    for (const char* p : {"/usr/local/cuda/bin/ptxas", "/usr/bin/ptxas"})
        if (access(p, X_OK) == 0) return p;
    if (const char* home = std::getenv("CUDA_HOME")) {
        const std::string p = std::string(home) + "/bin/ptxas";
        if (access(p.c_str(), X_OK) == 0) return p;
    }
    return "";
}

// Assembles kernels in a scratch folder of its own (removed at the end); a kernel that does not
// assemble is a test failure that names it and quotes ptxas.
class PtxasCheck {
  public:
    explicit PtxasCheck(const std::string& tag)
        : ptxas_(find_ptxas()),
          dir_(std::filesystem::temp_directory_path() / ("synclab-" + tag + "-" + std::to_string(getpid()))) {
        if (available()) std::filesystem::create_directories(dir_);
    }
    ~PtxasCheck() {
        std::error_code ignored;
        std::filesystem::remove_all(dir_, ignored);
    }
    PtxasCheck(const PtxasCheck&) = delete;
    PtxasCheck& operator=(const PtxasCheck&) = delete;

    bool available() const { return !ptxas_.empty(); }

    void assemble(const std::string& name, const std::string& ptx) const {
        const auto file = dir_ / (name + ".ptx");
        std::ofstream(file) << ptx;
        const std::string log = (dir_ / (name + ".log")).string();
        const std::string cmd = "'" + ptxas_ + "' -arch=sm_90 '" + file.string() + "' -o /dev/null >'" + log + "' 2>&1";
        const int rc = std::system(cmd.c_str());
        std::ifstream in(log);
        const std::string messages((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        EXPECT_EQ(rc, 0) << name << ":\n" << messages;
    }

  private:
    std::string ptxas_;
    std::filesystem::path dir_;
};

} // namespace synclab::ptx::test
