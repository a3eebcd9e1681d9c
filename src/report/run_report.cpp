#include "report/run_report.hpp"

#include <array>
#include <cmath>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/text.hpp"
#include "report/map_view.hpp"

namespace irlint {

namespace {

std::string shape_text(const std::vector<int64_t>& shape) { return fmt::format("[{}]", join_ints(shape)); }

// JSON has no NaN or infinity: those are written as the strings "nan", "inf" and "-inf".
std::string json_number(double v) {
    if (std::isnan(v)) return "\"nan\"";
    if (std::isinf(v)) return v > 0 ? "\"inf\"" : "\"-inf\"";
    return fmt::format("{}", v);
}

std::string value_text(double v) { return fmt::format("{:.9g}", v); }

const fmt::text_style& status_style(const Palette& p, RunStatus s) {
    switch (s) {
        case RunStatus::ok:
            return p.ok;
        case RunStatus::not_compared:
            return p.warning;
        default:
            return p.error;
    }
}

constexpr size_t kStatuses = 4;  // RunStatus values, for the counts of a --data run

std::string histogram_text(const Comparison& c) {
    const auto& labels = error_bucket_labels();
    std::vector<std::string> cells;
    for (size_t b = 0; b < labels.size(); ++b)
        if (c.histogram[b]) cells.push_back(fmt::format("{} {}", labels[b], c.histogram[b]));
    return fmt::format("{}", fmt::join(cells, ", "));
}

// The conventions that explain a mismatch, one per line, or that none does.
std::string why_text(const OutputRun& o, const Palette& p) {
    if (!o.diagnosed) return "";
    if (o.explanations.empty()) return "    why: none of the known conventions explains the difference\n";
    std::string out = fmt::format("    why: the expected data matches irlint under {}:\n",
                                  o.explanations.size() == 1 ? "this convention" : "each of these conventions");
    for (const Explanation& e : o.explanations)
        out += fmt::format("      {}: {}\n", fmt::styled(e.convention, p.bold), e.description);
    return out;
}

std::string output_text(const OutputRun& o, const Palette& p) {
    std::string out =
        fmt::format("  output {} ({}) {} {}", o.index, o.role, shape_text(o.shape), element_type_name(o.type));
    if (!o.saved_path.empty()) out += fmt::format(", saved to {}", printable(o.saved_path, kPrintedMessageChars));
    if (o.expect_path.empty()) return out + ": not compared\n";
    const Comparison& c = o.comparison;
    if (!c.compared())
        return out + fmt::format(": {} — {}\n{}", fmt::styled("MISMATCH", p.error),
                                 printable(c.problem, kPrintedMessageChars), why_text(o, p));
    const bool exact = is_integer_type(o.type) && o.tolerance.atol == 0 && o.tolerance.rtol == 0;
    const std::string tolerance = fmt::format("atol {:g} + rtol {:g}·|expected|", o.tolerance.atol, o.tolerance.rtol);
    if (c.matches())
        out += fmt::format(": {} — {} {}\n", fmt::styled("ok", p.ok), counted(c.total, "element"),
                           exact ? "equal (compared exactly)" : "within " + tolerance);
    else
        out += fmt::format(": {} — {} of {} {}\n", fmt::styled("MISMATCH", p.error), c.mismatches,
                           counted(c.total, "element"), exact ? "differ (compared exactly)" : "outside " + tolerance);
    out += fmt::format("    max abs err {:.3g}, max rel err {:.3g}, mean abs err {:.3g}\n", c.max_abs_err,
                       c.max_rel_err, c.mean_abs_err);
    if (c.first_mismatch)
        out += fmt::format("    first mismatch at {}: expected {}, irlint {}\n",
                           shape_text(unravel_index(*c.first_mismatch, o.shape)), value_text(c.first_expected),
                           value_text(c.first_actual));
    out += fmt::format("    abs err histogram: {}\n", histogram_text(c));
    if (o.map && o.map->mismatches) out += map_text(*o.map, p, "    ");
    return out + why_text(o, p);
}

void write_explanations(JsonWriter& json, const std::vector<Explanation>& explanations) {
    json.begin_array();
    for (const Explanation& e : explanations)
        json.begin_object().field("convention", e.convention).field("description", e.description).end();
    json.end();
}

void write_ints(JsonWriter& json, const std::vector<int64_t>& values) {
    json.begin_array();
    for (int64_t v : values) json.number(v);
    json.end();
}

void write_first_mismatch(JsonWriter& json, const OutputRun& o) {
    const Comparison& c = o.comparison;
    if (!c.first_mismatch) {
        json.null();
        return;
    }
    json.begin_object().key("index");
    write_ints(json, unravel_index(*c.first_mismatch, o.shape));
    json.key("expected").raw(json_number(c.first_expected)).key("actual").raw(json_number(c.first_actual)).end();
}

void write_histogram(JsonWriter& json, const Comparison& c) {
    json.begin_object();
    const auto& labels = error_bucket_labels();
    for (size_t b = 0; b < labels.size(); ++b) json.field(labels[b], c.histogram[b]);
    json.end();
}

void write_output(JsonWriter& json, const OutputRun& o) {
    const Comparison& c = o.comparison;
    json.begin_object().field("index", o.index).key("shape");
    write_ints(json, o.shape);
    json.field("dtype", element_type_name(o.type)).field("compared", o.compared());
    json.key("max_abs_err").raw(json_number(c.max_abs_err)).key("max_rel_err").raw(json_number(c.max_rel_err));
    json.field("mismatches", c.mismatches).field("total", o.compared() ? c.total : 0);
    json.key("first_mismatch");
    write_first_mismatch(json, o);
    json.field("role", o.role).key("mean_abs_err").raw(json_number(c.mean_abs_err));
    json.key("atol").raw(json_number(o.tolerance.atol)).key("rtol").raw(json_number(o.tolerance.rtol));
    json.key("histogram");
    write_histogram(json, c);
    if (!o.expect_path.empty()) json.field("expected_file", o.expect_path);
    if (!c.problem.empty()) json.field("problem", c.problem);
    if (!o.saved_path.empty()) json.field("saved", o.saved_path);
    json.key("map").raw(o.map ? map_json(*o.map) : std::string("null")).key("explanations");
    write_explanations(json, o.explanations);
    json.end();
}

// "MaxPool-8"; a layer that failed before its op was known shows its type.
std::string op_label(const LayerRun& r) {
    if (!r.op_name.empty()) return r.op_name;
    return r.layer.type.empty() ? std::string("no type") : r.layer.type;
}

// "layer ID 'NAME' (OP)", with the model's text made printable.
std::string layer_label(const LayerRun& r) {
    return fmt::format("layer {} '{}' ({})", printable(r.layer.id), printable(r.layer.name), printable(op_label(r)));
}

std::string layer_heading(const LayerRun& r) {
    return fmt::format("{} on {} {} {}", layer_label(r), printable(r.input_path, kPrintedMessageChars),
                       shape_text(r.input_shape), element_type_name(r.input_type));
}

}  // namespace

std::string run_text(const LayerRun& r, const Palette& p) {
    if (r.status == RunStatus::error)
        return fmt::format("{}: {} {}\n", layer_label(r), fmt::styled("error:", p.error),
                           printable(r.error, kPrintedMessageChars));
    std::string out = layer_heading(r) + fmt::format(" ({:.1f} ms)\n", r.milliseconds);
    for (const auto& o : r.outputs) out += output_text(o, p);
    for (const auto& w : r.warnings)
        out += fmt::format("  {} {}\n", fmt::styled("warning:", p.warning), printable(w, kPrintedMessageChars));
    return out +
           fmt::format("result: {}\n", fmt::styled(std::string(run_status_name(r.status)), status_style(p, r.status)));
}

void write_run(JsonWriter& json, const LayerRun& r) {
    json.begin_object().key("layer").begin_object();
    json.field("id", r.layer.id).field("name", r.layer.name).field("type", r.layer.type).field("version", r.version);
    json.end().field("status", run_status_name(r.status)).key("outputs").begin_array();
    for (const OutputRun& o : r.outputs) write_output(json, o);
    json.end();
    if (!r.error.empty()) json.field("error", r.error);
    if (!r.input_path.empty()) json.field("input", r.input_path);
    if (r.status != RunStatus::error) json.key("kernel_ms").raw(json_number(r.milliseconds));
    json.key("warnings").begin_array();
    for (const std::string& w : r.warnings) json.string(w);
    json.end().end();
}

std::string run_json(const LayerRun& r) {
    JsonWriter json;
    write_run(json, r);
    return json.take();
}

std::string runs_text(const std::vector<LayerRun>& runs, const Palette& p) {
    std::string out;
    for (const auto& r : runs) out += run_text(r, p) + "\n";
    // The table is indented, so that no line starts with text from the model.
    std::vector<std::array<std::string, 3>> labels;  // id, name, op: printable
    size_t id_width = 5, name_width = 4;
    for (const auto& r : runs) {
        labels.push_back({printable(r.layer.id), printable(r.layer.name), printable(op_label(r))});
        id_width = std::max(id_width, labels.back()[0].size());
        name_width = std::max(name_width, labels.back()[1].size());
    }
    out += fmt::format("  {:<{}}  {:<{}}  {:<18}  {:<12}  {}\n", "layer", id_width, "name", name_width, "op", "status",
                       "mismatches");
    size_t counts[kStatuses] = {};
    for (size_t k = 0; k < runs.size(); ++k) {
        const LayerRun& r = runs[k];
        ++counts[static_cast<int>(r.status)];
        std::vector<std::string> cells;
        for (const auto& o : r.outputs)
            if (!o.expect_path.empty())
                cells.push_back(o.comparison.compared()
                                    ? fmt::format("{}/{}", o.comparison.mismatches, o.comparison.total)
                                    : std::string("shape/type"));
        out += fmt::format("  {:<{}}  {:<{}}  {:<18}  {:<12}  {}\n", labels[k][0], id_width, labels[k][1], name_width,
                           labels[k][2], fmt::styled(std::string(run_status_name(r.status)), status_style(p, r.status)),
                           cells.empty() ? std::string("-") : fmt::format("{}", fmt::join(cells, " ")));
    }
    return out + fmt::format("{} run: {} ok, {} mismatch, {} error, {} not compared\n", counted(runs.size(), "layer"),
                             counts[0], counts[1], counts[2], counts[3]);
}

std::string runs_json(const std::vector<LayerRun>& runs) {
    size_t counts[kStatuses] = {};
    JsonWriter json;
    json.begin_object().field("tool", "irlint").field("version", IRLINT_VERSION).key("runs").begin_array();
    for (const LayerRun& r : runs) {
        ++counts[static_cast<int>(r.status)];
        write_run(json, r);
    }
    json.end().key("summary").begin_object().field("layers", runs.size()).field("ok", counts[0]);
    json.field("mismatch", counts[1]).field("error", counts[2]).field("not_compared", counts[3]).end().end();
    return json.take() + "\n";
}

}  // namespace irlint
