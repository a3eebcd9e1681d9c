#pragma once
// `infer --reshape` on an ONNX model: the graph inputs' dims replaced in a copy of the model, every value_info
// dropped, and the copy inferred again as `check` infers a model (ONNX's shape inference in its child process,
// strict, so that every node it rejects is named; irlint's own inference for the pooling nodes). What the
// new shapes break is what the copy has against it and the model as given has not.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/diagnostic.hpp"
#include "onnx/onnx_check.hpp"
#include "onnx/onnx_model.hpp"
#include "rules/reshape.hpp"

namespace irlint {

struct OnnxReshape {
    std::unique_ptr<OnnxCheck> before;  // the model as given
    std::unique_ptr<OnnxCheck> after;   // the copy with the new input dims
    Diagnostics incompatible;           // reshape-incompatible: the rejections the new dims bring
    size_t changed_nodes = 0;           // nodes whose outputs' dims differ from before
    size_t unknown_nodes = 0;           // nodes whose new outputs the inference cannot tell

    // A node's outputs before the reshape: what the inference gives, else what the file declares.
    std::vector<Shape> outputs_before(size_t node) const;
    std::vector<ReshapeEndpoint> endpoints() const;  // the graph inputs and outputs
};

// The graph inputs (those no initializer feeds), in the graph's order.
std::vector<std::string> onnx_graph_input_names(const OnnxModel& model);

OnnxReshape reshape_onnx(const OnnxModel& model, const NewInputs& new_inputs);

// The reshaped model as a file: the new input dims, and the new dims of the graph outputs and of each value
// the model's value_info describes (a dim the inference leaves open is written without a value). nullopt
// with `error` when a node cannot take its new inputs.
std::optional<std::string> serialize_reshaped_onnx(const OnnxReshape& reshape, std::string& error);

}  // namespace irlint
