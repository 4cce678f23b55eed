#include "ui/theme.h"

namespace synclab::ui::theme {

uint32_t event_colour(trace::EventKind kind) {
    switch (kind) {
    case trace::EventKind::Load:
        return kLoad;
    case trace::EventKind::Store:
        return kStore;
    case trace::EventKind::Atomic:
    case trace::EventKind::Reduction:
        return kAtomic;
    case trace::EventKind::Fence:
        return kFence;
    case trace::EventKind::BarrierArrive:
    case trace::EventKind::BarrierLeave:
        return kBarrierWait;
    case trace::EventKind::Exit:
        return kExit;
    }
    return kFolded;
}

} // namespace synclab::ui::theme
