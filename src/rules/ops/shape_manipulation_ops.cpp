// Shape manipulation ops: ShapeOf (the root of value propagation), Reshape, Squeeze, Unsqueeze, Transpose,
// Concat, Split, VariadicSplit. The layout ops (Range, Broadcast, Tile, DepthToSpace, ...) are in
// shape_manipulation_layout_ops.cpp.

#include <algorithm>
#include <array>
#include <limits>
#include <set>
#include <type_traits>

#include "rules/ops/elementwise_util.hpp"
#include "rules/ops/invariants.hpp"
#include "rules/ops/shape_manipulation_common.hpp"
#include "rules/ops/tensor_common.hpp"

namespace irlint {

namespace {

using namespace shape_ops;

// ---------------------------------------------------------------------------------------------- ShapeOf

void infer_shape_of(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1)) return;
    std::optional<ElementType> type = ElementType::i64;
    if (ctx.version() >= 3) {
        type = ctx.attr_type("output_type", ElementType::i64);
        if (!type) return;
        if (*type != ElementType::i32 && *type != ElementType::i64) {
            ctx.invalid_attribute(fmt::format("output_type {} is not i32 or i64", element_type_name(*type)));
            return;
        }
    }
    const Shape& data = ctx.shape(0);
    OpOutput o;
    o.type = type;
    if (data.rank_dynamic) {
        o.shape.dims = {Dim::dynamic()};
        out.push_back(std::move(o));
        return;
    }
    o.shape.dims = {Dim(static_cast<int64_t>(data.rank()))};
    TensorValue value;
    value.reserve(data.rank());
    for (const Dim& d : data.dims) value.push_back(dim_as_bound(d));
    o.value = std::move(value);
    out.push_back(std::move(o));
}

// ---------------------------------------------------------------------------------------------- Reshape

}  // namespace

// The Reshape steps ONNX's Reshape shares (declared in shape_manipulation_common.hpp).
namespace shape_ops {

std::optional<ReshapePattern> read_reshape_pattern(OpContext& ctx, const TensorValue& values) {
    ReshapePattern p;
    p.dims.reserve(values.size());
    p.symbols.resize(values.size());
    for (size_t i = 0; i < values.size(); ++i) {
        const ValueBounds& b = values[i];
        if (!b.exact()) p.symbols[i] = b.symbol;
        if (b.lo == -1 && b.hi == -1) {
            if (p.minus_one) {
                ctx.invalid_input(fmt::format("more than one dimension of the target shape is -1 (at {} and {})",
                                              *p.minus_one, i));
                return std::nullopt;
            }
            p.minus_one = i;
            p.dims.push_back(Dim::dynamic());
        } else if (b.lo >= -1) {
            p.dims.push_back(Dim(std::max<int64_t>(b.lo, 0), b.hi).with_symbol(b.exact() ? 0 : b.symbol));
        } else if (b.hi >= 0) {
            p.dims.push_back(Dim::dynamic());  // only the upper bound is a valid dim
        } else {
            ctx.invalid_input(b.exact() ? fmt::format("target shape dim[{}] is {}; values below -1 are invalid", i, b.lo)
                                        : fmt::format("target shape dim[{}] has invalid bounds {}..{}", i, b.lo, b.hi));
            return std::nullopt;
        }
    }
    return p;
}

namespace {

// OpenVINO's products for the -1: input and output dims, with the static dims that appear on both sides
// cancelled, each side split into its static part and its dynamic part. A special zero of a dynamic-rank
// input makes both dynamic parts unknown.
struct ReshapeProduct {
    Dim in_static{1}, in_dynamic{1}, out_static{1}, out_dynamic{1};

    static void multiply(Dim& static_part, Dim& dynamic_part, const Dim& d) {
        if (d.is_static())
            static_part = static_part * d;
        else
            dynamic_part = dynamic_part * d;
    }

    void finish(const std::vector<Dim>& ins, std::vector<Dim> outs, bool unknown) {
        if (unknown) in_dynamic = out_dynamic = Dim::dynamic();
        for (const Dim& d : ins) {
            const auto same = std::find_if(outs.begin(), outs.end(), [&](const Dim& o) {
                return o == d && d.is_static() && d != Dim(0);
            });
            if (same != outs.end())
                outs.erase(same);
            else
                multiply(in_static, in_dynamic, d);
        }
        for (const Dim& d : outs) multiply(out_static, out_dynamic, d);
        if (in_static != out_static) {
            in_dynamic = in_dynamic * in_static;
            out_dynamic = out_dynamic * out_static;
        }
    }
};

int64_t ceil_div_positive(int64_t x, int64_t y) { return x == 0 ? 0 : 1 + (x - 1) / y; }

// The -1 dim: the input's remaining product over the output's, as interval arithmetic.
Dim resolve_minus_one(const ReshapeProduct& p) {
    const Dim& in = p.in_dynamic;
    const Dim& div = p.out_dynamic;
    if (in.is_static() && div.is_static()) {
        if (div.length() == 0) return Dim::dynamic();
        const int64_t n = in.length(), d = div.length();
        return n % d == 0 ? Dim(n / d) : Dim(Dim::kInf, Dim::kInf);
    }
    // Both bounds come from the input's: the lowest input over the largest divisor, the largest over the lowest.
    const int64_t hi = in.has_upper_bound() && div.min() != 0 && !div.is_fully_dynamic() ? in.max() / div.min() : Dim::kInf;
    const int64_t lo = div.max() != 0 ? ceil_div_positive(in.min(), div.max()) : in.min();
    return Dim(lo, hi);
}


// The target as written, its -1 included: "[-1,400]".
std::string target_with_minus_one(const Shape& shape, size_t minus_one) {
    std::string out = "[";
    for (size_t i = 0; i < shape.rank(); ++i) {
        if (i) out += ',';
        out += i == minus_one ? std::string("-1") : shape.dims[i].str();
    }
    return out + "]";
}

// The input dim (not yet paired) that has `symbol`, if any.
std::optional<size_t> same_symbol(const Shape& data, uint32_t symbol, const std::vector<bool>& paired) {
    if (symbol == 0) return std::nullopt;
    for (size_t k = 0; k < data.rank(); ++k)
        if (!paired[k] && data.dims[k].symbol() == symbol) return k;
    return std::nullopt;
}

}  // namespace

void reshape_from_pattern(OpContext& ctx, const ReshapePattern& pattern, bool special_zero, OpOutput& o) {
    const Shape& data = ctx.shape(0);
    Shape& shape = o.shape;
    std::vector<Dim> ins, outs;
    bool unknown_product = false;
    if (data.rank_dynamic) {
        // The -1 counts as a dynamic output dim here.
        for (const Dim& pd : pattern.dims) {
            if (special_zero && pd == Dim(0)) {
                shape.dims.push_back(Dim::dynamic());
                unknown_product = true;
            } else {
                shape.dims.push_back(pd);
                outs.push_back(pd);
            }
        }
    } else {
        // An input dim copied (special zero) or named by the target (a value taken from a dim with the same
        // symbol) is the same dim on both sides: it takes no part in the -1.
        std::vector<bool> same(data.rank(), false);
        for (size_t i = 0; i < pattern.dims.size(); ++i) {
            const Dim& pd = pattern.dims[i];
            const bool copy_input = special_zero && pd == Dim(0);
            const auto named = same_symbol(data, pattern.symbols[i], same);
            if (pattern.minus_one == i) {
                shape.dims.push_back(Dim::dynamic());
            } else if (copy_input) {
                if (i >= data.rank()) {
                    ctx.invalid_input(fmt::format("target shape dim[{}] is 0 (special_zero: copy the input dim) but the "
                                                  "input {} has rank {}",
                                                  i, data.str(), data.rank()));
                    return;
                }
                shape.dims.push_back(data.dims[i]);
                same[i] = true;
            } else if (named && Dim::merge(pd, data.dims[*named])) {
                shape.dims.push_back(data.dims[*named]);
                same[*named] = true;
            } else {
                shape.dims.push_back(pd);
                outs.push_back(pd);
            }
        }
        for (size_t i = 0; i < data.rank(); ++i)
            if (!same[i]) ins.push_back(data.dims[i]);
    }
    if (!pattern.minus_one) return;
    ReshapeProduct p;
    p.finish(ins, outs, unknown_product);
    const Dim minus_one = resolve_minus_one(p);
    const std::string target_text = target_with_minus_one(shape, *pattern.minus_one);
    shape.dims[*pattern.minus_one] = minus_one;
    if (p.out_static == Dim(0)) {
        if (p.in_static != Dim(0))
            ctx.invalid_input(fmt::format("cannot infer the -1 of target {} with a zero-size output dim unless an input "
                                          "dim of {} is zero too",
                                          target_text, data.str()));
    } else if (minus_one.is_empty()) {
        ctx.invalid_input(fmt::format("the target dims other than -1 (of {}) do not evenly divide the input {}",
                                      target_text, data.str()));
    }
}

void check_reshape_elements(OpContext& ctx, const ReshapePattern& pattern, bool special_zero, const Shape& target) {
    const Shape& data = ctx.shape(0);
    if (!data.is_static() || !target.is_static() || pattern.minus_one) return;
    if (special_zero && std::any_of(pattern.dims.begin(), pattern.dims.end(), [](const Dim& d) { return d == Dim(0); }))
        return;
    const auto in = static_element_count(data), out = static_element_count(target);
    if (in == out) return;
    ctx.invalid_input(fmt::format("input has {} elements, target {} has {} (input shape {})",
                                  in ? std::to_string(*in) : "more than 2^63", target.str(),
                                  out ? std::to_string(*out) : "more than 2^63", data.str()));
}

// An unknown target: its length gives the rank (a scalar target, a scalar). False when OpenVINO rejects it.
bool reshape_without_target(OpContext& ctx, Shape& shape) {
    ctx.value_unknown("the target shape (input 1) is not known");
    const Shape& target_shape = ctx.shape(1);
    const Shape& data = ctx.shape(0);
    if (target_shape.rank_dynamic) {
        shape = Shape::dynamic_rank();
    } else if (target_shape.rank() == 0) {
        if (!data.rank_dynamic && data.rank() != 0) {
            ctx.invalid_input(fmt::format("the target shape is a scalar, so the input {} must be one", data.str()));
            return false;
        }
        shape = Shape{};
    } else if (const Dim& n = target_shape.dims[0]; n.is_static() && n.length() <= static_cast<int64_t>(kMaxShapeRank)) {
        shape = dynamic_dims(static_cast<size_t>(n.length()));
    } else {
        shape = Shape::dynamic_rank();
    }
    return true;
}

}  // namespace shape_ops

namespace {

void infer_reshape(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2)) return;
    const auto special_zero = ctx.attr_bool("special_zero");
    if (!special_zero) return;
    const Shape& target_shape = ctx.shape(1);
    if (!rank_is_0_or_1(target_shape)) {
        ctx.invalid_input(fmt::format("the target shape input {} has rank {}; it must have rank 1 or be a scalar",
                                      target_shape.str(), target_shape.rank()));
        return;
    }
    if (known_non_integer(ctx.type(1))) {
        ctx.invalid_input(fmt::format("the target shape input is {}; it must be an integer type", type_str(ctx.type(1))));
        return;
    }
    OpOutput o;
    o.type = ctx.type(0);
    const TensorValue* values = ctx.value(1);
    if (values) {
        auto pattern = read_reshape_pattern(ctx, *values);
        if (!pattern) return;
        if (!target_shape.rank_dynamic && target_shape.rank() == 0) {
            if (pattern->dims.size() != 1 || pattern->dims[0] != Dim(1)) {
                ctx.invalid_input("a scalar target shape must hold 1");
                return;
            }
            pattern->dims.clear();
            pattern->minus_one.reset();
        }
        reshape_from_pattern(ctx, *pattern, *special_zero, o);
        if (ctx.failed()) return;
        check_reshape_elements(ctx, *pattern, *special_zero, o.shape);
        if (ctx.failed()) return;
        keep_values(ctx, 0, o);  // same elements, same order
    } else if (!reshape_without_target(ctx, o.shape)) {
        return;
    } else if (!ctx.shape(0).rank_dynamic) {
        ctx.invariant(invariants::same_element_count("Reshape", ctx.shape(0)));
    }
    out.push_back(std::move(o));
}

// ---------------------------------------------------------------------------------------------- Squeeze

// The axes of input 1 when they are known: normalized and unique. nullopt without a problem when unknown.
std::optional<std::set<size_t>> known_axes(OpContext& ctx, size_t input, int64_t rank) {
    const auto axes = ctx.exact_values(input);
    if (!axes) return std::nullopt;
    std::string error;
    const auto normalized = normalize_axes(*axes, rank, false, &error);
    if (!normalized) {
        ctx.invalid_input(fmt::format("{} for data rank {}", error, rank));
        return std::nullopt;
    }
    return std::set<size_t>(normalized->begin(), normalized->end());
}

bool maybe_one(const Dim& d) { return d.compatible(Dim(1)); }

void infer_squeeze(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1, 2)) return;
    const bool v15 = ctx.version() >= 15;
    bool allow_axis_skip = false;
    if (v15) {
        const auto skip = ctx.attr_bool("allow_axis_skip", false);
        if (!skip) return;
        allow_axis_skip = *skip;
    }
    const Shape& data = ctx.shape(0);
    OpOutput o;
    o.type = ctx.type(0);
    o.shape = Shape::dynamic_rank();
    std::optional<std::set<size_t>> axes;
    if (ctx.input_count() == 1) {
        axes.emplace();
    } else {
        const Shape& axes_shape = ctx.shape(1);
        if (axes_shape.is_static() && axes_shape.rank() > 1) {
            ctx.invalid_input(fmt::format("axes {} must be a scalar or 1-D (rank {})", axes_shape.str(), axes_shape.rank()));
            return;
        }
        if (!data.rank_dynamic && axes_shape.is_static()) {
            axes = known_axes(ctx, 1, static_cast<int64_t>(data.rank()));
            if (ctx.failed()) return;
            if (!axes) {
                ctx.value_unknown("the axes (input 1) are not known");
                ctx.invariant(invariants::dims_left_out("Squeeze", data, true));
                if (data.rank() > 0 && capped_element_count(axes_shape, kMaxValueElements) == 1u) {
                    // One axis: at most one dim goes, if any may be 1.
                    const bool squeezable = std::any_of(data.dims.begin(), data.dims.end(), maybe_one);
                    o.shape = !squeezable ? data : v15 ? Shape::dynamic_rank() : dynamic_dims(data.rank() - 1);
                }
                out.push_back(std::move(o));
                return;
            }
        } else {
            ctx.value_unknown("the axes of a dynamic shape are not known");
            if (!data.rank_dynamic) ctx.invariant(invariants::dims_left_out("Squeeze", data, true));
        }
    }
    if (data.rank_dynamic || !axes) {
        out.push_back(std::move(o));
        return;
    }
    const auto uncertain = [](const Dim& d) { return d.is_dynamic() && maybe_one(d); };
    if (axes->empty()) {
        if (std::none_of(data.dims.begin(), data.dims.end(), uncertain)) {
            o.shape = Shape{};
            for (const Dim& d : data.dims)
                if (!maybe_one(d)) o.shape.dims.push_back(d);
        }
    } else {
        bool skip_to_dynamic = false;
        for (const size_t a : *axes) skip_to_dynamic |= allow_axis_skip && uncertain(data.dims[a]);
        if (!skip_to_dynamic) {
            o.shape = Shape{};
            // An axis at a dim that cannot be 1 is ignored, as OpenVINO does.
            for (size_t i = 0; i < data.rank(); ++i)
                if (!axes->count(i) || !maybe_one(data.dims[i])) o.shape.dims.push_back(data.dims[i]);
        }
    }
    keep_values(ctx, 0, o);
    out.push_back(std::move(o));
}

// ---------------------------------------------------------------------------------------------- Unsqueeze

void infer_unsqueeze(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2)) return;
    const Shape& data = ctx.shape(0);
    const Shape& axes_shape = ctx.shape(1);
    if (!rank_is_0_or_1(axes_shape)) {
        ctx.invalid_input(fmt::format("axes {} must be a scalar or 1-D (rank {})", axes_shape.str(), axes_shape.rank()));
        return;
    }
    OpOutput o;
    o.type = ctx.type(0);
    const auto axes = ctx.exact_values(1);
    if (!axes || data.rank_dynamic) {
        ctx.value_unknown(axes ? "the input rank is not known" : "the axes (input 1) are not known");
        const auto most = capped_element_count(axes_shape, kMaxShapeRank);
        if (!data.rank_dynamic)
            ctx.invariant(invariants::ones_inserted("Unsqueeze", data, most ? *most : std::numeric_limits<size_t>::max()));
        o.shape = Shape::dynamic_rank();
        if (!data.rank_dynamic && axes_shape.is_static() && axes_shape.rank() == 1 && axes_shape.dims[0] == Dim(1))
            o.shape = dynamic_dims(data.rank() + 1);
        out.push_back(std::move(o));
        return;
    }
    if (axes->empty()) {
        ctx.invalid_input("the axes input is empty; Unsqueeze needs at least one axis");
        return;
    }
    const std::set<int64_t> raw(axes->begin(), axes->end());
    const int64_t expanded = static_cast<int64_t>(data.rank() + raw.size());
    std::string error;
    const auto normalized = normalize_axes(std::vector<int64_t>(raw.begin(), raw.end()), expanded, false, &error);
    if (!normalized) {
        ctx.invalid_input(fmt::format("{} for output rank {}", error, expanded));
        return;
    }
    o.shape = data;
    for (const size_t a : std::set<size_t>(normalized->begin(), normalized->end())) {
        if (a > o.shape.rank() + 1) {
            ctx.invalid_input(fmt::format("axis {} is not valid for the output rank {}", a, o.shape.rank() + 1));
            return;
        }
        if (a <= o.shape.rank())
            o.shape.dims.insert(o.shape.dims.begin() + static_cast<std::ptrdiff_t>(a), Dim(1));
        else
            o.shape.dims.push_back(Dim(1));
    }
    keep_values(ctx, 0, o);
    out.push_back(std::move(o));
}

// ---------------------------------------------------------------------------------------------- Transpose

// Transpose's evaluate on known values: output axis k walks data axis order[k].
std::optional<TensorValue> transposed_values(const OpContext& ctx, const Shape& result, const std::vector<int64_t>& order) {
    return rearranged_values(ctx, result, [&](std::span<const int64_t> out_index, std::span<int64_t> data_index) {
        for (size_t k = 0; k < order.size(); ++k) data_index[static_cast<size_t>(order[k])] = out_index[k];
    });
}

void infer_transpose(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2)) return;
    const Shape& data = ctx.shape(0);
    const Shape& order_shape = ctx.shape(1);
    if (!order_shape.rank_dynamic && order_shape.rank() != 1) {
        ctx.invalid_input(fmt::format("the order input {} must be 1-D", order_shape.str()));
        return;
    }
    if (known_non_integer(ctx.type(1))) {
        ctx.invalid_input(fmt::format("the order input is {}; it must be an integer type", type_str(ctx.type(1))));
        return;
    }
    if (!data.rank_dynamic && !order_shape.rank_dynamic &&
        !order_shape.dims[0].compatible(Dim(static_cast<int64_t>(data.rank()))) && order_shape.dims[0] != Dim(0)) {
        ctx.invalid_input(fmt::format("the order input {} must have shape [{}], the rank of the data {}", order_shape.str(),
                                      data.rank(), data.str()));
        return;
    }
    OpOutput o;
    o.type = ctx.type(0);
    const bool empty_order = !order_shape.rank_dynamic && order_shape.dims[0] == Dim(0);
    std::optional<std::vector<int64_t>> order;
    if (empty_order) {
        order.emplace();
    } else {
        order = ctx.exact_values(1);
    }
    if (!order) {
        ctx.value_unknown("the order (input 1) is not known");
        if (!data.rank_dynamic) ctx.invariant(invariants::permutation_of("Transpose", data));
        if (!data.rank_dynamic)
            o.shape = dynamic_dims(data.rank());
        else if (!order_shape.rank_dynamic && order_shape.dims[0].is_static() &&
                 order_shape.dims[0].length() <= static_cast<int64_t>(kMaxShapeRank))
            o.shape = dynamic_dims(static_cast<size_t>(order_shape.dims[0].length()));
        else
            o.shape = Shape::dynamic_rank();
        out.push_back(std::move(o));
        return;
    }
    const size_t rank = data.rank_dynamic ? order->size() : data.rank();
    if (data.rank_dynamic && order->empty()) {
        o.shape = Shape::dynamic_rank();
        out.push_back(std::move(o));
        return;
    }
    if (order->empty()) {
        for (size_t a = rank; a-- > 0;) order->push_back(static_cast<int64_t>(a));  // an empty order reverses
    }
    std::vector<bool> seen(rank, false);
    bool valid = order->size() == rank;
    for (const int64_t a : *order) {
        if (!valid) break;
        valid = a >= 0 && a < static_cast<int64_t>(rank) && !seen[static_cast<size_t>(a)];
        if (valid) seen[static_cast<size_t>(a)] = true;
    }
    if (!valid) {
        ctx.invalid_input(fmt::format("order [{}] is not a permutation of the axes of {} (rank {})", join_ints(*order),
                                      data.str(), rank));
        return;
    }
    if (data.rank_dynamic)
        o.shape = dynamic_dims(rank);
    else
        for (const int64_t a : *order) o.shape.dims.push_back(data.dims[static_cast<size_t>(a)]);
    o.value = transposed_values(ctx, o.shape, *order);
    out.push_back(std::move(o));
}

// ---------------------------------------------------------------------------------------------- Concat

}  // namespace

std::optional<TensorValue> shape_ops::rearranged_values(const OpContext& ctx, const Shape& result,
                                                       const SourceIndex& source) {
    const Shape& data = ctx.shape(0);
    const auto n = capped_element_count(result, kMaxValueElements);
    const auto data_n = capped_element_count(data, kMaxValueElements);
    if (!n || !data_n || !result.is_static() || !data.is_static()) return std::nullopt;
    const TensorValue* v = ctx.value(0);
    if (!v || v->size() != *data_n) return std::nullopt;
    std::vector<int64_t> index(result.rank(), 0), data_index(data.rank(), 0);
    TensorValue out;
    out.reserve(*n);
    for (size_t flat = 0; flat < *n; ++flat) {
        source(index, data_index);
        size_t at = 0;
        for (size_t d = 0; d < data.rank(); ++d) at = at * static_cast<size_t>(data.dims[d].length()) + static_cast<size_t>(data_index[d]);
        out.push_back((*v)[at]);
        for (size_t d = result.rank(); d-- > 0;) {  // next row-major index
            if (++index[d] < result.dims[d].length()) break;
            index[d] = 0;
        }
    }
    return out;
}

// Concatenates the inputs' values along `axis` (row-major), when every one is known.
namespace {

// Each input's elements (`elements(i)`, a vector, nullopt when unknown) laid out as Concat lays them.
template <class Elements>
auto concatenated(const OpContext& ctx, size_t axis, const Shape& result, Elements elements)
    -> std::optional<std::remove_cvref_t<decltype(*elements(size_t{0}))>> {
    using Vector = std::remove_cvref_t<decltype(*elements(size_t{0}))>;
    const auto total = capped_element_count(result, kMaxValueElements);
    if (!total) return std::nullopt;
    std::vector<Vector> parts;
    for (size_t i = 0; i < ctx.input_count(); ++i) {
        const auto n = capped_element_count(ctx.shape(i), kMaxValueElements);
        auto part = elements(i);
        if (!n || !part || part->size() != *n) return std::nullopt;
        parts.push_back(std::move(*part));
    }
    size_t outer = 1, inner = 1;
    for (size_t d = 0; d < axis; ++d) outer *= static_cast<size_t>(result.dims[d].length());
    for (size_t d = axis + 1; d < result.rank(); ++d) inner *= static_cast<size_t>(result.dims[d].length());
    Vector out;
    out.reserve(*total);
    for (size_t o = 0; o < outer; ++o) {
        for (size_t i = 0; i < parts.size(); ++i) {
            const size_t chunk = static_cast<size_t>(ctx.shape(i).dims[axis].length()) * inner;
            out.insert(out.end(), parts[i].begin() + static_cast<std::ptrdiff_t>(o * chunk),
                       parts[i].begin() + static_cast<std::ptrdiff_t>((o + 1) * chunk));
        }
    }
    return out;
}

bool any_fractions(const OpContext& ctx) {
    for (size_t i = 0; i < ctx.input_count(); ++i)
        if (elementwise::carries_fractions(ctx, i)) return true;
    return false;
}

}  // namespace

void shape_ops::concat_values(const OpContext& ctx, size_t axis, OpOutput& o) {
    if (any_fractions(ctx)) {
        auto reals = concatenated(ctx, axis, o.shape, [&](size_t i) { return elementwise::input_reals(ctx, i); });
        if (reals) o.reals = std::move(*reals);
        return;
    }
    o.value = concatenated(ctx, axis, o.shape, [&](size_t i) {
        const TensorValue* v = ctx.value(i);
        return v ? std::optional(*v) : std::nullopt;
    });
}

void shape_ops::keep_values(const OpContext& ctx, size_t i, OpOutput& o) {
    const auto n = capped_element_count(o.shape, kMaxValueElements);
    if (!n || capped_element_count(ctx.shape(i), kMaxValueElements) != n) return;
    if (const TensorValue* v = ctx.value(i); v && v->size() == *n) o.value = *v;
    else if (const std::vector<double>* r = ctx.real_values(i); r && r->size() == *n) o.reals = *r;
}

namespace {

void infer_concat(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1, SIZE_MAX)) return;
    const auto axis_attr = ctx.attr_int("axis");
    if (!axis_attr) return;
    OpOutput o;
    for (size_t i = 0; i < ctx.input_count(); ++i) {
        const auto t = ctx.type(i);
        if (!t) continue;
        if (o.type && *o.type != *t) {
            ctx.invalid_input(fmt::format("the inputs' element types differ: {} and {} (input {})",
                                          element_type_name(*o.type), element_type_name(*t), i));
            return;
        }
        o.type = t;
    }
    // The output starts as a dynamic rank; each input of known rank merges into it, its axis dim aside.
    o.shape = Shape::dynamic_rank();
    Dim axis_dim(0);
    size_t axis = 0;
    for (size_t i = 0; i < ctx.input_count(); ++i) {
        const Shape& s = ctx.shape(i);
        if (s.rank_dynamic) {
            axis_dim = axis_dim + Dim::dynamic();
            continue;
        }
        const int64_t rank = static_cast<int64_t>(s.rank());
        if (*axis_attr < -rank || *axis_attr >= rank) {
            ctx.invalid_attribute(fmt::format("axis {} is out of range [{}, {}] for input {} {}", *axis_attr, -rank,
                                              rank - 1, i, s.str()));
            return;
        }
        axis = static_cast<size_t>(*axis_attr < 0 ? *axis_attr + rank : *axis_attr);
        axis_dim = axis_dim + s.dims[axis];
        if (o.shape.rank_dynamic) {
            o.shape = s;
            o.shape.dims[axis] = Dim::dynamic();
            continue;
        }
        if (o.shape.rank() != s.rank()) {
            ctx.invalid_input(fmt::format("input {} {} has rank {}, the inputs before it rank {}", i, s.str(), s.rank(),
                                          o.shape.rank()));
            return;
        }
        for (size_t d = 0; d < s.rank(); ++d) {
            if (d == axis) continue;
            const auto merged = Dim::merge(o.shape.dims[d], s.dims[d]);
            if (!merged) {
                ctx.invalid_input(fmt::format("input {} {} has dim {} = {} where the inputs before it have {}; only the "
                                              "concatenation axis {} may differ",
                                              i, s.str(), d, s.dims[d].str(), o.shape.dims[d].str(), axis));
                return;
            }
            o.shape.dims[d] = *merged;
        }
    }
    if (o.shape.rank_dynamic) {
        out.push_back(std::move(o));
        return;
    }
    o.shape.dims[axis] = axis_dim;
    concat_values(ctx, axis, o);
    out.push_back(std::move(o));
}

// ---------------------------------------------------------------------------------------------- Split

// A split's axis from input 1 (a scalar): normalized; nullopt when unknown (value_unknown) or invalid (problem).
std::optional<size_t> split_axis(OpContext& ctx, const Shape& data) {
    const auto axis = single_exact(ctx, 1);
    if (!axis) {
        ctx.value_unknown("the axis (input 1) is not known");
        return std::nullopt;
    }
    std::string error;
    const auto a = normalize_axis(*axis, static_cast<int64_t>(data.rank()), &error);
    if (!a || data.rank() == 0) {
        ctx.invalid_input(fmt::format("{} for data {}", a ? "a scalar cannot be split" : error, data.str()));
        return std::nullopt;
    }
    return a;
}

// The values of a split's parts (evaluate, kept apart from the shapes): each output takes its run of input
// 0's known values along `axis`, in order; nothing when the data's values or a part's length are not known.
void split_values(const OpContext& ctx, size_t axis, std::vector<OpOutput>& parts) {
    const Shape& data = ctx.shape(0);
    const auto n = capped_element_count(data, kMaxValueElements);
    if (!n || !data.is_static()) return;
    const TensorValue* values = ctx.value(0);
    if (!values || values->size() != static_cast<size_t>(*n)) return;
    std::vector<int64_t> dims;
    for (const Dim& d : data.dims) dims.push_back(d.length());
    std::vector<tensor::AxisPick> picks;
    for (const int64_t d : dims) picks.push_back({0, 1, d});
    int64_t start = 0;
    for (const OpOutput& part : parts)
        if (part.shape.rank_dynamic || part.shape.rank() != dims.size() || !part.shape.dims[axis].is_static()) return;
    for (OpOutput& part : parts) {
        picks[axis] = {start, 1, part.shape.dims[axis].length()};
        start += picks[axis].count;
        if (start > dims[axis]) return;
        part.value = tensor::pick_values(*values, dims, picks);
    }
}

bool check_output_count(OpContext& ctx, int64_t n, std::string_view what) {
    if (n <= kMaxOutputs) return true;
    ctx.value_unknown(fmt::format("{} {} is more outputs than irlint builds ({})", what, n, kMaxOutputs));
    return false;
}

void infer_split(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2)) return;
    if (known_non_integer(ctx.type(1))) {
        ctx.invalid_input(fmt::format("the axis input is {}; it must be an integer type", type_str(ctx.type(1))));
        return;
    }
    const auto num_splits = ctx.attr_int("num_splits");
    if (!num_splits) return;
    if (*num_splits <= 0) {
        ctx.invalid_attribute(fmt::format("num_splits {} must be greater than zero", *num_splits));
        return;
    }
    const Shape& axis_shape = ctx.shape(1);
    if (!axis_shape.rank_dynamic && axis_shape.rank() != 0) {
        ctx.invalid_input(fmt::format("the axis input {} must be a scalar", axis_shape.str()));
        return;
    }
    if (!check_output_count(ctx, *num_splits, "num_splits")) return;
    const Shape& data = ctx.shape(0);
    Shape each = data.rank_dynamic ? Shape::dynamic_rank() : dynamic_dims(data.rank());
    std::optional<size_t> split_at;
    if (!data.rank_dynamic) {
        const auto axis = split_axis(ctx, data);
        if (ctx.failed()) return;
        split_at = axis;
        if (axis) {
            const Dim& d = data.dims[*axis];
            each = data;
            if (d.is_static()) {
                if (d.length() % *num_splits != 0) {
                    ctx.invalid_input(fmt::format("dim {} of data {} along the axis is {}, not divisible by num_splits {}",
                                                  *axis, data.str(), d.length(), *num_splits));
                    return;
                }
                each.dims[*axis] = Dim(d.length() / *num_splits);
            } else {
                // OpenVINO floors both bounds of an interval, and needs its maximum to reach num_splits.
                if (d.max() < *num_splits) {
                    ctx.invalid_input(fmt::format("dim {} of data {} along the axis is {}; its maximum must be at least "
                                                  "num_splits {}",
                                                  *axis, data.str(), d.str(), *num_splits));
                    return;
                }
                each.dims[*axis] = Dim(d.min() / *num_splits, d.has_upper_bound() ? d.max() / *num_splits : -1);
            }
        } else {
            ctx.invariant(invariants::split_along_some_axis("Split", data, static_cast<size_t>(*num_splits)));
        }
    }
    for (int64_t i = 0; i < *num_splits; ++i) out.push_back(OpOutput{each, ctx.type(0), std::nullopt, {}});
    if (split_at) split_values(ctx, *split_at, out);
}

// ---------------------------------------------------------------------------------------------- VariadicSplit

void infer_variadic_split(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(3)) return;
    const Shape& data = ctx.shape(0);
    const Shape& axis_shape = ctx.shape(1);
    const Shape& lengths_shape = ctx.shape(2);
    if (!axis_shape.rank_dynamic && !(axis_shape.rank() == 0 || (axis_shape.rank() == 1 && maybe_one(axis_shape.dims[0])))) {
        ctx.invalid_input(fmt::format("the axis input {} must be a scalar or of shape [1]", axis_shape.str()));
        return;
    }
    if (!lengths_shape.is_static()) {
        ctx.value_unknown("the number of outputs (the length of split_lengths) is not known");
        return;
    }
    if (lengths_shape.rank() != 1) {
        ctx.invalid_input(fmt::format("split_lengths {} must be 1-D", lengths_shape.str()));
        return;
    }
    const int64_t count = lengths_shape.dims[0].length();
    if (!check_output_count(ctx, count, "split_lengths of length")) return;
    const auto emit = [&](const std::vector<Shape>& shapes) {
        for (const Shape& s : shapes) out.push_back(OpOutput{s, ctx.type(0), std::nullopt, {}});
    };
    if (data.rank_dynamic) {
        ctx.value_unknown("the data rank is not known");
        emit(std::vector<Shape>(static_cast<size_t>(count), Shape::dynamic_rank()));
        return;
    }
    const auto axis = split_axis(ctx, data);
    if (ctx.failed()) return;
    if (!axis) {
        ctx.invariant(invariants::split_along_some_axis("VariadicSplit", data, static_cast<size_t>(count)));
        emit(std::vector<Shape>(static_cast<size_t>(count), dynamic_dims(data.rank())));
        return;
    }
    const Dim& d = data.dims[*axis];
    const auto lengths = ctx.exact_values(2);
    if (!lengths || static_cast<int64_t>(lengths->size()) != count) {
        ctx.value_unknown("split_lengths (input 2) are not known");
        ctx.invariant(invariants::split_along("VariadicSplit", data, *axis, static_cast<size_t>(count)));
        Shape each = data;
        each.dims[*axis] = Dim::dynamic();
        emit(std::vector<Shape>(static_cast<size_t>(count), each));
        return;
    }
    CheckedInt sum = 0;
    std::optional<size_t> minus_one;
    for (size_t i = 0; i < lengths->size(); ++i) {
        const int64_t v = (*lengths)[i];
        if (v < -1) {
            ctx.invalid_input(fmt::format("split_lengths[{}] is {}; lengths must be >= -1", i, v));
            return;
        }
        if (v == -1) {
            if (minus_one) {
                ctx.invalid_input(fmt::format("split_lengths has more than one -1 (at {} and {})", *minus_one, i));
                return;
            }
            minus_one = i;
        } else {
            sum = sum + v;
        }
    }
    if (!sum.valid()) {
        ctx.invalid_input("the sum of split_lengths overflows int64");
        return;
    }
    const int64_t total = *sum.get();
    if (d.is_static()) {
        const bool fits = minus_one ? total <= d.length() : total == d.length();
        if (!fits) {
            ctx.invalid_input(fmt::format("split_lengths [{}] sum to {}, {} the length {} of axis {} of data {}",
                                          join_ints(*lengths), total, minus_one ? "more than" : "not", d.length(), *axis,
                                          data.str()));
            return;
        }
    }
    std::vector<Shape> shapes(lengths->size(), data);
    for (size_t i = 0; i < lengths->size(); ++i)
        shapes[i].dims[*axis] = minus_one != i ? Dim((*lengths)[i]) : d.is_static() ? Dim(d.length() - total) : Dim::dynamic();
    emit(shapes);
    split_values(ctx, *axis, out);
}

constexpr std::array kEntries{
    OpEntry{"Concat", 0, 1, infer_concat, "shape, type, values",
            "axis within the rank; equal ranks; dims other than axis match; equal element types"},
    OpEntry{"Reshape", 1, 1, infer_reshape, "shape, type, values",
            "special_zero; target values (one -1, none below -1); element counts; -1 divides evenly"},
    OpEntry{"ShapeOf", 0, 1, infer_shape_of, "shape, type, values", ""},
    OpEntry{"ShapeOf", 3, 3, infer_shape_of, "shape, type, values", "output_type is i32 or i64"},
    OpEntry{"Split", 1, 1, infer_split, "shape, type, values", "axis integer, scalar, in range; num_splits > 0; axis dim divisible"},
    OpEntry{"Squeeze", 0, 1, infer_squeeze, "shape, type, values", "axes in range; axes input rank <= 1"},
    OpEntry{"Squeeze", 15, 15, infer_squeeze, "shape, type, values",
            "allow_axis_skip; axes in range; axes input rank <= 1"},
    OpEntry{"Transpose", 1, 1, infer_transpose, "shape, type, values", "order is 1-D, integer, a permutation of the axes"},
    OpEntry{"Unsqueeze", 0, 1, infer_unsqueeze, "shape, type, values", "axes non-empty, in range; axes input rank <= 1"},
    OpEntry{"VariadicSplit", 1, 1, infer_variadic_split, "shape, type, values",
            "axis in range; split_lengths 1-D, >= -1, one -1 at most, sum matches the axis dim"},
};

}  // namespace

std::span<const OpEntry> shape_manipulation_ops() {
    static const std::vector<OpEntry> all = [] {
        std::vector<OpEntry> v(kEntries.begin(), kEntries.end());
        const auto more = shape_ops::layout_entries();
        v.insert(v.end(), more.begin(), more.end());
        std::stable_sort(v.begin(), v.end(), [](const OpEntry& a, const OpEntry& b) {
            return a.type != b.type ? a.type < b.type : a.version < b.version;
        });
        return v;
    }();
    return all;
}

}  // namespace irlint
