#include "cli/onnx_commands.hpp"

#include <fmt/format.h>

#include "cli/common.hpp"
#include "cli/reshape_report.hpp"
#include "core/atomic_file.hpp"
#include "core/text.hpp"
#include "onnx/onnx_check.hpp"
#include "onnx/onnx_reshape.hpp"
#include "onnx/onnx_run.hpp"
#include "rules/registry.hpp"

namespace irlint::cli {

// This is irlint-onnx: it reads ONNX itself.
std::optional<std::string> hand_over_onnx_command() { return std::nullopt; }

std::string onnx_support_summary() { return "yes (.onnx models, TensorProto .pb tensors)"; }

FileResult check_onnx_model_file(const std::string& path, bool keep_until_exit, bool list_checked_layers) {
    return check_onnx_file(path, keep_until_exit, list_checked_layers);
}

namespace {

std::optional<OnnxModel> read_onnx_model(const std::string& path, int* exit_code) {
    OnnxRead read = read_onnx(path);
    if (!read.model) {
        const std::string why = read.missing ? "no such file or directory" : read.error;
        print_finding_error(fmt::format("{}: {}", path, why),
                            make_finding(rule::ir_structure, why));
        *exit_code = read.missing ? exit_code::usage : exit_code::findings;
    }
    return std::move(read.model);
}

std::shared_ptr<const OnnxCheck> load_onnx(const std::string& path, int* exit_code) {
    auto model = read_onnx_model(path, exit_code);
    if (!model) return nullptr;
    return check_onnx(std::move(*model));
}

ReshapeView onnx_view(const OnnxReshape& r, const NewInputs& inputs) {
    ReshapeView v;
    v.unit = "node";
    v.unknown_why = "an op it does not infer, a value it cannot compute, or after a node that cannot take its inputs";
    v.endpoints = r.endpoints();
    for (const LayerShapes& a : r.after->report.layers) {
        const size_t node = v.rows.size();
        v.rows.push_back({a.layer, a.inputs, r.before->report.layers[node].declared, r.outputs_before(node), a.inferred,
                          a.status});
    }
    v.inputs = inputs;
    v.changed = r.changed_nodes;
    v.unknown = r.unknown_nodes;
    v.incompatible = r.incompatible;
    return v;
}

int write_reshaped_onnx(const InferOptions& o, const OnnxReshape& r) {
    std::string error;
    const auto bytes = serialize_reshaped_onnx(r, error);
    if (!bytes) {
        print_error(fmt::format("-o {}: not written: {}", o.output, error));
        return exit_code::findings;
    }
    if (const auto failed = write_file_atomically(o.output, *bytes)) {
        print_error(fmt::format("-o {}: {}", o.output, *failed));
        return exit_code::usage;
    }
    fmt::print(stderr, "irlint: wrote {}\n", printable(o.output));
    return exit_code::ok;
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

namespace {

}  // namespace

std::optional<CheckedModel> load_checked_onnx(const std::string& path, int* exit_code) {
    auto c = load_onnx(path, exit_code);
    if (!c) return std::nullopt;
    const ModelReport* report = &c->report;
    OnnxSummary summary = summarize_onnx(*c);
    return CheckedModel{std::move(c), report, nullptr, std::move(summary)};
}

int run_onnx_reshape(const InferOptions& o) {
    int failure = exit_code::ok;
    const auto model = read_onnx_model(o.model, &failure);
    if (!model) return failure;
    std::string error;
    const auto inputs = parse_reshape_arguments(onnx_graph_input_names(*model), "graph input", o.reshape, error);
    if (!inputs) {
        print_error(error);
        return exit_code::usage;
    }
    const OnnxReshape r = reshape_onnx(*model, *inputs);
    if (const int printed = print_reshape(o, onnx_view(r, *inputs)); printed != exit_code::ok) return printed;
    return o.output.empty() ? exit_code::ok : write_reshaped_onnx(o, r);
}

std::unique_ptr<RunModel> load_onnx_run_model(const std::string& path, int* exit_code) {
    auto c = load_onnx(path, exit_code);
    if (!c) return nullptr;
    return std::make_unique<OnnxRunModel>(std::move(c));
}

}  // namespace irlint::cli
