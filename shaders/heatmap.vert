#version 330 core
// The heatmap's quad: four vertices from gl_VertexID (no vertex buffer), a triangle strip covering
// the target. u_view is the part of the grid in view (zoom and pan): (u0, v0, u1, v1) in grid
// fractions, v0 the top row.
uniform vec4 u_view;
out vec2 v_grid;

void main() {
    vec2 corner = vec2(float(gl_VertexID & 1), float((gl_VertexID >> 1) & 1));
    v_grid = mix(u_view.xy, u_view.zw, corner);
    gl_Position = vec4(corner * 2.0 - 1.0, 0.0, 1.0);
}
