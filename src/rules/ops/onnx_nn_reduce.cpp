// ONNX's reductions: Reduce* (axes an attribute before ReduceSum-13 and the others' 18, an input from then,
// with noop_with_empty_axes), ArgMax/ArgMin (i64 indices), TopK (k an attribute before 10, an input from
// then), CumSum and CumProd. ReduceSum, ReduceProd, ReduceMax, ReduceMin, ArgMax and ArgMin carry small integer values,
// as shapes are computed from them.

#include <algorithm>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/checked_int.hpp"
#include "core/text.hpp"
#include "rules/ops/onnx_nn.hpp"
#include "rules/ops/shape_manipulation_common.hpp"
#include "rules/ops/shape_util.hpp"

namespace irlint::onnx_nn {

namespace {

// ---- Reduce* -------------------------------------------------------------------------------------------

enum class Combine { none, sum, prod, max, min };

struct ReduceKind {
    int axes_input_since;  // the version from which axes is an input
    Combine combine;
};

ReduceKind reduce_kind(std::string_view type) {
    if (type == "ReduceSum") return {13, Combine::sum};
    if (type == "ReduceProd") return {18, Combine::prod};
    if (type == "ReduceMax") return {18, Combine::max};
    if (type == "ReduceMin") return {18, Combine::min};
    return {18, Combine::none};
}

bool takes_reduce_type(const OpContext& ctx, ElementType t) {
    const std::string_view type = ctx.layer().type;
    const bool max_min = type == "ReduceMax" || type == "ReduceMin";
    if ((is_onnx_float(t) && (t != ElementType::bf16 || takes_bf16(ctx))) || t == ElementType::i32 ||
        t == ElementType::i64 || t == ElementType::u32 || t == ElementType::u64)
        return true;
    if (t == ElementType::i8 || t == ElementType::u8) return max_min && ctx.version() >= 12;
    if (t == ElementType::boolean) return max_min && ctx.version() >= 20;
    return false;
}

// The axes: the attribute, or input 1's values. nullopt with *known false when the input's values are unknown.
std::optional<std::vector<int64_t>> reduce_axes(OpContext& ctx, const ReduceKind& kind, bool& known) {
    known = true;
    if (ctx.version() < kind.axes_input_since) return ctx.attr_ints("axes", std::vector<int64_t>{});
    if (ctx.attr("axes")) {
        ctx.invalid_attribute(fmt::format("axes is an input from this version, not an attribute"));
        return std::nullopt;
    }
    if (!ctx.has_input(1)) return std::vector<int64_t>{};
    if (!check_type(
            ctx, 1, "axes", [](ElementType t) { return t == ElementType::i64; }, "i64"))
        return std::nullopt;
    auto v = ctx.exact_values(1);
    if (!v) known = false;
    return v;
}

// The reduced value of `in` (shape `shape`) over `axes`, with keepdims or not; only for static small tensors.
std::optional<TensorValue> reduce_values(Combine combine, const TensorValue& in, const Shape& shape,
                                         const std::vector<bool>& reduced) {
    if (combine == Combine::none || !shape.is_static()) return std::nullopt;
    const size_t rank = shape.rank();
    std::vector<int64_t> dims(rank), out_dims(rank);
    for (size_t i = 0; i < rank; ++i) {
        dims[i] = shape.dims[i].length();
        out_dims[i] = reduced[i] ? 1 : dims[i];
    }
    size_t out_count = 1;
    for (const int64_t d : out_dims) out_count *= static_cast<size_t>(d);
    std::vector<std::optional<ValueBounds>> acc(out_count);
    for (size_t flat = 0; flat < in.size(); ++flat) {
        size_t rest = flat, out_flat = 0, stride = 1;
        for (size_t i = rank; i-- > 0;) {
            const size_t idx = rest % static_cast<size_t>(dims[i]);
            rest /= static_cast<size_t>(dims[i]);
            out_flat += (reduced[i] ? 0 : idx) * stride;
            stride *= static_cast<size_t>(out_dims[i]);
        }
        const ValueBounds& v = in[flat];
        auto& a = acc[out_flat];
        if (!a) {
            a = ValueBounds{v.lo, v.hi};
            continue;
        }
        switch (combine) {
            case Combine::sum:
                a = ValueBounds{bound_add(a->lo, v.lo), bound_add(a->hi, v.hi)};
                break;
            case Combine::max:
                a = ValueBounds{std::max(a->lo, v.lo), std::max(a->hi, v.hi)};
                break;
            case Combine::min:
                a = ValueBounds{std::min(a->lo, v.lo), std::min(a->hi, v.hi)};
                break;
            case Combine::prod: {
                if (!a->exact() || !v.exact()) return std::nullopt;
                const auto p = (CheckedInt(a->lo) * v.lo).get();
                if (!p) return std::nullopt;
                a = ValueBounds{*p, *p};
                break;
            }
            case Combine::none:
                return std::nullopt;
        }
    }
    TensorValue out;
    out.reserve(out_count);
    for (const auto& a : acc) {
        if (!a) {
            // An empty reduction: the identity (0 for a sum, 1 for a product); max and min have none.
            if (combine != Combine::sum && combine != Combine::prod) return std::nullopt;
            out.emplace_back(combine == Combine::sum ? 0 : 1, combine == Combine::sum ? 0 : 1);
        } else {
            out.push_back(*a);
        }
    }
    return out;
}

// Axes whose values are unknown: with keepdims each dim is kept or 1 (a dim of 1 stays 1); without, as many
// dims go as axes has values (when it has some: none may mean every axis, or none with noop_with_empty_axes).
Shape reduced_by_unknown_axes(const Shape& data, const Shape& axes, bool keep, bool noop) {
    if (data.rank_dynamic) return Shape::dynamic_rank();
    if (keep) {
        Shape out = unknown_dims(data.rank());
        for (size_t i = 0; i < data.rank(); ++i)
            if (data.dims[i] == Dim(1)) out.dims[i] = Dim(1);
        return out;
    }
    if (axes.rank_dynamic || axes.rank() != 1 || !axes.dims[0].is_static()) return Shape::dynamic_rank();
    const int64_t count = axes.dims[0].length();
    if (count == 0) return noop ? data : Shape{};
    if (count > static_cast<int64_t>(data.rank())) return Shape::dynamic_rank();
    return unknown_dims(data.rank() - static_cast<size_t>(count));
}

void infer_reduce(OpContext& ctx, std::vector<OpOutput>& outs) {
    const ReduceKind kind = reduce_kind(ctx.layer().type);
    if (!ctx.expect_inputs(1, ctx.version() >= kind.axes_input_since ? 2 : 1)) return;
    if (const auto t = ctx.type(0); t && *t != ElementType::dynamic && !takes_reduce_type(ctx, *t))
        return ctx.invalid_input(fmt::format("data is {}, a type this version does not take", type_text(t)));
    const auto keepdims = ctx.attr_int("keepdims", 1);
    const auto noop = ctx.version() >= kind.axes_input_since ? attr_flag(ctx, "noop_with_empty_axes", false) : false;
    bool known = true;
    const auto axes = reduce_axes(ctx, kind, known);
    if (ctx.failed() || !keepdims || !noop) return;
    const Shape& data = ctx.shape(0);
    const bool keep = *keepdims == 1;
    OpOutput out{Shape::dynamic_rank(), ctx.type(0), {}, {}};
    if (!known) {
        ctx.value_unknown("the values of axes (input 1) are unknown");
        out.shape = reduced_by_unknown_axes(data, ctx.shape(1), keep, *noop);
        outs.push_back(std::move(out));
        return;
    }
    if (axes->empty() && *noop) {
        out.shape = data;
        out.value = ctx.value(0) ? std::optional(*ctx.value(0)) : std::nullopt;
        outs.push_back(std::move(out));
        return;
    }
    if (data.rank_dynamic) {
        outs.push_back(std::move(out));
        return;
    }
    std::string error;
    const auto normalized = normalize_axes(*axes, static_cast<int64_t>(data.rank()), false, &error);
    if (!normalized) return ctx.invalid_input(fmt::format("axes: {} for data {}", error, data.str()));
    std::vector<bool> reduced(data.rank(), axes->empty());
    for (const size_t a : *normalized) reduced[a] = true;
    out.shape = Shape{};
    for (size_t i = 0; i < data.rank(); ++i) {
        if (!reduced[i])
            out.shape.dims.push_back(data.dims[i]);
        else if (keep)
            out.shape.dims.emplace_back(1);
    }
    if (const TensorValue* v = ctx.value(0)) out.value = reduce_values(kind.combine, *v, data, reduced);
    outs.push_back(std::move(out));
}

// ---- ArgMax, ArgMin ------------------------------------------------------------------------------------

// The index of the greatest (ArgMax) or least value along `axis` of a static tensor of exact values; the
// first such index, or the last with select_last_index. nullopt when a value is only bounded.
std::optional<TensorValue> arg_values(const TensorValue& in, const Shape& shape, size_t axis, bool max, bool last) {
    if (!shape.is_static()) return std::nullopt;
    size_t outer = 1, inner = 1;
    for (size_t i = 0; i < axis; ++i) outer *= static_cast<size_t>(shape.dims[i].length());
    for (size_t i = axis + 1; i < shape.rank(); ++i) inner *= static_cast<size_t>(shape.dims[i].length());
    const auto along = static_cast<size_t>(shape.dims[axis].length());
    if (along == 0 || outer * along * inner != in.size()) return std::nullopt;
    TensorValue out;
    out.reserve(outer * inner);
    for (size_t o = 0; o < outer; ++o)
        for (size_t i = 0; i < inner; ++i) {
            size_t best = 0;
            for (size_t k = 0; k < along; ++k) {
                const ValueBounds& v = in[(o * along + k) * inner + i];
                if (!v.exact()) return std::nullopt;
                const int64_t b = in[(o * along + best) * inner + i].lo;
                const bool better = max ? v.lo > b : v.lo < b;
                if (better || (last && v.lo == b)) best = k;
            }
            out.emplace_back(static_cast<int64_t>(best), static_cast<int64_t>(best));
        }
    return out;
}

void infer_arg_reduce(OpContext& ctx, std::vector<OpOutput>& outs) {
    if (!ctx.expect_inputs(1)) return;
    if (!check_numeric(ctx, 0, "data")) return;
    const auto axis = ctx.attr_int("axis", 0);
    const auto keepdims = ctx.attr_int("keepdims", 1);
    const auto last = ctx.version() >= 12 ? attr_flag(ctx, "select_last_index", false) : false;
    if (ctx.failed() || !axis || !keepdims || !last) return;
    const Shape& data = ctx.shape(0);
    OpOutput out{Shape::dynamic_rank(), ElementType::i64, {}, {}};
    if (!data.rank_dynamic) {
        if (data.rank() == 0) return ctx.invalid_input("data is a scalar: it has no axis to reduce");
        std::string error;
        const auto a = normalize_axis(*axis, static_cast<int64_t>(data.rank()), &error);
        if (!a) return ctx.invalid_attribute(fmt::format("{} for data {}", error, data.str()));
        out.shape = data;
        if (*keepdims == 1)
            out.shape.dims[*a] = Dim(1);
        else
            out.shape.dims.erase(out.shape.dims.begin() + static_cast<std::ptrdiff_t>(*a));
        if (const TensorValue* v = ctx.value(0))
            out.value = arg_values(*v, data, *a, ctx.layer().type == "ArgMax", *last);
    }
    outs.push_back(std::move(out));
}

// ---- TopK ----------------------------------------------------------------------------------------------

// K: the attribute k (version 1) or input 1, a 1-D i64 tensor of one value.
std::optional<int64_t> topk_k(OpContext& ctx, bool& known) {
    known = true;
    if (ctx.version() < 10) return ctx.attr_int("k");
    if (!check_type(
            ctx, 1, "K", [](ElementType t) { return t == ElementType::i64; }, "i64"))
        return std::nullopt;
    const Shape& k = ctx.shape(1);
    if (!k.rank_dynamic && (k.rank() != 1 || !k.dims[0].compatible(Dim(1)))) {
        ctx.invalid_input(fmt::format("K {} must be a 1-D tensor of one value", k.str()));
        return std::nullopt;
    }
    const auto v = shape_ops::single_exact(ctx, 1);
    if (!v) known = false;
    return v;
}

void infer_topk(OpContext& ctx, std::vector<OpOutput>& outs) {
    if (!ctx.expect_inputs(ctx.version() >= 10 ? 2 : 1)) return;
    if (!check_numeric(ctx, 0, "X")) return;
    const auto axis = ctx.attr_int("axis", -1);
    if (ctx.version() >= 11) {
        attr_flag(ctx, "largest", true);
        attr_flag(ctx, "sorted", true);
    }
    bool known = true;
    const auto k = topk_k(ctx, known);
    if (ctx.failed() || !axis) return;
    const Shape& x = ctx.shape(0);
    OpOutput values{Shape::dynamic_rank(), ctx.type(0), {}, {}};
    if (!x.rank_dynamic) {
        std::string error;
        const auto a = normalize_axis(*axis, static_cast<int64_t>(x.rank()), &error);
        if (!a || x.rank() == 0)
            return ctx.invalid_attribute(fmt::format("{} for X {}", error.empty() ? "no axis" : error, x.str()));
        values.shape = x;
        const Dim& along = x.dims[*a];
        if (!known) {
            ctx.value_unknown("the value of K (input 1) is unknown");
            values.shape.dims[*a] = Dim(0, along.has_upper_bound() ? along.max() : -1);
        } else if (*k < 0) {
            return ctx.invalid_input(fmt::format("K is {}, must be >= 0", *k));
        } else if (along.is_static() && along.length() < *k) {
            return ctx.invalid_input(
                fmt::format("axis {} of X {} has {} elements, fewer than K {}", *a, x.str(), along.length(), *k));
        } else {
            values.shape.dims[*a] = Dim(*k);
        }
    }
    OpOutput indices = values;
    indices.type = ElementType::i64;
    outs.push_back(std::move(values));
    outs.push_back(std::move(indices));
}

// ---- CumSum, CumProd -----------------------------------------------------------------------------------

// The running sum or product along one axis: the output is x.
void infer_cumulative(OpContext& ctx, std::vector<OpOutput>& outs) {
    if (!ctx.expect_inputs(2)) return;
    const auto index = [](ElementType t) { return t == ElementType::i32 || t == ElementType::i64; };
    if (!check_numeric(ctx, 0, "x") || !check_type(ctx, 1, "axis", index, "i32 or i64")) return;
    if (!attr_flag(ctx, "exclusive", false) || !attr_flag(ctx, "reverse", false)) return;
    const Shape& axis = ctx.shape(1);
    if (!axis.rank_dynamic && axis.rank() > 1)
        return ctx.invalid_input(fmt::format("axis {} must be a scalar or 1-D", axis.str()));
    const Shape& x = ctx.shape(0);
    if (const auto a = shape_ops::single_exact(ctx, 1); a && !x.rank_dynamic) {
        std::string error;
        if (!normalize_axis(*a, static_cast<int64_t>(x.rank()), &error))
            return ctx.invalid_input(fmt::format("{} for x {}", error, x.str()));
    }
    outs.push_back(OpOutput{x, ctx.type(0), {}, {}});
}

}  // namespace

std::vector<OpEntry> reduce_entries() {
    std::vector<OpEntry> out;
    const auto add = [&out](std::string_view type, std::initializer_list<int> versions, std::string_view infers) {
        for (int v : versions)
            out.push_back(onnx_op(type, v, infer_reduce, infers,
                                  "axes in range, an attribute or an i64 input as the version says; input type"));
    };
    add("ReduceMax", {1, 11, 12, 13, 18, 20}, "shape, type, values");
    add("ReduceMin", {1, 11, 12, 13, 18, 20}, "shape, type, values");
    add("ReduceSum", {1, 11, 13}, "shape, type, values");
    add("ReduceProd", {1, 11, 13, 18}, "shape, type, values");
    for (const std::string_view t :
         {"ReduceMean", "ReduceL1", "ReduceL2", "ReduceLogSum", "ReduceLogSumExp", "ReduceSumSquare"})
        add(t, {1, 11, 13, 18}, "shape, type");
    for (int v : {1, 11, 12, 13}) {
        out.push_back(
            onnx_op("ArgMax", v, infer_arg_reduce, "shape, type (i64), values", "axis in range; numeric type"));
        out.push_back(
            onnx_op("ArgMin", v, infer_arg_reduce, "shape, type (i64), values", "axis in range; numeric type"));
    }
    for (int v : {1, 10, 11, 24})
        out.push_back(onnx_op("TopK", v, infer_topk, "shape, type (values, i64 indices)",
                              "axis in range; K 1-D of one i64 value, >= 0, at most the axis' length"));
    for (int v : {11, 14})
        out.push_back(onnx_op("CumSum", v, infer_cumulative, "shape, type", "axis a scalar or 1-D i32/i64, in range"));
    out.push_back(onnx_op("CumProd", 26, infer_cumulative, "shape, type", "axis a scalar or 1-D i32/i64, in range"));
    return out;
}

}  // namespace irlint::onnx_nn
