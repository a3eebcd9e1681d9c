// ONNX's windowed ops: Conv, ConvInteger, QLinearConv, DeformConv and LpPool share ONNX's conv-pool output
// length (onnx_pooled_length of rules/onnx_pool.hpp, the pools' own, with ONNX's SAME pads); ConvTranspose,
// MaxUnpool, GlobalLpPool, MaxRoiPool and Col2Im have their own; CausalConvWithState keeps its input's length.

#include <algorithm>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/checked_int.hpp"
#include "core/text.hpp"
#include "rules/ops/onnx_nn.hpp"
#include "rules/ops/shape_manipulation_common.hpp"
#include "rules/onnx_pool.hpp"
#include "rules/pooling.hpp"

namespace irlint::onnx_nn {

namespace {

// ---- the window attributes -----------------------------------------------------------------------------

struct Window {
    std::vector<int64_t> kernel, strides, dilations, pads;  // pads: begins then ends
    std::string auto_pad = "NOTSET";
    bool pads_given = false;
    bool ceil = false;
    bool drops_last_window = false;  // ceil_mode's window in the right padding (LpPool-22)
};

// A list attribute of `n` values, each >= least; the fallback when absent.
std::optional<std::vector<int64_t>> per_axis(OpContext& ctx, std::string_view name, size_t n, int64_t fallback,
                                             int64_t least) {
    auto v = ctx.attr_ints(name, std::vector<int64_t>(n, fallback));
    if (!v) return std::nullopt;
    if (v->size() != n) {
        ctx.invalid_attribute(fmt::format("{} has {} values ({}), expected {}", name, v->size(), join_ints(*v), n));
        return std::nullopt;
    }
    if (std::any_of(v->begin(), v->end(), [least](int64_t x) { return x < least; })) {
        ctx.invalid_attribute(fmt::format("{} ({}) must all be >= {}", name, join_ints(*v), least));
        return std::nullopt;
    }
    return v;
}

std::optional<std::string> read_auto_pad(OpContext& ctx) {
    const std::string_view* a = ctx.attr("auto_pad");
    if (!a) return std::string("NOTSET");
    for (const std::string_view ok : {"NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID"})
        if (*a == ok) return std::string(ok);
    ctx.invalid_attribute(fmt::format("auto_pad \"{}\" is not NOTSET, SAME_UPPER, SAME_LOWER or VALID", excerpt(*a)));
    return std::nullopt;
}

// The kernel: the attribute, else the weights' spatial dims (nullopt without a problem when one is not static).
std::optional<std::vector<int64_t>> read_kernel(OpContext& ctx, size_t n, const Shape* weights) {
    if (ctx.attr("kernel_shape")) {
        auto k = per_axis(ctx, "kernel_shape", n, 1, 1);
        if (k && weights && !weights->rank_dynamic && weights->rank() == n + 2)
            for (size_t i = 0; i < n; ++i)
                if (weights->dims[i + 2].is_static() && weights->dims[i + 2].length() != (*k)[i]) {
                    // ONNX's inference takes the attribute; ONNX Runtime refuses a kernel the weights do not have.
                    ctx.invalid_attribute(
                        fmt::format("kernel_shape ({}) differs from the weights {}", join_ints(*k), weights->str()));
                    return std::nullopt;
                }
        return k;
    }
    if (!weights) {
        ctx.invalid_attribute("kernel_shape is missing");
        return std::nullopt;
    }
    if (weights->rank_dynamic) return std::nullopt;
    if (weights->rank() != n + 2) {
        ctx.invalid_input(fmt::format("the weights {} have {} spatial dims, the input {}", weights->str(),
                                      weights->rank() < 2 ? 0 : weights->rank() - 2, n));
        return std::nullopt;
    }
    std::vector<int64_t> k;
    for (size_t i = 2; i < weights->rank(); ++i) {
        if (!weights->dims[i].is_static()) return std::nullopt;
        k.push_back(weights->dims[i].length());
    }
    if (std::any_of(k.begin(), k.end(), [](int64_t x) { return x < 1; })) {
        ctx.invalid_input(fmt::format("the kernel {} has a dim below 1", weights->str()));
        return std::nullopt;
    }
    return k;
}

struct WindowRules {
    bool dilations = true;
    bool ceil_mode = false;
    bool auto_pad = true;
};

// The window's attributes for n spatial axes; nullopt without a problem when the kernel comes from weights'
// dims that are not static.
std::optional<Window> read_window(OpContext& ctx, size_t n, const Shape* weights, WindowRules rules) {
    Window w;
    auto kernel = read_kernel(ctx, n, weights);
    auto strides = per_axis(ctx, "strides", n, 1, 1);
    auto dilations = rules.dilations ? per_axis(ctx, "dilations", n, 1, 1) : std::vector<int64_t>(n, 1);
    auto pads = per_axis(ctx, "pads", 2 * n, 0, 0);
    auto auto_pad = rules.auto_pad ? read_auto_pad(ctx) : std::string("NOTSET");
    auto ceil = rules.ceil_mode ? attr_flag(ctx, "ceil_mode", false) : false;
    if (!kernel || !strides || !dilations || !pads || !auto_pad || !ceil) return std::nullopt;
    w.kernel = std::move(*kernel);
    w.strides = std::move(*strides);
    w.dilations = std::move(*dilations);
    w.pads = std::move(*pads);
    w.auto_pad = std::move(*auto_pad);
    w.pads_given = ctx.attr("pads") != nullptr;
    w.ceil = *ceil;
    return w;
}

// ONNX's SAME pads of a static axis: the total is the dilated kernel minus the stride (or minus in % stride
// when that is not 0), at least 0; the odd one goes to the end (SAME_UPPER) or the beginning (SAME_LOWER).
void same_pads(const Window& w, size_t axis, size_t n, const Dim& in, int64_t effective, std::vector<int64_t>& pads) {
    const int64_t s = w.strides[axis];
    int64_t residual = 0;
    if (s > 1) {
        if (!in.is_static()) return;
        residual = in.length() % s;
    }
    const int64_t total = std::max<int64_t>(residual == 0 ? effective - s : effective - residual, 0);
    const int64_t small = total / 2, big = total - small;
    pads[axis] = w.auto_pad == "SAME_UPPER" ? small : big;
    pads[axis + n] = w.auto_pad == "SAME_UPPER" ? big : small;
}

// One output length by ONNX's conv-pool rule, the one the pools use (rules/onnx_pool.hpp): with ceil_mode, a
// last window that would start in the right padding is dropped from version 22 on (LpPool as AveragePool).
std::optional<int64_t> window_length(const Window& w, size_t axis, int64_t in, int64_t pad_begin, int64_t pad_end) {
    const OnnxPoolOp rule{OnnxPoolKind::average, w.drops_last_window ? 22 : 19};
    return onnx_pooled_length(
        rule, in, AxisWindow{pad_begin, pad_end, w.kernel[axis], w.strides[axis], w.dilations[axis]}, w.ceil);
}

// A dynamic dim's output as an interval: the length grows with the input, so each bound gives a bound (SAME
// pads give ceil(in / stride) whatever the kernel). ONNX leaves such a dim unknown.
Dim bounded_window_dim(const Dim& in, int64_t pad_begin, int64_t pad_end, const Window& w, size_t axis, bool same) {
    const int64_t s = w.strides[axis];
    const auto at = [&](int64_t length) -> std::optional<int64_t> {
        if (same && !w.pads_given) return length / s + (length % s != 0);
        const auto v = window_length(w, axis, length, pad_begin, pad_end);
        return v ? std::optional(std::max<int64_t>(*v, 0)) : std::nullopt;
    };
    const auto lo = at(in.min());
    const auto hi = in.has_upper_bound() ? at(in.max()) : std::nullopt;
    if (!lo) return Dim::dynamic();
    return Dim(*lo, hi ? *hi : -1);
}

// The spatial output dims of a conv-pool window over `data` (rank n + 2).
bool append_window_dims(OpContext& ctx, const Shape& data, const Window& w, OpOutput& out) {
    const size_t n = w.kernel.size();
    std::vector<int64_t> effective(n);
    for (size_t i = 0; i < n; ++i) {
        const auto e = (CheckedInt(w.kernel[i]) - 1) * w.dilations[i] + 1;
        if (!e.get()) {
            ctx.invalid_attribute(fmt::format("the dilated kernel overflows at axis {}", i));
            return false;
        }
        effective[i] = *e.get();
    }
    std::vector<int64_t> pads = w.pads;
    const bool same = w.auto_pad == "SAME_UPPER" || w.auto_pad == "SAME_LOWER";
    if (!w.pads_given && same)
        for (size_t i = 0; i < n; ++i) same_pads(w, i, n, data.dims[i + 2], effective[i], pads);
    for (size_t i = 0; i < n; ++i) {
        const Dim& in = data.dims[i + 2];
        if (!in.is_static()) {
            out.shape.dims.push_back(bounded_window_dim(in, pads[i], pads[i + n], w, i, same));
            if (ctx.explain()) out.dim_notes.push_back(fmt::format("dim {} is dynamic ({})", i + 2, in.str()));
            continue;
        }
        const auto length = window_length(w, i, in.length(), pads[i], pads[i + n]);
        // Formatted only for a message or a note: most checks need neither.
        const auto formula = [&] {
            return fmt::format("{}(({}+{}+{}-{})/{})+1", w.ceil ? "ceil" : "floor", in.length(), pads[i], pads[i + n],
                               effective[i], w.strides[i]);
        };
        if (!length || *length < 0) {
            ctx.invalid_input(fmt::format("the output length of dim {} is {}: {}", i + 2,
                                          length ? std::to_string(*length) : std::string("an overflow"), formula()));
            return false;
        }
        out.shape.dims.emplace_back(*length);
        if (ctx.explain()) out.dim_notes.push_back(fmt::format("{} = {}", formula(), *length));
    }
    return true;
}

// The data input's spatial rank: rank >= 3 (N, C, spatial dims); nullopt for a dynamic rank, or with the
// problem recorded.
std::optional<size_t> spatial_axes(OpContext& ctx, const Shape& data) {
    if (data.rank_dynamic) return std::nullopt;
    if (data.rank() < 3) {
        ctx.invalid_input(fmt::format("the input {} needs at least 3 dims (N, C, a spatial dim)", data.str()));
        return std::nullopt;
    }
    return data.rank() - 2;
}

// ---- Conv and its quantized and deformable forms -------------------------------------------------------

// X [N, C, D...] and W [M, C/group, k...] give [N, M, windows...]: the one inference of Conv, ConvInteger,
// QLinearConv and DeformConv; `x`, `w` are the inputs' indices.
void conv_output(OpContext& ctx, size_t x, size_t w, std::optional<ElementType> type, std::vector<OpOutput>& outs) {
    const Shape& data = ctx.shape(x);
    const Shape& weights = ctx.shape(w);
    const auto n = spatial_axes(ctx, data);
    if (ctx.failed()) return;
    // ONNX's inference does not read group; ONNX Runtime asks the channels to be the weights' times group.
    const auto group = ctx.attr_int("group", 1);
    if (!group) return;
    OpOutput out{Shape::dynamic_rank(), type, {}, {}};
    if (!n) {
        outs.push_back(std::move(out));
        return;
    }
    if (!weights.rank_dynamic && weights.rank() != *n + 2)
        return ctx.invalid_input(fmt::format("the weights {} have rank {}, the input {} rank {}", weights.str(),
                                             weights.rank(), data.str(), data.rank()));
    if (*group >= 1 && !weights.rank_dynamic && data.dims[1].is_static() && weights.dims[1].is_static() &&
        data.dims[1].length() != weights.dims[1].length() * *group)
        return ctx.invalid_input(fmt::format("the input has {} channels, the weights {} take {} x group {} = {}",
                                             data.dims[1].str(), weights.str(), weights.dims[1].str(), *group,
                                             weights.dims[1].length() * *group));
    const auto window = read_window(ctx, *n, &weights, {});
    if (ctx.failed()) return;
    out.shape = Shape{false, {data.dims[0], weights.rank_dynamic ? Dim::dynamic() : weights.dims[0]}};
    if (ctx.explain()) out.dim_notes = {"", ""};
    if (!window) {
        out.shape.dims.resize(*n + 2, Dim::dynamic());
        out.dim_notes.clear();
    } else if (!append_window_dims(ctx, data, *window, out)) {
        return;
    }
    outs.push_back(std::move(out));
}

// B, when given: 1-D of W's output channels (ONNX Runtime's check; ONNX's inference does not look at B).
bool check_bias(OpContext& ctx, size_t b, const Shape& weights) {
    if (!ctx.has_input(b)) return true;
    const Shape& bias = ctx.shape(b);
    if (bias.rank_dynamic ||
        (bias.rank() == 1 && (weights.rank_dynamic || weights.rank() == 0 || bias.dims[0].compatible(weights.dims[0]))))
        return true;
    ctx.invalid_input(fmt::format("B {} must be 1-D with the weights {}' output channels", bias.str(), weights.str()));
    return false;
}

void infer_conv(OpContext& ctx, std::vector<OpOutput>& outs) {
    if (!ctx.expect_inputs(2, 3)) return;
    if (!check_float(ctx, 0, "X") || !check_same_type(ctx, 0, 1) || !check_same_type(ctx, 0, 2) ||
        !check_bias(ctx, 2, ctx.shape(1)))
        return;
    conv_output(ctx, 0, 1, ctx.type(0), outs);
}

bool is_8bit(ElementType t) { return t == ElementType::i8 || t == ElementType::u8; }

// x, w, x_zero_point, w_zero_point: 8-bit integers in, i32 out.
void infer_conv_integer(OpContext& ctx, std::vector<OpOutput>& outs) {
    if (!ctx.expect_inputs(2, 4)) return;
    if (!check_type(ctx, 0, "x", is_8bit, "i8 or u8") || !check_type(ctx, 1, "w", is_8bit, "i8 or u8")) return;
    conv_output(ctx, 0, 1, ElementType::i32, outs);
}

// x, x_scale, x_zero_point, w, w_scale, w_zero_point, y_scale, y_zero_point, B: y takes y_zero_point's type.
void infer_qlinear_conv(OpContext& ctx, std::vector<OpOutput>& outs) {
    if (!ctx.expect_inputs(8, 9)) return;
    if (!check_type(ctx, 0, "x", is_8bit, "i8 or u8") || !check_type(ctx, 3, "w", is_8bit, "i8 or u8") ||
        !check_type(ctx, 7, "y_zero_point", is_8bit, "i8 or u8") || !check_same_type(ctx, 0, 2))
        return;
    conv_output(ctx, 0, 3, ctx.type(7), outs);
}

// X, W, offset, B, mask: the output is Conv's.
void infer_deform_conv(OpContext& ctx, std::vector<OpOutput>& outs) {
    if (!ctx.expect_inputs(3, 5)) return;
    if (!check_float(ctx, 0, "X") || !check_same_type(ctx, 0, 1) || !check_same_type(ctx, 0, 2)) return;
    const auto offset_group = ctx.attr_int("offset_group", 1);
    if (!offset_group) return;
    if (*offset_group < 1) return ctx.invalid_attribute(fmt::format("offset_group is {}, must be >= 1", *offset_group));
    conv_output(ctx, 0, 1, ctx.type(0), outs);
}

// ---- ConvTranspose -------------------------------------------------------------------------------------

}  // namespace

std::optional<int64_t> conv_transpose_length(int64_t in, int64_t kernel, int64_t stride, int64_t dilation,
                                             int64_t output_padding, CheckedInt pads) {
    const CheckedInt effective = (CheckedInt(kernel) - 1) * dilation + 1;
    return (CheckedInt(stride) * (CheckedInt(in) - 1) + output_padding + effective - pads).get();
}

namespace {

struct TransposeAttrs {
    std::vector<int64_t> strides, dilations, pads, output_padding, output_shape;
    std::string auto_pad;
    bool has_output_shape = false;
};

std::optional<TransposeAttrs> read_transpose_attrs(OpContext& ctx, size_t n) {
    TransposeAttrs a;
    auto strides = per_axis(ctx, "strides", n, 1, 1);
    auto dilations = per_axis(ctx, "dilations", n, 1, 1);
    auto pads = per_axis(ctx, "pads", 2 * n, 0, 0);
    auto output_padding = per_axis(ctx, "output_padding", n, 0, 0);
    auto auto_pad = read_auto_pad(ctx);
    a.has_output_shape = ctx.attr("output_shape") != nullptr;
    auto output_shape = a.has_output_shape ? per_axis(ctx, "output_shape", n, 0, 0) : std::vector<int64_t>{};
    if (!strides || !dilations || !pads || !output_padding || !auto_pad || !output_shape) return std::nullopt;
    if (ctx.attr("pads") && *auto_pad != "NOTSET") {
        ctx.invalid_attribute(fmt::format("pads cannot be given with auto_pad={}", *auto_pad));
        return std::nullopt;
    }
    a.strides = std::move(*strides);
    a.dilations = std::move(*dilations);
    a.pads = std::move(*pads);
    a.output_padding = std::move(*output_padding);
    a.output_shape = std::move(*output_shape);
    a.auto_pad = std::move(*auto_pad);
    return a;
}

// One spatial dim: stride * (in - 1) + output_padding + dilated kernel - pads, where SAME pads total
// max(dilated kernel - stride, 0).
std::optional<int64_t> transposed_length(const TransposeAttrs& a, size_t i, size_t n, int64_t in, int64_t kernel) {
    const CheckedInt effective = (CheckedInt(kernel) - 1) * a.dilations[i] + 1;
    CheckedInt pads = CheckedInt(a.pads[i]) + a.pads[i + n];
    if (a.auto_pad == "SAME_UPPER" || a.auto_pad == "SAME_LOWER") {
        const auto e = effective.get();
        pads = e ? CheckedInt(std::max<int64_t>(*e - a.strides[i], 0)) : CheckedInt::invalid();
    } else if (a.auto_pad == "VALID") {
        pads = 0;
    }
    return conv_transpose_length(in, kernel, a.strides[i], a.dilations[i], a.output_padding[i], pads);
}

// A dynamic dim's transposed length as an interval (it grows with the input; ONNX leaves the dim unknown).
Dim transposed_dim(const TransposeAttrs& a, size_t i, size_t n, const Dim& in, int64_t kernel) {
    const auto lo = transposed_length(a, i, n, in.min(), kernel);
    const auto hi = in.has_upper_bound() ? transposed_length(a, i, n, in.max(), kernel) : std::nullopt;
    if (!lo) return Dim::dynamic();
    return Dim(std::max<int64_t>(*lo, 0), hi ? std::max<int64_t>(*hi, 0) : -1);
}

// X [N, C, D...], W [C, M/group, k...] give [N, M, ...]: output_shape's values, else the transposed lengths.
void infer_conv_transpose(OpContext& ctx, std::vector<OpOutput>& outs) {
    if (!ctx.expect_inputs(2, 3)) return;
    if (!check_float(ctx, 0, "X") || !check_same_type(ctx, 0, 1) || !check_same_type(ctx, 0, 2)) return;
    const Shape& data = ctx.shape(0);
    const Shape& weights = ctx.shape(1);
    const auto n = spatial_axes(ctx, data);
    if (ctx.failed()) return;
    const auto group = ctx.attr_int("group", 1);
    if (!group) return;
    if (*group < 1) return ctx.invalid_attribute(fmt::format("group is {}, must be >= 1", *group));
    OpOutput out{Shape::dynamic_rank(), ctx.type(0), {}, {}};
    if (!n) {
        outs.push_back(std::move(out));
        return;
    }
    if (data.dims[1].is_static() && data.dims[1].length() % *group != 0)
        return ctx.invalid_input(
            fmt::format("the input's {} channels are not divisible by group {}", data.dims[1].length(), *group));
    if (!weights.rank_dynamic && weights.rank() < 3)
        return ctx.invalid_input(fmt::format("the weights {} need at least 3 dims", weights.str()));
    // ONNX Runtime's check (ONNX's inference does not compare them): W is [C, M/group, k...].
    if (!weights.rank_dynamic && !weights.dims[0].compatible(data.dims[1]))
        return ctx.invalid_input(fmt::format("the weights {} are for {} input channels, the input {} has {}",
                                             weights.str(), weights.dims[0].str(), data.str(), data.dims[1].str()));
    const auto kernel = read_kernel(ctx, *n, &weights);
    const auto attrs = read_transpose_attrs(ctx, *n);
    if (ctx.failed() || !attrs) return;
    const Dim m = weights.rank_dynamic ? Dim::dynamic() : weights.dims[1] * Dim(*group);
    out.shape = Shape{false, {data.dims[0], m}};
    for (size_t i = 0; i < *n; ++i) {
        const Dim& in = data.dims[i + 2];
        if (attrs->has_output_shape) {
            out.shape.dims.emplace_back(attrs->output_shape[i]);
        } else if (!kernel) {
            out.shape.dims.push_back(Dim::dynamic());
        } else if (!in.is_static()) {
            out.shape.dims.push_back(transposed_dim(*attrs, i, *n, in, (*kernel)[i]));
        } else {
            const auto length = transposed_length(*attrs, i, *n, in.length(), (*kernel)[i]);
            if (!length || *length < 0)
                return ctx.invalid_input(fmt::format("the output length of dim {} is {}", i + 2,
                                                     length ? std::to_string(*length) : std::string("an overflow")));
            out.shape.dims.emplace_back(*length);
        }
    }
    outs.push_back(std::move(out));
}

// ---- pooling: LpPool, GlobalLpPool, MaxRoiPool, MaxUnpool ----------------------------------------------

bool check_p(OpContext& ctx) {
    if (ctx.layer().type == "LpPool" && ctx.version() == 1) return ctx.attr_float("p", 2.0).has_value();
    const auto p = ctx.attr_int("p", 2);
    return p.has_value();
}

void infer_lp_pool(OpContext& ctx, std::vector<OpOutput>& outs) {
    if (!ctx.expect_inputs(1)) return;
    if (!check_float(ctx, 0, "X") || !check_p(ctx)) return;
    const Shape& data = ctx.shape(0);
    const auto n = spatial_axes(ctx, data);
    if (ctx.failed()) return;
    OpOutput out{Shape::dynamic_rank(), ctx.type(0), {}, {}};
    const bool v18 = ctx.version() >= 18;
    if (!n) {
        // The attributes still say the rank.
        if (const auto k = ctx.attr_ints("kernel_shape", std::vector<int64_t>{}); k && !k->empty())
            out.shape = unknown_dims(k->size() + 2);
        outs.push_back(std::move(out));
        return;
    }
    auto window = read_window(ctx, *n, nullptr, {v18, v18, true});
    if (!window) return;
    window->drops_last_window = ctx.version() >= 22;
    out.shape = Shape{false, {data.dims[0], data.dims[1]}};
    if (ctx.explain()) out.dim_notes = {"", ""};
    if (!append_window_dims(ctx, data, *window, out)) return;
    outs.push_back(std::move(out));
}

// [N, C, D...] to [N, C, 1...].
void infer_global_lp_pool(OpContext& ctx, std::vector<OpOutput>& outs) {
    if (!ctx.expect_inputs(1)) return;
    if (!check_float(ctx, 0, "X") || !check_p(ctx)) return;
    const Shape& data = ctx.shape(0);
    OpOutput out{data, ctx.type(0), {}, {}};
    if (!data.rank_dynamic) {
        if (data.rank() < 2) return ctx.invalid_input(fmt::format("the input {} needs at least 2 dims", data.str()));
        for (size_t i = 2; i < data.rank(); ++i) out.shape.dims[i] = Dim(1);
    }
    outs.push_back(std::move(out));
}

// X [N, C, H, W] and rois [num_rois, 5] give [num_rois, C, pooled_shape...].
void infer_max_roi_pool(OpContext& ctx, std::vector<OpOutput>& outs) {
    if (!ctx.expect_inputs(2)) return;
    if (!check_float(ctx, 0, "X") || !check_same_type(ctx, 0, 1)) return;
    const auto pooled = ctx.attr_ints("pooled_shape");
    if (!pooled || !ctx.attr_float("spatial_scale", 1.0)) return;
    if (pooled->size() != 2 || std::any_of(pooled->begin(), pooled->end(), [](int64_t v) { return v < 1; }))
        return ctx.invalid_attribute(fmt::format("pooled_shape ({}) must be 2 values >= 1", join_ints(*pooled)));
    const Shape& x = ctx.shape(0);
    const Shape& rois = ctx.shape(1);
    if (!x.rank_dynamic && x.rank() != 4) return ctx.invalid_input(fmt::format("X {} must have rank 4", x.str()));
    if (!rois.rank_dynamic && (rois.rank() != 2 || !rois.dims[1].compatible(Dim(5))))
        return ctx.invalid_input(fmt::format("rois {} must be [num_rois, 5]", rois.str()));
    OpOutput out{unknown_dims(4), ctx.type(0), {}, {}};
    if (!rois.rank_dynamic) out.shape.dims[0] = rois.dims[0];
    if (!x.rank_dynamic) out.shape.dims[1] = x.dims[1];
    out.shape.dims[2] = Dim((*pooled)[0]);
    out.shape.dims[3] = Dim((*pooled)[1]);
    outs.push_back(std::move(out));
}

// X, I (indices), output_shape: output_shape's values when given; else [N, I's C, stride*(in-1)+k-pads].
void infer_max_unpool(OpContext& ctx, std::vector<OpOutput>& outs) {
    if (!ctx.expect_inputs(2, 3)) return;
    if (!check_float(ctx, 0, "X") || !check_type(
                                         ctx, 1, "I", [](ElementType t) { return t == ElementType::i64; }, "i64"))
        return;
    const Shape& data = ctx.shape(0);
    OpOutput out{Shape::dynamic_rank(), ctx.type(0), {}, {}};
    if (!data.rank_dynamic && data.rank() < 3)
        return ctx.invalid_input(fmt::format("X {} needs at least 3 dims", data.str()));
    if (data.rank_dynamic) {
        outs.push_back(std::move(out));
        return;
    }
    const size_t n = data.rank() - 2;
    const auto kernel = per_axis(ctx, "kernel_shape", n, 1, 1);
    const auto strides = per_axis(ctx, "strides", n, 1, 1);
    const auto pads = per_axis(ctx, "pads", 2 * n, 0, 0);
    if (!ctx.attr("kernel_shape")) ctx.invalid_attribute(fmt::format("kernel_shape is missing"));
    if (ctx.failed() || !kernel || !strides || !pads) return;
    if (ctx.has_input(2)) {
        const Shape& size_shape = ctx.shape(2);
        if (!size_shape.rank_dynamic && size_shape.rank() != 1)
            return ctx.invalid_input(fmt::format("output_shape {} must be 1D", size_shape.str()));
        out.shape = unknown_dims(data.rank());
        const TensorValue* v = ctx.value(2);
        if (!v)
            ctx.value_unknown("the values of output_shape (input 2) are unknown");
        else if (v->size() != data.rank())
            return ctx.invalid_input(
                fmt::format("output_shape has {} values for the input's rank {}", v->size(), data.rank()));
        else
            for (size_t i = 0; i < v->size(); ++i) out.shape.dims[i] = value_as_dim((*v)[i]);
        outs.push_back(std::move(out));
        return;
    }
    const Shape& indices = ctx.shape(1);
    out.shape =
        Shape{false, {data.dims[0], indices.rank_dynamic || indices.rank() < 2 ? Dim::dynamic() : indices.dims[1]}};
    for (size_t i = 0; i < n; ++i) {
        const Dim& in = data.dims[i + 2];
        if (!in.is_static()) {
            out.shape.dims.push_back(Dim::dynamic());
            continue;
        }
        const auto length =
            (CheckedInt((*strides)[i]) * (CheckedInt(in.length()) - 1) + (*kernel)[i] - (*pads)[i] - (*pads)[i + n])
                .get();
        if (!length || *length < 0)
            return ctx.invalid_input(fmt::format("the output length of dim {} is negative", i + 2));
        out.shape.dims.emplace_back(*length);
    }
    outs.push_back(std::move(out));
}

// ---- Col2Im --------------------------------------------------------------------------------------------

// input [N, C*prod(block_shape), L], image_shape, block_shape give [N, C, image_shape...].
void infer_col2im(OpContext& ctx, std::vector<OpOutput>& outs) {
    if (!ctx.expect_inputs(3)) return;
    const auto is_i64 = [](ElementType t) { return t == ElementType::i64; };
    if (!check_type(ctx, 1, "image_shape", is_i64, "i64") || !check_type(ctx, 2, "block_shape", is_i64, "i64")) return;
    const Shape& data = ctx.shape(0);
    if (!data.rank_dynamic && data.rank() != 3)
        return ctx.invalid_input(fmt::format("the input {} must have rank 3", data.str()));
    for (size_t i : {1, 2})
        if (!ctx.shape(i).rank_dynamic && ctx.shape(i).rank() != 1)
            return ctx.invalid_input(fmt::format("input {} {} must be 1D", i, ctx.shape(i).str()));
    const auto image = ctx.exact_values(1);
    const auto block = ctx.exact_values(2);
    std::optional<size_t> n;
    if (image)
        n = image->size();
    else if (block)
        n = block->size();
    else if (!ctx.shape(1).rank_dynamic && ctx.shape(1).dims[0].is_static())
        n = static_cast<size_t>(ctx.shape(1).dims[0].length());
    if (!image) ctx.value_unknown("the values of image_shape (input 1) are unknown");
    OpOutput out{Shape::dynamic_rank(), ctx.type(0), {}, {}};
    if (!n || *n > kMaxShapeRank) {
        outs.push_back(std::move(out));
        return;
    }
    out.shape = unknown_dims(*n + 2);
    if (!data.rank_dynamic) out.shape.dims[0] = data.dims[0];
    if (block && !data.rank_dynamic) {
        CheckedInt size = 1;
        for (const int64_t b : *block) {
            if (b < 1) return ctx.invalid_input(fmt::format("block_shape ({}) must be >= 1", join_ints(*block)));
            size = size * b;
        }
        if (const auto s = size.get(); s && data.dims[1].is_static()) {
            if (data.dims[1].length() % *s != 0)
                return ctx.invalid_input(fmt::format("the input's dim 1 ({}) is not divisible by the block size {}",
                                                     data.dims[1].length(), *s));
            out.shape.dims[1] = Dim(data.dims[1].length() / *s);
        }
    }
    if (image)
        for (size_t i = 0; i < image->size(); ++i)
            out.shape.dims[i + 2] = (*image)[i] < 0 ? Dim::dynamic() : Dim((*image)[i]);
    outs.push_back(std::move(out));
}

constexpr std::string_view kConvChecks =
    "input rank >= 3; weights rank; channels = weights' C x group; group >= 1; kernel_shape, strides, dilations >= "
    "1, pads >= 0, one per axis; auto_pad; input types";

// ---- CausalConvWithState -------------------------------------------------------------------------------

// input [B, C, L], weight [C, 1, k] (depthwise), bias [C], past_state [B, C, k-1]: the output is the input's
// dims (the k-1 past positions pad the window on the left, so L stays), present_state [B, C, k-1].
void infer_causal_conv_with_state(OpContext& ctx, std::vector<OpOutput>& outs) {
    if (!ctx.expect_inputs(2, 4) || !check_type(ctx, 0, "input", is_narrow_float, "f16, bf16 or f32")) return;
    for (size_t i = 1; i < ctx.input_count(); ++i)
        if (!check_same_type(ctx, 0, i)) return;
    static constexpr std::string_view kActivations[] = {"none", "silu", "swish"};
    if (!ctx.attr_enum("activation", kActivations, "none")) return;
    Dim input[] = {Dim::dynamic(), Dim::dynamic(), Dim::dynamic()};  // B, C, L
    Dim weight[] = {Dim::dynamic(), Dim(1), Dim::dynamic()};         // C, 1, k
    Dim past[] = {Dim::dynamic(), Dim::dynamic(), Dim::dynamic()};   // B, C, k-1
    if (!unify_input(ctx, 0, "input", input)) return;
    weight[0] = input[1];
    if (!unify_input(ctx, 1, "weight", weight)) return;
    Dim bias[] = {weight[0]};
    if (!unify_input(ctx, 2, "bias", bias)) return;
    past[0] = input[0];
    past[1] = bias[0];
    if (!unify_input(ctx, 3, "past_state", past)) return;
    const Dim& kernel = weight[2];
    if (kernel.is_static() && kernel.length() < 1)
        return ctx.invalid_input(
            fmt::format("the kernel size k (weight's last dim) is {}, must be >= 1", kernel.length()));
    Dim& carried = past[2];
    if (!unify_dim(ctx, carried, kernel - Dim(1), "past_state's last dim", "the kernel size - 1")) return;
    const Shape& x = ctx.shape(0);
    const Shape output = x.rank_dynamic ? x : Shape{false, {past[0], past[1], input[2]}};
    outs.push_back(OpOutput{output, ctx.type(0), {}, {}});
    outs.push_back(OpOutput{Shape{false, {past[0], past[1], carried}}, ctx.type(0), {}, {}});
}

}  // namespace

std::vector<OpEntry> conv_entries() {
    std::vector<OpEntry> out;
    for (int v : {1, 11, 22}) {
        out.push_back(onnx_op("Conv", v, infer_conv, "shape, type", kConvChecks));
        out.push_back(onnx_op("ConvTranspose", v, infer_conv_transpose, "shape, type",
                              "group divides the channels; strides, dilations >= 1; pads, output_padding, "
                              "output_shape >= 0, one per axis; pads not with auto_pad; input types"));
    }
    out.push_back(onnx_op("ConvInteger", 10, infer_conv_integer, "shape, type (i32)", kConvChecks));
    out.push_back(onnx_op("QLinearConv", 10, infer_qlinear_conv, "shape, type (y_zero_point's)", kConvChecks));
    for (int v : {19, 22})
        out.push_back(onnx_op("DeformConv", v, infer_deform_conv, "shape, type", "as Conv; offset_group >= 1"));
    for (int v : {1, 2, 11, 18, 22})
        out.push_back(onnx_op("LpPool", v, infer_lp_pool, "shape, type",
                              "kernel_shape given; strides, dilations >= 1; pads >= 0; auto_pad; input type"));
    for (int v : {1, 2, 22})
        out.push_back(onnx_op("GlobalLpPool", v, infer_global_lp_pool, "shape, type", "input rank >= 2; input type"));
    for (int v : {1, 22})
        out.push_back(onnx_op("MaxRoiPool", v, infer_max_roi_pool, "shape, type",
                              "pooled_shape: 2 values >= 1; X rank 4; rois [num_rois, 5]"));
    for (int v : {9, 11, 22})
        out.push_back(onnx_op("MaxUnpool", v, infer_max_unpool, "shape, type",
                              "kernel_shape given; output_shape 1D with one value per dim; I is i64"));
    out.push_back(
        onnx_op("CausalConvWithState", 27, infer_causal_conv_with_state, "shape, type (output, present_state)",
                "activation none/silu/swish; input, weight [C, 1, k], bias [C], past_state [B, C, k-1] agree; "
                "k >= 1; f16, bf16 or f32"));
    out.push_back(onnx_op("Col2Im", 18, infer_col2im, "shape, type",
                          "input rank 3; image_shape, block_shape 1D i64; block_shape >= 1 divides dim 1"));
    return out;
}

}  // namespace irlint::onnx_nn
