// A view may include the model and ImGui: no problem here.
#pragma once

#include "ui/model/timeline_rows.h"
#include <imgui.h>
