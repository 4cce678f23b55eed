// The kernel corpus (tests/corpus/kernels/README.md): kernels written as public race-checker suites
// write them, each with the verdict it must get from `synclab check`, read from its header. One test
// per kernel; a freshness test checks the kept PTX where nvcc exists.
#include "common/run_command.h"
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;

const fs::path kDir = fs::path(SYNCLAB_SOURCE_DIR) / "tests" / "corpus" / "kernels";

struct Case {
    std::string name;                // file stem
    std::vector<std::string> expect; // the finding kinds that must appear, and no other; empty: clean
    std::string also;                // a word the expected finding's space or hazard must show
    std::string at;                  // words a message of the expected kind must contain (a line)
    std::vector<std::string> checks; // synclab check arguments, one run each (block sizes differ)
    std::string status = "ok";
};

std::string read(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

Case parse_case(const fs::path& cu) {
    Case c;
    c.name = cu.stem().string();
    std::istringstream lines(read(cu));
    for (std::string line; std::getline(lines, line) && line.starts_with("//");) {
        auto value = [&](const char* key) -> std::optional<std::string> {
            const std::string prefix = std::string("// ") + key + ": ";
            if (!line.starts_with(prefix)) return std::nullopt;
            return line.substr(prefix.size());
        };
        if (auto v = value("expect")) {
            std::istringstream words(*v);
            for (std::string w; words >> w;)
                if (w != "clean") c.expect.push_back(w);
        } else if (auto v = value("also")) {
            c.also = *v;
        } else if (auto v = value("at")) {
            c.at = *v;
        } else if (auto v = value("check")) {
            c.checks.push_back(*v);
        } else if (auto v = value("status")) {
            c.status = *v;
        }
    }
    return c;
}

std::vector<Case> cases() {
    std::vector<Case> out;
    for (const fs::directory_entry& e : fs::directory_iterator(kDir))
        if (e.path().extension() == ".cu") out.push_back(parse_case(e.path()));
    std::sort(out.begin(), out.end(), [](const Case& a, const Case& b) { return a.name < b.name; });
    return out;
}

// gtest prints a failing case's parameter: its name, not its bytes.
void PrintTo(const Case& c, std::ostream* os) {
    *os << c.name;
}

class Corpus : public ::testing::TestWithParam<Case> {};

// Each `// check:` line, over three seeds (--reps 3): exactly the expected kinds of finding, on the
// expected space or hazard, at CUDA source lines of the kernel's file.
TEST_P(Corpus, GetsItsVerdict) {
    const Case& c = GetParam();
    ASSERT_FALSE(c.checks.empty()) << c.name << ".cu has no '// check:' header";
    for (const std::string& check : c.checks) {
        const std::string command = std::string(SYNCLAB_CLI) + " check " +
                                    (kDir / (c.name + ".ptx")).string() + " " + check + " --reps 3 --json";
        const synclab::testing::CommandOutput o = synclab::testing::run_command(command);
        ASSERT_EQ(o.code, 0) << command << "\n" << o.out;
        const nlohmann::json j = nlohmann::json::parse(o.out);
        EXPECT_EQ(j["status"], c.status) << command << "\n" << j["message"];
        std::set<std::string> kinds;
        std::string found;
        for (const auto& f : j["findings"]) {
            kinds.insert(f["kind"].get<std::string>());
            found += "\n  " + f["kind"].get<std::string>() + ": " + f["message"].get<std::string>();
        }
        const std::set<std::string> expected(c.expect.begin(), c.expect.end());
        EXPECT_EQ(kinds, expected) << c.name << " (" << check << "): got"
                                   << (found.empty() ? " none" : found);
        if (!c.also.empty() && !c.expect.empty()) {
            bool shown = false;
            for (const auto& f : j["findings"])
                if (f["kind"] == c.expect.front())
                    shown = shown || f["space"] == c.also || f["hazard"] == c.also;
            EXPECT_TRUE(shown) << c.name << ": no '" << c.expect.front() << "' finding on/with '" << c.also
                               << "':" << found;
        }
        if (!c.at.empty() && !c.expect.empty()) {
            bool said = false;
            for (const auto& f : j["findings"])
                if (f["kind"] == c.expect.front())
                    said = said || f["message"].get<std::string>().find(c.at) != std::string::npos;
            EXPECT_TRUE(said) << c.name << ": no '" << c.expect.front() << "' finding says '" << c.at
                              << "':" << found;
        }
        // Every finding names CUDA source lines of this kernel's file (the .ptx names its .cu).
        for (const auto& f : j["findings"]) {
            if (f["kind"] != "deadlock") {
                EXPECT_FALSE(f["lines"].empty()) << c.name << ": a finding without lines" << found;
            }
        }
    }
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
    return info.param.name;
}

INSTANTIATE_TEST_SUITE_P(Kernels, Corpus, ::testing::ValuesIn(cases()), case_name);

// Comment lines (compiler build ids) and .b8 lines (path-dependent debug strings) aside, the kept PTX
// is what this nvcc makes of the .cu (scripts/update_corpus_ptx.sh refreshes it).
TEST(CorpusPtx, IsFresh) {
    const char* nvcc = "/usr/local/cuda/bin/nvcc";
    if (!fs::exists(nvcc)) GTEST_SKIP() << "no nvcc here";
    auto program = [](const std::string& text) {
        std::istringstream lines(text);
        std::string out;
        static const std::regex file_path(R"((\.file\s+\d+\s+")[^"\n]*/([^"/\n]+"))");
        for (std::string line; std::getline(lines, line);)
            if (!line.starts_with("//") && !line.starts_with(".b8 "))
                out += std::regex_replace(line, file_path, "$1$2") + "\n";
        return out;
    };
    const fs::path tmp = fs::temp_directory_path() / ("synclab-corpus-" + std::to_string(getpid()) + ".ptx");
    for (const Case& c : cases()) {
        const std::string command = std::string(nvcc) +
                                    " -ptx -lineinfo -O3 -arch=compute_75 -std=c++17 -diag-suppress 550 " +
                                    (kDir / (c.name + ".cu")).string() + " -o " + tmp.string();
        const synclab::testing::CommandOutput o = synclab::testing::run_command(command);
        ASSERT_EQ(o.code, 0) << command << "\n" << o.out;
        EXPECT_EQ(program(read(tmp)), program(read(kDir / (c.name + ".ptx"))))
            << c.name << ".ptx is stale: run scripts/update_corpus_ptx.sh";
    }
    fs::remove(tmp);
}

} // namespace
