// `irlint infer MODEL --reshape [NAME=]DIMS [-o OUT.xml]`: the model inferred again from new input shapes.

#include <unistd.h>

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "cli/common.hpp"
#include "cli/load.hpp"
#include "cli/onnx_commands.hpp"
#include "core/json_writer.hpp"
#include "core/read_file.hpp"
#include "core/text.hpp"
#include "report/report.hpp"
#include "rules/reshape.hpp"

namespace irlint::cli {

namespace {

// A model input or output as the reshape sees it: its name, and its dims and element type before and after.
struct Endpoint {
    std::string_view kind;  // "input" or "output"
    const Layer* layer = nullptr;
    Shape before, after;
    std::optional<ElementType> type;
};

std::string typed(const Shape& s, const std::optional<ElementType>& t) {
    return t ? fmt::format("{}:{}", s.str(), element_type_name(*t)) : s.str();
}

// The model's Parameters and Results, before and after, from the two reports' rows.
std::vector<Endpoint> endpoints(const ReshapeResult& r) {
    std::vector<Endpoint> out;
    for (size_t i = 0; i < r.after.layers.size() && i < r.before.layers.size(); ++i) {
        const LayerShapes& a = r.after.layers[i];
        const LayerShapes& b = r.before.layers[i];
        if (a.graph != 0) continue;
        if (a.layer->kind == LayerKind::parameter && !a.inferred.empty())
            out.push_back({"input", a.layer, b.inferred.empty() ? b.declared.front() : b.inferred.front(),
                           a.inferred.front(), a.inferred_types.empty() ? std::nullopt : a.inferred_types.front()});
        if (a.layer->kind == LayerKind::result && !a.inputs.empty())
            out.push_back({"output", a.layer, b.inputs.front(), a.inputs.front(),
                           a.input_types.empty() ? std::nullopt : a.input_types.front()});
    }
    std::stable_sort(out.begin(), out.end(), [](const Endpoint& x, const Endpoint& y) { return x.kind < y.kind; });
    return out;
}

std::string shapes_text(const std::vector<Shape>& shapes) {
    std::string out;
    for (const Shape& s : shapes) {
        if (!out.empty()) out += ' ';
        out += s.str();
    }
    return out.empty() ? "-" : out;
}

std::string render_text(const InferOptions& o, const ReshapeResult& r) {
    std::string out = fmt::format("{} inferred again from new input shapes\n", printable(o.model));
    for (const Endpoint& e : endpoints(r))
        out += fmt::format("  {:<6}  {}  {} -> {}\n", e.kind, printable(e.layer->name), typed(e.before, e.type),
                           typed(e.after, e.type));
    out += fmt::format("  {} of {} change their output dims{}; {}\n", r.changed_layers,
                       counted(r.after.layers.size(), "layer"),
                       r.unknown_layers ? fmt::format(" ({} whose new outputs irlint cannot tell: an op it does not infer, or after a failing layer)",
                                                      r.unknown_layers)
                                        : "",
                       r.incompatible.empty() ? "every layer takes its new inputs"
                                              : fmt::format("{} cannot take the new shapes",
                                                            counted(r.incompatible.size(), "layer")));
    if (!o.all) return out;
    out += "  id  name  type  before  after  status\n";
    for (size_t i = 0; i < r.after.layers.size() && i < r.before.layers.size(); ++i) {
        const LayerShapes& a = r.after.layers[i];
        out += fmt::format("  {}  {}  {}  {}  {}  {}\n", printable(a.layer->id), printable(a.layer->name),
                           printable(a.layer->type), shapes_text(r.before.layers[i].declared),
                           a.inferred.empty() ? "-" : shapes_text(a.inferred), layer_status_name(a.status));
    }
    return out;
}

void write_shapes(JsonWriter& json, std::string_view key, const std::vector<Shape>& shapes) {
    json.key(key).begin_array();
    for (const Shape& s : shapes) json.raw(dims_json(s));
    json.end();
}

std::string render_json(const InferOptions& o, const ReshapeResult& r, const NewInputs& inputs) {
    JsonWriter json;
    json.begin_object().key("layers").begin_array();
    for (const LayerShapes& a : r.after.layers) {
        const Layer& l = *a.layer;
        json.begin_object().field("id", l.id).field("name", l.name).field("type", l.type).field("version", l.version);
        write_shapes(json, "inputs", a.inputs);
        write_shapes(json, "declared", a.declared);
        write_shapes(json, "inferred", a.inferred);
        json.field("status", layer_status_name(a.status)).end();
    }
    json.end().key("reshape").begin_object().key("inputs").begin_array();
    for (const auto& [name, shape] : inputs) json.begin_object().field("name", name).key("dims").raw(dims_json(shape)).end();
    json.end().field("changed_layers", r.changed_layers).field("unknown_layers", r.unknown_layers);
    json.key("layers").begin_array();
    for (size_t i = 0; i < r.after.layers.size() && i < r.before.layers.size(); ++i) {
        const LayerShapes& a = r.after.layers[i];
        const std::vector<Shape>& before = r.before.layers[i].declared;
        if (!o.all && (a.inferred == before || a.inferred.size() != before.size())) continue;
        json.begin_object().field("id", a.layer->id).field("name", a.layer->name).field("type", a.layer->type);
        write_shapes(json, "before", before);
        write_shapes(json, "after", a.inferred);
        json.end();
    }
    json.end().end().key("diagnostics").begin_array();
    for (const Diagnostic& d : r.incompatible) write_diagnostic(json, d);
    return json.end().end().take() + "\n";
}

// Writes the reshaped IR to o.output (atomically); an exit code.
int write_reshaped(const InferOptions& o, const Model& model, const ReshapeResult& r, const NewInputs& inputs) {
    const auto text = read_whole_file(o.model);
    if (!text) {
        print_error(fmt::format("{}: cannot read the file again", o.model));
        return exit_code::usage;
    }
    std::string error;
    const auto edits = plan_reshape_edits(model, *text, r, inputs, error);
    if (!edits) {
        print_error(fmt::format("-o {}: not written: {}", o.output, error));
        return exit_code::findings;
    }
    if (const auto failed = write_file_atomically(o.output, apply_text_edits(*text, *edits))) {
        print_error(fmt::format("-o {}: {}", o.output, *failed));
        return exit_code::usage;
    }
    fmt::print(stderr, "irlint: wrote {} ({} changed)\n", printable(o.output), counted(edits->size(), "value"));
    return exit_code::ok;
}

}  // namespace

int run_infer_reshape(const InferOptions& o) {
    if (names_onnx_model(o.model)) {
        print_error(fmt::format("{}: --reshape reads IR models; ONNX models are not reshaped yet", o.model));
        return exit_code::usage;
    }
    int failure = exit_code::ok;
    auto model = load_model(o.model, &failure);
    if (!model) return failure;
    std::string error;
    const auto inputs = parse_reshape_arguments(*model, o.reshape, error);
    if (!inputs) {
        print_error(error);
        return exit_code::usage;
    }
    const ReshapeResult r = reshape_model(*model, *inputs);
    const Palette errors = palette_for(STDERR_FILENO);
    if (o.format == "json") {
        emit_output("", render_json(o, r, *inputs));
    } else {
        for (const Diagnostic& d : r.incompatible) fmt::print(stderr, "{}\n", finding_line(o.model, d, errors));
        emit_output("", render_text(o, r));
    }
    if (!r.incompatible.empty()) return exit_code::findings;
    return o.output.empty() ? exit_code::ok : write_reshaped(o, *model, r, *inputs);
}

}  // namespace irlint::cli
