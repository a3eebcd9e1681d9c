// The module's export: the ONNX commands of onnx_commands.cpp behind one table. No exception leaves the
// module: the binary may run on a copy of the C++ runtime of its own, so an exception is turned into the
// error the binary would have printed for it.
#include "cli/onnx_module.hpp"

#include <exception>

#include <fmt/format.h>

#include "cli/common.hpp"

namespace irlint::cli {

namespace {

std::string internal_error(const char* what) {
    return fmt::format("internal error in the ONNX module: {} (please report this as a bug)", what);
}

FileResult check_file(const std::string& path) {
    try {
        return check_onnx_model_file(path);
    } catch (const std::exception& e) {
        FileResult out;
        out.path = path;
        out.diagnostics.push_back({Severity::error, std::string(rule::ir_structure), internal_error(e.what()), 0, {}});
        return out;
    }
}

std::optional<CheckedModel> load_checked(const std::string& path, int* exit_code) {
    try {
        return load_checked_onnx(path, exit_code);
    } catch (const std::exception& e) {
        print_error(internal_error(e.what()));
        *exit_code = exit_code::usage;
        return std::nullopt;
    }
}

int run(const RunOptions& options, const RunLimits& limits) {
    try {
        return run_onnx(options, limits);
    } catch (const std::exception& e) {
        print_error(internal_error(e.what()));
        return exit_code::usage;
    }
}

const OnnxModuleTable kTable{kOnnxModuleBuildId, &check_file, &load_checked, &run};

}  // namespace

}  // namespace irlint::cli

extern "C" __attribute__((visibility("default"))) const irlint::cli::OnnxModuleTable* irlint_onnx_module_table() {
    return &irlint::cli::kTable;
}
