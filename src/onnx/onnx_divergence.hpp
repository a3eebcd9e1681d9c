#pragma once
// What other runtimes do with an ONNX pooling node: OpenVINO's ONNX import (which maps MaxPool onto
// MaxPool-1/8 and AveragePool onto AvgPool-1/16), ONNX Runtime's CPU kernels and PyTorch, where they reject
// the node or compute something other than the ONNX standard.
// Each is a `runtime-divergence` warning; docs/onnx.md lists them with the measurements behind them.

#include <optional>
#include <string>
#include <vector>

#include "rules/onnx_pool.hpp"

namespace irlint {

// The node as the divergences need it: its version, attributes, input and whether Indices is used.
struct OnnxPoolUse {
    const OnnxPoolOp& op;
    const OnnxPoolSetup& setup;
    const Shape& input;
    bool indices_used = false;
};

// One message per divergence, naming the runtime and what it does. `onnx_shape` is ONNX's inference on
// the input; a node whose attributes are invalid has only the pads-with-auto_pad divergence.
std::vector<std::string> runtime_divergences(const OnnxPoolUse& use, const PoolShape& onnx_shape);

// Whether some output window along some axis has no tap inside the input (it lies in the padding or
// its dilated taps step over the input): ONNX leaves its value open.
bool has_empty_window(const OnnxPoolSetup& setup, const Shape& input, const PoolShape& onnx_shape);

}  // namespace irlint
