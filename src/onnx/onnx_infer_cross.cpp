#include "onnx/onnx_infer_cross.hpp"

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
    remove_library_hazards(copy);
    try {
        onnx::ShapeInferenceOptions options{false, 0, true};
        onnx::shape_inference::InferShapes(copy, onnx::OpSchemaRegistry::Instance(), options);
    } catch (const std::exception& e) {
        out.skipped = fmt::format("ONNX's shape inference failed: {}", e.what());
        return out;
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
