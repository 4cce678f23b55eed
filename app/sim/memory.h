// The simulator's address spaces.
//
// Global memory is the caller's host buffers (plus the module's .global/.const variables), each placed
// at its own device address with unmapped gaps between them, so that an out-of-bounds access hits a
// gap and is reported instead of silently landing in a neighbour. Shared memory is a per-block byte
// array; local memory a per-thread frame. Generic addresses (what cvta produces) map the shared and
// local windows at fixed high bases, as the hardware's generic address space does.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace synclab::sim {

constexpr uint64_t kGlobalBase = 0x0000'0010'0000'0000ull;   // first global allocation
constexpr uint64_t kGlobalGap = 0x10000;                     // unmapped bytes between allocations
constexpr uint64_t kSharedWindow = 0x0000'7f00'0000'0000ull; // generic address of shared offset 0
constexpr uint64_t kLocalWindow = 0x0000'7e00'0000'0000ull;  // generic address of local offset 0
constexpr uint64_t kWindowSize = 0x0000'0001'0000'0000ull;   // size of each generic window

// One global allocation: a caller buffer or a module variable.
struct Allocation {
    std::string name;
    uint64_t base = 0;
    uint8_t* data = nullptr;
    uint64_t size = 0;
    bool read_only = false;
};

class GlobalMemory {
  public:
    // Adds an allocation of `size` bytes backed by `data` (which must outlive this object) and
    // returns its device address.
    uint64_t add(std::string name, uint8_t* data, uint64_t size, bool read_only = false);

    // The allocation holding [address, address + size), or nullptr. (Written so that no sum can
    // wrap: a kernel may compute any 64-bit address.)
    Allocation* find(uint64_t address, uint64_t size) {
        if (last_ && holds(*last_, address, size)) return last_;
        return find_slow(address, size);
    }
    static bool holds(const Allocation& a, uint64_t address, uint64_t size) {
        return address >= a.base && size <= a.size && address - a.base <= a.size - size;
    }

    // The allocation the last successful find() returned (nullptr before the first): most warps
    // touch one allocation, so checking against it first avoids a search per lane.
    Allocation* last_found() const { return last_; }

    // Describes where `address` falls, for error messages ("2 bytes past the end of g_out").
    std::string describe(uint64_t address) const;

  private:
    Allocation* find_slow(uint64_t address, uint64_t size);
    std::vector<Allocation> allocations_; // sorted by base (bases only increase)
    uint64_t next_base_ = kGlobalBase;
    Allocation* last_ = nullptr;
};

inline uint64_t load_bytes(const uint8_t* p, uint32_t size) {
    switch (size) {
    case 1:
        return p[0];
    case 2: {
        uint16_t v;
        std::memcpy(&v, p, 2);
        return v;
    }
    case 4: {
        uint32_t v;
        std::memcpy(&v, p, 4);
        return v;
    }
    default: {
        uint64_t v;
        std::memcpy(&v, p, 8);
        return v;
    }
    }
}

inline void store_bytes(uint8_t* p, uint32_t size, uint64_t value) {
    switch (size) {
    case 1:
        p[0] = static_cast<uint8_t>(value);
        break;
    case 2: {
        auto v = static_cast<uint16_t>(value);
        std::memcpy(p, &v, 2);
        break;
    }
    case 4: {
        auto v = static_cast<uint32_t>(value);
        std::memcpy(p, &v, 4);
        break;
    }
    default:
        std::memcpy(p, &value, 8);
        break;
    }
}

} // namespace synclab::sim
