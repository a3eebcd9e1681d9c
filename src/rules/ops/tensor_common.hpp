#pragma once
// What the tensor family's files share: the infer functions of tensor_slice_ops.cpp that tensor_ops.cpp lists,
// and small checks on inputs.

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "rules/ops/op_context.hpp"

namespace irlint::tensor {

// Records an input problem when input i's element type is known and not an integer type.
bool expect_integral(OpContext& ctx, size_t i, std::string_view name);
// The element count of a static shape, nullopt when it is not static or exceeds `cap`.
std::optional<size_t> small_count(const Shape& s, size_t cap = kMaxValueElements);
// A dim from a value's bounds, as OpenVINO turns a shape-like value into dims (-1 or unbounded: dynamic).
Dim dim_from_value(const ValueBounds& b);

// Per input axis of a known value tensor: which indices an op takes (start, start+step, ... count of them).
struct AxisPick {
    int64_t start = 0;
    int64_t step = 1;
    int64_t count = 0;
};
// The values picked from `data` (shape `dims`, row-major) by one pick per axis.
TensorValue pick_values(const TensorValue& data, std::span<const int64_t> dims, std::span<const AxisPick> picks);

void infer_strided_slice(OpContext& ctx, std::vector<OpOutput>& out);
void infer_slice(OpContext& ctx, std::vector<OpOutput>& out);
void infer_pad(OpContext& ctx, std::vector<OpOutput>& out);
void infer_interpolate(OpContext& ctx, std::vector<OpOutput>& out);

}  // namespace irlint::tensor
