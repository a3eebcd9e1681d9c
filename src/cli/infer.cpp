#include <unistd.h>

#include <algorithm>

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "cli/common.hpp"
#include "cli/load.hpp"
#include "cli/onnx_commands.hpp"
#include "rules/engine.hpp"

namespace irlint::cli {

void setup_infer(CLI::App& app, InferOptions& o) {
    app.footer(R"(Examples:
  irlint infer model.xml                       every layer: inputs, declared and inferred shapes, status
  irlint infer model.xml --layer pool1 --format json
  irlint infer model.onnx --layer 3            an ONNX node by name, index or first output

Exit codes: 0 every selected layer ok, 1 a mismatch or an invalid layer, 2 usage errors or no such layer.)");
    app.add_option("model", o.model, "IR .xml or ONNX .onnx file")->required();
    app.add_option("--layer", o.layers, "Only this layer, by id or name (repeatable)");
    app.add_option("--format", o.format, "Output format")->check(CLI::IsMember({"text", "json"}));
}

namespace {

std::string shapes_text(const std::vector<Shape>& shapes) {
    std::string out;
    for (const Shape& s : shapes) out += (out.empty() ? "" : " ") + s.str();
    return out.empty() ? "-" : out;
}

std::string shapes_json(const std::vector<Shape>& shapes) {
    std::string out = "[";
    for (size_t i = 0; i < shapes.size(); ++i) out += (i ? "," : "") + dims_json(shapes[i]);
    return out + "]";
}

std::string render_json(const std::vector<const LayerShapes*>& rows) {
    std::string out = "{\"layers\":[";
    for (size_t i = 0; i < rows.size(); ++i) {
        const LayerShapes& r = *rows[i];
        out += fmt::format(
            "{}{{\"id\":{},\"name\":{},\"type\":{},\"version\":{},\"inputs\":{},\"declared\":{},\"inferred\":{},"
            "\"status\":\"{}\"}}",
            i ? "," : "", json_string(r.layer->id), json_string(r.layer->name), json_string(r.layer->type),
            json_string(r.layer->version), shapes_json(r.inputs), shapes_json(r.declared), shapes_json(r.inferred),
            layer_status_name(r.status));
    }
    return out + "]}\n";
}

std::string render_text(const std::vector<const LayerShapes*>& rows, const Palette& p) {
    std::vector<std::array<std::string, 8>> cells;
    cells.push_back({"id", "name", "type", "version", "inputs", "declared", "inferred", "status"});
    for (const LayerShapes* r : rows)
        cells.push_back({r->layer->id, r->layer->name, r->layer->type, r->layer->version, shapes_text(r->inputs),
                         shapes_text(r->declared), r->inferred.empty() ? "-" : shapes_text(r->inferred),
                         std::string(layer_status_name(r->status))});
    std::array<size_t, 8> width{};
    for (const auto& row : cells)
        for (size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], row[c].size());
    std::string out;
    for (size_t i = 0; i < cells.size(); ++i) {
        std::string line;
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

}  // namespace

int run_infer(const InferOptions& o) {
    int failure = exit_code::ok;
    const std::optional<CheckedModel> checked = load_checked_model(o.model, &failure);
    if (!checked) return failure;
    const ModelReport& report = *checked->report;
    std::vector<const LayerShapes*> rows;
    for (const LayerShapes& r : report.layers)
        if (o.layers.empty() || std::find(o.layers.begin(), o.layers.end(), r.layer->id) != o.layers.end() ||
            std::find(o.layers.begin(), o.layers.end(), r.layer->name) != o.layers.end())
            rows.push_back(&r);
    for (const std::string& wanted : o.layers) {
        const bool found = std::any_of(report.layers.begin(), report.layers.end(), [&](const LayerShapes& r) {
            return r.layer->id == wanted || r.layer->name == wanted;
        });
        if (!found) {
            print_error(fmt::format("{}: no layer with id or name '{}'", o.model, wanted));
            return exit_code::usage;
        }
    }
    const std::string content = o.format == "json" ? render_json(rows) : render_text(rows, palette_for(STDOUT_FILENO));
    emit_output("", content);
    const bool bad = std::any_of(rows.begin(), rows.end(), [](const LayerShapes* r) {
        return r->status == LayerStatus::mismatch || r->status == LayerStatus::invalid;
    });
    return bad ? exit_code::findings : exit_code::ok;
}

}  // namespace irlint::cli
