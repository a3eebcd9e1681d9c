#include <algorithm>

#include <fmt/format.h>

#include "core/json_writer.hpp"
#include "report/report.hpp"
#include "report/report_schema.hpp"

namespace irlint {

namespace k = report_key;

std::string dims_json(const Shape& shape) {
    if (shape.rank_dynamic) return json_string("...");
    JsonWriter json;
    json.begin_array();
    for (const Dim& d : shape.dims) {
        if (d.is_static()) json.number(d.length());
        else if (d.is_fully_dynamic()) json.number(-1);
        else json.string(d.str());
    }
    return json.end().take();
}

void write_shapes(JsonWriter& json, std::string_view key, const std::vector<Shape>& shapes) {
    json.key(key).begin_array();
    for (const Shape& shape : shapes) json.raw(dims_json(shape));
    json.end();
}

void write_kinds(JsonWriter& json, std::string_view key, const std::vector<Shape>& shapes) {
    if (std::all_of(shapes.begin(), shapes.end(), [](const Shape& s) { return s.kind == ValueKind::tensor; })) return;
    json.key(key).begin_array();
    for (const Shape& shape : shapes) json.string(value_kind_name(shape.kind));
    json.end();
}

namespace {

std::string_view consequence_kind_name(Consequence::Kind kind) {
    switch (kind) {
        case Consequence::Kind::absorbed: return "absorbed";
        case Consequence::Kind::reaches: return "reaches";
        case Consequence::Kind::breaks: return "breaks";
    }
    return "reaches";
}

void write_consequence(JsonWriter& json, const Consequence& c) {
    json.key(k::consequence).begin_object().field(k::kind, consequence_kind_name(c.kind));
    if (c.kind == Consequence::Kind::reaches) {
        json.key(k::outputs).begin_array();
        for (const std::string& name : c.outputs) json.string(name);
        json.end().field(k::layers, c.layers);
    } else {
        json.key(k::by).begin_object().field(k::id, c.by.id).field(k::name, c.by.name).field(k::type, c.by.type).end();
    }
    json.end();
}

}  // namespace

void write_diagnostic(JsonWriter& json, const Diagnostic& d) {
    json.begin_object()
        .field(k::severity, severity_name(d.severity))
        .field(k::rule, d.rule)
        .field(k::message, d.message)
        .field(k::line, d.line)
        .field(k::layer_id, d.layer.id)
        .field(k::layer_name, d.layer.name)
        .field(k::layer_type, d.layer.type);
    if (!d.fingerprint.empty()) json.field(k::fingerprint, d.fingerprint);
    if (d.consequence) write_consequence(json, *d.consequence);
    json.end();
}

namespace {

void write_checked_layer(JsonWriter& json, const CheckedLayer& c) {
    json.begin_object()
        .field(k::id, c.layer.id)
        .field(k::name, c.layer.name)
        .field(k::type, c.layer.type)
        .field(k::line, c.line)
        .field(k::how, c.by_invariants ? k::how_invariants : k::how_full)
        .end();
}

void write_op_type(JsonWriter& json, const OpTypeCoverage& t) {
    json.begin_object()
        .field(k::type, t.type)
        .field(k::layers, t.layers)
        .field(k::checked, t.checked)
        .field(k::checked_by_invariants, t.checked_by_invariants)
        .end();
}

// The report documented in docs/cli.md, on one line. `checked_layers` and the summary's `layers` and `checked`
// (and `checked_by_invariants`, contract v4)
// extend the original keys (which keep their order), so that `merge` can rebuild every format from it.
class JsonReporter : public Reporter {
public:
    explicit JsonReporter(std::optional<ShardInfo> shard) : shard_(std::move(shard)) {}

    std::string begin() override {
        json_.begin_object().field(k::tool, "irlint").field(k::version, IRLINT_VERSION).key(k::files).begin_array();
        return json_.take();
    }

    std::string file(const FileResult& f) override {
        json_.begin_object().field(k::path, f.path).field(k::layers, f.layers).field(k::checked, f.checked);
        json_.field(k::checked_by_invariants, f.checked_by_invariants).key(k::diagnostics).begin_array();
        for (const Diagnostic& d : f.diagnostics) write_diagnostic(json_, d);
        json_.end().key(k::checked_layers).begin_array();
        for (const CheckedLayer& c : f.checked_layers) write_checked_layer(json_, c);
        json_.end().key(k::op_types).begin_array();
        for (const OpTypeCoverage& t : f.op_types) write_op_type(json_, t);
        json_.end().end();
        return json_.take();
    }

    std::string end(const Summary& s) override {
        json_.end().key(k::summary).begin_object();
        json_.field(k::files, s.files).field(k::errors, s.errors).field(k::warnings, s.warnings).field(k::notes, s.notes);
        json_.field(k::layers, s.layers).field(k::checked, s.checked);
        json_.field(k::checked_by_invariants, s.checked_by_invariants).end();
        if (shard_) {
            json_.key(k::shard).begin_object().field(k::index, shard_->index).field(k::count, shard_->count);
            json_.field(k::run, shard_->run).end();
        }
        json_.end();
        return json_.take() + "\n";
    }

private:
    JsonWriter json_;
    std::optional<ShardInfo> shard_;
};

}  // namespace

std::unique_ptr<Reporter> make_json_reporter(std::optional<ShardInfo> shard) {
    return std::make_unique<JsonReporter>(std::move(shard));
}

}  // namespace irlint
