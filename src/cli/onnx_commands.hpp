#pragma once
// The commands' ONNX side: check, infer and run call these when a model path ends in .onnx. Without
// libonnx (IRLINT_ONNX=OFF) they report that the build cannot read ONNX.
//
// irlint itself is linked statically, for its start-up (bench/README.md), and cannot load libonnx. A command
// that opens an .onnx file is handed whole to irlint-onnx: the same program linked with libonnx, beside the
// binary in a build tree, in LIBDIR/irlint when installed.

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cli/commands.hpp"
#include "cli/run_common.hpp"
#include "pipeline/check_run.hpp"
#include "report/report.hpp"
#include "rules/engine.hpp"
#include "rules/model_glance.hpp"

namespace irlint::cli {

using irlint::names_onnx_model;

// Before a command opens an .onnx file: in irlint, replaces the process with irlint-onnx on the same command
// line, and returns only when that fails, with the reason; nullopt in a binary that reads ONNX itself (or in
// a build without ONNX support, whose entry points below report that).
std::optional<std::string> hand_over_onnx_command();

FileResult check_onnx_model_file(const std::string& path, bool keep_until_exit, bool list_checked_layers);

// A checked model of either kind: the report's layers point into what `owner` keeps alive.
struct CheckedModel {
    std::shared_ptr<const void> owner;
    const ModelReport* report = nullptr;
    const Model* model = nullptr;  // an IR model (its producer, IR version); null for ONNX
    std::optional<OnnxSummary> onnx;  // an ONNX model's
};
// nullopt with *exit_code set (and the reason printed) when the model cannot be used.
std::optional<CheckedModel> load_checked_onnx(const std::string& path, int* exit_code);

// The model `run` executes layers of; nullptr with *exit_code set (and the reason printed) when it cannot
// be used.
std::unique_ptr<RunModel> load_onnx_run_model(const std::string& path, int* exit_code);

// `infer MODEL.onnx --reshape ...` (cli/reshape_report.hpp prints it); an exit code.
int run_onnx_reshape(const InferOptions& o);

// For --version: whether this build reads ONNX, and where from.
std::string onnx_support_summary();

}  // namespace irlint::cli
