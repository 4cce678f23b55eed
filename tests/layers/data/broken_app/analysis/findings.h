// A deliberately broken module for the layers test: analysis may not include the simulator, nor
// the GUI.
#pragma once
#include "trace/trace.h"
#include "sim/simulator.h"
#include <imgui.h>
#include "../sim/state.h"
#include "imgui_internal.h"
