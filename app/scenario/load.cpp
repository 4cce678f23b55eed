// Lessons from folders on disk (synclab --lessons DIR): the same files and checks as the built-ins.
#include "scenario/lesson.h"
#include "scenario/scenario.h"

#include "compile/compile.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace synclab::scenario {

namespace {

namespace fs = std::filesystem;

std::string read_text(const fs::path& path, const std::string& what) {
    std::error_code ec;
    if (!fs::is_regular_file(path, ec)) throw LessonError(path.string(), 0, "missing: " + what);
    std::ifstream in(path, std::ios::binary);
    if (!in) throw LessonError(path.string(), 0, std::string("cannot open: ") + std::strerror(errno));
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// "dir/x/" and "dir/x" both name folder x.
fs::path folder_path(const fs::path& folder) {
    fs::path p = folder.lexically_normal();
    if (p.filename().empty()) p = p.parent_path();
    return p;
}

} // namespace

Scenario load_lesson(const fs::path& folder_in) {
    const fs::path folder = folder_path(folder_in);
    std::error_code ec;
    if (!fs::is_directory(folder, ec))
        throw LessonError(folder.string(), 0,
                          "not a lesson folder (a folder with lesson.toml, en.md and zh.md)");
    LessonSources src;
    src.folder_id = folder.filename().string();
    src.toml_name = (folder / "lesson.toml").string();
    src.en_name = (folder / "en.md").string();
    src.zh_name = (folder / "zh.md").string();
    src.toml_text = read_text(src.toml_name, "a lesson folder holds lesson.toml, en.md and zh.md");
    src.en_text = read_text(src.en_name, "the lesson's English text (see assets/lessons/README.md)");
    src.zh_text = read_text(src.zh_name, "the lesson's Chinese text (see assets/lessons/README.md)");
    src.kernel = [folder, toml = src.toml_name](const std::string& source, uint32_t line) {
        KernelFiles k;
        const fs::path given = folder / source;
        std::error_code e;
        if (!fs::is_regular_file(given, e))
            throw LessonError(toml, line, "source '" + source + "': no such file in " + folder.string());
        if (source.ends_with(".ptx")) {
            k.ptx_name = given.string();
            k.ptx_text = read_text(given, "the kernel's PTX");
            return k;
        }
        k.cuda_name = given.string();
        k.cuda_text = read_text(given, "the kernel's CUDA source");
        // The .ptx beside the .cu where there is one (what was committed), else the .cu compiled
        // now, as kernels/ are (nvcc, else NVRTC).
        const fs::path ptx = fs::path(given).replace_extension(".ptx");
        if (fs::is_regular_file(ptx, e)) {
            k.ptx_name = ptx.string();
            k.ptx_text = read_text(ptx, "the kernel's PTX");
            return k;
        }
        try {
            const compile::Result compiled = compile::compile_file(given.string());
            k.ptx_name = ptx.string() + " (compiled by " + compiled.compiler + ")";
            k.ptx_text = compiled.ptx;
        } catch (const compile::CompileError& error) {
            throw LessonError(toml, line,
                              "source '" + source + "': no " + ptx.filename().string() +
                                  " beside it, and compiling it failed: " + error.what() +
                                  (error.log().empty() ? std::string() : "\n" + error.log()));
        }
        return k;
    };
    return build_lesson(src);
}

std::vector<Scenario> load_lessons(const fs::path& dir) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
        throw LessonError(dir.string(), 0, "not a folder of lessons (it holds one folder per lesson)");
    std::vector<std::string> ids;
    const fs::path list = dir / "LESSONS";
    if (fs::is_regular_file(list, ec)) {
        ids = parse_lesson_list(read_text(list, "the list of lessons"), list.string());
    } else {
        for (const fs::directory_entry& e : fs::directory_iterator(dir, ec))
            if (e.is_directory(ec) && fs::is_regular_file(e.path() / "lesson.toml", ec))
                ids.push_back(e.path().filename().string());
        std::sort(ids.begin(), ids.end());
    }
    if (ids.empty())
        throw LessonError(dir.string(), 0,
                          "no lessons here (a lesson is a folder with lesson.toml, en.md and zh.md)");
    std::vector<Scenario> out;
    for (const std::string& id : ids)
        out.push_back(load_lesson(dir / id));
    return out;
}

std::vector<Scenario> load_extra_lessons(const fs::path& dir) {
    std::vector<Scenario> out = load_lessons(dir);
    for (const Scenario& s : out)
        if (find_scenario(s.id)) throw LessonError(s.lesson_file, 0, "lesson '" + s.id + "' has the id of a built-in lesson");
    return out;
}

} // namespace synclab::scenario
