#include <vector>

#include "rules/ops/onnx_families.hpp"
#include "rules/ops/onnx_microsoft.hpp"

namespace irlint {

namespace {

std::optional<TensorValue> value_or_none(const TensorValue* v) { return v ? std::optional(*v) : std::nullopt; }

// A call of a model-local function: its body graph (as the ONNX adapter instantiated it for this call, the
// call's attributes in place) inferred again from the call's inputs. The body's Parameters are the function's
// inputs in order, its Results the outputs.
void infer_function_call(OpContext& ctx, std::vector<OpOutput>& out) {
    const Model* model = ctx.model();
    const Layer& call = ctx.layer();
    if (!model || call.bodies.empty() || call.bodies[0] >= model->graphs.size()) {
        ctx.value_unknown("the function's body is not available");
        return;
    }
    const Graph& body = model->graphs[call.bodies[0]];
    BodyPorts parameters;
    size_t k = 0;
    for (const Layer& l : body.layers) {
        if (l.kind != LayerKind::parameter) continue;
        if (ctx.has_input(k)) parameters[&l] = {ctx.shape(k), ctx.type(k), value_or_none(ctx.value(k))};
        ++k;
    }
    const auto results = ctx.reinfer_body(call.bodies[0], parameters);
    if (!results) ctx.value_unknown("the function's body is nested too deep to infer");
    for (const Layer& l : body.layers) {
        if (l.kind != LayerKind::result) continue;
        OpOutput o{Shape::dynamic_rank(), std::nullopt, {}, {}};
        if (results)
            if (const auto it = results->find(&l); it != results->end())
                o = OpOutput{it->second.shape, it->second.type, it->second.value, {}};
        out.push_back(std::move(o));
    }
}

}  // namespace

const OpEntry& onnx_function_call_op() {
    static const OpEntry entry = onnx_op("(function)", 1, infer_function_call, "shape, type",
                                         "the body of the model-local function, with the call's attributes");
    return entry;
}

std::span<const OpEntry> onnx_ops() {
    static const std::vector<OpEntry> all = [] {
        std::vector<OpEntry> out;
        for (const auto family : {onnx_elementwise_ops, onnx_shape_ops, onnx_pool_ops, onnx_nn_ops, onnx_misc_ops, onnx_control_ops,
                                  onnx_microsoft_ops, onnx_microsoft_more_ops, onnx_ml_ops})
            for (const OpEntry& e : family()) out.push_back(e);
        return out;
    }();
    return all;
}

}  // namespace irlint
