#pragma once
// ONNX's own C++ shape inference (onnx::shape_inference from the same library), run on a copy of the
// model without the declared value shapes and types, for the check of every node that irlint does not infer
// itself and the cross-check of those it does. In-process: see onnx_isolated_inference.hpp for the way
// `check` runs it.

#include <map>
#include <optional>
#include <string>

#include "core/dim.hpp"
#include "onnx/onnx_model.hpp"

namespace irlint {

// What becomes of the nodes the library rejects. ignored: their outputs are left without a shape (what `check`
// asks: a declaration is compared with what can be inferred). reported: the library runs strict, which still
// infers every node it can and then names each node that failed; `infer --reshape` asks for that.
enum class LibraryErrors { ignored, reported };

struct LibraryShapes {
    std::optional<std::string> skipped;  // why there is no inference: a newer opset than the library knows, ...
    std::map<std::string, Shape> shapes;  // value name -> the shape the library infers
    std::map<std::string, int> elem_types;  // value name -> the TensorProto.DataType it infers (never 0)
    // With LibraryErrors::reported, by index of a node of the main graph: the library's message for each node
    // it rejected, and why each node the guard (onnx_infer_guard.hpp) kept from it was kept out.
    std::map<size_t, std::string> node_errors;
    std::map<size_t, std::string> withheld;
};

LibraryShapes library_shape_inference(const OnnxModel& model, LibraryErrors errors = LibraryErrors::ignored);

}  // namespace irlint
