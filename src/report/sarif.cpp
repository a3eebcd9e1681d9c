#include <filesystem>

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

std::string rules_json() {
    std::string out = "[";
    bool first = true;
    for (const Rule& r : rule_registry()) {
        out += fmt::format(
            "{}{{\"id\":{},\"shortDescription\":{{\"text\":{}}},\"helpUri\":{},"
            "\"defaultConfiguration\":{{\"level\":\"{}\"}}}}",
            first ? "" : ",", json_string(r.id), json_string(r.summary), json_string(rule_help_uri(r)),
            severity_name(r.severity));
        first = false;
    }
    return out + "]";
}

std::string rule_index_json(std::string_view rule_id) {
    const auto rules = rule_registry();
    for (size_t i = 0; i < rules.size(); ++i)
        if (rules[i].id == rule_id) return fmt::format(",\"ruleIndex\":{}", i);
    return "";
}

// GitHub code scanning, GitLab and most viewers need no more than this: one run, the rule table, and per
// finding its rule, level, message and file:line.
class SarifReporter : public Reporter {
public:
    explicit SarifReporter(const ReportOptions& o) : base_dir_(o.base_dir) {}

    std::string begin() override {
        return fmt::format(
            "{{\"$schema\":{},\"version\":\"2.1.0\",\"runs\":[{{\"tool\":{{\"driver\":{{\"name\":\"irlint\","
            "\"version\":\"{}\",\"informationUri\":{},\"rules\":{}}}}},\"results\":[",
            json_string(kSarifSchema), IRLINT_VERSION, json_string(kProjectUrl), rules_json());
    }

    std::string file(const FileResult& f) override {
        std::string out;
        const std::string uri = json_string(artifact_uri(f.path, base_dir_));
        for (const Diagnostic& d : f.diagnostics) {
            out += first_ ? "" : ",";
            first_ = false;
            out += result_json(d, uri);
        }
        return out;
    }

    std::string end(const Summary&) override { return "]}]}\n"; }

private:
    static std::string result_json(const Diagnostic& d, const std::string& uri_json) {
        const std::string region = d.line > 0 ? fmt::format(",\"region\":{{\"startLine\":{}}}", d.line) : "";
        return fmt::format(
            "{{\"ruleId\":{}{},\"level\":\"{}\",\"message\":{{\"text\":{}}},\"locations\":[{{\"physicalLocation\":"
            "{{\"artifactLocation\":{{\"uri\":{}}}{}}}}}]{}}}",
            json_string(d.rule), rule_index_json(d.rule), severity_name(d.severity),
            json_string(layer_prefix(d.layer) + d.message), uri_json, region, partial_fingerprints(d));
    }

    // GitHub code scanning follows an alert from one commit to the next by this key.
    static std::string partial_fingerprints(const Diagnostic& d) {
        if (d.fingerprint.empty()) return "";
        return ",\"partialFingerprints\":{\"irlint/v1\":" + json_string(d.fingerprint) + "}";
    }

    std::string base_dir_;
    bool first_ = true;
};

}  // namespace

std::unique_ptr<Reporter> make_sarif_reporter(const ReportOptions& options) {
    return std::make_unique<SarifReporter>(options);
}

}  // namespace irlint
