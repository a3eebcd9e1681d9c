#include <filesystem>
#include <optional>

#include <fmt/format.h>

#include "report/report.hpp"
#include "rules/registry.hpp"

namespace irlint {

namespace fs = std::filesystem;

namespace {

bool is_unreserved(unsigned char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
           c == '_' || c == '~';
}

std::string percent_encode_path(std::string_view path) {
    std::string out;
    for (unsigned char c : path) {
        if (is_unreserved(c) || c == '/') out += static_cast<char>(c);
        else out += fmt::format("%{:02X}", c);
    }
    return out;
}

fs::path without_trailing_separator(fs::path p) {
    p = p.lexically_normal();
    if (!p.has_filename() && p.has_relative_path()) p = p.parent_path();
    return p;
}

}  // namespace

std::string artifact_uri(const std::string& path, const std::string& base_dir) {
    const fs::path p(path);
    if (base_dir.empty() && p.is_relative()) return percent_encode_path(p.lexically_normal().generic_string());
    const fs::path base = without_trailing_separator(base_dir);
    const fs::path absolute = (p.is_absolute() ? p : base / p).lexically_normal();
    const fs::path relative = base_dir.empty() ? fs::path() : absolute.lexically_relative(base);
    if (relative.empty()) return "file://" + percent_encode_path(absolute.generic_string());
    return percent_encode_path(relative.generic_string());
}

namespace {

constexpr std::string_view kSarifSchema =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/os/schemas/sarif-schema-2.1.0.json";

void write_rules(JsonWriter& json) {
    json.begin_array();
    for (const Rule& r : rule_registry()) {
        json.begin_object().field("id", r.id);
        json.key("shortDescription").begin_object().field("text", r.summary).end();
        json.field("helpUri", rule_help_uri(r));
        json.key("defaultConfiguration").begin_object().field("level", severity_name(r.severity)).end();
        json.end();
    }
    json.end();
}

std::optional<size_t> rule_index(std::string_view rule_id) {
    const auto rules = rule_registry();
    for (size_t i = 0; i < rules.size(); ++i)
        if (rules[i].id == rule_id) return i;
    return std::nullopt;
}

// GitHub code scanning, GitLab and most viewers need no more than this: one run, the rule table, and per
// finding its rule, level, message and file:line.
class SarifReporter : public Reporter {
public:
    explicit SarifReporter(const ReportOptions& o) : base_dir_(o.base_dir) {}

    std::string begin() override {
        json_.begin_object().field("$schema", kSarifSchema).field("version", "2.1.0").key("runs").begin_array();
        json_.begin_object().key("tool").begin_object().key("driver").begin_object();
        json_.field("name", "irlint").field("version", IRLINT_VERSION).field("informationUri", kProjectUrl);
        json_.key("rules");
        write_rules(json_);
        json_.end().end().key("results").begin_array();
        return json_.take();
    }

    std::string file(const FileResult& f) override {
        const std::string uri = artifact_uri(f.path, base_dir_);
        for (const Diagnostic& d : f.diagnostics) write_result(d, uri);
        return json_.take();
    }

    std::string end(const Summary&) override {
        json_.end().end().end().end();
        return json_.take() + "\n";
    }

private:
    void write_result(const Diagnostic& d, const std::string& uri) {
        json_.begin_object().field("ruleId", d.rule);
        if (const auto index = rule_index(d.rule)) json_.field("ruleIndex", *index);
        json_.field("level", severity_name(d.severity));
        json_.key("message").begin_object().field("text", layer_prefix(d.layer) + d.message).end();
        json_.key("locations").begin_array().begin_object().key("physicalLocation").begin_object();
        json_.key("artifactLocation").begin_object().field("uri", uri).end();
        if (d.line > 0) json_.key("region").begin_object().field("startLine", d.line).end();
        json_.end().end().end();
        // GitHub code scanning follows an alert from one commit to the next by this key.
        if (!d.fingerprint.empty())
            json_.key("partialFingerprints").begin_object().field("irlint/v1", d.fingerprint).end();
        json_.end();
    }

    std::string base_dir_;
    JsonWriter json_;
};

}  // namespace

std::unique_ptr<Reporter> make_sarif_reporter(const ReportOptions& options) {
    return std::make_unique<SarifReporter>(options);
}

}  // namespace irlint
