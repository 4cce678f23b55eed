// The tiled matrix product of tests/gpu/data that the whole-block and trace-size tests run. The
// including target defines SYNCLAB_SOURCE_DIR.
#pragma once

#include "ptx/parser.h"

#include <fstream>
#include <iterator>
#include <string>

namespace synclab::gpu::testing {

// The tiled matrix product (a public sample's shape): the correct kernel and its twin without the
// barrier after the tile loads. Names are found by that difference, not spelled out mangled.
struct MatMul {
    ptx::Module module;
    std::string text, correct, racy;
};

inline const MatMul& tiled_matmul() {
    static const MatMul m = [] {
        MatMul x;
        std::ifstream in(std::string(SYNCLAB_SOURCE_DIR) + "/tests/gpu/data/tiled_matmul.ptx");
        x.text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
        x.module = ptx::parse_module(x.text, "tiled_matmul.ptx");
        for (const std::string& n : x.module.entry_names())
            (n.find("NoLoadBarrier") != std::string::npos ? x.racy : x.correct) = n;
        return x;
    }();
    return m;
}

} // namespace synclab::gpu::testing
