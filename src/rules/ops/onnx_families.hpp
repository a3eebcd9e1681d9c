#pragma once
// ONNX's operators by family, each family's table in its own file (onnx_*_ops.cpp); onnx_ops() joins them.
// An ONNX entry reads the node through the same OpContext as an IR layer's (attributes as the adapter wrote
// them, "1,2,3"; tensor and graph attributes through attr_tensor/attr_graph; an omitted optional input is
// !has_input(i)) and reuses the IR ops' steps (shape_util, the pooling window formula, the Reshape pattern)
// wherever ONNX's semantics are OpenVINO's; where they differ, the entry says how.

#include <span>

#include "rules/ops/op_registry.hpp"

namespace irlint {

std::span<const OpEntry> onnx_elementwise_ops();  // math, activations, logic, comparison, Cast, Where, Softmax, Identity
std::span<const OpEntry> onnx_shape_ops();        // Shape, Reshape, Transpose, Concat, Split, Slice, Gather, Pad, Constant, ...
std::span<const OpEntry> onnx_pool_ops();         // AveragePool, MaxPool, GlobalAveragePool, GlobalMaxPool
std::span<const OpEntry> onnx_nn_ops();           // Conv, LpPool, normalization, Gemm/MatMul, Resize, Reduce, TopK, RNNs
std::span<const OpEntry> onnx_misc_ops();         // quantization, detection, signal, random, strings, losses
std::span<const OpEntry> onnx_control_ops();      // If, Loop, Scan, sequences, optionals
std::span<const OpEntry> onnx_microsoft_ops();    // com.microsoft: ONNX Runtime's contrib operators
std::span<const OpEntry> onnx_ml_ops();           // ai.onnx.ml, ai.onnx.preview, ai.onnx.preview.training

}  // namespace irlint
