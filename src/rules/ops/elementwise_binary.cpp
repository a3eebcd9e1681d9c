// The elementwise family, broadcasting part: binary arithmetic, comparison, logical and bitwise ops, Select
// and FakeQuantize; and the integer values OpenVINO folds through them.

#include <algorithm>
#include <array>
#include <vector>

#include "core/checked_int.hpp"
#include "core/half.hpp"
#include "rules/ops/elementwise_util.hpp"

namespace irlint {
namespace {

// ---- values ----

bool exact(const ValueBounds& b) { return b.lo == b.hi && b.hi != ValueBounds::kUnbounded; }

int64_t floor_div(int64_t q, int64_t a, int64_t b) { return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q; }

std::optional<ValueBounds> exact_result(CheckedInt r) {
    const auto v = r.get();
    if (!v || *v == ValueBounds::kUnbounded) return std::nullopt;
    return ValueBounds{*v, *v};
}

}  // namespace

namespace elementwise {

std::optional<std::vector<int64_t>> static_dims(const Shape& s) {
    if (s.rank_dynamic) return std::nullopt;
    std::vector<int64_t> dims;
    for (const Dim& d : s.dims) {
        if (!d.is_static()) return std::nullopt;
        dims.push_back(d.length());
    }
    return dims;
}

// For each element of a numpy-broadcast output, the index of the input element it reads. The output has at
// most kMaxValueElements elements, so the walk is bounded by the value tensors, never by a dim.
std::vector<size_t> numpy_source_indices(const std::vector<int64_t>& out_dims, const std::vector<int64_t>& in_dims,
                                         size_t out_size) {
    const size_t rank = out_dims.size(), offset = rank - in_dims.size();
    std::vector<size_t> strides(in_dims.size(), 1);
    for (size_t i = in_dims.size(); i-- > 1;) strides[i - 1] = strides[i] * static_cast<size_t>(in_dims[i]);
    std::vector<size_t> indices(out_size);
    std::vector<int64_t> pos(rank, 0);
    for (size_t flat = 0; flat < out_size; ++flat) {
        size_t src = 0;
        for (size_t d = offset; d < rank; ++d)
            if (in_dims[d - offset] != 1) src += static_cast<size_t>(pos[d]) * strides[d - offset];
        indices[flat] = src;
        for (size_t d = rank; d-- > 0;) {
            if (++pos[d] < out_dims[d]) break;
            pos[d] = 0;
        }
    }
    return indices;
}

bool is_comparison(Fold f) {
    return f == Fold::equal || f == Fold::not_equal || f == Fold::less || f == Fold::less_equal || f == Fold::greater ||
           f == Fold::greater_equal;
}

namespace {

ValueBounds boolean_value(bool v) { return ValueBounds{v ? 1 : 0, v ? 1 : 0}; }

// The remainder of x / y: with the dividend's sign (Mod), or with the divisor's (FloorMod, Python's %).
std::optional<ValueBounds> integer_remainder(int64_t x, int64_t y, bool floor) {
    const auto r = (CheckedInt(x) % y).get();
    if (!r) return std::nullopt;
    const int64_t m = floor && *r != 0 && ((*r < 0) != (y < 0)) ? *r + y : *r;
    return ValueBounds{m, m};
}

// x^y of integers as OpenVINO's reference computes it: a negative exponent truncates toward zero, so only the
// bases 1 and -1 keep a non-zero result; 0 to a negative power is infinite (no integer).
std::optional<ValueBounds> integer_power(int64_t x, int64_t y) {
    if (x == 0 && y < 0) return std::nullopt;
    if (x == 0 || x == 1) return ValueBounds{y == 0 ? 1 : x, y == 0 ? 1 : x};
    if (x == -1) return ValueBounds{y % 2 == 0 ? 1 : -1, y % 2 == 0 ? 1 : -1};
    if (y < 0) return ValueBounds{0, 0};
    CheckedInt r = 1;
    for (int64_t i = 0; i < y && r.valid(); ++i) r = r * x;  // |x| >= 2 overflows within 64 steps
    return exact_result(r);
}

// An operation with one exact operand that leaves the other unchanged: the other, with its symbol.
std::optional<ValueBounds> identity_operand(Fold f, const ValueBounds& a, const ValueBounds& b) {
    const auto is = [](const ValueBounds& v, int64_t x) { return exact(v) && v.lo == x; };
    if ((f == Fold::multiply && is(b, 1)) || ((f == Fold::add || f == Fold::subtract) && is(b, 0)) ||
        (f == Fold::divide && is(b, 1)))
        return a;
    if ((f == Fold::multiply && is(a, 1)) || (f == Fold::add && is(a, 0))) return b;
    // A dim divided by itself (one symbol, never 0): 1 whatever the dim.
    if (f == Fold::divide && a.symbol != 0 && a.symbol == b.symbol && a.lo >= 1) return ValueBounds{1, 1};
    return std::nullopt;
}

// Sound bounds of a non-exact operation, where the op is monotonic in each operand; nullopt elsewhere.
std::optional<ValueBounds> interval(Fold f, const ValueBounds& a, const ValueBounds& b) {
    constexpr int64_t kInf = ValueBounds::kUnbounded;
    const bool non_negative = a.lo >= 0 && b.lo >= 0;
    const auto finite = [](std::optional<int64_t> v) { return v && *v != kInf; };
    switch (f) {
        case Fold::add: {
            const auto lo = (CheckedInt(a.lo) + b.lo).get();
            if (!non_negative || !finite(lo)) return std::nullopt;
            return ValueBounds{*lo, bound_add(a.hi, b.hi)};
        }
        case Fold::multiply: {
            const auto lo = (CheckedInt(a.lo) * b.lo).get();
            if (!non_negative || !finite(lo)) return std::nullopt;
            return ValueBounds{*lo, bound_mul(a.hi, b.hi)};
        }
        case Fold::subtract: {
            // x - c of a non-negative x and an exact c: [lo - c, hi - c], an unbounded high staying unbounded.
            if (!exact(b) || a.lo < 0 || b.lo < 0) return std::nullopt;
            const auto lo = (CheckedInt(a.lo) - b.lo).get();
            const auto hi = a.hi == kInf ? std::optional(kInf) : (CheckedInt(a.hi) - b.lo).get();
            if (!lo || !hi) return std::nullopt;
            return ValueBounds{*lo, *hi};
        }
        case Fold::divide:
            // x / c of a non-negative x and an exact positive c: both roundings agree there.
            if (!exact(b) || b.lo <= 0 || a.lo < 0) return std::nullopt;
            return ValueBounds{a.lo / b.lo, a.hi == kInf ? kInf : a.hi / b.lo};
        case Fold::equal:
            // OpenVINO's Equal bounds: values that cannot meet are unequal (a dim against -1, say); equal only
            // when both are one exact value, which exact_fold has taken.
            if (a.hi < b.lo || b.hi < a.lo) return boolean_value(false);
            return std::nullopt;
        case Fold::maximum:
            return ValueBounds{std::max(a.lo, b.lo), std::max(a.hi, b.hi)};
        case Fold::minimum:
            return ValueBounds{std::min(a.lo, b.lo), std::min(a.hi, b.hi)};
        default:
            return std::nullopt;
    }
}

std::optional<ValueBounds> exact_fold(Fold f, int64_t x, int64_t y, bool pythondiv) {
    switch (f) {
        case Fold::add:
            return exact_result(CheckedInt(x) + y);
        case Fold::subtract:
            return exact_result(CheckedInt(x) - y);
        case Fold::multiply:
            return exact_result(CheckedInt(x) * y);
        case Fold::divide: {
            const auto q = (CheckedInt(x) / y).get();
            if (!q) return std::nullopt;
            return exact_result(pythondiv ? floor_div(*q, x, y) : *q);
        }
        case Fold::mod:
            return integer_remainder(x, y, false);
        case Fold::floor_mod:
            return integer_remainder(x, y, true);
        case Fold::power:
            return integer_power(x, y);
        case Fold::maximum:
            return ValueBounds{std::max(x, y), std::max(x, y)};
        case Fold::minimum:
            return ValueBounds{std::min(x, y), std::min(x, y)};
        case Fold::equal:
            return boolean_value(x == y);
        case Fold::not_equal:
            return boolean_value(x != y);
        case Fold::less:
            return boolean_value(x < y);
        case Fold::less_equal:
            return boolean_value(x <= y);
        case Fold::greater:
            return boolean_value(x > y);
        case Fold::greater_equal:
            return boolean_value(x >= y);
        case Fold::none:
            break;
    }
    return std::nullopt;
}

}  // namespace

std::optional<ValueBounds> fold(Fold f, const ValueBounds& a, const ValueBounds& b, bool pythondiv) {
    if (const auto kept = identity_operand(f, a, b)) return kept;
    if (exact(a) && exact(b)) return exact_fold(f, a.lo, b.lo, pythondiv);
    return interval(f, a, b);
}

}  // namespace elementwise

namespace {

using namespace elementwise;

// The values of the inputs, each read through its broadcast to the output: nullopt when one is unknown or
// the shapes are not static and small. Only numpy and none broadcasting (pdpd values are not folded).
struct BroadcastValues {
    size_t size = 0;
    std::vector<const TensorValue*> values;
    std::vector<std::vector<size_t>> sources;
    const ValueBounds& at(size_t input, size_t flat) const { return (*values[input])[sources[input][flat]]; }
};

std::optional<BroadcastValues> broadcast_values(OpContext& ctx, const Shape& out_shape, BroadcastKind kind,
                                                std::initializer_list<size_t> inputs) {
    if (kind == BroadcastKind::pdpd) return std::nullopt;
    const auto out_size = small_static_size(out_shape);
    if (!out_size) return std::nullopt;
    const auto out_dims = *static_dims(out_shape);
    for (const size_t i : inputs)
        if (!small_static_size(ctx.shape(i))) return std::nullopt;
    BroadcastValues bv;
    bv.size = *out_size;
    for (const size_t i : inputs) {
        const TensorValue* v = ctx.value(i);
        if (!v || v->size() != *small_static_size(ctx.shape(i))) return std::nullopt;
        bv.values.push_back(v);
        bv.sources.push_back(numpy_source_indices(out_dims, *static_dims(ctx.shape(i)), bv.size));
    }
    return bv;
}

std::optional<TensorValue> fold_binary(OpContext& ctx, Fold f, const Shape& out_shape, BroadcastKind kind,
                                       bool pythondiv) {
    if (f == Fold::none || !maybe_integral(ctx.type(0)) || !maybe_integral(ctx.type(1))) return std::nullopt;
    const auto bv = broadcast_values(ctx, out_shape, kind, {0, 1});
    if (!bv) return std::nullopt;
    TensorValue out;
    out.reserve(bv->size);
    for (size_t i = 0; i < bv->size; ++i) {
        const auto r = fold(f, bv->at(0, i), bv->at(1, i), pythondiv);
        if (!r) return std::nullopt;
        out.push_back(*r);
    }
    // A result the output type cannot hold wraps in OpenVINO; irlint does not follow it there.
    if (!is_comparison(f) && (!fits_type(out, ctx.type(0)) || !fits_type(out, ctx.type(1)))) return std::nullopt;
    return out;
}

// Floating-point operands (a scale computed from dims): their values combined as OpenVINO's evaluate combines
// them in the output's type, where the integer values give none.
void put_binary_reals(const OpContext& ctx, Fold f, BroadcastKind kind, OpOutput& o) {
    static constexpr std::pair<Fold, RealBinary> kReal[] = {
        {Fold::add, RealBinary::add},           {Fold::subtract, RealBinary::subtract},
        {Fold::multiply, RealBinary::multiply}, {Fold::divide, RealBinary::divide},
        {Fold::maximum, RealBinary::maximum},   {Fold::minimum, RealBinary::minimum}};
    if (o.value || kind == BroadcastKind::pdpd || !known(o.type) || !is_real_type(*o.type)) return;
    for (const auto& [fold, real] : kReal)
        if (fold == f)
            if (auto r = binary_reals(ctx, real, 0, 1, o.shape, *o.type)) put_reals(o, std::move(*r), *o.type);
}

// ---- binary ops ----

// How a binary op's class checks its (merged) element type and what type it gives.
enum class Family { arithmetic, comparison, logical, bitwise };

bool family_accepts(Family f, std::optional<ElementType> t) {
    switch (f) {
        case Family::arithmetic:
            return !known(t) || (!is_bool(*t) && *t != ElementType::string);
        case Family::comparison:
            return true;
        case Family::logical:
            return maybe_bool(t);
        case Family::bitwise:
            return maybe_integral(t) || is_bool(*t);
    }
    return true;
}

std::string_view family_wants(Family f) {
    switch (f) {
        case Family::arithmetic:
            return "arithmetic takes neither boolean nor string arguments";
        case Family::comparison:
            return "";
        case Family::logical:
            return "logical operators take boolean arguments";
        case Family::bitwise:
            return "bitwise operators take integer or boolean arguments";
    }
    return "";
}

template <Family F, Fold V>
void infer_binary(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2)) return;
    const auto bc = read_broadcast(ctx);
    if (!bc) return;
    const auto pythondiv = V == Fold::divide ? ctx.attr_bool("m_pythondiv", true) : std::optional(true);
    if (!pythondiv) return;
    std::optional<ElementType> type = ctx.type(0);
    if (!merge_type(type, ctx.type(1))) {
        ctx.invalid_input(fmt::format("arguments do not have the same element type: {} and {}", type_str(ctx.type(0)),
                                      type_str(ctx.type(1))));
        return;
    }
    if (!family_accepts(F, type)) {
        ctx.invalid_input(fmt::format("element type {}: {}", type_str(type), family_wants(F)));
        return;
    }
    std::string error;
    const auto shape = broadcast_shapes(ctx.shape(0), ctx.shape(1), bc->kind, bc->axis, &error);
    if (!shape) {
        ctx.invalid_input(error);
        return;
    }
    const bool boolean_out = F == Family::comparison || F == Family::logical;
    out.push_back(OpOutput{*shape, boolean_out ? std::optional(ElementType::boolean) : type, std::nullopt, {}});
    out.back().value = fold_binary(ctx, V, *shape, bc->kind, *pythondiv);
    put_binary_reals(ctx, V, bc->kind, out.back());
}

// ---- Select ----

// OpenVINO v1: numpy and none merge `then` and the condition into `else`; pdpd merges `else`, then the
// condition, into `then` one way.
std::optional<Shape> select_shape(OpContext& ctx, const Broadcast& bc) {
    std::string error;
    if (bc.kind == BroadcastKind::pdpd) {
        auto result = broadcast_shapes(ctx.shape(1), ctx.shape(2), bc.kind, bc.axis, &error);
        if (result) result = broadcast_shapes(*result, ctx.shape(0), bc.kind, bc.axis, &error);
        if (!result) ctx.invalid_input(error);
        return result;
    }
    std::optional<Shape> result = ctx.shape(2);
    for (const size_t i : {size_t{1}, size_t{0}}) {
        result = broadcast_shapes(*result, ctx.shape(i), bc.kind, bc.axis, &error);
        if (!result) {
            ctx.invalid_input(error);
            return std::nullopt;
        }
    }
    return result;
}

std::optional<TensorValue> fold_select(OpContext& ctx, const Shape& shape, BroadcastKind kind) {
    if (!maybe_integral(ctx.type(1)) || !maybe_integral(ctx.type(2))) return std::nullopt;
    const auto bv = broadcast_values(ctx, shape, kind, {0, 1, 2});
    if (!bv) return std::nullopt;
    TensorValue out;
    out.reserve(bv->size);
    for (size_t i = 0; i < bv->size; ++i) {
        const ValueBounds& c = bv->at(0, i);
        if (!exact(c)) return std::nullopt;
        out.push_back(bv->at(c.lo != 0 ? 1 : 2, i));
    }
    return out;
}

void infer_select(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(3)) return;
    const auto bc = read_broadcast(ctx);
    if (!bc) return;
    if (!maybe_bool(ctx.type(0))) {
        ctx.invalid_input(fmt::format("condition has element type {}, not boolean", type_str(ctx.type(0))));
        return;
    }
    std::optional<ElementType> type = ctx.type(1);
    if (!merge_type(type, ctx.type(2))) {
        ctx.invalid_input(
            fmt::format("then type {} and else type {} differ", type_str(ctx.type(1)), type_str(ctx.type(2))));
        return;
    }
    const auto shape = select_shape(ctx, *bc);
    if (!shape) return;
    out.push_back(OpOutput{*shape, type, std::nullopt, {}});
    out.back().value = fold_select(ctx, *shape, bc->kind);
}

// ---- FakeQuantize ----

// The four range inputs are broadcast-merged into the data's shape one by one.
void infer_fake_quantize(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(5) || !ctx.attr_int("levels")) return;
    const auto bc = read_broadcast(ctx);
    if (!bc) return;
    static constexpr std::array<std::string_view, 5> kNames{"data", "input_low", "input_high", "output_low",
                                                            "output_high"};
    Shape shape = ctx.shape(0);
    for (size_t i = 1; i < 5; ++i) {
        std::string error;
        const auto merged = broadcast_shapes(shape, ctx.shape(i), bc->kind, bc->axis, &error);
        if (!merged) {
            ctx.invalid_input(fmt::format("{} {} does not fit the data: {}", kNames[i], ctx.shape(i).str(), error));
            return;
        }
        shape = *merged;
    }
    out.push_back(OpOutput{shape, ctx.type(0), std::nullopt, {}});
}

constexpr std::string_view kArith = "shape (auto_broadcast), type";
constexpr std::string_view kArithValues = "shape (auto_broadcast), type, integer values";
constexpr std::string_view kBool = "shape (auto_broadcast), type (boolean)";
constexpr std::string_view kBoolValues = "shape (auto_broadcast), type (boolean), integer values";
constexpr std::string_view kSameTypes = "same element types, neither boolean nor string; shapes broadcast";
constexpr std::string_view kCompare = "same element types; shapes broadcast";
constexpr std::string_view kLogical = "boolean inputs; shapes broadcast";
constexpr std::string_view kBitwise = "same integer or boolean types; shapes broadcast";

using F = Family;
const std::vector<OpEntry> kBinary = {
    {"Add", 1, 1, infer_binary<F::arithmetic, Fold::add>, kArithValues, kSameTypes},
    {"BitwiseAnd", 13, 13, infer_binary<F::bitwise, Fold::none>, kArith, kBitwise},
    {"BitwiseLeftShift", 15, 15, infer_binary<F::bitwise, Fold::none>, kArith, kBitwise},
    {"BitwiseOr", 13, 13, infer_binary<F::bitwise, Fold::none>, kArith, kBitwise},
    {"BitwiseRightShift", 15, 15, infer_binary<F::bitwise, Fold::none>, kArith, kBitwise},
    {"BitwiseXor", 13, 13, infer_binary<F::bitwise, Fold::none>, kArith, kBitwise},
    {"Divide", 1, 1, infer_binary<F::arithmetic, Fold::divide>, kArithValues, kSameTypes},
    {"Equal", 1, 1, infer_binary<F::comparison, Fold::equal>, kBoolValues, kCompare},
    {"FakeQuantize", 0, 1, infer_fake_quantize, "shape (ranges broadcast into data), type",
     "levels; auto_broadcast; ranges broadcast"},
    {"FloorMod", 1, 1, infer_binary<F::arithmetic, Fold::floor_mod>, kArithValues, kSameTypes},
    {"Greater", 1, 1, infer_binary<F::comparison, Fold::greater>, kBoolValues, kCompare},
    {"GreaterEqual", 1, 1, infer_binary<F::comparison, Fold::greater_equal>, kBoolValues, kCompare},
    {"Less", 1, 1, infer_binary<F::comparison, Fold::less>, kBoolValues, kCompare},
    {"LessEqual", 1, 1, infer_binary<F::comparison, Fold::less_equal>, kBoolValues, kCompare},
    {"LogicalAnd", 1, 1, infer_binary<F::logical, Fold::none>, kBool, kLogical},
    {"LogicalOr", 1, 1, infer_binary<F::logical, Fold::none>, kBool, kLogical},
    {"LogicalXor", 1, 1, infer_binary<F::logical, Fold::none>, kBool, kLogical},
    {"Maximum", 1, 1, infer_binary<F::arithmetic, Fold::maximum>, kArithValues, kSameTypes},
    {"Minimum", 1, 1, infer_binary<F::arithmetic, Fold::minimum>, kArithValues, kSameTypes},
    {"Mod", 1, 1, infer_binary<F::arithmetic, Fold::mod>, kArithValues, kSameTypes},
    {"Multiply", 1, 1, infer_binary<F::arithmetic, Fold::multiply>, kArithValues, kSameTypes},
    {"NotEqual", 1, 1, infer_binary<F::comparison, Fold::not_equal>, kBoolValues, kCompare},
    {"Power", 1, 1, infer_binary<F::arithmetic, Fold::power>, kArithValues, kSameTypes},
    {"Select", 1, 1, infer_select, "shape (auto_broadcast), type, values",
     "condition boolean; then and else of one type; shapes broadcast"},
    {"SquaredDifference", 0, 1, infer_binary<F::arithmetic, Fold::none>, kArith, kSameTypes},
    {"Subtract", 1, 1, infer_binary<F::arithmetic, Fold::subtract>, kArithValues, kSameTypes},
};

}  // namespace

std::span<const OpEntry> elementwise::binary_entries() { return kBinary; }

}  // namespace irlint
