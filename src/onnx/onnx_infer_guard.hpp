#pragma once
// What ONNX's shape inference (the C++ library irlint links) must not be given. Its convolution and pooling
// inference trusts the model: it divides by the strides, indexes the attribute lists by the input's rank,
// reads the weight's dims without asking how many there are, and finds the SAME padding by subtracting the
// stride from an input dim one step at a time. Each node of those ops is checked here first; a node that fails
// is taken out of the copy the library infers, so that a hostile model costs a cross-check note, not a crash.

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace onnx {
class GraphProto;
class ModelProto;
class NodeProto;
}  // namespace onnx

namespace irlint {

// A value's dims as its graph gives them (nullopt: a dim without a value).
using FileDims = std::vector<std::optional<int64_t>>;
// The values a graph gives a shape of its own, its inputs and initializers; every other value's shape is
// known only to inference.
using FileShapes = std::map<std::string, FileDims>;
FileShapes file_shapes(const onnx::GraphProto& graph);

// Why the library's inference of `node` could crash, overflow or run long; nullopt when the node is safe or
// not of such an op.
std::optional<std::string> library_hazard(const onnx::NodeProto& node, const FileShapes& shapes);

// Removes every hazardous node from the model's graph and the graphs inside its nodes, and every local
// function that holds one; returns how many nodes and functions it removed.
size_t remove_library_hazards(onnx::ModelProto& model);

}  // namespace irlint
