#pragma once
// Steps the ops with bodies share: OpenVINO's TensorIterator/Loop/If (subgraph_ops.cpp) and ONNX's Loop and
// Scan (onnx_control_ops.cpp).

#include "core/dim.hpp"

namespace irlint {

// `fed` (what a body was given for a value it hands back) with the dims in which `back` (what it hands back)
// disagrees made dynamic; a dynamic rank when the ranks differ.
Shape relaxed(const Shape& fed, const Shape& back);

}  // namespace irlint
