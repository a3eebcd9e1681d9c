#include "onnx/onnx_infer_cross.hpp"

#include <cctype>

#include <fmt/format.h>
#include <onnx/defs/schema.h>
#include <onnx/onnx_pb.h>
#include <onnx/shape_inference/implementation.h>

#include "onnx/onnx_infer_guard.hpp"

namespace irlint {

namespace {

Shape shape_of(const onnx::TypeProto& t) {
    if (!t.has_tensor_type() || !t.tensor_type().has_shape()) return Shape::dynamic_rank();
    Shape s;
    for (const auto& d : t.tensor_type().shape().dim())
        s.dims.push_back(d.has_dim_value() && d.dim_value() >= 0 ? Dim(d.dim_value()) : Dim::dynamic());
    return s;
}

// The library's inference merges what it infers with what the file declares: forget the declarations.
void strip_declared_shapes(onnx::ModelProto& m) {
    auto* g = m.mutable_graph();
    g->clear_value_info();
    for (auto& out : *g->mutable_output()) out.clear_type();
}

std::optional<std::string> newer_than_library(const OnnxModel& model) {
    const auto& known = onnx::OpSchemaRegistry::DomainToVersionRange::Instance().Map();
    const auto it = known.find(onnx::ONNX_DOMAIN);
    if (it == known.end()) return "the ONNX library knows no default domain";
    if (model.default_opset() > it->second.second)
        return fmt::format("the model imports opset {}; the ONNX library knows opsets up to {}", model.default_opset(),
                           it->second.second);
    return std::nullopt;
}

// The library's strict mode names a failing node by its name: each node of the copy gets its index as one.
constexpr std::string_view kNodeTag = "irlint-node-";

void name_nodes_by_index(onnx::ModelProto& m) {
    auto* nodes = m.mutable_graph()->mutable_node();
    for (int i = 0; i < nodes->size(); ++i) (*nodes)[i].set_name(fmt::format("{}{}", kNodeTag, i));
}

// Strict mode infers every node it can, then throws one error listing each failing node on a line of its
// own: "(op_type:Transpose, node name: irlint-node-3): [TypeInferenceError] Invalid attribute perm ...".
// Lines of a node inside a subgraph name no index of ours and stay with the node that holds the subgraph.
std::map<size_t, std::string> rejected_nodes(std::string_view what, size_t node_count) {
    std::map<size_t, std::string> out;
    const std::string marker = fmt::format("node name: {}", kNodeTag);
    size_t at = 0;
    while ((at = what.find(marker, at)) != std::string_view::npos) {
        at += marker.size();
        size_t index = 0, digits = 0;
        while (at + digits < what.size() && std::isdigit(static_cast<unsigned char>(what[at + digits])) && digits < 10)
            index = index * 10 + static_cast<size_t>(what[at + digits++] - '0');
        const size_t close = what.find("): ", at + digits);
        if (digits == 0 || index >= node_count || close != at + digits) continue;
        const size_t end = what.find('\n', close);
        out[index] = std::string(what.substr(close + 3, end == std::string_view::npos ? end : end - close - 3));
    }
    return out;
}

}  // namespace

LibraryShapes library_shape_inference(const OnnxModel& model) {
    LibraryShapes out;
    if (!model.proto) {
        out.skipped = "no model";
        return out;
    }
    if ((out.skipped = newer_than_library(model))) return out;
    onnx::ModelProto copy(*model.proto);
    strip_declared_shapes(copy);
    name_nodes_by_index(copy);
    remove_library_hazards(copy);
    try {
        onnx::ShapeInferenceOptions options{false, 1, true};
        onnx::shape_inference::InferShapes(copy, onnx::OpSchemaRegistry::Instance(), options);
    } catch (const std::exception& e) {
        out.rejected = rejected_nodes(e.what(), model.nodes.size());
        if (out.rejected.empty()) {
            out.skipped = fmt::format("ONNX's shape inference failed: {}", e.what());
            return out;
        }
    }
    const auto& g = copy.graph();
    for (const auto* list : {&g.value_info(), &g.output()})
        for (const auto& vi : *list) {
            if (!vi.type().has_tensor_type()) continue;
            const auto& t = vi.type().tensor_type();
            if (t.has_shape()) out.shapes[vi.name()] = shape_of(vi.type());
            if (t.elem_type() != 0) out.elem_types[vi.name()] = t.elem_type();
        }
    return out;
}

}  // namespace irlint
