#pragma once
// What the elementwise family's files share: element type checks as OpenVINO words them, auto_broadcast,
// and the entry tables of the family's other files.

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "rules/ops/op_registry.hpp"
#include "rules/ops/shape_util.hpp"

namespace irlint::elementwise {

// An element type irlint does not know (nullopt or dynamic) passes every check, as OpenVINO's dynamic does.
inline bool known(std::optional<ElementType> t) { return t && *t != ElementType::dynamic; }
inline bool is_bool(ElementType t) { return t == ElementType::boolean; }
inline bool maybe_bool(std::optional<ElementType> t) { return !known(t) || is_bool(*t); }
inline bool maybe_real(std::optional<ElementType> t) { return !known(t) || is_float_type(*t); }
inline bool maybe_integral(std::optional<ElementType> t) { return !known(t) || is_integer_type(*t); }
inline bool maybe_numeric(std::optional<ElementType> t) {
    return !known(t) || is_integer_type(*t) || is_float_type(*t);
}

// OpenVINO's element::Type::merge: an unknown type takes the other; two known types must be equal.
inline bool merge_type(std::optional<ElementType>& acc, std::optional<ElementType> t) {
    if (!known(t)) return true;
    if (!known(acc)) {
        acc = t;
        return true;
    }
    return *acc == *t;
}

// The layer's auto_broadcast (default `fallback`) and, for pdpd, its auto_broadcast_axis (default -1).
struct Broadcast {
    BroadcastKind kind = BroadcastKind::numpy;
    int64_t axis = -1;
};
std::optional<Broadcast> read_broadcast(OpContext& ctx, std::string_view fallback = "numpy");


// Whether a shape may be a scalar / a 1D tensor (OpenVINO's rank().compatible(0 or 1)).
inline bool rank_may_be(const Shape& s, size_t rank) { return s.rank_dynamic || s.rank() == rank; }

// The values an integer element type holds, as [min, max] in int64 (u64 up to int64's max); nullopt for
// the other types.
std::optional<std::pair<int64_t, int64_t>> integer_range(ElementType t);
// Whether every bound of `v` is a value of type `t` (an unknown type holds anything; a non-integer type
// nothing, as irlint folds integers only). An unbounded upper bound stays unbounded in types over 16 bits.
bool fits_type(const TensorValue& v, std::optional<ElementType> t);

// The number of elements of a static shape when it is at most kMaxValueElements.
std::optional<size_t> small_static_size(const Shape& s);

// An axes input (LRN, MVN-6): 1D, of at most rank(data) elements; OpenVINO looks at it only when its shape
// is static. False with the problem recorded.
bool check_axes_shape(OpContext& ctx, const Shape& data, const Shape& axes);

// ---- integer values (elementwise_binary.cpp), shared with ONNX's elementwise ops ----

// A static shape's dims; nullopt when some dim or the rank is dynamic.
std::optional<std::vector<int64_t>> static_dims(const Shape& s);
// For each element of a numpy-broadcast output (out_size elements, at most kMaxValueElements), the index of
// the element of an input of dims `in_dims` it reads.
std::vector<size_t> numpy_source_indices(const std::vector<int64_t>& out_dims, const std::vector<int64_t>& in_dims,
                                         size_t out_size);

// The binary arithmetic and comparisons whose integer values irlint folds.
enum class Fold {
    none,
    add,
    subtract,
    multiply,
    divide,
    mod,
    floor_mod,
    power,
    maximum,
    minimum,
    equal,
    not_equal,
    less,
    less_equal,
    greater,
    greater_equal
};
bool is_comparison(Fold f);
// One output element from two input elements: exact values by the op's integer arithmetic (`pythondiv`: a
// division rounds toward -inf, else toward zero; Mod takes the dividend's sign, FloorMod the divisor's);
// sound bounds (interval arithmetic) where the op is monotonic: Add, Multiply of non-negative bounds, Subtract
// of an exact value, Divide of a non-negative value by an exact positive one, Maximum, Minimum. An operand
// that leaves the other unchanged (x*1, x+0, x-0, x/1) keeps its bounds and symbol, and a dim divided by
// itself is 1, as OpenVINO's symbols do.
std::optional<ValueBounds> fold(Fold f, const ValueBounds& a, const ValueBounds& b, bool pythondiv);

// ---- floating-point values (real_values.cpp), shared with ONNX's elementwise ops ----
// A small floating-point tensor computed from dims (a scale: Cast(Shape) * 0.5) carries its values as doubles,
// each rounded to the tensor's precision after every op; whole numbers its type holds exactly travel as integer
// values instead (OpOutput::value), so that every op that folds integers sees them.

enum class RealBinary { add, subtract, multiply, divide, maximum, minimum };
enum class RealUnary { keep, floor, ceil, round_half_even, round_half_away, negate, absolute, relu, sqrt, reciprocal };

// Input i's values as doubles: its exact integer values, else its floating-point values; nullopt when some is
// unknown.
std::optional<std::vector<double>> input_reals(const OpContext& ctx, size_t i);
// Whether input i's values are known only as floating-point values (some are not whole numbers).
bool carries_fractions(const OpContext& ctx, size_t i);
// x as a value of type t: rounded to f32, f16 or bf16 precision (other types keep x).
double round_to_type(ElementType t, double x);
// `reals` as the values of an output of type t: integers when every one is a whole number t holds exactly,
// else floating-point values; none when one is not finite (a division by zero, say).
void put_reals(OpOutput& out, std::vector<double> reals, ElementType t);
// Inputs a and b combined element by element through numpy broadcasting to `out`, in type t.
std::optional<std::vector<double>> binary_reals(const OpContext& ctx, RealBinary f, size_t a, size_t b,
                                                const Shape& out, ElementType t);
// Input 0's values through f, in type t.
std::optional<std::vector<double>> unary_reals(const OpContext& ctx, RealUnary f, ElementType t);
// Floating-point values (`size` of them) converted to the integer type dest: each truncated toward zero, as
// OpenVINO's Convert and ONNX Runtime's Cast do; nothing when one is not finite or out of dest's range (where
// the conversion saturates or is undefined).
std::optional<TensorValue> truncated_reals(const std::vector<double>& reals, ElementType dest, size_t size);
// Input 0's fractions converted to the floating-point type dest (rounded to its precision); nullopt when dest
// is not one or input 0 carries no fractions.
std::optional<std::vector<double>> converted_reals(const OpContext& ctx, ElementType dest);

std::span<const OpEntry> unary_entries();
std::span<const OpEntry> binary_entries();
std::span<const OpEntry> reduce_entries();

}  // namespace irlint::elementwise
