// irlint.shape: `irlint shape --op` (rules/shape_query.hpp) with Python arguments, its answer as a ShapeResult.

#include <pybind11/stl.h>

#include <fmt/format.h>

#include "core/text.hpp"
#include "python/bindings.hpp"
#include "python/checks.hpp"
#include "python/errors.hpp"
#include "rules/ops/op_registry.hpp"
#include "rules/shape_query.hpp"

namespace py = pybind11;

namespace irlint::python {

namespace {

// A dims list [1, 3, "2..10", -1] as the command line spells it: "1,3,2..10,-1".
std::string dims_text(const py::handle& dims) {
    if (py::isinstance<py::str>(dims)) return dims.cast<std::string>();
    std::string out;
    for (const auto& d : dims) {
        if (!out.empty()) out += ',';
        out += py::str(d).cast<std::string>();
    }
    return out;
}

// "DIMS", [dims...] or (DIMS or [dims...], "type") into "DIMS[:TYPE]".
std::string input_text(const py::handle& input) {
    if (py::isinstance<py::tuple>(input)) {
        const auto pair = input.cast<py::tuple>();
        if (pair.size() != 2) throw py::value_error("an input is DIMS, a list of dims, or a (dims, element type) pair");
        return dims_text(pair[0]) + ":" + pair[1].cast<std::string>();
    }
    return dims_text(input);
}

// An attribute's value as the IR writes it: a list as "3,3", a bool as true/false.
std::string attr_value(const py::handle& value) {
    if (py::isinstance<py::bool_>(value)) return value.cast<bool>() ? "true" : "false";
    if (py::isinstance<py::str>(value)) return value.cast<std::string>();
    if (py::isinstance<py::int_>(value) || py::isinstance<py::float_>(value)) return py::str(value).cast<std::string>();
    return dims_text(value);
}

ShapeQuery query_for(const std::string& op, const py::list& inputs, std::optional<int> opset, const py::object& attrs,
                     const py::object& values, const py::object& output_size, const std::optional<std::string>& domain) {
    ShapeQuery q;
    q.op = op;
    q.opset = opset.value_or(0);
    q.domain = domain;
    if (domain && !newest_opset_known(*domain))
        raise_usage_error(fmt::format("domain: '{}' is not ai.onnx, com.microsoft, ai.onnx.ml, ai.onnx.preview or "
                                      "ai.onnx.preview.training", printable(*domain)));
    const int newest = domain ? kNewestOnnxOpset : kNewestOpset;
    if (q.opset < 0 || q.opset > newest) raise_usage_error(fmt::format("opset: {} not in [1 - {}]", q.opset, newest));
    for (const auto& input : inputs) q.inputs.push_back(input_text(input));
    if (q.inputs.empty()) raise_usage_error("inputs: give at least one input");
    if (!attrs.is_none())
        for (const auto& [key, value] : attrs.cast<py::dict>())
            q.attrs.push_back(py::str(key).cast<std::string>() + "=" + attr_value(value));
    if (!values.is_none())
        for (const auto& [index, value] : values.cast<py::dict>())
            q.values.push_back(py::str(index).cast<std::string>() + "=" + dims_text(value));
    if (!output_size.is_none()) q.output_size = dims_text(output_size);
    return q;
}

struct ShapeResult {
    ShapeAnswer answer;
};

ShapeResult shape(const std::string& op, const py::list& inputs, std::optional<int> opset, const py::object& attrs,
                  const py::object& values, const py::object& output_size, const std::optional<std::string>& domain) {
    const ShapeQuery query = query_for(op, inputs, opset, attrs, values, output_size, domain);
    ShapeResult result;
    {
        py::gil_scoped_release release;
        result.answer = answer_shape(query);
    }
    if (result.answer.status == ShapeAnswer::Status::usage) raise_usage_error(result.answer.usage_error);
    return result;
}

}  // namespace

void bind_shape(py::module_& m) {
    py::class_<ShapeResult>(m, "ShapeResult",
                            "What irlint.shape inferred: the outputs' dims and element types, or the findings that "
                            "say why OpenVINO would reject the layer (ok is False).")
        .def_property_readonly("ok", [](const ShapeResult& r) { return r.answer.status == ShapeAnswer::Status::ok; },
                               "True when the layer is valid; False when OpenVINO would reject it (see findings).")
        .def_property_readonly("label", [](const ShapeResult& r) { return r.answer.label; }, "The op version, e.g. 'MaxPool-14'.")
        .def_property_readonly("outputs", [](const ShapeResult& r) {
            py::list out;
            for (const ShapeOutput& o : r.answer.outputs) out.append(dims_object(o.shape));
            return out;
        }, "Each output's dims: an int per static dim, -1 dynamic, 'lo..hi' an interval; None for a dynamic rank.")
        .def_property_readonly("types", [](const ShapeResult& r) {
            py::list out;
            for (const ShapeOutput& o : r.answer.outputs)
                out.append(o.type ? py::object(py::str(std::string(element_type_name(*o.type)))) : py::none());
            return out;
        }, "Each output's element type ('f32', 'i64', ...), or None when the op does not say.")
        .def_property_readonly("notes", [](const ShapeResult& r) {
            std::vector<std::vector<std::string>> out;
            for (const ShapeOutput& o : r.answer.outputs) out.push_back(o.dim_notes);
            return out;
        }, "Per output, the arithmetic of each dim (may be empty).")
        .def_property_readonly("formulas", [](const ShapeResult& r) { return r.answer.axis_formulas; },
                               "Pooling ops: the arithmetic of each spatial axis.")
        .def_property_readonly("pads_begin", [](const ShapeResult& r) { return r.answer.pads_begin; },
                               "Pooling ops: the effective pads after auto_pad.")
        .def_property_readonly("pads_end", [](const ShapeResult& r) { return r.answer.pads_end; },
                               "Pooling ops: the effective pads after auto_pad.")
        .def_property_readonly("unknown", [](const ShapeResult& r) {
            return r.answer.unknown ? py::object(model_text(*r.answer.unknown)) : py::none();
        },
                               "A value the op needed and was not given (give it with values=), or None.")
        .def_property_readonly("findings", [](const ShapeResult& r) {
            std::vector<Finding> out;
            for (const Diagnostic& d : r.answer.findings) out.push_back({"", d});
            return out;
        }, "Why OpenVINO would reject the layer, as `check` would report it (warnings about attributes too).")
        .def("__repr__", [](const ShapeResult& r) {
            std::string outputs;
            for (const ShapeOutput& o : r.answer.outputs) {
                if (!outputs.empty()) outputs += ' ';
                outputs += o.shape.str();
            }
            return fmt::format("<irlint.ShapeResult {}: {}>", r.answer.label,
                               r.answer.status == ShapeAnswer::Status::ok ? outputs : "rejected");
        });
    m.def("shape", shape, py::arg("op"), py::arg("inputs"), py::kw_only(), py::arg("opset") = py::none(),
          py::arg("attrs") = py::none(), py::arg("values") = py::none(), py::arg("output_size") = py::none(),
          py::arg("domain") = py::none(),
          R"(Infers what comes out of one layer, as `irlint shape --op` does, for any op `irlint ops` lists.

op: the IR type, any case ("MaxPool", "Convolution", "Reshape", ...); with domain ("ai.onnx",
"com.microsoft", "ai.onnx.ml", "ai.onnx.preview", "ai.onnx.preview.training") the ONNX op type as spelled
("Conv", "Gemm", ...). opset: the opset, or the ONNX model's
import of the domain (default: the newest).
inputs: in input order, each dims as a str "1,3,224,224" (or "1,3,224,224:f32") or a list [1, 3, 224, 224]
(-1 or "?" dynamic, "2..10" an interval), or a (dims, element type) pair. Without a type an input is f32, or
i64 when values gives its values.
attrs: {name: value} as in the IR (lists as [3, 3] or "3,3", bools as True/False).
values: {input index: [v1, v2, ...]}, the values of small inputs such as a target shape.
output_size: adaptive pools, the output_size dims.

Returns a ShapeResult (ok is False when OpenVINO would reject the layer). Raises UsageError for arguments
the command line would reject.)");
}

}  // namespace irlint::python
