#pragma once
// What a check produced for one file, and the reporters that render it.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/color.h>

#include "core/diagnostic.hpp"
#include "core/dim.hpp"
#include "core/element_type.hpp"
#include "core/json_writer.hpp"

namespace irlint {

// A pooling layer whose shapes were inferred and compared: a JUnit test case.
struct CheckedLayer {
    LayerRef layer;
    int line = 0;
    bool by_invariants = false;  // JSON "how": "invariants" (else "full")

    bool operator==(const CheckedLayer&) const = default;
};

// How the layers of one op type in a file were checked: fully, by invariants only, or not (the rest).
struct OpTypeCoverage {
    std::string type;
    size_t layers = 0, checked = 0, checked_by_invariants = 0;

    bool operator==(const OpTypeCoverage&) const = default;
};

struct FileResult {
    std::string path;
    size_t layers = 0;
    size_t checked = 0;  // layers whose outputs were inferred and compared (ModelReport::checked)
    size_t checked_by_invariants = 0;  // ModelReport::checked_by_invariants
    Diagnostics diagnostics;
    std::vector<CheckedLayer> checked_layers;
    std::vector<OpTypeCoverage> op_types;  // by type name; Parameter, Const and Result left out (JSON "op_types")

    bool operator==(const FileResult&) const = default;
};

struct Summary {
    size_t files = 0, layers = 0, checked = 0, checked_by_invariants = 0, errors = 0, warnings = 0, notes = 0;
    std::optional<double> wall_seconds;  // known for a run, not for a merge of reports

    void add(const FileResult& file);
    // For --fail-on error|warning|never.
    bool fails(std::string_view fail_on) const;
};

Summary summarize(const std::vector<FileResult>& files);

// Styles that are all empty when color is off, so call sites never ask.
struct Palette {
    fmt::text_style error, warning, note, location, rule, ok, bold;
    static Palette plain() { return {}; }
    static Palette colored();
};

inline constexpr std::string_view kReportFormats[] = {"text", "json", "sarif", "junit", "html"};

// Which shard of which run a report holds: `merge` accepts one complete set of shards of one run.
struct ShardInfo {
    uint64_t index = 0;  // K, 1-based
    uint64_t count = 0;  // N
    std::string run;     // a hash of the run's sorted relative file list and the options that change findings

    bool operator==(const ShardInfo&) const = default;
};

struct ReportOptions {
    Palette palette;        // text
    bool summary = true;    // text: the closing table
    std::string base_dir;   // sarif: artifact URIs are written relative to it (absolute, lexically normal)
    std::optional<ShardInfo> shard;  // json: the shard of a run this report is, for `merge`
};

// Renders a check report in pieces, so that a run over many files streams it: begin(), then file() for
// each file in sorted path order, then end(). Every call returns the text to append to the output.
class Reporter {
public:
    virtual ~Reporter() = default;
    virtual std::string begin() = 0;
    virtual std::string file(const FileResult& file) = 0;
    virtual std::string end(const Summary& summary) = 0;
};

// format is one of kReportFormats.
std::unique_ptr<Reporter> make_reporter(std::string_view format, const ReportOptions& options);
std::unique_ptr<Reporter> make_text_reporter(const ReportOptions& options);
std::unique_ptr<Reporter> make_json_reporter(std::optional<ShardInfo> shard = std::nullopt);
std::unique_ptr<Reporter> make_sarif_reporter(const ReportOptions& options);
std::unique_ptr<Reporter> make_junit_reporter();
std::unique_ptr<Reporter> make_html_reporter();

// The whole report of `files` at once.
std::string render_report(std::string_view format, const ReportOptions& options, const std::vector<FileResult>& files,
                          std::optional<double> wall_seconds = std::nullopt);

// The text reporter's finding line, also used on its own: `path:line: severity: layer ...: message [rule]`,
// with every string from the file made printable (core/text.hpp).
std::string finding_line(const std::string& path, const Diagnostic& d, const Palette& palette);
// "layer 1 'pool1' (MaxPool): ", or "" for a finding about no layer.
std::string layer_prefix(const LayerRef& layer);

// JSON spelling of dims: integers when static, -1 when fully dynamic, "lo..hi" / "lo.." / "..hi" otherwise.
std::string dims_json(const Shape& shape);
// `key` and an array of the shapes' dims_json.
void write_shapes(JsonWriter& json, std::string_view key, const std::vector<Shape>& shapes);
// `key` and an array of what each value is ("tensor", "sequence", "optional", "optional sequence"), written
// only when one is not a tensor (ONNX): the dims_json of such a value are its tensors'.
void write_kinds(JsonWriter& json, std::string_view key, const std::vector<Shape>& shapes);
// "[1,64,112,112]:f32 [1,64,112,112]:i64": each shape with its element type where it is known; "-" for none.
std::string shapes_text(const std::vector<Shape>& shapes, const std::vector<std::optional<ElementType>>& types = {});
// One finding as the JSON report writes it: {"severity","rule","message","line","layer_id","layer_name","layer_type"}.
void write_diagnostic(JsonWriter& json, const Diagnostic& d);
// Text for an XML attribute value (also fit for element content); characters XML 1.0 cannot hold become U+FFFD.
std::string xml_escape(std::string_view s);
// The SARIF artifact URI of a reported path: relative to base_dir (an absolute directory) when the path
// is, with every byte outside RFC 3986's unreserved set and '/' percent-encoded.
std::string artifact_uri(const std::string& path, const std::string& base_dir);

}  // namespace irlint
