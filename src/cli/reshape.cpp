// `irlint infer MODEL --reshape [NAME=]DIMS [-o OUT.xml]`: the model inferred again from new input shapes.

#include <unistd.h>

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "cli/common.hpp"
#include "cli/load.hpp"
#include "cli/onnx_commands.hpp"
#include "cli/reshape_report.hpp"
#include "core/json_writer.hpp"
#include "core/read_file.hpp"
#include "core/text.hpp"
#include "report/report.hpp"
#include "rules/reshape.hpp"

namespace irlint::cli {

namespace {

std::string typed(const Shape& s, const std::optional<ElementType>& t) {
    return t ? fmt::format("{}:{}", s.str(), element_type_name(*t)) : s.str();
}

// The model's Parameters and Results, before and after, from the two reports' rows.
std::vector<ReshapeEndpoint> endpoints(const ReshapeResult& r) {
    std::vector<ReshapeEndpoint> out;
    for (size_t i = 0; i < r.after.layers.size() && i < r.before.layers.size(); ++i) {
        const LayerShapes& a = r.after.layers[i];
        const LayerShapes& b = r.before.layers[i];
        if (a.graph != 0) continue;
        if (a.layer->kind == LayerKind::parameter && !a.inferred.empty())
            out.push_back({"input", std::string(a.layer->name),
                           b.inferred.empty() ? b.declared.front() : b.inferred.front(), a.inferred.front(),
                           a.inferred_types.empty() ? std::nullopt : a.inferred_types.front()});
        if (a.layer->kind == LayerKind::result && !a.inputs.empty())
            out.push_back({"output", std::string(a.layer->name), b.inputs.front(), a.inputs.front(),
                           a.input_types.empty() ? std::nullopt : a.input_types.front()});
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const ReshapeEndpoint& x, const ReshapeEndpoint& y) { return x.kind < y.kind; });
    return out;
}

ReshapeView ir_view(const Model& model, const ReshapeResult& r, const NewInputs& inputs) {
    ReshapeView v;
    // Without the .bin, every shape computed from a Const's values (a Reshape target, a split's lengths) is
    // unknown: the usual reason by far, and the one the user can remedy.
    v.unknown_why = model.bin_present ? "an op it does not infer, or after a failing layer"
                                      : "no .bin beside the .xml, so the Const values they depend on are unknown; or "
                                        "an op it does not infer, or after a failing layer";
    v.endpoints = endpoints(r);
    for (size_t i = 0; i < r.after.layers.size() && i < r.before.layers.size(); ++i) {
        const LayerShapes& a = r.after.layers[i];
        v.rows.push_back({a.layer, a.inputs, a.declared, r.before.layers[i].declared, a.inferred, a.status});
    }
    v.inputs = inputs;
    v.changed = r.changed_layers;
    v.unknown = r.unknown_layers;
    v.incompatible = r.incompatible;
    return v;
}

std::string render_text(const InferOptions& o, const ReshapeView& v) {
    std::string out = fmt::format("{} inferred again from new input shapes\n", printable(o.model));
    for (const ReshapeEndpoint& e : v.endpoints)
        out += fmt::format("  {:<6}  {}  {} -> {}\n", e.kind, printable(e.name), typed(e.before, e.type),
                           typed(e.after, e.type));
    out += fmt::format("  {} of {} change their output dims{}; {}\n", v.changed, counted(v.rows.size(), v.unit),
                       v.unknown ? fmt::format(" ({} whose new outputs irlint cannot tell: {})", v.unknown, v.unknown_why)
                                 : "",
                       v.incompatible.empty() ? fmt::format("every {} takes its new inputs", v.unit)
                                              : fmt::format("{} cannot take the new shapes",
                                                            counted(v.incompatible.size(), v.unit)));
    if (!o.all) return out;
    out += "  id  name  type  before  after  status\n";
    for (const ReshapeRow& row : v.rows)
        out += fmt::format("  {}  {}  {}  {}  {}  {}\n", printable(row.layer->id), printable(row.layer->name),
                           printable(row.layer->type), shapes_text(row.before),
                           row.after.empty() ? "-" : shapes_text(row.after), layer_status_name(row.status));
    return out;
}

std::string render_json(const InferOptions& o, const ReshapeView& v) {
    JsonWriter json;
    json.begin_object().key("layers").begin_array();
    for (const ReshapeRow& row : v.rows) {
        const Layer& l = *row.layer;
        json.begin_object().field("id", l.id).field("name", l.name).field("type", l.type).field("version", l.version);
        write_shapes(json, "inputs", row.inputs);
        write_shapes(json, "declared", row.declared);
        write_shapes(json, "inferred", row.after);
        json.field("status", layer_status_name(row.status)).end();
    }
    json.end().key("reshape").begin_object().key("inputs").begin_array();
    for (const auto& [name, shape] : v.inputs) json.begin_object().field("name", name).key("dims").raw(dims_json(shape)).end();
    json.end().field("changed_layers", v.changed).field("unknown_layers", v.unknown);
    json.key("layers").begin_array();
    for (const ReshapeRow& row : v.rows) {
        if (!o.all && !outputs_change(row.before, row.after)) continue;
        json.begin_object().field("id", row.layer->id).field("name", row.layer->name).field("type", row.layer->type);
        write_shapes(json, "before", row.before);
        write_shapes(json, "after", row.after);
        json.end();
    }
    json.end().key("endpoints").begin_array();
    for (const ReshapeEndpoint& e : v.endpoints) {
        json.begin_object().field("kind", e.kind).field("name", e.name);
        json.key("before").raw(dims_json(e.before)).key("after").raw(dims_json(e.after));
        if (e.type) json.field("type", element_type_name(*e.type));
        else json.key("type").null();
        json.end();
    }
    json.end().end().key("diagnostics").begin_array();
    for (const Diagnostic& d : v.incompatible) write_diagnostic(json, d);
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

int print_reshape(const InferOptions& o, const ReshapeView& v) {
    const Palette errors = palette_for(STDERR_FILENO);
    if (o.format == "json") {
        emit_output("", render_json(o, v));
    } else {
        for (const Diagnostic& d : v.incompatible) fmt::print(stderr, "{}\n", finding_line(o.model, d, errors));
        emit_output("", render_text(o, v));
    }
    return v.incompatible.empty() ? exit_code::ok : exit_code::findings;
}

int run_infer_reshape(const InferOptions& o) {
    if (names_onnx_model(o.model)) return run_onnx_reshape(o);
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
    if (const int printed = print_reshape(o, ir_view(*model, r, *inputs)); printed != exit_code::ok) return printed;
    return o.output.empty() ? exit_code::ok : write_reshaped(o, *model, r, *inputs);
}

}  // namespace irlint::cli
