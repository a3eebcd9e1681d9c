// The elementwise family, axis part: the Reduce ops (axes from a value), TopK (k from a value), and the
// normalizations that keep their input's shape but check an axis (SoftMax, LogSoftmax, MVN, NormalizeL2) or the
// channels (BatchNormInference).

#include <algorithm>
#include <array>
#include <vector>

#include "core/checked_int.hpp"
#include "core/text.hpp"
#include "rules/ops/invariants.hpp"
#include "rules/ops/elementwise_util.hpp"

namespace irlint {
namespace {

using namespace elementwise;

// ---- Reduce ----

enum class Reduction { sum, prod, min, max, other };

Shape reduced_shape(const Shape& data, const std::vector<size_t>& axes, bool keep_dims) {
    Shape out;
    for (size_t i = 0; i < data.rank(); ++i) {
        const bool reduced = std::find(axes.begin(), axes.end(), i) != axes.end();
        if (!reduced)
            out.dims.push_back(data.dims[i]);
        else if (keep_dims)
            out.dims.emplace_back(1);
    }
    return out;
}

// Combines one more element into an accumulator; nullopt when the result is not representable (an inexact
// operand where only exact values fold, or an overflow).
std::optional<ValueBounds> accumulate(Reduction r, const ValueBounds& acc, const ValueBounds& x) {
    switch (r) {
        case Reduction::min:
            return ValueBounds{std::min(acc.lo, x.lo), std::min(acc.hi, x.hi)};
        case Reduction::max:
            return ValueBounds{std::max(acc.lo, x.lo), std::max(acc.hi, x.hi)};
        case Reduction::sum:
        case Reduction::prod: {
            const bool sum = r == Reduction::sum;
            const auto lo = (sum ? CheckedInt(acc.lo) + x.lo : CheckedInt(acc.lo) * x.lo).get();
            if (!lo || *lo == ValueBounds::kUnbounded) return std::nullopt;
            if (acc.lo >= 0 && x.lo >= 0)
                return ValueBounds{*lo, sum ? bound_add(acc.hi, x.hi) : bound_mul(acc.hi, x.hi)};
            if (acc.lo != acc.hi || x.lo != x.hi) return std::nullopt;
            return ValueBounds{*lo, *lo};
        }
        case Reduction::other:
            break;
    }
    return std::nullopt;
}

// The reduced values of a small static tensor: each input element goes to the output element of its
// position with the reduced axes dropped.
std::optional<TensorValue> fold_reduce(OpContext& ctx, Reduction r, const std::vector<size_t>& axes,
                                       const Shape& out_shape) {
    if (r == Reduction::other || !maybe_integral(ctx.type(0))) return std::nullopt;
    const auto in_size = small_static_size(ctx.shape(0));
    const auto out_size = small_static_size(out_shape);
    if (!in_size || !out_size) return std::nullopt;
    const TensorValue* v = ctx.value(0);
    if (!v || v->size() != *in_size) return std::nullopt;
    const auto& dims = ctx.shape(0).dims;
    std::vector<std::optional<ValueBounds>> acc(*out_size);
    if (r == Reduction::sum || r == Reduction::prod)
        for (auto& a : acc) a = ValueBounds{r == Reduction::sum ? 0 : 1, r == Reduction::sum ? 0 : 1};
    std::vector<int64_t> pos(dims.size(), 0);
    for (size_t flat = 0; flat < *in_size; ++flat) {
        size_t target = 0;
        for (size_t d = 0; d < dims.size(); ++d)
            if (std::find(axes.begin(), axes.end(), d) == axes.end())
                target = target * static_cast<size_t>(dims[d].length()) + static_cast<size_t>(pos[d]);
        auto& a = acc[target];
        a = a ? accumulate(r, *a, (*v)[flat]) : (*v)[flat];
        if (!a) return std::nullopt;
        for (size_t d = dims.size(); d-- > 0;) {
            if (++pos[d] < dims[d].length()) break;
            pos[d] = 0;
        }
    }
    TensorValue out;
    for (const auto& a : acc) {
        if (!a) return std::nullopt;  // Min or Max over an empty axis
        out.push_back(*a);
    }
    // A sum or product the data type cannot hold wraps in OpenVINO; irlint does not follow it there.
    if (!fits_type(out, ctx.type(0))) return std::nullopt;
    return out;
}

// The output without the axes' values (OpenVINO's fallback): keep_dims keeps the rank; otherwise a single
// axis removes one dim, and more axes leave the rank unknown.
Shape reduce_without_axes(const Shape& data, const Shape& axes, bool keep_dims) {
    if (data.rank_dynamic) return Shape::dynamic_rank();
    if (keep_dims) return Shape{false, std::vector<Dim>(data.rank())};
    const auto n = small_static_size(axes);
    if (n == 1 && data.rank() >= 1) return Shape{false, std::vector<Dim>(data.rank() - 1)};
    return Shape::dynamic_rank();
}

// Axes not known: a 1-D input has one axis for them all (an axis out of range fails at run time), reduced
// when there is at least one.
Shape reduce_with_unknown_axes(const Shape& data, const Shape& axes, bool keep_dims) {
    const auto n = small_static_size(axes);
    if (!data.rank_dynamic && data.rank() == 1 && n && *n >= 1) return keep_dims ? Shape{false, {Dim(1)}} : Shape{};
    return reduce_without_axes(data, axes, keep_dims);
}

template <Reduction R, bool Logical>
void infer_reduce(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2)) return;
    const auto keep_dims = ctx.attr_bool("keep_dims", false);
    if (!keep_dims) return;
    const auto data_type = ctx.type(0);
    if (Logical ? !maybe_bool(data_type) : !maybe_numeric(data_type)) {
        ctx.invalid_input(
            fmt::format("data element type {} is not {}", type_str(data_type), Logical ? "boolean" : "numeric"));
        return;
    }
    if (!maybe_integral(ctx.type(1))) {
        ctx.invalid_input(fmt::format("axes element type {} is not an integer type", type_str(ctx.type(1))));
        return;
    }
    const Shape& data = ctx.shape(0);
    const Shape& axes_shape = ctx.shape(1);
    if (!rank_may_be(axes_shape, 0) && !rank_may_be(axes_shape, 1)) {
        ctx.invalid_input(fmt::format("axes must be a scalar or 1D, it is {}", axes_shape.str()));
        return;
    }
    if (data.rank_dynamic) {
        out.push_back(OpOutput{Shape::dynamic_rank(), data_type, std::nullopt, {}});
        return;
    }
    const auto axes = ctx.exact_values(1);
    if (!axes) {
        ctx.value_unknown("the reduction axes are not known");
        ctx.invariant(*keep_dims ? invariants::dims_kept_or_one(std::string(ctx.layer().type), data)
                                 : invariants::dims_left_out(std::string(ctx.layer().type), data, false));
        out.push_back(OpOutput{reduce_with_unknown_axes(data, axes_shape, *keep_dims), data_type, std::nullopt, {}});
        return;
    }
    std::string error;
    const auto normalized = normalize_axes(*axes, static_cast<int64_t>(data.rank()), false, &error);
    if (!normalized) {
        // OpenVINO leaves out-of-range axes to run time and infers what it would without them.
        out.push_back(OpOutput{reduce_without_axes(data, axes_shape, *keep_dims), data_type, std::nullopt, {}});
        return;
    }
    out.push_back(OpOutput{reduced_shape(data, *normalized, *keep_dims), data_type, std::nullopt, {}});
    out.back().value = fold_reduce(ctx, R, *normalized, out.back().shape);
}

// ---- TopK ----

// The axis dim of TopK's outputs from k's value (exact: k itself; bounds: OpenVINO's interval of the input
// dim and k's bounds), or unknown: 0 up to the input dim.
std::optional<Dim> topk_dim(OpContext& ctx, const Dim& in) {
    const TensorValue* k = ctx.value(1);
    if (!k) {
        ctx.value_unknown("k is not known");
        ctx.invariant(invariants::inferred_bounds());
        return Dim(0, in.max());
    }
    if (k->size() != 1) {
        ctx.invalid_input(fmt::format("k must be a single value, it has {}", k->size()));
        return std::nullopt;
    }
    const ValueBounds& b = k->front();
    if (b.exact() && b.hi != ValueBounds::kUnbounded) {
        if (b.lo < 0) {
            ctx.invalid_input(fmt::format("k {} is negative", b.lo));
            return std::nullopt;
        }
        return Dim(b.lo);
    }
    const int64_t lower = std::max<int64_t>(0, std::min(in.min(), b.lo));
    const int64_t upper = in.has_upper_bound() ? std::min(in.max(), b.hi) : Dim::kInf;
    return Dim(lower, upper);
}

// TopK-1 takes k of i8, i32 or i64 only; later versions any integer type.
bool topk_k_type_ok(int version, std::optional<ElementType> t) {
    if (!known(t) || version != 1) return maybe_integral(t);
    return *t == ElementType::i8 || *t == ElementType::i32 || *t == ElementType::i64;
}

void infer_topk(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2)) return;
    static constexpr std::array<std::string_view, 2> kModes{"max", "min"};
    static constexpr std::array<std::string_view, 3> kSorts{"value", "index", "none"};
    const auto axis = ctx.attr_int("axis");
    const auto mode = ctx.attr_enum("mode", kModes);
    const auto sort = ctx.attr_enum("sort", kSorts);
    const auto index_type = ctx.attr_type("index_element_type", ElementType::i32);
    const auto stable = ctx.version() >= 11 ? ctx.attr_bool("stable", false) : std::optional(false);
    if (!axis || !mode || !sort || !index_type || !stable) return;
    if (*stable && *sort == "none") {
        ctx.invalid_attribute("stable=true needs sort=value or sort=index, not none");
        return;
    }
    if (*index_type != ElementType::i32 && *index_type != ElementType::i64) {
        ctx.invalid_attribute(fmt::format("index_element_type={} is not one of i32, i64", type_str(index_type)));
        return;
    }
    if (!topk_k_type_ok(ctx.version(), ctx.type(1))) {
        ctx.invalid_input(fmt::format("k element type {} is not {}", type_str(ctx.type(1)),
                                      ctx.version() == 1 ? "i8, i32 or i64" : "an integer type"));
        return;
    }
    const Shape& data = ctx.shape(0);
    if (!data.rank_dynamic && data.rank() == 0) {
        ctx.invalid_input("data is a scalar; TopK needs rank > 0");
        return;
    }
    if (!rank_may_be(ctx.shape(1), 0)) {
        ctx.invalid_input(fmt::format("k must be a scalar, it is {}", ctx.shape(1).str()));
        return;
    }
    Shape shape = data;
    if (!data.rank_dynamic) {
        std::string error;
        const auto a = normalize_axis(*axis, static_cast<int64_t>(data.rank()), &error);
        if (!a) {
            ctx.invalid_attribute(fmt::format("{} for data rank {}", error, data.rank()));
            return;
        }
        const auto dim = topk_dim(ctx, data.dims[*a]);
        if (!dim) return;
        shape.dims[*a] = *dim;
    }
    out.push_back(OpOutput{shape, ctx.type(0), std::nullopt, {}});
    out.push_back(OpOutput{shape, *index_type, std::nullopt, {}});
}

// ---- normalizations ----

bool check_axis_range(OpContext& ctx, int64_t axis, int64_t lowest) {
    const Shape& data = ctx.shape(0);
    if (data.rank_dynamic) return true;
    const auto rank = static_cast<int64_t>(data.rank());
    if (axis >= lowest && axis < rank) return true;
    ctx.invalid_attribute(
        fmt::format("axis {} is out of range [{}, {}] for data {}", axis, lowest, rank - 1, data.str()));
    return false;
}

void infer_softmax(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1)) return;
    const auto axis = ctx.attr_int("axis", 1);
    if (!axis) return;
    // v1's axis is unsigned; v8 and LogSoftmax count negative axes from the end.
    const bool is_v1 = ctx.version() == 1;
    const int64_t rank = ctx.shape(0).rank_dynamic ? 0 : static_cast<int64_t>(ctx.shape(0).rank());
    if (!check_axis_range(ctx, *axis, is_v1 ? 0 : -rank)) return;
    out.push_back(OpOutput{ctx.shape(0), ctx.type(0), std::nullopt, {}});
}

void infer_mvn(OpContext& ctx, std::vector<OpOutput>& out) {
    if (ctx.version() == 0) {
        if (!ctx.expect_inputs(1) || !ctx.attr_float("eps") || !ctx.attr_bool("normalize_variance", true) ||
            !ctx.attr_bool("across_channels", false) || !ctx.attr_ints("reduction_axes", std::vector<int64_t>{}))
            return;
    } else {
        static constexpr std::array<std::string_view, 2> kEpsModes{"inside_sqrt", "outside_sqrt"};
        if (!ctx.expect_inputs(2) || !ctx.attr_float("eps") || !ctx.attr_bool("normalize_variance") ||
            !ctx.attr_enum("eps_mode", kEpsModes))
            return;
        if (!check_axes_shape(ctx, ctx.shape(0), ctx.shape(1))) return;
    }
    out.push_back(OpOutput{ctx.shape(0), ctx.type(0), std::nullopt, {}});
}

// Known axes lie in [-rank, rank) of the data (repeats allowed).
bool check_normalize_axes(OpContext& ctx) {
    const Shape& data = ctx.shape(0);
    const auto axes = ctx.exact_values(1);
    if (data.rank_dynamic || ctx.shape(1).rank_dynamic || !axes) return true;
    std::string error;
    if (normalize_axes(*axes, static_cast<int64_t>(data.rank()), false, &error)) return true;
    ctx.invalid_input(fmt::format("axes [{}]: {} for data {}", join_ints(*axes), error, data.str()));
    return false;
}

void infer_normalize_l2(OpContext& ctx, std::vector<OpOutput>& out) {
    static constexpr std::array<std::string_view, 2> kEpsModes{"add", "max"};
    if (!ctx.expect_inputs(2) || !ctx.attr_float("eps") || !ctx.attr_enum("eps_mode", kEpsModes)) return;
    const Shape& axes = ctx.shape(1);
    if (!axes.rank_dynamic && axes.rank() > 1) {
        ctx.invalid_input(fmt::format("axes must be a scalar or 1D, it is {}", axes.str()));
        return;
    }
    if (!check_normalize_axes(ctx)) return;
    out.push_back(OpOutput{ctx.shape(0), ctx.type(0), std::nullopt, {}});
}

// BatchNormInference: data [N, C, ...] and gamma, beta, mean, variance [C], all of one floating-point type; the
// output is the data's shape with C merged from all five.
struct BatchNormPorts {
    size_t data;
    std::array<size_t, 4> channel;  // gamma, beta, mean, variance
};

// v5 takes the data first. For v0 the opset1 spec puts it first too but OpenVINO's class third (after gamma and
// beta): a 1-D input 2 is beta of the spec's order, anything else the data of the class's.
BatchNormPorts batch_norm_ports(OpContext& ctx) {
    const Shape& third = ctx.shape(2);
    const bool data_first = ctx.version() != 0 || (!third.rank_dynamic && third.rank() == 1);
    return data_first ? BatchNormPorts{0, {1, 2, 3, 4}} : BatchNormPorts{2, {0, 1, 3, 4}};
}

bool batch_norm_types(OpContext& ctx, std::optional<ElementType>& type) {
    for (size_t i = 0; i < 5; ++i) {
        const auto t = ctx.type(i);
        if (!known(t)) continue;
        if (known(type) && *type != *t) {
            ctx.invalid_input(fmt::format("input element types differ: {} and {}", type_str(type), type_str(t)));
            return false;
        }
        type = t;
    }
    if (maybe_real(type)) return true;
    ctx.invalid_input(fmt::format("input element types must be floating-point, they are {}", type_str(type)));
    return false;
}

// The one channel count that gamma, beta, mean and variance share with the data's dim 1.
std::optional<Dim> batch_norm_channels(OpContext& ctx, const BatchNormPorts& ports) {
    const Shape& data = ctx.shape(ports.data);
    Dim channels = data.rank_dynamic ? Dim::dynamic() : data.dims[1];
    for (const size_t port : ports.channel) {
        const Shape& s = ctx.shape(port);
        if (!s.rank_dynamic && s.rank() != 1) {
            ctx.invalid_input(fmt::format("gamma, beta, mean and variance must be 1-D, input {} is {}", port, s.str()));
            return std::nullopt;
        }
        const auto merged = s.rank_dynamic ? std::optional(channels) : Dim::merge(channels, s.dims[0]);
        if (!merged) {
            ctx.invalid_input(fmt::format("input {} {} does not match the channel count {} of data {} and the others",
                                          port, s.str(), channels.str(), data.str()));
            return std::nullopt;
        }
        channels = *merged;
    }
    if (channels.is_static() && channels.length() < 1) {
        ctx.invalid_input("the channel count must be at least 1");
        return std::nullopt;
    }
    return channels;
}

void infer_batch_norm(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(5)) return;
    const auto epsilon = ctx.attr_float("epsilon");
    if (!epsilon) return;
    if (!(*epsilon >= 0)) {
        ctx.invalid_attribute(fmt::format("epsilon {} must be >= 0", *epsilon));
        return;
    }
    std::optional<ElementType> type;
    if (!batch_norm_types(ctx, type)) return;
    const BatchNormPorts ports = batch_norm_ports(ctx);
    Shape shape = ctx.shape(ports.data);
    if (!shape.rank_dynamic && shape.rank() < 2) {
        ctx.invalid_input(fmt::format("data {} must have rank 2 or more", shape.str()));
        return;
    }
    const auto channels = batch_norm_channels(ctx, ports);
    if (!channels) return;
    if (!shape.rank_dynamic) shape.dims[1] = *channels;
    out.push_back(OpOutput{shape, type, std::nullopt, {}});
}

constexpr std::string_view kReduceChecks = "keep_dims; data numeric; axes integer, scalar or 1D";
constexpr std::string_view kReduceLogicalChecks = "keep_dims; data boolean; axes integer, scalar or 1D";
constexpr std::string_view kReduceValues = "shape (axes value), type, values";
constexpr std::string_view kReduceShape = "shape (axes value), type";

using R = Reduction;
const std::vector<OpEntry> kReduce = {
    {"BatchNormInference", 0, 1, infer_batch_norm, "shape, type",
     "epsilon >= 0; one floating-point type; data rank >= 2; gamma, beta, mean, variance 1-D of the data's channels"},
    {"BatchNormInference", 5, 5, infer_batch_norm, "shape, type",
     "epsilon >= 0; one floating-point type; data rank >= 2; gamma, beta, mean, variance 1-D of the data's channels"},
    {"LogSoftmax", 5, 5, infer_softmax, "shape, type", "axis in [-rank, rank)"},
    {"MVN", 0, 2, infer_mvn, "shape, type", "eps, normalize_variance, across_channels, reduction_axes"},
    {"MVN", 6, 6, infer_mvn, "shape, type", "eps, normalize_variance, eps_mode; axes 1D of at most rank(data)"},
    {"NormalizeL2", 0, 1, infer_normalize_l2, "shape, type",
     "eps, eps_mode add/max; axes scalar or 1D, in [-rank, rank)"},
    {"ReduceL1", 4, 4, infer_reduce<R::other, false>, kReduceShape, kReduceChecks},
    {"ReduceL2", 4, 4, infer_reduce<R::other, false>, kReduceShape, kReduceChecks},
    {"ReduceLogicalAnd", 1, 1, infer_reduce<R::other, true>, kReduceShape, kReduceLogicalChecks},
    {"ReduceLogicalOr", 1, 1, infer_reduce<R::other, true>, kReduceShape, kReduceLogicalChecks},
    {"ReduceMax", 1, 1, infer_reduce<R::max, false>, kReduceValues, kReduceChecks},
    {"ReduceMean", 1, 1, infer_reduce<R::other, false>, kReduceShape, kReduceChecks},
    {"ReduceMin", 1, 1, infer_reduce<R::min, false>, kReduceValues, kReduceChecks},
    {"ReduceProd", 1, 1, infer_reduce<R::prod, false>, kReduceValues, kReduceChecks},
    {"ReduceSum", 1, 1, infer_reduce<R::sum, false>, kReduceValues, kReduceChecks},
    {"SoftMax", 1, 1, infer_softmax, "shape, type", "axis in [0, rank)"},
    {"SoftMax", 8, 8, infer_softmax, "shape, type", "axis in [-rank, rank)"},
    {"TopK", 1, 1, infer_topk, "shape (k value), types",
     "axis, mode, sort, index_element_type i32/i64; k integer scalar >= 0"},
    {"TopK", 3, 3, infer_topk, "shape (k value), types",
     "axis, mode, sort, index_element_type i32/i64; k integer scalar >= 0"},
    {"TopK", 11, 11, infer_topk, "shape (k value), types",
     "axis, mode, sort, stable (only with sort value or index), index_element_type i32/i64; k integer scalar >= 0"},
};

}  // namespace

std::span<const OpEntry> elementwise::reduce_entries() { return kReduce; }

}  // namespace irlint
