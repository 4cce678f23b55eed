// The kernels of data/bounds.cu as runner jobs (issue 20), for the simulator's end-to-end test
// (bounds_e2e_test.cpp), the GPU test (analysis_gpu_test.cpp) and the GPU runner's tests over the
// simulator worker (tests/gpu/gpu_memory_map_test.cpp). The including target defines
// SYNCLAB_SOURCE_DIR.
#pragma once

#include "ptx/parser.h"
#include "runner/runner.h"

#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace synclab::analysis::testing {

struct BoundsKernels {
    std::string text; // data/bounds.ptx
    ptx::Module module;
};

inline const BoundsKernels& bounds_kernels() {
    static const BoundsKernels k = [] {
        BoundsKernels x;
        std::ifstream in(std::string(SYNCLAB_SOURCE_DIR) + "/tests/analysis/data/bounds.ptx");
        std::stringstream ss;
        ss << in.rdbuf();
        x.text = ss.str();
        x.module = ptx::parse_module(x.text, "bounds.ptx");
        return x;
    }();
    return k;
}

// Lines of data/bounds.cu: the accesses the findings name.
constexpr uint32_t kFarWriteLine = 12;    // write_far_past_the_end: a[i * 1024] = i
constexpr uint32_t kBeforeWriteLine = 20; // write_before_the_start: a[i - 1] = i
constexpr uint32_t kReadLine = 28;        // read_past_the_end: out[i] = a[i]
constexpr uint32_t kCopyLine = 37;        // copy_far_past_the_end: a[i * 1024] = in[i]
constexpr uint32_t kFarAwayLine = 46;     // write_far_away: a[i << 28] = int(i)

// `kernel` (its PTX name) over `grid` blocks of `block` threads, with zeroed int buffers named and
// sized by `buffers` (one pointer parameter each, in order) and the scalar `n` last when given.
inline runner::KernelJob bounds_job(const std::string& kernel, uint32_t grid, uint32_t block,
                                    std::vector<std::pair<std::string, size_t>> buffers, int64_t n = -1) {
    runner::KernelJob job;
    job.module = &bounds_kernels().module;
    job.ptx_text = bounds_kernels().text;
    job.source_name = "bounds.cu";
    job.kernel = kernel;
    job.launch.grid = {grid, 1, 1};
    job.launch.block = {block, 1, 1};
    job.make_inputs = [buffers, n](uint64_t) {
        scenario::Inputs inputs;
        for (size_t i = 0; i < buffers.size(); ++i) {
            launch::Buffer b;
            b.name = buffers[i].first;
            b.bytes.assign(buffers[i].second * 4, 0);
            b.type = launch::ElemType::I32;
            inputs.buffers.push_back(std::move(b));
            inputs.args.push_back(launch::KernelArg::pointer(uint32_t(i)));
        }
        if (n >= 0) inputs.args.push_back(launch::KernelArg::scalar(uint64_t(n)));
        return inputs;
    };
    return job;
}

// Issue 20's launch: thread i of 2 blocks of 64 writes a[i * 1024] into 16 ints.
inline runner::KernelJob far_write_job() {
    return bounds_job("_Z22write_far_past_the_endPi", 2, 64, {{"a", 16}});
}

// The out-of-bounds findings among `findings`.
inline std::vector<Finding> out_of_bounds(const std::vector<Finding>& findings) {
    std::vector<Finding> out;
    for (const Finding& f : findings)
        if (f.kind == FindingKind::OutOfBounds) out.push_back(f);
    return out;
}

} // namespace synclab::analysis::testing
