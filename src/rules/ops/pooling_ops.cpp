// The pooling ops as registry entries. A pooling layer of a model is checked by rules/pool_rules (its
// attribute warnings, hints and conventions); these entries give the registry's one view of every op, for
// `shape --op`, docs/ops.md and the coverage counts, with the same inference (rules/pooling).

#include <fmt/format.h>

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
    for (const AttrIssue& issue : attrs.issues)
        if (issue.severity == Severity::error) ctx.invalid_attribute(issue.message);
    if (!attrs.usable()) return;
    PoolShape shape;
    if (op.is_adaptive()) {
        const auto sizes = ctx.exact_values(1);
        if (!sizes) ctx.value_unknown("output_size (input 1) is not known");
        shape = infer_adaptive_shape(ctx.shape(0), ctx.shape(1), sizes);
    } else {
        shape = infer_pool_shape(op, attrs.desc, ctx.shape(0), ctx.explain() ? Formulas::written : Formulas::skipped);
    }
    if (shape.error) return ctx.invalid_input(*shape.error);
    std::vector<std::string> notes;
    if (ctx.explain()) notes.resize(shape.output.rank());
    for (size_t i = 0; i < shape.axis_formulas.size() && i + 2 < notes.size(); ++i) notes[i + 2] = shape.axis_formulas[i];
    const auto type = ctx.type(0);
    std::vector<std::optional<ElementType>> types{type};
    if (op.has_index_output()) types.push_back(attrs.desc.index_type);
    for (const auto& t : types) out.push_back({shape.output, t, std::nullopt, notes});
}

constexpr std::string_view kWindowChecks =
    "kernel, strides, pads, dilations lengths; zero strides/dilations/kernels; auto_pad, rounding_type; window "
    "larger than the padded input; exclude-pad windows wholly in padding";

const OpEntry kPoolingOps[] = {
    {"AvgPool", 1, 1, infer_pool<PoolKind::avg_pool>, "shape, type", kWindowChecks},
    {"AvgPool", 14, 14, infer_pool<PoolKind::avg_pool>, "shape, type", kWindowChecks},
    {"AvgPool", 16, 16, infer_pool<PoolKind::avg_pool>, "shape, type", kWindowChecks},
    {"MaxPool", 1, 1, infer_pool<PoolKind::max_pool>, "shape, type", kWindowChecks},
    {"MaxPool", 8, 8, infer_pool<PoolKind::max_pool>, "shape, type (values and indices)",
     "as MaxPool-1, and axis, index_element_type"},
    {"MaxPool", 14, 14, infer_pool<PoolKind::max_pool>, "shape, type (values and indices)",
     "as MaxPool-8, and rounding_type=ceil_torch"},
    {"AdaptiveAvgPool", 8, 8, infer_pool<PoolKind::adaptive_avg_pool>, "shape, type",
     "input rank 3-5; output_size length and values"},
    {"AdaptiveMaxPool", 8, 8, infer_pool<PoolKind::adaptive_max_pool>, "shape, type (values and indices)",
     "input rank 3-5; output_size length and values; index_element_type i32 or i64"},
};

}  // namespace

std::span<const OpEntry> pooling_ops() { return kPoolingOps; }

}  // namespace irlint
