// ONNX's resampling: Resize and Upsample (each dim floor(in * scale), the scale a float widened to double as
// ONNX computes it, or the sizes' values, with keep_aspect_ratio_policy from 18), GridSample (the grid's
// spatial dims) and AffineGrid (the size input's values).

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/text.hpp"
#include "rules/ops/onnx_nn.hpp"
#include "rules/ops/shape_manipulation_common.hpp"
#include "rules/ops/shape_util.hpp"

namespace irlint::onnx_nn {

namespace {

// floor(in * scale) with the scale as the f32 ONNX holds it.
std::optional<int64_t> scaled_length(int64_t in, double scale) {
    const double v = std::floor(static_cast<double>(in) * static_cast<double>(static_cast<float>(scale)));
    if (!(v >= 0) || v > static_cast<double>(std::numeric_limits<int64_t>::max() / 2)) return std::nullopt;
    return static_cast<int64_t>(v);
}

// Each dim of x times its scale; a dynamic dim stays dynamic.
bool apply_scales(OpContext& ctx, const Shape& x, const std::vector<double>& scales, OpOutput& out) {
    if (scales.size() != x.rank())
        return ctx.invalid_input(
                   fmt::format("scales has {} values for X {} of rank {}", scales.size(), x.str(), x.rank())),
               false;
    out.shape = x;
    for (size_t i = 0; i < x.rank(); ++i) {
        if (scales[i] <= 0) return ctx.invalid_input(fmt::format("scale {} at dim {} is not > 0", scales[i], i)), false;
        if (scales[i] == 1.0) continue;
        if (!x.dims[i].is_static()) {
            out.shape.dims[i] = Dim::dynamic();
            continue;
        }
        const auto length = scaled_length(x.dims[i].length(), scales[i]);
        if (!length) {
            // ONNX casts the product to int64 unchecked: no length it gives can be trusted, none is refused.
            out.shape.dims[i] = Dim::dynamic();
            continue;
        }
        out.shape.dims[i] = Dim(*length);
        if (ctx.explain()) {
            out.dim_notes.resize(x.rank());
            out.dim_notes[i] = fmt::format("floor({}*{}) = {}", x.dims[i].length(), scales[i], *length);
        }
    }
    return true;
}

// ---- Resize --------------------------------------------------------------------------------------------

struct ResizeAttrs {
    std::vector<size_t> axes;  // empty: every axis
    std::string_view policy = "stretch";
};

std::optional<ResizeAttrs> read_resize_attrs(OpContext& ctx, const Shape& x) {
    ResizeAttrs a;
    static constexpr std::string_view kModes[] = {"nearest", "linear", "cubic"};
    if (!ctx.attr_enum("mode", kModes, "nearest")) return std::nullopt;
    if (ctx.version() < 18) return a;
    static constexpr std::string_view kPolicies[] = {"stretch", "not_larger", "not_smaller"};
    const auto policy = ctx.attr_enum("keep_aspect_ratio_policy", kPolicies, "stretch");
    const auto axes = ctx.attr_ints("axes", std::vector<int64_t>{});
    if (!policy || !axes) return std::nullopt;
    a.policy = *policy;
    if (!axes->empty() && !x.rank_dynamic) {
        std::string error;
        const auto n = normalize_axes(*axes, static_cast<int64_t>(x.rank()), true, &error);
        if (!n) {
            ctx.invalid_attribute(fmt::format("axes: {} for X {}", error, x.str()));
            return std::nullopt;
        }
        a.axes = *n;
    }
    return a;
}

// A list given per axis in `axes` spread over every dim of a rank, the others `fill`.
template <class T>
std::vector<T> spread(const std::vector<T>& values, const std::vector<size_t>& axes, std::vector<T> fill) {
    if (axes.empty()) return values;
    for (size_t i = 0; i < axes.size() && i < values.size(); ++i) fill[axes[i]] = values[i];
    return fill;
}

// not_larger / not_smaller: one scale for the given axes, the smallest (largest) of sizes/in, and each size
// round(scale * in).
bool keep_aspect_ratio(std::string_view policy, const Shape& x, const std::vector<size_t>& axes,
                       std::vector<int64_t>& sizes) {
    if (policy == "stretch") return true;
    const bool not_larger = policy == "not_larger";
    double scale = not_larger ? std::numeric_limits<double>::max() : std::numeric_limits<double>::lowest();
    for (size_t i = 0; i < sizes.size(); ++i) {
        const Dim& in = x.dims[axes.empty() ? i : axes[i]];
        if (!in.is_static()) return false;
        const double s = static_cast<double>(sizes[i]) / static_cast<double>(in.length());
        scale = not_larger ? std::min(scale, s) : std::max(scale, s);
    }
    for (size_t i = 0; i < sizes.size(); ++i)
        sizes[i] =
            static_cast<int64_t>(std::round(scale * static_cast<double>(x.dims[axes.empty() ? i : axes[i]].length())));
    return true;
}

// Whether an optional input is given: ONNX reads an empty tensor as absent. `maybe` when its shape is unknown.
enum class Given { no, yes, maybe };

Given given(const OpContext& ctx, size_t i) {
    if (!ctx.has_input(i)) return Given::no;
    if (const auto* reals = ctx.real_values(i)) return reals->empty() ? Given::no : Given::yes;
    if (const auto* values = ctx.value(i)) return values->empty() ? Given::no : Given::yes;
    const Shape& s = ctx.shape(i);
    if (s.rank_dynamic || (s.rank() == 1 && !s.dims[0].is_static())) return Given::maybe;
    return s.rank() == 1 && s.dims[0] == Dim(0) ? Given::no : Given::yes;
}

void resize_by_sizes(OpContext& ctx, const Shape& x, const ResizeAttrs& a, OpOutput& out) {
    const size_t count = a.axes.empty() ? x.rank() : a.axes.size();
    const TensorValue* v = ctx.value(3);
    if (v && v->size() != count)
        return ctx.invalid_input(fmt::format("sizes has {} values, expected {}", v->size(), count));
    out.shape = x;
    std::vector<size_t> axes = a.axes;
    if (axes.empty())
        for (size_t i = 0; i < x.rank(); ++i) axes.push_back(i);
    if (!v) {
        ctx.value_unknown("the values of sizes (input 3) are unknown");
        for (const size_t d : axes) out.shape.dims[d] = Dim::dynamic();
        return;
    }
    if (a.policy != "stretch") {
        auto exact = ctx.exact_values(3);
        if (!exact || !keep_aspect_ratio(a.policy, x, a.axes, *exact)) {
            for (const size_t d : axes) out.shape.dims[d] = Dim::dynamic();
            return;
        }
        for (size_t i = 0; i < axes.size(); ++i) out.shape.dims[axes[i]] = Dim((*exact)[i]);
        return;
    }
    for (size_t i = 0; i < axes.size(); ++i) out.shape.dims[axes[i]] = value_as_dim((*v)[i]);
}

void resize_by_scales(OpContext& ctx, size_t input, const Shape& x, const ResizeAttrs& a, OpOutput& out) {
    const std::vector<double>* scales = ctx.real_values(input);
    if (!scales) {
        ctx.value_unknown(fmt::format("the values of scales (input {}) are unknown", input));
        out.shape = unknown_dims(x.rank());
        for (size_t i = 0; i < x.rank(); ++i)
            if (!a.axes.empty() && std::find(a.axes.begin(), a.axes.end(), i) == a.axes.end())
                out.shape.dims[i] = x.dims[i];
        return;
    }
    if (!a.axes.empty() && scales->size() != a.axes.size())
        return ctx.invalid_input(fmt::format("scales has {} values for {} axes", scales->size(), a.axes.size()));
    apply_scales(ctx, x, spread(*scales, a.axes, std::vector<double>(x.rank(), 1.0)), out);
}

// X, roi, scales, sizes (10: X, scales): exactly one of scales and sizes from 13.
void infer_resize(OpContext& ctx, std::vector<OpOutput>& outs) {
    if (!ctx.expect_inputs(ctx.version() == 10 ? 2 : 1, ctx.version() == 10 ? 2 : 4)) return;
    const Shape& x = ctx.shape(0);
    const auto attrs = read_resize_attrs(ctx, x);
    if (!attrs) return;
    const size_t scales_input = ctx.version() == 10 ? 1 : 2;
    const Given scales_given = given(ctx, scales_input);
    const Given sizes_given = ctx.version() > 10 ? given(ctx, 3) : Given::no;
    if (ctx.version() >= 13 && scales_given == sizes_given && scales_given != Given::maybe)
        return ctx.invalid_input(
            fmt::format("give one of scales and sizes, not {}", scales_given == Given::yes ? "both" : "neither"));
    // Sizes win when both may be given (an input of unknown shape may be empty).
    const bool has_sizes = sizes_given != Given::no;
    const bool has_scales = !has_sizes && scales_given != Given::no;
    if (has_scales && attrs->policy != "stretch")
        return ctx.invalid_attribute(fmt::format("keep_aspect_ratio_policy={} needs sizes, not scales", attrs->policy));
    if (has_scales && !check_type(
                          ctx, scales_input, "scales", [](ElementType t) { return t == ElementType::f32; }, "f32"))
        return;
    if (has_sizes && !check_type(
                         ctx, 3, "sizes", [](ElementType t) { return t == ElementType::i64; }, "i64"))
        return;
    OpOutput out{Shape::dynamic_rank(), ctx.type(0), {}, {}};
    if (!x.rank_dynamic) {
        if (has_sizes)
            resize_by_sizes(ctx, x, *attrs, out);
        else if (has_scales)
            resize_by_scales(ctx, scales_input, x, *attrs, out);
        else
            out.shape = unknown_dims(x.rank());
    }
    if (ctx.failed()) return;
    outs.push_back(std::move(out));
}

// ---- Upsample ------------------------------------------------------------------------------------------

// 1: height_scale and width_scale of a 4-D input; 7: the scales attribute; 9: the scales input.
void infer_upsample(OpContext& ctx, std::vector<OpOutput>& outs) {
    if (ctx.version() >= 10)
        return ctx.invalid_input(fmt::format("Upsample is deprecated from opset 10: Resize replaces it"));
    if (!ctx.expect_inputs(ctx.version() >= 9 ? 2 : 1)) return;
    const Shape& x = ctx.shape(0);
    std::optional<std::vector<double>> scales;
    if (ctx.version() == 1) {
        const auto h = ctx.attr_float("height_scale"), w = ctx.attr_float("width_scale");
        if (h && w) scales = std::vector<double>{1.0, 1.0, *h, *w};
    } else if (ctx.version() == 7) {
        scales = ctx.attr_floats("scales");
    } else if (const auto* v = ctx.real_values(1)) {
        scales = *v;
    }
    if (ctx.failed()) return;
    OpOutput out{Shape::dynamic_rank(), ctx.type(0), {}, {}};
    if (!x.rank_dynamic) {
        if (!scales) {
            ctx.value_unknown("the values of scales (input 1) are unknown");
            out.shape = unknown_dims(x.rank());
        } else if (!apply_scales(ctx, x, *scales, out)) {
            return;
        }
    }
    outs.push_back(std::move(out));
}

// ---- GridSample, AffineGrid ----------------------------------------------------------------------------

// X [N, C, D...] and grid [N, D_out..., r-2] give [N, C, D_out...].
void infer_grid_sample(OpContext& ctx, std::vector<OpOutput>& outs) {
    if (!ctx.expect_inputs(2)) return;
    if (!check_float(ctx, 1, "grid")) return;
    const Shape& x = ctx.shape(0);
    const Shape& grid = ctx.shape(1);
    OpOutput out{Shape::dynamic_rank(), ctx.type(0), {}, {}};
    if (x.rank_dynamic || grid.rank_dynamic) {
        const Shape& known = x.rank_dynamic ? grid : x;
        if (!known.rank_dynamic) out.shape = unknown_dims(known.rank());
        outs.push_back(std::move(out));
        return;
    }
    if (x.rank() != grid.rank() || x.rank() < 3)
        return ctx.invalid_input(fmt::format("X {} and grid {} must have one rank, at least 3", x.str(), grid.str()));
    const size_t r = x.rank();
    if (ctx.version() < 20 && r != 4)
        return ctx.invalid_input(fmt::format("X {} must be 4-D before version 20", x.str()));
    const Dim& last = grid.dims[r - 1];
    if (last.is_static() && last.length() != static_cast<int64_t>(r - 2))
        return ctx.invalid_input(fmt::format("grid {} must end in {} (its rank - 2)", grid.str(), r - 2));
    const auto n = Dim::merge(x.dims[0], grid.dims[0]);
    if (!n) return ctx.invalid_input(fmt::format("the batches of X {} and grid {} differ", x.str(), grid.str()));
    out.shape = Shape{false, {x.dims[0].is_static() ? x.dims[0] : *n, x.dims[1]}};
    for (size_t i = 1; i + 1 < r; ++i) out.shape.dims.push_back(grid.dims[i]);
    outs.push_back(std::move(out));
}

// theta [N, 2, 3] (2-D) or [N, 3, 4] (3-D) and size's values [N, C, (D,) H, W] give [N, (D,) H, W, 2 or 3].
void infer_affine_grid(OpContext& ctx, std::vector<OpOutput>& outs) {
    if (!ctx.expect_inputs(2)) return;
    if (!check_float(ctx, 0, "theta") ||
        !check_type(
            ctx, 1, "size", [](ElementType t) { return t == ElementType::i64; }, "i64") ||
        !attr_flag(ctx, "align_corners", false))
        return;
    const Shape& size = ctx.shape(1);
    if (!size.rank_dynamic &&
        (size.rank() != 1 || (size.dims[0].is_static() && size.dims[0].length() != 4 && size.dims[0].length() != 5)))
        return ctx.invalid_input(fmt::format("size {} must be 1-D of 4 or 5 values", size.str()));
    OpOutput out{Shape::dynamic_rank(), ctx.type(0), {}, {}};
    const TensorValue* v = ctx.value(1);
    if (!v) {
        ctx.value_unknown("the values of size (input 1) are unknown");
        if (!size.rank_dynamic && size.dims[0].is_static()) {
            out.shape = unknown_dims(static_cast<size_t>(size.dims[0].length()));
            out.shape.dims.back() = Dim(size.dims[0].length() - 2);
        }
        outs.push_back(std::move(out));
        return;
    }
    if (v->size() != 4 && v->size() != 5)
        return ctx.invalid_input(fmt::format("size has {} values, not 4 or 5", v->size()));
    out.shape = Shape{};
    out.shape.dims.push_back(value_as_dim((*v)[0]));
    for (size_t i = 2; i < v->size(); ++i) out.shape.dims.push_back(value_as_dim((*v)[i]));
    out.shape.dims.emplace_back(static_cast<int64_t>(v->size() - 2));
    outs.push_back(std::move(out));
}

}  // namespace

std::vector<OpEntry> resize_entries() {
    std::vector<OpEntry> out;
    for (int v : {10, 11, 13, 18, 19})
        out.push_back(
            onnx_op("Resize", v, infer_resize, "shape, type",
                    "one of scales (f32) and sizes (i64), one value per axis; axes; keep_aspect_ratio_policy"));
    for (int v : {1, 7, 9, 10})
        out.push_back(
            onnx_op("Upsample", v, infer_upsample, "shape, type", "scales one per dim, > 0; deprecated from 10"));
    for (int v : {16, 20, 22})
        out.push_back(onnx_op("GridSample", v, infer_grid_sample, "shape, type",
                              "X and grid of one rank (4 before 20); grid ends in rank - 2; batches equal"));
    out.push_back(onnx_op("AffineGrid", 20, infer_affine_grid, "shape, type", "size 1-D of 4 or 5 i64 values"));
    return out;
}

}  // namespace irlint::onnx_nn
