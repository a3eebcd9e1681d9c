#pragma once
// ONNX's own C++ shape inference (onnx::shape_inference from the same library), run on a copy of the
// model without the declared value shapes, for the cross-check of irlint's inference.

#include <map>
#include <optional>
#include <string>

#include "core/dim.hpp"
#include "onnx/onnx_model.hpp"

namespace irlint {

struct LibraryShapes {
    std::optional<std::string> skipped;  // why there is no inference: a newer opset than the library knows, ...
    std::map<std::string, Shape> shapes;  // value name -> the shape the library infers
};

LibraryShapes library_shape_inference(const OnnxModel& model);

}  // namespace irlint
