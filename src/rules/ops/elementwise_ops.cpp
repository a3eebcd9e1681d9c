// The elementwise family, unary part: ops whose output is their first input's shape (activations, math
// functions, Convert), with the element type checks and attribute checks OpenVINO makes.

#include <algorithm>
#include <cmath>
#include <array>
#include <vector>

#include "core/half.hpp"
#include "rules/ops/elementwise_util.hpp"

namespace irlint {
namespace elementwise {

std::optional<Broadcast> read_broadcast(OpContext& ctx, std::string_view fallback) {
    const std::string_view* text = ctx.attr("auto_broadcast");
    const std::string_view spelled = text ? *text : fallback;
    const auto kind = parse_broadcast_kind(spelled);
    if (!kind) {
        ctx.invalid_attribute(fmt::format("auto_broadcast=\"{}\" is not one of none, numpy, pdpd", spelled));
        return std::nullopt;
    }
    Broadcast b{*kind, -1};
    if (*kind == BroadcastKind::pdpd) {
        // OpenVINO writes the pdpd axis beside the type, as auto_broadcast_axis.
        const auto axis = ctx.attr_int("auto_broadcast_axis", -1);
        if (!axis) return std::nullopt;
        b.axis = *axis;
    }
    return b;
}

std::optional<std::pair<int64_t, int64_t>> integer_range(ElementType t) {
    switch (t) {
        case ElementType::i8:
            return std::pair<int64_t, int64_t>{INT8_MIN, INT8_MAX};
        case ElementType::i16:
            return std::pair<int64_t, int64_t>{INT16_MIN, INT16_MAX};
        case ElementType::i32:
            return std::pair<int64_t, int64_t>{INT32_MIN, INT32_MAX};
        case ElementType::i64:
            return std::pair<int64_t, int64_t>{INT64_MIN, INT64_MAX};
        case ElementType::u8:
            return std::pair<int64_t, int64_t>{0, UINT8_MAX};
        case ElementType::u16:
            return std::pair<int64_t, int64_t>{0, UINT16_MAX};
        case ElementType::u32:
            return std::pair<int64_t, int64_t>{0, UINT32_MAX};
        case ElementType::u64:
            return std::pair<int64_t, int64_t>{0, INT64_MAX};
        default:
            return std::nullopt;
    }
}

bool fits_type(const TensorValue& v, std::optional<ElementType> t) {
    if (!known(t)) return true;
    const auto range = integer_range(*t);
    if (!range) return false;
    for (const ValueBounds& b : v) {
        // OpenVINO carries an unbounded upper bound (the type's max) over as another type's max, except
        // for types of 16 bits or fewer.
        const bool hi_ok = b.hi <= range->second || (b.hi == ValueBounds::kUnbounded && element_type_bits(*t) > 16);
        if (b.lo < range->first || !hi_ok) return false;
    }
    return true;
}

std::optional<size_t> small_static_size(const Shape& s) {
    if (s.rank_dynamic) return std::nullopt;
    size_t n = 1;
    for (const Dim& d : s.dims) {
        if (!d.is_static()) return std::nullopt;
        const auto len = static_cast<size_t>(d.length());
        if (len != 0 && n > kMaxValueElements / len) return std::nullopt;
        n *= len;
    }
    return n;
}

bool check_axes_shape(OpContext& ctx, const Shape& data, const Shape& axes) {
    if (axes.is_static() && axes.rank() != 1) {
        ctx.invalid_input(fmt::format("axes must be 1D, it is {}", axes.str()));
        return false;
    }
    if (axes.is_static() && !data.rank_dynamic && axes.dims[0].length() > static_cast<int64_t>(data.rank())) {
        ctx.invalid_input(
            fmt::format("axes has {} elements, more than data rank {}", axes.dims[0].length(), data.rank()));
        return false;
    }
    return true;
}

}  // namespace elementwise

namespace {

using namespace elementwise;

void pass_through(OpContext& ctx, std::vector<OpOutput>& out, std::optional<ElementType> type) {
    out.push_back(OpOutput{ctx.shape(0), type, std::nullopt, {}});
}

// Which element types a unary op accepts, as the OpenVINO class checks them.
enum class Accepts { any, not_boolean, real, numeric, integral_or_boolean };

bool accepts(Accepts a, std::optional<ElementType> t) {
    switch (a) {
        case Accepts::any:
            return true;
        case Accepts::not_boolean:
            return !known(t) || (!is_bool(*t) && *t != ElementType::string);
        case Accepts::real:
            return maybe_real(t);
        case Accepts::numeric:
            return maybe_numeric(t);
        case Accepts::integral_or_boolean:
            return maybe_integral(t) || is_bool(*t);
    }
    return true;
}

std::string_view accepts_str(Accepts a) {
    switch (a) {
        case Accepts::any:
            return "any type";
        case Accepts::not_boolean:
            return "neither boolean nor string";
        case Accepts::real:
            return "a floating-point type";
        case Accepts::numeric:
            return "a numeric type";
        case Accepts::integral_or_boolean:
            return "an integer or boolean type";
    }
    return "";
}

bool check_input_type(OpContext& ctx, size_t i, Accepts a) {
    if (accepts(a, ctx.type(i))) return true;
    ctx.invalid_input(fmt::format("input {} has element type {}; {} takes {}", i, type_str(ctx.type(i)),
                                  ctx.layer().type, accepts_str(a)));
    return false;
}

// The plain unary ops: one input, output = input.
template <Accepts A>
void infer_unary(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1) || !check_input_type(ctx, 0, A)) return;
    pass_through(ctx, out, ctx.type(0));
}

// ---- integer values of unary ops (evaluate, kept apart from the shape) ----

// Floor, Ceiling and Round leave an integer as it is (with its symbol); Abs and Negative map the bounds.
enum class UnaryValue { unchanged, abs, negative };

std::optional<ValueBounds> unary_value(UnaryValue u, const ValueBounds& v) {
    constexpr int64_t kInf = ValueBounds::kUnbounded;
    const auto negated = [&]() -> std::optional<ValueBounds> {
        if (v.hi == kInf || v.lo == INT64_MIN) return std::nullopt;
        return ValueBounds{-v.hi, -v.lo};
    };
    switch (u) {
        case UnaryValue::unchanged:
            return v;
        case UnaryValue::negative:
            return negated();
        case UnaryValue::abs:
            if (v.lo >= 0) return v;
            if (v.hi <= 0) return negated();
            if (v.lo == INT64_MIN) return std::nullopt;
            return ValueBounds{0, std::max(-v.lo, v.hi)};
    }
    return std::nullopt;
}

std::optional<TensorValue> unary_values(const OpContext& ctx, UnaryValue u) {
    if (!maybe_integral(ctx.type(0)) || !small_static_size(ctx.shape(0))) return std::nullopt;
    const TensorValue* v = ctx.value(0);
    if (!v || v->size() != *small_static_size(ctx.shape(0))) return std::nullopt;
    TensorValue out;
    out.reserve(v->size());
    for (const ValueBounds& b : *v) {
        const auto r = unary_value(u, b);
        if (!r) return std::nullopt;
        out.push_back(*r);
    }
    if (!fits_type(out, ctx.type(0))) return std::nullopt;
    return out;
}

// A floating-point input's values through f, as OpenVINO's evaluate computes them, where the integer values
// give none (fractions in, or out).
void put_unary_reals(const OpContext& ctx, RealUnary f, OpOutput& o) {
    if (o.value || !known(o.type) || !is_real_type(*o.type)) return;
    if (auto r = unary_reals(ctx, f, *o.type)) put_reals(o, std::move(*r), *o.type);
}

std::optional<RealUnary> real_unary(std::string_view op) {
    if (op == "Floor") return RealUnary::floor;
    if (op == "Ceiling") return RealUnary::ceil;
    if (op == "Negative") return RealUnary::negate;
    if (op == "Abs") return RealUnary::absolute;
    return std::nullopt;
}

template <UnaryValue U>
void infer_unary_values(OpContext& ctx, std::vector<OpOutput>& out) {
    infer_unary<Accepts::not_boolean>(ctx, out);
    if (out.empty()) return;
    out.back().value = unary_values(ctx, U);
    if (const auto f = real_unary(ctx.layer().type)) put_unary_reals(ctx, *f, out.back());
}

// IsNaN, IsInf, IsFinite: a floating-point input, a boolean mask.
void infer_is_class(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1) || !check_input_type(ctx, 0, Accepts::real)) return;
    // IsInf's attributes; the other two have none, and the defaults make the reads harmless for them.
    if (!ctx.attr_bool("detect_negative", true) || !ctx.attr_bool("detect_positive", true)) return;
    pass_through(ctx, out, ElementType::boolean);
}

// Elu and Round check no element type (their classes skip the arithmetic check).
void infer_elu(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1) || !ctx.attr_float("alpha")) return;
    pass_through(ctx, out, ctx.type(0));
}

void infer_clamp(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1)) return;
    const auto min = ctx.attr_float("min");
    const auto max = ctx.attr_float("max");
    if (!min || !max) return;
    if (!check_input_type(ctx, 0, Accepts::numeric)) return;
    if (*min > *max) {
        ctx.invalid_attribute(fmt::format("min {} is greater than max {}", *min, *max));
        return;
    }
    pass_through(ctx, out, ctx.type(0));
}

void infer_gelu(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1)) return;
    if (ctx.version() >= 7) {
        static constexpr std::array<std::string_view, 2> kModes{"erf", "tanh"};
        if (!ctx.attr_enum("approximation_mode", kModes, "erf")) return;
    }
    if (!check_input_type(ctx, 0, Accepts::real)) return;
    pass_through(ctx, out, ctx.type(0));
}

void infer_round(OpContext& ctx, std::vector<OpOutput>& out) {
    static constexpr std::array<std::string_view, 2> kModes{"half_to_even", "half_away_from_zero"};
    if (!ctx.expect_inputs(1)) return;
    const auto mode = ctx.attr_enum("mode", kModes);
    if (!mode) return;
    pass_through(ctx, out, ctx.type(0));
    out.back().value = unary_values(ctx, UnaryValue::unchanged);
    put_unary_reals(ctx, *mode == kModes[0] ? RealUnary::round_half_even : RealUnary::round_half_away, out.back());
}

void infer_swish(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1, 2) || !check_input_type(ctx, 0, Accepts::real)) return;
    if (ctx.input_count() == 2) {
        std::optional<ElementType> t = ctx.type(0);
        if (!merge_type(t, ctx.type(1))) {
            ctx.invalid_input(
                fmt::format("data type {} and beta type {} differ", type_str(ctx.type(0)), type_str(ctx.type(1))));
            return;
        }
        if (!rank_may_be(ctx.shape(1), 0)) {
            ctx.invalid_input(fmt::format("beta must be a scalar, it has rank {}", rank_str(ctx.shape(1))));
            return;
        }
    }
    pass_through(ctx, out, ctx.type(0));
}

// Selu: data, alpha, lambda of one floating-point type.
void infer_selu(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(3)) return;
    std::optional<ElementType> t;
    if (!merge_type(t, ctx.type(0)) || !merge_type(t, ctx.type(1)) || !merge_type(t, ctx.type(2))) {
        ctx.invalid_input(fmt::format("input element types differ: {}, {} and {}", type_str(ctx.type(0)),
                                      type_str(ctx.type(1)), type_str(ctx.type(2))));
        return;
    }
    if (!maybe_real(t)) {
        ctx.invalid_input(fmt::format("input element type {} is not floating-point", type_str(t)));
        return;
    }
    pass_through(ctx, out, t);
}

// HardSigmoid: alpha and beta are scalars (when their shapes are static) of the data's type.
void infer_hard_sigmoid(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(3)) return;
    static constexpr std::array<std::string_view, 3> kNames{"data", "alpha", "beta"};
    for (size_t i = 1; i < 3; ++i) {
        if (ctx.shape(i).is_static() && ctx.shape(i).rank() != 0) {
            ctx.invalid_input(fmt::format("{} must be a scalar, it is {}", kNames[i], ctx.shape(i).str()));
            return;
        }
        std::optional<ElementType> t = ctx.type(0);
        if (!merge_type(t, ctx.type(i))) {
            ctx.invalid_input(fmt::format("data type {} and {} type {} differ", type_str(ctx.type(0)), kNames[i],
                                          type_str(ctx.type(i))));
            return;
        }
    }
    pass_through(ctx, out, ctx.type(0));
}

// PRelu: the output is the data, whatever the slope's shape (OpenVINO broadcasts the slope at run time).
void infer_prelu(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2)) return;
    pass_through(ctx, out, ctx.type(0));
}

// Convert's evaluate on integer values (a float tensor carries them when it came from integers): to an
// integer type, a value passes when the type holds it (truncation leaves an integer as it is; irlint does not
// follow OpenVINO's wrap or saturation); to a float type, when the type holds every integer up to its bounds
// exactly, so that a Convert back gives them again.
std::optional<TensorValue> converted_value(OpContext& ctx, ElementType dest) {
    const auto range = integer_range(dest);
    const auto reach = exact_integer_reach(dest);
    if ((!range && !reach) || !small_static_size(ctx.shape(0))) return std::nullopt;
    if (range && known(ctx.type(0)) && is_float_type(*ctx.type(0)) && ctx.real_values(0))
        return truncated_reals(*ctx.real_values(0), dest, *small_static_size(ctx.shape(0)));
    const TensorValue* v = ctx.value(0);
    if (!v || v->size() != *small_static_size(ctx.shape(0))) return std::nullopt;
    if (range) return fits_type(*v, dest) ? std::optional(*v) : std::nullopt;
    for (const ValueBounds& b : *v)
        if (b.lo < -reach || b.hi > reach) return std::nullopt;
    return *v;
}

void infer_convert(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1)) return;
    const auto dest = ctx.attr_type("destination_type");
    if (!dest) return;
    pass_through(ctx, out, dest);
    out.back().value = converted_value(ctx, *dest);
    if (auto reals = converted_reals(ctx, *dest)) out.back().reals = std::move(*reals);
}

void infer_convert_like(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2)) return;
    pass_through(ctx, out, ctx.type(1));
    if (!known(ctx.type(1))) return;
    out.back().value = converted_value(ctx, *ctx.type(1));
    if (auto reals = converted_reals(ctx, *ctx.type(1))) out.back().reals = std::move(*reals);
}

// GRN normalizes over the channels of a 2D..4D tensor.
void infer_grn(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1) || !ctx.attr_float("bias")) return;
    const Shape& data = ctx.shape(0);
    if (!data.rank_dynamic && (data.rank() < 2 || data.rank() > 4)) {
        ctx.invalid_input(fmt::format("data rank {} is not 2, 3 or 4", data.rank()));
        return;
    }
    pass_through(ctx, out, ctx.type(0));
}

// LRN: the axes input is a 1D integer tensor of at most rank(data) elements.
void infer_lrn(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2)) return;
    if (!ctx.attr_float("alpha") || !ctx.attr_float("beta") || !ctx.attr_float("bias") || !ctx.attr_int("size")) return;
    if (!check_axes_shape(ctx, ctx.shape(0), ctx.shape(1))) return;
    if (!maybe_integral(ctx.type(1))) {
        ctx.invalid_input(fmt::format("axes element type {} is not an integer type", type_str(ctx.type(1))));
        return;
    }
    pass_through(ctx, out, ctx.type(0));
}

// CumSum: an optional i32/i64 axis (OpenVINO does not check its shape).
void infer_cumsum(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1, 2)) return;
    if (!ctx.attr_bool("exclusive", false) || !ctx.attr_bool("reverse", false)) return;
    if (ctx.input_count() == 2) {
        const auto t = ctx.type(1);
        if (known(t) && *t != ElementType::i32 && *t != ElementType::i64) {
            ctx.invalid_input(fmt::format("axis element type {} is not i32 or i64", type_str(t)));
            return;
        }
    }
    pass_through(ctx, out, ctx.type(0));
}

constexpr std::string_view kShapeType = "shape, type";
constexpr std::string_view kNotBool = "input type neither boolean nor string";
constexpr std::string_view kReal = "input type floating-point";

constexpr auto kArith = infer_unary<Accepts::not_boolean>;
constexpr auto kRealOnly = infer_unary<Accepts::real>;
constexpr std::string_view kShapeTypeValues = "shape, type, integer values";

const std::vector<OpEntry> kUnary = {
    {"Abs", 0, 1, infer_unary_values<UnaryValue::abs>, kShapeTypeValues, kNotBool},
    {"Acos", 0, 1, kArith, kShapeType, kNotBool},
    {"Acosh", 3, 4, kArith, kShapeType, kNotBool},
    {"Asin", 0, 1, kArith, kShapeType, kNotBool},
    {"Asinh", 3, 4, kArith, kShapeType, kNotBool},
    {"Atan", 0, 1, kArith, kShapeType, kNotBool},
    {"Atanh", 3, 4, kArith, kShapeType, kNotBool},
    {"BitwiseNot", 13, 13, infer_unary<Accepts::integral_or_boolean>, kShapeType, "input type integer or boolean"},
    {"Ceiling", 0, 1, infer_unary_values<UnaryValue::unchanged>, kShapeTypeValues, kNotBool},
    {"Clamp", 0, 1, infer_clamp, kShapeType, "min <= max; input type numeric"},
    {"Convert", 0, 1, infer_convert, "shape, type, values (integer destinations)", "destination_type"},
    {"ConvertLike", 1, 1, infer_convert_like, "shape, type, values (integer destinations)", "2 inputs"},
    {"Cos", 0, 1, kArith, kShapeType, kNotBool},
    {"Cosh", 0, 1, kArith, kShapeType, kNotBool},
    {"CumSum", 0, 3, infer_cumsum, kShapeType, "axis of i32/i64; exclusive, reverse"},
    {"Elu", 0, 1, infer_elu, kShapeType, "alpha"},
    {"Erf", 0, 1, kArith, kShapeType, kNotBool},
    {"ErfInv", 17, 17, kRealOnly, kShapeType, kReal},
    {"Exp", 0, 1, kArith, kShapeType, kNotBool},
    {"Floor", 0, 1, infer_unary_values<UnaryValue::unchanged>, kShapeTypeValues, kNotBool},
    {"GRN", 0, 1, infer_grn, kShapeType, "bias; data rank 2..4"},
    {"Gelu", 0, 2, infer_gelu, kShapeType, kReal},
    {"Gelu", 7, 7, infer_gelu, kShapeType, "approximation_mode erf/tanh; input type floating-point"},
    {"HardSigmoid", 0, 1, infer_hard_sigmoid, kShapeType, "alpha, beta scalars of the data's type"},
    {"HSigmoid", 5, 5, kArith, kShapeType, kNotBool},
    {"HSwish", 4, 4, kArith, kShapeType, kNotBool},
    {"IsFinite", 10, 10, infer_is_class, "shape, type (boolean)", kReal},
    {"IsInf", 10, 10, infer_is_class, "shape, type (boolean)",
     "detect_negative, detect_positive; input type floating-point"},
    {"IsNaN", 10, 10, infer_is_class, "shape, type (boolean)", kReal},
    {"Log", 0, 1, kArith, kShapeType, kNotBool},
    {"LogicalNot", 1, 1, infer_unary<Accepts::any>, kShapeType, "1 input (OpenVINO keeps any element type)"},
    {"LRN", 0, 1, infer_lrn, kShapeType, "alpha, beta, bias, size; axes 1D integer, at most rank(data) elements"},
    {"Mish", 4, 4, kRealOnly, kShapeType, kReal},
    {"Negative", 0, 1, infer_unary_values<UnaryValue::negative>, kShapeTypeValues, kNotBool},
    {"PRelu", 0, 1, infer_prelu, kShapeType, "2 inputs"},
    {"ReLU", 0, 1, kArith, kShapeType, kNotBool},
    {"Round", 5, 5, infer_round, kShapeTypeValues, "mode half_to_even/half_away_from_zero"},
    {"Selu", 0, 1, infer_selu, kShapeType, "data, alpha, lambda of one floating-point type"},
    {"Sigmoid", 0, 1, kArith, kShapeType, kNotBool},
    {"Sign", 0, 1, kArith, kShapeType, kNotBool},
    {"Sin", 0, 1, kArith, kShapeType, kNotBool},
    {"Sinh", 0, 1, kArith, kShapeType, kNotBool},
    {"SoftPlus", 4, 4, kRealOnly, kShapeType, kReal},
    {"SoftSign", 9, 9, kRealOnly, kShapeType, kReal},
    {"Sqrt", 0, 1, kArith, kShapeType, kNotBool},
    {"Swish", 4, 4, infer_swish, kShapeType, "beta a scalar of the data's type; input type floating-point"},
    {"Tan", 0, 1, kArith, kShapeType, kNotBool},
    {"Tanh", 0, 1, kArith, kShapeType, kNotBool},
};

}  // namespace

std::span<const OpEntry> elementwise::unary_entries() { return kUnary; }

std::span<const OpEntry> elementwise_ops() {
    static const std::vector<OpEntry> all = [] {
        std::vector<OpEntry> out;
        for (const auto part : {elementwise::unary_entries, elementwise::binary_entries, elementwise::reduce_entries})
            for (const OpEntry& e : part()) out.push_back(e);
        std::stable_sort(out.begin(), out.end(), [](const OpEntry& a, const OpEntry& b) {
            return a.type != b.type ? a.type < b.type : a.version < b.version;
        });
        return out;
    }();
    return all;
}

}  // namespace irlint
