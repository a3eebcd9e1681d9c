#pragma once
// `check` and `infer` on an ONNX model: every node's output dims and element types, inferred by the op
// registry's ONNX entries under the model's opset imports, against what the file declares (graph outputs and
// value_info). Nodes are the Model's first layers (id = index in graph order), so that the IR reporters render
// them unchanged.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ir/model.hpp"
#include "onnx/onnx_model.hpp"
#include "rules/onnx_pool.hpp"
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

// Whether a check keeps the ModelProto (OnnxCheck::onnx.proto) once the Model is made of it: reshape and run
// read it again; a check alone does not.
enum class ProtoAfterAdapting { keep, release };
// Checks the model: the ONNX adapter (onnx_graph.hpp) turns it into a Model and the rules engine runs the
// registry's ONNX entries over it; pooling nodes then get the other runtimes' divergences and their run setup.
std::unique_ptr<OnnxCheck> check_onnx(OnnxModel model, ProtoAfterAdapting proto = ProtoAfterAdapting::keep);

// A node by name, else index in graph order, else first output name; nullopt with *error set when none or several match.
std::optional<size_t> find_onnx_node(const OnnxModel& model, const std::string& wanted, std::string* error);

// The model at a glance: IR version, producer, opsets, and the graph's inputs and outputs (as declared, else
// as inferred).
OnnxSummary summarize_onnx(const OnnxCheck& c);

// `check` of one .onnx file; with keep_until_exit, the model and report are left to the process's exit
// (core/exit_keep.hpp); list_checked_layers fills FileResult's checked_layers and op_types (the JSON and JUnit
// reports and Python read them; the text report does not).
FileResult check_onnx_file(const std::string& path, bool keep_until_exit = false, bool list_checked_layers = true);

}  // namespace irlint
