#include <unistd.h>

#include <algorithm>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/commands.hpp"
#include "cli/common.hpp"
#include "cli/load.hpp"
#include "cli/onnx_commands.hpp"
#include "core/text.hpp"
#include "rules/engine.hpp"
#include "rules/model_glance.hpp"
#include "rules/structure.hpp"

namespace irlint::cli {

void setup_infer(CLI::App& app, InferOptions& o) {
    app.footer(R"(Examples:
  irlint infer model.xml                       the pooling layers and every layer with a finding
  irlint infer model.xml --all                 every layer: inputs, declared and inferred dims and types
  irlint infer model.xml --layer pool1 --format json
  irlint infer model.onnx --layer 3            an ONNX node by name, index or first output
  irlint infer model.xml --reshape 1,3,320,320 every layer inferred again from a new input shape
  irlint infer model.xml --reshape data=8,3,224,224 -o model_b8.xml

Exit codes: 0 every selected layer ok (or a mismatch absorbed downstream), 1 an error finding or an invalid layer,
2 usage errors or no such layer.)");
    app.add_option("model", o.model, "IR .xml or ONNX .onnx file")->required();
    app.add_option("--layer", o.layers, "Only this layer, by id or name (repeatable)");
    app.add_flag("--all", o.all, "List every layer, not only the pooling layers and the layers with findings");
    app.add_option("--format", o.format, "Output format")->check(CLI::IsMember({"text", "json"}));
    auto* reshape = app.add_option("--reshape", o.reshape,
                                   "Infer the whole model again with this input shape, NAME=DIMS (repeatable), or "
                                   "DIMS for a model with one input; every layer that cannot take it is a "
                                   "reshape-incompatible error");
    app.add_option("-o,--output", o.output, "With --reshape: write the reshaped IR to this file (atomically; "
                                            "not when a layer cannot take its new shapes)")
        ->needs(reshape);
}

namespace {

std::vector<std::optional<ElementType>> declared_types(const Layer& l) {
    std::vector<std::optional<ElementType>> out;
    for (const Port& p : l.outputs) out.push_back(p.precision);
    return out;
}

void write_types(JsonWriter& json, std::string_view key, const std::vector<std::optional<ElementType>>& types) {
    json.key(key).begin_array();
    for (const auto& t : types) {
        if (t) json.string(element_type_name(*t));
        else json.null();
    }
    json.end();
}


std::string render_text(const std::vector<const LayerShapes*>& rows, const Palette& p) {
    std::vector<std::array<std::string, 8>> cells;
    cells.push_back({"id", "name", "type", "version", "inputs", "declared", "inferred", "status"});
    for (const LayerShapes* r : rows)
        cells.push_back({printable(r->layer->id), printable(r->layer->name), printable(r->layer->type),
                         printable(r->layer->version), shapes_text(r->inputs, r->input_types),
                         shapes_text(r->declared, declared_types(*r->layer)),
                         r->inferred.empty() ? "-" : shapes_text(r->inferred, r->inferred_types),
                         std::string(layer_status_name(*r))});
    std::array<size_t, 8> width{};
    for (const auto& row : cells)
        for (size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], row[c].size());
    std::string out;
    for (size_t i = 0; i < cells.size(); ++i) {
        std::string line = "  ";  // indented: no line starts with text from the model
        for (size_t c = 0; c < 8; ++c) {
            const std::string cell = fmt::format("{:<{}}", cells[i][c], c == 7 ? 0 : width[c]);
            const bool bad = c == 7 && (cells[i][c] == "mismatch" || cells[i][c] == "invalid");
            const auto& style = i == 0 ? p.bold : bad ? p.error : c == 7 && cells[i][c] == "ok" ? p.ok : fmt::text_style();
            line += fmt::format("{}{}", c ? "  " : "", fmt::styled(cell, style));
        }
        out += line + "\n";
    }
    return out;
}

std::vector<Endpoint> endpoints_of(const CheckedModel& checked) {
    if (!checked.onnx) return model_endpoints(*checked.report);
    std::vector<Endpoint> out;
    for (const auto& v : checked.onnx->values) out.push_back({v.kind, v.name, v.shape, v.type, {}});
    return out;
}

std::string onnx_producer(const OnnxSummary& s) {
    return s.producer_version.empty() ? s.producer_name : fmt::format("{} {}", s.producer_name, s.producer_version);
}

std::string opsets_text(const OnnxSummary& s) {
    std::vector<std::string> out;
    for (const auto& [domain, version] : s.opsets)
        out.push_back(fmt::format("{} {}", domain.empty() ? "ai.onnx" : printable(domain), version));
    return fmt::format("{}", fmt::join(out, ", "));
}

std::string glance_text(const InferOptions& o, const CheckedModel& checked) {
    std::string out = fmt::format("model {}", printable(o.model));
    if (const Model* m = checked.model) {
        out += fmt::format(" (IR v{}", m->ir_version);
        if (m->producer.known()) out += fmt::format(", written by {}", printable(m->producer.describe()));
        out += ")";
    }
    if (const auto& s = checked.onnx) {
        out += fmt::format(" (ONNX IR v{}", s->ir_version);
        if (!s->producer_name.empty()) out += fmt::format(", written by {}", printable(onnx_producer(*s)));
        if (!s->opsets.empty()) out += fmt::format("; opsets {}", opsets_text(*s));
        out += ")";
    }
    out += "\n";
    for (const Endpoint& e : endpoints_of(checked))
        out += fmt::format("  {:<6}  {}  {}{}{}\n", e.kind, printable(e.name), e.shape.str(),
                           e.type ? fmt::format(":{}", element_type_name(*e.type)) : "",
                           e.layout.empty() ? "" : fmt::format("  layout {}", printable(e.layout)));
    return out + "\n";
}

void write_glance(JsonWriter& json, const CheckedModel& checked) {
    json.key("model").begin_object();
    if (checked.model) {
        json.field("ir_version", checked.model->ir_version);
        json.field("producer", checked.model->producer.describe());
    }
    if (const auto& s = checked.onnx) {
        json.field("ir_version", s->ir_version).field("producer", onnx_producer(*s));
        json.key("opsets").begin_array();
        for (const auto& [domain, version] : s->opsets)
            json.begin_object().field("domain", domain).field("version", version).end();
        json.end();
    }
    for (const std::string_view kind : {"input", "output"}) {
        json.key(kind == "input" ? "inputs" : "outputs").begin_array();
        for (const Endpoint& e : endpoints_of(checked)) {
            if (e.kind != kind) continue;
            json.begin_object().field("name", e.name).key("dims").raw(dims_json(e.shape));
            if (e.type) json.field("type", element_type_name(*e.type));
            else json.key("type").null();
            json.field("layout", e.layout).end();
        }
        json.end();
    }
    json.end();
}

std::string render_json(const std::vector<const LayerShapes*>& rows, const Diagnostics& findings,
                        const CheckedModel& checked) {
    JsonWriter json;
    json.begin_object().key("layers").begin_array();
    for (const LayerShapes* r : rows) {
        const Layer& l = *r->layer;
        json.begin_object().field("id", l.id).field("name", l.name).field("type", l.type).field("version", l.version);
        write_shapes(json, "inputs", r->inputs);
        write_shapes(json, "declared", r->declared);
        write_shapes(json, "inferred", r->inferred);
        write_types(json, "declared_types", declared_types(l));
        write_types(json, "inferred_types", r->inferred_types);
        write_kinds(json, "declared_kinds", r->declared);
        write_kinds(json, "inferred_kinds", r->inferred);
        json.field("status", layer_status_name(*r)).field("checked", r->checked);
        json.field("checked_by_invariants", r->checked_by_invariants);
        if (r->not_checked) json.field("not_checked", *r->not_checked);
        json.end();
    }
    json.end().key("diagnostics").begin_array();
    for (const Diagnostic& d : findings) write_diagnostic(json, d);
    json.end();
    write_glance(json, checked);
    return json.end().take() + "\n";
}

bool names(const LayerShapes& r, const std::string& wanted) { return r.layer->id == wanted || r.layer->name == wanted; }

bool has_finding(const LayerShapes& r, const Diagnostics& diagnostics) {
    return r.status == LayerStatus::mismatch || r.status == LayerStatus::invalid ||
           std::any_of(diagnostics.begin(), diagnostics.end(), [&](const Diagnostic& d) {
               return d.severity != Severity::note && d.layer.id == r.layer->id && d.layer == layer_ref(*r.layer);
           });
}

bool shown(const LayerShapes& r, const InferOptions& o, const Diagnostics& diagnostics) {
    if (!o.layers.empty())
        return std::any_of(o.layers.begin(), o.layers.end(), [&](const auto& w) { return names(r, w); });
    return o.all || r.pooling || has_finding(r, diagnostics);
}

// The errors and warnings `check` would report, less those about layers left out of the table (--layer): a
// broken structure makes every row doubtful, another layer's attributes do not.
Diagnostics findings_for(const ModelReport& report, const InferOptions& o) {
    std::vector<const LayerShapes*> hidden;
    for (const LayerShapes& r : report.layers)
        if (!shown(r, o, report.diagnostics)) hidden.push_back(&r);
    Diagnostics out;
    for (const Diagnostic& d : report.diagnostics) {
        if (d.severity == Severity::note) continue;
        const bool hide = !d.layer.id.empty() && std::any_of(hidden.begin(), hidden.end(), [&](const LayerShapes* r) {
            return d.layer.id == r->layer->id && layer_ref(*r->layer) == d.layer;
        });
        if (!hide) out.push_back(d);
    }
    return out;
}

// The findings on stderr, as `check` prints them; the table on stdout.
void print_text(const InferOptions& o, const CheckedModel& checked, const Diagnostics& findings,
                const std::vector<const LayerShapes*>& rows, size_t hidden) {
    const Palette errors = palette_for(STDERR_FILENO);
    for (const Diagnostic& d : findings) fmt::print(stderr, "{}\n", finding_line(o.model, d, errors));
    std::string table = glance_text(o, checked) + render_text(rows, palette_for(STDOUT_FILENO));
    if (hidden && o.layers.empty())
        table += fmt::format("({} not shown: --all lists every layer)\n", counted(hidden, "other layer"));
    emit_output("", table);
}

}  // namespace

int run_infer(const InferOptions& o) {
    if (!o.reshape.empty()) return run_infer_reshape(o);
    int failure = exit_code::ok;
    const std::optional<CheckedModel> checked = load_checked_model(o.model, &failure);
    if (!checked) return failure;
    const ModelReport& report = *checked->report;
    for (const std::string& wanted : o.layers) {
        const bool found = std::any_of(report.layers.begin(), report.layers.end(),
                                       [&](const LayerShapes& r) { return names(r, wanted); });
        if (!found) {
            print_error(fmt::format("{}: no layer with id or name '{}'", o.model, wanted));
            return exit_code::usage;
        }
    }
    std::vector<const LayerShapes*> rows;
    for (const LayerShapes& r : report.layers)
        if (shown(r, o, report.diagnostics)) rows.push_back(&r);
    const Diagnostics findings = findings_for(report, o);
    if (o.format == "json")
        emit_output("", render_json(rows, findings, *checked));
    else
        print_text(o, *checked, findings, rows, report.layers.size() - rows.size());
    // A mismatch that a layer downstream absorbs is a warning (its finding's consequence), as in `check`.
    const bool bad = std::any_of(rows.begin(), rows.end(), [](const LayerShapes* r) {
        return r->status == LayerStatus::invalid;
    });
    const bool errors = std::any_of(findings.begin(), findings.end(),
                                    [](const Diagnostic& d) { return d.severity == Severity::error; });
    return bad || errors ? exit_code::findings : exit_code::ok;
}

}  // namespace irlint::cli
