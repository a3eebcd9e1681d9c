#pragma once
// ONNX's own C++ shape inference (onnx::shape_inference from the same library), strict and with data
// propagation, run on a copy of the model without the declared value shapes and types, for the check of every node that irlint does not infer
// itself and the cross-check of those it does. In-process: see onnx_isolated_inference.hpp for the way
// `check` runs it.

#include <map>
#include <optional>
#include <string>

#include "core/dim.hpp"
#include "onnx/onnx_model.hpp"

namespace irlint {

struct LibraryShapes {
    std::optional<std::string> skipped;  // why there is no inference: a newer opset than the library knows, ...
    std::map<std::string, Shape> shapes;  // value name -> the shape the library infers
    std::map<std::string, int> elem_types;  // value name -> the TensorProto.DataType it infers (never 0)
    std::map<size_t, std::string> rejected;  // node index -> the library's reason for rejecting the node
};

LibraryShapes library_shape_inference(const OnnxModel& model);

}  // namespace irlint
