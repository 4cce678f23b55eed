// The findings panel: what the analysis found in the current run, one row per finding (kind, hazard,
// memory space, lines, count, an example pair of threads, the message). Clicking a row asks the App to
// focus that finding (timeline zoom, highlighted source lines).
#pragma once

#include "ui/app_state.h"

#include <string>

namespace synclab::ui {

class FindingsPanel {
  public:
    // Draws into the current window. Writes state.requests.focus_finding only.
    void draw(AppState& state);

  private:
    // analysis::coverage() of the record drawn last ("" when every block was analysed), keyed by the
    // record's serial (a new record may reuse a freed one's address): it walks the thread table, so it
    // is not redone every frame.
    uint64_t coverage_of_ = 0;
    std::string coverage_;
};

} // namespace synclab::ui
