#pragma once
// Reads an IR .xml into a Model. Syntax problems of the file and of single values become diagnostics;
// graph-level checks (edges, ids, cycles) are left to rules/structure.

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

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

// Why a read gave no model, as the commands say it: the file could not be opened (`unopened`: a usage error,
// one line "path: why"), or one line "path:line: message [rule]" per finding of the reader.
struct ReadFailure {
    bool unopened = false;
    std::vector<std::pair<std::string, const Diagnostic*>> lines;  // the text, and the finding it words
};
// nullopt when the read gave a model.
std::optional<ReadFailure> read_failure(const std::string& path, const ReadResult& read);
// The same for text in memory, which is copied first: the model keeps its own (Model::text).
ReadResult read_model_from_memory(std::string_view xml_text, const std::string& xml_path);

}  // namespace irlint
