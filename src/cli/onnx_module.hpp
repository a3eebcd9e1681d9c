#pragma once
// The ONNX side of the commands lives in a module of its own (irlint-onnx.so) that the binary loads the
// first time it opens an .onnx file. libonnx and libprotobuf take longer to load and relocate than the
// rest of irlint's start-up; a run on IR files never pays for them.
//
// The module and the binary are built from the same sources in the same build, so C++ types cross the
// boundary as they are; the table is checked by its layout hash before use.

#include <optional>
#include <string>

#include "cli/onnx_commands.hpp"

namespace irlint::cli {

struct OnnxModuleTable {
    const char* build_id;  // kOnnxModuleBuildId of the build that made the module
    FileResult (*check_file)(const std::string& path);
    std::optional<CheckedModel> (*load_checked)(const std::string& path, int* exit_code);
    int (*run)(const RunOptions& options, const RunLimits& limits);
};

// The binary accepts only a module of its own version and table layout.
inline constexpr const char* kOnnxModuleBuildId = "irlint-onnx-module/" IRLINT_VERSION "/1";

}  // namespace irlint::cli

// The one symbol the module exports.
extern "C" const irlint::cli::OnnxModuleTable* irlint_onnx_module_table();
