#pragma once
// `check` and `infer` on an ONNX model: every AveragePool, MaxPool, GlobalAveragePool and GlobalMaxPool
// node's output shapes and types, inferred under its opset's version, against what the file declares
// (graph outputs and value_info); every other node's outputs as ONNX's own shape inference gives them, run
// in a child process (onnx_isolated_inference.hpp), against the same declarations. Nodes become layers
// (id = index in graph order) so that the IR reporters render them unchanged.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ir/model.hpp"
#include "onnx/onnx_infer_cross.hpp"
#include "onnx/onnx_model.hpp"
#include "onnx/onnx_pool.hpp"
#include "report/report.hpp"
#include "rules/engine.hpp"
#include "rules/model_glance.hpp"

namespace irlint {

struct OnnxPoolNode {
    size_t node = 0;  // index into OnnxModel::nodes and into the layers
    OnnxPoolOp op;
    OnnxPoolSetup setup;
};

struct OnnxCheck {
    OnnxModel onnx;
    Model model;          // graphs[0].layers[i] stands for node i
    ModelReport report;   // layers[i] for node i; pool_op set on the pooling nodes that can run
    std::vector<OnnxPoolNode> pools;

    const OnnxPoolNode* pool_for(size_t node) const;
};

// Checks the model; ONNX's own shape inference checks the other nodes and cross-checks the pooling ones when
// cross_check is set. With LibraryErrors::reported (what check, infer and infer --reshape ask), each node the
// library rejects is an error, attr-invalid or input-invalid (the first of a chain; the nodes after it are
// left unchecked).
std::unique_ptr<OnnxCheck> check_onnx(OnnxModel model, bool cross_check = true,
                                      LibraryErrors errors = LibraryErrors::reported);

// A node by name, else index in graph order, else first output name; nullopt with *error set when none or several match.
std::optional<size_t> find_onnx_node(const OnnxModel& model, const std::string& wanted, std::string* error);

// The model at a glance: IR version, producer, opsets, and the graph's inputs and outputs (as declared, else
// as inferred).
OnnxSummary summarize_onnx(const OnnxCheck& c);

// `check` of one .onnx file.
FileResult check_onnx_file(const std::string& path);

}  // namespace irlint
