#include "ui/model/layout_plan.h"

#include <algorithm>
#include <cmath>

namespace synclab::ui {

// [SECTION] The first window

WindowSize plan_window(int work_w, int work_h, int frame_w, int frame_h, int min_w, int min_h) {
    const int room_w = std::max(1, work_w - std::max(0, frame_w));
    const int room_h = std::max(1, work_h - std::max(0, frame_h));
    // Each side on its own: a wide but short screen keeps a margin left and right.
    const auto side = [](int room, int min) {
        const int comfortable = int(std::lround(room * 0.85));
        return comfortable >= min ? comfortable : room;
    };
    return {side(room_w, min_w), side(room_h, min_h)};
}

// [SECTION] Normal mode

LeftColumn plan_left_column(float height, float bar, float run_panel_wanted, float browser_min) {
    const float room = std::max(0.0f, height - bar);
    LeftColumn out;
    out.run_panel_h = std::min(std::max(0.0f, run_panel_wanted), std::max(0.0f, room - browser_min));
    out.browser_h = room - out.run_panel_h;
    return out;
}

namespace {

// The first region's size for a fraction of `total`, kept inside [min_first, total - min_second].
float split(float total, float fraction, float min_first, float min_second) {
    return std::max(0.0f, std::clamp(total * fraction, min_first, std::max(min_first, total - min_second)));
}

} // namespace

RightColumn plan_right_column(const RightColumnInput& in) {
    const float em = in.em;
    RightColumn out;
    if (in.before_run) {
        // One line of text each, with the padding of their frames (a narrow column wraps the
        // timeline's hint to two lines).
        out.splitters = false;
        out.timeline_h = std::round(em * 4.0f);
        out.findings_h = std::round(em * 2.6f);
        out.tabs_h = std::max(em * 8, in.height - 2 * in.bar - out.timeline_h - out.findings_h);
        return out;
    }
    out.tabs_h = split(in.height, in.top_split, em * 8, em * 14);
    // Its header, the playback bar, the ruler and the legend, and the rows of a focused race: two
    // pinned threads under their warps, with a row of margin.
    const float timeline_min = em * 13;
    if (in.tabs_wanted > out.tabs_h) {
        const float spare = in.height - 2 * in.bar - timeline_min - std::max(in.findings_wanted, em * 5);
        out.tabs_h = std::max(out.tabs_h, std::min(in.tabs_wanted, std::floor(spare)));
    }
    const float rest = std::max(0.0f, in.height - out.tabs_h - 2 * in.bar);
    const float findings_min = std::clamp(in.findings_wanted, em * 5, std::max(em * 5, rest - timeline_min));
    out.timeline_h = split(rest, 1.0f - in.findings_split, em * 6, findings_min);
    out.findings_h = std::max(0.0f, rest - out.timeline_h);
    return out;
}

// [SECTION] Presenter mode

PresenterBody plan_presenter_body(const PresenterInput& in) {
    PresenterBody out;
    float share = 0;
    if (in.compare) {
        // The source (two lit lines) needs less than the two timelines beside it; a picture more.
        share = in.left == PresenterLeft::None      ? 0.0f
                : in.left == PresenterLeft::Picture ? 0.5f
                : in.left == PresenterLeft::Source  ? 0.32f
                                                    : 0.40f;
        out.top_h = std::floor(in.height);
        out.stacked = true;
    } else {
        // The source gets a little more than the lesson: its lines must not be cut (SourceView fits
        // them to the column); a picture more than the timeline beside it. Before the first run the
        // findings have nothing to say: the top row gets the room.
        share = in.left == PresenterLeft::None      ? 0.0f
                : in.left == PresenterLeft::Picture ? 0.62f
                : in.left == PresenterLeft::Source  ? 0.52f
                                                    : 0.46f;
        // Findings: the panel's title, the table's header and a row per finding (four at most,
        // the table scrolls), up to the 36% they had before they were counted.
        const float rows = float(std::min<size_t>(std::max<size_t>(in.findings, 1), 4));
        const float findings_need = std::min(in.height * 0.36f, in.line * (rows + 2.6f));
        out.top_h = std::floor(in.have_findings ? in.height - findings_need : in.height - in.line * 2.2f);
        out.stacked = in.left != PresenterLeft::None;
        out.findings_h = std::max(0.0f, in.height - out.top_h);
        if (in.before_run && in.left == PresenterLeft::Lesson) {
            // Nothing ran: the timeline and the findings would only say so. The lesson (the question,
            // the choices, the Run button) gets the whole body, at the room's font size.
            out.left_w = std::floor(in.width);
            out.top_h = std::floor(in.height);
            out.timelines_w = out.findings_h = 0;
            return out;
        }
    }
    out.top_h = std::max(0.0f, out.top_h);
    out.left_w = share > 0 ? std::floor((in.width - in.gap) * share) : 0.0f;
    out.timelines_w = std::max(0.0f, in.width - (share > 0 ? out.left_w + in.gap : 0.0f));
    return out;
}

bool predict_beside(float width, float em, bool presenter) {
    return presenter && width >= em * 40;
}

} // namespace synclab::ui
