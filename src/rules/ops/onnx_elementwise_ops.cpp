// ONNX's elementwise operators through the registry, unary part: math functions, activations, Softmax and
// its kin, SwiGLU, Dropout, Clip, Cast, CastLike and BitCast at each schema version (the broadcasting ops are
// in onnx_elementwise_binary.cpp). Each output has the input's dims; the type is the schema's. The integer
// values shape arithmetic carries pass through Identity, Neg, Abs, Sign, Not, Clip, Cast, BitCast and the
// rounding ops.

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include <fmt/format.h>

#include "core/checked_int.hpp"
#include "core/half.hpp"
#include "rules/ops/elementwise_util.hpp"
#include "rules/ops/onnx_elementwise.hpp"
#include "rules/ops/onnx_families.hpp"

namespace irlint {

namespace onnx_elementwise {

namespace {

std::string type_list(TypeSet set) {
    std::string out;
    for (int t = 0; t <= static_cast<int>(ElementType::string); ++t) {
        if (!(set & type_bit(static_cast<ElementType>(t)))) continue;
        if (!out.empty()) out += ", ";
        out += element_type_name(static_cast<ElementType>(t));
    }
    return out;
}

// The largest whole number up to which every whole number is a value of the floating-point type.
std::optional<int64_t> exact_integer_limit(ElementType t) {
    switch (t) {
        case ElementType::f64:
            return int64_t{1} << 53;
        case ElementType::f32:
            return int64_t{1} << 24;
        case ElementType::f16:
            return int64_t{1} << 11;
        case ElementType::bf16:
            return int64_t{1} << 8;
        default:
            return std::nullopt;
    }
}

}  // namespace

bool check_type(OpContext& ctx, size_t i, TypeSet allowed) {
    const auto t = ctx.type(i);
    if (!elementwise::known(t) || (allowed & type_bit(*t))) return true;
    ctx.invalid_input(
        fmt::format("input {} has element type {}, not one of {}", i, element_type_name(*t), type_list(allowed)));
    return false;
}

bool check_same_type(OpContext& ctx, size_t a, size_t b, std::optional<ElementType>* shared) {
    std::optional<ElementType> t = ctx.type(a);
    if (!elementwise::merge_type(t, ctx.type(b))) {
        ctx.invalid_input(fmt::format("inputs {} and {} have element types {} and {}; the schema makes them one type",
                                      a, b, type_str(ctx.type(a)), type_str(ctx.type(b))));
        return false;
    }
    if (shared) *shared = t;
    return true;
}

const Row& row_of(std::span<const Row> table, const OpContext& ctx) {
    for (const Row& r : table)
        if (r.op == ctx.layer().type && r.since == ctx.version()) return r;
    static const Row any{};
    return any;
}

std::optional<TensorValue> whole_values(const OpContext& ctx, size_t i) {
    if (!ctx.has_input(i)) return std::nullopt;
    const auto size = elementwise::small_static_size(ctx.shape(i));
    if (!size) return std::nullopt;
    if (const TensorValue* v = ctx.value(i)) {
        if (v->size() == *size) return *v;
        return std::nullopt;
    }
    const std::vector<double>* reals = ctx.real_values(i);
    if (!reals || reals->size() != *size) return std::nullopt;
    TensorValue out;
    out.reserve(reals->size());
    for (const double r : *reals) {
        // Within ±2^53 a double is a whole number exactly when it equals its floor.
        if (!(std::fabs(r) <= 9007199254740992.0) || r != std::floor(r)) return std::nullopt;
        const auto w = static_cast<int64_t>(r);
        out.push_back({w, w});
    }
    return out;
}

bool holds_values(const TensorValue& v, std::optional<ElementType> t) {
    if (!elementwise::known(t)) return true;
    if (*t == ElementType::boolean)
        return std::all_of(v.begin(), v.end(), [](const ValueBounds& b) { return b.lo >= 0 && b.hi <= 1; });
    if (const auto limit = exact_integer_limit(*t)) {
        const auto exact_in = [&](int64_t x) { return x >= -*limit && x <= *limit; };
        return std::all_of(v.begin(), v.end(), [&](const ValueBounds& b) {
            return exact_in(b.lo) && (b.hi == ValueBounds::kUnbounded || exact_in(b.hi));
        });
    }
    return elementwise::fits_type(v, t);
}

}  // namespace onnx_elementwise

namespace {

using namespace onnx_elementwise;

// ---- values ----

// What a unary op does to the integer values of its input.
enum class UnaryValue { none, keep, negate, absolute, sign, logical_not, bitwise_not };

std::optional<ValueBounds> unary_value(UnaryValue f, const ValueBounds& b) {
    const bool bounded = b.hi != ValueBounds::kUnbounded;
    switch (f) {
        case UnaryValue::keep:
            return b;
        case UnaryValue::negate: {
            const auto lo = bounded ? (CheckedInt(0) - b.hi).get() : std::nullopt;
            const auto hi = (CheckedInt(0) - b.lo).get();
            if (!lo || !hi) return std::nullopt;
            return ValueBounds{*lo, *hi};
        }
        case UnaryValue::absolute: {
            if (b.lo >= 0) return ValueBounds{b.lo, b.hi};
            const auto lo_abs = (CheckedInt(0) - b.lo).get();
            if (!lo_abs) return std::nullopt;
            if (b.hi <= 0) return ValueBounds{-b.hi, *lo_abs};
            return ValueBounds{0, std::max(*lo_abs, b.hi)};
        }
        case UnaryValue::sign: {
            const auto sign = [](int64_t x) -> int64_t { return (x > 0) - (x < 0); };
            return ValueBounds{sign(b.lo), sign(b.hi)};
        }
        case UnaryValue::logical_not:
            return ValueBounds{b.hi == 0 ? 1 : 0, b.lo == 0 ? 1 : 0};
        case UnaryValue::bitwise_not:
            if (!b.exact() || !bounded) return std::nullopt;
            return ValueBounds{~b.lo, ~b.lo};
        case UnaryValue::none:
            break;
    }
    return std::nullopt;
}

std::optional<TensorValue> unary_values(const OpContext& ctx, UnaryValue f, std::optional<ElementType> out_type) {
    if (f == UnaryValue::none) return std::nullopt;
    auto v = whole_values(ctx, 0);
    if (!v) return std::nullopt;
    for (ValueBounds& b : *v) {
        const uint32_t symbol = f == UnaryValue::keep ? b.symbol : 0;
        const auto r = unary_value(f, b);
        if (!r) return std::nullopt;
        b = *r;
        b.symbol = symbol;
    }
    // A result the type cannot hold wraps (Neg of an unsigned value, say); irlint does not follow it there.
    if (!holds_values(*v, out_type)) return std::nullopt;
    return v;
}

// ---- unary ops and activations ----

// The unary ops whose floating-point values irlint follows, by name.
std::optional<elementwise::RealUnary> real_unary(std::string_view op) {
    using R = elementwise::RealUnary;
    static constexpr std::pair<std::string_view, R> kOps[] = {
        {"Identity", R::keep}, {"Floor", R::floor},    {"Ceil", R::ceil},       {"Round", R::round_half_even},
        {"Neg", R::negate},    {"Abs", R::absolute},   {"Relu", R::relu},       {"Sqrt", R::sqrt},
        {"Reciprocal", R::reciprocal}};
    for (const auto& [name, f] : kOps)
        if (name == op) return f;
    return std::nullopt;
}

// The output: the input's dims (symbols kept), the given type, and values where the op carries them: integer
// values, or for a floating-point type the values the op computes from fractions (or gives as fractions).
void same_shape(OpContext& ctx, std::vector<OpOutput>& out, std::optional<ElementType> type,
                UnaryValue values = UnaryValue::none) {
    OpOutput& o = out.emplace_back(OpOutput{ctx.shape(0), type, unary_values(ctx, values, type), {}});
    const auto f = real_unary(ctx.layer().type);
    if (o.value || !f || !elementwise::known(type) || !is_real_type(*type)) return;
    if (auto r = elementwise::unary_reals(ctx, *f, *type)) elementwise::put_reals(o, std::move(*r), *type);
}

template <UnaryValue V>
void infer_unary(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1) || !check_type(ctx, 0, row_of(unary_rows(), ctx).types)) return;
    same_shape(ctx, out, ctx.type(0), V);
}

// IsNaN and IsInf: a boolean mask.
void infer_is_class(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1) || !check_type(ctx, 0, row_of(unary_rows(), ctx).types)) return;
    if (!ctx.attr_int("detect_negative", 1) || !ctx.attr_int("detect_positive", 1)) return;
    same_shape(ctx, out, ElementType::boolean);
}

// The activations whose float attributes only scale: each is read (a malformed one is refused), none shapes.
template <const std::string_view* Names, size_t N>
void infer_scaled(OpContext& ctx, std::vector<OpOutput>& out) {
    for (size_t i = 0; i < N; ++i)
        if (!ctx.attr_float(Names[i], 0.0)) return;
    infer_unary<UnaryValue::none>(ctx, out);
}
constexpr std::string_view kAlpha[] = {"alpha"};
constexpr std::string_view kAlphaBeta[] = {"alpha", "beta"};
constexpr std::string_view kAlphaGamma[] = {"alpha", "gamma"};
constexpr std::string_view kBiasLambd[] = {"bias", "lambd"};
constexpr auto infer_alpha = infer_scaled<kAlpha, 1>;
constexpr auto infer_alpha_beta = infer_scaled<kAlphaBeta, 2>;
constexpr auto infer_alpha_gamma = infer_scaled<kAlphaGamma, 2>;
constexpr auto infer_bias_lambd = infer_scaled<kBiasLambd, 2>;

void infer_gelu(OpContext& ctx, std::vector<OpOutput>& out) {
    static constexpr std::array<std::string_view, 2> kApproximations{"none", "tanh"};
    if (!ctx.attr_enum("approximate", kApproximations, "none")) return;
    infer_unary<UnaryValue::none>(ctx, out);
}

// PRelu: the slope broadcasts one way into X (from opset 7; before, only its size is said); the output is X.
void infer_prelu(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2) || !check_type(ctx, 0, row_of(unary_rows(), ctx).types)) return;
    if (!check_same_type(ctx, 0, 1, nullptr)) return;
    const Shape &x = ctx.shape(0), &slope = ctx.shape(1);
    if (ctx.version() >= 7 && !x.rank_dynamic && !slope.rank_dynamic) {
        std::string error;
        const auto merged = broadcast_shapes(x, slope, BroadcastKind::numpy, -1, &error);
        // One way: the broadcast may not grow X (a slope of more dims, or a dim of X's 1 against the slope's n).
        if (!merged || merged->rank() != x.rank() || !x.compatible(*merged)) {
            ctx.invalid_input(fmt::format("slope {} does not broadcast one way into X {}", slope.str(), x.str()));
            return;
        }
    }
    same_shape(ctx, out, ctx.type(0));
}

// SwiGLU: Swish(A) * B without broadcasting: A and B have one shape (their dims merged), which Y has.
void infer_swiglu(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2) || !check_type(ctx, 0, row_of(unary_rows(), ctx).types)) return;
    std::optional<ElementType> type;
    if (!check_same_type(ctx, 0, 1, &type) || !ctx.attr_float("alpha", 1.0)) return;
    std::string error;
    const auto shape = broadcast_shapes(ctx.shape(0), ctx.shape(1), BroadcastKind::none, -1, &error);
    if (!shape)
        return ctx.invalid_input(fmt::format("A {} and B {} must have one shape (no broadcasting): {}",
                                             ctx.shape(0).str(), ctx.shape(1).str(), error));
    out.push_back(OpOutput{*shape, type, {}, {}});
}

// Softmax, LogSoftmax, Hardmax: the output is the input. Before opset 13 the input is read as 2D around axis
// (default 1), from 13 one axis is normalized (default -1); from opset 11 ONNX checks the axis against the rank.
void infer_softmax(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1) || !check_type(ctx, 0, row_of(unary_rows(), ctx).types)) return;
    const auto axis = ctx.attr_int("axis", ctx.version() >= 13 ? -1 : 1);
    if (!axis) return;
    const Shape& input = ctx.shape(0);
    if (ctx.version() >= 11 && !input.rank_dynamic) {
        if (input.rank() == 0) return ctx.invalid_input("the input is a scalar; it needs rank >= 1");
        std::string error;
        if (!normalize_axis(*axis, static_cast<int64_t>(input.rank()), &error)) return ctx.invalid_attribute(error);
    }
    same_shape(ctx, out, ctx.type(0));
}

// Dropout: the output and a mask of the data's dims; the mask is boolean from opset 10 (the data's type
// before). From opset 12 ratio and training_mode are optional scalar inputs.
void infer_dropout(OpContext& ctx, std::vector<OpOutput>& out) {
    const bool inputs_form = ctx.version() >= 12;
    if (!ctx.expect_inputs(1, inputs_form ? 3 : 1) || !check_type(ctx, 0, row_of(unary_rows(), ctx).types)) return;
    if (!inputs_form && !ctx.attr_float("ratio", 0.5)) return;
    if (inputs_form) {
        if (ctx.has_input(1) && !check_type(ctx, 1, ctx.version() >= 22 ? kFloats | kBf16 | kFloat8 : kFloats)) return;
        if (ctx.has_input(2) && !check_type(ctx, 2, kBool)) return;
        static constexpr std::array<std::string_view, 3> kNames{"", "ratio", "training_mode"};
        for (size_t i = 1; i < 3; ++i)
            if (ctx.has_input(i) && !ctx.shape(i).rank_dynamic && ctx.shape(i).rank() != 0)
                return ctx.invalid_input(fmt::format("{} must be a scalar; it is {}", kNames[i], ctx.shape(i).str()));
    }
    same_shape(ctx, out, ctx.type(0));
    out.push_back(
        OpOutput{ctx.shape(0), ctx.version() >= 10 ? std::optional(ElementType::boolean) : ctx.type(0), {}, {}});
}

// Clip's bound on integer values: clamping is monotonic, so each bound clamps on its own.
std::optional<TensorValue> clipped_values(const OpContext& ctx) {
    auto v = whole_values(ctx, 0);
    if (!v) return std::nullopt;
    std::optional<int64_t> lo, hi;
    for (const size_t i : {size_t{1}, size_t{2}}) {
        if (!ctx.has_input(i)) continue;
        const auto bound = whole_values(ctx, i);
        if (!bound || bound->size() != 1 || !bound->front().exact()) return std::nullopt;
        (i == 1 ? lo : hi) = bound->front().lo;
    }
    for (ValueBounds& b : *v) {
        const ValueBounds before = b;
        if (lo) b = ValueBounds{std::max(b.lo, *lo), std::max(b.hi, *lo)};
        if (hi) b = ValueBounds{std::min(b.lo, *hi), std::min(b.hi, *hi)};
        if (b.lo == before.lo && b.hi == before.hi) b.symbol = before.symbol;
    }
    return v;
}

// Clip: min and max are attributes before opset 11, optional inputs of the data's type from 11.
void infer_clip(OpContext& ctx, std::vector<OpOutput>& out) {
    const bool inputs_form = ctx.version() >= 11;
    if (!ctx.expect_inputs(1, inputs_form ? 3 : 1) || !check_type(ctx, 0, row_of(unary_rows(), ctx).types)) return;
    if (!inputs_form && (!ctx.attr_float("min", 0.0) || !ctx.attr_float("max", 0.0))) return;
    for (const size_t i : {size_t{1}, size_t{2}})
        if (ctx.has_input(i) && !check_same_type(ctx, 0, i, nullptr)) return;
    same_shape(ctx, out, ctx.type(0));
    if (inputs_form) out.back().value = clipped_values(ctx);
}

// ---- Cast, CastLike ----

// What Cast and BitCast know of each of ONNX's TensorProto data types, indexed by its number: the Cast version
// that first takes it (0: none) and its width, which BitCast keeps. The element type a number names is
// element_type_from_onnx's (nullopt for those irlint has no name for: complex).
struct OnnxDataType {
    int cast_since = 0;
    int bits = 0;  // per element (0: none, a string's vary)
};

constexpr std::array<OnnxDataType, 27> kOnnxDataTypes{{
    {},         // 0 UNDEFINED
    {1, 32},    // 1 FLOAT
    {1, 8},     // 2 UINT8
    {1, 8},     // 3 INT8
    {1, 16},    // 4 UINT16
    {1, 16},    // 5 INT16
    {1, 32},    // 6 INT32
    {1, 64},    // 7 INT64
    {9, 0},     // 8 STRING
    {1, 8},     // 9 BOOL
    {1, 16},    // 10 FLOAT16
    {1, 64},    // 11 DOUBLE
    {1, 32},    // 12 UINT32
    {1, 64},    // 13 UINT64
    {0, 64},    // 14 COMPLEX64
    {0, 128},   // 15 COMPLEX128
    {13, 16},   // 16 BFLOAT16
    {19, 8},    // 17 FLOAT8E4M3FN
    {19, 8},    // 18 FLOAT8E4M3FNUZ
    {19, 8},    // 19 FLOAT8E5M2
    {19, 8},    // 20 FLOAT8E5M2FNUZ
    {21, 4},    // 21 UINT4
    {21, 4},    // 22 INT4
    {23, 4},    // 23 FLOAT4E2M1
    {24, 8},    // 24 FLOAT8E8M0
    {25, 2},    // 25 UINT2
    {25, 2},    // 26 INT2
}};

std::optional<OnnxDataType> onnx_data_type(int64_t number) {
    if (number <= 0 || number >= static_cast<int64_t>(kOnnxDataTypes.size())) return std::nullopt;
    return kOnnxDataTypes[static_cast<size_t>(number)];
}

// What the table says of an element type: that of the number that names it.
const OnnxDataType* onnx_data_type_of(ElementType t) {
    for (size_t n = 1; n < kOnnxDataTypes.size(); ++n)
        if (element_type_from_onnx(static_cast<int64_t>(n)) == t) return &kOnnxDataTypes[n];
    return nullptr;
}

// The first Cast version that takes an element type as input or target (0: none).
int cast_since(ElementType t) {
    const OnnxDataType* d = onnx_data_type_of(t);
    return d ? d->cast_since : 0;
}

// The Cast version a CastLike version takes the types of: CastLike-15 those of Cast-13.
int cast_version_of(OpContext& ctx) {
    if (ctx.layer().type == "CastLike" && ctx.version() == 15) return 13;
    return ctx.version();
}

bool check_cast_type(OpContext& ctx, std::optional<ElementType> t, std::string_view what) {
    if (!elementwise::known(t)) return true;
    const int since = cast_since(*t);
    if (since != 0 && since <= cast_version_of(ctx)) return true;
    ctx.invalid_input(
        fmt::format("{} has element type {}, which this version does not cast", what, element_type_name(*t)));
    return false;
}

// saturate (opset 19) and round_mode (opset 24) say how a value converts, not its type: only read.
bool read_cast_modes(OpContext& ctx) {
    if (ctx.version() >= 19 && !ctx.attr_int("saturate", 1)) return false;
    static constexpr std::array<std::string_view, 3> kRoundModes{"up", "down", "nearest"};
    return ctx.version() < 24 || ctx.attr_enum("round_mode", kRoundModes, "up").has_value();
}

// Fractions through a cast: to an integer type truncated toward zero (ONNX Runtime's conversion), to a
// boolean 1 (a fraction is not zero); to a floating-point type they stay fractions (converted_reals).
std::optional<TensorValue> cast_fractions(const OpContext& ctx, ElementType to) {
    const std::vector<double>& reals = *ctx.real_values(0);
    if (to != ElementType::boolean) return elementwise::truncated_reals(reals, to, reals.size());
    TensorValue out;
    for (const double x : reals) out.push_back(ValueBounds{x != 0, x != 0});
    return out;
}

// The integer values through a cast: whole numbers stay what they are where the target holds them exactly,
// and become 0/1 in a boolean.
std::optional<TensorValue> cast_values(const OpContext& ctx, std::optional<ElementType> to) {
    if (!elementwise::known(to)) return std::nullopt;
    const auto from = ctx.type(0);
    if (elementwise::known(from) && *from == ElementType::string) return std::nullopt;
    if (elementwise::carries_fractions(ctx, 0)) return cast_fractions(ctx, *to);
    auto v = whole_values(ctx, 0);
    if (!v) return std::nullopt;
    if (*to == ElementType::boolean) {
        for (ValueBounds& b : *v) {
            const bool surely_zero = b.lo == 0 && b.hi == 0, surely_nonzero = b.lo > 0 || b.hi < 0;
            b = ValueBounds{surely_nonzero ? 1 : 0, surely_zero ? 0 : 1};
        }
        return v;
    }
    if (!holds_values(*v, to)) return std::nullopt;
    return v;
}

void infer_cast(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1)) return;
    const auto to = ctx.attr_int("to");
    if (!to || !read_cast_modes(ctx)) return;
    const auto target = onnx_data_type(*to);
    if (!target || target->cast_since == 0 || target->cast_since > ctx.version())
        return ctx.invalid_attribute(fmt::format("to={} is not a data type this version casts to", *to));
    if (!check_cast_type(ctx, ctx.type(0), "input 0")) return;
    const auto type = element_type_from_onnx(*to);
    same_shape(ctx, out, type);
    out.back().value = cast_values(ctx, type);
    if (!type) return;
    if (auto reals = elementwise::converted_reals(ctx, *type)) out.back().reals = std::move(*reals);
}

void infer_cast_like(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2) || !read_cast_modes(ctx)) return;
    if (!check_cast_type(ctx, ctx.type(0), "input 0") || !check_cast_type(ctx, ctx.type(1), "target_type")) return;
    same_shape(ctx, out, ctx.type(1));
    out.back().value = cast_values(ctx, ctx.type(1));
    if (!elementwise::known(ctx.type(1))) return;
    if (auto reals = elementwise::converted_reals(ctx, *ctx.type(1))) out.back().reals = std::move(*reals);
}

// ---- BitCast ----

// An element type's width as ONNX counts it (0: unknown, or a string).
int onnx_bits(std::optional<ElementType> t) {
    if (!elementwise::known(t)) return 0;
    const OnnxDataType* d = onnx_data_type_of(*t);
    return d ? d->bits : 0;
}

// The values a bit pattern of an integer or boolean type reads as.
std::optional<std::pair<int64_t, int64_t>> pattern_range(ElementType t) {
    if (t == ElementType::boolean) return std::pair<int64_t, int64_t>{0, 1};
    return elementwise::integer_range(t);
}

// An exact integer's bit pattern read as another integer type of its width: the same number where both types
// hold it, else one 2^bits away (two's complement). A boolean holds the patterns of 0 and 1 only; float
// patterns are not followed.
std::optional<TensorValue> bitcast_values(const OpContext& ctx, std::optional<ElementType> to) {
    const auto from = ctx.type(0);
    if (!elementwise::known(from) || !elementwise::known(to)) return std::nullopt;
    const auto from_range = pattern_range(*from), to_range = pattern_range(*to);
    const TensorValue* in = ctx.value(0);
    if (!from_range || !to_range || !in) return std::nullopt;
    const int bits = onnx_bits(to);
    TensorValue v;
    for (const ValueBounds& b : *in) {
        if (!b.exact()) return std::nullopt;
        int64_t x = b.lo;
        if ((x < to_range->first || x > to_range->second) && bits < 64)
            x += x < 0 ? (int64_t{1} << bits) : -(int64_t{1} << bits);
        if (x < to_range->first || x > to_range->second) return std::nullopt;
        v.push_back(ValueBounds{x, x});
    }
    return v;
}

// BitCast: the input's bits read as `to`, a non-string type of the same width; the dims stay.
void infer_bitcast(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(1)) return;
    const auto to = ctx.attr_int("to");
    if (!to) return;
    const auto target = onnx_data_type(*to);
    const auto type = element_type_from_onnx(*to);
    if (!target || type == ElementType::string)
        return ctx.invalid_attribute(fmt::format("to={} is not a non-string data type", *to));
    const auto from = ctx.type(0);
    if (elementwise::known(from) && *from == ElementType::string)
        return ctx.invalid_input("input 0 is a string tensor, which has no fixed width to reinterpret");
    if (const int bits = onnx_bits(from); bits != 0 && bits != target->bits)
        return ctx.invalid_input(fmt::format("input 0 has {} elements of {} bits; to={} has {}-bit elements",
                                             element_type_name(*from), bits, *to, target->bits));
    same_shape(ctx, out, type);
    out.back().value = bitcast_values(ctx, type);
}

// ---- the table ----

constexpr TypeSet kF = kFloats;
constexpr TypeSet kFB = kFloats | kBf16;
constexpr TypeSet kNum = kNumeric;
constexpr TypeSet kNumB = kNumeric | kBf16;
constexpr TypeSet kSignedF = kSignedInts | kFloats;
constexpr TypeSet kAllTensors = kAnyType;

constexpr auto kPlain = infer_unary<UnaryValue::none>;
constexpr auto kKeep = infer_unary<UnaryValue::keep>;
constexpr std::string_view kShapeType = "shape, type";
constexpr std::string_view kValues = "shape, type, integer values";
constexpr std::string_view kTypes = "input type";

const std::vector<Row> kUnaryRows = [] {
    std::vector<Row> rows;
    const auto add = [&](std::string_view op, std::initializer_list<std::pair<int, TypeSet>> versions, OpInferFn f,
                         std::string_view infers = kShapeType, std::string_view checks = kTypes) {
        for (const auto& [since, types] : versions) rows.push_back(Row{op, since, f, types, infers, checks});
    };
    add("Abs", {{1, kF}, {6, kNum}, {13, kNumB}}, infer_unary<UnaryValue::absolute>, kValues);
    for (const std::string_view op : {"Acos", "Asin", "Atan", "Cos", "Sin", "Tan"})
        add(op, {{7, kF}, {22, kFB}}, kPlain);
    for (const std::string_view op : {"Acosh", "Asinh", "Atanh", "Cosh", "Sinh"}) add(op, {{9, kF}, {22, kFB}}, kPlain);
    for (const std::string_view op : {"Ceil", "Floor"})
        add(op, {{1, kF}, {6, kF}, {13, kFB}}, kKeep, "shape, type, whole-number values");
    for (const std::string_view op : {"Exp", "Log", "Reciprocal", "Sigmoid", "Sqrt", "Tanh"})
        add(op, {{1, kF}, {6, kF}, {13, kFB}}, kPlain);
    add("Relu", {{1, kF}, {6, kF}, {13, kFB}, {14, kSignedF | kBf16}}, kPlain);
    add("Erf", {{9, kNum}, {13, kFB}}, kPlain);
    add("IsInf", {{10, type_bit(ElementType::f32) | type_bit(ElementType::f64)}, {20, kFB | kFloat8}}, infer_is_class,
        "shape, type (boolean)", "detect_negative, detect_positive; input type");
    add("IsNaN", {{9, kF}, {13, kFB}, {20, kFB | kFloat8}}, infer_is_class, "shape, type (boolean)");
    add("Neg", {{1, kF}, {6, kSignedF}, {13, kSignedF | kBf16}}, infer_unary<UnaryValue::negate>, kValues);
    add("Not", {{1, kBool}}, infer_unary<UnaryValue::logical_not>, kValues);
    add("Round", {{11, kF}, {22, kFB}}, kKeep, "shape, type, whole-number values");
    add("Sign", {{9, kNum}, {13, kNumB}}, infer_unary<UnaryValue::sign>, kValues);
    for (const std::string_view op : {"Softplus", "Softsign"}) add(op, {{1, kF}, {22, kFB}}, kPlain);
    add("BitwiseNot", {{18, kInts}}, infer_unary<UnaryValue::bitwise_not>, kValues);
    add("Identity",
        {{1, kAllTensors},
         {13, kAllTensors},
         {14, kAllTensors},
         {16, kAllTensors},
         {19, kAllTensors},
         {21, kAllTensors},
         {23, kAllTensors},
         {24, kAllTensors},
         {25, kAllTensors}},
        kKeep, "shape, type, values", "");
    add("Celu", {{12, type_bit(ElementType::f32)}, {28, kFB}}, infer_alpha, kShapeType, "alpha; input type");
    add("Elu", {{1, kF}, {6, kF}, {22, kFB}}, infer_alpha, kShapeType, "alpha; input type");
    add("Gelu", {{20, kFB}}, infer_gelu, kShapeType, "approximate none/tanh; input type");
    add("HardSigmoid", {{1, kF}, {6, kF}, {22, kFB}}, infer_alpha_beta, kShapeType, "alpha, beta; input type");
    add("HardSwish", {{14, kF}, {22, kFB}}, kPlain);
    add("LeakyRelu", {{1, kF}, {6, kF}, {16, kFB}}, infer_alpha, kShapeType, "alpha; input type");
    add("Mish", {{18, kF}, {22, kFB}}, kPlain);
    add("Selu", {{1, kF}, {6, kF}, {22, kFB}}, infer_alpha_gamma, kShapeType, "alpha, gamma; input type");
    add("Shrink", {{9, kNum}}, infer_bias_lambd, kShapeType, "bias, lambd; input type");
    add("Swish", {{24, kFB}}, infer_alpha, kShapeType, "alpha; input type");
    add("SwiGLU", {{28, kFB}}, infer_swiglu, kShapeType, "A and B of one shape and type; alpha; input type");
    add("ThresholdedRelu", {{10, kF}, {22, kFB}}, infer_alpha, kShapeType, "alpha; input type");
    const TypeSet prelu_ints = kF | type_bit(ElementType::i32) | type_bit(ElementType::i64) |
                               type_bit(ElementType::u32) | type_bit(ElementType::u64);
    add("PRelu", {{1, kF}, {6, kF}, {7, kF}, {9, prelu_ints}, {16, prelu_ints | kBf16}}, infer_prelu, kShapeType,
        "slope broadcasts one way into X (from opset 7); input types");
    add("Clip", {{1, kF}, {6, kF}, {11, kF}, {12, kNum}, {13, kNumB}}, infer_clip, "shape, type, integer values",
        "min, max attributes (before opset 11) or inputs of the input's type");
    add("Dropout", {{1, kF}, {6, kF}, {7, kF}, {10, kF}, {12, kF}, {13, kFB}, {22, kFB | kFloat8}}, infer_dropout,
        "shape, type (output, mask)", "ratio, training_mode scalars (from opset 12); input types");
    for (const std::string_view op : {"Softmax", "LogSoftmax", "Hardmax"})
        add(op, {{1, kF}, {11, kF}, {13, kFB}}, infer_softmax, kShapeType,
            "axis within the rank (from opset 11); rank >= 1; input type");
    add("Cast",
        {{1, kAnyType},
         {6, kAnyType},
         {9, kAnyType},
         {13, kAnyType},
         {19, kAnyType},
         {21, kAnyType},
         {23, kAnyType},
         {24, kAnyType},
         {25, kAnyType}},
        infer_cast, "shape, type (to), integer values", "to a data type of the version; saturate; round_mode");
    add("CastLike", {{15, kAnyType}, {19, kAnyType}, {21, kAnyType}, {23, kAnyType}, {24, kAnyType}, {25, kAnyType}},
        infer_cast_like, "shape, type (target_type's), integer values", "types of the version; saturate; round_mode");
    add("BitCast", {{26, kAnyType}}, infer_bitcast, "shape, type (to), integer values",
        "to a non-string data type of the input's width");
    return rows;
}();

}  // namespace

std::span<const Row> onnx_elementwise::unary_rows() { return kUnaryRows; }

std::span<const OpEntry> onnx_elementwise_ops() {
    static const std::vector<OpEntry> entries = [] {
        std::vector<OpEntry> out;
        for (const auto table : {unary_rows, binary_rows})
            for (const Row& r : table()) out.push_back(onnx_op(r.op, r.since, r.infer, r.infers, r.checks));
        return out;
    }();
    return entries;
}

}  // namespace irlint
