#pragma once
// What irlint.run and irlint.compare return: RunResult, OutputResult, Comparison, Mismatch, and the mismatch
// map and explanations of the run's own types, as Python classes.

#include <memory>
#include <optional>
#include <vector>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "exec/compare/compare.hpp"
#include "exec/diagnosis/error_detail.hpp"
#include "exec/diagnosis/mismatch_map.hpp"
#include "exec/layer_run.hpp"

namespace irlint::python {

// An element that mismatches: its index, irlint's value and the expected one.
struct Mismatch {
    std::vector<int64_t> index;
    double expected = 0, actual = 0;
};

// irlint.compare's result: the comparison of two arrays under one tolerance.
struct CompareResult {
    std::vector<int64_t> shape;
    ElementType type = ElementType::f32;
    Tolerance tolerance;
    Comparison comparison;
    MismatchMap map;
    std::optional<ErrorDetail> detail;  // with mismatches: where the worst one is
};

// One output of a run: its description and comparison (OutputRun), and the computed array.
struct OutputResult {
    OutputRun run;
    pybind11::array array;
};

struct RunResult {
    std::shared_ptr<const LayerRun> run;  // without its tensors, which the arrays now own
    pybind11::array input;                // the input as the layer took it
    std::vector<OutputResult> outputs;
};

// The first and the worst mismatching element, or nullopt where nothing mismatches.
std::optional<Mismatch> first_mismatch(const Comparison& c, const std::vector<int64_t>& shape);
std::optional<Mismatch> worst_mismatch(const std::optional<ErrorDetail>& detail, const std::vector<int64_t>& shape);

void bind_run_results(pybind11::module_& m);

}  // namespace irlint::python
