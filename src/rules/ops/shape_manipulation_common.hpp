#pragma once
// Helpers the shape manipulation ops share (shape_manipulation_ops.cpp and shape_manipulation_layout_ops.cpp).

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/checked_int.hpp"
#include "core/text.hpp"
#include "rules/ops/op_registry.hpp"
#include "rules/ops/shape_util.hpp"

namespace irlint::shape_ops {

// The layout family's entries (shape_manipulation_layout_ops.cpp); shape_manipulation_ops() merges them.
std::span<const OpEntry> layout_entries();

// A shape from input `input`'s values (bounds become intervals); nullopt when they are unknown.
inline std::optional<Shape> target_from_values(const OpContext& ctx, size_t input) {
    const TensorValue* v = ctx.value(input);
    if (!v || v->size() > kMaxShapeRank) return std::nullopt;
    Shape s;
    for (const ValueBounds& b : *v) s.dims.push_back(value_as_dim(b));
    return s;
}

inline Shape dynamic_dims(size_t rank) {
    Shape s;
    s.dims.assign(rank, Dim::dynamic());
    return s;
}


// The type is known and not an integer type (OpenVINO asks for an integral index/shape input).
inline bool known_non_integer(std::optional<ElementType> t) { return t && !is_integer_type(*t); }

// A rank that may be 0 or 1 (static or not).
inline bool rank_is_0_or_1(const Shape& s) { return s.rank_dynamic || s.rank() <= 1; }

// The exact product of a static shape's dims; nullopt when int64 overflows.
inline std::optional<int64_t> static_element_count(const Shape& s) {
    CheckedInt n = 1;
    for (const Dim& d : s.dims) n = n * d.length();
    return n.get();
}

// A dim as the value bounds ShapeOf gives for it.
inline ValueBounds dim_as_bound(const Dim& d) {
    ValueBounds b{d.min(), d.has_upper_bound() ? d.max() : ValueBounds::kUnbounded};
    if (!d.is_static()) b.symbol = d.symbol();
    return b;
}

// The single exact value of a scalar (or one-element) input; nullopt when unknown, bounded, or not one value.
inline std::optional<int64_t> single_exact(const OpContext& ctx, size_t i) {
    const auto v = ctx.exact_values(i);
    if (!v || v->size() != 1) return std::nullopt;
    return v->front();
}

// ---- Steps ONNX's ops share with OpenVINO's (defined in shape_manipulation_ops.cpp and
// shape_manipulation_layout_ops.cpp).

// The target pattern as OpenVINO reads it from the second input's bounds: dims, and where the -1 is.
struct ReshapePattern {
    std::vector<Dim> dims;
    std::optional<size_t> minus_one;
    std::vector<uint32_t> symbols;  // per target dim: the symbol of the dim its value was taken from, or 0
};
// Reads the pattern from the target's values; nullopt with an input problem (two -1s, a value below -1).
std::optional<ReshapePattern> read_reshape_pattern(OpContext& ctx, const TensorValue& values);
// Input 0 reshaped to the pattern into o.shape (special_zero: a 0 copies the input dim), the -1 resolved.
void reshape_from_pattern(OpContext& ctx, const ReshapePattern& pattern, bool special_zero, OpOutput& o);
// Records an input problem when a static input and a static target hold different element counts.
void check_reshape_elements(OpContext& ctx, const ReshapePattern& pattern, bool special_zero, const Shape& target);
// An unknown target: its length gives the rank. False when the layer is rejected.
bool reshape_without_target(OpContext& ctx, Shape& shape);
// Concatenates the inputs' values along `axis` (row-major) into o, whose shape is the result: their integer
// values when every one has them, else their floating-point values (rules/ops/elementwise_util.hpp).
void concat_values(const OpContext& ctx, size_t axis, OpOutput& o);
// Input i's values into o when o holds the same elements in the same order (Reshape, Squeeze, Unsqueeze,
// Flatten): its integer values, or its floating-point ones.
void keep_values(const OpContext& ctx, size_t i, OpOutput& o);
// The data's (input 0's) values spread over a small static broadcast result, when known.
std::optional<TensorValue> broadcast_value(const OpContext& ctx, const Shape& result, bool trailing_aligned);
// Input 0's known values rearranged into the small static `result` (Transpose, Tile): the element at each
// output index is the data's element at the index `source` gives for it. nullopt when the data's values or
// its dims are not all known.
using SourceIndex = std::function<void(std::span<const int64_t> out_index, std::span<int64_t> data_index)>;
std::optional<TensorValue> rearranged_values(const OpContext& ctx, const Shape& result, const SourceIndex& source);
// The length of Range(start, stop, step), ceil((stop - start) / step) and at least 0; nullopt when it
// overflows int64. step != 0.
std::optional<int64_t> range_length(int64_t start, int64_t stop, int64_t step);

// The output count an op with a count from the file may build: more than this, and irlint does not build them.
inline constexpr int64_t kMaxOutputs = 4096;

}  // namespace irlint::shape_ops
