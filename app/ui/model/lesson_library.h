// The lessons the app offers: the built-in catalog (scenario::catalog()), then the lessons of a
// teacher's folder (synclab-app --lessons DIR, loaded as `synclab run --lessons DIR` loads it), which
// the browser lists under a heading of their own. Pure (no ImGui).
//
// One library per process, like the catalog: views, run records and settings refer to lessons by
// pointer or id, so the set is fixed before the App starts (main installs it once) and never changes
// while it runs.
#pragma once

#include "scenario/scenario.h"

#include <string>
#include <string_view>
#include <vector>

namespace synclab::ui {

class LessonLibrary {
  public:
    // The built-in lessons only.
    LessonLibrary();
    // The built-in lessons, then `folder`'s (from scenario::load_extra_lessons), listed under the
    // name of the folder they came from (`folder_name`: "lessons" for /home/t/lessons).
    LessonLibrary(std::vector<scenario::Scenario> folder, std::string folder_name);
    LessonLibrary(LessonLibrary&&) noexcept;
    LessonLibrary& operator=(LessonLibrary&&) noexcept;
    LessonLibrary(const LessonLibrary&) = delete;
    LessonLibrary& operator=(const LessonLibrary&) = delete;
    ~LessonLibrary();

    // Every lesson, built-in ones first, in teaching order.
    const std::vector<const scenario::Scenario*>& all() const { return all_; }
    // The folder's lessons (empty without --lessons) and the folder's name.
    const std::vector<scenario::Scenario>& folder() const { return folder_; }
    const std::string& folder_name() const { return folder_name_; }
    bool from_folder(const scenario::Scenario* lesson) const;

    const scenario::Scenario* find(std::string_view id) const;
    // "stencil, divergent_barrier, ..." (for "unknown scenario" messages).
    std::string ids() const;

  private:
    void index();

    std::vector<scenario::Scenario> folder_;
    std::string folder_name_;
    std::vector<const scenario::Scenario*> all_;
};

// The app's library: the built-in lessons until install_lessons() replaces it (main does, once,
// before the App starts).
const LessonLibrary& lessons();
void install_lessons(LessonLibrary library);

} // namespace synclab::ui
