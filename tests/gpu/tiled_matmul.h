// The tiled matrix product of tests/gpu/data that the whole-block and trace-size tests run. The
// including target defines SYNCLAB_SOURCE_DIR.
#pragma once

#include "launch/launch.h"
#include "ptx/parser.h"
#include "runner/runner.h"

#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

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

// The product as a runner job at width x width (16 x 16 tiles), with its CPU check. A = (7i+s) % 7 - 3,
// B = (5i+3s) % 5 - 2 for seed s: small integers, so that every sum is exact in float.
inline std::vector<float> floats_of(const launch::Buffer& b) {
    std::vector<float> v(b.bytes.size() / 4);
    std::memcpy(v.data(), b.bytes.data(), b.bytes.size());
    return v;
}

inline launch::Buffer buffer_of(const std::string& name, const std::vector<float>& v) {
    launch::Buffer b{name, std::vector<uint8_t>(v.size() * 4)};
    std::memcpy(b.bytes.data(), v.data(), b.bytes.size());
    return b;
}

inline runner::KernelJob matmul_job(const std::string& kernel, uint32_t width) {
    runner::KernelJob job;
    job.module = &tiled_matmul().module;
    job.kernel = kernel;
    job.launch = {{width / 16, width / 16, 1}, {16, 16, 1}, 0};
    job.make_inputs = [width](uint64_t seed) {
        const uint64_t n = uint64_t(width) * width;
        std::vector<float> a(n), b(n);
        for (uint64_t i = 0; i < n; ++i) {
            a[i] = float((i * 7 + seed) % 7) - 3;
            b[i] = float((i * 5 + seed * 3) % 5) - 2;
        }
        scenario::Inputs in;
        in.buffers = {buffer_of("C", std::vector<float>(n, 0.0f)), buffer_of("A", a), buffer_of("B", b)};
        in.args = {launch::KernelArg::pointer(0), launch::KernelArg::pointer(1),
                   launch::KernelArg::pointer(2), launch::KernelArg::scalar(width),
                   launch::KernelArg::scalar(width)};
        return in;
    };
    job.check = [width](const scenario::Inputs& before, const std::vector<launch::Buffer>& after) {
        const std::vector<float> a = floats_of(before.buffers[1]), b = floats_of(before.buffers[2]);
        const std::vector<float> c = floats_of(after.at(0));
        scenario::CheckResult r;
        for (uint32_t i = 0; i < width; ++i)
            for (uint32_t j = 0; j < width; ++j) {
                float sum = 0;
                for (uint32_t k = 0; k < width; ++k)
                    sum += a[i * width + k] * b[k * width + j];
                ++r.checked;
                r.wrong += c[i * width + j] != sum ? 1 : 0;
            }
        r.summary = std::to_string(r.wrong) + " of " + std::to_string(r.checked) + " elements of C wrong";
        return r;
    };
    job.source_name = "tiled_matmul.cu";
    job.ptx_text = tiled_matmul().text;
    return job;
}

} // namespace synclab::gpu::testing
