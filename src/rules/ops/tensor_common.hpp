#pragma once
// What the tensor family's files share: the infer functions of tensor_slice_ops.cpp that tensor_ops.cpp lists,
// and small checks on inputs.

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "rules/ops/op_context.hpp"

namespace irlint::tensor {

// Records an input problem when input i's element type is known and not an integer type.
bool expect_integral(OpContext& ctx, size_t i, std::string_view name);

// Per input axis of a known value tensor: which indices an op takes (start, start+step, ... count of them).
struct AxisPick {
    int64_t start = 0;
    int64_t step = 1;
    int64_t count = 0;
};
// The values picked from `data` (shape `dims`, row-major) by one pick per axis.
TensorValue pick_values(const TensorValue& data, std::span<const int64_t> dims, std::span<const AxisPick> picks);

// The gathered values of a known data tensor (static shape, batch dims first), or nullopt when an index is out
// of range (negative ones count from the end when negative_ok).
std::optional<TensorValue> gather_values(const TensorValue& data, const Shape& data_shape,
                                         const std::vector<int64_t>& indices, const Shape& indices_shape, size_t axis,
                                         size_t batch_dims, bool negative_ok);

// Lower and upper bound of one start/stop/pads value.
using Bounds = std::pair<int64_t, int64_t>;
// The indices dim[start:stop:step] takes of a static dim (Python's slice semantics: clamped to the dim).
AxisPick exact_pick(int64_t dim, int64_t start, int64_t stop, int64_t step);
// The sliced dim for start/stop bounds (OpenVINO's slice::make_dim), for dims and bounds that are not exact.
Dim sliced_dim(const Dim& dim, Bounds start, Bounds stop, int64_t step);
// A dim padded by pads known as bounds: the shortest length with the least padding, the longest with the most.
Dim padded_dim(const Dim& d, const Bounds& begin, const Bounds& end);

// The known elements of a small static tensor (row-major, as doubles: exact integer values or floating-point
// ones) and its dims, for the ops whose output dims count them (NonZero, Unique); nullopt when some element is
// unknown or NaN.
struct KnownTensor {
    std::vector<double> values;
    std::vector<int64_t> dims;
};
std::optional<KnownTensor> known_tensor(const OpContext& ctx, size_t i);
// How many elements are not zero.
int64_t nonzero_count(const KnownTensor& t);
// The coordinates of the non-zero elements as NonZero gives them: [rank, count], one row per axis; nullopt
// when they are more than kMaxValueElements.
std::optional<TensorValue> nonzero_coordinates(const KnownTensor& t);
// How many distinct slices along `axis` there are (each element its own slice when axis is nullopt).
int64_t distinct_count(const KnownTensor& t, std::optional<size_t> axis);

void infer_strided_slice(OpContext& ctx, std::vector<OpOutput>& out);
void infer_slice(OpContext& ctx, std::vector<OpOutput>& out);
void infer_pad(OpContext& ctx, std::vector<OpOutput>& out);
void infer_interpolate(OpContext& ctx, std::vector<OpOutput>& out);

}  // namespace irlint::tensor
