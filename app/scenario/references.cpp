// The built-in lessons' C++ references. Each recomputes the correct kernel's result on the CPU from
// the inputs, the way the lesson's text describes it, so that the correct variant is checked
// independently of the kernels. Tile sizes come from the launch (one element per thread of a block).
#include "scenario/references.h"

#include "scenario_util.h"

#include <algorithm>
#include <cmath>

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

// [SECTION] atomic_counter: one total from every thread. The sum variants leave the grid's sum of
// g_in in g_sum[0] (whole numbers below 2^24: exact in any order) and g_count, g_ticket as they
// were; int_ticket leaves g_sum as it was, g_count[0] = its start + one per thread, and in g_ticket
// the tickets start .. start + threads - 1, each once (which thread got which is the schedule's
// business: the check is on the multiset, which a lost or doubled increment always breaks). Which
// kind of run it was is read from g_count: a run that changed it took tickets.
CheckResult check_atomic_counter(const launch::LaunchConfig& launch, const Inputs& before,
                                 const std::vector<launch::Buffer>& after) {
    const uint64_t threads = launch.grid.count() * launch.block.count();
    const std::vector<float> in = input_values<float>(before, "g_in");
    std::vector<float> sum = input_values<float>(before, "g_sum");
    std::vector<uint32_t> count = input_values<uint32_t>(before, "g_count");
    const std::vector<uint32_t> tickets_before = input_values<uint32_t>(before, "g_ticket");
    const launch::Buffer* got_count = result_buffer(before, after, "g_count");
    const launch::Buffer* got_tickets = result_buffer(before, after, "g_ticket");
    const std::vector<uint32_t> count_after =
        got_count ? detail::read_buffer<uint32_t>(*got_count) : std::vector<uint32_t>{};
    const bool took_tickets = !count.empty() && !count_after.empty() && count_after[0] != count[0];
    if (!took_tickets) {
        double total = 0;
        for (uint64_t i = 0; i < threads && i < in.size(); ++i)
            total += in[i];
        if (!sum.empty()) sum[0] += static_cast<float>(total);
        CheckResult a = compare_with_cpu(sum, result_buffer(before, after, "g_sum"), "g_sum");
        const CheckResult b = compare_with_cpu(count, got_count, "g_count");
        const CheckResult c = compare_with_cpu(tickets_before, got_tickets, "g_ticket");
        a.summary = "g_sum: " + a.summary + (b.wrong + c.wrong ? "; g_count or g_ticket changed" : "");
        a.wrong += b.wrong + c.wrong;
        a.checked += b.checked + c.checked;
        for (const CheckResult* guard : {&b, &c})
            for (ExpectedOutput e : guard->expected) {
                e.guard = true;
                a.expected.push_back(std::move(e));
            }
        return a;
    }
    CheckResult result = compare_with_cpu(sum, result_buffer(before, after, "g_sum"), "g_sum");
    for (ExpectedOutput& e : result.expected)
        e.guard = true; // a ticket run leaves the sum alone; its result is the count
    const uint32_t start = count[0];
    const uint64_t total = uint64_t(count_after[0] - start);
    result.checked += 1 + threads;
    if (total != threads) ++result.wrong;
    // have[v]: how many threads hold ticket start + v (each of 0 .. total - 1 exactly once).
    std::vector<uint64_t> have(threads, 0);
    const std::vector<uint32_t> tickets =
        got_tickets ? detail::read_buffer<uint32_t>(*got_tickets) : std::vector<uint32_t>{};
    uint64_t unmatched = 0;
    for (uint64_t i = 0; i < threads; ++i) {
        const uint64_t v = i < tickets.size() ? uint64_t(uint32_t(tickets[i] - start)) : threads;
        if (v >= std::min(threads, total) || ++have[v] > 1) ++unmatched;
    }
    result.wrong += unmatched;
    ExpectedOutput& right_count = result.expected.emplace_back();
    right_count.name = "g_count";
    right_count.type = ElemType::U32;
    const uint32_t right_total = start + static_cast<uint32_t>(threads);
    right_count.bytes.resize(sizeof right_total);
    std::memcpy(right_count.bytes.data(), &right_total, sizeof right_total);
    result.summary = "g_count = " + std::to_string(count_after[0]) + ", expected " + std::to_string(start + threads) +
                     "; " +
                     (unmatched == 0 ? "every ticket once"
                                     : std::to_string(unmatched) + " of " + std::to_string(threads) +
                                           " tickets doubled or out of range");
    return result;
}

// [SECTION] histogram: g_hist[b] = how many of the first n values of g_data fall in bin b (value %
// bins, bins the size of g_hist); n is the kernel's scalar argument (the lesson's parameter items:
// g_data may hold more values than a run counts).
CheckResult check_histogram(const launch::LaunchConfig&, const Inputs& before,
                            const std::vector<launch::Buffer>& after) {
    std::vector<uint32_t> expected = input_values<uint32_t>(before, "g_hist");
    const std::vector<uint32_t> data = input_values<uint32_t>(before, "g_data");
    uint64_t n = data.size();
    for (const launch::KernelArg& a : before.args)
        if (a.kind == launch::KernelArg::Kind::Scalar) {
            n = std::min<uint64_t>(n, static_cast<uint32_t>(a.bits));
            break;
        }
    if (!expected.empty())
        for (uint64_t i = 0; i < n; ++i)
            ++expected[data[i] % expected.size()];
    return compare_with_cpu(expected, result_buffer(before, after, "g_hist"), "g_hist");
}

// [SECTION] cas_loop: slot s sums g_in[i] for every i % slots == s (slots: the size of g_sum), with
// element *g_nan_at read as NaN. A variant adds into g_sum (float) or into g_dsum (double) and
// leaves the other at 0; the sums are whole numbers, exact in either type whatever the order. A
// NaN is right where a NaN is expected, whatever its bits (the GPU writes its canonical NaN, a
// CPU keeps the input's).
template <typename T> void nan_as_expected(const std::vector<T>& expected, launch::Buffer& got) {
    for (size_t i = 0; i < expected.size() && (i + 1) * sizeof(T) <= got.bytes.size(); ++i) {
        T value;
        std::memcpy(&value, got.bytes.data() + i * sizeof(T), sizeof(T));
        if (std::isnan(value) && std::isnan(expected[i]))
            std::memcpy(got.bytes.data() + i * sizeof(T), &expected[i], sizeof(T));
    }
}

CheckResult check_cas_loop(const launch::LaunchConfig&, const Inputs& before,
                           const std::vector<launch::Buffer>& after) {
    const std::vector<float> in = input_values<float>(before, "g_in");
    const std::vector<uint32_t> nan_at = input_values<uint32_t>(before, "g_nan_at");
    std::vector<float> sum = input_values<float>(before, "g_sum");
    std::vector<double> dsum = input_values<double>(before, "g_dsum");
    const size_t slots = sum.size();
    std::vector<double> exact(slots, 0.0);
    for (size_t i = 0; i < in.size() && slots > 0; ++i)
        exact[i % slots] += (!nan_at.empty() && i == nan_at[0]) ? std::nan("") : double(in[i]);
    // Which accumulator the variant used: the one holding anything but its start values.
    const launch::Buffer* got_d = result_buffer(before, after, "g_dsum");
    const bool used_double = got_d && got_d->bytes != before.buffers[detail::buffer_index(before, "g_dsum")].bytes;
    for (size_t s = 0; s < slots; ++s) {
        if (used_double && s < dsum.size())
            dsum[s] += exact[s];
        else
            sum[s] += static_cast<float>(exact[s]);
    }
    const launch::Buffer* got_s = result_buffer(before, after, "g_sum");
    if (got_s == nullptr || got_d == nullptr) return compare_with_cpu(sum, nullptr, "g_sum");
    launch::Buffer got_sum = *got_s, got_dsum = *got_d;
    nan_as_expected(sum, got_sum);
    nan_as_expected(dsum, got_dsum);
    CheckResult a = compare_with_cpu(sum, &got_sum, "g_sum");
    const CheckResult b = compare_with_cpu(dsum, &got_dsum, "g_dsum");
    a.summary = "g_sum: " + a.summary + "; g_dsum: " + b.summary;
    a.wrong += b.wrong;
    a.checked += b.checked;
    a.expected.insert(a.expected.end(), b.expected.begin(), b.expected.end());
    return a;
}

// [SECTION] atomic_ops: per block, the table's operations applied by every thread of the block to
// its value of g_in, computed here one after another as the CUDA Programming Guide defines them.
// g_out[block * 11 + op]: add, sub, min, max, exch (the values returned plus the value left: the
// sum of the inputs), cas (the number of threads whose compare found 0: 1), and, or, xor, inc and
// dec with limit 99. Starting values: 0, except min and and (all ones).
CheckResult check_atomic_ops(const launch::LaunchConfig& launch, const Inputs& before,
                             const std::vector<launch::Buffer>& after) {
    constexpr size_t kOps = 11;
    constexpr uint32_t kLimit = 99;
    const std::vector<uint32_t> in = input_values<uint32_t>(before, "g_in");
    std::vector<uint32_t> expected(input_values<uint32_t>(before, "g_out").size(), 0);
    const size_t tile = launch.block.count();
    for (size_t b = 0; (b + 1) * kOps <= expected.size(); ++b) {
        uint32_t add = 0, sub = 0, mn = 0xffffffffu, mx = 0, exch_sum = 0, an = 0xffffffffu, orr = 0, xr = 0,
                 inc = 0, dec = 0;
        for (size_t t = 0; t < tile && b * tile + t < in.size(); ++t) {
            const uint32_t x = in[b * tile + t];
            add += x;
            sub -= x;
            mn = std::min(mn, x);
            mx = std::max(mx, x);
            exch_sum += x;
            an &= x;
            orr |= x;
            xr ^= x;
            inc = inc >= kLimit ? 0 : inc + 1;
            dec = (dec == 0 || dec > kLimit) ? kLimit : dec - 1;
        }
        const uint32_t row[kOps] = {add, sub, mn, mx, exch_sum, 1u, an, orr, xr, inc, dec};
        std::copy(row, row + kOps, expected.begin() + static_cast<std::ptrdiff_t>(b * kOps));
    }
    return compare_with_cpu(expected, result_buffer(before, after, "g_out"), "g_out");
}


// [SECTION] warp_reduce (also cg_tiles): g_out[k] = the sum of the k-th run of `group`
// consecutive values of g_in, where group = size(g_in) / size(g_out) (32 for a warp, 16 for a tile
// of 16). i32 sums wrap as the kernels' do (computed in u32, where wrapping is defined).
CheckResult check_group_sums(const launch::LaunchConfig&, const Inputs& before,
                             const std::vector<launch::Buffer>& after) {
    const std::vector<int32_t> in = input_values<int32_t>(before, "g_in");
    std::vector<int32_t> expected(input_values<int32_t>(before, "g_out").size(), 0);
    const size_t group = expected.empty() ? 0 : in.size() / expected.size();
    for (size_t k = 0; k < expected.size(); ++k) {
        uint32_t sum = 0;
        for (size_t j = 0; j < group; ++j)
            sum += static_cast<uint32_t>(in[k * group + j]);
        expected[k] = static_cast<int32_t>(sum);
    }
    return compare_with_cpu(expected, result_buffer(before, after, "g_out"), "g_out");
}

// [SECTION] warp_neighbour: g_out[i] = g_in[i ^ 1], the value of the neighbouring lane
// (an odd count leaves the last element's partner outside: it expects 0, never written).
CheckResult check_pair_swap(const launch::LaunchConfig&, const Inputs& before,
                            const std::vector<launch::Buffer>& after) {
    const std::vector<int32_t> in = input_values<int32_t>(before, "g_in");
    std::vector<int32_t> expected(input_values<int32_t>(before, "g_out").size(), 0);
    for (size_t i = 0; i < expected.size(); ++i)
        expected[i] = (i ^ 1) < in.size() ? in[i ^ 1] : 0;
    return compare_with_cpu(expected, result_buffer(before, after, "g_out"), "g_out");
}

// [SECTION] syncthreads_predicates: per block of the launch, over its threads' values of g_in, the
// number of odd values (g_count), whether none is 0 (g_all: 1 or 0) and whether one is (g_any);
// every thread of the block holds its block's value. A variant writes one of the three buffers;
// the others keep their start values, and are checked to. A run that wrote none is wrong in every
// element: nothing was computed.
CheckResult check_syncthreads_predicates(const launch::LaunchConfig& launch, const Inputs& before,
                                         const std::vector<launch::Buffer>& after) {
    const std::vector<int32_t> in = input_values<int32_t>(before, "g_in");
    const size_t tile = launch.block.count();
    const char* names[3] = {"g_count", "g_all", "g_any"};
    std::vector<int32_t> results[3];
    for (size_t k = 0; k < 3; ++k)
        results[k] = input_values<int32_t>(before, names[k]); // the start values, kept if not written
    size_t written = 0;
    for (size_t k = 0; k < 3; ++k) {
        const launch::Buffer* got = result_buffer(before, after, names[k]);
        const size_t at = detail::buffer_index(before, names[k]);
        if (got == nullptr || at >= before.buffers.size() || got->bytes == before.buffers[at].bytes) continue;
        ++written;
        for (size_t first = 0; first < results[k].size(); first += tile) {
            const size_t end = std::min(first + tile, std::min(results[k].size(), in.size()));
            int32_t odd = 0, zeros = 0;
            for (size_t i = first; i < end; ++i) {
                odd += in[i] % 2 != 0 ? 1 : 0;
                zeros += in[i] == 0 ? 1 : 0;
            }
            const int32_t value = k == 0 ? odd : k == 1 ? (zeros == 0 ? 1 : 0) : (zeros > 0 ? 1 : 0);
            std::fill(results[k].begin() + static_cast<std::ptrdiff_t>(first),
                      results[k].begin() + static_cast<std::ptrdiff_t>(first + (end - first)), value);
        }
    }
    CheckResult all;
    std::string summary;
    for (size_t k = 0; k < 3; ++k) {
        const CheckResult one = compare_with_cpu(results[k], result_buffer(before, after, names[k]), names[k]);
        all.wrong += written == 0 ? one.checked : one.wrong;
        all.checked += one.checked;
        all.expected.insert(all.expected.end(), one.expected.begin(), one.expected.end());
        summary += std::string(k ? "; " : "") + names[k] + ": " + one.summary;
    }
    all.summary = written == 0 ? "no result buffer was written (" + summary + ")" : summary;
    return all;
}

// [SECTION] grid_sync: g_out[i] = 2 g_in[i] + 2 g_in[(i + blockDim.x) % n], n = the elements (phase 1
// doubles, phase 2 adds the element a block further on, written by another block).
CheckResult check_grid_sync(const launch::LaunchConfig& launch, const Inputs& before,
                            const std::vector<launch::Buffer>& after) {
    const std::vector<float> in = input_values<float>(before, "g_in");
    const size_t n = in.size(), step = launch.block.x;
    std::vector<float> expected(n);
    for (size_t i = 0; i < n; ++i)
        expected[i] = 2.0f * in[i] + 2.0f * in[(i + step) % n];
    return compare_with_cpu(expected, result_buffer(before, after, "g_out"), "g_out");
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
        {"atomic_counter",
         "g_sum[0] = the sum of g_in (the sum variants), or g_count = one per thread and g_ticket its "
         "tickets once each (int_ticket); the other outputs keep their start values",
         {{"g_in", ElemType::F32},
          {"g_sum", ElemType::F32, true},
          {"g_count", ElemType::U32, true},
          {"g_ticket", ElemType::U32, true}},
         false,
         check_atomic_counter},
        {"histogram",
         "g_hist[b] = how many of the first n values of g_data are b modulo the number of bins",
         {{"g_data", ElemType::U32}, {"g_hist", ElemType::U32, true}},
         false,
         check_histogram},
        {"cas_loop",
         "slot s of g_sum (float) or of g_dsum (double) = the sum of g_in[i] with i % slots == s, "
         "g_in[*g_nan_at] read as NaN; the other accumulator stays 0",
         {{"g_in", ElemType::F32},
          {"g_nan_at", ElemType::U32},
          {"g_sum", ElemType::F32, true},
          {"g_dsum", ElemType::F64, true}},
         false,
         check_cas_loop},
        {"atomic_ops",
         "g_out[block * 11 + op]: add, sub, min, max, exch, cas, and, or, xor, inc, dec of the block's "
         "values of g_in, as CUDA defines them",
         {{"g_in", ElemType::U32}, {"g_out", ElemType::U32, true}},
         false,
         check_atomic_ops},
        {"warp_reduce",
         "g_out[k] = the sum of the k-th group of size(g_in) / size(g_out) consecutive values of g_in (a "
         "warp's 32, a tile's 16)",
         {{"g_in", ElemType::I32}, {"g_out", ElemType::I32, true}},
         false,
         check_group_sums},
        {"warp_neighbour",
         "g_out[i] = g_in[i ^ 1], the value of the neighbouring lane",
         {{"g_in", ElemType::I32}, {"g_out", ElemType::I32, true}},
         false,
         check_pair_swap},
        {"syncthreads_predicates",
         "every thread of block b holds b's count of odd g_in values (g_count), whether none is 0 (g_all) "
         "or whether one is (g_any); the buffers a variant does not write keep their start values",
         {{"g_in", ElemType::I32},
          {"g_count", ElemType::I32, true},
          {"g_all", ElemType::I32, true},
          {"g_any", ElemType::I32, true}},
         false,
         check_syncthreads_predicates},
        {"grid_sync",
         "g_out[i] = 2 g_in[i] + 2 g_in[(i + blockDim.x) % n]: phase 2 reads what another block wrote in phase 1",
         {{"g_in", ElemType::F32}, {"g_out", ElemType::F32, true}},
         true,
         check_grid_sync},
    };
    return all;
}

const Reference* find_reference(std::string_view name) {
    for (const Reference& r : references())
        if (r.name == name) return &r;
    return nullptr;
}

std::function<CheckResult(const Inputs&, const std::vector<launch::Buffer>&)>
bind_reference(const Reference& reference, const launch::LaunchConfig& launch) {
    return [r = &reference, launch](const Inputs& before, const std::vector<launch::Buffer>& after) {
        return r->check(launch, before, after);
    };
}

} // namespace synclab::scenario
