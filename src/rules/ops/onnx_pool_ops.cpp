// ONNX's pooling operators through the registry: AveragePool, MaxPool, GlobalAveragePool and GlobalMaxPool at
// each of their versions, mapped onto the one pooling description under ONNX's own output-length rule
// (rules/onnx_pool.hpp). What OpenVINO or PyTorch would do differently with the same node is a step after
// inference (onnx/onnx_divergence), not part of ONNX's answer.

#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "rules/onnx_pool.hpp"
#include "rules/ops/onnx_families.hpp"

namespace irlint {

namespace {

// The element types each version takes (its schema's type constraint T).
bool takes_type(const OnnxPoolOp& op, ElementType t) {
    if (t == ElementType::f16 || t == ElementType::f32 || t == ElementType::f64) return true;
    if (t == ElementType::bf16) return op.version >= 22;
    if (t == ElementType::i8 || t == ElementType::u8) return op.kind == OnnxPoolKind::max && op.version >= 12;
    return false;
}

void infer_pool(OnnxPoolKind kind, OpContext& ctx, std::vector<OpOutput>& out) {
    const OnnxPoolOp op{kind, ctx.version()};
    if (!ctx.expect_inputs(1)) return;
    const Shape& input = ctx.shape(0);
    if (const auto t = ctx.type(0); t && !takes_type(op, *t))
        return ctx.invalid_input(fmt::format("{} does not take {} input", op.name(), element_type_name(*t)));
    const OnnxPoolSetup setup = map_onnx_pool(op, ctx.layer(), input);
    for (const auto& e : setup.errors) ctx.invalid_attribute(e);
    if (!setup.usable()) return;
    const PoolShape shape = infer_onnx_pool_shape(op, setup, input);
    if (shape.error) return ctx.invalid_attribute(*shape.error);
    OpOutput values{shape.output, ctx.type(0), {}, {}};
    if (ctx.explain() && !shape.axis_formulas.empty() && !shape.output.rank_dynamic) {
        values.dim_notes.assign(shape.output.rank(), "");
        for (size_t a = 0; a < shape.axis_formulas.size() && a + 2 < values.dim_notes.size(); ++a)
            values.dim_notes[a + 2] = shape.axis_formulas[a];
    }
    const size_t outputs = std::max<size_t>(onnx_output_count(op, ctx.layer()), 1);
    out.push_back(values);
    if (outputs > 1) out.push_back(OpOutput{shape.output, ElementType::i64, {}, values.dim_notes});
}

void infer_average_pool(OpContext& ctx, std::vector<OpOutput>& out) { infer_pool(OnnxPoolKind::average, ctx, out); }
void infer_max_pool(OpContext& ctx, std::vector<OpOutput>& out) { infer_pool(OnnxPoolKind::max, ctx, out); }
void infer_global_average_pool(OpContext& ctx, std::vector<OpOutput>& out) {
    infer_pool(OnnxPoolKind::global_average, ctx, out);
}
void infer_global_max_pool(OpContext& ctx, std::vector<OpOutput>& out) { infer_pool(OnnxPoolKind::global_max, ctx, out); }

constexpr std::string_view kWindowChecks =
    "kernel_shape given, one per spatial axis, >= 1; strides, dilations >= 1; pads >= 0, 2 per axis; auto_pad; "
    "attributes of the version; input type";

}  // namespace

std::span<const OpEntry> onnx_pool_ops() {
    static const std::vector<OpEntry> entries = [] {
        std::vector<OpEntry> out;
        for (int v : {1, 7, 10, 11, 19, 22})
            out.push_back(onnx_op("AveragePool", v, infer_average_pool, "shape, type", kWindowChecks));
        for (int v : {1, 8, 10, 11, 12, 22})
            out.push_back(onnx_op("MaxPool", v, infer_max_pool, "shape, type (values, indices)", kWindowChecks));
        for (int v : {1, 22}) {
            out.push_back(onnx_op("GlobalAveragePool", v, infer_global_average_pool, "shape, type", "input type"));
            out.push_back(onnx_op("GlobalMaxPool", v, infer_global_max_pool, "shape, type", "input type"));
        }
        return out;
    }();
    return entries;
}

}  // namespace irlint
