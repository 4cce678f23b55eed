// Reading `[host_reader]` and its `[host_reader.VARIANT]` tables of a lesson file (the format is in
// assets/lessons/README.md). Kept apart from lesson.cpp: the builder hands over the tables and what
// it has read so far (buffers, variants) and gets the checked spec back.
#pragma once

#include "scenario/lesson_toml.h"
#include "scenario/scenario.h"

#include <string>
#include <vector>

namespace synclab::scenario {

// `table`: [host_reader]; `per_variant`: its [host_reader.ID] tables, in file order. Throws
// LessonError "FILE:LINE: [host_reader]: ..." naming the key and what is wrong.
HostReaderSpec read_host_reader(const toml::Table& table, const std::vector<const toml::Table*>& per_variant,
                                const std::vector<BufferDecl>& buffers, const std::vector<Variant>& variants,
                                const std::string& file);

} // namespace synclab::scenario
