#include "onnx/onnx_infer_cross.hpp"

#include <cctype>
#include <string_view>

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

// The library names a failing node by its name: each node of the copy gets one that says its index.
constexpr std::string_view kNodeTag = "irlint-node-";

void tag_nodes(onnx::ModelProto& m) {
    auto& nodes = *m.mutable_graph()->mutable_node();
    for (int i = 0; i < nodes.size(); ++i) nodes.Mutable(i)->set_name(fmt::format("{}{}", kNodeTag, i));
}

std::map<size_t, std::string> hazards(const onnx::GraphProto& g) {
    const FileShapes shapes = file_shapes(g);
    std::map<size_t, std::string> out;
    for (int i = 0; i < g.node_size(); ++i)
        if (auto why = library_hazard(g.node(i), shapes)) out[static_cast<size_t>(i)] = std::move(*why);
    return out;
}

// The strict library's one message for all failing nodes, "(op_type:T, node name: TAG): message" a line each,
// split by node index. A message stops where the next node's begins.
std::map<size_t, std::string> errors_by_node(std::string_view text) {
    const std::string marker = fmt::format("node name: {}", kNodeTag);
    std::map<size_t, std::string> out;
    size_t at = text.find(marker);
    while (at != std::string_view::npos) {
        size_t p = at + marker.size();
        size_t index = 0, digits = 0;
        for (; p < text.size() && std::isdigit(static_cast<unsigned char>(text[p])) && digits < 18; ++p, ++digits)
            index = index * 10 + static_cast<size_t>(text[p] - '0');
        const size_t next = text.find(marker, p);
        if (digits == 0 || text.substr(p, 3) != "): ") {
            at = next;
            continue;
        }
        p += 3;
        size_t end = next == std::string_view::npos ? text.size() : text.rfind("\n(op_type:", next);
        if (end == std::string_view::npos || end < p) end = next == std::string_view::npos ? text.size() : next;
        std::string message(text.substr(p, end - p));
        while (!message.empty() && std::isspace(static_cast<unsigned char>(message.back()))) message.pop_back();
        out.emplace(index, std::move(message));
        at = next;
    }
    return out;
}

void collect_values(const onnx::GraphProto& g, LibraryShapes& out) {
    for (const auto* list : {&g.value_info(), &g.output()})
        for (const auto& vi : *list) {
            if (!vi.type().has_tensor_type()) continue;
            const auto& t = vi.type().tensor_type();
            if (t.has_shape()) out.shapes[vi.name()] = shape_of(vi.type());
            if (t.elem_type() != 0) out.elem_types[vi.name()] = t.elem_type();
        }
}

}  // namespace

LibraryShapes library_shape_inference(const OnnxModel& model, LibraryErrors errors) {
    LibraryShapes out;
    if (!model.proto) {
        out.skipped = "no model";
        return out;
    }
    if ((out.skipped = newer_than_library(model))) return out;
    onnx::ModelProto copy(*model.proto);
    strip_declared_shapes(copy);
    const bool strict = errors == LibraryErrors::reported;
    if (strict) {
        tag_nodes(copy);
        out.withheld = hazards(copy.graph());
    }
    remove_library_hazards(copy);
    try {
        onnx::ShapeInferenceOptions options{false, strict ? 1 : 0, true};
        onnx::shape_inference::InferShapes(copy, onnx::OpSchemaRegistry::Instance(), options);
    } catch (const std::exception& e) {
        // Strict, the library throws after the last node, with what it inferred written into the copy.
        out.node_errors = strict ? errors_by_node(e.what()) : std::map<size_t, std::string>{};
        if (out.node_errors.empty()) {
            out.skipped = fmt::format("ONNX's shape inference failed: {}", e.what());
            return out;
        }
    }
    collect_values(copy.graph(), out);
    return out;
}

}  // namespace irlint
