#include <fmt/format.h>

#include "core/text.hpp"
#include "report/report.hpp"

namespace irlint {

std::string json_string(std::string_view s) {
    std::string out = "\"";
    for (unsigned char c : to_valid_utf8(s)) {
        switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\r': out += "\\r"; break;
            case '\t': out += "\\t"; break;
            default:
                if (c < 0x20) out += fmt::format("\\u{:04x}", c);
                else out += static_cast<char>(c);
        }
    }
    return out + "\"";
}

std::string dims_json(const Shape& shape) {
    if (shape.rank_dynamic) return "\"...\"";
    std::string out = "[";
    for (size_t i = 0; i < shape.dims.size(); ++i) {
        if (i) out += ",";
        const Dim& d = shape.dims[i];
        if (d.is_static()) out += std::to_string(d.length());
        else if (d.is_fully_dynamic()) out += "-1";
        else out += json_string(d.str());
    }
    return out + "]";
}

std::string diagnostic_json(const Diagnostic& d) {
    return fmt::format(
        "{{\"severity\":\"{}\",\"rule\":{},\"message\":{},\"line\":{},\"layer_id\":{},\"layer_name\":{},"
        "\"layer_type\":{}{}}}",
        severity_name(d.severity), json_string(d.rule), json_string(d.message), d.line, json_string(d.layer.id),
        json_string(d.layer.name), json_string(d.layer.type),
        d.fingerprint.empty() ? "" : ",\"fingerprint\":" + json_string(d.fingerprint));
}

namespace {

std::string checked_layer_json(const CheckedLayer& c) {
    return fmt::format("{{\"id\":{},\"name\":{},\"type\":{},\"line\":{}}}", json_string(c.layer.id),
                       json_string(c.layer.name), json_string(c.layer.type), c.line);
}

template <class T, class Fn>
std::string json_list(const std::vector<T>& items, Fn item_json) {
    std::string out = "[";
    for (size_t i = 0; i < items.size(); ++i) {
        if (i) out += ",";
        out += item_json(items[i]);
    }
    return out + "]";
}

// The report documented in docs/cli.md, on one line. `checked_layers` and the summary's `layers` and `checked`
// extend the original keys (which keep their order), so that `merge` can rebuild every format from it.
class JsonReporter : public Reporter {
public:
    explicit JsonReporter(std::optional<ShardInfo> shard) : shard_(std::move(shard)) {}

    std::string begin() override {
        return fmt::format("{{\"tool\":\"irlint\",\"version\":\"{}\",\"files\":[", IRLINT_VERSION);
    }

    std::string file(const FileResult& f) override {
        const char* comma = first_ ? "" : ",";
        first_ = false;
        return fmt::format("{}{{\"path\":{},\"layers\":{},\"checked\":{},\"diagnostics\":{},\"checked_layers\":{}}}",
                           comma, json_string(f.path), f.layers, f.checked, json_list(f.diagnostics, diagnostic_json),
                           json_list(f.checked_layers, checked_layer_json));
    }

    std::string end(const Summary& s) override {
        return fmt::format(
            "],\"summary\":{{\"files\":{},\"errors\":{},\"warnings\":{},\"notes\":{},\"layers\":{},"
            "\"checked\":{}}}{}}}\n",
            s.files, s.errors, s.warnings, s.notes, s.layers, s.checked, shard_json());
    }

private:
    std::string shard_json() const {
        if (!shard_) return "";
        return fmt::format(",\"shard\":{{\"index\":{},\"count\":{},\"run\":{}}}", shard_->index, shard_->count,
                           json_string(shard_->run));
    }

    bool first_ = true;
    std::optional<ShardInfo> shard_;
};

}  // namespace

std::unique_ptr<Reporter> make_json_reporter(std::optional<ShardInfo> shard) {
    return std::make_unique<JsonReporter>(std::move(shard));
}

}  // namespace irlint
