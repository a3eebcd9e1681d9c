// ONNX's normalizations: each gives Y of X's shape and type; BatchNormalization and LayerNormalization have
// statistics outputs besides ([C], and X's shape with the normalized axes 1).

#include <algorithm>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "rules/ops/onnx_nn.hpp"
#include "rules/ops/shape_util.hpp"

namespace irlint::onnx_nn {

namespace {

// How many outputs the node names (up to its last named one: an empty name leaves an optional one out).
size_t named_outputs(const Layer& node) {
    const auto last =
        std::find_if(node.outputs.rbegin(), node.outputs.rend(), [](const Port& o) { return !o.names.empty(); });
    return static_cast<size_t>(node.outputs.rend() - last);
}

// stash_type: an ONNX TensorProto data type, one of the float types.
std::optional<ElementType> read_stash_type(OpContext& ctx) {
    const auto v = ctx.attr_int("stash_type", 1);
    if (!v) return std::nullopt;
    switch (*v) {
        case 1:
            return ElementType::f32;
        case 10:
            return ElementType::f16;
        case 11:
            return ElementType::f64;
        case 16:
            return ElementType::bf16;
        default:
            break;
    }
    ctx.invalid_attribute(fmt::format("stash_type {} is not a float type (1, 10, 11 or 16)", *v));
    return std::nullopt;
}

// The first normalized axis of X. ONNX's inference refuses only an axis below -rank: one past the last dim
// normalizes no dim (ONNX Runtime refuses it when it runs).
std::optional<size_t> read_axis(OpContext& ctx, const Shape& x, int64_t fallback) {
    const auto axis = ctx.attr_int("axis", fallback);
    if (!axis || x.rank_dynamic) return std::nullopt;
    const auto rank = static_cast<int64_t>(x.rank());
    if (*axis < -rank) {
        ctx.invalid_attribute(fmt::format("axis {} is below -{}, the rank of X {}", *axis, rank, x.str()));
        return std::nullopt;
    }
    return static_cast<size_t>(std::min(*axis < 0 ? *axis + rank : *axis, rank));
}

bool check_float_inputs(OpContext& ctx, size_t count) {
    for (size_t i = 0; i < count && i < ctx.input_count(); ++i)
        if (!check_float(ctx, i, i == 0 ? "X" : "a parameter")) return false;
    return true;
}

// Y: X's shape and type.
OpOutput same_as_x(const OpContext& ctx) { return OpOutput{ctx.shape(0), ctx.type(0), {}, {}}; }

// ---- BatchNormalization --------------------------------------------------------------------------------

// X, scale, B, mean, var: Y is X; the statistics outputs (running mean and variance from 14; mean, var,
// saved mean, saved var before) are [C] as mean and var are.
void infer_batch_norm(OpContext& ctx, std::vector<OpOutput>& outs) {
    if (!ctx.expect_inputs(5)) return;
    if (!check_float_inputs(ctx, 5)) return;
    if (ctx.version() < 15)
        for (size_t i = 1; i < 5; ++i)
            if (!check_same_type(ctx, 0, i)) return;
    const Shape& x = ctx.shape(0);
    for (size_t i = 1; i < 5; ++i) {
        const Shape& p = ctx.shape(i);
        if (ctx.version() >= 9 && !p.rank_dynamic && p.rank() != 1)
            return ctx.invalid_input(fmt::format("input {} {} must be 1-D", i, p.str()));
        if (ctx.version() >= 9 && !p.rank_dynamic && !x.rank_dynamic && x.rank() > 1 &&
            !p.dims[0].compatible(x.dims[1]))
            return ctx.invalid_input(
                fmt::format("input {} {} does not have X's {} channels", i, p.str(), x.dims[1].str()));
    }
    const size_t outputs = named_outputs(ctx.layer());
    if (ctx.version() >= 14 && outputs > 0) {  // a made-up node without outputs says nothing of them
        const auto training = attr_flag(ctx, "training_mode", false);
        if (!training) return;
        if (*training && outputs != 3)
            return ctx.invalid_input(fmt::format("training_mode=1 needs 3 outputs, the node has {}", outputs));
        if (!*training && outputs > 1)
            return ctx.invalid_input(fmt::format("training_mode=0 gives 1 output, the node has {}", outputs));
    }
    if (!ctx.attr_float("epsilon", 1e-5) || !ctx.attr_float("momentum", 0.9)) return;
    Shape channels = ctx.shape(3);
    if (ctx.version() >= 9 && !x.rank_dynamic) {
        channels = Shape{false, {x.rank() > 1 ? x.dims[1] : Dim(1)}};
        for (size_t i = 1; i < 5; ++i)
            if (!ctx.shape(i).rank_dynamic)
                if (const auto m = Dim::merge(channels.dims[0], ctx.shape(i).dims[0])) channels.dims[0] = *m;
    }
    outs.push_back(same_as_x(ctx));
    const size_t stats = ctx.version() >= 14 ? 2 : 4;
    for (size_t i = 0; i < stats; ++i) {
        const size_t typed_by = ctx.version() >= 14 ? 3 + i : 0;
        outs.push_back(OpOutput{channels, ctx.type(typed_by), {}, {}});
    }
}

// ---- LayerNormalization --------------------------------------------------------------------------------

// X, Scale, B: Y is X; Mean and InvStdDev are X with the axes from `axis` on set to 1, of stash_type.
void infer_layer_norm(OpContext& ctx, std::vector<OpOutput>& outs) {
    if (!ctx.expect_inputs(2, 3)) return;
    if (!check_float_inputs(ctx, 3) || !check_same_type(ctx, 0, 1) || !check_same_type(ctx, 0, 2)) return;
    const auto stash = read_stash_type(ctx);
    const auto axis = read_axis(ctx, ctx.shape(0), -1);
    if (ctx.failed() || !ctx.attr_float("epsilon", 1e-5)) return;
    OpOutput stats{ctx.shape(0), stash, {}, {}};
    if (axis)
        for (size_t d = *axis; d < stats.shape.rank(); ++d) stats.shape.dims[d] = Dim(1);
    outs.push_back(same_as_x(ctx));
    outs.push_back(stats);
    outs.push_back(stats);
}

// ---- the others: Y is X --------------------------------------------------------------------------------

// X, scale (RMSNormalization: axis, epsilon, stash_type).
void infer_rms_norm(OpContext& ctx, std::vector<OpOutput>& outs) {
    if (!ctx.expect_inputs(2)) return;
    if (!check_float_inputs(ctx, 2)) return;
    read_stash_type(ctx);
    read_axis(ctx, ctx.shape(0), -1);
    if (ctx.failed() || !ctx.attr_float("epsilon", 1e-5)) return;
    outs.push_back(same_as_x(ctx));
}

// X, scale, bias with num_groups: C divisible by num_groups; scale and bias [num_groups] (18) or [C] (21).
void infer_group_norm(OpContext& ctx, std::vector<OpOutput>& outs) {
    if (!ctx.expect_inputs(3)) return;
    if (!check_float_inputs(ctx, 3) || !check_same_type(ctx, 0, 1) || !check_same_type(ctx, 0, 2)) return;
    const auto groups = ctx.attr_int("num_groups");
    if (ctx.version() >= 21) read_stash_type(ctx);
    if (ctx.failed() || !groups || !ctx.attr_float("epsilon", 1e-5)) return;
    const Shape& x = ctx.shape(0);
    if (*groups < 1) return ctx.invalid_attribute(fmt::format("num_groups is {}, must be >= 1", *groups));
    if (!x.rank_dynamic && x.rank() < 2)
        return ctx.invalid_input(fmt::format("X {} needs at least 2 dims (N, C)", x.str()));
    if (!x.rank_dynamic && x.dims[1].is_static() && x.dims[1].length() % *groups != 0)
        return ctx.invalid_input(
            fmt::format("X's {} channels are not divisible by num_groups {}", x.dims[1].length(), *groups));
    outs.push_back(same_as_x(ctx));
}

// input, scale, B: input rank >= 3 as ONNX Runtime asks.
void infer_instance_norm(OpContext& ctx, std::vector<OpOutput>& outs) {
    if (!ctx.expect_inputs(3)) return;
    if (!check_float_inputs(ctx, 3) || !check_same_type(ctx, 0, 1) || !check_same_type(ctx, 0, 2)) return;
    if (!ctx.attr_float("epsilon", 1e-5)) return;
    outs.push_back(same_as_x(ctx));
}

void infer_lrn(OpContext& ctx, std::vector<OpOutput>& outs) {
    if (!ctx.expect_inputs(1)) return;
    if (!check_float_inputs(ctx, 1)) return;
    const auto size = ctx.attr_int("size");
    if (!size || !ctx.attr_float("alpha", 1e-4) || !ctx.attr_float("beta", 0.75) || !ctx.attr_float("bias", 1.0))
        return;
    if (*size < 1) return ctx.invalid_attribute(fmt::format("size is {}, must be >= 1", *size));
    outs.push_back(same_as_x(ctx));
}

void infer_mvn(OpContext& ctx, std::vector<OpOutput>& outs) {
    if (!ctx.expect_inputs(1)) return;
    if (!check_float_inputs(ctx, 1)) return;
    const auto axes = ctx.attr_ints("axes", std::vector<int64_t>{0, 2, 3});
    if (!axes) return;
    const Shape& x = ctx.shape(0);
    std::string error;
    if (!x.rank_dynamic && !normalize_axes(*axes, static_cast<int64_t>(x.rank()), false, &error))
        return ctx.invalid_attribute(fmt::format("axes: {} for X {}", error, x.str()));
    outs.push_back(same_as_x(ctx));
}

void infer_lp_norm(OpContext& ctx, std::vector<OpOutput>& outs) {
    if (!ctx.expect_inputs(1)) return;
    if (!check_float_inputs(ctx, 1)) return;
    const auto p = ctx.attr_int("p", 2);
    if (!p || !ctx.attr_int("axis", -1)) return;
    if (*p != 1 && *p != 2) return ctx.invalid_attribute(fmt::format("p is {}, must be 1 or 2", *p));
    outs.push_back(same_as_x(ctx));
}

}  // namespace

std::vector<OpEntry> norm_entries() {
    std::vector<OpEntry> out;
    for (int v : {1, 6, 7, 9, 14, 15})
        out.push_back(onnx_op("BatchNormalization", v, infer_batch_norm, "shape, type (Y and the statistics)",
                              "float types; parameters 1-D of X's channels; outputs as training_mode says"));
    for (int v : {1, 6, 22})
        out.push_back(onnx_op("InstanceNormalization", v, infer_instance_norm, "shape, type", "float types"));
    out.push_back(onnx_op("LayerNormalization", 17, infer_layer_norm, "shape, type (Y, Mean, InvStdDev)",
                          "axis in range; stash_type a float type; float types"));
    for (int v : {18, 21})
        out.push_back(onnx_op("GroupNormalization", v, infer_group_norm, "shape, type",
                              "num_groups >= 1 divides the channels; stash_type; float types"));
    out.push_back(onnx_op("RMSNormalization", 23, infer_rms_norm, "shape, type",
                          "axis in range; stash_type a float type; float types"));
    for (int v : {1, 13}) out.push_back(onnx_op("LRN", v, infer_lrn, "shape, type", "size >= 1; float type"));
    for (int v : {9, 13})
        out.push_back(onnx_op("MeanVarianceNormalization", v, infer_mvn, "shape, type", "axes in range; float type"));
    for (int v : {1, 22})
        out.push_back(onnx_op("LpNormalization", v, infer_lp_norm, "shape, type", "p is 1 or 2; axis in range"));
    return out;
}

}  // namespace irlint::onnx_nn
