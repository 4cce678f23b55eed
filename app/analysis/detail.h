// Internal helpers shared by the analyses (not part of the analysis contract; only app/analysis/*.cpp
// include this header).
#pragma once

#include "analysis/findings.h"

#include <cstdint>
#include <string>
#include <vector>

namespace synclab::analysis::detail {

constexpr uint32_t kNoThread = UINT32_MAX;

// "line 12" for a site with a CUDA source line, "PTX line 40" when only its PTX line is known,
// "an unknown line" for a site outside the site table.
std::string line_label(const trace::Trace& trace, uint32_t site);

// Appends line_of(site) to finding.lines and `site` to finding.sites unless that line is already
// listed (lines are deduplicated; sites keep the first site of each line).
void add_line(Finding& finding, const trace::Trace& trace, uint32_t site);

std::string hex(uint64_t value);            // "0x7c"
const char* space_name(trace::Space space); // "__shared__", "global", "local", "memory"

// "thread 5" or "threads 0-127" (ids are thread indices inside a block, or lanes with noun "lane").
std::string noun_list(const char* noun, const std::vector<uint32_t>& ids);

// How a group of threads of one block ended, e.g. "threads 0-127 wait at line 12",
// "thread 7 exited", "threads 32-63 were still running at line 20". `ids` are thread_in_block.
std::string describe_end(const trace::Trace& trace, trace::ThreadEnd end, uint32_t end_site,
                         const std::vector<uint32_t>& ids);

// Orders findings of one kind (by lines, then sites, then hazard; ties keep discovery order) and
// keeps the first `max`.
void sort_and_cap(std::vector<Finding>& findings, uint32_t max);

// The thread table by block: trace thread index of (block, thread_in_block).
class BlockTable {
  public:
    explicit BlockTable(const trace::Trace& trace);

    uint32_t block_count() const { return static_cast<uint32_t>(threads_.size()); }
    // Threads of `block` in the table.
    uint32_t size(uint32_t block) const { return block < sizes_.size() ? sizes_[block] : 0; }
    // Local id space of `block`: its largest thread_in_block + 1.
    uint32_t width(uint32_t block) const {
        return block < threads_.size() ? static_cast<uint32_t>(threads_[block].size()) : 0;
    }
    // Trace thread index, or kNoThread when the table has no such thread.
    uint32_t global(uint32_t block, uint32_t local) const {
        return block < threads_.size() && local < threads_[block].size() ? threads_[block][local] : kNoThread;
    }

  private:
    std::vector<std::vector<uint32_t>> threads_;
    std::vector<uint32_t> sizes_;
};

} // namespace synclab::analysis::detail
