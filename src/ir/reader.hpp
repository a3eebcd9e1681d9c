#pragma once
// Reads an IR .xml into a Model. Syntax problems of the file and of single values become diagnostics;
// graph-level checks (edges, ids, cycles) are left to rules/structure.

#include <optional>
#include <string>
#include <string_view>

#include "core/diagnostic.hpp"
#include "ir/model.hpp"

namespace irlint {

enum class ReadStatus {
    ok,          // a model of a supported IR version
    not_ir,      // well-formed XML whose root is not <net>
    unsupported, // a <net> without a version, or of a version OpenVINO does not read
    failed,      // unreadable or malformed XML
};

struct ReadResult {
    ReadStatus status = ReadStatus::failed;
    std::optional<Model> model;
    Diagnostics diagnostics;
};

ReadResult read_model(const std::string& xml_path);
// The same for text in memory, which is copied first: the model keeps its own (Model::text).
ReadResult read_model_from_memory(std::string_view xml_text, const std::string& xml_path);

}  // namespace irlint
