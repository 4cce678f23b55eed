#include "sim/memory.h"

#include <algorithm>
#include <cstdio>

namespace synclab::sim {

uint64_t GlobalMemory::add(std::string name, uint8_t* data, uint64_t size, bool read_only) {
    const uint64_t base = next_base_;
    allocations_.push_back({std::move(name), base, data, size, read_only});
    // Keep 256-byte alignment like cudaMalloc, and a gap so overruns fault.
    next_base_ = (base + size + kGlobalGap + 255) & ~uint64_t(255);
    last_ = nullptr; // the vector may have moved
    return base;
}

Allocation* GlobalMemory::find_slow(uint64_t address, uint64_t size) {
    auto it = std::upper_bound(allocations_.begin(), allocations_.end(), address,
                               [](uint64_t a, const Allocation& alloc) { return a < alloc.base; });
    if (it == allocations_.begin()) return nullptr;
    --it;
    if (!holds(*it, address, size)) return nullptr;
    last_ = &*it;
    return last_;
}

std::string GlobalMemory::describe(uint64_t address) const {
    char buf[256];
    const Allocation* before = nullptr;
    for (const Allocation& a : allocations_) {
        if (address >= a.base && address < a.base + a.size) {
            std::snprintf(buf, sizeof buf, "byte %llu of %s (%llu bytes)",
                          static_cast<unsigned long long>(address - a.base), a.name.c_str(),
                          static_cast<unsigned long long>(a.size));
            return buf;
        }
        if (a.base <= address) before = &a;
    }
    if (before) {
        std::snprintf(buf, sizeof buf, "%llu bytes past the end of %s (%llu bytes)",
                      static_cast<unsigned long long>(address - (before->base + before->size)),
                      before->name.c_str(), static_cast<unsigned long long>(before->size));
        return buf;
    }
    std::snprintf(buf, sizeof buf, "not inside any buffer");
    return buf;
}

} // namespace synclab::sim
