#pragma once
// Runs one pooling layer of a model on tensor files or tensors in memory, whatever the model's format: the
// input is checked against the layer's declared input, the kernels compute every output, and each output is
// compared with its expected tensor; a mismatching output gets its map and the conventions that explain it.

#include <optional>
#include <string>
#include <vector>

#include "core/diagnostic.hpp"
#include "exec/compare/compare.hpp"
#include "exec/diagnosis/conventions.hpp"
#include "exec/diagnosis/error_detail.hpp"
#include "exec/diagnosis/mismatch_map.hpp"
#include "exec/kernels/pool_kernels.hpp"
#include "exec/tensor.hpp"
#include "ir/model.hpp"
#include "rules/engine.hpp"

namespace irlint {

// A tensor given in memory (the Python module's arrays) takes the place of its file: the path then only names
// it in messages and reports.
struct RunRequest {
    std::string input_path;
    std::optional<Tensor> input;                  // in memory: used instead of reading input_path
    std::optional<std::string> output_size_path;  // adaptive pools: overrides the Const output_size
    std::optional<Tensor> output_size;            // in memory: used instead of reading output_size_path
    std::vector<std::string> expect_paths;        // per output, in port order; "" or missing: not compared
    std::vector<std::optional<Tensor>> expected;  // per output, in memory: used instead of reading expect_paths[i]
    std::vector<std::string> save_paths;          // per output, in port order; "" or missing: not saved
    std::optional<double> atol, rtol;             // unset: the element type's default
    int threads = 0;
    size_t max_bytes = SIZE_MAX;  // memory budget for the tensors of this run
    bool error_detail = false;    // an output with mismatches gets its ErrorDetail (the HTML report)
    bool keep_tensors = false;    // LayerRun keeps the input as the layer took it and every computed output
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

// What stopped a run (status error): the layer itself, the tensors it was given, or a request asking for
// more outputs than the layer has.
enum class RunFailure { none, layer, data, usage };

struct LayerRun {
    LayerRef layer;
    std::string version;  // "opset8"
    std::string op_name;  // "MaxPool-8"
    RunStatus status = RunStatus::ok;
    std::string error;  // why the layer could not run (status error)
    RunFailure failure = RunFailure::none;
    std::vector<int64_t> input_shape;
    ElementType input_type = ElementType::f32;
    std::string input_path;
    std::vector<OutputRun> outputs;
    std::vector<std::string> warnings;  // the run is right, the file is not: an output declared otherwise
    double milliseconds = 0;            // kernel time
    Tensor input;                       // with RunRequest::keep_tensors: the input as the layer took it
    std::vector<Tensor> computed;       // with RunRequest::keep_tensors: the outputs, in port order
};

// What a model format supplies to `run`: how its layer takes its input and reads tensor files, and what
// its kernels compute. Everything else (the comparison, the mismatch map, the conventions that explain a
// mismatch, the error detail, saving) is run_layer's, the same for every format. One object serves one run.
class RunnableLayer {
public:
    virtual ~RunnableLayer() = default;

    // The checked layer: the report names it, and its declared outputs are held against the computed ones.
    virtual const LayerShapes& shapes() const = 0;
    // "MaxPool-8"; empty for a layer `run` cannot execute.
    virtual std::string op_name() const = 0;
    // Why the layer cannot run at all, or nullopt.
    virtual std::optional<std::string> unusable() const = 0;
    // The outputs it computes and `run` reports, in port order.
    virtual size_t output_count() const = 0;
    // What "... has 2 outputs; more --expect or --save files were given" begins with.
    virtual std::string excess_subject() const { return op_name(); }
    // Whether `run --data DIR` gives it DIR/<id>.in1 as its second input (an adaptive pool's output_size).
    virtual bool takes_output_size() const { return false; }
    // The element type its input must have, where the layer declares one.
    virtual std::optional<ElementType> input_type() const { return std::nullopt; }

    // A tensor file (an input or an expected output), nullopt with *error when it cannot be read.
    virtual std::optional<Tensor> read_tensor(const std::string& path, size_t max_bytes, std::string* error) const;
    // The input as the layer takes it (its element type, its declared shape), or nullopt with *error.
    virtual std::optional<Tensor> take_input(Tensor x, const std::string& path, std::string* error) const = 0;
    // What depends on the input and must hold before the kernels run; the error when it does not.
    virtual std::optional<std::string> prepare(const Tensor& x, const RunRequest& request) = 0;
    // The outputs; `choose` may be passed on to the kernels, or left unasked for whole tensors.
    virtual PoolRunResult compute(const Tensor& x, const KernelOptions& options, const SinkChooser& choose) = 0;
    // The layer as OpenVINO's kernels compute it, for the conventions of other producers; nullopt when none
    // applies (adaptive pools).
    virtual std::optional<LayerSetup> convention_setup(const Tensor& x) const = 0;
};

// Why the request names more --expect or --save files than the `outputs` of `op_name`, or nullopt. An empty
// path names no file (the output is not compared or not saved), so it is never one too many.
std::optional<std::string> excess_files(const RunRequest& request, size_t outputs, std::string_view op_name);

// The last step of a run: a warning for each output the layer declares otherwise than it computed, and
// not_compared for a run that compared nothing.
void finish_run(const LayerShapes& layer, LayerRun& run);

LayerRun run_layer(RunnableLayer& layer, const RunRequest& request);

// Half the physical memory: the budget of a run when none is given (`run --max-memory`).
size_t default_memory_budget();

}  // namespace irlint
