#pragma once
// The ONNX adapter: an ONNX model as the one Model the rules engine checks. Each node of the main graph is a
// layer of its op type (graphs[0].layers[i] is node i, so that reports name nodes by their index), followed by
// a Parameter per graph input, a Const per initializer and a Result per graph output; every value name becomes
// an edge from its producer. Attributes become the layer's text attributes as the IR writes them ("1,2,3");
// tensors (initializers, Constant values, tensor attributes) are held inline (Model::tensors) with their small
// data; graph attributes (If, Loop, Scan) and model-local functions become body graphs (Layer::bodies).
// The engine then runs the ONNX entries of the op registry over it (rules/ops/onnx_*.cpp).

#include <memory>
#include <string>

#include "core/diagnostic.hpp"
#include "ir/model.hpp"
#include "onnx/onnx_model.hpp"

namespace irlint {

struct OnnxGraphModel {
    Model model;
    Diagnostics findings;  // what the adapter itself finds: undefined values, unknown opset imports, ...
};

// Builds the Model for `onnx` (whose proto it reads); never throws on a hostile model: what cannot be
// represented becomes a finding.
OnnxGraphModel onnx_graph_model(const OnnxModel& onnx);

}  // namespace irlint
