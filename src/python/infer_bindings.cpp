// irlint.infer: the model checked as `irlint infer` checks it (rules/engine.hpp, rules/reshape.hpp), its
// inputs and outputs and every layer's declared and inferred shapes returned as Python data.

#include <functional>
#include <memory>

#include <pybind11/stl.h>

#include <fmt/format.h>

#include "core/atomic_file.hpp"
#include "core/read_file.hpp"
#include "pipeline/check_run.hpp"
#include "python/bindings.hpp"
#include "python/checks.hpp"
#include "python/errors.hpp"
#include "rules/model_glance.hpp"
#include "rules/reshape.hpp"
#include "rules/structure.hpp"
#ifdef IRLINT_PYTHON_ONNX
#include "onnx/onnx_check.hpp"
#include "onnx/onnx_model.hpp"
#include "onnx/onnx_reshape.hpp"
#endif

namespace py = pybind11;

namespace irlint::python {

namespace {

// A layer whose outputs a reshape changes.
struct Change {
    const Layer* layer = nullptr;
    std::vector<Shape> before, after;
};

// What the result's layers point into (the IR model or the ONNX check), and after a reshape what changed,
// what fails and how the reshaped model is written.
struct Checked {
    std::shared_ptr<const void> keep;
    const Model* model = nullptr;         // IR only
    std::optional<OnnxSummary> onnx;      // ONNX only: the graph's inputs and outputs
    ModelReport report;
    bool reshaped = false;
    std::vector<Change> changes;
    Diagnostics failing;
    // The reshaped model's bytes, or nullopt with the reason it is not written; `original` is the file as read.
    std::function<std::optional<std::string>(const std::string& original, std::string& error)> reshaped_file;
};

py::list dims_list(const std::vector<Shape>& shapes) {
    py::list out;
    for (const Shape& s : shapes) out.append(dims_object(s));
    return out;
}

py::object type_name(const std::optional<ElementType>& type) {
    return type ? py::object(py::str(std::string(element_type_name(*type)))) : py::none();
}

py::list types_list(const std::vector<std::optional<ElementType>>& types) {
    py::list out;
    for (const auto& t : types) out.append(type_name(t));
    return out;
}

py::list kinds_list(const std::vector<Shape>& shapes) {
    py::list out;
    for (const Shape& s : shapes) out.append(py::str(std::string(value_kind_name(s.kind))));
    return out;
}

py::dict layer_dict(const LayerShapes& r) {
    const Layer& l = *r.layer;
    std::vector<std::optional<ElementType>> declared_types;
    for (const Port& p : l.outputs) declared_types.push_back(p.precision);
    py::dict out;
    out["id"] = model_text(l.id);
    out["name"] = model_text(l.name);
    out["type"] = model_text(l.type);
    out["version"] = model_text(l.version);
    out["inputs"] = dims_list(r.inputs);
    out["declared"] = dims_list(r.declared);
    out["inferred"] = dims_list(r.inferred);
    out["declared_types"] = types_list(declared_types);
    out["inferred_types"] = types_list(r.inferred_types);
    out["declared_kinds"] = kinds_list(r.declared);
    out["inferred_kinds"] = kinds_list(r.inferred);
    out["status"] = std::string(layer_status_name(r));
    out["checked"] = r.checked;
    out["checked_by_invariants"] = r.checked_by_invariants;
    out["not_checked"] = r.not_checked ? py::object(model_text(*r.not_checked)) : py::none();
    return out;
}

py::list endpoints(const Checked& c, std::string_view kind) {
    py::list out;
    if (c.onnx) {
        for (const OnnxSummary::Value& v : c.onnx->values) {
            if (v.kind != kind) continue;
            py::dict d;
            d["name"] = model_text(v.name);
            d["dims"] = dims_object(v.shape);
            d["type"] = type_name(v.type);
            d["layout"] = "";
            out.append(d);
        }
        return out;
    }
    for (const Endpoint& e : model_endpoints(c.report)) {
        if (e.kind != kind) continue;
        py::dict d;
        d["name"] = model_text(e.name);
        d["dims"] = dims_object(e.shape);
        d["type"] = type_name(e.type);
        d["layout"] = model_text(e.layout);
        out.append(d);
    }
    return out;
}

std::vector<Finding> findings_of(const std::string& path, const Diagnostics& diagnostics) {
    std::vector<Finding> out;
    for (const Diagnostic& d : diagnostics) out.push_back({path, d});
    return out;
}

#ifdef IRLINT_PYTHON_ONNX
Checked reshaped_onnx(const std::string& path, const std::vector<std::string>& reshape) {
    OnnxRead read = read_onnx(path);
    if (!read.model) raise_onnx_read_error(path, read.missing, read.error);
    const OnnxModel& model = *read.model;
    std::string error;
    const auto inputs = parse_reshape_arguments(onnx_graph_input_names(model), "graph input", reshape, error);
    if (!inputs) raise_usage_error(error);
    auto r = std::make_shared<OnnxReshape>(reshape_onnx(model, *inputs));
    Checked out;
    out.onnx = summarize_onnx(*r->after);
    out.report = r->after->report;
    out.reshaped = true;
    out.failing = r->incompatible;
    for (size_t i = 0; i < out.report.layers.size(); ++i) {
        const LayerShapes& a = out.report.layers[i];
        std::vector<Shape> before = r->outputs_before(i);
        if (outputs_change(before, a.inferred)) out.changes.push_back({a.layer, std::move(before), a.inferred});
    }
    out.reshaped_file = [r](const std::string&, std::string& why) { return serialize_reshaped_onnx(*r, why); };
    out.keep = std::move(r);
    return out;
}
#endif

Checked check_onnx_model(const std::string& path, const std::vector<std::string>& reshape) {
#ifdef IRLINT_PYTHON_ONNX
    if (!reshape.empty()) return reshaped_onnx(path, reshape);
    std::shared_ptr<const OnnxCheck> c = checked_onnx(path);
    Checked out;
    out.onnx = summarize_onnx(*c);
    out.report = c->report;
    out.keep = std::move(c);
    return out;
#else
    (void)reshape;
    raise_model_error(fmt::format("{}: {}", path, kNoOnnxSupport));
#endif
}

std::vector<std::string> reshape_arguments(const py::object& reshape) {
    if (py::isinstance<py::str>(reshape)) return {reshape.cast<std::string>()};
    const auto joined = [](const py::handle& value) {
        if (py::isinstance<py::str>(value)) return value.cast<std::string>();
        std::string out;
        for (const auto& d : value) out += (out.empty() ? "" : ",") + py::str(d).cast<std::string>();
        return out;
    };
    if (py::isinstance<py::dict>(reshape)) {
        std::vector<std::string> out;
        for (const auto& [name, value] : reshape.cast<py::dict>())
            out.push_back(py::str(name).cast<std::string>() + "=" + joined(value));
        return out;
    }
    return {joined(reshape)};
}

Checked check_path(const std::string& path, const std::vector<std::string>& reshape) {
    if (names_onnx_model(path)) return check_onnx_model(path, reshape);
    Diagnostics read_findings;
    std::shared_ptr<Model> model = read_ir_or_raise(path, &read_findings);
    Checked out;
    out.model = model.get();
    out.keep = model;
    if (reshape.empty()) {
        out.report = check_read_model(*model, std::move(read_findings));
        return out;
    }
    std::string error;
    auto inputs = parse_reshape_arguments(*model, reshape, error);
    if (!inputs) raise_usage_error(error);
    auto r = std::make_shared<ReshapeResult>(reshape_model(*model, *inputs));
    out.report = r->after;
    out.reshaped = true;
    out.failing = r->incompatible;
    for (size_t i = 0; i < r->after.layers.size() && i < r->before.layers.size(); ++i) {
        const LayerShapes& a = r->after.layers[i];
        const std::vector<Shape>& before = r->before.layers[i].declared;
        if (outputs_change(before, a.inferred)) out.changes.push_back({a.layer, before, a.inferred});
    }
    out.reshaped_file = [model, r, new_inputs = std::move(*inputs)](const std::string& original,
                                                                   std::string& why) -> std::optional<std::string> {
        const auto edits = plan_reshape_edits(*model, original, *r, new_inputs, why);
        if (!edits) return std::nullopt;
        return apply_text_edits(original, *edits);
    };
    return out;
}

// The result of irlint.infer; the checked model stays alive with it (write() needs it).
struct InferResult {
    std::string path;
    std::shared_ptr<Checked> checked;
};

py::list changed_layers(const Checked& c) {
    py::list out;
    for (const Change& change : c.changes) {
        py::dict d;
        d["id"] = model_text(change.layer->id);
        d["name"] = model_text(change.layer->name);
        d["type"] = model_text(change.layer->type);
        d["before"] = dims_list(change.before);
        d["after"] = dims_list(change.after);
        out.append(d);
    }
    return out;
}

void write_reshaped(const InferResult& result, const py::object& target) {
    const Checked& c = *result.checked;
    if (!c.reshaped) raise_usage_error("write(): only the result of infer(model, reshape=...) can be written");
    const std::string out = path_arg(target);
    const char* unit = c.onnx ? "node" : "layer";
    if (!c.failing.empty())
        raise_model_error(fmt::format("-o {}: not written: {} {}{} cannot take the new shapes", out, c.failing.size(),
                                      unit, c.failing.size() == 1 ? "" : "s"));
    py::gil_scoped_release release;
    const auto text = read_whole_file(result.path);
    if (!text) raise_usage_error(fmt::format("{}: cannot read the file again", result.path));
    std::string error;
    const auto bytes = c.reshaped_file(*text, error);
    if (!bytes) raise_model_error(fmt::format("-o {}: not written: {}", out, error));
    if (const auto failed = write_file_atomically(out, *bytes))
        raise_usage_error(fmt::format("-o {}: {}", out, *failed));
}

InferResult infer(const py::object& model, const py::object& reshape) {
    InferResult result;
    result.path = path_arg(model);
    const std::vector<std::string> arguments = reshape.is_none() ? std::vector<std::string>{} : reshape_arguments(reshape);
    py::gil_scoped_release release;
    result.checked = std::make_shared<Checked>(check_path(result.path, arguments));
    return result;
}

}  // namespace

void bind_infer(py::module_& m) {
    py::class_<InferResult>(m, "InferResult",
                            "What irlint.infer found: the model's inputs and outputs, every layer's declared and "
                            "inferred shapes, the findings; after a reshape, what changed and what fails.")
        .def_property_readonly("path", [](const InferResult& r) { return path_text(r.path); }, "The model file.")
        .def_property_readonly("ir_version", [](const InferResult& r) {
            if (r.checked->onnx) return py::object(py::int_(r.checked->onnx->ir_version));
            return r.checked->model ? py::object(py::int_(r.checked->model->ir_version)) : py::none();
        }, "The IR version (of an ONNX model: its ModelProto.ir_version).")
        .def_property_readonly("producer", [](const InferResult& r) {
            if (const auto& o = r.checked->onnx; o && !o->producer_name.empty())
                return py::object(model_text(o->producer_version.empty()
                                                 ? o->producer_name
                                                 : fmt::format("{} {}", o->producer_name, o->producer_version)));
            const Model* m = r.checked->model;
            return m && m->producer.known() ? py::object(model_text(m->producer.describe())) : py::none();
        }, "What wrote the model (an IR's rt_info, an ONNX model's producer_name and version), or None.")
        .def_property_readonly("inputs", [](const InferResult& r) { return endpoints(*r.checked, "input"); },
                               "The model's inputs: dicts with name, dims, type, layout.")
        .def_property_readonly("outputs", [](const InferResult& r) { return endpoints(*r.checked, "output"); },
                               "The model's outputs: dicts with name, dims, type, layout.")
        .def_property_readonly("layers", [](const InferResult& r) {
            py::list out;
            for (const LayerShapes& l : r.checked->report.layers) out.append(layer_dict(l));
            return out;
        }, "Every layer: dicts with id, name, type, version, inputs, declared, inferred, declared_types, "
           "inferred_types, declared_kinds, inferred_kinds ('tensor', 'sequence', 'optional', 'optional sequence': "
           "an ONNX value's; dims and types are its tensors'), status ('ok', 'mismatch', ...), checked, not_checked. "
           "Dims are lists: an int per static dim, -1 dynamic, 'lo..hi' an interval; None for a dynamic rank.")
        .def_property_readonly("findings", [](const InferResult& r) { return findings_of(r.path, r.checked->report.diagnostics); },
                               "Every finding `check` gives on the model (after a reshape: on the reshaped model).")
        .def_property_readonly("changed", [](const InferResult& r) {
            return changed_layers(*r.checked);
        }, "After a reshape: the layers whose outputs change, dicts with id, name, type, before, after.")
        .def_property_readonly("failing", [](const InferResult& r) {
            return findings_of(r.path, r.checked->failing);
        }, "After a reshape: the reshape-incompatible findings, the layers that cannot take the new shapes.")
        .def("write", write_reshaped, py::arg("path"),
             "Writes the reshaped model (IR or ONNX) to path atomically, as `infer --reshape ... -o` does; raises "
             "ModelError when a layer fails or the file cannot be rewritten.")
        .def("__repr__", [](const InferResult& r) {
            return model_text(fmt::format("<irlint.InferResult {}: {} layers, {} findings>", r.path,
                                          r.checked->report.layers.size(), r.checked->report.diagnostics.size()));
        });
    m.def("infer", infer, py::arg("model"), py::kw_only(), py::arg("reshape") = py::none(),
          R"(Infers every layer's output dims and element types, as `irlint infer --all` does.

model: an IR .xml or an ONNX .onnx path (str or os.PathLike).
reshape: new input dims, as `--reshape`: a dims string "1,3,320,320" or a list of ints for a model with one
input, or a dict {input name: dims string or list}. The whole model is inferred again from them.

Raises UsageError (no such file, a bad reshape argument) and ModelError (a file that is not a readable model).)");
}

}  // namespace irlint::python
