#pragma once
// Plain loops for the conventions of other producers that are different arithmetic rather than a different
// pooling description: how the AvgPool divisor treats the padding, where f16/bf16 sums are rounded, what a
// MaxPool window starts from and whether a NaN wins. They visit every output element and every kernel tap,
// take their shapes and pads from infer_pool_shape(), and run only to explain a mismatch.

#include <string_view>

#include "exec/kernels/pool_kernels.hpp"

namespace irlint {

enum class Arithmetic {
    openvino,              // OpenVINO's reference: the kernels of pool_kernels.hpp
    avg_divisor_clipped,   // padding counts in the divisor, but only up to the padded border
    avg_f32_accumulation,  // f16/bf16 windows summed and divided in f32, rounded once
    max_neg_inf_start,     // MaxPool windows start at -inf instead of the element type's lowest()
    max_nan_propagates,    // a NaN in a MaxPool window is its maximum
};

// AvgPool (avg_* arithmetic) or MaxPool (max_* arithmetic) computed the other way; the outputs are those
// run_pool() would give (values, then indices). `openvino` runs run_pool() itself.
PoolRunResult run_pool_with(Arithmetic arithmetic, const PoolOp& op, const PoolingDesc& desc, const Tensor& input,
                            const KernelOptions& options = {});

}  // namespace irlint
