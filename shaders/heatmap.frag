#version 330 core
// One texel per cell (R32F, nearest): the cell's value, or a negative value where it has no data
// (drawn in u_empty, not in the coldest colour). The value is placed in u_range on a linear or log
// scale and coloured by interpolating u_stops (app/ui/model/colour_map.cpp holds the stops: the legend and
// the tests read the same table).
const int kStops = 9;
uniform sampler2D u_cells;
uniform vec3 u_stops[kStops];
uniform vec2 u_range; // lo, hi
uniform int u_log;
uniform vec3 u_empty;
// Thin lines between cells once they are big enough to tell apart: cells per pixel (x, y); 0 = none.
uniform vec2 u_cell_px;
uniform vec4 u_grid_size; // cols, rows, 1/cols, 1/rows
in vec2 v_grid;
out vec4 o_colour;

float place(float v) {
    float lo = u_range.x, hi = u_range.y;
    if (u_log != 0) {
        lo = max(lo, 1e-6);
        if (hi <= lo) return 1.0;
        return clamp((log(max(v, lo)) - log(lo)) / (log(hi) - log(lo)), 0.0, 1.0);
    }
    if (hi <= lo) return 1.0;
    return clamp((v - lo) / (hi - lo), 0.0, 1.0);
}

void main() {
    if (any(lessThan(v_grid, vec2(0.0))) || any(greaterThanEqual(v_grid, vec2(1.0)))) {
        o_colour = vec4(u_empty * 0.6, 1.0);
        return;
    }
    float v = texture(u_cells, v_grid).r;
    vec3 c;
    if (v < 0.0) {
        c = u_empty;
    } else {
        float x = place(v) * float(kStops - 1);
        int i = min(int(floor(x)), kStops - 2);
        c = mix(u_stops[i], u_stops[i + 1], x - float(i));
    }
    // Cell borders: where a cell spans at least 6 pixels, its first pixel row/column is darkened.
    vec2 cell = v_grid * u_grid_size.xy;
    vec2 within = fract(cell);
    vec2 px = u_cell_px; // pixels per cell
    if ((px.x >= 6.0 && within.x * px.x < 1.0) || (px.y >= 6.0 && within.y * px.y < 1.0)) c *= 0.55;
    o_colour = vec4(c, 1.0);
}
