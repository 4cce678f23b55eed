// Helpers shared by the simulator's tests: the committed test kernels, buffers, launch shapes.
#pragma once

#include "ptx/parser.h"
#include "sim/simulator.h"

#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace synclab::sim::testing {

// tests/sim/data/<name>.ptx, parsed once per process.
inline ptx::Module load_module(const std::string& name) {
    const std::string path = std::string(SYNCLAB_SOURCE_DIR) + "/tests/sim/data/" + name + ".ptx";
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ptx::parse_module(ss.str(), name + ".ptx");
}

// The 1-based line of the first line of tests/sim/data/<file> that contains `text` after the line
// that contains `after` (0 when there is none): where a test expects a message to point.
inline uint32_t source_line(const std::string& file, const std::string& after, const std::string& text) {
    std::ifstream in(std::string(SYNCLAB_SOURCE_DIR) + "/tests/sim/data/" + file);
    std::string line;
    bool seen = after.empty();
    for (uint32_t n = 1; std::getline(in, line); ++n) {
        if (!seen) {
            seen = line.find(after) != std::string::npos;
            continue;
        }
        if (line.find(text) != std::string::npos) return n;
    }
    return 0;
}

template <class T> Buffer make_buffer(const std::string& name, const std::vector<T>& values) {
    Buffer b;
    b.name = name;
    b.bytes.resize(values.size() * sizeof(T));
    std::memcpy(b.bytes.data(), values.data(), b.bytes.size());
    return b;
}

template <class T> std::vector<T> values_of(const Buffer& b) {
    std::vector<T> v(b.bytes.size() / sizeof(T));
    std::memcpy(v.data(), b.bytes.data(), b.bytes.size());
    return v;
}

inline LaunchConfig launch(Dim3 grid, Dim3 block, uint32_t shared = 0) {
    LaunchConfig l;
    l.grid = grid;
    l.block = block;
    l.dynamic_shared_bytes = shared;
    return l;
}

inline Options with_schedule(Schedule s, uint64_t seed = 1) {
    Options o;
    o.schedule = s;
    o.seed = seed;
    return o;
}

inline constexpr Schedule kSchedules[] = {Schedule::RoundRobin, Schedule::Random, Schedule::Adversarial};

inline bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

} // namespace synclab::sim::testing
