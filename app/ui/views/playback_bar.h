// The playback bar: step through a recorded run like a debugger — event by event or warp
// instruction by warp instruction, forward and back — with buttons and keys (, . step an event,
// < > a warp instruction, Home End jump). It owns the Playback of the record shown and publishes
// where the playhead is in AppState::playhead; the timeline draws the playhead and the events just
// passed, the source view lights each warp's current line, the shared-memory view shows the slots.
#pragma once

#include "ui/core/app_state.h"
#include "ui/model/playback.h"

#include <cstdint>

namespace synclab::ui {

class PlaybackBar {
  public:
    // One line of controls for `record`; keeps camera on the playhead while stepping.
    void draw(AppState& state, const RunRecord& record, TimelineCamera& camera);
    // The playback of the record drawn last (nullptr before the first draw).
    // The playback of the record drawn last, once the student has stepped (nullptr before).
    const Playback* playback() const { return built_ ? &playback_ : nullptr; }
    // Moves the playhead (the buttons and keys call these; tests too).
    void step_event(AppState& state, int delta);
    void step_instruction(AppState& state, int delta);
    void seek(AppState& state, size_t cursor);

  private:
    void update(const RunRecord& record, AppState& state);
    uint32_t wanted_block(const AppState& state, const RunRecord& record) const;
    void publish(AppState& state);
    void handle_keys(AppState& state);
    void follow(const AppState& state, TimelineCamera& camera) const;

    uint64_t serial_ = UINT64_MAX;
    const trace::Trace* trace_ = nullptr;
    Playback& built(); // playback_, built on first use
    uint32_t block_ = 0;
    Playback playback_;
    bool built_ = false;
    bool moved_ = false;        // stepped this frame: bring the playhead into view
    bool follow_again_ = false; // and again next frame (a focus request came with the step)
};

} // namespace synclab::ui
