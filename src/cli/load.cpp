#include "cli/load.hpp"

#include <fmt/format.h>

#include "cli/common.hpp"
#include "cli/onnx_commands.hpp"
#include "ir/reader.hpp"

namespace irlint::cli {

std::optional<Model> load_model(const std::string& path, int* exit_code) {
    ReadResult read = read_model(path);
    if (read.status == ReadStatus::failed && read.diagnostics.size() == 1 && read.diagnostics[0].line == 0) {
        print_error(fmt::format("{}: {}", path, read.diagnostics[0].message));
        *exit_code = exit_code::usage;
        return std::nullopt;
    }
    if (!read.model) {
        for (const auto& d : read.diagnostics)
            print_error(fmt::format("{}:{}: {} [{}]", path, d.line, d.message, d.rule));
        *exit_code = exit_code::findings;
        return std::nullopt;
    }
    return std::move(read.model);
}

std::optional<CheckedModel> load_checked_model(const std::string& path, int* exit_code) {
    if (names_onnx_model(path)) return load_checked_onnx(path, exit_code);
    auto model = load_model(path, exit_code);
    if (!model) return std::nullopt;
    struct Owner {
        Model model;
        ModelReport report;
    };
    auto owner = std::make_shared<Owner>();
    owner->model = std::move(*model);
    owner->report = check_model(owner->model);
    const ModelReport* report = &owner->report;
    return CheckedModel{std::move(owner), report};
}

}  // namespace irlint::cli
