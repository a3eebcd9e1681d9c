// The ONNX entry points of a build without libonnx.
#include <fmt/format.h>

#include "cli/common.hpp"
#include "cli/load.hpp"
#include "cli/onnx_commands.hpp"
#include "rules/registry.hpp"

namespace irlint::cli {

namespace {
constexpr const char* kNoOnnx = "this irlint was built without ONNX support (configure with libonnx-dev and IRLINT_ONNX=ON)";
}

std::optional<std::string> hand_over_onnx_command() { return std::nullopt; }

FileResult check_onnx_model_file(const std::string& path, bool, bool) {
    FileResult out;
    out.path = path;
    out.diagnostics.push_back(make_finding(rule::check_failed, kNoOnnx));
    return out;
}

std::optional<CheckedModel> load_checked_onnx(const std::string& path, int* exit_code) {
    print_unreadable(path, kNoOnnx);
    *exit_code = exit_code::usage;
    return std::nullopt;
}

int run_onnx_reshape(const InferOptions& o) {
    print_unreadable(o.model, kNoOnnx);
    return exit_code::usage;
}

std::string onnx_support_summary() { return "no (built without libonnx-dev; IR .xml only)"; }

std::unique_ptr<RunModel> load_onnx_run_model(const std::string& path, int* exit_code) {
    print_unreadable(path, kNoOnnx);
    *exit_code = exit_code::usage;
    return nullptr;
}

}  // namespace irlint::cli
