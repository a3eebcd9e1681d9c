#pragma once
// Reading the one model a command works on (infer, run): a missing file is a usage error, a file that is
// not a readable IR a finding, both printed to stderr.

#include <optional>
#include <string>

#include "core/diagnostic.hpp"
#include "ir/model.hpp"

namespace irlint::cli {

// nullopt with *exit_code set when the model cannot be used. The reader's findings on a model it could read
// go to *read_findings when given.
std::optional<Model> load_model(const std::string& path, int* exit_code, Diagnostics* read_findings = nullptr);

// A model this build cannot read (no ONNX support) is a file irlint could not check: printed as "PATH: WHY",
// and a check-failed finding in the JSON error document of --format json.
void print_unreadable(const std::string& path, const std::string& why);

struct CheckedModel;
// The model checked by the rules of its format: an IR .xml, or an ONNX model when the path ends in .onnx.
// Its report holds every finding `check` would give, the reader's too.
std::optional<CheckedModel> load_checked_model(const std::string& path, int* exit_code);

}  // namespace irlint::cli
