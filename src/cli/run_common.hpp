#pragma once
// What `irlint run` does alike for IR and ONNX models: the limits from the command line, the request they
// make, and the exit code of a set of runs.

#include <cstdint>
#include <optional>
#include <vector>

#include "cli/commands.hpp"
#include "exec/layer_run.hpp"

namespace irlint::cli {

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
