#include "cli/load.hpp"

#include <fmt/format.h>

#include "cli/common.hpp"
#include "cli/onnx_commands.hpp"
#include "ir/reader.hpp"
#include "rules/model_glance.hpp"
#include "rules/registry.hpp"

namespace irlint::cli {

std::optional<Model> load_model(const std::string& path, int* exit_code, Diagnostics* read_findings) {
    ReadResult read = read_model(path);
    if (const auto failure = read_failure(path, read)) {
        for (const auto& [line, finding] : failure->lines) print_finding_error(line, *finding);
        *exit_code = failure->unopened ? exit_code::usage : exit_code::findings;
        return std::nullopt;
    }
    if (read_findings) *read_findings = std::move(read.diagnostics);
    return std::move(read.model);
}

void print_unreadable(const std::string& path, const std::string& why) {
    print_finding_error(fmt::format("{}: {}", path, why),
                        make_finding(rule::check_failed, why));
}

std::optional<CheckedModel> load_checked_model(const std::string& path, int* exit_code) {
    if (names_onnx_model(path)) return load_checked_onnx(path, exit_code);
    Diagnostics read_findings;
    auto model = load_model(path, exit_code, &read_findings);
    if (!model) return std::nullopt;
    struct Owner {
        Model model;
        ModelReport report;
    };
    auto owner = std::make_shared<Owner>();
    owner->model = std::move(*model);
    owner->report = check_read_model(owner->model, std::move(read_findings));
    const ModelReport* report = &owner->report;
    const Model* checked_model = &owner->model;
    return CheckedModel{std::move(owner), report, checked_model, std::nullopt};
}

}  // namespace irlint::cli
