// ONNX's shape operators through the registry: Shape, Size, Reshape, Flatten, Squeeze, Unsqueeze, Transpose,
// Concat, Split, Expand, Tile, Constant, ConstantOfShape and Range at each of their versions (the gathers,
// slices, scatters and pads are in onnx_shape_index_ops.cpp). Values flow as ONNX's data propagation carries
// them, and further (Transpose, Tile, Expand of small tensors): Shape -> Gather -> Unsqueeze -> Concat ->
// Reshape gives Reshape its exact target. The steps OpenVINO's ops share (the Reshape pattern, concatenated and
// broadcast values) come from the IR family; where ONNX differs, the step here says how.

#include <algorithm>
#include <cmath>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/text.hpp"
#include "rules/ops/elementwise_util.hpp"
#include "rules/ops/onnx_families.hpp"
#include "rules/ops/onnx_shape_common.hpp"
#include "rules/ops/shape_manipulation_common.hpp"
#include "rules/ops/tensor_common.hpp"

namespace irlint {

namespace onnx_shape {

int type_era(ElementType t) {
    switch (t) {
        case ElementType::bf16:
            return 13;
        case ElementType::f8e4m3:
        case ElementType::f8e5m2:
        case ElementType::f8e4m3fnuz:
        case ElementType::f8e5m2fnuz:
            return 19;
        case ElementType::i4:
        case ElementType::u4:
            return 21;
        case ElementType::f4e2m1:
            return 23;
        case ElementType::f8e8m0:
            return 24;
        case ElementType::u2:
        case ElementType::i2:
            return 25;
        case ElementType::u1:
        case ElementType::nf4:
        case ElementType::dynamic:
            return 0;
        default:
            return 1;
    }
}

namespace {

bool numeric(ElementType t) {
    return (is_integer_type(t) && element_type_bits(t) >= 8) || t == ElementType::f16 || t == ElementType::f32 ||
           t == ElementType::f64;
}

}  // namespace

bool type_in_set(TypeSet set, int era, ElementType t) {
    switch (set) {
        case TypeSet::floats:
            return t == ElementType::f16 || t == ElementType::f32 || t == ElementType::f64;
        case TypeSet::numeric:
            return numeric(t);
        case TypeSet::all:
            return type_era(t) != 0 && type_era(t) <= era;
    }
    return false;
}

bool expect_type(OpContext& ctx, size_t i, std::string_view name, TypeSet set, int era) {
    const auto t = ctx.type(i);
    if (!t || *t == ElementType::dynamic || type_in_set(set, era, *t)) return true;
    ctx.invalid_input(fmt::format("{} is {}, a type the version does not take",
                                  name == "input" ? fmt::format("input {}", i) : fmt::format("{} (input {})", name, i),
                                  element_type_name(*t)));
    return false;
}

bool expect_index_type(OpContext& ctx, size_t i, std::string_view name, bool int32_too) {
    const auto t = ctx.type(i);
    if (!ctx.has_input(i) || !t || *t == ElementType::i64 || (int32_too && *t == ElementType::i32)) return true;
    ctx.invalid_input(fmt::format("{} (input {}) is {}; it must be {}", name, i, element_type_name(*t),
                                  int32_too ? "int32 or int64" : "int64"));
    return false;
}

bool expect_same_type(OpContext& ctx, size_t i, size_t j, std::string_view name_i, std::string_view name_j) {
    const auto a = ctx.type(i), b = ctx.type(j);
    if (!ctx.has_input(i) || !ctx.has_input(j) || !a || !b || *a == *b) return true;
    ctx.invalid_input(fmt::format("{} is {} and {} is {}; they must have one type", name_i, element_type_name(*a),
                                  name_j, element_type_name(*b)));
    return false;
}

std::optional<size_t> onnx_axis(OpContext& ctx, int64_t axis, int64_t rank, std::string_view what, bool from_input) {
    if (axis >= -rank && axis < rank) return static_cast<size_t>(axis < 0 ? axis + rank : axis);
    const std::string message = rank == 0 ? fmt::format("{} {} is given for a scalar", what, axis)
                                          : fmt::format("{} {} is out of range [{}, {}]", what, axis, -rank, rank - 1);
    if (from_input)
        ctx.invalid_input(message);
    else
        ctx.invalid_attribute(message);
    return std::nullopt;
}

void warn_negative_axes_before_11(OpContext& ctx, std::span<const int64_t> axes, std::string_view what) {
    if (ctx.version() >= 11 || std::all_of(axes.begin(), axes.end(), [](int64_t a) { return a >= 0; })) return;
    ctx.attribute_warning(fmt::format(
        "{}-{}: {} [{}] is negative, which ONNX defines only from opset 11; ONNX Runtime and OpenVINO count it from "
        "the back, as inferred here, but ONNX's own shape inference before opset 11 does not",
        ctx.layer().type, ctx.version(), what, join_ints(std::vector<int64_t>(axes.begin(), axes.end()))));
}

std::optional<std::vector<size_t>> onnx_axes(OpContext& ctx, std::span<const int64_t> axes, int64_t rank,
                                             std::string_view what, bool unique, bool from_input) {
    std::vector<size_t> out;
    std::vector<bool> seen(static_cast<size_t>(std::max<int64_t>(rank, 0)), false);
    for (const int64_t a : axes) {
        const auto n = onnx_axis(ctx, a, rank, what, from_input);
        if (!n) return std::nullopt;
        if (unique && seen[*n]) {
            const std::string message = fmt::format("{} [{}] names axis {} twice", what,
                                                    join_ints(std::vector<int64_t>(axes.begin(), axes.end())), *n);
            if (from_input)
                ctx.invalid_input(message);
            else
                ctx.invalid_attribute(message);
            return std::nullopt;
        }
        seen[*n] = true;
        out.push_back(*n);
    }
    return out;
}

void note_dim(const OpContext& ctx, OpOutput& o, size_t d, std::string text) {
    if (!ctx.explain() || o.shape.rank_dynamic || d >= o.shape.rank()) return;
    o.dim_notes.resize(o.shape.rank());
    o.dim_notes[d] = fmt::format("{} = {}", text, o.shape.dims[d].str());
}

size_t node_outputs(const OpContext& ctx) { return ctx.layer().outputs.size(); }

std::optional<int64_t> real_range_length(double start, double limit, double delta) {
    const double n = std::ceil((limit - start) / delta);
    if (!(n < 9.0e18)) return std::nullopt;
    return n > 0 ? static_cast<int64_t>(n) : 0;
}

}  // namespace onnx_shape

namespace {

using namespace onnx_shape;
using shape_ops::dim_as_bound;
using shape_ops::dynamic_dims;

// The schemas of version 1 of Concat, Flatten, Pad, Reshape, Split and Tile take floats only.
TypeSet all_but_v1_floats(const OpContext& ctx) { return ctx.version() == 1 ? TypeSet::floats : TypeSet::all; }

// ---------------------------------------------------------------------------------------------- Shape, Size

// Shape-15's start and end: negative ones count from the back, then both are clamped to [0, rank].
std::pair<int64_t, int64_t> shape_window(OpContext& ctx, int64_t rank) {
    if (ctx.version() < 15) return {0, rank};
    const auto clamp = [rank](int64_t v) { return std::clamp<int64_t>(v < 0 ? v + rank : v, 0, rank); };
    const int64_t start = clamp(ctx.attr_int("start", 0).value_or(0));
    const int64_t end = clamp(ctx.attr_int("end", rank).value_or(rank));
    return {start, std::max(start, end)};
}

void infer_shape(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1) || !expect_data_type(ctx, 0)) return;
    const Shape& data = ctx.shape(0);
    OpOutput o{Shape{false, {Dim::dynamic()}}, ElementType::i64, std::nullopt, {}};
    if (!data.rank_dynamic) {
        const auto [start, end] = shape_window(ctx, static_cast<int64_t>(data.rank()));
        if (ctx.failed()) return;
        o.shape.dims = {Dim(end - start)};
        TensorValue value;
        for (int64_t i = start; i < end; ++i) value.push_back(dim_as_bound(data.dims[static_cast<size_t>(i)]));
        o.value = std::move(value);
    }
    out.push_back(std::move(o));
}

void infer_size(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1) || !expect_data_type(ctx, 0)) return;
    const Shape& data = ctx.shape(0);
    OpOutput o{Shape{}, ElementType::i64, std::nullopt, {}};
    if (!data.rank_dynamic) {
        ValueBounds count = dim_as_bound(dims_product(data.dims));
        count.symbol = 0;  // a product is a new value
        o.value = TensorValue{count};
    }
    out.push_back(std::move(o));
}

// ---------------------------------------------------------------------------------------------- Reshape

// The target: Reshape-1's `shape` attribute, or from 5 on the values of input 1 (1-D int64).
std::optional<TensorValue> reshape_target(OpContext& ctx, bool* rejected) {
    *rejected = false;
    if (ctx.version() < 5) {
        const auto shape = ctx.attr_ints("shape");
        if (!shape) {
            *rejected = true;
            return std::nullopt;
        }
        TensorValue v;
        for (const int64_t d : *shape) v.push_back({d, d});
        return v;
    }
    const Shape& target = ctx.shape(1);
    if (!expect_index_type(ctx, 1, "shape", false)) {
        *rejected = true;
        return std::nullopt;
    }
    if (!target.rank_dynamic && target.rank() != 1) {
        ctx.invalid_input(fmt::format("the shape input {} must be 1-D", target.str()));
        *rejected = true;
        return std::nullopt;
    }
    if (const TensorValue* v = ctx.value(1)) return *v;
    return std::nullopt;
}

// Reshape-14's allowzero=1 makes a 0 a zero-length dim, which a -1 beside it cannot be inferred against.
bool check_allowzero(OpContext& ctx, const shape_ops::ReshapePattern& pattern, bool allowzero) {
    if (!allowzero || !pattern.minus_one) return true;
    if (std::none_of(pattern.dims.begin(), pattern.dims.end(), [](const Dim& d) { return d == Dim(0); })) return true;
    ctx.invalid_input("with allowzero=1 the shape may not hold both 0 and -1");
    return false;
}

// ONNX (and ONNX Runtime) cannot infer a -1 beside a zero-length dim, a 0 copied from the input included;
// OpenVINO can when the input has a zero too.
bool check_zero_beside_minus_one(OpContext& ctx, const shape_ops::ReshapePattern& pattern, const Shape& result) {
    if (!pattern.minus_one) return true;
    for (size_t i = 0; i < result.rank(); ++i) {
        if (i == *pattern.minus_one || result.dims[i] != Dim(0)) continue;
        ctx.invalid_input(
            fmt::format("the -1 of the shape cannot be inferred beside the zero-length dim {} of {}", i, result.str()));
        return false;
    }
    return true;
}

// OpenVINO's element count check leaves out targets with a 0 (special_zero); ONNX Runtime counts the dims the
// zeros copied too.
bool check_copied_elements(OpContext& ctx, const Shape& result) {
    const Shape& data = ctx.shape(0);
    if (!data.is_static() || !result.is_static()) return true;
    const auto in = shape_ops::static_element_count(data), out = shape_ops::static_element_count(result);
    if (!in || !out || *in == *out) return true;
    ctx.invalid_input(
        fmt::format("the input {} has {} elements, the output {} {}", data.str(), *in, result.str(), *out));
    return false;
}

void infer_reshape(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(ctx.version() < 5 ? 1 : 2) || !expect_data_type(ctx, 0, all_but_v1_floats(ctx))) return;
    const bool allowzero = ctx.version() >= 14 && ctx.attr_int("allowzero", 0).value_or(0) != 0;
    bool rejected = false;
    const auto target = reshape_target(ctx, &rejected);
    if (rejected || ctx.failed()) return;
    OpOutput o{Shape{}, ctx.type(0), std::nullopt, {}};
    if (!target) {
        if (!shape_ops::reshape_without_target(ctx, o.shape)) return;
        out.push_back(std::move(o));
        return;
    }
    const auto pattern = shape_ops::read_reshape_pattern(ctx, *target);
    if (!pattern || !check_allowzero(ctx, *pattern, allowzero)) return;
    // ONNX's 0 copies the input dim unless allowzero: OpenVINO's special_zero.
    shape_ops::reshape_from_pattern(ctx, *pattern, !allowzero, o);
    if (ctx.failed() || !check_zero_beside_minus_one(ctx, *pattern, o.shape)) return;
    shape_ops::check_reshape_elements(ctx, *pattern, !allowzero, o.shape);
    if (ctx.failed() || !check_copied_elements(ctx, o.shape)) return;
    shape_ops::keep_values(ctx, 0, o);
    out.push_back(std::move(o));
}

// ---------------------------------------------------------------------------------------------- Flatten

void infer_flatten(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1) || !expect_data_type(ctx, 0, all_but_v1_floats(ctx))) return;
    const auto axis = ctx.attr_int("axis", 1);
    if (!axis) return;
    const Shape& data = ctx.shape(0);
    OpOutput o{dynamic_dims(2), ctx.type(0), std::nullopt, {}};
    if (!data.rank_dynamic) {
        // Axis is in [0, rank] (an axis of rank flattens into [N, 1]); negative ones count from the back from 11.
        const int64_t rank = static_cast<int64_t>(data.rank());
        const int64_t lowest = ctx.version() >= 11 ? -rank : 0;
        if (*axis < lowest || *axis > rank)
            return ctx.invalid_attribute(fmt::format("axis {} is out of range [{}, {}]", *axis, lowest, rank));
        const auto split = static_cast<std::ptrdiff_t>(*axis < 0 ? *axis + rank : *axis);
        o.shape.dims = {dims_product(std::span(data.dims.begin(), data.dims.begin() + split)),
                        dims_product(std::span(data.dims.begin() + split, data.dims.end()))};
        note_dim(ctx, o, 0, fmt::format("the product of the dims before axis {} of {}", split, data.str()));
        note_dim(ctx, o, 1, fmt::format("the product of the dims from axis {} of {}", split, data.str()));
        shape_ops::keep_values(ctx, 0, o);
    }
    out.push_back(std::move(o));
}

// ---------------------------------------------------------------------------------------------- Squeeze, Unsqueeze

// The axes of Squeeze and Unsqueeze: the attribute before 13, input 1 from 13 (optional for Squeeze). nullopt
// with *given: unknown values; nullopt without: no axes.
std::optional<std::vector<int64_t>> squeeze_axes(OpContext& ctx, bool* given) {
    if (ctx.version() < 13) {
        *given = ctx.attr("axes") != nullptr;
        return *given ? ctx.attr_ints("axes") : std::nullopt;
    }
    *given = ctx.has_input(1);
    if (!*given || !expect_index_type(ctx, 1, "axes", false)) return std::nullopt;
    const Shape& s = ctx.shape(1);
    if (!s.rank_dynamic && s.rank() > 1) {
        ctx.invalid_input(fmt::format("axes {} must be 1-D", s.str()));
        return std::nullopt;
    }
    return ctx.exact_values(1);
}

// Without axes every static 1 goes; a dynamic dim that may be 1 leaves the rank open.
Shape squeeze_all_ones(const Shape& data) {
    Shape s;
    for (const Dim& d : data.dims) {
        if (d == Dim(1)) continue;
        if (!d.is_static() && d.compatible(Dim(1))) return Shape::dynamic_rank();
        s.dims.push_back(d);
    }
    return s;
}

void infer_squeeze(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1, ctx.version() >= 13 ? 2 : 1) || !expect_data_type(ctx, 0)) return;
    bool given = false;
    const auto axes = squeeze_axes(ctx, &given);
    if (ctx.failed()) return;
    const Shape& data = ctx.shape(0);
    OpOutput o{Shape::dynamic_rank(), ctx.type(0), std::nullopt, {}};
    if (given && !axes) {
        ctx.value_unknown("the axes (input 1) are not known");
        const Shape& s = ctx.shape(1);
        if (!data.rank_dynamic && s.is_static() && s.rank() == 1 &&
            s.dims[0].length() <= static_cast<int64_t>(data.rank()))
            o.shape = dynamic_dims(data.rank() - static_cast<size_t>(s.dims[0].length()));
    } else if (!data.rank_dynamic && !given) {
        o.shape = squeeze_all_ones(data);
    } else if (!data.rank_dynamic) {
        warn_negative_axes_before_11(ctx, *axes, "axes");
        const auto normalized =
            onnx_axes(ctx, *axes, static_cast<int64_t>(data.rank()), "axes", false, ctx.version() >= 13);
        if (!normalized) return;
        const std::set<size_t> drop(normalized->begin(), normalized->end());
        o.shape = Shape{};
        for (size_t i = 0; i < data.rank(); ++i) {
            const Dim& d = data.dims[i];
            if (!drop.count(i)) {
                o.shape.dims.push_back(d);
            } else if (!d.compatible(Dim(1))) {
                return ctx.invalid_input(
                    fmt::format("axis {} of {} is {}, not 1: it cannot be squeezed", i, data.str(), d.str()));
            }
        }
    }
    if (!o.shape.rank_dynamic) shape_ops::keep_values(ctx, 0, o);
    out.push_back(std::move(o));
}

void infer_unsqueeze(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(ctx.version() >= 13 ? 2 : 1) || !expect_data_type(ctx, 0)) return;
    bool given = false;
    const auto axes = squeeze_axes(ctx, &given);
    if (ctx.failed()) return;
    const Shape& data = ctx.shape(0);
    OpOutput o{Shape::dynamic_rank(), ctx.type(0), std::nullopt, {}};
    if (!axes) {
        ctx.value_unknown("the axes (input 1) are not known");
        const Shape& s = ctx.shape(1);
        if (!data.rank_dynamic && s.is_static() && s.rank() == 1 &&
            s.dims[0].length() <= static_cast<int64_t>(kMaxShapeRank))
            o.shape = dynamic_dims(data.rank() + static_cast<size_t>(s.dims[0].length()));
        out.push_back(std::move(o));
        return;
    }
    warn_negative_axes_before_11(ctx, *axes, "axes");
    if (!data.rank_dynamic) {
        // The axes index the output, whose rank is the input's plus one per axis.
        const int64_t rank = static_cast<int64_t>(data.rank() + axes->size());
        if (rank > static_cast<int64_t>(kMaxShapeRank))
            return ctx.invalid_input(fmt::format("{} axes make a rank of {}, more than irlint reads ({})", axes->size(),
                                                 rank, kMaxShapeRank));
        const auto normalized = onnx_axes(ctx, *axes, rank, "axes", true, ctx.version() >= 13);
        if (!normalized) return;
        std::vector<bool> inserted(static_cast<size_t>(rank), false);
        for (const size_t a : *normalized) inserted[a] = true;
        o.shape = Shape{};
        auto next = data.dims.begin();
        for (size_t i = 0; i < static_cast<size_t>(rank); ++i) o.shape.dims.push_back(inserted[i] ? Dim(1) : *next++);
        shape_ops::keep_values(ctx, 0, o);
    }
    out.push_back(std::move(o));
}

// ---------------------------------------------------------------------------------------------- Transpose

// The values of a small static tensor with its axes permuted: output index i reads input index perm[i].
std::optional<TensorValue> transposed_values(const OpContext& ctx, const Shape& data, const std::vector<size_t>& perm) {
    const auto n = capped_element_count(data, kMaxValueElements);
    const TensorValue* v = ctx.value(0);
    if (!n || !v || v->size() != *n) return std::nullopt;
    const size_t rank = data.rank();
    std::vector<size_t> in_strides(rank, 1);
    for (size_t i = rank; i-- > 1;) in_strides[i - 1] = in_strides[i] * static_cast<size_t>(data.dims[i].length());
    TensorValue out;
    out.reserve(*n);
    std::vector<size_t> index(rank, 0);  // the output's
    for (size_t k = 0; k < *n; ++k) {
        size_t source = 0;
        for (size_t i = 0; i < rank; ++i) source += index[i] * in_strides[perm[i]];
        out.push_back((*v)[source]);
        for (size_t i = rank; i-- > 0;) {
            if (++index[i] < static_cast<size_t>(data.dims[perm[i]].length())) break;
            index[i] = 0;
        }
    }
    return out;
}

void infer_transpose(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1) || !expect_data_type(ctx, 0)) return;
    const Shape& data = ctx.shape(0);
    OpOutput o{Shape::dynamic_rank(), ctx.type(0), std::nullopt, {}};
    const std::string_view* perm_text = ctx.attr("perm");
    if (data.rank_dynamic) {
        if (perm_text) {
            if (const auto perm = ctx.attr_ints("perm")) o.shape = dynamic_dims(perm->size());
        }
        out.push_back(std::move(o));
        return;
    }
    const size_t rank = data.rank();
    std::vector<size_t> perm(rank);
    for (size_t i = 0; i < rank; ++i) perm[i] = rank - 1 - i;  // no perm: the axes reversed
    if (perm_text) {
        const auto given = ctx.attr_ints("perm");
        if (!given) return;
        const auto normalized = onnx_axes(ctx, *given, static_cast<int64_t>(rank), "perm", true, false);
        if (!normalized) return;
        if (normalized->size() != rank || std::any_of(given->begin(), given->end(), [](int64_t a) { return a < 0; }))
            return ctx.invalid_attribute(fmt::format("perm [{}] is not a permutation of the {} axes of {}",
                                                     join_ints(*given), rank, data.str()));
        perm = *normalized;
    }
    o.shape = Shape{};
    for (const size_t a : perm) o.shape.dims.push_back(data.dims[a]);
    o.value = transposed_values(ctx, data, perm);
    out.push_back(std::move(o));
}

// ---------------------------------------------------------------------------------------------- Concat

void infer_concat(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1, SIZE_MAX)) return;
    // Concat-1's axis defaults to 1; from 4 it is required, and negative from 11.
    const auto axis_attr = ctx.attr_int("axis", ctx.version() < 4 ? std::optional<int64_t>(1) : std::nullopt);
    if (!axis_attr) return;
    warn_negative_axes_before_11(ctx, std::span(&*axis_attr, 1), "axis");
    for (size_t i = 0; i < ctx.input_count(); ++i)
        if (!expect_type(ctx, i, "inputs", all_but_v1_floats(ctx), ctx.version()) ||
            !expect_same_type(ctx, 0, i, "input 0", fmt::format("input {}", i)))
            return;
    OpOutput o{Shape::dynamic_rank(), ctx.type(0), std::nullopt, {}};
    Dim axis_dim(0);
    size_t axis = 0;
    for (size_t i = 0; i < ctx.input_count(); ++i) {
        const Shape& s = ctx.shape(i);
        if (s.rank_dynamic) {
            axis_dim = axis_dim + Dim::dynamic();
            continue;
        }
        const auto a = onnx_axis(ctx, *axis_attr, static_cast<int64_t>(s.rank()));
        if (!a) return;
        axis = *a;
        axis_dim = axis_dim + s.dims[axis];
        if (o.shape.rank_dynamic) {
            o.shape = s;
            continue;
        }
        if (o.shape.rank() != s.rank())
            return ctx.invalid_input(fmt::format("input {} {} has rank {}, the inputs before it rank {}", i, s.str(),
                                                 s.rank(), o.shape.rank()));
        for (size_t d = 0; d < s.rank(); ++d) {
            if (d == axis) continue;
            const auto merged = Dim::merge(o.shape.dims[d], s.dims[d]);
            if (!merged)
                return ctx.invalid_input(fmt::format("input {} {} has dim {} = {} where the inputs before it have {}",
                                                     i, s.str(), d, s.dims[d].str(), o.shape.dims[d].str()));
            o.shape.dims[d] = merged->with_symbol(o.shape.dims[d].symbol());
        }
    }
    if (!o.shape.rank_dynamic) {
        o.shape.dims[axis] = axis_dim;
        if (ctx.explain()) {
            std::vector<std::string> parts;
            for (size_t i = 0; i < ctx.input_count(); ++i)
                parts.push_back(ctx.shape(i).rank_dynamic ? std::string("?") : ctx.shape(i).dims[axis].str());
            note_dim(ctx, o, axis, fmt::format("{}", fmt::join(parts, "+")));
        }
        shape_ops::concat_values(ctx, axis, o);
    }
    out.push_back(std::move(o));
}

// ---------------------------------------------------------------------------------------------- Split

// An input's values as integers, from integer data or from floating-point data that holds integers.
std::optional<std::vector<int64_t>> integral_values(const OpContext& ctx, size_t i) {
    if (auto v = ctx.exact_values(i)) return v;
    const std::vector<double>* r = ctx.real_values(i);
    if (!r) return std::nullopt;
    std::vector<int64_t> out;
    for (const double x : *r) {
        if (!(std::abs(x) < 9.0e18) || x != std::trunc(x)) return std::nullopt;
        out.push_back(static_cast<int64_t>(x));
    }
    return out;
}

// A scalar input's value as an integer (see integral_values).
std::optional<int64_t> integral_scalar(const OpContext& ctx, size_t i) {
    const auto v = integral_values(ctx, i);
    if (!v || v->size() != 1) return std::nullopt;
    return v->front();
}

// The lengths of the parts: the `split` attribute (before 13; Split-1 also takes it as input 1) or input 1 (from
// 13). nullopt with *given: unknown values.
std::optional<std::vector<int64_t>> split_lengths(OpContext& ctx, bool* given) {
    const bool from_input = ctx.version() >= 13 || (ctx.version() == 1 && ctx.has_input(1));
    if (!from_input) {
        *given = ctx.attr("split") != nullptr;
        return *given ? ctx.attr_ints("split") : std::nullopt;
    }
    *given = ctx.has_input(1);
    if (!*given) return std::nullopt;
    if (ctx.version() == 1) return integral_values(ctx, 1);  // Split-1's split input has the data's (float) type
    if (!expect_index_type(ctx, 1, "split", false)) return std::nullopt;
    return ctx.exact_values(1);
}

// The parts without lengths: equal ones before 18; from 18 num_outputs parts of ceil(dim / n), the last smaller.
std::optional<std::vector<int64_t>> equal_parts(OpContext& ctx, int64_t dim, int64_t parts) {
    if (ctx.version() < 18) {
        if (dim % parts != 0) {
            ctx.invalid_input(
                fmt::format("the split axis of length {} does not divide into {} equal outputs", dim, parts));
            return std::nullopt;
        }
        return std::vector<int64_t>(static_cast<size_t>(parts), dim / parts);
    }
    const int64_t chunk = dim / parts + (dim % parts != 0 ? 1 : 0);
    const int64_t last = dim - chunk * (parts - 1);
    if (last < 0) {
        ctx.invalid_input(fmt::format("{} parts of ceil({} / {}) = {} exceed the split axis of length {}", parts, dim,
                                      parts, chunk, dim));
        return std::nullopt;
    }
    std::vector<int64_t> sizes(static_cast<size_t>(parts - 1), chunk);
    sizes.push_back(last);
    return sizes;
}

// The values of part k of a small static tensor split along `axis`.
std::optional<TensorValue> split_values(const OpContext& ctx, const Shape& data, size_t axis, int64_t start,
                                        int64_t length) {
    const auto n = capped_element_count(data, kMaxValueElements);
    const TensorValue* v = ctx.value(0);
    if (!n || !v || v->size() != *n) return std::nullopt;
    std::vector<int64_t> dims;
    std::vector<tensor::AxisPick> picks;
    for (size_t i = 0; i < data.rank(); ++i) {
        dims.push_back(data.dims[i].length());
        picks.push_back(i == axis ? tensor::AxisPick{start, 1, length} : tensor::AxisPick{0, 1, data.dims[i].length()});
    }
    return tensor::pick_values(*v, dims, picks);
}

void infer_split(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1, ctx.version() == 1 || ctx.version() >= 13 ? 2 : 1) ||
        !expect_data_type(ctx, 0, all_but_v1_floats(ctx)))
        return;
    bool given = false;
    const auto lengths = split_lengths(ctx, &given);
    const auto num_outputs = ctx.version() >= 18 ? ctx.attr_int("num_outputs", 0) : std::optional<int64_t>(0);
    if (ctx.failed() || !num_outputs) return;
    // The node's outputs; a node made up without any (a test's) has as many as its lengths or num_outputs say.
    size_t outputs = node_outputs(ctx);
    if (outputs == 0) outputs = lengths ? lengths->size() : *num_outputs > 0 ? static_cast<size_t>(*num_outputs) : 1;
    if (*num_outputs > shape_ops::kMaxOutputs || outputs > static_cast<size_t>(shape_ops::kMaxOutputs))
        return ctx.value_unknown(fmt::format("{} outputs are more than irlint builds",
                                             std::max<int64_t>(*num_outputs, static_cast<int64_t>(outputs))));
    if (given && *num_outputs != 0) return ctx.invalid_input("both the split input and num_outputs are given");
    if (ctx.version() >= 18 && !given && *num_outputs == 0)
        return ctx.invalid_attribute("neither the split input nor num_outputs is given");
    if (*num_outputs != 0 && *num_outputs != static_cast<int64_t>(outputs))
        return ctx.invalid_attribute(fmt::format("num_outputs {} but the node has {} outputs", *num_outputs, outputs));
    const Shape& data = ctx.shape(0);
    const auto each = [&](const Shape& s) {
        for (size_t i = 0; i < outputs; ++i) out.push_back(OpOutput{s, ctx.type(0), std::nullopt, {}});
    };
    if (data.rank_dynamic) return each(Shape::dynamic_rank());
    const auto axis = onnx_axis(ctx, ctx.attr_int("axis", 0).value_or(0), static_cast<int64_t>(data.rank()));
    if (!axis) return;
    const Dim& d = data.dims[*axis];
    Shape part = data;
    part.dims[*axis] = Dim::dynamic();
    if (given && !lengths) {
        ctx.value_unknown("the split lengths (input 1) are not known");
        return each(part);
    }
    if (!given && !d.is_static()) return each(part);
    const auto sizes = given ? lengths : equal_parts(ctx, d.length(), static_cast<int64_t>(outputs));
    if (!sizes) return;
    if (sizes->size() != outputs)
        return ctx.invalid_input(
            fmt::format("split [{}] has {} lengths for {} outputs", join_ints(*sizes), sizes->size(), outputs));
    int64_t total = 0;
    for (const int64_t s : *sizes) {
        if (s < 0) return ctx.invalid_input(fmt::format("split [{}] has a negative length", join_ints(*sizes)));
        total += s;
    }
    if (d.is_static() ? total != d.length() : !d.compatible(Dim(total)))
        return ctx.invalid_input(fmt::format("split [{}] sums to {}, not the length {} of axis {} of {}",
                                             join_ints(*sizes), total, d.str(), *axis, data.str()));
    int64_t start = 0;
    for (const int64_t s : *sizes) {
        part.dims[*axis] = Dim(s);
        OpOutput o{part, ctx.type(0), split_values(ctx, data, *axis, start, s), {}};
        note_dim(ctx, o, *axis,
                 fmt::format("part {} of axis {} ({}) split as [{}]", out.size(), *axis, d.str(), join_ints(*sizes)));
        out.push_back(std::move(o));
        start += s;
    }
}

// ---------------------------------------------------------------------------------------------- Expand, Tile

// A 1-D int64 shape-like input's values as dims; nullopt when unknown.
std::optional<Shape> shape_from_input(const OpContext& ctx, size_t i) {
    const TensorValue* v = ctx.value(i);
    if (!v || v->size() > kMaxShapeRank) return std::nullopt;
    Shape s;
    for (const ValueBounds& b : *v) s.dims.push_back(value_as_dim(b));
    return s;
}

bool expect_1d(OpContext& ctx, size_t i, std::string_view name) {
    const Shape& s = ctx.shape(i);
    if (s.rank_dynamic || s.rank() == 1) return true;
    ctx.invalid_input(fmt::format("{} {} must be 1-D", name, s.str()));
    return false;
}

// The length of a 1-D input when static, else nullopt.
std::optional<size_t> static_length(const Shape& s) {
    if (s.rank_dynamic || s.rank() != 1 || !s.dims[0].is_static() ||
        s.dims[0].length() > static_cast<int64_t>(kMaxShapeRank))
        return std::nullopt;
    return static_cast<size_t>(s.dims[0].length());
}

void infer_expand(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2) || !expect_data_type(ctx, 0) || !expect_index_type(ctx, 1, "shape", false) ||
        !expect_1d(ctx, 1, "shape"))
        return;
    const Shape& data = ctx.shape(0);
    OpOutput o{Shape::dynamic_rank(), ctx.type(0), std::nullopt, {}};
    const auto target = shape_from_input(ctx, 1);
    if (!target) {
        ctx.value_unknown("the shape (input 1) is not known");
        if (const auto n = static_length(ctx.shape(1)); n && !data.rank_dynamic)
            o.shape = dynamic_dims(std::max(*n, data.rank()));
        out.push_back(std::move(o));
        return;
    }
    if (!data.rank_dynamic) {
        // Bidirectional: the shape's 1s take the input's dims, as numpy broadcasting of both.
        std::string error;
        const auto r = broadcast_shapes(data, *target, BroadcastKind::numpy, -1, &error);
        if (!r)
            return ctx.invalid_input(
                fmt::format("the shape {} does not broadcast with the input {}: {}", target->str(), data.str(), error));
        o.shape = *r;
        o.value = shape_ops::broadcast_value(ctx, o.shape, true);
    }
    out.push_back(std::move(o));
}

// The values of a small static tensor tiled by `repeats`.
std::optional<TensorValue> tiled_values(const OpContext& ctx, const Shape& data, const Shape& result) {
    const auto n = capped_element_count(result, kMaxValueElements);
    const auto data_n = capped_element_count(data, kMaxValueElements);
    const TensorValue* v = ctx.value(0);
    if (!n || !data_n || !v || v->size() != *data_n) return std::nullopt;
    const size_t rank = result.rank();
    TensorValue out;
    out.reserve(*n);
    std::vector<size_t> index(rank, 0);
    for (size_t k = 0; k < *n; ++k) {
        size_t source = 0;
        for (size_t d = 0; d < rank; ++d) {
            const auto extent = static_cast<size_t>(data.dims[d].length());
            source = source * extent + index[d] % extent;
        }
        out.push_back((*v)[source]);
        for (size_t d = rank; d-- > 0;) {
            if (++index[d] < static_cast<size_t>(result.dims[d].length())) break;
            index[d] = 0;
        }
    }
    return out;
}

void infer_tile(OpContext& ctx, std::vector<OpOutput>& out) {
    // Tile-1 takes tiles and axis inputs (scalars); from 6 one repeats input per axis.
    if (!ctx.expect_inputs(ctx.version() < 6 ? 3 : 2) || !expect_data_type(ctx, 0, all_but_v1_floats(ctx)) ||
        (ctx.version() >= 6 && !expect_index_type(ctx, 1, "repeats", false)))
        return;
    const Shape& data = ctx.shape(0);
    OpOutput o{data.rank_dynamic ? Shape::dynamic_rank() : dynamic_dims(data.rank()), ctx.type(0), std::nullopt, {}};
    if (data.rank_dynamic) {
        out.push_back(std::move(o));
        return;
    }
    std::vector<int64_t> repeats(data.rank(), 1);
    if (ctx.version() < 6) {
        // Tile-1's tiles and axis have the data's (float) type.
        const auto tiles = integral_scalar(ctx, 1), axis = integral_scalar(ctx, 2);
        if (!tiles || !axis) {
            ctx.value_unknown("tiles or axis (inputs 1, 2) are not known");
            out.push_back(std::move(o));
            return;
        }
        const auto a = onnx_axis(ctx, *axis, static_cast<int64_t>(data.rank()), "axis", true);
        if (!a) return;
        repeats[*a] = *tiles;
    } else {
        if (!expect_1d(ctx, 1, "repeats")) return;
        const auto given = ctx.exact_values(1);
        if (!given) {
            ctx.value_unknown("the repeats (input 1) are not known");
            out.push_back(std::move(o));
            return;
        }
        if (given->size() != data.rank())
            return ctx.invalid_input(fmt::format("repeats [{}] has {} values for the input {} of rank {}",
                                                 join_ints(*given), given->size(), data.str(), data.rank()));
        repeats = *given;
    }
    for (size_t i = 0; i < data.rank(); ++i) {
        if (repeats[i] < 0)
            return ctx.invalid_input(fmt::format("repeats [{}] has a negative value", join_ints(repeats)));
        o.shape.dims[i] = repeats[i] == 1 ? data.dims[i] : data.dims[i] * Dim(repeats[i]);
        note_dim(ctx, o, i, fmt::format("{}*{}", data.dims[i].str(), repeats[i]));
    }
    o.value = tiled_values(ctx, data, o.shape);
    out.push_back(std::move(o));
}

// ---------------------------------------------------------------------------------------------- Constant

// Values of more than kMaxValueElements are not carried.
std::optional<TensorValue> exact_value(std::span<const int64_t> ints) {
    if (ints.size() > kMaxValueElements) return std::nullopt;
    TensorValue v;
    v.reserve(ints.size());
    for (const int64_t x : ints) v.push_back({x, x});
    return v;
}

// The one value attribute of a Constant (value_* are from 12, sparse_value from 11).
const std::string_view* constant_attribute(OpContext& ctx, std::string_view* which) {
    static constexpr std::string_view kNames[] = {"value_float",  "value_floats",  "value_int",   "value_ints",
                                                  "value_string", "value_strings", "sparse_value"};
    std::vector<std::string_view> given;
    if (ctx.attr_tensor("value")) given.push_back("value");
    for (const std::string_view n : kNames)
        if (ctx.attr(n)) given.push_back(n);
    if (given.size() != 1) {
        ctx.invalid_attribute(given.empty()
                                  ? fmt::format("no value attribute (value, value_float(s), value_int(s), "
                                                "value_string(s), sparse_value)")
                                  : fmt::format("{} value attributes are given; exactly one may be", given.size()));
        return nullptr;
    }
    *which = given.front();
    static constexpr std::string_view kEmpty;
    return *which == "value" ? &kEmpty : ctx.attr(*which);
}

// The count of a list attribute ("1,2,3"; "" is empty).
size_t list_count(std::string_view text) {
    return trim(text).empty() ? 0 : static_cast<size_t>(std::count(text.begin(), text.end(), ',')) + 1;
}

// value_float(s): f32 values, which flow as the values of a small float tensor do.
void put_float_values(OpContext& ctx, std::string_view which, OpOutput& o) {
    std::optional<std::vector<double>> floats;
    if (which == "value_floats") {
        if (list_count(*ctx.attr(which)) <= kMaxValueElements) floats = ctx.attr_floats(which);
    } else if (const auto one = ctx.attr_float(which)) {
        floats = std::vector<double>{*one};
    }
    if (!floats) return;
    for (double& x : *floats) x = elementwise::round_to_type(ElementType::f32, x);
    elementwise::put_reals(o, std::move(*floats), ElementType::f32);
}

void infer_constant(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(0)) return;
    std::string_view which;
    const std::string_view* text = constant_attribute(ctx, &which);
    if (!text) return;
    OpOutput o;
    if (which == "value") {
        const InlineTensor& t = *ctx.attr_tensor("value");
        o.shape = static_shape(t.dims);
        o.type = t.type == ElementType::dynamic ? std::nullopt : std::optional(t.type);
        // Constant-1's schema names float types only, but exporters of that era wrote integer Constants that
        // ONNX's checker and ONNX Runtime accept: no finding.
        if (t.has_data && (is_integer_type(t.type) || t.type == ElementType::boolean)) o.value = exact_value(t.ints);
    } else if (which == "value_int" || which == "value_ints") {
        std::optional<std::vector<int64_t>> ints;
        if (which == "value_ints")
            ints = ctx.attr_ints(which);
        else if (const auto one = ctx.attr_int(which))
            ints = std::vector<int64_t>{*one};
        if (!ints) return;
        o.type = ElementType::i64;
        o.shape =
            which == "value_int" ? Shape{} : static_shape(std::vector<int64_t>{static_cast<int64_t>(ints->size())});
        o.value = exact_value(*ints);
    } else if (which == "value_float" || which == "value_string") {
        o.type = which == "value_float" ? ElementType::f32 : ElementType::string;
        if (which == "value_float") put_float_values(ctx, which, o);
    } else if (which == "value_floats" || which == "value_strings") {
        o.type = which == "value_floats" ? ElementType::f32 : ElementType::string;
        o.shape.dims = {Dim(static_cast<int64_t>(list_count(*text)))};
        if (which == "value_floats") put_float_values(ctx, which, o);
    } else {
        // A sparse tensor attribute reaches irlint without its dims and type.
        ctx.value_unknown("sparse_value's dims are not read");
        o.shape = Shape::dynamic_rank();
    }
    out.push_back(std::move(o));
}

// ---------------------------------------------------------------------------------------------- ConstantOfShape

// The element types of ConstantOfShape's value: numeric and bool; bf16 and the float8s from 20, then the newer
// types as their eras come.
bool constant_of_shape_takes(ElementType t, int version) {
    const int era = t == ElementType::bf16 || type_era(t) == 19 ? 20 : type_era(t);
    return t != ElementType::string && era != 0 && era <= version;
}

void infer_constant_of_shape(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1) || !expect_index_type(ctx, 0, "input", false) || !expect_1d(ctx, 0, "input")) return;
    const InlineTensor* value = ctx.attr_tensor("value");
    OpOutput o{Shape::dynamic_rank(), ElementType::f32, std::nullopt, {}};
    if (value) {
        if (!value->dims.empty() && (value->dims.size() != 1 || value->dims[0] != 1))
            return ctx.invalid_attribute(
                fmt::format("value must hold one element (a 1-D tensor of one), it has "
                            "dims [{}]",
                            join_ints(value->dims)));
        o.type = value->type;
        if (value->type == ElementType::dynamic || !constant_of_shape_takes(value->type, ctx.version()))
            return ctx.invalid_attribute(
                fmt::format("value is {}, which the version does not take", element_type_name(value->type)));
    }
    const auto target = shape_from_input(ctx, 0);
    if (!target) {
        ctx.value_unknown("the shape (input 0) is not known");
        if (const auto n = static_length(ctx.shape(0))) o.shape = dynamic_dims(*n);
        out.push_back(std::move(o));
        return;
    }
    if (const auto v = ctx.exact_values(0))
        for (const int64_t d : *v)
            if (d < 0) return ctx.invalid_input(fmt::format("the shape [{}] has a negative dim", join_ints(*v)));
    o.shape = *target;
    const bool integral = o.type && (is_integer_type(*o.type) || *o.type == ElementType::boolean);
    if (const auto n = capped_element_count(o.shape, kMaxValueElements);
        n && integral && (!value || (value->has_data && value->ints.size() == 1))) {
        const int64_t fill = value ? value->ints.front() : 0;
        o.value = TensorValue(*n, ValueBounds{fill, fill});
    }
    out.push_back(std::move(o));
}

// ---------------------------------------------------------------------------------------------- Range

// One scalar input's real value (a float initializer's or an integer one's).
std::optional<double> real_scalar(const OpContext& ctx, size_t i) {
    const std::vector<double>* v = ctx.real_values(i);
    if (v && v->size() == 1) return v->front();
    if (const auto x = shape_ops::single_exact(ctx, i)) return static_cast<double>(*x);
    return std::nullopt;
}

// Range's types: float, double, int16, int32, int64; float16 and bfloat16 from 27.
bool range_takes(ElementType t, int version) {
    if (t == ElementType::f16 || t == ElementType::bf16) return version >= 27;
    return t == ElementType::f32 || t == ElementType::f64 || t == ElementType::i16 || t == ElementType::i32 ||
           t == ElementType::i64;
}

void infer_range(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(3) || (ctx.version() >= 27 && !ctx.attr_int("stash_type", 1))) return;
    static constexpr std::string_view kNames[] = {"start", "limit", "delta"};
    for (size_t i = 0; i < 3; ++i) {
        if (const auto t = ctx.type(i); t && !range_takes(*t, ctx.version()))
            return ctx.invalid_input(fmt::format("{} is {}; Range takes float, double, int16, int32 or int64{}",
                                                 kNames[i], element_type_name(*t),
                                                 ctx.version() >= 27 ? ", float16 or bfloat16" : ""));
        if (!expect_same_type(ctx, 0, i, "start", kNames[i])) return;
        const Shape& s = ctx.shape(i);
        if (!s.rank_dynamic && s.rank() != 0 && !(s.rank() == 1 && s.dims[0] == Dim(1)))
            return ctx.invalid_input(fmt::format("{} {} must be a scalar", kNames[i], s.str()));
    }
    OpOutput o{Shape{false, {Dim::dynamic()}}, ctx.type(0), std::nullopt, {}};
    const bool integer = ctx.type(0) && is_integer_type(*ctx.type(0));
    std::optional<int64_t> length;
    if (integer) {
        const auto start = shape_ops::single_exact(ctx, 0), limit = shape_ops::single_exact(ctx, 1),
                   delta = shape_ops::single_exact(ctx, 2);
        if (delta == 0) return ctx.invalid_input("delta is 0");
        if (start && limit && delta) {
            length = shape_ops::range_length(*start, *limit, *delta);
            if (length && *length <= static_cast<int64_t>(kMaxValueElements)) {
                TensorValue v;
                for (int64_t i = 0; i < *length; ++i) v.push_back({*start + i * *delta, *start + i * *delta});
                o.value = std::move(v);
            }
        }
    } else {
        const auto start = real_scalar(ctx, 0), limit = real_scalar(ctx, 1), delta = real_scalar(ctx, 2);
        if (delta == 0.0) return ctx.invalid_input("delta is 0");
        if (start && limit && delta) length = real_range_length(*start, *limit, *delta);
    }
    if (length) {
        o.shape.dims = {Dim(*length)};
        note_dim(ctx, o, 0, "max(ceil((limit-start)/delta), 0)");
    } else {
        ctx.value_unknown("start, limit or delta is not known");
    }
    out.push_back(std::move(o));
}

constexpr std::string_view kAllTypes = "input type of the version";

}  // namespace

std::span<const OpEntry> onnx_shape_ops() {
    static const std::vector<OpEntry> entries = [] {
        std::vector<OpEntry> v;
        const auto add = [&v](std::string_view type, std::initializer_list<int> versions, OpInferFn fn,
                              std::string_view infers, std::string_view checks) {
            for (const int version : versions) v.push_back(onnx_op(type, version, fn, infers, checks));
        };
        add("Concat", {1, 4, 11, 13}, infer_concat, "shape, type, values",
            "axis required (from 4), in range (negative before 11: a warning); equal ranks and types; other dims match");
        add("Constant", {1, 9, 11, 12, 13, 19, 21, 23, 24, 25}, infer_constant, "shape, type, values",
            "exactly one value attribute; value type of the version");
        add("ConstantOfShape", {9, 20, 21, 23, 24, 25}, infer_constant_of_shape, "shape, type, values",
            "input 1-D int64, no negative dim; value one element, not a string");
        add("Expand", {8, 13}, infer_expand, "shape, type, values", "shape 1-D int64; bidirectional broadcast");
        add("Flatten", {1, 9, 11, 13, 21, 23, 24, 25}, infer_flatten, "shape, type, values",
            "axis in [0, rank] (negative before 11: a warning); input type");
        add("Range", {11}, infer_range, "shape, type, values",
            "scalar inputs of one type (float, double, int16, int32, int64); delta != 0");
        add("Range", {27}, infer_range, "shape, type, values",
            "scalar inputs of one type (float, double, int16, int32, int64, float16, bfloat16); delta != 0");
        add("Reshape", {1}, infer_reshape, "shape, type, values",
            "shape attribute: one -1; 0 copies a dim of the input; element counts; float input");
        add("Reshape", {5, 13, 14, 19, 21, 23, 24, 25}, infer_reshape, "shape, type, values",
            "shape 1-D int64; one -1; 0 copies a dim of the input (unless allowzero); element counts");
        add("Shape", {1, 13, 15, 19, 21, 23, 24, 25}, infer_shape, "shape, type, values", kAllTypes);
        add("Size", {1, 13, 19, 21, 23, 24, 25}, infer_size, "shape, type, values", kAllTypes);
        add("Split", {1, 2, 11, 13, 18}, infer_split, "shape, type, values",
            "axis in range; split lengths sum to the axis, one per output; num_outputs (18) or split, not both");
        add("Squeeze", {1, 11, 13, 21, 23, 24, 25}, infer_squeeze, "shape, type, values",
            "axes in range (negative before 11: a warning), 1-D int64 input from 13; squeezed dims are 1");
        add("Tile", {1, 6, 13}, infer_tile, "shape, type, values", "repeats 1-D int64, one per axis, >= 0");
        add("Transpose", {1, 13, 21, 23, 24, 25}, infer_transpose, "shape, type, values",
            "perm a permutation of the axes");
        add("Unsqueeze", {1, 11, 13, 21, 23, 24, 25}, infer_unsqueeze, "shape, type, values",
            "axes in range of the output rank (negative before 11: a warning), unique; 1-D int64 input from 13");
        const auto more = onnx_shape::index_entries();
        v.insert(v.end(), more.begin(), more.end());
        std::stable_sort(v.begin(), v.end(), [](const OpEntry& a, const OpEntry& b) {
            return a.type != b.type ? a.type < b.type : a.version < b.version;
        });
        return v;
    }();
    return entries;
}

}  // namespace irlint
