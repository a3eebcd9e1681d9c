#include <fmt/format.h>

#include "core/json_writer.hpp"
#include "report/report.hpp"

namespace irlint {

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

void write_diagnostic(JsonWriter& json, const Diagnostic& d) {
    json.begin_object()
        .field("severity", severity_name(d.severity))
        .field("rule", d.rule)
        .field("message", d.message)
        .field("line", d.line)
        .field("layer_id", d.layer.id)
        .field("layer_name", d.layer.name)
        .field("layer_type", d.layer.type);
    if (!d.fingerprint.empty()) json.field("fingerprint", d.fingerprint);
    json.end();
}

std::string diagnostic_json(const Diagnostic& d) {
    JsonWriter json;
    write_diagnostic(json, d);
    return json.take();
}

namespace {

void write_checked_layer(JsonWriter& json, const CheckedLayer& c) {
    json.begin_object()
        .field("id", c.layer.id)
        .field("name", c.layer.name)
        .field("type", c.layer.type)
        .field("line", c.line)
        .end();
}

// The report documented in docs/cli.md, on one line. `checked_layers` and the summary's `layers` and `checked`
// extend the original keys (which keep their order), so that `merge` can rebuild every format from it.
class JsonReporter : public Reporter {
public:
    explicit JsonReporter(std::optional<ShardInfo> shard) : shard_(std::move(shard)) {}

    std::string begin() override {
        json_.begin_object().field("tool", "irlint").field("version", IRLINT_VERSION).key("files").begin_array();
        return json_.take();
    }

    std::string file(const FileResult& f) override {
        json_.begin_object().field("path", f.path).field("layers", f.layers).field("checked", f.checked);
        json_.key("diagnostics").begin_array();
        for (const Diagnostic& d : f.diagnostics) write_diagnostic(json_, d);
        json_.end().key("checked_layers").begin_array();
        for (const CheckedLayer& c : f.checked_layers) write_checked_layer(json_, c);
        json_.end().end();
        return json_.take();
    }

    std::string end(const Summary& s) override {
        json_.end().key("summary").begin_object();
        json_.field("files", s.files).field("errors", s.errors).field("warnings", s.warnings).field("notes", s.notes);
        json_.field("layers", s.layers).field("checked", s.checked).end();
        if (shard_) {
            json_.key("shard").begin_object().field("index", shard_->index).field("count", shard_->count);
            json_.field("run", shard_->run).end();
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
