#pragma once
// `run` on an ONNX node with ONNX's semantics: OpenVINO's kernels on the mapped pooling description where
// they give ONNX's windows, then what ONNX computes differently (the count_include_pad divisor of windows
// that reach past the padded border, MaxPool's storage_order=1 column-major indices); the window-by-window
// kernel of onnx_kernel.hpp for the rest. The input array must match a declared graph input.

#include <cstddef>

#include "exec/layer_run.hpp"
#include "onnx/onnx_check.hpp"

namespace irlint {

// request.input_path and expect_paths may be .npy or TensorProto .pb files.
LayerRun run_onnx_node(const OnnxCheck& check, size_t node, const RunRequest& request);

// The post-processing steps on their own, for tests. `pads_begin`/`pads_end` are the effective pads.
void apply_count_include_pad(const PoolingDesc& desc, const std::vector<int64_t>& pads_begin,
                             const std::vector<int64_t>& pads_end, const Tensor& input, Tensor& output);
void to_column_major_indices(const std::vector<int64_t>& input_shape, Tensor& indices);

}  // namespace irlint
