// What the kernel's memory is called: the named regions of a launch (the `__shared__` arrays of its
// PTX, its `__device__` variables and the buffers the launch passed), so that an access can be
// named as the source names it ("s_tile[159]", "g_counters[0]") instead of by its address.
//
// The runner that places memory fills the map (the simulator at launch; a traced GPU run from the
// buffers it allocated, cuModuleGetGlobal and the shared symbols' offsets); the .slt file keeps it
// (section MMAP). Lookups are by space and byte address; naming is done at text time (naming.h),
// never per event.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace synclab::trace {

// trace.h defines it (and holds a MemoryMap in Trace, so this header cannot include trace.h).
enum class Space : uint8_t;

struct MemoryRegion {
    std::string name;   // as the source writes it: "s_tile", "g_counters", "hist"
    Space space{};      // Global (the value 0) or Shared
    uint64_t base = 0;  // global: device address; shared: offset in the block's shared
                        // window (every block has its own copy at the same offset)
    uint64_t bytes = 0; // size, > 0
    // The element type in PTX spelling ("f32", "u32", "s32", ...) where known: "" for an untyped
    // array (a `__shared__` array is a .b8 array in PTX).
    std::string element_type;
    uint32_t element_size = 0; // bytes per element; 0: unknown (an access is indexed by its width)

    bool contains(uint64_t address) const { return address >= base && address - base < bytes; }
    bool operator==(const MemoryRegion&) const = default;
};

// Regions of one launch, ordered by space and base; regions of one space never overlap.
class MemoryMap {
  public:
    // Whether the map holds every global allocation the kernel may legally reach (the launch's
    // buffers and its module's `__device__` variables), placed by a runner that knows them all: the
    // simulator, or a traced GPU run whose worker reported every address. Only then is a global
    // access outside every region out of bounds (analysis::find_out_of_bounds). Not complete: a map
    // that only names memory (a file saved before the flag existed, a cooperative launch whose grid
    // barrier uses a workspace the runtime places, a GPU run that failed before its buffers were
    // placed). The .slt keeps it (slt_file.h: kSltFlagCompleteMemoryMap).
    bool complete() const { return complete_; }
    void set_complete(bool complete) { complete_ = complete; }
    // Adds `region`; false (the map unchanged) when it has no name, no bytes, a space other than
    // Global or Shared, or overlaps a region of its space already there.
    bool add(MemoryRegion region);
    // The region of `space` holding byte `address`, or nullptr.
    const MemoryRegion* find(Space space, uint64_t address) const;
    const std::vector<MemoryRegion>& regions() const { return regions_; }
    bool empty() const { return regions_.empty(); }
    void clear() {
        regions_.clear();
        complete_ = false;
    }
    bool operator==(const MemoryMap&) const = default;

  private:
    std::vector<MemoryRegion> regions_;
    bool complete_ = false;
};

} // namespace synclab::trace
