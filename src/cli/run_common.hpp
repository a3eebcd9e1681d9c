#pragma once
// What `irlint run` does alike for IR and ONNX models: the model as `run` sees it, the limits from the
// command line, the request they make, and the exit code of a set of runs.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/diagnostic.hpp"

#include "cli/commands.hpp"
#include "exec/layer_run.hpp"

namespace irlint::cli {

// The layer --layer names, or why there is none to run.
struct LayerLookup {
    std::unique_ptr<RunnableLayer> layer;
    std::string error;                  // no such layer, or an ambiguous name: a usage error
    std::optional<Diagnostic> refusal;  // the layer exists, but `run` cannot execute it: a finding
};

// How `run --data DIR` names the files of a layer: DIR/<id>.in0.npy, in the words of the format.
struct DataNaming {
    std::string key;                      // what <id> is: "layer-id"
    std::string unit;                     // "layer"
    std::vector<std::string> extensions;  // the tensor files looked for, in this order
};

// A checked model as `run` sees it, whatever its format: the format finds the layers, running them and
// reporting the runs is the same for all (cli/run.cpp).
class RunModel {
public:
    virtual ~RunModel() = default;
    virtual LayerLookup find(const std::string& wanted) const = 0;
    // The layers --data DIR looks for, in model order.
    virtual std::vector<std::unique_ptr<RunnableLayer>> runnable_layers() const = 0;
    virtual DataNaming data_naming() const = 0;
};

struct RunLimits {
    size_t max_bytes = SIZE_MAX;
    std::optional<double> atol, rtol;
};

RunRequest request_for(const RunOptions& o, const RunLimits& limits);

// 1 when a run mismatched or could not run, else 0 (ok and not-compared).
int status_exit(const std::vector<LayerRun>& runs);

// Writes the HTML report of `run --report FILE` atomically when one is asked for. Returns `status`, or 2
// when the file cannot be written.
int write_run_report(const RunOptions& o, const std::vector<LayerRun>& runs, int status);

}  // namespace irlint::cli
