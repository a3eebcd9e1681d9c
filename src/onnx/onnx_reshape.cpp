#include "onnx/onnx_reshape.hpp"

#include <map>
#include <set>

#include <fmt/format.h>
#include <onnx/onnx_pb.h>

#include "core/text.hpp"
#include "rules/registry.hpp"

namespace irlint {

namespace {

// Writes `shape` into a value's tensor type: a static dim as its value; another keeps the symbol the file gave
// that axis, or has none.
void set_dims(onnx::ValueInfoProto& value, const Shape& shape) {
    if (!value.type().has_tensor_type()) return;
    auto* tensor = value.mutable_type()->mutable_tensor_type();
    if (shape.rank_dynamic) {
        tensor->clear_shape();
        return;
    }
    const onnx::TensorShapeProto old = tensor->shape();
    const bool same_rank = tensor->has_shape() && static_cast<size_t>(old.dim_size()) == shape.rank();
    auto* dims = tensor->mutable_shape();
    dims->clear_dim();
    for (size_t d = 0; d < shape.rank(); ++d) {
        auto* dim = dims->add_dim();
        if (shape.dims[d].is_static()) dim->set_dim_value(shape.dims[d].length());
        else if (same_rank && old.dim(static_cast<int>(d)).has_dim_param())
            dim->set_dim_param(old.dim(static_cast<int>(d)).dim_param());
    }
}

// The copy the reshape infers: the new input dims, no declared shape for any other value.
std::shared_ptr<onnx::ModelProto> reshaped_proto(const OnnxModel& model, const NewInputs& new_inputs) {
    auto proto = std::make_shared<onnx::ModelProto>(*model.proto);
    auto* graph = proto->mutable_graph();
    for (auto& input : *graph->mutable_input()) {
        const auto it = new_inputs.find(input.name());
        if (it != new_inputs.end() && model.graph_inputs.count(input.name())) set_dims(input, it->second);
    }
    graph->clear_value_info();
    for (auto& output : *graph->mutable_output())
        if (output.type().has_tensor_type()) output.mutable_type()->mutable_tensor_type()->clear_shape();
    return proto;
}

bool any_unknown(const LayerShapes& after, const OnnxNode& node) {
    if (after.inferred.size() < node.outputs.size()) return true;
    for (size_t k = 0; k < node.outputs.size(); ++k)
        if (!node.outputs[k].empty() && after.inferred[k].rank_dynamic) return true;
    return false;
}

// Every value a node writes, with the dims `check` gives it, and the model's graph inputs.
std::map<std::string, Shape> value_shapes(const OnnxCheck& c, const std::vector<std::vector<Shape>>& outputs) {
    std::map<std::string, Shape> out;
    for (const auto& [name, value] : c.onnx.values)
        if (value.shape) out[name] = *value.shape;
    for (const OnnxNode& n : c.onnx.nodes)
        for (size_t k = 0; k < n.outputs.size() && k < outputs[n.index].size(); ++k)
            if (!n.outputs[k].empty() && !outputs[n.index][k].rank_dynamic) out[n.outputs[k]] = outputs[n.index][k];
    return out;
}

std::vector<std::vector<Shape>> inferred_outputs(const OnnxCheck& c) {
    std::vector<std::vector<Shape>> out;
    for (const LayerShapes& ls : c.report.layers) out.push_back(ls.inferred);
    return out;
}

}  // namespace

std::vector<Shape> OnnxReshape::outputs_before(size_t node) const {
    const LayerShapes& ls = before->report.layers[node];
    std::vector<Shape> out;
    for (size_t k = 0; k < ls.declared.size() || k < ls.inferred.size(); ++k) {
        const bool inferred = k < ls.inferred.size() && !ls.inferred[k].rank_dynamic;
        out.push_back(inferred ? ls.inferred[k] : k < ls.declared.size() ? ls.declared[k] : Shape::dynamic_rank());
    }
    return out;
}

std::vector<ReshapeEndpoint> OnnxReshape::endpoints() const {
    std::vector<std::vector<Shape>> before_outputs;
    for (size_t i = 0; i < before->onnx.nodes.size(); ++i) before_outputs.push_back(outputs_before(i));
    const auto old_shapes = value_shapes(*before, before_outputs);
    const auto new_shapes = value_shapes(*after, inferred_outputs(*after));
    const auto shape_in = [](const std::map<std::string, Shape>& shapes, const std::string& name) {
        const auto it = shapes.find(name);
        return it == shapes.end() ? Shape::dynamic_rank() : it->second;
    };
    std::vector<ReshapeEndpoint> out;
    const auto add = [&](std::string_view kind, const std::string& name) {
        const auto value = before->onnx.values.find(name);
        out.push_back({kind, name, shape_in(old_shapes, name), shape_in(new_shapes, name),
                       value == before->onnx.values.end() ? std::nullopt : value->second.type});
    };
    for (const std::string& name : onnx_graph_input_names(before->onnx)) add("input", name);
    for (const std::string& name : before->onnx.outputs) add("output", name);
    return out;
}

std::vector<std::string> onnx_graph_input_names(const OnnxModel& model) {
    return model.input_order;
}

OnnxReshape reshape_onnx(const OnnxModel& model, const NewInputs& new_inputs) {
    OnnxReshape r;
    r.before = check_onnx(model);
    r.after = check_onnx(describe_onnx(reshaped_proto(model, new_inputs), model.path));
    r.incompatible = new_rejections(r.before->report, r.after->report, SameRejection::layer_and_rule);
    for (const OnnxNode& n : model.nodes) {
        const bool unknown = any_unknown(r.after->report.layers[n.index], n);
        r.unknown_nodes += unknown;
        r.changed_nodes += !unknown && r.after->report.layers[n.index].inferred != r.outputs_before(n.index);
    }
    return r;
}

std::optional<std::string> serialize_reshaped_onnx(const OnnxReshape& r, std::string& error) {
    if (!r.incompatible.empty()) {
        error = fmt::format("{} cannot take the new shapes", counted(r.incompatible.size(), "node"));
        return std::nullopt;
    }
    onnx::ModelProto out(*r.after->onnx.proto);
    const auto& original = r.before->onnx.proto->graph();
    const auto shapes = value_shapes(*r.after, inferred_outputs(*r.after));
    const auto reshaped = [&shapes](onnx::ValueInfoProto value) {
        const auto it = shapes.find(value.name());
        set_dims(value, it == shapes.end() ? Shape::dynamic_rank() : it->second);
        return value;
    };
    auto* graph = out.mutable_graph();
    for (const auto& value : original.value_info()) *graph->add_value_info() = reshaped(value);
    graph->clear_output();
    for (const auto& value : original.output()) *graph->add_output() = reshaped(value);
    std::string bytes;
    if (!out.SerializeToString(&bytes)) {
        error = "the reshaped model does not serialize";
        return std::nullopt;
    }
    return bytes;
}

}  // namespace irlint
