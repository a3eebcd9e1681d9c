#pragma once
// What an ONNX node supplies to `run` (exec/layer_run.hpp), with ONNX's semantics: OpenVINO's kernels on
// the mapped pooling description where they give ONNX's windows, then what ONNX computes differently (the
// count_include_pad divisor of windows that reach past the padded border, MaxPool's storage_order=1
// column-major indices); the window-by-window kernel of onnx_kernel.hpp for the rest. The input array must
// match a declared graph input.

#include <cstddef>
#include <memory>

#include "exec/layer_run.hpp"
#include "onnx/onnx_check.hpp"

namespace irlint {

// Node `node` of the checked model as `run` executes it; it refers to `check`, which must outlive it.
// Its input and expected tensors may be .npy or TensorProto .pb files.
std::unique_ptr<RunnableLayer> onnx_layer(const OnnxCheck& check, size_t node);
LayerRun run_onnx_node(const OnnxCheck& check, size_t node, const RunRequest& request);

// The post-processing steps on their own, for tests. `pads_begin`/`pads_end` are the effective pads.
void apply_count_include_pad(const PoolingDesc& desc, const std::vector<int64_t>& pads_begin,
                             const std::vector<int64_t>& pads_end, const Tensor& input, Tensor& output);
void to_column_major_indices(const std::vector<int64_t>& input_shape, Tensor& indices);

}  // namespace irlint
