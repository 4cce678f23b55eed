// The shared memory of the block the playhead steps through, at the playhead: one cell per 4-byte
// word the block touches (16 per row: a 16 x 16 tile reads as a tile), its value by the type of the
// store that wrote it, written slots blue, stale ones amber (the block will overwrite them before its
// next barrier, so a load of one reads what the program has not written yet), the slots the current
// warp instruction loads framed in the playhead colour, red when the slot is stale. Small tiles
// only: a block touching more than kMaxWords words says so instead.
#pragma once

#include "ui/core/app_state.h"
#include "ui/model/playback.h"

namespace synclab::ui {

class SharedMemoryView {
  public:
    static constexpr size_t kMaxWords = 1024;
    // Draws into the current window. `playback` is the playback bar's (nullptr: nothing to show).
    void draw(const AppState& state, const Playback* playback, const trace::Trace* trace);
    // Whether there is something to draw for this state (the playhead is on a record with shared
    // accesses): the App gives the view room only then.
    static bool wanted(const AppState& state, const Playback* playback, uint64_t serial);

  private:
    // Recomputed when the playhead moves (Playback::shared_memory is a pass over the block's events).
    size_t cursor_ = SIZE_MAX;
    uint32_t block_ = UINT32_MAX;
    const Playback* playback_ = nullptr;
    std::vector<Playback::Slot> slots_;
};

} // namespace synclab::ui
