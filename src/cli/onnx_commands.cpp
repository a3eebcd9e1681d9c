#include "cli/onnx_commands.hpp"

#include <fmt/format.h>

#include "cli/common.hpp"
#include "onnx/onnx_check.hpp"
#include "onnx/onnx_run.hpp"
#include "rules/registry.hpp"

namespace irlint::cli {

// This is irlint-onnx: it reads ONNX itself.
std::optional<std::string> hand_over_onnx_command() { return std::nullopt; }

std::string onnx_support_summary() { return "yes (.onnx models, TensorProto .pb tensors)"; }

FileResult check_onnx_model_file(const std::string& path) { return check_onnx_file(path); }

namespace {

std::shared_ptr<const OnnxCheck> load_onnx(const std::string& path, int* exit_code) {
    OnnxRead read = read_onnx(path);
    if (!read.model) {
        const std::string why = read.missing ? "no such file or directory" : read.error;
        print_finding_error(fmt::format("{}: {}", path, why),
                            make_finding(rule::ir_structure, why));
        *exit_code = read.missing ? exit_code::usage : exit_code::findings;
        return nullptr;
    }
    return check_onnx(std::move(*read.model));
}

// An ONNX model: nodes by name, index or output name; a node that is no pool runs into an error that says why.
class OnnxRunModel final : public RunModel {
public:
    explicit OnnxRunModel(std::shared_ptr<const OnnxCheck> check) : c_(std::move(check)) {}

    LayerLookup find(const std::string& wanted) const override {
        LayerLookup found;
        if (const auto node = find_onnx_node(c_->onnx, wanted, &found.error)) found.layer = onnx_layer(*c_, *node);
        return found;
    }

    std::vector<std::unique_ptr<RunnableLayer>> runnable_layers() const override {
        std::vector<std::unique_ptr<RunnableLayer>> layers;
        for (const auto& pool : c_->pools) layers.push_back(onnx_layer(*c_, pool.node));
        return layers;
    }

    DataNaming data_naming() const override { return {"node-index", "node", {".npy", ".pb"}}; }

private:
    std::shared_ptr<const OnnxCheck> c_;
};

}  // namespace

std::optional<CheckedModel> load_checked_onnx(const std::string& path, int* exit_code) {
    auto c = load_onnx(path, exit_code);
    if (!c) return std::nullopt;
    const ModelReport* report = &c->report;
    return CheckedModel{std::move(c), report, nullptr};
}

std::unique_ptr<RunModel> load_onnx_run_model(const std::string& path, int* exit_code) {
    auto c = load_onnx(path, exit_code);
    if (!c) return nullptr;
    return std::make_unique<OnnxRunModel>(std::move(c));
}

}  // namespace irlint::cli
