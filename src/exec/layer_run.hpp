#pragma once
// Runs one pooling layer of a model on .npy data: the inputs are checked against the layer's declared
// input port, the kernels compute every output, and each output is compared with its expected tensor.

#include <optional>
#include <string>
#include <vector>

#include "core/diagnostic.hpp"
#include "exec/compare/compare.hpp"
#include "exec/diagnosis/conventions.hpp"
#include "exec/diagnosis/error_detail.hpp"
#include "exec/diagnosis/mismatch_map.hpp"
#include "exec/tensor.hpp"
#include "ir/model.hpp"
#include "rules/engine.hpp"

namespace irlint {

struct RunRequest {
    std::string input_path;
    std::optional<std::string> output_size_path;  // adaptive pools: overrides the Const output_size
    std::vector<std::string> expect_paths;        // per output, in port order; "" or missing: not compared
    std::vector<std::string> save_paths;          // per output, in port order; "" or missing: not saved
    std::optional<double> atol, rtol;             // unset: the element type's default
    int threads = 0;
    size_t max_bytes = SIZE_MAX;  // memory budget for the tensors of this run
    bool error_detail = false;    // an output with mismatches gets its ErrorDetail (the HTML report)
};

struct OutputRun {
    size_t index = 0;
    std::string role;  // "values" or "indices"
    std::vector<int64_t> shape;
    ElementType type = ElementType::f32;
    std::string expect_path;  // empty: not compared
    std::string saved_path;
    Tolerance tolerance;
    Comparison comparison;
    std::optional<MismatchMap> map;         // compared element by element: where the mismatches are
    std::vector<Explanation> explanations;  // mismatching: the conventions under which the expected data matches
    bool diagnosed = false;                 // the conventions were tried (AvgPool / MaxPool, same element type)
    std::optional<ErrorDetail> detail;      // with RunRequest::error_detail, for an output with mismatches
    bool compared() const { return !expect_path.empty() && comparison.compared(); }
};

// not_compared: the layer ran, but no output had an expected tensor to be compared with.
enum class RunStatus { ok, mismatch, error, not_compared };
std::string_view run_status_name(RunStatus s);

struct LayerRun {
    LayerRef layer;
    std::string version;  // "opset8"
    std::string op_name;  // "MaxPool-8"
    RunStatus status = RunStatus::ok;
    std::string error;  // why the layer could not run (status error)
    std::vector<int64_t> input_shape;
    ElementType input_type = ElementType::f32;
    std::string input_path;
    std::vector<OutputRun> outputs;
    std::vector<std::string> warnings;  // the run is right, the file is not: an output declared otherwise
    double milliseconds = 0;            // kernel time
};

// The layers `run` can execute: pooling layers the rule engine recognised.
bool is_runnable(const LayerShapes& layer);

// The outputs a runnable layer has, in port order: the values, then the indices where the op computes them
// (MaxPool-8/14, AdaptiveMaxPool) and the layer declares their port. `run` reports and compares these only.
size_t layer_output_count(const LayerShapes& layer);

// Why the request names more --expect or --save files than the `outputs` of `op_name`, or nullopt. An empty
// path names no file (the output is not compared or not saved), so it is never one too many.
std::optional<std::string> excess_files(const RunRequest& request, size_t outputs, std::string_view op_name);

// Steps shared by the IR and ONNX runners: an output's description with the request's tolerance, and
// recording it (a mismatch turns an ok run into a mismatch).
OutputRun output_run(size_t index, ElementType type, const std::vector<int64_t>& shape, const RunRequest& request);
void add_output(LayerRun& run, OutputRun output);
// Where the compared output's mismatches are (a second pass over the data only when there are any).
MismatchMap mismatch_map(const Tensor& computed, const Tensor& expected, const OutputRun& compared);
// The ErrorDetail of a compared output when the request asks for it and the output has mismatches.
void add_error_detail(const Tensor& computed, const Tensor& expected, const RunRequest& request, OutputRun& o);

// The last step of both runners: a warning for each output the layer declares otherwise than it computed,
// and not_compared for a run that compared nothing.
void finish_run(const LayerShapes& layer, LayerRun& run);

LayerRun run_layer(const LayerShapes& layer, const RunRequest& request);

}  // namespace irlint
