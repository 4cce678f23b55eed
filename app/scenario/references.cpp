// The built-in lessons' C++ references. Each recomputes the correct kernel's result on the CPU from
// the inputs, the way the lesson's text describes it, so that the correct variant is checked
// independently of the kernels. Tile sizes come from the launch (one element per thread of a block).
#include "scenario/references.h"

#include "scenario_util.h"

namespace synclab::scenario {
namespace {

using detail::compare_with_cpu;
using detail::input_values;
using detail::result_buffer;
using launch::ElemType;

// [SECTION] stencil: out[i] = left + centre + right inside each block; a neighbour outside the block
// reads 0 (summed in the kernel's order: (left + centre) + right).
CheckResult check_stencil(const launch::LaunchConfig& launch, const Inputs& before,
                          const std::vector<launch::Buffer>& after) {
    const size_t tile = launch.block.x;
    const std::vector<float> in = input_values<float>(before, "g_in");
    std::vector<float> expected(in.size());
    for (size_t i = 0; i < in.size(); ++i) {
        const size_t t = i % tile;
        const float left = t > 0 ? in[i - 1] : 0.0f;
        const float right = (t + 1 < tile && i + 1 < in.size()) ? in[i + 1] : 0.0f;
        expected[i] = (left + in[i]) + right;
    }
    return compare_with_cpu(expected, result_buffer(before, after, "g_out"), "g_out");
}

// [SECTION] divergent_barrier: block b rotates its tile by shift = 64 * b (mod the tile),
// s_rot[t] = in[(t + shift) % tile], then writes it out reversed, out[t] = s_rot[tile - 1 - t].
CheckResult check_divergent_barrier(const launch::LaunchConfig& launch, const Inputs& before,
                                    const std::vector<launch::Buffer>& after) {
    const size_t tile = launch.block.x;
    const std::vector<int32_t> in = input_values<int32_t>(before, "g_in");
    std::vector<int32_t> expected(in.size());
    for (size_t i = 0; i < in.size(); ++i) {
        const size_t block = i / tile, t = i % tile, base = block * tile;
        const size_t shift = (64 * block) % tile;
        const size_t source = base + (tile - 1 - t + shift) % tile;
        expected[i] = source < in.size() ? in[source] : 0;
    }
    return compare_with_cpu(expected, result_buffer(before, after, "g_out"), "g_out");
}

// [SECTION] loop_barrier: thread t of a block gets the sum of the list of its partner p = tile - 1 - t
// (g_len[p] items, item k at g_items[k * n + p]).
CheckResult check_loop_barrier(const launch::LaunchConfig& launch, const Inputs& before,
                               const std::vector<launch::Buffer>& after) {
    const size_t tile = launch.block.x;
    const std::vector<int32_t> len = input_values<int32_t>(before, "g_len");
    const std::vector<int32_t> items = input_values<int32_t>(before, "g_items");
    const size_t n = len.size();
    std::vector<int32_t> expected(n, 0);
    for (size_t i = 0; i < n; ++i) {
        const size_t partner = (i / tile) * tile + (tile - 1 - i % tile);
        if (partner >= n) continue;
        for (int32_t k = 0; k < len[partner]; ++k) {
            const size_t index = size_t(k) * n + partner;
            expected[i] += index < items.size() ? items[index] : 0;
        }
    }
    return compare_with_cpu(expected, result_buffer(before, after, "g_out"), "g_out");
}

// A single right value, checked (the counter of lost_update, the total of last_block_reduction).
CheckResult check_one_value(const Inputs& before, const std::vector<launch::Buffer>& after,
                            const char* name, const char* what, uint32_t expected) {
    CheckResult result;
    result.checked = 1;
    ExpectedOutput& right = result.expected.emplace_back();
    right.name = name;
    right.type = ElemType::U32;
    right.bytes.resize(sizeof expected);
    std::memcpy(right.bytes.data(), &expected, sizeof expected);
    const launch::Buffer* buffer = result_buffer(before, after, name);
    const std::vector<uint32_t> got =
        buffer ? detail::read_buffer<uint32_t>(*buffer) : std::vector<uint32_t>{};
    if (got.empty()) {
        result.wrong = 1;
        result.summary = std::string(what) + " missing, expected " + std::to_string(expected);
        return result;
    }
    result.wrong = got[0] == expected ? 0 : 1;
    result.summary = std::string(what) + " = " + std::to_string(got[0]) + ", expected " + std::to_string(expected);
    return result;
}

// [SECTION] lost_update: the counter's start value plus one per thread of the launch.
CheckResult check_lost_update(const launch::LaunchConfig& launch, const Inputs& before,
                              const std::vector<launch::Buffer>& after) {
    const std::vector<uint32_t> start = input_values<uint32_t>(before, "g_counter");
    const uint32_t expected =
        (start.empty() ? 0u : start[0]) + static_cast<uint32_t>(launch.grid.count() * launch.block.count());
    return check_one_value(before, after, "g_counter", "counter", expected);
}

// [SECTION] message_passing (also fence_scope): blocks 2p and 2p + 1 are pair p; the reader of each
// pair records (flag seen, data seen) in g_out[2p], g_out[2p + 1], and the only right record is
// (1, 1): it waited for the flag, so it must see the data. Elements past the last pair's record are
// never written and stay 0.
CheckResult check_message_passing(const launch::LaunchConfig& launch, const Inputs& before,
                                  const std::vector<launch::Buffer>& after) {
    const size_t count = input_values<uint32_t>(before, "g_out").size();
    const size_t records = 2 * static_cast<size_t>(launch.grid.count() / 2);
    std::vector<uint32_t> expected(count, 0);
    for (size_t i = 0; i < count && i < records; ++i)
        expected[i] = 1;
    return compare_with_cpu(expected, result_buffer(before, after, "g_out"), "g_out");
}

// [SECTION] last_block_reduction: the total of every input, whatever the blocks' order (u32 sums wrap
// as the kernel's do).
CheckResult check_last_block_reduction(const launch::LaunchConfig&, const Inputs& before,
                                       const std::vector<launch::Buffer>& after) {
    uint32_t total = 0;
    for (uint32_t v : input_values<uint32_t>(before, "g_in"))
        total += v;
    return check_one_value(before, after, "g_total", "total", total);
}

} // namespace

const std::vector<Reference>& references() {
    static const std::vector<Reference> all = {
        {"stencil",
         "g_out[i] = left + centre + right of g_in inside each block",
         {{"g_in", ElemType::F32}, {"g_out", ElemType::F32, true}},
         true,
         check_stencil},
        {"divergent_barrier",
         "each block's tile of g_in rotated by 64 x blockIdx.x, written to g_out reversed",
         {{"g_in", ElemType::I32}, {"g_out", ElemType::I32, true}},
         true,
         check_divergent_barrier},
        {"loop_barrier",
         "g_out[t] = the sum of the list (g_len, g_items) of the partner thread on the other side of the "
         "block",
         {{"g_len", ElemType::I32}, {"g_items", ElemType::I32}, {"g_out", ElemType::I32, true}},
         true,
         check_loop_barrier},
        {"lost_update",
         "g_counter = its start value + one per thread of the launch",
         {{"g_counter", ElemType::U32, true}},
         false,
         check_lost_update},
        {"message_passing",
         "every reader's record (flag seen, data seen) in g_out is (1, 1): blocks 2p and 2p + 1 are pair p",
         {{"g_out", ElemType::U32, true}},
         false,
         check_message_passing},
        {"last_block_reduction",
         "g_total = the sum of g_in",
         {{"g_in", ElemType::U32}, {"g_total", ElemType::U32, true}},
         false,
         check_last_block_reduction},
    };
    return all;
}

const Reference* find_reference(std::string_view name) {
    for (const Reference& r : references())
        if (r.name == name) return &r;
    return nullptr;
}

} // namespace synclab::scenario
