// One ImGui context without a window or a renderer, for the panel tests: a frame draws a view into a
// fixed-size window and renders to draw data only, which the tests read (vertex counts, colours).
#pragma once

#include <imgui.h>

#include <cfloat>
#include <cstdint>
#include <functional>

namespace synclab::ui::testing {

class HeadlessPanel {
  public:
    explicit HeadlessPanel(ImVec2 window = {1280, 800}, ImVec2 display = {1280, 800}) : window_(window) {
        IMGUI_CHECKVERSION();
        ctx_ = ImGui::CreateContext();
        ImGuiIO& io = ImGui::GetIO();
        io.DisplaySize = display;
        io.DeltaTime = 1.0f / 60.0f;
        io.IniFilename = nullptr;
        unsigned char* pixels = nullptr;
        int w = 0, h = 0;
        io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h); // builds the font atlas: NewFrame needs it
    }
    ~HeadlessPanel() { ImGui::DestroyContext(ctx_); }
    HeadlessPanel(const HeadlessPanel&) = delete;
    HeadlessPanel& operator=(const HeadlessPanel&) = delete;

    // One frame drawing `body` into a window of the harness's size; returns the vertex count.
    int frame(const std::function<void()>& body, ImVec2 mouse = {-FLT_MAX, -FLT_MAX}, bool down = false) {
        ImGuiIO& io = ImGui::GetIO();
        io.MousePos = mouse;
        io.MouseDown[0] = down;
        ImGui::NewFrame();
        ImGui::SetNextWindowPos({0, 0});
        ImGui::SetNextWindowSize(window_);
        ImGui::Begin("panel", nullptr,
                     ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse);
        body();
        ImGui::End();
        ImGui::Render();
        return ImGui::GetDrawData()->TotalVtxCount;
    }
    // A click: press and release at `at` (buttons fire on release).
    void click(const std::function<void()>& body, ImVec2 at) {
        frame(body, at, true);
        frame(body, at, false);
    }
    // Whether the last frame drew any vertex in exactly `colour`.
    static bool drew_colour(uint32_t colour) {
        const ImDrawData* data = ImGui::GetDrawData();
        for (int l = 0; l < data->CmdListsCount; ++l)
            for (const ImDrawVert& v : data->CmdLists[l]->VtxBuffer)
                if (v.col == colour) return true;
        return false;
    }
    ImVec2 window() const { return window_; }

  private:
    ImGuiContext* ctx_ = nullptr;
    ImVec2 window_;
};

} // namespace synclab::ui::testing
