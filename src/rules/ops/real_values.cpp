// Floating-point values of small tensors computed from dims (rules/ops/elementwise_util.hpp): a scale made as
// Cast(Shape) * 0.5, a trip count made as Ceil((limit - start) / delta). Each op's result is rounded to the
// tensor's precision, as the runtime's arithmetic in that type rounds it: an f32 product is the double
// product rounded to f32, which IEEE arithmetic makes the same number for +, -, *, / and sqrt.

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/half.hpp"
#include "rules/ops/elementwise_util.hpp"

namespace irlint::elementwise {

namespace {

bool whole_in(ElementType t, double x) {
    const auto reach = static_cast<double>(exact_integer_reach(t));
    return x == std::floor(x) && std::fabs(x) <= reach;
}

double apply(RealBinary f, double a, double b) {
    switch (f) {
        case RealBinary::add: return a + b;
        case RealBinary::subtract: return a - b;
        case RealBinary::multiply: return a * b;
        case RealBinary::divide: return a / b;
        // A NaN operand makes a NaN, as the runtimes' Max and Min give (and a NaN result carries no values).
        case RealBinary::maximum: return std::isnan(a) || std::isnan(b) ? a + b : std::max(a, b);
        case RealBinary::minimum: return std::isnan(a) || std::isnan(b) ? a + b : std::min(a, b);
    }
    return std::numeric_limits<double>::quiet_NaN();
}

double apply(RealUnary f, double x) {
    switch (f) {
        case RealUnary::keep: return x;
        case RealUnary::floor: return std::floor(x);
        case RealUnary::ceil: return std::ceil(x);
        case RealUnary::round_half_even: return std::nearbyint(x);  // the default rounding mode: to nearest even
        case RealUnary::round_half_away: return std::round(x);
        case RealUnary::negate: return -x;
        case RealUnary::absolute: return std::fabs(x);
        case RealUnary::relu: return x > 0 ? x : 0.0;
        case RealUnary::sqrt: return std::sqrt(x);
        case RealUnary::reciprocal: return 1.0 / x;
    }
    return std::numeric_limits<double>::quiet_NaN();
}

// Input i's values, when known, come from the graph's own computation (or the model file's inline tensors),
// not from an IR Const's data in the .bin: a computation of constants alone is left to the file, which has it
// folded, and its Consts are read only where some operand comes from dims.
bool computed(const OpContext& ctx, size_t i) {
    return ctx.has_input(i) && !ctx.input(i).stored_const && small_static_size(ctx.shape(i)) &&
           (ctx.value(i) || ctx.real_values(i));
}

}  // namespace

std::optional<std::vector<double>> input_reals(const OpContext& ctx, size_t i) {
    if (!ctx.has_input(i)) return std::nullopt;
    const auto size = small_static_size(ctx.shape(i));
    if (!size) return std::nullopt;
    if (const TensorValue* v = ctx.value(i)) {
        if (v->size() != *size) return std::nullopt;
        std::vector<double> out;
        out.reserve(v->size());
        for (const ValueBounds& b : *v) {
            if (!b.exact() || b.hi == ValueBounds::kUnbounded) return std::nullopt;
            out.push_back(static_cast<double>(b.lo));
        }
        return out;
    }
    const std::vector<double>* reals = ctx.real_values(i);
    if (!reals || reals->size() != *size) return std::nullopt;
    return *reals;
}

double round_to_type(ElementType t, double x) {
    switch (t) {
        case ElementType::f32: return static_cast<float>(x);
        // Through float: a double rounded twice can differ from one rounding only on an exact tie of the
        // second, which values computed from dims do not reach.
        case ElementType::f16: return f16_to_float(float_to_f16(static_cast<float>(x)));
        case ElementType::bf16: return bf16_to_float(float_to_bf16(static_cast<float>(x)));
        default: return x;
    }
}

void put_reals(OpOutput& out, std::vector<double> reals, ElementType t) {
    bool whole = true;
    for (const double x : reals) {
        if (!std::isfinite(x)) return;
        whole = whole && whole_in(t, x);
    }
    if (!whole) {
        out.reals = std::move(reals);
        return;
    }
    TensorValue ints;
    ints.reserve(reals.size());
    for (const double x : reals) ints.push_back({static_cast<int64_t>(x), static_cast<int64_t>(x)});
    out.value = std::move(ints);
}

std::optional<std::vector<double>> binary_reals(const OpContext& ctx, RealBinary f, size_t a, size_t b,
                                                const Shape& out, ElementType t) {
    const auto out_size = small_static_size(out);
    if (!out_size || (!computed(ctx, a) && !computed(ctx, b))) return std::nullopt;
    const auto out_dims = static_dims(out);
    const auto x = input_reals(ctx, a), y = input_reals(ctx, b);
    if (!out_dims || !x || !y) return std::nullopt;
    const auto x_dims = static_dims(ctx.shape(a)), y_dims = static_dims(ctx.shape(b));
    if (!x_dims || !y_dims || x_dims->size() > out_dims->size() || y_dims->size() > out_dims->size())
        return std::nullopt;
    const auto from_x = numpy_source_indices(*out_dims, *x_dims, *out_size);
    const auto from_y = numpy_source_indices(*out_dims, *y_dims, *out_size);
    std::vector<double> result(*out_size);
    for (size_t k = 0; k < result.size(); ++k) result[k] = round_to_type(t, apply(f, (*x)[from_x[k]], (*y)[from_y[k]]));
    return result;
}

std::optional<std::vector<double>> unary_reals(const OpContext& ctx, RealUnary f, ElementType t) {
    if (!computed(ctx, 0)) return std::nullopt;
    auto x = input_reals(ctx, 0);
    if (!x) return std::nullopt;
    for (double& v : *x) v = round_to_type(t, apply(f, v));
    return x;
}

std::optional<TensorValue> truncated_reals(const std::vector<double>& reals, ElementType dest, size_t size) {
    const auto range = integer_range(dest);
    if (reals.size() != size || !range) return std::nullopt;
    TensorValue out;
    out.reserve(size);
    for (const double x : reals) {
        const double t = std::trunc(x);
        if (!std::isfinite(t) || t < static_cast<double>(range->first) || t >= 9.2e18 ||
            t > static_cast<double>(range->second))
            return std::nullopt;
        out.push_back(ValueBounds{static_cast<int64_t>(t), static_cast<int64_t>(t)});
    }
    return out;
}

std::optional<std::vector<double>> converted_reals(const OpContext& ctx, ElementType dest) {
    if (!is_real_type(dest) || !carries_fractions(ctx, 0)) return std::nullopt;
    auto x = input_reals(ctx, 0);
    if (x)
        for (double& v : *x) v = round_to_type(dest, v);
    return x;
}

bool carries_fractions(const OpContext& ctx, size_t i) {
    return ctx.has_input(i) && !ctx.input(i).stored_const && !ctx.value(i) && ctx.real_values(i);
}

}  // namespace irlint::elementwise
