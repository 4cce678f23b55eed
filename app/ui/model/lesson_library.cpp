#include "ui/model/lesson_library.h"

#include <algorithm>
#include <memory>

namespace synclab::ui {

LessonLibrary::LessonLibrary() {
    index();
}

LessonLibrary::LessonLibrary(std::vector<scenario::Scenario> folder, std::string folder_name)
    : folder_(std::move(folder)), folder_name_(std::move(folder_name)) {
    index();
}

// (all_ points into folder_, whose elements a move of the vector keeps where they are)
LessonLibrary::LessonLibrary(LessonLibrary&&) noexcept = default;
LessonLibrary& LessonLibrary::operator=(LessonLibrary&&) noexcept = default;
LessonLibrary::~LessonLibrary() = default;

void LessonLibrary::index() {
    all_.clear();
    for (const scenario::Scenario& s : scenario::catalog())
        all_.push_back(&s);
    for (const scenario::Scenario& s : folder_)
        all_.push_back(&s);
}

bool LessonLibrary::from_folder(const scenario::Scenario* lesson) const {
    return !folder_.empty() && lesson >= folder_.data() && lesson < folder_.data() + folder_.size();
}

const scenario::Scenario* LessonLibrary::find(std::string_view id) const {
    const auto it = std::find_if(all_.begin(), all_.end(), [&](const scenario::Scenario* s) { return s->id == id; });
    return it == all_.end() ? nullptr : *it;
}

std::string LessonLibrary::ids() const {
    std::string out;
    for (const scenario::Scenario* s : all_)
        out += (out.empty() ? "" : ", ") + s->id;
    return out;
}

namespace {
std::unique_ptr<LessonLibrary>& installed() {
    static std::unique_ptr<LessonLibrary> library;
    return library;
}
} // namespace

const LessonLibrary& lessons() {
    static const LessonLibrary built_in;
    return installed() ? *installed() : built_in;
}

void install_lessons(LessonLibrary library) {
    installed() = std::make_unique<LessonLibrary>(std::move(library));
}

} // namespace synclab::ui
