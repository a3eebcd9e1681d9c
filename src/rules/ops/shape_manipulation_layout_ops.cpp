// Shape manipulation ops that build or rearrange a layout: Range, Broadcast, Tile, DepthToSpace,
// SpaceToDepth, ShuffleChannels, BatchToSpace, SpaceToBatch, Roll, Reverse.

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "core/checked_int.hpp"
#include "rules/ops/invariants.hpp"
#include "rules/ops/shape_manipulation_common.hpp"

namespace irlint {

namespace {

using namespace shape_ops;

// ---------------------------------------------------------------------------------------------- Range

constexpr std::array<std::string_view, 3> kRangeInputs{"start", "stop", "step"};

bool check_range_scalars(OpContext& ctx) {
    for (size_t i = 0; i < 3; ++i) {
        const Shape& s = ctx.shape(i);
        if (!s.rank_dynamic && s.rank() != 0) {
            ctx.invalid_input(fmt::format("'{}' input {} is not a scalar", kRangeInputs[i], s.str()));
            return false;
        }
        if (ctx.type(i) == ElementType::boolean) {
            ctx.invalid_input(fmt::format("'{}' input is boolean; it must be a numeric type", kRangeInputs[i]));
            return false;
        }
    }
    return true;
}

// The element type: v0 takes the inputs' (which must agree), v4 its output_type.
std::optional<ElementType> range_type(OpContext& ctx, bool* known) {
    *known = true;
    if (ctx.version() >= 4) {
        const auto t = ctx.attr_type("output_type");
        if (!t) {
            *known = false;
            return std::nullopt;
        }
        if (!is_integer_type(*t) && !is_float_type(*t)) {
            ctx.invalid_attribute(fmt::format("output_type {} is not a numeric type", element_type_name(*t)));
            *known = false;
        }
        return t;
    }
    std::optional<ElementType> t;
    for (size_t i = 0; i < 3; ++i) {
        const auto ti = ctx.type(i);
        if (!ti || *ti == ElementType::dynamic) continue;
        if (t && *t != *ti) {
            ctx.invalid_input(fmt::format("the inputs' element types differ: {} and {}", element_type_name(*t),
                                          element_type_name(*ti)));
            *known = false;
            return std::nullopt;
        }
        t = ti;
    }
    return t;
}

// One scalar input as OpenVINO's Range reads it, cast to double: an integer value, or a floating-point Const's.
std::optional<double> range_operand(const OpContext& ctx, size_t i) {
    if (const auto v = single_exact(ctx, i)) return static_cast<double>(*v);
    const std::vector<double>* reals = ctx.real_values(i);
    if (reals && reals->size() == 1) return reals->front();
    return std::nullopt;
}

// OpenVINO rejects a known start, stop or step that is nan or infinite, and Range-0 a zero step (Range-4
// lets it through).
bool check_range_operand(OpContext& ctx, size_t i, double v) {
    if (!std::isfinite(v)) {
        ctx.invalid_input(fmt::format("'{}' is {}: it cannot be nan or infinite", kRangeInputs[i], v));
        return false;
    }
    if (i == 2 && v == 0 && ctx.version() < 4) {
        ctx.invalid_input("'step' is 0");
        return false;
    }
    return true;
}

// Whether the inputs are cast to an integer type before the count: v0's input type, v4's output_type (an
// undeclared v0 type: whether start came as an integer).
bool range_is_integral(const OpContext& ctx, std::optional<ElementType> type) {
    if (ctx.version() < 4 && !type) return single_exact(ctx, 0).has_value();
    return type && is_integer_type(*type);
}

// A bound as a message shows it: an integral one as an integer, not in exponent notation.
std::string range_number(double v) {
    if (std::trunc(v) == v && std::fabs(v) < 9.2e18) return std::to_string(static_cast<int64_t>(v));
    return fmt::format("{}", v);
}

// The element count as OpenVINO computes it, in double: ceil(|stop - start| / |step|), 0 when the step leads
// away from stop. nullopt (the reason given) where its count is undefined: it divides by a zero step (Range-4
// lets one through, or truncates one to 0) and casts the count to uint32.
std::optional<int64_t> range_length(OpContext& ctx, double start, double stop, double step) {
    if (step == 0) {
        ctx.value_unknown(fmt::format("Range({}, {}, {}) divides by its zero step: OpenVINO's length is undefined",
                                      range_number(start), range_number(stop), range_number(step)));
        return std::nullopt;
    }
    const bool empty = (step > 0 && start >= stop) || (step < 0 && start <= stop);
    const double count = std::ceil(std::fabs(empty ? 0.0 : stop - start) / std::fabs(step));
    if (count > static_cast<double>(std::numeric_limits<uint32_t>::max())) {
        ctx.value_unknown(fmt::format("Range({}, {}, {}) has {} elements, more than OpenVINO's uint32 count holds",
                                      range_number(start), range_number(stop), range_number(step),
                                      range_number(count)));
        return std::nullopt;
    }
    return static_cast<int64_t>(count);
}

// The values of an integral Range: start, start + step, ... (doubles hold these integers exactly below 2^53).
std::optional<TensorValue> range_values(double start, double step, int64_t count) {
    constexpr double kExact = 9007199254740992.0;  // 2^53
    const double last = start + static_cast<double>(count - 1) * step;
    if (count > static_cast<int64_t>(kMaxValueElements) || std::fabs(start) > kExact || std::fabs(last) > kExact)
        return std::nullopt;
    TensorValue v;
    v.reserve(static_cast<size_t>(count));
    for (int64_t i = 0; i < count; ++i) {
        const auto x = static_cast<int64_t>(start + static_cast<double>(i) * step);
        v.push_back({x, x});
    }
    return v;
}

// Whether a Range's values are integers irlint carries: an integer type's, or a float type's whose start
// and step are integers and whose every value the type holds exactly (Range(0.0, float(n), 1.0)).
bool carries_integers(std::optional<ElementType> type, bool integral, double start, double step, int64_t count) {
    if (integral) return true;
    if (!type || std::trunc(start) != start || std::trunc(step) != step) return false;
    const auto reach = static_cast<double>(exact_integer_reach(*type));
    const double last = start + static_cast<double>(count - 1) * step;
    return std::fabs(start) <= reach && std::fabs(last) <= reach;
}

// Whether each operand not known is a value the model computes from its inputs' dims at run time (ShapeOf of a
// dynamic dim): with every Const's data read, OpenVINO knows no more of it than its bounds either, and its
// Range is one dynamic dim, as inferred.
bool known_only_at_run_time(const OpContext& ctx, const std::array<std::optional<double>, 3>& operands) {
    if (!ctx.model() || !ctx.model()->bin_present) return false;
    for (size_t i = 0; i < operands.size(); ++i)
        if (!operands[i] && !ctx.value(i)) return false;
    return true;
}

// Range(0, n, 1) of an unknown n has n's length: the dim takes n's symbol.
Dim range_dim_of_unknown(const OpContext& ctx, std::optional<double> start, std::optional<double> step) {
    const TensorValue* stop = ctx.value(1);
    if (start == 0.0 && step == 1.0 && stop && stop->size() == 1)
        return Dim::dynamic().with_symbol(stop->front().symbol);
    return Dim::dynamic();
}
}  // namespace

std::optional<int64_t> shape_ops::range_length(int64_t start, int64_t stop, int64_t step) {
    const bool empty = (step > 0 && start >= stop) || (step < 0 && start <= stop);
    // ceil(|stop - start| / |step|), overflow-checked: the span of two int64 values may not fit.
    const CheckedInt span = empty ? CheckedInt(0) : (step > 0 ? CheckedInt(stop) - start : CheckedInt(start) - stop);
    const CheckedInt magnitude = step > 0 ? CheckedInt(step) : CheckedInt(0) - step;
    const CheckedInt rest = span % magnitude;
    return (span / magnitude + CheckedInt(rest.valid() && rest.get() != 0 ? 1 : 0)).get();
}

namespace {

void infer_range(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(3)) return;
    bool type_ok = false;
    const auto type = range_type(ctx, &type_ok);
    if (!type_ok || !check_range_scalars(ctx)) return;
    const bool integral = range_is_integral(ctx, type);
    std::array<std::optional<double>, 3> operands;
    for (size_t i = 0; i < 3; ++i) {
        operands[i] = range_operand(ctx, i);
        if (!operands[i]) continue;
        if (!check_range_operand(ctx, i, *operands[i])) return;
        if (integral) operands[i] = std::trunc(*operands[i]);
    }
    const auto [start, stop, step] = operands;
    OpOutput o;
    o.type = type;
    if (!start || !stop || !step) {
        if (!known_only_at_run_time(ctx, operands)) {
            ctx.value_unknown("start, stop or step is not known");
            ctx.invariant(invariants::inferred_bounds());
        }
        o.shape.dims = {range_dim_of_unknown(ctx, start, step)};
        out.push_back(std::move(o));
        return;
    }
    const auto length = range_length(ctx, *start, *stop, *step);
    o.shape.dims = {length ? Dim(*length) : Dim::dynamic()};
    if (length && carries_integers(type, integral, *start, *step, *length)) o.value = range_values(*start, *step, *length);
    out.push_back(std::move(o));
}

// ---------------------------------------------------------------------------------------------- Broadcast

enum class BroadcastMode { numpy, explicit_axes, pdpd, bidirectional };

std::optional<BroadcastMode> broadcast_mode(OpContext& ctx) {
    static constexpr std::array<std::string_view, 4> kV1{"numpy", "explicit", "none", "pdpd"};
    static constexpr std::array<std::string_view, 5> kV3{"numpy", "explicit", "none", "bidirectional", "pdpd"};
    const auto text = ctx.version() >= 3 ? ctx.attr_enum("mode", kV3, "numpy") : ctx.attr_enum("mode", kV1, "numpy");
    if (!text) return std::nullopt;
    if (*text == "numpy") return BroadcastMode::numpy;
    if (*text == "pdpd") return BroadcastMode::pdpd;
    if (*text == "bidirectional") return BroadcastMode::bidirectional;
    return BroadcastMode::explicit_axes;
}

void validate_numpy_target(OpContext& ctx, const Shape& arg, const Shape& target) {
    if (arg.rank_dynamic) return;
    if (target.rank() < arg.rank()) {
        ctx.invalid_input(fmt::format("the target shape {} has a smaller rank ({}) than the data {} ({})", target.str(),
                                      target.rank(), arg.str(), arg.rank()));
        return;
    }
    const size_t start = target.rank() - arg.rank();
    for (size_t i = start; i < target.rank(); ++i) {
        const Dim& a = arg.dims[i - start];
        const Dim& t = target.dims[i];
        if (a.is_dynamic() || t.is_dynamic() || a.compatible(Dim(1)) || a.compatible(t)) continue;
        ctx.invalid_input(fmt::format("data dim {} of {} cannot be broadcast (numpy) to {} of target {}; it would have "
                                      "to be 1{}",
                                      a.str(), arg.str(), t.str(), target.str(),
                                      t == Dim(1) ? "" : fmt::format(" or {}", t.str())));
        return;
    }
}

// axes_mapping has one axis per data dim (a scalar counts as rank 1 when it is mapped). False when it has not.
bool check_axes_mapping_length(OpContext& ctx, const Shape& arg) {
    const Shape& axes_shape = ctx.shape(2);
    if (arg.rank_dynamic || ctx.shape(1).rank_dynamic || !axes_shape.is_static() || axes_shape.rank() != 1) return false;
    const int64_t count = axes_shape.dims[0].length();
    const int64_t input_rank = arg.rank() == 0 && count > 0 ? 1 : static_cast<int64_t>(arg.rank());
    if (count != input_rank) {
        ctx.invalid_input(fmt::format("axes_mapping {} does not match the data rank {}", axes_shape.str(), input_rank));
        return false;
    }
    return true;
}

void validate_explicit_target(OpContext& ctx, const Shape& arg, const Shape& target) {
    if (!check_axes_mapping_length(ctx, arg)) return;
    const auto axes = ctx.exact_values(2);
    if (!axes) return;
    if (!std::is_sorted(axes->begin(), axes->end())) {
        ctx.invalid_input(fmt::format("axes_mapping [{}] is not sorted; Broadcast does not transpose", join_ints(*axes)));
        return;
    }
    for (size_t i = 0; i < axes->size(); ++i) {
        const int64_t a = (*axes)[i];
        if (a < 0 || a >= static_cast<int64_t>(target.rank())) {
            ctx.invalid_input(fmt::format("axes_mapping[{}] = {} exceeds the target rank {}", i, a, target.rank()));
            return;
        }
        const Dim& t = target.dims[static_cast<size_t>(a)];
        // A scalar goes to a target dim that may be 1; a dim to one it may equal, unless it may be 1 itself.
        const Dim expected = arg.rank() == 0 ? Dim(1) : arg.dims[i];
        const bool fits = arg.rank() == 0 ? t.compatible(Dim(1)) : t.compatible(expected) || expected.compatible(Dim(1));
        if (!fits) {
            ctx.invalid_input(fmt::format("target dim {} (axes_mapping[{}] = {}) is {}; the data {} needs {}", a, i, a,
                                          t.str(), arg.str(), expected.str()));
            return;
        }
    }
}

std::optional<Shape> pdpd_result(OpContext& ctx, const Shape& arg, const Shape& target) {
    if (arg.rank_dynamic) return dynamic_dims(target.rank());
    const auto axis = ctx.attr_int("axis", -1);
    if (!axis) return std::nullopt;
    const int64_t start = *axis == -1 ? static_cast<int64_t>(target.rank()) - static_cast<int64_t>(arg.rank()) : *axis;
    const int64_t target_rank = static_cast<int64_t>(target.rank());
    if (start < 0 || start > target_rank || target_rank - start > static_cast<int64_t>(arg.rank())) {
        ctx.invalid_input(fmt::format("pdpd start axis {} does not place data {} within target {}", start, arg.str(),
                                      target.str()));
        return std::nullopt;
    }
    Shape out = target;
    for (size_t i = static_cast<size_t>(start); i < target.rank(); ++i) {
        const Dim& a = arg.dims[i - static_cast<size_t>(start)];
        if (a == Dim(1)) continue;
        if (target.dims[i] == Dim(1)) {
            out.dims[i] = a;
            continue;
        }
        const auto merged = Dim::merge(a, target.dims[i]);
        if (!merged) {
            ctx.invalid_input(fmt::format("target dim {} is {}; the data {} needs 1 or {}", i, target.dims[i].str(),
                                          arg.str(), a.str()));
            return std::nullopt;
        }
        out.dims[i] = *merged;
    }
    return out;
}

std::optional<Shape> bidirectional_result(OpContext& ctx, const Shape& arg, const Shape& target) {
    std::string error;
    auto r = broadcast_shapes(arg, target, BroadcastKind::numpy, -1, &error);
    if (!r) ctx.invalid_input(fmt::format("target shape {} does not broadcast with the data {}: {}", target.str(),
                                          arg.str(), error));
    return r;
}

bool check_broadcast_inputs(OpContext& ctx, BroadcastMode mode) {
    const size_t n = ctx.input_count();
    if (mode == BroadcastMode::explicit_axes && n != 3) {
        ctx.invalid_input(fmt::format("mode explicit needs the axes_mapping input (3 inputs); the layer has {}", n));
        return false;
    }
    if (mode != BroadcastMode::explicit_axes && (ctx.version() >= 3 ? n != 2 : (n < 2 || n > 3))) {
        ctx.invalid_input(fmt::format("Broadcast takes 2 inputs unless mode is explicit; the layer has {}", n));
        return false;
    }
    if (known_non_integer(ctx.type(1))) {
        ctx.invalid_input(
            fmt::format("the target shape input is {}; it must be an integer type", type_str(ctx.type(1))));
        return false;
    }
    if (mode == BroadcastMode::explicit_axes && known_non_integer(ctx.type(2))) {
        ctx.invalid_input(fmt::format("axes_mapping is {}; it must be an integer type", type_str(ctx.type(2))));
        return false;
    }
    const Shape& target = ctx.shape(1);
    if (!target.rank_dynamic && target.rank() != 1) {
        ctx.invalid_input(fmt::format("the target shape input {} must be 1-D", target.str()));
        return false;
    }
    if (mode == BroadcastMode::explicit_axes && !ctx.shape(2).rank_dynamic && ctx.shape(2).rank() != 1) {
        ctx.invalid_input(fmt::format("axes_mapping {} must be 1-D", ctx.shape(2).str()));
        return false;
    }
    return true;
}

}  // namespace

// The data's values spread over the (small, static) output: a single value everywhere, or, where data dims
// align with the output's trailing dims (numpy, bidirectional), each output element takes the data element
// at its index, with the index 0 along data dims of 1.
std::optional<TensorValue> shape_ops::broadcast_value(const OpContext& ctx, const Shape& result, bool trailing_aligned) {
    const Shape& data = ctx.shape(0);
    const auto n = capped_element_count(result, kMaxValueElements);
    const auto data_n = capped_element_count(data, kMaxValueElements);
    if (!n || !data_n || (*data_n != 1 && (!trailing_aligned || data.rank() > result.rank()))) return std::nullopt;
    const TensorValue* v = ctx.value(0);
    if (!v || v->size() != *data_n) return std::nullopt;
    if (*data_n == 1) return TensorValue(*n, v->front());
    const size_t rank = result.rank(), offset = rank - data.rank();
    TensorValue out;
    out.reserve(*n);
    std::vector<size_t> index(rank, 0);
    for (size_t flat = 0; flat < *n; ++flat) {
        size_t source = 0;
        for (size_t d = 0; d < data.rank(); ++d) {
            const size_t extent = static_cast<size_t>(data.dims[d].length());
            source = source * extent + (extent == 1 ? 0 : index[offset + d]);
        }
        out.push_back((*v)[source]);
        for (size_t d = rank; d-- > 0;) {  // next row-major index
            if (++index[d] < static_cast<size_t>(result.dims[d].length())) break;
            index[d] = 0;
        }
    }
    return out;
}

namespace {

void infer_broadcast(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2, 3)) return;
    const auto mode = broadcast_mode(ctx);
    if (!mode || !check_broadcast_inputs(ctx, *mode)) return;
    const Shape& arg = ctx.shape(0);
    const Shape& target_shape = ctx.shape(1);
    OpOutput o;
    o.type = ctx.type(0);
    const auto target = target_from_values(ctx, 1);
    if (!target) {
        ctx.value_unknown("the target shape (input 1) is not known");
        if ((*mode == BroadcastMode::numpy || *mode == BroadcastMode::bidirectional) && !arg.rank_dynamic)
            ctx.invariant(invariants::numpy_broadcast_of("Broadcast", arg));
        const bool length_known = target_shape.is_static() && target_shape.dims[0].length() <= static_cast<int64_t>(kMaxShapeRank);
        o.shape = length_known ? dynamic_dims(static_cast<size_t>(target_shape.dims[0].length())) : Shape::dynamic_rank();
        if (*mode == BroadcastMode::explicit_axes) {
            check_axes_mapping_length(ctx, arg);
            if (ctx.failed()) return;
        }
        if (*mode == BroadcastMode::bidirectional) {
            if (arg.rank_dynamic || !length_known) {
                o.shape = Shape::dynamic_rank();
            } else if (auto r = bidirectional_result(ctx, o.shape, arg)) {
                o.shape = *r;
            } else {
                return;
            }
        }
        out.push_back(std::move(o));
        return;
    }
    switch (*mode) {
        case BroadcastMode::numpy:
            validate_numpy_target(ctx, arg, *target);
            o.shape = *target;
            break;
        case BroadcastMode::explicit_axes:
            validate_explicit_target(ctx, arg, *target);
            o.shape = *target;
            break;
        case BroadcastMode::pdpd:
            if (auto r = pdpd_result(ctx, arg, *target)) o.shape = *r;
            break;
        case BroadcastMode::bidirectional:
            if (arg.rank_dynamic) {
                o.shape = Shape::dynamic_rank();
            } else if (auto r = bidirectional_result(ctx, arg, *target)) {
                o.shape = *r;
            }
            break;
    }
    if (ctx.failed()) return;
    o.value = broadcast_value(ctx, o.shape, *mode == BroadcastMode::numpy || *mode == BroadcastMode::bidirectional);
    out.push_back(std::move(o));
}

// ---------------------------------------------------------------------------------------------- Tile

// Tile's evaluate on known values: each output index reads the data (padded with leading 1s) modulo its dims.
std::optional<TensorValue> tiled_values(const OpContext& ctx, const Shape& result) {
    const Shape& data = ctx.shape(0);
    if (!data.is_static() || data.rank() > result.rank()) return std::nullopt;
    const size_t offset = result.rank() - data.rank();
    return rearranged_values(ctx, result, [&](std::span<const int64_t> out_index, std::span<int64_t> data_index) {
        for (size_t d = 0; d < data.rank(); ++d) data_index[d] = out_index[offset + d] % data.dims[d].length();
    });
}

void infer_tile(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2)) return;
    const Shape& data = ctx.shape(0);
    const Shape& repeats_shape = ctx.shape(1);
    if (!repeats_shape.rank_dynamic && repeats_shape.rank() != 1) {
        ctx.invalid_input(fmt::format("repeats {} must be 1-D", repeats_shape.str()));
        return;
    }
    if (known_non_integer(ctx.type(1))) {
        ctx.invalid_input(fmt::format("repeats is {}; it must be an integer type", type_str(ctx.type(1))));
        return;
    }
    OpOutput o;
    o.type = ctx.type(0);
    auto repeats = target_from_values(ctx, 1);
    if (repeats)
        for (size_t i = 0; i < repeats->rank(); ++i)
            if (const ValueBounds& b = (*ctx.value(1))[i]; b.exact() && b.lo < 0) repeats->dims[i] = Dim(0);
    if (!repeats || data.rank_dynamic) {
        if (!repeats) ctx.value_unknown("repeats (input 1) are not known");
        if (!repeats && !data.rank_dynamic) ctx.invariant(invariants::multiples_of("Tile", data));
        o.shape = Shape::dynamic_rank();
        if (!data.rank_dynamic && repeats_shape.is_static() &&
            repeats_shape.dims[0].length() <= static_cast<int64_t>(kMaxShapeRank))
            o.shape = dynamic_dims(std::max(data.rank(), static_cast<size_t>(repeats_shape.dims[0].length())));
        out.push_back(std::move(o));
        return;
    }
    // Negative repeats count as 0; the shorter of data and repeats is padded with leading 1s.
    const size_t rank = std::max(data.rank(), repeats->rank());
    o.shape.dims.resize(rank);
    for (size_t i = 0; i < rank; ++i) {
        const size_t from_end = rank - i;
        const Dim d = from_end <= data.rank() ? data.dims[data.rank() - from_end] : Dim(1);
        const Dim r = from_end <= repeats->rank() ? repeats->dims[repeats->rank() - from_end] : Dim(1);
        o.shape.dims[i] = d * r;
    }
    o.value = tiled_values(ctx, o.shape);
    out.push_back(std::move(o));
}

// ---------------------------------------------------------------------------------------------- ExtractImagePatches

struct PatchAttrs {
    std::vector<int64_t> sizes, strides, rates;
    bool valid = true;  // auto_pad valid; false: same_upper or same_lower
};

std::optional<PatchAttrs> patch_attrs(OpContext& ctx) {
    static constexpr std::array<std::string_view, 3> kPads{"valid", "same_upper", "same_lower"};
    auto sizes = ctx.attr_ints("sizes");
    auto strides = ctx.attr_ints("strides");
    auto rates = ctx.attr_ints("rates");
    const auto pad = ctx.attr_enum("auto_pad", kPads);
    if (!sizes || !strides || !rates || !pad) return std::nullopt;
    const auto positive = [](const std::vector<int64_t>& v) { return v[0] > 0 && v[1] > 0; };
    for (const auto& [name, v] : {std::pair{"sizes", &*sizes}, {"strides", &*strides}, {"rates", &*rates}}) {
        if (v->size() != 2) {
            ctx.invalid_attribute(fmt::format("{} has {} values; it takes rows and columns", name, v->size()));
            return std::nullopt;
        }
        if (v != &*sizes && !positive(*v)) {
            ctx.invalid_attribute(fmt::format("{} [{}] must be greater than 0", name, join_ints(*v)));
            return std::nullopt;
        }
    }
    return PatchAttrs{std::move(*sizes), std::move(*strides), std::move(*rates), *pad == "valid"};
}

// The patches along one spatial dim, bound by bound: whole patches for valid padding, one per stride otherwise.
Dim patch_count(const Dim& in, int64_t size, int64_t stride, int64_t rate, bool valid) {
    const auto count = [&](int64_t n) -> std::optional<int64_t> {
        const CheckedInt c = valid ? (CheckedInt(n) - CheckedInt(rate) * (CheckedInt(size) - 1) - 1) / stride + 1
                                   : (CheckedInt(n) - 1) / stride + 1;
        const auto v = c.get();
        return v ? std::optional(std::max<int64_t>(*v, 0)) : std::nullopt;
    };
    const auto lo = count(in.min());
    const auto hi = in.has_upper_bound() ? count(in.max()) : std::optional(Dim::kInf);
    return lo && hi ? Dim(*lo, *hi) : Dim::dynamic();
}

// [N, C, H, W] gives [N, C * size_rows * size_cols, patch rows, patch cols]; an image with no rows or columns
// stays as it is.
void infer_extract_image_patches(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1)) return;
    const auto attrs = patch_attrs(ctx);
    if (!attrs) return;
    const Shape& data = ctx.shape(0);
    if (!data.rank_dynamic && data.rank() != 4) {
        ctx.invalid_input(fmt::format("data {} must be 4-D", data.str()));
        return;
    }
    OpOutput o{dynamic_dims(4), ctx.type(0), std::nullopt, {}};
    if (!data.rank_dynamic && (data.dims[2] == Dim(0) || data.dims[3] == Dim(0))) {
        o.shape = data;
    } else if (!data.rank_dynamic) {
        const auto per_pixel = (CheckedInt(attrs->sizes[0]) * attrs->sizes[1]).get();
        o.shape.dims[0] = data.dims[0];
        o.shape.dims[1] = per_pixel && *per_pixel >= 0 ? data.dims[1] * Dim(*per_pixel) : Dim::dynamic();
        for (size_t i = 0; i < 2; ++i)
            o.shape.dims[2 + i] =
                patch_count(data.dims[2 + i], attrs->sizes[i], attrs->strides[i], attrs->rates[i], attrs->valid);
    }
    out.push_back(std::move(o));
}

// ---------------------------------------------------------------------------------------------- DepthToSpace, SpaceToDepth

std::optional<int64_t> block_size_attr(OpContext& ctx) {
    static constexpr std::array<std::string_view, 2> kModes{"blocks_first", "depth_first"};
    if (!ctx.attr_enum("mode", kModes)) return std::nullopt;
    const auto bs = ctx.attr_int("block_size", 1);
    if (!bs) return std::nullopt;
    if (*bs <= 0) {
        ctx.invalid_attribute(fmt::format("block_size {} must be greater than zero", *bs));
        return std::nullopt;
    }
    return bs;
}

// block_size ^ spatial rank, nullopt when it overflows.
std::optional<int64_t> block_volume(int64_t bs, size_t spatial) {
    CheckedInt v = 1;
    for (size_t i = 0; i < spatial; ++i) v = v * bs;
    return v.get();
}

void infer_depth_space(OpContext& ctx, std::vector<OpOutput>& out, bool to_space) {
    if (!ctx.expect_inputs(1)) return;
    const auto bs = block_size_attr(ctx);
    if (!bs) return;
    const Shape& data = ctx.shape(0);
    OpOutput o;
    o.type = ctx.type(0);
    if (data.rank_dynamic) {
        o.shape = Shape::dynamic_rank();
        out.push_back(std::move(o));
        return;
    }
    if (data.rank() < 3) {
        ctx.invalid_input(fmt::format("data {} has rank {}; the rank must be at least 3", data.str(), data.rank()));
        return;
    }
    const auto volume = block_volume(*bs, data.rank() - 2);
    if (!volume) {
        ctx.invalid_attribute(fmt::format("block_size {} to the power {} overflows int64", *bs, data.rank() - 2));
        return;
    }
    o.shape = data;
    const Dim& c = data.dims[1];
    if (to_space) {
        o.shape.dims[1] = c.divided_by(*volume);
        if (o.shape.dims[1].is_empty()) {
            ctx.invalid_input(fmt::format("channels {} of data {} hold no multiple of block_size^{} = {}", c.str(),
                                          data.str(), data.rank() - 2, *volume));
            return;
        }
        for (size_t i = 2; i < data.rank(); ++i) o.shape.dims[i] = data.dims[i] * Dim(*bs);
    } else {
        for (size_t i = 2; i < data.rank(); ++i) {
            const Dim& d = data.dims[i];
            o.shape.dims[i] = d.divided_by(*bs);
            if (o.shape.dims[i].is_empty()) {
                ctx.invalid_input(fmt::format("dim {} ({}) of data {} holds no multiple of block_size {}", i, d.str(),
                                              data.str(), *bs));
                return;
            }
        }
        o.shape.dims[1] = c * Dim(*volume);
    }
    out.push_back(std::move(o));
}

void infer_depth_to_space(OpContext& ctx, std::vector<OpOutput>& out) { infer_depth_space(ctx, out, true); }
void infer_space_to_depth(OpContext& ctx, std::vector<OpOutput>& out) { infer_depth_space(ctx, out, false); }

// ---------------------------------------------------------------------------------------------- ShuffleChannels

void infer_shuffle_channels(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1)) return;
    const auto axis = ctx.attr_int("axis", 1);
    const auto group = ctx.attr_int("group", 1);
    if (!axis || !group) return;
    if (*group < 1) {
        ctx.invalid_attribute(fmt::format("group {} must be at least 1", *group));
        return;
    }
    const Shape& data = ctx.shape(0);
    OpOutput o{data, ctx.type(0), std::nullopt, {}};
    if (!data.rank_dynamic) {
        if (data.rank() == 0) {
            ctx.invalid_input("data is a scalar; ShuffleChannels needs at least 1-D");
            return;
        }
        std::string error;
        const auto a = normalize_axis(*axis, static_cast<int64_t>(data.rank()), &error);
        if (!a) {
            ctx.invalid_attribute(fmt::format("{} for data {}", error, data.str()));
            return;
        }
        const Dim& c = data.dims[*a];
        if (c.is_static() && c.length() % *group != 0) {
            ctx.invalid_input(fmt::format("dim {} ({}) of data {} is not a multiple of group {}", *a, c.length(),
                                          data.str(), *group));
            return;
        }
    }
    out.push_back(std::move(o));
}

// ---------------------------------------------------------------------------------------------- BatchToSpace, SpaceToBatch

// block_shape, and the two crops/pads inputs: 1-D, integer, as long as the data rank.
bool check_block_inputs(OpContext& ctx, std::string_view begin_name, std::string_view end_name) {
    const Shape& data = ctx.shape(0);
    if (!data.rank_dynamic && data.rank() < 2) {
        ctx.invalid_input(fmt::format("data {} has rank {}; it must be at least 2", data.str(), data.rank()));
        return false;
    }
    const std::array<std::string_view, 3> names{"block_shape", begin_name, end_name};
    std::optional<Dim> length = Dim::dynamic();
    for (size_t i = 1; i <= 3; ++i) {
        const Shape& s = ctx.shape(i);
        if (known_non_integer(ctx.type(i))) {
            ctx.invalid_input(fmt::format("{} is {}; it must be an integer type", names[i - 1], type_str(ctx.type(i))));
            return false;
        }
        if (s.rank_dynamic) continue;
        if (s.rank() != 1) {
            ctx.invalid_input(fmt::format("{} {} must be 1-D", names[i - 1], s.str()));
            return false;
        }
        length = Dim::merge(*length, s.dims[0]);
        if (!length) {
            ctx.invalid_input(fmt::format("block_shape {}, {} {} and {} {} must have the same shape", ctx.shape(1).str(),
                                          begin_name, ctx.shape(2).str(), end_name, ctx.shape(3).str()));
            return false;
        }
    }
    if (!data.rank_dynamic && !length->compatible(Dim(static_cast<int64_t>(data.rank())))) {
        ctx.invalid_input(fmt::format("block_shape and {} have length {}; the data {} has rank {}", begin_name,
                                      length->str(), data.str(), data.rank()));
        return false;
    }
    return true;
}

// Input i's exact values when known and as long as the data rank.
std::optional<std::vector<int64_t>> rank_values(const OpContext& ctx, size_t i, size_t rank) {
    auto v = ctx.exact_values(i);
    if (!v || v->size() != rank) return std::nullopt;
    return v;
}

// The sum of two crops/pads as a dim (a negative sum, as OpenVINO's Dimension of it, is dynamic).
std::optional<Dim> pair_sum(int64_t a, int64_t b) {
    const auto sum = (CheckedInt(a) + b).get();
    if (!sum) return std::nullopt;
    return Dim(*sum);
}

void infer_batch_to_space(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(4) || !check_block_inputs(ctx, "crops_begin", "crops_end")) return;
    const Shape& data = ctx.shape(0);
    OpOutput o;
    o.type = ctx.type(0);
    if (data.rank_dynamic) {
        o.shape = Shape::dynamic_rank();
        out.push_back(std::move(o));
        return;
    }
    const size_t rank = data.rank();
    o.shape = dynamic_dims(rank);
    const auto block = rank_values(ctx, 1, rank);
    if (block) {
        if (std::any_of(block->begin(), block->end(), [](int64_t b) { return b < 1; })) {
            ctx.invalid_input(fmt::format("block_shape [{}] has a value below 1", join_ints(*block)));
            return;
        }
        CheckedInt product = 1;
        for (const int64_t b : *block) product = product * b;
        if (!product.valid()) {
            ctx.invalid_input(fmt::format("the product of block_shape [{}] overflows int64", join_ints(*block)));
            return;
        }
        o.shape.dims[0] = data.dims[0].divided_by(*product.get());
        if (o.shape.dims[0].is_empty()) {
            ctx.invalid_input(fmt::format("batch {} of data {} holds no multiple of the block_shape product {}",
                                          data.dims[0].str(), data.str(), *product.get()));
            return;
        }
    }
    const auto begin = rank_values(ctx, 2, rank), end = rank_values(ctx, 3, rank);
    if (!begin || !end) {
        ctx.value_unknown(block ? "crops_begin or crops_end is not known" : "block_shape and the crops are not known");
        out.push_back(std::move(o));
        return;
    }
    if (!block) ctx.value_unknown("block_shape is not known");
    for (size_t i = 0; i < rank; ++i) {
        if ((*begin)[i] < 0 || (*end)[i] < 0) {
            ctx.invalid_input(fmt::format("crops_begin [{}] and crops_end [{}] must not be negative", join_ints(*begin),
                                          join_ints(*end)));
            return;
        }
    }
    for (size_t i = 1; i < rank; ++i) {
        // An unknown block is at least 1.
        const Dim scaled = data.dims[i] * (block ? Dim((*block)[i]) : Dim(1, -1));
        const auto crops = pair_sum((*begin)[i], (*end)[i]);
        if (!crops || (block && scaled.is_static() && crops->length() > scaled.length())) {
            ctx.invalid_input(fmt::format("crops_begin[{}] + crops_end[{}] = {} + {} exceed block_shape[{}] * dim {} = {} "
                                          "for data {}",
                                          i, i, (*begin)[i], (*end)[i], i, i, scaled.str(), data.str()));
            return;
        }
        o.shape.dims[i] = scaled - *crops;
    }
    out.push_back(std::move(o));
}

void infer_space_to_batch(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(4) || !check_block_inputs(ctx, "pads_begin", "pads_end")) return;
    const Shape& data = ctx.shape(0);
    OpOutput o;
    o.type = ctx.type(0);
    if (data.rank_dynamic) {
        o.shape = Shape::dynamic_rank();
        out.push_back(std::move(o));
        return;
    }
    const size_t rank = data.rank();
    o.shape = dynamic_dims(rank);
    const auto block = rank_values(ctx, 1, rank);
    if (block) {
        Dim batch = data.dims[0];
        for (const int64_t b : *block) batch = batch * Dim(b);
        o.shape.dims[0] = batch;
    }
    const auto begin = rank_values(ctx, 2, rank), end = rank_values(ctx, 3, rank);
    if (!block || !begin || !end) {
        ctx.value_unknown("block_shape or the pads are not known");
        out.push_back(std::move(o));
        return;
    }
    for (size_t i = 1; i < rank; ++i) {
        const int64_t b = (*block)[i];
        if (b < 1) {
            ctx.invalid_input(fmt::format("block_shape [{}] has a value below 1 at {}", join_ints(*block), i));
            return;
        }
        const auto pads = pair_sum((*begin)[i], (*end)[i]);
        if (!pads) {
            ctx.invalid_input(fmt::format("pads_begin[{}] + pads_end[{}] overflow int64", i, i));
            return;
        }
        const Dim padded = data.dims[i] + *pads;
        o.shape.dims[i] = padded.divided_by(b);
        if (o.shape.dims[i].is_empty()) {
            ctx.invalid_input(fmt::format("padded dim {} ({}) of data {} holds no multiple of block_shape[{}] = {}", i,
                                          padded.str(), data.str(), i, b));
            return;
        }
    }
    out.push_back(std::move(o));
}

// ---------------------------------------------------------------------------------------------- Roll, Reverse

bool is_i32_or_i64(std::optional<ElementType> t) { return !t || *t == ElementType::i32 || *t == ElementType::i64; }

void infer_roll(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(3)) return;
    const Shape& data = ctx.shape(0);
    const Shape& shift = ctx.shape(1);
    const Shape& axes = ctx.shape(2);
    if (!is_i32_or_i64(ctx.type(1)) || !is_i32_or_i64(ctx.type(2))) {
        ctx.invalid_input(fmt::format("shift ({}) and axes ({}) must be i32 or i64", type_str(ctx.type(1)),
                                      type_str(ctx.type(2))));
        return;
    }
    if (!rank_is_0_or_1(shift) || (!axes.rank_dynamic && axes.rank() > 1)) {
        ctx.invalid_input(fmt::format("shift {} and axes {} must be scalars or 1-D", shift.str(), axes.str()));
        return;
    }
    // A scalar shift applies to every axis; a 1-D one needs axes of its shape.
    if (!(shift.is_static() && shift.rank() == 0) && !shift.compatible(axes)) {
        ctx.invalid_input(fmt::format("shift {} is not a scalar, so axes {} must have its shape", shift.str(),
                                      axes.str()));
        return;
    }
    if (!data.rank_dynamic) {
        if (const auto a = ctx.exact_values(2)) {
            std::string error;
            if (!normalize_axes(*a, static_cast<int64_t>(data.rank()), false, &error)) {
                ctx.invalid_input(fmt::format("{} for data {}", error, data.str()));
                return;
            }
        }
    }
    out.push_back(OpOutput{data, ctx.type(0), std::nullopt, {}});
}

void infer_reverse(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2)) return;
    static constexpr std::array<std::string_view, 2> kModes{"index", "mask"};
    const auto mode = ctx.attr_enum("mode", kModes);
    if (!mode) return;
    const Shape& data = ctx.shape(0);
    const Shape& axes = ctx.shape(1);
    if (!axes.rank_dynamic && axes.rank() != 1) {
        ctx.invalid_input(fmt::format("reversed_axes {} must be 1-D", axes.str()));
        return;
    }
    const auto axes_type = ctx.type(1);
    if (*mode == "index") {
        if (known_non_integer(axes_type)) {
            ctx.invalid_input(fmt::format("reversed_axes is {}; mode index needs an integer type", type_str(axes_type)));
            return;
        }
        if (const auto a = ctx.exact_values(1); a && !data.rank_dynamic) {
            for (const int64_t x : *a) {
                if (x >= static_cast<int64_t>(data.rank())) {  // OpenVINO clips negative axes to 0
                    ctx.invalid_input(fmt::format("reversed_axes [{}] has axes beyond the data rank {} of {}",
                                                  join_ints(*a), data.rank(), data.str()));
                    return;
                }
            }
        }
    } else {
        if (axes_type && *axes_type != ElementType::boolean) {
            ctx.invalid_input(fmt::format("reversed_axes is {}; mode mask needs boolean", type_str(axes_type)));
            return;
        }
        if (!data.rank_dynamic && !axes.rank_dynamic &&
            !axes.dims[0].compatible(Dim(static_cast<int64_t>(data.rank())))) {
            ctx.invalid_input(fmt::format("reversed_axes {} must have as many elements as the data rank {} in mode mask",
                                          axes.str(), data.rank()));
            return;
        }
    }
    out.push_back(OpOutput{data, ctx.type(0), std::nullopt, {}});
}

constexpr std::array kEntries{
    OpEntry{"BatchToSpace", 1, 2, infer_batch_to_space, "shape, type",
            "block_shape >= 1, crops >= 0, all as long as the data rank; batch divisible; crops fit"},
    OpEntry{"Broadcast", 1, 1, infer_broadcast, "shape, type, values",
            "mode (numpy, explicit, pdpd); target 1-D integer; explicit axes_mapping integer and compatible"},
    OpEntry{
        "Broadcast", 3, 3, infer_broadcast, "shape, type, values",
        "mode (numpy, explicit, bidirectional, pdpd); target 1-D integer; axes_mapping integer, only with explicit"},
    OpEntry{"DepthToSpace", 0, 1, infer_depth_to_space, "shape, type",
            "mode; block_size > 0; rank >= 3; channels divisible by block_size^spatial"},
    OpEntry{"ExtractImagePatches", 3, 3, infer_extract_image_patches, "shape, type",
            "sizes, strides, rates of 2 values, strides and rates > 0; auto_pad valid or same; data 4-D"},
    OpEntry{"Range", 0, 1, infer_range, "shape, type, values",
            "scalar inputs of one numeric type; finite start, stop, step; step != 0"},
    OpEntry{"Range", 4, 4, infer_range, "shape, type, values",
            "output_type numeric; scalar numeric inputs; finite start, stop, step"},
    OpEntry{"Reverse", 1, 1, infer_reverse, "shape, type", "mode (index, mask); axes in range; mask length"},
    OpEntry{"Roll", 7, 7, infer_roll, "shape, type", "shift/axes i32 or i64, rank <= 1, same length; axes in range"},
    OpEntry{"ShuffleChannels", 0, 1, infer_shuffle_channels, "shape, type", "group >= 1; axis in range; dim divisible"},
    OpEntry{"SpaceToBatch", 1, 2, infer_space_to_batch, "shape, type",
            "block_shape >= 1, pads >= 0, all as long as the data rank; padded dims divisible"},
    OpEntry{"SpaceToDepth", 0, 1, infer_space_to_depth, "shape, type",
            "mode; block_size > 0; rank >= 3; spatial dims divisible by block_size"},
    OpEntry{"Tile", 0, 1, infer_tile, "shape, type, values", "repeats 1-D integer"},
};

}  // namespace

std::span<const OpEntry> shape_ops::layout_entries() { return kEntries; }

}  // namespace irlint
