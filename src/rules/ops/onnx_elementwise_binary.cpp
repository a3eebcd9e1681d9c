// ONNX's elementwise operators through the registry, broadcasting part: binary arithmetic, comparison,
// logical and bitwise ops, the variadic Sum, Mean, Max and Min, and Where. From opset 7 (8 for the variadic
// ops) shapes broadcast as numpy's do, which is OpenVINO's numpy broadcast; before, B is placed in A at
// `axis` (or at A's last dims) when `broadcast` is 1 and must be A's shape otherwise, and the output is A's
// shape. The integer values shape arithmetic carries are folded as the IR ops fold them, except that ONNX's
// integer Div truncates toward zero and Mod follows the divisor's sign unless fmod is 1.

#include <algorithm>
#include <array>
#include <vector>

#include <fmt/format.h>

#include "core/checked_int.hpp"
#include "core/half.hpp"
#include "rules/ops/elementwise_util.hpp"
#include "rules/ops/onnx_elementwise.hpp"
#include "rules/ops/onnx_families.hpp"

namespace irlint {
namespace {

using namespace onnx_elementwise;
using elementwise::Fold;

// ---- shapes ----

// A dim broadcast against 1s is that dim: it keeps its symbol where every input's dim at the place is a 1 or
// that symbol's (the interval merge alone drops it when a dynamic dim meets a 1).
void keep_symbols(const OpContext& ctx, size_t first, size_t count, Shape& out) {
    for (size_t d = 0; d < out.rank(); ++d) {
        uint32_t symbol = 0;
        bool one_symbol = true;
        for (size_t i = first; i < first + count && one_symbol; ++i) {
            if (!ctx.has_input(i) || ctx.shape(i).rank_dynamic) continue;
            const Shape& in = ctx.shape(i);
            if (in.rank() + d < out.rank()) continue;
            const Dim& dim = in.dims[in.rank() - out.rank() + d];
            if (dim == Dim(1)) continue;
            if (dim.symbol() == 0 || (symbol != 0 && dim.symbol() != symbol)) one_symbol = false;
            symbol = dim.symbol();
        }
        if (one_symbol && symbol != 0 && !out.dims[d].is_static()) out.dims[d] = out.dims[d].with_symbol(symbol);
    }
}

// The numpy broadcast of the given inputs (those given; an omitted one takes no part).
std::optional<Shape> broadcast_inputs(OpContext& ctx, size_t first, size_t count) {
    std::optional<Shape> shape;
    for (size_t i = first; i < first + count; ++i) {
        if (!ctx.has_input(i)) continue;
        if (!shape) {
            shape = ctx.shape(i);
            continue;
        }
        std::string error;
        shape = broadcast_shapes(*shape, ctx.shape(i), BroadcastKind::numpy, -1, &error);
        if (!shape) {
            ctx.invalid_input(error);
            return std::nullopt;
        }
    }
    if (shape && !shape->rank_dynamic) keep_symbols(ctx, first, count, *shape);
    return shape;
}

// Opsets 1 to 6: broadcast=0 needs B of A's shape; broadcast=1 places B's dims in A's at `axis` (default:
// A's last dims), each equal or 1. The output is A's shape either way.
std::optional<Shape> legacy_broadcast(OpContext& ctx) {
    const auto broadcast = ctx.attr_int("broadcast", 0);
    const auto axis = ctx.attr_int("axis", -1);
    if (!broadcast || !axis) return std::nullopt;
    const Shape &a = ctx.shape(0), &b = ctx.shape(1);
    std::string error;
    const auto placed = *broadcast == 0 ? broadcast_shapes(a, b, BroadcastKind::none, -1, &error)
                                        : broadcast_shapes(a, b, BroadcastKind::pdpd, *axis, &error);
    if (!placed) {
        ctx.invalid_input(fmt::format("B {} does not fit A {} with broadcast={}{}", b.str(), a.str(), *broadcast,
                                      *broadcast != 0 && *axis != -1 ? fmt::format(", axis={}", *axis) : ""));
        return std::nullopt;
    }
    return placed->rank_dynamic ? a : *placed;
}

// ---- values ----

// Input i's whole-number values read through its broadcast to `out` (numpy's alignment of trailing dims).
std::optional<TensorValue> values_as(const OpContext& ctx, size_t i, const Shape& out) {
    const auto v = whole_values(ctx, i);
    const auto out_dims = elementwise::static_dims(out);
    const auto out_size = elementwise::small_static_size(out);
    if (!v || !out_dims || !out_size) return std::nullopt;
    const auto in_dims = elementwise::static_dims(ctx.shape(i));
    if (!in_dims || in_dims->size() > out_dims->size()) return std::nullopt;
    if (*in_dims == *out_dims) return v;
    TensorValue expanded;
    expanded.reserve(*out_size);
    for (const size_t src : elementwise::numpy_source_indices(*out_dims, *in_dims, *out_size))
        expanded.push_back((*v)[src]);
    return expanded;
}

// What a broadcasting op does to two integer values.
enum class Combine {
    none,
    add,
    subtract,
    multiply,
    divide,
    modulo,
    fmod,
    maximum,
    minimum,
    equal,
    less,
    less_equal,
    greater,
    greater_equal,
    logical_and,
    logical_or,
    logical_xor,
    bitwise_and,
    bitwise_or,
    bitwise_xor
};

bool boolean_result(Combine c) {
    return (c >= Combine::equal && c <= Combine::greater_equal) ||
           (c >= Combine::logical_and && c <= Combine::logical_xor);
}

std::optional<Fold> shared_fold(Combine c) {
    switch (c) {
        case Combine::add:
            return Fold::add;
        case Combine::subtract:
            return Fold::subtract;
        case Combine::multiply:
            return Fold::multiply;
        case Combine::equal:
            return Fold::equal;
        case Combine::less:
            return Fold::less;
        case Combine::less_equal:
            return Fold::less_equal;
        case Combine::greater:
            return Fold::greater;
        case Combine::greater_equal:
            return Fold::greater_equal;
        default:
            return std::nullopt;
    }
}

std::optional<int64_t> exact_int(CheckedInt r) {
    const auto v = r.get();
    if (!v || *v == ValueBounds::kUnbounded) return std::nullopt;
    return v;
}

// Only exact values: the ops below are not monotonic in both arguments (or irlint does not bound them).
std::optional<int64_t> combine_exact(Combine c, int64_t x, int64_t y, bool real) {
    switch (c) {
        case Combine::divide: {
            const auto q = exact_int(CheckedInt(x) / y);
            // A floating-point quotient is a whole number only when the division is exact.
            if (!q || (real && *q * y != x)) return std::nullopt;
            return q;
        }
        case Combine::modulo:
        case Combine::fmod: {
            const auto r = (CheckedInt(x) % y).get();
            if (!r) return std::nullopt;
            // fmod=0 gives the divisor's sign (Python's %), fmod=1 the dividend's (C's fmod).
            if (c == Combine::modulo && *r != 0 && ((*r < 0) != (y < 0))) return *r + y;
            return r;
        }
        case Combine::logical_and:
            return (x != 0 && y != 0) ? 1 : 0;
        case Combine::logical_or:
            return (x != 0 || y != 0) ? 1 : 0;
        case Combine::logical_xor:
            return ((x != 0) != (y != 0)) ? 1 : 0;
        case Combine::bitwise_and:
            return x & y;
        case Combine::bitwise_or:
            return x | y;
        case Combine::bitwise_xor:
            return x ^ y;
        default:
            return std::nullopt;
    }
}

bool exact_value(const ValueBounds& v) { return v.exact() && v.hi != ValueBounds::kUnbounded; }

// Bounds moved by an exact amount (x + k, x - k) or divided by an exact positive one (integer x / k): each is
// monotonic in x, so the bounds map one by one, an unbounded one staying unbounded. Beyond what the shared
// fold bounds (sums and products of non-negative bounds): a dim less one, half a dim.
std::optional<ValueBounds> bounds_by_exact(Combine c, const ValueBounds& a, const ValueBounds& b, bool real) {
    const auto map = [](int64_t x, auto f) -> std::optional<int64_t> {
        return x == ValueBounds::kUnbounded ? std::optional(x) : exact_int(f(CheckedInt(x)));
    };
    std::optional<int64_t> lo, hi;
    if ((c == Combine::add || c == Combine::subtract) && exact_value(b)) {
        const auto move = [&](CheckedInt x) { return c == Combine::add ? x + b.lo : x - b.lo; };
        lo = map(a.lo, move);
        hi = map(a.hi, move);
    } else if (c == Combine::add && exact_value(a)) {
        return bounds_by_exact(c, b, a, real);
    } else if (c == Combine::divide && !real && exact_value(b) && b.lo > 0) {
        lo = map(a.lo, [&](CheckedInt x) { return x / b.lo; });
        hi = map(a.hi, [&](CheckedInt x) { return x / b.lo; });
    }
    if (!lo || !hi || *lo == ValueBounds::kUnbounded) return std::nullopt;
    return ValueBounds{*lo, *hi};
}

std::optional<ValueBounds> combine(Combine c, const ValueBounds& a, const ValueBounds& b, bool real) {
    if (!exact_value(a) || !exact_value(b))
        if (const auto r = bounds_by_exact(c, a, b, real)) return r;
    if (const auto f = shared_fold(c)) return elementwise::fold(*f, a, b, false);
    // Max and Min are monotonic in both arguments: bounds combine bound by bound.
    if (c == Combine::maximum) return ValueBounds{std::max(a.lo, b.lo), std::max(a.hi, b.hi)};
    if (c == Combine::minimum) return ValueBounds{std::min(a.lo, b.lo), std::min(a.hi, b.hi)};
    if (!exact_value(a) || !exact_value(b)) return std::nullopt;
    const auto r = combine_exact(c, a.lo, b.lo, real);
    if (!r) return std::nullopt;
    return ValueBounds{*r, *r};
}

// The values of inputs first..first+count-1 combined left to right, each read through the broadcast.
std::optional<TensorValue> combined_values(const OpContext& ctx, Combine c, const Shape& out, size_t first,
                                           size_t count, std::optional<ElementType> in_type,
                                           std::optional<ElementType> out_type) {
    if (c == Combine::none) return std::nullopt;
    const bool real = elementwise::known(in_type) && is_float_type(*in_type);
    auto acc = values_as(ctx, first, out);
    for (size_t i = first + 1; acc && i < first + count; ++i) {
        const auto next = values_as(ctx, i, out);
        if (!next) return std::nullopt;
        for (size_t k = 0; k < acc->size(); ++k) {
            const auto r = combine(c, (*acc)[k], (*next)[k], real);
            if (!r) return std::nullopt;
            (*acc)[k] = *r;
        }
    }
    // A result the type cannot hold wraps; irlint does not follow it there.
    if (!acc || !holds_values(*acc, out_type)) return std::nullopt;
    return acc;
}

// The floating-point arithmetic whose values irlint follows (elementwise_util.hpp).
std::optional<elementwise::RealBinary> real_binary(Combine c) {
    using R = elementwise::RealBinary;
    switch (c) {
        case Combine::add: return R::add;
        case Combine::subtract: return R::subtract;
        case Combine::multiply: return R::multiply;
        case Combine::divide: return R::divide;
        case Combine::maximum: return R::maximum;
        case Combine::minimum: return R::minimum;
        default: return std::nullopt;
    }
}

// A floating-point result the integer values do not give (a fraction in an operand or in the result): the two
// operands combined in the output's type.
void put_real_values(const OpContext& ctx, Combine c, OpOutput& o) {
    const auto f = real_binary(c);
    if (o.value || !f || !elementwise::known(o.type) || !is_real_type(*o.type)) return;
    if (auto r = elementwise::binary_reals(ctx, *f, 0, 1, o.shape, *o.type))
        elementwise::put_reals(o, std::move(*r), *o.type);
}

// ---- binary ops ----

// The types of Pow's exponent (T1), which need not be the base's.
TypeSet pow_exponent_types(int version) { return version >= 15 ? kNumeric | kBf16 : kNumeric; }

// Mod's fmod is 0 or 1, and 0 (integer modulus) takes integer types only.
bool read_fmod(OpContext& ctx, std::optional<ElementType> type, int64_t* fmod) {
    const auto f = ctx.attr_int("fmod", 0);
    if (!f) return false;
    if (*f != 0 && *f != 1) {
        ctx.invalid_attribute(fmt::format("fmod={} is not 0 or 1", *f));
        return false;
    }
    if (*f == 0 && elementwise::known(type) && is_float_type(*type)) {
        ctx.invalid_attribute(
            fmt::format("fmod=0 (integer modulus) with element type {}; floats need fmod=1", element_type_name(*type)));
        return false;
    }
    *fmod = *f;
    return true;
}

bool check_operand_types(OpContext& ctx, std::optional<ElementType>* type) {
    const TypeSet types = row_of(binary_rows(), ctx).types;
    if (ctx.layer().type == "Pow" && ctx.version() >= 12) {
        *type = ctx.type(0);
        return check_type(ctx, 0, types) && check_type(ctx, 1, pow_exponent_types(ctx.version()));
    }
    return check_same_type(ctx, 0, 1, type) && check_type(ctx, 0, types) && check_type(ctx, 1, types);
}

template <Combine C>
void infer_binary(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(2)) return;
    std::optional<ElementType> type;
    if (!check_operand_types(ctx, &type)) return;
    Combine c = C;
    if (C == Combine::modulo) {
        int64_t fmod = 0;
        if (!read_fmod(ctx, type, &fmod)) return;
        if (fmod == 1) c = Combine::fmod;
    }
    if (ctx.layer().type == "BitShift") {
        static constexpr std::array<std::string_view, 2> kDirections{"LEFT", "RIGHT"};
        if (!ctx.attr_enum("direction", kDirections)) return;
    }
    const bool legacy = ctx.version() < 7;
    const auto shape = legacy ? legacy_broadcast(ctx) : broadcast_inputs(ctx, 0, 2);
    if (!shape) return;
    const std::optional<ElementType> out_type = boolean_result(C) ? std::optional(ElementType::boolean) : type;
    out.push_back(OpOutput{*shape, out_type, {}, {}});
    // A legacy broadcast places B at an axis, which the numpy reading of values does not; equal shapes agree.
    if (!legacy || ctx.shape(0) == ctx.shape(1)) {
        out.back().value = combined_values(ctx, c, *shape, 0, 2, type, out_type);
        put_real_values(ctx, c, out.back());
    }
}

// ---- Sum, Mean, Max, Min ----

template <Combine C>
void infer_variadic(OpContext& ctx, std::vector<OpOutput>& out) {
    const size_t n = ctx.input_count();
    if (n == 0) return ctx.invalid_input("it needs at least one input");
    const TypeSet types = row_of(binary_rows(), ctx).types;
    std::optional<ElementType> type;
    for (size_t i = 0; i < n; ++i)
        if (!check_type(ctx, i, types) || !check_same_type(ctx, 0, i, &type)) return;
    // Before opset 8 every input has the first one's shape, and the output is that shape.
    const auto shape = ctx.version() < 8 ? std::optional(ctx.shape(0)) : broadcast_inputs(ctx, 0, n);
    if (!shape) return;
    out.push_back(OpOutput{*shape, type, combined_values(ctx, C, *shape, 0, n, type, type), {}});
    if (n == 2) put_real_values(ctx, C, out.back());
}

// ---- Where ----

std::optional<TensorValue> selected_values(const OpContext& ctx, const Shape& shape) {
    const auto condition = values_as(ctx, 0, shape);
    const auto x = values_as(ctx, 1, shape);
    const auto y = values_as(ctx, 2, shape);
    if (!condition || !x || !y) return std::nullopt;
    TensorValue out;
    out.reserve(condition->size());
    for (size_t k = 0; k < condition->size(); ++k) {
        const ValueBounds& c = (*condition)[k];
        if (c.exact()) {
            out.push_back(c.lo != 0 ? (*x)[k] : (*y)[k]);
            continue;
        }
        const ValueBounds &a = (*x)[k], &b = (*y)[k];
        out.push_back(ValueBounds{std::min(a.lo, b.lo), std::max(a.hi, b.hi)});
    }
    return out;
}

void infer_where(OpContext& ctx, std::vector<OpOutput>& out) {
    if (!ctx.expect_inputs(3) || !check_type(ctx, 0, kBool)) return;
    const TypeSet types = row_of(binary_rows(), ctx).types;
    std::optional<ElementType> type;
    if (!check_type(ctx, 1, types) || !check_type(ctx, 2, types) || !check_same_type(ctx, 1, 2, &type)) return;
    const auto shape = broadcast_inputs(ctx, 0, 3);
    if (!shape) return;
    out.push_back(OpOutput{*shape, type, selected_values(ctx, *shape), {}});
}

// ---- the table ----

constexpr TypeSet kF = kFloats;
constexpr TypeSet kFB = kFloats | kBf16;
constexpr TypeSet kNumB = kNumeric | kBf16;
constexpr TypeSet kArith6 = kFloats | type_bit(ElementType::i32) | type_bit(ElementType::i64) |
                            type_bit(ElementType::u32) | type_bit(ElementType::u64);

constexpr std::string_view kBroadcast = "shape (numpy broadcast; before opset 7, A's shape), type";
constexpr std::string_view kBroadcastValues =
    "shape (numpy broadcast; before opset 7, A's shape), type, integer values";
constexpr std::string_view kBoolValues =
    "shape (numpy broadcast; before opset 7, A's shape), type (boolean), integer values";
constexpr std::string_view kOneType = "inputs of one type of the version's; shapes broadcast";

const std::vector<Row> kBinaryRows = [] {
    std::vector<Row> rows;
    const auto add = [&](std::string_view op, std::initializer_list<std::pair<int, TypeSet>> versions, OpInferFn f,
                         std::string_view infers, std::string_view checks = kOneType) {
        for (const auto& [since, types] : versions) rows.push_back(Row{op, since, f, types, infers, checks});
    };
    const std::initializer_list<std::pair<int, TypeSet>> arithmetic{
        {1, kF}, {6, kArith6}, {7, kArith6}, {13, kArith6 | kBf16}, {14, kNumB}};
    add("Add", arithmetic, infer_binary<Combine::add>, kBroadcastValues);
    add("Sub", arithmetic, infer_binary<Combine::subtract>, kBroadcastValues);
    add("Mul", arithmetic, infer_binary<Combine::multiply>, kBroadcastValues);
    add("Div", arithmetic, infer_binary<Combine::divide>, kBroadcastValues);
    const TypeSet pow_base = kF | type_bit(ElementType::i32) | type_bit(ElementType::i64);
    add("Pow", {{1, kF}, {7, kF}, {12, pow_base}, {13, pow_base | kBf16}, {15, pow_base | kBf16}},
        infer_binary<Combine::none>, kBroadcast, "base and exponent types of the version's; shapes broadcast");
    add("Mod", {{10, kNumeric}, {13, kNumB}}, infer_binary<Combine::modulo>, kBroadcastValues,
        "fmod 0 or 1, 1 for floating-point types; inputs of one type; shapes broadcast");
    add("BitShift", {{11, kUnsignedInts}}, infer_binary<Combine::none>, kBroadcast,
        "direction LEFT/RIGHT; unsigned inputs of one type; shapes broadcast");
    add("And", {{1, kBool}, {7, kBool}}, infer_binary<Combine::logical_and>, kBoolValues);
    add("Or", {{1, kBool}, {7, kBool}}, infer_binary<Combine::logical_or>, kBoolValues);
    add("Xor", {{1, kBool}, {7, kBool}}, infer_binary<Combine::logical_xor>, kBoolValues);
    const TypeSet equal_types = kBool | type_bit(ElementType::i32) | type_bit(ElementType::i64);
    add("Equal",
        {{1, equal_types},
         {7, equal_types},
         {11, kBool | kNumeric},
         {13, kBool | kNumB},
         {19, kBool | kNumB | kString}},
        infer_binary<Combine::equal>, kBoolValues);
    for (const auto& [op, c] : {std::pair{"Greater", Combine::greater}, std::pair{"Less", Combine::less}}) {
        const OpInferFn f = c == Combine::greater ? infer_binary<Combine::greater> : infer_binary<Combine::less>;
        add(op, {{1, kF}, {7, kF}, {9, kNumeric}, {13, kNumB}}, f, kBoolValues);
    }
    add("GreaterOrEqual", {{12, kNumeric}, {16, kNumB}}, infer_binary<Combine::greater_equal>, kBoolValues);
    add("LessOrEqual", {{12, kNumeric}, {16, kNumB}}, infer_binary<Combine::less_equal>, kBoolValues);
    add("BitwiseAnd", {{18, kInts}}, infer_binary<Combine::bitwise_and>, kBroadcastValues);
    add("BitwiseOr", {{18, kInts}}, infer_binary<Combine::bitwise_or>, kBroadcastValues);
    add("BitwiseXor", {{18, kInts}}, infer_binary<Combine::bitwise_xor>, kBroadcastValues);
    constexpr std::string_view kVariadic = "shape (numpy broadcast from opset 8; before, the first input's), type";
    constexpr std::string_view kVariadicValues =
        "shape (numpy broadcast from opset 8; before, the first input's), type, integer values";
    add("Sum", {{1, kF}, {6, kF}, {8, kF}, {13, kFB}}, infer_variadic<Combine::add>, kVariadicValues);
    add("Mean", {{1, kF}, {6, kF}, {8, kF}, {13, kFB}}, infer_variadic<Combine::none>, kVariadic);
    add("Max", {{1, kF}, {6, kF}, {8, kF}, {12, kNumeric}, {13, kNumB}}, infer_variadic<Combine::maximum>,
        kVariadicValues);
    add("Min", {{1, kF}, {6, kF}, {8, kF}, {12, kNumeric}, {13, kNumB}}, infer_variadic<Combine::minimum>,
        kVariadicValues);
    add("Where", {{9, kAnyType & ~kBf16}, {16, kAnyType}}, infer_where,
        "shape (numpy broadcast of the three), type, values",
        "condition boolean; X and Y of one type; shapes broadcast");
    return rows;
}();

}  // namespace

std::span<const Row> onnx_elementwise::binary_rows() { return kBinaryRows; }

}  // namespace irlint
