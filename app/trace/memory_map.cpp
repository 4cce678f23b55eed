#include "trace/memory_map.h"

#include "trace/trace.h"

#include <algorithm>
#include <tuple>

namespace synclab::trace {

namespace {

bool before(const MemoryRegion& a, Space space, uint64_t base) {
    return std::make_tuple(uint8_t(a.space), a.base) < std::make_tuple(uint8_t(space), base);
}

} // namespace

bool MemoryMap::add(MemoryRegion region) {
    if (region.name.empty() || region.bytes == 0) return false;
    if (region.space != Space::Global && region.space != Space::Shared) return false;
    if (region.base + region.bytes < region.base) return false; // wraps around the address space
    const auto at = std::lower_bound(
        regions_.begin(), regions_.end(), region,
        [](const MemoryRegion& a, const MemoryRegion& b) { return before(a, b.space, b.base); });
    if (at != regions_.end() && at->space == region.space && at->base < region.base + region.bytes)
        return false;
    if (at != regions_.begin()) {
        const MemoryRegion& previous = *(at - 1);
        if (previous.space == region.space && previous.base + previous.bytes > region.base) return false;
    }
    regions_.insert(at, std::move(region));
    return true;
}

const MemoryRegion* MemoryMap::find(Space space, uint64_t address) const {
    // The last region that starts at or before `address` in its space.
    auto at = std::upper_bound(regions_.begin(), regions_.end(), std::make_pair(space, address),
                               [](const std::pair<Space, uint64_t>& key, const MemoryRegion& r) {
                                   return std::make_tuple(uint8_t(key.first), key.second) <
                                          std::make_tuple(uint8_t(r.space), r.base);
                               });
    if (at == regions_.begin()) return nullptr;
    --at;
    return at->space == space && at->contains(address) ? &*at : nullptr;
}

} // namespace synclab::trace
