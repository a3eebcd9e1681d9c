#pragma once
// ONNX pooling computed window by window, for the nodes OpenVINO's kernels cannot take: a dilated kernel
// longer than the padded input, windows that hold no input element, an output length OpenVINO does not
// give. Where the standard is silent it does what ONNX Runtime's CPU kernels do: a MaxPool window with no
// input element gives the type's lowest value and the index of coordinate -1 on every spatial dim; an
// AveragePool window with nothing to divide by gives 0.

#include <cstddef>

#include "exec/kernels/pool_kernels.hpp"
#include "rules/onnx_pool.hpp"

namespace irlint {

// `shape` is infer_onnx_pool_shape() on the input's shape (no error). Outputs: values, then indices
// for MaxPool-8 and later.
PoolRunResult run_onnx_windows(const OnnxPoolOp& op, const OnnxPoolSetup& setup, const PoolShape& shape,
                               const Tensor& input, size_t max_bytes);

// Element i of a floating or 8-bit tensor set from a double (rounded to the element type).
void store_value(Tensor& t, size_t i, double v);

}  // namespace irlint
