// Words that more than one place of the app shows for the same action: one spelling, so that the
// run panel's button, the Run menu and the hints that point at them always agree (a GUI test greps
// app/ui for stray copies).
#pragma once

namespace synclab::ui::labels {

// Runs the scenario's correct variant and the selected one, and shows them side by side.
inline constexpr const char* kRunBoth = "Run correct + broken side by side";

} // namespace synclab::ui::labels
