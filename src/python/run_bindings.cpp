// irlint.run and irlint.compare: `irlint run` on arrays instead of .npy files. The model is read and checked,
// the layer found and run, and the outputs compared as the command does it (exec/layer_run.hpp), with the
// GIL released; the arrays go in and come out without copies where their dtype and layout allow
// (arrays.hpp). What makes the command fail raises the exception of its kind with the message the command
// prints: text from the model made printable.

#include <fmt/format.h>
#include <pybind11/stl.h>

#include "core/text.hpp"
#include "exec/diagnosis/error_detail.hpp"
#include "exec/io/npy.hpp"
#include "exec/kernels/kernel_support.hpp"
#include "exec/ir_layer.hpp"
#include "pipeline/check_run.hpp"
#include "python/arrays.hpp"
#include "python/bindings.hpp"
#include "python/checks.hpp"
#include "python/errors.hpp"
#include "python/run_results.hpp"
#ifdef IRLINT_PYTHON_ONNX
#include "onnx/onnx_check.hpp"
#include "onnx/onnx_run.hpp"
#endif

namespace irlint::python {

namespace py = pybind11;

namespace {

// A message as `irlint run` prints it: the model's names and paths escaped where they hold control characters.
std::string printed(const std::string& message) { return printable(message, kPrintedMessageChars); }

// A model read and checked; the report points into the model.
struct CheckedIr {
    std::shared_ptr<Model> model;
    ModelReport report;
};

// The layer to run and the checked model it points into.
struct LayerToRun {
    std::shared_ptr<const void> model;
    std::unique_ptr<RunnableLayer> layer;
};

LayerToRun ir_layer_to_run(const std::string& path, const std::string& layer) {
    auto checked = std::make_shared<CheckedIr>();
    checked->model = read_ir_or_raise(path);
    checked->report = check_model(*checked->model);
    std::string error;
    const LayerShapes* found = find_layer_to_run(checked->report, layer, &error);
    if (!found) throw UsageError(printed(fmt::format("{}: {}", path, error)));
    if (auto why = not_runnable(*found)) throw UsageError(printed(fmt::format("{}: {}", path, *why)));
    return {checked, ir_layer(*found)};
}

// An ONNX node by name, index or first output, as `irlint run --layer` finds it.
LayerToRun onnx_layer_to_run(const std::string& path, const std::string& layer) {
#ifdef IRLINT_PYTHON_ONNX
    std::shared_ptr<const OnnxCheck> checked = checked_onnx(path);
    std::string error;
    const auto node = find_onnx_node(checked->onnx, layer, &error);
    if (!node) throw UsageError(printed(fmt::format("{}: {}", path, error)));
    return {checked, onnx_layer(*checked, *node)};
#else
    (void)layer;
    throw ModelError(printed(fmt::format("{}: {}", path, kNoOnnxSupport)));
#endif
}

LayerToRun layer_to_run(const std::string& path, const std::string& layer) {
    return names_onnx_model(path) ? onnx_layer_to_run(path, layer) : ir_layer_to_run(path, layer);
}

std::string path_of(const py::object& path) { return py::module_::import("os").attr("fspath")(path).cast<std::string>(); }

py::array as_array(const py::handle& value) { return py::module_::import("numpy").attr("asarray")(value); }

// `inputs`: one array, or a list of the data and an adaptive pool's output_size.
std::vector<py::array> input_arrays(const py::object& inputs) {
    std::vector<py::array> arrays;
    if (py::isinstance<py::list>(inputs) || py::isinstance<py::tuple>(inputs)) {
        for (const py::handle& item : inputs) arrays.push_back(as_array(item));
    } else {
        arrays.push_back(as_array(inputs));
    }
    if (arrays.empty()) throw UsageError("give the input: an array");
    if (arrays.size() > 2) throw UsageError("at most two inputs: the data, and an adaptive pool's output_size");
    return arrays;
}

// The input tensor: a uint16 array holds bf16 bits where the layer takes bf16 (f32 data is rounded by the run).
Tensor input_tensor(const py::array& array, const RunnableLayer& layer) {
    Tensor x = tensor_of(array, "input");
    if (layer.input_type() == ElementType::bf16 && x.type() == ElementType::u16) return x.retyped(ElementType::bf16);
    return x;
}

void add_expected(RunRequest& request, const py::object& expect) {
    if (expect.is_none()) return;
    std::vector<py::object> entries;
    if (py::isinstance<py::list>(expect) || py::isinstance<py::tuple>(expect)) {
        for (const py::handle& item : expect) entries.push_back(py::reinterpret_borrow<py::object>(item));
    } else {
        entries.push_back(expect);
    }
    for (size_t i = 0; i < entries.size(); ++i) {
        const bool given = !entries[i].is_none();
        const std::string label = fmt::format("expect[{}]", i);
        request.expect_paths.push_back(given ? label : "");
        request.expected.push_back(given ? std::optional<Tensor>(tensor_of(as_array(entries[i]), label)) : std::nullopt);
    }
}

void check_tolerance(const char* name, const std::optional<double>& value) {
    if (value && !(*value >= 0)) throw UsageError(fmt::format("{} must be a non-negative number, not {}", name, *value));
}

int thread_count(const std::optional<int>& threads) {
    if (threads && (*threads < 0 || *threads > 1024))
        throw UsageError(fmt::format("threads must be 0 (every hardware thread) to 1024, not {}", *threads));
    return threads.value_or(0);
}

[[noreturn]] void raise_run_error(const LayerRun& run) {
    switch (run.failure) {
        case RunFailure::layer:
            throw ModelError(printed(run.error));
        case RunFailure::usage:
            throw UsageError(printed(run.error));
        default:
            throw DataError(printed(run.error));
    }
}

RunResult result_of(LayerRun run) {
    RunResult result;
    result.input = array_of(std::move(run.input));
    for (size_t i = 0; i < run.outputs.size(); ++i) {
        py::array array = i < run.computed.size() ? array_of(std::move(run.computed[i])) : py::array();
        result.outputs.push_back({run.outputs[i], std::move(array)});
    }
    run.computed.clear();
    result.run = std::make_shared<const LayerRun>(std::move(run));
    return result;
}

RunResult run(const py::object& model, const std::string& layer, const py::object& inputs, const py::object& expect,
              const py::object& output_size, std::optional<double> atol, std::optional<double> rtol,
              std::optional<int> threads) {
    const std::string path = path_of(model);
    check_tolerance("atol", atol);
    check_tolerance("rtol", rtol);
    RunRequest request;
    request.threads = thread_count(threads);
    request.atol = atol;
    request.rtol = rtol;
    request.max_bytes = default_memory_budget();
    request.error_detail = true;
    request.keep_tensors = true;
    const std::vector<py::array> arrays = input_arrays(inputs);
    if (arrays.size() > 1 && !output_size.is_none())
        throw UsageError("give output_size once: as the second input or as output_size=");
    const py::object size = arrays.size() > 1 ? py::object(arrays[1]) : output_size;

    LayerToRun to_run;
    {
        py::gil_scoped_release nogil;
        to_run = layer_to_run(path, layer);
    }
    const std::unique_ptr<RunnableLayer>& runnable = to_run.layer;
    request.input_path = "input";
    request.input = input_tensor(arrays[0], *runnable);
    if (!size.is_none()) {
        request.output_size_path = "output_size";
        request.output_size = tensor_of(as_array(size), "output_size");
    }
    add_expected(request, expect);

    LayerRun ran;
    {
        py::gil_scoped_release nogil;
        ran = run_layer(*runnable, request);
    }
    if (ran.status == RunStatus::error) raise_run_error(ran);
    return result_of(std::move(ran));
}

// dtype="bf16": uint16 arrays hold bf16 bits, f32 arrays are rounded to bf16.
Tensor compared_tensor(const py::object& value, const std::string& label, const std::optional<std::string>& dtype) {
    Tensor t = tensor_of(as_array(value), label);
    if (!dtype) return t;
    if (*dtype != "bf16") throw UsageError(fmt::format("dtype='{}': only 'bf16' is given as a dtype", *dtype));
    if (t.type() == ElementType::u16) return t.retyped(ElementType::bf16);
    if (t.type() == ElementType::f32) return convert_f32_to_bf16(t);
    throw DataError(fmt::format("{}: bf16 data is uint16 (its bits) or float32 (rounded), not {}", label,
                                element_type_name(t.type())));
}

CompareResult compare(const py::object& actual, const py::object& expected, std::optional<double> atol,
                      std::optional<double> rtol, std::optional<int> threads, const std::optional<std::string>& dtype) {
    check_tolerance("atol", atol);
    check_tolerance("rtol", rtol);
    const int thread_setting = thread_count(threads);
    const Tensor a = compared_tensor(actual, "actual", dtype);
    const Tensor e = compared_tensor(expected, "expected", dtype);
    CompareResult result;
    result.shape = a.shape();
    result.type = a.type();
    const Tolerance defaults = default_tolerance(a.type());
    result.tolerance = {atol.value_or(defaults.atol), rtol.value_or(defaults.rtol)};
    {
        py::gil_scoped_release nogil;
        result.comparison = compare_tensors(a, e, result.tolerance, kernels::resolve_threads(thread_setting));
        if (result.comparison.compared()) {
            MismatchMapBuilder map(a.shape());
            if (result.comparison.mismatches > 0) {
                for_each_mismatch(a, e, result.tolerance, [&map](size_t i) { map.add(i); });
                result.detail = error_detail(a, e, result.tolerance);
            }
            result.map = std::move(map).map();
        }
    }
    if (!result.comparison.compared()) throw DataError(result.comparison.problem);
    return result;
}

}  // namespace

void bind_run(py::module_& m) {
    bind_run_results(m);
    m.def("run", &run, py::arg("model"), py::arg("layer"), py::arg("inputs"), py::kw_only(), py::arg("expect") = py::none(),
          py::arg("output_size") = py::none(), py::arg("atol") = py::none(), py::arg("rtol") = py::none(),
          py::arg("threads") = py::none(),
          R"(Runs one pooling layer of an IR or ONNX model on an array, as `irlint run` does.

model: path of the IR .xml or the .onnx model; layer: its id or name (ONNX: name, index or first output); inputs: the input array, or [input, output_size] for an
adaptive pool; expect: the expected array, or a list per output (values, indices) with None for an output not
compared; atol, rtol: the tolerance (default by dtype); threads: kernel threads (0 or None: all).
Returns a RunResult. Raises UsageError, ModelError or DataError with the messages `irlint run` prints.)");
    m.def("compare", &compare, py::arg("actual"), py::arg("expected"), py::kw_only(), py::arg("atol") = py::none(),
          py::arg("rtol") = py::none(), py::arg("threads") = py::none(), py::arg("dtype") = py::none(),
          R"(Compares two arrays as `irlint run` compares an output with its expected data:
|actual - expected| <= atol + rtol * |expected|, NaN equal to NaN, defaults by dtype. dtype='bf16' reads
uint16 arrays as bf16 bits and rounds float32 arrays to bf16. Returns a Comparison; raises DataError when the
shapes or dtypes differ.)");
}

}  // namespace irlint::python
