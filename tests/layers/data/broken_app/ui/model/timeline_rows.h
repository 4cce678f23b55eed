// Deliberately broken: a model header that draws (the check must name both lines).
#pragma once

#include "ui/views/timeline_view.h"
#include <imgui.h>
