// The residency model: how many blocks of a launch an SM holds at once, and why no more (the
// hardware's per-SM limits, Hopper / H200 figures):
//   threads    2,048 per SM (64 warps; a block takes whole warps)
//   blocks     32 per SM
//   shared     228 KB per SM; a block takes its static shared memory (from the PTX) plus its dynamic
//              shared memory, plus the 1 KB the driver reserves per block
//   registers  65,536 per SM; a block takes registers per thread x its threads (whole warps). PTX
//              does not say how many registers ptxas will give a thread, so this is a model input
//              (Options::registers_per_thread, default 32: the most at which 2,048 threads still fit,
//              so by default registers never limit before threads do)
// times the modelled SM count (Options::sm_count). The simulator admits blocks up to that many (a
// block beyond them waits for a slot), a cooperative launch with more blocks fails before it runs,
// and the cost model starts a block when a slot frees. SmSlots places each admitted block on an SM
// that has a free slot, so that no SM ever holds more than per_sm() blocks.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace synclab::sim {

struct SmLimits {
    uint32_t threads = 2048;
    uint32_t blocks = 32;
    uint32_t shared_bytes = 228 * 1024;
    uint32_t reserved_shared_per_block = 1024;
    uint32_t registers = 65536;
};

class Residency {
  public:
    enum class Limit : uint8_t { Threads, Blocks, Shared, Registers };

    Residency(uint32_t threads_per_block, uint32_t shared_bytes_per_block, uint32_t registers_per_thread,
              uint32_t sm_count, const SmLimits& limits = SmLimits{});

    uint32_t per_sm() const { return per_sm_; }       // 0: one block does not fit an SM at all
    uint32_t sm_count() const { return sm_count_; }
    uint64_t total() const { return uint64_t(per_sm_) * sm_count_; } // blocks resident at once
    Limit limit() const { return limit_; }
    // "8 SMs x 8 blocks per SM, limited by threads per SM"
    std::string explain() const;
    // The error of a cooperative launch of `blocks` blocks of `threads` threads that cannot all be
    // resident, in the driver's words and ours; "" when they fit.
    std::string cooperative_problem(uint64_t blocks, uint32_t threads) const;

  private:
    uint32_t per_sm_ = 0;
    uint32_t sm_count_ = 1;
    Limit limit_ = Limit::Threads;
};

const char* to_string(Residency::Limit limit); // "threads per SM", ...

// Which SM a block starts on: the one with the most free slots; among equals, the first after the
// SM handed out last (round robin). The hardware's block scheduler hands a launch's blocks out
// across the SMs (breadth first) rather than filling one SM before the next, so the first wave
// lands on SM block % sm_count; once every SM is full, a waiting block takes the slot that frees,
// on whichever SM that block ran (blocks of unequal length free slots out of order). Round robin
// among equals keeps that true while the simulator holds fewer blocks in flight than the SMs hold
// (Options::max_resident_blocks): 16 blocks at a time on 132 SMs still visit every SM, as the
// cost model's per-SM units (shared atomics) need, instead of the first 16 only. The exact order of
// NVIDIA's scheduler is not documented; this is a model.
class SmSlots {
  public:
    SmSlots(uint32_t sm_count, uint32_t per_sm);
    // Takes a slot and returns its SM; UINT32_MAX when every SM is full.
    uint32_t take();
    void release(uint32_t sm);
    uint32_t used(uint32_t sm) const { return used_[sm]; }

  private:
    uint32_t per_sm_;
    std::vector<uint32_t> used_; // per SM: blocks resident there
    uint32_t next_ = 0;          // where the search for the least-used SM starts
};

} // namespace synclab::sim
