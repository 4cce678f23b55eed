// C++ references, registered by name (a lesson file's `reference = "stencil"`): each computes the
// right outputs from the inputs on the CPU, independently of the kernels, and counts the wrong ones.
// Lessons without special checking use `reference = "rr:VARIANT"` instead and need nothing here.
#pragma once

#include "launch/launch.h"
#include "scenario/scenario.h"

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace synclab::scenario {

// A buffer the reference reads or checks, found in the inputs by name; the lesson must declare it
// with this element type, and list exactly the checked ones as its `outputs`.
struct ReferenceBuffer {
    std::string_view name;
    launch::ElemType type;
    bool checked = false;
};

struct Reference {
    std::string_view name;
    std::string_view what; // one line: what it checks
    std::vector<ReferenceBuffer> buffers;
    bool one_dimensional_blocks = false; // it reads a block's tile as blockDim.x elements
    CheckResult (*check)(const launch::LaunchConfig& launch, const Inputs& before,
                         const std::vector<launch::Buffer>& after);
};

const std::vector<Reference>& references();
const Reference* find_reference(std::string_view name);

// The Scenario::check that runs `reference` for a launch of this shape (the reference counts the
// launch's threads and blocks, so a parameter that changes the grid binds it again).
std::function<CheckResult(const Inputs&, const std::vector<launch::Buffer>&)>
bind_reference(const Reference& reference, const launch::LaunchConfig& launch);

} // namespace synclab::scenario
