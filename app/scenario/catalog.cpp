// The built-in catalog: the lessons named in the embedded assets/lessons/LESSONS, in that order, each
// built from its embedded lesson files and kernel.
#include "embedded.h"
#include "scenario/lesson.h"
#include "scenario/scenario.h"

#include <stdexcept>

namespace synclab::scenario {

const Variant* Scenario::find_variant(std::string_view variant_id) const {
    for (const Variant& variant : variants)
        if (variant.id == variant_id) return &variant;
    return nullptr;
}

const ptx::Module& Scenario::ptx_module() const {
    if (!module)
        throw std::logic_error("scenario '" + id + "' has no parsed PTX (not built by the lesson loader)");
    return *module;
}

namespace {

std::string embedded_text(const std::string& name, const std::string& shown_as) {
    const EmbeddedFile* file = find_embedded(name);
    if (file == nullptr)
        throw LessonError(
            shown_as, 0,
            "not embedded in this build (CMakeLists.txt embeds what assets/lessons/LESSONS lists)");
    return std::string(file->data, file->size);
}

Scenario builtin_lesson(const std::string& id) {
    const std::string folder = "assets/lessons/" + id + "/";
    LessonSources src;
    src.folder_id = id;
    src.toml_name = folder + "lesson.toml";
    src.en_name = folder + "en.md";
    src.zh_name = folder + "zh.md";
    src.toml_text = embedded_text("lessons/" + id + "/lesson.toml", src.toml_name);
    src.en_text = embedded_text("lessons/" + id + "/en.md", src.en_name);
    src.zh_text = embedded_text("lessons/" + id + "/zh.md", src.zh_name);
    src.kernel = [id, toml = src.toml_name](const std::string& source, uint32_t line) {
        // The build compiles kernels/<id>.cu for every listed lesson; nothing else is embedded.
        if (source != id + ".cu")
            throw LessonError(toml, line,
                              "source '" + source + "': a built-in lesson's kernel is kernels/" + id + ".cu");
        KernelFiles k;
        k.cuda_name = "kernels/" + source;
        k.ptx_name = id + ".ptx";
        k.cuda_text = embedded_text(source, k.cuda_name);
        k.ptx_text = embedded_text(k.ptx_name, "assets/ptx/" + k.ptx_name);
        return k;
    };
    return build_lesson(src);
}

std::vector<Scenario> build_catalog() {
    std::vector<Scenario> out;
    const std::string list = "assets/lessons/LESSONS";
    for (const std::string& id : parse_lesson_list(embedded_text("lessons/LESSONS", list), list))
        out.push_back(builtin_lesson(id));
    return out;
}

} // namespace

const std::vector<Scenario>& catalog() {
    static const std::vector<Scenario> scenarios = build_catalog();
    return scenarios;
}

const Scenario* find_scenario(std::string_view id) {
    for (const Scenario& scenario : catalog())
        if (scenario.id == id) return &scenario;
    return nullptr;
}

} // namespace synclab::scenario
