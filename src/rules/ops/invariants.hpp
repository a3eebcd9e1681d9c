#pragma once
// What holds of an op's outputs whatever the value it lacks (OpContext::invariant): each function gives the
// invariant of one kind of op, worded for its finding. Each is true for every value OpenVINO accepts; a
// declared dim that is dynamic, or an input dim that is, satisfies whatever it may satisfy.

#include <cstddef>
#include <cstdint>
#include <string>

#include "rules/ops/op_context.hpp"

namespace irlint::invariants {

// The inferred outputs hold all that is known: their ranks and bounds are what holds whatever the value (a
// slice's dims at most the input's, TopK's k at most its dim, Range's one dim); the engine compares them.
Invariant inferred_bounds();
// Reshape: the output has the input's element count (when both are static).
Invariant same_element_count(std::string op, Shape input);
// Transpose: the output dims are the input's in some order.
Invariant permutation_of(std::string op, Shape input);
// Unsqueeze: the input dims in order, with 1 to `most` dims of 1 inserted.
Invariant ones_inserted(std::string op, Shape input, size_t most);
// Squeeze (only_ones) or a reduction without keep_dims: the input dims in order, some left out (of 1 only).
Invariant dims_left_out(std::string op, Shape input, bool only_ones);
// A reduction with keep_dims: each dim is the input's, or 1.
Invariant dims_kept_or_one(std::string op, Shape input);
// A slice: the input's rank, and no dim larger than the input's.
Invariant no_dim_grows(std::string op, Shape input, size_t output = 0);
// Gather: data dims before the axis, the indices' dims after batch_dims, data dims after the axis, for some
// axis at or after batch_dims.
Invariant gather_on_some_axis(std::string op, Shape data, Shape indices, int64_t batch_dims);
// The input's dims except at `axis` (TopK's k; `at_most`: the dim there is at most the input's).
Invariant dims_kept_but(std::string op, Shape input, size_t axis, bool at_most, size_t output = 0);
// Interpolate on axes not known, `changed` of them: the input's rank, and its dims but at most `changed`.
Invariant dims_kept_but_some(std::string op, Shape input, size_t changed);
// Broadcast numpy/bidirectional: the input aligned right, each input dim other than 1 kept.
Invariant numpy_broadcast_of(std::string op, Shape input);
// Tile: the input aligned right, each output dim a multiple of the input's.
Invariant multiples_of(std::string op, Shape input);
// PriorBox: output 0's dim `axis` is a multiple of `factor` (`what` says which product it is).
Invariant dim_multiple_of(std::string op, size_t axis, int64_t factor, std::string what);
// Split/VariadicSplit along `axis`: every other dim kept, the outputs' dims on the axis add up to the input's.
Invariant split_along(std::string op, Shape input, size_t axis, size_t outputs);
// The same along some axis (Split's axis unknown).
Invariant split_along_some_axis(std::string op, Shape input, size_t outputs);

}  // namespace irlint::invariants
