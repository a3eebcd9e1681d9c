// The pooling ops as registry entries: a pooling layer is inferred here and compared by the engine's one
// comparator (rules/op_rules); the hint that would make a wrong declaration right is its step after inference
// (rules/pool_rules).

#include <fmt/format.h>

#include "rules/ops/invariants.hpp"
#include "rules/ops/op_registry.hpp"
#include "rules/pool_attrs.hpp"
#include "rules/pool_rules.hpp"
#include "rules/pooling.hpp"

namespace irlint {

namespace {

template <PoolKind kKind>
void infer_pool(OpContext& ctx, std::vector<OpOutput>& out) {
    const PoolOp op{kKind, ctx.version()};
    if (!ctx.expect_inputs(op.is_adaptive() ? 2 : 1)) return;
    const ParsedAttrs attrs = parse_pool_attrs(op, ctx.layer().attrs);
    for (const AttrIssue& issue : attrs.issues) {
        if (issue.severity == Severity::error) ctx.invalid_attribute(issue.message);
        else ctx.attribute_warning(issue.message);
    }
    if (!attrs.usable()) return;
    PoolShape shape;
    if (op.is_adaptive()) {
        const auto sizes = ctx.exact_values(1);
        if (!sizes) {
            ctx.value_unknown("output_size (input 1) is not known");
            ctx.invariant(invariants::inferred_bounds());  // the batch, the channels and the rank
        }
        shape = infer_adaptive_shape(ctx.shape(0), ctx.shape(1), sizes);
    } else {
        shape = infer_pool_shape(op, attrs.desc, ctx.shape(0), ctx.explain() ? Formulas::written : Formulas::skipped);
    }
    if (shape.error) return ctx.invalid_attribute(*shape.error);  // the window does not fit: the attributes are wrong
    std::vector<std::string> notes;
    if (ctx.explain() && !shape.output.rank_dynamic) {
        notes.resize(shape.output.rank());
        if (notes.size() >= 2) {
            notes[0] = fmt::format("{} (the input's batch)", shape.output.dims[0].str());
            notes[1] = fmt::format("{} (the input's channels)", shape.output.dims[1].str());
        }
    }
    for (size_t i = 0; i < shape.axis_formulas.size() && i + 2 < notes.size(); ++i) notes[i + 2] = shape.axis_formulas[i];
    const auto type = ctx.type(0);
    std::vector<std::optional<ElementType>> types{type};
    if (op.has_index_output()) types.push_back(attrs.desc.index_type);
    for (const auto& t : types) out.push_back({shape.output, t, std::nullopt, notes});
}

// A conflict on the values output: the mode, convention or single value that would give the declared dims.
template <PoolKind kKind>
std::optional<std::string> pooling_hint(const OpContext& ctx, size_t output, const Shape& declared) {
    const PoolOp op{kKind, ctx.version()};
    if (output != 0 || ctx.input_count() < 1) return std::nullopt;
    const ParsedAttrs attrs = parse_pool_attrs(op, ctx.layer().attrs);
    if (!attrs.usable()) return std::nullopt;
    return pool_shape_hint(op, attrs.desc, ctx.shape(0), declared);
}

// The values output has the input's type; the indices output index_element_type. Model Optimizer's Python
// graph gives every output of an op without a type rule of its own the first input's type.
OpFindingSteps::TypeWords pooling_type_words(const OpContext& ctx, size_t output, ElementType inferred) {
    if (output == 0) return {"values", "the input element type", ""};
    (void)ctx;
    return {"indices", fmt::format("index_element_type={}", element_type_name(inferred)),
            "Model Optimizer's Python graph, which POT saves through, gives an unconnected indices port the input's "
            "type"};
}

// A pooling layer's inference is exact: its declared dims are held to how OpenVINO writes them.
constexpr OpFindingSteps kAvgSteps{true, pooling_hint<PoolKind::avg_pool>, pooling_type_words};
constexpr OpFindingSteps kMaxSteps{true, pooling_hint<PoolKind::max_pool>, pooling_type_words};
constexpr OpFindingSteps kAdaptiveSteps{true, nullptr, pooling_type_words};

constexpr std::string_view kWindowChecks =
    "kernel, strides, pads, dilations lengths; zero strides/dilations/kernels; auto_pad, rounding_type; window "
    "larger than the padded input; exclude-pad windows wholly in padding";

constexpr OpFormat kIr = OpFormat::ir;

const OpEntry kPoolingOps[] = {
    {"AvgPool", 1, 1, infer_pool<PoolKind::avg_pool>, "shape, type", kWindowChecks, kIr, {}, &kAvgSteps},
    {"AvgPool", 14, 14, infer_pool<PoolKind::avg_pool>, "shape, type", kWindowChecks, kIr, {}, &kAvgSteps},
    {"AvgPool", 16, 16, infer_pool<PoolKind::avg_pool>, "shape, type", kWindowChecks, kIr, {}, &kAvgSteps},
    {"MaxPool", 1, 1, infer_pool<PoolKind::max_pool>, "shape, type", kWindowChecks, kIr, {}, &kMaxSteps},
    {"MaxPool", 8, 8, infer_pool<PoolKind::max_pool>, "shape, type (values and indices)",
     "as MaxPool-1, and axis, index_element_type", kIr, {}, &kMaxSteps},
    {"MaxPool", 14, 14, infer_pool<PoolKind::max_pool>, "shape, type (values and indices)",
     "as MaxPool-8, and rounding_type=ceil_torch", kIr, {}, &kMaxSteps},
    {"AdaptiveAvgPool", 8, 8, infer_pool<PoolKind::adaptive_avg_pool>, "shape, type",
     "input rank 3-5; output_size length and values", kIr, {}, &kAdaptiveSteps},
    {"AdaptiveMaxPool", 8, 8, infer_pool<PoolKind::adaptive_max_pool>, "shape, type (values and indices)",
     "input rank 3-5; output_size length and values; index_element_type i32 or i64", kIr, {}, &kAdaptiveSteps},
};

}  // namespace

std::span<const OpEntry> pooling_ops() { return kPoolingOps; }

}  // namespace irlint
