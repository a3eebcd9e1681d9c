#include "report/report_reader.hpp"

#include <climits>

#include <fmt/format.h>

#include "core/text.hpp"
#include "report/json_reader.hpp"
#include "report/report_schema.hpp"

namespace irlint {

namespace k = report_key;

namespace {

struct ReportError {
    std::string what;
};

[[noreturn]] void fail(const std::string& where, const std::string& what) {
    throw ReportError{fmt::format("{}: {}", where, what)};
}

const JsonValue& member(const JsonValue& object, std::string_view key, const std::string& where) {
    const JsonValue* v = object.find(key);
    if (!v) fail(where, fmt::format("missing key \"{}\"", key));
    return *v;
}

const JsonValue& of_kind(const JsonValue& v, JsonValue::Kind kind, const std::string& where) {
    if (v.kind != kind) fail(where, fmt::format("expected {}, found {}", json_kind_name(kind), json_kind_name(v.kind)));
    return v;
}

std::string string_at(const JsonValue& object, std::string_view key, const std::string& where) {
    return of_kind(member(object, key, where), JsonValue::Kind::string, fmt::format("{}.{}", where, key)).string;
}

int64_t count_at(const JsonValue& object, std::string_view key, const std::string& where, int64_t max) {
    const JsonValue& v = member(object, key, where);
    if (v.kind != JsonValue::Kind::number || !v.integer || *v.integer < 0 || *v.integer > max)
        fail(fmt::format("{}.{}", where, key),
             fmt::format("expected an integer from 0 to {}, found {}", max,
                         v.kind == JsonValue::Kind::number ? fmt::format("{}", v.number)
                                                           : std::string(json_kind_name(v.kind))));
    return *v.integer;
}

Severity severity_at(const JsonValue& object, const std::string& where) {
    const std::string s = string_at(object, k::severity, where);
    if (s == "error") return Severity::error;
    if (s == "warning") return Severity::warning;
    if (s == "note") return Severity::note;
    fail(where + ".severity", fmt::format("expected \"error\", \"warning\" or \"note\", found \"{}\"", excerpt(s)));
}

LayerRef layer_at(const JsonValue& object, const std::string& where, std::string_view id, std::string_view name,
                  std::string_view type) {
    return {string_at(object, id, where), string_at(object, name, where), string_at(object, type, where)};
}

Consequence read_consequence(const JsonValue& v, const std::string& where) {
    of_kind(v, JsonValue::Kind::object, where);
    Consequence c;
    const std::string kind = string_at(v, k::kind, where);
    if (kind == "reaches") {
        const JsonValue& outputs = member(v, k::outputs, where);
        of_kind(outputs, JsonValue::Kind::array, where + ".outputs");
        for (size_t i = 0; i < outputs.items.size(); ++i) {
            const std::string at = fmt::format("{}.outputs[{}]", where, i);
            of_kind(outputs.items[i], JsonValue::Kind::string, at);
            c.outputs.push_back(outputs.items[i].string);
        }
        c.layers = static_cast<size_t>(count_at(v, k::layers, where, INT64_MAX));
        return c;
    }
    if (kind != "absorbed" && kind != "breaks")
        fail(where + ".kind", fmt::format("expected \"absorbed\", \"reaches\" or \"breaks\", found \"{}\"", excerpt(kind)));
    c.kind = kind == "absorbed" ? Consequence::Kind::absorbed : Consequence::Kind::breaks;
    const JsonValue& by = member(v, k::by, where);
    of_kind(by, JsonValue::Kind::object, where + ".by");
    c.by = layer_at(by, where + ".by", k::id, k::name, k::type);
    return c;
}

Diagnostic read_diagnostic(const JsonValue& v, const std::string& where) {
    of_kind(v, JsonValue::Kind::object, where);
    Diagnostic d;
    d.severity = severity_at(v, where);
    d.rule = string_at(v, k::rule, where);
    d.message = string_at(v, k::message, where);
    d.line = static_cast<int>(count_at(v, k::line, where, INT_MAX));
    d.layer = layer_at(v, where, k::layer_id, k::layer_name, k::layer_type);
    if (v.find(k::fingerprint)) d.fingerprint = string_at(v, k::fingerprint, where);
    if (const JsonValue* c = v.find(k::consequence)) d.consequence = read_consequence(*c, where + ".consequence");
    return d;
}

// "how" is absent from reports older than contract v4: their layers were all checked fully.
bool by_invariants_at(const JsonValue& object, const std::string& where) {
    if (!object.find(k::how)) return false;
    const std::string how = string_at(object, k::how, where);
    if (how == k::how_invariants) return true;
    if (how == k::how_full) return false;
    fail(where + ".how", fmt::format("expected \"{}\" or \"{}\", found \"{}\"", k::how_full, k::how_invariants,
                                     excerpt(how)));
}

CheckedLayer read_checked_layer(const JsonValue& v, const std::string& where) {
    of_kind(v, JsonValue::Kind::object, where);
    return {layer_at(v, where, k::id, k::name, k::type), static_cast<int>(count_at(v, k::line, where, INT_MAX)),
            by_invariants_at(v, where)};
}

OpTypeCoverage read_op_type(const JsonValue& v, const std::string& where) {
    of_kind(v, JsonValue::Kind::object, where);
    OpTypeCoverage t;
    t.type = string_at(v, k::type, where);
    t.layers = static_cast<size_t>(count_at(v, k::layers, where, INT64_MAX));
    t.checked = static_cast<size_t>(count_at(v, k::checked, where, static_cast<int64_t>(t.layers)));
    t.checked_by_invariants = static_cast<size_t>(
        count_at(v, k::checked_by_invariants, where, static_cast<int64_t>(t.layers - t.checked)));
    return t;
}

template <class T, class ReadItem>
std::vector<T> read_list(const JsonValue& list, const std::string& where, ReadItem read_item) {
    of_kind(list, JsonValue::Kind::array, where);
    std::vector<T> out;
    for (size_t i = 0; i < list.items.size(); ++i)
        out.push_back(read_item(list.items[i], fmt::format("{}[{}]", where, i)));
    return out;
}

FileResult read_file(const JsonValue& v, const std::string& where) {
    of_kind(v, JsonValue::Kind::object, where);
    FileResult f;
    f.path = string_at(v, k::path, where);
    if (f.path.empty()) fail(where + ".path", "empty path");
    f.layers = static_cast<size_t>(count_at(v, k::layers, where, INT64_MAX));
    f.checked = static_cast<size_t>(count_at(v, k::checked, where, INT64_MAX));
    if (v.find(k::checked_by_invariants))  // contract v4
        f.checked_by_invariants = static_cast<size_t>(count_at(v, k::checked_by_invariants, where, INT64_MAX));
    f.diagnostics = read_list<Diagnostic>(member(v, k::diagnostics, where), where + ".diagnostics", read_diagnostic);
    // Reports of irlint 0.1.0 lack the list; their JUnit shows the file as a whole only.
    if (const JsonValue* layers = v.find(k::checked_layers))
        f.checked_layers = read_list<CheckedLayer>(*layers, where + ".checked_layers", read_checked_layer);
    if (const JsonValue* types = v.find(k::op_types))  // contract v4
        f.op_types = read_list<OpTypeCoverage>(*types, where + ".op_types", read_op_type);
    return f;
}

// The summary is derived from the files; a summary that disagrees tells of a report edited or cut short.
void check_summary(const JsonValue& report, const std::vector<FileResult>& files) {
    const JsonValue& s = of_kind(member(report, k::summary, "report"), JsonValue::Kind::object, "summary");
    const Summary actual = summarize(files);
    const std::pair<std::string_view, size_t> totals[] = {
        {k::files, actual.files}, {k::errors, actual.errors}, {k::warnings, actual.warnings}, {k::notes, actual.notes}};
    for (const auto& [key, value] : totals) {
        const int64_t written = count_at(s, key, "summary", INT64_MAX);
        if (static_cast<size_t>(written) != value)
            fail(fmt::format("summary.{}", key), fmt::format("is {}, but the files list has {}", written, value));
    }
}

std::vector<FileResult> read_report(const JsonValue& report) {
    of_kind(report, JsonValue::Kind::object, "report");
    const std::string tool = string_at(report, k::tool, "report");
    if (tool != "irlint") fail("tool", fmt::format("is \"{}\", not \"irlint\"", excerpt(tool)));
    string_at(report, k::version, "report");
    auto files = read_list<FileResult>(member(report, k::files, "report"), "files", read_file);
    check_summary(report, files);
    return files;
}

// The "shard" object, when the report has one; ReportError when it is there but malformed.
std::optional<ShardInfo> read_shard(const JsonValue& report) {
    const JsonValue* shard = report.find(k::shard);
    if (!shard) return std::nullopt;
    const JsonValue* index = shard->find(k::index);
    const JsonValue* count = shard->find(k::count);
    const JsonValue* run = shard->find(k::run);
    if (!index || !count || !run || !index->integer || !count->integer || run->kind != JsonValue::Kind::string ||
        *count->integer < 1 || *index->integer < 1 || *index->integer > *count->integer)
        throw ReportError{"shard: expected {\"index\":K,\"count\":N,\"run\":\"...\"} with 1 <= K <= N"};
    return ShardInfo{static_cast<uint64_t>(*index->integer), static_cast<uint64_t>(*count->integer), run->string};
}

}  // namespace

std::optional<CheckReport> read_check_report(std::string_view json_text, std::string& error) {
    const std::optional<JsonValue> root = parse_json(json_text, error);
    if (!root) return std::nullopt;
    try {
        CheckReport report;
        report.files = read_report(*root);
        report.shard = read_shard(*root);
        return report;
    } catch (const ReportError& e) {
        error = e.what;
        return std::nullopt;
    }
}

}  // namespace irlint
